#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# otherarch.sh [TARGET...]: the series builds, with -Werror, on the COMPAT
# architectures that the matrix does not build: each includes
# <asm-generic/compat.h> and has compat system calls that take register
# pairs.  For each, at base and with the series, build with its defconfig
# with COMPAT and the KUnit suite (so the test file is compiled there too), the objects
# that the series changes and the generic users of compat_arg_u64().  x86_64
# and mips64 are built whole by the matrix and by make bisect.
. "$(dirname "$0")/lib.sh"

ALL_TARGETS=$(awk 'NF { printf "%s ", $1 }' <<< "$OTHERARCH_TARGETS")

hold_applied "$@"
mkdir -p "$LOGS"
src=$BUILD/codegen-src
[ -d "$src" ] || { git -C "$TREE" worktree prune; git -C "$TREE" worktree add -q --detach "$src" base; }
rc=0
for target in ${*:-$ALL_TARGETS}; do
	row=$(awk -v t="$target" '$1 == t' <<< "$OTHERARCH_TARGETS")
	[ -n "$row" ] || die "otherarch: unknown target '$target' (known: $ALL_TARGETS)"
	read -r _ march cross defconfig _ <<< "$row"
	command -v "${cross}gcc" >/dev/null || die "${cross}gcc not found (make deps)"
	cflags=-Werror
	if [ "$march" = sh ]; then
		cflags+=" $("$TOP/tools/sh/compiler.sh")" || die "otherarch $target: no sh compiler fit to build it"
	fi
	o=$BUILD/otherarch-$target
	for rev in base series; do
		git -C "$src" checkout -q --detach "$(git -C "$TREE" rev-parse "$rev")"
		objs=$(target_objs "$target" "$src")
		log=$LOGS/otherarch-$target-$rev.log
		say "otherarch $target: $defconfig, building $(wc -w <<< "$objs") objects at $rev"
		mk=(make -s -C "$src" O="$o" ARCH="$march" CROSS_COMPILE="$cross" CC="$KERNEL_CC ${cross}gcc")
		# shellcheck disable=SC2086
		if config_fragment "$o" "$defconfig" "${mk[@]}" >"$log" 2>&1 &&
		   "$src/scripts/config" --file "$o/.config" -e COMPAT -e KUNIT -e READ_WRITE_KUNIT_TEST \
			-e COMPAT_ARG_U64_KUNIT_TEST &&
		   "${mk[@]}" olddefconfig >>"$log" 2>&1 &&
		   "${mk[@]}" KCFLAGS="$cflags" $objs -j"$JOBS" >>"$log" 2>&1; then
			kunit=$(grep -c '^CONFIG_READ_WRITE_KUNIT_TEST=y' "$o/.config" || true)
			tbit=
			if [ "$march" = sh ]; then
				# shellcheck disable=SC2086
				python3 "$TOP/tools/sh/tbit_scan.py" --noreturns "$src/tools/objtool/noreturns.h" "${cross}objdump" $(printf "$o/%s " $objs) \
					> "$LOGS/otherarch-$target-$rev-tbit.log" ||
					{ cat "$LOGS/otherarch-$target-$rev-tbit.log"; rc=1; }
				tbit="; $(tail -1 "$LOGS/otherarch-$target-$rev-tbit.log")"
			fi
			say "otherarch $target at $rev: built, no warning$( [ "$kunit" = 1 ] && echo ', KUnit suite included')$tbit"
		else
			grep -E 'error|warning' "$log" | head -20
			say "otherarch $target at $rev: FAILED (log: $log)"
			rc=1
		fi
	done
done
exit $rc
