// SPDX-License-Identifier: GPL-2.0
/* Cost per hit of a counter updated under a bpf_res_spin_lock (bench_lock.c):
 * the lock and the counter in the link's attach data, or in an ARRAY value
 * found by the cookie, as a program without attach data keeps them.  Each
 * program is a kprobe on getpgid(); hits[] counts its runs, fails[] the
 * bpf_res_spin_lock() calls that failed (none may).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bench_lock.h"

struct lock_val {
	struct bpf_res_spin_lock lock;
	__u32 pad;
	__u64 count;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LOCK_SLOTS);
	__type(key, __u32);
	__type(value, struct lock_val);
} arr SEC(".maps");

__u64 hits[L_CNT];
__u64 fails[L_CNT];

static __always_inline int count(int v, struct lock_val *d)
{
	if (bpf_res_spin_lock(&d->lock)) {
		fails[v]++;
		return 0;
	}
	d->count++;
	bpf_res_spin_unlock(&d->lock);
	hits[v]++;
	return 0;
}

SEC("kprobe")
int empty(struct pt_regs *ctx)
{
	hits[L_EMPTY]++;
	return 0;
}

SEC("kprobe")
int blob_lock(struct pt_regs *ctx)
{
	return count(L_BLOB, bpf_get_attach_data(ctx));
}

SEC("kprobe")
int array_lock(struct pt_regs *ctx)
{
	__u32 key = bpf_get_attach_cookie(ctx);
	struct lock_val *d = bpf_map_lookup_elem(&arr, &key);

	if (!d)
		return 0;
	return count(L_ARRAY, d);
}

BPF_ATTACH_DATA(blob_lock, struct lock_val);

char _license[] SEC("license") = "GPL";
