// SPDX-License-Identifier: GPL-2.0
/*
 * preadv(), pwritev(), preadv2() and pwritev2() from user space, through
 * the raw system calls with the kernel's own (pos_l, pos_h) layout and
 * through the C library, on every ABI: built for a 64-bit ABI and for the
 * 32-bit ABIs of the same architecture (i386 and x32 on x86_64, o32 and n32
 * on mips64, ppc32, sparc32, rv32), it runs natively and through the compat
 * entry points.
 * Also the system calls whose 32-bit ABIs pass a 64-bit value as a register
 * pair in memory order (pread64(), truncate64(), fallocate(), ...), and
 * readahead() and posix_fadvise() on a loop device, whose page cache shows
 * where they took effect (as root; else those cases skip).
 *
 * Run it in a directory on tmpfs: it creates sparse files of up to the
 * largest size the kernel allows there.
 */
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <time.h>
#ifndef NOLIBC
#include <pthread.h>
#endif

#include "preadv_helpers.h"
#include "../../kselftest_harness.h"

/* Offsets around every boundary where splitting into words can go wrong. */
static const int64_t boundary_offsets[] = {
	0, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000LL,
	0x100000001LL, 0x180000000LL, GiB(5), 1LL << 40,
};

FIXTURE(rw) {
	int fd;
};

FIXTURE_VARIANT(rw) {
	enum entry entry;
};

FIXTURE_VARIANT_ADD(rw, raw) {
	.entry = ENTRY_RAW,
};

FIXTURE_VARIANT_ADD(rw, raw2) {
	.entry = ENTRY_RAW2,
};

FIXTURE_VARIANT_ADD(rw, libc) {
	.entry = ENTRY_LIBC,
};

FIXTURE_SETUP(rw)
{
	self->fd = tmpfile_open(O_RDWR);
	ASSERT_LE(0, self->fd) TH_LOG("mkostemp: %s", errname(errno));
}

FIXTURE_TEARDOWN(rw)
{
	close(self->fd);
}

#define PREADV(fd, iov, cnt, pos)	entry_preadv(variant->entry, fd, iov, cnt, pos)
#define PWRITEV(fd, iov, cnt, pos)	entry_pwritev(variant->entry, fd, iov, cnt, pos)

/* Segments of different lengths, zero-length ones among them. */
static const size_t sg_lens[] = { 3, 0, 17, 1, 0, 4096 + 5, 0, 64 };
#define SG_SEGS		ARRAY_SIZE(sg_lens)
#define SG_TOTAL	(3 + 17 + 1 + 4096 + 5 + 64)

static void sg_setup(struct iovec *iov, unsigned char *buf)
{
	size_t i, off = 0;

	for (i = 0; i < SG_SEGS; i++) {
		iov[i].iov_base = buf + off;
		iov[i].iov_len = sg_lens[i];
		off += sg_lens[i];
	}
}

TEST_F(rw, pwritev_scatter_matches_pread)
{
	static unsigned char src[SG_TOTAL], back[SG_TOTAL];
	struct iovec iov[SG_SEGS];
	const int64_t pos = 1000;

	fill_pattern(src, sizeof(src), 1, pos);
	sg_setup(iov, src);
	ASSERT_RET(SG_TOTAL, PWRITEV(self->fd, iov, SG_SEGS, pos));
	ASSERT_RET(SG_TOTAL, pread(self->fd, back, sizeof(back), pos));
	EXPECT_EQ(-1, first_difference(src, back, sizeof(src)))
		TH_LOG("pread() after pwritev() differs at byte %ld",
		       first_difference(src, back, sizeof(src)));
}

TEST_F(rw, preadv_gather_matches_pwrite)
{
	static unsigned char src[SG_TOTAL], dst[SG_TOTAL];
	struct iovec iov[SG_SEGS];
	const int64_t pos = 77;

	fill_pattern(src, sizeof(src), 2, pos);
	ASSERT_RET(SG_TOTAL, pwrite(self->fd, src, sizeof(src), pos));
	sg_setup(iov, dst);
	ASSERT_RET(SG_TOTAL, PREADV(self->fd, iov, SG_SEGS, pos));
	EXPECT_EQ(-1, first_difference(src, dst, sizeof(src)))
		TH_LOG("preadv() differs from pwrite()'s data at byte %ld",
		       first_difference(src, dst, sizeof(src)));
}

TEST_F(rw, file_position_never_moves)
{
	char buf[16] = "0123456789abcdef";
	struct iovec iov = { buf, sizeof(buf) };

	ASSERT_RET(100, lseek(self->fd, 100, SEEK_SET));
	EXPECT_RET(sizeof(buf), PWRITEV(self->fd, &iov, 1, 10));
	EXPECT_RET(100, file_pos(self->fd));
	EXPECT_RET(sizeof(buf), PREADV(self->fd, &iov, 1, 10));
	EXPECT_RET(100, file_pos(self->fd));
	EXPECT_RET(sizeof(buf), PWRITEV(self->fd, &iov, 1, GiB(4) + 10));
	EXPECT_RET(sizeof(buf), PREADV(self->fd, &iov, 1, GiB(4) + 10));
	EXPECT_RET(100, file_pos(self->fd));
}

/* -1 is "the file position" for preadv2()/pwritev2() only. */
TEST_F(rw, offset_minus_one)
{
	char data[8] = "abcdefgh", buf[4];
	struct iovec w = { data, sizeof(data) }, r = { buf, sizeof(buf) };

	ASSERT_RET(sizeof(data), write(self->fd, data, sizeof(data)));
	ASSERT_RET(2, lseek(self->fd, 2, SEEK_SET));
	if (variant->entry == ENTRY_RAW2) {
		EXPECT_RET(sizeof(buf), PREADV(self->fd, &r, 1, -1));
		EXPECT_EQ(0, memcmp(buf, "cdef", 4));
		EXPECT_RET(6, file_pos(self->fd));
		EXPECT_RET(sizeof(data), PWRITEV(self->fd, &w, 1, -1));
		EXPECT_RET(14, file_pos(self->fd));
	} else {
		EXPECT_ERRNO(EINVAL, PREADV(self->fd, &r, 1, -1));
		EXPECT_ERRNO(EINVAL, PWRITEV(self->fd, &w, 1, -1));
		EXPECT_RET(2, file_pos(self->fd));
	}
}

TEST_F(rw, negative_offset_is_einval)
{
	static const int64_t bad[] = { -2, INT64_MIN, -GiB(4), INT64_MIN + 1 };
	char buf[4] = "abcd";
	struct iovec iov = { buf, sizeof(buf) };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_ERRNO_AT(EINVAL, PREADV(self->fd, &iov, 1, bad[i]),
				"at %#llx", (unsigned long long)bad[i]);
		EXPECT_ERRNO_AT(EINVAL, PWRITEV(self->fd, &iov, 1, bad[i]),
				"at %#llx", (unsigned long long)bad[i]);
	}
	EXPECT_RET(0, file_pos(self->fd));
}

/*
 * Write at each boundary offset, read it back, and check it where a view
 * that does not use the split says it must be: st_size, and pread() (which
 * reaches the kernel as pread64 with the ABI's own 64-bit argument).
 */
static void check_at(struct __test_metadata *_metadata, enum entry e, int fd,
		     int64_t pos)
{
	char data[6], back[6] = { 0 }, hole = 1;
	struct iovec w[2] = { { data, 2 }, { data + 2, 4 } };
	struct iovec r[2] = { { back, 5 }, { back + 5, 1 } };
	struct stat st;

	fill_pattern(data, sizeof(data), 3, pos);
	ASSERT_RET(0, ftruncate(fd, 0));
	EXPECT_RET(sizeof(data), entry_pwritev(e, fd, w, 2, pos));
	ASSERT_RET(0, fstat(fd, &st));
	EXPECT_EQ(pos + (int64_t)sizeof(data), st.st_size)
		TH_LOG("st_size %#llx after writing 6 bytes at %#llx",
		       (unsigned long long)st.st_size, (unsigned long long)pos);
	EXPECT_RET(sizeof(back), pread(fd, back, sizeof(back), pos));
	EXPECT_EQ(0, memcmp(data, back, sizeof(data)))
		TH_LOG("pread64 at %#llx does not see pwritev's data",
		       (unsigned long long)pos);
	memset(back, 0, sizeof(back));
	EXPECT_RET(sizeof(back), entry_preadv(e, fd, r, 2, pos));
	EXPECT_EQ(0, memcmp(data, back, sizeof(data)))
		TH_LOG("preadv at %#llx does not read back pwritev's data",
		       (unsigned long long)pos);
	if (pos > 0) {
		EXPECT_RET(1, pread(fd, &hole, 1, pos - 1));
		EXPECT_EQ(0, hole) TH_LOG("byte before %#llx is not a hole",
					  (unsigned long long)pos);
	}
}

TEST_F(rw, boundary_offsets)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(boundary_offsets); i++)
		check_at(_metadata, variant->entry, self->fd, boundary_offsets[i]);
}

/*
 * The probe that largest_file_size relies on: the kernel takes the size it
 * found, and no more.
 */
TEST_F(rw, max_file_size_probe)
{
	const int64_t max = max_file_size(self->fd);
	struct stat st;

	ASSERT_LT(0, max) TH_LOG("ftruncate() took neither size");
	TH_LOG("largest file size: %#llx", (unsigned long long)max);
	EXPECT_EQ(max, max_file_size(self->fd));
	EXPECT_RET(0, ftruncate(self->fd, max));
	ASSERT_RET(0, fstat(self->fd, &st));
	EXPECT_EQ(max, st.st_size);
	if (max < INT64_MAX)
		EXPECT_ERRNO(EFBIG, ftruncate(self->fd, max + 1));
}

TEST_F(rw, largest_file_size)
{
	const int64_t max = max_file_size(self->fd);
	char buf[6] = "abcdef";
	struct iovec iov = { buf, sizeof(buf) };
	struct stat st;

	ASSERT_LT(0, max) TH_LOG("ftruncate() took neither size");
	check_at(_metadata, variant->entry, self->fd, max - 6);
	if (max == INT64_MAX) {
		/* 64-bit kernel: the end of a transfer past it is EINVAL. */
		EXPECT_ERRNO(EINVAL, PWRITEV(self->fd, &iov, 1, max - 3));
		EXPECT_ERRNO(EINVAL, PWRITEV(self->fd, &iov, 1, max));
		EXPECT_ERRNO(EINVAL, PREADV(self->fd, &iov, 1, max));
	} else {
		/* Up to the limit, not past it. */
		EXPECT_RET(3, PWRITEV(self->fd, &iov, 1, max - 3));
		EXPECT_ERRNO(EFBIG, PWRITEV(self->fd, &iov, 1, max));
		EXPECT_RET(0, PREADV(self->fd, &iov, 1, max));
	}
	ASSERT_RET(0, fstat(self->fd, &st));
	EXPECT_EQ(max, st.st_size) TH_LOG("st_size %#llx, limit %#llx",
					  (unsigned long long)st.st_size,
					  (unsigned long long)max);
}

/*
 * A high word with bit 31 set: a negative offset for ABIs that split it,
 * and ignored by a 64-bit kernel for a 64-bit caller.
 */
TEST_F(rw, high_word_bit31)
{
	char buf[4] = "wxyz";
	struct iovec iov = { buf, sizeof(buf) };

	ASSERT_RET(4, pwrite(self->fd, "abcd", 4, 0));
	if (variant->entry == ENTRY_LIBC) {
		/* The C library's split puts bit 63 in bit 31 of pos_h. */
		EXPECT_ERRNO(EINVAL, PREADV(self->fd, &iov, 1, INT64_MIN));
		EXPECT_ERRNO(EINVAL, PWRITEV(self->fd, &iov, 1, INT64_MIN + 4));
		return;
	}
#if ABI_OFFSET_IN_ONE_REGISTER
	EXPECT_ERRNO(EINVAL, PREADV(self->fd, &iov, 1, INT64_MIN));
#elif SPLIT_ABI
	EXPECT_ERRNO(EINVAL, raw_rw_words(variant->entry == ENTRY_RAW ?
					  __NR_preadv : __NR_preadv2,
					  self->fd, &iov, 1, 0, 0x80000000UL));
	EXPECT_ERRNO(EINVAL, raw_rw_words(variant->entry == ENTRY_RAW ?
					  __NR_pwritev : __NR_pwritev2,
					  self->fd, &iov, 1, 0, 0xffffffffUL));
#else
	EXPECT_RET(4, raw_rw_words(variant->entry == ENTRY_RAW ?
				   __NR_preadv : __NR_preadv2,
				   self->fd, &iov, 1, 0, 0x80000000UL));
	EXPECT_EQ(0, memcmp(buf, "abcd", 4));
#endif
}

TEST_F(rw, short_read_at_eof)
{
	char a[4], b[8];
	struct iovec iov[2] = { { a, sizeof(a) }, { b, sizeof(b) } };

	ASSERT_RET(6, pwrite(self->fd, "123456", 6, GiB(4)));
	memset(b, 'x', sizeof(b));
	EXPECT_RET(6, PREADV(self->fd, iov, 2, GiB(4)));
	EXPECT_EQ(0, memcmp(a, "1234", 4));
	EXPECT_EQ(0, memcmp(b, "56xxxxxx", 8));
	EXPECT_RET(0, PREADV(self->fd, iov, 2, GiB(4) + 6));
	EXPECT_RET(0, PREADV(self->fd, iov, 2, GiB(8)));
}

TEST_F(rw, holes_read_as_zeros)
{
	char buf[64], zero[64] = { 0 };
	struct iovec iov = { buf, sizeof(buf) };

	ASSERT_RET(1, pwrite(self->fd, "z", 1, GiB(5)));
	memset(buf, 'x', sizeof(buf));
	EXPECT_RET(sizeof(buf), PREADV(self->fd, &iov, 1, GiB(4) - 32));
	EXPECT_EQ(0, memcmp(buf, zero, sizeof(buf)));
}

TEST_F(rw, write_extends_file)
{
	char buf[3] = "end";
	struct iovec iov = { buf, sizeof(buf) };
	struct stat st;

	ASSERT_RET(3, pwrite(self->fd, "beg", 3, 0));
	EXPECT_RET(3, PWRITEV(self->fd, &iov, 1, 0x1ffffffffLL));
	ASSERT_RET(0, fstat(self->fd, &st));
	EXPECT_EQ(0x1ffffffffLL + 3, st.st_size);
}

/*
 * /proc/self/io: rchar, wchar, syscr and syscw move by exactly the bytes and
 * the calls made, on native and compat callers alike.
 */
static void expect_io(struct __test_metadata *_metadata, int procfd,
		      const struct task_io *before, unsigned long long rchar,
		      unsigned long long wchar, unsigned long long syscr,
		      unsigned long long syscw, const char *what)
{
	struct task_io after, d;

	ASSERT_EQ(0, task_io_read(procfd, &after));
	task_io_delta(before, &after, &d);
	EXPECT_EQ(rchar, d.rchar) TH_LOG("%s: rchar", what);
	EXPECT_EQ(wchar, d.wchar) TH_LOG("%s: wchar", what);
	EXPECT_EQ(syscr, d.syscr) TH_LOG("%s: syscr", what);
	EXPECT_EQ(syscw, d.syscw) TH_LOG("%s: syscw", what);
}

TEST_F(rw, io_accounting)
{
	char buf[100];
	struct iovec iov[2] = { { buf, 60 }, { buf + 60, 40 } };
	struct task_io io;
	int procfd = open("/proc/self/io", O_RDONLY);

	if (procfd < 0)
		SKIP(return, "/proc/self/io: %s (CONFIG_TASK_IO_ACCOUNTING?)",
		     errname(errno));
	memset(buf, 'a', sizeof(buf));

	ASSERT_EQ(0, task_io_read(procfd, &io));
	EXPECT_RET(100, PWRITEV(self->fd, iov, 2, GiB(4)));
	expect_io(_metadata, procfd, &io, 0, 100, 0, 1, "pwritev");

	ASSERT_EQ(0, task_io_read(procfd, &io));
	EXPECT_RET(70, PREADV(self->fd, iov, 2, GiB(4) + 30));
	expect_io(_metadata, procfd, &io, 70, 0, 1, 0, "preadv, short");

	ASSERT_EQ(0, task_io_read(procfd, &io));
	EXPECT_RET(100, writev(self->fd, iov, 2));
	expect_io(_metadata, procfd, &io, 0, 100, 0, 1, "writev");

	ASSERT_RET(0, lseek(self->fd, 0, SEEK_SET));
	ASSERT_EQ(0, task_io_read(procfd, &io));
	EXPECT_RET(100, readv(self->fd, iov, 2));
	expect_io(_metadata, procfd, &io, 100, 0, 1, 0, "readv");
	close(procfd);
}

/*
 * The system calls that 32-bit ABIs pass a 64-bit value to as a register
 * pair in memory order, here through the C library's 64-bit wrappers (or,
 * where none calls it, syscall(2)).  Each case sees each word of each
 * pair: a value whose words, dropped or swapped, give another result.
 * On tmpfs, readahead() and posix_fadvise() do nothing but refuse a
 * negative offset or length: there only the high word, whose bit 31 is the
 * sign, and the order of the words can be seen, and of the offset only on
 * kernels that check its sign (fadvise_checks_offset).  The bdev cases
 * below see every word of them.
 */
FIXTURE(pair) {
	int fd;
};

FIXTURE_SETUP(pair)
{
	self->fd = tmpfile_open(O_RDWR);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(pair)
{
	close(self->fd);
	unlink("preadv-truncate");
	unlink("preadv-nolfs");
}

/*
 * The fixes that a failure of a case may mean the kernel lacks, as its
 * message says them.
 */
#define FIX_FTRUNCATE64	"compat kernels without e43dce8a0bc0 (\"fs: fix archiecture-specific compat_ftruncate64\") refuse this length on a file without O_LARGEFILE"
/*
 * Kernels without "mm/fadvise: validate offset in generic_fadvise" take a
 * negative offset for readahead() and posix_fadvise() on tmpfs: the sign
 * of the offset, which is how the tmpfs cases see its high word, is not
 * checked there.  main() asks the kernel once (fadvise_checks_offset).
 */
#define FIX_FADVISE_OFFSET	"this kernel takes a negative offset for readahead() and posix_fadvise() on tmpfs: it has no \"mm/fadvise: validate offset in generic_fadvise\""
static bool fadvise_checks_offset;
#ifdef __powerpc__
#define FIX_PPC_PAIRS	"; powerpc kernels without 016ff72bd209 (\"powerpc: Fix fallocate and fadvise64_64 compat parameter combination\") swap these words"
#else
#define FIX_PPC_PAIRS	""
#endif

TEST_F(pair, pread64_pwrite64)
{
	char buf[5] = { 0 };
	struct iovec iov = { buf, 5 };

	EXPECT_RET(5, pwrite(self->fd, "hello", 5, 0x180000003LL));
	EXPECT_RET(5, sys_preadv(self->fd, &iov, 1, 0x180000003LL));
	EXPECT_EQ(0, memcmp(buf, "hello", 5));
	memset(buf, 0, 5);
	EXPECT_RET(5, pread(self->fd, buf, 5, 0x180000003LL));
	EXPECT_EQ(0, memcmp(buf, "hello", 5));
	EXPECT_ERRNO(EINVAL, pread(self->fd, buf, 5, -GiB(4)));
}

TEST_F(pair, truncate64_ftruncate64)
{
	struct stat st;
	int fd;

	EXPECT_RET(0, ftruncate(self->fd, 0x180000001LL));
	ASSERT_RET(0, fstat(self->fd, &st));
	EXPECT_EQ(0x180000001LL, st.st_size);
	EXPECT_ERRNO(EINVAL, ftruncate(self->fd, -GiB(4)));

	fd = open("preadv-truncate", O_CREAT | O_RDWR, 0600);
	ASSERT_LE(0, fd);
	EXPECT_RET(0, truncate("preadv-truncate", GiB(5) + 7));
	ASSERT_RET(0, fstat(fd, &st));
	EXPECT_EQ(GiB(5) + 7, st.st_size);
	close(fd);
}

/*
 * ftruncate64() is the large-file call: a 32-bit ABI's length past 2 GiB
 * is taken whether or not the file was opened with O_LARGEFILE, natively
 * and through the compat entry points alike, as the 64-bit ftruncate()
 * takes it.  The file is opened with the raw openat(), which the C
 * library does not give O_LARGEFILE, and the length goes through the C
 * library's ftruncate() with a 64-bit off_t, which is ftruncate64() on
 * these ABIs.  Where the ABI's openat() is the 64-bit kernel's own
 * (riscv64's compat ABI: the generic system call table has no compat
 * openat()), every file has O_LARGEFILE, and the case skips.
 */
TEST_F(pair, ftruncate64_without_o_largefile)
{
#ifndef __NR_ftruncate64
	SKIP(return, "this ABI has no ftruncate64(): its ftruncate() takes 64 bits");
#else
	struct stat st;
	int fd;

	fd = syscall(__NR_openat, AT_FDCWD, "preadv-nolfs",
		     O_CREAT | O_RDWR | O_TRUNC, 0600);
	ASSERT_LE(0, fd) TH_LOG("openat: %s", errname(errno));
#ifdef __O_LARGEFILE
	if (fcntl(fd, F_GETFL) & __O_LARGEFILE) {
		close(fd);
		SKIP(return, "openat() gave the file O_LARGEFILE: this ABI has no file without it");
	}
#endif
	EXPECT_RET_MSG(0, ftruncate(fd, GiB(3) + 5), FIX_FTRUNCATE64);
	ASSERT_RET(0, fstat(fd, &st));
	EXPECT_EQ(GiB(3) + 5, st.st_size);
	close(fd);
#endif
}

/* A byte of a file that must (or must not) be in a hole. */
static void expect_byte(struct __test_metadata *_metadata, int fd,
			int64_t pos, char want, const char *why)
{
	char c = 'x';

	EXPECT_RET(1, pread(fd, &c, 1, pos));
	EXPECT_EQ(want, c) TH_LOG("byte at %#llx: %s", (unsigned long long)pos, why);
}

/*
 * The offset and the length of a punched hole, [5 GiB, 10 GiB): each word
 * of each, dropped or swapped, moves an end of the hole past a byte that
 * tells.
 */
TEST_F(pair, fallocate)
{
	const int64_t off = 0x140000000LL, len = 0x140000000LL;
	struct stat st;

	EXPECT_RET(0, fallocate(self->fd, 0, off, 8192));
	ASSERT_RET(0, fstat(self->fd, &st));
	EXPECT_EQ(off + 8192, st.st_size);
	EXPECT_RET(0, fallocate(self->fd, FALLOC_FL_KEEP_SIZE, GiB(12), 4096));
	ASSERT_RET(0, fstat(self->fd, &st));
	EXPECT_EQ(off + 8192, st.st_size);

	ASSERT_RET(1, pwrite(self->fd, "a", 1, off - 1));
	ASSERT_RET(1, pwrite(self->fd, "b", 1, off));
	ASSERT_RET(1, pwrite(self->fd, "d", 1, off + len - 0x20000000LL));
	ASSERT_RET(1, pwrite(self->fd, "e", 1, off + len));
	EXPECT_RET(0, fallocate(self->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				off, len));
	expect_byte(_metadata, self->fd, off - 1, 'a', "before the hole, punched" FIX_PPC_PAIRS);
	expect_byte(_metadata, self->fd, off, 0,
		    "the hole's first byte, not punched" FIX_PPC_PAIRS);
	expect_byte(_metadata, self->fd, off + len - 0x20000000LL, 0,
		    "in the hole, not punched" FIX_PPC_PAIRS);
	expect_byte(_metadata, self->fd, off + len, 'e', "after the hole, punched" FIX_PPC_PAIRS);
	EXPECT_ERRNO(EINVAL, fallocate(self->fd, 0, -GiB(4), 4096));
	EXPECT_ERRNO(EINVAL, fallocate(self->fd, 0, 0, -GiB(4)));
}

/*
 * readahead(): 0x1_8000_0000 swapped is negative, which the kernel
 * refuses, and so is -4 GiB without its high word dropped.
 */
TEST_F(pair, readahead)
{
	if (!fadvise_checks_offset)
		SKIP(return, "%s", FIX_FADVISE_OFFSET);
	ASSERT_RET(1, pwrite(self->fd, "x", 1, GiB(6)));
	EXPECT_RET(0, readahead(self->fd, 0x180000000LL, 4096));
	EXPECT_ERRNO(EINVAL, readahead(self->fd, -GiB(4), 4096));
}

/*
 * posix_fadvise() returns the error rather than setting errno.  A negative
 * length has always been refused: -4 GiB with its high word dropped is 0,
 * and with its words swapped 0xffff_ffff.
 */
TEST_F(pair, fadvise64_64_length)
{
	EXPECT_EQ(0, posix_fadvise(self->fd, 0, 0x180000000LL, POSIX_FADV_WILLNEED))
		TH_LOG("the words of the length%s", FIX_PPC_PAIRS);
	EXPECT_EQ(EINVAL, posix_fadvise(self->fd, 0, -GiB(4), POSIX_FADV_NORMAL))
		TH_LOG("a negative length");
}

TEST_F(pair, fadvise64_64)
{
	if (!fadvise_checks_offset)
		SKIP(return, "%s", FIX_FADVISE_OFFSET);
	EXPECT_EQ(0, posix_fadvise(self->fd, 0x180000000LL, 0x180000000LL,
				   POSIX_FADV_WILLNEED))
		TH_LOG("the words of the offset or the length%s", FIX_PPC_PAIRS);
	EXPECT_EQ(EINVAL, posix_fadvise(self->fd, -GiB(4), 4096, POSIX_FADV_NORMAL))
		TH_LOG("a negative offset");
}

/*
 * fadvise64(), the older call with a one-word length, which no C library
 * uses where fadvise64_64() exists: through syscall(2), with the offset as
 * a register pair where the ABI splits it.  FADVISE64_SKIP: why this ABI
 * has none that sys_fadvise64() can call.
 */
#if !defined(__NR_fadvise64)
#define FADVISE64_SKIP	"this ABI has no fadvise64(), only fadvise64_64()"
#elif defined(__mips__) && _MIPS_SIM == _MIPS_SIM_ABI32
#define FADVISE64_SKIP	"o32's fadvise64() is fadvise64_64(), which fadvise64_64 tests"
#elif defined(__mips__) && _MIPS_SIM == _MIPS_SIM_NABI32
#define FADVISE64_SKIP	"n32's fadvise64() takes a 64-bit register, and syscall(2) 32-bit words"
#endif

TEST_F(pair, fadvise64)
{
#ifdef FADVISE64_SKIP
	SKIP(return, FADVISE64_SKIP);
#else
	if (!fadvise_checks_offset)
		SKIP(return, "%s", FIX_FADVISE_OFFSET);
	EXPECT_RET(0, sys_fadvise64(self->fd, 0x180000000LL, 4096, POSIX_FADV_WILLNEED));
	EXPECT_ERRNO(EINVAL, sys_fadvise64(self->fd, -GiB(4), 4096, POSIX_FADV_NORMAL));
#endif
}

/*
 * sync_file_range() refuses a range whose end is past the largest offset:
 * each word of the offset and the length counts.
 */
TEST_F(pair, sync_file_range)
{
	const unsigned int w = SYNC_FILE_RANGE_WRITE;

	EXPECT_RET(0, sync_file_range(self->fd, 0x180000000LL, 0x180000000LL, w));
	/* Ends at 2^63: the low words of both make it. */
	EXPECT_ERRNO(EINVAL, sync_file_range(self->fd, 0x7fffffff80000000LL,
					     0x80000000LL, w));
	/* Ends at 2^63: the high word of the length makes it. */
	EXPECT_ERRNO(EINVAL, sync_file_range(self->fd, 0x7fffffff00000000LL,
					     0x100000000LL, w));
	EXPECT_ERRNO(EINVAL, sync_file_range(self->fd, -GiB(4), 4096, w));
	EXPECT_ERRNO(EINVAL, sync_file_range(self->fd, 0, -GiB(4), w));
}

/*
 * The flags of preadv2() and pwritev2(), which follow the split offset:
 * every entry point (native, compat, x32's preadv64v2() and pwritev64v2())
 * must pass them on, at an offset and at -1 (the file position).  Two
 * effects that are settled ABI on every kernel and file system: a bit that
 * no RWF_* flag uses is refused with EOPNOTSUPP (the flags are given out
 * from bit 0 up: 7.3 uses bits 0 to 8), and RWF_APPEND (4.16) writes at
 * the end of the file, wherever the offset or the file position points.
 */
#define RWF_UNUSED	0x80000000

TEST_F(pair, preadv2_flags)
{
	char buf[4] = { 0 };
	struct iovec iov = { buf, sizeof(buf) };

	ASSERT_RET(4, pwrite(self->fd, "abcd", 4, GiB(4)));
	ASSERT_RET(2, lseek(self->fd, 2, SEEK_SET));
	EXPECT_ERRNO(EOPNOTSUPP, sys_preadv2(self->fd, &iov, 1, GiB(4), RWF_UNUSED));
	EXPECT_ERRNO(EOPNOTSUPP, sys_preadv2(self->fd, &iov, 1, -1, RWF_UNUSED));
	EXPECT_RET(2, file_pos(self->fd));
	EXPECT_EQ(0, buf[0]);
}

TEST_F(pair, pwritev2_flags)
{
	const int64_t end = GiB(4) + 4;
	char buf[2] = "xy";
	struct iovec iov = { buf, sizeof(buf) };
	struct stat st;

	ASSERT_RET(4, pwrite(self->fd, "abcd", 4, GiB(4)));
	ASSERT_RET(2, lseek(self->fd, 2, SEEK_SET));
	EXPECT_ERRNO(EOPNOTSUPP, sys_pwritev2(self->fd, &iov, 1, GiB(4), RWF_UNUSED));
	EXPECT_ERRNO(EOPNOTSUPP, sys_pwritev2(self->fd, &iov, 1, -1, RWF_UNUSED));
	ASSERT_RET(0, fstat(self->fd, &st));
	EXPECT_EQ(end, st.st_size) TH_LOG("a write that must have been refused");

	/* At GiB(4): appended at the end instead. */
	EXPECT_RET(2, sys_pwritev2(self->fd, &iov, 1, GiB(4), RWF_APPEND));
	expect_byte(_metadata, self->fd, GiB(4), 'a', "RWF_APPEND wrote at the offset");
	expect_byte(_metadata, self->fd, end, 'x', "RWF_APPEND did not write at the end");
	/* At the file position, 2: appended at the end instead. */
	EXPECT_RET(2, sys_pwritev2(self->fd, &iov, 1, -1, RWF_APPEND));
	expect_byte(_metadata, self->fd, 2, 0, "RWF_APPEND wrote at the file position");
	expect_byte(_metadata, self->fd, end + 2, 'x', "RWF_APPEND did not write at the end");
	ASSERT_RET(0, fstat(self->fd, &st));
	EXPECT_EQ(end + 4, st.st_size);
}

/*
 * readahead(), fadvise64() and fadvise64_64() on a loop device: unlike
 * tmpfs's, its page cache is filled by readahead() and
 * POSIX_FADV_WILLNEED and emptied by POSIX_FADV_DONTNEED, and which pages
 * are in it afterwards (page_cached(), mincore()) tells the offset and the
 * length that the kernel took, word by word.  The offsets are past 4 GiB
 * with both words non-zero: 0x1_0400_0000 with its high word dropped is
 * 0x400_0000, with its low word dropped 0x1_0000_0000, and with its words
 * swapped past the end of the device.  The device, read-only, is over a
 * sparse file in the test's directory; it starts with an empty page cache.
 */
#define BDEV_SIZE	GiB(8)
#define HIGH_DROPPED(x)	((x) & 0xffffffffLL)
#define LOW_DROPPED(x)	((x) & ~0xffffffffLL)

FIXTURE(bdev) {
	int fd;
	long page;
};

FIXTURE_SETUP(bdev)
{
	char why[128];
	bool skip;
	int backing, ret;

	self->page = getpagesize();
	backing = tmpfile_open(O_RDWR);
	ASSERT_LE(0, backing);
	ASSERT_RET(0, ftruncate(backing, BDEV_SIZE));
	self->fd = loop_attach(backing, why, sizeof(why), &skip);
	close(backing);
	if (self->fd < 0 && skip)
		SKIP(return, "%s", why);
	ASSERT_LE(0, self->fd) TH_LOG("%s", why);
	ret = page_cached(self->fd, 0, self->page);
	ASSERT_EQ(0, ret) TH_LOG("the device's page cache at 0: %s",
				 ret < 0 ? errname(errno) : "not empty");
}

FIXTURE_TEARDOWN(bdev)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* After a WILLNEED of one page at @pos: that page, and not the others. */
static void expect_read_ahead(struct __test_metadata *_metadata, int fd,
			      long page, int64_t pos, const char *call)
{
	EXPECT_EQ(1, page_cached_soon(fd, pos, page))
		TH_LOG("%s: the page at %#llx is not in the page cache%s", call,
		       (unsigned long long)pos, FIX_PPC_PAIRS);
	EXPECT_EQ(0, page_cached(fd, HIGH_DROPPED(pos), page))
		TH_LOG("%s: the page at %#llx is: the high word was dropped", call,
		       (unsigned long long)HIGH_DROPPED(pos));
	EXPECT_EQ(0, page_cached(fd, LOW_DROPPED(pos), page))
		TH_LOG("%s: the page at %#llx is: the low word was dropped", call,
		       (unsigned long long)LOW_DROPPED(pos));
}

TEST_F(bdev, readahead)
{
	const int64_t pos = 0x104000000LL;

	EXPECT_RET(0, readahead(self->fd, pos, self->page));
	expect_read_ahead(_metadata, self->fd, self->page, pos, "readahead()");
}

TEST_F(bdev, fadvise64)
{
#ifdef FADVISE64_SKIP
	SKIP(return, FADVISE64_SKIP);
#else
	const int64_t pos = 0x108000000LL;

	EXPECT_RET(0, sys_fadvise64(self->fd, pos, self->page, POSIX_FADV_WILLNEED));
	expect_read_ahead(_metadata, self->fd, self->page, pos, "fadvise64()");
#endif
}

TEST_F(bdev, fadvise64_64_offset)
{
	const int64_t pos = 0x10c000000LL;

	EXPECT_EQ(0, posix_fadvise(self->fd, pos, self->page, POSIX_FADV_WILLNEED));
	expect_read_ahead(_metadata, self->fd, self->page, pos, "posix_fadvise()");
}

/* A page into the page cache, through read(), which takes no pair. */
static int read_page(int fd, int64_t pos, long page)
{
	static char buf[65536];

	if (page > (long)sizeof(buf) || lseek(fd, pos, SEEK_SET) != pos)
		return -1;
	return read(fd, buf, page) == page ? 0 : -1;
}

/*
 * POSIX_FADV_DONTNEED of [0, 0x1_1000_0000 + a page): the page at
 * 0x1_1000_0000 goes, and the next stays.  Without its high word or its
 * low word the length ends before that page, and swapped it reaches past
 * the next one.
 */
TEST_F(bdev, fadvise64_64_length)
{
	const int64_t len = 0x110000000LL + self->page;
	const int64_t last = len - self->page;

	ASSERT_EQ(0, read_page(self->fd, last, self->page));
	ASSERT_EQ(0, read_page(self->fd, len, self->page));
	ASSERT_EQ(1, page_cached(self->fd, last, self->page));
	ASSERT_EQ(1, page_cached(self->fd, len, self->page));
	EXPECT_EQ(0, posix_fadvise(self->fd, 0, len, POSIX_FADV_DONTNEED));
	EXPECT_EQ(0, page_cached(self->fd, last, self->page))
		TH_LOG("the page at %#llx is still cached: the length lost a word%s",
		       (unsigned long long)last, FIX_PPC_PAIRS);
	EXPECT_EQ(1, page_cached(self->fd, len, self->page))
		TH_LOG("the page at %#llx is gone: the length's words were swapped%s",
		       (unsigned long long)len, FIX_PPC_PAIRS);
}

/*
 * Threads write disjoint stripes with pwritev() across the 4 GiB boundary
 * while others read with preadv(): every byte read is a hole or its final
 * value, the file ends as the model says, and the file position stays 0.
 */
#ifndef NOLIBC
#define CC_WRITERS	4
#define CC_READERS	2
#define CC_CHUNK	512
#define CC_CHUNKS	32
#define CC_STRIPE	(CC_CHUNK * CC_CHUNKS)
#define CC_BASE		(GiB(4) - 2 * CC_STRIPE)

struct cc_arg {
	int fd;
	int id;
	int *stop;
	long errors;
};

static void *cc_writer(void *p)
{
	struct cc_arg *a = p;
	unsigned char buf[CC_CHUNK];
	int i;

	for (i = 0; i < CC_CHUNKS; i++) {
		int64_t pos = CC_BASE + (int64_t)a->id * CC_STRIPE + i * CC_CHUNK;
		struct iovec iov[3] = { { buf, 100 }, { buf + 100, 0 },
					{ buf + 100, CC_CHUNK - 100 } };

		fill_pattern(buf, sizeof(buf), 7, pos);
		if (entry_pwritev((enum entry)(i % 3), a->fd, iov, 3, pos) != CC_CHUNK)
			a->errors++;
	}
	return NULL;
}

static void *cc_reader(void *p)
{
	struct cc_arg *a = p;
	unsigned char buf[CC_CHUNK];
	unsigned int seed = a->id;

	while (!__atomic_load_n(a->stop, __ATOMIC_RELAXED)) {
		int64_t pos = CC_BASE + rand_r(&seed) % (CC_WRITERS * CC_STRIPE - CC_CHUNK);
		struct iovec iov[2] = { { buf, 7 }, { buf + 7, CC_CHUNK - 7 } };
		ssize_t n = entry_preadv((enum entry)(seed % 3), a->fd, iov, 2, pos);
		ssize_t i;

		for (i = 0; i < n; i++)
			if (buf[i] && buf[i] != pattern(7, pos + i))
				a->errors++;
	}
	return NULL;
}

#endif

FIXTURE(model) {
	int fd;
};

FIXTURE_SETUP(model)
{
	self->fd = tmpfile_open(O_RDWR);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(model)
{
	close(self->fd);
}

TEST_F(model, concurrent_pwritev_preadv)
{
#ifdef NOLIBC
	SKIP(return, "built with nolibc, which has no threads");
#else
	pthread_t w[CC_WRITERS], r[CC_READERS];
	struct cc_arg wa[CC_WRITERS], ra[CC_READERS];
	static unsigned char got[CC_WRITERS * CC_STRIPE], want[CC_WRITERS * CC_STRIPE];
	int stop = 0;
	struct iovec iov = { got, sizeof(got) };
	int fd = self->fd, i;

	for (i = 0; i < CC_READERS; i++) {
		ra[i] = (struct cc_arg){ fd, i + 1, &stop, 0 };
		ASSERT_EQ(0, pthread_create(&r[i], NULL, cc_reader, &ra[i]));
	}
	for (i = 0; i < CC_WRITERS; i++) {
		wa[i] = (struct cc_arg){ fd, i, &stop, 0 };
		ASSERT_EQ(0, pthread_create(&w[i], NULL, cc_writer, &wa[i]));
	}
	for (i = 0; i < CC_WRITERS; i++) {
		pthread_join(w[i], NULL);
		EXPECT_EQ(0, wa[i].errors) TH_LOG("writer %d: short pwritev", i);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < CC_READERS; i++) {
		pthread_join(r[i], NULL);
		EXPECT_EQ(0, ra[i].errors) TH_LOG("reader %d: torn bytes", i);
	}
	fill_pattern(want, sizeof(want), 7, CC_BASE);
	EXPECT_RET(sizeof(got), sys_preadv(fd, &iov, 1, CC_BASE));
	EXPECT_EQ(-1, first_difference(want, got, sizeof(got)))
		TH_LOG("file differs from the model at %#llx",
		       (unsigned long long)CC_BASE +
		       first_difference(want, got, sizeof(got)));
	EXPECT_EQ(0, file_pos(fd));
#endif
}

/*
 * Random sequences of the four calls with random iovec shapes and offsets
 * around the boundaries, against a model of the sparse file.  Bounded by a
 * count and a time.  The seed is RD_DEFAULT_SEED, or PREADV_SEED=n to vary
 * it; either way it is printed, and the same seed replays the same run.
 */
#define RD_DEFAULT_SEED	1
#define RD_OPS		400
#define RD_SECONDS	10
#define RD_MAXSEG	5
#define RD_MAXLEN	48

struct rd_write {
	int64_t pos;
	int len;
	uint32_t tag;
};

struct rd_model {
	struct rd_write w[RD_OPS];
	int nw;
	int64_t size;
	int64_t fpos;	/* the file position, for offset -1 */
};

static unsigned char rd_byte(const struct rd_model *m, int64_t pos)
{
	int i;

	for (i = m->nw - 1; i >= 0; i--)
		if (pos >= m->w[i].pos && pos < m->w[i].pos + m->w[i].len)
			return pattern(m->w[i].tag, pos);
	return 0;
}

static uint64_t rd_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Seconds on the monotonic clock, for the run's time bound. */
static time_t monotonic_seconds(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 0;
	return ts.tv_sec;
}

TEST_F(model, random_against_model)
{
	static const char * const names[] = { "preadv", "pwritev", "preadv2",
					       "pwritev2", "libc preadv",
					       "libc pwritev" };
	static struct rd_model m;
	const char *env = getenv("PREADV_SEED");
	uint64_t seed = env ? strtoull(env, NULL, 0) : RD_DEFAULT_SEED;
	uint64_t s = seed | 1;
	time_t end = monotonic_seconds() + RD_SECONDS;
	int fd = self->fd, op;

	ksft_print_msg("random_against_model: PREADV_SEED=%llu\n",
		       (unsigned long long)seed);
	for (op = 0; op < RD_OPS && monotonic_seconds() < end; op++) {
		static unsigned char buf[RD_MAXSEG * RD_MAXLEN];
		struct iovec iov[RD_MAXSEG];
		int kind = rd_next(&s) % 6, nseg = 1 + rd_next(&s) % RD_MAXSEG;
		int64_t pos = boundary_offsets[rd_next(&s) % 9] +
			      (int64_t)(rd_next(&s) % 65) - 32;
		bool write = kind & 1, cur = false;
		long len = 0, want, got, i;

		if (pos < 0)
			pos = 0;
		if (kind >= 2 && kind < 4 && rd_next(&s) % 4 == 0)
			cur = true;	/* offset -1: the file position */
		for (i = 0; i < nseg; i++) {
			iov[i].iov_base = buf + len;
			iov[i].iov_len = rd_next(&s) % (RD_MAXLEN + 1);
			len += iov[i].iov_len;
		}
		if (cur)
			pos = m.fpos;
		if (write)
			fill_pattern(buf, len, op, pos);
		else
			memset(buf, 0xee, len);

		switch (kind) {
		case 0:
			got = sys_preadv(fd, iov, nseg, pos);
			break;
		case 1:
			got = sys_pwritev(fd, iov, nseg, pos);
			break;
		case 2:
			got = sys_preadv2(fd, iov, nseg, cur ? -1 : pos, 0);
			break;
		case 3:
			got = sys_pwritev2(fd, iov, nseg, cur ? -1 : pos, 0);
			break;
		case 4:
			got = preadv(fd, iov, nseg, pos);
			break;
		default:
			got = pwritev(fd, iov, nseg, pos);
			break;
		}

		if (write) {
			want = len;
			if (len) {
				m.w[m.nw++] = (struct rd_write){ pos, len, op };
				if (pos + len > m.size)
					m.size = pos + len;
			}
		} else {
			want = pos >= m.size ? 0 : (m.size - pos < len ? m.size - pos : len);
		}
		if (cur && got > 0)
			m.fpos += got;

		ASSERT_EQ(want, got)
			TH_LOG("PREADV_SEED=%llu op %d: %s, %d segments, %ld bytes at %#llx: %s",
			       (unsigned long long)seed, op, names[kind], nseg, len,
			       (unsigned long long)pos, RET_ERR(got));
		for (i = 0; !write && i < got; i++)
			ASSERT_EQ(rd_byte(&m, pos + i), buf[i])
				TH_LOG("PREADV_SEED=%llu op %d: %s at %#llx: byte %ld is wrong",
				       (unsigned long long)seed, op, names[kind],
				       (unsigned long long)pos, i);
		ASSERT_EQ(m.fpos, file_pos(fd))
			TH_LOG("PREADV_SEED=%llu op %d: %s moved the file position",
			       (unsigned long long)seed, op, names[kind]);
	}
	ksft_print_msg("random_against_model: %d operations, %d writes, file size %#llx\n",
		       op, m.nw, (unsigned long long)m.size);
}

/*
 * Every run works in a directory of its own, made with mkdtemp() on tmpfs,
 * so that two runs at once, or a run beside another user's, create no file
 * of the same name.  At exit the directory goes, with whatever a case that
 * failed an ASSERT before its cleanup left in it (each case runs in a
 * child of this process; only this process removes it).
 */
static char workdir[32];
static pid_t main_pid;

static void remove_workdir(void)
{
	char path[sizeof(workdir) + NAME_MAX + 1];
	struct dirent *e;
	DIR *d;

	if (getpid() != main_pid || chdir(".."))
		return;
	d = opendir(workdir);
	if (d) {
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
				snprintf(path, sizeof(path), "%s/%s", workdir,
					 e->d_name);
				unlink(path);
			}
		closedir(d);
	}
	rmdir(workdir);
}

/* Into a directory on tmpfs, or a skip that says why, after the TAP header. */
int main(int argc, char **argv)
{
	const char *dir = tmpfs_dir();

	if (!dir || chdir(dir)) {
		ksft_print_header();
		ksft_exit_skip("no tmpfs to work in: %s\n",
			       getenv("PREADV_TMPDIR") ? "$PREADV_TMPDIR" :
			       "., /dev/shm and /tmp");
	}
	strcpy(workdir, "preadv-XXXXXX");
	if (!mkdtemp(workdir) || chdir(workdir)) {
		ksft_print_header();
		ksft_exit_fail_msg("cannot make a directory to work in, in %s: %s\n",
				   dir, strerror(errno));
	}
	main_pid = getpid();
	/*
	 * Whether the kernel refuses a negative offset for posix_fadvise() on
	 * tmpfs, asked with -1: its two words are the same, and neither the
	 * order of the words nor the low word changes the answer (a dropped
	 * high word does: the bdev cases see that word).
	 */
	{
		int fd = tmpfile_open(O_RDWR);

		fadvise_checks_offset = fd >= 0 &&
			posix_fadvise(fd, -1, 0, POSIX_FADV_NORMAL) == EINVAL;
		if (fd >= 0)
			close(fd);
	}
#ifdef NOLIBC
	/*
	 * nolibc's exit() runs no atexit() handlers: the harness runs in a
	 * child, and this process removes the directory when it has ended.
	 */
	{
		pid_t pid = fork();
		int status;

		if (pid == 0)
			return test_harness_run(argc, argv);
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			ksft_exit_fail_msg("cannot run the tests in a child: %s\n",
					   strerror(errno));
		remove_workdir();
		return WIFEXITED(status) ? WEXITSTATUS(status) : KSFT_FAIL;
	}
#else
	atexit(remove_workdir);
	return test_harness_run(argc, argv);
#endif
}
