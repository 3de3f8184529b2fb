/* SPDX-License-Identifier: GPL-2.0 */
/* What bench_lookup and bench_trigger share, BPF and user space: the
 * variants, the per-attachment data and, for the BPF side, its baselines
 * (a global array, an ARRAY and a HASH map).
 */
#ifndef BENCH_LOOKUP_H
#define BENCH_LOOKUP_H

#define GBL_SLOTS	64
#define SLOT		5	/* the cookie, and the data's index or key */

enum { V_EMPTY, V_COOKIE, V_ATTACH_DATA, V_GLOBAL, V_ARRAY, V_HASH, V_HASH_IP, V_CNT };

struct per_attach {
	__u64 val;
	__u64 pad[3];
};

#ifdef __bpf__
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, GBL_SLOTS);
	__type(key, __u32);
	__type(value, struct per_attach);
} arr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, struct per_attach);
} hash SEC(".maps");

struct per_attach gbl[GBL_SLOTS];
#endif

#endif
