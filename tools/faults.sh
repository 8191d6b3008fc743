#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# faults.sh [CASE...]: the workbench under concurrent runs, interrupts and
# resource faults, each case a check that passes or fails.  Everything runs
# on a scratch $BUILD (FAULTS_BUILD, default /tmp/wb-faults; kept between
# runs, FRESH=1 starts it anew) whose tree is a shared clone of the main
# tree's base, with clones of this repository; the main $BUILD is only read.
# The kernel is um (no QEMU, no cross compiler) where a build is needed, and
# x86_64 with a stand-in for qemu-system-x86_64 where a boot is.  Mounts
# small tmpfs file systems for the full-disk cases (root only).
#
# Cases (default: all, in this order):
#   clones     two clones with different series run make test at once, and
#              one of them make format-patch: every row names and is built
#              from its own clone's commit, the export is its own; one
#              clone's summary fails the other's rows
#   moved      the tree changes under a build (not through the workbench):
#              the row fails and nothing is stamped; the next run rebuilds
#   int-build  Ctrl-C in a kernel build: nothing of it keeps running, and
#              the next make test rebuilds and passes
#   int-apply  Ctrl-C in apply, and a git index.lock left by a killed git:
#              the next apply makes the same tree
#   int-boot   Ctrl-C while QEMU runs: QEMU is gone
#   int-bisect Ctrl-C in make bisect: the tree is back on the series
#   int-mutants Ctrl-C in make mutants: the tree under test is untouched
#   no-cc      a missing cross compiler: a one-line reason, exit 1
#   disk-build a full disk in a kernel build: a one-line reason, exit 1
#   disk-cpio  a full disk while the initramfs is written: the same
#   silent     a QEMU that never prints anything: the KUnit and the
#              selftest rows fail within the start bound, each saying that
#              the machine did not start, with no boot once more
#   hung-once  a boot that prints and then hangs once: the next boot
#              passes, and the rows are ok with the hung boot's log named
#   kvm-hangs  a /dev/kvm that opens and a KVM that runs no guest (QEMU
#              prints nothing under -accel kvm): the first boot finds out
#              within the start bound and goes on under TCG, as does every
#              later boot of the run; the rows pass and say why
#   kvm-warns  the same, but QEMU first warns on its standard error of a
#              CPU feature the host lacks: not the guest's console, the
#              same fallback after the start bound
#   kvm-internal  the same, with QEMU's "KVM internal error" after the
#              warning: TCG at once, for that boot and the rest
#   kvm-firmware  under KVM the firmware prints its lines and QEMU ends
#              before the kernel's banner (what this machine's KVM did to
#              an i386 guest): TCG at once, for that boot and the rest
#   kvm-works  a KVM that runs the guests: every x86 boot uses it
#   no-loader  an i386 compiler without a static C library: the compat
#              test is linked dynamically, and on a system without its
#              loader the launcher skips, naming the loader; the i386
#              row of the matrix fails, saying so
#   same-objects  a comment in a source file: the one object it goes into
#              is compiled, the same as it was, and the kernel is not
#              linked again; a comment that moves the lines of
#              assertions: the object differs, make all links a new
#              image; a line of code: make all at once
#   stale      a boot image older than the vmlinux built with it (what a
#              stale piggy.o made): the KUnit and the selftest rows fail
#              with "booted kernel is not the one built"
#   tables     an edit to one architecture's syscall table in the series
#              (TABLES: sh, parisc, mips o32, arm64's AArch32, sparc, x86's
#              32-bit), fadvise64_64 made sys_ni_syscall: that kernel is
#              built again, has a new build ID, boots, and its row fails
#              its fadvise cases; um, another architecture, is not built (for
#              x86's table, which every architecture's checksyscalls.sh
#              reads, make runs and links nothing); on sh, taking the edit
#              out gives the old build ID and a row that passes.  Seeds
#              its build dirs with copies of the main build's.
#   distcc     um built through a distcc daemon on a loopback address
#              (DISTCC_HOSTS; every object compiled anew: CCACHE_RECACHE):
#              its compilations went there, and vmlinux has the build ID
#              of the um built here
#   distcc-refuses  a build host where nothing listens: left out, named
#              with distcc's reason; the objects of fs/ compile here, and
#              the build ID is the same
#   distcc-vanishes  the host's daemon killed in the middle of fs/: what
#              it did not compile is compiled here, the run counts it, the
#              build ID is the same
#   distcc-wrongcc  a host whose compilers at gcc's path are another
#              compiler (clang 14, in a mount namespace of the daemon's):
#              left out, naming both; the same build ID
. "$(dirname "$0")/lib.sh"

MAIN=$BUILD
S=${FAULTS_BUILD:-/tmp/wb-faults}
CASES=${*:-clones moved int-build int-apply int-boot int-bisect int-mutants no-cc disk-build disk-cpio silent hung-once kvm-hangs kvm-warns kvm-internal kvm-firmware kvm-works same-objects stale no-loader tables distcc distcc-refuses distcc-vanishes distcc-wrongcc}
[ -d "$MAIN/linux/.git" ] || die "no $MAIN/linux: run make apply first"
[ "$(id -u)" = 0 ] || die "faults.sh mounts tmpfs file systems: run it as root"

[ -z "${FRESH:-}" ] || { umount "$S"/mnt-* 2>/dev/null || true; rm -rf "$S"; }
mkdir -p "$S"
export BUILD=$S TREE=$S/linux LOGS=$S/logs RESULTS=$S/results ST=$S/st
unset KBUILD_PREFIX WORKBENCH_HELD
ident=(-c user.name="A U Thor" -c user.email=author@example.org)
export GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=author@example.org

pass=0 fail=0
ok() { say "faults: PASS $*"; pass=$((pass + 1)); }
bad() { say "faults: FAIL $*"; fail=$((fail + 1)); }

# The scratch tree: the main tree's base, shared objects, nothing else.
if ! git -C "$TREE" rev-parse -q --verify base >/dev/null 2>&1; then
	say "faults: cloning the base of $MAIN/linux into $TREE"
	rm -rf "$TREE"
	git clone -q --shared --no-checkout "$MAIN/linux" "$TREE"
	git -C "$TREE" checkout -q --detach base
	git -C "$TREE" tag -f base base >/dev/null
	git -C "$TREE" config gc.auto 0
	cp "$MAIN/linux/.git/base-version" "$MAIN/linux/.git/base-pkg" "$TREE/.git/"
fi

# Clones A and B of this repository's HEAD; B's KUnit suite differs from
# A's by one comment, so that the two are different series and build
# different um kernels.
for c in A B; do
	rm -rf "$S/clone-$c"
	git clone -q "$TOP" "$S/clone-$c"
done
sed -i '1a /* the other series (tools/faults.sh) */' "$S/clone-B/kunit/read_write/fs/tests/read_write_kunit.c"
git -C "$S/clone-B" "${ident[@]}" commit -q -am "faults: clone B"

# run_bg NAME CMD...: CMD in the background, in a session of its own, with
# the default SIGINT that a terminal's foreground job has (bash starts a
# background job with SIGINT ignored, and a script cannot trap a signal
# that was ignored when it started); output in $S/NAME.out; $! is its pid,
# and the pid of its process group, to which interrupt() sends Ctrl-C.
run_bg() {
	local name=$1
	shift
	setsid perl -e '$SIG{INT} = $SIG{QUIT} = "DEFAULT"; exec @ARGV or die "$ARGV[0]: $!\n"' \
		"$@" >"$S/$name.out" 2>&1 &
}

# wait_for FILE PATTERN SECONDS: until PATTERN is in FILE.
wait_for() {
	local i
	for ((i = 0; i < $3; i++)); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 1
	done
	return 1
}

# interrupt PID: Ctrl-C to its process group; wait for it, at most 60s.
interrupt() {
	local i
	kill -INT -- "-$1" 2>/dev/null || true
	for ((i = 0; i < 60; i++)); do
		kill -0 "$1" 2>/dev/null || { wait "$1" 2>/dev/null || true; return 0; }
		sleep 1
	done
	return 1
}

# leftovers: processes that still work in the scratch $BUILD.
leftovers() {
	pgrep -af -- "$S/" | grep -v -e "$$" -e pgrep -e faults.sh || true
}

mt() {	# mt NAME SIZE: a tmpfs at $S/mnt-NAME
	mountpoint -q "$S/mnt-$1" && umount "$S/mnt-$1"
	mkdir -p "$S/mnt-$1"
	mount -t tmpfs -o size="$2" tmpfs "$S/mnt-$1"
}

# expect_row NAME ROW STATUS CMD...: CMD, run in clone A (output in
# $S/NAME.out), exits non-zero and records the summary row ROW with STATUS.
expect_row() {
	local name=$1 row=$2 want=$3 r=0 t got
	shift 3
	rm -rf "$RESULTS"
	t=$(date +%s)
	(cd "$S/clone-A" && "$@") >"$S/$name.out" 2>&1 || r=$?
	got=$(cut -f2 "$RESULTS/$row" 2>/dev/null || true)
	if [ "$r" != 0 ] && [ "$got" = "$want" ]; then
		ok "$name: exit $r in $(( $(date +%s) - t ))s, row: $got"
	else
		bad "$name: exit $r, row '$got': $S/$name.out"
	fi
}

mine() { git -C "$TREE" rev-parse --short=12 "$(TOP=$1 applied_ref)"; }

# test_um CLONE OUT: make test KERNELS=um in CLONE passes.
test_um() {
	(cd "$1" && make test KERNELS=um) >"$2" 2>&1
}

# A boot without a kernel build: the x86_64 image of the scratch tree is
# the main build's, copied, stamped as the scratch tree's.  The image does
# not have to match: the boots below go to a stand-in for QEMU, or must not
# happen at all.
seed_x86_64() {
	local b=$S/kunit-x86_64 tree
	mkdir -p "$b/arch/x86/boot"
	cp "$MAIN/kunit-x86_64/.config" "$MAIN/kunit-x86_64/vmlinux" "$MAIN/kunit-x86_64/.workbench-reads" "$b/"
	cp "$MAIN/kunit-x86_64/arch/x86/boot/bzImage" "$b/arch/x86/boot/"
	rm -f "$b/.workbench-banner"
	tree=$(tree_id)
	echo "$tree" > "$b/.workbench-tree"
	echo "$(TOP=$S/clone-A kernel_key x86_64 "") $tree $(config_sum "$b")" > "$b/.workbench-built"
}

# table_edit PATCH TABLE NAME: PATCH (a file of clone A's series/) gains
# a hunk that leaves the system call NAME of TABLE without an entry point
# (sys_ni_syscall; scripts/syscalltbl.sh), against TABLE as the applied
# series has it (no later patch of the series changes a table).
table_edit() {
	local tmp=$S/table-edit
	rm -rf "$tmp" && mkdir -p "$tmp/a" "$tmp/b"
	git -C "$TREE" show "HEAD:$2" > "$tmp/a/t" || return 1
	awk -v n="$3" '$1 ~ /^[0-9]+$/ && $3 == n { print $1 "\t" $2 "\t" $3; next } { print }' \
		"$tmp/a/t" > "$tmp/b/t"
	! cmp -s "$tmp/a/t" "$tmp/b/t" || { echo "table_edit: no $3 in $2" >&2; return 1; }
	(cd "$tmp" && git diff --no-index a/t b/t || true) |
		sed "s#a/a/t#a/$2#g; s#b/b/t#b/$2#g" >> "$1"
}

# A stand-in for qemu-system-x86_64 that prints nothing and never ends.
mkdir -p "$S/silent-bin"
printf '#!/bin/sh\nexec sleep 100000\n' > "$S/silent-bin/qemu-system-x86_64"
chmod +x "$S/silent-bin/qemu-system-x86_64"

# QEMU itself, not tools/qemu.py, which lib.sh put first on PATH.
QEMU_X86=$(PATH=${PATH#"$TOP/tools/bin:"} command -v qemu-system-x86_64)

# A stand-in that prints a line and hangs on its first boot, and is QEMU
# on the next; QEMU for -version (tools/qemu.py asks it before a boot).
mkdir -p "$S/hung-once-bin"
cat > "$S/hung-once-bin/qemu-system-x86_64" <<EOF
#!/bin/sh
[ "\$1" != -version ] || exec $QEMU_X86 "\$@"
[ -e "$S/hung-once-bin/hung" ] || { : > "$S/hung-once-bin/hung"; echo 'stand-in: started'; exec sleep 100000; }
exec $QEMU_X86 "\$@"
EOF
chmod +x "$S/hung-once-bin/qemu-system-x86_64"

# A KVM that runs no guest: under -accel kvm the stand-in prints nothing
# and never ends; under TCG it is QEMU.  And one that runs them: under
# -accel kvm it is QEMU under TCG, which is what this machine has.  Both
# with a /dev/kvm of their own that opens (WORKBENCH_KVM_DEV).
: > "$S/fake-kvm"
# And two that fail as this machine's KVM does (EVIDENCE.md): QEMU warns on
# its standard error of a CPU feature the host lacks, then prints nothing
# (warns), or says "KVM internal error" there (internal); neither is the
# guest's console.
for k in hangs works warns internal firmware; do
	mkdir -p "$S/kvm-$k-bin"
	cat > "$S/kvm-$k-bin/qemu-system-x86_64" <<EOF
#!/bin/bash
if [ "\$1 \$2" = "-accel kvm" ]; then
	case $k in
	hangs) exec sleep 100000 ;;
	warns|internal)
		echo "qemu-system-x86_64: warning: host doesn't support requested feature: CPUID.01H:ECX.pni [bit 0]" >&2
		[ $k = warns ] || printf 'KVM internal error. Suberror: 1\\nemulation failure\\n' >&2
		exec sleep 100000 ;;
	firmware)
		printf 'SeaBIOS (version 1.16.2-debian-1.16.2-1)\\nBooting from ROM...\\n'
		exit 0 ;;
	esac
	shift 2
	exec $QEMU_X86 -accel tcg "\$@"
fi
exec $QEMU_X86 "\$@"
EOF
	chmod +x "$S/kvm-$k-bin/qemu-system-x86_64"
done

# distccd_on ADDR [wrong]: a distcc daemon on ADDR (lib.sh:
# loopback_distccd), its log $S/distccd/ADDR.log; with "wrong", in a mount
# namespace of its own where x86_64-linux-gnu-gcc-12 (what gcc is) is clang
# 14: another compiler at the path that ccache gives distcc, as on a host
# with another GCC.  distccd_off ADDR stops it.
distccd_on() {
	local wrap=()
	distccd_off "$1"
	mkdir -p "$S/distccd"
	if [ "${2:-}" = wrong ]; then
		printf '#!/bin/sh\nexec clang-14 --target=x86_64-linux-gnu "$@"\n' > "$S/distccd/wrong-gcc"
		chmod 755 "$S/distccd/wrong-gcc"
		wrap=(unshare -m --propagation private sh -c
		      'mount --bind "$1" "$(readlink -f "$(command -v x86_64-linux-gnu-gcc)")" && shift && exec "$@"'
		      sh "$S/distccd/wrong-gcc")
	fi
	loopback_distccd "$1" 2 "$S/distccd" "${wrap[@]}" 2>"$S/distccd/$1.err" || {
		bad "$case: $(cat "$S/distccd/$1.err")"
		return 1
	}
}
distccd_off() {
	local pid
	pid=$(cat "$S/distccd/$1.pid" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null || true
	rm -f "$S/distccd/$1.pid"
}
# distcc_um NAME HOSTS DIRS: um built in clone A with DISTCC_HOSTS=HOSTS,
# every object under DIRS of its build dir (all: ".") compiled anew; exit
# status in $r, output in $S/NAME.out, the build ID before in $was, after in
# $now.
distcc_um() {
	local d
	test_um "$S/clone-A" "$S/$1-0.out" || bad "$1: make test KERNELS=um before: $S/$1-0.out"
	was=$(built_ids um | sed -n 2p)
	for d in $3; do
		if [ "$d" = . ]; then rm -rf "$S/kunit-um"; else rm -rf "${S:?}/kunit-um/$d"; fi
	done
	rm -f "$S/kunit-um/.workbench-built"
	r=0
	(cd "$S/clone-A" && DISTCC_HOSTS=$2 CCACHE_RECACHE=1 make test KERNELS=um) >"$S/$1.out" 2>&1 || r=$?
	now=$(built_ids um | sed -n 2p)
}
# jobs_on ADDR: the compilations that the daemon on ADDR did.
jobs_on() { grep -c 'COMPILE_OK' "$S/distccd/$1.log" || true; }

for case in $CASES; do
	say "faults: --- $case"
	case $case in
	clones)
		# B's apply comes first so that A has to wait, and A builds
		# after B: both switch the tree.  B builds um from nothing (from
		# ccache), so that its run outlasts A's start and B's
		# format-patch.
		rm -rf "$S/kunit-um"
		run_bg clones-B bash -c "cd '$S/clone-B' && make test KERNELS=um"
		pb=$!
		wait_for "$S/clones-B.out" 'kernel um: ' 600 ||
			bad "clones: B's make test did not reach its kernel build: $S/clones-B.out"
		run_bg clones-A bash -c "cd '$S/clone-A' && make test KERNELS=um"
		pa=$!
		run_bg clones-Bfp bash -c "cd '$S/clone-B' && git config user.name 'A U Thor' && git config user.email author@example.org && make format-patch"
		pf=$!
		wait "$pf" && fp=0 || fp=$?
		fpdone=$(date +%s)
		wait "$pb" && rb=0 || rb=$?
		bdone=$(date +%s)
		wait "$pa" && ra=0 || ra=$?
		ca=$(mine "$S/clone-A") cb=$(mine "$S/clone-B")
		if [ $ra = 0 ] && [ $rb = 0 ] && [ "$ca" != "$cb" ] &&
		   grep -q "every row built from $ca" "$S/clones-A.out" &&
		   grep -q "every row built from $cb" "$S/clones-B.out" &&
		   grep -q 'waiting for another workbench run' "$S/clones-A.out"; then
			ok "clones: A's rows from $ca, B's from $cb, A waited for B"
		else
			bad "clones: A exit $ra ($ca), B exit $rb ($cb); see $S/clones-A.out, $S/clones-B.out"
		fi
		if [ $fp = 0 ] && grep -q 'the other series (tools/faults.sh)' "$S"/clone-B/out/series/*.patch &&
		   [ "$fpdone" -lt "$bdone" ]; then
			ok "clones: B's make format-patch exported B's series while B's make test ran"
		else
			bad "clones: B's make format-patch (exit $fp, done at $fpdone, B's test at $bdone): $S/clones-Bfp.out"
		fi
		# The results are A's now (A ran last): B's summary must refuse them.
		r=0
		(cd "$S/clone-B" && make summary) >"$S/clones-Bsum.out" 2>&1 || r=$?
		if [ $r != 0 ] && grep -q "FAILED: built from $ca, not from this clone's series" "$S/clones-Bsum.out"; then
			ok "clones: B's make summary fails every row of A's run (built from $ca)"
		else
			bad "clones: B's make summary of A's rows: exit $r, $S/clones-Bsum.out"
		fi
		;;
	moved)
		rm -f "$S/kunit-um/.workbench-built"
		run_bg moved bash -c "cd '$S/clone-A' && make run ARCH=um"
		p=$!
		wait_for "$S/moved.out" 'kernel um: building' 600
		echo '/* changed under the build */' >> "$TREE/fs/read_write.c"
		wait "$p" && r=0 || r=$?
		if [ $r != 0 ] && grep -q 'the tree changed during the build' "$S/moved.out" &&
		   [ ! -e "$S/kunit-um/.workbench-built" ] && [ ! -e "$S/kunit-um/.workbench-tree" ]; then
			ok "moved: the row fails ($(grep -o 'the tree changed during the build.*' "$S/moved.out" | head -1)), nothing recorded as built"
		else
			bad "moved: exit $r, built: $(cat "$S/kunit-um/.workbench-built" 2>/dev/null || echo none): $S/moved.out"
		fi
		if test_um "$S/clone-A" "$S/moved-2.out" && grep -q 'kernel um: building' "$S/moved-2.out"; then
			ok "moved: the next make test re-applies, rebuilds, passes"
		else
			bad "moved: the next make test: $S/moved-2.out"
		fi
		;;
	int-build)
		# um from nothing: with ccache, a build of fs/ alone could end
		# before the interrupt.
		rm -rf "$S/kunit-um"
		run_bg int-build bash -c "cd '$S/clone-A' && make test KERNELS=um"
		p=$!
		wait_for "$S/int-build.out" 'kernel um: building' 600
		sleep 5
		interrupt "$p" || bad "int-build: make test still runs 60s after Ctrl-C"
		sleep 2
		left=$(leftovers)
		if [ -z "$left" ] && [ ! -e "$S/kunit-um/.workbench-built" ]; then
			ok "int-build: nothing left running, nothing recorded as built"
		else
			bad "int-build: left running: $left; built: $(cat "$S/kunit-um/.workbench-built" 2>/dev/null)"
		fi
		if test_um "$S/clone-A" "$S/int-build-2.out" && grep -q 'kernel um: building' "$S/int-build-2.out"; then
			ok "int-build: the next make test rebuilds and passes ($(tail -1 "$S/int-build-2.out"))"
		else
			bad "int-build: the next make test: $S/int-build-2.out"
		fi
		;;
	int-apply)
		ca=$(mine "$S/clone-A")
		# B's commit is made anew: its ref is gone.
		git -C "$TREE" update-ref -d "$(TOP=$S/clone-B applied_ref)"
		run_bg int-apply bash -c "cd '$S/clone-B' && make apply"
		p=$!
		wait_for "$S/int-apply.out" 'apply:   ' 120
		interrupt "$p" || bad "int-apply: make apply still runs 60s after Ctrl-C"
		touch "$TREE/.git/index.lock"
		if (cd "$S/clone-A" && make apply) >"$S/int-apply-2.out" 2>&1 &&
		   [ "$(git -C "$TREE" rev-parse --short=12 HEAD)" = "$ca" ] && git -C "$TREE" diff --quiet HEAD &&
		   grep -q 'removing .*index.lock' "$S/int-apply-2.out"; then
			ok "int-apply: after the interrupt and a stale index.lock, A's apply gives A's tree ($ca)"
		else
			bad "int-apply: $S/int-apply-2.out"
		fi
		if (cd "$S/clone-B" && make apply) >"$S/int-apply-3.out" 2>&1 &&
		   [ "$(git -C "$TREE" rev-parse --short=12 HEAD)" = "$(mine "$S/clone-B")" ] &&
		   git -C "$TREE" diff --quiet HEAD; then
			ok "int-apply: B's interrupted apply, redone, gives B's tree"
		else
			bad "int-apply: B's apply redone: $S/int-apply-3.out"
		fi
		;;
	int-boot)
		(cd "$S/clone-A" && make apply) >/dev/null 2>&1
		seed_x86_64
		run_bg int-boot env PATH="$S/silent-bin:$PATH" BOOT_CACHE=0 SKIP="i386 x32 kselftest" \
			bash -c "cd '$S/clone-A' && make run ARCH=x86_64"
		p=$!
		wait_for "$S/int-boot.out" 'boot x86_64: booting' 300
		sleep 5
		interrupt "$p" || bad "int-boot: still running 60s after Ctrl-C"
		sleep 2
		left=$(pgrep -af 'sleep 100000' || true)
		if [ -z "$left" ] && grep -q 'interrupted' "$S/int-boot.out"; then
			ok "int-boot: QEMU (the stand-in) is gone after Ctrl-C"
		else
			bad "int-boot: left running: $left ($S/int-boot.out)"
			pkill -f 'sleep 100000' || true
		fi
		;;
	int-bisect)
		(cd "$S/clone-A" && make apply) >/dev/null 2>&1
		ca=$(mine "$S/clone-A")
		run_bg int-bisect env OBJ_KERNELS= bash -c "cd '$S/clone-A' && tools/bisect.sh um"
		p=$!
		wait_for "$S/int-bisect.out" 'bisect 1/\|bisect um 1' 600 || true
		sleep 3
		interrupt "$p" || bad "int-bisect: still running 60s after Ctrl-C"
		if [ "$(git -C "$TREE" rev-parse --short=12 HEAD)" = "$ca" ] && git -C "$TREE" diff --quiet HEAD &&
		   test_um "$S/clone-A" "$S/int-bisect-2.out" && grep -q 'kernel um: unchanged' "$S/int-bisect-2.out"; then
			ok "int-bisect: the tree is back on A's series; the next make test builds nothing and passes"
		else
			bad "int-bisect: HEAD $(git -C "$TREE" rev-parse --short=12 HEAD), A's $ca: $S/int-bisect.out $S/int-bisect-2.out"
		fi
		;;
	int-mutants)
		(cd "$S/clone-A" && make apply) >/dev/null 2>&1
		ca=$(mine "$S/clone-A")
		stamp=$(cat "$S/kunit-um/.workbench-built" 2>/dev/null || echo none)
		# Under TCG, as hung-once.
		run_bg int-mutants bash -c "cd '$S/clone-A' && ACCEL=tcg tools/mutants.sh native-pos-high-kept-on-64bit"
		p=$!
		wait_for "$S/int-mutants.out" 'mutant native-pos' 600 || true
		sleep 20
		interrupt "$p" || bad "int-mutants: still running 60s after Ctrl-C"
		sleep 2
		left=$(leftovers)
		if [ -z "$left" ] && [ "$(git -C "$TREE" rev-parse --short=12 HEAD)" = "$ca" ] &&
		   git -C "$TREE" diff --quiet HEAD && [ "$(cat "$S/kunit-um/.workbench-built")" = "$stamp" ] &&
		   test_um "$S/clone-A" "$S/int-mutants-2.out"; then
			ok "int-mutants: nothing left running, the tree and the um stamp untouched, make test passes"
		else
			bad "int-mutants: left: $left; $S/int-mutants.out $S/int-mutants-2.out"
		fi
		;;
	no-cc)
		mkdir -p "$S/no-cc-bin"
		rm -f "$S"/no-cc-bin/*
		for f in /usr/bin/* /usr/sbin/* /usr/local/bin/*; do
			case ${f##*/} in mips-linux-gnu-*) continue ;; esac
			ln -sf "$f" "$S/no-cc-bin/${f##*/}"
		done
		expect_row no-cc mips.0kunit "no compiler mips-linux-gnu-gcc" \
			env PATH="$S/no-cc-bin" tools/kernel.sh mips
		;;
	disk-build)
		mt build 16M
		expect_row disk-build um.0kunit "FAILED: the kernel did not build: no space left on device" \
			env KBUILD_PREFIX="$S/mnt-build/kunit-" tools/kernel.sh um
		umount "$S/mnt-build"
		;;
	disk-cpio)
		(cd "$S/clone-A" && make apply) >/dev/null 2>&1
		seed_x86_64
		mt st 64M
		rm -rf "$RESULTS"
		# The binaries first, then the file system full.
		(cd "$S/clone-A" && ST=$S/mnt-st SKIP="i386 x32 kselftest" \
			tools/selftests.sh x86_64) >"$S/disk-cpio-1.out" 2>&1 || true
		# The old image goes first: writing the new one over it would
		# free its space.
		rm -f "$S"/mnt-st/*.cpio
		dd if=/dev/zero of="$S/mnt-st/fill" bs=1M 2>/dev/null || true
		expect_row disk-cpio x86_64.st-x86_64 "initramfs failed: no space left on device" \
			env ST="$S/mnt-st" SKIP="i386 x32 kselftest" tools/selftests.sh x86_64
		umount "$S/mnt-st"
		;;
	silent)
		# A machine that prints nothing fails at the start bound (10 s
		# here), not at the timeouts (300 s), and is not booted again.
		(cd "$S/clone-A" && make apply) >/dev/null 2>&1
		seed_x86_64
		# The initramfs first: the bound is the boot's.
		(cd "$S/clone-A" && SKIP="i386 x32 kselftest" bash -c '. tools/lib.sh; hold_applied
			tools/selftests.sh x86_64') >/dev/null 2>&1
		rm -rf "$RESULTS"
		t=$(date +%s)
		r=0
		(cd "$S/clone-A" && PATH="$S/silent-bin:$PATH" START_BOUND=10 KUNIT_TIMEOUT=300 \
			BOOT_TIMEOUT=300 SKIP="i386 x32 kselftest" tools/matrix.sh x86_64) >"$S/silent.out" 2>&1 || r=$?
		secs=$(( $(date +%s) - t ))
		k=$(cut -f2 "$RESULTS/x86_64.0kunit" 2>/dev/null || true)
		st=$(cut -f2 "$RESULTS/x86_64.st-x86_64" 2>/dev/null || true)
		left=$(pgrep -af 'sleep 100000' || true)
		want="FAILED: the machine did not start: no console output in 10s (QEMU qemu-system-x86_64, accelerator tcg)"
		if [ $r != 0 ] && [ "$k" = "$want" ] && [ "$st" = "$want" ] && [ -z "$left" ] &&
		   ! grep -q 'once more' "$S/silent.out" && [ $secs -lt 60 ]; then
			ok "silent: exit $r in ${secs}s; rows: '$k', '$st'"
		else
			bad "silent: exit $r in ${secs}s; rows '$k', '$st'; left: $left ($S/silent.out)"
			pkill -f 'sleep 100000' || true
		fi
		;;
	kvm-hangs|kvm-warns|kvm-internal|kvm-firmware|kvm-works)
		# Two boots of the x86_64 image in one run (BOOT_CACHE=0).
		(cd "$S/clone-A" && make apply) >/dev/null 2>&1
		seed_x86_64
		rm -rf "$RESULTS"
		rm -f "$S/$case.starts"
		t=$(date +%s)
		r=0
		(cd "$S/clone-A" && PATH="$S/$case-bin:$PATH" WORKBENCH_KVM_DEV="$S/fake-kvm" \
			WORKBENCH_QEMU_STARTS="$S/$case.starts" START_BOUND=20 BOOT_CACHE=0 \
			SKIP="x32 kselftest" bash -c '. tools/lib.sh; hold_applied
				tools/run.sh x86_64 && tools/boot.sh x86_64 && tools/summary.sh') >"$S/$case.out" 2>&1 || r=$?
		secs=$(( $(date +%s) - t ))
		# The accelerator, without the name of the stand-in QEMU
		# (boot.sh names a QEMU that is not the machine's).
		accels=$(cut -f9 "$RESULTS"/x86_64.0kunit "$RESULTS"/x86_64.st-x86_64 "$RESULTS"/x86_64.st-i386 2>/dev/null |
			sed 's/; QEMU .*//' || true)
		rows=$(sort <<< "$accels" | uniq -c | paste -sd';' || true)
		left=$(pgrep -af 'sleep 100000' || true)
		kvm=$(grep -c '	kvm	' "$S/$case.starts" 2>/dev/null || true)
		tcg=$(grep -c '	tcg	' "$S/$case.starts" 2>/dev/null || true)
		if [ $case != kvm-works ]; then
			# The first boot under KVM prints nothing on the guest's
			# console (a warning of QEMU's is not): it goes on under
			# TCG, as does the second boot, at once; after a KVM
			# internal error, at once too.
			want="tcg (KVM did not run the guest: no console output in 20s under KVM)"
			[ $case != kvm-internal ] || want="tcg (KVM did not run the guest: a KVM internal error)"
			[ $case != kvm-firmware ] || want="tcg (KVM did not run the guest: QEMU ended before the kernel's banner)"
			if [ $r = 0 ] && [ "$(sort -u <<< "$accels")" = "$want" ] &&
			   [ "$(wc -l <<< "$accels")" = 3 ] && [ "$kvm" = 1 ] && [ "$tcg" = 2 ] && [ -z "$left" ] &&
			   grep -q 'boot x86_64: KVM did not run the guest' "$S/$case.out" &&
			   grep -qF "every QEMU boot under tcg (KVM did not run the guest" "$S/$case.out"; then
				ok "$case: exit 0 in ${secs}s, one boot under KVM ($want), then TCG for it and the next; rows: $rows"
			else
				bad "$case: exit $r in ${secs}s; kvm $kvm, tcg $tcg boots; rows: $rows; left: $left ($S/$case.out)"
				pkill -f 'sleep 100000' || true
			fi
		else
			if [ $r = 0 ] && [ "$(grep -c '^kvm (' <<< "$accels")" = 3 ] &&
			   [ "$kvm" = 2 ] && [ "$tcg" = 0 ] && grep -q 'every QEMU boot under kvm' "$S/$case.out"; then
				ok "kvm-works: exit 0 in ${secs}s, both boots under KVM; rows: $rows"
			else
				bad "kvm-works: exit $r in ${secs}s; kvm $kvm, tcg $tcg boots; rows: $rows ($S/$case.out)"
			fi
		fi
		;;
	hung-once)
		# The boot prints and then hangs, once: booted once more, it
		# passes, and its rows name the hung boot's log.
		(cd "$S/clone-A" && make apply) >/dev/null 2>&1
		seed_x86_64
		rm -rf "$RESULTS" "$S/hung-once-bin/hung"
		# Under TCG (ACCEL=tcg): the case is the hung boot, and on a
		# host whose KVM runs no guest, KVM's probation (START_BOUND)
		# outlasts BOOT_TIMEOUT.
		r=0
		(cd "$S/clone-A" && PATH="$S/hung-once-bin:$PATH" BOOT_TIMEOUT=20 BOOT_CACHE=0 ACCEL=tcg \
			SKIP="i386 x32 kselftest" bash -c '. tools/lib.sh; hold_applied
				tools/run.sh x86_64') >"$S/hung-once.out" 2>&1 || r=$?
		IFS=$'\t' read -r _ k kp _ _ klog _ < "$RESULTS/x86_64.0kunit" || true
		IFS=$'\t' read -r _ st passed _ _ log _ < "$RESULTS/x86_64.st-x86_64" || true
		left=$(pgrep -af 'sleep 100000' || true)
		# Read whole: grep -q may stop reading before summary.sh ends.
		summary=$(cd "$S/clone-A" && tools/summary.sh 2>&1 || true)
		if [ $r = 0 ] && [ "$k" = "$BOOTED_AGAIN" ] && [ "$st" = "$BOOTED_AGAIN" ] &&
		   [ "${kp:-0}" -gt 0 ] && [ "${passed:-0}" -gt 0 ] &&
		   [ "$log" = "$LOGS/console-x86_64.log.hung" ] && grep -q 'stand-in: started' "$log" &&
		   grep -q 'timed out after 20 seconds' "$LOGS/boot-x86_64.log.hung" && [ -z "$left" ] &&
		   grep -qF "$BOOTED_AGAIN after a hung boot" <<< "$summary"; then
			ok "hung-once: exit 0; rows '$k' ($kp passed), '$st' ($passed passed), the hung boot's log named"
		else
			bad "hung-once: exit $r; rows '$k' ($kp), '$st' ($passed passed, log $log); left: $left ($S/hung-once.out)"
			pkill -f 'sleep 100000' || true
		fi
		;;
	same-objects)
		# um: the image is vmlinux itself.
		kfile=$S/clone-A/kunit/read_write/fs/tests/read_write_kunit.c
		test_um "$S/clone-A" "$S/same-objects-0.out" || bad "same-objects: make test KERNELS=um: $S/same-objects-0.out"
		was=$(sha256sum < "$S/kunit-um/vmlinux")
		was_t=$(stat -c %Y "$S/kunit-um/vmlinux")
		echo "/* a comment (tools/faults.sh) */" >> "$kfile"
		r=0
		test_um "$S/clone-A" "$S/same-objects-1.out" || r=$?
		now=$(sha256sum < "$S/kunit-um/vmlinux")
		if [ $r = 0 ] && grep -q 'kernel um: compiling the 1 objects .*(fs/read_write.o)' "$S/same-objects-1.out" &&
		   grep -q 'kernel um: each object is the one it was' "$S/same-objects-1.out" &&
		   ! grep -q 'make all' "$S/same-objects-1.out" &&
		   [ "$now" = "$was" ] && [ "$(stat -c %Y "$S/kunit-um/vmlinux")" = "$was_t" ]; then
			ok "same-objects: a comment: fs/read_write.o compiled, the same; vmlinux not linked again"
		else
			bad "same-objects: a comment: exit $r, vmlinux ${now:0:12} (was ${was:0:12}): $S/same-objects-1.out"
		fi
		# A comment above the tests moves the line numbers that their
		# assertions record: the object is compiled first and differs,
		# and make all links a new vmlinux.
		sed -i '1a /* a comment that moves the lines below (tools/faults.sh) */' "$kfile"
		r=0
		test_um "$S/clone-A" "$S/same-objects-moved.out" || r=$?
		now=$(sha256sum < "$S/kunit-um/vmlinux")
		if [ $r = 0 ] && grep -q 'kernel um: compiling the 1 objects .*(fs/read_write.o)' "$S/same-objects-moved.out" &&
		   grep -q 'kernel um: building from .* with make all' "$S/same-objects-moved.out" &&
		   [ "$now" != "$was" ]; then
			ok "same-objects: a comment that moves lines: fs/read_write.o differs, make all, a new vmlinux"
		else
			bad "same-objects: a comment that moves lines: exit $r, vmlinux ${now:0:12} (was ${was:0:12}): $S/same-objects-moved.out"
		fi
		was=$now
		echo 'static const char faults_id[] __used = "tools/faults.sh";' >> "$kfile"
		r=0
		test_um "$S/clone-A" "$S/same-objects-2.out" || r=$?
		now=$(sha256sum < "$S/kunit-um/vmlinux")
		if [ $r = 0 ] && grep -q 'kernel um: building from .* with make all' "$S/same-objects-2.out" &&
		   ! grep -q 'kernel um: compiling the' "$S/same-objects-2.out" && [ "$now" != "$was" ]; then
			ok "same-objects: a line of code: make all at once, a new vmlinux, its rows pass"
		else
			bad "same-objects: a line of code: exit $r, vmlinux ${now:0:12} (was ${was:0:12}): $S/same-objects-2.out"
		fi
		git -C "$S/clone-A" checkout -q -- "$kfile"
		;;
	stale)
		# The main build's x86_64 image, and its vmlinux with a byte
		# of its build ID changed: the image is then another build
		# than the vmlinux, with the same banner.
		(cd "$S/clone-A" && make apply) >/dev/null 2>&1
		seed_x86_64
		was=$(KBUILD_PREFIX=$MAIN/kunit- built_ids x86_64 | sed -n 2p)
		perl -0777 -pi -e 'BEGIN { $id = pack("H*", shift); ($new = $id) =~ s/^(.)/chr(ord($1) ^ 1)/se }
			s/\Q$id\E/$new/g' "$was" "$S/kunit-x86_64/vmlinux"
		now=$(built_ids x86_64 | sed -n 2p)
		want="booted kernel is not the one built (booted build ID $was, built $now)"
		if [ "$was" = "$now" ] || [ -z "$was" ]; then
			bad "stale: could not plant a build ID in the copied vmlinux ('$was', '$now')"
		else
			expect_row stale x86_64.0kunit "$want" \
				env SKIP="i386 x32 kselftest" BOOT_CACHE=0 tools/run.sh x86_64
			got=$(cut -f2 "$RESULTS/x86_64.st-x86_64" 2>/dev/null || true)
			if [ "$got" = "$want" ]; then
				ok "stale: the selftest row too: $got"
			else
				bad "stale: the selftest row: '$got'"
			fi
		fi
		;;
	no-loader)
		# A compiler without a static C library for i386 (a stand-in
		# that refuses -static): the test is linked dynamically, and
		# on the initramfs, which has no /lib/ld-linux.so.2, the
		# launcher skips, naming the loader.
		(cd "$S/clone-A" && make apply) >/dev/null 2>&1
		seed_x86_64
		mkdir -p "$S/nostatic-bin"
		cat > "$S/nostatic-bin/i686-linux-gnu-gcc" <<EOF
#!/bin/sh
for a; do [ "\$a" != -static ] || { echo 'stand-in: no static C library' >&2; exit 1; }; done
exec $(command -v i686-linux-gnu-gcc) "\$@"
EOF
		chmod +x "$S/nostatic-bin/i686-linux-gnu-gcc"
		rm -rf "$RESULTS" "$ST/x86_64"
		r=0
		(cd "$S/clone-A" && PATH="$S/nostatic-bin:$PATH" BOOT_CACHE=0 SKIP="x86_64/x86_64 x32 kselftest" \
			bash -c '. tools/lib.sh; hold_applied; tools/run.sh x86_64') >"$S/no-loader.out" 2>&1 || r=$?
		IFS=$'\t' read -r _ st passed failed skipped log _ < "$RESULTS/x86_64.st-i386" || true
		# The launcher skips; the matrix's row, there to run i386,
		# fails, saying why.
		if [ $r != 0 ] &&
		   [ "$st" = "FAILED: skipped as a whole: preadv_test_32.bin is linked dynamically, and this system has no /lib/ld-linux.so.2, its loader" ] &&
		   file "$ST/x86_64/kselftest/$ST_TARGET/preadv_test_32.bin" | grep -q 'dynamically linked' &&
		   grep -q 'SKIP preadv_test_32.bin is linked dynamically, and this system has no /lib/ld-linux.so.2' "$log"; then
			ok "no-loader: the launcher skips: $(grep -o 'SKIP.*' "$log" | head -1); the row: $st"
		else
			bad "no-loader: exit $r; row '$st' ($passed passed, $failed failed, $skipped skipped; $log): $S/no-loader.out"
		fi
		rm -rf "$ST/x86_64"
		;;
	tables)
		# kernel, patch, table, the call, the row of the ABI that the
		# table serves.
		TABLES=${TABLES:-sh parisc mips arm64 sparc64 i386}
		# What the main build fetched (parisc's firmware, sh's C
		# library), not fetched again.
		for d in firmware sh4-libc; do
			[ -d "$S/$d" ] || [ ! -d "$MAIN/$d" ] || cp -a "$MAIN/$d" "$S/$d"
		done
		for k in $TABLES; do
			case $k in
			sh)	spec="0005 arch/sh/kernel/syscalls/syscall.tbl fadvise64_64 sh4" ;;
			parisc)	spec="0009 arch/parisc/kernel/syscalls/syscall.tbl fadvise64_64 hppa" ;;
			mips)	spec="0002 arch/mips/kernel/syscalls/syscall_o32.tbl fadvise64 o32" ;;
			arm64)	spec="0004 arch/arm64/tools/syscall_32.tbl arm_fadvise64_64 armhf" ;;
			sparc64) spec="0007 arch/sparc/kernel/syscalls/syscall.tbl fadvise64_64 sparc32" ;;
			i386)	spec="0008 arch/x86/entry/syscalls/syscall_32.tbl fadvise64_64 i386" ;;
			*)	bad "tables: no table edit for $k"; continue ;;
			esac
			read -r pn table call abi <<< "$spec"
			for d in "$k" um; do
				[ -f "$MAIN/kunit-$d/.workbench-built" ] ||
					{ bad "tables: $k: no $d kernel in $MAIN to start from (make test KERNELS=\"$k um\")"; continue 2; }
				rm -rf "$S/kunit-$d"
				cp -a "$MAIN/kunit-$d" "$S/kunit-$d"
			done
			git -C "$S/clone-A" checkout -q -- series
			(cd "$S/clone-A" && make apply) >/dev/null 2>&1
			patch=$(ls "$S/clone-A/series/$pn"-*.patch)
			was_id=$(built_ids "$k" | sed -n 2p)
			was_um=$(built_ids um | sed -n 2p)
			table_edit "$patch" "$table" "$call" || { bad "tables: $k: no edit of $table"; continue; }
			r=0
			(cd "$S/clone-A" && make test KERNELS="$k um") >"$S/tables-$k.out" 2>&1 || r=$?
			now_id=$(built_ids "$k" | sed -n 2p)
			now_um=$(built_ids um | sed -n 2p)
			IFS=$'\t' read -r _ st _ _ _ log _ < "$RESULTS/$k.st-$abi" || true
			um_ok=
			if grep -q "kernel um: unchanged: it is built from none of the" "$S/tables-$k.out"; then
				um_ok="not built"
			elif grep -q "kernel um: building from .* with make all, for the 1 changed files it reads" "$S/tables-$k.out" &&
			     [ "$now_um" = "$was_um" ]; then
				um_ok="make all, the same build ID"
			fi
			if [ $r != 0 ] && grep -q "kernel $k: building from" "$S/tables-$k.out" &&
			   [ -n "$now_id" ] && [ "$now_id" != "$was_id" ] && [ "$st" != "$REUSED" ] &&
			   [ "${st%%:*}" = FAILED ] && grep -aq "^not ok .*fadvise64" "$log" && [ -n "$um_ok" ]; then
				ok "tables: $k: $table: built again (build ID ${was_id:0:12} -> ${now_id:0:12}), booted, $k.st-$abi: $st; um: $um_ok"
			else
				bad "tables: $k: $table: exit $r, build ID ${was_id:0:12} -> ${now_id:0:12}, $k.st-$abi '$st', um '${um_ok:-built}': $S/tables-$k.out"
			fi
			if [ "$k" = sh ]; then
				git -C "$S/clone-A" checkout -q -- series
				r=0
				(cd "$S/clone-A" && make test KERNELS="$k") >"$S/tables-$k-undone.out" 2>&1 || r=$?
				back_id=$(built_ids "$k" | sed -n 2p)
				st=$(cut -f2 "$RESULTS/$k.st-$abi" 2>/dev/null || true)
				# The same image as before the edit: its rows pass,
				# booted, or kept from a boot of that image.
				if [ $r = 0 ] && [ "$back_id" = "$was_id" ] && { [ "$st" = ok ] || [ "$st" = "$REUSED" ]; }; then
					ok "tables: $k: the edit taken out: build ID ${back_id:0:12} again, $k.st-$abi: $st"
				else
					bad "tables: $k: the edit taken out: exit $r, build ID ${back_id:0:12} (was ${was_id:0:12}), $k.st-$abi '$st': $S/tables-$k-undone.out"
				fi
			fi
			git -C "$S/clone-A" checkout -q -- series
		done
		;;
	distcc)
		distccd_on 127.0.0.2 || continue
		distcc_um distcc 127.0.0.2/4 .
		n=$(jobs_on 127.0.0.2)
		distccd_off 127.0.0.2
		if [ $r = 0 ] && [ -n "$now" ] && [ "$now" = "$was" ] && [ "$n" -gt 100 ] &&
		   grep -q 'kernel um: distcc: compiling on 127.0.0.2/4, -j ' "$S/distcc.out"; then
			ok "distcc: $n compilations on 127.0.0.2, build ID ${now:0:12} as built here"
		else
			bad "distcc: exit $r, $n compilations on 127.0.0.2, build ID ${now:0:12} (here: ${was:0:12}): $S/distcc.out"
		fi
		;;
	distcc-refuses)
		distccd_off 127.0.0.3
		distcc_um distcc-refuses 127.0.0.3 fs
		if [ $r = 0 ] && [ -n "$now" ] && [ "$now" = "$was" ] &&
		   grep -q 'kernel um: distcc: 127.0.0.3: left out, its gcc did not compile a probe (.*Connection refused)' "$S/distcc-refuses.out" &&
		   grep -q 'kernel um: distcc: no build host compiles as this machine.s gcc: compiling here' "$S/distcc-refuses.out"; then
			ok "distcc-refuses: $(grep -o '127.0.0.3: left out.*' "$S/distcc-refuses.out"); build ID ${now:0:12} as before"
		else
			bad "distcc-refuses: exit $r, build ID ${now:0:12} (before: ${was:0:12}): $S/distcc-refuses.out"
		fi
		;;
	distcc-vanishes)
		distccd_on 127.0.0.2 || continue
		test_um "$S/clone-A" "$S/distcc-vanishes-0.out" || bad "distcc-vanishes: make test KERNELS=um before: $S/distcc-vanishes-0.out"
		was=$(built_ids um | sed -n 2p)
		rm -rf "${S:?}/kunit-um/fs" "$S/kunit-um/.workbench-built"
		run_bg distcc-vanishes bash -c "cd '$S/clone-A' && DISTCC_HOSTS=127.0.0.2/4 CCACHE_RECACHE=1 make test KERNELS=um"
		p=$!
		# Ten compilations of fs/ there, then the daemon is gone.
		for ((i = 0; i < 600; i++)); do
			[ "$(jobs_on 127.0.0.2)" -lt 10 ] || break
			sleep 1
		done
		n=$(jobs_on 127.0.0.2)
		pkill -KILL -f -- "distccd .*--listen 127.0.0.2 " || true
		rm -f "$S/distccd/127.0.0.2.pid"
		r=0
		wait "$p" || r=$?
		now=$(built_ids um | sed -n 2p)
		here=$(grep 'kernel um: distcc: [0-9]* compilations ran here when a host failed (first: ' "$S/distcc-vanishes.out" |
		       grep -v 'distcc named no error' | grep -o '[0-9]* compilations' | grep -o '[0-9]*' | head -1)
		if [ $r = 0 ] && [ -n "$now" ] && [ "$now" = "$was" ] && [ "${here:-0}" -gt 0 ]; then
			ok "distcc-vanishes: $n compilations on 127.0.0.2 before it went, $here here after ($(grep -o 'a host failed (first: .*' "$S/distcc-vanishes.out")); build ID ${now:0:12} as before"
		else
			bad "distcc-vanishes: exit $r, $n there, ${here:-no} count of those here, build ID ${now:0:12} (before: ${was:0:12}): $S/distcc-vanishes.out"
		fi
		;;
	distcc-wrongcc)
		distccd_on 127.0.0.4 wrong || continue
		distcc_um distcc-wrongcc 127.0.0.4 fs
		n=$(jobs_on 127.0.0.4)
		distccd_off 127.0.0.4
		# The probe is the one compilation that the host did.
		if [ $r = 0 ] && [ -n "$now" ] && [ "$now" = "$was" ] && [ "$n" = 1 ] &&
		   grep -q 'kernel um: distcc: 127.0.0.4: left out, its gcc gives another object than this machine.s (it names .*clang.*; this one GCC: ' "$S/distcc-wrongcc.out"; then
			ok "distcc-wrongcc: $(grep -o '127.0.0.4: left out.*' "$S/distcc-wrongcc.out"); build ID ${now:0:12} as before"
		else
			bad "distcc-wrongcc: exit $r, $n compilations there, build ID ${now:0:12} (before: ${was:0:12}): $S/distcc-wrongcc.out"
		fi
		;;
	*)	bad "unknown case $case" ;;
	esac
done
say "faults: $pass passed, $fail failed (outputs in $S)"
[ $fail -eq 0 ]
