// SPDX-License-Identifier: GPL-2.0
/* A probe block that is both usdt and kprobe, as bpftrace compiles it
 * (`usdt:/proc/self/exe:compat:hit, kprobe:__x64_sys_getpgid { ... arg0 }`):
 * a copy of the block per attach point, in sections of bpftrace's own
 * names, both reading arg0 through one helper that calls bpf_usdt_arg()
 * (bpftrace's stdlib __usdt_arg(); static here, so that it loads on the
 * kernels before global functions took a void * context).  bpftrace sets
 * the program types itself and attaches the copies with
 * bpf_program__attach_usdt() and bpf_program__attach_kprobe_opts().
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>

int my_pid;
int usdt_hits, kprobe_hits;
long usdt_arg0;

static __noinline long __usdt_arg(void *ctx, long arg_num)
{
	long x;

	bpf_usdt_arg(ctx, arg_num, &x);
	return x;
}

SEC("s_usdt__proc_self_exe_compat_hit_1")
int usdt__proc_self_exe_compat_hit_1(struct pt_regs *ctx)
{
	long arg0 = __usdt_arg(ctx, 0);

	if ((bpf_get_current_pid_tgid() >> 32) == my_pid) {
		usdt_arg0 = arg0;
		usdt_hits++;
	}
	return 0;
}

SEC("s_kprobe___x64_sys_getpgid_2")
int kprobe___x64_sys_getpgid_2(struct pt_regs *ctx)
{
	long arg0 = __usdt_arg(ctx, 0);

	if ((bpf_get_current_pid_tgid() >> 32) == my_pid) {
		(void)arg0;
		kprobe_hits++;
	}
	return 0;
}

char _license[] SEC("license") = "GPL";
