// SPDX-License-Identifier: GPL-2.0
/* usdt: USDT end to end (benchmark group 2): the cost per hit of a USDT probe
 * with 1, 3, 6 and 12 arguments whose program reads them all with
 * bpf_usdt_arg() (progs/bench_usdt.c), in libbpf's three modes
 * (usdt_modes.h).  libbpf picks the mode once per process, so every
 * (repetition, mode) runs in a child process of its own, modes in a rotating
 * order; each child times ROUNDS x CALLS calls of every probe, interleaved by
 * argument count.  The table gives the median, min and max per call over all
 * rounds of all children.
 *
 *   bench usdt [-p REPS] [-n CALLS] [-r ROUNDS] [-o CSV] [-l LABEL] [-u UNIT]
 */
#include <errno.h>
#include <string.h>
#include <sys/sdt.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "usdt_modes.h"

#define MAX_REPS	16
#define MAX_ROUNDS	16
#define NK		USDT_NK
#define M_NONE		NMODE	/* samples of the calls without a probe */

const int usdt_nargs[NK] = { 1, 3, 6, 12 };
#define nargs usdt_nargs

/* The traced functions: arguments beyond the sixth are on the stack, so the
 * 6- and 12-argument probes read memory as well as registers.
 */
__attribute__((noinline)) void fire1(long a)
{
	STAP_PROBE1(bench, args1, a);
}

__attribute__((noinline)) void fire3(long a, long b, long c)
{
	STAP_PROBE3(bench, args3, a, b, c);
}

__attribute__((noinline)) void fire6(long a, long b, long c, long d, long e, long f)
{
	STAP_PROBE6(bench, args6, a, b, c, d, e, f);
}

__attribute__((noinline)) void fire12(long a, long b, long c, long d, long e, long f,
				      long g, long h, long i, long j, long k, long l)
{
	STAP_PROBE12(bench, args12, a, b, c, d, e, f, g, h, i, j, k, l);
}

void usdt_fire(int k, int n)
{
	while (n--) {
		switch (k) {
		case 1: fire1(1); break;
		case 3: fire3(1, 2, 3); break;
		case 6: fire6(1, 2, 3, 4, 5, 6); break;
		default: fire12(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12); break;
		}
	}
}

static int map_is_empty(struct bpf_map *map)
{
	long key;

	return bpf_map__get_next_key(map, NULL, &key, sizeof(key)) == -ENOENT;
}

/* One child: load and attach in MODE, time the probes; samples (mode, i) per
 * round, and (M_NONE, i) the loop without probes, timed before the load.
 */
static void child(int mode, int item)
{
	struct bpf_link *links[NK] = {};
	double bare[NK] = {};
	struct usdt_obj o;
	int r, i, j, k;

	for (i = 0; i < NK; i++) {
		__u64 t0 = now_ns();

		usdt_fire(nargs[i], env.calls);
		bare[i] = (double)(now_ns() - t0) / env.calls;
	}

	usdt_open(&o, mode, 0);
	for (i = 0; i < NK; i++) {
		char name[16];

		snprintf(name, sizeof(name), "args%d", nargs[i]);
		links[i] = bpf_program__attach_usdt(o.prog, 0, "/proc/self/exe", "bench", name, NULL);
		if (!links[i])
			bench_die("attach %s: %s", name, strerror(errno));
		usdt_fire(nargs[i], 1);	/* warm up */
	}
	if ((mode == M_IP) == map_is_empty(o.ip_map))
		bench_die("%s mode, but the IP map is %sempty", usdt_modes[mode],
			  mode == M_IP ? "" : "not ");

	for (r = 0; r < env.rounds; r++) {
		for (i = 0; i < NK; i++) {
			__u64 t0;

			j = bench_rotate(i, r, NK);
			t0 = now_ns();
			usdt_fire(nargs[j], env.calls);
			bench_sample(mode, j, (double)(now_ns() - t0) / env.calls);
			bench_sample(M_NONE, j, bare[j]);
		}
	}

	/* Every hit ran the program, which read the right arguments. */
	for (i = 0; i < NK; i++) {
		__u64 want = (__u64)env.rounds * env.calls + 1;

		k = nargs[i];
		if (o.hits[k] != want || o.sums[k] != want * k * (k + 1) / 2 || *o.errors)
			bench_die("%s, %d args: %llu hits (want %llu), sum %llu, %llu errors",
				  usdt_modes[mode], k, (unsigned long long)o.hits[k],
				  (unsigned long long)want, (unsigned long long)o.sums[k],
				  (unsigned long long)*o.errors);
	}
	for (i = 0; i < NK; i++)
		bpf_link__destroy(links[i]);
	usdt_close(&o);
}

static void report(void)
{
	struct bench_stat st[NMODE][NK], sb[NK];
	int i, mode;

	for (i = 0; i < NK; i++) {
		for (mode = 0; mode < NMODE; mode++) {
			if (bench_count(mode, i) != env.reps * env.rounds)
				bench_die("%d samples for %s, want %d", bench_count(mode, i),
					  usdt_modes[mode], env.reps * env.rounds);
			st[mode][i] = bench_stat(mode, i);
		}
		sb[i] = bench_stat(M_NONE, i);
	}

	bench_heading("USDT end to end, cost per hit");
	printf("%d processes x %d rounds x %d calls per mode, modes interleaved; the program\n"
	       "reads every argument with bpf_usdt_arg(); %s per call, median (min-max);\n"
	       "net = minus the call without a probe; ratio = net / attach data's net\n\n",
	       env.reps, env.rounds, env.calls, env.unit);
	bench_md_head("args", "no probe", "attach data", "cookie + ARRAY", "IP + HASH",
		      "ratio ARRAY", "ratio HASH", NULL);
	for (i = 0; i < NK; i++) {
		double ad = st[M_AD][i].med - sb[i].med;

		printf("| %d | %.1f |", nargs[i], sb[i].med);
		for (mode = 0; mode < NMODE; mode++)
			printf(" %.1f (%.1f-%.1f) |", st[mode][i].med, st[mode][i].min,
			       st[mode][i].max);
		printf(" %.2f | %.2f |\n", (st[M_ARRAY][i].med - sb[i].med) / ad,
		       (st[M_IP][i].med - sb[i].med) / ad);
	}
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

	bench_csv("args,mode,unit,median,min,max,no_probe,net,net_ratio_to_attach_data\n");
	for (i = 0; i < NK; i++) {
		double ad = st[M_AD][i].med - sb[i].med;

		for (mode = 0; mode < NMODE; mode++)
			bench_csv("%d,%s,%s,%.2f,%.2f,%.2f,%.2f,%.2f,%.3f\n", nargs[i],
				  usdt_modes[mode], env.unit, st[mode][i].med, st[mode][i].min,
				  st[mode][i].max, sb[i].med, st[mode][i].med - sb[i].med,
				  (st[mode][i].med - sb[i].med) / ad);
	}
}

const struct bench bench_usdt = {
	.name = "usdt",
	.doc = "USDT cost per hit, 1/3/6/12 arguments, libbpf's three modes",
	.opts = "pnrolu",
	.calls = 2000,
	.rounds = 3,
	.reps = 5,
	.max_rounds = MAX_ROUNDS,
	.max_reps = MAX_REPS,
	.variants = usdt_modes,
	.nvariants = NMODE,
	.child = child,
	.report = report,
};
