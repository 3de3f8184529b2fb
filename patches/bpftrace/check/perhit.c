// SPDX-License-Identifier: GPL-2.0
/* perhit CALLS ROUNDS: fires perhit:args1, args3, args6 and args12
 * (tools/common/usdt_fire.c, the benchmarks' probes, built with
 * USDT_FIRE_PROVIDER=perhit) CALLS times each, per round, interleaved, and
 * prints "K ROUND CLOCK-PER-CALL" for each: the clock is CLOCK_MONOTONIC,
 * guest instructions under QEMU -icount shift=0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "usdt_fire.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static const int ks[] = { 1, 3, 6, 12 };
	int calls, rounds, r, i;
	double t;

	if (argc != 3 || (calls = atoi(argv[1])) <= 0 || (rounds = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: perhit CALLS ROUNDS\n");
		return 2;
	}
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < 4; i++) {
			t = now();
			usdt_fire(ks[i], calls);
			printf("%d %d %.1f\n", ks[i], r, (now() - t) / calls);
		}
	}
	return 0;
}
