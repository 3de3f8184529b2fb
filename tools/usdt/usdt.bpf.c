// SPDX-License-Identifier: GPL-2.0
/* usdt's BPF side: one program for every probe the tool attaches to.  It
 * learns which probe fired from libbpf (bpf_usdt_probe_idx() with one link
 * for all probes, bpf_usdt_cookie() with a link per probe), then counts the
 * hit or sends it, with its decoded arguments, to user space.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>
#include "usdt.h"

const volatile bool count_only;
const volatile bool link_per_probe;
const volatile __u32 str_mask;	/* arguments read as strings, bit N for argN */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4 << 20);
} events SEC(".maps");

/* hits per probe; sized to the probe table before load */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} counts SEC(".maps");

__u64 lost;
__u64 unknown;	/* hits whose probe could not be told */

SEC("usdt")
int usdt_hit(struct pt_regs *ctx)
{
	struct usdt_event *e;
	__u64 *cnt;
	__u32 probe;
	long idx, v;
	int i, err;

	/* with a link per probe, the cookie is the probe's index + 1: 0 is
	 * what bpf_usdt_cookie() returns without a spec
	 */
	idx = link_per_probe ? bpf_usdt_cookie(ctx) - 1 : bpf_usdt_probe_idx(ctx);
	if (idx < 0) {
		__sync_fetch_and_add(&unknown, 1);
		return 0;
	}
	probe = idx;

	if (count_only) {
		cnt = bpf_map_lookup_elem(&counts, &probe);
		if (cnt)
			__sync_fetch_and_add(cnt, 1);
		else
			__sync_fetch_and_add(&unknown, 1);
		return 0;
	}

	/* str_mask is constant at load: one size or the other */
	if (str_mask)
		e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	else
		e = bpf_ringbuf_reserve(&events, offsetof(struct usdt_event, strs), 0);
	if (!e) {
		__sync_fetch_and_add(&lost, 1);
		return 0;
	}
	e->pid = bpf_get_current_pid_tgid() >> 32;
	e->tid = (__u32)bpf_get_current_pid_tgid();
	e->probe = probe;
	e->arg_cnt = bpf_usdt_arg_cnt(ctx);
	e->arg_err = 0;
	e->str_bad = 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	for (i = 0; i < USDT_MAX_ARGS; i++) {
		if (i >= e->arg_cnt) {
			e->args[i] = 0;
			continue;
		}
		err = bpf_usdt_arg(ctx, i, &v);
		if (err && !e->arg_err)
			e->arg_err = err;
		e->args[i] = v;
		if (!(str_mask & (1U << i)))
			continue;
		/* the page may not be in: a BPF program cannot fault it in */
		if (bpf_probe_read_user_str(e->strs[i], USDT_STR_LEN, (void *)v) < 0)
			e->str_bad |= 1U << i;
	}
	bpf_ringbuf_submit(e, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
