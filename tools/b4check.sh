#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# b4check.sh: what a maintainer receives goes through b4 and git am.  The
# exported series (make format-patch) is made into one mbox as git
# send-email sends it: a Message-Id on every message, the patches in reply
# to the cover letter.  b4 am reads it (-m -: through git mailsplit) and
# writes its am-ready mbox, which git am applies to a worktree of the
# base.  Checked: b4 takes all the patches; the result is the tested tree,
# file for file; each commit's message is the exported patch's, trailers
# included (the person's Signed-off-by:, Assisted-by:).
#
# The export names its base (v7.3.4) and carries no base-commit: the
# workbench's import of Debian's tarball is a commit no other tree has.
# The blob ids of the patches' index lines are upstream's (the files the
# series touches are upstream's, make debian-patches), and b4 am
# --guess-base finds the base by them.  Checked in a scratch repository
# whose history has the pristine tree as one commit among others (a tree
# before it, tagged as a release is, and one after it, each with a file of
# the series changed): b4 names that commit, and no other.
. "$(dirname "$0")/lib.sh"

command -v b4 >/dev/null || die "b4 not found (make deps)"
commit=$("$TOP/tools/apply.sh" --commit-only)
patches=("$OUT"/series/0*.patch)
[ -f "${patches[0]}" ] || die "no $OUT/series: make format-patch first"
expected=$(( ${#patches[@]} - 1 ))

tmp=$(mktemp -d)
trap 'git -C "$TREE" worktree remove -f "$tmp/wt" >/dev/null 2>&1; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

n=0
for p in "${patches[@]}"; do
	id="<b4check.$n@workbench.invalid>"
	if [ "$n" = 0 ]; then
		hdr="Message-Id: $id"
	else
		hdr="Message-Id: $id"$'\n'"In-Reply-To: <b4check.0@workbench.invalid>"$'\n'"References: <b4check.0@workbench.invalid>"
	fi
	awk -v h="$hdr" 'NR == 1 { print; print h; next } { print }' "$p"
	n=$((n + 1))
done > "$tmp/series.mbox"

mkdir -p "$tmp/am"
if ! (cd "$tmp" && b4 am -m - -o am < series.mbox) > "$tmp/b4.log" 2>&1; then
	cat "$tmp/b4.log"
	die "b4check: b4 am failed"
fi
mbx=$(ls "$tmp"/am/*.mbx 2>/dev/null | head -1)
[ -n "$mbx" ] || { cat "$tmp/b4.log"; die "b4check: b4 am wrote no mbox"; }
got=$(grep -c '^Subject: \[PATCH' "$mbx" || true)
say "b4check: b4 $(b4 --version) took $got of $expected patches ($(grep -c '^Ignoring' "$tmp/b4.log" || true) lines it took for trailers and ignored)"

git -C "$TREE" worktree add -q --detach "$tmp/wt" base
if ! git -C "$tmp/wt" -c user.name=b4check -c user.email=b4check@workbench.invalid am -q "$mbx" > "$tmp/am.log" 2>&1; then
	cat "$tmp/am.log"
	die "b4check: git am of b4's mbox failed on linux $(base_version)"
fi
rc=0
if git -C "$tmp/wt" diff --quiet "$commit" HEAD; then
	say "b4check: git am on the base gives the tested tree, file for file"
else
	say "b4check: FAILED, git am gives another tree than the tested one:"
	git -C "$tmp/wt" diff --stat "$commit" HEAD
	rc=1
fi
[ "$got" = "$expected" ] || { say "b4check: FAILED, b4 took $got patches of $expected"; rc=1; }

# No object id of the workbench's own in what is sent.
if grep -q '^base-commit:' "${patches[@]}"; then
	say "b4check: FAILED, a base-commit: line names the workbench's own import commit"
	rc=1
fi

# The base, guessed by b4 from the blob ids alone, in a history of three
# trees: the base with sys_ia32.c changed (tagged), the base, the base with
# read_write.c changed; dated in the two weeks before the export that b4
# looks back.
gb=$tmp/guess
git init -q "$gb"
echo "$TREE/.git/objects" > "$gb/.git/objects/info/alternates"
other_tree() {	# other_tree FILE: the base's tree with FILE changed
	local b
	b=$({ git -C "$TREE" show "base:$1"; echo "/* another version (tools/b4check.sh) */"; } |
		git -C "$gb" hash-object -w --stdin)
	rm -f "$gb/.git/idx"
	GIT_INDEX_FILE=$gb/.git/idx git -C "$gb" read-tree "$(git -C "$TREE" rev-parse 'base^{tree}')" &&
	GIT_INDEX_FILE=$gb/.git/idx git -C "$gb" update-index --cacheinfo "100644,$b,$1" &&
	GIT_INDEX_FILE=$gb/.git/idx git -C "$gb" write-tree
}
at() { date -u -d "@$(( $(date +%s) - $1 * 86400 ))" '+%Y-%m-%dT%H:%M:%SZ'; }
c0=$(GIT_AUTHOR_DATE=$(at 3) GIT_COMMITTER_DATE=$(at 3) git -C "$gb" commit-tree \
	"$(other_tree arch/x86/kernel/sys_ia32.c)" -m "a tree before the base")
c1=$(GIT_AUTHOR_DATE=$(at 2) GIT_COMMITTER_DATE=$(at 2) git -C "$gb" commit-tree \
	"$(git -C "$TREE" rev-parse 'base^{tree}')" -p "$c0" -m "the base")
c2=$(GIT_AUTHOR_DATE=$(at 1) GIT_COMMITTER_DATE=$(at 1) git -C "$gb" commit-tree \
	"$(other_tree fs/read_write.c)" -p "$c1" -m "a tree after the base")
git -C "$gb" update-ref refs/heads/master "$c2"
git -C "$gb" tag before "$c0"
mkdir -p "$tmp/guess-am"
if (cd "$gb" && b4 am -g -m - -o "$tmp/guess-am" < "$tmp/series.mbox") > "$tmp/guess.log" 2>&1 &&
   guess=$(sed -n 's/^ *Base: \(.*\) (.*)$/\1/p; s/^ *Base: \([^ ]*\)$/\1/p' "$tmp/guess.log" | grep -v '^attempting' | head -1) &&
   [ -n "$guess" ] && [ "$(git -C "$gb" rev-parse -q --verify "$guess^{commit}")" = "$c1" ]; then
	say "b4check: b4 am --guess-base finds the base by the blob ids: $guess, the base's tree, of the three"
else
	say "b4check: FAILED, b4 am --guess-base did not find the base's tree ($c1): $(grep 'Base:' "$tmp/guess.log" | tail -1)"
	rc=1
fi

# Each commit's message against its patch's: the text above the "---".
i=0
for c in $(git -C "$tmp/wt" rev-list --reverse base..HEAD); do
	i=$((i + 1))
	p=${patches[$i]}
	want=$(awk '/^Subject: /{ s = 1; next } s && /^$/ { b = 1; next } b && /^---$/ { exit } b' "$p")
	have=$(git -C "$tmp/wt" log -1 --format=%b "$c")
	if [ "$(sed '/^$/d' <<< "$want")" = "$(sed '/^$/d' <<< "$have")" ]; then
		say "b4check: $i: message and trailers kept ($(git -C "$tmp/wt" log -1 --format='%(trailers:only,unfold)' "$c" | cut -d: -f1 | grep . | paste -sd' '))"
	else
		say "b4check: FAILED, $i: the message differs from $(basename "$p"):"
		diff <(echo "$want") <(echo "$have") | head -20
		rc=1
	fi
done
exit $rc
