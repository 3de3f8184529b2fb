// SPDX-License-Identifier: GPL-2.0
/* libstdc++'s own USDT probes: record what each one reports, in order. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>

#define MAX_EVENTS 32

enum { EV_THROW = 1, EV_CATCH, EV_RETHROW };

struct event {
	__u64 kind;
	__u64 obj;
	__u64 tinfo;
};

int n;
struct event events[MAX_EVENTS];

static __always_inline int record(__u64 kind, void *obj, void *tinfo)
{
	int i = __sync_fetch_and_add(&n, 1);

	if (i < 0 || i >= MAX_EVENTS)
		return 0;
	events[i].kind = kind;
	events[i].obj = (__u64)obj;
	events[i].tinfo = (__u64)tinfo;
	return 0;
}

SEC("usdt")
int BPF_USDT(on_throw, void *obj, void *tinfo)
{
	return record(EV_THROW, obj, tinfo);
}

SEC("usdt")
int BPF_USDT(on_catch, void *obj, void *tinfo)
{
	return record(EV_CATCH, obj, tinfo);
}

SEC("usdt")
int BPF_USDT(on_rethrow, void *obj, void *tinfo)
{
	return record(EV_RETHROW, obj, tinfo);
}

char _license[] SEC("license") = "GPL";
