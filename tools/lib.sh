# SPDX-License-Identifier: GPL-2.0
# Common settings for the workbench scripts; sourced, not run.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Build output lives in a cache path shared by every clone on the machine:
# the extracted tree, one build dir per arch, logs.  What is in it is keyed
# by content (tools/apply.sh, tools/kunit.sh), so a clone never uses a stale
# build, and an unchanged kernel is not rebuilt.
BUILD=${BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/preadv-workbench}
TREE=${TREE:-$BUILD/linux}
OUT=${OUT:-$TOP/out}
LOGS=${LOGS:-$BUILD/logs}
RESULTS=${RESULTS:-$BUILD/results}
JOBS=${JOBS:-$(nproc)}
# The selftests' directory under tools/testing/selftests (their TARGETS).
ST_TARGET=filesystems/preadv

# Our Makefile's command line (ARCH=...) must not leak into the kernel's make.
unset MAKEFLAGS MAKEOVERRIDES MFLAGS MAKELEVEL ARCH CROSS_COMPILE || true

export CCACHE_BASEDIR=$BUILD
export CCACHE_NOHASHDIR=1
# The tree's commits are the workbench's, under a neutral identity; only
# the export (tools/format-patch.sh) puts a person's name on them.
WORKBENCH_IDENT="workbench <workbench@localhost>"
export GIT_COMMITTER_NAME=workbench GIT_COMMITTER_EMAIL=workbench@localhost

# The kernels of the matrix (KERNELS="..." to choose): a kunit.py arch, or
# ARCH-san for that arch with KASAN and UBSAN.
ARCHES="x86_64 i386 mips mipsel mips64 mips64el"
KERNELS=${KERNELS:-"$ARCHES x86_64-san"}

# The kunit.py build dir of a kernel (tools/mutants.sh uses its own).
kbuild_dir() {
	echo "${KBUILD_PREFIX:-$BUILD/kunit-}$1"
}

kernel_arch() {
	echo "${1%-san}"
}

# The kernel's ARCH= for make, as kunit.py's qemu_configs set it.
make_arch() {
	case $(kernel_arch "$1") in
	mips*)	echo mips ;;
	*)	kernel_arch "$1" ;;
	esac
}

# Per-arch table: cross compiler prefix, compat options the kernel must
# have, and the user ABIs its selftest run covers.
arch_cross() {
	case $(kernel_arch "$1") in
	x86_64)		echo "" ;;
	i386)		echo "i686-linux-gnu-" ;;
	mips)		echo "mips-linux-gnu-" ;;
	mipsel)		echo "mipsel-linux-gnu-" ;;
	mips64)		echo "mips64-linux-gnuabi64-" ;;
	mips64el)	echo "mips64el-linux-gnuabi64-" ;;
	*)		die "unknown kernel '$1' (known: $KERNELS)" ;;
	esac
}

# Beyond kunitconfig: the compat ABIs; and no ACPI on x86, which QEMU does
# not need to boot or reboot and which is a sixth of the objects.
kernel_kconfig() {
	case $1 in
	x86_64*)	echo "CONFIG_IA32_EMULATION=y CONFIG_X86_X32_ABI=y CONFIG_ACPI=n" ;;
	i386)		echo "CONFIG_ACPI=n" ;;
	mips64*)	echo "CONFIG_MIPS32_O32=y CONFIG_MIPS32_N32=y" ;;
	esac
	case $1 in
	*-san)		echo "CONFIG_KASAN=y CONFIG_UBSAN=y CONFIG_UBSAN_SHIFT=y CONFIG_UBSAN_BOUNDS=y" ;;
	esac
}

arch_abis() {
	case $(kernel_arch "$1") in
	x86_64)		echo "x86_64 i386 x32" ;;
	i386)		echo "i386" ;;
	mips)		echo "o32" ;;
	mipsel)		echo "o32el" ;;
	mips64)		echo "n64 n32 o32" ;;
	mips64el)	echo "n64el n32el o32el" ;;
	esac
}

# The selftests of a kernel are built by their own Makefile, once, with
# the kernel's cross compiler (CROSS_COMPILE, as a kselftest CI gives it):
# preadv_test for the first of the kernel's ABIs, and preadv_test_<abi> for
# the compat ABIs that the Makefile builds with -m32, -mx32, -mabi=n32 and
# -mabi=32.  Debian's gcc -m32 and -mx32 need gcc-multilib, which conflicts
# with the MIPS cross compilers: on x86_64 the i386 and x32 cross compilers
# stand in for them (CC32, CCX32).
st_make_vars() {
	echo "CROSS_COMPILE=$(arch_cross "$1")"
	case $(kernel_arch "$1") in
	x86_64)	echo "CC32=i686-linux-gnu-gcc CCX32=x86_64-linux-gnux32-gcc" ;;
	esac
}

# The binary that runs a user ABI on a kernel.
abi_prog() {
	local abis
	abis=$(arch_abis "$1")
	if [ "$2" = "${abis%% *}" ]; then
		echo preadv_test
		return
	fi
	case $2 in
	i386)		echo preadv_test_32 ;;
	x32)		echo preadv_test_x32 ;;
	n32|n32el)	echo preadv_test_n32 ;;
	o32|o32el)	echo preadv_test_o32 ;;
	*)		die "unknown compat ABI '$2'" ;;
	esac
}

abi_srcarch() {
	case $1 in
	x86_64|i386|x32) echo x86 ;;
	*) echo mips ;;
	esac
}

# The COMPAT architectures that the matrix does not build whole: otherarch.sh
# and bisect.sh build, with -Werror, their objects that the series changes
# and the generic users of compat_arg_u64().
# target  make ARCH  cross prefix  defconfig  arch objects
OTHERARCH_TARGETS='
arm64	arm64	aarch64-linux-gnu-	defconfig	arch/arm64/kernel/sys32.o
ppc64	powerpc	powerpc64-linux-gnu-	ppc64_defconfig	arch/powerpc/kernel/sys_ppc32.o arch/powerpc/kernel/syscalls.o arch/powerpc/kernel/signal_32.o
ppc32	powerpc	powerpc-linux-gnu-	pmac32_defconfig	arch/powerpc/kernel/sys_ppc32.o arch/powerpc/kernel/syscalls.o arch/powerpc/kernel/signal_32.o
sparc64	sparc	sparc64-linux-gnu-	sparc64_defconfig	arch/sparc/kernel/sys_sparc32.o
parisc64	parisc	hppa64-linux-gnu-	generic-64bit_defconfig	arch/parisc/kernel/sys_parisc.o
s390	s390	s390x-linux-gnu-	defconfig	arch/s390/kernel/compat_linux.o
riscv64	riscv	riscv64-linux-gnu-	defconfig	arch/riscv/kernel/compat_syscall_table.o
'
GENERIC_OBJS="fs/read_write.o fs/open.o fs/sync.o mm/fadvise.o mm/readahead.o"

T0=${T0:-$(date +%s)}
export T0

say() { printf '[%4ss] %s\n' "$(( $(date +%s) - T0 ))" "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# lock_tree: wait for any other workbench run that checks out commits in
# $TREE (apply.sh, bisect.sh); the lock is held until the script exits.
lock_tree() {
	exec 9>"$TREE/.git/workbench.lock"
	flock -n 9 || { say "waiting for another workbench run that uses $TREE"; flock 9; }
}

base_version() {
	cat "$TREE/.git/base-version" 2>/dev/null || echo unknown
}

# Lines of a console log that mean the kernel went wrong.
KERNEL_FAULTS='Kernel panic|BUG:|Oops|WARNING:|UBSAN:|KASAN:|Unable to handle|Call Trace:'

# record NAME STATUS PASSED FAILED SKIPPED LOG [SECONDS]: a row of the summary.
record() {
	mkdir -p "$RESULTS"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "${7:-}" \
		> "$RESULTS/$1"
}

# alive WHAT LOG CMD...: run CMD with its output in LOG, printing that it
# is alive every 30s.
alive() {
	local what=$1 log=$2 pid t=0
	shift 2
	"$@" >"$log" 2>&1 &
	pid=$!
	while sleep 5; kill -0 "$pid" 2>/dev/null; do
		t=$((t + 5))
		if [ $((t % 30)) -eq 0 ]; then say "  ... $what, ${t}s"; fi
	done
	wait "$pid"
}
