// SPDX-License-Identifier: GPL-2.0
/* A static named like a.c's: the probe here reads this file's. */
#include "probe.h"

static volatile int same;

static __attribute__((noinline)) void fire(int pid)
{
	same = pid + 2000;
	PROBE2(b, same, rip_g_long);
}

void rip_b_fire(int pid)
{
	fire(pid);
}
