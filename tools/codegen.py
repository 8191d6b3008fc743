#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""codegen.py TARGET OBJDUMP BASE SERIES OBJECT...: compare, function by
function, the code of OBJECTs built at the base (in directory BASE) and
with the series (SERIES).  A function is known by its name wherever it is:
one that the series moves to another of the OBJECTs (a call the
architecture drops for the generic one) is compared there.  Its code is
its instructions and relocations, without addresses, with branch targets
taken relative to the function.

Every function whose code is not the same, and every function only one
side has, must be one that EXPECTED names for TARGET, with the change in
its mix of instructions ("+N mnemonic -N mnemonic") that the patch's
changelog explains, or RENAMES names as the same function under another
name; else the exit code is 1."""
import collections
import re
import subprocess
import sys

# The functions whose code the series changes, per target, and the change
# in their mix of instructions: each is explained in the changelog of the
# patch that makes it.
INLINED = ('the generic call inlines the ksys_*() function that its file '
           'defines (fdget(), the vfs_*() call, fput()), where sparc\'s copy '
           'called it; each pair is merged as before, high word shifted '
           '(sllx), low word zero-extended, or')
MIPS_OR = ('merge_64() added the high word, shifted, to the low one (daddu); '
           'compat_arg_u64_glue() ORs them: no bit is set in both')
PARISC_OR = ('COMPAT_SYSCALL_DEFINEx()\'s wrapper takes each word as a long and '
             'truncates it to u32, where parisc\'s function took u32 words, and GCC '
             'then gives the or of the merge its two registers in the other order')
EXPECTED = {
    # 7/12: sparc64's copies against the generic compat calls.
    'sparc64': {
        '__se_compat_sys_fallocate': (
            '+2 and +1 brz +1 brz,pn +2 call +7 mov +1 nop -1 restore -1 ret +2 return '
            '-1 sra +1 srl', INLINED),
        '__se_compat_sys_sync_file_range': (
            '+2 and +1 brz +1 brz,pn +2 call +7 mov +1 nop -1 restore -1 ret +2 return '
            '-1 sra +1 srl', INLINED),
        '__se_compat_sys_pread64': (
            '+1 add +1 and +1 bne,pn +1 brlz,pn +1 brnz,pn +1 brz +1 brz,pn +1 btst '
            '+2 call +1 ld +6 mov +3 nop +4 return +1 save +1 srl -1 srlx +1 stx',
            INLINED + '; the count, size_t there and compat_size_t in sparc\'s, is '
            'not masked to 32 bits: the 32-bit entry has zero-extended it'),
        '__se_compat_sys_pwrite64': (
            '+1 add +1 and +1 bne,pn +1 brlz,pn +1 brnz,pn +1 brz +1 brz,pn +1 btst '
            '+2 call +1 ld +6 mov +3 nop +4 return +1 save +1 srl -1 srlx +1 stx',
            INLINED + '; the count, size_t there and compat_size_t in sparc\'s, is '
            'not masked to 32 bits: the 32-bit entry has zero-extended it'),
        '__se_compat_sys_readahead': (
            '-2 and +1 srl -1 srlx',
            'the count, size_t, is not masked to 32 bits (the 32-bit entry has '
            'zero-extended it), and the low word is zero-extended with srl where '
            'sparc\'s masked it with and'),
        '__se_sys_fadvise64': (
            '-3 and -1 brnz,pn -1 brz -2 brz,pn -3 call -2 ldx -4 mov -2 nop +1 restore '
            '+1 ret -3 return -1 sra -1 srl',
            'ksys_fadvise64_64() has a third caller in mm/fadvise.c, the compat '
            'call, and GCC calls it from the native ones instead of inlining it'),
        '__se_sys_fadvise64_64': (
            '-3 and -1 brnz,pn -1 brz -2 brz,pn -3 call -2 ldx -4 mov -2 nop +1 restore '
            '+1 ret -3 return -1 sra -1 srl',
            'ksys_fadvise64_64() has a third caller in mm/fadvise.c, the compat '
            'call, and GCC calls it from the native ones instead of inlining it'),
        '__se_compat_sys_sparc_sigaction': (
            'immediates 0x90 -> 0x86',
            'the line of its WARN_ON_ONCE(), 10 lines up in sys_sparc32.c'),
        'read_pages': ('immediates 0xc0 -> 0xc1',
                       'the line of a WARN, one line down in mm/readahead.c (6/12)'),
        'sync_filesystem': ('immediates 0x26 -> 0x27',
                            'the line of a WARN, one line down in fs/sync.c (6/12)'),
    },
    # 2/12: MIPS' o32 wrappers.
    **{t: dict(
        {f: (d, MIPS_OR) for f, d in (
            ('__se_sys_32_truncate64', '-1 daddu +1 or'),
            ('__se_sys_32_ftruncate64', '-1 daddu +1 or'),
            ('__se_sys_32_pread', '-1 daddu +1 or'),
            ('__se_sys_32_pwrite', '-1 daddu +1 or'),
            ('sys32_readahead', '-1 daddu +1 or'),
            ('sys32_fadvise64_64', '-2 daddu +2 or'),
            ('sys32_sync_file_range', '-2 daddu +2 or'))},
        __se_compat_sys_fallocate=(
            '+1 and +1 andi +1 beqz +1 bnez +2 daddiu -2 daddu +2 jal +2 jr +18 ld +2 li '
            '+6 move +2 nop +2 or +6 sd +2 sll',
            'the generic call inlines ksys_fallocate(), which fs/open.c defines '
            '(fdget(), vfs_fallocate(), fput()), where sys32_fallocate() called it; '
            'it ORs each pair as the others now do, and its wrapper sign-extends '
            'fd and mode (sll), as COMPAT_SYSCALL_DEFINE6() does with an int')) for t in ('mips64', 'mips64el')},
    # 8/12: truncate64() and ftruncate64() take u32 words.
    'x86_64': {
        f'__x64_sys_ia32_{c}': (
            '+1 mov',
            'the x86-64 stub that SYSCALL_DEFINEx() also makes, and that no '
            'system call table names, reads the low word as a u32 (one mov) '
            'where it ORed in the whole unsigned long; the __ia32_sys_*() stub '
            'of the i386 table is the same code')
        for c in ('truncate64', 'ftruncate64')},
    # 3/12: ppc_truncate64() and ppc_ftruncate64() take u32 words.
    'ppc64': {
        f'__se_compat_sys_ppc_{c}': (
            '+1 mr -1 or +1 rldimi -1 sldi',
            'its words are u32 where they were unsigned long, so GCC inserts '
            'the high word above the low one with rldimi where it shifted '
            'one 64-bit register (sldi) and ORed in the other')
        for c in ('truncate64', 'ftruncate64')},
    # 4/12: arm64's compat fallocate, now the generic one.
    'arm64': {
        '__arm64_compat_sys_fallocate': (
            '+1 and +1 autiasp +1 b +2 bl +1 cbz +5 ldp +2 ldr +8 mov +1 ret +2 stp '
            '+1 str +1 tbnz',
            'the generic call inlines ksys_fallocate(), which fs/open.c defines '
            '(fdget(), vfs_fallocate(), fput()), where arm64\'s called it; each '
            'pair is merged as before, by one orr of the low word with the high '
            'word shifted left by 32'),
    },
    # 9/12: the calls of the 32-bit kernel.
    'parisc': {
        '__se_sys_parisc_ftruncate64': (
            '+1 ldi +1 stw',
            'it calls ksys_ftruncate(fd, length, FTRUNCATE_LFS), whose third '
            'argument goes on the stack, where it called sys_ftruncate64(fd, '
            'length), which does only that'),
    },
    # 9/12: the same calls, compat calls of the 64-bit kernel.
    'parisc64': dict(
        {f'__se_compat_sys_parisc_{c}': ('operands of or in another order', PARISC_OR)
         for c in ('truncate64', 'ftruncate64', 'pread64', 'pwrite64', 'readahead')},
        **{f'__se_compat_sys_parisc_{c}': ('the same mix, in another order', PARISC_OR +
                                           '; with two pairs to merge, GCC schedules '
                                           'the same instructions in another order')
           for c in ('fadvise64_64', 'sync_file_range', 'fallocate')}),
}

# Functions that the series gives another name, per target: base name ->
# series name (SYSCALL_DEFINEx() names a function __se_sys_NAME, and
# makes sys_NAME an alias of it; objdump shows the first).
RENAMES = {
    # 9/12: the 32-bit kernel's parisc_*() are sys_parisc_*(), aliases of
    # __se_sys_parisc_*(), as SYSCALL_DEFINEx() makes them.
    'parisc': {f'parisc_{c}': f'__se_sys_parisc_{c}' for c in (
        'truncate64', 'ftruncate64', 'pread64', 'pwrite64', 'readahead',
        'fadvise64_64', 'sync_file_range', 'fallocate')},
    # On the 64-bit kernel they are compat_sys_parisc_*(), aliases of
    # __se_compat_sys_parisc_*().
    'parisc64': {f'parisc_{c}': f'__se_compat_sys_parisc_{c}' for c in (
        'truncate64', 'ftruncate64', 'pread64', 'pwrite64', 'readahead',
        'fadvise64_64', 'sync_file_range', 'fallocate')},
    # 2/12: MIPS' own compat fallocate against the generic one.
    'mips64': {'sys32_fallocate': '__se_compat_sys_fallocate'},
    'mips64el': {'sys32_fallocate': '__se_compat_sys_fallocate'},
    # 5/12: sys_fadvise64_64_wrapper() is sh_fadvise64_64() of
    # SYSCALL_DEFINE6(), whose code is __se_sys_sh_fadvise64_64().
    'sh': {'sys_fadvise64_64_wrapper': '__se_sys_sh_fadvise64_64'},
    'shbe': {'sys_fadvise64_64_wrapper': '__se_sys_sh_fadvise64_64'},
    # 4/12: arm64's own compat fallocate against the generic one.
    'arm64': {'__arm64_compat_sys_aarch32_fallocate': '__arm64_compat_sys_fallocate'},
}

HEAD = re.compile(r'^([0-9a-f]+) <([^>]+)>:$')
SECTION = re.compile(r'^Disassembly of section (\S+):$')
INSN = re.compile(r'^\s*([0-9a-f]+):\t(.*)$')
# objdump's note of an address that an operand or an immediate makes
# (sparc "! ...", x86 and others "# ...", arm64 "// ..."), and a symbol
# with an offset.
NOTE = re.compile(r'\s*(?:!|#|//)\s*(?:0x)?[0-9a-f]+\s*<[^>]*>')
SYMREF = re.compile(r'\b(?:0x)?[0-9a-f]+ <([^>+]+)(\+0x[0-9a-f]+)?>')
SECREF = re.compile(r'(\.text[\w.]*)\+0x([0-9a-f]+)')


# A no-op: nop, and x86's longer forms of it (nopl, nopw with prefixes,
# xchg %ax,%ax).
NOP = re.compile(r'^(?:(?:data16|cs|ds) )*(?:nop\w*|xchg %ax,%ax)(?: .*)?$')


class Line(str):
    """A normalized line, which knows its offset in its function."""
    off = 0


def functions(objdump, path):
    """{name: [normalized lines]} of the object at PATH.  Addresses go:
    a branch within the function is an offset, a reference to a place in
    a text section (a relocation against .text+0x...) the function there."""
    out = subprocess.run([objdump, '-dr', '--no-show-raw-insn', path],
                         capture_output=True, text=True, check=True).stdout
    starts = {}
    section = None
    for line in out.split('\n'):
        m = SECTION.match(line)
        if m:
            section = m.group(1)
        m = HEAD.match(line)
        if m:
            starts.setdefault(section, []).append((int(m.group(1), 16), m.group(2)))

    def place(sec, off):
        best = None
        for start, name in starts.get(sec, []):
            if start <= off and (best is None or start >= best[0]):
                best = (start, name)
        if best is None:
            return f'{sec}+{off:#x}'
        return best[1] + (f'+{off - best[0]:#x}' if off != best[0] else '')

    funcs, cur, name, start = {}, None, None, 0
    for line in out.split('\n'):
        m = SECTION.match(line)
        if m:
            section = m.group(1)
        m = HEAD.match(line)
        if m:
            name, start = m.group(2), int(m.group(1), 16)
            cur = funcs.setdefault(name, [])
            continue
        m = INSN.match(line)
        if cur is None or not m:
            continue
        text = NOTE.sub('', m.group(2))
        # A branch out of the function (into code that another function
        # shares, or a tail call that the relocation names) goes
        # "elsewhere": where that is moves with the other functions.
        text = SYMREF.sub(lambda t: '<' + (t.group(2) or '') + '>' if t.group(1) == name
                          else '<elsewhere>', text)
        text = SECREF.sub(lambda t: place(t.group(1), int(t.group(2), 16)), text)
        # Where merged strings land in .rodata.str may move.
        text = re.sub(r'(\.rodata\.str[0-9.]*)\+0x[0-9a-f]+', r'\1', text)
        line = Line(' '.join(text.split()))
        line.off = int(m.group(1), 16) - start
        cur.append(line)
    for code in funcs.values():
        # The padding to the next function's alignment: nops, and on
        # sparc the annulled branch over them.
        padded = False
        while code and NOP.match(code[-1]):
            code.pop()
            padded = True
        if padded and code and code[-1].startswith('b,a '):
            code.pop()
    return funcs


def without_nops(code):
    """CODE without its nops, and with the offsets of its branches counted
    in the instructions that are not nops (a branch to a nop goes to the
    instruction after it)."""
    index, n = {}, 0
    for line in code:
        if line.startswith('R_'):
            continue
        index[line.off] = n
        if not NOP.match(line):
            n += 1
    out = []
    for line in code:
        if NOP.match(line):
            continue
        out.append(re.sub(r'<(\+0x[0-9a-f]+)?>',
                          lambda t: f'<#{index.get(int(t.group(1) or "0", 16), "?")}>', line))
    return out


def immediates_only(a, b):
    """The immediates that differ, as "X -> Y" strings, if A and B differ
    in nothing else; else None."""
    if len(a) != len(b):
        return None
    num = re.compile(r'(?<![\w.])-?(?:0x[0-9a-f]+|\d+)\b')
    changes = []
    for x, y in zip(a, b):
        if x == y:
            continue
        if num.sub('N', x) != num.sub('N', y):
            return None
        changes += [f'{p} -> {q}' for p, q in zip(num.findall(x), num.findall(y)) if p != q]
    return changes


# The instructions whose two sources may come in either order.
COMMUTATIVE = {'or', 'orr', 'and', 'xor', 'eor', 'add', 'addu', 'daddu', 'add.l', 'or.l'}


def commuted_only(a, b):
    """The mnemonics of the commutative instructions whose operands A and B
    give in another order (the same destination, first or last, and the
    same operands), if A and B differ in nothing else; else None."""
    if len(a) != len(b):
        return None
    swapped = []
    for x, y in zip(a, b):
        if x == y:
            continue
        mx, _, ox = x.partition(' ')
        my, _, oy = y.partition(' ')
        ox, oy = ox.replace(' ', '').split(','), oy.replace(' ', '').split(',')
        if (mx != my or mx not in COMMUTATIVE or len(ox) != 3 or
                sorted(ox) != sorted(oy) or
                not (ox[0] == oy[0] or ox[-1] == oy[-1])):
            return None
        swapped.append(mx)
    return sorted(set(swapped))


def mnemonics(lines):
    return collections.Counter(l.split()[0] for l in lines
                               if l and not l.startswith('R_'))


def delta(a, b):
    ma, mb = mnemonics(a), mnemonics(b)
    d = []
    for k in sorted(set(ma) | set(mb)):
        n = mb[k] - ma[k]
        if n:
            d.append(f'{"+" if n > 0 else ""}{n} {k}')
    return ' '.join(d) or 'the same mix, in another order'


def main():
    target, objdump, base, series, objs = (sys.argv[1], sys.argv[2], sys.argv[3],
                                            sys.argv[4], sys.argv[5:])
    expected = EXPECTED.get(target, {})
    renames = RENAMES.get(target, {})
    fb, fs, where_b, where_s = {}, {}, {}, {}
    for o in objs:
        for name, code in functions(objdump, f'{base}/{o}').items():
            fb[name], where_b[name] = code, o
        for name, code in functions(objdump, f'{series}/{o}').items():
            fs[name], where_s[name] = code, o
    for old, new in renames.items():
        if old in fb and new in fs and new not in fb:
            fb[new], where_b[new] = fb.pop(old), where_b.pop(old)
    same = 0
    bad = 0
    for name in sorted(set(fb) | set(fs)):
        a, b = fb.get(name), fs.get(name)
        moved = where_b.get(name) != where_s.get(name) and a is not None and b is not None
        place = f' ({where_b[name]} -> {where_s[name]})' if moved else ''
        shown = name
        old = next((o for o, n in renames.items() if n == name), None)
        if old and a is not None:
            shown = f'{old} -> {name}'
        if a == b:
            if moved or old:
                print(f'{shown}: code identical{place}')
            else:
                same += 1
            continue
        imm = immediates_only(a, b) if a is not None and b is not None else None
        com = commuted_only(a, b) if a is not None and b is not None else None
        if a is not None and b is not None and without_nops(a) == without_nops(b):
            # A label that GCC aligns lands elsewhere when code before
            # the function grew or shrank: nops pad to it, and do nothing.
            print(f'{shown}: {delta(a, b)}{place}, the padding of an aligned label only')
            continue
        if a is None:
            what = 'only with the series'
        elif b is None:
            what = 'only at the base'
        elif imm:
            what = 'immediates ' + ', '.join(imm)
        elif com:
            what = 'operands of ' + ', '.join(com) + ' in another order'
        else:
            what = delta(a, b)
        want = expected.get(name)
        if want is not None and want[0] == what:
            print(f'{shown}: {what}{place}, as expected: {want[1]}')
        else:
            print(f'{shown}: UNEXPLAINED: {what}{place}')
            bad = 1
    print(f'{same} functions identical in place')
    sys.exit(bad)


if __name__ == '__main__':
    main()
