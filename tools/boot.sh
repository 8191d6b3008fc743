#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# boot.sh KERNEL: the one boot of KERNEL, which gives all its rows: kunit.py
# exec boots the image that tools/kernel.sh built with the initramfs of
# tools/selftests.sh; the built-in KUnit suites run, then /init loads the
# KUnit test modules and runs the selftests of each user ABI
# (tools/init.c).  tools/split.py cuts the console log into one log per
# row, and kunit.py parse reads each.  Every row checks that the kernel
# that booted is the one built (lib.sh: boot_guard).
#
# A boot is known by what it boots (lib.sh: boot_key): the image, the
# initramfs and the machine.  When every row of a boot passed, its rows
# and logs are kept in $BUILD/boots; a later boot of the same image and
# initramfs is not made: its rows stand, as "$REUSED" (BOOT_CACHE=0 boots
# it anyway).
. "${0%/*}/lib.sh"

kernel=${1:?usage: boot.sh KERNEL}
hold_applied "$@"
use_firmware "$kernel"
arch=$(kernel_arch "$kernel")
bdir=$(kbuild_dir "$kernel")
kimage=$bdir/$(kernel_image "$kernel")
mkdir -p "$LOGS"
cd "$TREE"

# The rows this boot gives: KUnit, and a row per section of /init.
sections=
cpio=
if [ "$arch" != um ] && [ -s "$ST/$kernel.cpio" ] && [ -f "$ST/$kernel.sections" ]; then
	cpio=$ST/$kernel.cpio
	sections=$(paste -sd' ' "$ST/$kernel.sections")
elif [ "$arch" != um ] && [ -s "$ST/$kernel.sections" ]; then
	# tools/selftests.sh named rows and stopped before the initramfs:
	# those rows fail, and the KUnit row alone boots.
	for n in $(cat "$ST/$kernel.sections"); do
		name=$kernel.st-$n
		[ "$n" != kunit-modules ] || name=$kernel.0kunit-modules
		record "$name" "FAILED: no initramfs (tools/selftests.sh stopped before it)" 0 1 0 \
			"$LOGS/st-build-$kernel.log"
	done
fi
row_name() {
	case $1 in
	kunit) echo "$kernel.0kunit" ;;
	kunit-modules) echo "$kernel.0kunit-modules" ;;
	*) echo "$kernel.st-$1" ;;
	esac
}
fail_all() {
	local n
	for n in kunit $sections; do
		record "$(row_name "$n")" "$1" 0 1 0 "$2"
	done
	say "boot $kernel: $1"
	exit 1
}

if [ ! -f "$kimage" ] || [ "$(cat "$bdir/.workbench-tree" 2>/dev/null)" != "${WORKBENCH_TREE_ID-$(tree_id)}" ]; then
	# kernel.sh has recorded why, if it ran and failed.
	[ -f "$RESULTS/$kernel.0kunit" ] && sections_only=yes || sections_only=
	for n in $sections; do
		record "$(row_name "$n")" "no kernel image built from this tree" 0 1 0 "$LOGS/build-$kernel.log"
	done
	[ -n "$sections_only" ] ||
		record "$kernel.0kunit" "no kernel image built from this tree ($(tree_source))" 0 1 0 "$LOGS/build-$kernel.log"
	say "boot $kernel: FAILED, no kernel image built from this tree ($(tree_source)) in $bdir"
	exit 1
fi

# The console that /init writes to.  kunit.py's powerpc configs say
# console=ttyS0, which a pseries machine does not have: the kernel log
# still reaches the serial port through the boot console (udbg), but there
# is no /dev/console for /init ("unable to open an initial console").
# printk.devkmsg=on: /init writes every line through /dev/kmsg, which
# would otherwise limit it to ten lines in five seconds.
kargs="rdinit=/init panic=-1 printk.devkmsg=on"
case $arch in
powerpc|powerpcle) kargs+=" console=hvc0" ;;
esac
machine=$(kunit_machine "$kernel")
config=$(qemu_config_file "$kernel")
key=$(boot_key "$kernel" "$kimage" "$cpio" "$kargs")
cache=$BUILD/boots/$kernel/$key

# A boot of the same image and initramfs whose rows all passed: its rows.
if [ "${BOOT_CACHE:-1}" != 0 ] && [ -f "$cache/rows" ] &&
   [ -z "$(boot_guard "$kernel" "$cache/console.log" ok)" ]; then
	while IFS=$'\t' read -r name status passed failed skipped log secs accel; do
		record "$name" "$REUSED" "$passed" "$failed" "$skipped" "$cache/$log" "$secs" "$accel"
	done < "$cache/rows"
	touch "$cache"
	say "boot $kernel: not booted again: the same image and initramfs passed $(date -u -r "$cache/rows" '+%F %T') UTC ($(cut -f1 "$cache/rows" | sed "s/^$kernel\.//" | paste -sd' '))"
	exit 0
fi

if [ "$arch" = um ]; then
	cmd=(exec "$machine" --build_dir="$bdir" --timeout="${BOOT_TIMEOUT:-600}" --kernel_args=panic=-1)
else
	export WORKBENCH_QEMU_CONFIG=$config WORKBENCH_KERNEL_ARGS=$kargs
	cmd=(exec --qemu_config="$TOP/tools/qemu_configs/with_init.py" --build_dir="$bdir"
	     --timeout="${BOOT_TIMEOUT:-600}" ${cpio:+"--qemu_args=-initrd $cpio"})
fi
log=$LOGS/boot-$kernel.log
console=$LOGS/console-$kernel.log
rm -f "$log.hung" "$console.hung" "$bdir/test.log"
export WORKBENCH_BOOT="boot $kernel"
take_slot "boot $kernel"
t=$(date +%s)
hung=
for try in 1 2; do
	say "boot $kernel: booting $kimage${cpio:+ with $(basename "$cpio")}${hung:+ once more}"
	rc=0
	alive "boot $kernel" "$log" python3 tools/testing/kunit/kunit.py "${cmd[@]}" || rc=$?
	cp "$bdir/test.log" "$console" 2>/dev/null || : > "$console"
	say_kvm_fallback "boot $kernel" "$console"
	# A boot that reaches the timeout after the machine started is booted
	# once more: a sparc64 kernel under QEMU now and then loses its tick
	# or stalls idle, and the next boot passes (EVIDENCE.md, "Hung
	# boots").  A hang of the code under test hangs both.  A boot that
	# hung under KVM is booted again under TCG, as is the rest of the run.
	if [ $try -eq 2 ] || ! grep -q 'timed out after' "$log" || [ -n "$(boot_not_started "$console")" ]; then
		break
	fi
	hung=$log.hung
	mv "$log" "$hung"
	mv "$console" "$console.hung"
	kvm_hung "boot $kernel" "$console.hung"
	say "boot $kernel: no end in ${BOOT_TIMEOUT:-600}s (log: $console.hung)"
done
release_slot
secs=$(( $(date +%s) - t ))
accel=$(boot_accel "$console")
[ "$arch" != um ] || accel=none
# A QEMU that is not the machine's own (parisc64's, lib.sh: hppa_qemu) is
# named in each row, after the accelerator.
qemu_used=$(grep -ao -m1 'workbench-qemu: QEMU .*' "$console" 2>/dev/null | sed 's/^workbench-qemu: //; s/[[:space:]]*$//' || true)
case $qemu_used in
''|*"(/usr/bin/"*) ;;
*) accel+="; $qemu_used" ;;
esac
not_started=$(boot_not_started "$console")
timed_out=
grep -q 'timed out after' "$log" && timed_out=yes

# One log per row.
rowdir=$LOGS/rows-$kernel
rm -rf "$rowdir"
states=$(python3 "$TOP/tools/split.py" "$console" "$rowdir" $sections)

booted=
grep -q 'Starting KUnit Kernel\|Running tests with' "$log" && booted=yes
[ -s "$console" ] || booted=
guard=
if [ -n "$booted" ]; then
	# The rows passed so far decide whether a console without a banner
	# fails them (lib.sh: boot_guard).
	guard=$(boot_guard "$kernel" "$console" ok)
fi

# status_of STATE EXIT KERNEL_LINES PASSED FAILED ERRORS: the row's status.
status_of() {
	local state=$1 code=$2 klines=$3 p=$4 f=$5 e=$6 skipped_all=$7
	if [ -n "$not_started" ]; then
		echo "FAILED: $not_started"
	elif [ -z "$booted" ]; then
		echo "FAILED: the machine did not boot (log: $log)"
	elif [ -z "$accel" ]; then
		echo "FAILED: the boot did not go through tools/qemu.py: $(grep -ao -m1 'workbench-qemu: .*' "$console" ||
			echo "no tools/bin/qemu-system-* link for this machine?")"
	elif [ -n "$guard" ]; then
		echo "$guard"
	elif grep -qE "$KERNEL_FAULTS" "$klines"; then
		echo "kernel fault"
	elif [ "$state" = started ] && [ -n "$timed_out" ]; then
		echo "timeout"
	elif [ "$state" = started ]; then
		echo "FAILED: the boot ended in this section"
	elif [ "$state" = absent ]; then
		echo "FAILED: not reached: the boot ended before this section"
	elif [ "$code" = 4 ] && [ "$p$f" = 00 ] && [ -n "$skipped_all" ]; then
		# The program skipped as a whole (KSFT_SKIP, "1..0 # SKIP"),
		# saying why (a compat program without its loader, say): right
		# for a CI's system, but a row of the matrix is there to run
		# its ABI.
		echo "FAILED: skipped as a whole: ${skipped_all#*# SKIP }"
	elif [ "$code" != 0 ] && [ "$code" != - ]; then
		echo "FAILED: exit $code"
	elif [ "$f" != 0 ] || [ "$e" != 0 ] || [ "$p" = 0 ]; then
		if [ "$p$f" = 00 ] && [ -n "$timed_out" ]; then
			echo "FAILED: no test output from the kernel in ${BOOT_TIMEOUT:-600}s"
		elif [ "$p$f" = 00 ]; then
			echo "FAILED: no test output"
		else
			echo FAILED
		fi
	else
		echo ok
	fi
}

# Each row's log through kunit.py parse, at once, and their counts.
for n in kunit $sections; do
	python3 tools/testing/kunit/kunit.py parse "$rowdir/$n.log" > "$rowdir/$n.log.parsed" 2>&1 &
done
wait
mapfile -t counts < <(python3 "$TOP/tools/counts.py" $(for n in kunit $sections; do echo "$rowdir/$n.log.parsed"; done))

rows=()
all_ok=yes
i=0
for n in kunit $sections; do
	name=$(row_name "$n")
	if [ "$n" = kunit ]; then
		state=ended code=- rsecs=$secs
		# The KUnit part ends where /init begins; without any
		# section, it is the whole console.
		klines=$rowdir/kunit.log
	else
		IFS=$'\t' read -r _ state code rsecs < <(grep "^$n	" <<< "$states")
		klines=$rowdir/$n.kernel
		[ "$n" != kunit-modules ] || klines=$rowdir/$n.log
	fi
	read -r passed failed skipped errors <<< "${counts[$i]}"
	i=$((i + 1))
	skipped_all=
	[ "$n" = kunit ] || skipped_all=$(grep -am1 '^1\.\.0 # SKIP' "$rowdir/$n.log" || true)
	status=$(status_of "$state" "$code" "$klines" "$passed" "$failed" "$errors" "$skipped_all")
	[ "$status" = ok ] || [ "$failed" != 0 ] || failed=1
	case $rsecs in -|'') rsecs=- ;; *) rsecs=${rsecs%.*} ;; esac
	# The row's own log; the console log has all of the boot.
	rowlog=$rowdir/$n.log
	if [ "$status" = ok ] && [ -n "$hung" ]; then
		status=$BOOTED_AGAIN
		rowlog=$console.hung
	fi
	record "$name" "$status" "$passed" "$failed" "$skipped" "$rowlog" "$rsecs" "${accel:--}"
	rows+=("$name	$status	$passed	$failed	$skipped	$n.log	$rsecs	${accel:--}")
	case $status in ok|"$BOOTED_AGAIN") ;; *) all_ok= ;; esac
	case $n in
	kunit) cases=$(kunit_failures "$rowdir/$n.log.parsed") ;;
	*) cases=$(grep -a '^not ok' "$rowdir/$n.log" | sed 's/^not ok [0-9]* //' | head -20 | paste -sd, || true) ;;
	esac
	grep -h '# SKIP' "$rowdir/$n.log" 2>/dev/null | sed "s/^/  $kernel\/$n: /" | head -10 || true
	say "boot $kernel/$n: $status ($passed passed, $failed failed, $skipped skipped${cases:+; failed: $cases}; log: $rowlog)"
done

# Kept for a boot of the same image and initramfs (BOOT_CACHE=0: never).
if [ -n "$all_ok" ] && [ "${BOOT_CACHE:-1}" != 0 ]; then
	rm -rf "$cache.tmp"
	mkdir -p "$cache.tmp"
	cp "$console" "$cache.tmp/console.log"
	for n in kunit $sections; do
		cp "$rowdir/$n.log" "$cache.tmp/$n.log"
	done
	printf '%s\n' "${rows[@]}" > "$cache.tmp/rows"
	rm -rf "$cache"
	mv "$cache.tmp" "$cache"
	# The boots kept per kernel: the last few.
	ls -dt "$BUILD/boots/$kernel"/*/ 2>/dev/null | tail -n +4 | xargs -r rm -rf
fi
say "boot $kernel: done in ${secs}s${accel:+ (accelerator $accel)}"
[ -n "$all_ok" ]
