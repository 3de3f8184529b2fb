/* SPDX-License-Identifier: GPL-2.0 */
/* The ways to reach per-attachment data (progs/bench_lookup.h's variants), on
 * the user-space side: what the lookup benchmark (bench_lookup.c) and the
 * trigger benchmarks (bench_trigger.c) share.  Both BPF objects have one
 * program per variant, with the same names, and the same baselines (the
 * global array gbl, the ARRAY map arr, the HASH map hash).
 */
#ifndef LOOKUP_VARIANTS_H
#define LOOKUP_VARIANTS_H

#include <stdbool.h>
#include <linux/types.h>
#include "progs/bench_lookup.h"

struct bpf_object;
struct bpf_link;

#define KPROBE_FUNC	"__x64_sys_getpgid"

/* Where the variants attach: a kprobe, a uprobe, a one-function
 * kprobe_multi link, an fentry program (all on getpgid() but the uprobe).
 */
enum trig { TRIG_KPROBE, TRIG_UPROBE, TRIG_KMULTI, TRIG_FENTRY };

/* Table rows; V_EMPTY's ("empty ...") is each benchmark's own. */
extern const char *const variant_names[V_CNT];

/* The data at SLOT: in gbl, in arr and in hash (keyed by the cookie). */
void variants_fill(struct bpf_object *obj, struct per_attach *gbl);
/* HASH map[IP]: the data under the instruction pointer the probe reports. */
void variants_key_ip(struct bpf_object *obj, __u64 ip);
/* Variant V's program attached as KIND, to getpgid() or to
 * bench_uprobe_target(), with the cookie SLOT or (attach data) the blob.
 */
struct bpf_link *variant_attach(struct bpf_object *obj, int v, enum trig kind);
/* N hits: getpgid() calls, or calls of bench_uprobe_target(). */
void variants_trigger(enum trig kind, int n);

#endif
