#!/usr/bin/env python3
"""perhit.py DIR: perhit.sh's outputs in DIR as a table: the median clock
per call of each probe (K arguments) with no probe attached, and with each
bpftrace build's empty and reading scripts; a hit's cost net of the call
(read - none), the arguments' share (read - empty) per argument, and the
ratio of that share before to after; then the cost of one more argument,
between probes of K and the next K, which leaves out what a hit that
reads arguments pays once (the compare and the branch)."""
import re
import statistics
import sys

d = sys.argv[1]
KS = (1, 3, 6, 12)


def medians(name):
    vals = {k: [] for k in KS}
    with open(f"{d}/perhit-{name}.out") as f:
        for line in f:
            m = re.fullmatch(r"(\d+) (\d+) ([\d.]+)\n", line)
            if m:
                vals[int(m[1])].append(float(m[3]))
    if not all(vals.values()):
        sys.exit(f"perhit-{name}.out: a probe has no samples")
    return {k: statistics.median(v) for k, v in vals.items()}


none = medians("none")
runs = {(b, w): medians(f"{b}-{w}") for b in ("before", "after") for w in ("empty", "read")}
print("Clock per call (median of the rounds): guest instructions.\n")
print("| args | no probe | before: empty | before: argN | after: empty | after: argN |")
print("|---:|---:|---:|---:|---:|---:|")
for k in KS:
    row = [none[k]] + [runs[b, w][k] for b in ("before", "after") for w in ("empty", "read")]
    print(f"| {k} | " + " | ".join(f"{v:.1f}" for v in row) + " |")
print("\nA hit net of the call (argN - no probe), and the arguments' share per "
      "argument ((argN - empty) / args):\n")
print("| args | hit, before | hit, after | per arg, before | per arg, after | before / after |")
print("|---:|---:|---:|---:|---:|---:|")
for k in KS:
    hb, ha = (runs[b, "read"][k] - none[k] for b in ("before", "after"))
    pb, pa = ((runs[b, "read"][k] - runs[b, "empty"][k]) / k for b in ("before", "after"))
    print(f"| {k} | {hb:.1f} | {ha:.1f} | {pb:.1f} | {pa:.1f} | {pb / pa:.2f} |")
print("\nOne more argument: (argN at K - argN at the previous K) / (K - previous K):\n")
print("| args | before | after | saved |")
print("|---|---:|---:|---:|")
for k0, k1 in zip(KS, KS[1:]):
    b, a = ((runs[x, "read"][k1] - runs[x, "read"][k0]) / (k1 - k0) for x in ("before", "after"))
    print(f"| {k0} to {k1} | {b:.1f} | {a:.1f} | {b - a:.1f} |")
