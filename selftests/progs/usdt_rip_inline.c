// SPDX-License-Identifier: GPL-2.0
/* usdt_rip's program with bpf_usdt_arg() inlined (BPF_USDT_ARG_INLINE). */
#define BPF_USDT_ARG_INLINE
#define rec rec_inline
#include "usdt_rip.c"
