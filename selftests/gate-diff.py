#!/usr/bin/env python3
"""Compare the regression gate's two runs (selftests/regress.sh).

  gate-diff.py OUT DENYLIST SUITE... > summary.md
  gate-diff.py --plan-base OUT NSHARDS SUITE...

OUT holds OUT/SIDE/GUEST/ per kernel (base, patched) and guest, each with
its plan (the units it ran) and per unit UNIT.log, UNIT.rc, UNIT.kmemleak
(the kmemleak scan after the unit) and, for the slices of the test_progs
flavours (FLAVOUR@J), UNIT.json, from selftests/gate-guest.sh.  Every test
and subtest gets a result per kernel, merged over its units: test_progs' from its output, checked against its
--json-summary (selftests/tp-results.py); test_verifier's from its
"#N/u|p DESCR OK|FAIL|SKIP" lines; test_maps' from its exit code.

Fails (exit 1), listing each, on:
  - a regression: passes on base, does not pass (fails, skips, or is
    missing) on patched;
  - a failure on both kernels that the DENYLIST does not name;
  - a test_verifier DENYLIST entry that matches nothing that fails (stale;
    denied test_progs tests do not run, so theirs cannot be checked);
  - a suite whose results are inconsistent or missing, a guest that died in
    a suite, the fuzzer's long run failing, any kmemleak report and any
    kmemleak scan that did not complete.
Prints a markdown summary either way.

--plan-base writes the base kernel's plan: for each test_progs flavour the
tests with any result but PASS on patched (FLAVOUR@K.allow for guest K of
NSHARDS), test_verifier and test_maps whole if they did not all pass, each
guest's suites in OUT/base/SHARD/plan.  Base runs nothing else: what
passes on patched cannot be a regression.
"""
import fnmatch
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TV_LINE = re.compile(r'^#(\d+)/([up]) (.*?) ?(OK|FAIL|SKIP)\b')


def test_progs_results(d, suite):
    """{name: PASS|FAIL|SKIP|NOT_BUILT} and whether the output and JSON
    agree."""
    log, js = os.path.join(d, suite + '.log'), os.path.join(d, suite + '.json')
    p = subprocess.run([os.path.join(HERE, 'tp-results.py'), '', log, js],
                       capture_output=True, text=True)
    res = {}
    for line in p.stdout.splitlines():
        verdict, name = line.split(' ', 1)
        if name.startswith('json_summary'):
            continue
        res[name] = verdict
    return res, p.returncode == 0


def test_verifier_results(d, suite):
    res = {}
    with open(os.path.join(d, suite + '.log'), errors='replace') as f:
        lines = f.read().splitlines()
    summary = False
    for line in lines:
        m = TV_LINE.match(line)
        if m:
            num, mode, descr, r = m.groups()
            res[f'#{num}/{mode} {descr}'] = {'OK': 'PASS'}.get(r, r)
        summary |= line.startswith('Summary: ')
    return res, summary


def rc_result(d, suite):
    rc = open(os.path.join(d, suite + '.rc')).read().strip()
    return {'': 'PASS' if rc == '0' else 'FAIL'}, True


def guests(out, side):
    d = os.path.join(out, side)
    if not os.path.isdir(d):
        return []
    return [os.path.join(d, g) for g in sorted(os.listdir(d))
            if os.path.isdir(os.path.join(d, g))]


def planned(g):
    try:
        return open(os.path.join(g, 'plan')).read().split()
    except OSError:
        return []


def unit_results(out, g, unit, problems):
    """The results of UNIT in guest directory G; its problems go in
    PROBLEMS."""
    suite = unit.split('@')[0]
    where = f'{unit} on {os.path.relpath(g, out)}'
    try:
        rc = open(os.path.join(g, unit + '.rc')).read().strip()
    except OSError:
        problems.append(f'{where}: did not run (the run is incomplete)')
        return {}
    if rc == 'crash':
        problems.append(f'{where}: the guest died in it ({g}/{unit}.log)')
    if suite.startswith('test_progs'):
        res, ok = test_progs_results(g, unit)
    elif suite == 'test_verifier':
        res, ok = test_verifier_results(g, unit)
    else:
        res, ok = rc_result(g, unit)
    if not ok:
        problems.append(f'{where}: results inconsistent or incomplete')
    kml = os.path.join(g, unit + '.kmemleak')
    if not os.path.exists(kml):
        problems.append(f'kmemleak: no scan after {where}')
        return res
    with open(kml, errors='replace') as f:
        n = f.read().count('unreferenced object')
    if n:
        problems.append(f'kmemleak: {n} reports after {where} ({kml})')
    return res


def results(out, side, suite, problems):
    """One kernel's results of SUITE, merged over its units in the guests'
    plans."""
    res = {}
    for g in guests(out, side):
        for unit in planned(g):
            if unit.split('@')[0] == suite:
                res.update(unit_results(out, g, unit, problems))
    return res


def denied(deny, suite, name):
    """A DENYLIST glob names test_progs tests (any flavour) as test_progs -d
    does (TEST or TEST/SUBTEST); test_verifier tests as test_verifier/N
    (no '#': that starts a comment)."""
    if suite == 'test_verifier':
        key = 'test_verifier/' + name.split('/')[0].lstrip('#')
        return [g for g in deny if g == key]
    if suite.startswith('test_progs'):
        test = name.split('/')[0]
        return [g for g in deny if fnmatch.fnmatchcase(name, g) or
                fnmatch.fnmatchcase(test, g)]
    return [g for g in deny if g == suite]


def plan_base(out, shards, suites):
    problems = []
    plans = [[] for _ in range(shards)]
    for suite in suites:
        rp = results(out, 'patched', suite, problems)
        need = sorted({n.split('/')[0] for n, v in rp.items() if v != 'PASS'})
        if not need:
            continue
        if suite.startswith('test_progs'):
            for k in range(shards):
                mine = need[k::shards]
                if mine:
                    d = os.path.join(out, 'base', str(k))
                    os.makedirs(d, exist_ok=True)
                    with open(os.path.join(d, f'{suite}@{k}.allow'), 'w') as f:
                        f.write(''.join(t + '\n' for t in mine))
                    plans[k].append(f'{suite}@{k}')
        else:
            plans[0 if suite == 'test_verifier' else shards - 1].append(suite)
    for k, plan in enumerate(plans):
        d = os.path.join(out, 'base', str(k))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, 'plan'), 'w') as f:
            f.write(' '.join(plan) + '\n' if plan else '')
        print(f'base/{k}: {" ".join(plan) or "nothing"}')
    return 0


def main():
    if sys.argv[1] == '--plan-base':
        return plan_base(sys.argv[2], int(sys.argv[3]), sys.argv[4:])
    out, deny_path, suites = sys.argv[1], sys.argv[2], sys.argv[3:]
    deny = []
    with open(deny_path) as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if line:
                deny.append(line)
    problems, used = [], set()
    print('| suite | base: pass / fail / skip | patched: pass / fail / skip | regressions |')
    print('|---|---|---|---|')
    details = []
    for suite in suites:
        rb = results(out, 'base', suite, problems)
        rp = results(out, 'patched', suite, problems)
        regress, both = [], []
        for name in sorted(set(rb) | set(rp)):
            b, p = rb.get(name, 'MISSING'), rp.get(name, 'MISSING')
            full = f'{suite}/{name}' if name else suite
            hit = denied(deny, suite, name)
            if p == 'PASS':
                continue
            if b == 'PASS':
                regress.append(f'{full}: base PASS, patched {p}')
            elif p == 'SKIP' and b == 'SKIP':
                continue	# the config or the machine lacks it, on both
            elif p in ('FAIL', 'MISSING', 'NOT_BUILT'):
                used.update(hit)
                if not hit:
                    both.append(f'{full}: base {b}, patched {p}, and not in the DENYLIST')
        count = lambda r: ' / '.join(str(sum(1 for v in r.values() if v == k))
                                     for k in ('PASS', 'FAIL', 'SKIP'))
        print(f'| {suite} | {count(rb)} | {count(rp)} | {len(regress)} |')
        problems += regress + both
        details += regress
    for g in deny:
        if g.startswith('test_verifier/') and g not in used:
            problems.append(f'DENYLIST entry {g} matches no failing test_verifier test')
    fuzz = [g for g in guests(out, 'patched') if 'fuzz' in planned(g)]
    for r in ([results(out, 'patched', 'fuzz', problems)] if fuzz else []):
        if r.get('') != 'PASS':
            problems.append('the fuzzer\'s long run failed (fuzz.log)')
    print()
    if problems:
        print(f'**{len(problems)} problems**:\n')
        for p in problems:
            print(f'- {p}')
        return 1
    print('**0 regressions**, no failure outside the DENYLIST, no kmemleak report.')
    return 0


if __name__ == '__main__':
    sys.exit(main())
