#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# selftests.sh KERNEL: build tools/testing/selftests/preadv, static, for each
# user ABI that KERNEL runs (tools/lib.sh), pack it with a small /init into an
# initramfs (usr/gen_init_cpio), boot the kernel image that kunit.sh built
# for KERNEL, and parse the KTAP it prints with kunit.py parse.
# selftests.sh --native: build them for x86_64 and run them on this machine.
. "$(dirname "$0")/lib.sh"

kernel=$1
arch=$(kernel_arch "$kernel")
kdir=$(kbuild_dir "$kernel")
mkdir -p "$LOGS"

# The kernel's UAPI headers, once per source arch and tree.
headers() {
	local srcarch=$1 dir=$BUILD/hdr-$1 head
	head=$(git -C "$TREE" rev-parse HEAD)
	[ "$(cat "$dir/.workbench-stamp" 2>/dev/null)" = "$head" ] && return 0
	say "selftests: installing the $srcarch UAPI headers"
	make -s -C "$TREE" O="$dir" ARCH="$srcarch" headers >"$LOGS/headers-$srcarch.log" 2>&1 ||
		{ cat "$LOGS/headers-$srcarch.log" >&2; return 1; }
	echo "$head" > "$dir/.workbench-stamp"
}

# build ABI: the static selftest binary for a user ABI, with the kernel's
# own selftests Makefile (no-op when up to date).
build() {
	local abi=$1 cc srcarch
	cc=$(abi_cc "$abi")
	srcarch=$(abi_srcarch "$abi")
	command -v "${cc%% *}" >/dev/null || { echo "${cc%% *} not found (make deps)"; return 1; }
	headers "$srcarch" || return 1
	make -s -C "$TREE/tools/testing/selftests" TARGETS=preadv O="$BUILD/st/$abi" \
		CC="$cc" KHDR_INCLUDES="-isystem $BUILD/hdr-$srcarch/usr/include" \
		USERLDFLAGS=-static >"$LOGS/st-build-$abi.log" 2>&1 || return 1
	"${cc%% *}" ${cc#"${cc%% *}"} -static -O2 -Wall -o "$BUILD/st/$abi/init" "$TOP/tools/init.c" \
		>>"$LOGS/st-build-$abi.log" 2>&1
}

if [ "$kernel" = --native ]; then
	# The x86_64 build, on this machine's own kernel: the fast way to iterate.
	say "selftests: building for x86_64 and running them here"
	build x86_64 || { cat "$LOGS/st-build-x86_64.log"; exit 1; }
	exec "$BUILD/st/x86_64/kselftest/preadv/preadv_test"
fi

gen_init_cpio=$BUILD/gen_init_cpio
if [ ! -x "$gen_init_cpio" ] || [ "$TREE/usr/gen_init_cpio.c" -nt "$gen_init_cpio" ]; then
	cc -O2 -o "$gen_init_cpio" "$TREE/usr/gen_init_cpio.c"
fi

case $arch in
x86_64) kimage=arch/x86/boot/bzImage ;;
i386) kimage=arch/x86/boot/bzImage ;;
*) kimage=vmlinux ;;
esac

abis=$(arch_abis "$kernel")
init_abi=${abis%% *}
rc=0
for abi in $abis; do
	name="$kernel.st-$abi"
	log=$LOGS/selftests-$kernel-$abi.log
	case " ${SKIP:-} " in
	*" $abi "*|*" $kernel/$abi "*|*" $kernel "*)
		say "selftests $kernel/$abi: skipped, as asked (SKIP=$SKIP)"
		record "$name" "skipped (asked)" 0 0 1 -
		continue ;;
	esac
	if [ ! -f "$kdir/$kimage" ] || [ ! -f "$kdir/.image-ok" ]; then
		say "selftests $kernel/$abi: FAILED, no kernel image built from this tree in $kdir (see the kunit log)"
		record "$name" "no kernel" 0 1 0 "$LOGS/kunit-$kernel.log"
		rc=1; continue
	fi
	say "selftests $kernel/$abi: building ($(abi_cc "$abi"))"
	if ! build "$abi" || ! build "$init_abi"; then
		say "selftests $kernel/$abi: FAILED to build (log: $LOGS/st-build-$abi.log)"
		record "$name" "build failed" 0 1 0 "$LOGS/st-build-$abi.log"
		rc=1; continue
	fi
	list=$BUILD/st/$kernel-$abi.cpio.list
	cat > "$list" <<-LIST
	dir /dev 0755 0 0
	nod /dev/console 0600 0 0 c 5 1
	dir /proc 0755 0 0
	dir /tmp 1777 0 0
	dir /tests 0755 0 0
	file /init $BUILD/st/$init_abi/init 0755 0 0
	file /tests/preadv_test $BUILD/st/$abi/kselftest/preadv/preadv_test 0755 0 0
	LIST
	"$gen_init_cpio" "$list" > "$BUILD/st/$kernel-$abi.cpio"

	say "selftests $kernel/$abi: booting $kdir/$kimage"
	brc=0
	t=$(date +%s)
	alive "selftests $kernel/$abi" /dev/null python3 "$TOP/tools/boot.py" --tree "$TREE" \
		--arch "$arch" --build_dir "$kdir" --initrd "$BUILD/st/$kernel-$abi.cpio" \
		--log "$log" --timeout "${BOOT_TIMEOUT:-900}" || brc=$?
	(cd "$TREE" && python3 tools/testing/kunit/kunit.py parse "$log") > "$log.parsed" 2>&1 || true
	read -r passed failed skipped errors < <(python3 "$TOP/tools/counts.py" "$log.parsed" || echo "0 0 0 1")
	status=ok
	if [ $brc -eq 124 ]; then
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
	record "$name" "$status" "$passed" "$failed" "$skipped" "$log" "$secs"
	grep -h '^not ok\|# SKIP' "$log" | sed "s/^/  $kernel\/$abi: /" | head -40 || true
	say "selftests $kernel/$abi: $status in ${secs}s ($passed passed, $failed failed, $skipped skipped; log: $log)"
done
exit $rc
