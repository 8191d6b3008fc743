#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# apply.sh [--commit-only]: turn the base tree into base + the series, as
# commits on branch "series":
#   series/0*.patch (git am, in order; the cover letter is not a commit),
#   then each directory of kunit/, in order, and selftests/ (their files,
#   hooks.diff and COMMIT_MSG), each with the F: lines of
#   MAINTAINERS.snippet that cover files it added.
# The commits are made in a scratch worktree ($BUILD/apply), once per set
# of inputs: the result is kept as refs/workbench/applied/<inputs hash>,
# so that a clone that comes back to the same inputs gets the same commit.
# The tree then checks out the result, which rewrites only the files that
# differ from what it had, so that the kernel builds see unchanged files as
# unchanged.  Nothing at all is done when the tree has it already.
# --commit-only: make (or find) the commit and print it; the checked-out
# tree is not touched, so that make format-patch does not wait for a run
# that builds from it.
. "$(dirname "$0")/lib.sh"

only=
[ "${1:-}" != --commit-only ] || only=yes
# The locks are taken in one order, $BUILD's first (lib.sh: hold_build).
[ -n "$only" ] || hold_build apply

"$TOP/tools/tree.sh" >&2
cd "$TREE"

ref=$(applied_ref)

# The scratch worktree has a lock of its own: making a commit does not
# wait for a run that holds $BUILD (hold_build), and two clones do not
# make commits in it at once.
exec 8>>"$BUILD/.apply-lock"
flock -n 8 || { say "apply: waiting for another apply" >&2; flock 8; }

checkout() {
	[ -z "$only" ] || { echo "$1"; exit 0; }
	# Under the lock, a git index lock is one that a killed git left.
	if [ -e .git/index.lock ]; then
		say "apply: removing $TREE/.git/index.lock, left by an interrupted git"
		rm -f .git/index.lock
	fi
	if [ "$(git rev-parse HEAD)" = "$1" ] && git diff --quiet HEAD; then
		say "apply: tree is up to date (linux $(base_version) + $(git rev-list --count base..HEAD) commits, $(tree_source))"
		exit 0
	fi
	git checkout -q -f -B series "$1"
	git clean -q -fdx
	say "apply: linux $(base_version) + $(git rev-list --count base..HEAD) commits ($(tree_source))"
	exit 0
}

if c=$(git rev-parse -q --verify "$ref^{commit}"); then
	checkout "$c"
fi

say "apply: applying the series to linux $(base_version)" >&2
wt=$BUILD/apply
# A worktree of a tree that was extracted or cloned anew is stale.
if [ "$(git -C "$wt" rev-parse --git-common-dir 2>/dev/null)" != "$TREE/.git" ]; then
	rm -rf "$wt"
	git worktree prune
	git worktree add -q --detach "$wt" base
fi
cd "$wt"
rm -f "$(git rev-parse --git-dir)/index.lock"
git am --abort >/dev/null 2>&1 || true
git checkout -q -f --detach base
git clean -q -fdx

# A commit's notes: what its patch says below "---" to the maintainers and
# not to the history (checkpatch.pl's findings that stay, and why: see
# tools/checkpatch.sh).  git format-patch --notes puts them there again.
set_note() {
	if [ -n "$1" ]; then
		git notes add -f -m "$1" HEAD 2>/dev/null
	fi
}

# The commit of a directory's sources: its files, hooks.diff, COMMIT_MSG
# (its message, and below a line "---" the commit's notes).
# Like the patches in series/, it is authored by the workbench's neutral
# identity: make format-patch gives every patch the exporting person's
# From: and Signed-off-by: (tools/format-patch.sh).
commit_dir() {
	local src=$1 dest=$2 dir=$TOP/$1
	[ -f "$dir/COMMIT_MSG" ] || die "$src/COMMIT_MSG is missing"
	mkdir -p "$dest"
	(cd "$dir" && find . -type f ! -name COMMIT_MSG ! -name hooks.diff -print0 |
		xargs -0 -I{} cp --parents {} "$wt/$dest/")
	if [ -f "$dir/hooks.diff" ]; then
		git apply --index "$dir/hooks.diff" ||
			die "$src/hooks.diff does not apply to linux $(base_version) + series"
	fi
	"$TOP/tools/maintainers.py" "$TOP/MAINTAINERS.snippet" .
	git add -f "$dest" MAINTAINERS
	git commit -q --author="$WORKBENCH_IDENT" -F <(sed '/^---$/,$d' "$dir/COMMIT_MSG")
	set_note "$(sed '1,/^---$/d' "$dir/COMMIT_MSG")"
	say "apply:   $(git log -1 --format=%s)" >&2
}

am_log=$(mktemp)
for p in "$TOP"/series/0*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	# A patch that the base has already (a subsystem tree that took it,
	# say) is left out of the tree, so of the export too: it does not
	# apply, and it reverts cleanly.
	if ! git apply --check "$p" 2>/dev/null &&
	   git apply --check -R "$p" 2>/dev/null; then
		say "apply:   left out, the base has it already: series/$(basename "$p")" >&2
		continue
	fi
	if ! git am -q --whitespace=error-all "$p" >"$am_log" 2>&1; then
		echo "error: series/$(basename "$p") does not apply to linux $(base_version)" >&2
		grep '^error:' "$am_log" >&2
		git am --abort >/dev/null 2>&1 || true
		echo "--- the failing hunks:" >&2
		git apply --check -v "$p" 2>&1 | grep -v '^Checking patch' >&2 || true
		exit 1
	fi
	set_note "$(note_of_patch "$p")"
	say "apply:   $(git log -1 --format=%s)" >&2
done
rm -f "$am_log"

# Each directory of kunit/ is a suite of its own, a commit of its own.
for d in "$TOP"/kunit/*/; do
	commit_dir "kunit/$(basename "$d")" .
done
commit_dir selftests tools/testing/selftests

new=$(git rev-parse HEAD)
git update-ref "$ref" "$new"
cd "$TREE"
checkout "$new"
