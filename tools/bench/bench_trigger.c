// SPDX-License-Identifier: GPL-2.0
/* kprobe, uprobe, kprobe_multi, fentry: the cost per probe hit (benchmark
 * group 1, per hit).  Each variant of progs/bench_trigger.c is attached
 * alone to a kprobe on getpgid() (fired by a tight syscall loop), to a
 * uprobe on a function of this program (fired by a tight call loop), or,
 * as a kprobe_multi program, through a one-function kprobe_multi link on
 * getpgid(); progs/bench_trigger_fentry.c's, the same variants as fentry
 * programs, to getpgid().  The loop's time per call is the cost of one
 * trigger.  Rounds interleave the variants (in a rotating order),
 * and each variant reports the median, min and max over the rounds.  "no
 * probe" is the bare loop; "net" is a variant's cost minus that of the empty
 * program.  On the wall clock (-u ns), calls/s is the trigger throughput.
 * On a kernel without attach data (the series' base), -A leaves the attach
 * data variant out.
 *
 *   bench kprobe|uprobe|kprobe_multi [-n CALLS] [-r ROUNDS] [-o CSV]
 *         [-l LABEL] [-u UNIT] [-A]
 *   bench fentry [-n CALLS] [-r ROUNDS] [-o CSV] [-l LABEL] [-u UNIT]
 */
#include <string.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "lookup_variants.h"
#include "bench_trigger.skel.h"
#include "bench_trigger_fentry.skel.h"

#define MAX_ROUNDS	64

enum { NOPROBE = V_CNT, NVAR };

static const char *name_of(int v)
{
	return v == V_EMPTY ? "empty program" : v == NOPROBE ? "no probe" : variant_names[v];
}

static enum trig kind(void)
{
	if (!strcmp(env.name, "uprobe"))
		return TRIG_UPROBE;
	if (!strcmp(env.name, "kprobe_multi"))
		return TRIG_KMULTI;
	if (!strcmp(env.name, "fentry"))
		return TRIG_FENTRY;
	return TRIG_KPROBE;
}

/*
 * -A: a kernel without attach data (tools/bench/run.sh boots the series'
 * base, to compare the other variants' costs) would refuse the attach data
 * program: it is left out, and its row says so.  Anywhere else, a kernel
 * that refuses it fails the run.
 */
static bool measured(int v)
{
	return !(env.no_attach_data && v == V_ATTACH_DATA);
}

static struct bench_trigger *trigger_open_and_load(enum trig k)
{
	struct bench_trigger *skel;
	struct bpf_program *prog;
	int err;

	skel = bench_trigger__open();
	if (!skel)
		bench_die("open failed");
	if (k == TRIG_KMULTI)
		bpf_object__for_each_program(prog, skel->obj)
			bpf_program__set_expected_attach_type(prog, BPF_TRACE_KPROBE_MULTI);
	if (env.no_attach_data)
		bpf_program__set_autoload(skel->progs.attach_data, false);
	err = bench_trigger__load(skel);
	if (err == -EOPNOTSUPP)
		bench_die("load failed: no attach data in this kernel (-A leaves it out)");
	if (err)
		bench_die("load failed");
	return skel;
}

/* The globals both objects have, wherever each compiler put them. */
struct trig_vars {
	__u64 *hits, *found, *seen_ip;
	struct per_attach *gbl;
};

static void measure(void)
{
	struct bench_trigger_fentry *fskel = NULL;
	struct bench_trigger *skel = NULL;
	struct trig_vars bss;
	struct bpf_object *obj;
	enum trig k = kind();
	int r, i, v;
	__u64 want;

	if (k == TRIG_FENTRY) {
		fskel = bench_trigger_fentry__open_and_load();
		if (!fskel)
			bench_die("load failed");
		obj = fskel->obj;
		bss = (struct trig_vars){ fskel->bss->hits, fskel->bss->found,
					  &fskel->bss->seen_ip, fskel->bss->gbl };
	} else {
		skel = trigger_open_and_load(k);
		obj = skel->obj;
		bss = (struct trig_vars){ skel->bss->hits, skel->bss->found,
					  &skel->bss->seen_ip, skel->bss->gbl };
	}
	variants_fill(obj, bss.gbl);

	for (r = 0; r < env.rounds; r++) {
		for (i = 0; i < NVAR; i++) {
			struct bpf_link *link = NULL;
			__u64 t0, t1;

			v = bench_rotate(i, r, NVAR);
			if (!measured(v))
				continue;
			if (v != NOPROBE) {
				link = variant_attach(obj, v, k);
				variants_trigger(k, 1);	/* warm up; learns the IP */
				if (v == V_HASH_IP && r == 0)
					variants_key_ip(obj, *bss.seen_ip);
			}
			t0 = now_ns();
			variants_trigger(k, env.calls);
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
		__u64 h = bss.hits[v], fd = bss.found[v] + (v == V_HASH_IP);

		if (!measured(v))
			continue;
		if (h != want || fd != want)
			bench_die("%s: %llu hits, %llu found, want %llu", name_of(v),
				  (unsigned long long)h, (unsigned long long)fd,
				  (unsigned long long)want);
	}
	bench_trigger__destroy(skel);
	bench_trigger_fentry__destroy(fskel);
}

static const char *const headings[] = {
	[TRIG_KPROBE] = "Cost per kprobe hit",
	[TRIG_UPROBE] = "Cost per uprobe hit",
	[TRIG_KMULTI] = "Cost per kprobe_multi hit",
	[TRIG_FENTRY] = "Cost per fentry hit",
};

static void report(void)
{
	struct bench_hit_table t = {
		.title = headings[kind()],
		.calls = kind() == TRIG_UPROBE ? "calls of a uprobed function" : "getpgid() calls",
		.nvar = NVAR,
		.empty = V_EMPTY,
		.ad = V_ATTACH_DATA,
		.name = name_of,
		.measured = measured,
		.rate = true,
		.csv_key = env.name,
	};

	bench_hit_table(&t);
}

const struct bench bench_kprobe = {
	.name = "kprobe",
	.doc = "cost per kprobe hit of each variant, attached alone (getpgid() loop)",
	.opts = "nroluA",
	.calls = 5000,
	.rounds = 7,
	.max_rounds = MAX_ROUNDS,
	.measure = measure,
	.report = report,
};

const struct bench bench_kprobe_multi = {
	.name = "kprobe_multi",
	.doc = "cost per kprobe_multi hit of each variant, attached alone (getpgid() loop)",
	.opts = "nroluA",
	.calls = 5000,
	.rounds = 7,
	.max_rounds = MAX_ROUNDS,
	.measure = measure,
	.report = report,
};

const struct bench bench_fentry = {
	.name = "fentry",
	.doc = "cost per fentry hit of each variant, attached alone (getpgid() loop)",
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
	.opts = "nroluA",
	.calls = 5000,
	.rounds = 7,
	.max_rounds = MAX_ROUNDS,
	.measure = measure,
	.report = report,
};
