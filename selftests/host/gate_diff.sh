#!/usr/bin/env bash
# The regression gate's verdicts (selftests/gate-diff.py), on made-up
# results of two guests per kernel: base's plan (phase 1: test_progs,
# test_verifier, test_maps and the DENYLIST entries whole; phase 2: of the
# other flavours, what did not pass on patched), and each way a run must
# fail the gate -- a regression (denied or not; a failure, a skip, a test
# missing, a test failing outside its subtests, a test_verifier block
# without "FAIL", test_maps' exit code), a failure on both outside the
# DENYLIST, a DENYLIST entry that passes on both, passes on base only or
# matches nothing, a stale test_verifier entry, a guest that died, a
# kmemleak report or missing scan, output that disagrees with the JSON,
# its counts or the exit code, a test_verifier log without its summary, a
# unit that did not run, a test with no result, no base result for a
# failure, and the fuzzer failing, skipping or making too few calls -- and
# that the same results with the failure denied pass.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

diff_py=$TOP/selftests/gate-diff.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
o=$tmp/o
SUITES=(test_progs test_progs-cpuv4 test_verifier test_maps)
fails=0
ok() { echo "ok: $1"; }
bad() {
	echo "FAIL: $1"
	fails=$((fails + 1))
}

unit() {	# unit DIR UNIT RC LOG [JSON]: a finished unit with a clean scan
	mkdir -p "$1"
	printf '%b' "$4" >"$1/$2.log"
	[ -z "${5:-}" ] || echo "$5" >"$1/$2.json"
	echo "$3" >"$1/$2.rc"
	echo 1 >"$1/$2.secs"
	: >"$1/$2.kmemleak"
}
json() {	# json SUCCESS SUCCESS_SUBTEST SKIPPED FAILED FAILED_SUBTEST RESULTS
	echo "{\"success\":$1,\"success_subtest\":$2,\"skipped\":$3,\"failed\":$4,\"failed_subtest\":$5,\"results\":[$6]}"
}
BAR_FAILS='{"name":"bar","failed":true,"subtests":[{"name":"b","failed":true}]}'
# test_progs units: bar/b as given (OK or FAIL); foo, baz pass, qux skips.
tp0() {	# tp0 DIR UNIT BAR_B
	if [ "$3" = OK ]; then
		unit "$1" "$2" 0 '#1       foo:OK\n#3/1     bar/a:OK\n#3/2     bar/b:OK\n#3       bar:OK\n' \
			"$(json 2 2 0 0 0 '')"
	else
		unit "$1" "$2" 1 '#1       foo:OK\n#3/1     bar/a:OK\n#3/2     bar/b:FAIL\n#3       bar:FAIL\n' \
			"$(json 1 1 0 1 1 "$BAR_FAILS")"
	fi
}
tp1() { unit "$1" "$2" 0 '#2       baz:OK\n#4       qux:SKIP\n' "$(json 2 0 1 0 0 '')"; }
tv() { unit "$1" test_verifier 1 '#0/p t0 OK\n#1/p t1 FAIL\nSummary: 1 PASSED, 0 SKIPPED, 1 FAILED\n'; }
deny_bar() {	# deny_bar DIR: deny@1 (bar/b), failing
	unit "$1" deny@1 1 '#3/2     bar/b:FAIL\n#3       bar:FAIL\n' "$(json 0 0 0 1 1 "$BAR_FAILS")"
	echo bar/b >"$1/deny@1.entry"
}
deny_unit() {	# deny_unit DIR QUUX: deny@0 (quux) with quux's result
	if [ "$2" = OK ]; then
		unit "$1" deny@0 0 '#5       quux:OK\n' "$(json 1 0 0 0 0 '')"
	else
		unit "$1" deny@0 1 '#5       quux:FAIL\n' \
			"$(json 0 0 0 1 0 '{"name":"quux","failed":true,"subtests":[]}')"
	fi
	echo quux >"$1/deny@0.entry"
}
fuzz_unit() {	# fuzz_unit RESULT CALLS
	unit "$o/patched/1" fuzz "$([ "$1" = FAIL ] && echo 1 || echo 0)" \
		"#6/1     attach_data_fuzz/types:$1\n#6       attach_data_fuzz:$1\nfuzz types: seed 1 calls $2 ok 3\n" \
		"$(case $1 in
			OK) json 1 1 0 0 0 '' ;;
			SKIP) json 1 0 1 0 0 '' ;;
			FAIL) json 0 0 0 1 1 '{"name":"attach_data_fuzz","failed":true,"subtests":[{"name":"types","failed":true}]}' ;;
		esac)"
}

setup() {	# patched: bar/b fails in both flavours
	rm -rf "$o"
	printf 'DEFINE_TEST(foo)\nDEFINE_TEST(baz)\nDEFINE_TEST(bar)\nDEFINE_TEST(qux)\nDEFINE_TEST(quux)\n' \
		>"$tmp/tests.h"
	mkdir -p "$o/patched/0" "$o/patched/1"
	echo 'test_progs@0 test_progs-cpuv4@0 test_verifier deny@0' >"$o/patched/0/plan"
	echo 'test_progs@1 test_progs-cpuv4@1 test_maps fuzz deny@1' >"$o/patched/1/plan"
	tp0 "$o/patched/0" test_progs@0 FAIL
	tp0 "$o/patched/0" test_progs-cpuv4@0 FAIL
	tp1 "$o/patched/1" test_progs@1
	tp1 "$o/patched/1" test_progs-cpuv4@1
	tv "$o/patched/0"
	unit "$o/patched/1" test_maps 0 ''
	fuzz_unit OK 100000
	deny_unit "$o/patched/0" FAIL
	deny_bar "$o/patched/1"
	printf 'quux\nbar/b\ntest_verifier/1\n' >"$tmp/deny"
	"$diff_py" --plan-base 1 "$o" 2 2 "$tmp/deny" "${SUITES[@]}" >/dev/null
}
base_results() {	# base_results BAR_B: base's results, bar/b as given
	tp0 "$o/base/0" test_progs@0 "$1"
	tp1 "$o/base/1" test_progs@1
	tv "$o/base/0"
	unit "$o/base/1" test_maps 0 ''
	deny_unit "$o/base/0" FAIL
	deny_bar "$o/base/1"
	"$diff_py" --plan-base 2 "$o" 2 2 "$tmp/deny" "${SUITES[@]}" >/dev/null
	if [ "$1" = OK ]; then
		unit "$o/base/0" test_progs-cpuv4@0 0 '#3/1     bar/a:OK\n#3/2     bar/b:OK\n#3       bar:OK\n' \
			"$(json 1 2 0 0 0 '')"
	else
		unit "$o/base/0" test_progs-cpuv4@0 1 '#3/1     bar/a:OK\n#3/2     bar/b:FAIL\n#3       bar:FAIL\n' \
			"$(json 0 1 0 1 1 "$BAR_FAILS")"
	fi
	unit "$o/base/1" test_progs-cpuv4@1 0 '#4       qux:SKIP\n' "$(json 1 0 1 0 0 '')"
}
verdict() {	# verdict DENY EXPECT-RC [TEXT]: run the gate, check rc and text
	printf '%b' "$1" >"$tmp/deny"
	local rc=0
	"$diff_py" "$o" "$tmp/deny" "$tmp/tests.h" 100000 "${SUITES[@]}" >"$tmp/out" || rc=$?
	[ "$rc" = "$2" ] || { cat "$tmp/out"; return 1; }
	[ -z "${3:-}" ] || grep -qF -- "$3" "$tmp/out" || { cat "$tmp/out"; return 1; }
}
check() {	# check WHAT DENY RC TEXT
	if verdict "$2" "$3" "$4"; then ok "$1"; else bad "$1"; fi
}
DENY='quux\nbar/b\ntest_verifier/1\n'

setup
if [ "$(cat "$o/base/0/plan")" = "test_progs@0 test_verifier deny@0" ] &&
   [ "$(cat "$o/base/1/plan")" = "test_progs@1 test_maps deny@1" ]; then
	ok "base phase 1: test_progs, test_verifier, test_maps, the DENYLIST entries"
else
	bad "base's phase 1 plan: $(cat "$o"/base/*/plan | paste -sd'|')"
fi
base_results FAIL
if [ "$(cat "$o/base/0/plan")" = "test_progs@0 test_verifier deny@0 test_progs-cpuv4@0" ] &&
   [ "$(cat "$o/base/1/plan")" = "test_progs@1 test_maps deny@1 test_progs-cpuv4@1" ] &&
   [ "$(cat "$o/base/0/test_progs-cpuv4@0.allow")" = bar ] &&
   [ "$(cat "$o/base/1/test_progs-cpuv4@1.allow")" = qux ]; then
	ok "base phase 2: of the other flavours, what did not pass on patched"
else
	bad "base's phase 2 plan: $(cat "$o"/base/*/plan "$o"/base/*/*.allow | paste -sd'|')"
fi

check "a failure on both outside the DENYLIST fails the gate" 'quux\ntest_verifier/1\n' 1 \
	'test_progs/bar/b: base FAIL, patched FAIL, and not in the DENYLIST'
check "the same failure, denied, passes" "$DENY" 0 '**0 regressions**'
check "a stale test_verifier entry fails the gate" "${DENY}test_verifier/0\n" 1 \
	'DENYLIST entry test_verifier/0 matches no failing'

base_results OK
check "a regression fails the gate, denied or not" "$DENY" 1 \
	'regression: test_progs/bar/b: base PASS, patched FAIL'
check "... in every flavour" "$DENY" 1 'regression: test_progs-cpuv4/bar/b: base PASS, patched FAIL'
base_results FAIL

unit "$o/patched/0" test_progs@0 0 '#1       foo:OK\n#3/1     bar/a:SKIP\n#3/2     bar/b:OK\n#3       bar:OK (SKIP: 1/2)\n' \
	"$(json 2 1 1 0 0 '')"
unit "$o/base/0" test_progs@0 1 '#1       foo:OK\n#3/1     bar/a:OK\n#3/2     bar/b:FAIL\n#3       bar:FAIL\n' \
	"$(json 1 1 0 1 1 "$BAR_FAILS")"
check "a skip where base passed is a regression" "$DENY" 1 \
	'regression: test_progs/bar/a: base PASS, patched SKIP'
unit "$o/patched/0" test_progs@0 1 '#3/1     bar/a:OK\n#3/2     bar/b:FAIL\n#3       bar:FAIL\n' \
	"$(json 0 1 0 1 1 "$BAR_FAILS")"
check "a test missing on patched is a regression" "$DENY" 1 \
	'regression: test_progs/foo: base PASS, patched MISSING'
check "... and a test without a result" "$DENY" 1 'test_progs/foo: no result on patched'
unit "$o/patched/0" test_progs@0 1 '#1       foo:OK\n#3/1     bar/a:OK\n#3/2     bar/b:OK\n#3       bar:FAIL\n' \
	"$(json 1 2 0 1 0 '{"name":"bar","failed":true,"subtests":[]}')"
tp0 "$o/base/0" test_progs@0 OK
check "a test failing outside its subtests is a regression" "$DENY" 1 \
	'regression: test_progs/bar: base PASS, patched FAIL'
base_results FAIL
tp0 "$o/patched/0" test_progs@0 FAIL

unit "$o/patched/0" test_verifier 1 '#0/p t0 \nFailed to load BTF spec: -22\n#1/p t1 FAIL\nSummary: 0 PASSED, 0 SKIPPED, 2 FAILED\n'
check "a test_verifier failure without \"FAIL\" is a regression" "$DENY" 1 \
	'regression: test_verifier/#0/p: base PASS, patched FAIL'
unit "$o/patched/0" test_verifier 1 '#0/p t0 OK\n#1/p t1 FAIL\n'
check "a test_verifier log without its summary fails the gate" "$DENY" 1 \
	'test_verifier on patched/0: results inconsistent'
tv "$o/patched/0"

unit "$o/patched/1" test_maps 1 ''
check "test_maps' exit code is its result" "$DENY" 1 'regression: test_maps: base PASS, patched FAIL'
unit "$o/patched/1" test_maps 0 ''

echo crash >"$o/patched/1/test_maps.rc"
check "a guest that died in a unit fails the gate" "$DENY" 1 'test_maps on patched/1: the guest died in it'
echo 0 >"$o/patched/1/test_maps.rc"

echo 'unreferenced object 0xffff888004d1e000 (size 64):' >"$o/patched/1/fuzz.kmemleak"
check "a kmemleak report fails the gate" "$DENY" 1 'kmemleak: 1 reports after fuzz on patched/1'
: >"$o/patched/1/fuzz.kmemleak"
rm "$o/base/1/test_progs@1.kmemleak"
check "a missing kmemleak scan fails the gate" "$DENY" 1 'kmemleak: no scan after test_progs@1 on base/1'
: >"$o/base/1/test_progs@1.kmemleak"

echo "$(json 3 0 1 0 0 '')" >"$o/patched/1/test_progs@1.json"
check "a result line missing from the output fails the gate" "$DENY" 1 \
	'test_progs@1 on patched/1: results inconsistent'
echo "$(json 2 0 1 0 0 '')" >"$o/patched/1/test_progs@1.json"
echo 2 >"$o/patched/1/test_progs@1.rc"
check "an exit code that disagrees (2: no test ran) fails the gate" "$DENY" 1 \
	'test_progs@1 on patched/1: results inconsistent'
echo 0 >"$o/patched/1/test_progs@1.rc"

rm "$o/patched/1/test_maps.rc"
check "a unit without a result fails the gate" "$DENY" 1 'test_maps on patched/1: did not run'
unit "$o/patched/1" test_maps 0 ''

echo 'DEFINE_TEST(corge)' >>"$tmp/tests.h"
check "a test with no result on patched fails the gate" "$DENY" 1 'test_progs/corge: no result on patched'
verdict "${DENY}corge\n" 1 'deny@2 (corge) on base: not in the plan' || true
if grep -q 'corge: no result' "$tmp/out"; then bad "a test the DENYLIST names whole needs no result"
else ok "... unless the DENYLIST names it whole (its deny@I unit runs it)"; fi
sed -i '/corge/d' "$tmp/tests.h"

rm "$o/base/1/test_progs-cpuv4@1".*
check "no base result for what did not pass on patched fails the gate" "$DENY" 1 \
	'test_progs-cpuv4/qux: patched SKIP, and no result on base'
base_results FAIL

deny_unit "$o/base/0" OK
deny_unit "$o/patched/0" OK
check "a DENYLIST entry that passes on both fails the gate" "$DENY" 1 \
	'DENYLIST entry quux passes on both kernels (stale)'
deny_unit "$o/patched/0" FAIL
check "a DENYLIST entry that passes on base only is a regression" "$DENY" 1 \
	'regression: DENYLIST entry quux: base PASS, patched FAIL'
deny_unit "$o/base/0" FAIL
echo crash >"$o/patched/0/deny@0.rc"
rm "$o/patched/0/deny@0.json"
check "a DENYLIST entry that crashes the guest on both is denied" "$DENY" 0 '**0 regressions**'
deny_unit "$o/patched/0" FAIL
unit "$o/base/0" deny@0 0 '#7       grault:OK\n' "$(json 1 0 0 0 0 '')"
echo quux >"$o/base/0/deny@0.entry"
unit "$o/patched/0" deny@0 0 '#7       grault:OK\n' "$(json 1 0 0 0 0 '')"
echo quux >"$o/patched/0/deny@0.entry"
check "a DENYLIST entry that matches nothing fails the gate" "$DENY" 1 'DENYLIST entry quux matches no test'
deny_unit "$o/base/0" FAIL
deny_unit "$o/patched/0" FAIL
echo quuy >"$o/patched/0/deny@0.entry"
check "a deny@I unit that ran another entry fails the gate" "$DENY" 1 \
	'deny@0 on patched ran "quuy", the DENYLIST has "quux" there now'
deny_unit "$o/patched/0" FAIL

fuzz_unit FAIL 100000
check "the fuzzer failing fails the gate" "$DENY" 1 "the fuzzer's run did not pass"
fuzz_unit SKIP 0
check "the fuzzer skipping fails the gate" "$DENY" 1 "the fuzzer's run did not pass, or skipped"
fuzz_unit OK 99999
check "the fuzzer making too few calls fails the gate" "$DENY" 1 'the fuzzer made 99999 calls, fewer than 100000'
fuzz_unit OK 100000
check "all of it fixed, the gate passes" "$DENY" 0 '**0 regressions**'

# A base unit whose list changed runs again: patched's baz now fails.
unit "$o/patched/1" test_progs-cpuv4@1 1 '#2       baz:FAIL\n#4       qux:SKIP\n' \
	"$(json 0 0 1 1 0 '{"name":"baz","failed":true,"subtests":[]}')"
"$diff_py" --plan-base 2 "$o" 2 2 "$tmp/deny" "${SUITES[@]}" >/dev/null
if [ "$(cat "$o/base/1/test_progs-cpuv4@1.allow")" = baz ] &&
   [ ! -e "$o/base/1/test_progs-cpuv4@1.rc" ] && [ -e "$o/base/1/test_progs@1.rc" ]; then
	ok "a base unit whose list changed runs again"
else
	bad "a base unit whose list changed: $(ls "$o/base/1" | paste -sd' ')"
fi

[ $fails = 0 ] || exit 1
