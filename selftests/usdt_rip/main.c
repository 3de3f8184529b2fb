// SPDX-License-Identifier: GPL-2.0
/* usdt_rip's traced program: its probes pass globals and statics, of the
 * executable, of two files that each have a static of the same name, and
 * of a shared library, with values that depend on the process, so that a
 * wrong address (another process's, another file's) shows.  Fires once a
 * byte arrives on stdin, so that several processes can be running at once.
 */
#include <unistd.h>
#include "probe.h"

volatile long rip_g_long;
volatile signed char rip_g_arr[16];
static volatile struct {
	int a;
	short b;
	signed char c;
} s_st;

/* Two sites of one probe with the same argument string and different
 * distances to the variables.
 */
static inline __attribute__((always_inline)) void fire_main(void)
{
	PROBE4(main, rip_g_long, s_st.b, s_st.c, rip_g_arr[3]);
}

int main(void)
{
	int pid = getpid();
	char c;

	if (read(0, &c, 1) != 1)
		return 1;
	rip_g_long = pid * 3L + 1;
	s_st.b = pid + 7;
	s_st.c = -(pid & 0x3f);
	rip_g_arr[3] = pid & 0x7f;
	fire_main();
	rip_a_fire(pid);
	rip_b_fire(pid);
	rip_lib_fire(pid);
	fire_main();
	return 0;
}
