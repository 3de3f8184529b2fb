#!/usr/bin/env python3
"""One result line per test from a run of the tree's test_progs.

  tp-results.py [--strict] [--rc RC] LABEL STDOUT JSON

Reads the runner's output (its "#N name:RESULT" and "#N/M name/sub:RESULT"
lines) for the names of what ran, and its --json-summary for the verdict:
the failures JSON lists must be exactly those the output shows, and its
counts must agree (with -v it lists none: the counts must).  Prints
"PASS|FAIL|SKIP LABELname[/sub]" per subtest (per test for tests without
subtests, and for a test that failed outside its subtests), and exits 1 if
the two disagree or the JSON is missing.

--strict (the regression gate) also prints every test's own verdict under
its name, SUBFAIL for a test whose subtests failed, and checks every count
of the JSON (tests passed, subtests passed, failed, failed subtests, at
least the skips the output shows) and, with --rc, test_progs' exit code (0
without failures, 1 with, never 2: no test ran).
"""
import json
import re
import sys

# Names may hold spaces and colons (the verifier tests' are descriptions);
# a test's result may carry "(SKIP: N/M)" (some subtests skipped) or
# "(not built)" (its BPF object was not, under BPF_STRICT_BUILD=0).
LINE = re.compile(r'^#(\d+)(?:/(\d+))?\s+(.+):(OK|FAIL|SKIP)'
                  r'(?: \((SKIP: (\d+)/(\d+)|not built)\))?\s*$')

# The runner's own test of its reporting starts made-up subtests (one
# skipped, one failed on purpose), checks what they counted and clears
# them: their lines are printed, but they are not results, and the JSON
# and the counts leave them out.  Only the test's own line counts.
SELF_TEST = 'prog_tests_framework'


def main():
    args = sys.argv[1:]
    strict = rc = None
    if args[0] == '--strict':
        strict, args = True, args[1:]
    if args[0] == '--rc':
        rc, args = args[1], args[2:]
    label, out_path, json_path = args[:3]
    tests, subs, notes, all_subs = {}, {}, {}, []
    with open(out_path, errors='replace') as f:
        for line in f:
            if line.startswith('All error logs:'):
                break	# the failures again, from the summary
            m = LINE.match(line)
            if not m:
                continue
            num, sub, name, res, note, nskip, nsubs = m.groups()
            if sub is not None and name.startswith(SELF_TEST + '/'):
                continue	# the runner's self test (above): not results
            if note == 'not built':
                res = 'NOT_BUILT'	# a failure of the build, not a skip
            if sub is None:
                tests[name] = res
                notes[name] = (int(nskip), int(nsubs)) if nskip else None
            else:
                subs.setdefault(name.split('/', 1)[0], {})[name] = res
                all_subs.append(res)	# names may repeat: count each line

    verdict = {'OK': 'PASS', 'FAIL': 'FAIL', 'SKIP': 'SKIP', 'NOT_BUILT': 'FAIL'}
    out_fails = set()
    for test, res in tests.items():
        leaves = subs.get(test, {}).items()
        sub_failed = any(r == 'FAIL' for _, r in leaves)
        for name, sres in leaves:
            print(f'{verdict[sres]} {label}{name}')
            if sres == 'FAIL':
                out_fails.add(name)
        if strict and leaves:
            print(f'{"SUBFAIL" if res == "FAIL" and sub_failed else verdict[res]} '
                  f'{label}{test}')
        elif not leaves or (res == 'FAIL' and not sub_failed):
            print(f'{verdict[res]} {label}{test}')
        if res == 'FAIL':
            out_fails.add(test)

    try:
        with open(json_path) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        print(f'FAIL {label}json_summary ({e})')
        return 1
    json_fails = set()
    for t in summary.get('results', []):
        if t.get('failed'):
            json_fails.add(t['name'])
        for s in t.get('subtests', []):
            if s.get('failed'):
                json_fails.add(f"{t['name']}/{s['name']}")
    n_fail_tests = sum(1 for r in tests.values() if r == 'FAIL')
    # With -v the runner lists no results in the JSON, only the counts.
    listed = bool(summary.get('results'))
    if (listed and json_fails != out_fails) or summary.get('failed') != n_fail_tests:
        print(f'FAIL {label}json_summary (failed: json {sorted(json_fails)} '
              f'{summary.get("failed")}, output {sorted(out_fails)} {n_fail_tests})')
        return 1
    if not strict:
        return 0

    # Every count: a result line lost from the output shows here.
    out_counts = {
        'success': sum(1 for r in tests.values() if r in ('OK', 'SKIP')),
        'success_subtest': sum(1 for r in all_subs if r == 'OK'),
        'failed_subtest': sum(1 for r in all_subs if r == 'FAIL'),
    }
    for key, n in out_counts.items():
        if summary.get(key) != n:
            print(f'FAIL {label}json_summary ({key}: json {summary.get(key)}, output {n})')
            return 1
    skips = sum(1 for r in all_subs if r == 'SKIP')
    skips += sum(1 for t, r in tests.items() if r == 'SKIP' and not subs.get(t))
    if summary.get('skipped', -1) < skips:
        print(f'FAIL {label}json_summary (skipped: json {summary.get("skipped")}, '
              f'output at least {skips})')
        return 1
    if rc is not None and rc != ('1' if n_fail_tests else '0'):
        print(f'FAIL {label}json_summary (exit code {rc} with {n_fail_tests} failed tests)')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
