/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the preadv/pwritev selftests: the raw system calls with the
 * kernel's own argument layout, /proc/self/io, and failure messages that say
 * what was expected and what came back.
 */
#ifndef __PREADV_HELPERS_H
#define __PREADV_HELPERS_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <linux/magic.h>

#include "../../kselftest.h"

#ifdef NOLIBC
#include "preadv_nolibc.h"
#else
#include <sys/statfs.h>

static inline bool is_tmpfs(const char *path)
{
	struct statfs sfs;

	return statfs(path, &sfs) == 0 && sfs.f_type == TMPFS_MAGIC;
}
#endif

#if defined(__x86_64__) && defined(__ILP32__)
/* x32 uses compat_sys_preadv64(): the offset whole, in one register. */
#define ABI_OFFSET_IN_ONE_REGISTER	1
#define ABI_NAME			"x32"
#elif __SIZEOF_LONG__ == 8
/* 64-bit: pos_l holds the whole offset and pos_h is ignored. */
#define ABI_OFFSET_IN_ONE_REGISTER	0
#define ABI_NAME			"64-bit"
#else
#define ABI_OFFSET_IN_ONE_REGISTER	0
#define ABI_NAME			"32-bit"
#endif

#define SPLIT_ABI	(__SIZEOF_LONG__ == 4 && !ABI_OFFSET_IN_ONE_REGISTER)

#define GiB(x)		((int64_t)(x) << 30)

/*
 * The raw system calls.  preadv(), pwritev(), preadv2() and pwritev2() take
 * the offset as (pos_l, pos_h), low word first on every ABI; the split is
 * written out here as C libraries do it, (long)pos and pos >> 32, so that
 * no libc decides it for the test.  x32 is the exception: its entries are
 * compat_sys_p{read,write}v64{,v2}(), which take the offset whole.
 */
static inline long raw_rw(long nr, int fd, const struct iovec *iov, long cnt,
			  uint64_t pos, bool v2, int flags)
{
#if ABI_OFFSET_IN_ONE_REGISTER
	if (v2)
		return syscall(nr, fd, iov, cnt, (long long)pos, flags);
	return syscall(nr, fd, iov, cnt, (long long)pos);
#else
	unsigned long lo = (unsigned long)pos;
	unsigned long hi = (unsigned long)(pos >> 32);

	if (v2)
		return syscall(nr, fd, iov, cnt, lo, hi, flags);
	return syscall(nr, fd, iov, cnt, lo, hi);
#endif
}

/*
 * fadvise64(), which no C library calls where fadvise64_64() exists: the
 * length in one word, and the offset in one register, or where the ABI's
 * registers are 32-bit, as a pair in memory order, after a word of padding
 * on 32-bit powerpc, whose pairs start at an odd-numbered register.
 */
#ifdef __NR_fadvise64
static inline long sys_fadvise64(int fd, int64_t off, long len, int advice)
{
#if __SIZEOF_LONG__ == 4 && !ABI_OFFSET_IN_ONE_REGISTER
	uint32_t w[2];

	memcpy(w, &off, sizeof(w));
#ifdef __powerpc__
	return syscall(__NR_fadvise64, fd, 0, w[0], w[1], len, advice);
#else
	return syscall(__NR_fadvise64, fd, w[0], w[1], len, advice);
#endif
#else
	return syscall(__NR_fadvise64, fd, off, len, advice);
#endif
}
#endif

/* The words as given, for ABIs that split the offset; flags 0 for v2. */
static inline long raw_rw_words(long nr, int fd, const struct iovec *iov,
				long cnt, unsigned long lo, unsigned long hi)
{
	return syscall(nr, fd, iov, cnt, lo, hi, 0);
}

static inline ssize_t sys_preadv(int fd, const struct iovec *iov, long cnt,
				 int64_t pos)
{
	return raw_rw(__NR_preadv, fd, iov, cnt, pos, false, 0);
}

static inline ssize_t sys_pwritev(int fd, const struct iovec *iov, long cnt,
				  int64_t pos)
{
	return raw_rw(__NR_pwritev, fd, iov, cnt, pos, false, 0);
}

static inline ssize_t sys_preadv2(int fd, const struct iovec *iov, long cnt,
				  int64_t pos, int flags)
{
	return raw_rw(__NR_preadv2, fd, iov, cnt, pos, true, flags);
}

static inline ssize_t sys_pwritev2(int fd, const struct iovec *iov, long cnt,
				   int64_t pos, int flags)
{
	return raw_rw(__NR_pwritev2, fd, iov, cnt, pos, true, flags);
}

/* How a case reaches the kernel: each case runs through each of these. */
enum entry {
	ENTRY_RAW,	/* syscall(__NR_preadv/__NR_pwritev) */
	ENTRY_RAW2,	/* syscall(__NR_preadv2/__NR_pwritev2), flags 0 */
	ENTRY_LIBC,	/* the C library's preadv()/pwritev(), 64-bit off_t */
};

static inline ssize_t entry_preadv(enum entry e, int fd,
				   const struct iovec *iov, long cnt,
				   int64_t pos)
{
	switch (e) {
	case ENTRY_RAW:
		return sys_preadv(fd, iov, cnt, pos);
	case ENTRY_RAW2:
		return sys_preadv2(fd, iov, cnt, pos, 0);
	default:
		return preadv(fd, iov, cnt, pos);
	}
}

static inline ssize_t entry_pwritev(enum entry e, int fd,
				    const struct iovec *iov, long cnt,
				    int64_t pos)
{
	switch (e) {
	case ENTRY_RAW:
		return sys_pwritev(fd, iov, cnt, pos);
	case ENTRY_RAW2:
		return sys_pwritev2(fd, iov, cnt, pos, 0);
	default:
		return pwritev(fd, iov, cnt, pos);
	}
}

/*
 * The name of an errno value; its description where the C library has no
 * strerrorname_np() (glibc < 2.32, musl).
 */
static inline const char *errname(int err)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 32)
	const char *name = strerrorname_np(err);

	if (name)
		return name;
#endif
	return strerror(err);
}

/* The error of a call that returned @ret, by name, for failure messages. */
#define RET_ERR(ret)	((ret) < 0 ? errname(errno) : "no error")

/*
 * A call that must fail with @err; the message says what came back, then
 * the context given as printf() arguments.  Within a TEST_F, like
 * EXPECT_EQ().
 */
#define EXPECT_ERRNO_AT(err, call, fmt, ...) do {			\
	int __want = (err), __err;					\
	long __ret;							\
	errno = 0;							\
	__ret = (long)(call);						\
	__err = __ret == -1 ? errno : 0;				\
	EXPECT_TRUE(__ret == -1 && __err == __want)			\
		TH_LOG("%s: expected -1 (%s), got %ld (%s) " fmt,	\
		       #call, errname(__want), __ret,			\
		       __err ? errname(__err) : "no error",		\
		       ##__VA_ARGS__);					\
} while (0)

#define EXPECT_ERRNO(err, call)	EXPECT_ERRNO_AT(err, call, "")

/*
 * A call that must return @want (a byte count, or 0); the message adds
 * @why, a string, to what came back.
 */
#define EXPECT_RET_MSG(want, call, why) do {				\
	const char *__why = (why);					\
	long __want = (want), __ret;					\
	errno = 0;							\
	__ret = (long)(call);						\
	EXPECT_EQ(__want, __ret)					\
		TH_LOG("%s: expected %ld, got %ld (%s)%s%s", #call,	\
		       __want, __ret, RET_ERR(__ret),			\
		       __why[0] ? "; " : "", __why);			\
} while (0)

#define EXPECT_RET(want, call)	EXPECT_RET_MSG(want, call, "")

#define ASSERT_RET(want, call) do {					\
	long __want = (want), __ret;					\
	errno = 0;							\
	__ret = (long)(call);						\
	ASSERT_EQ(__want, __ret)					\
		TH_LOG("%s: expected %ld, got %ld (%s)", #call,		\
		       __want, __ret, RET_ERR(__ret));			\
} while (0)

/* A byte-by-byte comparison that names the first difference. */
static inline long first_difference(const void *a, const void *b, size_t len)
{
	const unsigned char *x = a, *y = b;
	size_t i;

	for (i = 0; i < len; i++)
		if (x[i] != y[i])
			return i;
	return -1;
}

/* The file descriptor's position, which preadv() must never move. */
static inline int64_t file_pos(int fd)
{
	return lseek(fd, 0, SEEK_CUR);
}

/*
 * The tests make sparse files up to the largest size tmpfs allows: run them
 * in $PREADV_TMPDIR if it is set, else in the current directory, /dev/shm
 * or /tmp, whichever is on tmpfs first.
 */
static inline const char *tmpfs_dir(void)
{
	static const char * const dirs[] = { ".", "/dev/shm", "/tmp" };
	const char *env = getenv("PREADV_TMPDIR");
	unsigned int i;

	if (env)
		return is_tmpfs(env) ? env : NULL;
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (is_tmpfs(dirs[i]))
			return dirs[i];
	return NULL;
}

/* A temporary file in the current directory, which main() put on tmpfs. */
static inline int tmpfile_open(int flags)
{
	char path[] = "preadv-test-XXXXXX";
	int fd = mkostemp(path, flags);

	if (fd >= 0)
		unlink(path);
	return fd;
}

struct task_io {
	unsigned long long rchar, wchar, syscr, syscw;
	long bytes;	/* what the read of /proc/self/io returned */
};

/*
 * Read /proc/self/io with a single read.  That read is itself accounted
 * after the values were generated: one syscr and ->bytes of rchar, which
 * task_io_delta() takes off.
 */
static inline int task_io_read(int procfd, struct task_io *io)
{
	char buf[512];
	long n = pread(procfd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	io->bytes = n;
	if (sscanf(buf, "rchar: %llu\nwchar: %llu\nsyscr: %llu\nsyscw: %llu",
		   &io->rchar, &io->wchar, &io->syscr, &io->syscw) != 4)
		return -1;
	return 0;
}

static inline void task_io_delta(const struct task_io *before,
				 const struct task_io *after,
				 struct task_io *delta)
{
	delta->rchar = after->rchar - before->rchar - before->bytes;
	delta->syscr = after->syscr - before->syscr - 1;
	delta->wchar = after->wchar - before->wchar;
	delta->syscw = after->syscw - before->syscw;
}

/*
 * The largest file size the kernel allows on tmpfs (MAX_LFS_FILESIZE), asked
 * of the kernel with ftruncate() on the empty file @fd, which is left empty:
 * INT64_MAX on a 64-bit kernel, whatever the caller's ABI; 2^32 - 1 pages on
 * a 32-bit kernel, whose page cache index is 32 bits.  -1 if neither.
 */
static inline int64_t max_file_size(int fd)
{
	int64_t pages = (int64_t)0xffffffffULL * getpagesize();
	int64_t max = -1;

	if (ftruncate(fd, INT64_MAX) == 0)
		max = INT64_MAX;
	else if (errno == EFBIG && ftruncate(fd, pages) == 0)
		max = pages;
	if (ftruncate(fd, 0))
		return -1;
	return max;
}

/*
 * A loop device, read-only, over the file @backing: a block device whose
 * page cache readahead() and posix_fadvise() fill and empty (tmpfs has
 * none that they touch), emptied here first.  Its fd, or -1 and the reason
 * in @why: with *@skip set where this system cannot make one (not root, no
 * loop driver or no /dev), else a failure.  LO_FLAGS_AUTOCLEAR: the device
 * goes when its fd is closed.
 */
#define LOOP_CONTROL	"/dev/loop-control"

static inline int loop_attach(int backing, char *why, size_t len, bool *skip)
{
	struct loop_config cfg;
	char dev[32];
	int ctl, nr, fd, tries, i, err;

	*skip = true;
	if (geteuid()) {
		snprintf(why, len, "not root: a loop device needs CAP_SYS_ADMIN");
		return -1;
	}
	ctl = open(LOOP_CONTROL, O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		snprintf(why, len, "%s: %s (CONFIG_BLK_DEV_LOOP, and devtmpfs or udev)",
			 LOOP_CONTROL, errname(errno));
		return -1;
	}
	*skip = false;
	/* Another process may take the free device first: try again. */
	for (tries = 0; tries < 10; tries++) {
		nr = ioctl(ctl, LOOP_CTL_GET_FREE, 0);
		if (nr < 0) {
			snprintf(why, len, "LOOP_CTL_GET_FREE: %s", errname(errno));
			break;
		}
		snprintf(dev, sizeof(dev), "/dev/loop%d", nr);
		/* udev may make the node after the ioctl has returned. */
		for (i = 0; i < 100; i++) {
			fd = open(dev, O_RDONLY | O_CLOEXEC);
			if (fd >= 0 || errno != ENOENT)
				break;
			usleep(10000);
		}
		if (fd < 0) {
			snprintf(why, len, "%s: %s", dev, errname(errno));
			break;
		}
		memset(&cfg, 0, sizeof(cfg));
		cfg.fd = backing;
		cfg.info.lo_flags = LO_FLAGS_READ_ONLY | LO_FLAGS_AUTOCLEAR;
		if (ioctl(fd, LOOP_CONFIGURE, &cfg) == 0) {
			close(ctl);
			if (ioctl(fd, BLKFLSBUF, 0) == 0)
				return fd;
			snprintf(why, len, "BLKFLSBUF on %s: %s", dev, errname(errno));
			close(fd);
			return -1;
		}
		err = errno;
		snprintf(why, len, "LOOP_CONFIGURE on %s: %s", dev, errname(err));
		close(fd);
		if (err != EBUSY)
			break;
	}
	close(ctl);
	return -1;
}

/*
 * Whether the page of @fd at @pos (a multiple of @page) is in the page
 * cache and up to date: 1 or 0, or -1 and errno.  mincore() on a mapping
 * of it, which does not fault it in; for a file that the caller owns or
 * may write (root: any), mincore() looks the page up in the file's page
 * cache.
 */
static inline int page_cached(int fd, int64_t pos, long page)
{
	unsigned char vec = 0;
	void *p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, pos);
	int ret;

	if (p == MAP_FAILED)
		return -1;
	ret = mincore(p, page, &vec);
	munmap(p, page);
	return ret ? -1 : vec & 1;
}

/*
 * The same, once the page is there: readahead() and POSIX_FADV_WILLNEED
 * start the read of a page and return, and the loop device's worker
 * completes it.  Up to five seconds.
 */
static inline int page_cached_soon(int fd, int64_t pos, long page)
{
	int i, ret = 0;

	for (i = 0; i < 500; i++) {
		ret = page_cached(fd, pos, page);
		if (ret)
			break;
		usleep(10000);
	}
	return ret;
}

/* A deterministic pattern: the byte that write @tag puts at @pos. */
static inline unsigned char pattern(uint32_t tag, uint64_t pos)
{
	uint64_t x = pos * 0x9e3779b97f4a7c15ULL ^ (uint64_t)tag << 40 ^ tag;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 32;
	return (unsigned char)(x | 1);	/* never 0: holes read as 0 */
}

static inline void fill_pattern(void *buf, size_t len, uint32_t tag,
				uint64_t pos)
{
	unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = pattern(tag, pos + i);
}

#endif /* __PREADV_HELPERS_H */
