/* SPDX-License-Identifier: GPL-2.0 */
/* What progs/bench_lock.c and bench_lock.c share: the variants. */
#ifndef BENCH_LOCK_H
#define BENCH_LOCK_H

#define LOCK_SLOTS	8
#define LOCK_SLOT	5	/* the ARRAY variant's cookie: its value's key */

enum { L_EMPTY, L_BLOB, L_ARRAY, L_CNT };

#endif
