# SPDX-License-Identifier: GPL-2.0
# A 32-bit PA-RISC kernel on QEMU's HP B160L (PA7300LC), the only machine
# of Debian 12's qemu-system-hppa.  Linux 7.3's kunit.py has no parisc
# config; the workbench passes this one with --qemu_config.  The console is
# the 16550 of the LASI chip.  The firmware is the one the workbench
# fetches (tools/lib.sh: hppa_firmware), named by $WORKBENCH_HPPA_FIRMWARE;
# without it, QEMU's own.
import os

from ..qemu_config import QemuArchParams

_firmware = os.environ.get('WORKBENCH_HPPA_FIRMWARE')

QEMU_ARCH = QemuArchParams(linux_arch='parisc',
			   kconfig='''
CONFIG_PA7300LC=y
CONFIG_GSC_LASI=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y''',
			   qemu_arch='hppa',
			   kernel_path='vmlinux',
			   kernel_command_line='console=ttyS0',
			   extra_qemu_params=['-bios', _firmware] if _firmware else [])
