#!/usr/bin/env bash
# By hand: the probes benchmark (attach and detach of libjvm's probes) for
# two builds of bench that differ only in libbpf, in one boot of the patched
# kernel, their runs alternating:
#   tools/bench/libbpf-ab.sh [-i] BEFORE_TREE [REPS [ALTERNATIONS]]
# BEFORE_TREE is a kernel tree whose tools/lib/bpf is the "before" libbpf
# (e.g. build/linux with a libbpf change reverted); "after" is build/libbpf
# (make libbpf: build/linux's).  Both bench builds are made here, the same
# but for libbpf.  Each build runs ALTERNATIONS times (default 3), in the
# order before, after, after, before, ...,
# with -p REPS (default 2), on the wall clock as make bench runs probes, or
# with -i on a guest clock that counts instructions (-icount shift=0).
# Output in build/bench-ab/: each run's CSV and Markdown, and summary.md:
# per variant and field, the median of the runs' medians for each build
# and after / before.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

vmopts=() clock="wall clock"
if [ "${1:-}" = -i ]; then
	vmopts=(-i 0) clock="guest instructions"
	shift
fi
before_tree=$(cd "${1:?BEFORE_TREE}" && pwd) reps=${2:-2} alt=${3:-3} group=probes
out=$BUILD/bench-ab
[ -f "$BUILD/libbpf/libbpf.a" ] || die "libbpf-ab: no build/libbpf: make bench first"
rm -rf "$out"
mkdir -p "$out/libbpf"
say LIBBPF "${before_tree#"$TOP"/}/tools/lib/bpf"
make -s -C "$before_tree/tools/lib/bpf" -j"$(nproc)" OUTPUT="$out/libbpf/" DESTDIR="$out/libbpf" \
	prefix= "$out/libbpf/libbpf.a" install_headers >/dev/null
say BENCH "tools/bench against each, in build/bench-ab/{before,after}"
for b in before after; do
	lib=$out/libbpf
	[ $b = before ] || lib=$BUILD/libbpf
	make -s -C "$TOP/tools/bench" -j"$(nproc)" BUILD="$BUILD" KSRC="$KSRC" LIBBPF="$lib" \
		OUT="$out/$b" >/dev/null
done
jvm=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
cat >"$out/guest.sh" <<GUEST
set -eu
for i in \$(seq $alt); do
	order="before after"
	[ \$((i % 2)) = 1 ] || order="after before"
	for b in \$order; do
		echo "libbpf-ab: $group, \$b, \$i/$alt" >&2
		cd "$out/\$b"
		./bench probes -p $reps -o "$out/$group-\$b-\$i.csv" -l "($clock, \$b)" \
			"\$(readlink -f $jvm)" >"$out/$group-\$b-\$i.md"
	done
done
GUEST
say VM "$alt x 2 runs of $group, alternating"
"$TOP/vm/run.sh" "${vmopts[@]}" -t 5000 -l "$out/serial.log" -- sh "$out/guest.sh" >"$out/vm.log" 2>&1 ||
	die "libbpf-ab: the boot failed, see $out/vm.log"
python3 - "$out" "$group" "$alt" "${before_tree#"$TOP"/}" "$clock" >"$out/summary.md" <<'PY'
import csv, statistics, sys
out, group, alt, tree, clock = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
med = {}
for b in ("before", "after"):
    for i in range(1, alt + 1):
        with open(f"{out}/{group}-{b}-{i}.csv", newline="") as f:
            rows = csv.reader(f)
            next(rows)  # variant,field,median,min,max; variants are quoted
            for v, fld, m, *_ in rows:
                med.setdefault((v, fld), {}).setdefault(b, []).append(float(m))
print(f"# {group}: libbpf before ({tree}) and after, alternating in one boot\n")
print(f"{alt} runs per build, {clock}; each cell is the median of the runs' medians.\n")
print("| variant | field | before | after | after / before |")
print("|---|---|---:|---:|---:|")
for (v, fld), d in med.items():
    b, a = statistics.median(d["before"]), statistics.median(d["after"])
    print(f"| {v} | {fld} | {b:.1f} | {a:.1f} | {a / b if b else float('nan'):.3f} |")
PY
cat "$out/summary.md"
