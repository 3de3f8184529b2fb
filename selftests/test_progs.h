/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small test runner in the style of tools/testing/selftests/bpf/test_progs:
 * the same ASSERT_*() macros and test__*() calls, so tests read (and can be
 * ported) the same way, without the upstream runner's build requirements.
 */
#ifndef __TEST_PROGS_H
#define __TEST_PROGS_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#ifndef __weak
#define __weak __attribute__((weak))
#endif

#ifndef noinline
#define noinline __attribute__((noinline))
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

static inline __u64 ptr_to_u64(const void *ptr)
{
	return (__u64)(unsigned long)ptr;
}

/* The two instructions tests build programs from (tools/include/linux/filter.h) */
#ifndef BPF_MOV64_IMM
#define BPF_MOV64_IMM(DST, IMM)						\
	((struct bpf_insn) { .code = BPF_ALU64 | BPF_MOV | BPF_K,	\
			     .dst_reg = DST, .src_reg = 0, .off = 0, .imm = IMM })
#define BPF_EXIT_INSN()							\
	((struct bpf_insn) { .code = BPF_JMP | BPF_EXIT })
#endif

typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;

struct test_env {
	int verbosity;		/* -v: passing checks too; -vv: libbpf's log too */
	const char *test_name;	/* running test */
	const char *subtest_name;	/* running subtest, or NULL */
	bool test_failed;	/* current test or subtest failed */
	bool test_skipped;
};

extern struct test_env env;

bool test__start_subtest(const char *name);
void test__end_subtest(void);
void test__fail(void);
void test__skip(void);
void test__log(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A failed check prints its message; with -v a passing one prints "ok". */
#define _CHECK(condition, tag, format...) ({				\
	int __ret = !!(condition);					\
	if (__ret) {							\
		test__log(false, "%s:%s:%d: ", __func__, tag, __LINE__); \
		fprintf(stderr, ##format);				\
		test__fail();						\
	} else if (env.verbosity) {					\
		test__log(false, "%s:%s:%d: ok\n", __func__, tag, __LINE__); \
	}								\
	__ret;								\
})

#define CHECK(condition, tag, format...) _CHECK(condition, tag, format)

#define ASSERT_TRUE(actual, name) ({					\
	bool ___ok = (actual);						\
	CHECK(!___ok, (name), "unexpected %s: got FALSE\n", (name));	\
	___ok;								\
})

#define ASSERT_FALSE(actual, name) ({					\
	bool ___ok = !(actual);						\
	CHECK(!___ok, (name), "unexpected %s: got TRUE\n", (name));	\
	___ok;								\
})

#define __ASSERT_CMP(actual, expected, name, op, opname) ({		\
	typeof(actual) ___act = (actual);				\
	typeof(expected) ___exp = (expected);				\
	bool ___ok = ___act op ___exp;					\
	CHECK(!___ok, (name), "unexpected %s: actual %lld (0x%llx) "	\
	      opname " expected %lld (0x%llx)\n", (name),		\
	      (long long)___act, (unsigned long long)___act,		\
	      (long long)___exp, (unsigned long long)___exp);		\
	___ok;								\
})

#define ASSERT_EQ(a, e, n)	__ASSERT_CMP(a, e, n, ==, "!=")
#define ASSERT_NEQ(a, e, n)	__ASSERT_CMP(a, e, n, !=, "==")
#define ASSERT_LT(a, e, n)	__ASSERT_CMP(a, e, n, <, ">=")
#define ASSERT_LE(a, e, n)	__ASSERT_CMP(a, e, n, <=, ">")
#define ASSERT_GT(a, e, n)	__ASSERT_CMP(a, e, n, >, "<=")
#define ASSERT_GE(a, e, n)	__ASSERT_CMP(a, e, n, >=, "<")

#define ASSERT_STREQ(actual, expected, name) ({				\
	const char *___act = (actual), *___exp = (expected);		\
	bool ___ok = strcmp(___act, ___exp) == 0;			\
	CHECK(!___ok, (name), "unexpected %s: actual '%s' != expected '%s'\n", \
	      (name), ___act, ___exp);					\
	___ok;								\
})

#define ASSERT_HAS_SUBSTR(str, substr, name) ({				\
	const char *___str = (str), *___sub = (substr);			\
	bool ___ok = strstr(___str, ___sub) != NULL;			\
	CHECK(!___ok, (name), "unexpected %s: '%s' is not a substring of '%s'\n", \
	      (name), ___sub, ___str);					\
	___ok;								\
})

#define ASSERT_OK(res, name) ({						\
	long long ___res = (res);					\
	bool ___ok = ___res == 0;					\
	CHECK(!___ok, (name), "unexpected error: %lld (errno %d)\n",	\
	      ___res, errno);						\
	___ok;								\
})

#define ASSERT_ERR(res, name) ({					\
	long long ___res = (res);					\
	bool ___ok = ___res < 0;					\
	CHECK(!___ok, (name), "unexpected success: %lld\n", ___res);	\
	___ok;								\
})

#define ASSERT_OK_FD(fd, name) ({					\
	int ___fd = (fd);						\
	bool ___ok = ___fd >= 0;					\
	CHECK(!___ok, (name), "unexpected fd: %d (errno %d)\n",	\
	      ___fd, errno);						\
	___ok;								\
})

#define ASSERT_NULL(ptr, name) ({					\
	const void *___res = (ptr);					\
	bool ___ok = !___res;						\
	CHECK(!___ok, (name), "unexpected pointer: %p\n", ___res);	\
	___ok;								\
})

#define ASSERT_OK_PTR(ptr, name) ({					\
	const void *___res = (ptr);					\
	int ___err = libbpf_get_error(___res);				\
	bool ___ok = ___err == 0;					\
	CHECK(!___ok, (name), "unexpected error: %d\n", ___err);	\
	___ok;								\
})

#define ASSERT_ERR_PTR(ptr, name) ({					\
	const void *___res = (ptr);					\
	int ___err = libbpf_get_error(___res);				\
	bool ___ok = ___err != 0;					\
	CHECK(!___ok, (name), "unexpected pointer: %p\n", ___res);	\
	___ok;								\
})

#endif /* __TEST_PROGS_H */
