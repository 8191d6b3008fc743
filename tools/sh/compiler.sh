#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# sh/compiler.sh [--plain]: make Debian 12's sh4-linux-gnu-gcc (GCC 12)
# fit to build the sh kernels, and print the compiler flags that do it:
# -fplugin= the plugin of tools/sh/no_treg_combine.c, which switches off
# the pass that miscompiles (its comment says how).  The plugin is built
# once per plugin source and compiler (gcc-12-plugin-dev-sh4-linux-gnu,
# which make deps installs), into $BUILD/sh4-plugin/<hash of both>/, so
# that ccache, which keys a compile by the plugin's path, never mixes
# objects of two plugins.
#
# Before it prints the flags, the compiler must pass the self-test: the
# reproducer below, whose "if (p)" GCC 12 turns into a bf that no tst
# precedes, must compile with a tst before its branch; else it stops with
# the reason, and so does the sh row.  --plain: the self-test on the
# compiler without the plugin (which fails with GCC 12).
. "$(dirname "$0")/../lib.sh"

CC=sh4-linux-gnu-gcc
command -v "$CC" >/dev/null || die "no $CC (make deps installs gcc-sh4-linux-gnu)"
plugin_dir=$("$CC" -print-file-name=plugin)
[ -f "$plugin_dir/include/gcc-plugin.h" ] ||
	die "no GCC plugin headers for $CC in $plugin_dir (make deps installs gcc-12-plugin-dev-sh4-linux-gnu)"
src=$TOP/tools/sh/no_treg_combine.c
key=$({ cat "$src"; "$CC" --version | head -1; sha256sum < "$(command -v "$CC")"; } | sha256sum | cut -c1-16)
dir=$BUILD/sh4-plugin/$key
so=$dir/no_treg_combine.so

if [ "${1:-}" != --plain ] && [ ! -s "$so" ]; then
	mkdir -p "$dir"
	g++ -shared -fPIC -fno-rtti -O2 -I"$plugin_dir/include" -o "$so.tmp" "$src" 2>"$dir/build.log" ||
		die "sh compiler: the plugin does not build (log: $dir/build.log)"
	mv "$so.tmp" "$so"
fi
flags=
[ "${1:-}" = --plain ] || flags=-fplugin=$so

# The self-test: f() loads p and must test it (tst) before it branches on
# it.  GCC 12 without the plugin branches on whatever T held.
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
cat > "$t/repro.c" <<'EOF'
extern int *gp;
extern int g(int);
int f(void)
{
	int *p = gp;

	if (p)
		return g(*p);
	return 0;
}
EOF
# shellcheck disable=SC2086
"$CC" $flags -O2 -S -o "$t/repro.s" "$t/repro.c" || die "sh compiler: the self-test does not compile"
first=$(awk '/^f:/ { on = 1; next } on && /^\t(tst|bt|bf)/ { print $1; exit }' "$t/repro.s")
if [ "$first" != tst ]; then
	echo "sh compiler: $CC${flags:+ $flags} -O2 compiles the self-test's \"if (p)\" into a $first with no tst before it:" >&2
	sed -n '/^f:/,/^\.L5:/p' "$t/repro.s" | head -12 >&2
	die "sh compiler: $CC${flags:+ with $flags} miscompiles (GCC 12's sh_treg_combine: tools/sh/no_treg_combine.c)"
fi
echo "$flags"
