// SPDX-License-Identifier: GPL-2.0
/* Cost per fentry hit: progs/bench_trigger.c's variants as fentry programs
 * on getpgid() (the same names, globals and layout; HASH map[IP] keys on
 * bpf_get_func_ip(), an fentry program's instruction pointer).
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

SEC("fentry/__x64_sys_getpgid")
int BPF_PROG(empty)
{
	hits[V_EMPTY]++;
	found[V_EMPTY]++;
	return 0;
}

SEC("fentry/__x64_sys_getpgid")
int BPF_PROG(cookie)
{
	hits[V_COOKIE]++;
	if (bpf_get_attach_cookie(ctx))
		found[V_COOKIE]++;
	return 0;
}

SEC("fentry/__x64_sys_getpgid")
int BPF_PROG(attach_data)
{
	return use(V_ATTACH_DATA, bpf_get_attach_data(ctx));
}

SEC("fentry/__x64_sys_getpgid")
int BPF_PROG(global_array)
{
	return use(V_GLOBAL, &gbl[bpf_get_attach_cookie(ctx) & (GBL_SLOTS - 1)]);
}

SEC("fentry/__x64_sys_getpgid")
int BPF_PROG(array_map)
{
	__u32 key = bpf_get_attach_cookie(ctx);

	return use(V_ARRAY, bpf_map_lookup_elem(&arr, &key));
}

SEC("fentry/__x64_sys_getpgid")
int BPF_PROG(hash_map)
{
	__u64 key = bpf_get_attach_cookie(ctx);

	return use(V_HASH, bpf_map_lookup_elem(&hash, &key));
}

SEC("fentry/__x64_sys_getpgid")
int BPF_PROG(hash_ip)
{
	__u64 key = bpf_get_func_ip(ctx);
	struct per_attach *d = bpf_map_lookup_elem(&hash, &key);

	if (!d)		/* the warm-up hit, before user space keyed the map */
		seen_ip = key;
	return use(V_HASH_IP, d);
}

BPF_ATTACH_DATA(attach_data, struct per_attach);

char _license[] SEC("license") = "GPL";
