// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the declaration and merge of a 64-bit system call
 * argument that a 32-bit ABI passes in a pair of registers, loaded from the
 * value's memory image: the first register holds the high word on a
 * big-endian kernel and the low word on a little-endian one.
 *
 *  - compat_arg_u64(), compat_arg_u64_dual() and compat_arg_u64_glue() of
 *    <asm-generic/compat.h>, for compat system calls;
 *  - SC_ARG64() and SC_VAL64() of <linux/syscalls.h>, for calls that are
 *    native on 32-bit kernels and compat on 64-bit ones.
 *
 * MIPS and powerpc each merged such pairs with a private merge_64(), arm64
 * with arg_u32p()/arg_u64(), before they used these helpers; the order is
 * what each of them had to get right, and what commit 40ff21432883
 * ("asm-generic: compat: fix compat_arg_u64() and compat_arg_u64_dual()")
 * fixed in the helpers themselves.
 *
 *	./tools/testing/kunit/kunit.py run --arch=mips64 \
 *		--cross_compile=mips64-linux-gnuabi64- \
 *		--kconfig_add CONFIG_COMPAT_ARG_U64_KUNIT_TEST=y compat_arg_u64
 */
#include <kunit/test.h>
#include <linux/compat.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/syscalls.h>

struct reg_pair_case {
	u64 val;
	const char *desc;
};

#define REG_PAIR(v)	{ .val = v##ULL, .desc = #v }

/* Values at every boundary where merging two 32-bit words can go wrong. */
static const struct reg_pair_case reg_pair_cases[] = {
	REG_PAIR(0x0),
	REG_PAIR(0x1),
	REG_PAIR(0x7fffffff),
	REG_PAIR(0x80000000),
	REG_PAIR(0xffffffff),
	REG_PAIR(0x100000000),
	REG_PAIR(0x100000001),
	REG_PAIR(0x180000000),
	REG_PAIR(0x1ffffffff),
	REG_PAIR(0x0123456789abcdef),
	REG_PAIR(0xfedcba9876543210),
	REG_PAIR(0x7fffffffffffffff),
	REG_PAIR(0x8000000000000000),
	REG_PAIR(0xffffffff00000000),
	REG_PAIR(0xffffffffffffffff),
};

KUNIT_ARRAY_PARAM_DESC(reg_pair, reg_pair_cases, desc);

/*
 * The words of @val in memory order: what 32-bit user space loads into
 * the two registers.  This does not depend on the helpers under test.
 */
static void memory_order(u64 val, u32 *first, u32 *second)
{
	u32 words[2];

	memcpy(words, &val, sizeof(words));
	*first = words[0];
	*second = words[1];
}

/* The two parameters that compat_arg_u64() declares, as a prototype has them. */
static u64 merge_compat_arg_u64(compat_arg_u64(val))
{
	return compat_arg_u64_glue(val);
}

/*
 * compat_arg_u64_dual() and SC_ARG64() give a pair as the "type, name"
 * list that the system call definition macros take; DEFINE_MERGE()
 * defines a function with the two parameters it lists, which stores
 * their merge in *@out.
 */
#define DEFINE_MERGE(fn, pair, merge)		__DEFINE_MERGE(fn, pair, merge)
#define __DEFINE_MERGE(fn, t1, n1, t2, n2, merge)	\
	static void fn(t1 n1, t2 n2, u64 *out) { *out = (merge); }

DEFINE_MERGE(__merge_compat_arg_u64_dual, compat_arg_u64_dual(val),
	     compat_arg_u64_glue(val))
DEFINE_MERGE(__merge_sc_arg64, SC_ARG64(val), SC_VAL64(u64, val))

static u64 merge_compat_arg_u64_dual(u32 first, u32 second)
{
	u64 val;

	__merge_compat_arg_u64_dual(first, second, &val);
	return val;
}

static u64 merge_sc_arg64(u32 first, u32 second)
{
	u64 val;

	__merge_sc_arg64(first, second, &val);
	return val;
}

/* Each helper gives back the value whose memory image filled the pair. */
static void compat_arg_u64_test(struct kunit *test)
{
	const struct reg_pair_case *p = test->param_value;
	u32 first, second;

	memory_order(p->val, &first, &second);
	KUNIT_EXPECT_EQ_MSG(test, merge_compat_arg_u64(first, second), p->val,
			    "registers 0x%08x, 0x%08x", first, second);
}

static void compat_arg_u64_dual_test(struct kunit *test)
{
	const struct reg_pair_case *p = test->param_value;
	u32 first, second;

	memory_order(p->val, &first, &second);
	KUNIT_EXPECT_EQ_MSG(test, merge_compat_arg_u64_dual(first, second),
			    p->val, "registers 0x%08x, 0x%08x", first, second);
}

static void sc_arg64_test(struct kunit *test)
{
	const struct reg_pair_case *p = test->param_value;
	u32 first, second;

	memory_order(p->val, &first, &second);
	KUNIT_EXPECT_EQ_MSG(test, merge_sc_arg64(first, second), p->val,
			    "registers 0x%08x, 0x%08x", first, second);
}

/*
 * The order written out, not taken from memcpy(): the first register is
 * the high word where the kernel is big-endian.  compat_arg_u64() keys it
 * on CONFIG_CPU_BIG_ENDIAN and SC_ARG64() on __LITTLE_ENDIAN; both must
 * agree with the kernel's byte order.
 */
static void register_pair_endianness_test(struct kunit *test)
{
	const u64 first_high = 0x0123456789abcdefULL;
	const u64 first_low = 0x89abcdef01234567ULL;
	const u64 want = IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ? first_high : first_low;
	u32 first, second;

	memory_order(0x0123456789abcdefULL, &first, &second);
	KUNIT_EXPECT_EQ(test, first,
			IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ? 0x01234567U : 0x89abcdefU);
	KUNIT_EXPECT_EQ(test, merge_compat_arg_u64(0x01234567U, 0x89abcdefU), want);
	KUNIT_EXPECT_EQ(test, merge_compat_arg_u64_dual(0x01234567U, 0x89abcdefU),
			want);
	KUNIT_EXPECT_EQ(test, merge_sc_arg64(0x01234567U, 0x89abcdefU), want);
}

static struct kunit_case compat_arg_u64_test_cases[] = {
	KUNIT_CASE_PARAM(compat_arg_u64_test, reg_pair_gen_params),
	KUNIT_CASE_PARAM(compat_arg_u64_dual_test, reg_pair_gen_params),
	KUNIT_CASE_PARAM(sc_arg64_test, reg_pair_gen_params),
	KUNIT_CASE(register_pair_endianness_test),
	{}
};

static struct kunit_suite compat_arg_u64_test_suite = {
	.name = "compat_arg_u64",
	.test_cases = compat_arg_u64_test_cases,
};

kunit_test_suite(compat_arg_u64_test_suite);

MODULE_DESCRIPTION("KUnit tests for compat_arg_u64() and SC_ARG64()");
MODULE_LICENSE("GPL");
