#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kernel.sh KERNEL: build KERNEL (tools/lib.sh: an arch, or ARCH-san) with
# `kunit.py build` (the top-level kunitconfig and the options of its row),
# unless nothing that goes into it changed since its last good build: its
# inputs outside the tree (lib.sh: kernel_inputs) are the same, and every
# file that changed in the tree since then is one that the build did not
# read, as the workbench can show (lib.sh: kernel_relevant: not named by
# kbuild's .cmd files, kept in .workbench-reads, and a source or header, or
# another architecture's file, or a selftest's).  Any other changed file
# goes to make: make all where only files that the build read changed, or
# files that no rule of it named (a syscall table of another kind, a
# script's input; make decides); kunit.py build where one decides what is
# built (a Kconfig, Makefile or Kbuild file, scripts/, tools/ but the
# selftests).  On success the
# build dir's .workbench-tree names the tree its image is good for, which
# tools/boot.sh checks.  A build that fails is the kernel's KUnit row.
. "${0%/*}/lib.sh"

kernel=${1:?usage: kernel.sh KERNEL}
hold_applied "$@"
cross=$(arch_cross "$kernel")
bdir=$(kbuild_dir "$kernel")
log=$LOGS/build-$kernel.log
mkdir -p "$LOGS" "$bdir"
rm -f "$bdir/.workbench-tree"
if ! command -v "${cross}gcc" >/dev/null; then
	say "kernel $kernel: FAILED, no compiler ${cross}gcc (make deps installs it)"
	record "$kernel.0kunit" "no compiler ${cross}gcc" 0 1 0 -
	exit 1
fi

# The flags every C file of the kernel needs (lib.sh: kernel_cflags); on
# sh, a compiler that fails its self-test stops the row here.
if ! cflags=$(kernel_cflags "$kernel" 2>"$log"); then
	why=$(grep -m1 '^error: ' "$log" | sed 's/^error: //')
	say "kernel $kernel: FAILED: ${why:-the compiler is not fit to build it} (log: $log)"
	record "$kernel.0kunit" "FAILED: ${why:-the compiler is not fit to build it}" 0 1 0 "$log"
	exit 1
fi

cd "$TREE"
# The same sources give the same image (Documentation/kbuild/
# reproducible-builds.rst): the banner's build number, time, user and host
# are fixed, the time the base's commit's, so that an edit that changes no
# object (a comment) relinks the image it had, whose boot tools/boot.sh
# has kept.  The banner then no longer tells two builds apart: the build
# ID of vmlinux, which /init prints, does (lib.sh: boot_guard).
KBUILD_BUILD_TIMESTAMP=$(git log -1 --format=%cD base 2>/dev/null || echo 'Thu, 1 Jan 1970 00:00:00 +0000')
export KBUILD_BUILD_TIMESTAMP KBUILD_BUILD_VERSION=1 KBUILD_BUILD_USER=workbench KBUILD_BUILD_HOST=workbench
source=${WORKBENCH_SOURCE:-$(tree_source)}
tree=${WORKBENCH_TREE_ID-$(tree_id)}
inputs=$(kernel_key "$kernel" "$cflags")

# A build recorded before the reads of savedcmd_ lines were kept (its
# list was .workbench-deps) has its list made from its .cmd files, which
# are those of that build.
if [ -f "$bdir/.workbench-built" ] && [ -f "$bdir/.workbench-deps" ] && [ ! -f "$bdir/.workbench-reads" ]; then
	kernel_deps "$bdir" > "$bdir/.workbench-reads.new" && mv "$bdir/.workbench-reads.new" "$bdir/.workbench-reads"
fi

# What changed since the last good build, if that is all that differs.
# The .config is part of the record: a build dir that another build
# configured since (kunit.py by hand, make bench-edit's "before") is built
# again.
if [ -n "$tree" ] && [ -f "$bdir/.workbench-built" ] && [ -f "$bdir/.workbench-reads" ] &&
   read -r was_inputs was_tree was_config < "$bdir/.workbench-built" && [ "$was_inputs" = "$inputs" ] &&
   [ "${was_config:-}" = "$(config_sum "$bdir")" ]; then
	if [ "$was_tree" = "$tree" ]; then
		say "kernel $kernel: unchanged since its last build ($source)"
		echo "$tree" > "$bdir/.workbench-tree"
		exit 0
	fi
	changed=$(git diff --name-only "$was_tree" "$tree" 2>/dev/null || echo "?")
	if [ "$changed" != "?" ]; then
		relevant=$(kernel_relevant "$bdir" <<< "$changed")
		if [ -z "$relevant" ]; then
			say "kernel $kernel: unchanged: it is built from none of the $(grep -c . <<< "$changed") files that changed ($source)"
			echo "$inputs $tree $(config_sum "$bdir")" > "$bdir/.workbench-built"
			echo "$tree" > "$bdir/.workbench-tree"
			exit 0
		fi
		# No file that decides what is built: the configuration that
		# kunit.py made is the one it would make again, and make alone
		# builds the rest (sources_only below), by every rule it has,
		# for the files that the last build read and for those it did
		# not name (unread).
		if [ -z "$(kernel_shaping <<< "$relevant")" ]; then
			sources_only=$(grep -c . <<< "$relevant")
			unread=$(kernel_unread "$bdir" <<< "$relevant" | grep -c . || true)
		fi
	fi
fi

build_args=(--kunitconfig="$TOP/kunitconfig" --jobs="$JOBS"
	    "--make_options=CC=$KERNEL_CC ${cross}gcc" "$(kunit_machine "$kernel")" --build_dir="$bdir")
for o in $(kernel_kconfig "$kernel"); do
	build_args+=(--kconfig_add="$o")
done
[ -z "$cflags" ] || build_args+=("--make_options=KCFLAGS=$cflags")
[ -z "$cross" ] || build_args+=(--cross_compile="$cross")

# parisc links the compiler's libgcc.a into vmlinux (arch/parisc/Makefile:
# libs-y += $(LIBGCC)), and the compile_commands.json that kunit.py builds
# with the kernel wants the .cmd file of every member of every archive that
# vmlinux links: libgcc's members have none ("No such file or directory:
# '._divI.o.cmd'").  An empty one is a .cmd file that gen_compile_commands.py
# skips.
if [[ $(make_arch "$kernel") = parisc* ]]; then
	for m in $("${cross}ar" t "$("${cross}gcc" -print-libgcc-file-name)"); do
		[ -e "$bdir/.$m.cmd" ] || : > "$bdir/.$m.cmd"
	done
fi

# distcc (lib.sh: distcc_hosts): the hosts that compile as this machine's
# compiler does, for this build's compilations that miss ccache.  What
# stays here: a source with .incbin (tools/bin/wbcc), the links, the host
# programs; and all of sh, whose C files load a GCC plugin that the workbench
# builds on this machine (KCFLAGS: -fplugin=), which no host has.
# distcc_fallbacks: what distcc compiled here after a host failed in the
# build (it says so on standard error, which the build's log holds).
distcc_fallbacks() {
	local n
	[ -n "${CCACHE_PREFIX:-}" ] || return 0
	n=$(grep -c 'running locally instead' "$log" || true)
	[ "$n" = 0 ] ||
		say "kernel $kernel: distcc: $n compilations ran here when a host failed (first: $(grep -m1 -E 'distcc\[[0-9]+\] (\([a-z_]+\) )?ERROR' "$log" |
			sed -E 's/.*ERROR: //' || echo 'distcc named no error'))"
}
unset CCACHE_PREFIX
if [ -n "${DISTCC_HOSTS:-}" ]; then
	if [[ " $cflags " = *" -fplugin="* ]]; then
		say "kernel $kernel: distcc: compiling here: its GCC plugin is on this machine only"
	else
		hosts=$(distcc_hosts "${cross}gcc" "$cflags" 2>"$LOGS/distcc-$kernel.log")
		while read -r l; do say "kernel $kernel: distcc: $l"; done < "$LOGS/distcc-$kernel.log"
		if [ -z "$(grep -v '^[-+]' <<< "$hosts")" ]; then
			say "kernel $kernel: distcc: no build host compiles as this machine's ${cross}gcc: compiling here"
		else
			DISTCC_HOSTS=$(echo $hosts)
			[ -n "$JOBS_GIVEN" ] || JOBS=$(distcc_jobs)
			export DISTCC_HOSTS CCACHE_PREFIX=distcc
			build_args=("${build_args[@]/#--jobs=*/--jobs=$JOBS}")
			say "kernel $kernel: distcc: compiling on $DISTCC_HOSTS, -j $JOBS"
		fi
	fi
fi

use_firmware "$kernel"
rm -f "$bdir/.workbench-built"
same=
state=$(tree_state)
take_slot "kernel $kernel"
t=$(date +%s)
rc=0
# The objects that this build compiles are those newer than this.
touch "$bdir/.workbench-since"
if [ -n "${sources_only:-}" ]; then
	# kunit.py build runs make olddefconfig, then make all
	# compile_commands.json scripts_gdb: a third of a minute on two
	# cores where the configuration, the compilation database and the
	# GDB scripts are what they were.  This is its make all, with the
	# same variables, so that kbuild sees the same commands.
	make_args=(ARCH="$(make_arch "$kernel")" O="$bdir" --jobs="$JOBS" "CC=$KERNEL_CC ${cross}gcc")
	[ -z "$cflags" ] || make_args+=("KCFLAGS=$cflags")
	[ -z "$cross" ] || make_args+=(CROSS_COMPILE="$cross")
	# Objects first: where the change is to comments and blank lines
	# (lib.sh: comments_only) of files that go into objects alone
	# (objects_of), make compiles those; if each is byte for byte the
	# object it was, so is the image (the link is reproducible, above),
	# and make all would only link it again.  A change of code goes to
	# make all at once.
	# shellcheck disable=SC2086
	if comments_only "$was_tree" "$tree" $relevant && objs=$(objects_of "$bdir" <<< "$relevant"); then
		was=$bdir/.workbench-was
		rm -rf "$was"
		same=yes
		for o in $objs; do
			mkdir -p "$was/$(dirname "$o")"
			cp -p "$bdir/$o" "$was/$o" 2>/dev/null || same=
		done
		if [ -n "$same" ]; then
			say "kernel $kernel: compiling the $(wc -w <<< "$objs") objects that the $sources_only changed files go into, from $source ($objs)"
			# shellcheck disable=SC2086
			alive "kernel $kernel" "$log.objects" bash -c 'echo "Building with:"; echo "\$ make $*"; exec make "$@"' \
				make-objects "${make_args[@]}" $objs || same=
			for o in $objs; do
				[ -z "$same" ] || cmp -s "$bdir/$o" "$was/$o" || same=
			done
		fi
		rm -rf "$was"
	fi
	if [ -n "$same" ]; then
		say "kernel $kernel: each object is the one it was: the image is the one it was, and it is not linked again"
		mv "$log.objects" "$log"
	else
		why="the $sources_only changed files it reads"
		[ "${unread:-0}" = 0 ] || why="the $((sources_only - unread)) changed files it reads and $unread that no rule of its last build named ($(kernel_unread "$bdir" <<< "$relevant" | head -3 | paste -sd' '))"
		say "kernel $kernel: building from $source with make all, for $why (${cross}gcc, ccache but for .incbin sources)"
		alive "kernel $kernel" "$log" bash -c 'echo "Building with:"; echo "\$ make all $*"; exec make all "$@"' \
			make-all "${make_args[@]}" || rc=$?
		[ ! -f "$log.objects" ] || { cat "$log.objects" "$log" > "$log.all" && mv "$log.all" "$log"; }
	fi
	rm -f "$log.objects"
else
	say "kernel $kernel: building from $source (${cross}gcc, ccache but for .incbin sources)"
	alive "kernel $kernel" "$log" python3 tools/testing/kunit/kunit.py build "${build_args[@]}" || rc=$?
fi
secs=$(( $(date +%s) - t ))
if [ "$(tree_state)" != "$state" ]; then
	status="the tree changed during the build (was $source, now $(tree_source))"
elif [ $rc -ne 0 ]; then
	why=$(fault_reason "$log")
	status="FAILED: the kernel did not build${why:+: $why}"
elif [ "$(make_arch "$kernel")" = sh ] &&
     ! python3 "$TOP/tools/sh/tbit_scan.py" --noreturns "$TREE/tools/objtool/noreturns.h" "${cross}objdump" \
	$(c_objects "$bdir" ${sources_only:+"$bdir/.workbench-since"} | sed "s|^|$bdir/|") \
	> "$LOGS/tbit-$kernel.log" 2>&1; then
	# Every object that an sh build compiled from C: no branch on a T
	# bit that its path did not set (what GCC 12's sh_treg_combine
	# makes; tools/sh/).  Assembly has its own conventions for T
	# across its labels, and no compiler pass in its way.  After make
	# alone, the objects it compiled: the build before it, with the
	# same inputs, scanned the others.
	status="FAILED: $(tail -1 "$LOGS/tbit-$kernel.log" | sed 's/^tbit_scan: //') (first: $(head -1 "$LOGS/tbit-$kernel.log"))"
else
	[ "$(make_arch "$kernel")" != sh ] || say "kernel $kernel: $(tail -1 "$LOGS/tbit-$kernel.log")"
	if [ -n "$same" ]; then
		# The objects' .cmd files are all that changed: what they read
		# now joins what the build read.
		# shellcheck disable=SC2086
		{ cat "$bdir/.workbench-reads"; kernel_deps "$bdir" $objs; } | sort -u > "$bdir/.workbench-reads.new"
		mv "$bdir/.workbench-reads.new" "$bdir/.workbench-reads"
	else
		kernel_deps "$bdir" > "$bdir/.workbench-reads"
	fi
	[ -z "$tree" ] || echo "$inputs $tree $(config_sum "$bdir")" > "$bdir/.workbench-built"
	echo "$tree" > "$bdir/.workbench-tree"
	say "kernel $kernel: built in ${secs}s ($(grep -c . "$bdir/.workbench-reads") files of the tree go into it)"
	distcc_fallbacks
	exit 0
fi
say "kernel $kernel: $status (log: $log)"
distcc_fallbacks
grep -E 'error|Error' "$log" | head -20 | sed "s/^/  kernel $kernel: /" || true
record "$kernel.0kunit" "$status" 0 1 0 "$log" "$secs"
exit 1
