// SPDX-License-Identifier: GPL-2.0
/* Cost per hit of re-arming a timer (bench_timer.c): a map value's, which
 * the map owns, or the link's attach data's, which the link owns.  Each
 * program is a kprobe on getpgid(); it sets its timer up on its first hit,
 * then re-arms it on every hit.  hits[] counts the runs, errs[] the timer
 * calls that failed (none may), fires[] the callbacks.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bench_timer.h"

#define CLOCK_MONOTONIC	1

struct timer_val {
	struct bpf_timer timer;
	__u64 armed;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, T_CNT);
	__type(key, __u32);
	__type(value, struct timer_val);
} timers SEC(".maps");

__u64 hits[T_CNT];
__u64 errs[T_CNT];
__u64 fires[T_CNT];

static int map_cb(void *map, int *key, struct timer_val *v)
{
	fires[*key == T_MAP_FIRE ? T_MAP_FIRE : T_MAP_START]++;
	return 0;
}

static int blob_cb(struct timer_val *v)
{
	fires[T_BLOB_FIRE]++;
	return 0;
}

static __always_inline int rearm(int v, struct timer_val *d, __u64 ns)
{
	if (bpf_timer_start(&d->timer, ns, 0))
		errs[v]++;
	hits[v]++;
	return 0;
}

static __always_inline int map_timer(int v, __u64 ns)
{
	__u32 key = v;
	struct timer_val *d = bpf_map_lookup_elem(&timers, &key);

	if (!d)
		return 0;
	if (!d->armed) {
		if (bpf_timer_init(&d->timer, &timers, CLOCK_MONOTONIC) ||
		    bpf_timer_set_callback(&d->timer, map_cb)) {
			errs[v]++;
			return 0;
		}
		d->armed = 1;
	}
	return rearm(v, d, ns);
}

static __always_inline int blob_timer(int v, struct timer_val *d, __u64 ns)
{
	if (!d->armed) {
		if (bpf_attach_data_timer_init(&d->timer, CLOCK_MONOTONIC) ||
		    bpf_timer_set_callback(&d->timer, blob_cb)) {
			errs[v]++;
			return 0;
		}
		d->armed = 1;
	}
	return rearm(v, d, ns);
}

SEC("kprobe")
int empty(struct pt_regs *ctx)
{
	hits[T_EMPTY]++;
	return 0;
}

SEC("kprobe")
int map_start(struct pt_regs *ctx)
{
	return map_timer(T_MAP_START, T_START_NS);
}

SEC("kprobe")
int blob_start(struct pt_regs *ctx)
{
	return blob_timer(T_BLOB_START, bpf_get_attach_data(ctx), T_START_NS);
}

SEC("kprobe")
int map_fire(struct pt_regs *ctx)
{
	return map_timer(T_MAP_FIRE, 0);
}

SEC("kprobe")
int blob_fire(struct pt_regs *ctx)
{
	return blob_timer(T_BLOB_FIRE, bpf_get_attach_data(ctx), 0);
}

BPF_ATTACH_DATA(blob_start, struct timer_val);
BPF_ATTACH_DATA(blob_fire, struct timer_val);

char _license[] SEC("license") = "GPL";
