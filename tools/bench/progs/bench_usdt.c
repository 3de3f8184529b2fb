// SPDX-License-Identifier: GPL-2.0
/* USDT end to end (benchmark group 2): one program on the bench:argsK probes
 * (K = 1, 3, 6, 12) reads every argument with bpf_usdt_arg().  Built twice:
 * as is (libbpf passes the specs as attach data when the kernel has it) and
 * with -DBPF_USDT_NO_ATTACH_DATA (spec map, by cookie or by IP).  sums[] and
 * hits[] by argument count let user space check what the program read.
 * The fetch benchmark also attaches usdtK, a BPF_USDT() program per probe,
 * as a program written for the probe's arguments reads them.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
/* usdtK: BPF_USDT() with one bpf_usdt_args() call, which libbpf may also
 * specialize (the fetch benchmark's "BPF_USDT()" and "specialized" rows)
 */
#define BPF_USDT_BATCH_ARGS
#define BPF_USDT_SPECIALIZE
#include <bpf/usdt.bpf.h>

#define MAX_ARGS	12

__u64 hits[MAX_ARGS + 1];
__u64 sums[MAX_ARGS + 1];
__u64 errors;

SEC("usdt")
int usdt_args(struct pt_regs *ctx)
{
	int i, n = bpf_usdt_arg_cnt(ctx);
	__u64 sum = 0;
	long val;

	if (n < 0 || n > MAX_ARGS) {
		errors++;
		return 0;
	}
	for (i = 0; i < MAX_ARGS && i < n; i++) {
		if (bpf_usdt_arg(ctx, i, &val))
			errors++;
		sum += val;
	}
	hits[n]++;
	sums[n] += sum;
	return 0;
}

/* The parts of usdt_args' bpf_usdt_arg() calls, for the fetch benchmark's
 * "parts" rows: a call of a hidden function per argument, as bpf_usdt_arg()
 * is, that fetches nothing (argument i of the bench probes is i + 1); and
 * that also looks the spec up and checks the argument's number against it,
 * as bpf_usdt_arg() does first.  What bpf_usdt_arg() spends beyond the
 * second is the fetch.  Attach data builds only.
 */
#ifndef BPF_USDT_NO_ATTACH_DATA
__weak __hidden int parts_call(struct pt_regs *ctx, __u64 arg_num, long *res)
{
	*res = arg_num + 1;
	return 0;
}

__weak __hidden int parts_lookup(struct pt_regs *ctx, __u64 arg_num, long *res)
{
	struct __bpf_usdt_spec *spec;

	*res = 0;
	spec = __bpf_usdt_spec(ctx);
	if (!spec)
		return -ESRCH;
	if (arg_num >= BPF_USDT_MAX_ARG_CNT)
		return -ENOENT;
	barrier_var(arg_num);
	if (arg_num >= spec->arg_cnt)
		return -ENOENT;
	*res = arg_num + 1;
	return 0;
}

#define PARTS_PROG(name)						\
SEC("usdt")								\
int name##_loop(struct pt_regs *ctx)					\
{									\
	int i, n = bpf_usdt_arg_cnt(ctx);				\
	__u64 sum = 0;							\
	long val;							\
									\
	if (n < 0 || n > MAX_ARGS) {					\
		errors++;						\
		return 0;						\
	}								\
	for (i = 0; i < MAX_ARGS && i < n; i++) {			\
		if (name(ctx, i, &val))					\
			errors++;					\
		sum += val;						\
	}								\
	hits[n]++;							\
	sums[n] += sum;							\
	return 0;							\
}

PARTS_PROG(parts_call)
PARTS_PROG(parts_lookup)
#endif

#define USDT_PROG(k, args...)						\
SEC("usdt")								\
int BPF_USDT(usdt##k, args)

USDT_PROG(1, long a)
{
	hits[1]++;
	sums[1] += a;
	return 0;
}

USDT_PROG(3, long a, long b, long c)
{
	hits[3]++;
	sums[3] += a + b + c;
	return 0;
}

USDT_PROG(6, long a, long b, long c, long d, long e, long f)
{
	hits[6]++;
	sums[6] += a + b + c + d + e + f;
	return 0;
}

USDT_PROG(12, long a, long b, long c, long d, long e, long f, long g, long h, long i, long j,
	  long k, long l)
{
	hits[12]++;
	sums[12] += a + b + c + d + e + f + g + h + i + j + k + l;
	return 0;
}

char _license[] SEC("license") = "GPL";
