#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# distcc-check.sh: the matrix's kernels compiled through distcc have the
# build IDs of the kernels compiled here.  Two distcc daemons on loopback
# addresses of this machine (127.0.0.2 and 127.0.0.3, two jobs each; never
# another address), and for each kernel of KERNELS, one after the other,
# with its build dir warm from make test: the objects under
# DISTCC_CHECK_DIRS (default: fs, a seventh of each kernel's objects; "."
# for all) removed, make test KERNELS=<it> with DISTCC_HOSTS naming the
# two and CCACHE_RECACHE=1 (every object compiled again, none from the
# cache), and the build ID of vmlinux against the one before.  Prints a
# line per kernel: the objects compiled again, how many the daemons
# compiled, the build IDs.  The build dirs are left as make test builds
# them; the rows boot only where the image changed.
. "$(dirname "$0")/lib.sh"

command -v distccd >/dev/null || die "distcc-check: no distccd (make deps)"
DIRS=${DISTCC_CHECK_DIRS:-fs}
HOSTS="127.0.0.2 127.0.0.3"
D=$BUILD/distcc-check
mkdir -p "$D"
# The daemons' logs and pid files (lib.sh: loopback_distccd).
dd=$(mktemp -d /tmp/wb-distccd.XXXXXX)
stop() {
	local h
	for h in $HOSTS; do
		[ ! -f "$dd/$h.pid" ] || kill "$(cat "$dd/$h.pid")" 2>/dev/null || true
	done
	cp "$dd"/*.log "$D/" 2>/dev/null || true
	rm -rf "$dd"
}
trap stop EXIT
for h in $HOSTS; do
	loopback_distccd "$h" 2 "$dd" || die "distcc-check: the daemon on $h did not start"
done
# The compilations that the daemons did, but the probes (lib.sh: distcc_hosts).
done_on() { cat "$dd"/127.0.0.*.log | grep COMPILE_OK | grep -vc '/probe\.c' || true; }

for k in $KERNELS; do
	[ -f "$(kbuild_dir "$k")/.workbench-built" ] || die "distcc-check: $k is not built: run make test first"
done
fail=0
for k in $KERNELS; do
	b=$(kbuild_dir "$k")
	was=$(built_ids "$k" | sed -n 2p)
	n=0
	for d in $DIRS; do
		n=$((n + $(find "$b/$d" -name '*.o' ! -name '*.mod.o' 2>/dev/null | wc -l)))
		if [ "$d" = . ]; then rm -rf "$b"; else rm -rf "${b:?}/$d"; fi
	done
	rm -f "$b/.workbench-built"
	before=$(done_on)
	r=0
	(cd "$TOP" && DISTCC_HOSTS="127.0.0.2/2 127.0.0.3/2" CCACHE_RECACHE=1 make test KERNELS="$k") \
		> "$D/$k.out" 2>&1 || r=$?
	there=$(( $(done_on) - before ))
	now=$(built_ids "$k" | sed -n 2p)
	here=$(grep -o 'distcc: [0-9]* compilations ran here' "$D/$k.out" | grep -o '[0-9][0-9]*' || echo 0)
	how=$(grep -m1 -o "kernel $k: distcc: compiling.*" "$D/$k.out" | sed "s/^kernel $k: distcc: //")
	if [ $r = 0 ] && [ -n "$now" ] && [ "$now" = "$was" ]; then
		say "distcc-check: $k: $n objects of $DIRS compiled again, $there on the daemons ($how; $here here after a failure); build ID ${now:0:16}, as before"
	else
		say "distcc-check: $k: FAILED: exit $r, build ID ${now:0:16}, before ${was:0:16}, $there on the daemons ($D/$k.out)"
		fail=$((fail + 1))
	fi
done
[ $fail -eq 0 ] || die "distcc-check: $fail kernels differ or failed"
