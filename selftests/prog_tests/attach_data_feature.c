// SPDX-License-Identifier: GPL-2.0
/* A program that declares attach data loads where the kernel has the
 * feature, and fails with libbpf's -EOPNOTSUPP where it has not (the stock
 * kernel run), instead of an obscure verifier error.
 */
#include <bpf/btf.h>
#include "test_progs.h"
#include "attach_data.skel.h"
#include "attach_data_feature.h"

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
