#!/usr/bin/env python3
"""Compare the regression gate's two runs (selftests/regress.sh).

  gate-diff.py BASE_DIR PATCHED_DIR DENYLIST SUITE... > summary.md

Each directory holds, per suite, SUITE.log, SUITE.rc (and SUITE.json for the
test_progs flavours) from selftests/gate-guest.sh, plus kmemleak.txt.  Every
test and subtest gets a result per kernel: test_progs' from its output,
checked against its --json-summary (selftests/tp-results.py); test_verifier's
from its "#N/u|p DESCR OK|FAIL|SKIP" lines; test_maps' from its exit code.

Fails (exit 1), listing each, on:
  - a regression: passes on base, does not pass (fails, skips, or is
    missing) on patched;
  - a failure on both kernels that the DENYLIST does not name;
  - a test_verifier DENYLIST entry that matches nothing that fails (stale;
    denied test_progs tests do not run, so theirs cannot be checked);
  - a suite whose results are inconsistent or missing, and any kmemleak
    report on either kernel.
Prints a markdown summary either way.
"""
import fnmatch
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TV_LINE = re.compile(r'^#(\d+)/([up]) (.*?) ?(OK|FAIL|SKIP)\b')


def test_progs_results(d, suite):
    """{name: PASS|FAIL|SKIP} and whether the output and JSON agree."""
    log, js = os.path.join(d, suite + '.log'), os.path.join(d, suite + '.json')
    if not os.path.exists(log):
        return {}, False
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
    try:
        with open(os.path.join(d, suite + '.log'), errors='replace') as f:
            lines = f.read().splitlines()
    except OSError:
        return {}, False
    summary = False
    for line in lines:
        m = TV_LINE.match(line)
        if m:
            num, mode, descr, r = m.groups()
            res[f'#{num}/{mode} {descr}'] = {'OK': 'PASS'}.get(r, r)
        summary |= line.startswith('Summary: ')
    return res, summary


def rc_result(d, suite):
    try:
        rc = open(os.path.join(d, suite + '.rc')).read().strip()
    except OSError:
        return {}, False
    return {'': 'PASS' if rc == '0' else 'FAIL'}, True


def results(d, suite):
    if suite.startswith('test_progs'):
        return test_progs_results(d, suite)
    if suite == 'test_verifier':
        return test_verifier_results(d, suite)
    return rc_result(d, suite)


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


def kmemleak(d):
    """Reports of the final scan, or None if it did not complete."""
    if not os.path.exists(os.path.join(d, 'kmemleak.scanned')):
        return None
    with open(os.path.join(d, 'kmemleak.txt'), errors='replace') as f:
        return f.read().count('unreferenced object')


def main():
    base, patched, deny_path, suites = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
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
        rb, okb = results(base, suite)
        rp, okp = results(patched, suite)
        for side, ok in (('base', okb), ('patched', okp)):
            if not ok:
                problems.append(f'{suite} on {side}: results missing or inconsistent')
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
    for side, d in (('base', base), ('patched', patched)):
        n = kmemleak(d)
        print(f'\nkmemleak on {side}: ' + ('no scan' if n is None else f'{n} reports'))
        if n is None:
            problems.append(f'kmemleak: the scan on {side} did not complete')
        elif n:
            problems.append(f'kmemleak: {n} reports on {side} ({d}/kmemleak.txt)')
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
