#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# objects.sh [KERNEL...]: the objects of each kernel's last build (its
# kunit.py build dir, without the host tools of scripts/ and tools/), in
# all and in the places that options of the top-level kunitconfig build
# into: the block layer, which it turns on for the selftests' loop device,
# and those it (or a kernel's column of tools/lib.sh) switches off (by
# directory and file, as their Makefiles place them).
# It reads build dirs only and builds nothing.
. "$(dirname "$0")/lib.sh"

# name<TAB>the objects' paths (an extended regex)
GROUPS_TABLE='
BLOCK	^block/|^drivers/block/|^drivers/s390/block/|^fs/iomap/|^fs/(buffer|mpage|direct-io|bdev)\.o$|^mm/(swap_state|swapfile|swap_slots|page_io)\.o$|^lib/sbitmap\.o$
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
KALLSYMS	^kernel/kallsyms\.o$
EFI,DMI	^drivers/firmware/(efi/|dmi)|^arch/arm64/kernel/efi|^fs/efivarfs/
FILE_LOCKING	^fs/locks\.o$
AIO,EPOLL,SIGNALFD,TIMERFD,FHANDLE	^fs/(aio|eventpoll|signalfd|timerfd|fhandle)\.o$|^fs/exportfs/
COREDUMP	^fs/coredump\.o$|^arch/arm64/kernel/elfcore\.o$
SECCOMP	^kernel/seccomp\.o$
RSEQ	^kernel/rseq\.o$
CROSS_MEMORY_ATTACH	^mm/process_vm_access\.o$
COMPACTION	^mm/migrate\.o$
x86	^arch/x86/(kernel/(espfix_64|ldt|pcspeaker|callthunks)\.o|entry/vsyscall/|(boot/compressed|lib|mm)/kaslr\.o|lib/retpoline\.o|mm/pti\.o)|^mm/execmem\.o$
PPC_POWERNV,PPC_PMAC	^arch/powerpc/(platforms/(powernv|powermac)/|sysdev/(xive/native|xics/ic[ps]-opal|dart_iommu)\.o$|boot/opal)|^drivers/(misc/cxl/|macintosh/|cpufreq/|cpuidle/cpuidle-powernv|hwmon/ibmpowernv|char/powernv|tty/hvc/hvc_opal)
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
		objs=$(build_objects "$bdir")
		printf '%s %d' "$kernel" "$(grep -c . <<< "$objs")"
		while IFS='	' read -r name re; do
			[ -z "$name" ] || printf ' %d' "$(grep -cE "$re" <<< "$objs" || true)"
		done <<< "$GROUPS_TABLE"
		echo
	done
}
table "$@" | column -t
