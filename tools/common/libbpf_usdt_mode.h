/* SPDX-License-Identifier: GPL-2.0 */
/* libbpf's USDT modes, named as the usdt tool, the benchmarks and the tests
 * all print them, and the mode of a loaded program:
 *   attach data     each site's argument spec is its link's attach data
 *                   (kernels with the attach data series);
 *   cookie + ARRAY  a BPF cookie indexes libbpf's spec map (Linux 5.15 on);
 *   IP + HASH       the spec's id is found by the site's IP in a HASH map
 *                   (kernels without BPF cookies).
 * A libbpf without attach data (the tests' SERIES=usdt build) defines
 * LIBBPF_NO_ATTACH_DATA.
 */
#ifndef LIBBPF_USDT_MODE_H
#define LIBBPF_USDT_MODE_H

#include <stdbool.h>
#include <bpf/libbpf.h>

enum usdt_mode { USDT_MODE_ATTACH_DATA, USDT_MODE_COOKIE, USDT_MODE_IP, USDT_MODE_CNT };

static const char *const usdt_mode_names[USDT_MODE_CNT] __attribute__((unused)) = {
	[USDT_MODE_ATTACH_DATA] = "attach data",
	[USDT_MODE_COOKIE] = "cookie + ARRAY",
	[USDT_MODE_IP] = "IP + HASH",
};

/* Has the kernel BPF cookies?  Probed once. */
static inline bool usdt_kernel_has_cookie(void)
{
	static int has = -1;

	if (has < 0)
		has = libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE,
					      BPF_FUNC_get_attach_cookie, NULL) > 0;
	return has;
}

/* The mode libbpf loaded @prog in. */
static inline enum usdt_mode usdt_prog_mode(const struct bpf_program *prog)
{
#ifndef LIBBPF_NO_ATTACH_DATA
	if (bpf_program__attach_data_type(prog))
		return USDT_MODE_ATTACH_DATA;
#endif
	return usdt_kernel_has_cookie() ? USDT_MODE_COOKIE : USDT_MODE_IP;
}

#endif
