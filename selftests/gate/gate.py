#!/usr/bin/env python3
"""The gate: the tree's own suites on the patched and the unpatched kernel
(the A/B), its plan, its record and its verdict.  selftests/gate/run.sh
(make gate) boots the guests; everything it decides comes from here.

  gate.py identity                  what the results are results of (16 hex)
  gate.py units SIDE                SIDE's units still to run, one per line
  gate.py args SIDE UNIT            the guest command of UNIT, one word a line
  gate.py cmdline                   what the guests' kernel command line adds
  gate.py summary                   summary.md on stdout; exit 0 when complete
                                    with 0 regressions, 1 on a problem, 2 when
                                    units remain

Paths come from the environment: GATE_RESULTS (the committed record,
selftests/gate/results), GATE_TESTS_H (the patched tree's
prog_tests/tests.h: the default flavour's tests, in test_progs' order;
GATE_RESULTS/tests keeps their names, for a machine without the tree).

Units.  patched: test_progs@J for J < SLICES, every SLICES-th test of
tests.h (by position) except those in selftests/gate/alone; test_progs@NAME
for each test there (alone: it may crash the guest or take long);
test_progs-no_alu32@J and test_progs-cpuv4@J for J < FLAVOUR_SLICES, of the
verifier_* tests and the series-related ones (selftests/lists/tree-tests),
every FLAVOUR_SLICES-th; test_verifier; test_maps.  base: a unit
of the same name for each patched unit that is done and has a test that did
not pass (or has no result).  It runs the patched unit's whole command
when a test failed there, the guest died or timed out, or the kernel
printed a splat: a test's result may depend on what ran before it in the
same guest (what is in the trace buffer, what TCG has translated), so base
gets the same order.  Otherwise (skips only) it runs exactly the tests that
skipped.  test_verifier and test_maps run whole.  A test that passes on
patched cannot be a regression.  Rounds: when a test that failed in a
test_progs unit on patched (the guest finished the unit, and the kernel
printed no splat base did not) passes on base, which then ran it whole,
each kernel runs the unit again, UNIT~2 to UNIT~ROUNDS, so that a test
that fails now and then on both kernels is told from one the series
breaks.  They are planned from base's results: the next make gate runs
them (run.sh takes a side's units once).

The record of a unit (GATE_RESULTS/SIDE/UNIT.*): args (the command it ran),
rc (the guest's exit code, "timeout" or "died"), secs, log.xz (the output),
json.xz (test_progs' --json-summary), splat (vm/splat.sh's quote, only if
the serial log had one).  A unit whose args differ from the plan's is run
again.

Verdicts.  Every test and subtest gets a result per kernel: test_progs'
from its output, checked against its JSON and exit code
(selftests/tp-results.py --strict); test_verifier's per "#N/u|p" block,
checked against its Summary line; test_maps' from its exit code.  The gate
fails on a regression (passes on base; fails, skips or is missing on
patched), a test with a result on neither kernel, a unit whose output,
JSON and exit code disagree, a splat on either kernel; it lists what fails
on both (not a regression, each shown with its base result and, when
selftests/gate/explained gives one, its reason: a pattern of the full
name, SUITE/TEST[/SUBTEST] or SUITE@UNIT for a guest's death or splat, and
the reason after '#').  A reason only annotates what fails on both: it
never turns a regression or a problem into a pass.  A suspect's verdict
compares the rounds only (its first runs were chosen for failing on
patched and passing on base): a regression when it fails on patched in
more rounds than on base, a failure on both when base fails as often or
more (with the counts), a failure not reproduced when it passes every
round on both kernels (listed, not a problem).  A round without the
test's result on base, or a guest that died or timed out in a round on
one kernel only, is a problem; splats are compared over all runs of a
unit.  It lists what skipped on both, by test, with the cause that
selftests/gate/skipped gives (the same form as explained): what the
record does not test, and why.
"""
import fnmatch
import hashlib
import json
import lzma
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
# The plan's shape (GATE_SLICES and GATE_FLAVOUR_SLICES override it: the
# host test's small made-up runs).
SLICES = int(os.environ.get('GATE_SLICES', 24))		  # default flavour: ~30 tests a unit
FLAVOUR_SLICES = int(os.environ.get('GATE_FLAVOUR_SLICES', 4))  # no_alu32, cpuv4
WATCHDOG = 600			# test_progs -w: a test's time limit, s
ALONE_WATCHDOG = 3600		# ... for the tests selftests/gate/alone names
# BPF CI's kernel command line (libbpf/ci's run-vmtest/run.sh), but
# kasan_multi_shot: the gate's kernels have no KASAN (selftests/gate/Kconfig).
# vm/run.sh's own comes first (panic=-1 oops=panic, the console, the root).
CMDLINE = ('sysctl.vm.panic_on_oom=1 hardlockup_all_cpu_backtrace=1 '
           'softlockup_all_cpu_backtrace=1 no5lvl log_buf_len=16M')
FLAVOURS = ('test_progs-no_alu32', 'test_progs-cpuv4')
NOT_PASS = ('FAIL', 'SKIP', 'MISSING', 'CRASH')

TV_START = re.compile(r'^#(\d+)/([up]) ')
TV_OK = re.compile(r' (?:\d+ cases )?OK(?: \(NOTE: [^)]*\))?$')
TV_SKIP = re.compile(r'(?:^| )SKIP(?: \([^)]*\))?$')
TV_SUMMARY = re.compile(r'^Summary: (\d+) PASSED, (\d+) SKIPPED, (\d+) FAILED$')


# Runs of a unit with a suspect, per kernel (GATE_ROUNDS overrides it: the
# host test's made-up runs).
ROUNDS = int(os.environ.get('GATE_ROUNDS', 5))


def env(name, default=None):
    v = os.environ.get(name, default)
    if v is None:
        sys.exit(f'gate.py: {name} is not set')
    return v


def read(path, default=None):
    try:
        if path.endswith('.xz'):
            with lzma.open(path, 'rt', errors='replace') as f:
                return f.read()
        with open(path, errors='replace') as f:
            return f.read()
    except OSError:
        return default


def listfile(path):
    """A list file's entries: one a line, '#' starts a comment."""
    return [l.split('#', 1)[0].strip() for l in (read(path, '') or '').splitlines()
            if l.split('#', 1)[0].strip()]


# ---------------------------------------------------------------- the plan

def identity():
    """What the results are results of: the source trees of both kernels
    (git's tree hashes of build/linux's HEAD and base: the series' code,
    not its commit messages or cover letters), the config, the test
    limits.  Nothing of one machine's build."""
    ksrc = os.environ.get('GATE_KSRC', os.path.join(TOP, 'build', 'linux'))
    p = subprocess.run(['git', '-C', ksrc, 'rev-parse', 'HEAD^{tree}', 'base^{tree}'],
                       capture_output=True, text=True)
    if p.returncode:
        sys.exit(f'gate.py: no kernel tree with a base commit at {ksrc} (make tree)')
    h = hashlib.sha256(p.stdout.encode())
    # What makes the kernels, the binaries and the guests: their config,
    # how they are built, how a guest boots and what it is given (vm/run.sh:
    # CPUs and command line; run.sh: memory and time limit).
    for rel in ('selftests/gate/Kconfig', 'selftests/gate/kernels.sh',
                'selftests/gate/build.sh', 'kernel/config.sh', 'kernel/build.sh',
                'selftests/gate/run.sh', 'vm/run.sh', 'vm/guest-init.sh'):
        with open(os.path.join(TOP, rel), 'rb') as f:
            h.update(rel.encode() + b'\0' + f.read())
    h.update(f'watchdog={WATCHDOG},{ALONE_WATCHDOG}'.encode())
    h.update(f'cmdline={CMDLINE}'.encode())
    return h.hexdigest()[:16]


def tests_h():
    kept = os.path.join(env('GATE_RESULTS'), 'tests')
    h = os.environ.get('GATE_TESTS_H')
    # Sorted here: the tree's Makefile sorts them in the host's locale.
    names = sorted(set(re.findall(r'^DEFINE_TEST\((\w+)\)$', read(h, '') or '', re.M))) if h else []
    if names:
        if read(kept) != '\n'.join(names) + '\n':
            os.makedirs(env('GATE_RESULTS'), exist_ok=True)
            with open(kept, 'w') as f:
                f.write('\n'.join(names) + '\n')
        return names
    names = listfile(kept)
    if not names:
        sys.exit(f'gate.py: no DEFINE_TEST in {h} and no {kept}')
    return names


def series_tests():
    """selftests/lists/tree-tests: the tree's tests of the attach-data build,
    as selftests/Makefile builds them."""
    text = read(os.path.join(TOP, 'selftests/lists/tree-tests'), None)
    if text is None:
        sys.exit('gate.py: no selftests/lists/tree-tests')
    return [w for line in text.splitlines() for w in line.split('#', 1)[0].split()]


def kept_list(env_name, kept_name):
    """A list from the patched tree (ENV_NAME's path), kept in the record
    (GATE_RESULTS/KEPT_NAME) for a machine without the tree."""
    kept = os.path.join(env('GATE_RESULTS'), kept_name)
    path = os.environ.get(env_name)
    if path and os.path.exists(path):
        text = read(path, '')
        if read(kept) != text:
            os.makedirs(env('GATE_RESULTS'), exist_ok=True)
            with open(kept, 'w') as f:
                f.write(text)
    return read(kept, '') or ''


def denylist():
    """{entry: reason} of the tree's DENYLIST, which BPF CI applies."""
    out = {}
    for line in kept_list('GATE_DENYLIST', 'denylist').splitlines():
        entry, _, why = line.partition('#')
        if entry.strip():
            out[entry.strip()] = why.strip()
    return out


def explained(var='GATE_EXPLAINED', name='explained'):
    """[(pattern, reason)] of selftests/gate/explained (GATE_EXPLAINED), or
    of the file NAME there that VAR names."""
    out = []
    path = os.environ.get(var, os.path.join(HERE, name))
    for line in (read(path, '') or '').splitlines():
        entry, _, why = line.partition('#')
        if entry.strip():
            out.append((entry.strip(), why.strip()))
    return out


def reason(name, entries):
    """The reason ENTRIES (explained()) give for NAME, or None."""
    return next((w for e, w in entries if fnmatch.fnmatchcase(name, e)), None)


def denied(test):
    return [e for e in denylist() if '/' not in e and fnmatch.fnmatchcase(test, e)]


def plan():
    """{unit: selection} of patched: a list of test names (test_progs
    flavours) or None (a whole suite)."""
    tests = [t for t in tests_h() if not denied(t)]
    alone = listfile(os.environ.get('GATE_ALONE', os.path.join(HERE, 'alone')))
    for a in alone:
        if a not in tests:
            sys.exit(f'gate.py: selftests/gate/alone names {a}, which tests.h does not have')
    rest = [t for t in tests if t not in alone]
    units = {}
    for j in range(SLICES):
        units[f'test_progs@{j}'] = rest[j::SLICES]
    for a in alone:
        units[f'test_progs@{a}'] = [a]
    series = set(series_tests())
    few = [t for t in tests if t.startswith('verifier_') or t in series]
    for fl in FLAVOURS:
        for j in range(FLAVOUR_SLICES):
            units[f'{fl}@{j}'] = few[j::FLAVOUR_SLICES]
    units['test_verifier'] = None
    units['test_maps'] = None
    return {u: sel for u, sel in units.items() if sel != []}


def args_of(side, unit, units=None):
    """The guest command of UNIT on SIDE, or None when SIDE has no such
    unit (yet): on base, the tests of UNIT that did not pass on patched,
    or all of them, as on patched, after a failure, a death or a splat
    there (whole(): the same order, and to tell whose a splat is)."""
    units = units if units is not None else plan()
    first, r = split_round(unit)
    if r > 1:
        # A round: patched's command of the unit, on either kernel.
        if r > ROUNDS or first not in units or not suspects(first, units):
            return None
        return [w.replace(f'../out/patched/{first}.json', f'../out/{side}/{unit}.json')
                for w in args_of('patched', first, units)]
    if unit not in units:
        return None
    suite = unit.split('@')[0]
    sel = units[unit]
    if side == 'base':
        if not current('patched', unit, units):
            return None
        res = unit_results('patched', unit)[0]
        if not whole(unit, res):
            if sel is None:
                sel = None if not_passed(res) else []
            else:
                sel = [t for t in sel if not passed(res, t)]
        if sel == []:
            return None
    if sel is None:
        # Line-buffered: stderr must not split a result line.
        return ['stdbuf', '-oL', '-eL', f'./{suite}']
    # Relative to the guest's run directory, build/gate/run-SIDE-K: the
    # record holds no path of one machine.
    json_out = f'../out/{side}/{unit}.json'
    wd = ALONE_WATCHDOG if unit.split('@')[1] in units[unit] else WATCHDOG
    sub = [e for e in denylist() if '/' in e and e.split('/')[0] in sel]
    return ([f'./{suite}', '-w', str(wd), '-a', ','.join(sel)] +
            (['-d', ','.join(sub)] if sub else []) + ['-J', json_out])


def split_round(unit):
    """(UNIT, R) of a round UNIT~R; (UNIT, 1) of a unit's first run."""
    first, sep, r = unit.rpartition('~')
    if sep and re.fullmatch(r'[1-9][0-9]*', r) and int(r) >= 2:
        return first, int(r)
    return unit, 1


def rounds(unit):
    """The names of UNIT's rounds after its first run."""
    return [f'{unit}~{r}' for r in range(2, ROUNDS + 1)]


def suspects(unit, units):
    """The names (tests, subtests) of a test_progs UNIT that failed on
    patched and passed on base, which ran the unit whole: what the rounds
    are for.  None when the guest died or timed out on patched, or its
    kernel printed a splat base's did not: that verdict needs no rounds.
    test_verifier and test_maps have none (deterministic, or long)."""
    if '@' not in unit or not current('base', unit, units):
        return []
    kp = splat_key('patched', unit)
    if ended('patched', unit) or (kp and kp != splat_key('base', unit)):
        return []
    rp, rb = unit_results('patched', unit)[0], unit_results('base', unit)[0]
    return [n for n, v in rp.items() if v in ('FAIL', 'CRASH') and rb.get(n) == 'PASS']


def whole(unit, res):
    """Base runs patched's whole UNIT: a test failed there (the guest's
    death or time-out leaves some without a result), or the kernel printed
    a splat."""
    return bool(record('patched', unit, 'splat')) or ended('patched', unit) or \
        any(v not in ('PASS', 'SKIP') for v in res.values())


def current(side, unit, units=None):
    """UNIT has a record on SIDE, of the command the plan gives now."""
    a = args_of(side, unit, units)
    return a is not None and done(side, unit) and \
        record(side, unit, 'args') == '\n'.join(a) + '\n'


def units_left(side):
    units = plan()
    return [n for u in units for n in [u] + rounds(u)
            if args_of(side, n, units) is not None and not current(side, n, units)]


# -------------------------------------------------------------- the record

def rpath(side, unit, what):
    return os.path.join(env('GATE_RESULTS'), side, f'{unit}.{what}')


def record(side, unit, what, default=None):
    return read(rpath(side, unit, what), default)


def done(side, unit):
    return os.path.exists(rpath(side, unit, 'rc'))


def ended(side, unit):
    """SIDE's guest for UNIT died or timed out: the tests it had not
    reached have no result, and its output need not agree with its exit
    code."""
    return (record(side, unit, 'rc', '') or '').strip() in ('died', 'timeout')


def test_progs_results(side, unit):
    """{name: verdict} (tests under TEST, subtests under TEST/SUB) and
    whether output, JSON and exit code agree."""
    rc = (record(side, unit, 'rc', '') or '').strip()
    with tempfile.TemporaryDirectory() as tmp:
        log, js = os.path.join(tmp, 'log'), os.path.join(tmp, 'json')
        with open(log, 'w') as f:
            f.write(record(side, unit, 'log.xz', '') or '')
        text = record(side, unit, 'json.xz')
        if text is not None:
            with open(js, 'w') as f:
                f.write(text)
        p = subprocess.run([os.path.join(os.path.dirname(HERE), 'tp-results.py'), '--strict',
                            '--rc', rc, '', log, js], capture_output=True, text=True)
    res = {}
    for line in p.stdout.splitlines():
        verdict, name = line.split(' ', 1)
        if not name.startswith('json_summary'):
            res[name] = 'FAIL' if verdict == 'SUBFAIL' else verdict
    return res, p.returncode == 0


def test_verifier_results(side, unit):
    """{'#N/m': verdict}: a block is PASS if its first line ends in OK,
    SKIP if it ends in SKIP (or its second line is a SKIP), FAIL otherwise,
    whatever else it prints; the counts must be the Summary line's."""
    blocks, cur, summary = {}, None, None
    for line in (record(side, unit, 'log.xz', '') or '').splitlines():
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


_results = {}


def unit_results(side, unit):
    """(results, consistent): the unit's verdicts, and whether its output
    and its own counts agree.  A unit the guest died in is not.  Read once
    per run of gate.py: the record does not change under it."""
    if (side, unit) not in _results:
        _results[(side, unit)] = read_results(side, unit)
    res, ok = _results[(side, unit)]
    return dict(res), ok


def read_results(side, unit):
    suite = unit.split('@')[0]
    if suite == 'test_verifier':
        res, ok = test_verifier_results(side, unit)
        if not ok:
            # Cut short (a hang, a crash): the blocks it did not reach
            # have no result; this entry makes base run it whole.
            res['test_verifier'] = 'FAIL'
    elif suite == 'test_maps':
        rc = (record(side, unit, 'rc', '') or '').strip()
        res, ok = {'test_maps': 'PASS' if rc == '0' else 'FAIL'}, True
    else:
        res, ok = test_progs_results(side, unit)
    return res, ok


def side_results(side, unit):
    return unit_results(side, unit)[0] if done(side, unit) else {}


def passed(res, test):
    """TEST passed: its own verdict and every subtest's are PASS."""
    return res.get(test) == 'PASS' and all(v == 'PASS' for n, v in res.items()
                                           if n.startswith(test + '/'))


def not_passed(res):
    """The tests (whole: test_progs runs them whole) with a subtest or
    their own verdict other than PASS, in order."""
    out = []
    for name, v in res.items():
        t = name.split('/')[0]
        if v != 'PASS' and t not in out:
            out.append(t)
    return out


# ------------------------------------------------------------- the verdict

def splat_key(side, unit):
    """A splat's first line without its addresses, pids and CPU: what tells
    one kernel's splat from another's."""
    q = record(side, unit, 'splat')
    if not q:
        return None
    first = next((l.split('|', 1)[1].strip() for l in q.splitlines() if '|' in l), q)
    return re.sub(r'(CPU: \d+|PID: \d+|0x[0-9a-f]+|\[ *[0-9.]+\])', '', first)


def reasons(items):
    """[(text, reason or None)] for ITEMS, [(key, text)]: explained()'s reasons."""
    entries = explained()
    return [(t, reason(k, entries)) for k, t in items]


def plural(n, word):
    return f'{n} {word}' + ('' if n == 1 else 's')


def print_skipped(skipped):
    """SKIPPED, the full names of the results that skipped on both kernels,
    by their reason in selftests/gate/skipped (GATE_SKIPPED; the same form
    as explained): each reason with the tests it covers, a test with the
    number of its results (itself or its subtests), or its subtests by name
    when they have different reasons; those without a reason first, then in
    the reasons' order (skipped's causes begin with their kind, "(a)" to
    "(e)")."""
    entries = explained('GATE_SKIPPED', 'skipped')
    why = {name: reason(name, entries) for name in skipped}
    test_of = {name: '/'.join(name.split('/')[:2]) for name in skipped}
    whys = {}
    for name in skipped:
        whys.setdefault(test_of[name], set()).add(why[name])
    groups = {}
    for name in skipped:
        key = test_of[name] if len(whys[test_of[name]]) == 1 else name
        tests = groups.setdefault(why[name], {})
        tests[key] = tests.get(key, 0) + 1
    print(f'\nSkipped on both kernels: {plural(len(skipped), "result")} of '
          f'{plural(len(whys), "test")}, {sum(groups.get(None, {}).values())} of the results '
          f'without a reason in selftests/gate/skipped:\n')
    for why in sorted(groups, key=lambda w: (w is not None, w or '')):
        tests = ', '.join(f'{t} ({n})' for t, n in sorted(groups[why].items()))
        print(f'- {tests}' + (f': {why}' if why else ''))


def print_reasons(why):
    """WHY (reasons()) as a list, each item with its reason when it has one."""
    print('\n'.join(f'- {t}' + (f': {w}' if w else '') for t, w in why))


def summary():
    units = plan()
    problems, both, once, left, rows, skipped = [], [], [], [], [], []
    # The table's last row: the sums of its columns (no time when a unit
    # has none; no base results or regressions while a verdict is pending).
    tot = {'secs': 0, 'PASS': 0, 'FAIL': 0, 'SKIP': 0, 'MISSING': 0, 'base': 0, 'reg': 0}
    ident = (read(os.path.join(env('GATE_RESULTS'), 'identity'), '') or '').strip()
    for unit, sel in units.items():
        suite = unit.split('@')[0]
        if not current('patched', unit, units):
            left.append(f'patched {unit}')
            continue
        rp, okp = unit_results('patched', unit)
        if not okp and not ended('patched', unit):
            problems.append(f'{unit} on patched: output, JSON and exit code disagree')
        # What patched should have run and has no result for.
        for t in sel or []:
            if not any(n == t or n.startswith(t + '/') for n in rp):
                rp[t] = 'MISSING'
        base_args = args_of('base', unit, units)
        rb, pending, base_whole = {}, False, False
        if base_args is not None:
            if not current('base', unit, units):
                left.append(f'base {unit}')
                pending = True
            else:
                rb, okb = unit_results('base', unit)
                base_whole = okb and not ended('base', unit)
                if not okb and not ended('base', unit):
                    problems.append(f'{unit} on base: output, JSON and exit code disagree')
        # The rounds of a unit with a suspect: all of them, on both kernels,
        # before its verdict.
        sus = suspects(unit, units) if base_args is not None and not pending else []
        runs = [unit] + (rounds(unit) if sus else [])
        for n in runs[1:]:
            for side in ('patched', 'base'):
                if not current(side, n, units):
                    left.append(f'{side} {n}')
                    pending = True
                elif not unit_results(side, n)[1] and not ended(side, n):
                    problems.append(f'{n} on {side}: output, JSON and exit code disagree')
        ends = {}
        for n in runs:
            for side in ('patched', 'base'):
                ends[(side, n)] = ended(side, n)
                if ends[(side, n)] and n == unit:
                    rc = record(side, n, 'rc').strip()
                    both.append((unit, f'{n} on {side}: the guest '
                                 f'{"died" if rc == "died" else "timed out"} '
                                 f'(the tests it did not reach have no result there)'))
            if n != unit and not pending and ends[('patched', n)] != ends[('base', n)]:
                side = 'patched' if ends[('patched', n)] else 'base'
                problems.append(f'{n}: the guest died or timed out on {side} only')
            elif n != unit and not pending and ends[('patched', n)]:
                both.append((unit, f'{n}: the guest died or timed out on both kernels'))
        # Splats: those of all the unit's runs on one kernel against the
        # other's, so that a splat in different rounds on each is the same.
        # Judged once every run is in, from current records only.
        keys = {side: {} for side in ('patched', 'base')}
        for n in runs if not pending else []:
            for side in keys:
                k = splat_key(side, n) if current(side, n, units) else None
                if k:
                    keys[side].setdefault(k, n)
        for k, n in keys['patched'].items():
            if k in keys['base']:
                both.append((unit, f'the same kernel splat on both kernels (patched {n}, '
                             f'base {keys["base"][k]}): `{k}`'))
            else:
                problems.append(f'a kernel splat on patched in {n}, not on base:\n\n```\n'
                                f'{record("patched", n, "splat").rstrip()}\n```')
        for k, n in keys['base'].items():
            if k not in keys['patched']:
                problems.append(f'a kernel splat on base in {n}, not on patched:\n\n```\n'
                                f'{record("base", n, "splat").rstrip()}\n```')
        reg = 0
        # Whole suites: what base has and patched lacks is missing there.
        names = list(rp) + ([n for n in rb if n not in rp] if sel is None else [])
        for name in names if not pending else []:
            p = rp.get(name, 'MISSING')
            if p == 'PASS':
                continue
            test = name.split('/')[0]
            full = name if name == suite else f'{suite}/{name}'
            b = rb.get(name, 'MISSING')
            # A test is listed by itself when it is a subtest or has no
            # subtest that did not pass (those are listed for it).
            listed = '/' in name or not any(n.startswith(test + '/') and rp[n] != 'PASS'
                                            for n in rp)
            if name in sus and len(runs) > 1:
                # The rounds only: the first runs were chosen for failing
                # on patched and passing on base.
                pv = [side_results('patched', n).get(name, 'MISSING') for n in runs[1:]]
                bv = [side_results('base', n).get(name, 'MISSING') for n in runs[1:]]
                pf = sum(v != 'PASS' for v in pv)
                bf = sum(v in ('FAIL', 'CRASH') for v in bv)
                nb = sum(v not in ('PASS', 'FAIL', 'CRASH') for v in bv)
                runs_of = f'in {len(pv)} more runs of {unit} on each kernel'
                if nb and listed:
                    problems.append(f'{full}: no result on base in {nb} of its {len(bv)} rounds')
                if pf > bf:
                    problems.append(f'regression: {full}: base PASS, patched {p}; {runs_of}, '
                                    f'it failed in {pf} on patched and {bf} on base')
                    reg += 1
                elif nb:
                    pass
                elif bf and listed:
                    both.append((full, f'{full}: patched {p}, base PASS; {runs_of}, it failed '
                                 f'in {pf} on patched and {bf} on base'))
                elif listed:
                    once.append((full, f'{full}: patched {p}, base PASS; {runs_of}, it passed '
                                 f'in all of them'))
            elif b == 'PASS':
                problems.append(f'regression: {full}: base PASS, patched {p}')
                reg += 1
            elif p == 'SKIP' and b == 'SKIP':
                skipped.append(full)
            elif p == 'MISSING' and b == 'MISSING':
                problems.append(f'{full}: no result on either kernel')
            elif b == 'MISSING' and not (base_whole and (test in rb or sel is None)):
                # Base did not get to it (or ran nothing): no evidence.
                problems.append(f'{full}: patched {p}, and no result on base')
            elif listed:
                both.append((full, f'{full}: patched {p}, base {b}'))
        n = {k: sum(1 for v in rp.values() if v == k) for k in ('PASS', 'FAIL', 'SKIP', 'MISSING')}
        secs = record('patched', unit, 'secs', '?').strip()
        for k, v in n.items():
            tot[k] += v
        if not secs.isdigit():
            tot['secs'] = None
        elif tot['secs'] is not None:
            tot['secs'] += int(secs)
        tot['base'] += len(rb) if base_args is not None and not pending else 0
        if pending:
            tot['reg'] = None
        elif base_args is not None and tot['reg'] is not None:
            tot['reg'] += reg
        rows.append(f'| {unit} | {secs} s | '
                    f'{n["PASS"]} / {n["FAIL"]} / {n["SKIP"]} / {n["MISSING"]} | '
                    f'{"-" if base_args is None else "pending" if pending else len(rb)}'
                    f'{f" ({len(runs)} runs each)" if len(runs) > 1 and not pending else ""} | '
                    f'{"" if pending or base_args is None else reg} |')
    npatched = sum(1 for u in left if u.startswith('patched ') and '~' not in u)
    nrounds = sum(1 for u in left if '~' in u)
    print('# The gate: the tree\'s suites, patched kernel vs the unpatched base\n')
    print(f'Identity {ident or "?"} (gate.py identity: the source trees of the patched '
          'and the base kernel, selftests/gate/Kconfig, the scripts that configure and build '
          'them and boot their guests, the guests\' limits and kernel command line).\n')
    print('Both kernels: BPF CI\'s config (an empty .config, the tree\'s fragments, '
          'olddefconfig) without its KASAN (selftests/gate/Kconfig says what that hides); '
          'guests of 2 CPUs and 4G with BPF CI\'s kernel command line (gate.py cmdline).\n')
    print(f'{len(units) - npatched} of {len(units)} patched units done; '
          f'{len(left) - npatched - nrounds} base units to run' +
          (f'; {nrounds} rounds of units with a suspect to run' if nrounds else '') + '.\n')
    deny = denylist()
    if deny:
        print('Not run, as in BPF CI: the tree\'s DENYLIST: ' +
              ', '.join(f'`{e}`' + (f' ({w})' if w else '') for e, w in deny.items()) + '.\n')
    print('| unit | time | patched: pass / fail / skip / missing | base: results | regressions |')
    print('|---|---|---|---|---|')
    print('\n'.join(rows))
    if rows:
        print(f'| all | {"?" if tot["secs"] is None else tot["secs"]} s | '
              f'{tot["PASS"]} / {tot["FAIL"]} / {tot["SKIP"]} / {tot["MISSING"]} | '
              f'{"pending" if tot["reg"] is None else tot["base"]} | '
              f'{"" if tot["reg"] is None else tot["reg"]} |')
    if both:
        why = reasons(both)
        print(f'\nNot passing on patched, and not passing on base either ({len(both)}; '
              f'{sum(1 for _, w in why if not w)} without a reason in selftests/gate/explained):\n')
        print_reasons(why)
    if skipped:
        print_skipped(skipped)
    if once:
        print(f'\nFailed on patched in its first run only, not again in its rounds on '
              f'either kernel ({len(once)}):\n')
        print_reasons(reasons(once))
    if problems:
        print(f'\n**{len(problems)} problems**:\n')
        print('\n'.join(f'- {p}' for p in problems))
    if left:
        print(f'\n**Incomplete**: {len(left)} units remain: {", ".join(left)}.')
    if not problems and not left:
        print('\n**0 regressions**: every unit ran on patched, and on base what did not pass.')
    return 1 if problems else 2 if left else 0


def main():
    cmd = sys.argv[1] if len(sys.argv) > 1 else ''
    if cmd == 'identity':
        print(identity())
    elif cmd == 'units' and len(sys.argv) == 3:
        for u in units_left(sys.argv[2]):
            print(u)
    elif cmd == 'args' and len(sys.argv) == 4:
        a = args_of(sys.argv[2], sys.argv[3])
        if a is None:
            return 1
        print('\n'.join(a))
    elif cmd == 'cmdline':
        print(CMDLINE)
    elif cmd == 'summary':
        return summary()
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
