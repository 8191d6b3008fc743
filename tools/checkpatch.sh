#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every exported patch, and get_maintainer.pl on
# the files each adds; non-zero on any error, warning or check.
#
# checkpatch's FILE_PATH_CHANGES ("added, moved or deleted file(s), does
# MAINTAINERS need updating?") is a question, not a finding: it is asked of
# every patch that adds a file and does not touch MAINTAINERS.  It is
# answered here instead: every added file must be covered by a MAINTAINERS
# section other than THE REST.
. "$(dirname "$0")/lib.sh"

cd "$TREE"
rc=0
for p in "$OUT"/series/0*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	name=$(basename "$p")
	out=$(./scripts/checkpatch.pl --strict --no-tree -q --ignore FILE_PATH_CHANGES "$p" 2>&1) || true
	for f in $(sed -n '/^diff --git /{N;s|^diff --git a/\(.*\) b/.*\nnew file mode.*|\1|p}' "$p"); do
		sections=$(./scripts/get_maintainer.pl --no-git --no-git-fallback --sections -f "$f" |
			   grep -E '^[^[:space:]][^:]*$' | grep -vx 'THE REST' || true)
		[ -n "$sections" ] ||
			out+="${out:+$'\n'}ERROR: $f: no MAINTAINERS section but THE REST"
	done
	if [ -z "$out" ]; then
		say "checkpatch: $name: clean"
	else
		say "checkpatch: $name:"
		echo "$out"
		rc=1
	fi
done
exit $rc
