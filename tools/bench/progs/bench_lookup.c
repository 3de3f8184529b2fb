// SPDX-License-Identifier: GPL-2.0
/* Cost for a program to reach its per-attachment data, per access: each
 * variant is its own program on the same kprobe and times LOOPS accesses
 * inside one run with bpf_loop(), minus nothing (the empty loop is a
 * variant of its own, subtracted in user space).  After the timed loop,
 * nbad[] counts the runs whose accesses did not all read the data (SLOT).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bench_lookup.h"

#define LOOPS		1000
#define SAMPLES		512

int bench_pid;
__u64 samples[V_CNT][SAMPLES];
__u32 nsamples[V_CNT];
__u32 nbad[V_CNT];
__u64 sink;
__u64 seen_ip;

struct loop_ctx {
	struct pt_regs *regs;
	__u64 acc;
};

static int cb_empty(__u32 i, struct loop_ctx *c)
{
	c->acc += i;
	return 0;
}

static int cb_cookie(__u32 i, struct loop_ctx *c)
{
	c->acc += bpf_get_attach_cookie(c->regs);
	return 0;
}

static int cb_attach_data(__u32 i, struct loop_ctx *c)
{
	struct per_attach *d = bpf_get_attach_data(c->regs);

	c->acc += d->val;
	return 0;
}

static int cb_global(__u32 i, struct loop_ctx *c)
{
	c->acc += gbl[bpf_get_attach_cookie(c->regs) & (GBL_SLOTS - 1)].val;
	return 0;
}

static int cb_array(__u32 i, struct loop_ctx *c)
{
	__u32 key = bpf_get_attach_cookie(c->regs);
	struct per_attach *d = bpf_map_lookup_elem(&arr, &key);

	if (d)
		c->acc += d->val;
	return 0;
}

static int cb_hash(__u32 i, struct loop_ctx *c)
{
	__u64 key = bpf_get_attach_cookie(c->regs);
	struct per_attach *d = bpf_map_lookup_elem(&hash, &key);

	if (d)
		c->acc += d->val;
	return 0;
}

static int cb_hash_ip(__u32 i, struct loop_ctx *c)
{
	__u64 key = PT_REGS_IP(c->regs);
	struct per_attach *d = bpf_map_lookup_elem(&hash, &key);

	if (d)
		c->acc += d->val;
	return 0;
}

static __always_inline int run(struct pt_regs *regs, int v, void *cb)
{
	struct loop_ctx c = { .regs = regs };
	__u64 t0, t1;
	__u32 n;

	if ((bpf_get_current_pid_tgid() >> 32) != bench_pid)
		return 0;
	if (v == V_HASH_IP)
		seen_ip = PT_REGS_IP(regs);
	t0 = bpf_ktime_get_ns();
	bpf_loop(LOOPS, cb, &c, 0);
	t1 = bpf_ktime_get_ns();
	sink += c.acc;
	if (c.acc != (v == V_EMPTY ? LOOPS * (LOOPS - 1) / 2 : LOOPS * SLOT))
		nbad[v]++;
	n = nsamples[v];
	if (n < SAMPLES)
		samples[v][n] = t1 - t0;
	nsamples[v] = n + 1;
	return 0;
}

SEC("kprobe") int empty(struct pt_regs *r) { return run(r, V_EMPTY, cb_empty); }
SEC("kprobe") int cookie(struct pt_regs *r) { return run(r, V_COOKIE, cb_cookie); }
SEC("kprobe") int attach_data(struct pt_regs *r) { return run(r, V_ATTACH_DATA, cb_attach_data); }
SEC("kprobe") int global_array(struct pt_regs *r) { return run(r, V_GLOBAL, cb_global); }
SEC("kprobe") int array_map(struct pt_regs *r) { return run(r, V_ARRAY, cb_array); }
SEC("kprobe") int hash_map(struct pt_regs *r) { return run(r, V_HASH, cb_hash); }
SEC("kprobe") int hash_ip(struct pt_regs *r) { return run(r, V_HASH_IP, cb_hash_ip); }

BPF_ATTACH_DATA(attach_data, struct per_attach);

char _license[] SEC("license") = "GPL";
