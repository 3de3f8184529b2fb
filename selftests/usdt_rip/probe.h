/* SPDX-License-Identifier: GPL-2.0 */
/* The probe macro of the build: <sys/sdt.h>'s (one nop: an int3 uprobe) or,
 * with USE_USDT_H, the tree's usdt.h with memory operands (a nop combo, so
 * an optimized uprobe on kernels that have them).  gcc passes globals and
 * statics as "off+sym(%rip)", clang with "m" as "sym+off(%rip)".
 */
#ifndef USDT_RIP_PROBE_H
#define USDT_RIP_PROBE_H

#ifdef USE_USDT_H
#define USDT_ARG_CONSTRAINT m
#include "usdt.h"
#define PROBE2(name, a, b)		USDT(rip, name, a, b)
#define PROBE4(name, a, b, c, d)	USDT(rip, name, a, b, c, d)
#else
#include <sys/sdt.h>
#define PROBE2(name, a, b)		STAP_PROBE2(rip, name, a, b)
#define PROBE4(name, a, b, c, d)	STAP_PROBE4(rip, name, a, b, c, d)
#endif

extern volatile long rip_g_long;
void rip_a_fire(int pid);
void rip_b_fire(int pid);
void rip_lib_fire(int pid);

#endif
