#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# codegen.sh [TARGET...]: "no codegen change", measured.  Build the objects
# that the series' kernel patches change, at base and at the last patch of
# series/, and compare them with scripts/bloat-o-meter and objdump -d.  A
# target is a kernel of the matrix, with the .config that kunit.sh made for
# it (the KUnit suite itself turned off), or an architecture the matrix does
# not boot, with a defconfig that has what the series changes (COMPAT),
# and the options after a "+" in its config column turned on.
. "$(dirname "$0")/lib.sh"

# target  make ARCH  cross prefix  config  objects
CODEGEN_TARGETS='
x86_64	x86_64	-	kunit	fs/read_write.o
i386	i386	i686-linux-gnu-	kunit	fs/read_write.o
mips	mips	mips-linux-gnu-	kunit	fs/read_write.o
mipsel	mips	mipsel-linux-gnu-	kunit	fs/read_write.o
mips64	mips	mips64-linux-gnuabi64-	kunit	fs/read_write.o arch/mips/kernel/linux32.o
mips64el	mips	mips64el-linux-gnuabi64-	kunit	fs/read_write.o arch/mips/kernel/linux32.o
ppc64	powerpc	powerpc64-linux-gnu-	ppc64_defconfig	fs/read_write.o arch/powerpc/kernel/sys_ppc32.o arch/powerpc/kernel/syscalls.o
ppc32	powerpc	powerpc-linux-gnu-	pmac32_defconfig	fs/read_write.o arch/powerpc/kernel/sys_ppc32.o arch/powerpc/kernel/syscalls.o
arm64	arm64	aarch64-linux-gnu-	defconfig	fs/read_write.o arch/arm64/kernel/sys32.o
sh	sh	sh4-linux-gnu-	defconfig	fs/read_write.o arch/sh/kernel/sys_sh32.o
shbe	sh	sh4-linux-gnu-	defconfig+CPU_BIG_ENDIAN	fs/read_write.o arch/sh/kernel/sys_sh32.o
'
ALL_TARGETS=$(awk 'NF { printf "%s ", $1 }' <<< "$CODEGEN_TARGETS")

hold_applied "$@"
npatches=$(ls "$TOP"/series/0*.patch | grep -vc 0000-cover-letter)
after=$(git -C "$TREE" rev-list --reverse base..HEAD | sed -n "${npatches}p")
src=$BUILD/codegen-src
if [ ! -d "$src" ]; then
	git -C "$TREE" worktree add -q --detach "$src" base
fi

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

# How the mix of instructions changed: "+N mnemonic" and "-N mnemonic",
# sorted, on one line.
mnemonic_delta() {
	join -a1 -a2 -e0 -o 0,1.2,2.2 <(mnemonics "$1" | sort | uniq -c | awk '{print $2, $1}' | sort) \
		<(mnemonics "$2" | sort | uniq -c | awk '{print $2, $1}' | sort) |
		awk '$3 != $2 { d = $3 - $2; printf "%s%d %s\n", (d > 0 ? "+" : ""), d, $1 }' |
		sort | paste -sd' '
}

# Differences that are known and checked to be only that: the change in
# the mix of instructions is exactly the one given.  Each is explained in
# the message of the patch that makes it; that the words are merged in the
# right order is what the KUnit suite and the selftests check.
expected_change() {
	local want delta
	case $1:$2 in
	ppc64:arch/powerpc/kernel/sys_ppc32.o)
		# ppc_truncate64(), ppc_ftruncate64(): unsigned long halves
		# become u32, merged with rldimi as the other wrappers do.
		want="+2 mr +2 rldimi -2 or -2 sldi" ;;
	mips64:arch/mips/kernel/linux32.o|mips64el:arch/mips/kernel/linux32.o)
		# The 11 merges of the o32 wrappers: merge_64() added the
		# halves (daddu), compat_arg_u64_glue() ORs them (or).  The
		# high half is shifted left by 32 and the low half masked
		# to 32 bits, so no bit is set in both: sum and OR are equal.
		want="+11 or -11 daddu" ;;
	sh:arch/sh/kernel/sys_sh32.o|shbe:arch/sh/kernel/sys_sh32.o)
		# SYSCALL_DEFINE6() defines __se_sys_fadvise64_64_wrapper()
		# and makes sys_fadvise64_64_wrapper, the name the system
		# call table uses, an alias of it; objdump names the
		# function by the first.  The code is the same.
		cmp -s <(disasm "$3") <(disasm "$4" | sed 's/__se_sys_fadvise64_64_wrapper/sys_fadvise64_64_wrapper/g') &&
			nm "$4" | grep -q ' T sys_fadvise64_64_wrapper$' &&
			echo "code identical but for the name objdump gives sys_fadvise64_64_wrapper (an alias of __se_sys_fadvise64_64_wrapper now)"
		return ;;
	*)	return 1 ;;
	esac
	delta=$(mnemonic_delta "$3" "$4")
	[ "$delta" = "$want" ] && echo "the mix of instructions changes by exactly: $delta"
}

rc=0
for target in ${*:-$ALL_TARGETS}; do
	row=$(awk -v t="$target" '$1 == t' <<< "$CODEGEN_TARGETS")
	[ -n "$row" ] || die "codegen: unknown target '$target' (known: $ALL_TARGETS)"
	read -r _ march cross config objs <<< "$row"
	[ "$cross" != - ] || cross=
	command -v "${cross}gcc" >/dev/null || die "${cross}gcc not found (make deps)"
	if [ "$config" = kunit ]; then
		[ -f "$BUILD/kunit-$target/.config" ] ||
			die "no $BUILD/kunit-$target/.config: run make run ARCH=$target first"
	fi
	for rev in base "$after"; do
		o=$BUILD/codegen-$target/$( [ "$rev" = base ] && echo base || echo series)
		mkdir -p "$o"
		git -C "$src" checkout -q --detach "$rev"
		mk=(make -s -C "$src" O="$o" ARCH="$march" CROSS_COMPILE="$cross" CC="$KERNEL_CC ${cross}gcc")
		if [ "$config" = kunit ]; then
			sed '/CONFIG_READ_WRITE_KUNIT_TEST/d' "$BUILD/kunit-$target/.config" > "$o/.config"
		else
			config_fragment "$o" "$config" "${mk[@]}" >"$LOGS/codegen-$target.log" 2>&1 ||
				{ cat "$LOGS/codegen-$target.log"; die "codegen $target: $config failed"; }
		fi
		say "codegen $target: building $objs at $(git -C "$src" log -1 --format=%s "$rev" | cut -c1-50)"
		# shellcheck disable=SC2086
		"${mk[@]}" olddefconfig $objs -j"$JOBS" >>"$LOGS/codegen-$target.log" 2>&1 ||
			{ cat "$LOGS/codegen-$target.log"; die "codegen $target: build failed"; }
		for opt in $(tr '+' ' ' <<< "${config#"${config%%+*}"}"); do
			grep -qx "CONFIG_$opt=y" "$o/.config" || die "codegen $target: CONFIG_$opt did not hold"
		done
	done
	for obj in $objs; do
		a=$BUILD/codegen-$target/base/$obj b=$BUILD/codegen-$target/series/$obj
		sizes=$("$TREE/scripts/bloat-o-meter" "$a" "$b" | sed -n 1p)
		if cmp -s <(disasm "$a") <(disasm "$b"); then
			say "codegen $target: $obj: code identical ($sizes)"
		elif why=$(expected_change "$target" "$obj" "$a" "$b"); then
			say "codegen $target: $obj: code differs as expected: $why ($sizes)"
		else
			say "codegen $target: $obj: CODE DIFFERS ($sizes)"
			diff <(disasm "$a") <(disasm "$b") | sed -n 1,60p || true
			rc=1
		fi
	done
done
exit $rc
