// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the merge of the file offset that preadv(), pwritev(),
 * preadv2() and pwritev2() take as (pos_l, pos_h), low word first, on
 * every ABI: pos_from_lohi() for the compat entry points and
 * native_pos_from_lohi() for the native ones, both static in
 * fs/read_write.c, which includes this file.
 *
 *	./tools/testing/kunit/kunit.py run --arch=i386 \
 *		--kconfig_add CONFIG_READ_WRITE_KUNIT_TEST=y read_write
 */
#include <kunit/test.h>

struct pos_case {
	u64 pos;
	const char *desc;
};

#define POS(v)	{ .pos = v##ULL, .desc = #v }

/* Offsets at every boundary where merging two 32-bit words can go wrong. */
static const struct pos_case pos_cases[] = {
	POS(0x0),
	POS(0x7fffffff),
	POS(0x80000000),
	POS(0xffffffff),
	POS(0x100000000),
	POS(0x180000000),
	POS(0x0123456789abcdef),
	POS(0x7fffffffffffffff),
	POS(0x8000000000000000),
	POS(0xfffffffeffffffff),
	POS(0xffffffffffffffff),
};

KUNIT_ARRAY_PARAM_DESC(pos, pos_cases, desc);

/*
 * A compat call: the halves as a C library splits the offset, the merge
 * gives it back, and a high word with bit 31 set is a negative offset,
 * which the callers refuse with -EINVAL (but for -1 in preadv2() and
 * pwritev2(): the file position).
 */
static void pos_from_lohi_test(struct kunit *test)
{
	const struct pos_case *p = test->param_value;
	loff_t pos = pos_from_lohi(lower_32_bits(p->pos), upper_32_bits(p->pos));

	KUNIT_EXPECT_EQ(test, (u64)pos, p->pos);
	KUNIT_EXPECT_EQ(test, pos < 0, (s64)p->pos < 0);
}

/*
 * A native call: the offset as a C library splits it, (long)offset and
 * offset >> 32, merges back on 32-bit and 64-bit kernels alike.
 */
static void native_pos_from_lohi_test(struct kunit *test)
{
	const struct pos_case *p = test->param_value;
	unsigned long pos_l = (unsigned long)p->pos;
	unsigned long pos_h = (unsigned long)(p->pos >> 32);
	loff_t pos = native_pos_from_lohi(pos_l, pos_h);

	KUNIT_EXPECT_EQ(test, (u64)pos, p->pos);
	KUNIT_EXPECT_EQ(test, pos < 0, (s64)p->pos < 0);
}

struct lohi_case {
	unsigned long pos_l;
	unsigned long pos_h;
	u64 want32;	/* on a 32-bit kernel */
	u64 want64;	/* on a 64-bit kernel: pos_h ignored */
	const char *desc;
};

static const struct lohi_case native_pos_cases[] = {
	{ 0x5, 0x7, 0x0000000700000005ULL, 0x5, "pos_h ignored on 64-bit" },
	{ 0x0, 0x1, 0x0000000100000000ULL, 0x0, "only pos_h" },
	{ 0xffffffff, 0xffffffff, 0xffffffffffffffffULL, 0xffffffff,
	  "-1 split in 32-bit words" },
	{ 0x0, 0x80000000, 0x8000000000000000ULL, 0x0,
	  "pos_h with bit 31 set" },
	{ 0x80000000, 0x0, 0x80000000ULL, 0x80000000, "pos_l with bit 31 set" },
};

KUNIT_ARRAY_PARAM_DESC(native_pos, native_pos_cases, desc);

/* Words that a 64-bit kernel must not combine: pos_h is not part of it. */
static void native_pos_from_lohi_bitness_test(struct kunit *test)
{
	const struct lohi_case *p = test->param_value;
	u64 want = BITS_PER_LONG == 64 ? p->want64 : p->want32;

	KUNIT_EXPECT_EQ(test, (u64)native_pos_from_lohi(p->pos_l, p->pos_h),
			want);
}

static struct kunit_case read_write_test_cases[] = {
	KUNIT_CASE_PARAM(pos_from_lohi_test, pos_gen_params),
	KUNIT_CASE_PARAM(native_pos_from_lohi_test, pos_gen_params),
	KUNIT_CASE_PARAM(native_pos_from_lohi_bitness_test,
			 native_pos_gen_params),
	{}
};

static struct kunit_suite read_write_test_suite = {
	.name = "read_write",
	.test_cases = read_write_test_cases,
};

kunit_test_suite(read_write_test_suite);
