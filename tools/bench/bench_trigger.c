// SPDX-License-Identifier: GPL-2.0
/* kprobe, uprobe: the cost per probe hit (benchmark group 1, per hit).  Each
 * variant of progs/bench_trigger.c is attached alone to a kprobe on
 * getpgid() (fired by a tight syscall loop) or to a uprobe on a function of
 * this program (fired by a tight call loop); the loop's time per call is the
 * cost of one trigger.  Rounds interleave the variants (in a rotating order),
 * and each variant reports the median, min and max over the rounds.  "no
 * probe" is the bare loop; "net" is a variant's cost minus that of the empty
 * program.  On the wall clock (-u ns), calls/s is the trigger throughput.
 *
 *   bench kprobe|uprobe [-n CALLS] [-r ROUNDS] [-o CSV] [-l LABEL] [-u UNIT]
 */
#include <string.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "lookup_variants.h"
#include "bench_trigger.skel.h"

#define MAX_ROUNDS	64

enum { NOPROBE = V_CNT, NVAR };

static const char *name_of(int v)
{
	return v == V_EMPTY ? "empty program" : v == NOPROBE ? "no probe" : variant_names[v];
}

static void measure(void)
{
	bool uprobe = !strcmp(env.name, "uprobe");
	struct bench_trigger *skel;
	int r, i, v;
	__u64 want;

	skel = bench_trigger__open_and_load();
	if (!skel)
		bench_die("load failed");
	variants_fill(skel->obj, skel->bss->gbl);

	for (r = 0; r < env.rounds; r++) {
		for (i = 0; i < NVAR; i++) {
			struct bpf_link *link = NULL;
			__u64 t0, t1;

			v = bench_rotate(i, r, NVAR);
			if (v != NOPROBE) {
				link = variant_attach(skel->obj, v, uprobe);
				variants_trigger(uprobe, 1);	/* warm up; learns the IP */
				if (v == V_HASH_IP && r == 0)
					variants_key_ip(skel->obj, skel->bss->seen_ip);
			}
			t0 = now_ns();
			variants_trigger(uprobe, env.calls);
			t1 = now_ns();
			bench_sample(v, 0, (double)(t1 - t0) / env.calls);
			bpf_link__destroy(link);
		}
	}

	/* Every program ran on every call and found its data (the first
	 * HASH[IP] hit cannot: it learns the key).
	 */
	want = (__u64)env.rounds * (env.calls + 1);
	for (v = 0; v < NOPROBE; v++) {
		__u64 h = skel->bss->hits[v], fd = skel->bss->found[v] + (v == V_HASH_IP);

		if (h != want || fd != want)
			bench_die("%s: %llu hits, %llu found, want %llu", name_of(v),
				  (unsigned long long)h, (unsigned long long)fd,
				  (unsigned long long)want);
	}
	bench_trigger__destroy(skel);
}

static void report(void)
{
	bool uprobe = !strcmp(env.name, "uprobe");
	struct bench_stat st[NVAR];
	double ad, net;
	int i, v;

	for (v = 0; v < NVAR; v++)
		st[v] = bench_stat(v, 0);
	ad = st[V_ATTACH_DATA].med - st[V_EMPTY].med;

	bench_heading(uprobe ? "Cost per uprobe hit" : "Cost per kprobe hit");
	printf("%d rounds x %d %s, variants interleaved, one attached at a time;\n"
	       "%s per call (median, min, max); net = minus the empty program's median\n\n",
	       env.rounds, env.calls, uprobe ? "calls of a uprobed function" : "getpgid() calls",
	       env.unit);
	bench_md_head("<variant", "median", "min", "max", "net", "net / attach data",
		      env.wall ? "calls/s (median)" : NULL, NULL);
	for (i = 0; i < NVAR; i++) {
		char nets[32] = "", ratio[32] = "", rate[32] = "";

		v = (i + NVAR - 1) % NVAR;	/* "no probe" first */
		net = st[v].med - st[V_EMPTY].med;
		if (v != NOPROBE && v)
			snprintf(nets, sizeof(nets), "%.1f", net);
		if (v != NOPROBE && v && ad > 0)
			snprintf(ratio, sizeof(ratio), "%.2f", net / ad);
		if (env.wall)	/* trigger throughput */
			snprintf(rate, sizeof(rate), " %.0f |", 1e9 / st[v].med);
		printf("| %s | %.1f | %.1f | %.1f | %s | %s |%s\n", name_of(v), st[v].med,
		       st[v].min, st[v].max, nets, ratio, rate);
	}
	/* A clock whose rounds spread wider than the costs cannot rank them:
	 * the empty program's interquartile range.
	 */
	if (st[V_EMPTY].iqr > ad)
		printf("\nNot resolved: the middle half of the empty program's rounds spreads\n"
		       "over %.1f %s, more than attach data's net cost; only the larger\n"
		       "differences mean anything.\n", st[V_EMPTY].iqr, env.unit);

	bench_csv("trigger,variant,unit,median,min,max,net,net_ratio_to_attach_data\n");
	for (v = 0; v < NVAR; v++) {
		net = st[v].med - st[V_EMPTY].med;
		bench_csv("%s,%s,%s,%.2f,%.2f,%.2f,%.2f,%.3f\n", env.name, name_of(v), env.unit,
			  st[v].med, st[v].min, st[v].max, v == NOPROBE ? 0 : net,
			  v != NOPROBE && ad > 0 ? net / ad : 0);
	}
}

const struct bench bench_kprobe = {
	.name = "kprobe",
	.doc = "cost per kprobe hit of each variant, attached alone (getpgid() loop)",
	.opts = "nrolu",
	.calls = 5000,
	.rounds = 7,
	.max_rounds = MAX_ROUNDS,
	.measure = measure,
	.report = report,
};

const struct bench bench_uprobe = {
	.name = "uprobe",
	.doc = "cost per uprobe hit of each variant, attached alone (call loop)",
	.opts = "nrolu",
	.calls = 5000,
	.rounds = 7,
	.max_rounds = MAX_ROUNDS,
	.measure = measure,
	.report = report,
};
