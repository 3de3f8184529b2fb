// SPDX-License-Identifier: GPL-2.0
/* 1,000 USDT call sites whose argument is a different constant each, so
 * 1,000 distinct specs: with attach data they attach with default settings
 * and each site fires with its own argument; with cookie + ARRAY the spec
 * map (BPF_USDT_MAX_SPEC_CNT, 256 by default) runs out, E2BIG, as before.
 * The default fd limit (1,024) stays: one uprobe_multi link carries all
 * 1,000 specs (a link per site would need two fds each).
 */
#include <sys/sdt.h>
#include "test_progs.h"
#include "usdt_mode.h"
#include "usdt_many_specs.skel.h"

#define SITES 1000

static __always_inline void site(int x)
{
	STAP_PROBE1(many, site, x);
}

#define R10(X)   site(X); site(X + 1); site(X + 2); site(X + 3); site(X + 4); \
		 site(X + 5); site(X + 6); site(X + 7); site(X + 8); site(X + 9)
#define R100(X)  R10(X); R10(X + 10); R10(X + 20); R10(X + 30); R10(X + 40); \
		 R10(X + 50); R10(X + 60); R10(X + 70); R10(X + 80); R10(X + 90)
#define R1000(X) R100(X); R100(X + 100); R100(X + 200); R100(X + 300); R100(X + 400); \
		 R100(X + 500); R100(X + 600); R100(X + 700); R100(X + 800); R100(X + 900)

noinline void fire_1000_sites(void)
{
	R1000(0);
}

void test_usdt_many_specs(void)
{
	struct usdt_many_specs *skel;
	struct bpf_link *link;
	int err;

	skel = usdt_many_specs__open_and_load();
	if (!ASSERT_OK_PTR(skel, "skel_open_and_load"))
		return;
	skel->bss->my_pid = getpid();
	assert_usdt_mode(skel->progs.site, false);

	link = bpf_program__attach_usdt(skel->progs.site, 0, "/proc/self/exe", "many", "site",
					NULL);
	err = -errno;
	if (bpf_program__attach_data_type(skel->progs.site)) {
		if (!ASSERT_OK_PTR(link, "attach_1000_specs"))
			goto out;
		fire_1000_sites();
		ASSERT_EQ(skel->bss->calls, SITES, "calls");
		ASSERT_EQ(skel->bss->sum, (long)SITES * (SITES - 1) / 2, "sum");
	} else {
		if (!ASSERT_ERR_PTR(link, "attach_1000_specs_fails"))
			goto out;
		ASSERT_EQ(err, -E2BIG, "attach_err");
		link = NULL;
	}
out:
	bpf_link__destroy(link);
	usdt_many_specs__destroy(skel);
}
