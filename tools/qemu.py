#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qemu-system-ARCH as every boot of the workbench starts it: kunit.py's
(which asks for -accel kvm, then hvf, then tcg) and tools/boot.py's.
tools/bin/qemu-system-* are links to this file, first on the workbench's
PATH; it runs the next qemu-system-ARCH on PATH (its first line of
output names it and its version) with one accelerator of its own choice,
and its next line says which, and why:

 - ACCEL=tcg or ACCEL=kvm (WORKBENCH_ACCEL): that one (ACCEL=kvm where
   KVM can run the guest at all: an error if /dev/kvm cannot be opened);
 - TCG for a guest that KVM cannot run on this host (another architecture),
   where /dev/kvm cannot be opened, or where KVM failed earlier in the
   same run (the run's state file, WORKBENCH_ACCEL_STATE);
 - else KVM, on probation: a guest whose kernel does not print its
   banner within the start bound under KVM (QEMU's own messages and the
   firmware's lines do not count), that ends before it, or that KVM
   cannot run (QEMU's "KVM internal error") is stopped, the run's state
   file says why, and the same command runs again under TCG, as does
   every later boot of the run.

Whatever the accelerator, a machine that prints nothing at all within
WORKBENCH_START_BOUND seconds did not start: QEMU is stopped, the last
line says so, with the command and the accelerator, and the exit code is
125.  A machine that printed something runs until it ends or its caller
stops it (SIGTERM, SIGINT, SIGHUP: passed on; and QEMU dies with this
process, PR_SET_PDEATHSIG).  The time to the first console byte of each
boot is appended to WORKBENCH_QEMU_STARTS, if set, with WORKBENCH_BOOT
(which boot it is) and the accelerator."""
import ctypes
import os
import select
import shlex
import signal
import subprocess
import sys
import time

# What this host's KVM can run: the QEMU targets of its own architecture.
KVM_TARGETS = {
    'x86_64': ('x86_64', 'i386'),
    'aarch64': ('aarch64', 'arm'),
}
EXIT_NOT_STARTED = 125
PREFIX = 'workbench-qemu: '


def say(msg):
    sys.stdout.buffer.write((PREFIX + msg + '\n').encode())
    sys.stdout.buffer.flush()


def real_qemu(name):
    """The next NAME on PATH that is not a link to this file or to the same
    file of another clone of the workbench (two clones' tools/bin on PATH
    would start each other)."""
    me = os.path.basename(os.path.realpath(__file__))
    for d in os.environ.get('PATH', '').split(os.pathsep):
        p = os.path.join(d or '.', name)
        if os.access(p, os.X_OK) and os.path.basename(os.path.realpath(p)) != me:
            return p
    sys.exit(f'{PREFIX}no {name} on PATH but the workbench\'s own (make deps installs it)')


def strip_accel(args):
    """ARGS without the -accel options and -enable-kvm that they hold."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a == '-accel':
            skip = True
        elif not a.startswith('-accel=') and a != '-enable-kvm':
            out.append(a)
    return out


def kvm_usable(dev):
    """'' if DEV opens for reading and writing, else why not."""
    try:
        os.close(os.open(dev, os.O_RDWR | os.O_CLOEXEC))
        return ''
    except OSError as e:
        return f'{dev}: {e.strerror}'


def read_state(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ''


def choose(target):
    """(accelerator, why, on probation)."""
    forced = os.environ.get('WORKBENCH_ACCEL', '')
    dev = os.environ.get('WORKBENCH_KVM_DEV', '/dev/kvm')
    host = os.uname().machine
    if forced == 'tcg':
        return 'tcg', 'ACCEL=tcg', False
    if forced == 'kvm':
        if target not in KVM_TARGETS.get(host, ()):
            return 'tcg', f'ACCEL=kvm, but KVM on a {host} host runs no {target} guest', False
        why = kvm_usable(dev)
        if why:
            sys.exit(f'{PREFIX}ACCEL=kvm, but {why}')
        return 'kvm', 'ACCEL=kvm', False
    if forced not in ('', 'auto'):
        sys.exit(f'{PREFIX}ACCEL={forced}: tcg, kvm or auto')
    if target not in KVM_TARGETS.get(host, ()):
        return 'tcg', f'{target} guest on a {host} host', False
    why = kvm_usable(dev)
    if why:
        return 'tcg', f'no KVM: {why}', False
    state = read_state(os.environ.get('WORKBENCH_ACCEL_STATE', '/dev/null'))
    if state:
        return 'tcg', state, False
    return 'kvm', f'{dev}', True


def die_with_parent():
    """In the child: SIGKILL when the wrapper dies, however it dies."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


# What QEMU prints when KVM cannot run the guest at all, and then stops the
# guest and waits: an instruction that this host's KVM cannot emulate
# (seen on a host with a /dev/kvm and no vmx or svm in its CPU flags).
KVM_FAILED = b'KVM internal error'
# What every kernel of the matrix prints first on its console.
BANNER = b'Linux version '


def run(cmd, bound, probation=False):
    """Run CMD, copying its output; (exit code, seconds to the first byte
    of the guest's console, or None if there was none within BOUND).
    What QEMU itself says (its standard error: a warning about a CPU
    feature the host lacks, say) is copied too, but is not the guest's.
    On probation (under KVM), the guest's kernel must print its banner
    within BOUND: the firmware's lines are not enough (on this host's KVM
    the firmware of an i386 guest printed, and its kernel never did).
    Else, or on QEMU's "KVM internal error", QEMU is stopped:
    (None, why)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=die_with_parent)

    def stop(signum, _frame):
        proc.kill()
        proc.wait()
        sys.exit(128 + signum)
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, stop)

    def give_up(why):
        proc.kill()
        proc.wait()
        return None, why

    console, err = proc.stdout.fileno(), proc.stderr.fileno()
    fds = [console, err]
    t0 = time.monotonic()
    first = None
    banner = not probation
    tail = b''
    out = sys.stdout.buffer
    while fds:
        left = None
        if first is None or not banner:
            left = bound - (time.monotonic() - t0)
            if left <= 0:
                return give_up('no kernel banner' if first is not None else None)
        ready, _, _ = select.select(fds, [], [], left)
        for fd in ready:
            data = os.read(fd, 65536)
            if not data:
                fds.remove(fd)
                continue
            out.write(data)
            out.flush()
            if fd == err:
                if probation and KVM_FAILED in data:
                    return give_up('internal')
                continue
            if first is None:
                first = time.monotonic() - t0
            if not banner:
                banner = BANNER in tail + data
                tail = data[-len(BANNER):]
    rc = proc.wait()
    if not banner:
        return None, 'ended'
    return rc, first


def qemu_version(qemu):
    """The version QEMU says it is ("10.0.2 (Debian ...)"), or '?'.  A
    QEMU that does not answer dies with this wrapper, which its caller
    may stop before the boot has begun (kunit.py's timeout)."""
    try:
        out = subprocess.run([qemu, '-version'], capture_output=True, text=True,
                             timeout=30, preexec_fn=die_with_parent).stdout
    except (OSError, subprocess.TimeoutExpired):
        return '?'
    first = out.split('\n', 1)[0]
    return first.split(' version ', 1)[1] if ' version ' in first else '?'


def log_start(target, accel, first):
    path = os.environ.get('WORKBENCH_QEMU_STARTS')
    if not path:
        return
    with open(path, 'a') as f:
        f.write(f'{os.environ.get("WORKBENCH_BOOT", "-")}\t{target}\t{accel}\t'
                f'{"-" if first is None else f"{first:.2f}"}\n')


def main():
    name = os.path.basename(sys.argv[0])
    target = name[len('qemu-system-'):]
    qemu = real_qemu(name)
    args = strip_accel(sys.argv[1:])
    bound = float(os.environ.get('WORKBENCH_START_BOUND', '60'))
    accel, why, probation = choose(target)
    say(f'QEMU {qemu_version(qemu)} ({qemu})')
    while True:
        if probation:
            say(f'accelerator kvm ({why}; TCG if its kernel prints no banner in {bound:g}s)')
        else:
            say(f'accelerator {accel} ({why})')
        cmd = [qemu, '-accel', accel] + args
        rc, first = run(cmd, bound, probation=probation)
        failed = first if isinstance(first, str) else None
        if failed or rc is None:
            first = None
        log_start(target, accel, first)
        if first is not None:
            sys.exit(rc if rc >= 0 else 128 - rc)
        if probation:
            why = 'KVM did not run the guest: ' + {
                'internal': 'a KVM internal error',
                'ended': 'QEMU ended before the kernel\'s banner',
                'no kernel banner': f'no kernel banner in {bound:g}s under KVM',
            }.get(failed, f'no console output in {bound:g}s under KVM')
            state = os.environ.get('WORKBENCH_ACCEL_STATE')
            if state:
                with open(state, 'w') as f:
                    f.write(why + '\n')
            say(f'{why}; TCG for this boot and the rest of the run')
            accel, probation = 'tcg', False
            continue
        say(f'the machine did not start: no console output in {bound:g}s '
            f'(QEMU {name}, accelerator {accel}): {shlex.join(cmd)}')
        sys.exit(EXIT_NOT_STARTED)


if __name__ == '__main__':
    main()
