#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# debian-patches.sh: which of the files the series touches Debian's own
# patches changed in the base, its linux-source tarball.  The binary
# package has no list of its patches, but its tarball's file times tell:
# Debian makes it with every time clamped to the date of the package's
# changelog (SOURCE_DATE_EPOCH), so a file as the upstream tarball had it
# keeps that tarball's time, and a file that Debian's patches or build
# wrote has the changelog's.  The check stops, saying why, when the
# tarball has other times than those two: then this reading does not hold.
# A file the series touches and Debian changed is listed; that is a
# finding, not a failure.
. "$(dirname "$0")/lib.sh"

[ -z "${KSRC:-}" ] || die "debian-patches: the base is KSRC=$KSRC, not Debian's $BASE_PKG"
commit=$("$TOP/tools/apply.sh" --commit-only)
debfile=$(base_deb)
[ -n "$debfile" ] || die "no $BASE_PKG package in $BUILD/apt: make tree"
pkgver=$(dpkg-deb -f "$debfile" Version)
[ "$(cat "$TREE/.git/base-pkg" 2>/dev/null)" = "$BASE_PKG $pkgver" ] ||
	die "debian-patches: $TREE is not extracted from $(basename "$debfile"): make tree"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
doc=./usr/share/doc/$BASE_PKG/changelog.Debian.gz
dpkg-deb --fsys-tarfile "$debfile" | tar -xO "$doc" | gzip -dc |
	awk '/^ -- / && !n++ { sub(/^ -- .*>  /, ""); print }' > "$tmp/date"
epoch=$(date -d "$(cat "$tmp/date")" +%s 2>/dev/null) ||
	die "debian-patches: no date in the first entry of $doc in $(basename "$debfile")"
debian_time=$(TZ=UTC date -d "@$epoch" '+%F %T')

# "mode owner size date time name": the time and the path below the
# tarball's top directory, of regular files (symbolic links are few and
# named by their target; directories change with any file in them).
dpkg-deb --fsys-tarfile "$debfile" | tar -xO "./usr/src/$BASE_PKG.tar.xz" |
	TZ=UTC tar --full-time -tvJ | awk '/^-/ {
		name = $0; for (i = 0; i < 5; i++) sub(/^[^ ]+ +/, "", name)
		sub(/^[^\/]*\//, "", name)
		print $4 " " $5 "\t" name }' > "$tmp/list" ||
	die "debian-patches: cannot list ./usr/src/$BASE_PKG.tar.xz in $(basename "$debfile")"
cut -f1 "$tmp/list" | sort | uniq -c | sort -rn > "$tmp/times"
others=$(awk -v d="$debian_time" '$2 " " $3 != d' "$tmp/times")
[ "$(grep -c . <<< "$others")" = 1 ] ||
	die "debian-patches: $BASE_PKG's tarball has more file times than the upstream tarball's and the changelog's ($debian_time): $(head -3 "$tmp/times" | awk '{print $1 " at " $2 " " $3}' | paste -sd';')"
upstream_time=$(awk '{print $2 " " $3}' <<< "$others")
[[ $upstream_time < $debian_time ]] ||
	die "debian-patches: the most common file time ($upstream_time) is not before the changelog's ($debian_time)"
awk -F'\t' -v d="$debian_time" '$1 == d { print $2 }' "$tmp/list" | sort > "$tmp/debian"

git -C "$TREE" diff --name-only base "$commit" | sort > "$tmp/series"
say "debian-patches: $BASE_PKG $pkgver: $(wc -l < "$tmp/list") files, $(wc -l < "$tmp/debian") of them written after the upstream tarball's time ($upstream_time UTC), at the changelog's ($debian_time UTC)"
touched=$(comm -12 "$tmp/debian" "$tmp/series")
if [ -z "$touched" ]; then
	say "debian-patches: Debian changed none of the $(wc -l < "$tmp/series") files the series touches"
else
	say "debian-patches: Debian changed $(grep -c . <<< "$touched") of the $(wc -l < "$tmp/series") files the series touches:"
	sed 's/^/    /' <<< "$touched"
fi
