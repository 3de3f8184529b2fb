#!/usr/bin/env bash
# The gate's plan and verdicts (selftests/gate/gate.py), on made-up
# records: the units of patched, the base units that what did not pass on
# patched makes (and only those: whole after a failure, the skipped tests
# otherwise), a base unit run again when its list
# changed, a unit run again when the plan changed, an identity without
# paths; and each way a record must fail the gate -- a regression (a
# failure, a skip, a test missing, a test failing outside its subtests, a
# test_verifier block without "FAIL", test_maps' exit code), a test with a
# result on neither kernel, output that disagrees with its JSON, counts or
# exit code, a test_verifier log without its summary, a splat -- or leave
# it incomplete (a base unit still to run), and that a failure on both
# kernels is listed, not a regression, with its reason when
# selftests/gate/explained gives one, and a reason never excuses a regression;
# the table's last row, its columns' sums; the skips on both kernels, with
# their reasons from selftests/gate/skipped;
# the rounds a suspected regression gets, and their verdicts.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

gate=$TOP/selftests/gate/gate.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GATE_RESULTS=$tmp/r GATE_TESTS_H=$tmp/tests.h GATE_ALONE=$tmp/alone GATE_SLICES=2 GATE_FLAVOUR_SLICES=1
export GATE_DENYLIST=$tmp/DENYLIST GATE_EXPLAINED=$tmp/explained GATE_SKIPPED=$tmp/skipped
# One run per unit and kernel, but where the rounds are checked.
export GATE_ROUNDS=1
printf 'DEFINE_TEST(%s)\n' foo baz bar qux grault quux verifier_x >"$tmp/tests.h"
echo 'quux	# alone' >"$tmp/alone"
printf 'grault   # flaky upstream\nfoo/x  # a subtest\n' >"$tmp/DENYLIST"
fails=0
ok() { echo "ok: $1"; }
bad() {
	echo "FAIL: $1"
	fails=$((fails + 1))
}
is() {	# is WHAT GOT WANT
	if [ "$2" = "$3" ]; then ok "$1"; else bad "$1: got '$2', want '$3'"; fi
}

rec() {	# rec SIDE UNIT RC LOG [JSON]: a finished unit's record
	local d=$GATE_RESULTS/$1
	mkdir -p "$d"
	"$gate" args "$1" "$2" >"$d/$2.args"
	echo "$3" >"$d/$2.rc"
	echo 1 >"$d/$2.secs"
	printf '%b' "$4" | xz >"$d/$2.log.xz"
	rm -f "$d/$2.json.xz"
	[ -z "${5:-}" ] || echo "$5" | xz >"$d/$2.json.xz"
}
json() {	# json SUCCESS SUCCESS_SUBTEST SKIPPED FAILED FAILED_SUBTEST RESULTS
	echo "{\"success\":$1,\"success_subtest\":$2,\"skipped\":$3,\"failed\":$4,\"failed_subtest\":$5,\"results\":[$6]}"
}
BAR_FAILS='{"name":"bar","failed":true,"subtests":[{"name":"b","failed":true}]}'
# test_progs@0 (foo, bar, verifier_x): bar/b as given.
tp0() {	# tp0 SIDE BAR_B [UNIT]: UNIT, test_progs@0 or a round of it
	if [ "$2" = OK ]; then
		rec "$1" "${3:-test_progs@0}" 0 '#1 foo:OK\n#3/1 bar/a:OK\n#3/2 bar/b:OK\n#3 bar:OK\n#6 verifier_x:OK\n' \
			"$(json 3 2 0 0 0 '')"
	else
		rec "$1" "${3:-test_progs@0}" 1 '#1 foo:OK\n#3/1 bar/a:OK\n#3/2 bar/b:FAIL\n#3 bar:FAIL\n#6 verifier_x:OK\n' \
			"$(json 2 1 0 1 1 "$BAR_FAILS")"
	fi
}
summary() {	# summary EXPECT-RC [TEXT]: the verdict, its exit code and text
	local rc=0
	"$gate" summary >"$tmp/out" || rc=$?
	[ "$rc" = "$1" ] || { cat "$tmp/out"; return 1; }
	[ -z "${2:-}" ] || grep -qF -- "$2" "$tmp/out" || { cat "$tmp/out"; return 1; }
}
check() {	# check WHAT RC TEXT
	if summary "$2" "$3"; then ok "$1"; else bad "$1"; fi
}

is "the units of patched" "$("$gate" units patched | paste -sd' ')" \
	'test_progs@0 test_progs@1 test_progs@quux test_progs-no_alu32@0 test_progs-cpuv4@0 test_verifier test_maps'
is "a slice runs its tests by name, its JSON relative to the run directory" \
	"$("$gate" args patched test_progs@1 | paste -sd' ')" './test_progs -w 600 -a baz,qux -J ../out/patched/test_progs@1.json'
is "an alone test has a unit and a longer watchdog" "$("$gate" args patched test_progs@quux | paste -sd' ')" \
	'./test_progs -w 3600 -a quux -J ../out/patched/test_progs@quux.json'
is "the other flavours run the verifier and series tests" \
	"$("$gate" args patched test_progs-cpuv4@0 | sed -n 5p)" verifier_x
is "the tree's DENYLIST: a test it names is not run, a subtest is left out" \
	"$("$gate" args patched test_progs@0 | paste -sd' ')" './test_progs -w 600 -a bar,foo,verifier_x -d foo/x -J ../out/patched/test_progs@0.json'
# The identity: the kernels' source trees, wherever they are checked out.
git init -q "$tmp/k1" && git -C "$tmp/k1" -c user.name=t -c user.email=t@t commit -q --allow-empty -m base &&
	git -C "$tmp/k1" tag base && echo a >"$tmp/k1/f" && git -C "$tmp/k1" add f &&
	git -C "$tmp/k1" -c user.name=t -c user.email=t@t commit -q -m series
git clone -q "$tmp/k1" "$tmp/k2" && git -C "$tmp/k2" fetch -q --tags
is "the identity holds no path: the same trees elsewhere" "$(GATE_KSRC=$tmp/k1 "$gate" identity)" \
	"$(GATE_KSRC=$tmp/k2 "$gate" identity)"
echo b >"$tmp/k2/f" && git -C "$tmp/k2" -c user.name=t -c user.email=t@t commit -q -am other
if [ "$(GATE_KSRC=$tmp/k1 "$gate" identity)" != "$(GATE_KSRC=$tmp/k2 "$gate" identity)" ]; then
	ok "another series, another identity"
else
	bad "another series, the same identity"
fi

tp0 patched FAIL
rec patched test_progs@1 0 '#2 baz:OK\n#4 qux:SKIP\n' "$(json 2 0 1 0 0 '')"
rec patched test_progs@quux 0 '#5 quux:OK\n' "$(json 1 0 0 0 0 '')"
for fl in test_progs-no_alu32 test_progs-cpuv4; do
	rec patched "$fl@0" 0 '#6 verifier_x:OK\n' "$(json 1 0 0 0 0 '')"
done
rec patched test_verifier 1 '#0/p t0 OK\n#1/p t1 FAIL\nSummary: 1 PASSED, 0 SKIPPED, 1 FAILED\n'
rec patched test_maps 0 ''
is "patched done: nothing left on patched" "$("$gate" units patched)" ''
is "base runs what did not pass on patched" "$("$gate" units base | paste -sd' ')" \
	'test_progs@0 test_progs@1 test_verifier'
is "... a unit with a failure whole, as on patched" "$("$gate" args base test_progs@0 | sed -n 5,7p | paste -sd' ')" \
	'bar,foo,verifier_x -d foo/x'
is "... a unit with skips only, exactly those tests" "$("$gate" args base test_progs@1 | sed -n 5p)" qux
is "... test_verifier whole" "$("$gate" args base test_verifier | paste -sd' ')" 'stdbuf -oL -eL ./test_verifier'
check "base units to run: incomplete" 2 '**Incomplete**: 3 units remain'
check "... the table's last row sums its columns, base's pending" 2 '| all | 7 s | 9 / 3 / 1 / 0 | pending |  |'

tp0 base FAIL
rec base test_progs@1 0 '#4 qux:SKIP\n' "$(json 1 0 1 0 0 '')"
rec base test_verifier 1 '#0/p t0 OK\n#1/p t1 FAIL\nSummary: 1 PASSED, 0 SKIPPED, 1 FAILED\n'
check "a failure on both is listed, not a regression" 0 'test_progs/bar/b: patched FAIL, base FAIL'
check "... and the gate passes" 0 '**0 regressions**'
check "... the last row sums patched's results, base's and the regressions" 0 '| all | 7 s | 9 / 3 / 1 / 0 | 8 | 0 |'
check "a skip on both is listed, not a problem" 0 'Skipped on both kernels: 1 result of 1 test, 1 of the results without a reason'
check "... by test, with its count" 0 '- test_progs/qux (1)'
echo 'test_progs/qu?	# a cause' >"$tmp/skipped"
check "... with its reason when selftests/gate/skipped gives one" 0 '- test_progs/qux (1): a cause'
check "... and counted with one" 0 '1 test, 0 of the results without a reason'
rm "$tmp/skipped"
echo '?' >"$GATE_RESULTS/patched/test_maps.secs"
check "a unit without its time: the total has none" 0 '| all | ? s |'
echo 1 >"$GATE_RESULTS/patched/test_maps.secs"

rec base test_progs@0 1 '#1 foo:FAIL\n#3/1 bar/a:OK\n#3/2 bar/b:FAIL\n#3 bar:FAIL\n#6 verifier_x:OK\n' \
	"$(json 1 1 0 2 1 '{"name":"foo","failed":true,"subtests":[]},'"$BAR_FAILS")"
check "a failure on base of a test patched passes is not a problem" 0 '**0 regressions**'
tp0 base FAIL
check "... and counted without a reason" 0 '(2; 2 without a reason in selftests/gate/explained)'
echo 'test_progs/bar/*	# a reason given' >"$tmp/explained"
check "a failure on both with a reason shows it" 0 'test_progs/bar/b: patched FAIL, base FAIL: a reason given'

tp0 base OK
check "a regression fails the gate" 1 'regression: test_progs/bar/b: base PASS, patched FAIL'
check "... and the last row counts it and its test's" 1 '| all | 7 s | 9 / 3 / 1 / 0 | 8 | 2 |'
check "... a reason for it changes nothing" 1 'regression: test_progs/bar/b: base PASS, patched FAIL'
rm "$tmp/explained"
tp0 base FAIL

rec patched test_progs-cpuv4@0 1 '#6/1 verifier_x/a:FAIL\n#6 verifier_x:FAIL\n' \
	"$(json 0 0 0 1 1 '{"name":"verifier_x","failed":true,"subtests":[{"name":"a","failed":true}]}')"
is "a base unit for another flavour" "$("$gate" units base | paste -sd' ')" test_progs-cpuv4@0
rec base test_progs-cpuv4@0 0 '#6/1 verifier_x/a:OK\n#6 verifier_x:OK\n' "$(json 1 1 0 0 0 '')"
check "... a regression there too" 1 'regression: test_progs-cpuv4/verifier_x/a: base PASS, patched FAIL'
rec patched test_progs-cpuv4@0 0 '#6 verifier_x:OK\n' "$(json 1 0 0 0 0 '')"
rm "$GATE_RESULTS"/base/test_progs-cpuv4@0.*

rec patched test_progs@1 0 '#2 baz:OK\n#4/1 qux/a:SKIP\n#4 qux:OK (SKIP: 1/1)\n' "$(json 2 0 1 0 0 '')"
is "a base unit whose list is the same is not run again" "$("$gate" units base)" ''
rec base test_progs@1 0 '#4/1 qux/a:OK\n#4 qux:OK\n' "$(json 1 1 0 0 0 '')"
check "a skip where base passed is a regression" 1 'regression: test_progs/qux/a: base PASS, patched SKIP'
rec patched test_progs@1 0 '#4 qux:SKIP\n' "$(json 1 0 1 0 0 '')"
is "a base unit whose list changed runs again" "$("$gate" units base)" test_progs@1
check "... and the gate is incomplete until it has" 2 'base test_progs@1'
rec base test_progs@1 0 '#2 baz:OK\n#4 qux:SKIP\n' "$(json 2 0 1 0 0 '')"
check "a test missing on patched is a regression" 1 'regression: test_progs/baz: base PASS, patched MISSING'
rec base test_progs@1 0 '#4 qux:SKIP\n' "$(json 1 0 1 0 0 '')"
check "a test with a result on neither kernel fails the gate" 1 'test_progs/baz: no result on either kernel'
rec patched test_progs@1 0 '#2 baz:OK\n#4 qux:SKIP\n' "$(json 2 0 1 0 0 '')"
rec base test_progs@1 0 '#4 qux:SKIP\n' "$(json 1 0 1 0 0 '')"

rec patched test_progs@0 1 '#1 foo:OK\n#3/1 bar/a:OK\n#3/2 bar/b:OK\n#3 bar:FAIL\n#6 verifier_x:OK\n' \
	"$(json 2 2 0 1 0 '{"name":"bar","failed":true,"subtests":[]}')"
tp0 base OK
check "a test failing outside its subtests is a regression" 1 'regression: test_progs/bar: base PASS, patched FAIL'
tp0 patched FAIL
tp0 base FAIL

rec patched test_verifier 1 '#0/p t0 \nFailed to load BTF spec: -22\n#1/p t1 FAIL\nSummary: 0 PASSED, 0 SKIPPED, 2 FAILED\n'
check "a test_verifier failure without \"FAIL\" is a regression" 1 \
	'regression: test_verifier/#0/p: base PASS, patched FAIL'
rec patched test_verifier 1 '#0/p t0 OK\n#1/p t1 FAIL\n'
check "a test_verifier log without its summary fails the gate" 1 \
	'test_verifier on patched: output, JSON and exit code disagree'
rec patched test_verifier 1 '#0/p t0 OK\n#1/p t1 FAIL\nSummary: 1 PASSED, 0 SKIPPED, 1 FAILED\n'

rec patched test_maps 1 ''
rec base test_maps 0 ''
check "test_maps' exit code is its result" 1 'regression: test_maps: base PASS, patched FAIL'
rec patched test_maps 0 ''
rm "$GATE_RESULTS"/base/test_maps.*

rec patched test_progs@quux died '#5/1 quux/a:OK\n' ''
is "a unit the guest died in: base runs its tests" "$("$gate" units base)" test_progs@quux
rec base test_progs@quux 0 '#5/1 quux/a:OK\n#5/2 quux/b:OK\n#5 quux:OK\n' "$(json 1 2 0 0 0 '')"
check "... what it did not finish, passing on base, is a regression" 1 \
	'regression: test_progs/quux: base PASS, patched MISSING'
rec patched test_progs@quux 0 '#5 quux:OK\n' "$(json 1 0 0 0 0 '')"
rm "$GATE_RESULTS"/base/test_progs@quux.*

echo "$(json 3 0 1 0 0 '')" | xz >"$GATE_RESULTS/patched/test_progs@1.json.xz"
check "a result line missing from the output fails the gate" 1 \
	'test_progs@1 on patched: output, JSON and exit code disagree'
echo "$(json 2 0 1 0 0 '')" | xz >"$GATE_RESULTS/patched/test_progs@1.json.xz"
echo 2 >"$GATE_RESULTS/patched/test_progs@1.rc"
check "an exit code that disagrees (2: no test ran) fails the gate" 1 \
	'test_progs@1 on patched: output, JSON and exit code disagree'
echo 0 >"$GATE_RESULTS/patched/test_progs@1.rc"

printf '  splat 1:\n    | WARNING: CPU: 0 PID: 1 at kernel/bpf/syscall.c:1\n' >"$GATE_RESULTS/base/test_progs@0.splat"
check "a splat on either kernel fails the gate" 1 'a kernel splat on base in test_progs@0'
rm "$GATE_RESULTS/base/test_progs@0.splat"

echo './test_progs -a foo' >"$GATE_RESULTS/patched/test_progs@1.args"
is "a unit whose command the plan changed runs again" "$("$gate" units patched)" test_progs@1
check "... and the gate is incomplete until it has" 2 'patched test_progs@1'
"$gate" args patched test_progs@1 >"$GATE_RESULTS/patched/test_progs@1.args"

rm "$GATE_RESULTS"/base/test_verifier.*
rec patched test_verifier timeout '#0/p t0 OK\n'
is "a test_verifier cut short: base runs it whole" "$("$gate" units base)" test_verifier
rec base test_verifier 0 '#0/p t0 OK\n#1/p t1 OK\nSummary: 2 PASSED, 0 SKIPPED, 0 FAILED\n'
check "... a block base passes and patched never reached is a regression" 1 \
	'regression: test_verifier/#1/p: base PASS, patched MISSING'
rec patched test_verifier 1 '#0/p t0 OK\n#1/p t1 FAIL\nSummary: 1 PASSED, 0 SKIPPED, 1 FAILED\n'
rec base test_verifier 1 '#0/p t0 OK\n#1/p t1 FAIL\nSummary: 1 PASSED, 0 SKIPPED, 1 FAILED\n'

rec base test_progs@0 died '#3/1 bar/a:OK\n'
check "a base unit cut short leaves a failure without evidence" 1 \
	'test_progs/bar/b: patched FAIL, and no result on base'
tp0 base FAIL

printf '  splat 1:\n    | WARNING: CPU: 1 PID: 7 at kernel/bpf/syscall.c:1 f+0x1/0x2\n' \
	>"$GATE_RESULTS/patched/test_progs@1.splat"
is "a splat on patched: base runs the whole unit" "$("$gate" args base test_progs@1 | sed -n 5p)" baz,qux
rec base test_progs@1 0 '#2 baz:OK\n#4 qux:SKIP\n' "$(json 2 0 1 0 0 '')"
check "a splat on patched only fails the gate, quoted" 1 'WARNING: CPU: 1 PID: 7 at kernel/bpf/syscall.c:1'
printf '  splat 1:\n    | WARNING: CPU: 0 PID: 9 at kernel/bpf/syscall.c:1 f+0x7/0x9\n' \
	>"$GATE_RESULTS/base/test_progs@1.splat"
check "the same splat on both kernels is listed, not a problem" 0 'the same kernel splat on both kernels'
rm "$GATE_RESULTS"/patched/test_progs@1.splat "$GATE_RESULTS"/base/test_progs@1.*
rec base test_progs@1 0 '#4 qux:SKIP\n' "$(json 1 0 1 0 0 '')"
check "the tree's DENYLIST is named in the summary" 0 '`grault` (flaky upstream)'

# Rounds: a test that failed on patched and passed on base makes each
# kernel run its unit again, ROUNDS times in all.
export GATE_ROUNDS=3
is "no suspect, no rounds" "$("$gate" units patched)$("$gate" units base)" ''
tp0 base OK
is "a suspect: patched runs its unit again" "$("$gate" units patched | paste -sd' ')" 'test_progs@0~2 test_progs@0~3'
is "... and so does base, with patched's command" "$("$gate" args base test_progs@0~2 | paste -sd' ')" \
	'./test_progs -w 600 -a bar,foo,verifier_x -d foo/x -J ../out/base/test_progs@0~2.json'
check "... and the gate is incomplete until both have" 2 'base test_progs@0~3'
printf '  splat 1:\n    | WARNING: CPU: 0 PID: 9 at kernel/bpf/syscall.c:1 f+0x7/0x9\n' \
	>"$GATE_RESULTS/base/test_progs@0.splat"
check "... a splat on base is judged only once they have" 2 'base test_progs@0~3'
rm "$GATE_RESULTS/base/test_progs@0.splat"
rec patched test_progs@0 died '#1 foo:OK\n#3/1 bar/a:OK\n#3/2 bar/b:FAIL\n'
tp0 base OK
is "no rounds after the guest died on patched" "$("$gate" units patched)" ''
tp0 patched FAIL
printf '  splat 1:\n    | WARNING: CPU: 1 PID: 7 at kernel/bpf/syscall.c:1 f+0x1/0x2\n' \
	>"$GATE_RESULTS/patched/test_progs@0.splat"
tp0 base OK
is "... nor after a splat on patched only" "$("$gate" units patched)" ''
rm "$GATE_RESULTS/patched/test_progs@0.splat"
tp0 base OK
rec base test_progs@1 0 '#4/1 qux/a:OK\n#4 qux:OK\n' "$(json 1 1 0 0 0 '')"
is "... nor for a skip (a regression already)" "$("$gate" units patched | paste -sd' ')" 'test_progs@0~2 test_progs@0~3'
rec base test_progs@1 0 '#4 qux:SKIP\n' "$(json 1 0 1 0 0 '')"
check "... the summary counts them" 2 '4 rounds of units with a suspect to run'
is "... its rounds' JSON by name" "$("$gate" args patched test_progs@0~2 | tail -n1)" ../out/patched/test_progs@0~2.json
is "no round past ROUNDS, none spelled otherwise" "$("$gate" args patched test_progs@0~4)$("$gate" args patched test_progs@0~02)" ''
tp0 patched OK test_progs@0~2
tp0 patched FAIL test_progs@0~3
tp0 base OK test_progs@0~2
tp0 base OK test_progs@0~3
check "failing on patched in more rounds than on base: a regression" 1 \
	'regression: test_progs/bar/b: base PASS, patched FAIL; in 2 more runs of test_progs@0 on each kernel, it failed in 1 on patched and 0 on base'
check "... the table shows the runs" 1 '| 5 (3 runs each) | 2 |'
tp0 base FAIL test_progs@0~3
check "failing on base as often: a failure on both, with its counts" 0 \
	'test_progs/bar/b: patched FAIL, base PASS; in 2 more runs of test_progs@0 on each kernel, it failed in 1 on patched and 1 on base'
tp0 patched FAIL test_progs@0~2
check "... but not when patched fails more often" 1 \
	'regression: test_progs/bar/b: base PASS, patched FAIL; in 2 more runs of test_progs@0 on each kernel, it failed in 2 on patched and 1 on base'
tp0 patched OK test_progs@0~2
tp0 patched OK test_progs@0~3
tp0 base OK test_progs@0~3
check "passing every round on both: not reproduced, listed, not a problem" 0 \
	'Failed on patched in its first run only, not again in its rounds on either kernel (1)'
rec base test_progs@0~3 died '#1 foo:OK\n'
check "a round without the test's result on base is a problem" 1 \
	'test_progs/bar/b: no result on base in 1 of its 2 rounds'
check "... and a guest's death in a round on one kernel" 1 \
	'test_progs@0~3: the guest died or timed out on base only'
rec patched test_progs@0~3 timeout '#1 foo:OK\n'
check "... on both, listed" 1 'test_progs@0~3: the guest died or timed out on both kernels'
tp0 patched OK test_progs@0~3
tp0 base OK test_progs@0~3
printf '  splat 1:\n    | WARNING: CPU: 1 PID: 7 at kernel/bpf/syscall.c:1 f+0x1/0x2\n' \
	>"$GATE_RESULTS/patched/test_progs@0~2.splat"
check "a splat in a round on patched only fails the gate" 1 'a kernel splat on patched in test_progs@0~2'
printf '  splat 1:\n    | WARNING: CPU: 0 PID: 9 at kernel/bpf/syscall.c:1 f+0x7/0x9\n' \
	>"$GATE_RESULTS/base/test_progs@0~3.splat"
check "... the same splat in another round on base: on both" 0 'the same kernel splat on both kernels'
rec patched test_verifier 1 '#0/p t0 \nFailed to load BTF spec: -22\n#1/p t1 FAIL\nSummary: 0 PASSED, 0 SKIPPED, 2 FAILED\n'
is "test_verifier gets no rounds" "$("$gate" units patched)" ''
rec patched test_verifier 1 '#0/p t0 OK\n#1/p t1 FAIL\nSummary: 1 PASSED, 0 SKIPPED, 1 FAILED\n'
rm "$GATE_RESULTS"/*/test_progs@0~*
tp0 base FAIL
export GATE_ROUNDS=1

check "all of it back, the gate passes" 0 '**0 regressions**'

# The runner's self test prints a subtest that fails on purpose, which its
# JSON rightly leaves out; any other test's lines must agree with the JSON.
tpr() {	# tpr TEST: exit code of tp-results.py --strict on TEST/x:FAIL, TEST:OK
	printf '#1/1 %s/x:FAIL\n#1 %s:OK\n' "$1" "$1" >"$tmp/tp.log"
	json 1 0 0 0 0 '' >"$tmp/tp.json"
	"$TOP/selftests/tp-results.py" --strict --rc 0 x "$tmp/tp.log" "$tmp/tp.json" >/dev/null && echo 0 || echo 1
}
is "prog_tests_framework's made-up failing subtest is not a result" "$(tpr prog_tests_framework)" 0
is "... another test's failing subtest the JSON lacks is a disagreement" "$(tpr foo)" 1
[ $fails = 0 ] || exit 1
