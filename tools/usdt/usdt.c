// SPDX-License-Identifier: GPL-2.0
/* usdt: list and trace the USDT probes of a binary, on libbpf's
 * libbpf_usdt_probes_foreach() and bpf_program__attach_usdt_multi().  See
 * usage() for what it does; usdt.bpf.c is its BPF side.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "usdt.h"
#include "usdt_probes.h"
#include "usdt.skel.h"
#include "usdt_noad.skel.h"

static const char usage_text[] =
"NAME\n"
"    usdt - list and trace the USDT probes of a program or library\n"
"\n"
"SYNOPSIS\n"
"    usdt -l [-v] BINARY...\n"
"    usdt -l -p PID\n"
"    usdt [OPTIONS] BINARY PROBE... [-- COMMAND [ARG]...]\n"
"    usdt [OPTIONS] -p PID [BINARY] PROBE...\n"
"\n"
"DESCRIPTION\n"
"    With -l, prints every USDT site of each BINARY (or of the executable and\n"
"    the mapped files of process PID): its probe as PROVIDER:NAME, address,\n"
"    semaphore and argument spec.\n"
"\n"
"    Otherwise traces the probes of BINARY that match the PROBE patterns,\n"
"    through one BPF link for all of them: each hit prints a line with the\n"
"    PID, TID, command, probe and decoded arguments (arg0, arg1, ...), or,\n"
"    with -c, is counted, and a table of hits per probe is printed at the\n"
"    end (and every SEC seconds with -i).  A PROBE is PROVIDER:NAME or NAME\n"
"    (any provider); either part may use the wildcards * ? [...], quoted\n"
"    from the shell.  Probes behind a semaphore are enabled while traced.\n"
"    Tracing stops on Ctrl-C, after -d SEC, or when COMMAND exits (COMMAND\n"
"    gets SIGTERM if tracing stops first).  Only COMMAND's own process is\n"
"    traced, not the processes it starts.\n"
"\n"
"    It says on standard error which mode libbpf uses: attach data (the\n"
"    argument specs are the link's attach data), cookie + ARRAY (a BPF\n"
"    cookie indexes a spec map), or IP + HASH (kernels without cookies).\n"
"\n"
"OPTIONS\n"
"    -l, --list            list probes instead of tracing\n"
"    -p, --pid PID         only process PID; with -l, list what PID maps\n"
"                          (through /proc/PID/root); BINARY defaults to\n"
"                          /proc/PID/exe\n"
"    -c, --count           count hits per probe instead of printing them\n"
"    -i, --interval SEC    with -c, print (and reset) the table every SEC s\n"
"    -s, --string N[,N]... print argument N (from 0) as a C string (its\n"
"                          value and \"(unreadable)\" if its page is not in)\n"
"    -d, --duration SEC    stop after SEC seconds\n"
"    -m, --mode MODE       auto (the default: attach data where the kernel\n"
"                          has it) or cookie (never attach data)\n"
"        --link-per-probe  one link per probe instead of one for all\n"
"    -v, --verbose         libbpf's messages; with -l, nothing else changes\n"
"    -h, --help            this text\n"
"    -- COMMAND [ARG]...   run COMMAND and trace it (its PID) until it exits\n"
"\n"
"EXAMPLES\n"
"    usdt -l /usr/lib/postgresql/15/bin/postgres\n"
"    usdt -c /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so 'hotspot:*' \\\n"
"        -- java -version\n"
"    usdt /usr/lib/x86_64-linux-gnu/libc.so.6 'libc:memory_*' -p 1234\n"
"    usdt -p 1234 'postgresql:query__start' -s 0\n"
"\n"
"EXIT STATUS\n"
"    0 on success; COMMAND's exit status if it failed (128 + the signal if\n"
"    one ended it); 1 on bad input or a failed attach, with a message; 2 on\n"
"    bad usage.\n";

static struct {
	bool list, count, verbose, link_per_probe, cookie_mode;
	int interval, duration;
	pid_t pid;
	__u32 str_mask;
} env = { .pid = -1 };

static struct usdt_probes probes;	/* the binary's */
static struct usdt_probe **traced;	/* the ones traced, by index in the BPF program */
static int traced_cnt;
static volatile sig_atomic_t exiting;
static unsigned long long bad_probe;	/* events whose index is past the table */

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "usdt: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void usage_error(const char *msg)
{
	fprintf(stderr, "usdt: %s\nTry 'usdt --help'.\n", msg);
	exit(2);
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level != LIBBPF_WARN && !env.verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static int parse_uint(const char *s, const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 0 || v > INT_MAX) {
		fprintf(stderr, "usdt: invalid %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

static void parse_str_args(const char *s)
{
	char *copy = strdup(s), *tok, *save = NULL;
	int n;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		n = parse_uint(tok, "argument number");
		if (n >= USDT_MAX_ARGS)
			usage_error("-s: argument numbers go from 0 to 11");
		env.str_mask |= 1U << n;
	}
	free(copy);
}

/* -l: one line per site */
static int print_site(const struct bpf_usdt_probe_info *p, void *ctx)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s:%s", p->provider, p->name);
	printf("%-40s 0x%-14llx 0x%-14llx %s\n", buf, (unsigned long long)p->addr,
	       (unsigned long long)p->sema_addr, p->args);
	return 0;
}

static int no_site(const struct bpf_usdt_probe_info *p, void *ctx)
{
	return 0;
}

/* List @path's sites; @quiet: say nothing of a file without notes. */
static int list_binary(const char *path, bool quiet)
{
	int err;

	err = libbpf_usdt_probes_foreach(path, no_site, NULL);
	if (err) {
		if (!quiet)
			fprintf(stderr, "usdt: %s: cannot read USDT notes: %s\n", path,
				strerror(-err));
		return -1;
	}
	printf("%s\n%-40s %-16s %-16s %s\n", path, "PROBE", "ADDRESS", "SEMAPHORE", "ARGS");
	libbpf_usdt_probes_foreach(path, print_site, NULL);
	return 0;
}

/* -l -p PID: each file the process maps executable, the program first */
static int list_pid(pid_t pid)
{
	char path[PATH_MAX + 1], maps[64], line[PATH_MAX + 128], perms[8];
	char **seen = NULL;
	int n = 0, i, found = 0;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", pid);
	f = fopen(maps, "r");
	if (!f)
		die("no process with PID %d (%s)", pid, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %7s %*s %*s %*s %4096[^\n]", perms, path) != 2)
			continue;
		if (perms[2] != 'x' || path[0] != '/')
			continue;
		for (i = 0; i < n && strcmp(seen[i], path); i++)
			;
		if (i < n)
			continue;
		seen = realloc(seen, (n + 1) * sizeof(*seen));
		if (!seen || !(seen[n++] = strdup(path)))
			die("out of memory");
	}
	fclose(f);
	for (i = 0; i < n; i++) {
		/* the process's view of the path: it may be in a container */
		snprintf(line, sizeof(line), "/proc/%d/root%s", pid, seen[i]);
		if (list_binary(line, true) == 0)
			found++;
		free(seen[i]);
	}
	free(seen);
	if (!found) {
		fprintf(stderr, "usdt: no file that PID %d maps has USDT probes\n", pid);
		return -1;
	}
	return 0;
}

static bool probe_matches(const struct usdt_probe *p, const char *pat)
{
	const char *colon = strchr(pat, ':');
	char prov[256];

	if (!colon)
		return fnmatch(pat, p->name, 0) == 0;
	snprintf(prov, sizeof(prov), "%.*s", (int)(colon - pat), pat);
	return fnmatch(prov, p->provider, 0) == 0 && fnmatch(colon + 1, p->name, 0) == 0;
}

/* The probes of @path that @pats match, in note order, into traced[]. */
static void select_probes(const char *path, char **pats, int pat_cnt)
{
	bool *used = calloc(pat_cnt, sizeof(*used));
	int i, j, err;
	bool hit;

	err = usdt_probes_read(path, &probes);
	if (err)
		die("%s: cannot read USDT notes: %s", path, strerror(-err));
	traced = calloc(probes.cnt, sizeof(*traced));
	if (!used || !traced)
		die("out of memory");
	for (i = 0; i < probes.cnt; i++) {
		hit = false;
		for (j = 0; j < pat_cnt; j++) {
			if (probe_matches(&probes.v[i], pats[j]))
				hit = used[j] = true;
		}
		if (hit)
			traced[traced_cnt++] = &probes.v[i];
	}
	for (j = 0; j < pat_cnt; j++) {
		if (!used[j])
			die("no probe of %s matches '%s' (usdt -l %s lists them)", path, pats[j],
			    path);
	}
	free(used);
}

/* What the program loaded and attached with: libbpf's USDT mode. */
static const char *usdt_mode(const struct bpf_program *prog)
{
	if (bpf_program__attach_data_type(prog))
		return "attach data";
	if (libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, BPF_FUNC_get_attach_cookie, NULL) > 0)
		return "cookie + ARRAY";
	return "IP + HASH";
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct usdt_event *e = data;
	const struct usdt_probe *p;
	int i;

	if (e->probe >= traced_cnt) {
		bad_probe++;
		return 0;
	}
	p = traced[e->probe];
	printf("%-7u %-7u %-15.16s %s:%s", e->pid, e->tid, e->comm, p->provider, p->name);
	for (i = 0; i < e->arg_cnt && i < USDT_MAX_ARGS; i++) {
		if (!(env.str_mask & (1U << i)))
			printf(" arg%d=%lld", i, (long long)e->args[i]);
		else if (e->str_bad & (1U << i))
			printf(" arg%d=0x%llx(unreadable)", i, (unsigned long long)e->args[i]);
		else
			printf(" arg%d=\"%.*s\"", i, USDT_STR_LEN, e->strs[i]);
	}
	if (e->arg_err)
		printf(" (error %d reading arguments)", e->arg_err);
	putchar('\n');
	return 0;
}

struct count {
	__u64 hits;
	int probe;
};

static int cmp_count(const void *a, const void *b)
{
	const struct count *x = a, *y = b;

	if (x->hits != y->hits)
		return x->hits < y->hits ? 1 : -1;
	return x->probe - y->probe;
}

/* Print the hits per probe since the last table: the counters are never
 * reset, which would lose the hits between a read and the reset.
 */
static void print_counts(int map_fd)
{
	struct count *c = calloc(traced_cnt, sizeof(*c));
	static __u64 *last;
	__u64 total = 0, now;
	__u32 i;

	if (!last)
		last = calloc(traced_cnt, sizeof(*last));
	if (!c || !last)
		die("out of memory");
	for (i = 0; i < traced_cnt; i++) {
		now = 0;
		bpf_map_lookup_elem(map_fd, &i, &now);
		c[i].probe = i;
		c[i].hits = now - last[i];
		last[i] = now;
		total += c[i].hits;
	}
	qsort(c, traced_cnt, sizeof(*c), cmp_count);
	printf("%12s  %s\n", "HITS", "PROBE");
	for (i = 0; i < traced_cnt && c[i].hits; i++)
		printf("%12llu  %s:%s\n", (unsigned long long)c[i].hits,
		       traced[c[i].probe]->provider, traced[c[i].probe]->name);
	printf("%12llu  total, %u of %d probes hit\n", (unsigned long long)total, i, traced_cnt);
	fflush(stdout);
	free(c);
}

static void on_signal(int sig)
{
	exiting = sig;
}

/* Fork COMMAND, stopped until go_child(): attached before it runs. */
static pid_t start_child(char **argv, int *go_fd)
{
	int fds[2];
	pid_t pid;
	char c;

	if (pipe(fds))
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			_exit(127);
		close(fds[0]);
		execvp(argv[0], argv);
		fprintf(stderr, "usdt: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[0]);
	*go_fd = fds[1];
	return pid;
}

/* The program and globals of whichever skeleton was opened. */
struct tool_skel {
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *events, *counts;
	const volatile bool *count_only, *link_per_probe;
	const volatile __u32 *str_mask;
	__u64 *lost, *unknown;
};

static void open_skel(struct tool_skel *t, void **skel)
{
	if (env.cookie_mode) {
		struct usdt_noad *s = usdt_noad__open();

		if (!s)
			die("cannot open the BPF object: %s", strerror(errno));
		*skel = s;
		*t = (struct tool_skel){ s->obj, s->progs.usdt_hit, s->maps.events, s->maps.counts,
					 &s->rodata->count_only, &s->rodata->link_per_probe,
					 &s->rodata->str_mask, &s->bss->lost, &s->bss->unknown };
	} else {
		struct usdt *s = usdt__open();

		if (!s)
			die("cannot open the BPF object: %s", strerror(errno));
		*skel = s;
		*t = (struct tool_skel){ s->obj, s->progs.usdt_hit, s->maps.events, s->maps.counts,
					 &s->rodata->count_only, &s->rodata->link_per_probe,
					 &s->rodata->str_mask, &s->bss->lost, &s->bss->unknown };
	}
}

static int trace(const char *path, char **pats, int pat_cnt, char **cmd)
{
	struct bpf_link **links = NULL, *link = NULL;
	struct ring_buffer *rb = NULL;
	int i, link_cnt = 0, go_fd = -1, status = 0, ret = 0, sites = 0;
	struct sigaction sa = { .sa_handler = on_signal };
	struct tool_skel t;
	double start, next_tick, t0;
	const char **names;
	char **bufs;
	void *skel;
	pid_t child = 0;

	select_probes(path, pats, pat_cnt);
	for (i = 0; i < traced_cnt; i++)
		sites += traced[i]->sites;

	open_skel(&t, &skel);
	*(volatile bool *)t.count_only = env.count;
	*(volatile bool *)t.link_per_probe = env.link_per_probe;
	*(volatile __u32 *)t.str_mask = env.str_mask;
	bpf_map__set_max_entries(t.counts, traced_cnt);
	if (bpf_object__load(t.obj))
		die("cannot load the BPF program: %s", strerror(errno));

	if (cmd) {
		child = start_child(cmd, &go_fd);
		env.pid = child;
	}

	names = calloc(traced_cnt, sizeof(*names));
	bufs = calloc(traced_cnt, sizeof(*bufs));
	if (!names || !bufs)
		die("out of memory");
	for (i = 0; i < traced_cnt; i++) {
		if (asprintf(&bufs[i], "%s:%s", traced[i]->provider, traced[i]->name) < 0)
			die("out of memory");
		names[i] = bufs[i];
	}

	/* before the "attached" line, on which a user may press Ctrl-C */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	t0 = now();
	if (env.link_per_probe) {
		links = calloc(traced_cnt, sizeof(*links));
		if (!links)
			die("out of memory");
		for (i = 0; i < traced_cnt; i++) {
			/* the probe's index + 1: usdt.bpf.c takes 0 for no spec */
			LIBBPF_OPTS(bpf_usdt_opts, opts, .usdt_cookie = i + 1);

			links[i] = bpf_program__attach_usdt(t.prog, env.pid, path,
							    traced[i]->provider, traced[i]->name,
							    &opts);
			if (!links[i]) {
				ret = -errno;
				break;
			}
			link_cnt++;
		}
	} else {
		LIBBPF_OPTS(bpf_usdt_multi_opts, opts, .probes = names, .cnt = traced_cnt);

		link = bpf_program__attach_usdt_multi(t.prog, env.pid, path, &opts);
		if (!link)
			ret = -errno;
		else
			link_cnt = 1;
	}
	if (ret) {
		if (child)
			kill(child, SIGKILL);
		die("cannot attach to %s: %s", path, strerror(-ret));
	}
	fprintf(stderr, "usdt: %d probes (%d sites) of %s, %s mode, %d link%s, attached in %.3f s",
		traced_cnt, sites, path, usdt_mode(t.prog), link_cnt, link_cnt == 1 ? "" : "s",
		now() - t0);
	if (cmd)
		fprintf(stderr, "; %s is PID %d\n", cmd[0], child);
	else
		fprintf(stderr, "; Ctrl-C to stop\n");

	if (!env.count) {
		rb = ring_buffer__new(bpf_map__fd(t.events), handle_event, NULL, NULL);
		if (!rb)
			die("cannot set up the ring buffer: %s", strerror(errno));
	}

	if (child) {
		if (write(go_fd, "x", 1) != 1)
			die("cannot start %s", cmd[0]);
		close(go_fd);
	}

	start = now();
	next_tick = start + env.interval;
	while (!exiting) {
		if (rb)
			ring_buffer__poll(rb, 100);
		else
			usleep(100000);
		if (env.duration && now() - start >= env.duration)
			break;
		if (child && waitpid(child, &status, WNOHANG) == child) {
			child = 0;
			break;
		}
		if (env.count && env.interval && now() >= next_tick) {
			print_counts(bpf_map__fd(t.counts));
			next_tick += env.interval;
		}
	}
	if (rb)
		ring_buffer__consume(rb);
	fflush(stdout);
	/* stopped first: COMMAND is stopped too, and its status reported */
	if (child) {
		kill(child, SIGTERM);
		if (waitpid(child, &status, 0) != child)
			status = 0;
	}

	t0 = now();
	bpf_link__destroy(link);
	for (i = 0; i < link_cnt && links; i++)
		bpf_link__destroy(links[i]);
	if (env.verbose)
		fprintf(stderr, "usdt: detached in %.3f s\n", now() - t0);
	if (env.count)
		print_counts(bpf_map__fd(t.counts));
	if (*t.lost)
		fprintf(stderr, "usdt: %llu hits lost (ring buffer full)\n",
			(unsigned long long)*t.lost);
	if (*t.unknown)
		fprintf(stderr, "usdt: %llu hits of an unknown probe\n",
			(unsigned long long)*t.unknown);
	if (bad_probe)
		fprintf(stderr, "usdt: %llu events of an out-of-range probe\n", bad_probe);

	if (cmd) {
		if (WIFEXITED(status) && WEXITSTATUS(status)) {
			fprintf(stderr, "usdt: %s exited with %d\n", cmd[0], WEXITSTATUS(status));
			ret = WEXITSTATUS(status);
		} else if (WIFSIGNALED(status)) {
			fprintf(stderr, "usdt: %s killed by signal %d\n", cmd[0], WTERMSIG(status));
			ret = 128 + WTERMSIG(status);
		}
	}

	ring_buffer__free(rb);
	free(links);
	for (i = 0; i < traced_cnt; i++)
		free(bufs[i]);
	free(bufs);
	free(names);
	if (env.cookie_mode)
		usdt_noad__destroy(skel);
	else
		usdt__destroy(skel);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "pid", required_argument, NULL, 'p' },
		{ "count", no_argument, NULL, 'c' },
		{ "interval", required_argument, NULL, 'i' },
		{ "string", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "mode", required_argument, NULL, 'm' },
		{ "link-per-probe", no_argument, NULL, 'P' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	char **cmd = NULL, *path;
	int opt, i, nargs, ret = 0;
	char pidexe[32];

	/* "--" ends the tool's arguments; what follows is the command */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			cmd = argv + i + 1;
			argv[i] = NULL;
			argc = i;
			break;
		}
	}

	while ((opt = getopt_long(argc, argv, "lp:ci:s:d:m:vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			env.list = true;
			break;
		case 'p':
			env.pid = parse_uint(optarg, "PID");
			if (env.pid == 0)
				usage_error("-p: PID 0 is no process");
			break;
		case 'c':
			env.count = true;
			break;
		case 'i':
			env.interval = parse_uint(optarg, "interval");
			break;
		case 's':
			parse_str_args(optarg);
			break;
		case 'd':
			env.duration = parse_uint(optarg, "duration");
			break;
		case 'm':
			if (!strcmp(optarg, "cookie"))
				env.cookie_mode = true;
			else if (strcmp(optarg, "auto"))
				usage_error("-m: MODE is auto or cookie");
			break;
		case 'P':
			env.link_per_probe = true;
			break;
		case 'v':
			env.verbose = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			usage_error("unknown option");
		}
	}
	nargs = argc - optind;
	libbpf_set_print(libbpf_print);

	if (cmd && !cmd[0])
		usage_error("-- needs a COMMAND");
	if (cmd && env.pid > 0)
		usage_error("-p and -- COMMAND exclude each other");
	if (env.interval && !env.count)
		usage_error("-i needs -c");
	if (env.pid > 0 && kill(env.pid, 0) && errno == ESRCH)
		die("no process with PID %d", env.pid);

	if (env.list) {
		if (cmd || env.count)
			usage_error("-l lists: no PROBE, -c or COMMAND");
		if (env.pid > 0 && !nargs)
			return list_pid(env.pid) ? 1 : 0;
		if (!nargs)
			usage_error("-l needs a BINARY or -p PID");
		for (i = optind; i < argc; i++)
			ret |= list_binary(argv[i], false);
		return ret ? 1 : 0;
	}

	/* with -p, BINARY may be left out: a first argument that names no
	 * file, or has a ':' and no '/', is a probe
	 */
	if (env.pid > 0 && nargs &&
	    (access(argv[optind], F_OK) ||
	     (strchr(argv[optind], ':') && !strchr(argv[optind], '/')))) {
		snprintf(pidexe, sizeof(pidexe), "/proc/%d/exe", env.pid);
		path = pidexe;
	} else {
		if (!nargs)
			usage_error("missing BINARY");
		path = argv[optind++];
		nargs--;
	}
	if (!nargs)
		usage_error("missing PROBE");
	if (access(path, R_OK))
		die("%s: %s", path, strerror(errno));
	/* hits as they come, also through a pipe */
	setvbuf(stdout, NULL, _IOLBF, 0);
	return trace(path, argv + optind, nargs, cmd);
}
