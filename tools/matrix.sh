#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# matrix.sh [KERNEL...]: for each kernel (tools/lib.sh), the KUnit suite and
# then the selftests on each of its user ABIs; a table, and the closing line
# "N passed, N failed, N skipped".  Exits non-zero on any failure.
. "$(dirname "$0")/lib.sh"

hold_applied "$@"
# An interrupt ends the run once the script that has it stopped its work.
trap 'say "matrix: interrupted"; exit 130' INT TERM HUP
rm -rf "$RESULTS"
for kernel in ${*:-$KERNELS}; do
	t=$(date +%s)
	"$TOP/tools/kunit.sh" "$kernel" || true
	"$TOP/tools/selftests.sh" "$kernel" || true
	say "$kernel: done in $(( $(date +%s) - t ))s"
done
"$TOP/tools/summary.sh"
