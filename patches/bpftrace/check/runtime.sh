#!/bin/sh
# In a guest (vm/run.sh [-k KERNEL] -- env BIN=BPFTRACE TAG=NAME
# patches/bpftrace/check/runtime.sh): bpftrace's tests/runtime/usdt, run
# in root.sh's chroot by its own runner, every timeout times 10 (TCG).
# Output: build/bpftrace/runtime-TAG.log
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
R=$TOP/build/bpftrace/root
LOG=$TOP/build/bpftrace/runtime-${TAG:?}.log
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
. "$TOP/patches/bpftrace/check/binds.sh"
for d in $(chroot_binds "$TOP"); do mkdir -p "$R/$d"; mount --rbind "/$d" "$R/$d"; done
mount -t tmpfs tmpfs $R/tmp
uname -r >"$LOG"
chroot $R env TIMEOUT_SCALE=${TIMEOUT_SCALE:-10} BPFTRACE_EXECUTABLE=${BIN:?} \
	"$TOP/build/bpftrace/out/tests/runtime-tests.sh" --filter 'usdt.*' >>"$LOG" 2>&1
echo "rc=$?" >>"$LOG"
