# attach data: per-attachment BTF-typed storage for BPF programs.
#
#   make test      build what is missing, boot the VM, run every test
#   make test V=1  the same, showing every command and every check as it passes
#   make help      all targets
#
# V=1 is the one verbose switch; T=GLOB[/GLOB] runs matching tests only.

SHELL	:= /bin/bash
TOP	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD	:= $(TOP)/build
KSRC	:= $(BUILD)/linux
BZIMAGE	:= $(KSRC)/arch/x86/boot/bzImage
# The last series of lib.sh's SERIES: the branch with all of them
TIP	:= $(shell . $(TOP)/lib.sh && echo "$${SERIES[-1]}")
# The series without attach data (fixes, usdt, kprobe-ctx): a worktree at
# branch kprobe-ctx and what is built from it, for Debian's stock kernels.
UBUILD	:= $(BUILD)/selftests-usdt
CLANG	:= clang-19
JOBS	?= $(shell nproc)
V	?= 0
T	?=
export V BUILD

ifeq ($(V),1)
Q =
else
Q = @
MAKEFLAGS += --no-print-directory
endif

.PHONY: help deps tree config kernel libbpf bpftool vmlinux-h selftests selftests-usdt usdt install test bench bench-save \
	test-debug test-debug-save test-standalone gate vm-shell export tree-reset checkpatch clean

help:
	@sed -n 's/^##//p' $(MAKEFILE_LIST)

## deps        install missing Debian packages (apt-get, as root)
deps:
	$(Q)kernel/deps.sh

## tree        build/linux: Debian's 7.3 source as base commit + git am of patches/'s
##             series (lib.sh's SERIES), a branch each, the last checked out
tree: deps
	$(Q)kernel/tree.sh

## config      tinyconfig + Kconfig.fragment, verified
config: tree
	$(Q)kernel/config.sh

## kernel      build the bzImage (ccache)
kernel: config
	$(Q)JOBS=$(JOBS) kernel/build.sh

# $(call build_libbpf,TREE,OUT) and $(call build_bpftool,TREE,OUT): a tree's
# libbpf (static, headers in OUT/include) and bpftool, built into OUT.
build_libbpf = printf '  %-7s %s\n' LIBBPF "$(1:$(TOP)/%=%)/tools/lib/bpf" && mkdir -p $(2) && \
	$(MAKE) -C $(1)/tools/lib/bpf $(if $(filter 1,$(V)),,-s) -j$(JOBS) \
		OUTPUT=$(2)/ DESTDIR=$(2) prefix= $(2)/libbpf.a install_headers >/dev/null
build_bpftool = printf '  %-7s %s\n' BPFTOOL "$(1:$(TOP)/%=%)/tools/bpf/bpftool" && mkdir -p $(2) && \
	$(MAKE) -C $(1)/tools/bpf/bpftool $(if $(filter 1,$(V)),,-s) -j$(JOBS) \
		OUTPUT=$(2)/ CLANG=$(CLANG) LLVM_STRIP=llvm-strip-19 feature-llvm=0 >/dev/null

## libbpf      the tree's tools/lib/bpf, static, headers in build/libbpf/include
libbpf: tree
	$(Q)$(call build_libbpf,$(KSRC),$(BUILD)/libbpf)

## bpftool     the tree's tools/bpf/bpftool
bpftool: tree
	$(Q)$(call build_bpftool,$(KSRC),$(BUILD)/bpftool)

# $(call gen_vmlinux_h,VMLINUX,BPFTOOL,OUT): OUT/vmlinux/vmlinux.h from
# VMLINUX's BTF, rewritten only when the types change (else every BPF object
# would be rebuilt).
gen_vmlinux_h = printf '  %-7s %s\n' GEN "$(3:$(TOP)/%=%)/vmlinux/vmlinux.h" && \
	mkdir -p $(3)/vmlinux && $(2) btf dump file $(1) format c >$(3)/vmlinux/vmlinux.h.tmp && \
	{ cmp -s $(3)/vmlinux/vmlinux.h.tmp $(3)/vmlinux/vmlinux.h && rm $(3)/vmlinux/vmlinux.h.tmp || \
	  mv $(3)/vmlinux/vmlinux.h.tmp $(3)/vmlinux/vmlinux.h; }

## vmlinux-h   build/vmlinux/vmlinux.h, which the tests, the tool and the benchmarks include
vmlinux-h: kernel bpftool
	$(Q)$(call gen_vmlinux_h,$(KSRC)/vmlinux,$(BUILD)/bpftool/bpftool,$(BUILD))

## selftests   the tree's test_progs with the tests we run: BPF objects (clang-19), skeletons
selftests: kernel libbpf bpftool vmlinux-h
	$(Q)$(MAKE) -C selftests -j$(JOBS) BUILD=$(BUILD) KSRC=$(KSRC)

## selftests-usdt  test_progs of the fixes, usdt and kprobe-ctx series, without attach data
##             (build/selftests-usdt/: worktree, libbpf, bpftool, vmlinux.h of stock
##             7.3's BTF, test_progs), for the stock kernels
selftests-usdt: tree
	$(Q)kernel/worktree.sh kprobe-ctx $(UBUILD)/linux
	$(Q)$(call build_libbpf,$(UBUILD)/linux,$(UBUILD)/libbpf)
	$(Q)$(call build_bpftool,$(UBUILD)/linux,$(UBUILD)/bpftool)
	$(Q)stock=$$(vm/stock-kernel.sh stock-7.3) && \
	  $(call gen_vmlinux_h,$$stock/vmlinux,$(UBUILD)/bpftool/bpftool,$(UBUILD))
	$(Q)$(MAKE) -C selftests -j$(JOBS) BUILD=$(UBUILD) KSRC=$(UBUILD)/linux SERIES=usdt

## usdt        the usdt tool (tools/usdt): list and trace USDT probes, build/usdt/usdt
usdt: kernel libbpf bpftool vmlinux-h
	$(Q)$(MAKE) -C tools/usdt BUILD=$(BUILD) KSRC=$(KSRC)

## install     the usdt tool and its man page into PREFIX (default /usr/local):
##             PREFIX/bin/usdt, PREFIX/share/man/man8/usdt.8 (DESTDIR too)
PREFIX	?= /usr/local
install: usdt
	$(Q)$(MAKE) -C tools/usdt BUILD=$(BUILD) KSRC=$(KSRC) PREFIX=$(PREFIX) install

## test        run every test (host checks + VM); ends with "N passed, N failed"
test: selftests selftests-usdt usdt
	$(Q)selftests/run.sh $(T)

## test-debug  make test's tests of the patched kernel on a debug kernel (KASAN, lockdep,
##             kmemleak, KFENCE) + the fuzzer's long run, all in build/debug/ (selftests/README.md: time)
DBUILD	:= $(BUILD)/debug
DEBUG_CONFIG := $(TOP)/Kconfig.fragment $(TOP)/kernel/Kconfig.debug
test-debug: tree
	$(Q)mkdir -p $(DBUILD) && date +%s >$(DBUILD)/started
	$(Q)kernel/worktree.sh $(TIP) $(DBUILD)/linux
	$(Q)ATTACH_DATA_KSRC=$(DBUILD)/linux KCONFIG_FRAGMENTS="$(DEBUG_CONFIG)" kernel/config.sh
	$(Q)ATTACH_DATA_KSRC=$(DBUILD)/linux COLD_TIME="~35 min" JOBS=$(JOBS) kernel/build.sh
	$(Q)$(call build_libbpf,$(DBUILD)/linux,$(DBUILD)/libbpf)
	$(Q)$(call build_bpftool,$(DBUILD)/linux,$(DBUILD)/bpftool)
	$(Q)$(call gen_vmlinux_h,$(DBUILD)/linux/vmlinux,$(DBUILD)/bpftool/bpftool,$(DBUILD))
	$(Q)$(MAKE) -C selftests -j$(JOBS) BUILD=$(DBUILD) KSRC=$(DBUILD)/linux
	$(Q)$(MAKE) -C tools/usdt BUILD=$(DBUILD) KSRC=$(DBUILD)/linux
	$(Q)BUILD=$(DBUILD) selftests/run.sh --debug $(T)

## test-debug-save keep build/debug's record as the reference (selftests/debug-results/;
##             a run of some tests, make test-debug T=..., into DEBUG_RECORD=DIR)
DEBUG_RECORD ?= selftests/debug-results
test-debug-save:
	$(Q)test -f $(DBUILD)/results/summary.md || { echo "no $(DBUILD)/results/summary.md: make test-debug first" >&2; exit 1; }
	$(Q)mkdir -p $(DEBUG_RECORD)
	$(Q)cp $(DBUILD)/results/summary.md $(DBUILD)/results/results.txt $(DEBUG_RECORD)/
	$(Q)echo "  SAVED   $(DEBUG_RECORD)/ (commit it)"

## test-standalone the series posted on the base alone (fprobe, kprobe-multi), each built as
##             posted (build/standalone/) and its tests run there; S=SERIES for one
test-standalone: selftests
	$(Q)selftests/standalone.sh $(S)

## bench       all benchmarks in the VM (its time: tools/bench/results/summary.md), tables + CSV + PNG
##             in build/bench/results/ (the binaries: build/bench/bin/)
bench: kernel libbpf bpftool vmlinux-h
	$(Q)$(MAKE) -C tools/bench -j$(JOBS) BUILD=$(BUILD) KSRC=$(KSRC)
	$(Q)tools/bench/run.sh

## bench-save  keep build/bench's tables and plots as the reference run (tools/bench/results/)
bench-save:
	$(Q)test -f $(BUILD)/bench/results/summary.md || { echo "no build/bench/results/summary.md: make bench first" >&2; exit 1; }
	$(Q)rm -rf tools/bench/results && mkdir -p tools/bench/results
	$(Q)cp $(BUILD)/bench/results/summary.md $(BUILD)/bench/results/*.csv \
		$(BUILD)/bench/results/*.png tools/bench/results/
	$(Q)echo "  SAVED   tools/bench/results/ (commit it)"

## gate        the A/B: the tree's suites on the patched kernel, then what did not pass there
##             on the unpatched base (BPF CI's config); each unit committed to
##             selftests/gate/results/ as it completes; resumes (selftests/gate/README.md)
gate: tree
	$(Q)JOBS=$(JOBS) selftests/gate/run.sh

## vm-shell    interactive shell in the guest (exit or Ctrl-D to leave)
vm-shell: kernel
	$(Q)vm/run.sh --shell

## export      write build/linux's series back to patches/ (format-patch)
export:
	$(Q)kernel/export.sh

## tree-reset  drop kernel work not in patches/ and re-apply the series
tree-reset:
	$(Q)git -C $(KSRC) checkout -q -f --detach base && rm -f $(KSRC)/.git/attach-data-series
	$(Q)kernel/tree.sh

## checkpatch  scripts/checkpatch.pl --strict on every patch; fails on what kernel/checkpatch.accept does not list
checkpatch: tree
	$(Q)kernel/checkpatch.sh

## clean       remove build/ (the download and ccache stay in ~/.cache/attach-data)
clean:
	rm -rf $(BUILD)
