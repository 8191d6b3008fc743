// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the merging of 64-bit system call arguments that 32-bit
 * ABIs split into two 32-bit words: merge_64() and its fixed-order and
 * explicit-endian forms, pos_from_lohi() of the native preadv() family, and
 * compat_arg_u64()/compat_arg_u64_glue().
 *
 * This file is included from fs/read_write.c.
 */
#include <kunit/test.h>

struct split64_case {
	u64 val;
	const char *desc;
};

#define SPLIT64(v)	{ .val = v##ULL, .desc = #v }

/* Every boundary where merging two 32-bit words can go wrong. */
static const struct split64_case split64_cases[] = {
	SPLIT64(0x0),
	SPLIT64(0x1),
	SPLIT64(0x7fffffff),
	SPLIT64(0x80000000),
	SPLIT64(0xffffffff),
	SPLIT64(0x100000000),
	SPLIT64(0x100000001),
	SPLIT64(0x180000000),
	SPLIT64(0x140000000),
	SPLIT64(0x10000000000),
	SPLIT64(0x1ffffffff),
	SPLIT64(0x0123456789abcdef),
	SPLIT64(0xfedcba9876543210),
	SPLIT64(0x7fffffff00000000),
	SPLIT64(0x7fffffffffffffff),
	SPLIT64(0x8000000000000000),
	SPLIT64(0xffffffff00000000),
	SPLIT64(0xfffffffffffffffe),
	SPLIT64(0xffffffffffffffff),
};

KUNIT_ARRAY_PARAM_DESC(split64, split64_cases, desc);

/*
 * The words of @val in memory order, which is what 32-bit user space loads
 * into a register pair: independent of how merge_64() picks the order.
 */
static void split64_memory_order(u64 val, u32 *word0, u32 *word1)
{
	u32 words[2];

	memcpy(words, &val, sizeof(words));
	*word0 = words[0];
	*word1 = words[1];
}

/*
 * A 32-bit word as a 64-bit kernel can find it in a compat task's register:
 * sign-extended (MIPS keeps 32-bit values sign-extended in 64-bit registers).
 */
static unsigned long sign_extended(u32 word)
{
	return (unsigned long)(long)(s32)word;
}

/* merge_64() gives back the value whose memory image fills the pair. */
static void merge_64_memory_order_test(struct kunit *test)
{
	const struct split64_case *p = test->param_value;
	u32 word0, word1;

	split64_memory_order(p->val, &word0, &word1);
	KUNIT_EXPECT_EQ_MSG(test, merge_64(word0, word1), p->val,
			    "merge_64(0x%08x, 0x%08x)", word0, word1);
	KUNIT_EXPECT_EQ_MSG(test, merge_64(sign_extended(word0),
					   sign_extended(word1)), p->val,
			    "merge_64() of sign-extended 0x%08x, 0x%08x",
			    word0, word1);
}

/* Both explicit forms, on kernels of either endianness. */
static void merge_64_le_be_test(struct kunit *test)
{
	const struct split64_case *p = test->param_value;
	u32 lo = lower_32_bits(p->val), hi = upper_32_bits(p->val);

	KUNIT_EXPECT_EQ(test, merge_64_le(lo, hi), p->val);
	KUNIT_EXPECT_EQ(test, merge_64_be(hi, lo), p->val);
	KUNIT_EXPECT_EQ(test, merge_64_le(sign_extended(lo),
					  sign_extended(hi)), p->val);
	KUNIT_EXPECT_EQ(test, merge_64_be(sign_extended(hi),
					  sign_extended(lo)), p->val);
}

/* The kernel's merge_64() is the form of its own endianness. */
static void merge_64_kernel_endianness_test(struct kunit *test)
{
	const u64 val = 0x0123456789abcdefULL;
	u32 word0, word1;

	split64_memory_order(val, &word0, &word1);
#ifdef __BIG_ENDIAN
	KUNIT_EXPECT_EQ(test, word0, 0x01234567U);
	KUNIT_EXPECT_EQ(test, merge_64(word0, word1), merge_64_be(word0, word1));
#else
	KUNIT_EXPECT_EQ(test, word0, 0x89abcdefU);
	KUNIT_EXPECT_EQ(test, merge_64(word0, word1), merge_64_le(word0, word1));
#endif
	KUNIT_EXPECT_NE(test, merge_64_le(word0, word1),
			merge_64_be(word0, word1));
}

/* The compat preadv() family: (pos_low, pos_high) on every ABI. */
static void merge_64_lohi_test(struct kunit *test)
{
	const struct split64_case *p = test->param_value;
	u32 lo = lower_32_bits(p->val), hi = upper_32_bits(p->val);
	loff_t pos = merge_64_lohi(lo, hi);

	KUNIT_EXPECT_EQ(test, (u64)pos, p->val);
	KUNIT_EXPECT_EQ(test, merge_64_lohi(sign_extended(lo),
					    sign_extended(hi)), p->val);
	/* A high word with bit 31 set is a negative offset: -EINVAL. */
	KUNIT_EXPECT_EQ(test, pos < 0, (hi & 0x80000000U) != 0);
}

/*
 * The native preadv() family: the offset as a C library splits it,
 * (long)offset and offset >> 32, merges back on 32-bit and 64-bit kernels.
 */
static void pos_from_lohi_test(struct kunit *test)
{
	const struct split64_case *p = test->param_value;
	unsigned long lo = (unsigned long)p->val;
	unsigned long hi = (unsigned long)(p->val >> 32);
	loff_t pos = pos_from_lohi(lo, hi);

	KUNIT_EXPECT_EQ(test, (u64)pos, p->val);
	KUNIT_EXPECT_EQ(test, pos < 0, (s64)p->val < 0);
}

struct lohi_case {
	unsigned long lo;
	unsigned long hi;
	u64 want32;	/* on a 32-bit kernel */
	u64 want64;	/* on a 64-bit kernel: pos_h ignored */
	const char *desc;
};

static const struct lohi_case pos_from_lohi_cases[] = {
	{ 0x5, 0x7, 0x0000000700000005ULL, 0x5, "high word ignored on 64-bit" },
	{ 0x0, 0x1, 0x0000000100000000ULL, 0x0, "only a high word" },
	{ 0xffffffff, 0xffffffff, 0xffffffffffffffffULL, 0xffffffff,
	  "-1 split in 32-bit words" },
	{ 0x0, 0x80000000, 0x8000000000000000ULL, 0x0,
	  "high word with bit 31 set" },
	{ 0x80000000, 0x0, 0x80000000ULL, 0x80000000, "low word bit 31 set" },
};

KUNIT_ARRAY_PARAM_DESC(pos_from_lohi, pos_from_lohi_cases, desc);

/* Words that a 64-bit kernel must not combine: no shift by 64 either. */
static void pos_from_lohi_bitness_test(struct kunit *test)
{
	const struct lohi_case *p = test->param_value;
	u64 want = BITS_PER_LONG == 64 ? p->want64 : p->want32;

	KUNIT_EXPECT_EQ(test, (u64)pos_from_lohi(p->lo, p->hi), want);
}

#ifdef compat_arg_u64
/* Receives a register pair declared as the compat syscall wrappers do. */
static u64 compat_arg_u64_pair(compat_arg_u64(pos))
{
	return compat_arg_u64_glue(pos);
}

/*
 * compat_arg_u64() declares the pair in the order of the value's memory
 * image, and compat_arg_u64_glue() merges it as merge_64() does.
 */
static void compat_arg_u64_test(struct kunit *test)
{
	const struct split64_case *p = test->param_value;
	u32 word0, word1;

	split64_memory_order(p->val, &word0, &word1);
	KUNIT_EXPECT_EQ(test, compat_arg_u64_pair(word0, word1), p->val);
	KUNIT_EXPECT_EQ(test, compat_arg_u64_pair(word0, word1),
			merge_64(word0, word1));
}
#endif

static struct kunit_case read_write_test_cases[] = {
	KUNIT_CASE_PARAM(merge_64_memory_order_test, split64_gen_params),
	KUNIT_CASE_PARAM(merge_64_le_be_test, split64_gen_params),
	KUNIT_CASE(merge_64_kernel_endianness_test),
	KUNIT_CASE_PARAM(merge_64_lohi_test, split64_gen_params),
	KUNIT_CASE_PARAM(pos_from_lohi_test, split64_gen_params),
	KUNIT_CASE_PARAM(pos_from_lohi_bitness_test, pos_from_lohi_gen_params),
#ifdef compat_arg_u64
	KUNIT_CASE_PARAM(compat_arg_u64_test, split64_gen_params),
#endif
	{}
};

static struct kunit_suite read_write_test_suite = {
	.name = "read_write_offset",
	.test_cases = read_write_test_cases,
};

kunit_test_suite(read_write_test_suite);
