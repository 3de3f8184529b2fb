// SPDX-License-Identifier: GPL-2.0
/* One USDT program for 1,000 call sites with 1,000 distinct argument specs. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>

int my_pid;
int calls;
long sum;

SEC("usdt")
int BPF_USDT(site, int x)
{
	if ((bpf_get_current_pid_tgid() >> 32) != my_pid)
		return 0;
	__sync_fetch_and_add(&calls, 1);
	__sync_fetch_and_add(&sum, x);
	return 0;
}

char _license[] SEC("license") = "GPL";
