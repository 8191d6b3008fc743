#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot a kernel that kunit.py built with an initramfs, under the QEMU
command line of kunit.py's own qemu_configs/<arch>.py, with a timeout.
The console goes to a log file; the exit code says whether QEMU exited by
itself (0) or was killed at the timeout (124)."""
import argparse
import os
import re
import shlex
import subprocess
import sys
import threading


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tree', required=True)
    machine = ap.add_mutually_exclusive_group(required=True)
    machine.add_argument('--arch')
    machine.add_argument('--qemu_config')
    ap.add_argument('--build_dir', required=True)
    ap.add_argument('--initrd', required=True)
    ap.add_argument('--log', required=True)
    ap.add_argument('--timeout', type=int, default=600)
    ap.add_argument('--kernel_args', action='append', default=[])
    a = ap.parse_args()

    sys.path.insert(0, os.path.join(a.tree, 'tools/testing/kunit'))
    import kunit_kernel
    # The arch's QemuArchParams, loaded as kunit.py loads them; the command
    # line is kunit.py's (LinuxSourceTreeOperationsQemu.start()) but for
    # kunit_shutdown (reboot, or sparc64's poweroff), which would end the
    # machine before /init runs.
    _, ops = kunit_kernel._get_qemu_ops(
        a.qemu_config or kunit_kernel._default_qemu_config_path(a.arch), [], None)
    # --kernel_args come after kunit.py's, so that a console= among them is
    # the last one: the kernel opens /dev/console on the last console=.
    params = ['rdinit=/init', 'kunit.enable=0', 'panic=-1']
    cmdline = re.sub(r'\s*\bkunit_shutdown=\S*', '', ops._kernel_command_line)
    command = ['qemu-system-' + ops._qemu_arch, '-nodefaults', '-m', '1024',
               '-kernel', os.path.join(a.build_dir, ops._kernel_path),
               '-initrd', a.initrd,
               '-append', ' '.join(params + [cmdline] + a.kernel_args),
               '-no-reboot', '-nographic', '-serial', ops._serial] + ops._extra_qemu_params
    with open(a.log, 'w') as log:
        log.write('$ ' + ' '.join(shlex.quote(c) for c in command) + '\n')
        proc = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, errors='backslashreplace')
        timer = threading.Timer(a.timeout, proc.kill)
        timer.start()
        for line in proc.stdout:
            log.write(line)
            log.flush()
        proc.wait()
        timed_out = not timer.is_alive()
        timer.cancel()
        if timed_out:
            log.write(f'\nboot.py: QEMU killed after {a.timeout}s\n')
            sys.exit(124)


if __name__ == '__main__':
    main()
