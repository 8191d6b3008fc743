#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# mutants.sh [NAME...]: every test must be able to fail.  Break the code a
# test guards, in a scratch worktree of the tree under test with build dirs
# of its own (the workbench's are never touched), run the suite on the
# kernels where the bug bites, and report which cases caught it.  A mutant
# that no case catches fails the run.
. "$(dirname "$0")/lib.sh"

# name@file@perl substitution (-0777: the whole file)@kernels@suite
# The endianness of the register-pair helpers is broken where the suite
# sees them, in its own file: each helper declares its pair in the other
# order.  Breaking <asm-generic/compat.h> itself would recompile most of
# the kernel for the same result.
# The *-ftruncate64-not-lfs mutants put back what the compat ftruncate64
# wrappers did before commit e43dce8a0bc0: refuse a length past 2 GiB on
# a file opened without O_LARGEFILE.
# The pair-reversed mutants declare a pair in the other order than the
# kernel's endianness gives: (lo, hi) on the big-endian kernels (powerpc,
# sparc64, parisc), (hi, lo) on the little-endian ones (powerpcle,
# riscv, x86); sparc64 and riscv64 run sparc32 and rv32 programs through
# the generic compat entry points, and x86's i386 entry points serve an
# i386 kernel and IA32_EMULATION alike.  The *-dropped mutants merge a
# pair without one of its words; the *-swapped ones swap its words.
# The *-low-dropped mutants of readahead(), fadvise64() and fadvise64_64()
# drop a low word, which only a page cache shows (the selftests' bdev
# cases), one per call and per family of entry points: x86's ia32_*(),
# the compat wrappers of MIPS, arm64 and powerpc, the generic compat calls
# (sparc64's and riscv's), sh's and parisc's.  The *-flags-dropped ones
# pass 0 for the flags of preadv2() or pwritev2() in one of their two
# branches (an offset, or -1), natively, through the compat entry points
# and through x32's preadv64v2()/pwritev64v2().
# The parisc64-* mutants break what only the 64-bit parisc kernel runs:
# the compat column of syscall.tbl, and a compat wrapper as the 64-bit
# build compiles it (IS_ENABLED(CONFIG_64BIT)); each must be caught on
# parisc64 and must pass on parisc, the 32-bit kernel ("!parisc": a
# kernel where the break must not bite, whose rows must all pass).
MUTANTS='
compat-arg-u64-endian-swapped@lib/tests/compat_arg_u64_kunit.c@s/(#include <linux\/syscalls.h>\n)/$1#undef compat_arg_u64\n#undef compat_arg_u64_dual\n#undef SC_ARG64\n#ifdef CONFIG_CPU_BIG_ENDIAN\n#define compat_arg_u64(name) u32 name##_lo, u32 name##_hi\n#define compat_arg_u64_dual(name) u32, name##_lo, u32, name##_hi\n#define SC_ARG64(name) u32, name##_lo, u32, name##_hi\n#else\n#define compat_arg_u64(name) u32 name##_hi, u32 name##_lo\n#define compat_arg_u64_dual(name) u32, name##_hi, u32, name##_lo\n#define SC_ARG64(name) u32, name##_hi, u32, name##_lo\n#endif\n/@x86_64 mips64@kunit
pos-from-lohi-low-sign-extended@fs/read_write.c@s/return \(loff_t\)\(\(u64\)pos_h << 32\) \| pos_l;/return (loff_t)((u64)pos_h << 32) | (s64)(s32)pos_l;/@x86_64@kunit
native-pos-high-kept-on-64bit@fs/read_write.c@s/if \(BITS_PER_LONG == 64\)\n\t\treturn pos_l;/if (BITS_PER_LONG == 64)\n\t\treturn pos_l | (u64)pos_h << 32;/@x86_64@kunit
compat-preadv-lo-hi-swapped@fs/read_write.c@s/(COMPAT_SYSCALL_DEFINE5\(preadv,.*?)pos_from_lohi\(pos_low, pos_high\)/$1pos_from_lohi(pos_high, pos_low)/s@x86_64@selftests
pwritev-not-accounted@fs/read_write.c@s/(static ssize_t do_pwritev\(.*?)add_wchar\(current, ret\);\n\tinc_syscw\(current\);/$1(void)ret;/s@x86_64@selftests
preadv2-any-negative-is-current@fs/read_write.c@s/(SYSCALL_DEFINE6\(preadv2,.*?)if \(pos == -1\)/$1if (pos < 0)/s@x86_64@selftests
mips-pread-pair-reversed@arch/mips/kernel/linux32.c@s/unsigned long, unused, compat_arg_u64_dual\(pos\)/unsigned long, unused, u32, pos_lo, u32, pos_hi/@mips64@selftests
mips-readahead-high-dropped@arch/mips/kernel/linux32.c@s/ksys_readahead\(fd, compat_arg_u64_glue\(offset\), count\)/ksys_readahead(fd, (u64)offset_lo, count)/@mips64@selftests
arm64-pread-pair-reversed@arch/arm64/kernel/sys32.c@s/u32, __pad, compat_arg_u64_dual\(pos\)\)/u32, __pad, u32, pos_hi, u32, pos_lo)/@arm64@selftests
ia32-ftruncate64-not-lfs@arch/x86/kernel/sys_ia32.c@s/(SYSCALL_DEFINE3\(ia32_ftruncate64,.*?)FTRUNCATE_LFS\)/${1}0)/s@x86_64@selftests
ia32-pread64-pair-reversed@arch/x86/kernel/sys_ia32.c@s/(SYSCALL_DEFINE5\(ia32_pread64,.*?)SC_ARG64\(pos\)\)/${1}u32, pos_hi, u32, pos_lo)/s@x86_64 i386@selftests
ia32-fadvise64_64-offset-swapped@arch/x86/kernel/sys_ia32.c@s/(SYSCALL_DEFINE6\(ia32_fadvise64_64, int, fd, )SC_ARG64\(offset\)/${1}u32, offset_hi, u32, offset_lo/@x86_64@selftests
ia32-sync_file_range-low-words-dropped@arch/x86/kernel/sys_ia32.c@s/return ksys_sync_file_range\(fd, SC_VAL64\(u64, offset\),\n\s+SC_VAL64\(u64, nbytes\), flags\)/return ksys_sync_file_range(fd, (u64)offset_hi << 32, (u64)nbytes_hi << 32, flags)/@x86_64@selftests
mips-ftruncate64-not-lfs@arch/mips/kernel/linux32.c@s/compat_arg_u64_glue\(length\), FTRUNCATE_LFS\)/compat_arg_u64_glue(length), 0)/@mips64@selftests
arm64-ftruncate64-not-lfs@arch/arm64/kernel/sys32.c@s/compat_arg_u64_glue\(length\), FTRUNCATE_LFS\)/compat_arg_u64_glue(length), 0)/@arm64@selftests
powerpc-pread-pair-reversed@arch/powerpc/kernel/sys_ppc32.c@s/u32, reg6, SC_ARG64\(pos\)\)/u32, reg6, u32, pos_lo, u32, pos_hi)/@powerpc@selftests
powerpc-fadvise64-pair-reversed@arch/powerpc/kernel/sys_ppc32.c@s/u32, unused, SC_ARG64\(offset\),/u32, unused, u32, offset_lo, u32, offset_hi,/@powerpc@selftests
powerpcle-pread-pair-reversed@arch/powerpc/kernel/sys_ppc32.c@s/u32, reg6, SC_ARG64\(pos\)\)/u32, reg6, u32, pos_hi, u32, pos_lo)/@powerpcle@selftests
compat-pread64-pair-reversed-be@fs/read_write.c@s/(COMPAT_SYSCALL_DEFINE5\(pread64,.*?)compat_arg_u64_dual\(pos\)\)/$1u32, pos_lo, u32, pos_hi)/s@sparc64@selftests
compat-pread64-pair-reversed-le@fs/read_write.c@s/(COMPAT_SYSCALL_DEFINE5\(pread64,.*?)compat_arg_u64_dual\(pos\)\)/$1u32, pos_hi, u32, pos_lo)/s@riscv@selftests
compat-fadvise64_64-offset-high-dropped@mm/fadvise.c@s/return ksys_fadvise64_64\(fd, compat_arg_u64_glue\(offset\),/return ksys_fadvise64_64(fd, (u64)offset_lo,/@riscv@selftests
compat-fallocate-len-high-dropped@fs/open.c@s/compat_arg_u64_glue\(len\)\);/(u64)len_lo);/@arm64 mips64@selftests
parisc-pread64-pair-reversed@arch/parisc/kernel/sys_parisc.c@s/size_t, count, SC_ARG64\(pos\)\)\n\{\n\treturn ksys_pread64/size_t, count, u32, pos_lo, u32, pos_hi)\n{\n\treturn ksys_pread64/@parisc@selftests
parisc64-compat-fallocate-table@arch/parisc/kernel/syscalls/syscall.tbl@s/(305\t32\tfallocate\t\tsys_parisc_fallocate\t\t)compat_sys_parisc_fallocate/${1}sys_ni_syscall/@parisc64 !parisc@selftests
parisc64-compat-pread64-high-dropped@arch/parisc/kernel/sys_parisc.c@s/return ksys_pread64\(fd, buf, count, SC_VAL64\(u64, pos\)\);/return ksys_pread64(fd, buf, count, IS_ENABLED(CONFIG_64BIT) ? (u64)pos_lo : SC_VAL64(u64, pos));/@parisc64 !parisc@selftests
sh-fadvise64_64-offset-pair-reversed@arch/sh/kernel/sys_sh32.c@s/sh_fadvise64_64, int, fd, SC_ARG64\(offset\),/sh_fadvise64_64, int, fd, u32, offset_hi, u32, offset_lo,/@sh@selftests
ia32-readahead-low-dropped@arch/x86/kernel/sys_ia32.c@s/return ksys_readahead\(fd, SC_VAL64\(u64, offset\), count\)/return ksys_readahead(fd, (u64)offset_hi << 32, count)/@x86_64@selftests
ia32-fadvise64-low-dropped@arch/x86/kernel/sys_ia32.c@s/return ksys_fadvise64_64\(fd, SC_VAL64\(u64, offset\), len, advice\)/return ksys_fadvise64_64(fd, (u64)offset_hi << 32, len, advice)/@x86_64@selftests
ia32-fadvise64_64-offset-low-dropped@arch/x86/kernel/sys_ia32.c@s/(SYSCALL_DEFINE6\(ia32_fadvise64_64,.*?)SC_VAL64\(u64, offset\)/${1}(u64)offset_hi << 32/s@x86_64@selftests
ia32-fadvise64_64-len-low-dropped@arch/x86/kernel/sys_ia32.c@s/(SYSCALL_DEFINE6\(ia32_fadvise64_64,.*?)SC_VAL64\(u64, len\)/${1}(u64)len_hi << 32/s@x86_64@selftests
mips-readahead-low-dropped@arch/mips/kernel/linux32.c@s/ksys_readahead\(fd, compat_arg_u64_glue\(offset\), count\)/ksys_readahead(fd, (u64)offset_hi << 32, count)/@mips64@selftests
mips-fadvise64_64-offset-low-dropped@arch/mips/kernel/linux32.c@s/return ksys_fadvise64_64\(fd, compat_arg_u64_glue\(offset\),/return ksys_fadvise64_64(fd, (u64)offset_hi << 32,/@mips64@selftests
mips-fadvise64_64-len-low-dropped@arch/mips/kernel/linux32.c@s/compat_arg_u64_glue\(len\), advice\)/(u64)len_hi << 32, advice)/@mips64@selftests
arm64-readahead-low-dropped@arch/arm64/kernel/sys32.c@s/ksys_readahead\(fd, compat_arg_u64_glue\(offset\), count\)/ksys_readahead(fd, (u64)offset_hi << 32, count)/@arm64@selftests
arm64-fadvise64_64-offset-low-dropped@arch/arm64/kernel/sys32.c@s/return ksys_fadvise64_64\(fd, compat_arg_u64_glue\(offset\),/return ksys_fadvise64_64(fd, (u64)offset_hi << 32,/@arm64@selftests
arm64-fadvise64_64-len-low-dropped@arch/arm64/kernel/sys32.c@s/compat_arg_u64_glue\(len\), advice\)/(u64)len_hi << 32, advice)/@arm64@selftests
powerpc-readahead-low-dropped@arch/powerpc/kernel/sys_ppc32.c@s/return ksys_readahead\(fd, SC_VAL64\(u64, offset\), count\)/return ksys_readahead(fd, (u64)offset_hi << 32, count)/@powerpc@selftests
powerpc-fadvise64-low-dropped@arch/powerpc/kernel/sys_ppc32.c@s/return ksys_fadvise64_64\(fd, SC_VAL64\(u64, offset\), len, advice\)/return ksys_fadvise64_64(fd, (u64)offset_hi << 32, len, advice)/@powerpc@selftests
powerpc-fadvise64_64-offset-low-dropped@arch/powerpc/kernel/syscalls.c@s/return ksys_fadvise64_64\(fd, SC_VAL64\(u64, offset\),/return ksys_fadvise64_64(fd, (u64)offset_hi << 32,/@powerpc@selftests
powerpc-fadvise64_64-len-low-dropped@arch/powerpc/kernel/syscalls.c@s/SC_VAL64\(u64, len\), advice\)/(u64)len_hi << 32, advice)/@powerpc@selftests
compat-readahead-low-dropped@mm/readahead.c@s/return ksys_readahead\(fd, compat_arg_u64_glue\(offset\), count\)/return ksys_readahead(fd, (u64)offset_hi << 32, count)/@sparc64@selftests
compat-fadvise64_64-offset-low-dropped@mm/fadvise.c@s/return ksys_fadvise64_64\(fd, compat_arg_u64_glue\(offset\),/return ksys_fadvise64_64(fd, (u64)offset_hi << 32,/@riscv@selftests
compat-fadvise64_64-len-low-dropped@mm/fadvise.c@s/compat_arg_u64_glue\(len\), advice\)/(u64)len_hi << 32, advice)/@sparc64@selftests
sh-fadvise64_64-offset-low-dropped@arch/sh/kernel/sys_sh32.c@s/return ksys_fadvise64_64\(fd, SC_VAL64\(loff_t, offset\),/return ksys_fadvise64_64(fd, (u64)offset_hi << 32,/@sh@selftests
sh-fadvise64_64-len-low-dropped@arch/sh/kernel/sys_sh32.c@s/SC_VAL64\(loff_t, len\), advice\)/(u64)len_hi << 32, advice)/@sh@selftests
parisc-readahead-low-dropped@arch/parisc/kernel/sys_parisc.c@s/return ksys_readahead\(fd, SC_VAL64\(u64, offset\), count\)/return ksys_readahead(fd, (u64)offset_hi << 32, count)/@parisc@selftests
parisc-fadvise64_64-offset-low-dropped@arch/parisc/kernel/sys_parisc.c@s/return ksys_fadvise64_64\(fd, SC_VAL64\(u64, offset\),/return ksys_fadvise64_64(fd, (u64)offset_hi << 32,/@parisc@selftests
parisc-fadvise64_64-len-low-dropped@arch/parisc/kernel/sys_parisc.c@s/SC_VAL64\(u64, len\), advice\)/(u64)len_hi << 32, advice)/@parisc@selftests
native-preadv2-flags-dropped-at-offset@fs/read_write.c@s/(\nSYSCALL_DEFINE6\(preadv2,.*?)return do_preadv\(fd, vec, vlen, pos, flags\)/${1}return do_preadv(fd, vec, vlen, pos, 0)/s@x86_64@selftests
native-preadv2-flags-dropped-at-minus-one@fs/read_write.c@s/(\nSYSCALL_DEFINE6\(preadv2,.*?)return do_readv\(fd, vec, vlen, flags\)/${1}return do_readv(fd, vec, vlen, 0)/s@x86_64@selftests
native-pwritev2-flags-dropped-at-offset@fs/read_write.c@s/(\nSYSCALL_DEFINE6\(pwritev2,.*?)return do_pwritev\(fd, vec, vlen, pos, flags\)/${1}return do_pwritev(fd, vec, vlen, pos, 0)/s@x86_64@selftests
native-pwritev2-flags-dropped-at-minus-one@fs/read_write.c@s/(\nSYSCALL_DEFINE6\(pwritev2,.*?)return do_writev\(fd, vec, vlen, flags\)/${1}return do_writev(fd, vec, vlen, 0)/s@x86_64@selftests
compat-preadv2-flags-dropped-at-offset@fs/read_write.c@s/(\nCOMPAT_SYSCALL_DEFINE6\(preadv2,.*?)return do_preadv\(fd, vec, vlen, pos, flags\)/${1}return do_preadv(fd, vec, vlen, pos, 0)/s@x86_64@selftests
compat-preadv2-flags-dropped-at-minus-one@fs/read_write.c@s/(\nCOMPAT_SYSCALL_DEFINE6\(preadv2,.*?)return do_readv\(fd, vec, vlen, flags\)/${1}return do_readv(fd, vec, vlen, 0)/s@x86_64@selftests
compat-pwritev2-flags-dropped-at-offset@fs/read_write.c@s/(\nCOMPAT_SYSCALL_DEFINE6\(pwritev2,.*?)return do_pwritev\(fd, vec, vlen, pos, flags\)/${1}return do_pwritev(fd, vec, vlen, pos, 0)/s@x86_64@selftests
compat-pwritev2-flags-dropped-at-minus-one@fs/read_write.c@s/(\nCOMPAT_SYSCALL_DEFINE6\(pwritev2,.*?)return do_writev\(fd, vec, vlen, flags\)/${1}return do_writev(fd, vec, vlen, 0)/s@x86_64@selftests
x32-preadv64v2-flags-dropped-at-offset@fs/read_write.c@s/(\nCOMPAT_SYSCALL_DEFINE5\(preadv64v2,.*?)return do_preadv\(fd, vec, vlen, pos, flags\)/${1}return do_preadv(fd, vec, vlen, pos, 0)/s@x86_64@selftests
x32-preadv64v2-flags-dropped-at-minus-one@fs/read_write.c@s/(\nCOMPAT_SYSCALL_DEFINE5\(preadv64v2,.*?)return do_readv\(fd, vec, vlen, flags\)/${1}return do_readv(fd, vec, vlen, 0)/s@x86_64@selftests
x32-pwritev64v2-flags-dropped-at-offset@fs/read_write.c@s/(\nCOMPAT_SYSCALL_DEFINE5\(pwritev64v2,.*?)return do_pwritev\(fd, vec, vlen, pos, flags\)/${1}return do_pwritev(fd, vec, vlen, pos, 0)/s@x86_64@selftests
x32-pwritev64v2-flags-dropped-at-minus-one@fs/read_write.c@s/(\nCOMPAT_SYSCALL_DEFINE5\(pwritev64v2,.*?)return do_writev\(fd, vec, vlen, flags\)/${1}return do_writev(fd, vec, vlen, 0)/s@x86_64@selftests
'

hold_applied "$@"
trap 'say "mutants: interrupted"; exit 130' INT TERM HUP
# The scratch tree and its build dirs sit side by side as the tree and the
# build dirs do in $BUILD, so that ccache (CCACHE_BASEDIR=$BUILD) sees the
# same relative paths and a mutant kernel recompiles only what the mutant
# changed.
src=$BUILD/mutant/linux
head=$(git -C "$TREE" rev-parse HEAD)
if [ "$(git -C "$src" rev-parse --git-common-dir 2>/dev/null)" != "$TREE/.git" ]; then
	rm -rf "$src"
	git -C "$TREE" worktree prune
	mkdir -p "$BUILD/mutant"
	git -C "$TREE" worktree add -q --detach "$src" "$head"
fi

# A mutant kernel's build dir starts as a copy of the matrix's, where it
# has one and the mutant's has none: the first mutant of a kernel then
# compiles what its break changes, not the whole kernel (kernel.sh sees
# the tree's changes against the copy's record).
for kernel in $(awk -F@ 'NF >= 4 { print $4 }' <<< "$MUTANTS" | tr ' ' '\n' | sed 's/^!//' | sort -u); do
	if [ ! -d "$BUILD/mutant/kunit-$kernel" ] && [ -f "$(kbuild_dir "$kernel")/.workbench-built" ]; then
		say "mutants: $kernel's build dir starts as a copy of the matrix's"
		mkdir -p "$BUILD/mutant"
		cp -a "$(kbuild_dir "$kernel")" "$BUILD/mutant/kunit-$kernel"
	fi
done

export TREE=$src KBUILD_PREFIX=$BUILD/mutant/kunit- RESULTS=$BUILD/mutant-results
export LOGS=$BUILD/mutant-logs
mkdir -p "$LOGS"

report=$BUILD/mutant-report
: > "$report"
rc=0
while IFS='@' read -r name file subst kernels suite; do
	[ -n "$name" ] || continue
	[ $# -eq 0 ] || [[ " $* " == *" $name "* ]] || continue
	git -C "$src" checkout -q -f --detach "$head"
	perl -0777 -pi -e "$subst" "$src/$file"
	if git -C "$src" diff --quiet; then
		echo "mutant $name: the substitution did not change $file" >&2
		rc=1
		continue
	fi
	# The mutant tree, which has a change not committed (lib.sh: tree_id).
	WORKBENCH_SOURCE=$(tree_source)
	WORKBENCH_TREE_ID=$(tree_id)
	export WORKBENCH_SOURCE WORKBENCH_TREE_ID
	say "mutant $name: $(git -C "$src" diff -U0 | grep '^[-+][^-+]' | tr '\n' ' ' | cut -c1-150)"
	for kernel in $kernels; do
		# !KERNEL: a kernel that does not run the broken code.
		spared=
		case $kernel in '!'*) spared=yes kernel=${kernel#!} ;; esac
		rm -rf "$RESULTS"
		export LOGS=$BUILD/mutant-logs/$name
		mkdir -p "$LOGS"
		BOOT_CACHE=0 "$TOP/tools/run.sh" "$kernel" >"$LOGS/$kernel.out" 2>&1 || true
		caught= invalid=
		for f in "$RESULTS"/*; do
			IFS=$'\t' read -r row status passed failed skipped log secs < "$f"
			case $row in *0kunit) [ "$suite" = kunit ] || continue ;; *) [ "$suite" = selftests ] || continue ;; esac
			case $status in ok|"$BOOTED_AGAIN") continue ;; esac
			# A row of another kernel than the mutant's says
			# nothing of the mutant.
			case $status in
			"booted kernel"*|"no vmlinux built"*)
				invalid+="${row#*.}: $status; "
				continue ;;
			esac
			if [ "$suite" = kunit ]; then
				cases=$(kunit_failures "$log.parsed")
			else
				cases=$(grep -a '^not ok' "$log" | sed 's/^not ok [0-9]* //' |
					sort -u | paste -sd, | sed 's/,/, /g' || true)
			fi
			row=${row#*.}
			# Caught means a test case failed: a kernel that did
			# not build or boot is not a test that caught it.
			if [ -n "$cases" ]; then
				caught+="${row/#0kunit/KUnit}: $cases; "
			else
				invalid+="${row/#0kunit/KUnit}: $status; "
			fi
		done
		if [ -n "$invalid" ]; then
			line="mutant $name on $kernel: NO RESULT ($invalid)"
			rc=1
		elif [ -n "$spared" ] && [ -n "$caught" ]; then
			line="mutant $name on $kernel: CAUGHT where it must not bite, by $caught"
			rc=1
		elif [ -n "$spared" ]; then
			if [ -n "$(ls "$RESULTS" 2>/dev/null)" ]; then
				line="mutant $name on $kernel: passed, as it must (this kernel does not run the broken code)"
			else
				line="mutant $name on $kernel: NO RESULT (no rows)"
				rc=1
			fi
		elif [ -n "$caught" ]; then
			line="mutant $name on $kernel: caught by $caught"
		else
			line="mutant $name on $kernel: NOT CAUGHT"
			rc=1
		fi
		say "$line"
		echo "$line" >> "$report"
	done
done <<< "$MUTANTS"
git -C "$src" checkout -q -f --detach "$head"
say "mutants: report in $report"
exit $rc
