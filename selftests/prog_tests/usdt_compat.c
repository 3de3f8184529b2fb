// SPDX-License-Identifier: GPL-2.0
/* What a program that works with a released libbpf does must not change
 * when libbpf and the kernel have attach data: libbpf's USDT mode is the
 * object's, and attach data only if every program that reads USDT
 * arguments is a USDT program.  Built as users build them: skeletons,
 * auto-attach, bpftrace's own sections, bpf_map__set_max_entries(),
 * autoload turned on after bpf_object__prepare().  Each subtest runs on
 * every kernel, in the mode libbpf picks there, with the libbpf of every
 * series and with the fixes and usdt series' libbpf alone; each case failed
 * with v2 of the attach data series ("v2" below).  On 5.10, whose libbpf
 * needs a PID to attach to a PIE, the subtests that auto-attach or attach
 * with PID -1 cannot run.
 *
 *   shared_helper           usdt/kprobe/uprobe programs sharing a helper that
 *                           calls bpf_usdt_arg(), auto-attached: all attach
 *                           and fire; the object stays cookie + ARRAY (v2
 *                           gave the kprobe and uprobe programs the spec
 *                           type: auto-attach skipped them, EINVAL by hand)
 *   shared_helper_usdt_only the same object with only the USDT program
 *                           loaded: attach data where the kernel has it
 *   mixed_custom_section    a block that is both usdt and kprobe, as bpftrace
 *                           loads it: both copies attach and fire, cookie +
 *                           ARRAY (v2: the kprobe copy got the spec type,
 *                           EINVAL); _set_usdt: the usdt copy marked with
 *                           bpf_program__set_usdt(), the same
 *   max_entries_default     (see max_entries_kept)
 *   max_entries_kept        the spec and IP maps shrink in attach data mode,
 *                           but not from a size the user set, even the
 *                           header's own (v2: 1)
 *   autoload_after_prepare  a USDT program that reads no argument, turned on
 *                           after bpf_object__prepare(), attaches to two
 *                           probes in cookie + ARRAY (v2: E2BIG, the maps
 *                           were shrunk to one entry)
 */
#include <sys/sdt.h>
#include <sys/syscall.h>
#include "test_progs.h"
#include "usdt_mode.h"
#include "usdt_compat.skel.h"
#include "usdt_compat_mixed.skel.h"
#include "usdt_compat_one.skel.h"
#include "usdt_compat_usdt.skel.h"

#ifndef LIBBPF_NO_ATTACH_DATA
#include "attach_data_feature.h"
/* does libbpf give USDT programs attach data here, when it may? */
#define attach_data_here() kernel_has_attach_data()
#else
#define attach_data_here() false	/* the fixes and usdt series' libbpf */
#endif

noinline void usdt_compat_fire(long x)
{
	STAP_PROBE1(compat, hit, x);
}

noinline void usdt_compat_fire_other(long x, int y)
{
	STAP_PROBE2(compat, other, x, y);
}

noinline void usdt_compat_fire_third(long x, int y, short z)
{
	STAP_PROBE3(compat, third, x, y, z);
}

noinline int usdt_compat_uprobe_target(int x)
{
	asm volatile ("" : "+r"(x));
	return x + 1;
}

/* @prog has the spec's attach data type: the object's mode is attach data */
static bool has_spec_type(const struct bpf_program *prog)
{
#ifndef LIBBPF_NO_ATTACH_DATA
	const char *type = bpf_program__attach_data_type(prog);

	return type && !strcmp(type, "struct __bpf_usdt_spec");
#else
	return false;
#endif
}

static void subtest_shared_helper(bool usdt_only)
{
	struct usdt_compat *skel;

	skel = usdt_compat__open();
	if (!ASSERT_OK_PTR(skel, "skel_open"))
		return;
	if (usdt_only) {
		bpf_program__set_autoload(skel->progs.kprobe_reader, false);
		bpf_program__set_autoload(skel->progs.uprobe_reader, false);
	}
	if (!ASSERT_OK(usdt_compat__load(skel), "skel_load"))
		goto out;
	skel->bss->my_pid = getpid();

	ASSERT_EQ(has_spec_type(skel->progs.usdt_reader), usdt_only && attach_data_here(),
		  "usdt_reader_attach_data");
	ASSERT_FALSE(has_spec_type(skel->progs.kprobe_reader), "kprobe_reader_no_type");
	ASSERT_FALSE(has_spec_type(skel->progs.uprobe_reader), "uprobe_reader_no_type");
	assert_usdt_mode(skel->progs.usdt_reader, !usdt_only);

	if (!ASSERT_OK(usdt_compat__attach(skel), "skel_attach"))
		goto out;
	ASSERT_OK_PTR(skel->links.usdt_reader, "usdt_attached");
	if (usdt_only) {
		ASSERT_NULL(skel->links.kprobe_reader, "kprobe_not_loaded");
		ASSERT_NULL(skel->links.uprobe_reader, "uprobe_not_loaded");
	} else {
		ASSERT_OK_PTR(skel->links.kprobe_reader, "kprobe_attached");
		ASSERT_OK_PTR(skel->links.uprobe_reader, "uprobe_attached");
	}

	usdt_compat_fire(0x5eed);
	syscall(SYS_getpgid, 0);
	usdt_compat_uprobe_target(1);

	ASSERT_EQ(skel->bss->usdt_hits, 1, "usdt_hits");
	ASSERT_EQ(skel->bss->usdt_err, 0, "usdt_err");
	ASSERT_EQ(skel->bss->usdt_arg, 0x5eed, "usdt_arg");
	ASSERT_EQ(skel->bss->kprobe_hits, usdt_only ? 0 : 1, "kprobe_hits");
	ASSERT_EQ(skel->bss->uprobe_hits, usdt_only ? 0 : 1, "uprobe_hits");
out:
	usdt_compat__destroy(skel);
}

/* Does libbpf attach SEC("usdt") programs through uprobe_multi links here? */
static bool uprobe_multi_here(void)
{
	struct usdt_compat_one *skel = usdt_compat_one__open_and_load();
	bool ret;

	if (!ASSERT_OK_PTR(skel, "skel_open_and_load"))
		return false;
	ret = bpf_program__expected_attach_type(skel->progs.reader) ==
	      BPF_TRACE_UPROBE_MULTI;
	usdt_compat_one__destroy(skel);
	return ret;
}

/* bpftrace's copies of a mixed block: types set by hand, the usdt copy with
 * the uprobe_multi attach type where libbpf attaches USDT through it (and,
 * with @set_usdt, marked with bpf_program__set_usdt() as patched bpftrace
 * does for every usdt program): the kprobe copy reads USDT arguments too,
 * so the object stays cookie + ARRAY and both attach and fire.
 */
static void subtest_mixed(bool set_usdt)
{
	LIBBPF_OPTS(bpf_kprobe_opts, kopts);
	struct bpf_link *ulink = NULL, *klink = NULL;
	struct bpf_program *uprog, *kprog;
	struct usdt_compat_mixed *skel;
	bool multi = uprobe_multi_here();

	skel = usdt_compat_mixed__open();
	if (!ASSERT_OK_PTR(skel, "skel_open"))
		return;
	uprog = skel->progs.usdt__proc_self_exe_compat_hit_1;
	kprog = skel->progs.kprobe___x64_sys_getpgid_2;
	if (set_usdt) {
#ifndef LIBBPF_NO_ATTACH_DATA
		if (!ASSERT_OK(bpf_program__set_usdt(uprog), "set_usdt"))
			goto out;
#endif
	} else {
		bpf_program__set_type(uprog, BPF_PROG_TYPE_KPROBE);
		if (multi)
			bpf_program__set_expected_attach_type(uprog, BPF_TRACE_UPROBE_MULTI);
	}
	bpf_program__set_type(kprog, BPF_PROG_TYPE_KPROBE);
	if (!ASSERT_OK(usdt_compat_mixed__load(skel), "skel_load"))
		goto out;
	skel->bss->my_pid = getpid();
	ASSERT_FALSE(has_spec_type(uprog), "usdt_copy_no_type");
	ASSERT_FALSE(has_spec_type(kprog), "kprobe_copy_no_type");
	ASSERT_EQ(bpf_program__expected_attach_type(uprog), multi ? BPF_TRACE_UPROBE_MULTI : 0,
		  "usdt_copy_attach_type");
	assert_usdt_mode(uprog, true);

	ulink = bpf_program__attach_usdt(uprog, -1, "/proc/self/exe", "compat", "hit", NULL);
	klink = bpf_program__attach_kprobe_opts(kprog, "__x64_sys_getpgid", &kopts);
	if (!ASSERT_OK_PTR(ulink, "attach_usdt") || !ASSERT_OK_PTR(klink, "attach_kprobe"))
		goto out;
	usdt_compat_fire(-99);
	syscall(SYS_getpgid, 0);
	ASSERT_EQ(skel->bss->usdt_hits, 1, "usdt_hits");
	ASSERT_EQ(skel->bss->usdt_arg0, -99, "usdt_arg0");
	ASSERT_EQ(skel->bss->kprobe_hits, 1, "kprobe_hits");
out:
	bpf_link__destroy(klink);
	bpf_link__destroy(ulink);
	usdt_compat_mixed__destroy(skel);
}

static void subtest_max_entries(bool user_sized)
{
	bool shrunk = !user_sized && attach_data_here();
	struct usdt_compat_one *skel;
	struct bpf_link *link = NULL;

	skel = usdt_compat_one__open();
	if (!ASSERT_OK_PTR(skel, "skel_open"))
		return;
	/* the header's own sizes, set again: the user's all the same */
	if (user_sized) {
		ASSERT_OK(bpf_map__set_max_entries(skel->maps.__bpf_usdt_specs, 256), "set_specs");
		ASSERT_OK(bpf_map__set_max_entries(skel->maps.__bpf_usdt_ip_to_spec_id, 1024),
			  "set_ips");
	}
	if (!ASSERT_OK(usdt_compat_one__load(skel), "skel_load"))
		goto out;
	skel->bss->my_pid = getpid();
	ASSERT_EQ(has_spec_type(skel->progs.reader), attach_data_here(), "attach_data");
	ASSERT_EQ(bpf_map__max_entries(skel->maps.__bpf_usdt_specs), shrunk ? 1 : 256,
		  "specs_max_entries");
	ASSERT_EQ(bpf_map__max_entries(skel->maps.__bpf_usdt_ip_to_spec_id), shrunk ? 1 : 1024,
		  "ips_max_entries");

	link = bpf_program__attach_usdt(skel->progs.reader, 0, "/proc/self/exe",
					"compat", "hit", NULL);
	if (!ASSERT_OK_PTR(link, "attach_usdt"))
		goto out;
	usdt_compat_fire(-7);
	ASSERT_EQ(skel->bss->hits, 1, "hits");
	ASSERT_EQ(skel->bss->arg, -7, "arg");
out:
	bpf_link__destroy(link);
	usdt_compat_one__destroy(skel);
}

static void subtest_autoload_after_prepare(void)
{
	struct bpf_link *reader = NULL, *c1 = NULL, *c2 = NULL;
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct usdt_compat_usdt *skel;
	int stats_fd;

	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (!ASSERT_OK_FD(stats_fd, "enable_stats"))
		return;
	skel = usdt_compat_usdt__open();
	if (!ASSERT_OK_PTR(skel, "skel_open"))
		goto out;
	bpf_program__set_autoload(skel->progs.counter, false);
	if (!ASSERT_OK(bpf_object__prepare(skel->obj), "prepare"))
		goto out;
	ASSERT_OK(bpf_program__set_autoload(skel->progs.counter, true), "autoload_on");
	if (!ASSERT_OK(usdt_compat_usdt__load(skel), "skel_load"))
		goto out;
	skel->bss->my_pid = getpid();
	ASSERT_EQ(has_spec_type(skel->progs.reader), attach_data_here(), "reader_attach_data");
	ASSERT_FALSE(has_spec_type(skel->progs.counter), "counter_no_type");

	/* two probes of different argument specs: two spec map entries; the
	 * reader on a third (IP + HASH holds one spec per site)
	 */
	c1 = bpf_program__attach_usdt(skel->progs.counter, 0, "/proc/self/exe", "compat", "other",
				      NULL);
	c2 = bpf_program__attach_usdt(skel->progs.counter, 0, "/proc/self/exe", "compat",
				      "third", NULL);
	reader = bpf_program__attach_usdt(skel->progs.reader, 0, "/proc/self/exe", "compat",
					  "hit", NULL);
	if (!ASSERT_OK_PTR(c1, "attach_counter_other") ||
	    !ASSERT_OK_PTR(c2, "attach_counter_third") ||
	    !ASSERT_OK_PTR(reader, "attach_reader"))
		goto out;
	usdt_compat_fire(42);
	usdt_compat_fire_other(1, 2);
	usdt_compat_fire_third(1, 2, 3);
	ASSERT_EQ(skel->bss->hits, 1, "reader_hits");
	ASSERT_EQ(skel->bss->arg, 42, "reader_arg");
	if (ASSERT_OK(bpf_prog_get_info_by_fd(bpf_program__fd(skel->progs.counter), &info, &len),
		      "counter_info"))
		ASSERT_GE(info.run_cnt, 2, "counter_runs");
out:
	bpf_link__destroy(reader);
	bpf_link__destroy(c2);
	bpf_link__destroy(c1);
	usdt_compat_usdt__destroy(skel);
	close(stats_fd);
}

void test_usdt_compat(void)
{
	if (test__start_subtest("shared_helper"))
		subtest_shared_helper(false);
	if (test__start_subtest("shared_helper_usdt_only"))
		subtest_shared_helper(true);
	if (test__start_subtest("mixed_custom_section"))
		subtest_mixed(false);
#ifndef LIBBPF_NO_ATTACH_DATA
	if (test__start_subtest("mixed_custom_section_set_usdt"))
		subtest_mixed(true);
#endif
	if (test__start_subtest("max_entries_default"))
		subtest_max_entries(false);
	if (test__start_subtest("max_entries_kept"))
		subtest_max_entries(true);
	if (test__start_subtest("autoload_after_prepare"))
		subtest_autoload_after_prepare();
}
