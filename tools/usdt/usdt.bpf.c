// SPDX-License-Identifier: GPL-2.0
/* usdt's BPF side: one program for every probe the tool attaches to.  It
 * learns which probe fired from libbpf (bpf_usdt_probe_idx() with one link
 * for all probes, the cookie with a link per probe), then counts the hit
 * (-C), adds an argument to the probe's log2 histogram (-H; which argument
 * is in the probe's cookie), or sends the hit, with its decoded arguments,
 * to user space.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
/* --specialize: libbpf may load a copy per set of argument locations */
#define BPF_USDT_SPECIALIZE
#include <bpf/usdt.bpf.h>
#include "usdt.h"

const volatile bool count_only;
const volatile bool hist;
const volatile bool link_per_probe;
const volatile __u32 str_mask;	/* arguments read as strings, bit N for argN */
const volatile __u32 str_cnt;	/* the bits set in str_mask: an event's string slots */

/* sized by -b before load */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} events SEC(".maps");

/* hits per probe (-C), or per probe and log2 slot (-H: probe *
 * USDT_HIST_SLOTS + slot); sized to the probe table before load
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} counts SEC(".maps");

__u64 lost;
__u64 unknown;	/* hits whose probe could not be told */
__u64 no_arg;	/* -H: hits whose argument could not be read */

/* bpftrace's hist() slot of @v: 0 for v < 0, 1 for 0, then 2 + log2(v) */
static __always_inline __u32 log2_slot(long v)
{
	__u64 x = v;
	__u32 r = 0;

	if (v < 0)
		return 0;
	if (v == 0)
		return 1;
	if (x >> 32) {
		x >>= 32;
		r += 32;
	}
	if (x >> 16) {
		x >>= 16;
		r += 16;
	}
	if (x >> 8) {
		x >>= 8;
		r += 8;
	}
	if (x >> 4) {
		x >>= 4;
		r += 4;
	}
	if (x >> 2) {
		x >>= 2;
		r += 2;
	}
	if (x >> 1)
		r += 1;
	return r + 2;
}

_Static_assert(sizeof(((struct usdt_event *)0)->args) == sizeof(struct bpf_usdt_args),
	       "an event's args are a struct bpf_usdt_args");

SEC("usdt")
int usdt_hit(struct pt_regs *ctx)
{
	__u64 cookie = bpf_usdt_cookie(ctx), *cnt;
	struct usdt_event *e;
	__u32 probe, key, slot;
	long idx, v;
	int i, err;

	/* with a link per probe, the index + 1: 0 is what bpf_usdt_cookie()
	 * returns without a spec
	 */
	idx = link_per_probe ? (long)(__u32)cookie - 1 : bpf_usdt_probe_idx(ctx);
	if (idx < 0) {
		__sync_fetch_and_add(&unknown, 1);
		return 0;
	}
	probe = idx;

	if (count_only || hist) {
		key = probe;
		if (hist) {
			if (bpf_usdt_arg(ctx, (cookie >> 32) - 1, &v)) {
				__sync_fetch_and_add(&no_arg, 1);
				return 0;
			}
			key = probe * USDT_HIST_SLOTS + log2_slot(v);
		}
		cnt = bpf_map_lookup_elem(&counts, &key);
		if (cnt)
			__sync_fetch_and_add(cnt, 1);
		else
			__sync_fetch_and_add(&unknown, 1);
		return 0;
	}

	/* str_cnt is constant at load: the verifier knows the size */
	e = bpf_ringbuf_reserve(&events, sizeof(*e) + str_cnt * USDT_STR_LEN, 0);
	if (!e) {
		__sync_fetch_and_add(&lost, 1);
		return 0;
	}
	e->ts = bpf_ktime_get_ns();
	e->pid = bpf_get_current_pid_tgid() >> 32;
	e->tid = (__u32)bpf_get_current_pid_tgid();
	e->probe = probe;
	e->arg_cnt = bpf_usdt_arg_cnt(ctx);
	e->arg_err = 0;
	e->str_bad = 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	/* all of them at once; --specialize: each as compiled code would */
	err = bpf_usdt_args_specialized(ctx, (struct bpf_usdt_args *)e->args, USDT_MAX_ARGS);
	e->arg_err = err < 0 ? err : 0;
	slot = 0;
	for (i = 0; i < USDT_MAX_ARGS; i++) {
		v = e->args[i];
		if (!(str_mask & (1U << i)))
			continue;
		if (slot >= str_cnt)	/* never: for the verifier */
			break;
		/* the page may not be in: a BPF program cannot fault it in */
		if (i >= e->arg_cnt ||
		    bpf_probe_read_user_str(e->strs[slot], USDT_STR_LEN, (void *)v) < 0) {
			e->strs[slot][0] = '\0';
			e->str_bad |= 1U << i;
		}
		slot++;
	}
	bpf_ringbuf_submit(e, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
