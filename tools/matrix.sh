#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# matrix.sh [ARCH...]: for each kernel, the KUnit suite and then the
# selftests on each of its user ABIs; a table, and the closing line
# "N passed, N failed, N skipped".  Exits non-zero on any failure.
. "$(dirname "$0")/lib.sh"

arches=${*:-$KUNIT_ARCHES}
rm -rf "$RESULTS"
for arch in $arches; do
	t=$(date +%s)
	"$TOP/tools/kunit.sh" "$arch" || true
	"$TOP/tools/selftests.sh" "$arch" || true
	say "$arch: done in $(( $(date +%s) - t ))s"
done
"$TOP/tools/summary.sh"
