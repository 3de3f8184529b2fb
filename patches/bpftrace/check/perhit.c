// SPDX-License-Identifier: GPL-2.0
/* perhit CALLS ROUNDS: fires perhit:args1, args3, args6 and args12 (<sys/sdt.h>
 * sites, arguments beyond the sixth on the stack) CALLS times each, per
 * round, interleaved, and prints "K ROUND CLOCK-PER-CALL" for each: the
 * clock is CLOCK_MONOTONIC, guest instructions under QEMU -icount shift=0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/sdt.h>

__attribute__((noinline)) void fire1(long a)
{
	STAP_PROBE1(perhit, args1, a);
}

__attribute__((noinline)) void fire3(long a, long b, long c)
{
	STAP_PROBE3(perhit, args3, a, b, c);
}

__attribute__((noinline)) void fire6(long a, long b, long c, long d, long e, long f)
{
	STAP_PROBE6(perhit, args6, a, b, c, d, e, f);
}

__attribute__((noinline)) void fire12(long a, long b, long c, long d, long e, long f,
				      long g, long h, long i, long j, long k, long l)
{
	STAP_PROBE12(perhit, args12, a, b, c, d, e, f, g, h, i, j, k, l);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static const int ks[] = { 1, 3, 6, 12 };
	int calls, rounds, r, i, n;
	double t;

	if (argc != 3 || (calls = atoi(argv[1])) <= 0 || (rounds = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: perhit CALLS ROUNDS\n");
		return 2;
	}
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < 4; i++) {
			t = now();
			for (n = 0; n < calls; n++) {
				switch (ks[i]) {
				case 1: fire1(1); break;
				case 3: fire3(1, 2, 3); break;
				case 6: fire6(1, 2, 3, 4, 5, 6); break;
				default: fire12(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12); break;
				}
			}
			printf("%d %d %.1f\n", ks[i], r, (now() - t) / calls);
		}
	}
	return 0;
}
