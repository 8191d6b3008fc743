#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# selftests.sh KERNEL: build tools/testing/selftests/$ST_TARGET, static, for each
# user ABI that KERNEL runs (tools/lib.sh), pack it with a small /init into an
# initramfs (usr/gen_init_cpio), boot the kernel image that kunit.sh built
# for KERNEL, and parse the KTAP it prints with kunit.py parse.
# selftests.sh --native: build them for x86_64 and run them on this machine.
. "$(dirname "$0")/lib.sh"

kernel=${1:?usage: selftests.sh KERNEL|--native}
hold_applied "$@"
use_firmware "$kernel"
arch=$(kernel_arch "$kernel")
kdir=$(kbuild_dir "$kernel")
mkdir -p "$LOGS"

# The kernel's UAPI headers, once per source arch and tree content (the
# tree object: a new commit of the same files does not count).
headers() {
	local srcarch=$1 dir=$BUILD/hdr-$1 head
	head=$(git -C "$TREE" rev-parse 'HEAD^{tree}')
	# Kernels that share a source arch may run at once (matrix.sh).
	mkdir -p "$dir"
	exec 7>>"$dir.lock"
	flock 7
	[ "$(cat "$dir/.workbench-stamp" 2>/dev/null)" = "$head" ] && { exec 7>&-; return 0; }
	say "selftests: installing the $srcarch UAPI headers"
	make -s -C "$TREE" O="$dir" ARCH="$srcarch" headers >"$LOGS/headers-$srcarch.log" 2>&1 ||
		{ cat "$LOGS/headers-$srcarch.log" >&2; exec 7>&-; return 1; }
	echo "$head" > "$dir/.workbench-stamp"
	exec 7>&-
}

# build KERNEL: the static selftest binaries for every ABI of KERNEL, and
# the /init that runs them, with the selftests' own Makefile (no-op when up
# to date).  The Makefile's output is in the log.
build() {
	local kernel=$1 cross srcarch abi out=$ST/$1
	cross=$(arch_cross "$kernel")
	srcarch=$(abi_srcarch "$(arch_abis "$kernel" | cut -d' ' -f1)")
	command -v "${cross}gcc" >/dev/null || { echo "${cross}gcc not found (make deps)"; return 1; }
	for abi in $(arch_abis "$kernel"); do
		headers "$(abi_srcarch "$abi")" || return 1
	done
	mkdir -p "$out"
	make -C "$TREE/tools/testing/selftests" TARGETS="$ST_TARGET" O="$out" \
		"${vars[@]}" KHDR_INCLUDES="-isystem $BUILD/hdr-$srcarch/usr/include" \
		USERLDFLAGS=-static >"$LOGS/st-build-$kernel.log" 2>&1 || return 1
	[ "$out/init" -nt "$TOP/tools/init.c" ] ||
		"${cross}gcc" -static -O2 -Wall -o "$out/init" "$TOP/tools/init.c" \
			>>"$LOGS/st-build-$kernel.log" 2>&1
}

# The make variables of the kernel's selftest build (tools/lib.sh).
vars=()
mapfile -t vars < <(st_make_vars "${kernel/#--native/x86_64}")

if [ "$kernel" = --native ]; then
	# The x86_64 build, on this machine's own kernel: the fast way to
	# iterate.  Also with musl, and the skip when there is no tmpfs.
	say "selftests: building for x86_64 and running them here"
	build x86_64 || { cat "$LOGS/st-build-x86_64.log"; exit 1; }
	prog=$ST/x86_64/kselftest/$ST_TARGET/preadv_test
	"$prog"
	say "selftests: the same with musl (musl-gcc, static)"
	rm -rf "$ST/musl" && mkdir -p "$ST/musl"
	make -s -C "$TREE/tools/testing/selftests/$ST_TARGET" OUTPUT="$ST/musl" CC=musl-gcc \
		KHDR_INCLUDES="-isystem $BUILD/hdr-x86/usr/include" USERLDFLAGS=-static \
		>"$LOGS/st-build-musl.log" 2>&1 || { cat "$LOGS/st-build-musl.log"; exit 1; }
	"$ST/musl/preadv_test"
	say "selftests: no tmpfs to work in is a skip (exit 4) with its reason"
	rc=0
	out=$(PREADV_TMPDIR=/ "$prog") || rc=$?
	echo "$out"
	[ $rc -eq 4 ] && grep -q '^1\.\.0 # SKIP no tmpfs' <<< "$out" ||
		die "expected a skip (exit 4, '1..0 # SKIP no tmpfs'), got exit $rc"

	say "selftests: two runs at once, in the same tmpfs directory, both pass and leave nothing"
	shm=$(mktemp -d /dev/shm/preadv-native.XXXXXX)
	pids=()
	for n in 1 2; do
		PREADV_TMPDIR=$shm "$prog" >"$LOGS/st-native-concurrent-$n.log" 2>&1 & pids+=($!)
	done
	for n in 1 2; do
		wait "${pids[$((n - 1))]}" ||
			die "run $n of 2 at once failed (log: $LOGS/st-native-concurrent-$n.log)"
	done
	left=$(ls -A "$shm")
	rmdir "$shm" 2>/dev/null || rm -rf "$shm"
	[ -z "$left" ] || die "the runs left files behind: $left"
	say "  both passed: $(grep -h '^# Totals' "$LOGS"/st-native-concurrent-[12].log | paste -sd';')"

	# As a kselftest CI runs it, on this machine's kernel, which may lack
	# the compat ABIs (this one runs no i386 or x32 program): those are
	# skips that say why, never failures.
	say "selftests: make run_tests of $ST_TARGET, the compat compilers given"
	out=$(make -s -C "$TREE/tools/testing/selftests" TARGETS="$ST_TARGET" O="$ST/x86_64" \
		"${vars[@]}" KHDR_INCLUDES="-isystem $BUILD/hdr-x86/usr/include" USERLDFLAGS=-static \
		run_tests 2>&1) || true
	grep -E '^(not )?ok [0-9]+ selftests:' <<< "$out"
	for p in preadv_test preadv_test_32 preadv_test_x32; do
		line=$(grep -E "^(not )?ok [0-9]+ selftests: $ST_TARGET: $p( |\$)" <<< "$out") ||
			die "run_tests did not run $p"
		case $line in
		"not ok"*) die "run_tests: $line" ;;
		esac
	done
	for p in preadv_test_32 preadv_test_x32; do
		if ! "$ST/x86_64/kselftest/$ST_TARGET/$p" >/dev/null 2>&1; then
			reason=$("$ST/x86_64/kselftest/$ST_TARGET/$p" 2>&1 | grep -m1 'SKIP' || true)
			[ -n "$reason" ] || die "$p failed on this kernel without a skip"
			say "  $p: $reason"
		fi
	done

	say "selftests: an in-tree build leaves git status clean (.gitignore)"
	scratch=$(mktemp -d)
	git -C "$TREE" archive HEAD .gitignore tools/testing/selftests tools/include | tar -x -C "$scratch"
	(cd "$scratch" && git init -q && git add -A -f . && git -c user.name=wb -c user.email=wb@localhost commit -qm scratch)
	make -s -C "$scratch/tools/testing/selftests/$ST_TARGET" "${vars[@]}" \
		KHDR_INCLUDES="-isystem $BUILD/hdr-x86/usr/include" >"$LOGS/st-intree.log" 2>&1 ||
		{ rm -rf "$scratch"; die "the in-tree build failed (log: $LOGS/st-intree.log)"; }
	dirty=$(git -C "$scratch" status --porcelain)
	ignored=$(cd "$scratch/tools/testing/selftests/$ST_TARGET" &&
		git ls-files --others --ignored --exclude-standard | paste -sd' ')
	rm -rf "$scratch"
	[ -z "$dirty" ] || die "git status after an in-tree build: $dirty"
	say "  clean; built and ignored: $ignored"
	exit 0
fi

gen_init_cpio=$BUILD/gen_init_cpio
if [ ! -x "$gen_init_cpio" ] || [ "$TREE/usr/gen_init_cpio.c" -nt "$gen_init_cpio" ]; then
	cc -O2 -o "$gen_init_cpio.$$" "$TREE/usr/gen_init_cpio.c"
	mv "$gen_init_cpio.$$" "$gen_init_cpio"
fi

kimage=$(kernel_image "$kernel")
stamp=$(kernel_stamp "$kernel")

# The console that /init writes to.  kunit.py's powerpc configs say
# console=ttyS0, which a pseries machine does not have: the kernel log
# still reaches the serial port through the boot console (udbg), but there
# is no /dev/console for /init ("unable to open an initial console").
boot_args=()
case $arch in
powerpc|powerpcle) boot_args=(--kernel_args console=hvc0) ;;
esac

# The kselftest way end to end, on the kernels named here: the installed
# kselftest tree (make install) in an initramfs with busybox, and
# run_kselftest.sh run as a CI runs it; every binary is one KTAP test.
KSELFTEST_KERNELS=${KSELFTEST_KERNELS-x86_64}

# cpio_kselftest LIST: the initramfs of the "kselftest" combo.
cpio_kselftest() {
	local inst=$ST/$kernel/install
	rm -rf "$inst"
	make -s -C "$TREE/tools/testing/selftests" TARGETS="$ST_TARGET" O="$ST/$kernel" \
		"${vars[@]}" KHDR_INCLUDES="-isystem $BUILD/hdr-$(abi_srcarch "${abis%% *}")/usr/include" \
		USERLDFLAGS=-static INSTALL_PATH="$inst" install >>"$LOGS/st-build-$kernel.log" 2>&1 || return 1
	cat > "$ST/$kernel/init.sh" <<-'INIT'
	#!/bin/busybox sh
	/bin/busybox --install -s /bin
	mount -t proc proc /proc
	mount -t tmpfs -o size=50% tmpfs /tmp
	cd /kselftest && ./run_kselftest.sh
	rc=$?
	if [ $rc -eq 0 ]; then echo "# init: done, all passed"; else echo "# init: done, FAILED ($rc)"; fi
	sync
	reboot -f
	INIT
	{
		printf '%s\n' "dir /dev 0755 0 0" "nod /dev/console 0600 0 0 c 5 1" "dir /proc 0755 0 0" \
			"dir /tmp 1777 0 0" "dir /bin 0755 0 0" "file /bin/busybox /bin/busybox 0755 0 0" \
			"file /init $ST/$kernel/init.sh 0755 0 0" "dir /kselftest 0755 0 0"
		(cd "$inst" && find . -mindepth 1 -type d | sort | sed 's|^\.|dir /kselftest|; s|$| 0755 0 0|')
		(cd "$inst" && find . -type f | sort | while read -r f; do
			printf 'file /kselftest%s %s/%s %s 0 0\n' "${f#.}" "$inst" "${f#./}" \
				"$(stat -c %a "$inst/$f")"
		done)
	} > "$1"
}

abis=$(arch_abis "$kernel")
all=$abis
case " $KSELFTEST_KERNELS " in *" $kernel "*) all="$abis kselftest" ;; esac
built=
rc=0
for abi in $all; do
	name="$kernel.st-$abi"
	log=$LOGS/selftests-$kernel-$abi.log
	case " ${SKIP:-} " in
	*" $abi "*|*" $kernel/$abi "*|*" $kernel "*)
		say "selftests $kernel/$abi: skipped, as asked (SKIP=$SKIP)"
		record "$name" "skipped (asked)" 0 0 1 -
		continue ;;
	esac
	if [ ! -f "$kdir/$kimage" ] || [ "$(cat "$kdir/.image-ok" 2>/dev/null)" != "$stamp" ]; then
		say "selftests $kernel/$abi: FAILED, no kernel image built from this tree ($(tree_source)) in $kdir (see the kunit log)"
		record "$name" "no kernel image built from this tree" 0 1 0 "$LOGS/kunit-$kernel.log"
		rc=1; continue
	fi
	if [ "$abi" = kselftest ]; then
		prog=$ST/$kernel/kselftest/$ST_TARGET/preadv_test
	else
		prog=$ST/$kernel/kselftest/$ST_TARGET/$(abi_prog "$kernel" "$abi")
	fi
	if [ -z "$built" ]; then
		say "selftests $kernel: building with the selftests' Makefile ($(st_make_vars "$kernel" | tr '\n' ' '))"
		built=ok
		build "$kernel" || built=failed
	fi
	if [ "$built" = failed ] || [ ! -x "$prog" ]; then
		why=$(fault_reason "$LOGS/st-build-$kernel.log")
		say "selftests $kernel/$abi: FAILED to build $(basename "$prog")${why:+: $why} (log: $LOGS/st-build-$kernel.log)"
		record "$name" "build failed${why:+: $why}" 0 1 0 "$LOGS/st-build-$kernel.log"
		rc=1; continue
	fi
	list=$ST/$kernel-$abi.cpio.list
	if [ "$abi" = kselftest ]; then
		if ! cpio_kselftest "$list"; then
			say "selftests $kernel/$abi: FAILED to install (log: $LOGS/st-build-$kernel.log)"
			record "$name" "install failed" 0 1 0 "$LOGS/st-build-$kernel.log"
			rc=1; continue
		fi
	else
		cat > "$list" <<-LIST
	dir /dev 0755 0 0
	nod /dev/console 0600 0 0 c 5 1
	dir /proc 0755 0 0
	dir /tmp 1777 0 0
	dir /tests 0755 0 0
	file /init $ST/$kernel/init 0755 0 0
	file /tests/preadv_test $prog 0755 0 0
	LIST
		# A compat ABI's preadv_test_<abi> is a launcher that runs
		# preadv_test_<abi>.bin from its own directory.
		if [ -f "$prog.bin" ]; then
			echo "file /tests/$(basename "$prog").bin $prog.bin 0755 0 0" >> "$list"
		fi
	fi
	# Through cat, which checks every write and the close (gen_init_cpio
	# does not check the last flush of its output).
	if ! { "$gen_init_cpio" "$list" | cat > "$ST/$kernel-$abi.cpio"; } 2>"$LOGS/cpio-$kernel-$abi.log"; then
		why=$(fault_reason "$LOGS/cpio-$kernel-$abi.log")
		say "selftests $kernel/$abi: FAILED to write the initramfs${why:+: $why} (log: $LOGS/cpio-$kernel-$abi.log)"
		record "$name" "initramfs failed${why:+: $why}" 0 1 0 "$LOGS/cpio-$kernel-$abi.log"
		rc=1; continue
	fi

	# A boot that passes takes seconds (the slowest, KASAN or pseries,
	# under 15 s warm): BOOT_TIMEOUT bounds a hang, not a slow machine.
	# A boot that hangs is booted once more, and the row names the log of
	# the hung one: a sparc64 kernel under QEMU now and then loses its
	# tick or stalls idle, and the next boot passes (EVIDENCE.md, "Hung
	# boots").  A hang of the code under test hangs both boots.
	hung=
	rm -f "$log.hung"
	t=$(date +%s)
	for try in 1 2; do
		say "selftests $kernel/$abi: booting $kdir/$kimage${hung:+ once more}"
		brc=0
		alive "selftests $kernel/$abi" /dev/null python3 "$TOP/tools/boot.py" --tree "$TREE" \
			"$(kunit_machine "$kernel")" --build_dir "$kdir" --initrd "$ST/$kernel-$abi.cpio" \
			--log "$log" --timeout "${BOOT_TIMEOUT:-300}" "${boot_args[@]}" || brc=$?
		if [ $brc -ne 124 ] || [ $try -eq 2 ]; then break; fi
		hung=$log.hung
		mv "$log" "$hung"
		say "selftests $kernel/$abi: no end in ${BOOT_TIMEOUT:-300}s (log: $hung)"
	done
	(cd "$TREE" && python3 tools/testing/kunit/kunit.py parse "$log") > "$log.parsed" 2>&1 || true
	read -r passed failed skipped errors < <(python3 "$TOP/tools/counts.py" "$log.parsed" || echo "0 0 0 1")
	status=ok
	ran=
	[ $brc -ne 0 ] || [ "$failed" != 0 ] || [ "$passed" = 0 ] || ran=ok
	guard=$(boot_guard "$kernel" "$log" "$ran")
	if [ -n "$guard" ]; then
		status=$guard
	elif [ $brc -eq 124 ]; then
		status="timeout"
	elif grep -qE "$KERNEL_FAULTS" "$log"; then
		status="kernel fault"
	elif ! grep -q '^# init: done, all passed' "$log"; then
		status=FAILED
	elif [ "$failed" != 0 ] || [ "$errors" != 0 ] || [ "$passed" = 0 ]; then
		status=FAILED
	fi
	[ "$status" = ok ] || [ "$failed" != 0 ] || failed=1
	[ "$status" = ok ] || rc=1
	secs=$(( $(date +%s) - t ))
	if [ "$status" = ok ] && [ -n "$hung" ]; then
		status=$BOOTED_AGAIN
		record "$name" "$status" "$passed" "$failed" "$skipped" "$hung" "$secs"
	else
		record "$name" "$status" "$passed" "$failed" "$skipped" "$log" "$secs"
	fi
	grep -h '^not ok\|# SKIP' "$log" | sed "s/^/  $kernel\/$abi: /" | head -40 || true
	say "selftests $kernel/$abi: $status in ${secs}s ($passed passed, $failed failed, $skipped skipped; log: $log)"
done
exit $rc
