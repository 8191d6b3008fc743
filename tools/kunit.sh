#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kunit.sh ARCH: build the kernel for ARCH with kunit.py (top-level kunitconfig,
# the selftests' config, the arch's compat ABIs) and run the KUnit suite in
# QEMU.  The same image serves the selftests.  When nothing that goes into
# the image changed since the last good build, only boot it (kunit.py exec).
. "$(dirname "$0")/lib.sh"

arch=$1
cross=$(arch_cross "$arch")
bdir=$BUILD/kunit-$arch
log=$LOGS/kunit-$arch.log
mkdir -p "$LOGS" "$bdir"

build_args=(--kunitconfig="$TOP/kunitconfig"
	    --kunitconfig="$TREE/tools/testing/selftests/preadv/config"
	    --jobs="$JOBS" "--make_options=CC=ccache ${cross}gcc")
for o in $(arch_kconfig "$arch"); do
	build_args+=(--kconfig_add="$o")
done
[ -z "$cross" ] || build_args+=(--cross_compile="$cross")
run_args=(--arch="$arch" --build_dir="$bdir" --timeout="${KUNIT_TIMEOUT:-600}"
	  --kernel_args=panic=-1)

# What goes into the image: the tree but the selftests, and the configs.
kernel_tree() {
	git -C "$TREE" ls-tree HEAD | grep -v '	tools$'
	git -C "$TREE" ls-tree HEAD:tools | grep -v '	testing$'
	git -C "$TREE" ls-tree HEAD:tools/testing | grep -v '	selftests$'
}
stamp=$( { kernel_tree; echo "${build_args[@]}";
	   cat "$TOP/kunitconfig" "$TREE/tools/testing/selftests/preadv/config"; } |
	 sha256sum | cut -d' ' -f1)

cd "$TREE"
if [ "$(cat "$bdir/.workbench-stamp" 2>/dev/null)" = "$stamp" ]; then
	say "kunit $arch: kernel unchanged, booting it"
	cmd=(exec "${run_args[@]}")
else
	say "kunit $arch: building the kernel (${cross}gcc, ccache) and running the suite"
	rm -f "$bdir/.workbench-stamp"
	cmd=(run "${run_args[@]}" "${build_args[@]}")
fi

rc=0
alive "kunit $arch" "$log" python3 tools/testing/kunit/kunit.py "${cmd[@]}" || rc=$?
[ "${cmd[0]}" = exec ] || [ $rc -ne 0 ] || echo "$stamp" > "$bdir/.workbench-stamp"

read -r passed failed skipped errors < <(python3 "$TOP/tools/counts.py" "$log" || echo "0 0 0 1")
status=ok
if grep -qE "$KERNEL_FAULTS" "$bdir/test.log" 2>/dev/null; then
	status="kernel fault"
elif [ $rc -ne 0 ] || [ "$failed" != 0 ] || [ "$errors" != 0 ] || [ "$passed" = 0 ]; then
	status=FAILED
fi
[ "$status" = ok ] || [ "$failed" != 0 ] || failed=1
record "$arch.0kunit" "$status" "$passed" "$failed" "$skipped" "$log"
sed -n 's/^\[[0-9:]*\] //; /Testing complete\|Elapsed time/p' "$log" | sed "s/^/  kunit $arch: /"
say "kunit $arch: $status ($passed passed, $failed failed, $skipped skipped; log: $log)"
[ "$status" = ok ]
