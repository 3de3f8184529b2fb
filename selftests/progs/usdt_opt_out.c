// SPDX-License-Identifier: GPL-2.0
/* A USDT program that opts out of attach data: libbpf keeps the spec map. */
#define BPF_USDT_NO_ATTACH_DATA
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>

int my_pid;
int calls;
long arg;

SEC("usdt")
int BPF_USDT(opt_out, long x)
{
	if ((bpf_get_current_pid_tgid() >> 32) != my_pid)
		return 0;
	arg = x;
	calls++;
	return 0;
}

char _license[] SEC("license") = "GPL";
