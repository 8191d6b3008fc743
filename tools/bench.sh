#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh KERNEL...: for each, back to back and cold (empty build dirs,
# ccache disabled), the time of our run (tools/run.sh: the build of
# the image that serves KUnit and the selftests, and its one boot) and of the
# plain `kunit.py run --kunitconfig=lib/kunit` for the same machine (the
# workbench's own QEMU config where kunit.py has none); prints the
# ratio, and the objects each build made (counted as make objects counts
# them).  Each kernel costs two cold builds.
. "$(dirname "$0")/lib.sh"

hold_applied "$@"
export CCACHE_DISABLE=1
for kernel in "$@"; do
	b=$BUILD/bench
	rm -rf "$b"
	mkdir -p "$b"

	rm -rf "$BUILD/kunit-$kernel"
	t=$(date +%s.%N)
	"$TOP/tools/run.sh" "$kernel" >"$b/ours.out" 2>&1 ||
		{ cat "$b/ours.out"; die "bench $kernel: our run failed"; }
	ours=$(echo "$(date +%s.%N) - $t" | bc)

	t=$(date +%s.%N)
	plain_kunit run "$kernel" "$b/theirs" --jobs="$JOBS" >"$b/theirs.out" 2>&1 ||
		{ tail -20 "$b/theirs.out"; die "bench $kernel: kunit.py run failed"; }
	theirs=$(echo "$(date +%s.%N) - $t" | bc)
	objs="$(build_objects "$(kbuild_dir "$kernel")" | grep -c .) objects against"
	objs+=" $(build_objects "$b/theirs" | grep -c .)"
	rm -rf "$b"
	printf 'bench %s: ours %.0fs, kunit.py run --kunitconfig=lib/kunit %.0fs, ratio %.2f (%s)\n' \
		"$kernel" "$ours" "$theirs" "$(echo "$ours / $theirs" | bc -l)" "$objs"
done
