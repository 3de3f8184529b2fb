#!/bin/bash
# bpftrace from BPFTRACE_SRC (a clone of github.com/bpftrace/bpftrace at the
# patch's base, with patches/bpftrace/*.patch applied, or not for the A/B),
# built in root.sh's chroot against the series' libbpf (LIBBPF_TREE's
# tools/lib/bpf, build/linux's by default, static, as bpftrace links it),
# into build/bpftrace/out: bpftrace and what tests/runtime needs.  By hand,
# as root.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$TOP/patches/bpftrace/check/binds.sh"
R=$TOP/build/bpftrace/root
SRC=$(cd "${BPFTRACE_SRC:?clone of bpftrace}" && pwd)
LIBBPF_TREE=$(cd "${LIBBPF_TREE:-$TOP/build/linux}" && pwd)
OUT=${OUT:-$TOP/build/bpftrace/out}
mkdir -p "$OUT"
# the chroot sees the project, the bpftrace tree and the libbpf tree at
# their own paths: their top directories are bound in (binds.sh)
dirs=$(chroot_binds "$TOP" "$SRC" "$LIBBPF_TREE")
for d in $dirs; do
	mkdir -p "$R/$d"
	mountpoint -q "$R/$d" || mount --rbind "/$d" "$R/$d"
done
trap 'for d in $dirs; do umount -R "$R/$d"; done' EXIT
progs=$(cd "$SRC/tests/testprogs" && ls *.c | sed -n 's/\.c$//p' | grep -vx uprobe_nofp)
chroot "$R" bash -c "set -e
rm -rf /tmp/libbpf-out && mkdir -p /tmp/libbpf-out
# The headers of another libbpf tree may be older than those installed:
# -B installs them all, and install -C leaves one alone when it
# is unchanged, so that the rebuild recompiles only what the change reaches
make -B -s -C $LIBBPF_TREE/tools/lib/bpf OUTPUT=/tmp/libbpf-out/ PREFIX=/usr/local \
	LIBDIR=/usr/local/lib INSTALL='install -C' install >/dev/null
rm -f /usr/local/lib/libbpf.so*
cmake -S $SRC -B $OUT -G Ninja -DUSE_SYSTEM_LIBBPF=ON -DCMAKE_BUILD_TYPE=Release \
	-DBUILD_TESTING=ON >/dev/null
ninja -C $OUT -j\$(nproc) bpftrace runtime_test_files tests/testlibs/all \
	$(for p in $progs; do printf 'tests/testprogs/%s tests/testprogs/%s-pie ' "$p" "$p"; done)
"
# TCG guests are slower than the runtime tests' timeouts expect: TIMEOUT_SCALE
# multiplies them (runtime.sh sets it)
cd "$OUT/tests/runtime/engine"
grep -q TIMEOUT_SCALE parser.py || sed -i \
	's/^\(        \)if return_code is None:/\1timeout = int(timeout) * int(os.environ.get("TIMEOUT_SCALE", "1"))\n\n&/' \
	parser.py
sed -i 's/^ATTACH_TIMEOUT = 10$/ATTACH_TIMEOUT = 10 * int(os.environ.get("TIMEOUT_SCALE", "1"))/' runner.py
