#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""maintainers.py SNIPPET TREE [FILES]: add the F: lines of SNIPPET to the
existing sections of TREE/MAINTAINERS that it names.  SNIPPET holds one or more
blocks, each a section title as MAINTAINERS spells it and then "F:\t"
lines; blocks are separated by blank lines.  Only the F: lines whose
files exist in TREE are added, each at its sorted place among the
section's F: lines, and only once; so each commit that adds files covered
by the snippet adds their F: lines, and checkpatch sees MAINTAINERS
updated.  A title that MAINTAINERS does not have is an error: the series
adds no section of its own.  With FILES, a list of the tree's files one a
line (git ls-files), a file exists if it is in the list, or a directory
if a file of the list is in it: TREE then needs only MAINTAINERS."""
import os
import sys


def blocks(path):
    text = open(path).read().strip('\n')
    for block in text.split('\n\n'):
        lines = block.split('\n')
        title, files = lines[0], lines[1:]
        if not title or title[1:2] == ':' or not files or \
                any(not l.startswith('F:\t') for l in files):
            sys.exit(f'{path}: "{title}": a block is a section title, then "F:\\t" lines')
        yield title, files


def main(snippet_path, tree, files_path=None):
    if files_path:
        listed = set(open(files_path).read().split('\n'))

        def exists(f):
            f = f.rstrip('/')
            return f in listed or any(p.startswith(f + '/') for p in listed)
    else:
        def exists(f):
            return os.path.exists(os.path.join(tree, f))
    path = os.path.join(tree, 'MAINTAINERS')
    lines = open(path).read().split('\n')
    start = lines.index('Maintainers List')
    for title, files in blocks(snippet_path):
        files = [f for f in files if exists(f[3:])]
        try:
            i = lines.index(title, start)
        except ValueError:
            sys.exit(f'{path}: no section "{title}" ({snippet_path})')
        end = lines.index('', i)
        section = lines[i + 1:end]
        for f in files:
            if f in section:
                continue
            fl = [k for k, l in enumerate(section) if l.startswith('F:\t')]
            at = next((k for k in fl if section[k] > f), fl[-1] + 1 if fl else len(section))
            section.insert(at, f)
        lines[i + 1:end] = section
    open(path, 'w').write('\n'.join(lines))


if __name__ == '__main__':
    main(*sys.argv[1:])
