// SPDX-License-Identifier: GPL-2.0
/* USDT programs only, for prog_tests/usdt_compat.c: one reads its argument,
 * the other only counts its hits and reads no global (no relocation), so
 * that it can be loaded after its autoload is turned on past
 * bpf_object__prepare(); prog_tests reads its run count.  Without the
 * counter (USDT_COMPAT_READER_ONLY, usdt_compat_one.c), the object whose
 * spec and IP maps libbpf shrinks in attach data mode.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>

int my_pid;
int hits;
long arg;

SEC("usdt")
int BPF_USDT(reader, long x)
{
	if ((bpf_get_current_pid_tgid() >> 32) == my_pid) {
		arg = x;
		hits++;
	}
	return 0;
}

#ifndef USDT_COMPAT_READER_ONLY
SEC("usdt")
int counter(struct pt_regs *ctx)
{
	return 0;
}
#endif

char _license[] SEC("license") = "GPL";
