/* SPDX-License-Identifier: GPL-2.0 */
/* The benchmark harness (bench.c), as in the kernel's
 * tools/testing/selftests/bpf/bench.c: one binary, one main with the shared
 * options and output, and each benchmark a struct bench registered with it,
 * run as
 *
 *   bench NAME [-n CALLS] [-r ROUNDS] [-p REPS] [-o CSV] [-l LABEL] [-u UNIT] [ARG...]
 *   bench --list
 *
 * A benchmark measures either in the harness's process (measure()) or, when
 * each variant needs a fresh process (libbpf picks its USDT mode once per
 * process), in child processes the harness runs for it: REPS repetitions x
 * items (one, or one per ARG) x variants in a rotating order, each child
 * running child(variant, item).  Both record samples with bench_sample(); the
 * harness carries a child's samples back to the parent.  report() then prints
 * the Markdown table (bench_heading(), bench_md_head()) and the CSV rows
 * (bench_csv()) from the samples' statistics (bench_stat()).
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <linux/types.h>

/* The shared options, parsed by the harness. */
struct env {
	const char *name;	/* the benchmark's */
	int calls;		/* -n: calls (lookup: kprobe firings) per round */
	int rounds;		/* -r: rounds per process */
	int reps;		/* -p: repetitions: processes per variant and item */
	const char *csv;	/* -o: CSV output file */
	const char *label;	/* -l: the heading's tail, naming the clock */
	const char *unit;	/* -u: what the clock counts: ns, or guest
				 * instructions under QEMU -icount shift=0 */
	bool wall;		/* unit is ns: a wall clock */
	bool no_attach_data;	/* -A: the kernel has no attach data (the
				 * series' base): leave that variant out */
	int nargs;		/* positional arguments */
	char **args;
};
extern struct env env;

struct bench {
	const char *name;
	const char *doc;	/* one line, for --list */
	const char *opts;	/* the shared options it takes, e.g. "nrolu" */
	const char *args_doc;	/* its positional arguments (NULL: none) */
	int calls, rounds, reps;	/* defaults of -n, -r, -p */
	int max_calls, max_rounds, max_reps;	/* 0: no limit */
	int min_args, max_args;
	void (*validate)(void);		/* options and arguments */
	void (*setup)(void);		/* once, before measuring (not in children) */
	/* Either in process: */
	void (*measure)(void);
	/* or in child processes: */
	const char *const *variants;	/* names */
	int nvariants;
	bool item_per_arg;		/* items: the positional arguments */
	void (*child)(int variant, int item);
	void (*report)(void);
};

/* Samples: one series per (row, col) of a benchmark's table, e.g. (variant,
 * argument count); in a child, bench_sample() sends it to the parent.
 */
#define BENCH_ROWS	24
#define BENCH_COLS	32
void bench_sample(int row, int col, double x);
int bench_count(int row, int col);

struct bench_stat {
	double med;	/* the lower middle one of an even count */
	double min, max;
	double iqr;	/* v[3n/4] - v[n/4] */
	int n;
};
struct bench_stat bench_stat(int row, int col);

/* Output: "### TITLE LABEL" and a Markdown table's two header lines (columns
 * right-aligned, a leading '<' aligns one left; NULL ends the list); a CSV
 * line, written to -o's file when it was given.
 */
void bench_heading(const char *title);
void bench_md_head(const char *col, ...);
void bench_csv(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The table of a per-hit benchmark (bench_trigger.c, bench_lock.c), each
 * variant attached alone and fired env.calls times a round: rows 0..nvar-1
 * of the samples, the last one "no probe", printed first; each with its
 * median, min, max, its cost net of the empty program's (row @empty) and
 * that cost's ratio to attach data's (row @ad); rows @measured() says
 * were not are "not in this kernel".  On the wall clock, calls/s too.  The
 * CSV: a row per measured variant, after a first column @csv_key (its
 * header "trigger") if given.
 */
struct bench_hit_table {
	const char *title;
	const char *calls;		/* what was called, e.g. "getpgid() calls" */
	int nvar, empty, ad;
	const char *(*name)(int row);
	bool (*measured)(int row);	/* NULL: all */
	bool rate;			/* a calls/s column on the wall clock */
	const char *csv_key;		/* NULL: no first column */
};
void bench_hit_table(const struct bench_hit_table *t);

void bench_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* The loaded BPF programs named @name (a program's copies, which libbpf
 * loads when it specializes USDT programs, carry its name), oldest first:
 * up to @max of their infos in @infos; returns how many there are.
 */
struct bpf_prog_info;
int bench_progs_named(const char *name, struct bpf_prog_info *infos, int max);

/* Variant I of N in round R, in a rotating order. */
static inline int bench_rotate(int i, int r, int n)
{
	return (i + r) % n;
}

/* CLOCK_MONOTONIC in ns: guest instructions under QEMU -icount shift=0. */
static inline __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The binary is linked with -Wl,--wrap=syscall for the USDT IP + HASH mode
 * (usdt_modes.c): a loop that times system calls calls libc's syscall()
 * directly, without the wrapper.
 */
long __real_syscall(long nr, ...);

#endif
