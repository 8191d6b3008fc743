#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""counts.py LOG...: for each LOG, a line "passed failed skipped errors"
from the summary line that kunit.py run/exec/parse prints ("Testing
complete. Ran N tests: passed: ..."), or "0 0 0 1" if it has none; exit 1
if a single LOG has none."""
import re
import sys


def counts(path):
    try:
        text = open(path, errors='replace').read()
    except OSError:
        return None
    m = None
    for m in re.finditer(r'Testing complete\. Ran (\d+) tests?(.*)', text):
        pass
    if not m:
        return None
    c = {k: int(v) for k, v in
         re.findall(r'(passed|failed|crashed|skipped|errors): (\d+)', m.group(2))}
    return (c.get('passed', 0), c.get('failed', 0) + c.get('crashed', 0),
            c.get('skipped', 0), c.get('errors', 0))


found = [counts(p) for p in sys.argv[1:]]
for c in found:
    print(*(c or (0, 0, 0, 1)))
if len(found) == 1 and not found[0]:
    sys.exit(1)
