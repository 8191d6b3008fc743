#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# apply.sh [--commit-only]: turn the base tree into base + the series, as
# commits on branch "series":
#   series/0*.patch (as git am would, in order; the cover letter is not a
#   commit), then each directory of kunit/, in order, and selftests/ (their
#   files, hooks.diff and COMMIT_MSG), each with the F: lines of
#   MAINTAINERS.snippet that cover files it added.
# The commits are made in an index of their own ($BUILD/apply.index, no
# work tree), once per set of inputs, each step kept (made_before below):
# the result is kept as refs/workbench/applied/<inputs hash>,
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

# Making the commits has a lock of its own: making a commit does not
# wait for a run that holds $BUILD (hold_build), and two clones do not
# make commits in the index at once.
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
# The commits are made in an index of their own, with no work tree: git
# apply --cached, write-tree and commit-tree do what git am and git commit
# do, without writing the kernel's files to disk and reading them back.
# (A scratch work tree of earlier versions of this script is removed.)
if [ -d "$BUILD/apply" ]; then
	rm -rf "$BUILD/apply"
	git worktree prune
fi
idx=$BUILD/apply.index
gi() { GIT_INDEX_FILE=$idx git "$@"; }
head=$(git rev-parse 'base^{commit}')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Each step (a patch, a directory) is kept as refs/workbench/step/<key>,
# the key being its parent commit and its inputs: a step whose parent and
# inputs are those of a step made before is that commit again, so that an
# edit of the last patch makes only the commits from that patch on.
loaded=
made_before() {
	local c
	key=$( { echo "$head"; cat "$@" "$TOP/tools/apply.sh" "$TOP/tools/maintainers.py"; } |
		sha256sum | cut -d' ' -f1)
	if c=$(git rev-parse -q --verify "refs/workbench/step/$key^{commit}"); then
		head=$c
		say "apply:   $(git log -1 --format=%s "$head") (made before)" >&2
		return 0
	fi
	# The index holds the tree of the commit that the next step is on.
	[ -n "$loaded" ] || gi read-tree "$head"
	loaded=yes
	return 1
}

# commit PARENT MESSAGE_FILE NOTE: the index as a commit on PARENT, which
# becomes $head; the message cleaned up as git commit -F cleans it up; the
# commit's notes: what its patch says below "---" to the maintainers and
# not to the history (checkpatch.pl's findings that stay, and why: see
# tools/checkpatch.sh).  git format-patch --notes puts them there again.
commit() {
	head=$(git stripspace < "$2" | git commit-tree "$(gi write-tree)" -p "$1")
	if [ -n "$3" ]; then
		git notes add -f -m "$3" "$head" 2>/dev/null
	fi
	git update-ref "refs/workbench/step/$key" "$head"
	say "apply:   $(git log -1 --format=%s "$head")" >&2
}

# The commit of a directory's sources: its files, hooks.diff, COMMIT_MSG
# (its message, and below a line "---" the commit's notes), with the F:
# lines of MAINTAINERS.snippet that cover files it added.
# Like the patches in series/, it is authored by the workbench's neutral
# identity: make format-patch gives every patch the exporting person's
# From: and Signed-off-by: (tools/format-patch.sh).
commit_dir() {
	local src=$1 dir=$TOP/$1 pre=${2#.} f mode
	[ -f "$dir/COMMIT_MSG" ] || die "$src/COMMIT_MSG is missing"
	(cd "$dir" && find . -type f ! -name COMMIT_MSG ! -name hooks.diff | sed 's#^\./##' | sort) > "$tmp/files"
	# Its inputs: every file by content, name and mode, where it goes.
	{ echo "$src $pre"
	  (cd "$dir" && find . -type f -print0 | sort -z | xargs -0 sha256sum
	   find . -type f -perm -u+x | sort); } > "$tmp/sums"
	! made_before "$tmp/sums" "$TOP/MAINTAINERS.snippet" || return 0
	while read -r f; do
		# The mode git would record of the file in a work tree.
		mode=100644
		[ ! -x "$dir/$f" ] || mode=100755
		printf '%s %s\t%s\n' "$mode" "$(git hash-object -w "$dir/$f")" "${pre:+$pre/}$f"
	done < "$tmp/files" | gi update-index --add --index-info
	if [ -f "$dir/hooks.diff" ]; then
		gi apply --cached "$dir/hooks.diff" ||
			die "$src/hooks.diff does not apply to linux $(base_version) + series"
	fi
	mkdir -p "$tmp/m"
	gi show :MAINTAINERS > "$tmp/m/MAINTAINERS"
	# The files that the snippet's F: lines name, as far as the tree has them.
	gi ls-files -- $(sed -n 's/^F:\t//p' "$TOP/MAINTAINERS.snippet") > "$tmp/ls-files"
	"$TOP/tools/maintainers.py" "$TOP/MAINTAINERS.snippet" "$tmp/m" "$tmp/ls-files"
	gi update-index --cacheinfo "100644,$(git hash-object -w "$tmp/m/MAINTAINERS"),MAINTAINERS"
	sed '/^---$/,$d' "$dir/COMMIT_MSG" > "$tmp/msg"
	GIT_AUTHOR_NAME=${WORKBENCH_IDENT% <*} GIT_AUTHOR_EMAIL=$(sed 's/.*<\(.*\)>/\1/' <<< "$WORKBENCH_IDENT") \
		commit "$head" "$tmp/msg" "$(sed '1,/^---$/d' "$dir/COMMIT_MSG")"
}

for p in "$TOP"/series/0*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	! made_before "$p" || continue
	if ! gi apply --cached --whitespace=error-all "$p" 2>"$tmp/am-log"; then
		# A patch that the base has already (a subsystem tree that
		# took it, say) is left out of the tree, so of the export
		# too: it does not apply, and it reverts cleanly.
		if gi apply --cached --check -R "$p" 2>/dev/null; then
			say "apply:   left out, the base has it already: series/$(basename "$p")" >&2
			continue
		fi
		echo "error: series/$(basename "$p") does not apply to linux $(base_version)" >&2
		grep '^error:' "$tmp/am-log" >&2
		echo "--- the failing hunks:" >&2
		gi apply --cached --check -v "$p" 2>&1 | grep -v '^Checking patch' >&2 || true
		exit 1
	fi
	# What git am takes of the mail: its author and date, and its
	# subject and body as the message.
	git mailinfo -u "$tmp/body" /dev/null < "$p" > "$tmp/info"
	{ sed -n 's/^Subject: //p' "$tmp/info"; echo; cat "$tmp/body"; } > "$tmp/msg"
	GIT_AUTHOR_NAME=$(sed -n 's/^Author: //p' "$tmp/info") \
	GIT_AUTHOR_EMAIL=$(sed -n 's/^Email: //p' "$tmp/info") \
	GIT_AUTHOR_DATE=$(sed -n 's/^Date: //p' "$tmp/info") \
		commit "$head" "$tmp/msg" "$(note_of_patch "$p")"
done

# Each directory of kunit/ is a suite of its own, a commit of its own.
for d in "$TOP"/kunit/*/; do
	commit_dir "kunit/$(basename "$d")" .
done
commit_dir selftests tools/testing/selftests

new=$head
git update-ref "$ref" "$new"
checkout "$new"
