// SPDX-License-Identifier: GPL-2.0
/* usdt: list and trace the USDT probes of a binary, on libbpf's
 * libbpf_usdt_probes_foreach() and bpf_program__attach_usdt_multi().  See
 * usage() for what it does; usdt.bpf.c is its BPF side.
 */
#include <errno.h>
#include <fcntl.h>
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
#include <wordexp.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "usdt.h"
#include "usdt_probes.h"
#include "libbpf_usdt_mode.h"
#include "usdt.skel.h"
#include "usdt_noad.skel.h"
#include "version.h"

static const char usage_text[] =
"Usage: usdt -l [-v] BINARY [PROBE]...\n"
"       usdt -l -p PID [PROBE]...\n"
"       usdt [OPTIONS] BINARY PROBE... [-c CMD | -- COMMAND [ARG]...]\n"
"       usdt [OPTIONS] -p PID [BINARY] PROBE...\n"
"List or trace the USDT probes of a program or library (man usdt: the manual).\n"
"BINARY is a path, or a name: a file here, a program in $PATH, or a library\n"
"as ldconfig knows it (c, libc, libc.so.6).\n"
"\n"
"  -l, --list             list probes instead of tracing (those PROBE\n"
"                         patterns match, if any)\n"
"  -p, --pid PID          only process PID; with -l, list what PID maps\n"
"  -c, --cmd CMD          run CMD (words expanded as by the shell, without\n"
"                         command substitution) and trace it until it exits\n"
"  -C, --count            count hits per probe instead of printing them\n"
"  -H, --hist [PROBE=]N   log2 histogram of argument N per probe (for the\n"
"                         probes PROBE matches; repeatable)\n"
"  -i, --interval SEC     with -C or -H, print (and reset) every SEC seconds\n"
"  -s, --string N[,N]...  print argument N (from 0) as a C string\n"
"  -d, --duration SEC     stop after SEC seconds\n"
"  -t, --timestamp        print each hit's time, in seconds since the attach\n"
"  -o, --output FILE      print hits and tables to FILE, not standard output\n"
"  -b, --buffer-size SIZE the printed hits' ring buffer: bytes, or K, M, G;\n"
"                         rounded up to a power of 2; default 16M\n"
"  -m, --mode MODE        auto (attach data where the kernel has it) or cookie\n"
"      --link-per-probe   one link per probe instead of one for all\n"
"      --specialize       a copy of the program for each set of argument\n"
"                         locations, which reads them as compiled code would\n"
"  -v, --verbose          libbpf's messages\n"
"  -V, --version          the tool's and libbpf's versions\n"
"  -h, --help             this text\n"
"  -- COMMAND [ARG]...    run COMMAND and trace it until it exits\n"
"\n"
"Exit status: 0; 125 if usdt itself failed (bad usage or input, a failed\n"
"attach); else COMMAND's status if it failed: 126 if it cannot run, 127 if\n"
"it is not found, 128 + the signal that ended it.\n";

/* Exit statuses, as timeout(1)'s: the tool's own failures apart from a
 * COMMAND's statuses, which are passed on
 */
#define EXIT_TOOL	125	/* usdt failed: bad usage or input, a failed attach */
#define EXIT_CANNOT_RUN	126	/* COMMAND cannot be run */
#define EXIT_NOT_FOUND	127	/* COMMAND is not found */

/* -H [PROBE=]N: argument N for the probes PROBE matches (all, if NULL) */
struct hist_choice {
	const char *pat;
	int arg;
};

static struct {
	bool list, count, verbose, link_per_probe, cookie_mode, specialize, timestamp;
	int interval, duration;
	pid_t pid;
	__u32 str_mask;
	__u32 ring_size;
	bool ring_size_set;
	struct hist_choice *hist;
	int hist_cnt;
} env = { .pid = -1, .ring_size = 16 << 20 };

static struct usdt_probes probes;	/* the binary's */
static struct usdt_probe **traced;	/* the ones traced, by index in the BPF program */
static int *hist_arg;			/* -H's argument of each traced probe */
static int traced_cnt;
static volatile sig_atomic_t exiting;
static unsigned long long bad_event;	/* events with a probe past the table, or short */
static FILE *out;			/* hits and tables: stdout, or -o FILE */
static __u64 start_ns;			/* -t: CLOCK_MONOTONIC at the attach */

/* "s" for a count other than 1 */
static const char *plural(unsigned long long n)
{
	return n == 1 ? "" : "s";
}

static void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "usdt: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_TOOL);
}

static void usage_error(const char *msg)
{
	fprintf(stderr, "usdt: %s\nTry 'usdt --help'.\n", msg);
	exit(EXIT_TOOL);
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level != LIBBPF_WARN && !env.verbose)
		return 0;
	return vfprintf(stderr, fmt, args);
}

static int parse_uint(const char *s, const char *what)
{
	char msg[128];
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || *s == ' ' || v < 0 || v > INT_MAX) {
		snprintf(msg, sizeof(msg), "invalid %s '%s'", what, s);
		usage_error(msg);
	}
	return v;
}

static int parse_arg_num(const char *s, const char *opt)
{
	char msg[64];
	int n;

	snprintf(msg, sizeof(msg), "%s: argument number", opt);
	n = parse_uint(s, msg);
	if (n >= USDT_MAX_ARGS) {
		snprintf(msg, sizeof(msg), "%s: argument numbers go from 0 to %d", opt,
			 USDT_MAX_ARGS - 1);
		usage_error(msg);
	}
	return n;
}

static void parse_str_args(const char *s)
{
	char *copy = strdup(s), *tok, *save = NULL;
	int n = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save), n++)
		env.str_mask |= 1U << parse_arg_num(tok, "-s");
	free(copy);
	if (!n)
		usage_error("-s needs argument numbers: N[,N]...");
}

/* -H N or -H PROBE=N (the last '=' splits: a pattern has none) */
static void parse_hist(char *s)
{
	char *eq = strrchr(s, '=');
	struct hist_choice *h;

	env.hist = realloc(env.hist, (env.hist_cnt + 1) * sizeof(*env.hist));
	if (!env.hist)
		die("out of memory");
	h = &env.hist[env.hist_cnt++];
	h->pat = NULL;
	if (eq) {
		*eq = '\0';
		if (!*s)
			usage_error("-H: PROBE=N needs a PROBE");
		h->pat = s;
		s = eq + 1;
	}
	h->arg = parse_arg_num(s, "-H");
}

/* -b SIZE: bytes, or KiB/MiB/GiB with K/M/G; rounded up to a power of 2 */
static void parse_size(const char *s)
{
	unsigned long long v, shift = 0;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end == 'K' || *end == 'k')
		shift = 10, end++;
	else if (*end == 'M' || *end == 'm')
		shift = 20, end++;
	else if (*end == 'G' || *end == 'g')
		shift = 30, end++;
	if (errno || *end || end == s || *s == '-' || v == 0 || v > (1ULL << 30) >> shift)
		usage_error("-b: SIZE goes from 1 byte to 1G (K, M, G: KiB, MiB, GiB)");
	v <<= shift;
	env.ring_size_set = true;
	env.ring_size = 4096;
	while (env.ring_size < v)
		env.ring_size <<= 1;
}

/* -c CMD: its words, as the shell would split them, without running
 * anything (no command substitution)
 */
static char **split_cmd(const char *cmd)
{
	static wordexp_t we;

	if (wordexp(cmd, &we, WRDE_NOCMD) || !we.we_wordc)
		usage_error("-c: CMD must be a command and its arguments, as in a shell");
	return we.we_wordv;
}

/* A library that the dynamic linker's cache holds, by @name: the file
 * name itself (libc.so.6), or its start (libc, or c as in -lc); the
 * x86-64 one first.  In @buf, NULL if none.
 */
static const char *find_library(const char *name, char *buf, size_t len)
{
	char line[PATH_MAX + 256], soname[256], flags[128], path[PATH_MAX];
	int best = 0, rank;
	size_t n = strlen(name);
	FILE *f = popen("/sbin/ldconfig -p 2>/dev/null", "r");

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %255s (%127[^)]) => %4095s", soname, flags, path) != 3)
			continue;
		if (!strcmp(soname, name))
			rank = 6;
		else if (!strncmp(soname, "lib", 3) && !strncmp(soname + 3, name, n) &&
			 !strncmp(soname + 3 + n, ".so", 3))
			rank = 4;
		else if (!strncmp(soname, name, n) && !strncmp(soname + n, ".so", 3))
			rank = 2;
		else
			continue;
		rank += !!strstr(flags, "x86-64");
		if (rank > best) {
			best = rank;
			snprintf(buf, len, "%s", path);
		}
	}
	pclose(f);
	return best ? buf : NULL;
}

/* Does @path start as an ELF file does? */
static bool is_elf(const char *path)
{
	char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool elf;

	if (fd < 0)
		return false;
	elf = read(fd, magic, sizeof(magic)) == sizeof(magic) && !memcmp(magic, "\177ELF", 4);
	close(fd);
	return elf;
}

/* An ELF program in $PATH, in @buf; NULL if none.  As BCC's lookup, it
 * skips what is not ELF: a script, such as a pyenv shim, is not the
 * program whose probes the user means.
 */
static const char *find_program(const char *name, char *buf, size_t len)
{
	char *path = getenv("PATH"), *copy, *dir, *save = NULL;
	const char *found = NULL;

	if (!path)
		return NULL;
	copy = strdup(path);
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		snprintf(buf, len, "%s/%s", dir, name);
		if (!access(buf, X_OK) && is_elf(buf))
			found = buf;
	}
	free(copy);
	return found;
}

/* BINARY as named, in the order of BCC (tplist -l, trace): a file, a
 * program in $PATH, a library of the linker's cache; NULL if none.
 */
static const char *resolve_binary(const char *name)
{
	static char bufs[2][PATH_MAX];
	static int n;
	char *buf = bufs[n++ % 2];

	if (strchr(name, '/') || !access(name, F_OK))
		return name;
	if (find_program(name, buf, PATH_MAX) || find_library(name, buf, PATH_MAX))
		return buf;
	return NULL;
}

static const char *binary_or_die(const char *name)
{
	const char *path = resolve_binary(name);

	if (!path)
		die("%s: no such file, library (ldconfig -p) or program ($PATH)", name);
	if (!access(path, R_OK) && !is_elf(path))
		die("%s: not an ELF file", path);
	return path;
}

/* libbpf_usdt_probes_foreach()'s @err on @path, in words */
static const char *notes_error(const char *path, int err)
{
	static char buf[128];

	if (err == -ENOENT && !access(path, R_OK))
		return "has no USDT probes";
	snprintf(buf, sizeof(buf), "cannot read USDT notes: %s", strerror(-err));
	return buf;
}

static bool name_matches(const char *provider, const char *name, const char *pat)
{
	const char *colon = strchr(pat, ':');
	char prov[256];

	if (!colon)
		return fnmatch(pat, name, 0) == 0;
	snprintf(prov, sizeof(prov), "%.*s", (int)(colon - pat), pat);
	return fnmatch(prov, provider, 0) == 0 && fnmatch(colon + 1, name, 0) == 0;
}

static bool probe_matches(const struct usdt_probe *p, const char *pat)
{
	return name_matches(p->provider, p->name, pat);
}

/* -l of one file: the PROBE patterns, which of them matched, and whether
 * the file's heading is out
 */
struct list_ctx {
	const char *path;
	char **pats;
	int pat_cnt;
	bool *used;
	int shown;
};

/* -l: one line per site that a pattern matches (all without patterns),
 * after the file's heading
 */
static int print_site(const struct bpf_usdt_probe_info *p, void *ctx)
{
	struct list_ctx *l = ctx;
	bool hit = !l->pat_cnt;
	char buf[256];
	int i;

	for (i = 0; i < l->pat_cnt; i++) {
		if (name_matches(p->provider, p->name, l->pats[i])) {
			l->used[i] = true;
			hit = true;
		}
	}
	if (!hit)
		return 0;
	if (!l->shown++)
		fprintf(out, "%s\n%-40s %-16s %-16s %s\n", l->path, "PROBE", "ADDRESS",
			"SEMAPHORE", "ARGS");
	snprintf(buf, sizeof(buf), "%s:%s", p->provider, p->name);
	fprintf(out, "%-40s 0x%-14llx 0x%-14llx %s\n", buf, (unsigned long long)p->addr,
		(unsigned long long)p->sema_addr, p->args);
	return 0;
}

static int no_site(const struct bpf_usdt_probe_info *p, void *ctx)
{
	return 0;
}

/* List @path's sites that @pats match (@used: which did); @quiet: say
 * nothing of a file without notes.  The number of sites listed, or -1.
 */
static int list_binary(const char *path, bool quiet, char **pats, int pat_cnt, bool *used)
{
	struct list_ctx l = { path, pats, pat_cnt, used };
	int err;

	err = libbpf_usdt_probes_foreach(path, no_site, NULL);
	if (err) {
		if (!quiet)
			fprintf(stderr, "usdt: %s: %s\n", path, notes_error(path, err));
		return -1;
	}
	libbpf_usdt_probes_foreach(path, print_site, &l);
	return l.shown;
}

/* The files process @pid maps (executable ones only, with @exec), each
 * once, in the order of its maps: the program first.  *@n of them.
 */
static char **mapped_files(pid_t pid, bool exec, int *n)
{
	char path[PATH_MAX + 1], maps[64], line[PATH_MAX + 128], perms[8];
	char **files = NULL;
	int i;
	FILE *f;

	*n = 0;
	snprintf(maps, sizeof(maps), "/proc/%d/maps", pid);
	f = fopen(maps, "r");
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %7s %*s %*s %*s %4096[^\n]", perms, path) != 2)
			continue;
		if ((exec && perms[2] != 'x') || path[0] != '/')
			continue;
		for (i = 0; i < *n && strcmp(files[i], path); i++)
			;
		if (i < *n)
			continue;
		files = realloc(files, (*n + 1) * sizeof(*files));
		if (!files || !(files[*n] = strdup(path)))
			die("out of memory");
		(*n)++;
	}
	fclose(f);
	return files;
}

static void free_files(char **files, int n)
{
	while (n--)
		free(files[n]);
	free(files);
}

/* Does process @pid map the file at @path? */
static bool pid_maps(pid_t pid, const char *path)
{
	char real[PATH_MAX];
	bool found = false;
	char **files;
	int i, n;

	if (!realpath(path, real))
		return false;
	files = mapped_files(pid, false, &n);
	for (i = 0; i < n && !found; i++)
		found = !strcmp(files[i], real);
	free_files(files, n);
	return found;
}

/* Each PROBE pattern of -l matched some site, or the tool fails. */
static void check_list_patterns(const char *where, char **pats, int pat_cnt, const bool *used)
{
	int i;

	for (i = 0; i < pat_cnt; i++) {
		if (!used[i])
			die("no probe of %s matches '%s'", where, pats[i]);
	}
}

/* -l BINARY [PROBE]... */
static int list_path(const char *path, char **pats, int pat_cnt)
{
	bool *used = calloc(pat_cnt + 1, sizeof(*used));
	int shown;

	if (!used)
		die("out of memory");
	shown = list_binary(path, false, pats, pat_cnt, used);
	if (shown >= 0)
		check_list_patterns(path, pats, pat_cnt, used);
	free(used);
	return shown < 0 ? -1 : 0;
}

/* -l -p PID [PROBE]...: each file the process maps executable, the
 * program first
 */
static int list_pid(pid_t pid, char **pats, int pat_cnt)
{
	bool *used = calloc(pat_cnt + 1, sizeof(*used));
	char path[PATH_MAX + 64], where[64];
	int n, i, found = 0;
	char **files;

	files = mapped_files(pid, true, &n);
	if (!files && !n && kill(pid, 0))
		die("no process with PID %d (%s)", pid, strerror(errno));
	if (!used)
		die("out of memory");
	for (i = 0; i < n; i++) {
		/* the process's view of the path: it may be in a container */
		snprintf(path, sizeof(path), "/proc/%d/root%s", pid, files[i]);
		if (list_binary(path, true, pats, pat_cnt, used) >= 0)
			found++;
	}
	free_files(files, n);
	if (!found) {
		fprintf(stderr, "usdt: no file that PID %d maps has USDT probes\n", pid);
		return -1;
	}
	snprintf(where, sizeof(where), "a file that PID %d maps", pid);
	check_list_patterns(where, pats, pat_cnt, used);
	free(used);
	return 0;
}

/* The probes of @path that @pats match, in note order, into traced[]. */
static void select_probes(const char *path, char **pats, int pat_cnt)
{
	bool *used = calloc(pat_cnt, sizeof(*used));
	int i, j, err;
	bool hit;

	err = usdt_probes_read(path, &probes);
	if (err)
		die("%s: %s", path, notes_error(path, err));
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


/* The number of arguments of @p's spec: one per word. */
static int arg_count(const struct usdt_probe *p)
{
	const char *s = p->spec;
	int n = 0;

	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		n++;
		while (*s && *s != ' ')
			s++;
	}
	return n;
}

/* -H: each traced probe's argument, the last -H that matches it deciding */
static void choose_hist_args(void)
{
	bool *decided = calloc(env.hist_cnt, sizeof(*decided));
	const struct usdt_probe *p;
	int i, j, n, last;

	hist_arg = calloc(traced_cnt, sizeof(*hist_arg));
	if (!hist_arg || !decided)
		die("out of memory");
	for (i = 0; i < traced_cnt; i++) {
		p = traced[i];
		hist_arg[i] = -1;
		for (j = 0, last = -1; j < env.hist_cnt; j++) {
			if (!env.hist[j].pat || probe_matches(p, env.hist[j].pat))
				last = j;
		}
		if (last >= 0) {
			hist_arg[i] = env.hist[last].arg;
			decided[last] = true;
		}
		if (hist_arg[i] < 0)
			die("-H: no argument chosen for %s:%s (-H %s:%s=N, or -H N for all)",
			    p->provider, p->name, p->provider, p->name);
		n = arg_count(p);
		if (hist_arg[i] >= n)
			die("-H: %s:%s has %d argument%s, no arg%d", p->provider, p->name, n,
			    n == 1 ? "" : "s", hist_arg[i]);
	}
	for (j = 0; j < env.hist_cnt; j++) {
		if (!decided[j])
			die("-H %s%s%d decides no probe traced", env.hist[j].pat ?: "",
			    env.hist[j].pat ? "=" : "", env.hist[j].arg);
	}
	free(decided);
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
	int i, slot = 0, str_cnt = __builtin_popcount(env.str_mask);
	const struct usdt_probe *p;

	if (size < sizeof(*e) + str_cnt * USDT_STR_LEN || e->probe >= traced_cnt) {
		bad_event++;
		return 0;
	}
	p = traced[e->probe];
	if (env.timestamp)
		fprintf(out, "%-14.6f ", (e->ts - start_ns) / 1e9);
	fprintf(out, "%-7u %-7u %-15.16s %s:%s", e->pid, e->tid, e->comm, p->provider, p->name);
	for (i = 0; i < USDT_MAX_ARGS; i++) {
		bool str = env.str_mask & (1U << i);

		if (i >= e->arg_cnt)
			;
		else if (!str)
			fprintf(out, " arg%d=%lld", i, (long long)e->args[i]);
		else if (e->str_bad & (1U << i))
			fprintf(out, " arg%d=0x%llx(unreadable)", i,
				(unsigned long long)e->args[i]);
		else
			fprintf(out, " arg%d=\"%.*s\"", i, USDT_STR_LEN, e->strs[slot]);
		slot += str;
	}
	if (e->arg_err)
		fprintf(out, " (error %d reading arguments)", e->arg_err);
	fputc('\n', out);
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

/* The counters' growth since the last call, into @delta (@n of them):
 * they are never reset, which would lose the hits between a read and the
 * reset.
 */
static void read_deltas(int map_fd, __u64 *delta, __u32 n)
{
	static __u64 *last;
	__u64 v;
	__u32 i;

	if (!last)
		last = calloc(n, sizeof(*last));
	if (!last)
		die("out of memory");
	for (i = 0; i < n; i++) {
		v = 0;
		bpf_map_lookup_elem(map_fd, &i, &v);
		delta[i] = v - last[i];
		last[i] = v;
	}
}

/* -C: the hits per probe since the last table, most first */
static void print_counts(int map_fd)
{
	struct count *c = calloc(traced_cnt, sizeof(*c));
	__u64 *d = calloc(traced_cnt, sizeof(*d)), total = 0;
	int i;

	if (!c || !d)
		die("out of memory");
	read_deltas(map_fd, d, traced_cnt);
	for (i = 0; i < traced_cnt; i++) {
		c[i].probe = i;
		c[i].hits = d[i];
		total += d[i];
	}
	qsort(c, traced_cnt, sizeof(*c), cmp_count);
	fprintf(out, "%12s  %s\n", "HITS", "PROBE");
	for (i = 0; i < traced_cnt && c[i].hits; i++)
		fprintf(out, "%12llu  %s:%s\n", (unsigned long long)c[i].hits,
			traced[c[i].probe]->provider, traced[c[i].probe]->name);
	fprintf(out, "%12llu  total, %d of %d probe%s hit\n", (unsigned long long)total, i,
		traced_cnt, plural(traced_cnt));
	fflush(out);
	free(c);
	free(d);
}

/* 2^@p as bpftrace writes it: 1, 2, ... 512, 1K, 2K, ... 8E */
static void fmt_pow2(char *buf, size_t len, int p)
{
	snprintf(buf, len, "%llu%.1s", 1ULL << (p % 10), &"\0KMGTPE"[p / 10]);
}

/* The values of log2 slot @s: < 0, 0, 1, then [2^(s-2), 2^(s-1)) */
static void slot_label(char *buf, size_t len, int s)
{
	char lo[16], hi[16];

	if (s == 0) {
		snprintf(buf, len, "(..., 0)");
	} else if (s <= 2) {
		snprintf(buf, len, "[%d]", s - 1);
	} else {
		fmt_pow2(lo, sizeof(lo), s - 2);
		fmt_pow2(hi, sizeof(hi), s - 1);
		snprintf(buf, len, "[%s, %s)", lo, hi);
	}
}

static int cmp_total(const void *a, const void *b)
{
	const struct count *x = a, *y = b;

	if (x->hits != y->hits)
		return x->hits < y->hits ? -1 : 1;
	return x->probe - y->probe;
}

/* -H: each hit probe's histogram since the last, as bpftrace prints a
 * hist() map keyed by probe: the fewest hits first, from the first slot
 * with hits to the last.
 */
static void print_hists(int map_fd)
{
	__u32 n = traced_cnt * USDT_HIST_SLOTS;
	struct count *c = calloc(traced_cnt, sizeof(*c));
	__u64 *d = calloc(n, sizeof(*d)), *h, max;
	int i, s, lo, hi, cnt = 0;
	char label[48], bar[64];

	if (!c || !d)
		die("out of memory");
	read_deltas(map_fd, d, n);
	for (i = 0; i < traced_cnt; i++) {
		c[cnt].probe = i;
		c[cnt].hits = 0;
		for (s = 0; s < USDT_HIST_SLOTS; s++)
			c[cnt].hits += d[i * USDT_HIST_SLOTS + s];
		cnt += c[cnt].hits != 0;
	}
	qsort(c, cnt, sizeof(*c), cmp_total);
	for (i = 0; i < cnt; i++) {
		h = d + c[i].probe * USDT_HIST_SLOTS;
		for (lo = 0; !h[lo]; lo++)
			;
		for (hi = USDT_HIST_SLOTS - 1; !h[hi]; hi--)
			;
		for (max = 0, s = lo; s <= hi; s++)
			max = h[s] > max ? h[s] : max;
		fprintf(out, "@[%s:%s]:\n", traced[c[i].probe]->provider, traced[c[i].probe]->name);
		for (s = lo; s <= hi; s++) {
			int w = (int)(h[s] / (float)max * 52);

			slot_label(label, sizeof(label), s);
			memset(bar, '@', w);
			bar[w] = '\0';
			fprintf(out, "%-16s%8llu |%-52s|\n", label, (unsigned long long)h[s], bar);
		}
		fputc('\n', out);
	}
	fflush(out);
	free(c);
	free(d);
}

static void print_table(int map_fd)
{
	if (env.hist_cnt)
		print_hists(map_fd);
	else
		print_counts(map_fd);
}

static void on_signal(int sig)
{
	exiting = sig;
}

/* Fork COMMAND, stopped until go_child(): attached before it runs.  It
 * keeps the tool's standard streams, as it would have them without the
 * tool, and nothing else: every other descriptor is close-on-exec.
 */
static pid_t start_child(char **argv, int *go_fd)
{
	int fds[2], err;
	pid_t pid;
	char c;

	if (pipe2(fds, O_CLOEXEC))
		die("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			_exit(EXIT_TOOL);
		execvp(argv[0], argv);
		err = errno;
		fprintf(stderr, "usdt: cannot run %s: %s\n", argv[0], strerror(err));
		_exit(err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN);
	}
	close(fds[0]);
	*go_fd = fds[1];
	return pid;
}

/* Stop COMMAND: SIGTERM, then SIGKILL if it still runs 5 s later or at the
 * next Ctrl-C; its wait status.
 */
static int stop_child(pid_t child)
{
	int status = 0, i;
	pid_t r;

	exiting = 0;
	kill(child, SIGTERM);
	for (i = 0; i < 50 && !exiting; i++) {
		if (waitpid(child, &status, WNOHANG) == child)
			return status;
		usleep(100000);
	}
	kill(child, SIGKILL);
	while ((r = waitpid(child, &status, 0)) < 0 && errno == EINTR)
		;
	return status;
}

/* The program and globals of whichever skeleton was opened. */
struct tool_skel {
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *events, *counts;
	const volatile bool *count_only, *hist, *link_per_probe;
	const volatile __u32 *str_mask, *str_cnt;
	__u64 *lost, *unknown, *no_arg;
};

#define TOOL_SKEL(s) ((struct tool_skel){ (s)->obj, (s)->progs.usdt_hit, (s)->maps.events,	\
	(s)->maps.counts, &(s)->rodata->count_only, &(s)->rodata->hist,			\
	&(s)->rodata->link_per_probe, &(s)->rodata->str_mask, &(s)->rodata->str_cnt,	\
	&(s)->bss->lost, &(s)->bss->unknown, &(s)->bss->no_arg })

static void open_skel(struct tool_skel *t, void **skel)
{
	if (env.cookie_mode) {
		struct usdt_noad *s = usdt_noad__open();

		if (!s)
			die("cannot open the BPF object: %s", strerror(errno));
		*skel = s;
		*t = TOOL_SKEL(s);
	} else {
		struct usdt *s = usdt__open();

		if (!s)
			die("cannot open the BPF object: %s", strerror(errno));
		*skel = s;
		*t = TOOL_SKEL(s);
	}
}

/* What a trace holds from its setup to its report. */
struct tracer {
	const char *path;
	char **cmd;
	struct tool_skel t;
	void *skel;
	bool hist, aggregate;
	int sites;
	char **names;		/* PROVIDER:NAME of each traced probe */
	__u64 *cookies;
	struct bpf_link **links, *link;
	int link_cnt;
	struct ring_buffer *rb;
	pid_t child;		/* COMMAND, until reaped */
	int go_fd;		/* starts COMMAND */
	int status;		/* COMMAND's wait status */
	char attached[PATH_MAX + 256];	/* the "attached" line, if not said yet */
	double detach_s;
};

/* The probes that @pats match, the BPF object loaded for them, COMMAND
 * forked (stopped until poll()), and each probe's name and cookie.
 */
static void setup(struct tracer *tr, char **pats, int pat_cnt)
{
	struct tool_skel *t = &tr->t;
	int i;

	select_probes(tr->path, pats, pat_cnt);
	for (i = 0; i < traced_cnt; i++)
		tr->sites += traced[i]->sites;
	tr->hist = env.hist_cnt;
	tr->aggregate = env.count || tr->hist;
	if (tr->hist)
		choose_hist_args();

	open_skel(t, &tr->skel);
	*(volatile bool *)t->count_only = env.count;
	*(volatile bool *)t->hist = tr->hist;
	*(volatile bool *)t->link_per_probe = env.link_per_probe;
	*(volatile __u32 *)t->str_mask = env.str_mask;
	*(volatile __u32 *)t->str_cnt = __builtin_popcount(env.str_mask);
	bpf_map__set_max_entries(t->counts, tr->hist ? traced_cnt * USDT_HIST_SLOTS : traced_cnt);
	bpf_map__set_max_entries(t->events, tr->aggregate ? 4096 : env.ring_size);
	if (bpf_object__load(t->obj))
		die("cannot load the BPF program: %s", strerror(errno));

	if (tr->cmd) {
		tr->child = start_child(tr->cmd, &tr->go_fd);
		env.pid = tr->child;
	}

	tr->names = calloc(traced_cnt, sizeof(*tr->names));
	tr->cookies = calloc(traced_cnt, sizeof(*tr->cookies));
	if (!tr->names || !tr->cookies)
		die("out of memory");
	for (i = 0; i < traced_cnt; i++) {
		if (asprintf(&tr->names[i], "%s:%s", traced[i]->provider, traced[i]->name) < 0)
			die("out of memory");
		/* usdt.bpf.c takes 0 for no spec: the index + 1, the argument + 1 */
		tr->cookies[i] = USDT_COOKIE(env.link_per_probe ? i + 1 : 0,
					     tr->hist ? hist_arg[i] + 1 : 0);
	}
}

/* Attach the program to every traced probe, and say so on stderr (or at
 * the end: see below).
 */
static void attach_probes(struct tracer *tr)
{
	struct sigaction sa = { .sa_handler = on_signal };
	const char **names = (const char **)tr->names;
	double t0;
	int i, err = 0;

	/* before the "attached" line, on which a user may press Ctrl-C */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	t0 = now();
	start_ns = t0 * 1e9;
	if (env.link_per_probe) {
		tr->links = calloc(traced_cnt, sizeof(*tr->links));
		if (!tr->links)
			die("out of memory");
		for (i = 0; i < traced_cnt; i++) {
			LIBBPF_OPTS(bpf_usdt_opts, opts, .usdt_cookie = tr->cookies[i],
				    .specialize = env.specialize);

			tr->links[i] = bpf_program__attach_usdt(tr->t.prog, env.pid, tr->path,
								traced[i]->provider,
								traced[i]->name, &opts);
			if (!tr->links[i]) {
				err = -errno;
				break;
			}
			tr->link_cnt++;
		}
	} else {
		LIBBPF_OPTS(bpf_usdt_multi_opts, opts, .probes = names, .cnt = traced_cnt,
			    .cookies = tr->hist ? tr->cookies : NULL,
			    .specialize = env.specialize);

		tr->link = bpf_program__attach_usdt_multi(tr->t.prog, env.pid, tr->path, &opts);
		if (!tr->link)
			err = -errno;
		else
			tr->link_cnt = 1;
	}
	if (err) {
		if (tr->child)
			kill(tr->child, SIGKILL);
		die("cannot attach to %s: %s", tr->path, strerror(-err));
	}
	snprintf(tr->attached, sizeof(tr->attached),
		 "usdt: %d probe%s (%d site%s) of %s, %s mode, %d link%s%s, attached in %.3f s; ",
		 traced_cnt, plural(traced_cnt), tr->sites, plural(tr->sites), tr->path,
		 usdt_mode_names[usdt_prog_mode(tr->t.prog)], tr->link_cnt, plural(tr->link_cnt),
		 env.specialize ? ", specialized" : "", now() - t0);
	if (tr->cmd)
		snprintf(tr->attached + strlen(tr->attached),
			 sizeof(tr->attached) - strlen(tr->attached), "%s is PID %d\n", tr->cmd[0],
			 tr->child);
	else
		strcat(tr->attached, "Ctrl-C to stop\n");
	/* COMMAND's stderr is the tool's: written to before COMMAND starts,
	 * a file would not be where COMMAND expects it (CPython, for one,
	 * runs code when its stderr does not start at 0).  Said at the end,
	 * but on a terminal.
	 */
	if (!tr->cmd || isatty(STDERR_FILENO)) {
		fputs(tr->attached, stderr);
		tr->attached[0] = '\0';
	}
}

/* Start COMMAND, and poll for hits (or print -i's tables) until Ctrl-C,
 * -d, or COMMAND's end; then detach, and stop COMMAND if it still runs.
 */
static void poll_hits(struct tracer *tr)
{
	double start, next_tick, t0;
	int i;

	if (!tr->aggregate) {
		tr->rb = ring_buffer__new(bpf_map__fd(tr->t.events), handle_event, NULL, NULL);
		if (!tr->rb)
			die("cannot set up the ring buffer: %s", strerror(errno));
		/* in the buffer, ahead of the hits: not a write before
		 * COMMAND's own where it shares the output
		 */
		if (env.timestamp)
			fprintf(out, "%-14s ", "TIME(s)");
		fprintf(out, "%-7s %-7s %-15s %s\n", "PID", "TID", "COMM", "PROBE");
	}

	if (tr->child) {
		/* not after a Ctrl-C during the attach, which COMMAND had too;
		 * EPIPE (SIGPIPE is ignored): it has ended, and is reaped below
		 */
		if (!exiting && write(tr->go_fd, "x", 1) != 1 && errno != EPIPE)
			die("cannot start %s: %s", tr->cmd[0], strerror(errno));
		close(tr->go_fd);
	}

	start = now();
	next_tick = start + env.interval;
	while (!exiting) {
		if (tr->rb)
			ring_buffer__poll(tr->rb, 100);
		else
			usleep(100000);
		if (env.duration && now() - start >= env.duration)
			break;
		if (tr->child && waitpid(tr->child, &tr->status, WNOHANG) == tr->child) {
			tr->child = 0;
			break;
		}
		if (env.interval && now() >= next_tick) {
			print_table(bpf_map__fd(tr->t.counts));
			next_tick += env.interval;
		}
	}
	/* detached first, so that nothing counts past the stop; then a
	 * COMMAND still running is stopped, and its status reported
	 */
	t0 = now();
	bpf_link__destroy(tr->link);
	for (i = 0; i < tr->link_cnt && tr->links; i++)
		bpf_link__destroy(tr->links[i]);
	tr->detach_s = now() - t0;
	if (tr->rb)
		ring_buffer__consume(tr->rb);
	fflush(out);
	if (tr->child)
		tr->status = stop_child(tr->child);
}

/* The tables, what went wrong on the way, and COMMAND's fate, which is
 * the exit status.
 */
static int report(struct tracer *tr)
{
	struct tool_skel *t = &tr->t;
	int ret = 0, i;

	fputs(tr->attached, stderr);
	if (env.verbose)
		fprintf(stderr, "usdt: detached in %.3f s\n", tr->detach_s);
	if (tr->aggregate)
		print_table(bpf_map__fd(t->counts));
	if (*t->lost)
		fprintf(stderr, "usdt: %llu hit%s lost (ring buffer full; -b sets its size)\n",
			(unsigned long long)*t->lost, plural(*t->lost));
	if (*t->unknown)
		fprintf(stderr, "usdt: %llu hit%s of an unknown probe\n",
			(unsigned long long)*t->unknown, plural(*t->unknown));
	if (*t->no_arg)
		fprintf(stderr, "usdt: %llu hit%s whose -H argument could not be read\n",
			(unsigned long long)*t->no_arg, plural(*t->no_arg));
	if (bad_event)
		fprintf(stderr, "usdt: %llu malformed event%s\n", bad_event, plural(bad_event));

	if (tr->cmd) {
		if (WIFEXITED(tr->status) && WEXITSTATUS(tr->status)) {
			fprintf(stderr, "usdt: %s exited with %d\n", tr->cmd[0],
				WEXITSTATUS(tr->status));
			ret = WEXITSTATUS(tr->status);
		} else if (WIFSIGNALED(tr->status)) {
			fprintf(stderr, "usdt: %s killed by signal %d\n", tr->cmd[0],
				WTERMSIG(tr->status));
			ret = 128 + WTERMSIG(tr->status);
		}
	}

	ring_buffer__free(tr->rb);
	free(tr->links);
	for (i = 0; i < traced_cnt; i++)
		free(tr->names[i]);
	free(tr->names);
	free(tr->cookies);
	if (env.cookie_mode)
		usdt_noad__destroy(tr->skel);
	else
		usdt__destroy(tr->skel);
	return ret;
}

static int trace(const char *path, char **pats, int pat_cnt, char **cmd)
{
	struct tracer tr = { .path = path, .cmd = cmd, .go_fd = -1 };

	setup(&tr, pats, pat_cnt);
	attach_probes(&tr);
	poll_hits(&tr);
	return report(&tr);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "pid", required_argument, NULL, 'p' },
		{ "cmd", required_argument, NULL, 'c' },
		{ "count", no_argument, NULL, 'C' },
		{ "hist", required_argument, NULL, 'H' },
		{ "interval", required_argument, NULL, 'i' },
		{ "string", required_argument, NULL, 's' },
		{ "duration", required_argument, NULL, 'd' },
		{ "timestamp", no_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "buffer-size", required_argument, NULL, 'b' },
		{ "mode", required_argument, NULL, 'm' },
		{ "link-per-probe", no_argument, NULL, 'P' },
		{ "specialize", no_argument, NULL, 'S' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	char **cmd = NULL, *cmd_str = NULL, pidexe[32], msg[128];
	const char *path, *out_path = NULL;
	int opt, i, nargs, ret = 0;

	/* "--" ends the tool's arguments; what follows is the command */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			cmd = argv + i + 1;
			argv[i] = NULL;
			argc = i;
			break;
		}
	}

	opterr = 0;	/* its messages, in the tool's words */
	while ((opt = getopt_long(argc, argv, ":lp:c:CH:i:s:d:to:b:m:vVh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			env.list = true;
			break;
		case 'p':
			env.pid = parse_uint(optarg, "-p: PID");
			if (env.pid == 0)
				usage_error("-p: PID 0 is no process");
			break;
		case 'c':
			cmd_str = optarg;
			break;
		case 'C':
			env.count = true;
			break;
		case 'H':
			parse_hist(optarg);
			break;
		case 'i':
			env.interval = parse_uint(optarg, "-i: interval");
			if (!env.interval)
				usage_error("-i: SEC must be at least 1");
			break;
		case 's':
			parse_str_args(optarg);
			break;
		case 'd':
			env.duration = parse_uint(optarg, "-d: duration");
			break;
		case 't':
			env.timestamp = true;
			break;
		case 'o':
			out_path = optarg;
			break;
		case 'b':
			parse_size(optarg);
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
		case 'S':
			env.specialize = true;
			break;
		case 'v':
			env.verbose = true;
			break;
		case 'V':
			printf("usdt %s (libbpf %s)\n", USDT_VERSION, libbpf_version_string());
			return 0;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case ':':
			snprintf(msg, sizeof(msg), "%s needs an argument", argv[optind - 1]);
			usage_error(msg);
			break;
		default:
			snprintf(msg, sizeof(msg), "unknown option %s", argv[optind - 1]);
			usage_error(msg);
		}
	}
	nargs = argc - optind;
	libbpf_set_print(libbpf_print);

	if (cmd_str && cmd)
		usage_error("-c CMD and -- COMMAND exclude each other");
	if (cmd_str)
		cmd = split_cmd(cmd_str);
	if (cmd && !cmd[0])
		usage_error("-- needs a COMMAND");
	if (cmd && env.pid > 0)
		usage_error("-p and a COMMAND exclude each other");
	if (env.count && env.hist_cnt)
		usage_error("-C and -H exclude each other");
	if (env.str_mask && (env.count || env.hist_cnt))
		usage_error("-s is for printed hits: not with -C or -H");
	if (env.ring_size_set && (env.count || env.hist_cnt))
		usage_error("-b is for printed hits: not with -C or -H");
	if (env.interval && !env.count && !env.hist_cnt)
		usage_error("-i needs -C or -H");
	if (env.timestamp && (env.count || env.hist_cnt || env.list))
		usage_error("-t is for printed hits: not with -C, -H or -l");
	if (env.pid > 0 && kill(env.pid, 0) && errno == ESRCH)
		die("no process with PID %d", env.pid);
	/* not inherited by COMMAND, whose standard output stays its own */
	out = out_path ? fopen(out_path, "we") : stdout;
	if (!out)
		die("-o %s: %s", out_path, strerror(errno));

	if (env.list) {
		if (cmd || env.count || env.hist_cnt)
			usage_error("-l lists: no -C, -H or COMMAND");
		if (env.pid > 0)
			ret = list_pid(env.pid, argv + optind, nargs);
		else if (!nargs)
			usage_error("-l needs a BINARY or -p PID");
		else
			ret = list_path(binary_or_die(argv[optind]), argv + optind + 1, nargs - 1);
		if (fclose(out))
			die("%s: %s", out_path ?: "standard output", strerror(errno));
		return ret ? EXIT_TOOL : 0;
	}

	/* with -p, BINARY may be left out: the first of several arguments is
	 * BINARY if it has a '/', or names a file, program or library that
	 * the process maps; else every argument is a PROBE
	 */
	if (env.pid > 0 && (nargs < 2 || (!strchr(argv[optind], '/') &&
					  (!(path = resolve_binary(argv[optind])) ||
					   !pid_maps(env.pid, path))))) {
		snprintf(pidexe, sizeof(pidexe), "/proc/%d/exe", env.pid);
		path = pidexe;
	} else {
		if (!nargs)
			usage_error("missing BINARY");
		path = binary_or_die(argv[optind++]);
		nargs--;
	}
	if (!nargs)
		usage_error("missing PROBE");
	if (access(path, R_OK))
		die("%s: %s", path, strerror(errno));
	/* a line per hit on a terminal; elsewhere, whole buffers, flushed with
	 * each -i table and at the end
	 */
	if (isatty(fileno(out)))
		setvbuf(out, NULL, _IOLBF, 0);
	else
		setvbuf(out, NULL, _IOFBF, 1 << 16);
	ret = trace(path, argv + optind, nargs, cmd);
	if (out != stdout && fclose(out))
		die("%s: %s", out_path, strerror(errno));
	return ret;
}
