/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by the benchmarks in tools/bench. */
#ifndef BENCH_H
#define BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* CLOCK_MONOTONIC in ns: guest instructions under QEMU -icount shift=0. */
static inline unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct bench_stat {
	double med, min, max;
	int n;
};

/* Median (the lower middle one of an even count), min and max; sorts @v. */
static inline struct bench_stat bench_stat(double *v, int n)
{
	struct bench_stat s = { .n = n };

	if (n < 1)
		return s;
	qsort(v, n, sizeof(*v), bench_cmp_double);
	s.med = v[(n - 1) / 2];
	s.min = v[0];
	s.max = v[n - 1];
	return s;
}

#define bench_die(...) do {						\
	fprintf(stderr, __VA_ARGS__);					\
	fputc('\n', stderr);						\
	exit(1);							\
} while (0)

#endif
