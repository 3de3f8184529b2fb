// SPDX-License-Identifier: GPL-2.0
/* See usdt_probes.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "usdt_probes.h"

static int add_site(const struct bpf_usdt_probe_info *info, void *ctx)
{
	struct usdt_probes *probes = ctx;
	struct usdt_probe *p, *v;
	int i;

	/* a probe's sites are usually next to each other: look back */
	for (i = probes->cnt - 1; i >= 0; i--) {
		p = &probes->v[i];
		if (!strcmp(p->name, info->name) && !strcmp(p->provider, info->provider))
			break;
	}
	if (i < 0) {
		v = realloc(probes->v, (probes->cnt + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		probes->v = v;
		p = &v[probes->cnt];
		*p = (struct usdt_probe){
			.provider = strdup(info->provider),
			.name = strdup(info->name),
			.spec = strdup(info->args),
		};
		probes->cnt++;
		if (!p->provider || !p->name || !p->spec)
			return -ENOMEM;
	}
	p->sites++;
	probes->sites++;
	return 0;
}

int usdt_probes_read(const char *path, struct usdt_probes *probes)
{
	int err;

	*probes = (struct usdt_probes){};
	err = libbpf_usdt_probes_foreach(path, add_site, probes);
	if (err)
		usdt_probes_free(probes);
	return err;
}

void usdt_probes_free(struct usdt_probes *probes)
{
	int i;

	for (i = 0; i < probes->cnt; i++) {
		free(probes->v[i].provider);
		free(probes->v[i].name);
		free(probes->v[i].spec);
	}
	free(probes->v);
	*probes = (struct usdt_probes){};
}
