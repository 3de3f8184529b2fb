// SPDX-License-Identifier: GPL-2.0
/* The harness of the benchmarks (see bench.h): option parsing, the child
 * processes, samples and statistics, Markdown and CSV output; and the list
 * of benchmarks.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include "bench.h"

extern const struct bench bench_lookup, bench_kprobe, bench_uprobe, bench_kprobe_multi,
	bench_fentry, bench_lock, bench_timer, bench_usdt, bench_fetch, bench_scale,
	bench_probes, bench_kmulti_attach;

static const struct bench *const benchs[] = {
	&bench_lookup,	/* group 1: per access */
	&bench_kprobe,	/* group 1: per hit */
	&bench_uprobe,
	&bench_kprobe_multi,
	&bench_fentry,
	&bench_lock,	/* group 1: per hit, under a lock */
	&bench_timer,	/* group 1: per hit, re-arming a timer */
	&bench_usdt,	/* group 2 */
	&bench_fetch,
	&bench_scale,	/* group 3 */
	&bench_probes,	/* group 3 */
	&bench_kmulti_attach,	/* group 3 */
};

struct env env = { .label = "", .unit = "ns" };
static const struct bench *bench;
static int child_variant = -1, child_item;
static char **saved_argv;
static FILE *csv_file;

int bench_progs_named(const char *name, struct bpf_prog_info *infos, int max)
{
	struct bpf_prog_info info;
	__u32 id = 0, len;
	int fd, n = 0;

	while (!bpf_prog_get_next_id(id, &id)) {
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_prog_get_info_by_fd(fd, &info, &len) && !strcmp(info.name, name)) {
			if (n < max)
				infos[n] = info;
			n++;
		}
		close(fd);
	}
	return n;
}

void bench_die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bench %s: ", env.name ? env.name : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

/* Samples and statistics */

static struct series {
	double *v;
	int n, cap;
} series[BENCH_ROWS][BENCH_COLS];

static struct series *series_of(int row, int col)
{
	if (row < 0 || row >= BENCH_ROWS || col < 0 || col >= BENCH_COLS)
		bench_die("sample (%d, %d) out of range", row, col);
	return &series[row][col];
}

void bench_sample(int row, int col, double x)
{
	struct series *s = series_of(row, col);

	if (child_variant >= 0) {	/* to the parent (stdout is its file) */
		printf("%d,%d,%.3f\n", row, col, x);
		return;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			bench_die("out of memory");
	}
	s->v[s->n++] = x;
}

int bench_count(int row, int col)
{
	return series_of(row, col)->n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct bench_stat bench_stat(int row, int col)
{
	struct series *s = series_of(row, col);
	struct bench_stat st = { .n = s->n };

	if (s->n < 1)
		return st;
	qsort(s->v, s->n, sizeof(*s->v), cmp_double);
	st.med = s->v[(s->n - 1) / 2];
	st.min = s->v[0];
	st.max = s->v[s->n - 1];
	st.iqr = s->v[(3 * s->n) / 4] - s->v[s->n / 4];
	return st;
}

/* Output */

void bench_heading(const char *title)
{
	printf("\n### %s %s\n\n", title, env.label);
}

void bench_md_head(const char *col, ...)
{
	char align[256] = "|";
	const char *c;
	va_list ap;

	printf("|");
	va_start(ap, col);
	for (c = col; c; c = va_arg(ap, const char *)) {
		bool left = *c == '<';

		printf(" %s |", c + left);
		strncat(align, left ? "---|" : "---:|", sizeof(align) - strlen(align) - 1);
	}
	va_end(ap);
	printf("\n%s\n", align);
}

void bench_csv(const char *fmt, ...)
{
	va_list ap;

	if (!env.csv)
		return;
	if (!csv_file) {
		csv_file = fopen(env.csv, "w");
		if (!csv_file)
			bench_die("%s: %s", env.csv, strerror(errno));
	}
	va_start(ap, fmt);
	vfprintf(csv_file, fmt, ap);
	va_end(ap);
}

static bool hit_measured(const struct bench_hit_table *t, int v)
{
	return !t->measured || t->measured(v);
}

void bench_hit_table(const struct bench_hit_table *t)
{
	int i, v, noprobe = t->nvar - 1;
	bool rate = t->rate && env.wall;
	struct bench_stat st[BENCH_ROWS];
	double ad, net;

	for (v = 0; v < t->nvar; v++)
		st[v] = bench_stat(v, 0);
	ad = hit_measured(t, t->ad) ? st[t->ad].med - st[t->empty].med : 0;

	bench_heading(t->title);
	printf("%d rounds x %d %s, variants interleaved, one attached at a time;\n"
	       "%s per call (median, min, max); net = minus the empty program's median\n\n",
	       env.rounds, env.calls, t->calls, env.unit);
	bench_md_head("<variant", "median", "min", "max", "net", "net / attach data",
		      rate ? "calls/s (median)" : NULL, NULL);
	for (i = 0; i < t->nvar; i++) {
		char nets[32] = "", ratio[32] = "", rates[32] = "";

		v = (i + t->nvar - 1) % t->nvar;	/* "no probe" first */
		if (!hit_measured(t, v)) {
			printf("| %s | not in this kernel | | | | |%s\n", t->name(v),
			       rate ? " |" : "");
			continue;
		}
		net = st[v].med - st[t->empty].med;
		if (v != noprobe && v != t->empty)
			snprintf(nets, sizeof(nets), "%.1f", net);
		if (v != noprobe && v != t->empty && ad > 0)
			snprintf(ratio, sizeof(ratio), "%.2f", net / ad);
		if (rate)	/* trigger throughput */
			snprintf(rates, sizeof(rates), " %.0f |", 1e9 / st[v].med);
		printf("| %s | %.1f | %.1f | %.1f | %s | %s |%s\n", t->name(v), st[v].med,
		       st[v].min, st[v].max, nets, ratio, rates);
	}
	/* A clock whose rounds spread wider than the costs cannot rank them:
	 * the empty program's interquartile range.
	 */
	if (st[t->empty].iqr > ad)
		printf("\nNot resolved: the middle half of the empty program's rounds spreads\n"
		       "over %.1f %s, more than attach data's net cost; only the larger\n"
		       "differences mean anything.\n", st[t->empty].iqr, env.unit);

	bench_csv("%svariant,unit,median,min,max,net,net_ratio_to_attach_data\n",
		  t->csv_key ? "trigger," : "");
	for (v = 0; v < t->nvar; v++) {
		if (!hit_measured(t, v))
			continue;
		net = st[v].med - st[t->empty].med;
		bench_csv("%s%s%s,%s,%.2f,%.2f,%.2f,%.2f,%.3f\n", t->csv_key ?: "",
			  t->csv_key ? "," : "", t->name(v), env.unit, st[v].med, st[v].min,
			  st[v].max, v == noprobe ? 0 : net,
			  v != noprobe && v != t->empty && ad > 0 ? net / ad : 0);
	}
}

/* Child processes: each (repetition, item, variant) in a process of its own,
 * variants in a rotating order; a child runs this binary again as
 * "bench NAME -m VARIANT,ITEM OPTIONS...", its stdout appended to a file the
 * parent reads its samples back from.
 */
static void run_children(void)
{
	int nitems = bench->item_per_arg ? env.nargs : 1;
	char raw_path[] = "/tmp/bench.XXXXXX";
	int argc, p, t, j, v, row, col;
	char **argv, vt[32];
	FILE *raw;
	double x;

	for (argc = 0; saved_argv[argc]; argc++)
		;
	argv = calloc(argc + 3, sizeof(*argv));
	if (!argv)
		bench_die("out of memory");
	argv[0] = saved_argv[0];
	argv[1] = saved_argv[1];
	argv[2] = "-m";
	argv[3] = vt;
	memcpy(argv + 4, saved_argv + 2, (argc - 2) * sizeof(*argv));

	raw = fdopen(mkstemp(raw_path), "w+");
	if (!raw)
		bench_die("%s: %s", raw_path, strerror(errno));
	unlink(raw_path);
	for (p = 0; p < env.reps; p++) {
		for (t = 0; t < nitems; t++) {
			for (j = 0; j < bench->nvariants; j++) {
				pid_t pid;
				int status;

				v = bench_rotate(j, p, bench->nvariants);
				snprintf(vt, sizeof(vt), "%d,%d", v, t);
				fprintf(stderr, "bench %s: %s%s%s (%d/%d)\n", env.name,
					bench->item_per_arg ? env.args[t] : "",
					bench->item_per_arg ? ", " : "", bench->variants[v],
					p + 1, env.reps);
				fflush(raw);
				fflush(stdout);
				pid = fork();
				if (pid == 0) {
					dup2(fileno(raw), 1);
					execv("/proc/self/exe", argv);
					_exit(127);
				}
				if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
				    WEXITSTATUS(status))
					bench_die("the %s run failed", bench->variants[v]);
			}
		}
	}
	rewind(raw);
	while (fscanf(raw, "%d,%d,%lf\n", &row, &col, &x) == 3)
		bench_sample(row, col, x);
	if (!feof(raw))
		bench_die("bad sample line from a child");
	fclose(raw);
	free(argv);
}

/* Options */

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: bench NAME [options]%s%s\n\n", bench && bench->args_doc ? " " : "",
		bench && bench->args_doc ? bench->args_doc : "");
	fprintf(f, "  -n CALLS   calls (lookup: kprobe firings) per round\n"
		   "  -r ROUNDS  rounds per process\n"
		   "  -p REPS    repetitions (a process per variant each)\n"
		   "  -o CSV     write the results as CSV\n"
		   "  -l LABEL   the table heading's tail (which clock)\n"
		   "  -u UNIT    what the clock counts (default ns; \"guest instructions\"\n"
		   "             under QEMU -icount shift=0)\n"
		   "  -A         the kernel has no attach data (the series' base):\n"
		   "             leave the attach data variant out\n"
		   "  --list     the benchmarks and the options each takes\n\n");
	for (i = 0; i < sizeof(benchs) / sizeof(benchs[0]); i++)
		fprintf(f, "  %-7s -%-6s %s%s%s\n", benchs[i]->name, benchs[i]->opts,
			benchs[i]->doc, benchs[i]->args_doc ? "; args: " : "",
			benchs[i]->args_doc ? benchs[i]->args_doc : "");
}

static int number(const char *s, char opt)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || *end || end == s || n < 1 || n > 1000000000)
		bench_die("bad -%c %s", opt, s);
	return n;
}

static void parse(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "list", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	int opt;

	env.calls = bench->calls;
	env.rounds = bench->rounds;
	env.reps = bench->reps;
	/* argv[0] is NAME: the options follow it. */
	while ((opt = getopt_long(argc, argv, "n:r:p:o:l:u:m:Ah", longopts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			exit(0);
		}
		if (opt != 'm' && (opt == '?' || opt == 'L' || !strchr(bench->opts, opt)))
			bench_die("takes -%s and %s (bench --help)", bench->opts,
				  bench->args_doc ? bench->args_doc : "no arguments");
		switch (opt) {
		case 'n': env.calls = number(optarg, opt); break;
		case 'r': env.rounds = number(optarg, opt); break;
		case 'p': env.reps = number(optarg, opt); break;
		case 'o': env.csv = optarg; break;
		case 'l': env.label = optarg; break;
		case 'u': env.unit = optarg; break;
		case 'A': env.no_attach_data = true; break;
		case 'm':	/* internal: one child */
			if (sscanf(optarg, "%d,%d", &child_variant, &child_item) != 2 ||
			    !bench->child || child_variant < 0 || child_variant >= bench->nvariants)
				bench_die("bad -m %s", optarg);
			break;
		}
	}
	env.wall = !strcmp(env.unit, "ns");
	env.nargs = argc - optind;
	env.args = argv + optind;
	if (bench->max_calls && env.calls > bench->max_calls)
		bench_die("-n: at most %d", bench->max_calls);
	if (bench->max_rounds && env.rounds > bench->max_rounds)
		bench_die("-r: at most %d", bench->max_rounds);
	if (bench->max_reps && env.reps > bench->max_reps)
		bench_die("-p: at most %d", bench->max_reps);
	if (env.nargs < bench->min_args || env.nargs > bench->max_args)
		bench_die("takes %d to %d arguments%s%s", bench->min_args, bench->max_args,
			  bench->args_doc ? ": " : "", bench->args_doc ? bench->args_doc : "");
	if (child_variant >= 0 && child_item >= (bench->item_per_arg ? env.nargs : 1))
		bench_die("bad -m item %d", child_item);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "--list") || !strcmp(argv[1], "-l") ||
	    !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2;
	}
	for (i = 0; i < sizeof(benchs) / sizeof(benchs[0]); i++)
		if (!strcmp(benchs[i]->name, argv[1]))
			bench = benchs[i];
	env.name = argv[1];
	if (!bench)
		bench_die("no such benchmark (bench --list)");
	saved_argv = argv;
	parse(argc - 1, argv + 1);
	if (bench->validate)
		bench->validate();

	if (child_variant >= 0) {
		bench->child(child_variant, child_item);
		return fflush(stdout) ? 1 : 0;
	}
	if (bench->setup)
		bench->setup();
	if (bench->measure)
		bench->measure();
	else
		run_children();
	bench->report();
	if (csv_file && fclose(csv_file))
		bench_die("%s: %s", env.csv, strerror(errno));
	return fflush(stdout) ? 1 : 0;
}
