// SPDX-License-Identifier: GPL-2.0
/* The kernel's KUnit suites that the series extend, built in (Kconfig.fragment)
 * and run at boot: each case of a suite, as /sys/kernel/debug/kunit/SUITE/results
 * reports it (KTAP), is a subtest that passes only if the case did; then a
 * subtest named after the suite checks the suite's verdict, that it ran the
 * cases it planned, and that the cases a series adds are among them, so that a
 * suite that lost them, or did not run, fails rather than passes with fewer.
 */
#include <stdio.h>
#include <string.h>
#include "test_progs.h"

#define MAX_CASES 64

struct kunit_suite_want {
	const char *suite;
	const char *cases[4];	/* the series' own, which must have run */
};

static const struct kunit_suite_want suites[] = {
	{ "fprobe_test", { "test_fprobe_node_entry", "test_fprobe_node_exit",
			   "test_fprobe_node_both" } },
};

struct kunit_case_result {
	char name[128];
	bool ok;
};

static void check_suite(const struct kunit_suite_want *want)
{
	static struct kunit_case_result res[MAX_CASES];
	int n, planned = -1, cases = 0, found = 0, wanted = 0, suite_ok = -1;
	char path[128], line[256], name[128];
	bool ok;
	size_t i;
	FILE *f;
	int c;

	snprintf(path, sizeof(path), "/sys/kernel/debug/kunit/%s/results", want->suite);
	f = fopen(path, "r");
	if (!ASSERT_OK_PTR(f, path))
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");

		/* The suite's own plan is the last one before its cases. */
		if (sscanf(p, "1..%d", &n) == 1) {
			if (!cases)
				planned = n;
			continue;
		}
		if (sscanf(p, "not ok %*d %127s", name) == 1)
			ok = false;
		else if (sscanf(p, "ok %*d %127s", name) == 1)
			ok = true;
		else
			continue;
		if (!strcmp(name, want->suite)) {
			suite_ok = ok;
			continue;
		}
		if (cases < MAX_CASES) {
			strcpy(res[cases].name, name);
			res[cases].ok = ok;
		}
		cases++;
	}
	fclose(f);

	for (c = 0; c < cases && c < MAX_CASES; c++) {
		if (test__start_subtest(res[c].name))
			ASSERT_TRUE(res[c].ok, res[c].name);
		for (i = 0; i < ARRAY_SIZE(want->cases) && want->cases[i]; i++)
			found += !strcmp(res[c].name, want->cases[i]);
	}
	if (!test__start_subtest(want->suite))
		return;
	for (i = 0; i < ARRAY_SIZE(want->cases) && want->cases[i]; i++)
		wanted++;
	ASSERT_EQ(suite_ok, 1, "suite_ok");
	ASSERT_EQ(cases, planned, "cases_as_planned");
	ASSERT_EQ(found, wanted, "series_cases_ran");
}

void test_kunit(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(suites); i++)
		check_suite(&suites[i]);
}
