#!/usr/bin/env bash
# make bench: run the benchmarks in the patched kernel, once with QEMU's
# -icount shift=0 (the guest clock counts instructions: deterministic) and
# once on the wall clock of whatever accelerator ran.  Results (CSV and
# Markdown) go to build/bench/; the tables are printed at the end.
# So far: group 1, the lookup cost per access (tools/bench/bench_lookup.c).
set -euo pipefail
. "$(dirname "$0")/../../kernel/lib.sh"

out=$BUILD/bench
mkdir -p "$out"
accel=$(tail -n1 "$CACHE/kvm-probe" 2>/dev/null || echo tcg)
cd "$BUILD/selftests"

say BENCH "lookup cost, -icount shift=0"
"$TOP/vm/run.sh" -i 0 -l "$out/icount.serial.log" -- ./bench_lookup -n 300 \
	-o "$out/lookup-icount.csv" -u "guest instructions" \
	-l "(guest instructions: QEMU $accel, -icount shift=0)" >"$out/lookup-icount.md"
say BENCH "lookup cost, wall clock"
"$TOP/vm/run.sh" -l "$out/wall.serial.log" -- ./bench_lookup -n 300 \
	-o "$out/lookup-wall.csv" -u "ns" \
	-l "(wall clock under QEMU $accel: emulated, not hardware, times)" >"$out/lookup-wall.md"

grep -v '^vm: ' "$out/lookup-icount.md" "$out/lookup-wall.md" | sed 's/^[^:]*://'
echo "results: $out/"
