// SPDX-License-Identifier: GPL-2.0
/* bench10:argsK: bench_usdt.c's probes (K = 1, 3, 6, 12) again, as the
 * kernel tree's usdt.h writes a site: a nop and a nop10, where <sys/sdt.h>
 * writes one nop.  libbpf puts the uprobe on the nop10, which the kernel
 * (x86, 6.18 on) turns into a call of its uprobe trampoline: no trap.  Its
 * own file, as usdt.h and <sys/sdt.h> do not mix.
 */
#include "usdt.h"
#include "usdt_modes.h"

__attribute__((noinline)) void fire10_1(long a)
{
	USDT(bench10, args1, a);
}

__attribute__((noinline)) void fire10_3(long a, long b, long c)
{
	USDT(bench10, args3, a, b, c);
}

__attribute__((noinline)) void fire10_6(long a, long b, long c, long d, long e, long f)
{
	USDT(bench10, args6, a, b, c, d, e, f);
}

__attribute__((noinline)) void fire10_12(long a, long b, long c, long d, long e, long f,
					 long g, long h, long i, long j, long k, long l)
{
	USDT(bench10, args12, a, b, c, d, e, f, g, h, i, j, k, l);
}

void usdt_fire10(int k, int n)
{
	while (n--) {
		switch (k) {
		case 1: fire10_1(1); break;
		case 3: fire10_3(1, 2, 3); break;
		case 6: fire10_6(1, 2, 3, 4, 5, 6); break;
		default: fire10_12(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12); break;
		}
	}
}
