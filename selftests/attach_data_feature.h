/* SPDX-License-Identifier: GPL-2.0 */
/* Does the running kernel take attach data?  Asked of the kernel directly,
 * not through libbpf: a trivial tracepoint program declaring a one-int
 * struct.  Shared by the project's tests; include after test_progs.h.
 */
#ifndef __ATTACH_DATA_FEATURE_H
#define __ATTACH_DATA_FEATURE_H

#include <bpf/btf.h>

static inline bool kernel_has_attach_data(void)
{
	struct bpf_insn insns[] = {
		BPF_MOV64_IMM(BPF_REG_0, 0),
		BPF_EXIT_INSN(),
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	struct btf *btf = btf__new_empty();
	int s, fd;

	if (!btf)
		return false;
	s = btf__add_struct(btf, "s", 4);
	btf__add_field(btf, "x", btf__add_int(btf, "int", 4, BTF_INT_SIGNED), 0, 0);
	if (btf__load_into_kernel(btf)) {
		btf__free(btf);
		return false;
	}
	opts.prog_btf_fd = btf__fd(btf);
	opts.attach_data_btf_id = s;
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT, NULL, "GPL", insns, ARRAY_SIZE(insns), &opts);
	if (fd >= 0)
		close(fd);
	btf__free(btf);
	return fd >= 0;
}

#endif
