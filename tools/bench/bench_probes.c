// SPDX-License-Identifier: GPL-2.0
/* probes: attach bench_usdt's program to every USDT probe of a binary --
 * Debian's libjvm.so, 517 probes on 531 sites -- then detach: through one
 * link for all of them (bpf_program__attach_usdt_multi()) against one link
 * per probe (bpf_program__attach_usdt()), in the attach data and cookie +
 * ARRAY modes (usdt_modes.h).  Measures the attach and detach times, the fds
 * the links hold, and the kernel memory charged to the process's memory
 * cgroup from before the load to after the attach (memcg.h).  cookie + ARRAY
 * keeps libbpf's default 256-spec map with one link, where probes share
 * specs; with a link per probe, where they cannot, the map is sized to fit
 * every site (with the default, attaching stops at the 256th spec, E2BIG).
 * Then, in attach data mode with one link, bench_usdt's usdt12 (a BPF_USDT()
 * program) as loaded, and specialized (bpf_usdt_multi_opts.specialize: a
 * copy per distinct set of argument locations).  Also counted: the
 * programs the attachment has and the instructions the verifier processed
 * for them, the program loaded first included.
 * Every (repetition, variant) runs in a child process of its own.
 *
 *   bench probes [-p REPS] [-o CSV] [-l LABEL] BINARY
 */
#define _GNU_SOURCE	/* asprintf() */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "bench.h"
#include "usdt_modes.h"
#include "memcg.h"
#include "usdt_probes.h"

enum { V_AD_ONE, V_AD_PER, V_ARRAY_ONE, V_ARRAY_PER, V_MACRO, V_SPEC, NV };
static const char *const variants[NV] = {
	"attach data, one link", "attach data, link per probe",
	"cookie + ARRAY, one link", "cookie + ARRAY, link per probe",
	"BPF_USDT, attach data, one link", "BPF_USDT, attach data, one link, specialized",
};
enum { F_ATTACH, F_DETACH, F_TOTAL, F_FDS, F_MEMCG, F_SLAB, F_PROGS, F_VERIFIED, NF };
#define MAX_PROGS	1024	/* the program and its specialized copies */

static struct usdt_probes probes;
static char **names;	/* "provider:name" of each probe */
static int probe_cnt, site_cnt;

static void validate(void)
{
	int i, err = usdt_probes_read(env.args[0], &probes);

	if (err)
		bench_die("%s: no USDT probes: %s", env.args[0], strerror(-err));
	probe_cnt = probes.cnt;
	site_cnt = probes.sites;
	names = calloc(probe_cnt, sizeof(*names));
	for (i = 0; i < probe_cnt && names; i++) {
		if (asprintf(&names[i], "%s:%s", probes.v[i].provider, probes.v[i].name) < 0)
			bench_die("out of memory");
	}
	if (!names)
		bench_die("out of memory");
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		bench_die("/proc/self/fd: %s", strerror(errno));
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

static void child(int v, int item)
{
	const char *path = env.args[0];
	bool per_probe = v == V_AD_PER || v == V_ARRAY_PER;
	int i, mode = v < V_ARRAY_ONE || v >= V_MACRO ? M_AD : M_ARRAY;
	struct bpf_program *prog;
	static struct bpf_prog_info infos[MAX_PROGS];
	double verified;
	int progs;
	struct rlimit rl = { 4 * site_cnt + 1024, 4 * site_cnt + 1024 };
	struct bpf_link **links = calloc(probe_cnt, sizeof(*links));
	long long kmem0, kmem1, slab0, slab1;
	struct usdt_obj o;
	__u64 t0, t1, t2, t3;
	int fds0, fds1;

	if (!links || setrlimit(RLIMIT_NOFILE, &rl))
		bench_die("setup: %s", strerror(errno));
	memcg_enter("bench_probes");
	usdt_open(&o, mode, per_probe && mode == M_ARRAY ? site_cnt : 0);
	prog = v >= V_MACRO ? o.macro[USDT_NK - 1] : o.prog;
	/* from after the load: what the links cost */
	kmem0 = memcg_kernel();
	slab0 = slab_percpu();
	fds0 = count_fds();
	t0 = now_ns();
	if (per_probe) {
		for (i = 0; i < probe_cnt; i++) {
			char *colon = strchr(names[i], ':');

			*colon = '\0';
			links[i] = bpf_program__attach_usdt(prog, -1, path, names[i], colon + 1,
							    NULL);
			*colon = ':';
			if (!links[i])
				bench_die("%s: attach %s: %s", variants[v], names[i],
					  strerror(errno));
		}
	} else {
		LIBBPF_OPTS(bpf_usdt_multi_opts, opts, .probes = (const char **)names,
			    .cnt = probe_cnt, .specialize = v == V_SPEC);

		links[0] = bpf_program__attach_usdt_multi(prog, -1, path, &opts);
		if (!links[0])
			bench_die("%s: attach: %s", variants[v], strerror(errno));
	}
	t1 = now_ns();
	fds1 = count_fds();
	kmem1 = memcg_kernel();
	slab1 = slab_percpu();
	progs = bench_progs_named(bpf_program__name(prog), infos, MAX_PROGS);
	if (progs > MAX_PROGS)
		bench_die("%d programs named %s", progs, bpf_program__name(prog));
	for (i = 0, verified = 0; i < progs; i++)
		verified += infos[i].verified_insns;
	t2 = now_ns();
	for (i = 0; i < probe_cnt; i++)
		bpf_link__destroy(links[i]);
	t3 = now_ns();
	bench_sample(v, F_ATTACH, (t1 - t0) / 1e6);
	bench_sample(v, F_DETACH, (t3 - t2) / 1e6);
	bench_sample(v, F_TOTAL, (t1 - t0 + t3 - t2) / 1e6);
	bench_sample(v, F_FDS, fds1 - fds0);
	bench_sample(v, F_MEMCG, (kmem1 - kmem0) / 1024.0);
	bench_sample(v, F_SLAB, (slab1 - slab0) / 1024.0);
	bench_sample(v, F_PROGS, progs);
	bench_sample(v, F_VERIFIED, verified);
	usdt_close(&o);
	memcg_leave();
	free(links);
}

static void report(void)
{
	static const char *const fname[NF] = {
		"attach_ms", "detach_ms", "total_ms", "fds", "memcg_kernel_kib",
		"slab_percpu_kib", "programs", "verified_insns"
	};
	struct bench_stat s, one;
	int v, j;

	bench_heading("All the USDT probes of a binary");
	printf("%s: %d probes on %d sites; one program attached to all of them, then\n"
	       "detached; %d repetitions, median (min-max); fds: held by the links;\n"
	       "memory, from after the load to after the attach, in KiB: kernel memory\n"
	       "charged to the process's memory cgroup, and the system's Slab + Percpu\n"
	       "(uprobes and perf events are not charged to a cgroup); programs: those\n"
	       "of the attachment, and the instructions the verifier processed for them;\n"
	       "ratio: attach + detach time against one link of the same program in the\n"
	       "same mode\n\n",
	       env.args[0], probe_cnt, site_cnt, env.reps);
	bench_md_head("<variant", "attach ms", "detach ms", "attach+detach ms", "fds",
		      "memcg kernel KiB", "slab+percpu KiB", "programs", "verified insns", "ratio",
		      NULL);
	bench_csv("variant,field,median,min,max\n");
	for (v = 0; v < NV; v++) {
		printf("| %s |", variants[v]);
		for (j = 0; j < NF; j++) {
			s = bench_stat(v, j);
			if (s.n != env.reps)
				bench_die("%d results for %s, want %d", s.n, variants[v], env.reps);
			if (j >= F_PROGS)	/* the same in every run */
				printf(" %.0f |", s.med);
			else
				printf(" %.*f (%.*f-%.*f) |", j < F_FDS, s.med, j < F_FDS, s.min,
				       j < F_FDS, s.max);
			bench_csv("\"%s\",%s,%.3f,%.3f,%.3f\n", variants[v], fname[j], s.med, s.min,
				  s.max);
		}
		one = bench_stat(v < V_ARRAY_ONE ? V_AD_ONE : v < V_MACRO ? V_ARRAY_ONE : V_MACRO,
				 F_TOTAL);
		printf(" %.1f |\n", bench_stat(v, F_TOTAL).med / one.med);
	}
}

const struct bench bench_probes = {
	.name = "probes",
	.doc = "attach/detach time, fds, kernel memory: one program on all USDT probes of a binary",
	.opts = "pol",
	.args_doc = "BINARY",
	.reps = 3,
	.max_reps = 8,
	.min_args = 1,
	.max_args = 1,
	.validate = validate,
	.setup = memcg_setup,
	.variants = variants,
	.nvariants = NV,
	.child = child,
	.report = report,
};
