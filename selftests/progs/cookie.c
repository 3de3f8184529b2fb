// SPDX-License-Identifier: GPL-2.0
/* Each program ORs its link's BPF cookie into a result, so two links with
 * cookies of disjoint bits show that each link passed its own value.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

int my_pid;
__u64 kprobe_res;
__u64 uprobe_res;
__u64 tp_res;

static __always_inline bool mine(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == my_pid;
}

SEC("kprobe")
int handle_kprobe(struct pt_regs *ctx)
{
	if (mine())
		kprobe_res |= bpf_get_attach_cookie(ctx);
	return 0;
}

SEC("uprobe")
int handle_uprobe(struct pt_regs *ctx)
{
	if (mine())
		uprobe_res |= bpf_get_attach_cookie(ctx);
	return 0;
}

SEC("tracepoint")
int handle_tp(void *ctx)
{
	if (mine())
		tp_res |= bpf_get_attach_cookie(ctx);
	return 0;
}

char _license[] SEC("license") = "GPL";
