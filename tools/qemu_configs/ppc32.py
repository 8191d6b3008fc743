# SPDX-License-Identifier: GPL-2.0
# A 32-bit native powerpc kernel (PowerMac G3, big-endian), where the
# series' powerpc patch changes native system calls (PPC32_SYSCALL_DEFINE*
# is SYSCALL_DEFINE*).  Linux 6.12's kunit.py has no 32-bit powerpc
# config; the workbench passes this one with --qemu_config.  CUDA is the
# G3's power and reset controller: without it reboot hangs.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='powerpc',
			   kconfig='''
CONFIG_PPC32=y
CONFIG_CPU_BIG_ENDIAN=y
CONFIG_PPC_PMAC=y
CONFIG_ADB_CUDA=y
CONFIG_SERIAL_PMACZILOG=y
CONFIG_SERIAL_PMACZILOG_TTYS=y
CONFIG_SERIAL_PMACZILOG_CONSOLE=y''',
			   qemu_arch='ppc',
			   kernel_path='vmlinux',
			   kernel_command_line='console=ttyS0',
			   extra_qemu_params=['-M', 'g3beige'])
