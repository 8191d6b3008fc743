#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tbit_scan.py [--noreturns FILE] OBJDUMP OBJECT...: every conditional
branch on the T bit
(bt, bf, bt/s, bf/s) in the code of the SH objects that some path within
its function reaches with T not set by an instruction of that path: what
GCC 12's sh_treg_combine pass makes when it deletes the tst before a
branch (tools/sh/no_treg_combine.c).

T is set by the compares and tests, clrt and sett, the shifts and
rotates through T, the carry and overflow arithmetic, dt, div0s, div0u,
div1, tas.b, fcmp, SH-4A's movco.l (whether the store took) and a load
of SR; it is not set at a function's entry,
nor after a call (jsr, bsr, bsrf), which may change it, nor after a
trapa, the asm statement of BUG() and WARN(), which GCC takes for one
that may change it.  A trapa has no delay slot; one that the object's
__bug_table lists without BUGFLAG_WARNING is a BUG(), whose
unreachable() leaves no path after it.  A call does not
return if it goes to a function that FILE names NORETURN(name) (the
tree's tools/objtool/noreturns.h): bsr to it, or jsr through a register
that the call's block loaded from a literal relocated against it.  A
block that no branch of the function reaches (a jump table's, or code
after such a call) is not scanned.  Each
finding is printed as "object: function+offset: instruction"; the last
line counts them, with the functions and objects they are in.  The exit
code is 1 if there is any."""
import re
import subprocess
import sys

SETS_T = re.compile(r'^(cmp/\S+|tst(\.b)?|clrt|sett|div0s|div0u|div1|dt|'
                    r'sha[lr]|shl[lr]|rot[lr]|rotc[lr]|addc|addv|subc|subv|negc|'
                    r'tas\.b|fcmp/\S+|movco\.l)$')
CALLS = ('jsr', 'bsr', 'bsrf')
TRAP = 'trapa'
ENDS = ('rts', 'rte', 'jmp', 'braf')
HEAD = re.compile(r'^([0-9a-f]+) <([^>]+)>:$')
INSN = re.compile(r'^\s*([0-9a-f]+):\t(\S+)\s*(.*)$')
RELOC = re.compile(r'^\s*([0-9a-f]+): R_SH_\w+\s+([^\s+]+)')
LITERAL = re.compile(r'^([0-9a-f]+) <[^>]*>,(r\d+)$')
NORETURNS = set()
DEST = re.compile(r'^([0-9a-f]+) <([^>+]+)(\+0x[0-9a-f]+)?>')


def sets_t(op, args):
    if SETS_T.match(op):
        return True
    # ldc Rm,sr and ldc.l @Rm+,sr load all of SR, T among it.
    return op.startswith('ldc') and args.rstrip().endswith(',sr')


def bugs(objdump, path, code):
    """The (section, address) of each BUG() trap, from __bug_table: an
    entry is the trap's address (relocated against its section), what
    CONFIG_DEBUG_BUGVERBOSE adds, and the flags, its last 16 bits."""
    def run(*opts):
        return subprocess.run([objdump, *opts, '-j', '__bug_table', path],
                              capture_output=True, text=True).stdout
    data = bytearray()
    for line in run('-s').split('\n'):
        m = re.match(r'^ [0-9a-f]{4,} ((?:[0-9a-f]{2,8} ){1,4})', line)
        if m:
            data += bytes.fromhex(m.group(1).replace(' ', ''))
    big = 'shbig' in run('-f')
    order = 'big' if big else 'little'
    entries = []
    for line in run('-r').split('\n'):
        m = re.match(r'^([0-9a-f]{8}) R_SH_DIR32\s+(\S+)$', line)
        if m and m.group(2).partition('+')[0] in code:
            entries.append((int(m.group(1), 16), m.group(2)))
    if not entries:
        return set()
    size = entries[1][0] - entries[0][0] if len(entries) > 1 else len(data)
    found = set()
    for off, sym in entries:
        sec, _, add = sym.partition('+')
        addr = int(add, 16) if add else int.from_bytes(data[off:off + 4], order)
        flags = int.from_bytes(data[off + size - 2:off + size], order)
        if not flags & 1:
            found.add((sec, addr))
    return found


def scan(objdump, path):
    out = subprocess.run([objdump, '-dr', '--no-show-raw-insn', path],
                         capture_output=True, text=True, check=True).stdout
    funcs, cur = [], None
    relocs = {}
    section = None
    for line in out.split('\n'):
        m = re.match(r'^Disassembly of section (\S+):$', line)
        if m:
            section = m.group(1)
            continue
        m = RELOC.match(line)
        if m:
            relocs[(section, int(m.group(1), 16))] = m.group(2)
            continue
        m = HEAD.match(line)
        if m:
            cur = (m.group(2), int(m.group(1), 16), [], section)
            funcs.append(cur)
            continue
        m = INSN.match(line)
        if cur and m:
            # Without objdump's note of a literal's value ("! ...").
            args = re.sub(r'\s*!.*$', '', m.group(3))
            cur[2].append((int(m.group(1), 16), m.group(2), args))
    found = []
    traps = bugs(objdump, path, {f[3] for f in funcs})
    for name, start, insns, sec in funcs:
        if not insns:
            continue
        sec_relocs = {a: v for (s, a), v in relocs.items() if s == sec}
        noret = {a for s, a in traps if s == sec}
        found += [(name, addr - start, op)
                  for addr, op in scan_function(name, insns, sec_relocs, noret)]
    return found


def scan_function(name, insns, relocs, bug_traps):
    """The conditional branches reached with T not set, as (addr, op)."""
    index = {a: i for i, (a, _, _) in enumerate(insns)}

    def target(args):
        m = DEST.match(args.split(',')[-1].strip())
        if m and m.group(2) == name:
            return index.get(int(m.group(1), 16))
        return None

    targets = set()
    for _, op, args in insns:
        if op in ('bt', 'bf', 'bt.s', 'bf.s', 'bt/s', 'bf/s', 'bra'):
            t = target(args)
            if t is not None:
                targets.add(t)

    def callee(i):
        """The function that call i goes to, where the code says."""
        op, args = insns[i][1], insns[i][2]
        if op == 'bsr':
            m = DEST.match(args.strip())
            return m.group(2) if m else None
        if op != 'jsr' or not args.startswith('@r'):
            return None
        reg = args[1:].strip()
        k = i - 1
        while k >= 0:
            _, kop, kargs = insns[k]
            if kargs.split(',')[-1].strip() == reg:
                m = LITERAL.match(kargs.strip()) if kop == 'mov.l' else None
                return relocs.get(int(m.group(1), 16)) if m else None
            if k in targets or kop in ('bra', 'braf', 'jmp', 'rts', 'rte') or kop in CALLS or kop == TRAP:
                return None
            k -= 1
        return None

    # succ[i]: the instructions that may follow insn i, and whether T is
    # set after i on its own (True), not set (False), or as before (None).
    n = len(insns)
    succ = [[] for _ in range(n)]
    effect = [None] * n
    slot_of = {}
    for i, (_, op, args) in enumerate(insns):
        if sets_t(op, args):
            effect[i] = True
        delayed = op in ('bra', 'bsr', 'bsrf', 'jsr', 'jmp', 'braf', 'rts', 'rte',
                         'bt.s', 'bf.s', 'bt/s', 'bf/s')
        if op in ('bt', 'bf', 'bt.s', 'bf.s', 'bt/s', 'bf/s', 'bra'):
            t = target(args)
            j = i + 1 if delayed else None
            if delayed and j < n:
                slot_of[j] = i
            nexts = []
            if t is not None:
                nexts.append(t)
            if op != 'bra':
                nexts.append(i + 2 if delayed else i + 1)
            if delayed and j < n:
                succ[i] = [j]
                succ[j] = [x for x in nexts if x < n]
            else:
                succ[i] = [x for x in nexts if x < n]
        elif op in CALLS:
            if i + 1 < n:
                slot_of[i + 1] = i
                succ[i] = [i + 1]
                returns = callee(i) not in NORETURNS
                succ[i + 1] = [i + 2] if i + 2 < n and returns else []
        elif op == TRAP:
            returns = insns[i][0] not in bug_traps
            succ[i] = [i + 1] if i + 1 < n and returns else []
        elif op in ENDS:
            if i + 1 < n:
                slot_of[i + 1] = i
                succ[i] = [i + 1]
                succ[i + 1] = []
        elif i not in slot_of:
            succ[i] = [i + 1] if i + 1 < n else []
    # The return from a call, after its delay slot: T as the callee left it.
    clobber = set()
    for i, (_, op, _) in enumerate(insns):
        if op in CALLS and i + 2 < n:
            clobber.add((i + 1, i + 2))
        if op == TRAP and i + 1 < n:
            clobber.add((i, i + 1))

    # Must-analysis: T is set at insn i on every path from the entry.
    state = [False] * n
    reached = [False] * n
    work = [0]
    reached[0] = True
    while work:
        i = work.pop()
        out = state[i] if effect[i] is None else effect[i]
        for j in succ[i]:
            val = out and (i, j) not in clobber
            if not reached[j]:
                reached[j], state[j] = True, val
                work.append(j)
            elif state[j] and not val:
                state[j] = False
                work.append(j)
    bad = []
    for i, (addr, op, _) in enumerate(insns):
        if op in ('bt', 'bf', 'bt.s', 'bf.s', 'bt/s', 'bf/s') and reached[i] and not state[i]:
            bad.append((addr, op))
    return bad


def main():
    args = sys.argv[1:]
    if args[:1] == ['--noreturns']:
        with open(args[1]) as f:
            NORETURNS.update(re.findall(r'^NORETURN\((\w+)\)', f.read(), re.M))
        args = args[2:]
    objdump, objs = args[0], args[1:]
    total, funcs, files = 0, set(), set()
    for o in objs:
        for name, off, op in scan(objdump, o):
            print(f'{o}: {name}+{off:#x}: {op}')
            total += 1
            funcs.add((o, name))
            files.add(o)
    print(f'tbit_scan: {total} conditional branches on T that a path reaches with T not set, '
          f'in {len(funcs)} functions of {len(files)} of {len(objs)} objects')
    sys.exit(1 if total else 0)


if __name__ == '__main__':
    main()
