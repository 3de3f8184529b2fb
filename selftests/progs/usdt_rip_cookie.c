// SPDX-License-Identifier: GPL-2.0
/* usdt_rip's program with cookie + ARRAY even where attach data exists. */
#define BPF_USDT_NO_ATTACH_DATA
#define rec rec_no_attach_data
#include "usdt_rip.c"
