// SPDX-License-Identifier: GPL-2.0
/* USDT end to end (benchmark group 2): the cost per hit of a USDT probe with
 * 1, 3, 6 and 12 arguments whose program reads them all with bpf_usdt_arg(),
 * in libbpf's three modes:
 *
 *   attach data   specs as attach data (the series; progs/bench_usdt.bpf.c)
 *   cookie+ARRAY  spec id in the cookie, specs in an ARRAY map (stock libbpf;
 *                 the same program built with -DBPF_USDT_NO_ATTACH_DATA)
 *   IP+HASH       spec id from an IP-keyed HASH map (stock libbpf on kernels
 *                 without cookies: this program then fails libbpf's cookie
 *                 feature probe, see __wrap_bpf_prog_load())
 *
 * The mode is chosen when libbpf first probes the kernel, once per process,
 * so every (repetition, mode) runs in a child process of its own: modes are
 * interleaved in a rotating order, and each child times ROUNDS x CALLS calls
 * of every probe, interleaved by argument count.  The parent reports the
 * median, min and max per call over all rounds of all children.
 *
 *   bench_usdt [-p REPS] [-n CALLS] [-r ROUNDS] [-o CSV] [-l LABEL] [-u UNIT]
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/sdt.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "bench.h"
#include "bench_usdt.skel.h"
#include "bench_usdt_noad.skel.h"

#define MAX_REPS	16
#define MAX_ROUNDS	16
#define NMODE		3
#define NK		4

enum { M_AD, M_ARRAY, M_IP };
static const char *const modes[NMODE] = { "attach data", "cookie+ARRAY", "IP+HASH" };
static const char *const mode_arg[NMODE] = { "ad", "array", "ip" };
static const int nargs[NK] = { 1, 3, 6, 12 };

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

static void fire(int k, int n)
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

/* IP+HASH mode: libbpf uses its no-cookie fallback when the kernel appears
 * to lack bpf_get_attach_cookie().  libbpf.a is one relocatable object, so
 * its calls cannot be wrapped, but its system calls can (-Wl,--wrap=syscall):
 * fail exactly the cookie feature probe, a two-instruction program calling
 * the helper, and pass everything else through.  (x86-64: a variadic call
 * takes its arguments where a call with six longs does.)
 */
long __real_syscall(long nr, ...);
static int hide_cookies;

long __wrap_syscall(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	const union bpf_attr *attr = (const void *)a2;

	if (hide_cookies && nr == __NR_bpf && a1 == BPF_PROG_LOAD && attr->insn_cnt == 2) {
		const struct bpf_insn *insn = (const void *)(unsigned long)attr->insns;

		if (insn->code == (BPF_JMP | BPF_CALL) && insn->imm == BPF_FUNC_get_attach_cookie) {
			errno = EINVAL;
			return -1;
		}
	}
	return __real_syscall(nr, a1, a2, a3, a4, a5, a6);
}

static int map_is_empty(struct bpf_map *map)
{
	long key;

	return bpf_map__get_next_key(map, NULL, &key, sizeof(key)) == -ENOENT;
}

/* One child: load and attach in MODE, time the probes, print raw lines
 * "mode,args,ns_per_call" (and "none" for the loop without probes).
 */
static int child(int mode, int calls, int rounds, FILE *raw)
{
	struct bench_usdt_noad *noad = NULL;
	struct bench_usdt *ad = NULL;
	struct bpf_link *links[NK] = {};
	struct bpf_program *prog;
	struct bpf_map *ip_map;
	__u64 *hits, *sums, *errors;
	double bare[NK] = {};
	int r, i, k;

	/* The loop without probes, before anything is attached. */
	for (i = 0; i < NK; i++) {
		__u64 t0 = now_ns();

		fire(nargs[i], calls);
		bare[i] = (double)(now_ns() - t0) / calls;
	}

	hide_cookies = mode == M_IP;
	if (mode == M_AD) {
		ad = bench_usdt__open_and_load();
		if (!ad)
			bench_die("bench_usdt: load failed");
		prog = ad->progs.usdt_args;
		ip_map = ad->maps.__bpf_usdt_ip_to_spec_id;
		hits = ad->bss->hits, sums = ad->bss->sums, errors = &ad->bss->errors;
		if (!bpf_program__attach_data_type(prog))
			bench_die("bench_usdt: attach data mode, but libbpf did not choose it");
	} else {
		noad = bench_usdt_noad__open_and_load();
		if (!noad)
			bench_die("bench_usdt: load failed");
		prog = noad->progs.usdt_args;
		ip_map = noad->maps.__bpf_usdt_ip_to_spec_id;
		hits = noad->bss->hits, sums = noad->bss->sums, errors = &noad->bss->errors;
	}
	for (i = 0; i < NK; i++) {
		char name[16];

		snprintf(name, sizeof(name), "args%d", nargs[i]);
		links[i] = bpf_program__attach_usdt(prog, 0, "/proc/self/exe", "bench", name, NULL);
		if (!links[i])
			bench_die("bench_usdt: attach %s: %s", name, strerror(errno));
		fire(nargs[i], 1);	/* warm up */
	}
	if ((mode == M_IP) == map_is_empty(ip_map))
		bench_die("bench_usdt: %s mode, but the IP map is %sempty", modes[mode],
			  mode == M_IP ? "" : "not ");

	for (r = 0; r < rounds; r++) {
		for (i = 0; i < NK; i++) {
			int j = (i + r) % NK;
			__u64 t0 = now_ns();

			fire(nargs[j], calls);
			fprintf(raw, "%d,%d,%.3f,%.3f\n", mode, nargs[j],
				(double)(now_ns() - t0) / calls, bare[j]);
		}
	}

	/* Every hit ran the program, which read the right arguments. */
	for (i = 0; i < NK; i++) {
		__u64 want = (__u64)rounds * calls + 1;

		k = nargs[i];
		if (hits[k] != want || sums[k] != want * k * (k + 1) / 2 || *errors)
			bench_die("bench_usdt: %s, %d args: %llu hits (want %llu), sum %llu, %llu errors",
				  modes[mode], k, (unsigned long long)hits[k],
				  (unsigned long long)want, (unsigned long long)sums[k],
				  (unsigned long long)*errors);
	}
	for (i = 0; i < NK; i++)
		bpf_link__destroy(links[i]);
	bench_usdt__destroy(ad);
	bench_usdt_noad__destroy(noad);
	return 0;
}

int main(int argc, char **argv)
{
	const char *csv = NULL, *label = "", *unit = "ns";
	int reps = 5, calls = 2000, rounds = 3, run_mode = -1;
	static double v[NMODE][NK][MAX_REPS * MAX_ROUNDS], bare[NK][NMODE * MAX_REPS * MAX_ROUNDS];
	int nv[NMODE][NK] = {}, nbare[NK] = {};
	struct bench_stat st[NMODE][NK], sb[NK];
	int p, j, i, opt, mode, k;
	char raw_path[] = "/tmp/bench_usdt.XXXXXX";
	double per, b;
	FILE *raw, *f;

	while ((opt = getopt(argc, argv, "p:n:r:o:l:u:m:")) != -1) {
		if (opt == 'p')
			reps = atoi(optarg);
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
		else if (opt == 'm')	/* internal: run one child */
			run_mode = atoi(optarg);
		else
			bench_die("usage: see the head of %s", __FILE__);
	}
	if (reps < 1 || reps > MAX_REPS || rounds < 1 || rounds > MAX_ROUNDS || calls < 1)
		bench_die("bench_usdt: bad -p, -r or -n");
	if (run_mode >= 0)
		return child(run_mode, calls, rounds, stdout);

	raw = fdopen(mkstemp(raw_path), "w+");
	if (!raw)
		bench_die("bench_usdt: %s: %s", raw_path, strerror(errno));
	unlink(raw_path);
	for (p = 0; p < reps; p++) {
		for (j = 0; j < NMODE; j++) {
			char ms[8], ns[16], rs[8];
			pid_t pid;
			int status;

			mode = (j + p) % NMODE;
			snprintf(ms, sizeof(ms), "%d", mode);
			snprintf(ns, sizeof(ns), "%d", calls);
			snprintf(rs, sizeof(rs), "%d", rounds);
			fflush(raw);
			pid = fork();
			if (pid == 0) {
				dup2(fileno(raw), 1);
				execl("/proc/self/exe", argv[0], "-m", ms, "-n", ns, "-r", rs, NULL);
				_exit(127);
			}
			if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
			    WEXITSTATUS(status))
				bench_die("bench_usdt: the %s run failed", mode_arg[mode]);
		}
	}
	rewind(raw);
	while (fscanf(raw, "%d,%d,%lf,%lf\n", &mode, &k, &per, &b) == 4) {
		for (i = 0; i < NK && nargs[i] != k; i++)
			;
		if (mode < 0 || mode >= NMODE || i == NK)
			bench_die("bench_usdt: bad raw line");
		v[mode][i][nv[mode][i]++] = per;
		bare[i][nbare[i]++] = b;
	}
	for (i = 0; i < NK; i++) {
		for (mode = 0; mode < NMODE; mode++) {
			if (nv[mode][i] != reps * rounds)
				bench_die("bench_usdt: %d samples for %s, want %d", nv[mode][i],
					  modes[mode], reps * rounds);
			st[mode][i] = bench_stat(v[mode][i], nv[mode][i]);
		}
		sb[i] = bench_stat(bare[i], nbare[i]);
	}

	printf("\n### USDT end to end, cost per hit %s\n\n", label);
	printf("%d processes x %d rounds x %d calls per mode, modes interleaved; the program\n"
	       "reads every argument with bpf_usdt_arg(); %s per call, median (min-max);\n"
	       "net = minus the call without a probe; ratio = net / attach data's net\n\n",
	       reps, rounds, calls, unit);
	printf("| args | no probe | attach data | cookie+ARRAY | IP+HASH | ratio ARRAY | ratio HASH |\n");
	printf("|---:|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < NK; i++) {
		double ad = st[M_AD][i].med - sb[i].med;

		printf("| %d | %.1f |", nargs[i], sb[i].med);
		for (mode = 0; mode < NMODE; mode++)
			printf(" %.1f (%.1f-%.1f) |", st[mode][i].med, st[mode][i].min,
			       st[mode][i].max);
		printf(" %.2f | %.2f |\n", (st[M_ARRAY][i].med - sb[i].med) / ad,
		       (st[M_IP][i].med - sb[i].med) / ad);
	}
	if (!strcmp(unit, "ns")) {	/* trigger throughput */
		printf("\nThroughput, hits/s (median):\n\n");
		printf("| args | no probe | attach data | cookie+ARRAY | IP+HASH |\n");
		printf("|---:|---:|---:|---:|---:|\n");
		for (i = 0; i < NK; i++)
			printf("| %d | %.0f | %.0f | %.0f | %.0f |\n", nargs[i], 1e9 / sb[i].med,
			       1e9 / st[M_AD][i].med, 1e9 / st[M_ARRAY][i].med,
			       1e9 / st[M_IP][i].med);
	}
	/* A clock whose samples spread wider than the modes' difference
	 * cannot rank them: the interquartile range of attach data's samples
	 * (v[][] is sorted).
	 */
	for (i = 0; i < NK; i++) {
		int n = nv[M_AD][i];
		double iqr = v[M_AD][i][(3 * n) / 4] - v[M_AD][i][n / 4];
		double d = st[M_ARRAY][i].med - st[M_AD][i].med;

		if (iqr > (d < 0 ? -d : d)) {
			printf("\nNot resolved: the middle half of attach data's samples spreads wider\n"
			       "than its difference to cookie+ARRAY (%d args: %.1f against %.1f %s).\n",
			       nargs[i], iqr, d, unit);
			break;
		}
	}
	if (csv) {
		f = fopen(csv, "w");
		if (!f)
			bench_die("bench_usdt: %s: %s", csv, strerror(errno));
		fprintf(f, "args,mode,unit,median,min,max,no_probe,net,net_ratio_to_attach_data\n");
		for (i = 0; i < NK; i++) {
			double ad = st[M_AD][i].med - sb[i].med;

			for (mode = 0; mode < NMODE; mode++)
				fprintf(f, "%d,%s,%s,%.2f,%.2f,%.2f,%.2f,%.2f,%.3f\n", nargs[i],
					modes[mode], unit, st[mode][i].med, st[mode][i].min,
					st[mode][i].max, sb[i].med, st[mode][i].med - sb[i].med,
					(st[mode][i].med - sb[i].med) / ad);
		}
		fclose(f);
	}
	return 0;
}
