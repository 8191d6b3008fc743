#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's linux-source-$BASE_SERIES and extract it into $TREE as a
# git repository whose first commit (tag "base") is the pristine tree.
# Re-extracts only when the package version differs from the one recorded.
. "$(dirname "$0")/lib.sh"

# KSRC: a kernel git tree of the user's own.  Its HEAD is the base; the
# tree under test is a clone that shares its objects (git clone --shared),
# so KSRC itself is never written to.  Re-cloned when KSRC's HEAD moves.
if [ -n "${KSRC:-}" ]; then
	head=$(git -C "$KSRC" rev-parse -q --verify HEAD) ||
		die "KSRC=$KSRC is not a git tree with a commit checked out"
	# Read-only: no git command here refreshes KSRC's index.
	dirty=$(git -C "$KSRC" --no-optional-locks status --porcelain --untracked-files=no | wc -l)
	[ "$dirty" = 0 ] ||
		say "tree: KSRC=$KSRC has $dirty files with changes not committed; the base is its HEAD ($(git -C "$KSRC" log -1 --format='%h %s' "$head" | cut -c1-60)), without them"
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

# The base: Debian's linux-source-$BASE_SERIES (tools/lib.sh), the binary
# package, which holds the tarball, fetched into $BUILD/apt (lib.sh:
# debian_fetch) and kept there: a rerun does not fetch it again (remove
# $BUILD/apt/*.deb to fetch the newest).
APTDIR=$BUILD/apt
fetch() {
	say "tree: fetching $BASE_PKG from Debian's $BASE_SUITE"
	debian_fetch "$APTDIR" "$BASE_SUITE" "$BASE_PKG" "make tree"
}

[ -n "$(base_deb)" ] || { hold_build tree; [ -n "$(base_deb)" ] || fetch; }
debfile=$(base_deb)
pkgver=$(dpkg-deb -f "$debfile" Version) || die "$debfile is not a Debian package: remove it and retry: make tree"
origin="Debian $BASE_PKG $pkgver"

if [ -f "$TREE/.git/base-version" ] && [ "$(cat "$TREE/.git/base-pkg" 2>/dev/null)" = "$BASE_PKG $pkgver" ] &&
   git -C "$TREE" rev-parse -q --verify base >/dev/null; then
	say "tree: $TREE is linux $(base_version)"
	exit 0
fi

hold_build tree
say "tree: extracting $(basename "$debfile")"
rm -rf "$TREE" "$TREE.tmp"
mkdir -p "$TREE.tmp"
dpkg-deb --fsys-tarfile "$debfile" | tar -xO "./usr/src/$BASE_PKG.tar.xz" |
	tar -xJ -C "$TREE.tmp" --strip-components=1 ||
	die "$debfile: no usable ./usr/src/$BASE_PKG.tar.xz in it; remove it and retry: make tree"
mv "$TREE.tmp" "$TREE"

cd "$TREE"
v=$(make -s kernelversion 2>/dev/null) ||
	v=$(awk '/^VERSION/{a=$3}/^PATCHLEVEL/{b=$3}/^SUBLEVEL/{c=$3}END{print a"."b"."c}' Makefile)
case $v in "$BASE_SERIES".*) ;; *) die "$debfile holds linux $v, not $BASE_SERIES.y" ;; esac

say "tree: committing pristine linux $v as 'base'"
git init -q -b "base-$BASE_SERIES"
git config user.name "$BASE_PKG"
git config user.email "linux-source@debian.invalid"
git config gc.auto 0
# Debian's tarball ships a .gitignore that ignores "/*": force.
git add -A -f .
git commit -q -m "Linux $v ($origin)"
git tag base
echo "$v ($origin)" > .git/base-version
echo "$BASE_PKG $pkgver" > .git/base-pkg
say "tree: base is linux $(base_version)"
