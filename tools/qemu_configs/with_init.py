# SPDX-License-Identifier: GPL-2.0
# The QEMU config of the one boot of a kernel (tools/boot.sh): the config of
# the kernel's machine, WORKBENCH_QEMU_CONFIG (kunit.py's
# qemu_configs/<arch>.py or the workbench's own), with a kernel command line
# that lets /init run after the built-in KUnit suites.  kunit.py ends the
# machine when the suites are done (kunit_shutdown=reboot, which it adds
# where a config names no kunit_shutdown=); kunit_shutdown=none names no
# action, so the kernel goes on to run /init.  WORKBENCH_KERNEL_ARGS come
# last, so that a console= among them is the one /init writes to.
import dataclasses
import importlib.util
import os
import re

_path = os.environ['WORKBENCH_QEMU_CONFIG']
# Loaded as kunit.py loads a config (its module name makes the config's
# "from ..qemu_config import" find kunit.py's qemu_config).
_spec = importlib.util.spec_from_file_location(
    '.' + os.path.join('qemu_configs', os.path.basename(_path)), _path)
_config = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_config)

_cmdline = re.sub(r'\s*\bkunit_shutdown=\S*', '', _config.QEMU_ARCH.kernel_command_line)
QEMU_ARCH = dataclasses.replace(
    _config.QEMU_ARCH,
    kernel_command_line=' '.join(filter(None, [
        _cmdline, os.environ.get('WORKBENCH_KERNEL_ARGS', ''), 'kunit_shutdown=none'])),
    extra_qemu_params=list(_config.QEMU_ARCH.extra_qemu_params))
