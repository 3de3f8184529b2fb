#!/usr/bin/env python3
"""compare.py TAG [DIR]: jvm.sh's counts, bpftrace's @[probe] map (DIR/jvm-TAG.bt;
DIR: patches/bpftrace/results, or build/bpftrace) against the usdt tool's -C
table (DIR/jvm-TAG.usdt), probe by probe.  What java
-Xint does the same number of times in each run must agree: JNI calls
exactly, class loading and initialization within 1% (a service thread
initializes the odd class in one run and not in another); what depends on
its threads' timing is listed apart (usdt_tool.c's libjvm test draws the
same line)."""
import os
import re
import sys

def bt_counts(path):
    c = {}
    for line in open(path):
        m = re.match(r'@\[usdt:[^:]+:([^:]+:[^\]]+)\]: (\d+)$', line.strip())
        if m:
            c[m.group(1)] = int(m.group(2))
    return c

def usdt_counts(path):
    c = {}
    for line in open(path):
        m = re.match(r'^ *(\d+)  ([A-Za-z0-9_]+:[A-Za-z0-9_]+)$', line.rstrip('\n'))
        if m:
            c[m.group(2)] = int(m.group(1))
    return c

def slack(probe, hits):
    if probe.startswith('hotspot_jni:'):
        return 0
    if probe.startswith('hotspot:class__'):
        return hits // 100 + 1
    return None

tag = sys.argv[1]
d = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), '..', 'results')
b = bt_counts(f'{d}/jvm-{tag}.bt')
u = usdt_counts(f'{d}/jvm-{tag}.usdt')
same = close = timing = bad = 0
for p in sorted(set(b) | set(u)):
    x, y = b.get(p, 0), u.get(p, 0)
    s = slack(p, max(x, y))
    if s is None:
        timing += 1
    elif x == y:
        same += 1
    elif abs(x - y) <= s:
        close += 1
    else:
        bad += 1
        print(f'differ: {p}: bpftrace {x}, usdt {y}')
print(f'probes hit: bpftrace {len(b)}, usdt {len(u)}; deterministic: {same} equal, '
      f'{close} within 1%, {bad} differ; timing-dependent: {timing}')
sys.exit(1 if bad else 0)
