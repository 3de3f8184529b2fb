// SPDX-License-Identifier: GPL-2.0
/* The shared library's probe: a static of the library (RIP-relative) and a
 * global one (through the GOT: a register operand).
 */
#include "probe.h"

static volatile int lib_s;
volatile long rip_lib_g;

void rip_lib_fire(int pid)
{
	lib_s = pid + 3000;
	rip_lib_g = pid * 5L;
	PROBE2(lib, lib_s, rip_lib_g);
}
