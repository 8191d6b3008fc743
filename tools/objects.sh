#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# objects.sh [KERNEL...]: the objects of each kernel's last build (its
# kunit.py build dir, without the host tools of scripts/ and tools/), in
# all and in the places that the options the top-level kunitconfig switches
# off build into (by directory and file, as their Makefiles place them).
# It reads build dirs only and builds nothing.
. "$(dirname "$0")/lib.sh"

# name<TAB>the objects' paths (an extended regex)
GROUPS_TABLE='
BLOCK	^block/|^fs/iomap/|^fs/(buffer|mpage|direct-io|bdev)\.o$|^mm/(swap_state|swapfile|swap_slots|page_io)\.o$|^lib/sbitmap\.o$
IO_URING	^io_uring/
ETHTOOL_NETLINK	^net/ethtool/
INPUT,VT,SERIO	^drivers/(input|hid)/|^drivers/tty/vt/|^drivers/video/console/
RD_*	^lib/(zstd|xz|zlib_inflate|lzo|lz4)/|^lib/decompress_|^lib/xxhash\.o$
PM,SUSPEND,HIBERNATION	^kernel/power/|^drivers/base/power/
HW_RANDOM	^drivers/char/hw_random/
RTC_CLASS	^drivers/rtc/
IOMMU_SUPPORT	^drivers/iommu/
X86_MCE	^arch/x86/kernel/cpu/mce/
FTRACE	^kernel/trace/
'

[ $# -gt 0 ] || set -- $KERNELS
table() {
	printf 'kernel objects'
	while IFS='	' read -r name _; do
		[ -z "$name" ] || printf ' %s' "$name"
	done <<< "$GROUPS_TABLE"
	echo
	for kernel in "$@"; do
		bdir=$(kbuild_dir "$kernel")
		[ -f "$bdir/.config" ] || die "objects $kernel: no build in $bdir"
		objs=$(cd "$bdir" && find . -name '*.o' ! -path './scripts/*' ! -path './tools/*' \
			! -name '.tmp_*' ! -name vmlinux.o | sed 's#^\./##')
		printf '%s %d' "$kernel" "$(grep -c . <<< "$objs")"
		while IFS='	' read -r name re; do
			[ -z "$name" ] || printf ' %d' "$(grep -cE "$re" <<< "$objs" || true)"
		done <<< "$GROUPS_TABLE"
		echo
	done
}
table "$@" | column -t
