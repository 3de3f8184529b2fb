#!/usr/bin/env python3
"""Compare the regression gate's two runs (selftests/regress.sh).

  gate-diff.py OUT DENYLIST TESTS_H FUZZ_CALLS SUITE... > summary.md
  gate-diff.py --plan-base PHASE OUT NSHARDS SLICES DENYLIST SUITE...

OUT holds OUT/SIDE/GUEST/ per kernel (base, patched) and guest, each with
its plan (the units it ran) and per unit UNIT.log, UNIT.rc, UNIT.kmemleak
(the kmemleak scan after the unit) and, for test_progs units, UNIT.json,
from selftests/gate-guest.sh.  Units: FLAVOUR@J (a slice of a test_progs
flavour, or the tests FLAVOUR@J.allow names), test_verifier, test_maps,
fuzz (the series' fuzzer) and deny@I (the I-th test_progs entry of the
DENYLIST, run alone with the default flavour, on both kernels).

Every test and subtest gets a result per kernel, merged over its units:
test_progs' from its output, checked against its --json-summary and its
exit code (selftests/tp-results.py --strict: a test-level verdict for
every test, under the test's own name, besides its subtests');
test_verifier's from its "#N/u|p" blocks, checked against its Summary
line; test_maps' from its exit code.

Fails (exit 1), listing each, on:
  - a regression: passes on base, does not pass (fails, skips, crashes or
    is missing) on patched;
  - a result on patched but none on base for something that did not pass
    on patched (the DENYLIST cannot excuse that);
  - a failure on both kernels that the DENYLIST does not name;
  - a test of TESTS_H (the tree's DEFINE_TEST list) without a result in a
    test_progs flavour on patched, unless the DENYLIST names it whole;
  - a DENYLIST entry that its deny@I unit shows passing on both kernels
    (stale), or passing on base only (a regression it would hide), or that
    matches nothing; a test_verifier entry that matches nothing failing;
  - a unit whose results are inconsistent or missing, a guest that died in
    a unit (other than deny@I's), any kmemleak report and any kmemleak
    scan that did not complete;
  - the fuzzer's run: not passing, any subtest skipped, or fewer calls than
    FUZZ_CALLS.
Prints a markdown summary either way.

--plan-base writes the base kernel's plan, in two phases (the tests' set of
subtests is only known once they ran):
  1: test_progs (the default flavour) whole, in the same slices as on
     patched; test_verifier and test_maps whole; the deny@I units;
  2: for each other flavour, FLAVOUR@K.allow for guest K of NSHARDS: the
     tests that did not pass on patched, and those whose subtests on
     patched are not those that ran on base's default flavour.
A test that passes on patched with the same subtests as on base cannot be a
regression; base runs the rest.
"""
import fnmatch
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TV_START = re.compile(r'^#(\d+)/([up]) ')
TV_OK = re.compile(r' (?:\d+ cases )?OK(?: \(NOTE: [^)]*\))?$')
TV_SKIP = re.compile(r'(?:^| )SKIP(?: \([^)]*\))?$')
TV_SUMMARY = re.compile(r'^Summary: (\d+) PASSED, (\d+) SKIPPED, (\d+) FAILED$')
NOT_PASS = ('FAIL', 'SKIP', 'MISSING', 'NOT_BUILT', 'CRASH', 'SUBFAIL')


def read(path, default=None):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError:
        return default


def test_progs_results(d, unit):
    """{name: verdict}: test-level verdicts under TEST, subtests' under
    TEST/SUB; and whether output, JSON and exit code agree."""
    log, js = os.path.join(d, unit + '.log'), os.path.join(d, unit + '.json')
    rc = (read(os.path.join(d, unit + '.rc'), '') or '').strip()
    p = subprocess.run([os.path.join(HERE, 'tp-results.py'), '--strict', '--rc', rc,
                        '', log, js], capture_output=True, text=True)
    res = {}
    for line in p.stdout.splitlines():
        verdict, name = line.split(' ', 1)
        if name.startswith('json_summary'):
            continue
        res[name] = verdict
    return res, p.returncode == 0


def test_verifier_results(d, unit):
    """{'#N/m': verdict} from the blocks that start at "#N/u " or "#N/p ":
    a block is PASS if its first line ends in OK, SKIP if it ends in SKIP
    (or its second line is a SKIP), FAIL otherwise, whatever else it
    prints; the counts must be those of the Summary line."""
    text = read(os.path.join(d, unit + '.log'), '')
    blocks, cur, summary = {}, None, None
    for line in text.splitlines():
        m = TV_START.match(line)
        if m:
            cur = f'#{m.group(1)}/{m.group(2)}'
            blocks[cur] = [line]
            continue
        s = TV_SUMMARY.match(line)
        if s:
            summary = tuple(int(x) for x in s.groups())
            cur = None
        elif cur:
            blocks[cur].append(line)
    res = {}
    for key, lines in blocks.items():
        first = lines[0].rstrip()
        rest = [l for l in lines[1:] if l.strip()]
        if TV_OK.search(first) and not any('FAIL' in l for l in rest):
            res[key] = 'PASS'
        elif (TV_SKIP.search(first) or (rest and TV_SKIP.search(rest[0].rstrip()))) and \
                not any('FAIL' in l for l in rest):
            res[key] = 'SKIP'
        else:
            res[key] = 'FAIL'
    counts = tuple(sum(1 for v in res.values() if v == k) for k in ('PASS', 'SKIP', 'FAIL'))
    return res, summary is not None and summary == counts


def rc_result(d, unit):
    rc = (read(os.path.join(d, unit + '.rc'), '') or '').strip()
    return {'': 'PASS' if rc == '0' else 'FAIL'}, True


def guests(out, side):
    d = os.path.join(out, side)
    if not os.path.isdir(d):
        return []
    return [os.path.join(d, g) for g in sorted(os.listdir(d))
            if os.path.isdir(os.path.join(d, g))]


def planned(g):
    return (read(os.path.join(g, 'plan'), '') or '').split()


def kmemleak(out, g, unit, problems):
    where = f'{unit} on {os.path.relpath(g, out)}'
    kml = os.path.join(g, unit + '.kmemleak')
    text = read(kml)
    if text is None:
        problems.append(f'kmemleak: no scan after {where}')
    elif text.count('unreferenced object'):
        problems.append(f'kmemleak: {text.count("unreferenced object")} reports after '
                        f'{where} ({kml})')


def unit_results(out, g, unit, problems):
    """The results of UNIT in guest directory G; its problems go in
    PROBLEMS."""
    suite = unit.split('@')[0]
    where = f'{unit} on {os.path.relpath(g, out)}'
    rc = read(os.path.join(g, unit + '.rc'))
    if rc is None:
        problems.append(f'{where}: did not run (the run is incomplete)')
        return {}
    kmemleak(out, g, unit, problems)
    if rc.strip() == 'crash':
        problems.append(f'{where}: the guest died in it ({g}/{unit}.log)')
    if suite.startswith('test_progs') or suite == 'fuzz':
        res, ok = test_progs_results(g, unit)
    elif suite == 'test_verifier':
        res, ok = test_verifier_results(g, unit)
    else:
        res, ok = rc_result(g, unit)
    if not ok:
        problems.append(f'{where}: results inconsistent or incomplete (output, JSON, '
                        f'summary and exit code disagree)')
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


def load_deny(path):
    deny = []
    for line in (read(path, '') or '').splitlines():
        line = line.split('#', 1)[0].strip()
        if line:
            deny.append(line)
    return deny


def tp_deny(deny):
    """The DENYLIST's test_progs entries, in order: deny@I is the I-th."""
    return [g for g in deny if not g.startswith('test_verifier/')]


def denied(deny, suite, name):
    """A DENYLIST glob names test_progs tests (any flavour) as test_progs -d
    does (TEST or TEST/SUBTEST); test_verifier tests as test_verifier/N
    (no '#': that starts a comment)."""
    if suite == 'test_verifier':
        key = 'test_verifier/' + name.split('/')[0].lstrip('#')
        return [g for g in deny if g == key]
    if suite.startswith('test_progs'):
        test = name.split('/')[0]
        return [g for g in tp_deny(deny) if fnmatch.fnmatchcase(name, g) or
                fnmatch.fnmatchcase(test, g)]
    return [g for g in deny if g == suite]


def subtests(res):
    """{test: frozenset of its subtests} from merged results."""
    subs = {}
    for name in res:
        test, _, sub = name.partition('/')
        s = subs.setdefault(test, set())
        if sub:
            s.add(sub)
    return {t: frozenset(s) for t, s in subs.items()}


def write_plan(out, side, k, units):
    d = os.path.join(out, side, str(k))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'plan'), 'w') as f:
        f.write(' '.join(units) + '\n' if units else '')


def write_allow(out, k, unit, tests):
    """FLAVOUR@K.allow for base guest K; a unit that ran another list runs
    again."""
    d = os.path.join(out, 'base', str(k))
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, unit + '.allow')
    text = ''.join(t + '\n' for t in tests)
    if read(path) != text:
        for ext in ('.rc', '.json', '.log', '.secs', '.kmemleak', '.started'):
            try:
                os.unlink(os.path.join(d, unit + ext))
            except OSError:
                pass
        with open(path, 'w') as f:
            f.write(text)


def plan_base(phase, out, shards, slices, deny, suites):
    problems = []
    plans = [planned(os.path.join(out, 'base', str(k))) if phase == 2 else []
             for k in range(shards)]
    if phase == 1:
        for k in range(shards):
            for suite in suites:
                if suite == 'test_progs':
                    plans[k] += [f'{suite}@{j}' for j in range(k, slices, shards)]
                elif suite == 'test_verifier' and k == 0:
                    plans[k].append(suite)
                elif suite == 'test_maps' and k == shards - 1:
                    plans[k].append(suite)
        for i in range(len(tp_deny(deny))):
            plans[i % shards].append(f'deny@{i}')
    else:
        ref = subtests(results(out, 'base', 'test_progs', problems))
        for suite in suites:
            if not suite.startswith('test_progs-'):
                continue
            rp = results(out, 'patched', suite, problems)
            need = {n.split('/')[0] for n, v in rp.items() if v != 'PASS'}
            need |= {t for t, s in subtests(rp).items() if ref.get(t) != s}
            need = sorted(need)
            for k in range(shards):
                unit = f'{suite}@{k}'
                if need[k::shards]:
                    write_allow(out, k, unit, need[k::shards])
                    if unit not in plans[k]:
                        plans[k].append(unit)
    for k, plan in enumerate(plans):
        write_plan(out, 'base', k, plan)
        print(f'base/{k}: {" ".join(plan) or "nothing"}')
    return 0


def deny_units(out, deny, problems):
    """Each test_progs DENYLIST entry, from its deny@I units: what it is
    there for must not pass on base, and it must not hide a regression."""
    for i, entry in enumerate(tp_deny(deny)):
        verdicts = {}
        unit = f'deny@{i}'
        for side in ('base', 'patched'):
            if not any(unit in planned(g) for g in guests(out, side)):
                problems.append(f'{unit} ({entry}) on {side}: not in the plan')
            for g in guests(out, side):
                if unit not in planned(g):
                    continue
                rc = read(os.path.join(g, unit + '.rc'))
                ran = (read(os.path.join(g, unit + '.entry'), '') or '').strip()
                if rc is None:
                    problems.append(f'{unit} ({entry}) on {side}: did not run')
                    continue
                kmemleak(out, g, unit, problems)
                if ran != entry:
                    problems.append(f'{unit} on {side} ran "{ran}", the DENYLIST has '
                                    f'"{entry}" there now: run it again')
                    continue
                res, ok = test_progs_results(g, unit)
                mine = {n: v for n, v in res.items()
                        if fnmatch.fnmatchcase(n, entry) or
                        fnmatch.fnmatchcase(n.split('/')[0], entry)}
                if rc.strip() == 'crash' or not ok:
                    verdicts[side] = 'CRASH'	# the guest or test_progs died
                elif not mine:
                    verdicts[side] = 'NONE'
                else:
                    verdicts[side] = 'PASS' if all(v == 'PASS' for v in mine.values()) \
                        else 'FAIL'
        b, p = verdicts.get('base'), verdicts.get('patched')
        if b is None or p is None:
            continue
        if b == 'NONE' and p == 'NONE':
            problems.append(f'DENYLIST entry {entry} matches no test')
        elif b == 'PASS' and p == 'PASS':
            problems.append(f'DENYLIST entry {entry} passes on both kernels (stale)')
        elif b == 'PASS':
            problems.append(f'regression: DENYLIST entry {entry}: base PASS, patched {p}')
        print(f'| deny@{i} `{entry}` | {b} | {p} |')


def fuzz_check(out, want, problems):
    fz = [g for g in guests(out, 'patched') if 'fuzz' in planned(g)]
    if not fz:
        problems.append('the fuzzer\'s long run is not in the plan')
        return
    res = results(out, 'patched', 'fuzz', problems)
    if not res or any(v != 'PASS' for v in res.values()):
        problems.append(f'the fuzzer\'s run did not pass, or skipped: '
                        f'{sorted(n for n, v in res.items() if v != "PASS")} (fuzz.log)')
    calls = 0
    for g in fz:
        for m in re.finditer(r'^fuzz \S+: seed \d+ calls (\d+)',
                             read(os.path.join(g, 'fuzz.log'), '') or '', re.M):
            calls += int(m.group(1))
    if calls < want:
        problems.append(f'the fuzzer made {calls} calls, fewer than {want}')
    print(f'\nfuzzer: {calls} calls')


def main():
    if sys.argv[1] == '--plan-base':
        phase, out, shards, slices, deny_path = sys.argv[2:7]
        return plan_base(int(phase), out, int(shards), int(slices), load_deny(deny_path),
                         sys.argv[7:])
    out, deny_path, tests_h, fuzz_calls, suites = (sys.argv[1], sys.argv[2], sys.argv[3],
                                                   int(sys.argv[4]), sys.argv[5:])
    deny = load_deny(deny_path)
    all_tests = re.findall(r'^DEFINE_TEST\((\w+)\)$', read(tests_h, '') or '', re.M)
    if not all_tests:
        print(f'error: no DEFINE_TEST in {tests_h}')
        return 1
    problems, used = [], set()
    print('| suite | base: pass / fail / skip | patched: pass / fail / skip | regressions |')
    print('|---|---|---|---|')
    for suite in suites:
        rb = results(out, 'base', suite, problems)
        rp = results(out, 'patched', suite, problems)
        regress, both = [], []
        for name in sorted(set(rb) | set(rp)):
            b, p = rb.get(name, 'MISSING'), rp.get(name, 'MISSING')
            full = f'{suite}/{name}' if name else suite
            hit = denied(deny, suite, name)
            if p == 'PASS' or p == 'SUBFAIL':
                continue	# a SUBFAIL test's failing subtests speak for it
            if b == 'PASS':
                regress.append(f'regression: {full}: base PASS, patched {p}')
            elif b == 'MISSING':
                both.append(f'{full}: patched {p}, and no result on base')
            elif p == 'SKIP' and b == 'SKIP':
                continue	# the config or the machine lacks it, on both
            elif p != 'SKIP':
                used.update(hit)
                if not hit:
                    both.append(f'{full}: base {b}, patched {p}, and not in the DENYLIST')
        if suite.startswith('test_progs'):
            whole = {g for g in tp_deny(deny) if '/' not in g}
            for t in all_tests:
                if t not in rp and not any(fnmatch.fnmatchcase(t, g) for g in whole):
                    both.append(f'{suite}/{t}: no result on patched')

        def count(r):
            leaf = {n: v for n, v in r.items()
                    if '/' in n or not any(k.startswith(n + '/') for k in r)}
            return ' / '.join(str(sum(1 for v in leaf.values() if v == k))
                              for k in ('PASS', 'FAIL', 'SKIP'))
        print(f'| {suite} | {count(rb)} | {count(rp)} | {len(regress)} |')
        problems += regress + both
    print('\n| DENYLIST entry | base | patched |\n|---|---|---|')
    deny_units(out, deny, problems)
    for g in deny:
        if g.startswith('test_verifier/') and g not in used:
            problems.append(f'DENYLIST entry {g} matches no failing test_verifier test')
    fuzz_check(out, fuzz_calls, problems)
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
