/* SPDX-License-Identifier: GPL-2.0 */
/* What usdt's BPF program (usdt.bpf.c) and user space (usdt.c) share. */
#ifndef __USDT_TOOL_H
#define __USDT_TOOL_H

#define USDT_MAX_ARGS	12	/* libbpf's BPF_USDT_MAX_ARG_CNT */
#define USDT_STR_LEN	64	/* bytes of an argument read as a string (-s) */

struct usdt_event {
	__u32 pid;
	__u32 tid;
	__u32 probe;		/* index into the tool's probe table */
	__s32 arg_cnt;
	__s32 arg_err;		/* the first error bpf_usdt_arg() returned */
	__u32 str_bad;		/* bit N: argN could not be read as a string */
	char comm[16];
	__s64 args[USDT_MAX_ARGS];
	/* only with -s: events without strings end here */
	char strs[USDT_MAX_ARGS][USDT_STR_LEN];
};

#endif
