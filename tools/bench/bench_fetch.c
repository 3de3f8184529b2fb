// SPDX-License-Identifier: GPL-2.0
/* fetch: USDT argument fetch, per hit and per argument, on bench_usdt.c's
 * bench:argsK probes (K = 1, 3, 6, 12: K register arguments up to 6, then
 * 6 registers and 6 stack slots), every variant in the same run:
 *
 *   empty          a program that reads no argument (progs/bench_usdt_floor.c)
 *   floor          programs that read probe K's arguments as BCC's generated
 *                  code would: registers straight from the context, each
 *                  stack slot with one bpf_probe_read_user()
 *   before, MODE   progs/bench_usdt.c's usdt_args (a loop calling
 *                  bpf_usdt_arg() for every argument) built against
 *                  usdt.bpf.h as it was before the usdt series'
 *                  register-read patch, in libbpf's two spec-map modes
 *                  (attach data comes in a later series)
 *   MODE           the same program with today's usdt.bpf.h
 *   inlined        and built with BPF_USDT_ARG_INLINE, in attach data mode
 *   switch         and built to read registers as on a kernel without
 *                  variable-offset context reads (usdt.bpf.h's switch over
 *                  the registers), in attach data mode
 *   BPF_USDT ...   the same seven, with bench_usdt.c's usdtK instead: a
 *                  BPF_USDT() program per probe, written for its K arguments
 *                  (before: a bpf_usdt_arg() call per argument; today: one
 *                  bpf_usdt_args() call)
 *   BPF_USDT, attach data, specialized
 *                  usdtK attached with bpf_usdt_opts.specialize: libbpf loads
 *                  a copy of it for the probe's argument locations, in which
 *                  the verifier sees them as constants; the sizes are the
 *                  copy's
 *   parts: ...     usdt_args with what a bpf_usdt_arg() call spends before
 *                  the fetch: a call of a hidden function per argument; and
 *                  a call that also looks the spec up and checks the
 *                  argument's number, in attach data mode
 *
 * Each (repetition, variant) runs in a child process of its own (libbpf
 * picks the USDT mode once per process), variants in a rotating order, and
 * times ROUNDS x CALLS calls of every probe, interleaved by K.  The report
 * gives the cost per hit, and per argument, what one more costs: a
 * register argument's from the 3- and 6-argument probes, a stack
 * argument's from the 6- and 12-argument ones, each with its ratio to the
 * floor's; and the size of the variant's largest program (usdt_args or
 * usdt12): BPF instructions as loaded, instructions the verifier processed,
 * and bytes of x86 the JIT emitted.
 *
 *   bench fetch [-p REPS] [-n CALLS] [-r ROUNDS] [-o CSV] [-l LABEL] [-u UNIT]
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include "bench.h"
#include "usdt_modes.h"
#include "bench_usdt_floor.skel.h"
#include "bench_usdt.skel.h"

enum { V_EMPTY, V_FLOOR, V_OLD_ARRAY, V_OLD_IP, V_AD, V_ARRAY, V_IP, V_INLINE, V_SWITCH,
       V_M_OLD_ARRAY, V_M_OLD_IP, V_M_AD, V_M_ARRAY, V_M_IP, V_M_INLINE, V_M_SWITCH, V_M_SPEC,
       V_CALL, V_LOOKUP, NV };
static const char *const variants[NV] = {
	"empty", "floor", "before, cookie + ARRAY", "before, IP + HASH",
	"attach data", "cookie + ARRAY", "IP + HASH", "attach data, inlined",
	"attach data, switch",
	"BPF_USDT before, cookie + ARRAY", "BPF_USDT before, IP + HASH", "BPF_USDT, attach data",
	"BPF_USDT, cookie + ARRAY", "BPF_USDT, IP + HASH", "BPF_USDT, attach data, inlined",
	"BPF_USDT, attach data, switch", "BPF_USDT, attach data, specialized",
	"parts: a call per argument", "parts: a call and a spec look-up per argument",
};
/* The BPF_USDT variant of a bpf_usdt_arg() loop variant is this many after it. */
#define V_M	(V_M_OLD_ARRAY - V_OLD_ARRAY)
/* variants of usdt_args or of usdtK, whose base is usdt_args' */
#define IS_MACRO(v)	((v) >= V_M_OLD_ARRAY && (v) <= V_M_SPEC)

/* libbpf's mode of a bpf_usdt_arg() loop variant */
static int mode_of(int v)
{
	switch (v) {
	case V_OLD_ARRAY:
	case V_ARRAY:
		return M_ARRAY;
	case V_OLD_IP:
	case V_IP:
		return M_IP;
	default:
		return M_AD;
	}
}
/* Columns of the samples past the argument counts': program sizes. */
enum { C_XLATED = USDT_NK, C_VERIFIED, C_JITED };

/* The size of @prog, or with @copy of its specialized copy loaded last, as
 * loaded, verified and JITed.
 */
static void sample_size(int v, struct bpf_program *prog, bool copy)
{
	struct bpf_prog_info info = {}, infos[64];
	__u32 len = sizeof(info);
	int n;

	if (copy) {
		/* the program, then its copy (and copies that earlier
		 * processes left, until they are freed): the newest
		 */
		n = bench_progs_named(bpf_program__name(prog), infos, 64);
		if (n < 2 || n > 64)
			bench_die("%d programs named %s", n, bpf_program__name(prog));
		info = infos[n - 1];
	} else if (bpf_prog_get_info_by_fd(bpf_program__fd(prog), &info, &len)) {
		bench_die("prog info: %s", strerror(errno));
	}
	bench_sample(v, C_XLATED, info.xlated_prog_len / 8.0);
	bench_sample(v, C_VERIFIED, info.verified_insns);
	bench_sample(v, C_JITED, info.jited_prog_len);
}

/* empty and floor: one skeleton, a program per probe */
static void run_floor(int v, struct bpf_link **links, struct bench_usdt_floor **skel)
{
	struct bpf_program *floor[USDT_NK];
	char name[16];
	int i;

	*skel = bench_usdt_floor__open_and_load();
	if (!*skel)
		bench_die("load failed");
	floor[0] = (*skel)->progs.floor1;
	floor[1] = (*skel)->progs.floor3;
	floor[2] = (*skel)->progs.floor6;
	floor[3] = (*skel)->progs.floor12;
	for (i = 0; i < USDT_NK; i++) {
		snprintf(name, sizeof(name), "args%d", usdt_nargs[i]);
		links[i] = bpf_program__attach_usdt(v == V_EMPTY ? (*skel)->progs.empty : floor[i],
						    0, "/proc/self/exe", "bench", name, NULL);
		if (!links[i])
			bench_die("attach %s: %s", name, strerror(errno));
	}
}

/* Every hit ran the program, which read the right arguments. */
static void check(int v, const __u64 *hits, const __u64 *sums, __u64 errors, __u64 want)
{
	__u64 k, total = 0;
	int i;

	for (i = 0; i < USDT_NK; i++) {
		k = usdt_nargs[i];
		total += want;
		if (v == V_EMPTY)
			continue;
		if (hits[k] != want || sums[k] != want * k * (k + 1) / 2 || errors)
			bench_die("%s, %llu args: %llu hits (want %llu), sum %llu, %llu errors",
				  variants[v], k, (unsigned long long)hits[k],
				  (unsigned long long)want, (unsigned long long)sums[k],
				  (unsigned long long)errors);
	}
	if (v == V_EMPTY && hits[0] != total)
		bench_die("empty: %llu hits, want %llu", (unsigned long long)hits[0],
			  (unsigned long long)total);
}

static void child(int v, int item)
{
	struct bench_usdt_floor *skel = NULL;
	struct bpf_link *links[USDT_NK] = {};
	LIBBPF_OPTS(bpf_usdt_opts, uopts, .specialize = v == V_M_SPEC);
	bool macro = IS_MACRO(v), parts = v >= V_CALL;
	struct bpf_program *prog;
	/* the bpf_usdt_arg() loop's */
	int base = v == V_M_SPEC || parts ? V_AD : macro ? v - V_M : v;
	int mode = mode_of(base), r, i, j;
	struct usdt_obj o = {};
	char name[16];
	__u64 t0;

	if (v <= V_FLOOR) {
		run_floor(v, links, &skel);
	} else {
		if (base == V_INLINE)
			usdt_open_inline(&o);
		else if (base == V_SWITCH)
			usdt_open_switch(&o);
		else if (base >= V_AD)
			usdt_open(&o, mode, 0);
		else
			usdt_open_old(&o, mode);
		prog = o.prog;
		if (v == V_CALL)
			prog = o.ad->progs.parts_call_loop;
		else if (v == V_LOOKUP)
			prog = o.ad->progs.parts_lookup_loop;
		for (i = 0; i < USDT_NK; i++) {
			snprintf(name, sizeof(name), "args%d", usdt_nargs[i]);
			links[i] = bpf_program__attach_usdt(macro ? o.macro[i] : prog, 0,
							    "/proc/self/exe", "bench", name, &uopts);
			if (!links[i])
				bench_die("attach %s: %s", name, strerror(errno));
		}
		sample_size(v, macro ? o.macro[USDT_NK - 1] : prog, v == V_M_SPEC);
	}
	for (i = 0; i < USDT_NK; i++)
		usdt_fire(usdt_nargs[i], 1);	/* warm up */

	for (r = 0; r < env.rounds; r++) {
		for (i = 0; i < USDT_NK; i++) {
			j = bench_rotate(i, r, USDT_NK);
			t0 = now_ns();
			usdt_fire(usdt_nargs[j], env.calls);
			bench_sample(v, j, (double)(now_ns() - t0) / env.calls);
		}
	}

	if (skel)
		check(v, skel->bss->hits, skel->bss->sums, skel->bss->errors,
		      (__u64)env.rounds * env.calls + 1);
	else
		check(v, o.hits, o.sums, *o.errors, (__u64)env.rounds * env.calls + 1);
	for (i = 0; i < USDT_NK; i++)
		bpf_link__destroy(links[i]);
	bench_usdt_floor__destroy(skel);
	usdt_close(&o);
}

static double med(int v, int i)
{
	struct bench_stat s = bench_stat(v, i);

	if (s.n != env.reps * env.rounds)
		bench_die("%d samples for %s, want %d", s.n, variants[v], env.reps * env.rounds);
	return s.med;
}

/* The same mode before the register-read patch, or -1: attach data (and
 * inlined, which is attach data) had no "before".
 */
static int before(int v)
{
	bool macro = IS_MACRO(v);
	int base = macro ? v - V_M : v;

	if (base != V_ARRAY && base != V_IP)
		return -1;
	return (base == V_ARRAY ? V_OLD_ARRAY : V_OLD_IP) + (macro ? V_M : 0);
}

/* A program's size: the same in every child of a variant */
static double size(int v, int col)
{
	struct bench_stat s = bench_stat(v, col);

	if (s.n != env.reps || s.min != s.max)
		bench_die("%s: %d size samples, from %.0f to %.0f", variants[v], s.n, s.min,
			  s.max);
	return s.med;
}

static void report(void)
{
	double reg[NV], mem[NV];
	int v, i;

	bench_heading("USDT argument fetch");
	printf("%d processes x %d rounds x %d calls per variant, variants interleaved; %s per\n"
	       "hit, median; \"before\": usdt.bpf.h before the register-read patch\n\n",
	       env.reps, env.rounds, env.calls, env.unit);
	bench_md_head("<variant", "1 arg", "3 args", "6 args", "12 args", NULL);
	/* Variant names have commas: quoted (RFC 4180). */
	bench_csv("variant,args,unit,median,min,max\n");
	for (v = 0; v < NV; v++) {
		printf("| %s |", variants[v]);
		for (i = 0; i < USDT_NK; i++) {
			struct bench_stat s = bench_stat(v, i);

			printf(" %.1f |", med(v, i));
			bench_csv("\"%s\",%d,%s,%.2f,%.2f,%.2f\n", variants[v], usdt_nargs[i],
				  env.unit, s.med, s.min, s.max);
		}
		printf("\n");
	}

	/* per argument: what one more costs, so that what a hit pays once
	 * (the probe, the program, a spec look-up for the count) is left out
	 */
	for (v = V_FLOOR; v < NV; v++) {
		reg[v] = (med(v, 2) - med(v, 1)) / 3;
		mem[v] = (med(v, 3) - med(v, 2)) / 6;
	}
	printf("\nPer argument, %s: what one more costs, a register argument's from\n"
	       "the 3- and 6-argument probes ((6 args - 3 args) / 3), a stack argument's\n"
	       "from the 6- and 12-argument ones ((12 - 6) / 6); ratios to the floor's;\n"
	       "the 12-argument hit against the same mode before\n\n", env.unit);
	bench_md_head("<variant", "per register arg", "ratio to floor", "per stack arg",
		      "ratio to floor", "12-arg hit vs before", NULL);
	for (v = V_FLOOR; v < NV; v++) {
		printf("| %s | %.1f | %.2f | %.1f | %.2f |", variants[v], reg[v],
		       reg[v] / reg[V_FLOOR], mem[v], mem[v] / mem[V_FLOOR]);
		if (before(v) >= 0)
			printf(" %.2f |\n", med(v, 3) / med(before(v), 3));
		else
			printf(" |\n");
		bench_csv("\"%s\",per_arg,%s,reg %.2f,mem %.2f,\n", variants[v], env.unit, reg[v],
			  mem[v]);
	}

	printf("\nSize of the largest program (usdt_args, or BPF_USDT's usdt12), each run\n"
	       "in the mode it ran in: BPF instructions as loaded, instructions the\n"
	       "verifier processed, bytes the JIT emitted\n\n");
	bench_md_head("<variant", "BPF insns", "verified insns", "JIT bytes", NULL);
	for (v = V_OLD_ARRAY; v < NV; v++) {
		printf("| %s | %.0f | %.0f | %.0f |\n", variants[v], size(v, C_XLATED),
		       size(v, C_VERIFIED), size(v, C_JITED));
		bench_csv("\"%s\",size,insns %.0f,verified %.0f,jited %.0f,\n", variants[v],
			  size(v, C_XLATED), size(v, C_VERIFIED), size(v, C_JITED));
	}
}

const struct bench bench_fetch = {
	.name = "fetch",
	.doc = "USDT argument fetch: per hit and per argument, libbpf before/after, floor",
	.opts = "pnrolu",
	.calls = 2000,
	.rounds = 3,
	.reps = 3,
	.max_reps = 16,
	.max_rounds = 16,
	.variants = variants,
	.nvariants = NV,
	.child = child,
	.report = report,
};
