#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# matrix.sh [KERNEL...]: for each kernel (tools/lib.sh), the KUnit suite and
# then the selftests on each of its user ABIs; a table, and the closing line
# "N passed, N failed, N skipped".  Exits non-zero on any failure.
. "$(dirname "$0")/lib.sh"

rm -rf "$RESULTS"
for kernel in ${*:-$KERNELS}; do
	t=$(date +%s)
	"$TOP/tools/kunit.sh" "$kernel" || true
	"$TOP/tools/selftests.sh" "$kernel" || true
	say "$kernel: done in $(( $(date +%s) - t ))s"
done
"$TOP/tools/summary.sh"
