// SPDX-License-Identifier: GPL-2.0
/* A program that declares attach data loads where the kernel has the
 * feature, and fails with libbpf's -EOPNOTSUPP where it has not (the stock
 * kernel run), instead of an obscure verifier error.
 */
#include <bpf/btf.h>
#include "test_progs.h"
#include "attach_data.skel.h"

/* Asked of the kernel directly, not through libbpf. */
static bool kernel_has_attach_data(void)
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

void test_attach_data_feature(void)
{
	struct attach_data *skel;
	bool has = kernel_has_attach_data();
	int err;

	skel = attach_data__open();
	if (!ASSERT_OK_PTR(skel, "skel_open"))
		return;
	printf("attach_data_feature: kernel %s attach data\n", has ? "has" : "lacks");
	err = attach_data__load(skel);
	if (has)
		ASSERT_OK(err, "load");
	else
		ASSERT_EQ(err, -EOPNOTSUPP, "load_without_kernel_support");
	attach_data__destroy(skel);
}
