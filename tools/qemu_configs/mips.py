# SPDX-License-Identifier: GPL-2.0
# A 32-bit big-endian MIPS kernel on QEMU's Malta board, for a MIPS32 R2
# CPU (QEMU's default for it, the 24Kf).
# Linux 6.12's kunit.py has no MIPS config (mainline has had its own
# since 6.18); the workbench passes this one with --qemu_config.  The
# console is the Malta's 8250 UART; kunit_shutdown=reboot goes through
# the syscon-reboot node of the built-in device tree, hence
# POWER_RESET_SYSCON, and QEMU, run with -no-reboot, exits.
from ..qemu_config import QemuArchParams

QEMU_ARCH = QemuArchParams(linux_arch='mips',
			   kconfig='''
CONFIG_MIPS_MALTA=y
CONFIG_CPU_MIPS32_R2=y
CONFIG_32BIT=y
CONFIG_CPU_BIG_ENDIAN=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_POWER_RESET=y
CONFIG_POWER_RESET_SYSCON=y''',
			   qemu_arch='mips',
			   kernel_path='vmlinux',
			   kernel_command_line='console=ttyS0',
			   extra_qemu_params=['-M', 'malta'])
