// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the merging of 64-bit system call arguments that 32-bit
 * ABIs pass as two 32-bit words:
 *
 * - a register pair in the memory order of the 64-bit value, whose high
 *   word comes first on big-endian and second on little-endian:
 *   compat_arg_u64(), compat_arg_u64_dual() and compat_arg_u64_glue() of
 *   <asm-generic/compat.h>, and SC_ARG64()/SC_VAL64() of <linux/syscalls.h>.
 *   This is the merge that MIPS and powerpc each had a private merge_64()
 *   for, and arm64 arg_u32p()/arg_u64(): the "merge_64() endianness" cases
 *   are the compat_arg_u64*() and sc_arg64 ones;
 * - the fixed (pos_l, pos_h) order of the preadv() family, merged by
 *   pos_from_lohi() and native_pos_from_lohi() in fs/read_write.c.
 *
 * This file is included from fs/read_write.c, to reach its static helpers.
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
	SPLIT64(0x1ffffffff),
	SPLIT64(0x10000000000),
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
 * into a register pair.  This does not depend on the kernel's helpers.
 */
static void split64_memory_order(u64 val, u32 *word0, u32 *word1)
{
	u32 words[2];

	memcpy(words, &val, sizeof(words));
	*word0 = words[0];
	*word1 = words[1];
}

/* A pair declared as a generic compat system call declares it. */
static u64 pair_compat_arg_u64(compat_arg_u64(arg))
{
	return compat_arg_u64_glue(arg);
}

/* A pair declared as the arguments of COMPAT_SYSCALL_DEFINEx() declare it. */
static u64 pair_compat_arg_u64_dual(__MAP(2, __SC_DECL,
					  compat_arg_u64_dual(arg)))
{
	return compat_arg_u64_glue(arg);
}

/* A pair declared as the arguments of a native SYSCALL_DEFINEx() can be. */
static u64 pair_sc_arg64(__MAP(2, __SC_DECL, SC_ARG64(arg)))
{
	return SC_VAL64(u64, arg);
}

/*
 * merge_64() endianness: compat_arg_u64() declares the register pair in the
 * memory order of the value, and compat_arg_u64_glue() merges it back.
 */
static void compat_arg_u64_test(struct kunit *test)
{
	const struct split64_case *p = test->param_value;
	u32 word0, word1;

	split64_memory_order(p->val, &word0, &word1);
	KUNIT_EXPECT_EQ_MSG(test, pair_compat_arg_u64(word0, word1), p->val,
			    "words 0x%08x, 0x%08x", word0, word1);
}

/* The same through compat_arg_u64_dual(), as the system call wrappers use. */
static void compat_arg_u64_dual_test(struct kunit *test)
{
	const struct split64_case *p = test->param_value;
	u32 word0, word1;

	split64_memory_order(p->val, &word0, &word1);
	KUNIT_EXPECT_EQ_MSG(test, pair_compat_arg_u64_dual(word0, word1),
			    p->val, "words 0x%08x, 0x%08x", word0, word1);
}

/* The same through SC_ARG64() and SC_VAL64(), for 32-bit native kernels. */
static void sc_arg64_test(struct kunit *test)
{
	const struct split64_case *p = test->param_value;
	u32 word0, word1;

	split64_memory_order(p->val, &word0, &word1);
	KUNIT_EXPECT_EQ_MSG(test, pair_sc_arg64(word0, word1), p->val,
			    "words 0x%08x, 0x%08x", word0, word1);
}

/*
 * merge_64() endianness, with the answer written out: the first register
 * holds the high word on a big-endian kernel and the low word otherwise,
 * for compat_arg_u64() (keyed on CONFIG_CPU_BIG_ENDIAN) and SC_ARG64()
 * (keyed on __LITTLE_ENDIAN) alike.
 */
static void compat_arg_u64_endianness_test(struct kunit *test)
{
	const u64 val = 0x0123456789abcdefULL;
	const u64 want = IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ?
			 val : 0x89abcdef01234567ULL;
	u32 word0, word1;

	split64_memory_order(val, &word0, &word1);
	if (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN)) {
		KUNIT_EXPECT_EQ(test, word0, 0x01234567U);
		KUNIT_EXPECT_EQ(test, word1, 0x89abcdefU);
	} else {
		KUNIT_EXPECT_EQ(test, word0, 0x89abcdefU);
		KUNIT_EXPECT_EQ(test, word1, 0x01234567U);
	}
	KUNIT_EXPECT_EQ(test, pair_compat_arg_u64(0x01234567U, 0x89abcdefU),
			want);
	KUNIT_EXPECT_EQ(test, pair_compat_arg_u64_dual(0x01234567U,
						       0x89abcdefU), want);
	KUNIT_EXPECT_EQ(test, pair_sc_arg64(0x01234567U, 0x89abcdefU), want);
}

/* The preadv() family's (pos_l, pos_h): the same on every ABI. */
static void pos_from_lohi_test(struct kunit *test)
{
	const struct split64_case *p = test->param_value;
	loff_t pos = pos_from_lohi(lower_32_bits(p->val),
				   upper_32_bits(p->val));

	KUNIT_EXPECT_EQ(test, (u64)pos, p->val);
	/* A high word with bit 31 set is a negative offset: -EINVAL. */
	KUNIT_EXPECT_EQ(test, pos < 0, (s64)p->val < 0);
}

/*
 * A native preadv() family call: the offset as a C library splits it,
 * (long)offset and offset >> 32, merges back on 32-bit and 64-bit kernels.
 */
static void native_pos_from_lohi_test(struct kunit *test)
{
	const struct split64_case *p = test->param_value;
	unsigned long pos_l = (unsigned long)p->val;
	unsigned long pos_h = (unsigned long)(p->val >> 32);
	loff_t pos = native_pos_from_lohi(pos_l, pos_h);

	KUNIT_EXPECT_EQ(test, (u64)pos, p->val);
	KUNIT_EXPECT_EQ(test, pos < 0, (s64)p->val < 0);
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

/* Words that a 64-bit kernel must not combine. */
static void native_pos_from_lohi_bitness_test(struct kunit *test)
{
	const struct lohi_case *p = test->param_value;
	u64 want = BITS_PER_LONG == 64 ? p->want64 : p->want32;

	KUNIT_EXPECT_EQ(test, (u64)native_pos_from_lohi(p->pos_l, p->pos_h),
			want);
}

static struct kunit_case read_write_test_cases[] = {
	KUNIT_CASE_PARAM(compat_arg_u64_test, split64_gen_params),
	KUNIT_CASE_PARAM(compat_arg_u64_dual_test, split64_gen_params),
	KUNIT_CASE_PARAM(sc_arg64_test, split64_gen_params),
	KUNIT_CASE(compat_arg_u64_endianness_test),
	KUNIT_CASE_PARAM(pos_from_lohi_test, split64_gen_params),
	KUNIT_CASE_PARAM(native_pos_from_lohi_test, split64_gen_params),
	KUNIT_CASE_PARAM(native_pos_from_lohi_bitness_test,
			 native_pos_gen_params),
	{}
};

static struct kunit_suite read_write_test_suite = {
	.name = "read_write",
	.test_cases = read_write_test_cases,
};

kunit_test_suite(read_write_test_suite);
