// SPDX-License-Identifier: GPL-2.0
/* usdt_tool's streams: what a command run under the tool finds of its
 * descriptors, as they were when it started: for 0, 1 and 2 the offset and
 * flags of /proc/self/fdinfo, then every other descriptor open.  Written to
 * stdout, and the stderr line to stderr; fires tool:streams at the end.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>

static void fdinfo(int fd, char *buf, size_t len)
{
	char path[64], line[128], pos[128] = "", flags[128] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "pos:", 4))
			snprintf(pos, sizeof(pos), "%s", line);
		else if (!strncmp(line, "flags:", 6))
			snprintf(flags, sizeof(flags), "%s", line);
	}
	if (f)
		fclose(f);
	snprintf(buf, len, "fd%d %s %s", fd, pos, flags);
}

int main(void)
{
	char info[3][300], others[256] = "";
	struct dirent *d;
	DIR *dir;
	int i;

	/* before anything is written */
	for (i = 0; i < 3; i++)
		fdinfo(i, info[i], sizeof(info[i]));
	dir = opendir("/proc/self/fd");
	while (dir && (d = readdir(dir))) {
		int fd = atoi(d->d_name);

		if (d->d_name[0] == '.' || fd <= 2 || fd == dirfd(dir))
			continue;
		snprintf(others + strlen(others), sizeof(others) - strlen(others), " %d", fd);
	}
	if (dir)
		closedir(dir);
	printf("%s\n%s\n%s\nother fds:%s\n", info[0], info[1], info[2], others);
	fflush(stdout);
	fprintf(stderr, "streams: stderr\n");
	STAP_PROBE(tool, streams);
	return 0;
}
