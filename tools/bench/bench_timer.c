// SPDX-License-Identifier: GPL-2.0
/* Cost per hit of re-arming a timer (progs/bench_timer.c): a map value's,
 * which the map owns, and one in the link's attach data, which the link
 * owns; a second ahead (start), or to expire at once, so that its callback
 * runs after many hits (fire: how many, which the timer interrupt's timing
 * decides, is reported beside the cost).  Each program attached alone to a
 * kprobe on getpgid(), fired by a tight syscall loop, as bench_trigger.c
 * does; rounds interleave the variants in a rotating order.  On the
 * series' base (-A, no attach data), the map rows alone: the series against
 * its base shows what owning timers by attach data costs the map's.
 *
 *   bench timer [-A] [-n CALLS] [-r ROUNDS] [-o CSV] [-l LABEL] [-u UNIT]
 */
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "lookup_variants.h"
#include "progs/bench_timer.h"
#include "bench_timer.skel.h"

#define MAX_ROUNDS	64

/* Callbacks run per hit of a fires row: its cost per hit is the re-armed
 * row's and that share of a callback's, and the share depends on when the
 * timer interrupt comes, so it is reported beside the cost.
 */
static double cb_per_hit[T_CNT];

enum { NOPROBE = T_CNT, NVAR };

static const char *const names[NVAR] = {
	[T_EMPTY] = "empty program",
	[T_MAP_START] = "map value's timer: re-armed",
	[T_BLOB_START] = "attach data's timer: re-armed",
	[T_MAP_FIRE] = "map value's timer: fires",
	[T_BLOB_FIRE] = "attach data's timer: fires",
	[NOPROBE] = "no probe",
};

static bool is_blob(int v)
{
	return v == T_BLOB_START || v == T_BLOB_FIRE;
}

/* -A: the series' base has no attach data: those rows are left out. */
static bool measured(int v)
{
	return !(env.no_attach_data && is_blob(v));
}

static struct bpf_program *prog_of(struct bench_timer *skel, int v)
{
	switch (v) {
	case T_EMPTY:
		return skel->progs.empty;
	case T_MAP_START:
		return skel->progs.map_start;
	case T_BLOB_START:
		return skel->progs.blob_start;
	case T_MAP_FIRE:
		return skel->progs.map_fire;
	default:
		return skel->progs.blob_fire;
	}
}

static struct bpf_link *attach(struct bench_timer *skel, int v)
{
	__u64 blob[3] = {};	/* struct timer_val: the timer, armed */
	LIBBPF_OPTS(bpf_kprobe_opts, opts);
	struct bpf_link *link;

	if (is_blob(v)) {
		opts.attach_data = blob;
		opts.attach_data_size = sizeof(blob);
	}
	link = bpf_program__attach_kprobe_opts(prog_of(skel, v), KPROBE_FUNC, &opts);
	if (!link)
		bench_die("%s: attach failed", names[v]);
	return link;
}

static void measure(void)
{
	struct bench_timer *skel;
	int r, i, v, err;
	__u64 want;

	skel = bench_timer__open();
	if (!skel)
		bench_die("open failed");
	if (env.no_attach_data) {
		bpf_program__set_autoload(skel->progs.blob_start, false);
		bpf_program__set_autoload(skel->progs.blob_fire, false);
	}
	err = bench_timer__load(skel);
	if (err == -EOPNOTSUPP)
		bench_die("load failed: no attach data in this kernel (-A leaves it out)");
	if (err)
		bench_die("load failed");

	for (r = 0; r < env.rounds; r++) {
		for (i = 0; i < NVAR; i++) {
			struct bpf_link *link = NULL;
			__u64 t0, t1;

			v = bench_rotate(i, r, NVAR);
			if (!measured(v))
				continue;
			if (v != NOPROBE) {
				link = attach(skel, v);
				variants_trigger(TRIG_KPROBE, 1);	/* warm up: sets up */
			}
			t0 = now_ns();
			variants_trigger(TRIG_KPROBE, env.calls);
			t1 = now_ns();
			bench_sample(v, 0, (double)(t1 - t0) / env.calls);
			bpf_link__destroy(link);
		}
	}

	want = (__u64)env.rounds * (env.calls + 1);
	for (v = 0; v < T_CNT; v++) {
		if (!measured(v))
			continue;
		if (skel->bss->hits[v] != want || skel->bss->errs[v])
			bench_die("%s: %llu hits, %llu timer calls failed, want %llu hits",
				  names[v], (unsigned long long)skel->bss->hits[v],
				  (unsigned long long)skel->bss->errs[v],
				  (unsigned long long)want);
		if ((v == T_MAP_FIRE || v == T_BLOB_FIRE) && !skel->bss->fires[v])
			bench_die("%s: no callback ran", names[v]);
		cb_per_hit[v] = (double)skel->bss->fires[v] / want;
	}
	bench_timer__destroy(skel);
}

static const char *name_of(int v)
{
	return names[v];
}

static void report(void)
{
	struct bench_hit_table t = {
		.title = "Cost per kprobe hit of re-arming a timer, in a map value or in attach data",
		.calls = "getpgid() calls",
		.nvar = NVAR,
		.empty = T_EMPTY,
		.ad = T_BLOB_START,
		.name = name_of,
		.measured = measured,
		.csv_key = "kprobe",	/* base-table.sh reads the variant second */
	};

	bench_hit_table(&t);
	/* One line, which base-table.sh carries beside the base's. */
	printf("\nCallbacks run per hit: %s %.3f", names[T_MAP_FIRE], cb_per_hit[T_MAP_FIRE]);
	if (measured(T_BLOB_FIRE))
		printf(", %s %.3f", names[T_BLOB_FIRE], cb_per_hit[T_BLOB_FIRE]);
	printf("\n");
}

const struct bench bench_timer = {
	.name = "timer",
	.doc = "cost per kprobe hit of re-arming a timer: in a map value, in attach data",
	.opts = "nroluA",
	.calls = 5000,
	.rounds = 7,
	.max_rounds = MAX_ROUNDS,
	.measure = measure,
	.report = report,
};
