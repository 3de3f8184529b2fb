/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel memory a process makes the kernel allocate: what the scale and
 * probes benchmarks (bench_scale.c, bench_probes.c) share.  A child enters
 * a memory cgroup of its own; memcg_kernel() is the kernel memory charged to
 * it (memory.stat "kernel": slab objects, maps, page tables...), and
 * slab_percpu() the system's Slab + Percpu (/proc/meminfo), in bytes.
 */
#ifndef MEMCG_H
#define MEMCG_H

void memcg_setup(void);		/* once, in the parent: enable the controller */
void memcg_enter(const char *name);
long long memcg_kernel(void);
void memcg_leave(void);
long long slab_percpu(void);

#endif
