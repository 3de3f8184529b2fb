// SPDX-License-Identifier: GPL-2.0
/* RUN_TESTS() over progs/usdt_fetch_verifier.c: a USDT program may not load
 * a register from the context at a run-time offset that may be past struct
 * pt_regs, on every kernel (without the kprobe-ctx series: "variable ctx
 * access ... disallowed"; with it: "max value is outside of the allowed
 * memory range"), and may through usdt.bpf.h's register read: one load at
 * a variable offset with the kprobe-ctx series, its switch over the
 * registers without.
 */
#include "test_progs.h"
#include "usdt_fetch_verifier.skel.h"

void test_usdt_fetch_verifier(void)
{
	RUN_TESTS(usdt_fetch_verifier);
}
