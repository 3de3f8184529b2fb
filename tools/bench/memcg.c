// SPDX-License-Identifier: GPL-2.0
/* See memcg.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "bench.h"
#include "memcg.h"

#define CGROOT "/sys/fs/cgroup"

static char cg[96];

static void write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		bench_die("write %s: %s", path, strerror(errno));
	close(fd);
}

/* "key value" line of a file, in bytes (meminfo's kB converted). */
static long long read_key(const char *path, const char *key)
{
	char line[256];
	long long val = -1;
	size_t len = strlen(key);
	FILE *f = fopen(path, "r");

	if (!f)
		bench_die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, len) && (line[len] == ' ' || line[len] == ':')) {
			val = strtoll(line + len + 1, NULL, 10);
			if (strstr(line, "kB"))
				val *= 1024;
			break;
		}
	}
	fclose(f);
	if (val < 0)
		bench_die("no %s in %s", key, path);
	return val;
}

void memcg_setup(void)
{
	write_file(CGROOT "/cgroup.subtree_control", "+memory");
}

void memcg_enter(const char *name)
{
	char path[128];

	snprintf(cg, sizeof(cg), CGROOT "/%s.%d", name, getpid());
	if (mkdir(cg, 0755))
		bench_die("mkdir %s: %s", cg, strerror(errno));
	snprintf(path, sizeof(path), "%s/cgroup.procs", cg);
	write_file(path, "0");
}

long long memcg_kernel(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/memory.stat", cg);
	return read_key(path, "kernel");
}

void memcg_leave(void)
{
	write_file(CGROOT "/cgroup.procs", "0");
	rmdir(cg);
}

long long slab_percpu(void)
{
	return read_key("/proc/meminfo", "Slab") + read_key("/proc/meminfo", "Percpu");
}
