// SPDX-License-Identifier: GPL-2.0
/* kmulti_attach: kprobe_multi attach and detach time (benchmark group 3):
 * one link on the first N functions of available_filter_functions_addrs
 * (kernel functions the tree's selftests take as safe to trace, by
 * address), then detached, with no per-function data, with a cookie per
 * function, and with a blob per function (attach data): progs/
 * bench_trigger.c's empty, cookie and attach_data programs.  Rounds rotate
 * the variants; each (round, N, variant) is one sample.  Times are the
 * guest's wall clock: the text patching of the N functions and the grace
 * periods of the detach dominate, which per-function data does not touch.
 *
 *   bench kmulti_attach [-r ROUNDS] [-o CSV] [-l LABEL] N...
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "progs/bench_lookup.h"
#include "bench_trigger.skel.h"

#define MAX_NS		8
#define MAX_ROUNDS	16
#define FUNCS		"/sys/kernel/tracing/available_filter_functions_addrs"

enum { K_NONE, K_COOKIE, K_ATTACH_DATA, NK };
static const char *const kind_names[NK] = { "none", "cookies", "attach data" };
enum { F_ATTACH, F_DETACH, NF };

static unsigned long *addrs;
static int naddrs;

/* As the tree's selftests (trace_helpers.c, is_unsafe_function()). */
static bool unsafe(const char *name)
{
	static const char *const deny[] = {
		"arch_cpu_idle", "default_idle", "bpf_dispatcher_xdp_func",
		"migrate_disable", "migrate_enable", "rcu_read_unlock_strict",
		"preempt_count_add", "preempt_count_sub", "__rcu_read_lock",
		"__rcu_read_unlock", "bpf_get_numa_node_id", "___migrate_enable",
	};
	size_t i;

	if (!strncmp(name, "rcu_", 4) || !strncmp(name, "__ftrace_invalid_address__", 26))
		return true;
	for (i = 0; i < sizeof(deny) / sizeof(deny[0]); i++)
		if (!strcmp(name, deny[i]))
			return true;
	return false;
}

static void validate(void)
{
	int i;

	for (i = 0; i < env.nargs; i++)
		if (atoi(env.args[i]) < 1)
			bench_die("%s: not a function count", env.args[i]);
}

/* The first max(N) kernel functions of FUNCS, each address once. */
static void setup(void)
{
	int i, want = 0;
	char line[512], name[256];
	unsigned long a;
	FILE *f;

	for (i = 0; i < env.nargs; i++)
		if (atoi(env.args[i]) > want)
			want = atoi(env.args[i]);
	addrs = calloc(want, sizeof(*addrs));
	f = fopen(FUNCS, "r");
	if (!addrs || !f)
		bench_die("%s: %s", FUNCS, strerror(errno));
	while (naddrs < want && fgets(line, sizeof(line), f)) {
		if (strchr(line, '[') || sscanf(line, "%lx %255s", &a, name) != 2 ||
		    unsafe(name) || (naddrs && a <= addrs[naddrs - 1]))
			continue;
		addrs[naddrs++] = a;
	}
	fclose(f);
	if (naddrs < want)
		bench_die("%d functions in %s, want %d", naddrs, FUNCS, want);
}

static struct bpf_link *attach(struct bench_trigger *skel, int kind, int n)
{
	LIBBPF_OPTS(bpf_kprobe_multi_opts, opts, .addrs = addrs, .cnt = n);
	struct bpf_program *prog = skel->progs.empty;
	static struct per_attach *blobs;
	static __u64 *cookies;
	int i;

	if (!blobs) {
		blobs = calloc(naddrs, sizeof(*blobs));
		cookies = calloc(naddrs, sizeof(*cookies));
		if (!blobs || !cookies)
			bench_die("out of memory");
		for (i = 0; i < naddrs; i++)
			blobs[i].val = cookies[i] = i + 1;
	}
	if (kind == K_COOKIE) {
		prog = skel->progs.cookie;
		opts.cookies = cookies;
	} else if (kind == K_ATTACH_DATA) {
		prog = skel->progs.attach_data;
		opts.attach_data = blobs;
		opts.attach_data_size = sizeof(*blobs);
	}
	return bpf_program__attach_kprobe_multi_opts(prog, NULL, &opts);
}

static void measure(void)
{
	struct bench_trigger *skel;
	struct bpf_program *prog;
	struct bpf_link *link;
	int r, i, j, k, n;
	__u64 t0, t1, t2;

	skel = bench_trigger__open();
	if (!skel)
		bench_die("open failed");
	bpf_object__for_each_program(prog, skel->obj)
		bpf_program__set_expected_attach_type(prog, BPF_TRACE_KPROBE_MULTI);
	if (bench_trigger__load(skel))
		bench_die("load failed");
	for (r = 0; r < env.rounds; r++) {
		for (j = 0; j < env.nargs; j++) {
			n = atoi(env.args[j]);
			for (i = 0; i < NK; i++) {
				k = bench_rotate(i, r, NK);
				t0 = now_ns();
				link = attach(skel, k, n);
				t1 = now_ns();
				if (!link)
					bench_die("attach %s to %d functions: %s", kind_names[k], n,
						  strerror(errno));
				bpf_link__destroy(link);
				t2 = now_ns();
				bench_sample(k, j * NF + F_ATTACH, (t1 - t0) / 1e6);
				bench_sample(k, j * NF + F_DETACH, (t2 - t1) / 1e6);
			}
		}
	}
	bench_trigger__destroy(skel);
}

static void report(void)
{
	static const char *const fname[NF] = { "attach_ms", "detach_ms" };
	struct bench_stat s[NF], base[NF];
	int j, k, f;

	bench_heading("kprobe_multi attach and detach");
	printf("One kprobe_multi link on N kernel functions, then detached, without per-function\n"
	       "data, with a cookie each and with a blob each; %d rounds, variants rotated;\n"
	       "median (min-max) in ms; ratio: attach + detach against \"none\" at the same N\n\n",
	       env.rounds);
	bench_md_head("functions", "<data", "attach ms", "detach ms", "ratio", NULL);
	bench_csv("functions,data,field,median,min,max\n");
	for (j = 0; j < env.nargs; j++) {
		for (f = 0; f < NF; f++)
			base[f] = bench_stat(K_NONE, j * NF + f);
		for (k = 0; k < NK; k++) {
			printf("| %s | %s |", env.args[j], kind_names[k]);
			for (f = 0; f < NF; f++) {
				s[f] = bench_stat(k, j * NF + f);
				if (s[f].n != env.rounds)
					bench_die("%d results, want %d", s[f].n, env.rounds);
				printf(" %.1f (%.1f-%.1f) |", s[f].med, s[f].min, s[f].max);
				bench_csv("%s,%s,%s,%.3f,%.3f,%.3f\n", env.args[j], kind_names[k],
					  fname[f], s[f].med, s[f].min, s[f].max);
			}
			printf(" %.2f |\n", (s[F_ATTACH].med + s[F_DETACH].med) /
			       (base[F_ATTACH].med + base[F_DETACH].med));
		}
	}
}

const struct bench bench_kmulti_attach = {
	.name = "kmulti_attach",
	.doc = "kprobe_multi attach/detach time on N functions: none, cookies, attach data",
	.opts = "rol",
	.args_doc = "N...",
	.rounds = 5,
	.max_rounds = MAX_ROUNDS,
	.min_args = 1,
	.max_args = MAX_NS,
	.validate = validate,
	.setup = setup,
	.measure = measure,
	.report = report,
};
