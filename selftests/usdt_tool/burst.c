// SPDX-License-Identifier: GPL-2.0
/* usdt_tool's burst: N hits of tool:burst as fast as it can fire them, each
 * with two strings, the first naming the hit, and the hit's number:
 * "burst N I" "the same for every hit" I.  Waits for a byte on stdin first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/sdt.h>

int main(int argc, char **argv)
{
	static const char same[] = "the same for every hit";
	long i, n = argc > 1 ? atol(argv[1]) : 0;
	char name[48];
	char c;

	if (n <= 0 || read(0, &c, 1) != 1)
		return 1;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "burst %ld %ld", n, i);
		STAP_PROBE3(tool, burst, name, same, i);
	}
	return 0;
}
