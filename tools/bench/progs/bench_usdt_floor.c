// SPDX-License-Identifier: GPL-2.0
/* USDT argument fetch (bench fetch): what a hit costs without libbpf's
 * bpf_usdt_arg(), on bench_usdt.c's bench:argsK probes (K = 1, 3, 6, 12;
 * their arguments in %rdi, %rsi, %rdx, %rcx, %r8, %r9, then 8(%rsp) ...
 * 48(%rsp)):
 *   empty     reads no argument: the probe and the program alone;
 *   floorK    reads probe K's arguments as BCC's generated code would: each
 *             register straight from the context, each stack slot with one
 *             bpf_probe_read_user().
 * usdt.bpf.h is included for the maps libbpf's USDT attach wants; no
 * program calls its helpers.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/usdt.bpf.h>

#define MAX_ARGS	12

__u64 hits[MAX_ARGS + 1];
__u64 sums[MAX_ARGS + 1];
__u64 errors;

SEC("usdt")
int empty(struct pt_regs *ctx)
{
	__sync_fetch_and_add(&hits[0], 1);
	return 0;
}

static __always_inline __u64 stack_args(struct pt_regs *ctx, int n)
{
	__u64 sum = 0;
	long v;
	int i;

	for (i = 1; i <= n; i++) {
		if (bpf_probe_read_user(&v, sizeof(v), (void *)ctx->sp + 8 * i))
			errors++;
		sum += v;
	}
	return sum;
}

SEC("usdt")
int floor1(struct pt_regs *ctx)
{
	hits[1]++;
	sums[1] += ctx->di;
	return 0;
}

SEC("usdt")
int floor3(struct pt_regs *ctx)
{
	hits[3]++;
	sums[3] += ctx->di + ctx->si + ctx->dx;
	return 0;
}

SEC("usdt")
int floor6(struct pt_regs *ctx)
{
	hits[6]++;
	sums[6] += ctx->di + ctx->si + ctx->dx + ctx->cx + ctx->r8 + ctx->r9;
	return 0;
}

SEC("usdt")
int floor12(struct pt_regs *ctx)
{
	hits[12]++;
	sums[12] += ctx->di + ctx->si + ctx->dx + ctx->cx + ctx->r8 + ctx->r9 +
		    stack_args(ctx, 6);
	return 0;
}

char _license[] SEC("license") = "GPL";
