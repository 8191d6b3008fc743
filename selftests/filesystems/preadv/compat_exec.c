// SPDX-License-Identifier: GPL-2.0
/*
 * The launcher of a compat build of preadv_test: preadv_test_<abi>, built
 * for the compiler's own ABI, runs preadv_test_<abi>.bin, the test built
 * for the compat ABI, from the same directory and with the same
 * arguments.  A kernel that cannot run programs of that ABI (built
 * without it, or booted with it off) refuses the exec with ENOEXEC: the
 * test is then skipped, with the ABI and what the kernel lacks.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../kselftest.h"

int main(int argc, char **argv)
{
	const char *slash = strrchr(argv[0], '/');
	int dirlen = slash ? (int)(slash - argv[0] + 1) : 0;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%.*s%s", dirlen, argv[0], COMPAT_PROG);
	execv(path, argv);
	ksft_print_header();
	if (errno == ENOEXEC)
		ksft_exit_skip("%s programs do not run on this kernel: it needs %s\n",
			       COMPAT_ABI, COMPAT_NEEDS);
	ksft_exit_fail_msg("cannot run %s: %s\n", path, strerror(errno));
}
