// SPDX-License-Identifier: GPL-2.0
/* A bounded, reproducible fuzzer of attach data, checked against a model of
 * the documented rules (Documentation/bpf/attach_data.rst, "the docs" below,
 * which "Documentation/bpf: Document attach data" adds).
 *
 * Three subtests, each a sequence of cases drawn from a seeded PRNG:
 *
 *   types        random BTF types (nesting, unions, arrays of structs,
 *                modifier and typedef chains, pointers and special structs
 *                at any depth, sizes at and past the limits, the worst
 *                shapes for the type check) declared at BPF_PROG_LOAD
 *                (attach_data_btf_id) by kprobe, uprobe, uprobe_multi and
 *                tracepoint programs, and by program types that cannot own
 *                attach data: accepted or refused, with the errno, as the
 *                docs' "Declaring the type" and load error table say;
 *   programs     random programs reading and writing the blob that
 *                bpf_get_attach_cookie() returns (constant and variable
 *                offsets, 1/2/4/8-byte loads and stores, atomics, helpers
 *                taking the pointer, tail calls): accepted exactly when
 *                every access is in bounds and allowed ("Accessing it");
 *                accepted ones are refused by the paths without a link
 *                ("No other way in"), and attached with a blob to a kprobe,
 *                uprobe, tracepoint or uprobe_multi link and run: what they
 *                read and wrote is compared with an emulation (results map,
 *                link info's copy of the blob);
 *   link_create  random BPF_LINK_CREATE attach data fields (pointers,
 *                sizes, counts) on perf-event links (kprobe, uprobe,
 *                tracepoint) and uprobe_multi links: success with the
 *                blob(s) read back through link info and seen by the
 *                program, or the errno of the docs' "Attaching" table; on
 *                kprobe_multi links by name (counts, symbol arrays, names
 *                given twice) and raw tracepoint links
 *                (BPF_RAW_TRACEPOINT_OPEN): the errno only.
 *
 * Every case draws from its own PRNG state, derived from the seed, the
 * subtest and the case number, so that one case can be run alone.  Every
 * syscall is timed against a limit.  Nothing is kept from one case to the
 * next: the run time is linear in the number of calls, and /proc/self/fd
 * must hold as many fds after a subtest as before.
 *
 * Environment (read in the guest; selftests/run.sh passes ATTACH_DATA_FUZZ_*
 * through):
 *   ATTACH_DATA_FUZZ_SEED   the seed (default 1)
 *   ATTACH_DATA_FUZZ_CALLS  fuzzed calls over the three subtests, shared
 *                           40/35/25 (default FZ_DEFAULT_CALLS)
 *   ATTACH_DATA_FUZZ_CASE   run only this case of each subtest (a failure
 *                           names the seed, subtest and case)
 *   ATTACH_DATA_FUZZ_MS     per-syscall time limit, ms (default FZ_LIMIT_MS,
 *                           times FZ_DEBUG_FACTOR on KASAN/lockdep kernels)
 *   ATTACH_DATA_FUZZ_CHAIN_MAX  longest modifier chain behind the types
 *                           subtest's wide unions (default FZ_CHAIN_MAX)
 *
 * Each subtest ends with one summary line on stdout: the calls made and
 * the histogram of their results, then cases, program runs checked, every
 * syscall made and the slowest, mismatches with the model, time taken:
 *   fuzz NAME: seed S calls N ok N EINVAL N ... (cases N, runs checked N, ...)
 * and the test is run with test__force_log() so that they are shown.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <zlib.h>
#include <bpf/btf.h>
#include "test_progs.h"
#include "trace_helpers.h"
#include "attach_data_feature.h"

/* The default run: about a minute for the whole test in the project's VM
 * (QEMU TCG, 2 vCPUs, on a 2-core host), measured with `make test
 * T=attach_data_fuzz`: 47 s of test (types 11 s, programs 28 s, link_create
 * 8 s) and 56 s of VM on an idle host, 57 and 66 s with a kernel build
 * running beside it.  The time is linear in the calls: 100,000 took 491 s.
 */
#define FZ_DEFAULT_SEED		1
#define FZ_DEFAULT_CALLS	12000

/* Per-syscall limit.  The slowest calls made here are BTF loads and the
 * type check of the worst shapes the types subtest builds (16 unions of 64
 * members each, wide unions behind modifier chains), the verification of
 * the programs subtest's largest programs, and link creation and close
 * (a uprobe's waits for an RCU tasks trace grace period).  Under TCG
 * (QEMU without KVM, this project's VM) they take 30-60 ms typically; the
 * slowest of a run (it prints it) is 100-300 ms, and up to 1.2 s was seen
 * with the host's two cores busy building a kernel: TCG runs the guest in
 * one host thread, which the host deschedules.  2 s is above that and
 * still catches what the docs promise against (a type check that walks
 * K^depth paths took minutes).  A KASAN or lockdep kernel (the regression
 * gate's) is 3-5x slower again: there the limit is FZ_DEBUG_FACTOR times
 * this, found in /proc/config.gz.  ATTACH_DATA_FUZZ_MS overrides both.
 */
#define FZ_LIMIT_MS		2000
#define FZ_DEBUG_FACTOR		5

/* The types subtest's wide unions: up to 2,000 members behind one chain of
 * up to this many modifiers (ATTACH_DATA_FUZZ_CHAIN_MAX overrides).  The
 * type check once walked the chain again for each member, width * length
 * steps, unbounded in practice and deaf to signals (10,000 members behind
 * 10,000 typedefs, a BTF of 240 KB, took 3.6 s under TCG; this fuzzer found
 * it); it now takes each modifier's resolved type in one step, so these
 * load within the per-call limit however long the chain.  attach_data's
 * types subtest keeps the case.
 */
#define FZ_CHAIN_MAX		20000
static long fz_chain_max = FZ_CHAIN_MAX;

#define FZ_MAX_REPORTS		20	/* mismatches printed per subtest */
#define FZ_NERR			160	/* errnos counted one by one */

/* ---------------------------------------------------------------------- */
/* PRNG: splitmix64, one state per case.                                  */

struct fz_rng {
	__u64 s;
};

static __u64 fz_next(struct fz_rng *r)
{
	__u64 z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform enough in [0, n). */
static __u32 fz_below(struct fz_rng *r, __u32 n)
{
	return n ? (__u32)(((fz_next(r) >> 32) * (__u64)n) >> 32) : 0;
}

/* In [lo, hi]. */
static long fz_range(struct fz_rng *r, long lo, long hi)
{
	return lo + (long)fz_below(r, (__u32)(hi - lo + 1));
}

static bool fz_pct(struct fz_rng *r, int pct)
{
	return fz_below(r, 100) < (__u32)pct;
}

#define FZ_PICK(r, arr) ((arr)[fz_below((r), ARRAY_SIZE(arr))])
#define fz_min(a, b)	((a) < (b) ? (a) : (b))
#define fz_max(a, b)	((a) > (b) ? (a) : (b))

/* ---------------------------------------------------------------------- */
/* One subtest's run: budget, statistics, time limit, failure reports.     */

struct fz {
	const char *name;
	int id;
	__u64 seed;
	long budget;		/* fuzzed calls to make */
	long only_case;		/* ATTACH_DATA_FUZZ_CASE, or -1 */
	long ncase;		/* the current case */
	long ncases;		/* cases run */
	long calls;		/* fuzzed calls made: checked against the model */
	long syscalls;		/* every timed syscall */
	long ok, hist[FZ_NERR], other_err;
	long fails, slow, retried;
	long runs;		/* runs of a program checked */
	__u64 limit_ns, max_ns, t0_ns;
	char max_what[40];
	long max_case;
	struct fz_rng rng;	/* the current case's */
	__u64 last_pet_ns;
	int fds_before;
};

static __u64 fz_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void fz_fail(struct fz *f, const char *fmt, ...) __printf(2, 3);

static void fz_fail(struct fz *f, const char *fmt, ...)
{
	va_list ap;

	f->fails++;
	test__fail();
	if (f->fails > FZ_MAX_REPORTS)
		return;
	printf("fuzz %s: FAIL seed %llu case %ld call %ld: ", f->name,
	       (unsigned long long)f->seed, f->ncase, f->calls);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n  reproduce: ATTACH_DATA_FUZZ_SEED=%llu ATTACH_DATA_FUZZ_CASE=%ld "
	       "make run T=attach_data_fuzz/%s\n",
	       (unsigned long long)f->seed, f->ncase, f->name);
}

/* Account a syscall's duration against the limit. */
static void fz_took(struct fz *f, const char *what, __u64 ns)
{
	f->syscalls++;
	if (ns > f->max_ns) {
		f->max_ns = ns;
		f->max_case = f->ncase;
		snprintf(f->max_what, sizeof(f->max_what), "%s", what);
	}
	if (ns > f->limit_ns) {
		f->slow++;
		fz_fail(f, "%s took %llu ms, limit %llu ms", what,
			(unsigned long long)(ns / 1000000),
			(unsigned long long)(f->limit_ns / 1000000));
	}
}

/* Evaluate a syscall expression, timed; errno is kept. */
#define FZ_TIMED(f, what, expr) ({					\
	__u64 __t0 = fz_now();						\
	long __r = (long)(expr);					\
	int __e = errno;						\
	fz_took((f), (what), fz_now() - __t0);				\
	errno = __e;							\
	__r;								\
})

/* A load (BTF, program) that returns an fd, timed: one over the limit is
 * made again, and only the second time counts.  TCG runs the guest in one
 * host thread, which a busy host deschedules now and then (a 300 ms load
 * took 1.1 s while the host ran another guest and a kernel build); what
 * the kernel itself makes slow is slow twice.
 */
#define FZ_LOAD(f, what, expr) ({					\
	__u64 __t0 = fz_now();						\
	long __r = (long)(expr);					\
	int __e = errno;						\
	__u64 __ns = fz_now() - __t0;					\
	if (__ns > (f)->limit_ns) {					\
		(f)->retried++;						\
		if (__r >= 0)						\
			close(__r);					\
		__t0 = fz_now();					\
		__r = (long)(expr);					\
		__e = errno;						\
		__ns = fz_now() - __t0;					\
	}								\
	fz_took((f), (what), __ns);					\
	errno = __e;							\
	__r;								\
})

/* Expected outcomes of a fuzzed call: a set of errnos, bit 0 for success.
 * Where several documented rules apply to one input the docs do not say
 * which error wins, and any of theirs is accepted.
 */
typedef __u64 fz_set;

enum {
	FZ_OK		= 0,
	FZ_EINVAL	= 1,
	FZ_E2BIG	= 2,
	FZ_EFAULT	= 3,
	FZ_EACCES	= 4,
	FZ_EOPNOTSUPP	= 5,
	FZ_EBADF	= 6,
	FZ_ESRCH	= 7,
	FZ_ENOSPC	= 8,
};

static const int fz_errnos[] = {
	[FZ_OK] = 0, [FZ_EINVAL] = EINVAL, [FZ_E2BIG] = E2BIG, [FZ_EFAULT] = EFAULT,
	[FZ_EACCES] = EACCES, [FZ_EOPNOTSUPP] = EOPNOTSUPP, [FZ_EBADF] = EBADF,
	[FZ_ESRCH] = ESRCH, [FZ_ENOSPC] = ENOSPC,
};

#define FZ_BIT(x)	(1ULL << (x))
/* Another rule broken: success is no longer expected. */
#define FZ_ADD(set, e)	((set) = ((set) & ~FZ_BIT(FZ_OK)) | FZ_BIT(e))

static bool fz_set_has(fz_set s, int err)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fz_errnos); i++)
		if ((s & FZ_BIT(i)) && fz_errnos[i] == err)
			return true;
	return false;
}

static const char *fz_errname(int err)
{
	static char buf[16];

	switch (err) {
	case 0: return "ok";
	case EINVAL: return "EINVAL";
	case E2BIG: return "E2BIG";
	case EFAULT: return "EFAULT";
	case EACCES: return "EACCES";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EBADF: return "EBADF";
	case ENOSPC: return "ENOSPC";
	case ENOMEM: return "ENOMEM";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ESRCH: return "ESRCH";
	case EEXIST: return "EEXIST";
	case EBUSY: return "EBUSY";
	case EINTR: return "EINTR";
	}
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

static void fz_set_str(fz_set s, char *buf, size_t sz)
{
	size_t i, n = 0;

	buf[0] = 0;
	for (i = 0; i < ARRAY_SIZE(fz_errnos) && n < sz; i++)
		if (s & FZ_BIT(i))
			n += snprintf(buf + n, sz - n, "%s%s", n ? "|" : "",
				      fz_errname(fz_errnos[i]));
}

/* Count a fuzzed call's result (0 or an errno) and check it against the
 * model.  Returns whether it matched.
 */
static bool fz_check(struct fz *f, int err, fz_set expect, const char *what)
{
	char exp[64];

	f->calls++;
	if (!err)
		f->ok++;
	else if (err > 0 && err < FZ_NERR)
		f->hist[err]++;
	else
		f->other_err++;
	if (fz_set_has(expect, err))
		return true;
	fz_set_str(expect, exp, sizeof(exp));
	fz_fail(f, "%s: got %s, model says %s", what, fz_errname(err), exp);
	return false;
}

static int fz_count_fds(void)
{
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static __u64 fz_env(const char *name, __u64 def)
{
	const char *s = getenv(name);

	return s && *s ? strtoull(s, NULL, 0) : def;
}

/* test_progs kills a subtest that runs longer than its watchdog (120 s by
 * default, -w).  A long run (ATTACH_DATA_FUZZ_CALLS=100000 in a KASAN
 * kernel) takes longer than that while every single call stays within the
 * per-call limit: re-arm the watchdog between cases, as a new subtest
 * would.  A call that hangs still lets it fire.
 */
static void fz_pet_watchdog(struct fz *f)
{
	struct itimerspec t = {};
	__u64 now = fz_now();

	if (now - f->last_pet_ns < 5000000000ULL || env.secs_till_kill <= 0)
		return;
	f->last_pet_ns = now;
	if (env.secs_till_notify > 0) {
		env.watchdog_state = WD_NOTIFY;
		t.it_value.tv_sec = env.secs_till_notify;
	} else {
		env.watchdog_state = WD_KILL;
		t.it_value.tv_sec = env.secs_till_kill;
	}
	timer_settime(env.watchdog, 0, &t, NULL);
}

/* Is this a KASAN or lockdep kernel? */
static bool fz_debug_kernel(void)
{
	gzFile gz = gzopen("/proc/config.gz", "r");
	char line[256];
	bool debug = false;

	if (!gz)
		return false;
	while (!debug && gzgets(gz, line, sizeof(line)))
		debug = !strcmp(line, "CONFIG_KASAN=y\n") ||
			!strcmp(line, "CONFIG_PROVE_LOCKING=y\n");
	gzclose(gz);
	return debug;
}

static __u64 fz_limit_ms(void)
{
	static __u64 ms;

	if (!ms)
		ms = fz_env("ATTACH_DATA_FUZZ_MS",
			    FZ_LIMIT_MS * (fz_debug_kernel() ? FZ_DEBUG_FACTOR : 1));
	return ms;
}

static void fz_begin(struct fz *f, const char *name, int id, __u64 seed, long budget,
		     long only_case)
{
	memset(f, 0, sizeof(*f));
	f->name = name;
	f->id = id;
	f->seed = seed;
	f->budget = budget;
	f->only_case = only_case;
	f->limit_ns = fz_limit_ms() * 1000000ULL;
	f->t0_ns = fz_now();
	f->last_pet_ns = f->t0_ns;
	f->fds_before = fz_count_fds();
}

/* Next case: false when the budget is spent.  Seeds the case's PRNG. */
static bool fz_next_case(struct fz *f)
{
	struct fz_rng mix;

	if (f->only_case >= 0) {
		if (f->ncases)
			return false;
		f->ncase = f->only_case;
	} else {
		if (f->calls >= f->budget)
			return false;
		/* every case makes a call, unless its setup failed */
		if (f->ncases > 2 * f->budget + 100) {
			fz_fail(f, "%ld cases made only %ld calls", f->ncases, f->calls);
			return false;
		}
		f->ncase = f->ncases;
	}
	f->ncases++;
	mix.s = f->seed ^ ((__u64)f->id << 56);
	mix.s ^= fz_next(&mix) + (__u64)f->ncase * 0xd1b54a32d192ed03ULL;
	f->rng.s = fz_next(&mix);
	fz_pet_watchdog(f);
	return true;
}

static void fz_end(struct fz *f)
{
	char line[1024];
	int n, i, fds = fz_count_fds();

	n = snprintf(line, sizeof(line), "fuzz %s: seed %llu calls %ld ok %ld", f->name,
		     (unsigned long long)f->seed, f->calls, f->ok);
	for (i = 1; i < FZ_NERR && n < (int)sizeof(line); i++)
		if (f->hist[i])
			n += snprintf(line + n, sizeof(line) - n, " %s %ld", fz_errname(i),
				      f->hist[i]);
	if (f->other_err && n < (int)sizeof(line))
		n += snprintf(line + n, sizeof(line) - n, " other %ld", f->other_err);
	if (n < (int)sizeof(line))
		snprintf(line + n, sizeof(line) - n,
			 " (cases %ld, runs checked %ld, syscalls %ld, max %llu ms in %s of case "
			 "%ld, over the %llu ms limit %ld (loads made again %ld), mismatches %ld, "
			 "%.1f s)",
			 f->ncases, f->runs, f->syscalls, (unsigned long long)(f->max_ns / 1000000),
			 f->max_what[0] ? f->max_what : "-", f->max_case,
			 (unsigned long long)(f->limit_ns / 1000000), f->slow, f->retried,
			 f->fails, (fz_now() - f->t0_ns) / 1e9);
	printf("%s\n", line);
	if (fds != f->fds_before)
		fz_fail(f, "fd leak: %d fds open before the subtest, %d after", f->fds_before,
			fds);
	ASSERT_EQ(f->fails, 0, "mismatches");
}

/* ---------------------------------------------------------------------- */
/* Loading programs.                                                       */

static char fz_log[65536];

struct fz_prog {
	enum bpf_prog_type type;
	enum bpf_attach_type eat;
	__u32 flags;
	int btf_fd;
	__u32 btf_id;
	const struct bpf_insn *insns;
	size_t cnt;
};

/* BPF_PROG_LOAD, timed; returns the fd or -errno. */
static int fz_prog_load(struct fz *f, const struct fz_prog *p, bool with_log)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = p->eat,
		    .prog_flags = p->flags, .prog_btf_fd = p->btf_fd,
		    .attach_data_btf_id = p->btf_id);
	int fd;

	if (with_log) {
		fz_log[0] = 0;
		opts.log_buf = fz_log;
		opts.log_size = sizeof(fz_log);
		opts.log_level = 1;
	}
	fd = FZ_LOAD(f, "prog_load", bpf_prog_load(p->type, NULL, "GPL", p->insns, p->cnt, &opts));
	return fd < 0 ? -errno : fd;
}

/* The verifier's last words, for a report. */
static const char *fz_log_tail(void)
{
	size_t n = strlen(fz_log);
	char *nl;

	while (n && fz_log[n - 1] == '\n')
		fz_log[--n] = 0;
	if (n > 300) {
		nl = strchr(fz_log + n - 300, '\n');
		return nl ? nl + 1 : fz_log + n - 300;
	}
	return fz_log;
}

static void fz_close(struct fz *f, int fd)
{
	if (fd >= 0)
		FZ_TIMED(f, "close", close(fd));
}

/* ---------------------------------------------------------------------- */
/* types: random BTF, and the docs' rules for the attach data type.        */

#define AD_MAX_SIZE	4096	/* BPF_ATTACH_DATA_MAX_SIZE */
#define AD_MAX_DEPTH	16	/* "type nested more than 16 levels deep" */
#define TG_MAX_MEMBERS	512

/* The special structs the docs list, with the sizes a map value has them. */
static const struct {
	const char *name;
	int size;
} special_structs[] = {
	{ "bpf_spin_lock", 4 }, { "bpf_res_spin_lock", 4 }, { "bpf_timer", 16 },
	{ "bpf_wq", 16 }, { "bpf_task_work", 8 }, { "bpf_list_head", 16 },
	{ "bpf_list_node", 24 }, { "bpf_rb_root", 16 }, { "bpf_rb_node", 32 },
	{ "bpf_refcount", 4 },
};

struct tgen {
	struct btf *btf;
	struct fz_rng *r;
	int err;		/* first btf__add_*() error */
	int scalars[32], nscalars;
	int u8, u32;		/* two of the scalars */
	int pool[64], npool;	/* structs and unions made, for reuse */
	int bad_pct;		/* chance of a refused member, percent */
	int left;		/* types this case may still add */
	int nname;		/* for unique names */
};

/* Record the first failed btf__add_*(). */
#define TG(g, call) ({							\
	int __r = (call);						\
	if (__r < 0 && !(g)->err)					\
		(g)->err = __r;						\
	(g)->left--;							\
	__r;								\
})

static const char *tg_name(struct tgen *g, const char *prefix, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s%d", prefix, g->nname++);
	return buf;
}

static void tg_init(struct tgen *g, struct btf *btf, struct fz_rng *r, int left)
{
	static const struct {
		const char *name;
		int size, enc;
	} ints[] = {
		{ "char", 1, BTF_INT_CHAR }, { "signed char", 1, BTF_INT_SIGNED },
		{ "unsigned char", 1, 0 }, { "_Bool", 1, BTF_INT_BOOL },
		{ "short", 2, BTF_INT_SIGNED }, { "unsigned short", 2, 0 },
		{ "int", 4, BTF_INT_SIGNED }, { "unsigned int", 4, 0 },
		{ "long", 8, BTF_INT_SIGNED }, { "unsigned long", 8, 0 },
		{ "__int128", 16, BTF_INT_SIGNED }, { "unsigned __int128", 16, 0 },
	};
	static const struct {
		const char *name;
		int size;
	} floats[] = {
		{ "_Float16", 2 }, { "float", 4 }, { "double", 8 }, { "__float80", 12 },
		{ "long double", 16 },
	};
	char name[16];
	size_t i;
	int id, k;

	memset(g, 0, sizeof(*g));
	g->btf = btf;
	g->r = r;
	g->left = left;
	for (i = 0; i < ARRAY_SIZE(ints); i++) {
		id = TG(g, btf__add_int(btf, ints[i].name, ints[i].size, ints[i].enc));
		g->scalars[g->nscalars++] = id;
		if (!strcmp(ints[i].name, "unsigned char"))
			g->u8 = id;
		if (!strcmp(ints[i].name, "unsigned int"))
			g->u32 = id;
	}
	for (i = 0; i < ARRAY_SIZE(floats); i++)
		g->scalars[g->nscalars++] = TG(g, btf__add_float(btf, floats[i].name,
								 floats[i].size));
	/* Enums of every size, enum64 signed and not. */
	for (k = 0; k < 4; k++) {
		id = TG(g, btf__add_enum(btf, tg_name(g, "e", name, sizeof(name)), 1 << k));
		TG(g, btf__add_enum_value(btf, tg_name(g, "E", name, sizeof(name)), k));
		g->scalars[g->nscalars++] = id;
	}
	for (k = 0; k < 2; k++) {
		id = TG(g, btf__add_enum64(btf, tg_name(g, "e", name, sizeof(name)), 8, k));
		TG(g, btf__add_enum64_value(btf, tg_name(g, "E", name, sizeof(name)),
					    0x100000000ULL));
		g->scalars[g->nscalars++] = id;
	}
}

static int tg_scalar(struct tgen *g)
{
	return g->scalars[fz_below(g->r, g->nscalars)];
}

static __s64 tg_size(struct tgen *g, int id)
{
	return btf__resolve_size(g->btf, id);
}

static int tg_align(struct tgen *g, int id)
{
	int a = btf__align_of(g->btf, id);

	return a > 0 ? a : 1;
}

/* Packed structs: only floats must be aligned (to min(8, size), the BTF
 * checker's minimum).
 */
static int tg_packed_align(struct tgen *g, int id)
{
	int rid = btf__resolve_type(g->btf, id);
	const struct btf_type *t = rid > 0 ? btf__type_by_id(g->btf, rid) : NULL;

	return t && btf_is_float(t) ? fz_min(8, (int)t->size) : 1;
}

/* 1 to 3 modifiers (const, volatile, restrict, typedef, type tag) on @id:
 * the type check looks through them.
 */
static int tg_modifiers(struct tgen *g, int id, int n)
{
	char name[16];
	int i;

	for (i = 0; i < n && id > 0; i++) {
		switch (fz_below(g->r, 5)) {
		case 0:
			id = TG(g, btf__add_const(g->btf, id));
			break;
		case 1:
			id = TG(g, btf__add_volatile(g->btf, id));
			break;
		case 2:
			id = TG(g, btf__add_restrict(g->btf, id));
			break;
		case 3:
			tg_name(g, "t", name, sizeof(name));
			id = TG(g, btf__add_typedef(g->btf, name, id));
			break;
		default:
			id = TG(g, btf__add_type_tag(g->btf, "tag", id));
		}
	}
	return id;
}

static int tg_special(struct tgen *g)
{
	int i = fz_below(g->r, ARRAY_SIZE(special_structs));
	int size = fz_pct(g->r, 80) ? special_structs[i].size : (int)fz_range(g->r, 1, 64);
	int arr, s;

	arr = TG(g, btf__add_array(g->btf, g->u32, g->u8, size));
	s = TG(g, btf__add_struct(g->btf, special_structs[i].name, size));
	TG(g, btf__add_field(g->btf, "opaque", arr, 0, 0));
	return s;
}

/* A member the docs refuse: a pointer (plain, to a struct, behind
 * modifiers), a flexible array; or a special field (a kptr, a special
 * struct) behind a typedef, a modifier or in an array, which a map value of
 * the type may or may not have.
 */
static int tg_bad(struct tgen *g)
{
	static const char *const kptr_tags[] = {
		"kptr", "kptr_untrusted", "percpu_kptr", "uptr", "rcu",
	};
	int to, id;

	switch (fz_below(g->r, 6)) {
	case 0:
		return TG(g, btf__add_ptr(g->btf, fz_pct(g->r, 50) ? 0 : tg_scalar(g)));
	case 1:
		to = g->npool ? g->pool[fz_below(g->r, g->npool)] : tg_scalar(g);
		return TG(g, btf__add_ptr(g->btf, to));
	case 2:
		/* A kptr, behind a typedef or in an array: as a direct member
		 * of a struct it would be parsed at BTF load, as below.  To a
		 * struct of a name no kernel BTF has (a local object's type),
		 * or to a scalar: never to an anonymous struct, which the
		 * kernel would look up among vmlinux's anonymous ones.
		 */
		if (fz_pct(g->r, 50)) {
			char name[16];

			to = TG(g, btf__add_struct(g->btf, tg_name(g, "adk", name, sizeof(name)), 4));
			TG(g, btf__add_field(g->btf, "v", g->u32, 0, 0));
		} else {
			to = tg_scalar(g);
		}
		id = TG(g, btf__add_type_tag(g->btf, FZ_PICK(g->r, kptr_tags), to));
		id = TG(g, btf__add_ptr(g->btf, id));
		return fz_pct(g->r, 50) ? TG(g, btf__add_typedef(g->btf, "kptr_t", id)) :
					  TG(g, btf__add_array(g->btf, g->u32, id, 1));
	case 3:
		id = TG(g, btf__add_ptr(g->btf, tg_scalar(g)));
		return tg_modifiers(g, id, fz_range(g->r, 1, 3));
	case 4:
		return TG(g, btf__add_array(g->btf, g->u32, tg_scalar(g), 0));
	default:
		/* Behind a typedef, a modifier or an array: a struct with a
		 * special struct as a direct member gets its special fields
		 * parsed at BTF load (btf_parse_struct_metas()), where graph
		 * roots without a "contains:" tag, two locks, ... are refused
		 * before any attach data check.
		 */
		id = tg_special(g);
		switch (fz_below(g->r, 3)) {
		case 0: return tg_modifiers(g, id, 1);
		case 1: return TG(g, btf__add_typedef(g->btf, "special_t", id));
		default: return TG(g, btf__add_array(g->btf, g->u32, id, fz_range(g->r, 1, 2)));
		}
	}
}

static int tg_type(struct tgen *g, int depth);

/* A struct or union of @n members of random types @depth levels deep at
 * most, laid out without overlap (struct) or at offset 0 (union); with
 * some chance unaligned members, tail padding, bitfields.
 */
static int tg_composite(struct tgen *g, int depth, bool is_union, int n)
{
	int ids[TG_MAX_MEMBERS], offs[TG_MAX_MEMBERS], nbf = 0, bf_int = 0, bf_bits[3];
	__s64 sz, end = 0, bf_end;
	int i, id, al, maxal = 1;
	bool packed = fz_pct(g->r, 10);
	char name[16], mname[16];

	n = fz_min(n, TG_MAX_MEMBERS);
	for (i = 0; i < n; i++)
		ids[i] = tg_type(g, depth);
	for (i = 0; i < n; i++) {
		sz = tg_size(g, ids[i]);
		al = packed ? tg_packed_align(g, ids[i]) : tg_align(g, ids[i]);
		if (sz < 0) {			/* cannot happen: a generator bug */
			if (!g->err)
				g->err = (int)sz;
			sz = 0;
		}
		maxal = fz_max(maxal, al);
		if (is_union) {
			offs[i] = 0;
			end = fz_max(end, sz);
		} else {
			end = (end + al - 1) / al * al;
			offs[i] = (int)end;
			end += sz;
		}
	}
	/* Bitfields after the members, in one unsigned int's worth of bits. */
	bf_end = end;
	if (!is_union && fz_pct(g->r, 15)) {
		bf_int = g->u32;
		nbf = fz_range(g->r, 1, 3);
		for (i = 0; i < nbf; i++)
			bf_bits[i] = fz_range(g->r, 1, 10);
		bf_end = end + 4;
	}
	sz = (bf_end + maxal - 1) / maxal * maxal;
	if (fz_pct(g->r, 10))
		sz += fz_range(g->r, 1, 16);
	if (sz > UINT_MAX / 2)
		sz = UINT_MAX / 2;

	tg_name(g, is_union ? "u" : "s", name, sizeof(name));
	id = is_union ? TG(g, btf__add_union(g->btf, fz_pct(g->r, 20) ? NULL : name, sz)) :
			TG(g, btf__add_struct(g->btf, fz_pct(g->r, 20) ? NULL : name, sz));
	for (i = 0; i < n; i++) {
		snprintf(mname, sizeof(mname), "m%d", i);
		TG(g, btf__add_field(g->btf, mname, ids[i], offs[i] * 8, 0));
	}
	for (i = 0; i < nbf; i++) {
		snprintf(mname, sizeof(mname), "bf%d", i);
		TG(g, btf__add_field(g->btf, mname, bf_int, end * 8 + i * 10, bf_bits[i]));
	}
	if (id > 0 && g->npool < (int)ARRAY_SIZE(g->pool))
		g->pool[g->npool++] = id;
	return id;
}

/* A member type: a scalar, an array, a struct or union (new or made
 * before), behind modifiers or not; some are refused ones.  @depth bounds
 * the levels of structure below.
 */
static int tg_type(struct tgen *g, int depth)
{
	struct fz_rng *r = g->r;
	int k = fz_below(r, 100), elem, n;
	__s64 esz;

	if (fz_pct(r, g->bad_pct))
		return tg_bad(g);
	if (depth <= 0 || g->left <= 0 || k < 40) {
		if (g->npool && fz_pct(r, 15))
			return g->pool[fz_below(r, g->npool)];
		return tg_scalar(g);
	}
	if (k < 55) {
		elem = tg_type(g, depth - 1);
		esz = tg_size(g, elem);
		n = fz_pct(r, 80) ? fz_range(r, 1, 4) : fz_range(r, 5, 300);
		if (esz > 0 && esz * n > 8192)
			n = fz_max(1, (int)(8192 / esz));
		return TG(g, btf__add_array(g->btf, g->u32, elem, n));
	}
	if (k < 62 && g->npool)
		return g->pool[fz_below(r, g->npool)];
	/* (one draw per statement: the order of a call's arguments is not
	 * defined, and a seed must give the same types with any compiler)
	 */
	if (k < 72) {
		elem = tg_type(g, depth);
		return tg_modifiers(g, elem, fz_range(r, 1, 2));
	}
	n = fz_range(r, 1, 5);
	return tg_composite(g, depth - 1, fz_pct(r, 35), n);
}

/* The worst shapes for the type check's running time and its depth limit. */

/* @levels unions of @k members each of the level below; the last level's
 * members are @leaf.  k^levels paths, each union checked once.
 */
static int tg_union_chain(struct tgen *g, int leaf, int levels, int k, bool arrays)
{
	char mname[16];
	int t = leaf, u, l, i;
	__s64 sz;

	for (l = 0; l < levels; l++) {
		if (arrays && fz_pct(g->r, 20)) {	/* an array level instead */
			t = TG(g, btf__add_array(g->btf, g->u32, t, 1));
			continue;
		}
		sz = tg_size(g, t);
		u = TG(g, btf__add_union(g->btf, NULL, sz > 0 ? sz : 4));
		for (i = 0; i < k; i++) {
			snprintf(mname, sizeof(mname), "m%d", i);
			TG(g, btf__add_field(g->btf, mname, t, 0, 0));
		}
		t = u;
	}
	return t;
}

/* A spine of @levels levels, each a struct (the level below next to a
 * scalar), a union, an array or modifiers (which do not count).
 */
static int tg_spine(struct tgen *g, int levels)
{
	int t = fz_pct(g->r, g->bad_pct) ? tg_bad(g) : tg_scalar(g), l, s, al;
	__s64 sz;

	for (l = 0; l < levels; l++) {
		sz = tg_size(g, t);
		if (sz < 0)
			sz = 8;
		switch (fz_below(g->r, 4)) {
		case 0:
			al = fz_max(4, tg_align(g, t));
			s = TG(g, btf__add_struct(g->btf, NULL, al + sz));
			TG(g, btf__add_field(g->btf, "x", g->u32, 0, 0));
			TG(g, btf__add_field(g->btf, "in", t, al * 8, 0));
			t = s;
			break;
		case 1:
			s = TG(g, btf__add_union(g->btf, NULL, fz_max(sz, 1)));
			TG(g, btf__add_field(g->btf, "a", t, 0, 0));
			TG(g, btf__add_field(g->btf, "b", g->u8, 0, 0));
			t = s;
			break;
		case 2:
			t = TG(g, btf__add_array(g->btf, g->u32, t, 1));
			break;
		default:
			t = tg_modifiers(g, t, fz_range(g->r, 1, 3));
			l--;		/* modifiers are no level */
			if (g->left < 0)
				return t;
		}
	}
	return t;
}

/* A union of @w members all of one type, reached through a chain of @c
 * modifiers: w * c steps through modifiers if each member resolves the
 * chain again.
 */
static int tg_wide(struct tgen *g, int inner, int w, int c)
{
	char mname[16];
	int t = inner, i, u;
	__s64 sz;

	/* libbpf resolves sizes through 32 modifiers at most: ask inner's */
	sz = tg_size(g, inner);
	for (i = 0; i < c; i++)
		t = tg_modifiers(g, t, 1);
	u = TG(g, btf__add_union(g->btf, NULL, sz > 0 ? sz : 4));
	for (i = 0; i < w; i++) {
		snprintf(mname, sizeof(mname), "m%d", i);
		TG(g, btf__add_field(g->btf, mname, t, 0, 0));
	}
	return u;
}

/* A binary DAG of unions: U_l { U_(l-1) a, b; }, 2^levels paths. */
static int tg_dag(struct tgen *g, int levels)
{
	int t = tg_scalar(g), l, u;
	__s64 sz;

	for (l = 0; l < levels; l++) {
		sz = tg_size(g, t);
		u = TG(g, btf__add_union(g->btf, NULL, sz > 0 ? sz : 4));
		TG(g, btf__add_field(g->btf, "a", t, 0, 0));
		TG(g, btf__add_field(g->btf, "b", t, 0, 0));
		t = u;
	}
	return t;
}

/* struct { A a; W_n(...W_1(A)) w; }: A's kept height must count where it
 * is reached again, deeper.
 */
static int tg_deep_reuse(struct tgen *g, int a_levels, int wraps)
{
	int leaf = tg_scalar(g), k8 = fz_range(g->r, 1, 8);
	int a = tg_union_chain(g, leaf, a_levels, k8, false);
	int w = a, k, s;
	__s64 asz = tg_size(g, a);

	if (asz < 0)
		asz = 4;
	for (k = 0; k < wraps; k++) {
		s = TG(g, btf__add_struct(g->btf, NULL, asz));
		TG(g, btf__add_field(g->btf, "w", w, 0, 0));
		w = s;
	}
	s = TG(g, btf__add_struct(g->btf, NULL, 2 * asz));
	if (fz_pct(g->r, 50)) {
		TG(g, btf__add_field(g->btf, "a", a, 0, 0));
		TG(g, btf__add_field(g->btf, "w", w, asz * 8, 0));
	} else {		/* the deep reference first */
		TG(g, btf__add_field(g->btf, "w", w, 0, 0));
		TG(g, btf__add_field(g->btf, "a", a, asz * 8, 0));
	}
	return s;
}

/* struct { T b[n]; } of an exact size, around the limits. */
static int tg_sized(struct tgen *g)
{
	static const __u32 sizes[] = {
		1, 2, 7, 8, 64, 4095, 4096, 4096, 4097, 4104, 8192, 65536, 1 << 20,
	};
	__u32 size = FZ_PICK(g->r, sizes);
	int arr, s, elem = g->u8;

	if (size % 4 == 0 && fz_pct(g->r, 50))
		elem = g->u32;
	arr = TG(g, btf__add_array(g->btf, g->u32, elem, size / (elem == g->u8 ? 1 : 4)));
	s = fz_pct(g->r, 30) ? TG(g, btf__add_union(g->btf, "sized", size)) :
			       TG(g, btf__add_struct(g->btf, "sized", size));
	TG(g, btf__add_field(g->btf, "b", arr, 0, 0));
	return s;
}

/* The model: the docs' "Declaring the type", over the BTF as built.
 *
 *   - the type (a typedef or modifiers resolved) is a struct or union,
 *     else EINVAL ("type id invalid, not a struct or union");
 *   - of 1 to 4096 bytes: size 0 is EINVAL, more than 4096 E2BIG;
 *   - made of scalars (integers, enums, floats) and arrays, structs and
 *     unions of those; a pointer, a flexible array (we take any array of 0
 *     elements as one), the type being a special struct (struct kind, by
 *     name, as listed), or a special field in a union, is EINVAL;
 *   - special fields (a special struct, a pointer whose target is a kptr
 *     type tag) elsewhere get what a map value of the type would: the
 *     kind's rules for the program type (EINVAL, EOPNOTSUPP, or a load),
 *     btf_parse_fields()'s refusals (EINVAL, E2BIG), and EACCES for the
 *     program's load of the last byte if that byte is a special field's.
 *     attach_data/special_kinds and the lock and kptr tests pin each
 *     kind's outcome; here any of them is allowed, without other faults;
 *   - "nested more than 16 levels deep" is E2BIG.  Levels are counted as
 *     the type check counts them: each struct, union or array is one,
 *     modifiers and typedefs none; a member may sit at most 16 levels
 *     below the type itself (a chain of 16 unions of ints is accepted, of
 *     17 refused).  A union named like a special struct is no special
 *     struct (only structs are).
 *
 * An input that breaks several rules may get the errno of any of them.
 */
struct tmodel {
	const struct btf *btf;
	int n;
	__s32 *res;		/* id with modifiers resolved, or -1 */
	__s16 *height;		/* 0: not known yet */
	__u8 *bad;
	__u8 *special;		/* holds special fields */
};

static bool tm_is_special(const struct btf *btf, const struct btf_type *t)
{
	const char *name = btf__name_by_offset(btf, t->name_off);
	size_t i;

	if (!btf_is_struct(t) || !name)
		return false;
	for (i = 0; i < ARRAY_SIZE(special_structs); i++)
		if (!strcmp(name, special_structs[i].name))
			return true;
	return false;
}

static __u32 tm_resolve(struct tmodel *m, __u32 id)
{
	const struct btf_type *t;
	__u32 start = id, next;

	if (m->res[start] >= 0)
		return m->res[start];
	t = btf__type_by_id(m->btf, id);
	while (t && (btf_is_mod(t) || btf_is_typedef(t) || btf_is_type_tag(t))) {
		next = t->type;
		if (next < (__u32)m->n && m->res[next] >= 0) {
			id = m->res[next];
			break;
		}
		id = next;
		t = btf__type_by_id(m->btf, id);
	}
	m->res[start] = id;
	return id;
}

/* A pointer whose target is a kernel pointer's type tag. */
static bool tm_is_kptr(const struct btf *btf, const struct btf_type *t)
{
	static const char *const tags[] = { "kptr", "kptr_untrusted", "percpu_kptr", "uptr" };
	const char *name;
	size_t i;

	if (!btf_is_ptr(t))
		return false;
	t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_type_tag(t) || btf_kflag(t))
		return false;
	name = btf__name_by_offset(btf, t->name_off);
	for (i = 0; i < ARRAY_SIZE(tags); i++)
		if (name && !strcmp(name, tags[i]))
			return true;
	return false;
}

/* Height of @id (1 for a scalar or a refused member); sets m->bad[id] and
 * m->special[id].
 */
static int tm_walk(struct tmodel *m, __u32 id, bool *bad, bool *special)
{
	const struct btf_type *t;
	const struct btf_member *mb;
	int h = 0, mh, i;
	bool mbad, mspecial, ms;

	id = tm_resolve(m, id);
	t = btf__type_by_id(m->btf, id);
	if (!t || !id) {
		*bad = true;
		return 1;
	}
	if (btf_is_int(t) || btf_is_any_enum(t) || btf_is_float(t))
		return 1;
	if (btf_is_array(t)) {
		if (!btf_array(t)->nelems) {
			*bad = true;
			return 1;
		}
		return tm_walk(m, btf_array(t)->type, bad, special) + 1;
	}
	if (tm_is_kptr(m->btf, t) || tm_is_special(m->btf, t)) {
		*special = true;
		return 1;
	}
	if (!btf_is_composite(t)) {
		*bad = true;	/* pointer, fwd, func_proto */
		return 1;
	}
	if (m->height[id]) {
		*bad |= m->bad[id];
		*special |= m->special[id];
		return m->height[id];
	}
	mbad = false;
	mspecial = false;
	mb = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++) {
		ms = false;
		mh = tm_walk(m, mb[i].type, &mbad, &ms);
		if (ms && btf_is_union(t))
			mbad = true;	/* a special field in a union */
		mspecial |= ms;
		h = fz_max(h, mh);
	}
	m->height[id] = fz_min(h + 1, 30000);
	m->bad[id] = mbad;
	m->special[id] = mspecial;
	*bad |= mbad;
	*special |= mspecial;
	return h + 1;
}

static fz_set tm_predict(const struct btf *btf, __u32 id, __u32 *size, char *why, size_t wsz)
{
	struct tmodel m = { .btf = btf, .n = btf__type_cnt(btf) };
	const struct btf_type *t;
	fz_set exp = 0;
	bool bad = false, special = false;
	int h, i;

	*size = 0;
	if (!id || id >= (__u32)m.n) {
		snprintf(why, wsz, "invalid type id %u", id);
		return FZ_BIT(FZ_EINVAL);
	}
	m.res = malloc(m.n * sizeof(*m.res));
	m.height = calloc(m.n, sizeof(*m.height));
	m.bad = calloc(m.n, sizeof(*m.bad));
	m.special = calloc(m.n, sizeof(*m.special));
	if (!m.res || !m.height || !m.bad || !m.special) {
		snprintf(why, wsz, "out of memory");
		exp = FZ_BIT(FZ_OK) | FZ_BIT(FZ_EINVAL) | FZ_BIT(FZ_E2BIG);
		goto out;
	}
	for (i = 0; i < m.n; i++)
		m.res[i] = -1;
	t = btf__type_by_id(btf, tm_resolve(&m, id));
	if (!t || !btf_is_composite(t)) {
		snprintf(why, wsz, "not a struct or union (kind %d)", t ? btf_kind(t) : -1);
		exp = FZ_BIT(FZ_EINVAL);
		goto out;
	}
	*size = t->size;
	why[0] = 0;
	if (!t->size) {
		exp |= FZ_BIT(FZ_EINVAL);
		snprintf(why, wsz, "size 0; ");
	} else if (t->size > AD_MAX_SIZE) {
		exp |= FZ_BIT(FZ_E2BIG);
		snprintf(why, wsz, "size %u; ", t->size);
	}
	if (tm_is_special(btf, t)) {
		h = 1;
		bad = true;	/* the type itself */
	} else {
		h = tm_walk(&m, id, &bad, &special);
	}
	if (bad) {
		exp |= FZ_BIT(FZ_EINVAL);
		snprintf(why + strlen(why), wsz - strlen(why), "refused member; ");
	} else if (special && !exp && h - 1 <= AD_MAX_DEPTH) {
		exp = FZ_BIT(FZ_OK) | FZ_BIT(FZ_EINVAL) | FZ_BIT(FZ_EOPNOTSUPP) |
		      FZ_BIT(FZ_E2BIG) | FZ_BIT(FZ_EACCES);
		snprintf(why, wsz, "special fields, %u bytes", t->size);
		goto out;
	}
	if (h - 1 > AD_MAX_DEPTH) {
		exp |= FZ_BIT(FZ_E2BIG);
		snprintf(why + strlen(why), wsz - strlen(why), "%d levels deep; ", h - 1);
	}
	if (!exp) {
		exp = FZ_BIT(FZ_OK);
		snprintf(why, wsz, "valid, %u bytes, %d levels", t->size, h - 1);
	}
out:
	free(m.res);
	free(m.height);
	free(m.bad);
	free(m.special);
	return exp;
}

/* Program types that may own attach data, and some that may not. */
static const struct {
	const char *name;
	enum bpf_prog_type type;
	enum bpf_attach_type eat;
	__u32 flags;
	bool ok;
} ad_prog_types[] = {
	{ "kprobe", BPF_PROG_TYPE_KPROBE, 0, 0, true },
	{ "uprobe.s", BPF_PROG_TYPE_KPROBE, 0, BPF_F_SLEEPABLE, true },
	{ "uprobe.multi", BPF_PROG_TYPE_KPROBE, BPF_TRACE_UPROBE_MULTI, 0, true },
	{ "tracepoint", BPF_PROG_TYPE_TRACEPOINT, 0, 0, true },
	{ "kprobe.multi", BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_MULTI, 0, true },
	{ "kprobe.session", BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_SESSION, 0, true },
	{ "uprobe.session", BPF_PROG_TYPE_KPROBE, BPF_TRACE_UPROBE_SESSION, 0, true },
	{ "raw_tp", BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 0, true },
	{ "raw_tp.w", BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0, 0, true },
	{ "perf_event", BPF_PROG_TYPE_PERF_EVENT, 0, 0, false },
	{ "socket", BPF_PROG_TYPE_SOCKET_FILTER, 0, 0, false },
	{ "xdp", BPF_PROG_TYPE_XDP, 0, 0, false },
};

/* Build one case's BTF; returns the attach data type id (may be invalid
 * on purpose) and names the shape.
 */
static __u32 tg_case(struct tgen *g, const char **shape)
{
	struct fz_rng *r = g->r;
	int k = fz_below(r, 100), t, inner, w, kind, depth;
	bool is_union;
	char name[16];

	g->bad_pct = fz_pct(r, 50) ? 0 : fz_range(r, 1, 8);
	if (k < 40) {
		*shape = "random";
		depth = fz_range(r, 0, 5);
		is_union = fz_pct(r, 30);
		t = tg_composite(g, depth, is_union, fz_range(r, 1, 8));
	} else if (k < 50) {
		*shape = "union_chain";
		inner = fz_pct(r, g->bad_pct * 3) ? tg_bad(g) : tg_scalar(g);
		depth = fz_range(r, 1, 18);
		w = fz_pct(r, 50) ? 64 : fz_range(r, 1, 64);
		t = tg_union_chain(g, inner, depth, w, fz_pct(r, 30));
	} else if (k < 58) {
		*shape = "spine";
		t = tg_spine(g, fz_range(r, 10, 19));
	} else if (k < 64) {
		*shape = "wide";
		if (fz_pct(r, 50)) {
			inner = tg_composite(g, 3, false, fz_range(r, 1, 6));
		} else {
			inner = tg_scalar(g);
			inner = tg_union_chain(g, inner, fz_range(r, 1, 15), 8, false);
		}
		/* Many members behind one long modifier chain: once
		 * width * length steps of the type check (see FZ_CHAIN_MAX).
		 */
		w = fz_pct(r, 50) ? fz_range(r, 100, 2000) : fz_range(r, 1, 64);
		t = tg_wide(g, inner, w, fz_range(r, 1, fz_chain_max));
	} else if (k < 68) {
		*shape = "dag";
		t = tg_dag(g, fz_range(r, 10, 18));
	} else if (k < 73) {
		*shape = "deep_reuse";
		depth = fz_range(r, 3, 14);
		t = tg_deep_reuse(g, depth, fz_range(r, 0, 8));
	} else if (k < 80) {
		*shape = "sized";
		t = tg_sized(g);
	} else if (k < 84) {
		*shape = "empty";
		t = fz_pct(r, 50) ? TG(g, btf__add_struct(g->btf, "empty", fz_pct(r, 70) ? 0 : 4)) :
				    TG(g, btf__add_union(g->btf, "empty", fz_pct(r, 70) ? 0 : 8));
	} else if (k < 88) {
		*shape = "special";
		if (fz_pct(r, 70)) {
			t = tg_special(g);
		} else {	/* a union named so is no special struct */
			t = TG(g, btf__add_union(g->btf, FZ_PICK(r, special_structs).name, 4));
			TG(g, btf__add_field(g->btf, "x", g->u32, 0, 0));
		}
	} else {
		*shape = "not_struct";
		switch (fz_below(r, 9)) {
		case 0:
			t = tg_scalar(g);
			break;
		case 1:
			t = tg_composite(g, 1, false, 2);
			t = TG(g, btf__add_array(g->btf, g->u32, t, fz_range(r, 1, 4)));
			break;
		case 2:
			t = TG(g, btf__add_ptr(g->btf, tg_composite(g, 1, false, 2)));
			break;
		case 3:
			t = TG(g, btf__add_fwd(g->btf, "fwd", fz_pct(r, 50) ? BTF_FWD_STRUCT :
									BTF_FWD_UNION));
			break;
		case 4:
			t = TG(g, btf__add_fwd(g->btf, "fwd", BTF_FWD_STRUCT));
			t = TG(g, btf__add_typedef(g->btf, "fwd_t", t));
			break;
		case 5:
			t = TG(g, btf__add_const(g->btf, 0));	/* const void */
			break;
		case 6:
			t = TG(g, btf__add_func_proto(g->btf, g->u32));
			t = TG(g, btf__add_func(g->btf, "fn", BTF_FUNC_STATIC, t));
			break;
		case 7:
			t = TG(g, btf__add_var(g->btf, "var", BTF_VAR_STATIC, g->u32));
			break;
		default:
			/* ids past the last type */
			return fz_pct(r, 50) ? btf__type_cnt(g->btf) + fz_below(r, 4) :
					       0xffffffffu - fz_below(r, 2);
		}
	}
	/* Modifiers or typedefs in front, which the check resolves. */
	kind = t > 0 ? btf_kind(btf__type_by_id(g->btf, t)) : BTF_KIND_VAR;
	if (kind != BTF_KIND_VAR && kind != BTF_KIND_FUNC && fz_pct(r, 20)) {
		if (fz_pct(r, 50))
			t = tg_modifiers(g, t, fz_range(r, 1, 4));
		else
			t = TG(g, btf__add_typedef(g->btf, tg_name(g, "t", name, sizeof(name)), t));
	}
	return t > 0 ? (__u32)t : 0;
}

static int fz_btf_load(struct fz *f, struct btf *btf)
{
	LIBBPF_OPTS(bpf_btf_load_opts, opts);
	const void *raw;
	__u32 sz;
	int fd;

	raw = btf__raw_data(btf, &sz);
	if (!raw)
		return -ENOMEM;
	fz_log[0] = 0;
	fd = FZ_LOAD(f, "btf_load", bpf_btf_load(raw, sz, &opts));
	if (fd < 0) {
		fd = -errno;
		/* again with the log, for the report */
		opts.log_buf = fz_log;
		opts.log_size = sizeof(fz_log);
		opts.log_level = 1;
		FZ_TIMED(f, "btf_load", bpf_btf_load(raw, sz, &opts));
	}
	return fd;
}

static void fz_types_case(struct fz *f, int not_btf_fd)
{
	struct fz_rng *r = &f->rng;
	struct bpf_insn insns[8];
	struct fz_prog p = {};
	struct tgen g;
	struct btf *btf;
	fz_set exp;
	const char *shape = "?";
	char why[128], what[160];
	int pt, btf_fd, fd, err, off = 0, cnt = 0;
	__u32 id, size;
	bool past_end = false;

	btf = btf__new_empty();
	if (!btf) {
		fz_fail(f, "btf__new_empty");
		return;
	}
	tg_init(&g, btf, r, 6000);
	id = tg_case(&g, &shape);
	if (g.err) {
		fz_fail(f, "building the BTF (%s): %d", shape, g.err);
		goto out;
	}
	btf_fd = fz_btf_load(f, btf);
	if (btf_fd < 0) {
		fz_fail(f, "BTF (%s, %u types) not loaded: %s", shape, btf__type_cnt(btf),
			fz_errname(-btf_fd));
		if (f->fails <= FZ_MAX_REPORTS)
			printf("  btf log: %s\n", fz_log + (strlen(fz_log) > 2000 ?
							      strlen(fz_log) - 2000 : 0));
		goto out;
	}

	exp = tm_predict(btf, id, &size, why, sizeof(why));
	pt = fz_pct(r, 90) ? (int)fz_below(r, 4) :
			     (int)fz_range(r, 4, ARRAY_SIZE(ad_prog_types) - 1);
	p.type = ad_prog_types[pt].type;
	p.eat = ad_prog_types[pt].eat;
	p.flags = ad_prog_types[pt].flags;
	p.btf_fd = btf_fd;
	p.btf_id = id;
	if (fz_pct(r, 3)) {		/* "no program BTF" */
		p.btf_fd = not_btf_fd;
		FZ_ADD(exp, FZ_EINVAL);
	}
	/* a type that cannot have attach data: that, before any fd is used */
	if (!ad_prog_types[pt].ok)
		exp = FZ_BIT(FZ_EOPNOTSUPP);
	if (fz_pct(r, 2)) {
		/* No attach data: a plain program, whatever the BTF fd (the
		 * kernel looks at it only with func or line info, or a type).
		 */
		p.btf_id = 0;
		exp = FZ_BIT(FZ_OK);
		snprintf(why, sizeof(why), "no attach data");
	}

	/* bpf_get_attach_cookie(ctx), then a byte of the blob: the last one,
	 * or one past the end (refused by the verifier, EACCES).
	 */
	if (ad_prog_types[pt].ok) {
		insns[cnt++] = BPF_MOV64_REG(BPF_REG_6, BPF_REG_1);
		insns[cnt++] = BPF_EMIT_CALL(BPF_FUNC_get_attach_cookie);
		if (p.btf_id) {
			if (exp == FZ_BIT(FZ_OK)) {
				past_end = fz_pct(r, 12);
				off = past_end ? size : size - 1;
				if (past_end)
					exp = FZ_BIT(FZ_EACCES);
			}
			insns[cnt++] = BPF_LDX_MEM(BPF_B, BPF_REG_1, BPF_REG_0, off);
		}
	}
	insns[cnt++] = BPF_MOV64_IMM(BPF_REG_0, 0);
	insns[cnt++] = BPF_EXIT_INSN();
	p.insns = insns;
	p.cnt = cnt;

	fd = fz_prog_load(f, &p, false);
	err = fd < 0 ? -fd : 0;
	snprintf(what, sizeof(what), "%s load, type %s (%s)%s, type id %u", ad_prog_types[pt].name,
		 shape, why, past_end ? ", byte past the end" : "", p.btf_id);
	if (!fz_check(f, err, exp, what) && f->fails <= FZ_MAX_REPORTS) {
		fz_close(f, fd);
		fd = fz_prog_load(f, &p, true);
		printf("  verifier: %s\n", fz_log_tail());
	}
	fz_close(f, fd);
	fz_close(f, btf_fd);
out:
	btf__free(btf);
}

static void test_types(struct fz *f)
{
	int pipefd[2] = { -1, -1 };

	if (!ASSERT_OK(pipe(pipefd), "pipe"))
		return;
	while (fz_next_case(f))
		fz_types_case(f, pipefd[0]);
	close(pipefd[0]);
	close(pipefd[1]);
}

/* ---------------------------------------------------------------------- */
/* What programs and links attach to.                                      */

#define KPROBE_FUNC	"__x64_sys_getpgid"
#define TP_NAME		"syscalls/sys_enter_getpgid"
#define FZ_NTARGETS	8

/* uprobe targets in this binary, distinct so that no two get merged */
#define FZ_TARGET(n)						\
noinline int fz_target##n(int x)				\
{								\
	asm volatile ("" : "+r"(x));				\
	return x + n + 1;					\
}

FZ_TARGET(0) FZ_TARGET(1) FZ_TARGET(2) FZ_TARGET(3)
FZ_TARGET(4) FZ_TARGET(5) FZ_TARGET(6) FZ_TARGET(7)

static int (*const fz_targets[FZ_NTARGETS])(int) = {
	fz_target0, fz_target1, fz_target2, fz_target3,
	fz_target4, fz_target5, fz_target6, fz_target7,
};

static void fz_trigger_syscall(void)
{
	syscall(SYS_getpgid, 0);
}

static long fz_read_long(const char *path)
{
	char buf[32] = {};
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtol(buf, NULL, 0) : -EINVAL;
}

static int fz_perf_open(struct perf_event_attr *attr, bool task)
{
	int fd;

	attr->size = sizeof(*attr);
	attr->sample_period = 1;
	attr->wakeup_events = 1;
	/* as libbpf does: any task, CPU 0; an inherited event needs a task */
	fd = syscall(__NR_perf_event_open, attr, task ? 0 : -1, task ? -1 : 0, -1,
		     PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int fz_perf_kprobe(void)
{
	struct perf_event_attr attr = {};
	long type = fz_read_long("/sys/bus/event_source/devices/kprobe/type");

	if (type < 0)
		return type;
	attr.type = type;
	attr.config1 = ptr_to_u64(KPROBE_FUNC);
	return fz_perf_open(&attr, false);
}

static int fz_perf_uprobe(__u64 offset)
{
	struct perf_event_attr attr = {};
	long type = fz_read_long("/sys/bus/event_source/devices/uprobe/type");

	if (type < 0)
		return type;
	attr.type = type;
	attr.config1 = ptr_to_u64("/proc/self/exe");
	attr.config2 = offset;
	return fz_perf_open(&attr, false);
}

static int fz_perf_tp(bool inherit)
{
	struct perf_event_attr attr = {};
	long id = fz_read_long("/sys/kernel/tracing/events/" TP_NAME "/id");

	if (id < 0)
		return id;
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	attr.inherit = inherit;
	return fz_perf_open(&attr, inherit);
}

/* BPF_LINK_CREATE, raw: every field as the fuzzer set it. */
static int fz_link_create(struct fz *f, union bpf_attr *attr)
{
	long fd = FZ_TIMED(f, "link_create", syscall(__NR_bpf, BPF_LINK_CREATE, attr,
						     sizeof(*attr)));

	return fd < 0 ? -errno : (int)fd;
}

/* The cookie of a perf-event link's info: a different member of perf_event
 * for each perf event type.  (Attach data has the same members for all.)
 */
static __u64 pe_cookie(const struct bpf_link_info *info)
{
	switch (info->perf_event.type) {
	case BPF_PERF_EVENT_KPROBE:
	case BPF_PERF_EVENT_KRETPROBE:
		return info->perf_event.kprobe.cookie;
	case BPF_PERF_EVENT_UPROBE:
	case BPF_PERF_EVENT_URETPROBE:
		return info->perf_event.uprobe.cookie;
	default:
		return info->perf_event.tracepoint.cookie;
	}
}

static int fz_link_info(struct fz *f, int fd, struct bpf_link_info *info)
{
	__u32 len = sizeof(*info);
	int err;

	err = FZ_TIMED(f, "link_info", bpf_link_get_info_by_fd(fd, info, &len));
	return err ? -errno : 0;
}

/* Read back a link's blob(s), @len bytes, through link info. */
static int fz_read_blobs(struct fz *f, int fd, void *buf, __u32 len, __u32 *len_out)
{
	struct bpf_link_info info = {};
	int err;

	info.attach_data = ptr_to_u64(buf);
	info.attach_data_len = len;
	err = fz_link_info(f, fd, &info);
	*len_out = info.attach_data_len;
	return err;
}

/* What the programs of both subtests report: slot 0 counts runs. */
#define FZ_SLOTS	16
#define COPY_SIZE	12	/* value size of the programs' copy map */

struct fz_maps {
	int results, copy;
};

static int fz_maps_reset(struct fz *f, struct fz_maps *m)
{
	__u64 zero[FZ_SLOTS] = {};
	__u32 key = 0;
	int err;

	err = FZ_TIMED(f, "map_update", bpf_map_update_elem(m->results, &key, zero, 0));
	if (!err && m->copy >= 0)
		err = FZ_TIMED(f, "map_update", bpf_map_update_elem(m->copy, &key, zero, 0));
	return err ? -errno : 0;
}

/* ---------------------------------------------------------------------- */
/* programs: random accesses to the blob, the verifier's verdict, a run.   */

/* The model of the verifier's verdict, from the docs' "Accessing it": the
 * blob is memory of the declared size S, bounds-checked as PTR_TO_MEM
 * (check_mem_region_access()):
 *
 *   - an access of n bytes at (pointer + insn offset) is accepted when every
 *     value the pointer's offset may take keeps it within [0, S); else
 *     EACCES.  In this tree the verifier folds the constants added to a
 *     pointer into its offset range, and a range that may be negative fails
 *     the "unbounded memory access" check even where the instruction's
 *     offset brings the access back in bounds (map values go through the
 *     same check_mem_region_access()):
 *     we predict EACCES for any access through a pointer below the blob's
 *     start;
 *   - a variable offset must be bounded (mask or compare) below 2^29: else
 *     EACCES at the access; adding an index whose minimum is unbounded
 *     (a 64-bit load without an unsigned bound) to the pointer is EINVAL,
 *     and so is adding a constant of 2^29 or more;
 *   - atomics (add, and, or, xor, with or without fetch, xchg, cmpxchg)
 *     are 4 or 8 bytes (else EINVAL) and naturally aligned within the blob
 *     (else EACCES); load-acquire and store-release take 1 to 8 bytes,
 *     aligned;
 *   - helpers taking memory (bpf_get_current_comm(), bpf_probe_read_kernel()
 *     into the blob, bpf_map_update_elem() from it) get the same bounds for
 *     their size; a size of 0 is EACCES where the helper needs one;
 *   - bpf_tail_call() is EINVAL (the docs' load error table), and so are
 *     the other ways to run such a program without its link ("No other
 *     way in"): BPF_PROG_TEST_RUN, PERF_EVENT_IOC_SET_BPF, insertion into a
 *     program array, BPF_RAW_TRACEPOINT_OPEN.
 *
 * Which error the verifier reports is that of the first refused instruction
 * it meets: it walks the fall-through side of each branch first, so paths
 * through the programs' diamonds are tried in that order.
 */

#define MAX_VAR_OFF	(1LL << 29)	/* BPF_MAX_VAR_OFF */
#define P_MAX_OPS	10
#define P_MAX_DIAMONDS	3
#define P_MAX_INSNS	512

enum {
	P_LD, P_LDSX, P_ST, P_STX, P_ATOMIC, P_LDACQ, P_STREL, P_COMM, P_PROBE_READ,
	P_MAP_UPDATE, P_TAIL_CALL, P_NKINDS
};

static const char *const p_kind_names[] = {
	"ld", "ldsx", "st", "stx", "atomic", "load_acq", "store_rel", "comm", "probe_read",
	"map_update", "tail_call",
};

enum { B_CONST, B_VAR, B_DIAMOND };
enum { BD_MASK, BD_JGT, BD_JSGT, BD_NONE };

struct pbase {
	int kind;
	__s32 c, c2;		/* constants added; c2 on a diamond's jump side */
	int src_sz;		/* index: loaded from the blob, this size ... */
	__s16 src_off;		/* ... at this offset */
	int bound;
	__u32 bval;		/* mask, or compared bound */
	int shift;
	int T;			/* diamond: side c2 when the byte is > T */
};

struct pop {
	int kind;
	int sz;			/* access size; helpers: n */
	__s16 off;		/* instruction offset; helpers: added to the pointer */
	struct pbase b;
	__u64 val, cmp;
	__s32 imm;
	int aop;
	__s32 src2;		/* probe_read: source offset in the blob */
	int slot;		/* results slot it writes, or 0 */
};

struct pprog {
	int S;			/* declared size */
	int nops;
	struct pop ops[P_MAX_OPS];
	int ndiamonds;
};

static __u64 p_srcmax(int sz)
{
	return sz == 8 ? ~0ULL : (1ULL << (8 * sz)) - 1;
}

static int p_fls(__u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

/* A pointer into the blob: offset c + [0, V], variable bits in mask. */
struct pptr {
	__s64 c;
	__u64 V, mask;
};

/* check_mem_region_access(), as the model above says. */
static int pm_mem(const struct pptr *p, __s64 o, __s64 n, bool zero_ok, int S)
{
	__s64 lo = p->c + o;

	if (p->c < 0 && lo < 0)
		return FZ_EACCES;
	if (lo < 0 || (!n && !zero_ok) || lo + n > S)
		return FZ_EACCES;
	if (p->c < 0 || p->c + (__s64)p->V >= MAX_VAR_OFF)
		return FZ_EACCES;
	if (p->c + (__s64)p->V + o + n > S)
		return FZ_EACCES;
	return FZ_OK;
}

static bool pm_aligned(const struct pptr *p, __s64 o, int sz)
{
	return !(((__u64)(p->c + o) | p->mask) & (sz - 1));
}

static bool pm_big_const(__s64 c)
{
	return c >= MAX_VAR_OFF || c <= -MAX_VAR_OFF;
}

/* The first error of op @o, its diamond (if any) taking @side. */
static int pm_op(const struct pop *o, int side, int S)
{
	const struct pbase *b = &o->b;
	struct pptr p = {}, hp;
	struct pptr r7 = {};
	__u64 umax, mask;
	int e;

	switch (b->kind) {
	case B_CONST:
		if (b->c && pm_big_const(b->c))
			return FZ_EINVAL;
		p.c = b->c;
		break;
	case B_DIAMOND:
		e = pm_mem(&r7, b->src_off, 1, false, S);
		if (e)
			return e;
		p.c = side ? b->c2 : b->c;
		if (pm_big_const(p.c))
			return FZ_EINVAL;
		break;
	default:
		e = pm_mem(&r7, b->src_off, b->src_sz, false, S);
		if (e)
			return e;
		umax = p_srcmax(b->src_sz);
		switch (b->bound) {
		case BD_MASK:
			umax &= b->bval;
			mask = umax;
			break;
		case BD_JGT:
			umax = fz_min((__u64)(umax), (__u64)(b->bval));
			mask = umax ? (~0ULL >> (64 - p_fls(umax))) : 0;
			break;
		case BD_JSGT:
			if (b->src_sz == 8)
				goto unbounded_min;
			umax = fz_min((__u64)(umax), (__u64)(b->bval));
			mask = umax ? (~0ULL >> (64 - p_fls(umax))) : 0;
			break;
		default:
			if (b->src_sz == 8)
				goto unbounded_min;
			mask = umax;
		}
		if (b->c && pm_big_const(b->c))
			return FZ_EINVAL;
		p.c = b->c;
		p.V = umax << b->shift;
		p.mask = mask << b->shift;
		break;
unbounded_min:
		if (b->c && pm_big_const(b->c))
			return FZ_EINVAL;
		return FZ_EINVAL;
	}

	switch (o->kind) {
	case P_LD:
	case P_LDSX:
	case P_ST:
	case P_STX:
		return pm_mem(&p, o->off, o->sz, false, S);
	case P_TAIL_CALL:
		return FZ_EINVAL;
	case P_ATOMIC:
		if (o->sz != 4 && o->sz != 8)
			return FZ_EINVAL;
		fallthrough;
	case P_LDACQ:
	case P_STREL:
		if (!pm_aligned(&p, o->off, o->sz))
			return FZ_EACCES;
		return pm_mem(&p, o->off, o->sz, false, S);
	case P_COMM:
	case P_PROBE_READ:
	case P_MAP_UPDATE:
		hp = p;
		hp.c += o->off;
		return pm_mem(&hp, 0, o->kind == P_MAP_UPDATE ? COPY_SIZE : o->sz,
			      o->kind == P_PROBE_READ, S);
	}
	return FZ_OK;
}

/* The verifier's verdict: the first error in its walk; *bad the op. */
static int pm_prog(const struct pprog *pp, int *bad)
{
	int path, i, d, e, side;

	for (path = 0; path < (1 << pp->ndiamonds); path++) {
		for (i = 0, d = 0; i < pp->nops; i++) {
			side = 0;
			if (pp->ops[i].b.kind == B_DIAMOND)
				side = (path >> (pp->ndiamonds - 1 - d++)) & 1;
			e = pm_op(&pp->ops[i], side, pp->S);
			if (e) {
				*bad = i;
				return e;
			}
		}
	}
	return FZ_OK;
}

/* The run, emulated on the blob: what the program reads and leaves. */
struct pemu {
	__u8 blob[AD_MAX_SIZE];
	__u64 slots[FZ_SLOTS];
	__u8 copy[COPY_SIZE];
	bool copied, exited, broken;
	char comm[16];
};

static __u64 pe_load(struct pemu *e, __s64 at, int sz, int S)
{
	__u64 v = 0;

	if (at < 0 || at + sz > S) {
		e->broken = true;
		return 0;
	}
	memcpy(&v, e->blob + at, sz);	/* little endian */
	return v;
}

static void pe_store(struct pemu *e, __s64 at, int sz, __u64 v, int S)
{
	if (at < 0 || at + sz > S) {
		e->broken = true;
		return;
	}
	memcpy(e->blob + at, &v, sz);
}

static __s64 pe_sext(__u64 v, int sz)
{
	int sh = 64 - 8 * sz;

	return (__s64)(v << sh) >> sh;
}

/* The blob offset op @o's base points to, or -1 if the program exits. */
static bool pe_base(struct pemu *e, const struct pbase *b, int S, __s64 *at)
{
	__u64 v;

	switch (b->kind) {
	case B_CONST:
		*at = b->c;
		return true;
	case B_DIAMOND:
		v = pe_load(e, b->src_off, 1, S);
		*at = v > (__u64)b->T ? b->c2 : b->c;
		return true;
	}
	v = pe_load(e, b->src_off, b->src_sz, S);
	switch (b->bound) {
	case BD_MASK:
		v &= b->bval;
		break;
	case BD_JGT:
		if (v > b->bval)
			return false;
		break;
	case BD_JSGT:
		if ((__s64)v > (__s64)b->bval)
			return false;
		break;
	}
	*at = b->c + (__s64)(v << b->shift);
	return true;
}

static void pe_op(struct pemu *e, struct pop *o, int S)
{
	__u64 old, nv, szmask = o->sz == 8 ? ~0ULL : (1ULL << (8 * o->sz)) - 1;
	__s64 at;
	int i, n;

	if (e->exited)
		return;
	if (!pe_base(e, &o->b, S, &at)) {
		e->exited = true;
		return;
	}
	at += o->off;
	switch (o->kind) {
	case P_LD:
	case P_LDACQ:
		e->slots[o->slot] = pe_load(e, at, o->sz, S);
		break;
	case P_LDSX:
		e->slots[o->slot] = pe_sext(pe_load(e, at, o->sz, S), o->sz);
		break;
	case P_ST:
		pe_store(e, at, o->sz, (__u64)(__s64)o->imm, S);
		break;
	case P_STX:
	case P_STREL:
		pe_store(e, at, o->sz, o->val, S);
		break;
	case P_ATOMIC:
		old = pe_load(e, at, o->sz, S);
		/* make some cmpxchg succeed: compare with what is there */
		if (o->aop == BPF_CMPXCHG && (o->cmp & 1))
			o->cmp = old | (o->cmp & ~szmask);
		switch (o->aop & ~BPF_FETCH) {
		case BPF_ADD:
			nv = old + o->val;
			break;
		case BPF_AND:
			nv = old & o->val;
			break;
		case BPF_OR:
			nv = old | o->val;
			break;
		case BPF_XOR:
			nv = old ^ o->val;
			break;
		case BPF_XCHG & ~BPF_FETCH:
			nv = o->val;
			break;
		default:	/* cmpxchg */
			nv = old == (o->cmp & szmask) ? o->val : old;
		}
		pe_store(e, at, o->sz, nv & szmask, S);
		if (o->slot)
			e->slots[o->slot] = old;
		break;
	case P_COMM:	/* strscpy_pad(): the name, cut to n - 1, then zeros */
		n = strnlen(e->comm, sizeof(e->comm));
		for (i = 0; i < o->sz; i++)
			pe_store(e, at + i, 1, i < n && i < o->sz - 1 ? (__u8)e->comm[i] : 0, S);
		break;
	case P_PROBE_READ:
		/* A source that does not overlap the destination, if there
		 * is one (the program is emitted after this); else copy as
		 * copy_from_kernel_nofault() does, by 8, 4, 2 then 1 bytes
		 * (x86: whatever the alignment).
		 */
		if (at >= o->sz || at + o->sz <= 0)
			o->src2 = 0;
		else if (at + o->sz <= S - o->sz || at >= S)
			o->src2 = fz_max(0, S - o->sz);
		for (i = 0, n = 8; i < o->sz; ) {
			while (n > o->sz - i)
				n >>= 1;
			pe_store(e, at + i, n, pe_load(e, o->src2 + i, n, S), S);
			i += n;
		}
		break;
	case P_MAP_UPDATE:
		for (i = 0; i < COPY_SIZE; i++)
			e->copy[i] = pe_load(e, at + i, 1, S);
		e->copied = true;
		break;
	}
}

/* A byte offset in [lo, hi], or near the edges of [0, S) with @edge. */
static __s64 pg_pick(struct fz_rng *r, __s64 lo, __s64 hi)
{
	return hi < lo ? lo : lo + fz_below(r, hi - lo + 1);
}

/* Fill @b so that an access of @sz bytes, @align-aligned, lands in
 * [0, S) for every index value; then, with @edge, push it off by a little.
 * Returns the instruction offset to use.
 */
static __s16 pg_base(struct fz_rng *r, struct pbase *b, int S, int sz, int align, bool edge,
		     int *ndiamonds)
{
	__s64 room = S - sz, c, off, V = 0, t;
	int sh;

	memset(b, 0, sizeof(*b));
	b->kind = fz_below(r, 100) < 55 ? B_CONST : B_VAR;
	if (*ndiamonds < P_MAX_DIAMONDS && fz_pct(r, 12)) {
		b->kind = B_DIAMOND;
		(*ndiamonds)++;
	}
	if (room < 0)
		room = 0;
	if (b->kind == B_VAR) {
		b->src_sz = 1 << fz_below(r, 4);
		while (b->src_sz > S)
			b->src_sz >>= 1;
		b->src_off = pg_pick(r, 0, S - b->src_sz);
		b->bound = fz_pct(r, 55) ? BD_MASK : fz_pct(r, 70) ? BD_JGT : BD_JSGT;
		sh = 0;
		while ((1 << sh) < align && sh < 3)
			sh++;
		b->shift = fz_pct(r, 30) ? fz_range(r, sh, 3) : sh;
		V = fz_pct(r, 20) ? 0 : pg_pick(r, 0, (room >> b->shift));
		if (b->bound == BD_MASK) {
			/* a mask of V's bits: a power of two minus one, or V */
			b->bval = fz_pct(r, 50) && V ? (~0U >> (32 - p_fls(V))) : V;
			if ((__s64)b->bval << b->shift > room)
				b->bval = V;
		} else {
			b->bval = V;
		}
		V = (__s64)(b->bound == BD_MASK ? b->bval & p_srcmax(b->src_sz) :
				fz_min((__u64)(b->bval), (__u64)(p_srcmax(b->src_sz)))) << b->shift;
		if (b->src_sz == 8 && b->bound == BD_JSGT)
			b->bound = BD_JGT;
	}
	/* the constant part, split between the pointer and the instruction */
	t = pg_pick(r, 0, room - V) / align * align;
	c = fz_pct(r, 50) ? 0 : pg_pick(r, 0, t) / align * align;
	off = t - c;
	if (b->kind == B_DIAMOND) {
		b->src_off = pg_pick(r, 0, S - 1);
		b->T = fz_range(r, 0, 254);
		b->c = c;
		b->c2 = pg_pick(r, 0, room) / align * align - off;
		if (b->c2 < 0) {
			off += b->c2;
			b->c -= b->c2;
			b->c2 = 0;
		}
	} else {
		b->c = c;
	}

	if (!edge)
		return off;
	/* Off by a little, somewhere. */
	switch (fz_below(r, 12)) {
	case 0:		/* past the end */
		off = room - b->c - V + fz_range(r, 1, 8);
		break;
	case 1:		/* before the start */
		off = -fz_range(r, 1, 8) - b->c;
		break;
	case 2:		/* through a pointer below the start, back in bounds */
		b->c = -fz_range(r, 1, 64);
		off = -b->c + fz_below(r, 2);
		break;
	case 3:		/* a constant too big for pointer arithmetic */
		b->c = fz_pct(r, 50) ? MAX_VAR_OFF + fz_below(r, 16) :
				       -MAX_VAR_OFF - fz_below(r, 16);
		break;
	case 4:		/* an unbounded index */
		if (b->kind == B_VAR)
			b->bound = BD_NONE;
		else
			off += S;
		break;
	case 5:		/* a 64-bit index, unbounded below */
		if (b->kind == B_VAR) {
			b->src_sz = 8;
			b->bound = fz_pct(r, 50) ? BD_NONE : BD_JSGT;
		} else {
			off -= S;
		}
		break;
	case 6:		/* a bound a little too loose */
		if (b->kind == B_VAR)
			b->bval += fz_range(r, 1, 4);
		else
			off++;
		break;
	case 7:		/* a diamond's other side out of bounds */
		if (b->kind == B_DIAMOND)
			b->c2 = room + fz_range(r, 1, 8) - off;
		else
			off--;
		break;
	case 8:		/* the index itself read out of bounds */
		if (b->kind != B_CONST)
			b->src_off = S - fz_range(r, 0, 2);
		else
			off += 1;
		break;
	case 9:		/* misaligned */
		off += fz_pct(r, 50) ? 1 : -1;
		break;
	case 10:	/* an index shifted too far */
		b->shift = 4 + fz_below(r, 4);
		break;
	default:
		off = (__s16)fz_next(r);
	}
	if (off > SHRT_MAX || off < SHRT_MIN)
		off = (__s16)off;
	return off;
}

static void pg_prog(struct fz_rng *r, struct pprog *pp, int S, int nslot_max)
{
	static const int aops[] = {
		BPF_ADD, BPF_AND, BPF_OR, BPF_XOR, BPF_ADD | BPF_FETCH, BPF_AND | BPF_FETCH,
		BPF_OR | BPF_FETCH, BPF_XOR | BPF_FETCH, BPF_XCHG, BPF_CMPXCHG,
	};
	int i, k, slot = 1, align;
	bool fuzzy = fz_pct(r, 45);
	struct pop *o;

	memset(pp, 0, sizeof(*pp));
	pp->S = S;
	pp->nops = fz_range(r, 1, P_MAX_OPS);
	for (i = 0; i < pp->nops; i++) {
		o = &pp->ops[i];
		k = fz_below(r, 100);
		o->kind = k < 22 ? P_LD : k < 28 ? P_LDSX : k < 38 ? P_ST : k < 50 ? P_STX :
			  k < 68 ? P_ATOMIC : k < 73 ? P_LDACQ : k < 78 ? P_STREL :
			  k < 85 ? P_COMM : k < 92 ? P_PROBE_READ : k < 99 ? P_MAP_UPDATE :
			  P_TAIL_CALL;
		switch (o->kind) {
		case P_LDSX:
			o->sz = 1 << fz_below(r, 3);
			break;
		case P_ATOMIC:
			/* 4 or 8 bytes; 1 or 2 (EINVAL) in fuzzy programs */
			o->sz = fz_pct(r, fuzzy ? 90 : 100) ? 4 : 1;
			o->sz <<= fz_below(r, 2);
			o->aop = FZ_PICK(r, aops);
			break;
		case P_COMM:
			o->sz = fz_pct(r, 90) ? fz_range(r, 1, 24) : 0;
			break;
		case P_PROBE_READ:
			o->sz = fz_pct(r, 90) ? fz_range(r, 1, fz_min(32, fz_max(1, S / 2))) : 0;
			break;
		case P_MAP_UPDATE:
			o->sz = COPY_SIZE;
			break;
		default:
			o->sz = 1 << fz_below(r, 4);
		}
		if (!fuzzy) {
			/* what fits in S, mostly */
			if ((o->kind == P_ATOMIC && S < 4) || (o->kind == P_MAP_UPDATE && S < 12)) {
				o->kind = P_LD;
				o->sz = S >= 2 ? 2 : 1;
			}
			if (o->kind == P_COMM)
				o->sz = fz_max(1, fz_min(o->sz, S));
			while (o->sz > S && o->kind != P_ATOMIC && o->kind != P_MAP_UPDATE)
				o->sz >>= 1;
			if (o->kind == P_ATOMIC && o->sz > S)
				o->sz = 4;
		}
		align = o->kind == P_ATOMIC || o->kind == P_LDACQ || o->kind == P_STREL ? o->sz : 1;
		if (align < 1)
			align = 1;
		o->off = pg_base(r, &o->b, S, o->sz, align, fuzzy && fz_pct(r, 35),
				 &pp->ndiamonds);
		o->val = fz_next(r);
		o->imm = (__s32)fz_next(r);
		o->cmp = fz_next(r);
		/* a source in the blob; pe_op() moves it off the
		 * destination where it can
		 */
		if (o->kind == P_PROBE_READ)
			o->src2 = fz_pct(r, 50) ? 0 : fz_max(0, S - o->sz);
		if (o->kind == P_LD || o->kind == P_LDSX || o->kind == P_LDACQ ||
		    (o->kind == P_ATOMIC && (o->aop & BPF_FETCH || o->aop == BPF_XCHG ||
					     o->aop == BPF_CMPXCHG)))
			o->slot = slot < nslot_max ? slot++ : nslot_max;
	}
}

/* Emit the program: prologue (pid filter, results map, run count, the blob
 * pointer in r7, the results in r8), the ops through r9, exit.
 */
struct pbuild {
	struct bpf_insn in[P_MAX_INSNS];
	int n, exits[P_MAX_INSNS], nexits;
};

static void pb(struct pbuild *b, struct bpf_insn insn)
{
	if (b->n < P_MAX_INSNS)
		b->in[b->n++] = insn;
}

static void pb_exit_jump(struct pbuild *b, struct bpf_insn insn)
{
	b->exits[b->nexits++] = b->n;
	pb(b, insn);
}

static void pb_ld64(struct pbuild *b, int reg, __u64 v)
{
	struct bpf_insn ld[] = { BPF_LD_IMM64(reg, v) };

	pb(b, ld[0]);
	pb(b, ld[1]);
}

static void pb_map(struct pbuild *b, int reg, int fd)
{
	struct bpf_insn ld[] = { BPF_LD_MAP_FD(reg, fd) };

	pb(b, ld[0]);
	pb(b, ld[1]);
}

static void pb_prologue(struct pbuild *b, int results_fd, __u32 pid)
{
	pb(b, BPF_MOV64_REG(BPF_REG_6, BPF_REG_1));
	pb(b, BPF_EMIT_CALL(BPF_FUNC_get_current_pid_tgid));
	pb(b, BPF_ALU64_IMM(BPF_RSH, BPF_REG_0, 32));
	pb_exit_jump(b, BPF_JMP_IMM(BPF_JNE, BPF_REG_0, pid, 0));
	pb(b, BPF_ST_MEM(BPF_W, BPF_REG_10, -4, 0));
	pb_map(b, BPF_REG_1, results_fd);
	pb(b, BPF_MOV64_REG(BPF_REG_2, BPF_REG_10));
	pb(b, BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -4));
	pb(b, BPF_EMIT_CALL(BPF_FUNC_map_lookup_elem));
	pb_exit_jump(b, BPF_JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 0));
	pb(b, BPF_MOV64_REG(BPF_REG_8, BPF_REG_0));
	pb(b, BPF_MOV64_IMM(BPF_REG_1, 1));
	pb(b, BPF_ATOMIC_OP(BPF_DW, BPF_ADD, BPF_REG_8, BPF_REG_1, 0));
	pb(b, BPF_MOV64_REG(BPF_REG_1, BPF_REG_6));
	pb(b, BPF_EMIT_CALL(BPF_FUNC_get_attach_cookie));
	pb(b, BPF_MOV64_REG(BPF_REG_7, BPF_REG_0));
}

static int pb_finish(struct pbuild *b)
{
	int i, at;

	at = b->n;
	pb(b, BPF_MOV64_IMM(BPF_REG_0, 0));
	pb(b, BPF_EXIT_INSN());
	for (i = 0; i < b->nexits; i++)
		b->in[b->exits[i]].off = at - b->exits[i] - 1;
	return b->n < P_MAX_INSNS ? 0 : -E2BIG;
}

static int p_bpf_size(int sz)
{
	return sz == 1 ? BPF_B : sz == 2 ? BPF_H : sz == 4 ? BPF_W : BPF_DW;
}

static void pb_base(struct pbuild *b, const struct pbase *pbs)
{
	switch (pbs->kind) {
	case B_CONST:
		pb(b, BPF_MOV64_REG(BPF_REG_9, BPF_REG_7));
		if (pbs->c)
			pb(b, BPF_ALU64_IMM(BPF_ADD, BPF_REG_9, pbs->c));
		return;
	case B_DIAMOND:
		pb(b, BPF_LDX_MEM(BPF_B, BPF_REG_1, BPF_REG_7, pbs->src_off));
		pb(b, BPF_MOV64_REG(BPF_REG_9, BPF_REG_7));
		pb(b, BPF_JMP_IMM(BPF_JGT, BPF_REG_1, pbs->T, 2));
		pb(b, BPF_ALU64_IMM(BPF_ADD, BPF_REG_9, pbs->c));
		pb(b, BPF_JMP_A(1));
		pb(b, BPF_ALU64_IMM(BPF_ADD, BPF_REG_9, pbs->c2));
		return;
	}
	pb(b, BPF_LDX_MEM(p_bpf_size(pbs->src_sz), BPF_REG_1, BPF_REG_7, pbs->src_off));
	switch (pbs->bound) {
	case BD_MASK:
		pb(b, BPF_ALU64_IMM(BPF_AND, BPF_REG_1, pbs->bval));
		break;
	case BD_JGT:
		pb_exit_jump(b, BPF_JMP_IMM(BPF_JGT, BPF_REG_1, pbs->bval, 0));
		break;
	case BD_JSGT:
		pb_exit_jump(b, BPF_JMP_IMM(BPF_JSGT, BPF_REG_1, pbs->bval, 0));
		break;
	}
	if (pbs->shift)
		pb(b, BPF_ALU64_IMM(BPF_LSH, BPF_REG_1, pbs->shift));
	pb(b, BPF_MOV64_REG(BPF_REG_9, BPF_REG_7));
	if (pbs->c)
		pb(b, BPF_ALU64_IMM(BPF_ADD, BPF_REG_9, pbs->c));
	pb(b, BPF_ALU64_REG(BPF_ADD, BPF_REG_9, BPF_REG_1));
}

static void pb_op(struct pbuild *b, const struct pop *o, int copy_fd, int prog_array_fd)
{
	int sz = p_bpf_size(o->sz);

	pb_base(b, &o->b);
	switch (o->kind) {
	case P_LD:
		pb(b, BPF_LDX_MEM(sz, BPF_REG_1, BPF_REG_9, o->off));
		break;
	case P_LDSX:
		pb(b, BPF_RAW_INSN(BPF_LDX | BPF_MEMSX | sz, BPF_REG_1, BPF_REG_9, o->off, 0));
		break;
	case P_ST:
		pb(b, BPF_ST_MEM(sz, BPF_REG_9, o->off, o->imm));
		break;
	case P_STX:
		pb_ld64(b, BPF_REG_1, o->val);
		pb(b, BPF_STX_MEM(sz, BPF_REG_9, BPF_REG_1, o->off));
		break;
	case P_ATOMIC:
		pb_ld64(b, BPF_REG_1, o->val);
		if (o->aop == BPF_CMPXCHG)
			pb_ld64(b, BPF_REG_0, o->cmp);
		pb(b, BPF_ATOMIC_OP(sz, o->aop, BPF_REG_9, BPF_REG_1, o->off));
		if (o->aop == BPF_CMPXCHG)
			pb(b, BPF_MOV64_REG(BPF_REG_1, BPF_REG_0));
		break;
	case P_LDACQ:
		pb(b, BPF_ATOMIC_OP(sz, BPF_LOAD_ACQ, BPF_REG_1, BPF_REG_9, o->off));
		break;
	case P_STREL:
		pb_ld64(b, BPF_REG_1, o->val);
		pb(b, BPF_ATOMIC_OP(sz, BPF_STORE_REL, BPF_REG_9, BPF_REG_1, o->off));
		break;
	case P_COMM:
		pb(b, BPF_MOV64_REG(BPF_REG_1, BPF_REG_9));
		if (o->off)
			pb(b, BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, o->off));
		pb(b, BPF_MOV64_IMM(BPF_REG_2, o->sz));
		pb(b, BPF_EMIT_CALL(BPF_FUNC_get_current_comm));
		break;
	case P_PROBE_READ:
		pb(b, BPF_MOV64_REG(BPF_REG_1, BPF_REG_9));
		if (o->off)
			pb(b, BPF_ALU64_IMM(BPF_ADD, BPF_REG_1, o->off));
		pb(b, BPF_MOV64_IMM(BPF_REG_2, o->sz));
		pb(b, BPF_MOV64_REG(BPF_REG_3, BPF_REG_7));
		if (o->src2)
			pb(b, BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, o->src2));
		pb(b, BPF_EMIT_CALL(BPF_FUNC_probe_read_kernel));
		break;
	case P_MAP_UPDATE:
		pb_map(b, BPF_REG_1, copy_fd);
		pb(b, BPF_MOV64_REG(BPF_REG_2, BPF_REG_10));
		pb(b, BPF_ALU64_IMM(BPF_ADD, BPF_REG_2, -4));
		pb(b, BPF_MOV64_REG(BPF_REG_3, BPF_REG_9));
		if (o->off)
			pb(b, BPF_ALU64_IMM(BPF_ADD, BPF_REG_3, o->off));
		pb(b, BPF_MOV64_IMM(BPF_REG_4, 0));
		pb(b, BPF_EMIT_CALL(BPF_FUNC_map_update_elem));
		break;
	case P_TAIL_CALL:
		pb(b, BPF_MOV64_REG(BPF_REG_1, BPF_REG_6));
		pb_map(b, BPF_REG_2, prog_array_fd);
		pb(b, BPF_MOV64_IMM(BPF_REG_3, 0));
		pb(b, BPF_EMIT_CALL(BPF_FUNC_tail_call));
		break;
	}
	if (o->slot)
		pb(b, BPF_STX_MEM(BPF_DW, BPF_REG_8, BPF_REG_1, o->slot * 8));
}

/* How a program of the programs subtest runs. */
enum { RUN_KPROBE, RUN_UPROBE, RUN_TP, RUN_UMULTI, RUN_NMODES };
static const char *const run_names[] = { "kprobe", "uprobe", "tracepoint", "uprobe_multi" };

struct prun {
	long accepted[P_NKINDS], refused[P_NKINDS], ran[RUN_NMODES];
	struct fz_maps maps;
	int prog_array;
	int pe[RUN_NMODES];		/* perf events (RUN_UMULTI: none) */
	__u64 offsets[FZ_NTARGETS];	/* of the uprobe targets */
	__u32 pid;
	char comm[16];
};

/* A declared type of @S bytes: a struct of scalars and a byte array, or
 * a union; what it is made of does not change what may be accessed.
 */
static int p_type(struct fz_rng *r, struct btf *btf, int S)
{
	int u8 = btf__add_int(btf, "unsigned char", 1, 0);
	int u32 = btf__add_int(btf, "unsigned int", 4, 0);
	int u64 = btf__add_int(btf, "unsigned long", 8, 0);
	int arr, s;

	if (S >= 16 && fz_pct(r, 50)) {
		arr = btf__add_array(btf, u32, u8, S - 12);
		s = btf__add_struct(btf, "blob", S);
		btf__add_field(btf, "id", u64, 0, 0);
		btf__add_field(btf, "n", u32, 64, 0);
		btf__add_field(btf, "bytes", arr, 96, 0);
		return s;
	}
	arr = btf__add_array(btf, u32, u8, S);
	s = fz_pct(r, 20) ? btf__add_union(btf, "blob", S) : btf__add_struct(btf, "blob", S);
	btf__add_field(btf, "bytes", arr, 0, 0);
	return s;
}

static void p_describe(const struct pprog *pp, char *buf, size_t sz)
{
	const struct pop *o;
	size_t n = 0;
	int i;

	n += snprintf(buf + n, sz - n, "S=%d:", pp->S);
	for (i = 0; i < pp->nops && n < sz; i++) {
		o = &pp->ops[i];
		n += snprintf(buf + n, sz - n, " %s%d", p_kind_names[o->kind], o->sz);
		if (o->b.kind == B_CONST)
			n += snprintf(buf + n, sz - n, "[%d%+d]", o->b.c, o->off);
		else if (o->b.kind == B_DIAMOND)
			n += snprintf(buf + n, sz - n, "[%d|%d%+d]", o->b.c, o->b.c2, o->off);
		else
			n += snprintf(buf + n, sz - n, "[%d+(u%d@%d %s%u <<%d)%+d]", o->b.c,
				      o->b.src_sz * 8, o->b.src_off,
				      o->b.bound == BD_MASK ? "&" : o->b.bound == BD_JGT ? "<=" :
				      o->b.bound == BD_JSGT ? "s<=" : "any", o->b.bval,
				      o->b.shift, o->off);
	}
}

/* Attach the loaded program with @blob, run it once, and compare. */
static void p_run(struct fz *f, struct prun *pr, int mode, int prog_fd, const struct pprog *pp,
		  const __u8 *blob0, const struct pemu *e, const char *desc)
{
	union bpf_attr attr = {};
	__u8 back[AD_MAX_SIZE + 8];
	__u64 res[FZ_SLOTS] = {};
	__u8 copy[COPY_SIZE];
	__u32 key = 0, len = 0;
	__u64 off;
	int fd, err, i;

	attr.link_create.prog_fd = prog_fd;
	if (mode == RUN_UMULTI) {
		off = pr->offsets[1];
		attr.link_create.attach_type = BPF_TRACE_UPROBE_MULTI;
		attr.link_create.uprobe_multi.path = ptr_to_u64("/proc/self/exe");
		attr.link_create.uprobe_multi.offsets = ptr_to_u64(&off);
		attr.link_create.uprobe_multi.cnt = 1;
		attr.link_create.uprobe_multi.attach_data = ptr_to_u64(blob0);
		attr.link_create.uprobe_multi.attach_data_size = pp->S;
	} else {
		attr.link_create.target_fd = pr->pe[mode];
		attr.link_create.attach_type = BPF_PERF_EVENT;
		attr.link_create.perf_event.attach_data = ptr_to_u64(blob0);
		attr.link_create.perf_event.attach_data_size = pp->S;
	}
	fd = fz_link_create(f, &attr);
	if (!fz_check(f, fd < 0 ? -fd : 0, FZ_BIT(FZ_OK), "attach of an accepted program")) {
		if (f->fails <= FZ_MAX_REPORTS)
			printf("  program: %s\n", desc);
		return;
	}
	switch (mode) {
	case RUN_UPROBE:
		FZ_TIMED(f, "uprobe hit", fz_targets[0](1));
		break;
	case RUN_UMULTI:
		FZ_TIMED(f, "uprobe hit", fz_targets[1](1));
		break;
	default:
		FZ_TIMED(f, "getpgid", (fz_trigger_syscall(), 0));
	}

	f->runs++;
	pr->ran[mode]++;
	err = FZ_TIMED(f, "map_lookup", bpf_map_lookup_elem(pr->maps.results, &key, res));
	if (!err)
		err = FZ_TIMED(f, "map_lookup", bpf_map_lookup_elem(pr->maps.copy, &key, copy));
	if (err) {
		fz_fail(f, "results map: %s", fz_errname(errno));
		goto out;
	}
	memset(back, 0xa5, sizeof(back));
	err = fz_read_blobs(f, fd, back, pp->S + 8, &len);
	fz_check(f, -err, FZ_BIT(FZ_OK), "link info of the run's link");
	if (res[0] != 1) {
		fz_fail(f, "%s: the program ran %llu times, not once: %s", run_names[mode],
			(unsigned long long)res[0], desc);
		goto out;
	}
	for (i = 1; i < FZ_SLOTS; i++) {
		if (res[i] != e->slots[i]) {
			fz_fail(f, "%s: slot %d is %#llx, emulation says %#llx: %s",
				run_names[mode], i, (unsigned long long)res[i],
				(unsigned long long)e->slots[i], desc);
			goto out;
		}
	}
	if (e->copied && memcmp(copy, e->copy, COPY_SIZE)) {
		fz_fail(f, "%s: bpf_map_update_elem() copied other bytes: %s", run_names[mode],
			desc);
		goto out;
	}
	if (!err && (len != (__u32)pp->S || memcmp(back, e->blob, pp->S) ||
		     back[pp->S] != 0xa5)) {
		for (i = 0; i < pp->S && back[i] == e->blob[i]; i++)
			;
		fz_fail(f, "%s: blob read back (len %u) differs at byte %d: %#x, emulation %#x: %s",
			run_names[mode], len, i, back[i], i < pp->S ? e->blob[i] : 0xa5, desc);
	}
out:
	fz_close(f, fd);
	fz_maps_reset(f, &pr->maps);
}

/* The ways in that have no link, and so no blob: all EINVAL. */
static void p_doors(struct fz *f, struct prun *pr, int mode, int fd)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	__u32 key = 0;
	int err, tfd;

	switch (fz_below(&f->rng, 4)) {
	case 0:
		err = FZ_TIMED(f, "test_run", bpf_prog_test_run_opts(fd, &topts));
		fz_check(f, err ? errno : 0, FZ_BIT(FZ_EINVAL), "BPF_PROG_TEST_RUN");
		break;
	case 1:
		err = FZ_TIMED(f, "ioctl", ioctl(pr->pe[mode == RUN_UMULTI ? RUN_UPROBE : mode],
						 PERF_EVENT_IOC_SET_BPF, fd));
		fz_check(f, err ? errno : 0, FZ_BIT(FZ_EINVAL), "PERF_EVENT_IOC_SET_BPF");
		break;
	case 2:
		err = FZ_TIMED(f, "map_update", bpf_map_update_elem(pr->prog_array, &key, &fd, 0));
		fz_check(f, err ? errno : 0, FZ_BIT(FZ_EINVAL), "program array insert");
		break;
	default:
		tfd = FZ_TIMED(f, "raw_tp_open", bpf_raw_tracepoint_open("sys_enter", fd));
		fz_check(f, tfd < 0 ? errno : 0, FZ_BIT(FZ_EINVAL), "BPF_RAW_TRACEPOINT_OPEN");
		fz_close(f, tfd);
	}
}

static void fz_programs_case(struct fz *f, struct prun *pr)
{
	static const int sizes[] = { 1, 2, 3, 4, 5, 7, 8, 12, 16, 24, 31, 32, 64, 100, 128, 255,
				     256, 1000, 4095, 4096 };
	struct fz_rng *r = &f->rng;
	struct fz_prog p = {};
	struct pbuild b = {};
	struct pprog pp;
	struct pemu e;
	struct btf *btf;
	__u8 blob0[AD_MAX_SIZE];
	char desc[1024], what[64];
	int S, i, mode, btf_fd, fd, err, expect, bad = 0;
	bool sleepable = false;

	S = fz_pct(r, 60) ? fz_range(r, 1, 40) : FZ_PICK(r, sizes);
	mode = fz_below(r, RUN_NMODES);
	if ((mode == RUN_UPROBE || mode == RUN_UMULTI) && fz_pct(r, 25))
		sleepable = true;
	pg_prog(r, &pp, S, FZ_SLOTS - 1);

	/* The blob, and the run emulated on it. */
	for (i = 0; i < S; i++)
		blob0[i] = fz_pct(r, 30) ? fz_below(r, 8) : (__u8)fz_next(r);
	memset(&e, 0, sizeof(e));
	memcpy(e.blob, blob0, S);
	memcpy(e.comm, pr->comm, sizeof(e.comm));
	for (i = 0; i < pp.nops; i++)
		pe_op(&e, &pp.ops[i], S);

	btf = btf__new_empty();
	if (!btf) {
		fz_fail(f, "btf__new_empty");
		return;
	}
	p.btf_id = p_type(r, btf, S);
	btf_fd = fz_btf_load(f, btf);
	btf__free(btf);
	if (btf_fd < 0) {
		fz_fail(f, "BTF not loaded: %s", fz_errname(-btf_fd));
		return;
	}

	pb_prologue(&b, pr->maps.results, pr->pid);
	for (i = 0; i < pp.nops; i++)
		pb_op(&b, &pp.ops[i], pr->maps.copy, pr->prog_array);
	if (pb_finish(&b)) {
		fz_fail(f, "program too long");
		goto out;
	}
	p.type = mode == RUN_TP ? BPF_PROG_TYPE_TRACEPOINT : BPF_PROG_TYPE_KPROBE;
	p.eat = mode == RUN_UMULTI ? BPF_TRACE_UPROBE_MULTI : 0;
	p.flags = sleepable ? BPF_F_SLEEPABLE : 0;
	p.btf_fd = btf_fd;
	p.insns = b.in;
	p.cnt = b.n;

	expect = pm_prog(&pp, &bad);
	if (expect)
		pr->refused[pp.ops[bad].kind]++;
	else
		for (i = 0; i < pp.nops; i++)
			pr->accepted[pp.ops[i].kind]++;
	p_describe(&pp, desc, sizeof(desc));
	fd = fz_prog_load(f, &p, false);
	err = fd < 0 ? -fd : 0;
	snprintf(what, sizeof(what), "%s%s program load", run_names[mode], sleepable ? ".s" : "");
	if (!fz_check(f, err, FZ_BIT(expect), what)) {
		if (f->fails <= FZ_MAX_REPORTS) {
			printf("  program: %s\n", desc);
			fz_close(f, fd);
			fd = fz_prog_load(f, &p, true);
			printf("  verifier: %s\n", fz_log_tail());
		}
		goto out_prog;
	}
	if (fd < 0)
		goto out;
	if (fz_pct(r, 8))
		p_doors(f, pr, mode, fd);
	/* Run about half of the accepted ones: the emulation must match. */
	if (!e.broken && fz_pct(r, 50))
		p_run(f, pr, mode, fd, &pp, blob0, &e, desc);
	else if (e.broken)
		fz_fail(f, "emulation out of bounds in an accepted program: %s", desc);
out_prog:
	fz_close(f, fd);
out:
	fz_close(f, btf_fd);
}

static int fz_make_maps(struct fz *f, struct fz_maps *m, bool copy)
{
	m->copy = -1;
	m->results = FZ_TIMED(f, "map_create",
			      bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, FZ_SLOTS * 8, 1, NULL));
	if (!ASSERT_OK_FD(m->results, "results_map"))
		return -1;
	if (copy) {
		m->copy = FZ_TIMED(f, "map_create",
				   bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, COPY_SIZE, 1, NULL));
		if (!ASSERT_OK_FD(m->copy, "copy_map"))
			return -1;
	}
	return 0;
}

static bool fz_target_offsets(__u64 *offsets)
{
	ssize_t off;
	int i;

	for (i = 0; i < FZ_NTARGETS; i++) {
		off = get_uprobe_offset(fz_targets[i]);
		if (!ASSERT_GE(off, 0, "uprobe_offset"))
			return false;
		offsets[i] = off;
	}
	return true;
}

static void test_programs(struct fz *f)
{
	struct prun pr = {};
	int i;

	for (i = 0; i < RUN_NMODES; i++)
		pr.pe[i] = -1;
	pr.maps.results = -1;
	pr.maps.copy = -1;
	pr.prog_array = FZ_TIMED(f, "map_create", bpf_map_create(BPF_MAP_TYPE_PROG_ARRAY, NULL,
								 4, 4, 1, NULL));
	if (!ASSERT_OK_FD(pr.prog_array, "prog_array") || fz_make_maps(f, &pr.maps, true))
		goto out;
	if (!fz_target_offsets(pr.offsets))
		goto out;
	pr.pid = getpid();
	prctl(PR_GET_NAME, pr.comm);
	pr.pe[RUN_KPROBE] = FZ_TIMED(f, "perf_event_open", fz_perf_kprobe());
	pr.pe[RUN_UPROBE] = FZ_TIMED(f, "perf_event_open", fz_perf_uprobe(pr.offsets[0]));
	pr.pe[RUN_TP] = FZ_TIMED(f, "perf_event_open", fz_perf_tp(false));
	if (!ASSERT_OK_FD(pr.pe[RUN_KPROBE], "kprobe_event") ||
	    !ASSERT_OK_FD(pr.pe[RUN_UPROBE], "uprobe_event") ||
	    !ASSERT_OK_FD(pr.pe[RUN_TP], "tracepoint_event"))
		goto out;
	while (fz_next_case(f))
		fz_programs_case(f, &pr);
	printf("fuzz programs: ops of accepted programs:");
	for (i = 0; i < P_NKINDS; i++)
		printf(" %s %ld", p_kind_names[i], pr.accepted[i]);
	printf("\nfuzz programs: first refused op:");
	for (i = 0; i < P_NKINDS; i++)
		printf(" %s %ld", p_kind_names[i], pr.refused[i]);
	printf("\nfuzz programs: runs:");
	for (i = 0; i < RUN_NMODES; i++)
		printf(" %s %ld", run_names[i], pr.ran[i]);
	printf("\n");
out:
	for (i = 0; i < RUN_NMODES; i++)
		if (pr.pe[i] >= 0)
			close(pr.pe[i]);
	if (pr.maps.results >= 0)
		close(pr.maps.results);
	if (pr.maps.copy >= 0)
		close(pr.maps.copy);
	if (pr.prog_array >= 0)
		close(pr.prog_array);
}

/* ---------------------------------------------------------------------- */
/* link_create: random attach data fields, every link type that has them.  */

/* The model, from the docs' "Attaching" table (perf-event links):
 *
 *   program declared attach data, size differs (no data at all too) EINVAL
 *   attach data given, program declared none (pointer or size)       EINVAL
 *   both a BPF cookie and attach data                                EINVAL
 *   attach data pointer NULL                                         EINVAL
 *   any blob unreadable (any of its bytes)                           EFAULT
 *   perf event created with attr.inherit                             EINVAL
 *
 * and for uprobe_multi links the same, with cookies in place of the BPF
 * cookie: a range of cnt * attach_data_size bytes that is not a user
 * address range, EFAULT too.
 *
 * and for kprobe_multi links (by name) the same as uprobe_multi's; for both,
 * more than AD_MAX_TOTAL bytes of blobs E2BIG, before the range is looked
 * at; for raw tracepoint links (BPF_RAW_TRACEPOINT_OPEN) the same as
 * perf-event links'.
 *
 * Errors that are not attach data's, as the kernel has them: a program of
 * another type than the event (or the link type) EINVAL, a target fd that
 * is no perf event EBADF; for uprobe_multi, cnt 0 EINVAL, more than
 * MAX_UPROBE_MULTI_CNT (1 << 20) E2BIG, an offsets or cookies array not
 * readable EFAULT; for kprobe_multi, cnt 0 EINVAL, more than
 * MAX_KPROBE_MULTI_CNT (1 << 20) E2BIG, a symbol array not readable EFAULT,
 * a symbol given twice ESRCH.  These links are checked for their errno
 * only.
 *
 * On success: link info reports the declared type's id and size, the blob
 * (or the cnt blobs, packed) as passed, the cookie(s) as 0 with attach data
 * and as passed without; a buffer with a length of 0 is EINVAL (ignored
 * without attach data), a short one gets the first bytes; and the program,
 * when the probe fires, sees its blob (or its cookie).
 */

#define LC_AREA		(4 << 20)	/* blobs: readable, followed by a guard page */
#define LC_MAX_OFFS	32768		/* offsets and cookies arrays */
#define UMULTI_MAX_CNT	(1U << 20)	/* MAX_UPROBE_MULTI_CNT */
#define LC_PAGE		4096

#define KMULTI_MAX_CNT	(1U << 20)	/* MAX_KPROBE_MULTI_CNT */
#define AD_MAX_TOTAL	(64ULL << 20)	/* BPF_ATTACH_DATA_MAX_TOTAL */

enum { PK_KPROBE, PK_TP, PK_UMULTI, PK_KMULTI, PK_RAWTP, PK_N };	/* program kinds */
static const char *const pk_names[] = {
	"kprobe", "tracepoint", "uprobe_multi", "kprobe_multi", "raw_tracepoint",
};
static const int lc_sizes[] = { 0, 1, 3, 8, 12, 64, 4096 };	/* 0: no attach data */
#define LC_NSIZES	ARRAY_SIZE(lc_sizes)

/* link targets, and the program kind each takes */
enum { LT_KPROBE, LT_UPROBE, LT_TP, LT_TP_INHERIT, LT_UMULTI, LT_KMULTI, LT_RAWTP, LT_N };
static const char *const lt_names[] = {
	"kprobe", "uprobe", "tracepoint", "tracepoint(inherit)", "uprobe_multi", "kprobe_multi",
	"raw_tracepoint",
};
static const int lt_pk[] = { PK_KPROBE, PK_KPROBE, PK_TP, PK_TP, PK_UMULTI, PK_KMULTI, PK_RAWTP };

/* kprobe_multi targets: syscalls the fuzzer's own task makes rarely */
static const char *const kmulti_funcs[] = {
	SYS_PREFIX "sys_getpgid", SYS_PREFIX "sys_getsid", SYS_PREFIX "sys_getppid",
	SYS_PREFIX "sys_getpriority",
};
#define KMULTI_NFUNCS	ARRAY_SIZE(kmulti_funcs)

struct lc {
	struct fz_maps maps;
	int progs[PK_N][LC_NSIZES];
	__u32 btf_ids[PK_N][LC_NSIZES];
	int btf_fds[PK_N][LC_NSIZES];
	int pe[LT_N];
	int not_perf_fd;
	__u64 target_offs[FZ_NTARGETS];
	__u8 *area;		/* LC_AREA bytes, then a PROT_NONE page */
	__u8 *ro;		/* one read-only page */
	__u64 *offs;		/* LC_MAX_OFFS offsets, then a PROT_NONE page */
	__u64 *cookies;		/* LC_MAX_OFFS cookies, then a PROT_NONE page */
	__u64 *syms;		/* LC_MAX_OFFS symbol pointers, then a PROT_NONE page */
	__u8 *back;		/* link info's copy */
	__u32 pid;
	long null_einval, null_efault;
};

static bool lc_in(const void *p, __u64 len, const void *start, __u64 size)
{
	__u64 a = (__u64)(unsigned long)p, s = (__u64)(unsigned long)start;

	return a >= s && a - s <= size && len <= size - (a - s);
}

/* Is [p, p + len) readable memory of ours? */
static bool lc_readable(struct lc *lc, const void *p, __u64 len)
{
	if (!len)
		return true;
	return lc_in(p, len, lc->area, LC_AREA) || lc_in(p, len, lc->ro, LC_PAGE) ||
	       lc_in(p, len, lc->offs, LC_MAX_OFFS * 8) ||
	       lc_in(p, len, lc->cookies, LC_MAX_OFFS * 8) ||
	       lc_in(p, len, lc->syms, LC_MAX_OFFS * 8);
}

/* access_ok(): within the user address space (x86-64, 4-level paging). */
static bool lc_user_range(const void *p, __u64 len)
{
	__u64 a = (__u64)(unsigned long)p, top = 0x7ffffffff000ULL;

	return a <= top && len <= top - a;
}

/* A pointer for @len bytes of attach data: mostly readable, else not. */
static const void *lc_ptr(struct fz_rng *r, struct lc *lc, __u64 len, const char **kind)
{
	__u64 room = len < LC_AREA ? LC_AREA - len : 0;
	int k = fz_below(r, 100);

	if (k < 62) {
		*kind = "valid";
		if (len <= LC_PAGE && fz_pct(r, 10)) {
			*kind = "read-only";
			return lc->ro + fz_below(r, LC_PAGE - len + 1);
		}
		return lc->area + (fz_pct(r, 50) ? fz_below(r, room + 1) & ~7ULL :
						   fz_below(r, room + 1));
	}
	if (k < 70) {
		*kind = "NULL";
		return NULL;
	}
	if (k < 78) {
		*kind = "partly past the end";
		return lc->area + LC_AREA - fz_below(r, len);
	}
	if (k < 83) {
		*kind = "guard page";
		return lc->area + LC_AREA + fz_below(r, LC_PAGE);
	}
	if (k < 87) {
		*kind = "low address";
		return (const void *)(unsigned long)(0x1000 + fz_below(r, 0x1000));
	}
	if (k < 91) {
		*kind = "kernel address";
		return (const void *)(unsigned long)(fz_pct(r, 50) ? 0xffffffff81000000ULL :
						     0xffff888000000000ULL + fz_below(r, 4096));
	}
	if (k < 95) {
		*kind = "non-canonical";
		return (const void *)(unsigned long)(0x8000000000000000ULL + fz_below(r, 64));
	}
	/* running past the end of user space */
	*kind = "top of user space";
	return (const void *)(unsigned long)(0x7ffffffff000ULL - fz_below(r, len ? len : 1));
}

static __u32 lc_size(struct fz_rng *r, int S)
{
	static const __u32 odd[] = {
		0, 1, 2, 7, 8, 9, 4095, 4096, 4097, 8192, 65536, 0x7fffffff, 0x80000000,
		0xffffffff,
	};

	if (S && fz_pct(r, 70))
		return S;
	if (fz_pct(r, 40))
		return S ? S + (fz_pct(r, 50) ? 1 : -1) : fz_range(r, 1, 16);
	return FZ_PICK(r, odd);
}

/* The value the link_create programs add up for one run: the blob's first
 * 8 bytes, or its last byte if shorter; the cookie without attach data.
 */
static __u64 lc_seen(const __u8 *blob, int S, __u64 cookie)
{
	__u64 v = 0;

	if (!S)
		return cookie;
	if (S >= 8)
		memcpy(&v, blob, 8);
	else
		v = blob[S - 1];
	return v;
}

/* Link info checks on a new link: the attach data fields as declared, the
 * bytes through a buffer of random length: a buffer shorter than the blobs
 * gets what fits and ENOSPC, and the info is not written back.
 */
static void lc_check_info(struct fz *f, struct lc *lc, int fd, bool multi, int S, __u32 cnt,
			  __u32 btf_id, const __u8 *blobs, __u64 cookie, const __u64 *cookies,
			  const char *what)
{
	struct fz_rng *r = &f->rng;
	struct bpf_link_info info = {};
	__u64 total = (__u64)S * cnt, len, i, ulen;
	__u64 *ucookies = NULL;
	fz_set exp = FZ_BIT(FZ_OK);
	void *buf;
	int err, k;

	/* No buffer: type and size only. */
	err = fz_link_info(f, fd, &info);
	if (!fz_check(f, -err, FZ_BIT(FZ_OK), what))
		return;
	if (info.attach_data_len != total || info.attach_data_size != (__u32)S ||
	    info.attach_data_btf_id != btf_id)
		fz_fail(f, "%s: link info says len %u size %u btf_id %u, expected %llu %d %u",
			what, info.attach_data_len, info.attach_data_size, info.attach_data_btf_id,
			(unsigned long long)total, S, btf_id);
	if (multi && info.uprobe_multi.count != cnt)
		fz_fail(f, "%s: link info says count %u, expected %u", what,
			info.uprobe_multi.count, cnt);
	if (!multi && pe_cookie(&info) != (S ? 0 : cookie))
		fz_fail(f, "%s: link info says cookie %#llx, expected %#llx", what,
			(unsigned long long)pe_cookie(&info), (unsigned long long)(S ? 0 : cookie));

	/* A buffer of random length (or none, or an unwritable one). */
	k = fz_below(r, 100);
	buf = lc->back;
	len = fz_range(r, 1, (long)fz_min((__u64)(total + 16), (__u64)(LC_AREA / 2)));
	if (k < 10) {
		buf = NULL;
	} else if (k < 18) {
		len = 0;	/* no room; ignored by a link without attach data */
	} else if (k < 24) {
		buf = lc->area + LC_AREA;	/* the guard page */
		if (S)
			exp = FZ_BIT(FZ_EFAULT);
	}
	if (S && buf == lc->back && len < total)
		exp = FZ_BIT(FZ_ENOSPC);
	if (buf == lc->back)
		memset(buf, 0xa5, fz_min((__u64)(len + 16), (__u64)(LC_AREA / 2 + 16)));
	memset(&info, 0, sizeof(info));
	info.attach_data = ptr_to_u64(buf);
	info.attach_data_len = len;
	if (multi && fz_pct(r, 30) && cnt <= LC_MAX_OFFS) {
		ucookies = lc->cookies;
		memset(ucookies, 0xa5, cnt * 8);
		info.uprobe_multi.cookies = ptr_to_u64(ucookies);
		info.uprobe_multi.count = cnt;
	}
	err = fz_link_info(f, fd, &info);
	if (!fz_check(f, -err, exp, "link info with a buffer") || (err && err != -ENOSPC) ||
	    !buf || buf == lc->area + LC_AREA)
		return;
	/* ENOSPC: the info is not written back, the length is the caller's */
	ulen = info.attach_data_len;
	if (err && ulen != len)
		fz_fail(f, "%s: link info with a %llu-byte buffer failed, and says len %llu",
			what, (unsigned long long)len, (unsigned long long)ulen);
	if (!err && ulen != total)
		fz_fail(f, "%s: link info with a %llu-byte buffer says len %llu, expected %llu",
			what, (unsigned long long)len, (unsigned long long)ulen,
			(unsigned long long)total);
	for (i = 0; i < fz_min(len, total); i++)
		if (((__u8 *)buf)[i] != blobs[i])
			break;
	if (i < fz_min(len, total) || (len > total && ((__u8 *)buf)[total] != 0xa5) ||
	    (len < total && ((__u8 *)buf)[len] != 0xa5))
		fz_fail(f, "%s: link info's blob bytes differ at %llu of %llu (buffer %llu)",
			what, (unsigned long long)i, (unsigned long long)total,
			(unsigned long long)len);
	for (i = 0; ucookies && i < cnt; i++) {
		if (ucookies[i] != (S || !cookies ? 0 : cookies[i])) {
			fz_fail(f, "%s: link info's cookie %llu is %#llx", what,
				(unsigned long long)i, (unsigned long long)ucookies[i]);
			break;
		}
	}
}

/* fdinfo names the type and size of a link's attach data, and reports no
 * address as a cookie.
 */
static void lc_check_fdinfo(struct fz *f, int fd, bool multi, int S, __u32 btf_id,
			    const char *what)
{
	char path[64], buf[4096], line[64];
	ssize_t n;
	int ffd;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	ffd = open(path, O_RDONLY);
	if (ffd < 0) {
		fz_fail(f, "%s: %s: %s", what, path, strerror(errno));
		return;
	}
	n = FZ_TIMED(f, "fdinfo", read(ffd, buf, sizeof(buf) - 1));
	close(ffd);
	if (n <= 0)
		return;
	buf[n] = 0;
	snprintf(line, sizeof(line), "attach_data_btf_id:\t%u\nattach_data_size:\t%d\n", btf_id, S);
	if (S ? !strstr(buf, line) : !!strstr(buf, "attach_data_size"))
		fz_fail(f, "%s: fdinfo %s \"%s\"", what, S ? "lacks" : "has", S ? line :
			"attach_data_size");
	if (S && !multi && !strstr(buf, "cookie:\t0\n"))
		fz_fail(f, "%s: fdinfo reports a cookie that is not 0", what);
}

/* Fire the link's probes once each and check what its program saw. */
static void lc_check_run(struct fz *f, struct lc *lc, int lt, int fd, int S, __u32 cnt,
			 const __u64 *offs, const __u8 *blobs, __u64 cookie, const __u64 *cookies,
			 const char *what)
{
	__u64 res[FZ_SLOTS] = {}, want_n = 0, want_sum = 0;
	bool called[FZ_NTARGETS] = {};
	__u32 key = 0, i;
	int t;

	switch (lt) {
	case LT_KPROBE:
	case LT_TP:
	case LT_TP_INHERIT:
		FZ_TIMED(f, "getpgid", (fz_trigger_syscall(), 0));
		want_n = 1;
		want_sum = lc_seen(blobs, S, cookie);
		break;
	case LT_UPROBE:
		FZ_TIMED(f, "uprobe hit", fz_targets[0](1));
		want_n = 1;
		want_sum = lc_seen(blobs, S, cookie);
		break;
	default:
		for (i = 0; i < cnt; i++) {
			for (t = 0; t < FZ_NTARGETS && lc->target_offs[t] != offs[i]; t++)
				;
			if (t == FZ_NTARGETS)
				continue;
			if (!called[t]) {
				FZ_TIMED(f, "uprobe hit", fz_targets[t](1));
				called[t] = true;
			}
		}
		for (i = 0; i < cnt; i++) {
			want_n++;
			want_sum += lc_seen(blobs + (__u64)i * S, S, cookies ? cookies[i] : 0);
		}
	}
	f->runs++;
	if (FZ_TIMED(f, "map_lookup", bpf_map_lookup_elem(lc->maps.results, &key, res))) {
		fz_fail(f, "results map: %s", fz_errname(errno));
		return;
	}
	if (res[0] != want_n || res[1] != want_sum)
		fz_fail(f, "%s: the program ran %llu times and saw %#llx, expected %llu and %#llx",
			what, (unsigned long long)res[0], (unsigned long long)res[1],
			(unsigned long long)want_n, (unsigned long long)want_sum);
	fz_maps_reset(f, &lc->maps);
}

/* The rules every link type shares (bpf_attach_data_check()): a program
 * with attach data of @S bytes takes exactly one blob of that size and no
 * cookie, a program without takes none.  True when the blobs are copied.
 */
static bool lc_rules(fz_set *exp, int S, __u32 size, const void *data, bool cookie)
{
	if (S ? cookie || size != (__u32)S || !data : data || size) {
		FZ_ADD(*exp, FZ_EINVAL);
		return false;
	}
	return S;
}

static int fz_raw_tp_open(struct fz *f, union bpf_attr *attr)
{
	long fd = FZ_TIMED(f, "raw_tracepoint_open",
			   syscall(__NR_bpf, BPF_RAW_TRACEPOINT_OPEN, attr, sizeof(*attr)));

	return fd < 0 ? -errno : (int)fd;
}

/* kprobe_multi links by name and raw tracepoint links: the errno only. */
static void fz_link_case_more(struct fz *f, struct lc *lc, int lt)
{
	struct fz_rng *r = &f->rng;
	union bpf_attr attr = {};
	const __u64 *cookies = NULL, *syms = NULL;
	const char *pkind = "", *skind = "";
	__u64 cookie = 0, total;
	__u32 size, cnt = 1;
	int pk, si, S, fd, k, cmd = BPF_LINK_CREATE;
	fz_set exp = FZ_BIT(FZ_OK);
	bool copied;
	const void *data;
	char what[200];

	pk = fz_pct(r, 6) ? (int)fz_below(r, PK_N) : lt_pk[lt];
	si = fz_pct(r, 25) ? 0 : fz_range(r, 1, LC_NSIZES - 1);
	S = lc_sizes[si];
	size = lc_size(r, S);
	if (pk != lt_pk[lt])
		FZ_ADD(exp, FZ_EINVAL);

	if (lt == LT_KMULTI) {
		k = fz_below(r, 100);
		cnt = k < 80 ? fz_range(r, 1, KMULTI_NFUNCS) : k < 84 ? 0 :
		      k < 88 ? (fz_pct(r, 50) ? KMULTI_MAX_CNT + 1 : 0xffffffffu) :
		      k < 92 ? KMULTI_MAX_CNT : fz_range(r, KMULTI_NFUNCS + 1, 64);
		/* never have the kernel copy more than 16 MiB of blobs */
		if (cnt > 64 && size == (__u32)S && S && (__u64)cnt * size > (16 << 20) &&
		    (__u64)cnt * size <= AD_MAX_TOTAL)
			size = S + 1;
		total = (__u64)cnt * size;
		data = lc_ptr(r, lc, total, &pkind);
		/* the distinct names first, then repeats; rarely unreadable */
		syms = lc->syms;
		skind = "";
		if (fz_pct(r, 4)) {
			syms = (const __u64 *)(lc->syms + LC_MAX_OFFS) - fz_below(r, 2);
			skind = ", syms at the guard page";
		}
		if (fz_pct(r, 12))
			cookies = lc->cookies + fz_below(r, 64);
		attr.link_create.attach_type = BPF_TRACE_KPROBE_MULTI;
		attr.link_create.kprobe_multi.syms = ptr_to_u64(syms);
		attr.link_create.kprobe_multi.cnt = cnt;
		attr.link_create.kprobe_multi.cookies = ptr_to_u64(cookies);
		attr.link_create.kprobe_multi.attach_data = ptr_to_u64(data);
		attr.link_create.kprobe_multi.attach_data_size = size;
		attr.link_create.kprobe_multi.flags = fz_pct(r, 20) ? BPF_F_KPROBE_MULTI_RETURN : 0;
		attr.link_create.prog_fd = lc->progs[pk][si];

		if (!cnt)
			FZ_ADD(exp, FZ_EINVAL);
		if (cnt > KMULTI_MAX_CNT)
			FZ_ADD(exp, FZ_E2BIG);
		copied = lc_rules(&exp, S, size, data, cookies);
		if (cnt && cnt <= KMULTI_MAX_CNT) {
			if (copied) {
				if (total > AD_MAX_TOTAL)
					FZ_ADD(exp, FZ_E2BIG);
				else if (!lc_user_range(data, total) || !lc_readable(lc, data, total))
					FZ_ADD(exp, FZ_EFAULT);
			}
			if (cookies && !lc_readable(lc, cookies, (__u64)cnt * 8))
				FZ_ADD(exp, FZ_EFAULT);
			if (!lc_readable(lc, syms, (__u64)cnt * 8))
				FZ_ADD(exp, FZ_EFAULT);
			else if (cnt > KMULTI_NFUNCS)
				FZ_ADD(exp, FZ_ESRCH);	/* a name twice */
		}
	} else {
		data = lc_ptr(r, lc, size, &pkind);
		if (fz_pct(r, 25))
			cookie = fz_next(r) | 1;
		cmd = BPF_RAW_TRACEPOINT_OPEN;
		attr.raw_tracepoint.name = ptr_to_u64("sys_enter");
		attr.raw_tracepoint.prog_fd = lc->progs[pk][si];
		attr.raw_tracepoint.cookie = cookie;
		attr.raw_tracepoint.attach_data = ptr_to_u64(data);
		attr.raw_tracepoint.attach_data_size = size;
		if (lc_rules(&exp, S, size, data, cookie) && !lc_readable(lc, data, size))
			FZ_ADD(exp, FZ_EFAULT);
	}

	snprintf(what, sizeof(what), "%s link, %s program with %d-byte attach data, "
		 "data %s size %u%s cnt %u%s", lt_names[lt], pk_names[pk], S, pkind, size,
		 cookie || cookies ? " with cookie(s)" : "", cnt, skind);
	fd = cmd == BPF_LINK_CREATE ? fz_link_create(f, &attr) : fz_raw_tp_open(f, &attr);
	fz_check(f, fd < 0 ? -fd : 0, exp, what);
	fz_close(f, fd);
	/* A raw tracepoint link's program ran on sys_enter of the close()
	 * (and a kprobe_multi link's on any call of its functions): not runs
	 * that the next run check counts.
	 */
	if (fd >= 0)
		fz_maps_reset(f, &lc->maps);
}

static void fz_link_case(struct fz *f, struct lc *lc)
{
	struct fz_rng *r = &f->rng;
	union bpf_attr attr = {};
	const void *data;
	const char *pkind = "";
	const __u64 *offs = NULL, *cookies = NULL;
	__u64 cookie = 0, total;
	__u32 size, cnt = 1, btf_id;
	int lt, pk, si, S, fd, err, k;
	bool multi, is_null = false;
	fz_set exp = FZ_BIT(FZ_OK);
	char what[200];

	k = fz_below(r, 100);
	lt = k < 14 ? LT_KPROBE : k < 26 ? LT_UPROBE : k < 38 ? LT_TP : k < 42 ? LT_TP_INHERIT :
	     k < 72 ? LT_UMULTI : k < 88 ? LT_KMULTI : LT_RAWTP;
	if (lt == LT_KMULTI || lt == LT_RAWTP) {
		fz_link_case_more(f, lc, lt);
		return;
	}
	multi = lt == LT_UMULTI;
	pk = lt_pk[lt];
	if (fz_pct(r, 6))
		pk = fz_below(r, PK_N);
	si = fz_pct(r, 25) ? 0 : fz_range(r, 1, LC_NSIZES - 1);
	S = lc_sizes[si];
	btf_id = lc->btf_ids[pk][si];
	size = lc_size(r, S);

	/* the program must suit the event, or the link type */
	if (pk != lt_pk[lt])
		FZ_ADD(exp, FZ_EINVAL);

	if (multi) {
		k = fz_below(r, 100);
		cnt = k < 55 ? fz_range(r, 1, 8) : k < 75 ? fz_range(r, 9, 64) :
		      k < 80 ? fz_range(r, 65, 512) : k < 83 ? 0 :
		      k < 87 ? (fz_pct(r, 50) ? UMULTI_MAX_CNT + 1 : 0xffffffffu) :
		      fz_range(r, 513, 20000);
		/* never have the kernel copy more than 16 MiB of blobs */
		if (cnt > 512 && cnt <= UMULTI_MAX_CNT && (__u64)cnt * size > (16 << 20) &&
		    (__u64)cnt * size <= AD_MAX_TOTAL)
			size = S + 1;
		total = (__u64)cnt * size;
		data = lc_ptr(r, lc, total, &pkind);
		/* a big count that would succeed: make the array short */
		if (cnt > 512 && cnt <= UMULTI_MAX_CNT && size == (__u32)S && S &&
		    lc_readable(lc, data, total)) {
			data = lc->area + LC_AREA - total / 2;
			pkind = "short";
		}
		offs = lc->offs + fz_below(r, FZ_NTARGETS);
		if (fz_pct(r, 12))
			cookies = lc->cookies + fz_below(r, 64);
		attr.link_create.attach_type = BPF_TRACE_UPROBE_MULTI;
		attr.link_create.uprobe_multi.path = ptr_to_u64("/proc/self/exe");
		attr.link_create.uprobe_multi.offsets = ptr_to_u64(offs);
		attr.link_create.uprobe_multi.cnt = cnt;
		attr.link_create.uprobe_multi.cookies = ptr_to_u64(cookies);
		attr.link_create.uprobe_multi.attach_data = ptr_to_u64(data);
		attr.link_create.uprobe_multi.attach_data_size = size;
		attr.link_create.uprobe_multi.flags = fz_pct(r, 20) ? BPF_F_UPROBE_MULTI_RETURN : 0;
		attr.link_create.uprobe_multi.pid = fz_pct(r, 20) ? lc->pid : 0;

		if (!cnt)
			FZ_ADD(exp, FZ_EINVAL);
		if (cnt > UMULTI_MAX_CNT)
			FZ_ADD(exp, FZ_E2BIG);
		is_null = S && !data;
		lc_rules(&exp, S, size, data, cookies);
		if (cnt && cnt <= UMULTI_MAX_CNT) {
			if (!lc_readable(lc, offs, (__u64)cnt * 8) ||
			    (cookies && !lc_readable(lc, cookies, (__u64)cnt * 8)))
				FZ_ADD(exp, FZ_EFAULT);
			if (S && data && size == (__u32)S && total > AD_MAX_TOTAL)
				FZ_ADD(exp, FZ_E2BIG);
			else if (S && data && size == (__u32)S &&
				 (!lc_user_range(data, total) || !lc_readable(lc, data, total)))
				FZ_ADD(exp, FZ_EFAULT);
		}
	} else {
		data = lc_ptr(r, lc, size, &pkind);
		if (fz_pct(r, 25))
			cookie = fz_next(r) | 1;
		attr.link_create.attach_type = BPF_PERF_EVENT;
		attr.link_create.target_fd = lc->pe[lt];
		if (fz_pct(r, 3)) {
			attr.link_create.target_fd = lc->not_perf_fd;
			FZ_ADD(exp, FZ_EBADF);
		}
		attr.link_create.perf_event.bpf_cookie = cookie;
		attr.link_create.perf_event.attach_data = ptr_to_u64(data);
		attr.link_create.perf_event.attach_data_size = size;
		if (lc_rules(&exp, S, size, data, cookie) && !lc_readable(lc, data, size))
			FZ_ADD(exp, FZ_EFAULT);
		if (S && lt == LT_TP_INHERIT)
			FZ_ADD(exp, FZ_EINVAL);
	}
	attr.link_create.prog_fd = lc->progs[pk][si];

	snprintf(what, sizeof(what), "%s link, %s program with %d-byte attach data, "
		 "data %s size %u%s cnt %u%s", lt_names[lt],
		 pk_names[pk], S,
		 pkind, size, cookie || cookies ? " with cookie(s)" : "", cnt,
		 !multi && attr.link_create.target_fd == lc->not_perf_fd ? ", no perf event" : "");
	fd = fz_link_create(f, &attr);
	err = fd < 0 ? -fd : 0;
	if (is_null) {
		lc->null_einval += err == EINVAL;
		lc->null_efault += err == EFAULT;
	}
	if (!fz_check(f, err, exp, what) || fd < 0)
		goto out;
	lc_check_info(f, lc, fd, multi, S, cnt, btf_id, data, cookie, cookies, what);
	if (fz_pct(r, 15))
		lc_check_fdinfo(f, fd, multi, S, btf_id, what);
	if (fz_pct(r, 35) && cnt <= 64)
		lc_check_run(f, lc, lt, fd, S, cnt, offs, data, cookie, cookies, what);
out:
	fz_close(f, fd);
}

/* A link_create program: the prologue, then adds what it sees (lc_seen())
 * to slot 1.
 */
static int lc_prog(struct fz *f, struct lc *lc, int pk, int si)
{
	struct fz_prog p = {};
	struct pbuild b = {};
	struct btf *btf;
	int S = lc_sizes[si], fd, u8, u32, arr;

	lc->btf_fds[pk][si] = -1;
	if (S) {
		btf = btf__new_empty();
		if (!btf)
			return -ENOMEM;
		u8 = btf__add_int(btf, "unsigned char", 1, 0);
		u32 = btf__add_int(btf, "unsigned int", 4, 0);
		arr = btf__add_array(btf, u32, u8, S);
		lc->btf_ids[pk][si] = btf__add_struct(btf, "lc_blob", S);
		btf__add_field(btf, "b", arr, 0, 0);
		lc->btf_fds[pk][si] = fz_btf_load(f, btf);
		btf__free(btf);
		if (lc->btf_fds[pk][si] < 0)
			return lc->btf_fds[pk][si];
	}
	pb_prologue(&b, lc->maps.results, lc->pid);
	if (!S)
		pb(&b, BPF_MOV64_REG(BPF_REG_1, BPF_REG_7));
	else if (S >= 8)
		pb(&b, BPF_LDX_MEM(BPF_DW, BPF_REG_1, BPF_REG_7, 0));
	else
		pb(&b, BPF_LDX_MEM(BPF_B, BPF_REG_1, BPF_REG_7, S - 1));
	pb(&b, BPF_ATOMIC_OP(BPF_DW, BPF_ADD, BPF_REG_8, BPF_REG_1, 8));
	pb_finish(&b);
	p.type = pk == PK_TP ? BPF_PROG_TYPE_TRACEPOINT :
		 pk == PK_RAWTP ? BPF_PROG_TYPE_RAW_TRACEPOINT : BPF_PROG_TYPE_KPROBE;
	p.eat = pk == PK_UMULTI ? BPF_TRACE_UPROBE_MULTI :
		pk == PK_KMULTI ? BPF_TRACE_KPROBE_MULTI : 0;
	p.btf_fd = S ? lc->btf_fds[pk][si] : 0;
	p.btf_id = S ? lc->btf_ids[pk][si] : 0;
	p.insns = b.in;
	p.cnt = b.n;
	fd = fz_prog_load(f, &p, true);
	if (fd < 0)
		printf("  verifier: %s\n", fz_log_tail());
	return fd;
}

/* An area of @size bytes followed by a PROT_NONE guard page. */
static void *lc_map(size_t size)
{
	__u8 *p = mmap(NULL, size + LC_PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	mprotect(p + size, LC_PAGE, PROT_NONE);
	return p;
}

static void test_link_create(struct fz *f)
{
	struct fz_rng setup = { .s = f->seed };
	struct lc lc = {};
	int pk, si, i;

	memset(lc.progs, -1, sizeof(lc.progs));
	memset(lc.btf_fds, -1, sizeof(lc.btf_fds));
	memset(lc.pe, -1, sizeof(lc.pe));
	lc.not_perf_fd = -1;
	lc.pid = getpid();
	if (fz_make_maps(f, &lc.maps, false))
		goto out;
	if (!fz_target_offsets(lc.target_offs))
		goto out;
	lc.area = lc_map(LC_AREA);
	lc.ro = lc_map(LC_PAGE);
	lc.offs = lc_map(LC_MAX_OFFS * 8);
	lc.cookies = lc_map(LC_MAX_OFFS * 8);
	lc.syms = lc_map(LC_MAX_OFFS * 8);
	lc.back = lc_map(LC_AREA / 2 + LC_PAGE);
	if (!ASSERT_OK_PTR(lc.area, "mmap") || !ASSERT_OK_PTR(lc.ro, "mmap") ||
	    !ASSERT_OK_PTR(lc.offs, "mmap") || !ASSERT_OK_PTR(lc.cookies, "mmap") ||
	    !ASSERT_OK_PTR(lc.syms, "mmap") ||
	    !ASSERT_OK_PTR(lc.back, "mmap"))
		goto out;
	for (i = 0; i < LC_AREA / 8; i++)
		((__u64 *)lc.area)[i] = fz_next(&setup);
	for (i = 0; i < LC_PAGE; i++)
		lc.ro[i] = fz_next(&setup);
	mprotect(lc.ro, LC_PAGE, PROT_READ);
	for (i = 0; i < LC_MAX_OFFS; i++) {
		lc.offs[i] = lc.target_offs[i % FZ_NTARGETS];
		lc.cookies[i] = fz_next(&setup);
		lc.syms[i] = ptr_to_u64(kmulti_funcs[i % KMULTI_NFUNCS]);
	}

	for (pk = 0; pk < PK_N; pk++) {
		for (si = 0; si < (int)LC_NSIZES; si++) {
			lc.progs[pk][si] = lc_prog(f, &lc, pk, si);
			if (!ASSERT_OK_FD(lc.progs[pk][si], "link_create_prog"))
				goto out;
		}
	}
	lc.pe[LT_KPROBE] = FZ_TIMED(f, "perf_event_open", fz_perf_kprobe());
	lc.pe[LT_UPROBE] = FZ_TIMED(f, "perf_event_open", fz_perf_uprobe(lc.target_offs[0]));
	lc.pe[LT_TP] = FZ_TIMED(f, "perf_event_open", fz_perf_tp(false));
	lc.pe[LT_TP_INHERIT] = FZ_TIMED(f, "perf_event_open", fz_perf_tp(true));
	if (!ASSERT_OK_FD(lc.pe[LT_KPROBE], "kprobe_event") ||
	    !ASSERT_OK_FD(lc.pe[LT_UPROBE], "uprobe_event") ||
	    !ASSERT_OK_FD(lc.pe[LT_TP], "tracepoint_event") ||
	    !ASSERT_OK_FD(lc.pe[LT_TP_INHERIT], "tracepoint_inherit_event"))
		goto out;
	lc.not_perf_fd = lc.maps.results;

	while (fz_next_case(f))
		fz_link_case(f, &lc);
	printf("fuzz link_create: uprobe_multi with a NULL blob array: EINVAL %ld, EFAULT %ld\n",
	       lc.null_einval, lc.null_efault);
out:
	for (pk = 0; pk < PK_N; pk++) {
		for (si = 0; si < (int)LC_NSIZES; si++) {
			if (lc.progs[pk][si] >= 0)
				close(lc.progs[pk][si]);
			if (lc.btf_fds[pk][si] >= 0)
				close(lc.btf_fds[pk][si]);
		}
	}
	for (i = 0; i < LT_N; i++)
		if (lc.pe[i] >= 0)
			close(lc.pe[i]);
	if (lc.maps.results >= 0)
		close(lc.maps.results);
	if (lc.area)
		munmap(lc.area, LC_AREA + LC_PAGE);
	if (lc.ro)
		munmap(lc.ro, 2 * LC_PAGE);
	if (lc.offs)
		munmap(lc.offs, LC_MAX_OFFS * 8 + LC_PAGE);
	if (lc.cookies)
		munmap(lc.cookies, LC_MAX_OFFS * 8 + LC_PAGE);
	if (lc.syms)
		munmap(lc.syms, LC_MAX_OFFS * 8 + LC_PAGE);
	if (lc.back)
		munmap(lc.back, LC_AREA / 2 + 2 * LC_PAGE);
}

/* ---------------------------------------------------------------------- */

void test_attach_data_fuzz(void)
{
	static const struct {
		const char *name;
		void (*run)(struct fz *f);
		int share;	/* percent of the calls */
	} subtests[] = {
		{ "types", test_types, 40 },
		{ "programs", test_programs, 35 },
		{ "link_create", test_link_create, 25 },
	};
	__u64 seed = fz_env("ATTACH_DATA_FUZZ_SEED", FZ_DEFAULT_SEED);
	__u64 calls = fz_env("ATTACH_DATA_FUZZ_CALLS", FZ_DEFAULT_CALLS);
	long only = getenv("ATTACH_DATA_FUZZ_CASE") ? (long)fz_env("ATTACH_DATA_FUZZ_CASE", 0) : -1;
	bool has = kernel_has_attach_data();

	fz_chain_max = fz_env("ATTACH_DATA_FUZZ_CHAIN_MAX", FZ_CHAIN_MAX);
	struct fz f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(subtests); i++) {
		if (!test__start_subtest(subtests[i].name))
			continue;
		if (!has) {
			printf("fuzz %s: the kernel has no attach data\n", subtests[i].name);
			test__skip();
			continue;
		}
		test__force_log();
		fz_begin(&f, subtests[i].name, i, seed,
			 fz_max(1ULL, calls * subtests[i].share / 100), only);
		subtests[i].run(&f);
		fz_end(&f);
	}
}
