#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run.sh KERNEL: every row of KERNEL: build the kernel (tools/kernel.sh),
# the selftests and the initramfs (tools/selftests.sh), and boot it once
# (tools/boot.sh), which gives the KUnit row and a row per user ABI.
# Exits non-zero if any row failed.
. "${0%/*}/lib.sh"

kernel=${1:?usage: run.sh KERNEL}
kernel_field "$kernel" 1 >/dev/null
hold_applied "$@"
rc=0
t=$(date +%s)
"$TOP/tools/kernel.sh" "$kernel" || rc=1
if [ "$(kernel_arch "$kernel")" != um ]; then
	"$TOP/tools/selftests.sh" "$kernel" || rc=1
fi
# Without an image, boot.sh fails the rows that kernel.sh has not.
"$TOP/tools/boot.sh" "$kernel" || rc=1
say "$kernel: done in $(( $(date +%s) - t ))s"
exit $rc
