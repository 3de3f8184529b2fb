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

struct bpf_link *variant_attach(struct bpf_object *obj, int v, enum trig kind)
{
	static const struct per_attach blob = { .val = SLOT };
	static const __u64 cookie = SLOT;
	static const char *sym = KPROBE_FUNC;
	struct bpf_program *prog = bpf_object__find_program_by_name(obj, prog_names[v]);
	LIBBPF_OPTS(bpf_uprobe_opts, uopts, .func_name = "bench_uprobe_target");
	LIBBPF_OPTS(bpf_kprobe_multi_opts, mopts, .syms = &sym, .cnt = 1);
	LIBBPF_OPTS(bpf_kprobe_opts, kopts);
	LIBBPF_OPTS(bpf_trace_opts, topts);
	struct bpf_link *link;
	bool ad = v == V_ATTACH_DATA;

	if (!prog)
		bench_die("no program %s", prog_names[v]);
	uopts.attach_data = kopts.attach_data = mopts.attach_data = topts.attach_data =
		ad ? &blob : NULL;
	uopts.attach_data_size = kopts.attach_data_size = mopts.attach_data_size =
		topts.attach_data_size = ad ? sizeof(blob) : 0;
	uopts.bpf_cookie = kopts.bpf_cookie = topts.cookie = ad ? 0 : SLOT;
	mopts.cookies = ad ? NULL : &cookie;
	switch (kind) {
	case TRIG_UPROBE:
		link = bpf_program__attach_uprobe_opts(prog, 0, "/proc/self/exe", 0, &uopts);
		break;
	case TRIG_KMULTI:
		link = bpf_program__attach_kprobe_multi_opts(prog, NULL, &mopts);
		break;
	case TRIG_FENTRY:
		link = bpf_program__attach_trace_opts(prog, &topts);
		break;
	default:
		link = bpf_program__attach_kprobe_opts(prog, KPROBE_FUNC, &kopts);
	}
	if (!link)
		bench_die("attach %s: %s", variant_names[v], strerror(errno));
	return link;
}

void variants_trigger(enum trig kind, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if (kind == TRIG_UPROBE)
			bench_uprobe_target();
		else
			__real_syscall(SYS_getpgid, 0);
	}
}
