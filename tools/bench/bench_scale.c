// SPDX-License-Identifier: GPL-2.0
/* scale: attach scaling (benchmark group 3): attach bench_usdt's program to
 * every site of bench:site in a generated program with N sites (gen-sites.sh,
 * one argument spec per site), then detach; time both, and measure the kernel
 * memory that loading and attaching took.  Modes (usdt_modes.h):
 *
 *   attach data   the series: libbpf gives each site its spec as attach data
 *   cookie + ARRAY  stock libbpf, its spec map sized to fit (N entries)
 *
 * Every (repetition, N, mode) runs in a child process of its own, in a memory
 * cgroup of its own: the memory columns are the cgroup's "kernel" counter
 * (memory.stat: what the kernel charged to the cgroup: slab objects, maps,
 * page tables...) and the system's Slab + Percpu (/proc/meminfo) before the
 * load and after the attach.  Times are the guest's wall clock.
 *
 *   bench scale [-p REPS] [-o CSV] [-l LABEL] TARGET_1 TARGET_100 ...
 *
 * where TARGET_N is a generated program with N sites (its name ends in _N).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "usdt_modes.h"
#include "memcg.h"

#define MAX_REPS	8
#define MAX_TARGETS	8
#define NSCALE		2	/* modes: attach data, cookie + ARRAY */

enum { F_ATTACH, F_DETACH, F_MEMCG, F_SLAB, NF };	/* columns per target */

static int sites_of(const char *target)
{
	const char *u = strrchr(target, '_');

	return u ? atoi(u + 1) : 0;
}

static void validate(void)
{
	int t;

	for (t = 0; t < env.nargs; t++)
		if (sites_of(env.args[t]) < 1)
			bench_die("%s: no _N suffix", env.args[t]);
}

static void setup(void)
{
	memcg_setup();
}

/* One child: mode MODE on target T. */
static void child(int mode, int t)
{
	const char *target = env.args[t];
	int n = sites_of(target);
	struct rlimit rl = { .rlim_cur = 4 * n + 1024, .rlim_max = 4 * n + 1024 };
	long long kmem0, slab0, kmem1, slab1;
	struct bpf_link *link;
	struct usdt_obj o;
	__u64 t0, t1, t2, t3;

	/* Per-site links (kernels without uprobe_multi) take two fds each. */
	if (setrlimit(RLIMIT_NOFILE, &rl))
		bench_die("RLIMIT_NOFILE: %s", strerror(errno));
	memcg_enter("bench_scale");
	kmem0 = memcg_kernel();
	slab0 = slab_percpu();
	usdt_open(&o, mode, mode == M_ARRAY ? n : 0);
	t0 = now_ns();
	link = bpf_program__attach_usdt(o.prog, -1, target, "bench", "site", NULL);
	t1 = now_ns();
	if (!link)
		bench_die("attach %d sites: %s", n, strerror(errno));
	kmem1 = memcg_kernel();
	slab1 = slab_percpu();
	t2 = now_ns();
	bpf_link__destroy(link);
	t3 = now_ns();
	bench_sample(mode, t * NF + F_ATTACH, (t1 - t0) / 1e6);
	bench_sample(mode, t * NF + F_DETACH, (t3 - t2) / 1e6);
	bench_sample(mode, t * NF + F_MEMCG, kmem1 - kmem0);
	bench_sample(mode, t * NF + F_SLAB, slab1 - slab0);
	usdt_close(&o);
	memcg_leave();
}

static void report(void)
{
	static const char *const fname[NF] = {
		"attach_ms", "detach_ms", "memcg_kernel_kib", "slab_percpu_kib"
	};
	int t, m, j;

	bench_heading("Attach scaling");
	printf("Attaching one program to N USDT sites (N argument specs), then detaching;\n"
	       "%d repetitions, median (min-max); memory: kernel memory charged to the\n"
	       "process's memory cgroup, and the system's Slab + Percpu, from before the\n"
	       "load to after the attach, in KiB\n\n", env.reps);
	bench_md_head("sites", "<mode", "attach ms", "detach ms", "memcg kernel KiB",
		      "slab+percpu KiB", NULL);
	bench_csv("sites,mode,field,median,min,max\n");
	for (t = 0; t < env.nargs; t++) {
		for (m = 0; m < NSCALE; m++) {
			printf("| %d | %s |", sites_of(env.args[t]), usdt_mode_names[m]);
			for (j = 0; j < NF; j++) {
				double div = j >= F_MEMCG ? 1024 : 1;
				struct bench_stat s = bench_stat(m, t * NF + j);

				if (s.n != env.reps)
					bench_die("%d results for %s, want %d", s.n,
						  env.args[t], env.reps);
				s.med /= div, s.min /= div, s.max /= div;
				printf(" %.*f (%.*f-%.*f) |", j < F_MEMCG, s.med, j < F_MEMCG,
				       s.min, j < F_MEMCG, s.max);
				bench_csv("%d,%s,%s,%.3f,%.3f,%.3f\n", sites_of(env.args[t]),
					  usdt_mode_names[m], fname[j], s.med, s.min, s.max);
			}
			printf("\n");
		}
	}
}

const struct bench bench_scale = {
	.name = "scale",
	.doc = "attach/detach time and kernel memory, one program on N USDT sites",
	.opts = "pol",
	.args_doc = "TARGET_N...",
	.reps = 3,
	.max_reps = MAX_REPS,
	.min_args = 1,
	.max_args = MAX_TARGETS,
	.validate = validate,
	.setup = setup,
	.variants = usdt_mode_names,
	.nvariants = NSCALE,
	.item_per_arg = true,
	.child = child,
	.report = report,
};
