// SPDX-License-Identifier: GPL-2.0
/* Cost per hit of a counter updated under a bpf_res_spin_lock, the lock and
 * the counter in the link's attach data or in an ARRAY value found by the
 * cookie (progs/bench_lock.c): each program attached alone to a kprobe on
 * getpgid(), fired by a tight syscall loop, as bench_trigger.c does.
 * Rounds interleave the variants in a rotating order; each reports the
 * median, min and max over the rounds, and its cost net of the empty
 * program's.  Every hit must have counted, under the lock: the blob's
 * count, read back with bpf_link_lookup_attach_data(), and the value's.
 *
 *   bench lock [-n CALLS] [-r ROUNDS] [-o CSV] [-l LABEL] [-u UNIT]
 */
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "lookup_variants.h"
#include "progs/bench_lock.h"
#include "bench_lock.skel.h"

#define MAX_ROUNDS	64

enum { NOPROBE = L_CNT, NVAR };

static const char *const names[NVAR] = {
	[L_EMPTY] = "empty program",
	[L_BLOB] = "attach data: lock in the blob",
	[L_ARRAY] = "ARRAY by cookie: lock in the value",
	[NOPROBE] = "no probe",
};

/* As progs/bench_lock.c's, with the lock as its 4 bytes. */
struct lock_val {
	__u32 lock;
	__u32 pad;
	__u64 count;
};

static struct bpf_program *prog_of(struct bench_lock *skel, int v)
{
	switch (v) {
	case L_EMPTY:
		return skel->progs.empty;
	case L_BLOB:
		return skel->progs.blob_lock;
	default:
		return skel->progs.array_lock;
	}
}

static struct bpf_link *attach(struct bench_lock *skel, int v)
{
	struct lock_val blob = {};
	LIBBPF_OPTS(bpf_kprobe_opts, opts);
	struct bpf_link *link;

	if (v == L_BLOB) {
		opts.attach_data = &blob;
		opts.attach_data_size = sizeof(blob);
	} else if (v == L_ARRAY) {
		opts.bpf_cookie = LOCK_SLOT;
	}
	link = bpf_program__attach_kprobe_opts(prog_of(skel, v), KPROBE_FUNC, &opts);
	if (!link)
		bench_die("%s: attach failed", names[v]);
	return link;
}

static void measure(void)
{
	__u64 want, blob_counts = 0;
	struct bench_lock *skel;
	struct lock_val val;
	__u32 key = LOCK_SLOT;
	int r, i, v;

	skel = bench_lock__open_and_load();
	if (!skel)
		bench_die("load failed");

	for (r = 0; r < env.rounds; r++) {
		for (i = 0; i < NVAR; i++) {
			struct bpf_link *link = NULL;
			__u64 t0, t1;

			v = bench_rotate(i, r, NVAR);
			if (v != NOPROBE) {
				link = attach(skel, v);
				variants_trigger(TRIG_KPROBE, 1);	/* warm up */
			}
			t0 = now_ns();
			variants_trigger(TRIG_KPROBE, env.calls);
			t1 = now_ns();
			bench_sample(v, 0, (double)(t1 - t0) / env.calls);
			if (v == L_BLOB) {
				if (bpf_link_lookup_attach_data(bpf_link__fd(link), 0, &val,
								sizeof(val), NULL))
					bench_die("attach data lookup failed");
				blob_counts += val.count;
			}
			bpf_link__destroy(link);
		}
	}

	want = (__u64)env.rounds * (env.calls + 1);
	for (v = 0; v < L_CNT; v++)
		if (skel->bss->hits[v] != want || skel->bss->fails[v])
			bench_die("%s: %llu hits, %llu lock failures, want %llu hits", names[v],
				  (unsigned long long)skel->bss->hits[v],
				  (unsigned long long)skel->bss->fails[v],
				  (unsigned long long)want);
	if (bpf_map__lookup_elem(skel->maps.arr, &key, sizeof(key), &val, sizeof(val), 0))
		bench_die("ARRAY lookup failed");
	if (val.count != want || blob_counts != want)
		bench_die("counts: blob %llu, ARRAY %llu, want %llu",
			  (unsigned long long)blob_counts, (unsigned long long)val.count,
			  (unsigned long long)want);
	bench_lock__destroy(skel);
}

static const char *name_of(int v)
{
	return names[v];
}

static void report(void)
{
	struct bench_hit_table t = {
		.title = "Cost per kprobe hit of a counter under a bpf_res_spin_lock",
		.calls = "getpgid() calls",
		.nvar = NVAR,
		.empty = L_EMPTY,
		.ad = L_BLOB,
		.name = name_of,
	};

	bench_hit_table(&t);
}

const struct bench bench_lock = {
	.name = "lock",
	.doc = "cost per kprobe hit of a counter under a bpf_res_spin_lock: in the blob, in an ARRAY value",
	.opts = "nrolu",
	.calls = 5000,
	.rounds = 7,
	.max_rounds = MAX_ROUNDS,
	.measure = measure,
	.report = report,
};
