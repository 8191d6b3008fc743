#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# codegen.sh [TARGET...]: "no codegen change", measured.  Build the objects
# that the series' kernel patches change, at base and at the last patch of
# series/, and compare them function by function (tools/codegen.py, where
# every difference must be one that a changelog explains), with
# scripts/bloat-o-meter's sizes.  A
# target is a kernel of the matrix, with the .config that kernel.sh made for
# it (the KUnit suite itself turned off), or an architecture the matrix does
# not boot, with a defconfig that has what the series changes (COMPAT),
# and the options after a "+" in its config column turned on.
. "$(dirname "$0")/lib.sh"

# target  make ARCH  cross prefix  config  objects
CODEGEN_TARGETS='
x86_64	x86_64	-	kunit	fs/read_write.o arch/x86/kernel/sys_ia32.o
i386	i386	i686-linux-gnu-	kunit	fs/read_write.o arch/x86/kernel/sys_ia32.o
mips	mips	mips-linux-gnu-	kunit	fs/read_write.o
mipsel	mips	mipsel-linux-gnu-	kunit	fs/read_write.o
mips64	mips	mips64-linux-gnuabi64-	kunit	fs/read_write.o fs/open.o arch/mips/kernel/linux32.o
mips64el	mips	mips64el-linux-gnuabi64-	kunit	fs/read_write.o fs/open.o arch/mips/kernel/linux32.o
ppc64	powerpc	powerpc64-linux-gnu-	ppc64_defconfig	fs/read_write.o arch/powerpc/kernel/sys_ppc32.o arch/powerpc/kernel/syscalls.o
ppc32	powerpc	powerpc-linux-gnu-	pmac32_defconfig	fs/read_write.o arch/powerpc/kernel/sys_ppc32.o arch/powerpc/kernel/syscalls.o
arm64	arm64	aarch64-linux-gnu-	defconfig	fs/read_write.o fs/open.o arch/arm64/kernel/sys32.o
sh	sh	sh4-linux-gnu-	defconfig	fs/read_write.o arch/sh/kernel/sys_sh32.o
shbe	sh	sh4-linux-gnu-	defconfig+CPU_BIG_ENDIAN	fs/read_write.o arch/sh/kernel/sys_sh32.o
sparc64	sparc	sparc64-linux-gnu-	sparc64_defconfig	fs/read_write.o fs/open.o fs/sync.o mm/fadvise.o mm/readahead.o arch/sparc/kernel/sys_sparc32.o
parisc	parisc	hppa-linux-gnu-	generic-32bit_defconfig	fs/read_write.o arch/parisc/kernel/sys_parisc.o
parisc64	parisc64	hppa64-linux-gnu-	generic-64bit_defconfig	fs/read_write.o arch/parisc/kernel/sys_parisc.o
'
ALL_TARGETS=$(awk 'NF { printf "%s ", $1 }' <<< "$CODEGEN_TARGETS")

hold_applied "$@"
mkdir -p "$LOGS"
npatches=$(ls "$TOP"/series/0*.patch | grep -vc 0000-cover-letter)
after=$(git -C "$TREE" rev-list --reverse base..HEAD | sed -n "${npatches}p")
src=$BUILD/codegen-src
if [ ! -d "$src" ]; then
	git -C "$TREE" worktree add -q --detach "$src" base
fi

rc=0
for target in ${*:-$ALL_TARGETS}; do
	row=$(awk -v t="$target" '$1 == t' <<< "$CODEGEN_TARGETS")
	[ -n "$row" ] || die "codegen: unknown target '$target' (known: $ALL_TARGETS)"
	read -r _ march cross config objs <<< "$row"
	[ "$cross" != - ] || cross=
	command -v "${cross}gcc" >/dev/null || die "${cross}gcc not found (make deps)"
	if [ "$config" = kunit ]; then
		[ -f "$BUILD/kunit-$target/.config" ] ||
			die "no $BUILD/kunit-$target/.config: run make run ARCH=$target first"
	fi
	# sh: Debian 12's GCC 12 with the plugin that makes it fit
	# (tools/sh/compiler.sh).
	cflags=
	if [ "$march" = sh ]; then
		cflags=$("$TOP/tools/sh/compiler.sh") || die "codegen $target: no sh compiler fit to build it"
	fi
	for rev in base "$after"; do
		o=$BUILD/codegen-$target/$( [ "$rev" = base ] && echo base || echo series)
		mkdir -p "$o"
		git -C "$src" checkout -q --detach "$rev"
		mk=(make -s -C "$src" O="$o" ARCH="$march" CROSS_COMPILE="$cross" CC="$KERNEL_CC ${cross}gcc"
		    ${cflags:+"KCFLAGS=$cflags"})
		if [ "$config" = kunit ]; then
			sed '/CONFIG_READ_WRITE_KUNIT_TEST\|CONFIG_COMPAT_ARG_U64_KUNIT_TEST/d' \
				"$BUILD/kunit-$target/.config" > "$o/.config"
		else
			config_fragment "$o" "$config" "${mk[@]}" >"$LOGS/codegen-$target.log" 2>&1 ||
				{ cat "$LOGS/codegen-$target.log"; die "codegen $target: $config failed"; }
		fi
		say "codegen $target: building $objs at $(git -C "$src" log -1 --format=%s "$rev" | cut -c1-50)"
		# shellcheck disable=SC2086
		"${mk[@]}" olddefconfig $objs -j"$JOBS" >>"$LOGS/codegen-$target.log" 2>&1 ||
			{ cat "$LOGS/codegen-$target.log"; die "codegen $target: build failed"; }
		for opt in $(tr '+' ' ' <<< "${config#"${config%%+*}"}"); do
			grep -qx "CONFIG_$opt=y" "$o/.config" || die "codegen $target: CONFIG_$opt did not hold"
		done
		if [ "$march" = sh ]; then
			# shellcheck disable=SC2086
			python3 "$TOP/tools/sh/tbit_scan.py" --noreturns "$src/tools/objtool/noreturns.h" "${cross}objdump" $(cd "$o" && printf "$o/%s " $objs) \
				> "$LOGS/codegen-$target-tbit.log" ||
				{ cat "$LOGS/codegen-$target-tbit.log"; die "codegen $target: branches on T not set"; }
			say "codegen $target: $(tail -1 "$LOGS/codegen-$target-tbit.log")"
		fi
	done
	# Function by function, across the objects (tools/codegen.py),
	# with bloat-o-meter's sizes of each object.
	for obj in $objs; do
		say "codegen $target: $obj: $("$TREE/scripts/bloat-o-meter" "$BUILD/codegen-$target/base/$obj" \
			"$BUILD/codegen-$target/series/$obj" | sed -n 1p)"
	done
	if python3 "$TOP/tools/codegen.py" "$target" "${cross}objdump" "$BUILD/codegen-$target/base" \
		"$BUILD/codegen-$target/series" $objs > "$LOGS/codegen-$target.report"; then
		sed "s/^/  codegen $target: /" "$LOGS/codegen-$target.report"
	else
		sed "s/^/  codegen $target: /" "$LOGS/codegen-$target.report"
		say "codegen $target: CODE DIFFERS where no changelog explains it"
		rc=1
	fi
done
exit $rc
