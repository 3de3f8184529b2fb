#!/usr/bin/env bash
# The gate's test binaries, built once from the patched gate tree as BPF CI
# builds them (make -C tools/testing/selftests/bpf): test_progs,
# test_progs-no_alu32, test_progs-cpuv4, test_verifier, test_maps and what
# they load or exec, into build/gate/selftests.  The test modules
# (bpf_testmod.ko, ...) are built against each kernel of SIDE..., and each
# gets a run directory, build/gate/run-SIDE: the same binaries (a tree of
# symlinks) with that kernel's modules.
#
#   selftests/gate/build.sh SIDE...        SIDE: patched, base
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

GATE=$BUILD/gate
out=$GATE/selftests
st() { echo "$GATE/$1/tools/testing/selftests/bpf"; }
jobs=${JOBS:-$(nproc)}
for side in "$@"; do
	[ -f "$GATE/$side/vmlinux" ] && [ -f "$GATE/$side/Module.symvers" ] ||
		die "no gate kernel in build/gate/$side (selftests/gate/kernels.sh)"
done

# As BPF CI builds them: a BPF object that does not build fails the build
# (a test reported "not built" on both kernels would hide what the series
# broke).  libarena's objects get no -mcpu from its Makefile: clang-19's
# default (v1) has no atomics, and its test_buddy needs v4's signed
# division; v4 comes first here, and the main objects' own -mcpu (later on
# the command line) overrides it.  LC_ALL=C: tests.h sorted the same
# everywhere.
say BUILD "tree selftests: test_progs (+no_alu32, cpuv4), test_verifier, test_maps (cold ~30 min)"
mkdir -p "$out"
log=$BUILD/gate-selftests-build.log
t0=$(date +%s)
if ! LC_ALL=C make -C "$(st patched)" -j"$jobs" OUTPUT="$out" \
	CLANG=clang-19 LLVM_STRIP=llvm-strip-19 LLD=lld-19 VMLINUX_BTF="$GATE/patched/vmlinux" \
	BPF_TARGET_ENDIAN="--target=bpfel -mcpu=v4" \
	test_progs test_progs-no_alu32 test_progs-cpuv4 test_verifier test_maps >"$log" 2>&1; then
	tail -n 30 "$log" >&2
	die "tree selftests build failed: $log"
fi
say BUILD "tree selftests done in $(( $(date +%s) - t0 )) s: $log"

# Each kernel's modules, from its own tree, and its run directory.
for side in "$@"; do
	say MOD "test_kmods for build/gate/$side"
	quiet make -C "$GATE/$side" -j"$jobs" M="$(st "$side")/test_kmods" modules
	run=$GATE/run-$side
	rm -rf "$run"
	cp -as "$out" "$run"
	while IFS= read -r ko; do
		rm -f "$ko"
		cp "$(st "$side")/test_kmods/${ko##*/}" "$ko"
	done < <(find "$run" -name '*.ko')
done
