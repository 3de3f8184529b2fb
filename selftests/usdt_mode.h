/* SPDX-License-Identifier: GPL-2.0 */
/* Which USDT mode libbpf chose for a program, against the one the runner
 * says this kernel must get (USDT_EXPECT_MODE, set by selftests/run.sh per
 * kernel), spelled as everywhere else:
 *   "attach data"                    the spec as attach data, on a uprobe_multi
 *                                    link (patched);
 *   "cookie + ARRAY, uprobe_multi"   on a uprobe_multi link (stock 6.6 and later);
 *   "cookie + ARRAY, perf event"     on per-site perf-event uprobes (stock 6.1);
 *   "IP + HASH, perf event"          the spec id by the site's IP in a HASH map,
 *                                    on per-site perf-event uprobes (stock
 *                                    5.10, which has no BPF cookie).
 * Run by hand, without USDT_EXPECT_MODE, the mode is only printed.
 */
#ifndef __USDT_MODE_H
#define __USDT_MODE_H

#include <stdlib.h>
#include "test_progs.h"
#include "libbpf_usdt_mode.h"	/* tools/common: the modes and their names */

/* The mode (libbpf_usdt_mode.h's name), and for the spec-map modes the
 * link: its program's attach type tells.
 */
static inline const char *usdt_mode(const struct bpf_program *prog)
{
	static char buf[64];
	enum usdt_mode m = usdt_prog_mode(prog);

	if (m == USDT_MODE_ATTACH_DATA)
		return usdt_mode_names[m];
	snprintf(buf, sizeof(buf), "%s, %s", usdt_mode_names[m],
		 bpf_program__expected_attach_type(prog) == BPF_TRACE_UPROBE_MULTI ?
		 "uprobe_multi" : "perf event");
	return buf;
}

/* The mode this kernel must give, or NULL when the runner did not say. */
static inline const char *usdt_expected_mode(void)
{
	return getenv("USDT_EXPECT_MODE");
}

/* Check @prog's mode; @opt_out: the program defines BPF_USDT_NO_ATTACH_DATA,
 * so it gets cookie + ARRAY even where attach data exists.
 */
static inline bool assert_usdt_mode(const struct bpf_program *prog, bool opt_out)
{
	const char *want = usdt_expected_mode(), *got = usdt_mode(prog);

	if (!want) {
		printf("%s: USDT mode %s (USDT_EXPECT_MODE not set)\n", __func__, got);
		return true;
	}
	if (opt_out && !strcmp(want, "attach data"))
		want = "cookie + ARRAY, uprobe_multi";
	return ASSERT_STREQ(got, want, "usdt_mode");
}

#endif
