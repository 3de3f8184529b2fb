// SPDX-License-Identifier: GPL-2.0
/* How bpf_usdt_arg() reads a register argument: BCC's generated code knows
 * at compile time that the argument is in %rdi and loads ctx->di; libbpf's
 * one program serves every site, and learns the register from the site's
 * spec at run time.  A kernel with the kprobe-ctx series reads the context
 * at a variable offset bounded to struct pt_regs, which usdt.bpf.h then
 * uses (LIBBPF_USDT_CTX_VAR_OFF); older kernels read it only at constant
 * offsets, which usdt.bpf.h picks with a switch over the registers.  Every
 * kernel refuses an offset that may be past the struct.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>
#include <progs/bpf_misc.h>

/* a spec's reg_off, known only at run time: %rdi's */
volatile int reg_off = 14 * 8;

SEC("usdt")
__description("register at a run-time offset that may be past struct pt_regs: rejected")
__failure
__msg("{{variable ctx access var_off=\\(0x0; 0xf8\\) disallowed|max value is outside of the allowed memory range}}")
int reg_at_run_time_offset(struct pt_regs *ctx)
{
	unsigned int off = reg_off & 0xf8;

	return *(unsigned long *)((void *)ctx + off);
}

/* reg_off read as usdt.bpf.h reads a register argument's, a short as
 * struct __bpf_usdt_arg_spec's reg_off: with the switch inline, or (@call)
 * through __bpf_usdt_reg_val(), as bpf_usdt_arg() does
 */
static __always_inline int read_reg(struct pt_regs *ctx, bool call)
{
	unsigned long v = 0;

	return __bpf_usdt_reg(ctx, (short)reg_off, &v, call) ?: v == 1;
}

SEC("usdt")
__description("register through usdt.bpf.h, inline: accepted")
__success
int reg_through_switch(struct pt_regs *ctx)
{
	return read_reg(ctx, false);
}

SEC("usdt")
__description("register through usdt.bpf.h's global function: accepted")
__success
int reg_through_call(struct pt_regs *ctx)
{
	return read_reg(ctx, true);
}

char _license[] SEC("license") = "GPL";
