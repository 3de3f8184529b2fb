// SPDX-License-Identifier: GPL-2.0
/* USDT arguments that name a variable, "sym(%rip)", "off+sym(%rip)" and
 * "sym+off(%rip)", as gcc and clang emit for globals and statics: the
 * programs in usdt_rip/ (an executable and a shared library, both PIE),
 * built with gcc and <sys/sdt.h> (int3 uprobes) and with clang and the
 * tree's usdt.h (optimized uprobes where the kernel has them), run twice
 * at once, so each process has its own load addresses and values.  Every
 * probe attaches, and each hit's arguments are that process's: from the
 * executable, from the right one of two files' statics of the same name,
 * from the library, at two sites of one probe with the same argument
 * string.  In the mode this kernel gives, with cookie + ARRAY, and with
 * bpf_usdt_arg() inlined (BPF_USDT_ARG_INLINE); on kernels without attach
 * data too.
 *
 * Real binaries have such arguments: PostgreSQL's postgres passes
 * -4@NBuffers(%rip) and -4@40+CheckpointStats(%rip).  gcc writes "off+sym",
 * clang "sym+off".  Before "libbpf: Support RIP-relative USDT arguments
 * that name a symbol", libbpf refused them with EINVAL in every mode.
 */
#include <sys/wait.h>
#include "test_progs.h"
#include "usdt_mode.h"
#include "usdt_rip/want.h"

#define PROCS 2
#define MAX_RECS 64

/* progs/usdt_rip.c's struct rec, which usdt_rip_cookie.c names otherwise */
#define USDT_RIP_REC { int pid; int probe; int arg_cnt; int err; long args[4]; }
struct rec USDT_RIP_REC;
struct rec_no_attach_data USDT_RIP_REC;
struct rec_inline USDT_RIP_REC;

#include "usdt_rip.skel.h"
#include "usdt_rip_cookie.skel.h"
#include "usdt_rip_inline.skel.h"

/* Start PROCS copies of @exe, each waiting for a byte on stdin; then let
 * them all fire and wait for them.  Returns how many exited with 0.
 */
static int run_procs(const char *exe, pid_t *pids)
{
	int i, ok = 0, status, fds[PROCS][2];

	for (i = 0; i < PROCS; i++) {
		pids[i] = -1;
		if (!ASSERT_OK(pipe(fds[i]), "pipe"))
			return 0;
		pids[i] = fork();
		if (pids[i] == 0) {
			dup2(fds[i][0], 0);
			execl(exe, exe, NULL);
			_exit(127);
		}
		close(fds[i][0]);
		ASSERT_GT(pids[i], 0, "fork");
	}
	for (i = 0; i < PROCS; i++) {
		ASSERT_EQ(write(fds[i][1], "x", 1), 1, "go");
		close(fds[i][1]);
	}
	for (i = 0; i < PROCS; i++) {
		if (pids[i] > 0 && waitpid(pids[i], &status, 0) == pids[i] &&
		    WIFEXITED(status) && WEXITSTATUS(status) == 0)
			ok++;
	}
	return ok;
}

/* Each hit's arguments must be its own process's.  rip:main has two sites
 * with the same argument string, which is a different offset at each site:
 * spec IDs are shared by parsed spec, not by argument string.
 */
static void check_recs(const struct rec *recs, unsigned int cnt, const pid_t *pids)
{
	int hits[PROCS][P_CNT] = {};
	unsigned int i;
	int p, j, n;
	long want[4];

	if (!ASSERT_EQ(cnt, PROCS * (2 + 1 + 1 + 1), "hits"))
		return;
	for (i = 0; i < cnt; i++) {
		const struct rec *r = &recs[i];

		for (p = 0; p < PROCS && pids[p] != r->pid; p++)
			;
		if (!ASSERT_LT(p, PROCS, "hit_pid") ||
		    !ASSERT_OK(r->probe < 0 || r->probe >= P_CNT, "hit_probe"))
			continue;
		hits[p][r->probe]++;
		n = want_args(r->probe, r->pid, want);
		ASSERT_EQ(r->err, 0, "arg_err");
		if (!ASSERT_EQ(r->arg_cnt, n, "arg_cnt"))
			continue;
		for (j = 0; j < n; j++) {
			if (!ASSERT_EQ(r->args[j], want[j], probe_names[r->probe]))
				printf("%s: pid %d probe %s arg #%d\n", __func__, r->pid,
				       probe_names[r->probe], j);
		}
	}
	for (p = 0; p < PROCS; p++)
		for (j = 0; j < P_CNT; j++)
			ASSERT_EQ(hits[p][j], probe_hits[j], probe_names[j]);
}

/* Attach @prog to every probe of the @variant build, run it, check. */
static void run_variant(struct bpf_program *prog, const struct rec *recs,
			const unsigned int *rec_cnt, const char *variant, bool no_attach_data)
{
	struct bpf_link *links[P_CNT] = {};
	char exe[64], lib[64];
	pid_t pids[PROCS];
	int i;

	snprintf(exe, sizeof(exe), "./usdt_rip_%s", variant);
	snprintf(lib, sizeof(lib), "./libusdt_rip_%s.so", variant);
	assert_usdt_mode(prog, no_attach_data);

	for (i = 0; i < P_CNT; i++) {
		LIBBPF_OPTS(bpf_usdt_opts, opts, .usdt_cookie = i);

		links[i] = bpf_program__attach_usdt(prog, -1, i == P_LIB ? lib : exe, "rip",
						    probe_names[i], &opts);
		if (!ASSERT_OK_PTR(links[i], probe_names[i]))
			goto out;
	}
	if (!ASSERT_EQ(run_procs(exe, pids), PROCS, "procs_ok"))
		goto out;
	check_recs(recs, *rec_cnt, pids);
out:
	for (i = 0; i < P_CNT; i++)
		bpf_link__destroy(links[i]);
}

enum build { AD, NO_ATTACH_DATA, INLINE };

/* @variant's programs traced by usdt_rip's program, as is, or built with
 * BPF_USDT_NO_ATTACH_DATA (cookie + ARRAY even where attach data exists),
 * or with BPF_USDT_ARG_INLINE (bpf_usdt_arg() inlined).
 */
static void subtest(const char *variant, enum build build)
{
	struct usdt_rip_inline *skel_i = NULL;
	struct usdt_rip_cookie *skel_c = NULL;
	struct usdt_rip *skel = NULL;

	switch (build) {
	case NO_ATTACH_DATA:
		skel_c = usdt_rip_cookie__open_and_load();
		if (ASSERT_OK_PTR(skel_c, "skel_open_and_load"))
			run_variant(skel_c->progs.hit, (const void *)skel_c->bss->recs,
				    &skel_c->bss->rec_cnt, variant, true);
		break;
	case INLINE:
		skel_i = usdt_rip_inline__open_and_load();
		if (ASSERT_OK_PTR(skel_i, "skel_open_and_load"))
			run_variant(skel_i->progs.hit, (const void *)skel_i->bss->recs,
				    &skel_i->bss->rec_cnt, variant, false);
		break;
	default:
		skel = usdt_rip__open_and_load();
		if (ASSERT_OK_PTR(skel, "skel_open_and_load"))
			run_variant(skel->progs.hit, (const void *)skel->bss->recs,
				    &skel->bss->rec_cnt, variant, false);
	}
	usdt_rip_inline__destroy(skel_i);
	usdt_rip_cookie__destroy(skel_c);
	usdt_rip__destroy(skel);
}

/* A stripped executable has no symbol for a static (nor, without -rdynamic,
 * for a global): the probe does not attach, with ENOENT, and says why.
 */
static void subtest_stripped(void)
{
	struct usdt_rip *skel = usdt_rip__open_and_load();
	struct bpf_link *link;
	int i;

	if (!ASSERT_OK_PTR(skel, "skel_open_and_load"))
		return;
	if (!ASSERT_OK(access("./usdt_rip_gcc_stripped", R_OK), "stripped_exists"))
		goto out;
	for (i = P_MAIN; i <= P_B; i++) {
		link = bpf_program__attach_usdt(skel->progs.hit, -1, "./usdt_rip_gcc_stripped",
						"rip", probe_names[i], NULL);
		if (!ASSERT_ERR_PTR(link, probe_names[i])) {
			bpf_link__destroy(link);
			continue;
		}
		ASSERT_EQ(errno, ENOENT, "errno");
	}
	/* control: the library's static is in the library's own symbols */
	link = bpf_program__attach_usdt(skel->progs.hit, -1, "./libusdt_rip_gcc.so", "rip", "lib",
					NULL);
	ASSERT_OK_PTR(link, "lib");
	bpf_link__destroy(link);
out:
	usdt_rip__destroy(skel);
}

void test_usdt_rip(void)
{
	if (test__start_subtest("gcc"))
		subtest("gcc", AD);
	if (test__start_subtest("clang"))
		subtest("clang", AD);
	if (test__start_subtest("gcc_no_attach_data"))
		subtest("gcc", NO_ATTACH_DATA);
	if (test__start_subtest("clang_no_attach_data"))
		subtest("clang", NO_ATTACH_DATA);
	if (test__start_subtest("gcc_inline"))
		subtest("gcc", INLINE);
	if (test__start_subtest("clang_inline"))
		subtest("clang", INLINE);
	if (test__start_subtest("stripped_symbol_missing"))
		subtest_stripped();
}
