// SPDX-License-Identifier: GPL-2.0
/* Cost per probe hit (benchmark group 1, per hit): each variant reaches its
 * per-attachment data once per run and is attached alone, to a kprobe or a
 * uprobe, so the trigger loop's time per call is the probe's cost per hit.
 * hits[] and found[] let user space check that every variant ran and found
 * its data on every hit.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bench_lookup.h"

__u64 hits[V_CNT];
__u64 found[V_CNT];
__u64 seen_ip;

static __always_inline int use(int v, struct per_attach *d)
{
	hits[v]++;
	if (d && d->val)
		found[v]++;
	return 0;
}

SEC("kprobe")
int empty(struct pt_regs *ctx)
{
	hits[V_EMPTY]++;
	found[V_EMPTY]++;
	return 0;
}

SEC("kprobe")
int cookie(struct pt_regs *ctx)
{
	hits[V_COOKIE]++;
	if (bpf_get_attach_cookie(ctx))
		found[V_COOKIE]++;
	return 0;
}

SEC("kprobe")
int attach_data(struct pt_regs *ctx)
{
	return use(V_ATTACH_DATA, bpf_get_attach_data(ctx));
}

SEC("kprobe")
int global_array(struct pt_regs *ctx)
{
	return use(V_GLOBAL, &gbl[bpf_get_attach_cookie(ctx) & (GBL_SLOTS - 1)]);
}

SEC("kprobe")
int array_map(struct pt_regs *ctx)
{
	__u32 key = bpf_get_attach_cookie(ctx);

	return use(V_ARRAY, bpf_map_lookup_elem(&arr, &key));
}

SEC("kprobe")
int hash_map(struct pt_regs *ctx)
{
	__u64 key = bpf_get_attach_cookie(ctx);

	return use(V_HASH, bpf_map_lookup_elem(&hash, &key));
}

SEC("kprobe")
int hash_ip(struct pt_regs *ctx)
{
	__u64 key = PT_REGS_IP(ctx);
	struct per_attach *d = bpf_map_lookup_elem(&hash, &key);

	if (!d)		/* the warm-up hit, before user space keyed the map */
		seen_ip = key;
	return use(V_HASH_IP, d);
}

BPF_ATTACH_DATA(attach_data, struct per_attach);

char _license[] SEC("license") = "GPL";
