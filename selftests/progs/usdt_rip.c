// SPDX-License-Identifier: GPL-2.0
/* Records each hit of usdt_rip's probes: the process, which probe (the USDT
 * cookie) and the arguments as libbpf decodes them.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>

#define MAX_RECS 64

struct rec {
	int pid;
	int probe;
	int arg_cnt;
	int err;
	long args[4];
};

struct rec recs[MAX_RECS];
unsigned int rec_cnt;

SEC("usdt")
int hit(struct pt_regs *ctx)
{
	unsigned int i = __sync_fetch_and_add(&rec_cnt, 1);
	struct rec *r;
	long v;
	int j;

	if (i >= MAX_RECS)
		return 0;
	r = &recs[i];
	r->pid = bpf_get_current_pid_tgid() >> 32;
	r->probe = bpf_usdt_cookie(ctx);
	r->arg_cnt = bpf_usdt_arg_cnt(ctx);
	for (j = 0; j < 4; j++) {	/* not bpf_for(): stock 6.1 has no bpf_iter_num */
		if (j >= r->arg_cnt)
			break;
		r->err |= bpf_usdt_arg(ctx, j, &v);
		r->args[j] = v;
	}
	return 0;
}

char _license[] SEC("license") = "GPL";
