#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sh/libc.sh [--debian12]: the C library that the sh4 programs (the
# selftests, /init) link statically, and print the compiler flags that
# make sh4-linux-gnu-gcc link it.
#
# Debian 12's libc6-dev-sh4-cross (glibc 2.36) was built by Debian 12's
# GCC 12, which miscompiles (tools/sh/no_treg_combine.c): the startup code
# of every static program branches on a T bit that nothing set
# (__libc_setup_tls(), whose "if (_dl_phdr != NULL)" lost its tst), and a
# program linked with it stops before main() on the sh4 row's kernel,
# printing nothing.  Debian 13's (glibc 2.41) was built by GCC 14, which
# does not.  It is fetched from Debian's trixie as the tree is fetched
# (lib.sh: debian_fetch), into $BUILD/sh4-libc/, and put before the
# compiler's own: -B for crt1.o and crti.o, -L for libc.a, -isystem for
# its headers.
#
# The self-test: the startup objects of the library (libc-start.o,
# libc-tls.o) must have no branch on a T bit that nothing on its path set
# (tools/sh/tbit_scan.py); else it stops, saying so.  --debian12: the same
# test on Debian 12's library, which fails.
. "$(dirname "$0")/../lib.sh"

SH4_LIBC_SUITE=trixie
SH4_LIBC_PKG=libc6-dev-sh4-cross
dir=$BUILD/sh4-libc
objdump=sh4-linux-gnu-objdump

if [ "${1:-}" = --debian12 ]; then
	libc=/usr/sh4-linux-gnu/lib
else
	debs() { compgen -G "$dir/${SH4_LIBC_PKG}_*_all.deb" | tail -1; }
	deb=$(debs || true)
	if [ -z "$deb" ]; then
		say "sh libc: fetching $SH4_LIBC_PKG from Debian's $SH4_LIBC_SUITE (Debian 12's was built by a GCC that miscompiles)" >&2
		mkdir -p "$dir"
		(flock 8; [ -n "$(debs || true)" ] ||
			debian_fetch "$dir" "$SH4_LIBC_SUITE" "$SH4_LIBC_PKG" "make run ARCH=sh") 8>"$dir/.lock" >&2 ||
			exit 1
		deb=$(debs)
	fi
	root=$dir/$(basename "$deb" .deb)
	if [ ! -d "$root" ]; then
		rm -rf "$root.tmp.$$"
		dpkg-deb -x "$deb" "$root.tmp.$$" || die "sh libc: $deb does not unpack; remove it and retry: make run ARCH=sh"
		mv -T "$root.tmp.$$" "$root" 2>/dev/null || rm -rf "$root.tmp.$$"
	fi
	libc=$root/usr/sh4-linux-gnu/lib
fi

[ -f "$libc/libc.a" ] || die "sh libc: no libc.a in $libc"
# The scan's verdict on this libc.a, by the scan and objdump that gave it:
# a libc that passed is not scanned again (one second a run).
passed=${root:-$BUILD/sh4-libc/debian12}/.workbench-scan-passed
key=$( { cat "$libc/libc.a" "$TOP/tools/sh/tbit_scan.py"; "$objdump" --version | head -1; } | sha256sum | cut -d' ' -f1)
if [ "$(cat "$passed" 2>/dev/null)" != "$key" ]; then
	t=$(mktemp -d)
	trap 'rm -rf "$t"' EXIT
	(cd "$t" && "${objdump%objdump}ar" x "$libc/libc.a" libc-start.o libc-tls.o) ||
		die "sh libc: $libc/libc.a has no libc-start.o and libc-tls.o"
	if ! python3 "$TOP/tools/sh/tbit_scan.py" "$objdump" "$t/libc-start.o" "$t/libc-tls.o" > "$t/scan" 2>&1; then
		echo "sh libc: the startup code of $libc/libc.a branches on T where nothing set it:" >&2
		sed "s|$t/||" "$t/scan" >&2
		die "sh libc: $libc/libc.a was built by a compiler that miscompiles (tools/sh/no_treg_combine.c)"
	fi
	mkdir -p "$(dirname "$passed")"
	echo "$key" > "$passed"
fi
[ "${1:-}" = --debian12 ] || echo "-B$libc/ -L$libc -isystem ${libc%/lib}/include"
