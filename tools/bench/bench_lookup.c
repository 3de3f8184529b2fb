// SPDX-License-Identifier: GPL-2.0
/* lookup: the per-access cost of reaching per-attachment data (benchmark
 * group 1).  All variants (lookup_variants.h) are attached to the same
 * kprobe, so every firing runs each of them once, interleaved; each times
 * LOOPS accesses with bpf_loop() (progs/bench_lookup.c).  UNIT names what
 * bpf_ktime_get_ns() counts.
 *
 *   bench lookup [-n FIRINGS] [-o CSV] [-l LABEL] [-u UNIT]
 */
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "lookup_variants.h"
#include "bench_lookup.skel.h"

#define LOOPS		1000
#define SAMPLES		512

static void measure(void)
{
	struct bpf_link *links[V_CNT];
	struct bench_lookup *skel;
	int i, v, n;

	skel = bench_lookup__open_and_load();
	if (!skel)
		bench_die("load failed");
	skel->bss->bench_pid = getpid();
	variants_fill(skel->obj, skel->bss->gbl);
	for (v = 0; v < V_CNT; v++)
		links[v] = variant_attach(skel->obj, v, TRIG_KPROBE);

	/* Warm up, learn the IP the kprobe reports, key the HASH by it. */
	variants_trigger(TRIG_KPROBE, 1);
	variants_key_ip(skel->obj, skel->bss->seen_ip);
	memset(skel->bss->nsamples, 0, sizeof(skel->bss->nsamples));
	memset(skel->bss->nbad, 0, sizeof(skel->bss->nbad));

	variants_trigger(TRIG_KPROBE, env.calls);

	/* Every program ran on every firing, and each of its accesses read
	 * the data (checked after its timed loop).
	 */
	for (v = 0; v < V_CNT; v++) {
		n = skel->bss->nsamples[v];
		if (n != env.calls || skel->bss->nbad[v])
			bench_die("%s ran %d times, want %d; %u runs read wrong data",
				  variant_names[v], n, env.calls, skel->bss->nbad[v]);
		for (i = 0; i < n; i++)
			bench_sample(v, 0, (double)skel->bss->samples[v][i] / LOOPS);
	}
	for (v = 0; v < V_CNT; v++)
		bpf_link__destroy(links[v]);
	bench_lookup__destroy(skel);
}

static void report(void)
{
	struct bench_stat st[V_CNT];
	double ad, net;
	char ratio[32];
	int v;

	for (v = 0; v < V_CNT; v++)
		st[v] = bench_stat(v, 0);
	ad = st[V_ATTACH_DATA].med - st[V_EMPTY].med;

	bench_heading("Lookup cost per access");
	printf("%d firings x %d accesses, all variants on one kprobe; %s per access\n"
	       "(median, min, max); net = minus the empty loop's median\n\n",
	       env.calls, LOOPS, env.unit);
	bench_md_head("<variant", "median", "min", "max", "net", "net / attach data", NULL);
	bench_csv("variant,unit,median,min,max,net,net_ratio_to_attach_data\n");
	for (v = 0; v < V_CNT; v++) {
		const char *name = v == V_EMPTY ? "empty loop" : variant_names[v];

		net = st[v].med - st[V_EMPTY].med;
		ratio[0] = 0;
		if (v && ad > 0)
			snprintf(ratio, sizeof(ratio), "%.2f", net / ad);
		printf("| %s | %.2f | %.2f | %.2f | %.2f | %s |\n", name, st[v].med, st[v].min,
		       st[v].max, v ? net : 0.0, ratio);
		bench_csv("%s,%s,%.3f,%.3f,%.3f,%.3f,%.3f\n", name, env.unit, st[v].med,
			  st[v].min, st[v].max, net, ad > 0 ? net / ad : 0.0);
	}
}

const struct bench bench_lookup = {
	.name = "lookup",
	.doc = "per-access cost of each variant, all on one kprobe (bpf_loop)",
	.opts = "nolu",
	.calls = 300,
	.max_calls = SAMPLES,
	.measure = measure,
	.report = report,
};
