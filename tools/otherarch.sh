#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# otherarch.sh: the generic merge_64() must not break an architecture that
# keeps a merge_64() of its own.  powerpc defines one as a macro in
# <asm/syscalls.h>, after including <linux/compat.h>.  Build, with -Werror,
# the powerpc objects that see both, at base and with the series, for ppc64
# (with COMPAT) and ppc32.
. "$(dirname "$0")/lib.sh"

"$TOP/tools/apply.sh" >/dev/null
src=$BUILD/codegen-src
[ -d "$src" ] || { git -C "$TREE" worktree prune; git -C "$TREE" worktree add -q --detach "$src" base; }
objs="arch/powerpc/kernel/sys_ppc32.o arch/powerpc/kernel/syscalls.o arch/powerpc/kernel/signal_32.o
      arch/powerpc/kernel/process.o fs/read_write.o fs/open.o fs/sync.o mm/fadvise.o mm/readahead.o"
rc=0
for target in ppc64:powerpc64-linux-gnu-:ppc64_defconfig ppc32:powerpc-linux-gnu-:pmac32_defconfig; do
	IFS=: read -r name cross defconfig <<< "$target"
	command -v "${cross}gcc" >/dev/null || die "${cross}gcc not found (make deps)"
	for rev in base series; do
		git -C "$src" checkout -q --detach "$(git -C "$TREE" rev-parse "$rev")"
		o=$BUILD/otherarch-$name
		say "otherarch $name: $defconfig, building $(echo $objs | wc -w) objects at $rev"
		if make -s -C "$src" O="$o" ARCH=powerpc CROSS_COMPILE="$cross" CC="ccache ${cross}gcc" \
			KCFLAGS=-Werror "$defconfig" $objs -j"$JOBS" >"$LOGS/otherarch-$name-$rev.log" 2>&1; then
			say "otherarch $name at $rev: built, no warning"
		else
			grep -E 'error|warning' "$LOGS/otherarch-$name-$rev.log" | head -20
			say "otherarch $name at $rev: FAILED (log: $LOGS/otherarch-$name-$rev.log)"
			rc=1
		fi
	done
done
exit $rc
