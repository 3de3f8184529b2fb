// SPDX-License-Identifier: GPL-2.0
/* BPF cookies through perf-event links: kprobe, uprobe and tracepoint.
 * Each subtest attaches one program twice, two perf-event links with
 * cookies of disjoint bits (one in the high half, to catch truncation),
 * fires the probe once, and each run must read its own link's cookie with
 * bpf_get_attach_cookie(); the tracepoint program goes to sys_enter and
 * sys_exit of getpgid.
 */
#include <sys/syscall.h>
#include "test_progs.h"
#include "cookie.skel.h"

#define COOKIE_A 0x1234567800000000ULL
#define COOKIE_B 0x00000000000000abULL

/* Kernel side: getpgid() is a cheap syscall nothing else in the guest makes. */
#define KPROBE_FUNC "__x64_sys_getpgid"

static void trigger_syscall(void)
{
	syscall(SYS_getpgid, 0);
}

noinline int cookie_uprobe_target(int x)
{
	asm volatile ("" : "+r"(x));
	return x + 1;
}

static struct cookie *open_and_load(void)
{
	struct cookie *skel = cookie__open_and_load();

	if (!ASSERT_OK_PTR(skel, "skel_open_and_load"))
		return NULL;
	skel->bss->my_pid = getpid();
	return skel;
}

static void test_kprobe(void)
{
	DECLARE_LIBBPF_OPTS(bpf_kprobe_opts, opts);
	struct bpf_link *l1 = NULL, *l2 = NULL;
	struct cookie *skel = open_and_load();

	if (!skel)
		return;
	opts.bpf_cookie = COOKIE_A;
	l1 = bpf_program__attach_kprobe_opts(skel->progs.handle_kprobe, KPROBE_FUNC, &opts);
	if (!ASSERT_OK_PTR(l1, "attach_a"))
		goto out;
	opts.bpf_cookie = COOKIE_B;
	l2 = bpf_program__attach_kprobe_opts(skel->progs.handle_kprobe, KPROBE_FUNC, &opts);
	if (!ASSERT_OK_PTR(l2, "attach_b"))
		goto out;

	trigger_syscall();
	ASSERT_EQ(skel->bss->kprobe_res, COOKIE_A | COOKIE_B, "kprobe_res");
out:
	bpf_link__destroy(l1);
	bpf_link__destroy(l2);
	cookie__destroy(skel);
}

static void test_uprobe(void)
{
	DECLARE_LIBBPF_OPTS(bpf_uprobe_opts, opts);
	struct bpf_link *l1 = NULL, *l2 = NULL;
	struct cookie *skel = open_and_load();

	if (!skel)
		return;
	opts.func_name = "cookie_uprobe_target";
	opts.bpf_cookie = COOKIE_A;
	l1 = bpf_program__attach_uprobe_opts(skel->progs.handle_uprobe, -1,
					     "/proc/self/exe", 0, &opts);
	if (!ASSERT_OK_PTR(l1, "attach_a"))
		goto out;
	opts.bpf_cookie = COOKIE_B;
	l2 = bpf_program__attach_uprobe_opts(skel->progs.handle_uprobe, -1,
					     "/proc/self/exe", 0, &opts);
	if (!ASSERT_OK_PTR(l2, "attach_b"))
		goto out;

	ASSERT_EQ(cookie_uprobe_target(1), 2, "target_ret");
	ASSERT_EQ(skel->bss->uprobe_res, COOKIE_A | COOKIE_B, "uprobe_res");
out:
	bpf_link__destroy(l1);
	bpf_link__destroy(l2);
	cookie__destroy(skel);
}

static void test_tracepoint(void)
{
	DECLARE_LIBBPF_OPTS(bpf_tracepoint_opts, opts);
	struct bpf_link *l1 = NULL, *l2 = NULL;
	struct cookie *skel = open_and_load();

	if (!skel)
		return;
	opts.bpf_cookie = COOKIE_A;
	l1 = bpf_program__attach_tracepoint_opts(skel->progs.handle_tp, "syscalls",
						 "sys_enter_getpgid", &opts);
	if (!ASSERT_OK_PTR(l1, "attach_a"))
		goto out;
	/* A program can be attached to one tracepoint only once (EEXIST). */
	opts.bpf_cookie = COOKIE_B;
	l2 = bpf_program__attach_tracepoint_opts(skel->progs.handle_tp, "syscalls",
						 "sys_exit_getpgid", &opts);
	if (!ASSERT_OK_PTR(l2, "attach_b"))
		goto out;

	trigger_syscall();
	ASSERT_EQ(skel->bss->tp_res, COOKIE_A | COOKIE_B, "tp_res");
out:
	bpf_link__destroy(l1);
	bpf_link__destroy(l2);
	cookie__destroy(skel);
}

void test_cookie(void)
{
	if (test__start_subtest("kprobe"))
		test_kprobe();
	if (test__start_subtest("uprobe"))
		test_uprobe();
	if (test__start_subtest("tracepoint"))
		test_tracepoint();
}
