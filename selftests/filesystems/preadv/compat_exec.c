// SPDX-License-Identifier: GPL-2.0
/*
 * The launcher of a compat build of preadv_test: preadv_test_<abi>, built
 * for the compiler's own ABI, runs preadv_test_<abi>.bin, the test built
 * for the compat ABI, from the same directory and with the same
 * arguments.  The test is skipped, saying why, where it cannot run:
 *
 *  - a kernel that does not run programs of that ABI refuses the exec with
 *    ENOEXEC: the skip says what a kernel runs them with, not which of it
 *    this one lacks, which the launcher cannot know;
 *  - a test linked dynamically (where the compiler had no static C library
 *    for the ABI) on a system without the ABI's loader: the exec fails with
 *    ENOENT although the file is there.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../kselftest.h"

/* The program interpreter that the ELF file @path names, or "". */
static const char *interpreter(const char *path, char *buf, size_t len)
{
	unsigned char ident[EI_NIDENT];
	unsigned long long phoff, off = 0, size = 0;
	unsigned int phnum, phentsize, i;
	int fd = open(path, O_RDONLY);

	buf[0] = '\0';
	if (fd < 0 || pread(fd, ident, sizeof(ident), 0) != sizeof(ident) ||
	    memcmp(ident, ELFMAG, SELFMAG))
		goto out;
	if (ident[EI_CLASS] == ELFCLASS32) {
		Elf32_Ehdr eh;
		Elf32_Phdr ph;

		if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh))
			goto out;
		phoff = eh.e_phoff, phnum = eh.e_phnum, phentsize = eh.e_phentsize;
		for (i = 0; i < phnum; i++)
			if (pread(fd, &ph, sizeof(ph), phoff + i * phentsize) == sizeof(ph) &&
			    ph.p_type == PT_INTERP)
				off = ph.p_offset, size = ph.p_filesz;
	} else {
		Elf64_Ehdr eh;
		Elf64_Phdr ph;

		if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh))
			goto out;
		phoff = eh.e_phoff, phnum = eh.e_phnum, phentsize = eh.e_phentsize;
		for (i = 0; i < phnum; i++)
			if (pread(fd, &ph, sizeof(ph), phoff + i * phentsize) == sizeof(ph) &&
			    ph.p_type == PT_INTERP)
				off = ph.p_offset, size = ph.p_filesz;
	}
	if (size && size < len && pread(fd, buf, size, off) == (ssize_t)size)
		buf[size] = '\0';
out:
	if (fd >= 0)
		close(fd);
	return buf;
}

int main(int argc, char **argv)
{
	const char *slash = strrchr(argv[0], '/');
	int dirlen = slash ? (int)(slash - argv[0] + 1) : 0;
	char path[PATH_MAX], interp[PATH_MAX];

	snprintf(path, sizeof(path), "%.*s%s", dirlen, argv[0], COMPAT_PROG);
	execv(path, argv);
	ksft_print_header();
	if (errno == ENOEXEC)
		ksft_exit_skip("%s programs give ENOEXEC here; a kernel runs them with %s\n",
			       COMPAT_ABI, COMPAT_NEEDS);
	if (errno == ENOENT && !access(path, F_OK) && *interpreter(path, interp, sizeof(interp)))
		ksft_exit_skip("%s is linked dynamically, and this system has no %s, its loader\n",
			       COMPAT_PROG, interp);
	ksft_exit_fail_msg("cannot run %s: %s\n", path, strerror(errno));
}
