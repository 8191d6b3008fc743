#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Turn the base tree into base + the series, as commits on branch "series":
#   series/0*.patch (git am, in order; the cover letter is not a commit),
#   then kunit/ and selftests/ (their files, hooks.diff and COMMIT_MSG), each
#   with the F: lines of MAINTAINERS.snippet that cover files it added.
# The commits are made in a scratch worktree ($BUILD/apply); the tree then
# checks out the result, which rewrites only the files that differ from what
# it had, so that the kernel builds see unchanged files as unchanged.
# Nothing at all is done when the inputs are those of the last apply.
. "$(dirname "$0")/lib.sh"

"$TOP/tools/tree.sh"
lock_tree
cd "$TREE"

inputs() {
	(cd "$TOP" && find series kunit selftests MAINTAINERS.snippet tools/apply.sh \
		-type f ! -name '0000-cover-letter.patch' -print0 | sort -z | xargs -0 sha256sum)
}
hash=$( { inputs; cat .git/base-version; } | sha256sum | cut -d' ' -f1)

if [ "$(cat .git/applied-inputs 2>/dev/null)" = "$hash" ] &&
   [ "$(git rev-parse HEAD)" = "$(cat .git/applied-head 2>/dev/null)" ] &&
   git diff --quiet HEAD; then
	say "apply: tree is up to date (linux $(base_version) + $(git rev-list --count base..HEAD) commits)"
	exit 0
fi

say "apply: applying the series to linux $(base_version)"
rm -f .git/applied-inputs .git/applied-head
wt=$BUILD/apply
# A worktree of a tree that was extracted or cloned anew is stale.
if [ "$(git -C "$wt" rev-parse --git-common-dir 2>/dev/null)" != "$TREE/.git" ]; then
	rm -rf "$wt"
	git worktree prune
	git worktree add -q --detach "$wt" base
fi
cd "$wt"
git am --abort >/dev/null 2>&1 || true
git checkout -q -f --detach base
git clean -q -fdx

# The commit of a directory's sources: its files, hooks.diff, COMMIT_MSG.
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
	git commit -q --author="$WORKBENCH_IDENT" -F "$dir/COMMIT_MSG"
	say "apply:   $(git log -1 --format=%s)"
}

am_log=$(mktemp)
for p in "$TOP"/series/0*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	# A patch that the base has already: left out of the tree, so of the
	# export too.  Either it reverts cleanly, or it only adds files and the
	# base has every one of them, in a version of its own (mainline has had
	# MIPS kunit.py configs since 6.18).
	if ! git apply --check "$p" 2>/dev/null; then
		added=$(sed -n '/^diff --git /{N;s|^diff --git a/\(.*\) b/.*\nnew file mode.*|\1|p}' "$p")
		ndiffs=$(grep -c '^diff --git ' "$p")
		have=0
		for f in $added; do [ -e "$f" ] && have=$((have + 1)); done
		if git apply --check -R "$p" 2>/dev/null ||
		   { [ "$ndiffs" -gt 0 ] && [ "$have" = "$ndiffs" ]; }; then
			say "apply:   left out, the base has it already: series/$(basename "$p")"
			continue
		fi
	fi
	if ! git am -q --whitespace=error-all "$p" >"$am_log" 2>&1; then
		echo "error: series/$(basename "$p") does not apply to linux $(base_version)" >&2
		grep '^error:' "$am_log" >&2
		git am --abort >/dev/null 2>&1 || true
		echo "--- the failing hunks:" >&2
		git apply --check -v "$p" 2>&1 | grep -v '^Checking patch' >&2 || true
		exit 1
	fi
	say "apply:   $(git log -1 --format=%s)"
done
rm -f "$am_log"

commit_dir kunit .
commit_dir selftests tools/testing/selftests

new=$(git rev-parse HEAD)
cd "$TREE"
git checkout -q -f -B series "$new"
git clean -q -fdx
git rev-parse HEAD > .git/applied-head
echo "$hash" > .git/applied-inputs
say "apply: linux $(base_version) + $(git rev-list --count base..HEAD) commits"
