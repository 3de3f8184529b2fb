// SPDX-License-Identifier: GPL-2.0
/* Attach scaling (benchmark group 3): attach bench_usdt's program to every
 * site of bench:site in a generated program with N sites (gen-sites.sh, one
 * argument spec per site), then detach; time both, and measure the kernel
 * memory that loading and attaching took.  Modes:
 *
 *   attach data   the series: libbpf gives each site its spec as attach data
 *   cookie+ARRAY  stock libbpf, its spec map sized to fit (N entries)
 *
 * Every (repetition, N, mode) runs in a child process of its own, in a memory
 * cgroup of its own: the memory columns are the cgroup's "kernel" counter
 * (memory.stat: what the kernel charged to the cgroup: slab objects, maps,
 * page tables...) and the system's Slab + Percpu (/proc/meminfo) before the
 * load and after the attach.  Times are the guest's wall clock.
 *
 *   bench_scale [-p REPS] [-o CSV] [-l LABEL] TARGET_1 TARGET_100 ...
 *
 * where TARGET_N is a generated program with N sites (its name ends in _N).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "bench.h"
#include "bench_usdt.skel.h"
#include "bench_usdt_noad.skel.h"

#define MAX_REPS	8
#define MAX_TARGETS	8
#define NMODE		2
#define CGROOT		"/sys/fs/cgroup"

static const char *const modes[NMODE] = { "attach data", "cookie+ARRAY" };
enum { F_ATTACH, F_DETACH, F_MEMCG, F_SLAB, NF };

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		bench_die("bench_scale: write %s: %s", path, strerror(errno));
	close(fd);
}

/* "key value" line of a file, in bytes (meminfo's kB converted). */
static long long read_key(const char *path, const char *key)
{
	char line[256];
	long long val = -1;
	size_t len = strlen(key);
	FILE *f = fopen(path, "r");

	if (!f)
		bench_die("bench_scale: %s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, len) && (line[len] == ' ' || line[len] == ':')) {
			val = strtoll(line + len + 1, NULL, 10);
			if (strstr(line, "kB"))
				val *= 1024;
			break;
		}
	}
	fclose(f);
	if (val < 0)
		bench_die("bench_scale: no %s in %s", key, path);
	return val;
}

static long long slab_percpu(void)
{
	return read_key("/proc/meminfo", "Slab") + read_key("/proc/meminfo", "Percpu");
}

/* One child: prints "N,mode,attach_ms,detach_ms,memcg_bytes,slab_bytes". */
static int child(int mode, const char *target, int n)
{
	struct rlimit rl = { .rlim_cur = 4 * n + 1024, .rlim_max = 4 * n + 1024 };
	struct bench_usdt_noad *noad = NULL;
	struct bench_usdt *ad = NULL;
	long long kmem0, slab0, kmem1, slab1;
	struct bpf_program *prog;
	struct bpf_link *link;
	char cg[64], path[96];
	__u64 t0, t1, t2;

	/* Per-site links (kernels without uprobe_multi) take two fds each. */
	if (setrlimit(RLIMIT_NOFILE, &rl))
		bench_die("bench_scale: RLIMIT_NOFILE: %s", strerror(errno));
	snprintf(cg, sizeof(cg), CGROOT "/bench_scale.%d", getpid());
	if (mkdir(cg, 0755))
		bench_die("bench_scale: mkdir %s: %s", cg, strerror(errno));
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	write_file(path, "0");
	snprintf(path, sizeof(path), "%s/memory.stat", cg);

	kmem0 = read_key(path, "kernel");
	slab0 = slab_percpu();
	if (mode == 0) {
		ad = bench_usdt__open_and_load();
		if (!ad || !bpf_program__attach_data_type(ad->progs.usdt_args))
			bench_die("bench_scale: attach data mode: load failed or not chosen");
		prog = ad->progs.usdt_args;
	} else {
		noad = bench_usdt_noad__open();
		if (!noad || bpf_map__set_max_entries(noad->maps.__bpf_usdt_specs, n) ||
		    bench_usdt_noad__load(noad))
			bench_die("bench_scale: load failed");
		prog = noad->progs.usdt_args;
	}
	t0 = now_ns();
	link = bpf_program__attach_usdt(prog, -1, target, "bench", "site", NULL);
	t1 = now_ns();
	if (!link)
		bench_die("bench_scale: attach %d sites: %s", n, strerror(errno));
	kmem1 = read_key(path, "kernel");
	slab1 = slab_percpu();
	bpf_link__destroy(link);
	t2 = now_ns();
	printf("%d,%d,%.3f,%.3f,%lld,%lld\n", n, mode, (t1 - t0) / 1e6, (t2 - t1) / 1e6,
	       kmem1 - kmem0, slab1 - slab0);
	bench_usdt__destroy(ad);
	bench_usdt_noad__destroy(noad);
	write_file(CGROOT "/cgroup.procs", "0");
	rmdir(cg);
	return 0;
}

static int sites_of(const char *target)
{
	const char *u = strrchr(target, '_');

	return u ? atoi(u + 1) : 0;
}

int main(int argc, char **argv)
{
	static double v[MAX_TARGETS][NMODE][NF][MAX_REPS];
	int reps = 3, p, t, j, m, opt, n, ntargets, run_mode = -1;
	const char *csv = NULL, *label = "";
	double fields[NF];
	char raw_path[] = "/tmp/bench_scale.XXXXXX";
	FILE *raw, *f = NULL;

	while ((opt = getopt(argc, argv, "p:o:l:m:")) != -1) {
		if (opt == 'p')
			reps = atoi(optarg);
		else if (opt == 'o')
			csv = optarg;
		else if (opt == 'l')
			label = optarg;
		else if (opt == 'm')	/* internal: run one child */
			run_mode = atoi(optarg);
		else
			bench_die("usage: see the head of %s", __FILE__);
	}
	ntargets = argc - optind;
	if (reps < 1 || reps > MAX_REPS || ntargets < 1 || ntargets > MAX_TARGETS)
		bench_die("bench_scale: bad -p or targets");
	for (t = 0; t < ntargets; t++)
		if (sites_of(argv[optind + t]) < 1)
			bench_die("bench_scale: %s: no _N suffix", argv[optind + t]);
	if (run_mode >= 0)
		return child(run_mode, argv[optind], sites_of(argv[optind]));

	write_file(CGROOT "/cgroup.subtree_control", "+memory");
	raw = fdopen(mkstemp(raw_path), "w+");
	if (!raw)
		bench_die("bench_scale: %s: %s", raw_path, strerror(errno));
	unlink(raw_path);
	for (p = 0; p < reps; p++) {
		for (t = 0; t < ntargets; t++) {
			for (j = 0; j < NMODE; j++) {
				char ms[4];
				pid_t pid;
				int status;

				m = (j + p) % NMODE;
				snprintf(ms, sizeof(ms), "%d", m);
				fprintf(stderr, "bench_scale: %d sites, %s (%d/%d)\n",
					sites_of(argv[optind + t]), modes[m], p + 1, reps);
				fflush(raw);
				pid = fork();
				if (pid == 0) {
					dup2(fileno(raw), 1);
					execl("/proc/self/exe", argv[0], "-m", ms, argv[optind + t], NULL);
					_exit(127);
				}
				if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
				    WEXITSTATUS(status))
					bench_die("bench_scale: the run failed");
			}
		}
	}
	rewind(raw);
	p = 0;
	while (fscanf(raw, "%d,%d,%lf,%lf,%lf,%lf\n", &n, &m, &fields[0], &fields[1], &fields[2],
		      &fields[3]) == 6) {
		for (t = 0; t < ntargets && sites_of(argv[optind + t]) != n; t++)
			;
		if (t == ntargets || m < 0 || m >= NMODE)
			bench_die("bench_scale: bad raw line");
		for (j = 0; j < NF; j++)
			v[t][m][j][p / (ntargets * NMODE)] = fields[j];
		p++;
	}
	if (p != reps * ntargets * NMODE)
		bench_die("bench_scale: %d results, want %d", p, reps * ntargets * NMODE);

	printf("\n### Attach scaling %s\n\n", label);
	printf("Attaching one program to N USDT sites (N argument specs), then detaching;\n"
	       "%d repetitions, median (min-max); memory: kernel memory charged to the\n"
	       "process's memory cgroup, and the system's Slab + Percpu, from before the\n"
	       "load to after the attach, in KiB\n\n", reps);
	printf("| sites | mode | attach ms | detach ms | memcg kernel KiB | slab+percpu KiB |\n");
	printf("|---:|---|---:|---:|---:|---:|\n");
	if (csv) {
		f = fopen(csv, "w");
		if (!f)
			bench_die("bench_scale: %s: %s", csv, strerror(errno));
		fprintf(f, "sites,mode,field,median,min,max\n");
	}
	for (t = 0; t < ntargets; t++) {
		for (m = 0; m < NMODE; m++) {
			static const char *const fname[NF] = {
				"attach_ms", "detach_ms", "memcg_kernel_kib", "slab_percpu_kib"
			};

			printf("| %d | %s |", sites_of(argv[optind + t]), modes[m]);
			for (j = 0; j < NF; j++) {
				double div = j >= F_MEMCG ? 1024 : 1;
				struct bench_stat s;
				int k;

				for (k = 0; k < reps; k++)
					v[t][m][j][k] /= div;
				s = bench_stat(v[t][m][j], reps);
				printf(" %.*f (%.*f-%.*f) |", j < F_MEMCG, s.med, j < F_MEMCG, s.min,
				       j < F_MEMCG, s.max);
				if (csv)
					fprintf(f, "%d,%s,%s,%.3f,%.3f,%.3f\n",
						sites_of(argv[optind + t]), modes[m], fname[j],
						s.med, s.min, s.max);
			}
			printf("\n");
		}
	}
	if (csv)
		fclose(f);
	return 0;
}
