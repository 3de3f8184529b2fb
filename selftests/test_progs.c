// SPDX-License-Identifier: GPL-2.0
/*
 * Test runner: runs every test_*() of prog_tests/, prints one result line per
 * test or subtest ("PASS name", "FAIL name", "SKIP name") and a summary.
 * libbpf's log of a test is shown only when it fails (or with -v).
 *
 *   test_progs [-v] [-l] [-t GLOB[/GLOB][,...]]
 *
 * -v prints passing checks too; -vv adds libbpf's log.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdarg.h>
#include <sys/resource.h>
#include "test_progs.h"

struct prog_test_def {
	const char *name;
	void (*run)(void);
};

#define DEFINE_TEST(name) void test_##name(void);
#include "tests.h"
#undef DEFINE_TEST

static struct prog_test_def prog_tests[] = {
#define DEFINE_TEST(name) { #name, test_##name },
#include "tests.h"
#undef DEFINE_TEST
};

struct test_env env;

static char **filters;
static int filter_cnt;
static int pass_cnt, fail_cnt, skip_cnt;
static int subtest_cnt;		/* subtests run by the current test */
static bool test_level_failed;	/* a check failed outside any subtest */
static char *log_buf;		/* libbpf's output for the running (sub)test */
static size_t log_sz;
static FILE *log_fp;

static bool name_matches(const char *test, const char *subtest)
{
	int i;

	if (!filter_cnt)
		return true;
	for (i = 0; i < filter_cnt; i++) {
		char *slash = strchr(filters[i], '/');
		char tpat[256];

		snprintf(tpat, sizeof(tpat), "%.*s",
			 slash ? (int)(slash - filters[i]) : (int)strlen(filters[i]),
			 filters[i]);
		if (fnmatch(tpat, test, 0))
			continue;
		if (!slash || !subtest || !fnmatch(slash + 1, subtest, 0))
			return true;
	}
	return false;
}

static int libbpf_print_fn(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (env.verbosity > 1)
		return vfprintf(stderr, fmt, args);
	if (log_fp)
		return vfprintf(log_fp, fmt, args);
	return 0;
}

static void log_start(void)
{
	log_fp = open_memstream(&log_buf, &log_sz);
}

static void log_end(bool dump)
{
	if (!log_fp)
		return;
	fclose(log_fp);
	log_fp = NULL;
	if (dump && log_sz)
		fprintf(stderr, "---- libbpf log ----\n%s--------------------\n", log_buf);
	free(log_buf);
	log_buf = NULL;
}

void test__log(bool ok, const char *fmt, ...)
{
	va_list args;

	if (ok && !env.verbosity)
		return;
	fprintf(stderr, "  %s%s%s: ", env.test_name, env.subtest_name ? "/" : "",
		env.subtest_name ?: "");
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
}

void test__fail(void)
{
	env.test_failed = true;
	if (!env.subtest_name)
		test_level_failed = true;
}

void test__skip(void)
{
	env.test_skipped = true;
}

static void report(const char *test, const char *subtest)
{
	const char *verdict;

	if (env.test_failed) {
		verdict = "FAIL";
		fail_cnt++;
	} else if (env.test_skipped) {
		verdict = "SKIP";
		skip_cnt++;
	} else {
		verdict = "PASS";
		pass_cnt++;
	}
	printf("%s %s%s%s\n", verdict, test, subtest ? "/" : "", subtest ?: "");
	fflush(stdout);
}

void test__end_subtest(void)
{
	if (!env.subtest_name)
		return;
	log_end(env.test_failed);
	report(env.test_name, env.subtest_name);
	free((char *)env.subtest_name);
	env.subtest_name = NULL;
	env.test_failed = false;
	env.test_skipped = false;
}

bool test__start_subtest(const char *name)
{
	test__end_subtest();
	if (!name_matches(env.test_name, name))
		return false;
	subtest_cnt++;
	env.subtest_name = strdup(name);
	env.test_failed = false;
	env.test_skipped = false;
	log_start();
	return true;
}

static void run_test(struct prog_test_def *t)
{
	env.test_name = t->name;
	env.test_failed = false;
	env.test_skipped = false;
	subtest_cnt = 0;
	test_level_failed = false;
	log_start();
	t->run();
	test__end_subtest();
	/* A test without subtests reports itself; one with subtests reports
	 * itself only when a check outside its subtests failed.
	 */
	if (!subtest_cnt || test_level_failed) {
		env.test_failed = test_level_failed || env.test_failed;
		log_end(env.test_failed);
		report(t->name, NULL);
	} else {
		log_end(false);
	}
	env.test_name = NULL;
}

int main(int argc, char **argv)
{
	struct rlimit rlim = { RLIM_INFINITY, RLIM_INFINITY };
	bool list = false;
	size_t i;
	int opt;

	while ((opt = getopt(argc, argv, "vlt:")) != -1) {
		switch (opt) {
		case 'v':
			env.verbosity++;
			break;
		case 'l':
			list = true;
			break;
		case 't': {
			char *s = strdup(optarg), *tok, *save;

			for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				filters = realloc(filters, sizeof(*filters) * (filter_cnt + 1));
				filters[filter_cnt++] = tok;
			}
			break;
		}
		default:
			fprintf(stderr, "usage: %s [-v] [-l] [-t GLOB[/GLOB][,...]]\n", argv[0]);
			return 2;
		}
	}

	setrlimit(RLIMIT_MEMLOCK, &rlim);
	libbpf_set_strict_mode(LIBBPF_STRICT_ALL);
	libbpf_set_print(libbpf_print_fn);
	setvbuf(stderr, NULL, _IOLBF, 0);

	for (i = 0; i < sizeof(prog_tests) / sizeof(prog_tests[0]); i++) {
		if (!name_matches(prog_tests[i].name, NULL))
			continue;
		if (list) {
			printf("%s\n", prog_tests[i].name);
			continue;
		}
		run_test(&prog_tests[i]);
	}
	if (!list)
		printf("Summary: %d PASSED, %d FAILED, %d SKIPPED\n", pass_cnt, fail_cnt, skip_cnt);
	return fail_cnt ? 1 : 0;
}
