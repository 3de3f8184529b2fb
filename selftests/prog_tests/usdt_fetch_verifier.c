// SPDX-License-Identifier: GPL-2.0
/* RUN_TESTS() over progs/usdt_fetch_verifier.c: a USDT program may not load
 * a register from the context at an offset known only at run time (the
 * verifier's message), and may through usdt.bpf.h's register switch.
 */
#include "test_progs.h"
#include "usdt_fetch_verifier.skel.h"

void test_usdt_fetch_verifier(void)
{
	RUN_TESTS(usdt_fetch_verifier);
}
