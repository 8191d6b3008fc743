#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Extract Debian's linux-source-6.12 into $TREE as a git repository whose
# first commit (tag "base") is the pristine tree.  Re-extracts only when the
# installed package version differs from the one recorded.
. "$(dirname "$0")/lib.sh"

# KSRC: a kernel git tree of the user's own.  Its HEAD is the base; the
# tree under test is a clone that shares its objects (git clone --shared),
# so KSRC itself is never written to.  Re-cloned when KSRC's HEAD moves.
if [ -n "${KSRC:-}" ]; then
	head=$(git -C "$KSRC" rev-parse -q --verify HEAD) ||
		die "KSRC=$KSRC is not a git tree with a commit checked out"
	if [ "$(cat "$TREE/.git/base-ksrc" 2>/dev/null)" = "$KSRC $head" ] &&
	   git -C "$TREE" rev-parse -q --verify base >/dev/null; then
		say "tree: $TREE is $(cat "$TREE/.git/base-version")"
		exit 0
	fi
	hold_build tree
	say "tree: cloning $KSRC at $head"
	rm -rf "$TREE" "$TREE.tmp"
	git clone -q --shared --no-checkout "$KSRC" "$TREE.tmp"
	git -C "$TREE.tmp" checkout -q --detach "$head"
	git -C "$TREE.tmp" tag -f base "$head" >/dev/null
	git -C "$TREE.tmp" config gc.auto 0
	mv "$TREE.tmp" "$TREE"
	echo "$(git -C "$KSRC" describe --always --tags "$head" 2>/dev/null || echo "$head") ($KSRC)" > "$TREE/.git/base-version"
	echo "$KSRC $head" > "$TREE/.git/base-ksrc"
	say "tree: base is $(cat "$TREE/.git/base-version")"
	exit 0
fi

TARBALL=${TARBALL:-/usr/src/linux-source-6.12.tar.xz}
[ -f "$TARBALL" ] || die "$TARBALL not found: run 'make deps' (package linux-source-6.12)"

pkgver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown)

if [ -f "$TREE/.git/base-version" ] && [ "$(cat "$TREE/.git/base-pkg" 2>/dev/null)" = "$pkgver" ] &&
   git -C "$TREE" rev-parse -q --verify base >/dev/null; then
	say "tree: $TREE is linux $(base_version)"
	exit 0
fi

hold_build tree
say "tree: extracting $TARBALL (Debian $pkgver)"
rm -rf "$TREE" "$TREE.tmp"
mkdir -p "$TREE.tmp"
tar -xJf "$TARBALL" -C "$TREE.tmp" --strip-components=1
mv "$TREE.tmp" "$TREE"

cd "$TREE"
v=$(make -s kernelversion 2>/dev/null) ||
	v=$(awk '/^VERSION/{a=$3}/^PATCHLEVEL/{b=$3}/^SUBLEVEL/{c=$3}END{print a"."b"."c}' Makefile)
case $v in 6.12.*) ;; *) die "$TARBALL holds linux $v, not 6.12.y" ;; esac

say "tree: committing pristine linux $v as 'base'"
git init -q -b base-6.12
git config user.name "linux-source-6.12"
git config user.email "linux-source@debian.invalid"
git config gc.auto 0
# Debian's tarball ships a .gitignore that ignores "/*": force.
git add -A -f .
git commit -q -m "Linux $v (Debian linux-source-6.12 $pkgver)"
git tag base
echo "$v (Debian linux-source-6.12 $pkgver)" > .git/base-version
echo "$pkgver" > .git/base-pkg
say "tree: base is linux $(base_version)"
