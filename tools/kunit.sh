#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kunit.sh KERNEL: build KERNEL (tools/lib.sh: an arch, or ARCH-san) with
# kunit.py (top-level kunitconfig, the selftests' config, the arch's compat
# ABIs) and run the KUnit suite in QEMU.  The same image serves the
# selftests.  When nothing that goes into the image changed since the last
# good build, only boot it (kunit.py exec).
. "$(dirname "$0")/lib.sh"

kernel=${1:?usage: kunit.sh KERNEL}
hold_applied "$@"
use_firmware "$kernel"
arch=$(kernel_arch "$kernel")
cross=$(arch_cross "$kernel")
bdir=$(kbuild_dir "$kernel")
log=$LOGS/kunit-$kernel.log
mkdir -p "$LOGS" "$bdir"
if ! command -v "${cross}gcc" >/dev/null; then
	say "kunit $kernel: FAILED, no compiler ${cross}gcc (make deps installs it)"
	record "$kernel.0kunit" "no compiler ${cross}gcc" 0 1 0 -
	exit 1
fi

build_args=(--kunitconfig="$TOP/kunitconfig"
	    --jobs="$JOBS" "--make_options=CC=$KERNEL_CC ${cross}gcc")
for o in $(kernel_kconfig "$kernel"); do
	build_args+=(--kconfig_add="$o")
done
[ -z "$cross" ] || build_args+=(--cross_compile="$cross")
run_args=("$(kunit_machine "$kernel")" --build_dir="$bdir" --timeout="${KUNIT_TIMEOUT:-600}"
	  --kernel_args=panic=-1)

stamp=$(kernel_stamp "$kernel")

# parisc links the compiler's libgcc.a into vmlinux (arch/parisc/Makefile:
# libs-y += $(LIBGCC)), and the compile_commands.json that kunit.py builds
# with the kernel wants the .cmd file of every member of every archive that
# vmlinux links: libgcc's members have none ("No such file or directory:
# '._divI.o.cmd'").  An empty one is a .cmd file that gen_compile_commands.py
# skips.
if [ "$(make_arch "$kernel")" = parisc ]; then
	for m in $("${cross}ar" t "$("${cross}gcc" -print-libgcc-file-name)"); do
		[ -e "$bdir/.$m.cmd" ] || : > "$bdir/.$m.cmd"
	done
fi

cd "$TREE"
source=$(tree_source)
# .workbench-stamp: the image in $bdir was built from the tree whose stamp
# it holds.  .image-ok: that image booted; it holds the stamp too, and
# selftests.sh boots the image only when that stamp is the tree's (a failed
# or interrupted build must not leave an older image in use).  The stamp
# is written only when the tree is, after the build, what it was before.
if [ "$(cat "$bdir/.workbench-stamp" 2>/dev/null)" = "$stamp" ]; then
	say "kunit $kernel: kernel unchanged, booting it ($source)"
	cmd=(exec "${run_args[@]}")
else
	say "kunit $kernel: building the kernel from $source (${cross}gcc, ccache but for .incbin sources) and running the suite"
	rm -f "$bdir/.workbench-stamp" "$bdir/.image-ok"
	cmd=(run "${run_args[@]}" "${build_args[@]}")
fi

rc=0
t=$(date +%s)
building=
[ "${cmd[0]}" = exec ] || building=yes
hung=
rm -f "$log.hung"
alive "kunit $kernel" "$log" python3 tools/testing/kunit/kunit.py "${cmd[@]}" || rc=$?
# A boot that reaches the timeout is booted once more, as a selftest boot
# is (selftests.sh says why); a hang of the code under test hangs both.
if [ $rc -ne 0 ] && grep -q 'Starting KUnit Kernel' "$log" && grep -q 'timed out after' "$log" &&
   [ "$(kernel_stamp "$kernel")" = "$stamp" ]; then
	hung=$log.hung
	mv "$log" "$hung"
	say "kunit $kernel: no end in ${KUNIT_TIMEOUT:-600}s (log: $hung); booting it once more"
	cmd=(exec "${run_args[@]}")
	rc=0
	alive "kunit $kernel" "$log" python3 tools/testing/kunit/kunit.py "${cmd[@]}" || rc=$?
fi
moved=
if [ "$(kernel_stamp "$kernel")" != "$stamp" ]; then
	moved="the tree changed during the run (was $source, now $(tree_source))"
	rm -f "$bdir/.workbench-stamp" "$bdir/.image-ok"
else
	# The build is good when its image booted and the suite passed, in
	# the boot after it or in the one more.
	[ -z "$building" ] || [ $rc -ne 0 ] || echo "$stamp" > "$bdir/.workbench-stamp"
	# kunit.py boots the kernel only once the build succeeded.
	if grep -q 'Starting KUnit Kernel' "$log"; then echo "$stamp" > "$bdir/.image-ok"; fi
fi

read -r passed failed skipped errors < <(python3 "$TOP/tools/counts.py" "$log" || echo "0 0 0 1")
# kunit.py keeps the console of the kernel it booted in test.log.
guard=
if grep -q 'Starting KUnit Kernel' "$log"; then
	ran=
	[ $rc -ne 0 ] || [ "$failed" != 0 ] || [ "$passed" = 0 ] || ran=ok
	guard=$(boot_guard "$kernel" "$bdir/test.log" "$ran")
	# The next run rebuilds; the selftests still boot the image, and
	# their rows fail on the same guard.
	[ -z "$guard" ] || rm -f "$bdir/.workbench-stamp"
fi
status=ok
if [ -n "$moved" ]; then
	status=$moved
elif [ -n "$guard" ]; then
	status=$guard
elif grep -qE "$KERNEL_FAULTS" "$bdir/test.log" 2>/dev/null; then
	status="kernel fault"
elif [ $rc -ne 0 ] || [ "$failed" != 0 ] || [ "$errors" != 0 ] || [ "$passed" = 0 ]; then
	status=FAILED
	reason=$(fault_reason "$log")
	if [ -n "$reason" ]; then
		status+=": $reason"
	elif ! grep -q 'Starting KUnit Kernel' "$log"; then
		status+=": the kernel did not build"
	elif [ "$passed$failed" = 00 ] && grep -q 'timed out after' "$log"; then
		status+=": no test output from the kernel in ${KUNIT_TIMEOUT:-600}s"
	elif [ "$passed$failed" = 00 ]; then
		status+=": no test output from the kernel"
	fi
fi
[ "$status" = ok ] || [ "$failed" != 0 ] || failed=1
secs=$(( $(date +%s) - t ))
if [ "$status" = ok ] && [ -n "$hung" ]; then
	status=$BOOTED_AGAIN
	record "$kernel.0kunit" "$status" "$passed" "$failed" "$skipped" "$hung" "$secs"
else
	record "$kernel.0kunit" "$status" "$passed" "$failed" "$skipped" "$log" "$secs"
fi
sed -n 's/^\[[0-9:]*\] //; /Testing complete\|Elapsed time/p' "$log" | sed "s/^/  kunit $kernel: /"
cases=$(kunit_failures "$log")
[ -z "$cases" ] || echo "  kunit $kernel: failed: $cases"
say "kunit $kernel: $status in ${secs}s ($passed passed, $failed failed, $skipped skipped; log: $log)"
[ "$status" = ok ] || [ "$status" = "$BOOTED_AGAIN" ]
