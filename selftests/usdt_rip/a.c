// SPDX-License-Identifier: GPL-2.0
/* A static named like b.c's: the probe here reads this file's. */
#include "probe.h"

static volatile int same;

static __attribute__((noinline)) void fire(int pid)
{
	same = pid + 1000;
	PROBE2(a, same, rip_g_long);
}

void rip_a_fire(int pid)
{
	fire(pid);
}
