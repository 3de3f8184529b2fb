// SPDX-License-Identifier: GPL-2.0
/* Per-access cost of reaching per-attachment data (benchmark group 1): all
 * variants are attached to the same kprobe, so every firing runs each of
 * them once, interleaved; each times LOOPS accesses with bpf_loop().
 * Prints a Markdown table and writes CSV (-o FILE).
 *
 *   bench_lookup [-n FIRINGS] [-o CSV] [-l LABEL] [-u UNIT]
 *
 * UNIT names what bpf_ktime_get_ns() counts: ns, or guest instructions
 * when QEMU runs with -icount shift=0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "bench.h"
#define LOOPS		1000
#define SAMPLES		512
#define KPROBE_FUNC	"__x64_sys_getpgid"

#include "progs/bench_lookup.h"
#include "bench_lookup.skel.h"

static const char *const names[] = {
	"empty loop", "cookie (u64)", "attach data", "global array[cookie]",
	"ARRAY map[cookie]", "HASH map[cookie]", "HASH map[IP]",
};

int main(int argc, char **argv)
{
	struct per_attach pa = { .val = SLOT }, blob = { .val = SLOT };
	const char *csv = NULL, *label = "", *unit = "ns";
	struct bpf_link *links[V_CNT] = {};
	struct bench_lookup *skel;
	struct bpf_program *progs[V_CNT];
	struct bench_stat st[V_CNT];
	static double per[SAMPLES];
	int firings = 300, i, v, opt, err = 1;
	__u32 key = SLOT;
	__u64 hkey = SLOT;
	FILE *f;

	while ((opt = getopt(argc, argv, "n:o:l:u:")) != -1) {
		if (opt == 'n')
			firings = atoi(optarg);
		else if (opt == 'o')
			csv = optarg;
		else if (opt == 'l')
			label = optarg;
		else if (opt == 'u')
			unit = optarg;
	}
	if (firings < 1 || firings > SAMPLES)
		firings = SAMPLES;

	skel = bench_lookup__open_and_load();
	if (!skel) {
		fprintf(stderr, "bench_lookup: load failed\n");
		return 1;
	}
	skel->bss->bench_pid = getpid();
	skel->bss->gbl[SLOT].val = SLOT;
	if (bpf_map__update_elem(skel->maps.arr, &key, sizeof(key), &pa, sizeof(pa), 0) ||
	    bpf_map__update_elem(skel->maps.hash, &hkey, sizeof(hkey), &pa, sizeof(pa), 0))
		goto out;

	progs[V_EMPTY] = skel->progs.empty;
	progs[V_COOKIE] = skel->progs.cookie;
	progs[V_ATTACH_DATA] = skel->progs.attach_data;
	progs[V_GLOBAL] = skel->progs.global_array;
	progs[V_ARRAY] = skel->progs.array_map;
	progs[V_HASH] = skel->progs.hash_map;
	progs[V_HASH_IP] = skel->progs.hash_ip;
	for (v = 0; v < V_CNT; v++) {
		LIBBPF_OPTS(bpf_kprobe_opts, opts);

		if (v == V_ATTACH_DATA) {
			opts.attach_data = &blob;
			opts.attach_data_size = sizeof(blob);
		} else {
			opts.bpf_cookie = SLOT;
		}
		links[v] = bpf_program__attach_kprobe_opts(progs[v], KPROBE_FUNC, &opts);
		if (!links[v]) {
			fprintf(stderr, "bench_lookup: attach %s failed\n", names[v]);
			goto out;
		}
	}

	/* Warm up, learn the IP the kprobe reports, key the HASH by it. */
	syscall(SYS_getpgid, 0);
	hkey = skel->bss->seen_ip;
	if (bpf_map__update_elem(skel->maps.hash, &hkey, sizeof(hkey), &pa, sizeof(pa), 0))
		goto out;
	memset(skel->bss->nsamples, 0, sizeof(skel->bss->nsamples));

	for (i = 0; i < firings; i++)
		syscall(SYS_getpgid, 0);

	for (v = 0; v < V_CNT; v++) {
		__u64 *s = skel->bss->samples[v];
		int n = skel->bss->nsamples[v] < SAMPLES ? skel->bss->nsamples[v] : SAMPLES;

		if (n != firings) {
			fprintf(stderr, "bench_lookup: %s ran %d times, want %d\n", names[v], n, firings);
			goto out;
		}
		for (i = 0; i < n; i++)
			per[i] = (double)s[i] / LOOPS;
		st[v] = bench_stat(per, n);
	}

	printf("\n### Lookup cost per access %s\n\n", label);
	printf("%d firings x %d accesses, all variants on one kprobe; %s per access\n"
	       "(median, min, max); net = minus the empty loop's median\n\n",
	       firings, LOOPS, unit);
	printf("| variant | median | min | max | net | net / attach data |\n");
	printf("|---|---:|---:|---:|---:|---:|\n");
	for (v = 0; v < V_CNT; v++) {
		double net = st[v].med - st[V_EMPTY].med;
		double ad = st[V_ATTACH_DATA].med - st[V_EMPTY].med;
		char ratio[32] = "";

		if (v && ad > 0)
			snprintf(ratio, sizeof(ratio), "%.2f", net / ad);
		printf("| %s | %.2f | %.2f | %.2f | %.2f | %s |\n", names[v], st[v].med, st[v].min,
		       st[v].max, v ? net : 0.0, ratio);
	}
	if (csv) {
		f = fopen(csv, "w");
		if (!f)
			goto out;
		fprintf(f, "variant,unit,median,min,max,net,net_ratio_to_attach_data\n");
		for (v = 0; v < V_CNT; v++) {
			double ad = st[V_ATTACH_DATA].med - st[V_EMPTY].med;
			double net = st[v].med - st[V_EMPTY].med;

			fprintf(f, "%s,%s,%.3f,%.3f,%.3f,%.3f,%.3f\n", names[v], unit, st[v].med,
				st[v].min, st[v].max, net, ad > 0 ? net / ad : 0.0);
		}
		fclose(f);
	}
	err = 0;
out:
	for (v = 0; v < V_CNT; v++)
		bpf_link__destroy(links[v]);
	bench_lookup__destroy(skel);
	return err;
}
