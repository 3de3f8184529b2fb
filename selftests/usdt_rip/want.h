/* SPDX-License-Identifier: GPL-2.0 */
/* What usdt_rip's programs pass at each probe: for the tests that trace
 * them (usdt_rip, usdt_tool).
 */
#ifndef USDT_RIP_WANT_H
#define USDT_RIP_WANT_H

enum { P_MAIN, P_A, P_B, P_LIB, P_CNT };
static const char *const probe_names[P_CNT] = { "main", "a", "b", "lib" };
static const int probe_hits[P_CNT] = { 2, 1, 1, 1 };	/* per process */

/* The arguments process @pid passes at @probe (usdt_rip/{main,a,b,lib}.c);
 * returns how many.
 */
static inline int want_args(int probe, int pid, long *a)
{
	switch (probe) {
	case P_MAIN:
		a[0] = pid * 3L + 1;
		a[1] = (short)(pid + 7);
		a[2] = (signed char)-(pid & 0x3f);
		a[3] = pid & 0x7f;
		return 4;
	case P_A:
	case P_B:
		a[0] = pid + (probe == P_A ? 1000 : 2000);
		a[1] = pid * 3L + 1;
		return 2;
	case P_LIB:
		a[0] = pid + 3000;
		a[1] = pid * 5L;
		return 2;
	}
	return -1;
}

#endif
