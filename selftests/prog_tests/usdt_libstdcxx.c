// SPDX-License-Identifier: GPL-2.0
/* USDT in a binary nobody here wrote: libstdc++'s libstdcxx:throw, catch and
 * rethrow probes, traced while a small C++ program (cxx/throw.cc) throws
 * known exceptions.  The decoded arguments (exception object address,
 * type_info address) must match what the program itself reports, in either
 * USDT mode (attach data, or cookie + ARRAY on kernels without it).
 */
#include <sys/wait.h>
#include "test_progs.h"
#include "usdt_mode.h"

#define MAX_EVENTS 32

/* as in progs/usdt_libstdcxx.c */
struct event {
	__u64 kind;
	__u64 obj;
	__u64 tinfo;
};

#include "usdt_libstdcxx.skel.h"

static const char *const kinds[] = { "", "throw", "catch", "rethrow" };

/* The path of the libstdc++ that process @pid has mapped. */
static int find_libstdcxx(pid_t pid, char *path, size_t sz)
{
	char maps[64], line[512];
	int err = -ENOENT;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", pid);
	f = fopen(maps, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/');

		if (p && strstr(p, "libstdc++")) {
			p[strcspn(p, "\n")] = 0;
			snprintf(path, sz, "%s", p);
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}

void test_usdt_libstdcxx(void)
{
	int to_child[2] = { -1, -1 }, from_child[2] = { -1, -1 };
	struct event exp[MAX_EVENTS];
	struct usdt_libstdcxx *skel = NULL;
	char lib[256], line[128];
	int n_exp = 0, i, status;
	FILE *out = NULL;
	pid_t pid = -1;

	if (!ASSERT_OK(pipe(to_child), "pipe") || !ASSERT_OK(pipe(from_child), "pipe"))
		goto out;
	pid = fork();
	if (!ASSERT_GE(pid, 0, "fork"))
		goto out;
	if (pid == 0) {
		dup2(to_child[0], 0);
		dup2(from_child[1], 1);
		execl("./usdt_cxx_throw", "usdt_cxx_throw", NULL);
		_exit(127);
	}
	close(to_child[0]);
	close(from_child[1]);
	to_child[0] = from_child[1] = -1;
	out = fdopen(from_child[0], "r");
	from_child[0] = -1;
	if (!ASSERT_OK_PTR(out, "fdopen") || !ASSERT_OK_PTR(fgets(line, sizeof(line), out), "ready") ||
	    !ASSERT_STREQ(line, "ready\n", "ready_line"))
		goto out;
	if (!ASSERT_OK(find_libstdcxx(pid, lib, sizeof(lib)), "find_libstdcxx"))
		goto out;

	skel = usdt_libstdcxx__open_and_load();
	if (!ASSERT_OK_PTR(skel, "skel_open_and_load"))
		goto out;
	printf("usdt_libstdcxx: %s, %s mode\n", lib, usdt_mode(skel->progs.on_throw));
	assert_usdt_mode(skel->progs.on_throw, false);
	skel->links.on_throw = bpf_program__attach_usdt(skel->progs.on_throw, pid, lib,
							"libstdcxx", "throw", NULL);
	skel->links.on_catch = bpf_program__attach_usdt(skel->progs.on_catch, pid, lib,
							"libstdcxx", "catch", NULL);
	skel->links.on_rethrow = bpf_program__attach_usdt(skel->progs.on_rethrow, pid, lib,
							  "libstdcxx", "rethrow", NULL);
	if (!ASSERT_OK_PTR(skel->links.on_throw, "attach_throw") ||
	    !ASSERT_OK_PTR(skel->links.on_catch, "attach_catch") ||
	    !ASSERT_OK_PTR(skel->links.on_rethrow, "attach_rethrow"))
		goto out;

	/* Go, and collect what the program says it threw and caught. */
	if (!ASSERT_EQ(write(to_child[1], "go\n", 3), 3, "go"))
		goto out;
	while (fgets(line, sizeof(line), out) && strcmp(line, "done\n")) {
		char kind[16];
		void *obj, *tinfo;

		if (!ASSERT_EQ(sscanf(line, "%15s %p %p", kind, &obj, &tinfo), 3, "parse") ||
		    !ASSERT_LT(n_exp, MAX_EVENTS, "n_exp"))
			goto out;
		for (i = 1; i < 4; i++)
			if (!strcmp(kind, kinds[i]))
				exp[n_exp].kind = i;
		exp[n_exp].obj = (__u64)obj;
		exp[n_exp].tinfo = (__u64)tinfo;
		n_exp++;
	}
	ASSERT_EQ(waitpid(pid, &status, 0), pid, "waitpid");
	pid = -1;
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child_exit");

	ASSERT_EQ(n_exp, 10, "expected_events");
	if (!ASSERT_EQ(skel->bss->n, n_exp, "probe_events"))
		goto out;
	for (i = 0; i < n_exp; i++) {
		ASSERT_EQ(skel->bss->events[i].kind, exp[i].kind, kinds[exp[i].kind]);
		ASSERT_EQ(skel->bss->events[i].obj, exp[i].obj, "exception_object");
		ASSERT_EQ(skel->bss->events[i].tinfo, exp[i].tinfo, "type_info");
	}
out:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	if (out)
		fclose(out);
	for (i = 0; i < 2; i++) {
		if (to_child[i] >= 0)
			close(to_child[i]);
		if (from_child[i] >= 0)
			close(from_child[i]);
	}
	usdt_libstdcxx__destroy(skel);
}
