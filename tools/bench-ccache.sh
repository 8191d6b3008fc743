#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-ccache.sh [KERNEL [DIR...]]: what ccache costs on a cold build.  In
# a copy of KERNEL's build dir (default x86_64; it must have been built),
# the objects under each DIR (default kernel fs mm) are deleted and rebuilt
# four ways, each with an empty cache: without ccache, with ccache as it
# comes (a miss runs the preprocessor to key the result, then the
# compiler), with ccache in depend mode (a miss runs the compiler only),
# through tools/bin/wbcc in depend mode (the workbench's setting,
# tools/lib.sh: depend mode, but sources with an .incbin compile without
# ccache), through wbcc with distcc beneath ccache (CCACHE_PREFIX, as
# DISTCC_HOSTS makes it: README) to a distcc daemon on 127.0.0.2 of this
# machine with as many jobs as it has CPUs, which shows what the
# indirection costs (the local preprocessing, the transfer) where it can
# gain nothing, and without ccache again, to see how much the machine's
# speed moved during the run.
. "$(dirname "$0")/lib.sh"

kernel=${1:-x86_64}
dirs=("${@:2}")
[ ${#dirs[@]} -gt 0 ] || dirs=(kernel fs mm)
src=$(kbuild_dir "$kernel")
[ -f "$src/.workbench-built" ] ||
	die "bench-ccache $kernel: no finished build in $src: run make run ARCH=$kernel first"

hold_applied
b=$BUILD/bench-ccache
rm -rf "$b"
mkdir -p "$b"
cp -a "$src" "$b/k"
cross=$(arch_cross "$kernel")
command -v distccd >/dev/null || die "bench-ccache: no distccd (make deps)"
# The daemon's log and pid file (lib.sh: loopback_distccd).
dd=$(mktemp -d /tmp/wb-distccd.XXXXXX)
trap 'kill "$(cat "$dd/127.0.0.2.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$dd"' EXIT
loopback_distccd 127.0.0.2 "$(nproc)" "$dd" || die "bench-ccache: the daemon on 127.0.0.2 did not start"
# BENCH_CCACHE_MODES: the modes, in their order (default: all, as above).
for mode in ${BENCH_CCACHE_MODES:-plain ccache depend wbcc distcc plain}; do
	(cd "$b/k" && find "${dirs[@]}" -name '*.o' -delete)
	rm -rf "$b/cache"
	unset CCACHE_DISABLE CCACHE_DEPEND CCACHE_PREFIX DISTCC_HOSTS
	case $mode in
	plain)	cc=${cross}gcc ;;
	ccache)	cc="ccache ${cross}gcc" ;;
	depend)	cc="ccache ${cross}gcc"; export CCACHE_DEPEND=1 ;;
	wbcc)	cc="$KERNEL_CC ${cross}gcc"; export CCACHE_DEPEND=1 ;;
	distcc)	cc="$KERNEL_CC ${cross}gcc"
		export CCACHE_DEPEND=1 CCACHE_PREFIX=distcc DISTCC_HOSTS="127.0.0.2/$(nproc)" ;;
	esac
	jobs0=$(grep -c COMPILE_OK "$dd/127.0.0.2.log" || true)
	t=$(date +%s.%N)
	CCACHE_DIR=$b/cache make -s -C "$TREE" O="$b/k" ARCH="$(make_arch "$kernel")" \
		CROSS_COMPILE="$cross" CC="$cc" -j"$JOBS" "${dirs[@]/%//}" >"$b/$mode.log" 2>&1 ||
		{ tail -20 "$b/$mode.log"; die "bench-ccache $kernel: the $mode build failed"; }
	secs=$(echo "$(date +%s.%N) - $t" | bc)
	n=$(cd "$b/k" && find "${dirs[@]}" -name '*.o' | wc -l)
	there=
	[ "$mode" != distcc ] || there=" ($(( $(grep -c COMPILE_OK "$dd/127.0.0.2.log" || true) - jobs0 )) compiled by the daemon, $(grep -c 'running locally instead' "$b/$mode.log" || true) here after a failure)"
	printf 'bench-ccache %s: %s: %d objects under %s in %.0fs%s\n' "$kernel" "$mode" "$n" "${dirs[*]}" "$secs" "$there"
done
rm -rf "$b"
