#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install what the workbench needs from Debian's archive; a no-op when all
# of it is present.  The base tree is not among them: tools/tree.sh
# fetches it.  Never gcc-multilib: it conflicts with the MIPS cross
# compilers (i386 uses gcc-i686-linux-gnu instead).
. "$(dirname "$0")/lib.sh"

PACKAGES="
	make gcc libc6-dev git python3 perl xz-utils rsync
	flex bison bc libelf-dev libssl-dev cpio kmod
	ccache sparse
	qemu-system-x86 qemu-system-mips
	gcc-i686-linux-gnu
	gcc-x86-64-linux-gnux32
	gcc-mips-linux-gnu gcc-mipsel-linux-gnu
	gcc-mips64-linux-gnuabi64 gcc-mips64el-linux-gnuabi64
	gcc-multilib-mips64-linux-gnuabi64 gcc-multilib-mips64el-linux-gnuabi64
	libc6-dev-i386-cross libc6-dev-x32-cross
	libc6-dev-mips-cross libc6-dev-mipsel-cross
	libc6-dev-mips64-cross libc6-dev-mips64el-cross
	libc6-dev-mipsn32-mips64-cross libc6-dev-mipsn32-mips64el-cross
	gcc-powerpc64-linux-gnu gcc-powerpc-linux-gnu
	gcc-aarch64-linux-gnu gcc-sparc64-linux-gnu gcc-hppa64-linux-gnu gcc-hppa-linux-gnu
	gcc-s390x-linux-gnu gcc-riscv64-linux-gnu gcc-sh4-linux-gnu
	musl-tools busybox-static
	qemu-system-arm qemu-system-ppc
	gcc-arm-linux-gnueabihf
	libc6-dev-arm64-cross libc6-dev-armhf-cross
	libc6-dev-ppc64-cross libc6-dev-powerpc-cross
	qemu-system-misc libc6-dev-s390x-cross libc6-dev-hppa-cross
	python3-ply b4
	gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross
	qemu-system-sparc libc6-dev-sparc64-cross gcc-12-multilib-sparc64-linux-gnu
	libc6-dev-riscv64-cross
	libc6-dev-sh4-cross gcc-12-plugin-dev-sh4-linux-gnu g++
	distcc
"

missing_packages() {
	local p installed
	# One dpkg-query for all (one a package took 2.5 s of every run); it
	# names each package it knows, installed or not.
	# shellcheck disable=SC2086
	installed=" $(dpkg-query -W -f='${Package} ${Status}\n' $PACKAGES 2>/dev/null |
		awk '$2 " " $3 " " $4 == "install ok installed" { printf "%s ", $1 }')"
	for p in $PACKAGES; do
		case $installed in *" $p "*) ;; *) printf ' %s' "$p" ;; esac
	done
}

missing=$(missing_packages)
if [ -z "$missing" ]; then
	say "deps: all $(echo $PACKAGES | wc -w) packages present"
	exit 0
fi

[ "$(id -u)" = 0 ] ||
	die "missing packages:$missing; run 'make deps' as root (or: sudo apt-get install$missing)"

# Two runs on a fresh machine: the second waits for the first's install
# (a lock of the workbench's own), then finds the packages present; an
# apt-get or dpkg of someone else's is waited for by apt itself.
exec 7>>/var/lock/preadv-workbench-deps.lock
if ! flock -n 7; then
	say "deps: waiting for another workbench run's apt-get install"
	flock 7
	missing=$(missing_packages)
	[ -n "$missing" ] || { say "deps: all $(echo $PACKAGES | wc -w) packages present"; exit 0; }
fi

say "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
lock=(-o DPkg::Lock::Timeout=1800)
log=$(mktemp /tmp/preadv-workbench-deps.XXXXXX)
if fuser /var/lib/dpkg/lock-frontend /var/lib/apt/lists/lock >/dev/null 2>&1; then
	say "deps: waiting for apt's lock (another apt-get or dpkg is running)"
fi
{ apt-get "${lock[@]}" update -qq && apt-get "${lock[@]}" install -y -qq --no-install-recommends $missing; } >"$log" 2>&1 || {
	tail -30 "$log" >&2
	die "apt-get install failed (log: $log)"
}
rm -f "$log"
say "deps: done"
