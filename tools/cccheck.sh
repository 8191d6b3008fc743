#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# cccheck.sh: the kernel builds' CC (KERNEL_CC, tools/lib.sh) must not
# return an object built from another file that its source embeds with
# .incbin.  Two builds of one piggy.S, as arch/x86/boot/compressed makes
# it, whose payloads differ but have the same size (so piggy.S is the same
# byte for byte), with a ccache of its own in the mode the builds use;
# the second object must hold the second payload.  CHECK_CC="ccache"
# shows what plain ccache in depend mode does.
. "$(dirname "$0")/lib.sh"

cc=${CHECK_CC:-$KERNEL_CC}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
export CCACHE_DIR=$d/ccache
cd "$d"
cat > piggy.S <<'S'
	.section ".rodata..compressed","a",@progbits
	.globl input_data
input_data:
	.incbin "payload.bin"
S
for n in 1 2; do
	head -c 4096 /dev/urandom > payload.bin
	# As kbuild compiles it: a dependency file, through ccache.
	$cc gcc -Wp,-MMD,.piggy.o.d -c piggy.S -o piggy.o ||
		die "cccheck: $cc gcc cannot compile piggy.S"
	objcopy -O binary --only-section=.rodata..compressed piggy.o got.bin
	if ! cmp -s got.bin payload.bin; then
		say "cccheck: FAILED: with CC=\"$cc gcc\", build $n of piggy.S holds an older payload of the same size"
		exit 1
	fi
done
say "cccheck: ok: CC=\"$cc gcc\" rebuilt piggy.o with its new payload of the same size"
