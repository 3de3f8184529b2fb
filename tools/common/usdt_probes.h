/* SPDX-License-Identifier: GPL-2.0 */
/* The distinct USDT probes of a binary, in the order of their first notes:
 * what the usdt tool (tools/usdt) and the probes benchmark (tools/bench)
 * both read with libbpf_usdt_probes_foreach().
 */
#ifndef USDT_PROBES_H
#define USDT_PROBES_H

#include <stdbool.h>

struct usdt_probe {
	char *provider;
	char *name;
	char *spec;	/* the first site's argument spec */
	int sites;
};

struct usdt_probes {
	struct usdt_probe *v;
	int cnt;
	int sites;	/* of all probes */
};

/* 0, or a negative errno: libbpf_usdt_probes_foreach()'s, or -ENOMEM */
int usdt_probes_read(const char *path, struct usdt_probes *probes);
void usdt_probes_free(struct usdt_probes *probes);

#endif
