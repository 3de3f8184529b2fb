#!/usr/bin/env bash
# The regression gate's verdicts (selftests/gate-diff.py), on made-up
# results: base's plan is what did not pass on patched; a regression, an
# undenied failure on both, a guest that died, a kmemleak report, a missing
# scan, a stale test_verifier entry and output that disagrees with the JSON
# each fail the gate; the same results with the failure denied pass.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

diff_py=$TOP/selftests/gate-diff.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() {	# ok WHAT: WHAT behaved as expected
	echo "ok: $1"
}
bad() {
	echo "FAIL: $1"
	fails=$((fails + 1))
}

unit() {	# unit DIR UNIT LOG [JSON]: a finished unit with a clean scan
	printf '%b' "$3" >"$1/$2.log"
	[ -z "${4:-}" ] || echo "$4" >"$1/$2.json"
	echo 0 >"$1/$2.rc"
	echo 1 >"$1/$2.secs"
	: >"$1/$2.kmemleak"
}

# patched: two guests; bar/b fails, qux skips, foo and baz pass.
setup() {
	rm -rf "$tmp/o"
	mkdir -p "$tmp/o/patched/0" "$tmp/o/patched/1"
	echo 'test_progs@0 test_verifier' >"$tmp/o/patched/0/plan"
	echo 'test_progs@1 test_maps fuzz' >"$tmp/o/patched/1/plan"
	unit "$tmp/o/patched/0" test_progs@0 \
		'#1       foo:OK\n#3/1     bar/a:OK\n#3/2     bar/b:FAIL\n#3       bar:FAIL\n' \
		'{"success":1,"failed":1,"results":[{"name":"bar","failed":true,"subtests":[{"name":"b","failed":true}]}]}'
	unit "$tmp/o/patched/1" test_progs@1 '#2       baz:OK\n#4       qux:SKIP\n' \
		'{"success":1,"failed":0,"results":[]}'
	unit "$tmp/o/patched/0" test_verifier \
		'#0/p t0 OK\n#1/p t1 FAIL\nSummary: 1 PASSED, 0 SKIPPED, 1 FAILED\n'
	unit "$tmp/o/patched/1" test_maps ''
	unit "$tmp/o/patched/1" fuzz ''
	"$diff_py" --plan-base "$tmp/o" 2 test_progs test_verifier test_maps >/dev/null
}
base_results() {	# base_results BAR_B: base's results, bar/b as given
	unit "$tmp/o/base/0" test_progs@0 \
		"#3/1     bar/a:OK\n#3/2     bar/b:$1\n#3       bar:$1\n" \
		"$([ "$1" = OK ] && echo '{"success":1,"failed":0,"results":[]}' ||
			echo '{"success":0,"failed":1,"results":[{"name":"bar","failed":true,"subtests":[{"name":"b","failed":true}]}]}')"
	unit "$tmp/o/base/1" test_progs@1 '#4       qux:SKIP\n' '{"success":0,"failed":0,"results":[]}'
	unit "$tmp/o/base/0" test_verifier \
		'#0/p t0 OK\n#1/p t1 FAIL\nSummary: 1 PASSED, 0 SKIPPED, 1 FAILED\n'
}
verdict() {	# verdict DENY EXPECT-RC [TEXT]: run the gate, check rc and text
	printf '%b' "$1" >"$tmp/deny"
	local rc=0
	"$diff_py" "$tmp/o" "$tmp/deny" test_progs test_verifier test_maps >"$tmp/out" || rc=$?
	[ "$rc" = "$2" ] || { cat "$tmp/out"; return 1; }
	[ -z "${3:-}" ] || grep -qF -- "$3" "$tmp/out" || { cat "$tmp/out"; return 1; }
}

setup
if [ "$(cat "$tmp/o/base/0/plan")" = "test_progs@0 test_verifier" ] &&
   [ "$(cat "$tmp/o/base/1/plan")" = "test_progs@1" ] &&
   [ "$(cat "$tmp/o/base/0/test_progs@0.allow")" = bar ] &&
   [ "$(cat "$tmp/o/base/1/test_progs@1.allow")" = qux ]; then
	ok "base runs only what did not pass on patched"
else
	bad "base's plan: $(cat "$tmp"/o/base/*/plan "$tmp"/o/base/*/*.allow | paste -sd' ')"
fi

base_results OK
if verdict 'test_verifier/1\n' 1 'test_progs/bar/b: base PASS, patched FAIL'; then
	ok "a regression fails the gate"
else bad "a regression"; fi

base_results FAIL
if verdict 'test_verifier/1\n' 1 'test_progs/bar/b: base FAIL, patched FAIL, and not in the DENYLIST'; then
	ok "a failure on both outside the DENYLIST fails the gate"
else bad "an undenied failure on both"; fi
if verdict 'bar/b\ntest_verifier/1\n' 0 '**0 regressions**'; then
	ok "the same failure, denied, passes"
else bad "a denied failure on both"; fi
if verdict 'bar/b\ntest_verifier/1\ntest_verifier/0\n' 1 'DENYLIST entry test_verifier/0 matches no failing'; then
	ok "a stale test_verifier entry fails the gate"
else bad "a stale test_verifier entry"; fi

echo crash >"$tmp/o/patched/1/test_maps.rc"
if verdict 'bar/b\ntest_verifier/1\n' 1 'test_maps on patched/1: the guest died in it'; then
	ok "a guest that died in a unit fails the gate"
else bad "a crashed unit"; fi
echo 0 >"$tmp/o/patched/1/test_maps.rc"

echo 'unreferenced object 0xffff888004d1e000 (size 64):' >"$tmp/o/patched/1/fuzz.kmemleak"
if verdict 'bar/b\ntest_verifier/1\n' 1 'kmemleak: 1 reports after fuzz on patched/1'; then
	ok "a kmemleak report fails the gate"
else bad "a kmemleak report"; fi
: >"$tmp/o/patched/1/fuzz.kmemleak"

rm "$tmp/o/base/1/test_progs@1.kmemleak"
if verdict 'bar/b\ntest_verifier/1\n' 1 'kmemleak: no scan after test_progs@1 on base/1'; then
	ok "a missing kmemleak scan fails the gate"
else bad "a missing scan"; fi
: >"$tmp/o/base/1/test_progs@1.kmemleak"

echo '{"success":2,"failed":0,"results":[]}' >"$tmp/o/patched/0/test_progs@0.json"
if verdict 'bar/b\ntest_verifier/1\n' 1 'test_progs@0 on patched/0: results inconsistent'; then
	ok "output that disagrees with the JSON fails the gate"
else bad "inconsistent JSON"; fi

rm "$tmp/o/patched/1/test_maps.rc"
if verdict 'bar/b\ntest_verifier/1\n' 1 'test_maps on patched/1: did not run'; then
	ok "a unit without a result fails the gate"
else bad "a unit that did not run"; fi

[ $fails = 0 ] || exit 1
