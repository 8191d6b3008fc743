#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""maintainers.py SNIPPET TREE: put the MAINTAINERS entry in SNIPPET (a file
holding exactly one entry) into TREE/MAINTAINERS at its alphabetical place,
replacing the entry of that title if there is one, with only the F: lines
whose files exist in TREE.  So each commit that adds files covered by the
entry adds their F: lines, and checkpatch sees MAINTAINERS updated."""
import os
import sys


def is_title(lines, i, start):
    line = lines[i]
    return (i > start and lines[i - 1] == '' and line != '' and
            line[1:2] != ':' and not line.startswith(('.. ', ' ', '\t')))


def main(snippet_path, tree):
    entry = open(snippet_path).read().strip('\n').split('\n')
    title = entry[0]
    if not title or title[1:2] == ':' or any(l[1:3] != ':\t' for l in entry[1:]):
        sys.exit(f'{snippet_path}: not one MAINTAINERS entry (a title, then "X:\t" lines)')
    entry = [l for l in entry
             if not l.startswith('F:\t') or os.path.exists(os.path.join(tree, l[3:]))]
    if not any(l.startswith('F:\t') for l in entry):
        return

    path = os.path.join(tree, 'MAINTAINERS')
    lines = open(path).read().split('\n')
    start = lines.index('Maintainers List') + 6
    for i in range(start, len(lines)):
        if not is_title(lines, i, start):
            continue
        if lines[i] == title:
            end = lines.index('', i)
            lines[i:end] = entry
            break
        if lines[i].upper() > title.upper():
            lines[i:i] = entry + ['']
            break
    else:
        sys.exit(f'{path}: no place found for "{title}"')
    open(path, 'w').write('\n'.join(lines))


if __name__ == '__main__':
    main(*sys.argv[1:])
