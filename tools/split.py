#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""split.py CONSOLE OUTDIR SECTION...: cut the console log of a kernel's
one boot (tools/boot.sh) into one log per row, as tools/init.c frames it:

  OUTDIR/kunit.log     what the kernel printed before /init's first
                       section: the built-in KUnit suites' results
  OUTDIR/NAME.log      a section's program output, its lines "NAME| ..."
                       without that prefix; for kunit-modules, every line
                       of the section (the modules' suites print through
                       the kernel log)
  OUTDIR/NAME.kernel   the kernel's own lines within the section

and print a line per SECTION: its name, "ended", "started" or "absent",
the exit code and the seconds that /init gave it ("-" for none)."""
import os
import re
import sys

# A line of the kernel log on the console may start with its time.
TIME = r'(?:\[\s*\d+\.\d+\]\s?)?'
BEGIN = re.compile(r'^' + TIME + r'workbench: begin (\S+)$')
END = re.compile(r'^' + TIME + r'workbench: end (\S+): exit (\d+) in ([\d.]+)s$')


def main():
    console, outdir, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(console, errors='replace') as f:
        lines = [l.rstrip('\r\n') for l in f]
    os.makedirs(outdir, exist_ok=True)
    prog = {n: re.compile(r'^' + TIME + re.escape(n) + r'\| ?(.*)$') for n in names}
    out = {n: [] for n in names}
    kern = {n: [] for n in names}
    state = {n: ('absent', '-', '-') for n in names}
    kunit, current = [], None
    for line in lines:
        m = BEGIN.match(line)
        if m:
            current = m.group(1)
            if current in state:
                state[current] = ('started', '-', '-')
            continue
        m = END.match(line)
        if m:
            if m.group(1) in state:
                state[m.group(1)] = ('ended', m.group(2), m.group(3))
            current = None
            continue
        if current is None:
            # Before the first section, and between sections: the
            # kernel's, which the KUnit row holds until /init begins.
            if not any(state[n][0] != 'absent' for n in names):
                kunit.append(line)
            continue
        if current not in out:
            continue
        if current == 'kunit-modules':
            out[current].append(line)
            continue
        m = prog[current].match(line)
        if m:
            out[current].append(m.group(1))
        else:
            kern[current].append(line)
    with open(os.path.join(outdir, 'kunit.log'), 'w') as f:
        f.write('\n'.join(kunit) + '\n')
    for n in names:
        with open(os.path.join(outdir, n + '.log'), 'w') as f:
            f.write('\n'.join(out[n]) + '\n')
        with open(os.path.join(outdir, n + '.kernel'), 'w') as f:
            f.write('\n'.join(kern[n]) + '\n')
        print('\t'.join((n,) + state[n]))


if __name__ == '__main__':
    main()
