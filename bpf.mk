# Included by selftests/Makefile and tools/bench/Makefile: where the top
# Makefile's outputs are, the output helpers, and the tree's BPF flags (its
# BPF_CFLAGS and CLANG_BPF_BUILD_RULE's target and -mcpu) for clang-19.
# Each Makefile puts its own include directories in front.

TOP	:= $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD	?= $(TOP)/build
KSRC	?= $(BUILD)/linux
LIBBPF	:= $(BUILD)/libbpf
# The one vmlinux.h, of KSRC's kernel (of a stock kernel's BTF for
# selftests-usdt): the top Makefile's vmlinux-h writes it, and selftests/,
# tools/usdt/ and tools/bench/ read it.
VMLINUX_H := $(BUILD)/vmlinux/vmlinux.h
BPFTOOL	:= $(BUILD)/bpftool/bpftool
CLANG	?= clang-19
LLD	?= lld-19
TREE_ST	:= $(KSRC)/tools/testing/selftests/bpf
TOOLS	:= $(KSRC)/tools

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-7s %s\n' "$(1)" "$(2)";
endif

CLANG_SYS_INCLUDES := $(shell $(CLANG) -v -E - </dev/null 2>&1 | \
	sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')
BPF_CFLAGS_TREE := --target=bpfel -g -Wall -Werror -D__TARGET_ARCH_x86 -mlittle-endian \
	-I$(TREE_ST) -I$(LIBBPF)/include -I$(TOOLS)/include/uapi -I$(TOOLS)/include \
	-I$(TREE_ST)/libarena/include -std=gnu11 -fno-strict-aliasing -Wno-microsoft-anon-tag \
	-fms-extensions -Wno-compare-distinct-pointer-types -Wno-initializer-overrides \
	$(CLANG_SYS_INCLUDES) -DENABLE_ATOMICS_TESTS -O2 -mcpu=v3
