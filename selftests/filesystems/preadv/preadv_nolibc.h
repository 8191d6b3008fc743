/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What preadv_test uses of a C library and nolibc does not have, for the
 * ABIs that no C library is installed for (the Makefile builds them with
 * the tree's nolibc, -include nolibc.h, which defines NOLIBC).
 *
 * Each function here has a name of its own, preadv_nolibc_NAME(), and the
 * test calls it by NAME(), a function-like macro: the day nolibc has a
 * NAME of its own, the test still calls this one, and neither is defined
 * twice; a case named NAME, TEST_F(pair, fallocate), keeps its name.
 * What nolibc has (ftruncate() among them) is nolibc's.
 *
 * The calls that pass a 64-bit value in a register pair are written out as
 * the C libraries of the 32-bit ABIs do it: the value as its two words in
 * memory order, nolibc's __NOLIBC_LLARGPART(), and, on 32-bit powerpc,
 * whose calling convention starts a pair at an odd-numbered register (r3,
 * r5, r7), a word of padding before a pair that would start at an even
 * one, as nolibc's ftruncate() does for powerpc (its _sys_ftruncate64());
 * there fadvise64_64() and sync_file_range2() take the int argument first
 * so that no padding is needed.  The test checks what the kernel makes of
 * these words; this file only has to put them where the ABI says.
 */
#ifndef __PREADV_NOLIBC_H
#define __PREADV_NOLIBC_H

#include <linux/fadvise.h>
#include <linux/falloc.h>
#include <linux/fcntl.h>
#include <linux/uio.h>
#include <asm/statfs.h>

#if __SIZEOF_LONG__ != 4
#error "preadv_nolibc.h: only 32-bit ABIs are built with nolibc"
#endif

#ifndef __O_LARGEFILE
#define __O_LARGEFILE	O_LARGEFILE
#endif

/* The words of a 64-bit value, in memory order. */
#define WORD0(x)	__NOLIBC_LLARGPART(x, 0)
#define WORD1(x)	__NOLIBC_LLARGPART(x, 1)
#ifdef __powerpc__
#define PAIR_PAD	0,
#else
#define PAIR_PAD
#endif

#undef pread
#define pread(...) preadv_nolibc_pread(__VA_ARGS__)
static inline ssize_t preadv_nolibc_pread(int fd, void *buf, size_t count, off_t pos)
{
	return syscall(__NR_pread64, fd, buf, count,
		       PAIR_PAD WORD0(pos), WORD1(pos));
}

#undef pwrite
#define pwrite(...) preadv_nolibc_pwrite(__VA_ARGS__)
static inline ssize_t preadv_nolibc_pwrite(int fd, const void *buf, size_t count, off_t pos)
{
	return syscall(__NR_pwrite64, fd, buf, count,
		       PAIR_PAD WORD0(pos), WORD1(pos));
}

#undef truncate
#define truncate(...) preadv_nolibc_truncate(__VA_ARGS__)
static inline int preadv_nolibc_truncate(const char *path, off_t len)
{
	return syscall(__NR_truncate64, path, PAIR_PAD WORD0(len), WORD1(len));
}

#undef fallocate
#define fallocate(...) preadv_nolibc_fallocate(__VA_ARGS__)
static inline int preadv_nolibc_fallocate(int fd, int mode, off_t off, off_t len)
{
	return syscall(__NR_fallocate, fd, mode, WORD0(off), WORD1(off),
		       WORD0(len), WORD1(len));
}

#undef readahead
#define readahead(...) preadv_nolibc_readahead(__VA_ARGS__)
static inline ssize_t preadv_nolibc_readahead(int fd, off_t off, size_t count)
{
	return syscall(__NR_readahead, fd, PAIR_PAD WORD0(off), WORD1(off),
		       count);
}

/* Like the C libraries': the error number, not -1 and errno. */
#undef posix_fadvise
#define posix_fadvise(...) preadv_nolibc_posix_fadvise(__VA_ARGS__)
static inline int preadv_nolibc_posix_fadvise(int fd, off_t off, off_t len, int advice)
{
	long ret;

#ifdef __powerpc__
	ret = _syscall(__NR_fadvise64_64, fd, advice,
		       WORD0(off), WORD1(off), WORD0(len), WORD1(len));
#else
	ret = _syscall(__NR_fadvise64_64, fd,
		       WORD0(off), WORD1(off), WORD0(len), WORD1(len), advice);
#endif
	return -ret;
}

#undef sync_file_range
#define sync_file_range(...) preadv_nolibc_sync_file_range(__VA_ARGS__)
static inline int preadv_nolibc_sync_file_range(int fd, off_t off, off_t n,
						unsigned int flags)
{
#ifdef __powerpc__
	return syscall(__NR_sync_file_range2, fd, flags,
		       WORD0(off), WORD1(off), WORD0(n), WORD1(n));
#else
	return syscall(__NR_sync_file_range, fd,
		       WORD0(off), WORD1(off), WORD0(n), WORD1(n), flags);
#endif
}

/* The C library's entry: the split of raw_rw(), (long)pos and pos >> 32. */
#undef preadv
#define preadv(...) preadv_nolibc_preadv(__VA_ARGS__)
static inline ssize_t preadv_nolibc_preadv(int fd, const struct iovec *iov, int cnt, off_t pos)
{
	return syscall(__NR_preadv, fd, iov, cnt, (long)pos, (long)(pos >> 32));
}

#undef pwritev
#define pwritev(...) preadv_nolibc_pwritev(__VA_ARGS__)
static inline ssize_t preadv_nolibc_pwritev(int fd, const struct iovec *iov, int cnt, off_t pos)
{
	return syscall(__NR_pwritev, fd, iov, cnt, (long)pos, (long)(pos >> 32));
}

#undef mincore
#define mincore(...) preadv_nolibc_mincore(__VA_ARGS__)
static inline int preadv_nolibc_mincore(void *addr, size_t len, unsigned char *vec)
{
	return syscall(__NR_mincore, addr, len, vec);
}

#undef fcntl
#define fcntl(...) preadv_nolibc_fcntl(__VA_ARGS__)
static inline int preadv_nolibc_fcntl(int fd, int cmd, ...)
{
	va_list ap;
	long arg;

	va_start(ap, cmd);
	arg = va_arg(ap, long);
	va_end(ap);
	return syscall(__NR_fcntl64, fd, cmd, arg);
}

static inline bool is_tmpfs(const char *path)
{
	struct statfs64 sfs;

	return syscall(__NR_statfs64, path, sizeof(sfs), &sfs) == 0 &&
	       sfs.f_type == TMPFS_MAGIC;
}

/* mkostemp() and mkdtemp(): the X's from the pid and a counter. */
static inline int fill_template(char *tmpl, unsigned int n)
{
	size_t len = strlen(tmpl);
	unsigned long v = (unsigned long)getpid() * 7919 + n;
	int i;

	if (len < 6 || strcmp(tmpl + len - 6, "XXXXXX")) {
		errno = EINVAL;
		return -1;
	}
	for (i = 1; i <= 6; i++, v /= 26)
		tmpl[len - i] = 'a' + v % 26;
	return 0;
}

#undef mkostemp
#define mkostemp(...) preadv_nolibc_mkostemp(__VA_ARGS__)
static inline int preadv_nolibc_mkostemp(char *tmpl, int flags)
{
	static unsigned int n;
	unsigned int tries;
	int fd = -1;

	for (tries = 0; tries < 1000; tries++) {
		if (fill_template(tmpl, n++))
			return -1;
		fd = open(tmpl, flags | O_RDWR | O_CREAT | O_EXCL, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	return fd;
}

#undef mkdtemp
#define mkdtemp(...) preadv_nolibc_mkdtemp(__VA_ARGS__)
static inline char *preadv_nolibc_mkdtemp(char *tmpl)
{
	static unsigned int n;
	unsigned int tries;

	for (tries = 0; tries < 1000; tries++) {
		if (fill_template(tmpl, n++))
			return NULL;
		if (mkdir(tmpl, 0700) == 0)
			return tmpl;
		if (errno != EEXIST)
			break;
	}
	return NULL;
}

#undef readdir
#define readdir(...) preadv_nolibc_readdir(__VA_ARGS__)
static inline struct dirent *preadv_nolibc_readdir(DIR *d)
{
	static struct dirent e;
	struct dirent *r;

	return readdir_r(d, &e, &r) == 0 ? r : NULL;
}

#endif /* __PREADV_NOLIBC_H */
