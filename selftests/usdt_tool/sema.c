// SPDX-License-Identifier: GPL-2.0
/* usdt_tool's program with a probe behind a semaphore, as dtrace -h headers
 * make them: it fires only while a tracer has the semaphore up, and passes
 * a string; then a probe without one, whose argument is no address.  Waits
 * for a byte on stdin; exits with 3 if the semaphore was down, so a tracer
 * that does not raise it shows.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <unistd.h>
#include <sys/sdt.h>

__extension__ unsigned short tool_str_semaphore __attribute__((unused))
	__attribute__((section(".probes")));
__extension__ unsigned short tool_bad_semaphore __attribute__((unused))
	__attribute__((section(".probes")));

int main(void)
{
	static const char msg[] = "hello usdt";
	char c;

	if (read(0, &c, 1) != 1)
		return 1;
	if (!*(volatile unsigned short *)&tool_str_semaphore)
		return 3;
	/* a BPF program cannot fault the page in: touch it, as a program
	 * that uses the string would have
	 */
	if (*(volatile const char *)msg != 'h')
		return 4;
	STAP_PROBE2(tool, str, msg, 42);
	/* and one whose "string" is at an address nothing maps */
	STAP_PROBE1(tool, bad, 1L);
	return 0;
}
