#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# matrix.sh [KERNEL...]: every row of each kernel (tools/lib.sh; run.sh: the
# KUnit suites and the selftests on each of its user ABIs, in one boot); a
# table, and the closing line "N passed, N failed, N skipped".  Exits
# non-zero on any failure.  MATRIX_PROCS kernels (default 6) go at once;
# of their kernel builds, selftest builds and boots, MATRIX_JOBS (default
# 2) run at once (lib.sh: take_slot): a QEMU run is one thread, and it runs
# while another kernel builds, and a kernel with none of them to do does
# not wait behind the others.  Their lines interleave, each prefixed with its kernel; the
# table is in the order of $KERNELS.
. "${0%/*}/lib.sh"

hold_applied "$@"
MATRIX_JOBS=${MATRIX_JOBS:-2}

# Each kernel in a process group of its own (setsid), which an interrupt
# of this script stops (and the traps of the scripts run.sh runs stop what
# they run).
pids=()
stop() {
	say "matrix: interrupted"
	for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
	wait
	exit 130
}
trap stop INT TERM HUP

if [ "${1:-}" = --one ]; then
	trap 'exit 130' INT TERM HUP
	"$TOP/tools/run.sh" "$2" || true
	exit 0
fi

rm -rf "$RESULTS"
export WORKBENCH_SLOTS=$MATRIX_JOBS
for kernel in ${*:-$KERNELS}; do
	while [ "$(jobs -rp | wc -l)" -ge "${MATRIX_PROCS:-6}" ]; do wait -n || true; done
	setsid "$0" --one "$kernel" &
	pids+=($!)
done
wait
"$TOP/tools/summary.sh"
