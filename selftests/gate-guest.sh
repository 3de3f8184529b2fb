#!/usr/bin/env bash
# Runs in the guest of one gate kernel (selftests/regress.sh): the suites
# from build/gate/run-SIDE, each with its output and exit code in OUT; on
# the patched kernel also the fuzzer's long run; then a kmemleak scan.
#
#   gate-guest.sh SIDE OUT
# Environment: GATE_SUITES (the suites, in order), GATE_FUZZ_CALLS (0: none),
# GATE_WATCHDOG (test_progs' per-test limit, s).
set -uo pipefail
side=$1 out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
run=$top/build/gate/run-$side
mkdir -p "$out"
kml=/sys/kernel/debug/kmemleak

# Leaks from before the tests are not theirs: scan, then forget what the
# scan found (after 6 s, kmemleak's minimum age, so boot's allocations are
# all old enough to be found).  What the final scans report was allocated
# after this point.  A scan that fails leaves no kmemleak.scanned: the gate
# then fails (selftests/gate-diff.py).
sleep 6
kml_ok=0
echo scan >$kml && echo clear >$kml && kml_ok=1

for s in $GATE_SUITES; do
	echo "gate: $side: $s ($(date +%T))"
	t0=$(date +%s)
	cd "$run"
	case $s in
	test_progs*)
		"./$s" -w "${GATE_WATCHDOG:-600}" -d "@$top/selftests/lists/gate.deny" \
			-J "$out/$s.json" >"$out/$s.log" 2>&1 ;;
	*)
		# Line-buffered: stderr must not split a result line.
		stdbuf -oL -eL "./$s" >"$out/$s.log" 2>&1 ;;
	esac
	echo $? >"$out/$s.rc"
	echo "$(( $(date +%s) - t0 ))" >"$out/$s.secs"
	echo "gate: $side: $s exit $(cat "$out/$s.rc") in $(cat "$out/$s.secs") s"
done

if [ "$side" = patched ] && [ "${GATE_FUZZ_CALLS:-0}" != 0 ]; then
	echo "gate: $side: attach_data_fuzz, $GATE_FUZZ_CALLS calls ($(date +%T))"
	t0=$(date +%s)
	cd "$top/build/selftests"
	ATTACH_DATA_FUZZ_CALLS=$GATE_FUZZ_CALLS ./test_progs -a attach_data_fuzz \
		-J "$out/fuzz.json" >"$out/fuzz.log" 2>&1
	echo $? >"$out/fuzz.rc"
	echo "$(( $(date +%s) - t0 ))" >"$out/fuzz.secs"
fi

# kmemleak reports an object only after it has been unreferenced for 5 s
# and through a scan: two scans, apart.
if [ $kml_ok = 1 ] && echo scan >$kml && sleep 6 && echo scan >$kml &&
   cat $kml >"$out/kmemleak.txt"; then
	touch "$out/kmemleak.scanned"
	echo "gate: $side: kmemleak: $(grep -c '^unreferenced object' "$out/kmemleak.txt") reports"
else
	echo "gate: $side: kmemleak: scan failed"
fi
exit 0
