#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ksrc-check.sh: KSRC= on a kernel developer's own git tree, as one works
# in it: history (a commit of theirs on the base), a branch of theirs
# checked out, a change in the index, a change not staged, an untracked
# file.  On a tree that takes the series, make apply KSRC= applies it to
# the tree's HEAD and says that the changes not committed are not part of
# it; on one that does not (a commit that changes a line of a hunk of the
# sparc64 patch), make apply stops and names the patch, the file and the
# hunk.  Either way the tree is left as it was: HEAD, branch, index, the
# state of every file, and every file's time.  The developer's tree is a
# shared clone of the main tree's base, in KSRC_CHECK (default
# /tmp/wb-ksrc); the workbench's own workspace for it is in $BUILD.
. "$(dirname "$0")/lib.sh"

D=${KSRC_CHECK:-/tmp/wb-ksrc}/linux
[ -d "$TREE/.git" ] || die "no $TREE: run make apply first"
pass=0 fail=0
ok() { say "ksrc-check: PASS $*"; pass=$((pass + 1)); }
bad() { say "ksrc-check: FAIL $*"; fail=$((fail + 1)); }

say "ksrc-check: a developer's tree in $D"
rm -rf "$D"
mkdir -p "$(dirname "$D")"
git clone -q --shared --no-checkout "$TREE" "$D"
g() { git -C "$D" -c user.name="A U Thor" -c user.email=author@example.org "$@"; }
g checkout -q -b topic base
echo "A line of the developer's." >> "$D/Documentation/process/howto.rst"
g commit -q -am "Documentation: a commit of the developer's"
echo "staged" >> "$D/CREDITS" && g add CREDITS
echo "not staged" >> "$D/README"
echo "notes" > "$D/notes.txt"

# state: everything of the tree that the workbench must leave alone.
state() {
	{
		g --no-optional-locks rev-parse HEAD
		g --no-optional-locks symbolic-ref HEAD
		g --no-optional-locks status --porcelain=v2 --untracked-files=all
		g --no-optional-locks diff
		g --no-optional-locks diff --cached
		sha256sum "$D/.git/index" "$D/.git/HEAD"
		(cd "$D" && find . -path ./.git -prune -o -type f -printf '%p %s %T@\n' | sort)
	} | sha256sum
}
ksrc_build=$BUILD/ksrc-$(printf %s "$(realpath "$D")" | sha256sum | cut -c1-12)
rm -rf "$ksrc_build"

# A tree that takes the series.
before=$(state)
r=0
(cd "$TOP" && make apply KSRC="$D") > "$D.apply-1.out" 2>&1 || r=$?
applied=$(git -C "$ksrc_build/linux" rev-list --count base..HEAD 2>/dev/null || echo 0)
want=$(( $(ls "$TOP"/series/0*.patch | grep -vc cover-letter) + $(ls -d "$TOP"/kunit/*/ | wc -l) + 1 ))
if [ $r = 0 ] && [ "$applied" = "$want" ] &&
   [ "$(git -C "$ksrc_build/linux" rev-parse base)" = "$(g rev-parse HEAD)" ] &&
   grep -q 'files with changes not committed; the base is its HEAD' "$D.apply-1.out"; then
	ok "a tree that takes the series: $applied commits on its HEAD, and the changes not committed named"
else
	bad "a tree that takes the series: exit $r, $applied of $want commits ($D.apply-1.out)"
fi
[ "$(state)" = "$before" ] && ok "the tree is as it was" || bad "the tree changed under make apply"

# A tree that does not: a commit that changes a line of a hunk.
patch=$(ls "$TOP"/series/*-sparc64-*.patch)
file=arch/sparc/kernel/sys_sparc32.c
sed -i 's/^COMPAT_SYSCALL_DEFINE5(pread64, unsigned int, fd, char __user \*, ubuf,$/COMPAT_SYSCALL_DEFINE5(pread64, unsigned int, fd, char __user *, buf,/' "$D/$file"
g diff --quiet -- "$file" && die "ksrc-check: could not change $file"
g commit -q -m "sparc: a commit of the developer's" -- "$file"
before=$(state)
r=0
(cd "$TOP" && make apply KSRC="$D") > "$D.apply-2.out" 2>&1 || r=$?
if [ $r != 0 ] && grep -q "series/$(basename "$patch") does not apply" "$D.apply-2.out" &&
   grep -q "error: patch failed: $file:[0-9]" "$D.apply-2.out"; then
	ok "a tree that does not: $(grep -m1 'does not apply' "$D.apply-2.out"); $(grep -m1 'patch failed' "$D.apply-2.out")"
else
	bad "a tree that does not: exit $r ($D.apply-2.out)"
fi
[ "$(state)" = "$before" ] && ok "the tree is as it was" || bad "the tree changed under make apply"

rm -rf "$ksrc_build"
say "ksrc-check: $pass passed, $fail failed (outputs in $(dirname "$D"))"
[ $fail -eq 0 ]
