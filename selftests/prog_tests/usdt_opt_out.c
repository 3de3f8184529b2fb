// SPDX-License-Identifier: GPL-2.0
/* BPF_USDT_NO_ATTACH_DATA keeps a USDT program on cookie + ARRAY on any
 * kernel: no attach data type, and the spec map holds the spec.
 */
#include <sys/sdt.h>
#include "test_progs.h"
#include "usdt_mode.h"
#include "usdt_opt_out.skel.h"

noinline void usdt_opt_out_fire(long x)
{
	STAP_PROBE1(opt, out, x);
}

void test_usdt_opt_out(void)
{
	struct usdt_opt_out *skel;
	struct bpf_link *link;
	char spec[512] = {};
	int key = 0, i;
	__u32 vsz;

	skel = usdt_opt_out__open_and_load();
	if (!ASSERT_OK_PTR(skel, "skel_open_and_load"))
		return;
	skel->bss->my_pid = getpid();
	ASSERT_NULL(bpf_program__attach_data_type(skel->progs.opt_out), "no_attach_data");
	assert_usdt_mode(skel->progs.opt_out, true);

	link = bpf_program__attach_usdt(skel->progs.opt_out, 0, "/proc/self/exe", "opt", "out",
					NULL);
	if (ASSERT_OK_PTR(link, "attach_usdt")) {
		usdt_opt_out_fire(0x12345678);
		ASSERT_EQ(skel->bss->calls, 1, "calls");
		ASSERT_EQ(skel->bss->arg, 0x12345678, "arg");
	}

	vsz = bpf_map__value_size(skel->maps.__bpf_usdt_specs);
	if (ASSERT_LE(vsz, sizeof(spec), "spec_size") &&
	    ASSERT_OK(bpf_map__lookup_elem(skel->maps.__bpf_usdt_specs, &key, sizeof(key),
					   spec, vsz, 0), "spec_lookup")) {
		for (i = 0; i < (int)vsz && !spec[i]; i++)
			;
		ASSERT_LT(i, (int)vsz, "spec_map_used");
	}
	bpf_link__destroy(link);
	usdt_opt_out__destroy(skel);
}
