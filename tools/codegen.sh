#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# codegen.sh [ARCH...]: "no codegen change", measured.  Build the objects
# that patches 1-4 touch at base and at the last patch of series/, with the
# .config that kunit.sh made for ARCH (the KUnit suite itself turned off),
# and compare them with scripts/bloat-o-meter and objdump -d.
. "$(dirname "$0")/lib.sh"

"$TOP/tools/apply.sh" >/dev/null
npatches=$(ls "$TOP"/series/0*.patch | grep -vc 0000-cover-letter)
after=$(git -C "$TREE" rev-list --reverse base..HEAD | sed -n "${npatches}p")
src=$BUILD/codegen-src
if [ ! -d "$src" ]; then
	git -C "$TREE" worktree add -q --detach "$src" base
fi

objects() {
	case $1 in
	mips64*) echo "fs/read_write.o arch/mips/kernel/linux32.o fs/open.o fs/sync.o mm/fadvise.o mm/readahead.o" ;;
	*) echo "fs/read_write.o fs/open.o fs/sync.o mm/fadvise.o mm/readahead.o" ;;
	esac
}

# The code and what it refers to.  Where merged strings land in .rodata.str
# may move (the strings themselves do not change): their offsets are dropped.
disasm() {
	"${cross}objdump" -dr --no-show-raw-insn "$1" | tail -n +3 |
		sed 's/\(\.rodata\.str[0-9.]*\)+0x[0-9a-f]*/\1/'
}

# The mnemonics of an object's code, one per instruction.
mnemonics() {
	disasm "$1" | awk -F'\t' '/^ +[0-9a-f]+:\t/ { split($2, m, " "); print m[1] }'
}

# One difference is known and checked to be only that: MIPS' private
# merge_64() added the halves, the generic one ORs them, as every other
# site did; the bits do not overlap, and each daddu becomes an or.  This
# checks the mix of instructions, not their registers: that the words are
# merged in the right order is what the o32 selftests (pair.*) check.
expected_change() {
	case $1:$2 in
	mips64*:arch/mips/kernel/linux32.o)
		cmp -s <(mnemonics "$3" | sed 's/^daddu$/or/' | sort | uniq -c) \
		       <(mnemonics "$4" | sort | uniq -c) &&
			echo "$(mnemonics "$3" | grep -c '^daddu$') daddu become or, nothing else in the mnemonics changes" ;;
	*)	return 1 ;;
	esac
}

rc=0
for arch in ${*:-$ARCHES}; do
	cross=$(arch_cross "$arch")
	[ -f "$BUILD/kunit-$arch/.config" ] || die "no $BUILD/kunit-$arch/.config: run make run ARCH=$arch first"
	for rev in base "$after"; do
		o=$BUILD/codegen-$arch/$( [ "$rev" = base ] && echo base || echo series)
		mkdir -p "$o"
		git -C "$src" checkout -q --detach "$rev"
		sed '/CONFIG_READ_WRITE_KUNIT_TEST/d' "$BUILD/kunit-$arch/.config" > "$o/.config"
		say "codegen $arch: building $(objects "$arch") at $(git -C "$src" log -1 --format=%s "$rev" | cut -c1-50)"
		make -s -C "$src" O="$o" ARCH="$(make_arch "$arch")" CROSS_COMPILE="$cross" CC="ccache ${cross}gcc" \
			olddefconfig $(objects "$arch") -j"$JOBS" >"$LOGS/codegen-$arch.log" 2>&1 ||
			{ cat "$LOGS/codegen-$arch.log"; die "codegen $arch: build failed"; }
	done
	for obj in $(objects "$arch"); do
		a=$BUILD/codegen-$arch/base/$obj b=$BUILD/codegen-$arch/series/$obj
		sizes=$("$TREE/scripts/bloat-o-meter" "$a" "$b" | sed -n 1p)
		if cmp -s <(disasm "$a") <(disasm "$b"); then
			say "codegen $arch: $obj: code identical ($sizes)"
		elif why=$(expected_change "$arch" "$obj" "$a" "$b"); then
			say "codegen $arch: $obj: code differs as expected: $why ($sizes)"
		else
			say "codegen $arch: $obj: CODE DIFFERS ($sizes)"
			diff <(disasm "$a") <(disasm "$b") | sed -n 1,40p || true
			rc=1
		fi
	done
done
exit $rc
