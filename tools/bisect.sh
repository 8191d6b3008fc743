#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bisect.sh [KERNEL...]: every commit of the series builds on its own.  For
# each commit base..series, in order, check it out in the tree and build
# each kernel (tools/lib.sh; default: the x86 and MIPS ones) in a copy of
# its KUnit build dir, so that only what the commit changes is rebuilt;
# and, for the architectures that the series changes but the matrix does
# not build (OBJ_KERNELS, default ppc64 ppc32 arm64 sh), the objects that
# otherarch.sh builds, in its build dirs, with KCFLAGS=-Werror.  A compiler
# warning in the build log fails the commit as an error would.  The tree is
# left on branch "series" whatever happens.
. "$(dirname "$0")/lib.sh"

hold_applied "$@"
mkdir -p "$LOGS"
cd "$TREE"
git diff --quiet HEAD || die "$TREE has uncommitted changes"
trap 'git -C "$TREE" checkout -q -f series' EXIT

# The warnings of a build log that count: all but the base tree's own
# notice of a system call an arch lacks, which scripts/checksyscalls.sh
# prints whenever it runs (sh: "#warning syscall clone3 not
# implemented"), at the base as with the series.
new_warnings() {
	grep 'warning:' "$1" | grep -v '#warning syscall [a-z0-9_]* not implemented'
}

kernels=${*:-x86_64 i386 mips mipsel mips64 mips64el}
objkernels=${OBJ_KERNELS-ppc64 ppc32 arm64 sh sparc64 parisc parisc64}
for t in $objkernels; do
	[ -f "$BUILD/otherarch-$t/.config" ] || die "no $BUILD/otherarch-$t/.config: run make otherarch first"
done
for kernel in $kernels; do
	[ -f "$(kbuild_dir "$kernel")/.config" ] ||
		die "no $(kbuild_dir "$kernel")/.config: run make run ARCH=$kernel first"
	b=$BUILD/bisect-$kernel
	if [ ! -d "$b" ]; then
		say "bisect $kernel: seeding $b from $(kbuild_dir "$kernel")"
		cp -a "$(kbuild_dir "$kernel")" "$b"
	fi
done

rc=0
n=0
total=$(git rev-list --count base..series)
for commit in $(git rev-list --reverse base..series); do
	n=$((n + 1))
	git checkout -q -f --detach "$commit"
	subject=$(git log -1 --format=%s)
	for kernel in $kernels; do
		cross=$(arch_cross "$kernel")
		b=$BUILD/bisect-$kernel
		log=$LOGS/bisect-$kernel-$n.log
		# Where the symbols exist, the suites are built too.
		scripts/config --file "$b/.config" -e READ_WRITE_KUNIT_TEST -e COMPAT_ARG_U64_KUNIT_TEST
		t=$(date +%s)
		if alive "bisect $kernel $n" "$log" make -C "$TREE" O="$b" ARCH="$(make_arch "$kernel")" \
			CROSS_COMPILE="$cross" CC="$KERNEL_CC ${cross}gcc" -j"$JOBS" olddefconfig all &&
		   [ -z "$(new_warnings "$log")" ]; then
			say "bisect $n/$total $kernel: builds ($(( $(date +%s) - t ))s, $(grep -c '^  CC ' "$log" || true) objects compiled): $subject"
		else
			{ grep 'error' "$log"; new_warnings "$log"; } | head -20
			say "bisect $n $kernel: FAILED ($log): $subject"
			rc=1
		fi
	done
	for t in $objkernels; do
		read -r _ march cross _ _ <<< "$(awk -v t="$t" '$1 == t' <<< "$OTHERARCH_TARGETS")"
		objs=$(target_objs "$t" "$TREE")
		cflags=-Werror
		[ "$march" != sh ] || cflags+=" $("$TOP/tools/sh/compiler.sh")"
		log=$LOGS/bisect-$t-$n.log
		scripts/config --file "$BUILD/otherarch-$t/.config" -e READ_WRITE_KUNIT_TEST -e COMPAT_ARG_U64_KUNIT_TEST
		t0=$(date +%s)
		# shellcheck disable=SC2086
		if make -C "$TREE" O="$BUILD/otherarch-$t" ARCH="$march" CROSS_COMPILE="$cross" \
			CC="$KERNEL_CC ${cross}gcc" KCFLAGS="$cflags" -j"$JOBS" olddefconfig $objs \
			>"$log" 2>&1 && [ -z "$(new_warnings "$log")" ]; then
			say "bisect $n/$total $t: objects build ($(( $(date +%s) - t0 ))s, $(grep -c '^  CC ' "$log" || true) compiled): $subject"
		else
			{ grep 'error' "$log"; new_warnings "$log"; } | head -20
			say "bisect $n $t: FAILED ($log): $subject"
			rc=1
		fi
	done
done
exit $rc
