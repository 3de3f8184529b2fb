// SPDX-License-Identifier: GPL-2.0
/* See lookup_variants.h. */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "lookup_variants.h"

const char *const variant_names[V_CNT] = {
	[V_EMPTY] = "empty",
	[V_COOKIE] = "cookie (u64)",
	[V_ATTACH_DATA] = "attach data",
	[V_GLOBAL] = "global array[cookie]",
	[V_ARRAY] = "ARRAY map[cookie]",
	[V_HASH] = "HASH map[cookie]",
	[V_HASH_IP] = "HASH map[IP]",
};

static const char *const prog_names[V_CNT] = {
	[V_EMPTY] = "empty",
	[V_COOKIE] = "cookie",
	[V_ATTACH_DATA] = "attach_data",
	[V_GLOBAL] = "global_array",
	[V_ARRAY] = "array_map",
	[V_HASH] = "hash_map",
	[V_HASH_IP] = "hash_ip",
};

static const struct per_attach pa = { .val = SLOT };

static void update(struct bpf_object *obj, const char *name, const void *key, size_t key_size)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, name);

	if (!map || bpf_map__update_elem(map, key, key_size, &pa, sizeof(pa), 0))
		bench_die("update of map %s failed", name);
}

void variants_fill(struct bpf_object *obj, struct per_attach *gbl)
{
	__u32 key = SLOT;
	__u64 hkey = SLOT;

	gbl[SLOT].val = SLOT;
	update(obj, "arr", &key, sizeof(key));
	update(obj, "hash", &hkey, sizeof(hkey));
}

void variants_key_ip(struct bpf_object *obj, __u64 ip)
{
	update(obj, "hash", &ip, sizeof(ip));
}

__attribute__((noinline)) void bench_uprobe_target(void)
{
	asm volatile ("" ::: "memory");
}

struct bpf_link *variant_attach(struct bpf_object *obj, int v, bool uprobe)
{
	static const struct per_attach blob = { .val = SLOT };
	struct bpf_program *prog = bpf_object__find_program_by_name(obj, prog_names[v]);
	LIBBPF_OPTS(bpf_uprobe_opts, uopts, .func_name = "bench_uprobe_target");
	LIBBPF_OPTS(bpf_kprobe_opts, kopts);
	struct bpf_link *link;

	if (!prog)
		bench_die("no program %s", prog_names[v]);
	if (v == V_ATTACH_DATA) {
		uopts.attach_data = kopts.attach_data = &blob;
		uopts.attach_data_size = kopts.attach_data_size = sizeof(blob);
	} else {
		uopts.bpf_cookie = kopts.bpf_cookie = SLOT;
	}
	if (uprobe)
		link = bpf_program__attach_uprobe_opts(prog, 0, "/proc/self/exe", 0, &uopts);
	else
		link = bpf_program__attach_kprobe_opts(prog, KPROBE_FUNC, &kopts);
	if (!link)
		bench_die("attach %s: %s", variant_names[v], strerror(errno));
	return link;
}

void variants_trigger(bool uprobe, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (uprobe)
			bench_uprobe_target();
		else
			__real_syscall(SYS_getpgid, 0);
	}
}
