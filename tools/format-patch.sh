#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Export base..series of the tree under test, the tested commits, as the
# submission in $OUT/series: the cover letter's subject and text come from
# series/0000-cover-letter.patch, its shortlog and diffstat from git.
. "$(dirname "$0")/lib.sh"

"$TOP/tools/apply.sh" >/dev/null
cover=$TOP/series/0000-cover-letter.patch
[ -f "$cover" ] || die "series/0000-cover-letter.patch is missing"

rm -rf "$OUT/series"
mkdir -p "$OUT/series"
git -C "$TREE" format-patch -q --cover-letter --base=base --zero-commit \
	--no-signature -o "$OUT/series" base..HEAD
# The subject and text of the cover letter, in place of git's template.
python3 - "$cover" "$OUT"/series/0000-cover-letter.patch <<'PY'
import sys
src, dst = sys.argv[1], sys.argv[2]
text = open(src).read()
author = [l for l in text.split('\n') if l.startswith('From: ')][0]
subject = [l for l in text.split('\n') if l.startswith('Subject: ')][0]
subject = subject.split('] ', 1)[1] if '] ' in subject else subject[len('Subject: '):]
body = text.split('\n\n', 1)[1].split('\n---\n', 1)[0]
out = open(dst).read()
out = '\n'.join(author if l.startswith('From: ') else l for l in out.split('\n'))
out = out.replace('*** SUBJECT HERE ***', subject).replace('*** BLURB HERE ***', body.rstrip('\n'))
open(dst, 'w').write(out)
PY
say "format-patch: $(ls "$OUT/series" | wc -l) files in $OUT/series (base: linux $(base_version))"
ls "$OUT/series"
