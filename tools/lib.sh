# SPDX-License-Identifier: GPL-2.0
# Common settings for the workbench scripts; sourced, not run.

set -euo pipefail

# (In bash alone where it can: every script of a run sources this file,
# some hundred times for the matrix.)
case ${BASH_SOURCE[0]} in
*/*)	TOP=$(cd "${BASH_SOURCE[0]%/*}/.." && pwd) ;;
*)	TOP=$(cd .. && pwd) ;;
esac
# Build output lives in a cache path shared by every clone on the machine:
# the extracted tree, one build dir per arch, logs.  What is in it is keyed
# by content (tools/apply.sh, tools/kunit.sh), so a clone never uses a stale
# build, and an unchanged kernel is not rebuilt.
BUILD=${BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/preadv-workbench}
TREE=${TREE:-$BUILD/linux}
OUT=${OUT:-$TOP/out}
LOGS=${LOGS:-$BUILD/logs}
RESULTS=${RESULTS:-$BUILD/results}
# Each boot's seconds to its first console byte (tools/qemu.py).
export WORKBENCH_QEMU_STARTS=${WORKBENCH_QEMU_STARTS:-$LOGS/qemu-starts.tsv}
# The selftest binaries and initramfs images.
ST=${ST:-$BUILD/st}
# distcc: with distcc's own DISTCC_HOSTS set, the kernel builds send their
# compilations to those hosts, beneath ccache (CCACHE_PREFIX=distcc; a
# ccache hit never leaves the machine), after a probe of each host with
# the build's compiler (distcc_hosts, below); make's -j is then what the
# hosts take (distcc -j), if that is more than this machine's CPUs
# (distcc_jobs), unless JOBS is given.
distcc_jobs() {
	local j n
	n=$(nproc)
	j=$(distcc -j 2>/dev/null) || j=0
	echo $((j > n ? j : n))
}
JOBS_GIVEN=${JOBS_GIVEN-${JOBS:-}}
JOBS=${JOBS:-$(if [ -n "${DISTCC_HOSTS:-}" ] && command -v distcc >/dev/null; then distcc_jobs; else nproc; fi)}
export JOBS JOBS_GIVEN
# The base tree: Debian's linux-source-$BASE_SERIES, from the suite that
# ships it (tools/tree.sh fetches it with apt-get, signed by the Debian
# archive key).  KSRC=/path/to/linux replaces it with a tree of one's own.
BASE_SERIES=7.3
BASE_PKG=linux-source-$BASE_SERIES
BASE_SUITE=${BASE_SUITE:-trixie-backports}
# The Debian mirror that the fetches go through: BASE_MIRROR= if given,
# else the one that this machine's apt sources name for its own Debian
# release (apt_mirror, below); the repository names none.
BASE_MIRROR=${BASE_MIRROR:-}
BASE_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
# The selftests' directory under tools/testing/selftests (their TARGETS).
ST_TARGET=filesystems/preadv

# Our Makefile's command line (ARCH=...) must not leak into the kernel's make.
unset MAKEFLAGS MAKEOVERRIDES MFLAGS MAKELEVEL ARCH CROSS_COMPILE || true

export CCACHE_BASEDIR=$BUILD
export CCACHE_NOHASHDIR=1
# Depend mode: a miss runs the compiler alone, where ccache as it comes runs
# the preprocessor first to key the result; a cold build then costs what it
# costs without ccache (make bench-ccache; README, "ccache").  Its hits are
# direct-mode hits, the same source and headers, which is what a mutant's or
# a second clone's build dirs get.  What it gives up: after a change of the
# kernel's .config, files whose preprocessed text did not change recompile.
export CCACHE_DEPEND=1
# The kernel builds' CC is "$KERNEL_CC <compiler>": tools/bin/wbcc, which
# compiles through ccache but for sources that embed a file with .incbin
# (make cccheck).  By name, on PATH, so that the command line that kbuild
# records is the same in every clone.
KERNEL_CC=wbcc
# Every boot's QEMU is tools/qemu.py (tools/bin/qemu-system-* link to it),
# which chooses the accelerator: ACCEL=tcg or kvm forces one; by default
# KVM where the host can run the guest, and TCG for the rest of the run
# once a guest has printed nothing within START_BOUND seconds under KVM.
# A machine that prints nothing within START_BOUND under any accelerator
# did not start, and its row fails then (EVIDENCE.md: the slowest first
# console byte of the matrix).
# tools/bin/python3 is Debian's (make deps installs it): a python3 that a
# version manager puts first on PATH is a shell script (pyenv's shim took
# 0.34 s a start here, Debian's 0.04 s), and the scripts of a run start
# one nine times for a kernel that boots (kunit.py exec and parse, qemu.py,
# split.py, counts.py).
export PATH=$TOP/tools/bin:$PATH
export WORKBENCH_ACCEL=${ACCEL:-auto}
export WORKBENCH_START_BOUND=${START_BOUND:-60}
# The tree's commits are the workbench's, under a neutral identity; only
# the export (tools/format-patch.sh) puts a person's name on them.
WORKBENCH_IDENT="workbench <workbench@localhost>"
export GIT_COMMITTER_NAME=workbench GIT_COMMITTER_EMAIL=workbench@localhost

# The kernels of the matrix (KERNELS="..." to choose): a kunit.py arch, or
# ARCH-san for that arch with KASAN and UBSAN.  One row per kernel, read by
# every script: kunit.py's --arch (or, for a machine that kunit.py has no
# config for, the workbench's own, tools/qemu_configs/<kernel>.py, passed
# as --qemu_config; then the kernel's ARCH), the cross compiler's prefix
# (- for none), the image that kunit.py builds and boots, the user ABIs of
# its selftest combos (the first is its native one; comma-separated; - for
# none: the KUnit suite only) and the options it needs beyond kunitconfig
# (comma-separated; - for none): the compat ABIs, no ACPI on x86, which
# QEMU does not need to boot or reboot and which is a sixth of the
# objects, and no CPU vulnerability mitigations (a symbol with a prompt on
# x86 only; elsewhere always y); on powerpc no PowerNV or PowerMac
# platform code (QEMU boots a pseries machine; ppc32 is a PowerMac); on
# arm the VFP that armhf programs use (without it /init dies of SIGILL),
# on powerpcle the AltiVec and VSX of ppc64le programs (POWER8 is their
# baseline: without them /init dies of SIGILL); on um no PCI over virtio,
# which kunit.py's arch_uml.config turns on without a device ID, so that
# UML WARNs at boot (arch/um/drivers/virt-pci.c), and a WARNING fails a
# row; parisc selects RTC_CLASS, which kunitconfig turns off, so
# kunit.py's check of the config would fail; so do parisc64 (the 64-bit
# kernel, ARCH=parisc64, on QEMU 10's C3700: lib.sh: hppa_qemu) and
# sparc64; on riscv
# NONPORTABLE, without which PORTABLE selects EFI (79 objects), which
# kunitconfig turns off and QEMU's -kernel boot does not need.  On i386
# the compat_arg_u64 suite is a module, which /init loads (tools/init.c):
# the suite's tristate option is tried as a module in one row.
KERNEL_TABLE='
x86_64		x86_64	-			arch/x86/boot/bzImage		x86_64,i386,x32	CONFIG_IA32_EMULATION=y,CONFIG_X86_X32_ABI=y,CONFIG_ACPI=n,CONFIG_CPU_MITIGATIONS=n
i386		i386	i686-linux-gnu-		arch/x86/boot/bzImage		i386		CONFIG_ACPI=n,CONFIG_CPU_MITIGATIONS=n,CONFIG_MODULES=y,CONFIG_COMPAT_ARG_U64_KUNIT_TEST=m
mips		mips	mips-linux-gnu-		vmlinuz				o32		-
mipsel		mipsel	mipsel-linux-gnu-	vmlinuz				o32el		-
mips64		mips64	mips64-linux-gnuabi64-	vmlinuz				n64,n32,o32	CONFIG_MIPS32_O32=y,CONFIG_MIPS32_N32=y
mips64el	mips64el mips64el-linux-gnuabi64- vmlinuz			n64el,n32el,o32el CONFIG_MIPS32_O32=y,CONFIG_MIPS32_N32=y
arm64		arm64	aarch64-linux-gnu-	arch/arm64/boot/Image.gz	aarch64,armhf	CONFIG_COMPAT=y
powerpc		powerpc	powerpc64-linux-gnu-	vmlinux				ppc64,ppc32	CONFIG_COMPAT=y,CONFIG_PPC_POWERNV=n,CONFIG_PPC_PMAC=n
arm		arm	arm-linux-gnueabihf-	arch/arm/boot/zImage		armhf		CONFIG_VFP=y
s390		s390	s390x-linux-gnu-	arch/s390/boot/bzImage		s390x		-
um		um	-			linux				-		CONFIG_UML_PCI_OVER_VIRTIO=n
ppc32		powerpc32 powerpc-linux-gnu-	vmlinux				ppc32		-
parisc		parisc	hppa-linux-gnu-		vmlinux				hppa		CONFIG_RTC_CLASS=y
powerpcle	powerpcle powerpc64le-linux-gnu- vmlinux			ppc64le,ppc32le	CONFIG_COMPAT=y,CONFIG_PPC_POWERNV=n,CONFIG_ALTIVEC=y,CONFIG_VSX=y
sparc64		sparc64	sparc64-linux-gnu-	arch/sparc/boot/image		sparc64,sparc32	CONFIG_COMPAT=y,CONFIG_RTC_CLASS=y
riscv		riscv	riscv64-linux-gnu-	arch/riscv/boot/Image		riscv64,rv32	CONFIG_COMPAT=y,CONFIG_NONPORTABLE=y
sh		sh	sh4-linux-gnu-		arch/sh/boot/zImage		sh4		-
parisc64	parisc64 hppa64-linux-gnu-	vmlinux				hppa		CONFIG_RTC_CLASS=y
'
SAN_KCONFIG="CONFIG_KASAN=y CONFIG_UBSAN=y CONFIG_UBSAN_SHIFT=y CONFIG_UBSAN_BOUNDS=y"

# One row per user ABI: the ARCH of the uapi headers its programs are built
# with, and the suffix of its selftest binary where it is a compat ABI
# (preadv_test_<suffix>, built by the selftests' Makefile).
ABI_TABLE='
x86_64	x86	-
i386	x86	32
x32	x86	x32
o32	mips	o32
o32el	mips	o32
n32	mips	n32
n32el	mips	n32
n64	mips	-
n64el	mips	-
aarch64	arm64	-
armhf	arm	arm
ppc64	powerpc	-
ppc32	powerpc	32
s390x	s390	-
hppa	parisc	-
ppc64le	powerpc	-
ppc32le	powerpc	32
sparc64	sparc	-
sparc32	sparc	32
riscv64	riscv	-
rv32	riscv	32
sh4	sh	-
'

ARCHES=
while read -r _k _; do
	[ -z "$_k" ] || ARCHES+="${ARCHES:+ }$_k"
done <<< "$KERNEL_TABLE"
unset _k
KERNELS=${KERNELS:-"$ARCHES x86_64-san"}

# The kunit.py build dir of a kernel (tools/mutants.sh uses its own).
kbuild_dir() {
	echo "${KBUILD_PREFIX:-$BUILD/kunit-}$1"
}

# build_objects DIR [NEWER]: the objects a kernel build dir holds, one path
# per line, without the host tools of scripts/ and tools/ and the link's
# own (make objects, make bench); with NEWER, those newer than that file.
build_objects() {
	(cd "$1" && find . -name '*.o' ! -path './scripts/*' ! -path './tools/*' \
		! -name '.tmp_*' ! -name vmlinux.o ${2:+-newer "$2"}) | sed 's#^\./##'
}

# note_of_patch PATCH: the "Notes:" paragraph below the patch's "---"
# (tools/apply.sh makes it the commit's git note; tools/checkpatch.sh reads
# the checkpatch findings it names, "- TYPE: why").
note_of_patch() {
	awk 'p == 0 && /^---$/ { p = 1; next }
	     p == 1 { if ($0 == "") next; if ($0 == "Notes:") { p = 2; next } exit }
	     p == 2 { if ($0 == "") exit; sub(/^    /, ""); print }' "$1"
}

# c_objects DIR [NEWER]: the objects of build_objects DIR [NEWER] that
# kbuild compiled from C (the source_ line of each one's .cmd file).
c_objects() {
	local o
	build_objects "$1" "${2:-}" | while read -r o; do
		grep -qs "^source_$o := .*\.c\$" "$1/$(dirname "$o")/.$(basename "$o").cmd" && echo "$o"
	done
}

kernel_arch() {
	echo "${1%-san}"
}

# table_field TABLE KEY N: column N of the row of TABLE whose first column
# is KEY; fails if there is none.  In bash alone: the scripts of a run ask
# it some 40 times per kernel.
table_field() {
	local line
	local -a col
	while IFS= read -r line; do
		read -ra col <<< "$line"
		if [ "${col[0]:-}" = "$2" ]; then
			echo "${col[$3 - 1]}"
			return 0
		fi
	done <<< "$1"
	return 1
}

# kernel_field KERNEL N: column N of the kernel's row.
kernel_field() {
	table_field "$KERNEL_TABLE" "$(kernel_arch "$1")" "$2" ||
		die "unknown kernel '$1' (known: $ARCHES)"
}

# The kernel's ARCH= for make, as kunit.py's qemu_configs set it.
make_arch() {
	case $(kernel_field "$1" 2) in
	mips*)	echo mips ;;
	powerpc*) echo powerpc ;;
	sparc*)	echo sparc ;;
	*)	kernel_field "$1" 2 ;;
	esac
}

# The workbench's own QEMU config of a kernel, if it has one.
own_qemu_config() {
	local f=$TOP/tools/qemu_configs/$(kernel_arch "$1").py
	[ ! -f "$f" ] || echo "$f"
}

# The kernel's QEMU machine, as kunit.py run and exec take it (and
# tools/boot.py): --arch=ARCH, or --qemu_config=FILE of the workbench's own.
kunit_machine() {
	local own
	own=$(own_qemu_config "$1")
	if [ -n "$own" ]; then
		echo "--qemu_config=$own"
	else
		echo "--arch=$(kernel_field "$1" 2)"
	fi
}

# plain_kunit SUBCOMMAND KERNEL DIR [ARG...]: kunit.py SUBCOMMAND of the
# kernel's machine with kunit.py's own lib/kunit config and nothing of ours,
# in build dir DIR: the run make bench compares ours with (bench.sh), and
# its .config (configdiff.sh).
plain_kunit() {
	local cmd=$1 kernel=$2 dir=$3 cross
	shift 3
	cross=$(arch_cross "$kernel")
	(cd "$TREE" && python3 tools/testing/kunit/kunit.py "$cmd" "$(kunit_machine "$kernel")" \
		${cross:+--cross_compile="$cross"} --build_dir="$dir" --kunitconfig=lib/kunit "$@")
}

arch_cross() {
	local c
	c=$(kernel_field "$1" 3)
	[ "$c" = - ] || echo "$c"
}

# user_cross KERNEL: the cross compiler's prefix of the kernel's programs
# (its selftests, /init): the kernel's own, but on parisc64, where there
# is no 64-bit user space (and hppa64-linux-gnu-gcc has no C library):
# 32-bit programs, which that kernel runs through its compat calls.
user_cross() {
	case $(kernel_arch "$1") in
	parisc64) echo hppa-linux-gnu- ;;
	*) arch_cross "$1" ;;
	esac
}

kernel_image() {
	kernel_field "$1" 4
}

arch_abis() {
	local a
	a=$(kernel_field "$1" 5)
	[ "$a" = - ] || echo "${a//,/ }"
}

# kernel_kconfig KERNEL: the options kunit.py adds to the kunitconfig for
# KERNEL.  CONFIG_LOCALVERSION_AUTO=n for every kernel: the release string
# would name the commit of the tree (-gSHA), which every edit makes anew,
# and so change the image of a kernel whose code did not change
# (tools/kernel.sh: the same sources give the same image).
kernel_kconfig() {
	local k
	k=$(kernel_field "$1" 6)
	[ "$k" = - ] || echo "${k//,/ }"
	echo CONFIG_LOCALVERSION_AUTO=n
	case $1 in
	*-san)	echo "$SAN_KCONFIG" ;;
	esac
}

# abi_field ABI N: column N of the ABI's row.
abi_field() {
	table_field "$ABI_TABLE" "$1" "$2" || die "unknown ABI '$1'"
}

abi_srcarch() {
	abi_field "$1" 2
}

# The selftests of a kernel are built by their own Makefile, once, with
# the kernel's cross compiler (CROSS_COMPILE, as a kselftest CI gives it):
# preadv_test for the first of the kernel's ABIs, and preadv_test_<abi> for
# the compat ABIs that the Makefile builds with -m32, -mx32, -mabi=n32 and
# -mabi=32.  Debian's gcc -m32 and -mx32 need gcc-multilib, which conflicts
# with the MIPS cross compilers: on x86_64 the i386 and x32 cross compilers
# stand in for them (CC32, CCX32).
# On arm64, the AArch32 compat binary needs arm's uapi headers (another
# syscall table), put before the kernel's in the include path; Debian's
# powerpc64 compiler has no 32-bit libc for -m32.
# st_make_vars KERNEL: the make variables, one per line.
st_make_vars() {
	local cflags
	echo "CROSS_COMPILE=$(user_cross "$1")"
	cflags=$(user_cflags "$1") || return 1
	[ -z "$cflags" ] || echo "USERCFLAGS=$cflags"
	case $(kernel_arch "$1") in
	x86_64)	echo "CC32=i686-linux-gnu-gcc"; echo "CCX32=x86_64-linux-gnux32-gcc" ;;
	arm64)	echo "CCARM=arm-linux-gnueabihf-gcc -isystem $BUILD/hdr-arm/usr/include" ;;
	powerpc) echo "CC32=powerpc-linux-gnu-gcc" ;;
	esac
}

# kernel_cflags KERNEL: the compiler flags that every C file built for the
# kernel's machine needs (the kernel, its selftests, /init): on sh, the
# plugin that makes Debian 12's GCC 12 fit to build it (tools/sh/
# compiler.sh, which fails, saying why, when it is not).
kernel_cflags() {
	case $(arch_cross "$1") in
	sh4*) "$TOP/tools/sh/compiler.sh" ;;
	esac
}

# user_cflags KERNEL: those flags, and on sh the C library that its
# programs link (tools/sh/libc.sh: Debian 12's was built by the GCC 12
# that miscompiles).
user_cflags() {
	local k l
	k=$(kernel_cflags "$1") || return 1
	case $(arch_cross "$1") in
	sh4*) l=$("$TOP/tools/sh/libc.sh") || return 1; k+=" $l" ;;
	esac
	echo "$k"
}

# The binary that runs a user ABI on a kernel: the native one for its first
# ABI, else the compat one that the Makefile builds.
abi_prog() {
	local abis
	abis=$(arch_abis "$1")
	if [ "$2" = "${abis%% *}" ]; then
		echo preadv_test
	else
		echo "preadv_test_$(abi_field "$2" 3)"
	fi
}


# The architectures that the matrix does not build whole but the series
# changes, or that use compat_arg_u64(): otherarch.sh and bisect.sh build,
# with -Werror, their objects that the series changes and the generic users
# of compat_arg_u64() (GENERIC_OBJS; SERIES_OBJS with the series only).
# parisc is the 32-bit kernel, parisc64 the 64-bit one (make ARCH=parisc64
# makes it), which builds the same calls as compat calls.  sh is built both
# little-endian and big-endian, the two orders of SC_ARG64().  shftrace and
# pariscftrace build the calls that patches 5 and 9 define with
# SYSCALL_DEFINEx() with CONFIG_FTRACE_SYSCALLS, whose syscall metadata no
# kernel of the matrix has.  The options after a "+" are turned on after
# the defconfig.
# target  make ARCH  cross prefix  defconfig  arch objects
OTHERARCH_TARGETS='
arm64	arm64	aarch64-linux-gnu-	defconfig	arch/arm64/kernel/sys32.o
ppc64	powerpc	powerpc64-linux-gnu-	ppc64_defconfig	arch/powerpc/kernel/sys_ppc32.o arch/powerpc/kernel/syscalls.o arch/powerpc/kernel/signal_32.o
ppc32	powerpc	powerpc-linux-gnu-	pmac32_defconfig	arch/powerpc/kernel/sys_ppc32.o arch/powerpc/kernel/syscalls.o arch/powerpc/kernel/signal_32.o
sh	sh	sh4-linux-gnu-	defconfig	arch/sh/kernel/sys_sh32.o
shbe	sh	sh4-linux-gnu-	defconfig+CPU_BIG_ENDIAN	arch/sh/kernel/sys_sh32.o
sparc64	sparc	sparc64-linux-gnu-	sparc64_defconfig	arch/sparc/kernel/sys_sparc32.o
parisc	parisc	hppa-linux-gnu-		generic-32bit_defconfig	arch/parisc/kernel/sys_parisc.o
parisc64	parisc64	hppa64-linux-gnu-	generic-64bit_defconfig	arch/parisc/kernel/sys_parisc.o
riscv64	riscv	riscv64-linux-gnu-	defconfig	arch/riscv/kernel/compat_syscall_table.o
shftrace	sh	sh4-linux-gnu-	defconfig+FTRACE+FTRACE_SYSCALLS	arch/sh/kernel/sys_sh32.o
pariscftrace	parisc	hppa-linux-gnu-		generic-32bit_defconfig+FTRACE+FTRACE_SYSCALLS	arch/parisc/kernel/sys_parisc.o
'
# config_fragment DIR CONFIG MAKE...: .config in DIR from CONFIG, a
# defconfig target with options to turn on after a "+" each
# (defconfig+CPU_BIG_ENDIAN), made with the make command MAKE...; the
# caller's olddefconfig settles the rest.
config_fragment() {
	local dir=$1 config=$2 opt
	shift 2
	"$@" "${config%%+*}" || return 1
	for opt in $(tr '+' ' ' <<< "${config#"${config%%+*}"}"); do
		"$TREE/scripts/config" --file "$dir/.config" -e "$opt" || return 1
	done
}

# use_firmware KERNEL: export what the QEMU config of KERNEL needs beyond
# kunit.py's (parisc: its firmware, lib.sh: hppa_firmware; parisc64: the
# 64-bit firmware, and QEMU 10's qemu-system-hppa, hppa_qemu, first on
# PATH after the workbench's own tools/bin, where tools/qemu.py finds it).
use_firmware() {
	local q
	case $(kernel_arch "$1") in
	parisc)
		WORKBENCH_HPPA_FIRMWARE=$(hppa_firmware hppa-firmware.img) || exit 1
		export WORKBENCH_HPPA_FIRMWARE ;;
	parisc64)
		WORKBENCH_HPPA_FIRMWARE=$(hppa_firmware hppa-firmware64.img) || exit 1
		q=$(hppa_qemu) || exit 1
		WORKBENCH_HPPA_QEMU=$q/qemu-system-hppa
		PATH=$TOP/tools/bin:$q:${PATH#"$TOP/tools/bin:"}
		export WORKBENCH_HPPA_FIRMWARE WORKBENCH_HPPA_QEMU PATH ;;
	esac
}

GENERIC_OBJS="fs/read_write.o fs/open.o fs/sync.o mm/fadvise.o mm/readahead.o"
SERIES_OBJS="lib/tests/compat_arg_u64_kunit.o"

# target_objs TARGET TREE: the objects otherarch.sh and bisect.sh build for
# TARGET in TREE: its own, the generic ones (but where it cannot build
# them) and those of the series where TREE has their sources.
target_objs() {
	local objs o
	objs=$(awk -v t="$1" '$1 == t { for (i = 5; i <= NF; i++) printf "%s ", $i }' <<< "$OTHERARCH_TARGETS")
	objs+=$GENERIC_OBJS
	for o in $SERIES_OBJS; do
		[ ! -f "$2/${o%.o}.c" ] || objs+=" $o"
	done
	echo "$objs"
}

# debian_fetch DIR SUITE PACKAGE RETRY: the .deb of PACKAGE from Debian's
# SUITE, into DIR.  Debian 12's apt sources do not name the suites the
# workbench fetches from (trixie-backports, bookworm-backports), so
# apt-get runs with a sources list, a lists directory and a cache of DIR's
# own, signed by the Debian archive key that Debian 12 has: apt checks the
# Release file's signature and the .deb's hash, and the machine's apt
# configuration is neither read for sources nor written.  A failure says so
# in one line, with apt's first error and the command RETRY to retry.
debian_fetch() {
	local dir=$1 suite=$2 pkg=$3 retry=$4 log=$1/fetch.log err
	local opts=(-o "Dir::Etc::sourcelist=$dir/sources.list"
		    -o "Dir::Etc::sourceparts=$dir/sources.list.d"
		    -o "Dir::State::Lists=$dir/lists"
		    -o "Dir::Cache=$dir/cache"
		    -o "Dir::State::status=/dev/null"
		    -o "Debug::NoLocking=1"
		    -o "APT::Sandbox::User=root"
		    -o "Acquire::Retries=2")
	local mirror
	mirror=$(fetch_mirror) || exit 1
	mkdir -p "$dir/sources.list.d" "$dir/lists/partial" "$dir/cache/archives/partial"
	echo "deb [signed-by=$BASE_KEYRING] ${mirror%% *} $suite main" > "$dir/sources.list"
	say "fetch: $pkg from $suite, through ${mirror%% *} (${mirror#* })"
	if apt-get -q "${opts[@]}" update >"$log" 2>&1 && ! grep -q '^[EW]:' "$log"; then
		rm -rf "$dir/dl" && mkdir "$dir/dl"
		if (cd "$dir/dl" && apt-get -q "${opts[@]}" download "$pkg") >>"$log" 2>&1; then
			mv "$dir"/dl/*.deb "$dir/"
			return 0
		fi
	fi
	err=$(grep -m1 '^[EW]:' "$log" || tail -1 "$log")
	die "could not fetch $pkg from Debian's $suite: ${err:-no output} (log: $log); retry: $retry"
}

# apt_mirror [DIR]: the URI of the Debian archive that the apt sources in
# DIR (/etc/apt) name for this machine's own release (VERSION_CODENAME of
# /etc/os-release), and the file that names it; fails if none does.  Both
# formats: one-line entries in sources.list and sources.list.d/*.list, and
# deb822 stanzas in sources.list.d/*.sources (not those with "Enabled:
# no"); files of other names are not apt's.  Of the entries for the
# release, the first of type deb whose suite is the release itself (not
# its -updates or -security).
apt_mirror() {
	local dir=${1:-/etc/apt} release f
	release=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	[ -n "$release" ] || return 1
	for f in "$dir/sources.list" "$dir"/sources.list.d/*.list "$dir"/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		case $f in
		*.sources)
			awk -v rel="$release" -v f="$f" '
				function flush() {
					if (type ~ /(^| )deb( |$)/ && enabled != "no" && uri != "" && (" " suites " ") ~ (" " rel " ")) {
						split(uri, u, " "); print u[1] " " f; found = 1; exit
					}
					type = uri = suites = enabled = ""
				}
				/^[ \t]*#/ { next }
				/^[ \t]*$/ { flush(); next }
				/^[ \t]/ { next }
				{ k = tolower($1); sub(/:$/, "", k); v = $0; sub(/^[^:]*:[ \t]*/, "", v)
				  if (k == "types") type = v; else if (k == "uris") uri = v
				  else if (k == "suites") suites = v; else if (k == "enabled") enabled = tolower(v) }
				END { if (!found) flush() }' "$f" ;;
		*)
			awk -v rel="$release" -v f="$f" '
				$1 == "deb" { i = 2
					if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
					if ($(i + 1) == rel) { print $i " " f; exit } }' "$f" ;;
		esac
	done | head -1 | grep .
}

# fetch_mirror: the mirror of a fetch and where it comes from, "URI WHERE".
fetch_mirror() {
	local m
	if [ -n "$BASE_MIRROR" ]; then
		echo "$BASE_MIRROR BASE_MIRROR="
	elif m=$(apt_mirror); then
		echo "${m%% *} named for $(. /etc/os-release && echo "$VERSION_CODENAME") in ${m#* }"
	else
		die "no Debian mirror: this machine's apt sources (/etc/apt) name none for its release; set BASE_MIRROR=<the archive's URI>"
	fi
}

# The firmware parisc boots with.  Debian 12's qemu-system-hppa (QEMU 7.2)
# comes with SeaBIOS-hppa version 6, on which a 7.3 kernel takes a Kernel
# Fault in ___slab_alloc() at addr 0000000c, before any test; the same
# QEMU with version 18, from bookworm-backports' qemu-system-data (QEMU
# 10.0.2), boots it and runs the suite (EVIDENCE.md).  The workbench
# fetches that package as it fetches the tree, and takes hppa-firmware.img
# out of it; only the parisc row uses it (tools/qemu_configs/parisc.py).
HPPA_FIRMWARE_PKG=qemu-system-data
HPPA_FIRMWARE_SUITE=bookworm-backports

# hppa_firmware IMAGE: the path of IMAGE of that package (hppa-firmware.img,
# or hppa-firmware64.img, the 64-bit machine's), fetched if need be.
hppa_firmware() {
	local dir=$BUILD/firmware deb img=$1
	deb=$(ls "$dir/$HPPA_FIRMWARE_PKG"_*_all.deb 2>/dev/null | tail -1)
	if [ -z "$deb" ]; then
		say "firmware: fetching $HPPA_FIRMWARE_PKG from Debian's $HPPA_FIRMWARE_SUITE for its $img" >&2
		debian_fetch "$dir" "$HPPA_FIRMWARE_SUITE" "$HPPA_FIRMWARE_PKG" "make test KERNELS=\"parisc parisc64\"" >&2
		deb=$(ls "$dir/$HPPA_FIRMWARE_PKG"_*_all.deb | tail -1)
	fi
	if [ ! -s "$dir/$img" ] || [ "$deb" -nt "$dir/$img" ]; then
		dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/share/qemu/$img" > "$dir/$img.tmp" &&
			[ -s "$dir/$img.tmp" ] ||
			die "$deb: no ./usr/share/qemu/$img in it; remove it and retry"
		mv "$dir/$img.tmp" "$dir/$img"
	fi
	echo "$dir/$img"
}

# The 64-bit PA-RISC machine, the HP C3700, is QEMU's since 8.2; Debian
# 12's QEMU is 7.2.  The parisc64 row boots with qemu-system-hppa of
# bookworm-backports' qemu-system-misc (QEMU 10.0, built for Debian 12:
# its libraries are Debian 12's), fetched as the firmware is and kept in
# $BUILD/firmware/qemu, not installed: the machine's own QEMU and apt
# configuration stay as they are, and only that row uses it.
HPPA_QEMU_PKG=qemu-system-misc

# hppa_qemu: the directory of that qemu-system-hppa, fetched if need be;
# fails, saying why, where it cannot run here.
hppa_qemu() {
	local dir=$BUILD/firmware deb q=$BUILD/firmware/qemu missing
	deb=$(ls "$dir/$HPPA_QEMU_PKG"_*.deb 2>/dev/null | tail -1)
	if [ -z "$deb" ]; then
		say "qemu: fetching $HPPA_QEMU_PKG from Debian's $HPPA_FIRMWARE_SUITE for its qemu-system-hppa (the C3700)" >&2
		debian_fetch "$dir" "$HPPA_FIRMWARE_SUITE" "$HPPA_QEMU_PKG" "make run ARCH=parisc64" >&2
		deb=$(ls "$dir/$HPPA_QEMU_PKG"_*.deb | tail -1)
	fi
	if [ ! -x "$q/qemu-system-hppa" ] || [ "$deb" -nt "$q/qemu-system-hppa" ]; then
		mkdir -p "$q"
		dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/bin/qemu-system-hppa > "$q/qemu-system-hppa.tmp" &&
			[ -s "$q/qemu-system-hppa.tmp" ] ||
			die "$deb: no ./usr/bin/qemu-system-hppa in it; remove it and retry: make run ARCH=parisc64"
		chmod +x "$q/qemu-system-hppa.tmp"
		mv "$q/qemu-system-hppa.tmp" "$q/qemu-system-hppa"
	fi
	missing=$(ldd "$q/qemu-system-hppa" 2>&1 | awk '/not found/ { printf " %s", $1 }')
	[ -z "$missing" ] ||
		die "$q/qemu-system-hppa ($(basename "$deb")) lacks libraries:$missing (apt-get install the Debian 12 packages that hold them)"
	echo "$q"
}

T0=${T0:-$EPOCHSECONDS}
export T0

say() { printf '[%4ss] %s\n' "$((EPOCHSECONDS - T0))" "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The lock of $BUILD.  Every run that checks out, builds from or boots what
# is in $TREE and its build dirs holds it from its apply to its last boot
# (matrix, kunit, selftests, checkpatch, bisect, codegen, otherarch,
# mutants, bench): one run at a time, so that a result is built from, and
# names, exactly the sources of the clone that started it.  A second run
# waits, saying for whom.  Scripts started by a holder inherit the lock
# (fd 9 and WORKBENCH_HELD); a process left behind by a killed holder
# keeps it until it ends (its own timeout), and no longer.
hold_build() {
	[ "${WORKBENCH_HELD:-}" = "$BUILD" ] && return 0
	mkdir -p "$BUILD"
	exec 9>>"$BUILD/.lock"
	if ! flock -n 9; then
		say "waiting for another workbench run: $(cat "$BUILD/.lock-owner" 2>/dev/null || echo unknown)"
		flock 9
	fi
	echo "$(basename "$0") $* (pid $$, $TOP, since $(date -u '+%F %T') UTC)" > "$BUILD/.lock-owner"
	export WORKBENCH_HELD=$BUILD
	# What tools/qemu.py found out about KVM holds for this run only.
	export WORKBENCH_ACCEL_STATE=$BUILD/.accel-state
	rm -f "$WORKBENCH_ACCEL_STATE"
}

# boot_accel CONSOLE_LOG: the accelerator that the last QEMU of a console
# log ran with, and why, as tools/qemu.py says it ("tcg (no
# KVM: /dev/kvm: No such file or directory)"); nothing if the boot did not
# go through tools/qemu.py.
boot_accel() {
	grep -ao 'workbench-qemu: accelerator .*' "$1" 2>/dev/null | tail -1 |
		sed 's/^workbench-qemu: accelerator //; s/[[:space:]]*$//' || true
}

# boot_not_started CONSOLE_LOG: tools/qemu.py's reason when the machine
# printed nothing within the start bound, else nothing.
boot_not_started() {
	grep -ao 'workbench-qemu: the machine did not start: [^:]*([^)]*)' "$1" 2>/dev/null | head -1 |
		sed 's/^workbench-qemu: //' || true
}

# kvm_hung WHAT CONSOLE_LOG: after a boot that reached its timeout: if it
# ran under KVM that the run chose (not ACCEL=kvm), the rest of the run,
# the boot once more among it, runs under TCG.
kvm_hung() {
	if [ "$(boot_accel "$2" | cut -d' ' -f1)" = kvm ] && [ "$WORKBENCH_ACCEL" = auto ]; then
		echo "a boot under KVM hung ($1)" > "$WORKBENCH_ACCEL_STATE"
		say "$1: hung under KVM; TCG for the boot once more and the rest of the run"
	fi
}

# say_kvm_fallback WHAT CONSOLE_LOG: the one line that says why a run left
# KVM for TCG, where the log has it.
say_kvm_fallback() {
	local line
	line=$(grep -ao 'workbench-qemu: KVM did not run the guest.*' "$2" 2>/dev/null | head -1 || true)
	[ -z "$line" ] || say "$1: ${line#workbench-qemu: }"
}

# take_slot WHAT: one of the WORKBENCH_SLOTS slots of a matrix run
# (matrix.sh), held on fd 5 until release_slot or the end of the script:
# a kernel build, a selftest build or a boot take one, so that at most
# that many run at once, while the kernels that have nothing of the kind
# to do go through without waiting behind them.  Nothing outside a matrix.
take_slot() {
	local i waited=
	[ -n "${WORKBENCH_SLOTS:-}" ] || return 0
	while :; do
		for ((i = 0; i < WORKBENCH_SLOTS; i++)); do
			exec 5>>"$BUILD/.slot-$i"
			flock -n 5 && return 0
			exec 5>&-
		done
		[ -n "$waited" ] || say "$1: waiting for one of the $WORKBENCH_SLOTS slots (MATRIX_JOBS)"
		waited=yes
		sleep 0.5
	done
}

release_slot() {
	exec 5>&-
}

# hold_applied: hold $BUILD and have $TREE be this clone's series (apply.sh;
# a no-op when it is already); a script run by a holder has both already.
hold_applied() {
	[ "${WORKBENCH_HELD:-}" != "$BUILD" ] || return 0
	hold_build "$@"
	"$TOP/tools/apply.sh"
	# What the tree is, for the scripts this run starts (record,
	# kernel.sh, boot.sh), which look again only where the tree may have
	# changed under them (tree_state).
	WORKBENCH_SOURCE=$(tree_source)
	WORKBENCH_TREE_ID=$(tree_id)
	export WORKBENCH_SOURCE WORKBENCH_TREE_ID
}

# applied_ref: the ref of the commit that apply.sh makes of this clone's
# inputs (its series, kunit/, selftests/, MAINTAINERS.snippet and apply.sh
# itself) on the tree's base.
applied_ref() {
	local hash
	hash=$( { (cd "$TOP" && find series kunit selftests MAINTAINERS.snippet tools/apply.sh \
			-type f ! -name '0000-cover-letter.patch' -print0 | sort -z | xargs -0 sha256sum)
		  cat "$TREE/.git/base-version"; } | sha256sum | cut -d' ' -f1)
	echo "refs/workbench/applied/$hash"
}

# tree_source: the commit that $TREE has checked out, -dirty when its files
# differ from it.
tree_source() {
	local c
	c=$(git -C "$TREE" rev-parse --short=12 HEAD)
	git -C "$TREE" diff --quiet HEAD || c+=-dirty
	echo "$c"
}

# tree_id: the tree object that $TREE has checked out; nothing when its
# files differ from it (a change not committed).
tree_id() {
	git -C "$TREE" diff --quiet HEAD 2>/dev/null || return 0
	git -C "$TREE" rev-parse 'HEAD^{tree}'
}

# tree_state: the tree's files, as one hash, committed or not.
tree_state() {
	{ git -C "$TREE" rev-parse 'HEAD^{tree}'; git -C "$TREE" diff HEAD; } | sha256sum | cut -d' ' -f1
}

# kernel_inputs KERNEL: what goes into KERNEL's image from outside the tree,
# as one hash: its row, the compiler, the configs; by content, not by path,
# so that every clone finds the same.
kernel_inputs() {
	local own cross
	cross=$(arch_cross "$1")
	{
		echo "$1 $cross $(kernel_kconfig "$1") $KERNEL_CC"
		"${cross}gcc" --version 2>/dev/null | head -1
		# What kunit.py reads of them: not comments or blank lines
		# (but "# CONFIG_X is not set", which is X=n).
		awk '/^# CONFIG_[A-Za-z0-9_]+ is not set$/ || !/^(#|$)/' "$TOP/kunitconfig"
		own=$(own_qemu_config "$1")
		[ -z "$own" ] || cat "$own"
	} | sha256sum | cut -d' ' -f1
}

# config_sum BUILD_DIR: the build dir's .config, as a hash.
config_sum() {
	local h
	h=$(sha256sum < "$1/.config" 2>/dev/null) || h=none
	echo "${h:0:16}"
}

# kernel_key KERNEL CFLAGS: what .workbench-built records of a build's
# inputs outside the tree: kernel_inputs and the flags of kernel_cflags.
kernel_key() {
	{ kernel_inputs "$1"; echo "$2"; } | sha256sum | cut -d' ' -f1
}

# kernel_deps BUILD_DIR [OBJECT...]: the files of the tree that the build
# read, one path a line, relative to the tree: those that kbuild's .cmd
# files name, as a target's source and the headers fixdep found (source_
# and deps_), or in the command that made it (savedcmd_: a syscall table
# that a generated header is made of, a script and its input, each named
# on its command line); with OBJECTs, of theirs alone.  A path that a
# command names as a directory (-I../linux/include) is in it too, and
# never matches a changed file.
kernel_deps() {
	local rel dir=$1 o
	shift
	# kbuild names the tree's files by absolute path, or relative to the
	# build dir (../linux/fs/read_write.c) where it can.
	rel=$(realpath -m --relative-to="$dir" "$TREE")
	if [ $# -gt 0 ]; then
		for o; do
			printf '%s\0' "$dir/$(dirname "$o")/.$(basename "$o").cmd"
		done
	else
		find "$dir" -name '.*.cmd' ! -path '*/scripts/*' -print0
	fi |
		xargs -0 awk -v abs="$TREE/" -v rel="$rel/" '
			function out(p) {
				gsub(/\/\/+/, "/", p)
				if (p ~ /\/\.\.$/) p = p "/"
				# arch/x86/boot/../include: arch/x86/include
				while (match(p, /[^\/.][^\/]*\/\.\.\//))
					p = substr(p, 1, RSTART - 1) substr(p, RSTART + RLENGTH)
				sub(/\/$/, "", p)
				if (p != "") print p
			}
			/^savedcmd_/ {
				# The paths anywhere in a word of the command:
				# -I../linux/include, --file=../linux/x.
				for (i = 3; i <= NF; i++) {
					w = $i
					while ((k = index(w, abs)) || (k = index(w, rel))) {
						pre = substr(w, k, length(abs)) == abs ? abs : rel
						w = substr(w, k + length(pre))
						p = w
						sub(/[^A-Za-z0-9_.\/+-].*/, "", p)
						out(p)
					}
				}
				next
			}
			{ for (i = 1; i <= NF; i++) {
				p = $i
				if (index(p, abs) == 1) p = substr(p, length(abs) + 1)
				else if (index(p, rel) == 1) p = substr(p, length(rel) + 1)
				else continue
				out(p)
			} }' |
		sort -u
}

# comments_only FROM TO FILE...: every line that the change from commit FROM
# to TO adds or removes in FILEs is blank or a comment's.  A guess, which
# only chooses whether tools/kernel.sh compiles the objects first.
comments_only() {
	git -C "$TREE" diff -U0 "$1" "$2" -- "${@:3}" | awk '
		/^(\+\+\+|---) / { next }
		/^[-+]/ && substr($0, 2) !~ /^[ \t]*(\/\*|\*( |\/|$)|\/\/|$)/ { code = 1 }
		END { exit code }'
}

# objects_of BUILD_DIR < FILES: the objects of BUILD_DIR whose kbuild .cmd
# files name one of FILES (files of the tree, a line each); fails where a
# .cmd file that is not an object's names one (a generated file, a link),
# or where there are more than OBJECTS_FIRST_MAX (40) of them.
objects_of() {
	local bdir=$1 rel f cmd b d n=0
	local -a pats=()
	rel=$(realpath -m --relative-to="$bdir" "$TREE")
	while read -r f; do
		[ -z "$f" ] || pats+=(-e "$TREE/$f" -e "$rel/$f")
	done
	[ ${#pats[@]} -gt 0 ] || return 1
	while read -r cmd; do
		cmd=${cmd#"$bdir"/}
		b=${cmd##*/}
		case $b in .*.o.cmd) ;; *) return 1 ;; esac
		case $cmd in scripts/*|tools/*) return 1 ;; esac
		b=${b#.}
		d=
		[ "$cmd" = "${cmd%/*}" ] || d=${cmd%/*}/
		echo "$d${b%.cmd}"
		n=$((n + 1))
		[ $n -le "${OBJECTS_FIRST_MAX:-40}" ] || return 1
	done < <(grep -rlF --include='.*.cmd' "${pats[@]}" "$bdir" || true)
	[ $n -gt 0 ]
}

# kernel_relevant BUILD_DIR: of the changed paths on stdin, those that may
# change the kernel of BUILD_DIR, that make must see: every one but those
# the workbench can show its last build did not read.  A path that the
# build's .cmd files name (kernel_deps, kept in .workbench-reads) was read.
# One that they do not name was not read where it is
#  - a C source, header or assembler file (.c, .h, .S): kbuild reads one
#    only through the compiler, whose reads fixdep lists (deps_), or
#    through a command that names it (savedcmd_);
#  - in arch/<A>/ for an <A> under which the build made nothing (the
#    build dir has no arch/<A>/): kbuild reads another architecture's
#    files only through a command that names them (x86's 32-bit syscall
#    table, the reference of every architecture's checksyscalls.sh; um's
#    arch/x86, where um builds objects);
#  - in tools/testing/selftests/, which the kernel's build does not enter
#    (tools/selftests.sh builds them).
# Every other path goes to make, which knows every rule: a syscall table,
# a script, Kconfig, a file of arch/<A>/tools/, Documentation/, ...
kernel_relevant() {
	local arches
	arches=$(cd "$1" 2>/dev/null && find arch -mindepth 1 -maxdepth 1 -type d -printf '%f ' 2>/dev/null || true)
	awk -v deps="$1/.workbench-reads" -v arches="$arches" '
		BEGIN { while ((getline l < deps) > 0) d[l] = 1
			n = split(arches, a, " "); for (i = 1; i <= n; i++) own[a[i]] = 1 }
		$0 in d { print; next }
		/\.[chS]$/ { next }
		/^arch\/[^\/]+\// { split($0, p, "/"); if (!(p[2] in own)) next }
		/^tools\/testing\/selftests\// { next }
		{ print }'
}

# kernel_unread BUILD_DIR: of the paths on stdin (kernel_relevant's), those
# that the last build did not read: make decides what they change.
kernel_unread() {
	awk -v deps="$1/.workbench-reads" '
		BEGIN { while ((getline l < deps) > 0) d[l] = 1 }
		!($0 in d)'
}

# kernel_shaping: of the changed paths on stdin, those that decide what is
# built or how: a Kconfig, Makefile or Kbuild file, scripts/, usr/, tools/
# but the selftests.  A change with none of them changes sources and
# headers only, which make alone rebuilds (tools/kernel.sh).
KERNEL_SHAPING='/(^|\/)(Kconfig|Makefile|Kbuild)[^\/]*$/ || /^(scripts|usr)\// ||
		(/^tools\// && !/^tools\/testing\/selftests\//)'
kernel_shaping() {
	awk "$KERNEL_SHAPING"
}

# fault_reason LOG...: a one-line reason for a failure that is not the
# tests', if the logs show one.
fault_reason() {
	if grep -qs 'No space left on device' "$@"; then
		echo "no space left on device"
	elif grep -qs 'Disk quota exceeded' "$@"; then
		echo "disk quota exceeded"
	elif grep -qs 'Cannot allocate memory\|Out of memory' "$@"; then
		echo "out of memory"
	fi
}

# base_deb: the fetched linux-source package in $BUILD/apt (tools/tree.sh),
# the newest if there are more; nothing if none.
base_deb() {
	ls "$BUILD/apt/${BASE_PKG}"_*_all.deb 2>/dev/null | tail -1
}

base_version() {
	cat "$TREE/.git/base-version" 2>/dev/null || echo unknown
}

# The status of a row whose boot reached its timeout and whose one more
# boot passed (boot.sh): a pass, which the summary shows with the log of
# the boot that hung.
BOOTED_AGAIN="ok, booted again"
# The status of a row that a boot of the same image and initramfs passed
# (boot.sh): a pass, with that boot's log.
REUSED="ok, not booted again"

# qemu_config_file KERNEL: the QEMU config of the kernel's machine: the
# workbench's own, or kunit.py's.
qemu_config_file() {
	local own
	own=$(own_qemu_config "$1")
	if [ -n "$own" ]; then
		echo "$own"
	else
		echo "$TREE/tools/testing/kunit/qemu_configs/$(kernel_field "$1" 2).py"
	fi
}

# boot_key KERNEL IMAGE INITRAMFS KERNEL_ARGS: what a boot boots, as one
# hash: the image, the initramfs, the machine and the command line (and
# parisc's firmware); not the accelerator.
boot_key() {
	{
		echo "$1 $4"
		sha256sum "$2" ${3:+"$3"} | cut -d' ' -f1
		[ "$(kernel_arch "$1")" = um ] || cat "$(qemu_config_file "$1")" "$TOP/tools/qemu_configs/with_init.py"
		[ -z "${WORKBENCH_HPPA_FIRMWARE:-}" ] || sha256sum < "$WORKBENCH_HPPA_FIRMWARE"
		[ -z "${WORKBENCH_HPPA_QEMU:-}" ] || sha256sum < "$WORKBENCH_HPPA_QEMU"
	} | sha256sum | cut -c1-16
}

# Lines of a console log that mean the kernel went wrong.
KERNEL_FAULTS='Kernel panic|BUG:|Oops|WARNING:|UBSAN:|KASAN:|Unable to handle|Call Trace:'

# The guard of every row: the kernel that booted is the kernel that was
# built.  tools/kernel.sh builds the same image from the same sources: the
# "Linux version" line (linux_banner) names the release, the compiler and
# the configuration's SMP and PREEMPT, but not which build it is.  The
# build ID of vmlinux (its NT_GNU_BUILD_ID note, a SHA-1 of what was
# linked) does; /init prints the booted kernel's from /sys/kernel/notes
# (tools/init.c).  A boot image that wraps an older vmlinux (a stale
# piggy.o, say) prints another.  vmlinux holds two banners: init/version.o's,
# with the build number and time left blank ("# PREEMPT_DYNAMIC"), and the
# one the link fills in, which the kernel prints; strings(1) may join it to
# the bytes before it (on parisc).
#
# built_ids KERNEL: the banner of the kernel's vmlinux, and its build ID,
# a line each.
built_ids() {
	local v cache
	v=$(kbuild_dir "$1")/vmlinux
	cache=$(kbuild_dir "$1")/.workbench-banner
	# Read again when vmlinux is not the one they were read from.
	if [ "$(head -1 "$cache" 2>/dev/null)" != "$(stat -c '%s %Y id' "$v" 2>/dev/null)" ]; then
		{ stat -c '%s %Y id' "$v" 2>/dev/null
		  strings -n 16 "$v" 2>/dev/null | grep -oE 'Linux version .*\) #[0-9]+ .*' | tail -1 || echo
		  LC_ALL=C readelf -n "$v" 2>/dev/null | sed -n 's/^ *Build ID: *//p' | head -1
		} > "$cache.tmp" && mv "$cache.tmp" "$cache"
	fi
	sed -n 2,3p "$cache"
}

booted_banner() {
	grep -ao -m1 'Linux version .*' "$1" 2>/dev/null | head -1 | tr -d '\r' | sed 's/[[:space:]]*$//' || true
}

# booted_build_id CONSOLE_LOG: the build ID that /init printed.
booted_build_id() {
	grep -ao -m1 'workbench: build ID [0-9a-f]*' "$1" 2>/dev/null | sed 's/.* //' || true
}

# banner_id BANNER: the release and the rest after the compiler: what of
# two banners differs.
banner_id() {
	sed 's/^Linux version \([^ ]*\) .*) \(#[0-9]\)/\1 \2/' <<< "$1"
}

# boot_guard KERNEL CONSOLE_LOG [ok]: nothing when the console names the
# vmlinux built for KERNEL, else the reason the row fails.  A console that
# names no kernel (no banner; or /init ran and printed no build ID) is a
# failure only of a row that passed otherwise (ok); a kernel that printed
# nothing fails anyway.  A boot that never reached /init (um, or no
# initramfs) is known by its banner alone.
boot_guard() {
	local built built_id booted booted_id
	{ read -r built; read -r built_id; } < <(built_ids "$1") || true
	booted=$(booted_banner "$2")
	booted_id=$(booted_build_id "$2")
	if [ -z "$built" ] || [ -z "$built_id" ]; then
		echo "no vmlinux built for $1 to check the booted kernel against"
	elif [ -z "$booted" ]; then
		[ "${3:-}" != ok ] || echo "booted kernel not identified: no 'Linux version' line in the console"
	elif [ "$booted" != "$built" ]; then
		echo "booted kernel is not the one built (booted $(banner_id "$booted"), built $(banner_id "$built"))"
	elif [ -n "$booted_id" ] && [ "$booted_id" != "$built_id" ]; then
		echo "booted kernel is not the one built (booted build ID $booted_id, built $built_id)"
	elif [ -z "$booted_id" ] && grep -aq 'workbench: begin ' "$2"; then
		[ "${3:-}" != ok ] || echo "booted kernel not identified: /init printed no build ID"
	fi
}

# kunit_failures LOG: the failed cases of a kunit.py log, each with the
# number of its parameter rows that failed, on one line.
kunit_failures() {
	awk '/\[(PASSED|FAILED)\] [A-Za-z0-9_]+_test( |$)/ {
		if ($0 ~ /FAILED/) {
			match($0, /\[FAILED\] [A-Za-z0-9_]+_test/)
			printf "%s%s", sep, substr($0, RSTART + 9, RLENGTH - 9)
			if (n) printf " (%d rows)", n
			sep = ", "
		}
		n = 0; next
	}
	/\[FAILED\] / { n++ }' "$1"
}

# record NAME STATUS PASSED FAILED SKIPPED LOG [SECONDS [ACCEL]]: a row of
# the summary, with the source the row was built from (tree_source) and
# the accelerator it booted with.  No field is empty: read splits on tabs,
# and runs of tabs count as one.
record() {
	mkdir -p "$RESULTS"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "${7:--}" \
		"${WORKBENCH_SOURCE:-$(tree_source)}" "${8:--}" > "$RESULTS/$1"
}

# alive WHAT LOG CMD...: run CMD with its output in LOG, printing that it
# is alive every 30s.
# CMD runs in a session of its own, and an interrupt (Ctrl-C, kill) of the
# script stops CMD and everything it started (make, the compilers, QEMU)
# before the script exits: nothing of an interrupted run keeps writing to
# the build dirs.
alive() {
	local what=$1 log=$2 pid ticker rc=0
	shift 2
	setsid "$@" >"$log" 2>&1 &
	pid=$!
	# The ticker stops its sleep when it is stopped: a sleep left behind
	# would hold what this script has open (the lock of $BUILD, a pipe)
	# for up to 30 s.
	(t=0 s=
	 trap '[ -z "$s" ] || kill "$s" 2>/dev/null; exit 0' TERM
	 while :; do
		sleep 30 & s=$!
		wait "$s" || exit 0
		t=$((t + 30))
		say "  ... $what, ${t}s"
	 done) &
	ticker=$!
	# shellcheck disable=SC2064
	trap "kill $ticker 2>/dev/null; kill -TERM -- -$pid 2>/dev/null || true; sleep 1; kill -KILL -- -$pid 2>/dev/null || true
	      say '$what: interrupted'; exit 130" INT TERM HUP
	# wait returns when CMD ends, or at once for a signal, whose trap runs.
	wait "$pid" || rc=$?
	trap - INT TERM HUP
	kill "$ticker" 2>/dev/null || true
	wait "$ticker" 2>/dev/null || true
	return $rc
}

# distcc_hosts COMPILER CFLAGS: the hosts of DISTCC_HOSTS that compile as
# this machine's COMPILER does, one host specification a line; a line for
# each host left out, and why, on standard error.  Each host compiles a
# probe with CFLAGS and -O2 through distcc alone, and its object must be
# the local compiler's, byte for byte: a host that refuses, does not
# answer within DISTCC_PROBE_TIMEOUT seconds (10), has no such compiler,
# or another one at its path (the object's .comment names the compiler
# and its version) is left out.  Specifications that are options
# (--randomize, +zeroconf) pass as they are; localhost compiles here.
distcc_hosts() {
	local cc=$1 cflags=$2 dir spec err path
	# As ccache calls it: by the path it finds on PATH, which the host
	# runs as it is.
	path=$(command -v "$cc") || { echo "all hosts: no $cc here" >&2; return 0; }
	dir=$(mktemp -d "${TMPDIR:-/tmp}/wb-distcc.XXXXXX")
	printf 'int wb_probe(int x)\n{\n\treturn x * 3 + 1;\n}\n' > "$dir/probe.c"
	# shellcheck disable=SC2086
	if ! "$cc" $cflags -O2 -c "$dir/probe.c" -o "$dir/local.o" 2>"$dir/err"; then
		echo "all hosts: $cc does not compile the probe here: $(head -1 "$dir/err")" >&2
		rm -rf "$dir"
		return 0
	fi
	for spec in $DISTCC_HOSTS; do
		case $spec in
		-*|+*|localhost|localhost/*) echo "$spec"; continue ;;
		esac
		rm -f "$dir/remote.o"
		# distcc 3.4 aborts ("bit out of range") on a refused
		# connection with DISTCC_FALLBACK=0 or DISTCC_BACKOFF_PERIOD=0:
		# with neither, it says that it compiles here instead.  The
		# state directory is the probe's own, with no backoff in it.
		# shellcheck disable=SC2086
		if ! DISTCC_HOSTS=$spec DISTCC_SKIP_LOCAL_RETRY=1 \
		     DISTCC_DIR=$dir DISTCC_IO_TIMEOUT=${DISTCC_PROBE_TIMEOUT:-10} \
		     timeout "$(( ${DISTCC_PROBE_TIMEOUT:-10} + 5 ))" \
		     distcc "$path" $cflags -O2 -c "$dir/probe.c" -o "$dir/remote.o" 2>"$dir/err" ||
		   grep -q 'running locally instead' "$dir/err"; then
			err=$(grep -m1 'ERROR' "$dir/err" | sed 's/^distcc\[[0-9]*\] //; s/^ERROR: //')
			[ -n "$err" ] || err=$(grep -m1 . "$dir/err")
			echo "$spec: left out, its $cc did not compile a probe (${err:-no answer})" >&2
		elif ! cmp -s "$dir/local.o" "$dir/remote.o"; then
			echo "$spec: left out, its $cc gives another object than this machine's (it names $(strings -a "$dir/remote.o" | grep -m1 -E 'GCC:|clang' || echo 'no compiler'); this one $(strings -a "$dir/local.o" | grep -m1 -E 'GCC:|clang' || echo 'none'))" >&2
		else
			echo "$spec"
		fi
	done
	rm -rf "$dir"
}

# loopback_distccd ADDR JOBS DIR [CMD...]: a distcc daemon for the
# workbench's own checks, on ADDR, a loopback address (never another), for
# clients of 127.0.0.0/8, with JOBS jobs; its log DIR/ADDR.log and its pid
# DIR/ADDR.pid (DIR is made writable for the distcc user that distccd
# drops to).  CMD..., if given, runs distccd (unshare ..., for a daemon
# with a namespace of its own).  Fails, with distccd's error on standard
# error, where the daemon has not started within 10 s.
loopback_distccd() {
	local addr=$1 jobs=$2 dir=$3 i
	shift 3
	[[ $addr = 127.* ]] || { echo "$addr is not a loopback address" >&2; return 1; }
	mkdir -p "$dir" && chmod 1777 "$dir"
	: > "$dir/$addr.log" && chmod 666 "$dir/$addr.log"
	"$@" distccd --daemon --allow 127.0.0.0/8 --listen "$addr" --jobs "$jobs" --log-level info \
		--log-file "$dir/$addr.log" --pid-file "$dir/$addr.pid" || true
	for ((i = 0; i < 10; i++)); do
		grep -q 'preforking daemon started' "$dir/$addr.log" && return 0
		sleep 1
	done
	echo "no distcc daemon on $addr: $(grep -m1 ERROR "$dir/$addr.log" || echo 'it did not start')" >&2
	return 1
}
