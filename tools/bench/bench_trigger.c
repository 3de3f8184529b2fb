// SPDX-License-Identifier: GPL-2.0
/* Cost per probe hit (benchmark group 1, per hit).  Each variant of
 * progs/bench_trigger.bpf.c is attached alone to a kprobe on getpgid() (fired
 * by a tight syscall loop) or to a uprobe on a function of this program
 * (fired by a tight call loop); the loop's time per call is the cost of one
 * trigger.  Rounds interleave the variants (in a rotating order), and each
 * variant reports the median, min and max over the rounds.  "no probe" is the
 * bare loop; "net" is a variant's cost minus that of the empty program.
 * On the wall clock (-u ns), calls/s is the trigger throughput.
 *
 *   bench_trigger [-t kprobe|uprobe] [-n CALLS] [-r ROUNDS] [-o CSV]
 *                 [-l LABEL] [-u UNIT]
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "bench.h"

#define MAX_ROUNDS	64
#define KPROBE_FUNC	"__x64_sys_getpgid"

#include "progs/bench_lookup.h"
#include "bench_trigger.skel.h"

enum { NOPROBE = V_CNT, NVAR };
static const char *const names[NVAR] = {
	"empty program", "cookie (u64)", "attach data", "global array[cookie]",
	"ARRAY map[cookie]", "HASH map[cookie]", "HASH map[IP]", "no probe",
};

__attribute__((noinline)) void bench_uprobe_target(void)
{
	asm volatile ("" ::: "memory");
}

static void trigger(int uprobe, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (uprobe)
			bench_uprobe_target();
		else
			syscall(SYS_getpgid, 0);
	}
}

static struct bpf_link *attach(struct bench_trigger *skel, int v, int uprobe)
{
	static struct per_attach blob = { .val = SLOT };
	struct bpf_program *progs[] = {
		skel->progs.empty, skel->progs.cookie, skel->progs.attach_data,
		skel->progs.global_array, skel->progs.array_map, skel->progs.hash_map,
		skel->progs.hash_ip,
	};
	LIBBPF_OPTS(bpf_uprobe_opts, uopts, .func_name = "bench_uprobe_target");
	LIBBPF_OPTS(bpf_kprobe_opts, kopts);
	struct bpf_link *link;

	if (v == V_ATTACH_DATA) {
		uopts.attach_data = kopts.attach_data = &blob;
		uopts.attach_data_size = kopts.attach_data_size = sizeof(blob);
	} else {
		uopts.bpf_cookie = kopts.bpf_cookie = SLOT;
	}
	if (uprobe)
		link = bpf_program__attach_uprobe_opts(progs[v], 0, "/proc/self/exe", 0, &uopts);
	else
		link = bpf_program__attach_kprobe_opts(progs[v], KPROBE_FUNC, &kopts);
	if (!link)
		bench_die("bench_trigger: attach %s: %s", names[v], strerror(errno));
	return link;
}

int main(int argc, char **argv)
{
	const char *csv = NULL, *label = "", *unit = "ns", *type = "kprobe";
	static double per_call[NVAR][MAX_ROUNDS];
	struct per_attach pa = { .val = SLOT };
	int calls = 5000, rounds = 7, r, i, v, opt, uprobe, wall;
	struct bench_stat st[NVAR];
	struct bench_trigger *skel;
	__u64 want, hkey = SLOT;
	double spread;
	__u32 key = SLOT;
	FILE *f;

	while ((opt = getopt(argc, argv, "t:n:r:o:l:u:")) != -1) {
		if (opt == 't')
			type = optarg;
		else if (opt == 'n')
			calls = atoi(optarg);
		else if (opt == 'r')
			rounds = atoi(optarg);
		else if (opt == 'o')
			csv = optarg;
		else if (opt == 'l')
			label = optarg;
		else if (opt == 'u')
			unit = optarg;
		else
			bench_die("usage: see the head of %s", __FILE__);
	}
	if (strcmp(type, "kprobe") && strcmp(type, "uprobe"))
		bench_die("bench_trigger: -t kprobe or uprobe");
	uprobe = !strcmp(type, "uprobe");
	wall = !strcmp(unit, "ns");
	if (calls < 1 || rounds < 1 || rounds > MAX_ROUNDS)
		bench_die("bench_trigger: bad -n or -r");

	skel = bench_trigger__open_and_load();
	if (!skel)
		bench_die("bench_trigger: load failed");
	skel->bss->gbl[SLOT].val = SLOT;
	if (bpf_map__update_elem(skel->maps.arr, &key, sizeof(key), &pa, sizeof(pa), 0) ||
	    bpf_map__update_elem(skel->maps.hash, &hkey, sizeof(hkey), &pa, sizeof(pa), 0))
		bench_die("bench_trigger: map update failed");

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < NVAR; i++) {
			struct bpf_link *link = NULL;
			__u64 t0, t1;

			v = (i + r) % NVAR;
			if (v != NOPROBE) {
				link = attach(skel, v, uprobe);
				trigger(uprobe, 1);	/* warm up; learns the IP */
				if (v == V_HASH_IP && r == 0) {
					hkey = skel->bss->seen_ip;
					if (bpf_map__update_elem(skel->maps.hash, &hkey, sizeof(hkey),
								 &pa, sizeof(pa), 0))
						bench_die("bench_trigger: map update failed");
				}
			}
			t0 = now_ns();
			trigger(uprobe, calls);
			t1 = now_ns();
			per_call[v][r] = (double)(t1 - t0) / calls;
			bpf_link__destroy(link);
		}
	}

	/* Every program ran on every call and found its data (the first
	 * HASH[IP] hit cannot: it learns the key).
	 */
	want = (__u64)rounds * (calls + 1);
	for (v = 0; v < NOPROBE; v++) {
		__u64 h = skel->bss->hits[v], fd = skel->bss->found[v] + (v == V_HASH_IP);

		if (h != want || fd != want)
			bench_die("bench_trigger: %s: %llu hits, %llu found, want %llu",
				  names[v], (unsigned long long)h, (unsigned long long)fd,
				  (unsigned long long)want);
	}
	for (v = 0; v < NVAR; v++)
		st[v] = bench_stat(per_call[v], rounds);

	printf("\n### Cost per %s hit %s\n\n", type, label);
	printf("%d rounds x %d %s, variants interleaved, one attached at a time;\n"
	       "%s per call (median, min, max); net = minus the empty program's median\n\n",
	       rounds, calls, uprobe ? "calls of a uprobed function" : "getpgid() calls", unit);
	printf("| variant | median | min | max | net | net / attach data |%s\n",
	       wall ? " calls/s (median) |" : "");
	printf("|---|---:|---:|---:|---:|---:|%s\n", wall ? "---:|" : "");
	for (i = 0; i < NVAR; i++) {
		double ad = st[V_ATTACH_DATA].med - st[V_EMPTY].med, net;
		char nets[32] = "", ratio[32] = "", rate[32] = "";

		v = (i + NVAR - 1) % NVAR;	/* "no probe" first */
		net = st[v].med - st[V_EMPTY].med;
		if (v != NOPROBE && v)
			snprintf(nets, sizeof(nets), "%.1f", net);
		if (v != NOPROBE && v && ad > 0)
			snprintf(ratio, sizeof(ratio), "%.2f", net / ad);
		if (wall)	/* trigger throughput */
			snprintf(rate, sizeof(rate), " %.0f |", 1e9 / st[v].med);
		printf("| %s | %.1f | %.1f | %.1f | %s | %s |%s\n", names[v], st[v].med,
		       st[v].min, st[v].max, nets, ratio, rate);
	}
	/* A clock whose rounds spread wider than the costs cannot rank them:
	 * the empty program's interquartile range (per_call[0] is sorted).
	 */
	spread = per_call[0][(3 * rounds) / 4] - per_call[0][rounds / 4];
	if (spread > st[V_ATTACH_DATA].med - st[V_EMPTY].med)
		printf("\nNot resolved: the middle half of the empty program's rounds spreads\n"
		       "over %.1f %s, more than attach data's net cost; only the larger\n"
		       "differences mean anything.\n", spread, unit);
	if (csv) {
		f = fopen(csv, "w");
		if (!f)
			bench_die("bench_trigger: %s: %s", csv, strerror(errno));
		fprintf(f, "trigger,variant,unit,median,min,max,net,net_ratio_to_attach_data\n");
		for (v = 0; v < NVAR; v++) {
			double ad = st[V_ATTACH_DATA].med - st[V_EMPTY].med;
			double net = st[v].med - st[V_EMPTY].med;

			fprintf(f, "%s,%s,%s,%.2f,%.2f,%.2f,%.2f,%.3f\n", type, names[v], unit,
				st[v].med, st[v].min, st[v].max, v == NOPROBE ? 0 : net,
				v != NOPROBE && ad > 0 ? net / ad : 0);
		}
		fclose(f);
	}
	bench_trigger__destroy(skel);
	return 0;
}
