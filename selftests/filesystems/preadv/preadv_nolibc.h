/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What preadv_test uses of a C library and nolibc does not have, for the
 * ABIs that no C library is installed for (the Makefile builds them with
 * the tree's nolibc, -include nolibc.h, which defines NOLIBC).
 *
 * The calls that pass a 64-bit value in a register pair are written out as
 * the C libraries of the 32-bit ABIs do it: the value as its two words in
 * memory order (nolibc's __NOLIBC_LLARGPART()), and, on 32-bit powerpc,
 * whose calling convention starts a pair at an odd-numbered register (r3,
 * r5, r7), a word of padding before a pair that would start at an even one;
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
#include <asm/signal.h>
#include <asm/statfs.h>

#ifndef SSIZE_MAX
#define SSIZE_MAX	LONG_MAX
#endif
#ifndef IOV_MAX
#define IOV_MAX		UIO_MAXIOV
#endif
#ifndef __O_LARGEFILE
#define __O_LARGEFILE	O_LARGEFILE
#endif
/* include/linux/socket.h and net.h; not uapi, the same on these ABIs. */
#define AF_UNIX		1
#define SOCK_STREAM	1
#define _SC_PAGESIZE	30

#if __SIZEOF_LONG__ == 4
/* The words of a 64-bit value, in memory order. */
#define WORD0(x)	__NOLIBC_LLARGPART(x, 0)
#define WORD1(x)	__NOLIBC_LLARGPART(x, 1)
#ifdef __powerpc__
#define PAIR_PAD	0,
#else
#define PAIR_PAD
#endif

static inline ssize_t pread(int fd, void *buf, size_t count, off_t pos)
{
	return syscall(__NR_pread64, fd, buf, count,
		       PAIR_PAD WORD0(pos), WORD1(pos));
}

static inline ssize_t pwrite(int fd, const void *buf, size_t count, off_t pos)
{
	return syscall(__NR_pwrite64, fd, buf, count,
		       PAIR_PAD WORD0(pos), WORD1(pos));
}

static inline int truncate(const char *path, off_t len)
{
	return syscall(__NR_truncate64, path, PAIR_PAD WORD0(len), WORD1(len));
}

static inline int fallocate(int fd, int mode, off_t off, off_t len)
{
	return syscall(__NR_fallocate, fd, mode, WORD0(off), WORD1(off),
		       WORD0(len), WORD1(len));
}

static inline ssize_t readahead(int fd, off_t off, size_t count)
{
	return syscall(__NR_readahead, fd, PAIR_PAD WORD0(off), WORD1(off),
		       count);
}

static inline int posix_fadvise(int fd, off_t off, off_t len, int advice)
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

static inline int sync_file_range(int fd, off_t off, off_t n,
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
static inline ssize_t preadv(int fd, const struct iovec *iov, int cnt, off_t pos)
{
	return syscall(__NR_preadv, fd, iov, cnt, (long)pos, (long)(pos >> 32));
}

static inline ssize_t pwritev(int fd, const struct iovec *iov, int cnt, off_t pos)
{
	return syscall(__NR_pwritev, fd, iov, cnt, (long)pos, (long)(pos >> 32));
}

static inline int fcntl(int fd, int cmd, ...)
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
#else
#error "preadv_nolibc.h: only 32-bit ABIs are built with nolibc"
#endif

static inline int socketpair(int domain, int type, int protocol, int sv[2])
{
	return syscall(__NR_socketpair, domain, type, protocol, sv);
}

static inline int mkfifo(const char *path, mode_t mode)
{
	return syscall(__NR_mknodat, AT_FDCWD, path, S_IFIFO | mode, 0);
}

static inline long sysconf(int name)
{
	if (name == _SC_PAGESIZE)
		return getpagesize();
	errno = EINVAL;
	return -1;
}

/* SIGXFSZ blocked: a write past RLIMIT_FSIZE then fails with EFBIG alone. */
static inline int ignore_sigxfsz(void)
{
	unsigned long set[8 / sizeof(long)] = { 1UL << (SIGXFSZ - 1) };

	return syscall(__NR_rt_sigprocmask, SIG_BLOCK, set, NULL, sizeof(set));
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

static inline int mkostemp(char *tmpl, int flags)
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

static inline char *mkdtemp(char *tmpl)
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

static inline struct dirent *readdir(DIR *d)
{
	static struct dirent e;
	struct dirent *r;

	return readdir_r(d, &e, &r) == 0 ? r : NULL;
}

#endif /* __PREADV_NOLIBC_H */
