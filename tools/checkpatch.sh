#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every exported patch, run in the tree as a
# maintainer runs it, with its own counts, and get_maintainer.pl on it.
# Non-zero on any error, warning or check that the patch does not name
# below its "---" (its notes: "- TYPE: why", tools/apply.sh), and on a
# type named there that checkpatch.pl no longer reports.
# get_maintainer.pl must name no AI identity: only people receive and sign
# a series.
. "$(dirname "$0")/lib.sh"

# checkpatch.pl and get_maintainer.pl read the tree (MAINTAINERS).
hold_applied "$@"
cd "$TREE"
# The base is Debian's tarball, committed without history: checkpatch.pl's
# lookup of a cited commit (commit <id> ("<title>")) is answered from
# tools/cited-commits by tools/checkpatch-git/git, as a tree that has the
# commit would answer it, title included.  GIT_DIR is an empty directory:
# checkpatch.pl asks git only where it exists.
nogit=$(mktemp -d)
trap 'rm -rf "$nogit"' EXIT
rc=0
for p in "$OUT"/series/0*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	name=$(basename "$p")
	out=$(GIT_DIR=$nogit PATH="$TOP/tools/checkpatch-git:$PATH" \
	      ./scripts/checkpatch.pl --strict --show-types "$p" 2>&1) || true
	total=$(grep '^total:' <<< "$out" || echo "total: checkpatch printed no total")
	types=$(sed -n 's/^\(ERROR\|WARNING\|CHECK\):\([A-Z_]*\):.*/\2/p' <<< "$out" | sort -u)
	named=$(note_of_patch "$p" | sed -n 's/^- \([A-Z_]*\):.*/\1/p' | sort -u)
	unnamed=$(comm -23 <(echo "$types" | sed '/^$/d') <(echo "$named" | sed '/^$/d'))
	stale=$(comm -13 <(echo "$types" | sed '/^$/d') <(echo "$named" | sed '/^$/d'))
	people=$(./scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats "$p" 2>/dev/null |
		 paste -sd, | sed 's/,/, /g')
	if grep -qiE 'claude|anthropic|openai|copilot' <<< "$people"; then
		say "checkpatch: $name: get_maintainer.pl names an AI identity: $people"
		rc=1
	fi
	say "checkpatch: $name: $total${named:+ (named below ---: $(echo $named))}"
	if [ -n "$unnamed" ]; then
		grep -E "^(ERROR|WARNING|CHECK):($(echo $unnamed | tr ' ' '|')):" -A3 <<< "$out"
		rc=1
	fi
	if [ -n "$stale" ]; then
		say "checkpatch: $name: named below --- but not reported: $(echo $stale)"
		rc=1
	fi
	say "  get_maintainer.pl: $people"
done
exit $rc
