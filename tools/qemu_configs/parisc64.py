# SPDX-License-Identifier: GPL-2.0
# A 64-bit PA-RISC kernel on QEMU's HP C3700 (PA-8700), which QEMU has had
# since 8.2: the kernel that runs 32-bit parisc programs through its compat
# system calls.  Debian 12's QEMU 7.2 has only the B160L: the workbench
# runs qemu-system-hppa of bookworm-backports' QEMU (tools/lib.sh:
# hppa_qemu), with its 64-bit firmware, named by $WORKBENCH_HPPA_FIRMWARE.
# The console is the first port of the HP Diva serial card on the Elroy
# PCI bus.
import os

from ..qemu_config import QemuArchParams

_firmware = os.environ.get('WORKBENCH_HPPA_FIRMWARE')

QEMU_ARCH = QemuArchParams(linux_arch='parisc64',
			   kconfig='''
CONFIG_PCI=y
CONFIG_PCI_LBA=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_SERIAL_8250_PCI=y''',
			   qemu_arch='hppa',
			   kernel_path='vmlinux',
			   kernel_command_line='console=ttyS0',
			   extra_qemu_params=['-machine', 'C3700'] +
			   (['-bios', _firmware] if _firmware else []))
