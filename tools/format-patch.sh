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
git -C "$TREE" format-patch -q --cover-letter --base=base --zero-commit \
	--no-signature -o "$OUT/series" "base..$commit"
python3 - "$ident" "$cover" "$OUT"/series/*.patch <<'PY'
import sys
ident, src, patches = sys.argv[1], sys.argv[2], sys.argv[3:]
sob = 'Signed-off-by: ' + ident


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
        text = (head + sep + rest).replace('*** SUBJECT HERE ***', subject)
    else:
        text = sign(text)
    open(p, 'w').write(text)
PY
if grep -q REVIEW_BY_THE_SUBMITTER "$OUT/series/0000-cover-letter.patch"; then
	say "format-patch: NOT READY TO POST: the cover letter's disclosure asks what you reviewed and how" \
	    "(Documentation/process/generated-content.rst); write it in place of REVIEW_BY_THE_SUBMITTER" \
	    "in series/0000-cover-letter.patch"
fi
# The series' patches, and the two commits of kunit/ and selftests/.
whole=$(( $(ls "$TOP"/series/0*.patch | grep -vc /0000-cover-letter.patch) + 2 ))
sent=$(( $(ls "$OUT"/series/0*.patch | wc -l) - 1 ))
if [ "$sent" -ne "$whole" ]; then
	say "format-patch: $((whole - sent)) of the $whole patches left out (the base has them);" \
	    "the cover letter's text numbers all $whole: renumber it before posting"
fi
say "format-patch: $(ls "$OUT/series" | wc -l) files in $OUT/series (base: linux $(base_version)), From: and Signed-off-by: $ident"
ls "$OUT/series"
