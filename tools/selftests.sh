#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# selftests.sh KERNEL: build tools/testing/selftests/$ST_TARGET, static, with
# its own Makefile, for each user ABI that KERNEL runs (tools/lib.sh), and
# pack them with /init (tools/init.c), the KUnit test modules of the
# kernel's build and, where KSELFTEST_KERNELS names the kernel, the
# kselftest install and busybox into the initramfs of the kernel's one boot
# (usr/gen_init_cpio): $ST/KERNEL.cpio, which tools/boot.sh boots.  An ABI
# whose program does not build is its row, failed; it is left out.
# selftests.sh --native: build them for x86_64 and run them on this machine.
. "${0%/*}/lib.sh"

kernel=${1:?usage: selftests.sh KERNEL|--native}
hold_applied "$@"
arch=$(kernel_arch "$kernel")
kdir=$(kbuild_dir "$kernel")
mkdir -p "$LOGS"

# The kernel's UAPI headers, once per source arch and the content of what
# they are made from: the tree objects of the directories that hold it,
# and of arch/SRCARCH every file but its C sources (its uapi headers, the
# syscall tables that make headers turns into headers, its Makefiles and
# Kbuild files), so that an edit of the arch's C code does not install
# them and build the selftests again.
declare -A headers_done
headers() {
	local srcarch=$1 dir=$BUILD/hdr-$1 head
	# Once per run: a kernel's ABIs share their source arch.
	[ -z "${headers_done[$srcarch]:-}" ] || return 0
	head=$( { git -C "$TREE" rev-parse HEAD:include/uapi HEAD:scripts HEAD:Makefile HEAD:usr
		  git -C "$TREE" ls-tree -r HEAD "arch/$srcarch/" | grep -v '\.c$'; } | sha256sum | cut -d' ' -f1)
	# Kernels that share a source arch may run at once (matrix.sh).
	mkdir -p "$dir"
	exec 7>>"$dir.lock"
	flock 7
	[ "$(cat "$dir/.workbench-stamp" 2>/dev/null)" = "$head" ] && { exec 7>&-; headers_done[$srcarch]=yes; return 0; }
	take_slot "selftests: $srcarch UAPI headers"
	say "selftests: installing the $srcarch UAPI headers"
	make -s -C "$TREE" O="$dir" ARCH="$srcarch" headers >"$LOGS/headers-$srcarch.log" 2>&1 ||
		{ cat "$LOGS/headers-$srcarch.log" >&2; exec 7>&-; return 1; }
	echo "$head" > "$dir/.workbench-stamp"
	release_slot
	exec 7>&-
	headers_done[$srcarch]=yes
}

# st_key KERNEL: what the kernel's selftest build is made from, as one
# hash: the selftests and tools/include (their tree objects, and any change
# not committed), the UAPI headers (their stamps), the make variables and
# the compilers.
st_key() {
	local abi
	{
		git -C "$TREE" rev-parse HEAD:tools/testing/selftests HEAD:tools/include
		# What is not committed, where the tree has any (lib.sh: tree_id).
		[ -n "${WORKBENCH_TREE_ID-$(tree_id)}" ] ||
			git -C "$TREE" diff HEAD -- tools/testing/selftests tools/include
		for abi in $(arch_abis "$1"); do
			cat "$BUILD/hdr-$(abi_srcarch "$abi")/.workbench-stamp"
		done
		printf '%s\n' "${vars[@]}"
		for c in "$(user_cross "$1")gcc" ${vars[@]#*=}; do
			case $c in *gcc) "$c" --version 2>/dev/null | head -1 ;; esac
		done
	} | sha256sum | cut -d' ' -f1
}

# build KERNEL: the static selftest binaries for every ABI of KERNEL, with
# the selftests' own Makefile; nothing when what they are made from is
# what it was at the last build that succeeded (st_key).  The Makefile's
# output is in the log.
build() {
	local kernel=$1 cross srcarch abi out=$ST/$1 key
	cross=$(user_cross "$kernel")
	srcarch=$(abi_srcarch "$(arch_abis "$kernel" | cut -d' ' -f1)")
	command -v "${cross}gcc" >/dev/null || { echo "${cross}gcc not found (make deps)"; return 1; }
	for abi in $(arch_abis "$kernel"); do
		headers "$(abi_srcarch "$abi")" || return 1
	done
	mkdir -p "$out"
	key=$(st_key "$kernel")
	if [ "$(cat "$out/.workbench-st" 2>/dev/null)" = "$key" ]; then
		say "selftests $kernel: built already from the same sources"
		return 0
	fi
	# The Makefile knows its programs' sources, not the compiler's flags
	# or the C library: a build of another key starts clean.
	rm -rf "$out/.workbench-st" "$out/kselftest" "$out/install"
	take_slot "selftests $kernel"
	say "selftests $kernel: building with the selftests' Makefile ($(st_make_vars "$kernel" | tr '\n' ' '))"
	make -C "$TREE/tools/testing/selftests" TARGETS="$ST_TARGET" O="$out" \
		"${vars[@]}" KHDR_INCLUDES="-isystem $BUILD/hdr-$srcarch/usr/include" \
		USERLDFLAGS=-static >"$LOGS/st-build-$kernel.log" 2>&1 || return 1
	# The kselftest install, where the kernel runs it (cpio_kselftest).
	if [ -n "$kselftest" ]; then
		rm -rf "$out/install"
		make -s -C "$TREE/tools/testing/selftests" TARGETS="$ST_TARGET" O="$out" \
			"${vars[@]}" KHDR_INCLUDES="-isystem $BUILD/hdr-$srcarch/usr/include" \
			USERLDFLAGS=-static INSTALL_PATH="$out/install" install >>"$LOGS/st-build-$kernel.log" 2>&1 ||
			return 1
	fi
	echo "$key" > "$out/.workbench-st"
	release_slot
}

# The make variables of the kernel's selftest build (tools/lib.sh).
vars=()
mapfile -t vars < <(st_make_vars "${kernel/#--native/x86_64}")
[ ${#vars[@]} -gt 0 ] || die "selftests $kernel: no make variables (the compiler's self-test?)"
kselftest=

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

# The kselftest way end to end, on the kernels named here: the installed
# kselftest tree (make install) and busybox, and run_kselftest.sh run as a
# CI runs it; every binary is one KTAP test.
KSELFTEST_KERNELS=${KSELFTEST_KERNELS-x86_64}

# cpio_kselftest: the list lines of the kselftest install (build: make
# install) and of busybox, whose sh runs run_kselftest.sh (tools/init.c).
cpio_kselftest() {
	local inst=$ST/$kernel/install
	[ -x "$inst/run_kselftest.sh" ] || return 1
	printf '%s\n' "dir /bin 0755 0 0" "file /bin/busybox /bin/busybox 0755 0 0" "dir /kselftest 0755 0 0"
	(cd "$inst" && find . -mindepth 1 -type d | sort | sed 's|^\.|dir /kselftest|; s|$| 0755 0 0|')
	find "$inst" -type f -printf 'file /kselftest/%P %p %m 0 0\n' | sort
}

abis=$(arch_abis "$kernel")
all=$abis
kselftest=
case " $KSELFTEST_KERNELS " in *" $kernel "*) all="$abis kselftest" kselftest=yes ;; esac
cpio=$ST/$kernel.cpio
list=$cpio.list
sections=$ST/$kernel.sections
mkdir -p "$ST"
# The initramfs of the last run stays, for the end of this one to keep if
# it is made of the same files (cpio_stamp); a run that stops before then
# leaves no list of sections, and tools/boot.sh does not boot it.
rm -f "$sections"

# The initramfs's list (gen_init_cpio's format): /init, and what each
# section runs.
{
	# /dev/kmsg: /init's lines go into the kernel log (tools/init.c).
	printf '%s\n' "dir /dev 0755 0 0" "nod /dev/console 0600 0 0 c 5 1" \
		"nod /dev/kmsg 0600 0 0 c 1 11" "dir /proc 0755 0 0" "dir /sys 0755 0 0" \
		"dir /tmp 1777 0 0" "dir /tests 0755 0 0"
} > "$list"
: > "$sections"
built=
n=0
for abi in $all; do
	name="$kernel.st-$abi"
	case " ${SKIP:-} " in
	*" $abi "*|*" $kernel/$abi "*|*" $kernel "*)
		say "selftests $kernel/$abi: skipped, as asked (SKIP=$SKIP)"
		record "$name" "skipped (asked)" 0 0 1 -
		continue ;;
	esac
	if [ -z "$built" ]; then
		built=ok
		build "$kernel" || built=failed
	fi
	if [ "$abi" = kselftest ]; then
		prog=$ST/$kernel/kselftest/$ST_TARGET/preadv_test
	else
		prog=$ST/$kernel/kselftest/$ST_TARGET/$(abi_prog "$kernel" "$abi")
	fi
	if [ "$built" = failed ] || [ ! -x "$prog" ]; then
		why=$(fault_reason "$LOGS/st-build-$kernel.log")
		say "selftests $kernel/$abi: FAILED to build $(basename "$prog")${why:+: $why} (log: $LOGS/st-build-$kernel.log)"
		record "$name" "build failed${why:+: $why}" 0 1 0 "$LOGS/st-build-$kernel.log"
		continue
	fi
	if [ "$abi" = kselftest ]; then
		if ! cpio_kselftest >> "$list"; then
			say "selftests $kernel/$abi: FAILED to install (log: $LOGS/st-build-$kernel.log)"
			record "$name" "install failed" 0 1 0 "$LOGS/st-build-$kernel.log"
			continue
		fi
	else
		# /init runs each ABI's directory in order, and in it the
		# program that is not a .bin: a compat ABI's launcher, which
		# runs its preadv_test_<abi>.bin from the same directory.
		n=$((n + 1))
		d=/tests/$(printf '%02d' $n)-$abi
		echo "dir $d 0755 0 0" >> "$list"
		echo "file $d/$(basename "$prog") $prog 0755 0 0" >> "$list"
		[ ! -f "$prog.bin" ] || echo "file $d/$(basename "$prog").bin $prog.bin 0755 0 0" >> "$list"
	fi
	echo "$abi" >> "$sections"
done

# The kernel's KUnit test modules, where it builds any (lib.sh: the rows
# whose options make a suite a module): /init loads them.  A module is a
# KUnit one if it has suites (.kunit_test_suites); a defconfig's other
# modules (s390's drivers, say) are not loaded.
# grep -l exits 1 where no module has suites: not an error.
mods=
for m in $(cd "$kdir" 2>/dev/null && find . -name '*.ko' ! -path './scripts/*' ! -path './tools/*' | sort); do
	rc=0
	grep -qaF .kunit_test_suites "$kdir/$m" || rc=$?
	[ "$rc" -le 1 ] || die "selftests $kernel: cannot read $kdir/$m"
	[ "$rc" = 1 ] || mods+=" $m"
done
if [ -n "$mods" ]; then
	echo "dir /modules 0755 0 0" >> "$list"
	for m in $mods; do
		echo "file /modules/$(basename "$m") $kdir/${m#./} 0644 0 0" >> "$list"
	done
	echo "kunit-modules" >> "$sections"
fi

cross=$(user_cross "$kernel")
mkdir -p "$ST/$kernel"
# /init, built again when tools/init.c differs from the one it was built
# from (by content: $ST is every clone's).
initsum=$(sha256sum < "$TOP/tools/init.c")
cflags=$(user_cflags "$kernel")
initsum=$( { echo "$initsum $cflags"; } | sha256sum)
# shellcheck disable=SC2086
if { [ ! -x "$ST/$kernel/init" ] || [ "$(cat "$ST/$kernel/init.src" 2>/dev/null)" != "$initsum" ]; } &&
   ! { "${cross}gcc" -static -O2 -Wall $cflags -o "$ST/$kernel/init" "$TOP/tools/init.c" >>"$LOGS/st-build-$kernel.log" 2>&1 &&
       echo "$initsum" > "$ST/$kernel/init.src"; }; then
	say "selftests $kernel: FAILED to build /init (log: $LOGS/st-build-$kernel.log)"
	for abi in $(cat "$sections"); do
		record "$kernel.st-$abi" "/init did not build" 0 1 0 "$LOGS/st-build-$kernel.log"
	done
	rm -f "$sections"
	exit 1
fi
echo "file /init $ST/$kernel/init 0755 0 0" >> "$list"

# What the initramfs is made of: its list, and each file's size, times and
# inode (the change time moves whenever a file is written, whatever its
# modification time says), gen_init_cpio's among them.  An initramfs made
# of the same is kept.
stamp=$( { cat "$list"
	   { echo "$gen_init_cpio"; awk '$1 == "file" { print $3 }' "$list"; } |
		xargs stat -c '%n %s %Y %Z %i' 2>&1 || true; } | sha256sum | cut -d' ' -f1)
if [ -s "$cpio" ] && [ "$(cat "$cpio.stamp" 2>/dev/null)" = "$stamp" ]; then
	say "selftests $kernel: initramfs $cpio, made of the same files: $(paste -sd' ' "$sections")"
	exit 0
fi
rm -f "$cpio" "$cpio.stamp"
# The same files give the same archive (-t: one time for every entry),
# so that tools/boot.sh knows a boot it has seen.  Through cat, which
# checks every write and the close (gen_init_cpio does not check the last
# flush of its output).
if ! { "$gen_init_cpio" -t 1 "$list" | cat > "$cpio.tmp"; } 2>"$LOGS/cpio-$kernel.log"; then
	why=$(fault_reason "$LOGS/cpio-$kernel.log")
	say "selftests $kernel: FAILED to write the initramfs${why:+: $why} (log: $LOGS/cpio-$kernel.log)"
	for abi in $(cat "$sections"); do
		record "$kernel.st-$abi" "initramfs failed${why:+: $why}" 0 1 0 "$LOGS/cpio-$kernel.log"
	done
	rm -f "$cpio.tmp" "$sections"
	exit 1
fi
mv "$cpio.tmp" "$cpio"
echo "$stamp" > "$cpio.stamp"
say "selftests $kernel: initramfs $cpio ($(du -k "$cpio" | cut -f1) KiB): $(paste -sd' ' "$sections")"
