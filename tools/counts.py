#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print "passed failed skipped errors" from the summary line that kunit.py
run/exec/parse prints ("Testing complete. Ran N tests: passed: ..."), or
exit 1 if there is none."""
import re
import sys

text = open(sys.argv[1], errors='replace').read()
m = None
for m in re.finditer(r'Testing complete\. Ran (\d+) tests?(.*)', text):
    pass
if not m:
    sys.exit(1)
counts = {k: int(v) for k, v in
          re.findall(r'(passed|failed|crashed|skipped|errors): (\d+)', m.group(2))}
print(counts.get('passed', 0), counts.get('failed', 0) + counts.get('crashed', 0),
      counts.get('skipped', 0), counts.get('errors', 0))
