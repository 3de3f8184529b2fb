/* SPDX-License-Identifier: GPL-2.0 */
/* libbpf's USDT modes for progs/bench_usdt.c's program: what the usdt and
 * scale benchmarks (bench_usdt.c, bench_scale.c) share.
 *
 *   attach data   specs as attach data (the series; bench_usdt.skel.h)
 *   cookie + ARRAY  spec id in the cookie, specs in an ARRAY map (stock libbpf;
 *                 the same program built with -DBPF_USDT_NO_ATTACH_DATA,
 *                 bench_usdt_noad.skel.h)
 *   IP + HASH       spec id from an IP-keyed HASH map (stock libbpf on kernels
 *                 without cookies: the noad program again, with libbpf's
 *                 cookie feature probe failed, see usdt_modes.c)
 *
 * libbpf picks the mode when it first probes the kernel, once per process:
 * a process runs one mode.
 */
#ifndef USDT_MODES_H
#define USDT_MODES_H

#include <linux/types.h>
#include "libbpf_usdt_mode.h"	/* tools/common: the modes and their names */

enum { M_AD = USDT_MODE_ATTACH_DATA, M_ARRAY = USDT_MODE_COOKIE, M_IP = USDT_MODE_IP,
       NMODE = USDT_MODE_CNT };
#define USDT_NK 4

struct usdt_obj {
	struct bench_usdt *ad;		/* attach data mode's skeleton */
	struct bench_usdt_noad *noad;	/* the spec-map modes' */
	struct bench_usdt_old_noad *old_noad;	/* the spec-map modes' with usdt.bpf.h
						 * before its register-read patch
						 */
	struct bench_usdt_inline *inl;	/* attach data, bpf_usdt_arg() inlined */
	struct bench_usdt_switch *sw;	/* attach data, registers read through
					 * usdt.bpf.h's switch
					 */
	struct bpf_program *prog;	/* usdt_args */
	struct bpf_program *macro[USDT_NK];	/* usdtK, K = usdt_nargs[] (BPF_USDT()) */
	struct bpf_map *ip_map;		/* libbpf's IP-to-spec-id map */
	__u64 *hits, *sums, *errors;	/* the program's counters (.bss) */
};

/* Load the program in MODE; SPECS > 0 sizes cookie + ARRAY's spec map to fit
 * (libbpf's default: 256).  Dies on failure, and when MODE is attach data
 * but libbpf did not choose it.
 */
void usdt_open(struct usdt_obj *o, int mode, int specs);
/* The same, with the program built against usdt.bpf.h as it was before the
 * usdt series' register-read patch (the fetch benchmark's "before"): a
 * spec-map mode only, since attach data comes in a later series.
 */
void usdt_open_old(struct usdt_obj *o, int mode);
/* Attach data mode, the program built with BPF_USDT_ARG_INLINE. */
void usdt_open_inline(struct usdt_obj *o);
/* Attach data mode, the program reading registers as on a kernel without
 * variable-offset context reads (LIBBPF_USDT_CTX_VAR_OFF 0).
 */
void usdt_open_switch(struct usdt_obj *o);
void usdt_close(struct usdt_obj *o);

/* The probes bench:argsK, K = usdt_nargs[i] (tools/common/usdt_fire.c) */
extern const int usdt_nargs[USDT_NK];
#include "usdt_fire.h"

#endif
