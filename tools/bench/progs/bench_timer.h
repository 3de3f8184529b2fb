/* SPDX-License-Identifier: GPL-2.0 */
/* What progs/bench_timer.c and bench_timer.c share: the variants. */
#ifndef BENCH_TIMER_H
#define BENCH_TIMER_H

/* Re-armed a second ahead on every hit (START), or to expire at once, so
 * that its callback runs after many hits (FIRE).
 */
enum { T_EMPTY, T_MAP_START, T_BLOB_START, T_MAP_FIRE, T_BLOB_FIRE, T_CNT };

#define T_START_NS	1000000000ULL

#endif
