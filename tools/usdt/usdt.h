/* SPDX-License-Identifier: GPL-2.0 */
/* What usdt's BPF program (usdt.bpf.c) and user space (usdt.c) share. */
#ifndef __USDT_TOOL_H
#define __USDT_TOOL_H

#define USDT_MAX_ARGS	12	/* libbpf's BPF_USDT_MAX_ARG_CNT */
#define USDT_STR_LEN	64	/* bytes of an argument read as a string (-s) */
/* -H's log2 slots, as bpftrace's hist(): < 0, 0, 1, [2, 4), ... [2^62, 2^63) */
#define USDT_HIST_SLOTS	65

struct usdt_event {
	__u64 ts;		/* bpf_ktime_get_ns(): CLOCK_MONOTONIC, for -t */
	__u32 pid;
	__u32 tid;
	__u32 probe;		/* index into the tool's probe table */
	__s32 arg_cnt;
	__s32 arg_err;		/* the first error bpf_usdt_arg() returned */
	__u32 str_bad;		/* bit N: argN could not be read as a string */
	char comm[16];
	__s64 args[USDT_MAX_ARGS];
	/* with -s, a slot per argument read as a string, in argument order:
	 * an event is as long as the slots asked for
	 */
	char strs[][USDT_STR_LEN];
};

/* The cookie of a probe's attachment, which with attach data is part of the
 * probe's attach data: the probe's index + 1 with a link per probe (one link
 * for all tells the probe by bpf_usdt_probe_idx()), and -H's argument + 1.
 */
#define USDT_COOKIE(probe_plus_1, hist_arg_plus_1) \
	((__u64)(hist_arg_plus_1) << 32 | (__u32)(probe_plus_1))

#endif
