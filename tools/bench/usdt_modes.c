// SPDX-License-Identifier: GPL-2.0
/* See usdt_modes.h. */
#include <errno.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "usdt_modes.h"
#include "bench_usdt.skel.h"
#include "bench_usdt_noad.skel.h"
#include "bench_usdt_old_noad.skel.h"
#include "bench_usdt_inline.skel.h"
#include "bench_usdt_switch.skel.h"


/* IP + HASH mode: libbpf uses its no-cookie fallback when the kernel appears
 * to lack bpf_get_attach_cookie().  libbpf.a is one relocatable object, so
 * its calls cannot be wrapped, but its system calls can (the binary is linked
 * with -Wl,--wrap=syscall): fail exactly the cookie feature probe, a
 * two-instruction program calling the helper, and pass everything else
 * through.  (x86-64: a variadic call takes its arguments where a call with
 * six longs does.)
 */
static int hide_cookies;

long __wrap_syscall(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	const union bpf_attr *attr = (const void *)a2;

	if (hide_cookies && nr == __NR_bpf && a1 == BPF_PROG_LOAD && attr->insn_cnt == 2) {
		const struct bpf_insn *insn = (const void *)(unsigned long)attr->insns;

		if (insn->code == (BPF_JMP | BPF_CALL) && insn->imm == BPF_FUNC_get_attach_cookie) {
			errno = EINVAL;
			return -1;
		}
	}
	return __real_syscall(nr, a1, a2, a3, a4, a5, a6);
}

/* Fill @o from skeleton @s, whatever its type. */
#define USDT_OBJ_FILL(o, s) do {					\
	(o)->prog = (s)->progs.usdt_args;				\
	(o)->macro[0] = (s)->progs.usdt1;				\
	(o)->macro[1] = (s)->progs.usdt3;				\
	(o)->macro[2] = (s)->progs.usdt6;				\
	(o)->macro[3] = (s)->progs.usdt12;				\
	(o)->ip_map = (s)->maps.__bpf_usdt_ip_to_spec_id;		\
	(o)->hits = (s)->bss->hits;					\
	(o)->sums = (s)->bss->sums;					\
	(o)->errors = &(s)->bss->errors;				\
} while (0)

void usdt_open(struct usdt_obj *o, int mode, int specs)
{
	*o = (struct usdt_obj){};
	hide_cookies = mode == M_IP;
	if (mode == M_AD) {
		o->ad = bench_usdt__open_and_load();
		if (!o->ad)
			bench_die("load failed");
		USDT_OBJ_FILL(o, o->ad);
		if (!bpf_program__attach_data_type(o->prog))
			bench_die("attach data mode, but libbpf did not choose it");
		return;
	}
	o->noad = bench_usdt_noad__open();
	if (!o->noad ||
	    (specs > 0 && bpf_map__set_max_entries(o->noad->maps.__bpf_usdt_specs, specs)) ||
	    bench_usdt_noad__load(o->noad))
		bench_die("load failed");
	USDT_OBJ_FILL(o, o->noad);
}

void usdt_open_old(struct usdt_obj *o, int mode)
{
	*o = (struct usdt_obj){};
	if (mode == M_AD)
		bench_die("usdt.bpf.h before the register-read patch has no attach data mode");
	hide_cookies = mode == M_IP;
	o->old_noad = bench_usdt_old_noad__open_and_load();
	if (!o->old_noad)
		bench_die("load failed");
	USDT_OBJ_FILL(o, o->old_noad);
}

/* @o from skeleton @name, a build of bench_usdt.c in attach data mode,
 * kept in @o->@field for usdt_close()
 */
#define USDT_OPEN_AD(o, field, name) do {				\
	*(o) = (struct usdt_obj){};					\
	hide_cookies = 0;						\
	(o)->field = name##__open_and_load();				\
	if (!(o)->field)						\
		bench_die("load failed");				\
	USDT_OBJ_FILL(o, (o)->field);					\
	if (!bpf_program__attach_data_type((o)->prog))			\
		bench_die("attach data mode, but libbpf did not choose it"); \
} while (0)

void usdt_open_inline(struct usdt_obj *o)
{
	USDT_OPEN_AD(o, inl, bench_usdt_inline);
}

void usdt_open_switch(struct usdt_obj *o)
{
	USDT_OPEN_AD(o, sw, bench_usdt_switch);
}

void usdt_close(struct usdt_obj *o)
{
	bench_usdt__destroy(o->ad);
	bench_usdt_noad__destroy(o->noad);
	bench_usdt_old_noad__destroy(o->old_noad);
	bench_usdt_inline__destroy(o->inl);
	bench_usdt_switch__destroy(o->sw);
	*o = (struct usdt_obj){};
}
