// SPDX-License-Identifier: GPL-2.0
/* USDT probes PROVIDER:args1, args3, args6 and args12, each in a function
 * of its own that takes the arguments (from the seventh on, on the stack, so
 * that the 12-argument probe reads memory as well as registers), and
 * usdt_fire(), which fires one of them: the benchmarks' bench:argsK
 * (tools/bench) and the bpftrace check's perhit:argsK
 * (patches/bpftrace/check/perhit.c, built with USDT_FIRE_PROVIDER=perhit).
 * As <sys/sdt.h> writes a site, one nop, which the uprobe turns into a
 * trap; or, built with USDT_FIRE_NOP10, as the kernel tree's usdt.h writes
 * it, a nop and a nop10, which the kernel (x86, 6.18 on) turns into a call
 * of its uprobe trampoline: the benchmarks' bench10:argsK and
 * usdt_fire10().  One build per object, as usdt.h and <sys/sdt.h> do not
 * mix.
 */
#include "usdt_fire.h"

#ifdef USDT_FIRE_NOP10
#include "usdt.h"
#define FIRE_PROBE(name, ...)	USDT(bench10, name, __VA_ARGS__)
#define FIRE(n)			fire10_##n
#define USDT_FIRE		usdt_fire10
#else
#define SDT_USE_VARIADIC
#include <sys/sdt.h>
#ifndef USDT_FIRE_PROVIDER
#define USDT_FIRE_PROVIDER	bench
#endif
#define FIRE_PROBE(name, ...)	STAP_PROBEV(USDT_FIRE_PROVIDER, name, __VA_ARGS__)
#define FIRE(n)			fire##n
#define USDT_FIRE		usdt_fire
#endif

__attribute__((noinline)) void FIRE(1)(long a)
{
	FIRE_PROBE(args1, a);
}

__attribute__((noinline)) void FIRE(3)(long a, long b, long c)
{
	FIRE_PROBE(args3, a, b, c);
}

__attribute__((noinline)) void FIRE(6)(long a, long b, long c, long d, long e, long f)
{
	FIRE_PROBE(args6, a, b, c, d, e, f);
}

__attribute__((noinline)) void FIRE(12)(long a, long b, long c, long d, long e, long f,
					long g, long h, long i, long j, long k, long l)
{
	FIRE_PROBE(args12, a, b, c, d, e, f, g, h, i, j, k, l);
}

void USDT_FIRE(int k, int n)
{
	while (n--) {
		switch (k) {
		case 1: FIRE(1)(1); break;
		case 3: FIRE(3)(1, 2, 3); break;
		case 6: FIRE(6)(1, 2, 3, 4, 5, 6); break;
		default: FIRE(12)(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12); break;
		}
	}
}
