// SPDX-License-Identifier: GPL-2.0
/* usdt: USDT end to end (benchmark group 2): the cost per hit of a USDT probe
 * with 1, 3, 6 and 12 arguments whose program reads them all with
 * bpf_usdt_arg() (progs/bench_usdt.c), in libbpf's three modes
 * (usdt_modes.h), and of an empty program (progs/bench_usdt_floor.c's); on
 * int3 sites (bench:argsK, <sys/sdt.h>'s single nop, which the uprobe turns
 * into a trap) and on nop10 sites (bench10:argsK, usdt_fire.c with USDT_FIRE_NOP10: the kernel
 * turns the uprobe into a call).  libbpf picks the mode once per process, so
 * every (repetition, variant) runs in a child process of its own, variants
 * in a rotating order; each child times ROUNDS x CALLS calls of every probe,
 * interleaved by argument count and site.  The tables give the median, min
 * and max per call over all rounds of all children, and the share of a
 * hit's cost, net of the call, that is the program's reading the
 * arguments: (mode - empty) / (mode - no probe).
 *
 *   bench usdt [-p REPS] [-n CALLS] [-r ROUNDS] [-o CSV] [-l LABEL] [-u UNIT]
 */
#include <errno.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "usdt_modes.h"
#include "bench_usdt_floor.skel.h"

#define MAX_REPS	16
#define MAX_ROUNDS	16
#define NK		USDT_NK
#define V_EMPTY		NMODE		/* the empty program */
#define NV		(NMODE + 1)
#define M_NONE		NV	/* samples of the calls without a probe */
#define NSITE		2	/* int3, nop10: columns j and NK + j */

static const char *const variants[NV] = { "attach data", "cookie + ARRAY", "IP + HASH",
					  "empty program" };
static const char *const site_names[NSITE] = { "int3", "nop10" };

static void fire(int site, int k, int n)
{
	if (site)
		usdt_fire10(k, n);
	else
		usdt_fire(k, n);
}

const int usdt_nargs[NK] = { 1, 3, 6, 12 };
#define nargs usdt_nargs

static int map_is_empty(struct bpf_map *map)
{
	long key;

	return bpf_map__get_next_key(map, NULL, &key, sizeof(key)) == -ENOENT;
}

/* One child: load and attach variant V, time the probes; samples (v, i)
 * per round, i = site * NK + the argument count's index, and (M_NONE, i)
 * the loop without probes, timed before the load.
 */
static void child(int v, int item)
{
	struct bpf_link *links[NSITE * NK] = {};
	struct bench_usdt_floor *floor = NULL;
	double bare[NSITE * NK] = {};
	struct bpf_program *prog;
	struct usdt_obj o = {};
	int r, i, j, k, site;
	__u64 want;

	for (i = 0; i < NSITE * NK; i++) {
		__u64 t0 = now_ns();

		fire(i / NK, nargs[i % NK], env.calls);
		bare[i] = (double)(now_ns() - t0) / env.calls;
	}

	if (v == V_EMPTY) {
		floor = bench_usdt_floor__open_and_load();
		if (!floor)
			bench_die("load failed");
		prog = floor->progs.empty;
	} else {
		usdt_open(&o, v, 0);
		prog = o.prog;
	}
	for (i = 0; i < NSITE * NK; i++) {
		char name[16];

		snprintf(name, sizeof(name), "args%d", nargs[i % NK]);
		links[i] = bpf_program__attach_usdt(prog, 0, "/proc/self/exe",
						    i < NK ? "bench" : "bench10", name, NULL);
		if (!links[i])
			bench_die("attach %s (%s): %s", name, site_names[i / NK], strerror(errno));
		fire(i / NK, nargs[i % NK], 1);	/* warm up */
	}
	if (v != V_EMPTY && (v == M_IP) == map_is_empty(o.ip_map))
		bench_die("%s mode, but the IP map is %sempty", usdt_mode_names[v],
			  v == M_IP ? "" : "not ");

	for (r = 0; r < env.rounds; r++) {
		for (i = 0; i < NSITE * NK; i++) {
			__u64 t0;

			j = bench_rotate(i, r, NSITE * NK);
			site = j / NK;
			t0 = now_ns();
			fire(site, nargs[j % NK], env.calls);
			bench_sample(v, j, (double)(now_ns() - t0) / env.calls);
			bench_sample(M_NONE, j, bare[j]);
		}
	}

	/* Every hit ran the program, which read the right arguments. */
	want = (__u64)env.rounds * env.calls + 1;
	if (v == V_EMPTY && floor->bss->hits[0] != NSITE * NK * want)
		bench_die("empty program: %llu hits, want %llu",
			  (unsigned long long)floor->bss->hits[0],
			  (unsigned long long)(NSITE * NK * want));
	for (i = 0; i < NK && v != V_EMPTY; i++) {
		k = nargs[i];
		if (o.hits[k] != NSITE * want || o.sums[k] != NSITE * want * k * (k + 1) / 2 ||
		    *o.errors)
			bench_die("%s, %d args: %llu hits (want %llu), sum %llu, %llu errors",
				  usdt_mode_names[v], k, (unsigned long long)o.hits[k],
				  (unsigned long long)(NSITE * want), (unsigned long long)o.sums[k],
				  (unsigned long long)*o.errors);
	}
	for (i = 0; i < NSITE * NK; i++)
		bpf_link__destroy(links[i]);
	bench_usdt_floor__destroy(floor);
	usdt_close(&o);
}

/* The table of site SITE's hits, in the format of the reference runs. */
static void hits_table(int site, struct bench_stat st[NV][NSITE * NK],
		       struct bench_stat sb[NSITE * NK])
{
	int i, mode, c;
	double ad;

	bench_md_head("args", "no probe", "attach data", "cookie + ARRAY", "IP + HASH",
		      "ratio ARRAY", "ratio HASH", NULL);
	for (i = 0; i < NK; i++) {
		c = site * NK + i;
		ad = st[M_AD][c].med - sb[c].med;

		printf("| %d | %.1f |", nargs[i], sb[c].med);
		for (mode = 0; mode < NMODE; mode++)
			printf(" %.1f (%.1f-%.1f) |", st[mode][c].med, st[mode][c].min,
			       st[mode][c].max);
		printf(" %.2f | %.2f |\n", (st[M_ARRAY][c].med - sb[c].med) / ad,
		       (st[M_IP][c].med - sb[c].med) / ad);
	}
}

static void report(void)
{
	struct bench_stat st[NV][NSITE * NK], sb[NSITE * NK];
	int i, v, site, c;
	double ad;

	for (i = 0; i < NSITE * NK; i++) {
		for (v = 0; v < NV; v++) {
			if (bench_count(v, i) != env.reps * env.rounds)
				bench_die("%d samples for %s, want %d", bench_count(v, i),
					  variants[v], env.reps * env.rounds);
			st[v][i] = bench_stat(v, i);
		}
		sb[i] = bench_stat(M_NONE, i);
	}

	bench_heading("USDT end to end, cost per hit");
	printf("%d processes x %d rounds x %d calls per mode, modes interleaved; the program\n"
	       "reads every argument with bpf_usdt_arg(); %s per call, median (min-max);\n"
	       "net = minus the call without a probe; ratio = net / attach data's net\n\n",
	       env.reps, env.rounds, env.calls, env.unit);
	hits_table(0, st, sb);
	if (env.wall) {	/* trigger throughput */
		printf("\nThroughput, hits/s (median):\n\n");
		bench_md_head("args", "no probe", "attach data", "cookie + ARRAY", "IP + HASH", NULL);
		for (i = 0; i < NK; i++)
			printf("| %d | %.0f | %.0f | %.0f | %.0f |\n", nargs[i], 1e9 / sb[i].med,
			       1e9 / st[M_AD][i].med, 1e9 / st[M_ARRAY][i].med,
			       1e9 / st[M_IP][i].med);
	}
	/* A clock whose samples spread wider than the modes' difference
	 * cannot rank them: the interquartile range of attach data's samples.
	 */
	for (i = 0; i < NK; i++) {
		double d = st[M_ARRAY][i].med - st[M_AD][i].med;

		if (st[M_AD][i].iqr > (d < 0 ? -d : d)) {
			printf("\nNot resolved: the middle half of attach data's samples spreads wider\n"
			       "than its difference to cookie + ARRAY (%d args: %.1f against %.1f %s).\n",
			       nargs[i], st[M_AD][i].iqr, d, env.unit);
			break;
		}
	}

	printf("\nThe same on nop10 sites (bench10:argsK, the tree's usdt.h: nop, nop10),\n"
	       "where the kernel turns the uprobe into a call, not a trap:\n\n");
	hits_table(1, st, sb);

	printf("\nThe share of a hit that is reading the arguments, (mode - empty program) /\n"
	       "(mode - no probe), on int3 and nop10 sites; the empty program's own hit, %s:\n\n",
	       env.unit);
	bench_md_head("args", "empty, int3", "empty, nop10", "attach data, int3",
		      "attach data, nop10", "cookie + ARRAY, int3", "cookie + ARRAY, nop10",
		      "IP + HASH, int3", "IP + HASH, nop10", NULL);
	for (i = 0; i < NK; i++) {
		printf("| %d | %.1f | %.1f |", nargs[i], st[V_EMPTY][i].med,
		       st[V_EMPTY][NK + i].med);
		for (v = 0; v < NMODE; v++)
			for (site = 0; site < NSITE; site++) {
				c = site * NK + i;
				printf(" %.2f |", (st[v][c].med - st[V_EMPTY][c].med) /
				       (st[v][c].med - sb[c].med));
			}
		printf("\n");
	}

	/* the int3 rows as the reference runs have them, then nop10's */
	bench_csv("args,mode,unit,median,min,max,no_probe,net,net_ratio_to_attach_data\n");
	for (site = 0; site < NSITE; site++) {
		for (i = 0; i < NK; i++) {
			c = site * NK + i;
			ad = st[M_AD][c].med - sb[c].med;
			for (v = 0; v < NV; v++)
				bench_csv("%d,%s%s,%s,%.2f,%.2f,%.2f,%.2f,%.2f,%.3f\n", nargs[i],
					  variants[v], site ? " (nop10)" : "", env.unit,
					  st[v][c].med, st[v][c].min, st[v][c].max, sb[c].med,
					  st[v][c].med - sb[c].med, (st[v][c].med - sb[c].med) / ad);
		}
	}
}

const struct bench bench_usdt = {
	.name = "usdt",
	.doc = "USDT cost per hit, 1/3/6/12 arguments, libbpf's three modes, int3 and nop10 sites",
	.opts = "pnrolu",
	.calls = 2000,
	.rounds = 3,
	.reps = 5,
	.max_rounds = MAX_ROUNDS,
	.max_reps = MAX_REPS,
	.variants = variants,
	.nvariants = NV,
	.child = child,
	.report = report,
};
