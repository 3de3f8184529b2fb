// SPDX-License-Identifier: GPL-2.0
/* Programs as users build them today, for prog_tests/usdt_compat.c: a USDT,
 * a kprobe and a uprobe program that share a static helper calling
 * bpf_usdt_arg(), each auto-attached by the skeleton from its section.
 * With a libbpf that has attach data, the kprobe and uprobe programs keep
 * the whole object in cookie + ARRAY mode (they are not USDT programs), so
 * that each still attaches and fires as with any released libbpf.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>

int my_pid;
int usdt_hits, kprobe_hits, uprobe_hits;
long usdt_arg;
int usdt_err;

static __always_inline bool mine(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == my_pid;
}

/* what a tool's shared code looks like: the probe's first USDT argument */
static __noinline long first_arg(struct pt_regs *ctx, int *err)
{
	long v = 0;

	*err = bpf_usdt_arg(ctx, 0, &v);
	return v;
}

SEC("usdt//proc/self/exe:compat:hit")
int usdt_reader(struct pt_regs *ctx)
{
	if (mine()) {
		usdt_arg = first_arg(ctx, &usdt_err);
		usdt_hits++;
	}
	return 0;
}

SEC("kprobe/__x64_sys_getpgid")
int kprobe_reader(struct pt_regs *ctx)
{
	int err;

	/* a kprobe is no USDT: bpf_usdt_arg() fails or reads garbage */
	if (mine()) {
		first_arg(ctx, &err);
		kprobe_hits++;
	}
	return 0;
}

SEC("uprobe//proc/self/exe:usdt_compat_uprobe_target")
int uprobe_reader(struct pt_regs *ctx)
{
	int err;

	if (mine()) {
		first_arg(ctx, &err);
		uprobe_hits++;
	}
	return 0;
}

char _license[] SEC("license") = "GPL";
