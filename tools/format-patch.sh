#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Export base..series of the tree under test, the tested commits, as the
# submission in $OUT/series, in the name of the person who exports it:
# From: and Signed-off-by: are that person's (git config user.name and
# user.email, here), added at export, as only a person can certify the DCO
# (Documentation/process/submitting-patches.rst); the commits keep their
# Assisted-by: trailer.  The cover letter's subject and text come from
# series/0000-cover-letter.patch, its shortlog and diffstat from git.
. "$(dirname "$0")/lib.sh"

name=$(git -C "$TOP" config user.name || true)
email=$(git -C "$TOP" config user.email || true)
if [ -z "$name" ] || [ -z "$email" ]; then
	die "format-patch: who submits this series?  Set your identity first:
  git config --global user.name 'Your Name'
  git config --global user.email you@example.org
(From: and Signed-off-by: of every patch are yours; the tree's commits carry none)"
fi
case "$name $email" in
*[Cc]laude*|*anthropic*|*workbench@localhost*)
	die "format-patch: '$name <$email>' is not a person who can sign off (Documentation/process/coding-assistants.rst)" ;;
esac
ident="$name <$email>"

# The commit of this clone's inputs; the checked-out tree is not needed,
# so the export does not wait for a run that builds from it (lib.sh).
commit=$("$TOP/tools/apply.sh" --commit-only)
cover=$TOP/series/0000-cover-letter.patch
[ -f "$cover" ] || die "series/0000-cover-letter.patch is missing"

rm -rf "$OUT/series"
mkdir -p "$OUT/series"
git -C "$TREE" format-patch -q --cover-letter --zero-commit --notes \
	--no-signature -o "$OUT/series" "base..$commit"

# Who receives each patch: get_maintainer.pl and MAINTAINERS of the
# series' own commit (no checkout: the two files are enough with
# --no-tree).  The cover letter goes to all of them.
gm=$(mktemp -d)
trap 'rm -rf "$gm"' EXIT
git -C "$TREE" show "$commit:MAINTAINERS" > "$gm/MAINTAINERS"
git -C "$TREE" show "$commit:scripts/get_maintainer.pl" > "$gm/get_maintainer.pl"
gm_run() {
	(cd "$gm" && perl get_maintainer.pl --no-tree --no-git --no-git-fallback --no-rolestats "$@")
}
# Who else receives a patch, by what it touches, as MAINTAINERS names them
# for a file of theirs (get_maintainer.pl -f; with --no-tree the file need
# only exist): an architecture's patch goes to the generic headers'
# maintainer and linux-arch, whose helpers it moves to; a KUnit suite to
# KUnit's; a selftest built with nolibc to nolibc's.
for f in include/asm-generic/compat.h lib/kunit/test.c tools/include/nolibc/nolibc.h; do
	mkdir -p "$gm/$(dirname "$f")" && : > "$gm/$f"
done
also_cc() {
	local p=$1
	if grep -q '^+++ b/arch/' "$p"; then gm_run -f include/asm-generic/compat.h; fi
	if grep -q '^+++ b/.*_kunit\.c$' "$p"; then gm_run -f lib/kunit/test.c; fi
	if grep -q '^+.*nolibc' "$p" && grep -q '^+++ b/tools/testing/selftests/' "$p"; then
		gm_run -f tools/include/nolibc/nolibc.h
	fi
}
for p in "$OUT"/series/0*.patch; do
	case $p in */0000-cover-letter.patch) continue ;; esac
	{ gm_run "$p" && also_cc "$p"; } 2>"$gm/err" | awk '!seen[$0]++' > "$p.cc" ||
		die "get_maintainer.pl failed on $(basename "$p"): $(head -1 "$gm/err")"
	[ ! -s "$gm/err" ] || die "get_maintainer.pl on $(basename "$p"): $(head -1 "$gm/err")"
done
CROSS_ARCH_CC=$(gm_run -f include/asm-generic/compat.h)

python3 - "$ident" "$name" "$cover" "$CROSS_ARCH_CC" "$OUT"/series/*.patch <<'PY'
import re
import sys
ident, name, src, extra_cc, patches = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
sob = 'Signed-off-by: ' + ident


def with_cc(head, cc):
    """The mail header with a Cc: of the addresses in cc, one per line."""
    if not cc:
        return head
    return head + '\nCc: ' + ',\n    '.join(cc)


def read_cc(patch):
    return [l for l in open(patch + '.cc').read().split('\n') if l]


def sign(text):
    """The person's From:, and Signed-off-by: after the last trailer."""
    head, sep, rest = text.partition('\n\n')
    head = '\n'.join('From: ' + ident if l.startswith('From: ') else l
                     for l in head.split('\n'))
    msg, sep2, diff = rest.partition('\n---\n')
    if not sep2:
        sys.exit('format-patch: no "---" line in a patch')
    lines = msg.rstrip('\n').split('\n')
    if sob not in lines:
        lines.append(sob)
    return head + sep + '\n'.join(lines) + '\n' + sep2 + diff


everyone = []
for p in patches:
    if not p.endswith('/0000-cover-letter.patch'):
        everyone += [a for a in read_cc(p) if a not in everyone]
everyone += [a for a in extra_cc.split('\n') if a not in everyone]

cover_text = open(src).read()
subject = [l for l in cover_text.split('\n') if l.startswith('Subject: ')][0]
subject = subject.split('] ', 1)[1] if '] ' in subject else subject[len('Subject: '):]
body = cover_text.split('\n\n', 1)[1].split('\n---\n', 1)[0]
for p in patches:
    text = open(p).read()
    if p.endswith('/0000-cover-letter.patch'):
        head, sep, rest = text.partition('\n\n')
        head = '\n'.join('From: ' + ident if l.startswith('From: ') else l
                         for l in head.split('\n'))
        rest = rest.replace('*** BLURB HERE ***', body.rstrip('\n'))
        # The shortlog names the commits' author; the patches go out
        # in the exporting person's name.
        rest = re.sub(r'^workbench \((\d+)\):$', name + r' (\1):', rest,
                      flags=re.M)
        text = (with_cc(head, everyone) + sep + rest).replace(
            '*** SUBJECT HERE ***', subject)
    else:
        text = sign(text)
        head, sep, rest = text.partition('\n\n')
        text = with_cc(head, read_cc(p)) + sep + rest
    open(p, 'w').write(text)
PY
rm -f "$OUT"/series/*.cc
if grep -q REVIEW_BY_THE_SUBMITTER "$OUT/series/0000-cover-letter.patch"; then
	say "format-patch: NOT READY TO POST: the cover letter's disclosure asks what you reviewed and how" \
	    "(Documentation/process/generated-content.rst); write it in place of REVIEW_BY_THE_SUBMITTER" \
	    "in series/0000-cover-letter.patch"
fi
# The series' patches, and the commits of kunit/'s suites and selftests/.
whole=$(( $(ls "$TOP"/series/0*.patch | grep -vc /0000-cover-letter.patch) + $(ls -d "$TOP"/kunit/*/ | wc -l) + 1 ))
sent=$(( $(ls "$OUT"/series/0*.patch | wc -l) - 1 ))
if [ "$sent" -ne "$whole" ]; then
	say "format-patch: $((whole - sent)) of the $whole patches left out (the base has them);" \
	    "the cover letter's text numbers all $whole: renumber it before posting"
fi
say "format-patch: $(ls "$OUT/series" | wc -l) files in $OUT/series (base: linux $(base_version)), From: and Signed-off-by: $ident"
ls "$OUT/series"
