#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every exported patch, with its own counts, and
# get_maintainer.pl on it.  Non-zero on any error, warning or check.
# get_maintainer.pl must name no AI identity: only people receive and sign
# a series.
. "$(dirname "$0")/lib.sh"

# checkpatch.pl and get_maintainer.pl read the tree (MAINTAINERS).
hold_applied "$@"
cd "$TREE"
nogit=$(mktemp -d)
trap 'rm -rf "$nogit"' EXIT
rc=0
for p in "$OUT"/series/0*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	name=$(basename "$p")
	# From a directory that is not a git tree: the base is Debian's
	# tarball, without history, so checkpatch cannot look up a cited
	# commit (it checks the form, commit <12 digits> ("<title>"), and
	# leaves the lookup to a tree that has it).
	out=$(cd "$nogit" && "$TREE/scripts/checkpatch.pl" --strict --no-tree --show-types "$p" 2>&1) || true
	total=$(grep '^total:' <<< "$out" || echo "total: checkpatch printed no total")
	types=$(sed -n 's/^\(ERROR\|WARNING\|CHECK\):\([A-Z_]*\):.*/\2/p' <<< "$out" | sort -u)
	people=$(./scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats "$p" 2>/dev/null |
		 paste -sd, | sed 's/,/, /g')
	if grep -qiE 'claude|anthropic|openai|copilot' <<< "$people"; then
		say "checkpatch: $name: get_maintainer.pl names an AI identity: $people"
		rc=1
	fi
	say "checkpatch: $name: $total"
	if [ -n "$types" ]; then
		grep -E '^(ERROR|WARNING|CHECK):' -A3 <<< "$out"
		rc=1
	fi
	say "  get_maintainer.pl: $people"
done
exit $rc
