#!/usr/bin/env bash
# Runs in one guest of the regression gate (selftests/regress.sh): units of
# work on one gate kernel, each unit's output,
# exit code and time in OUT, followed by a kmemleak scan whose reports are
# kept with the unit.  A unit with UNIT.rc in OUT is done and is not run
# again, so a run that was stopped resumes where it stopped.
#
#   gate-guest.sh SIDE GUEST OUT
# GUEST names this guest's run directory, build/gate/run-GUEST (a copy of
# build/gate/run-SIDE of its own: what a test writes to its working
# directory stays with its guest).
# Environment: GATE_UNITS (this guest's units, in order), GATE_SLICES,
# GATE_FUZZ_CALLS, GATE_WATCHDOG (test_progs' per-test limit, s), GATE_BASE
# (all: base runs every flavour whole).
#
# A unit is a suite (test_verifier, test_maps), "fuzz" (the series' fuzzer,
# GATE_FUZZ_CALLS calls), deny@I (the I-th test_progs entry of the DENYLIST,
# alone, default flavour: what it denies must fail on base too) or a
# test_progs flavour's slice, FLAVOUR@J: the tests OUT/FLAVOUR@J.allow names
# when the host wrote that file (for the flavours base runs only in part),
# otherwise every GATE_SLICES-th test by number from number J + 1 on.
set -uo pipefail
side=$1 guest=$2 out=$3
top=$(cd "$(dirname "$0")/.." && pwd)
run=$top/build/gate/run-$guest
deny=$top/selftests/lists/gate.deny
mkdir -p "$out"
kml=/sys/kernel/debug/kmemleak

# kmemleak reports an object only after it has been unreferenced for 5 s
# and through a scan: two scans, apart.  "clear" then forgets what was
# found, so each report belongs to the unit before it.  Boot's own leaks
# are found and forgotten first (after 6 s, so all of them are old enough).
scan() {	# scan FILE: reports since the last clear into FILE
	echo scan >$kml && sleep 6 && echo scan >$kml && cat $kml >"$1" &&
		echo clear >$kml
}
sleep 6
scan /dev/null || echo "gate: $side: kmemleak: the first scan failed"

unit() {	# unit NAME CMD...: run CMD in $run as unit NAME
	local s=$1 t0 rc
	shift
	echo "gate: $side: $s ($(date +%T))"
	rm -f "$out/$s.log" "$out/$s.json" "$out/$s.kmemleak"
	touch "$out/$s.started"
	t0=$(date +%s)
	(cd "$run" && "$@") >"$out/$s.log" 2>&1
	rc=$?
	echo "$(( $(date +%s) - t0 ))" >"$out/$s.secs"
	if scan "$out/$s.kmemleak"; then
		echo "gate: $side: kmemleak after $s: $(grep -c '^unreferenced object' "$out/$s.kmemleak") reports"
	else
		rm -f "$out/$s.kmemleak"
		echo "gate: $side: kmemleak after $s: scan failed"
	fi
	echo $rc >"$out/$s.rc"
	echo "gate: $side: $s exit $rc in $(cat "$out/$s.secs") s"
}

for u in $GATE_UNITS; do
	[ ! -f "$out/$u.rc" ] || { echo "gate: $side: $u done before"; continue; }
	s=${u%@*}
	case $u in
	test_progs*@*)
		if [ -f "$out/$u.allow" ]; then
			sel=(-a "@$out/$u.allow")
		elif [ "$side" = base ] && [ "$s" != test_progs ] && [ "${GATE_BASE:-}" != all ]; then
			# base runs the other flavours only in part: no list
			# is an error of the plan, not "everything"
			echo "gate: $side: $u: no $u.allow"
			echo noallow >"$out/$u.rc"
			continue
		else
			# By number, not by name: -l does not list the tests
			# whose BPF objects were not built, -n selects them too.
			sel=(-n "$(seq $((${u#*@} + 1)) "$GATE_SLICES" 4000 | paste -sd,)")
		fi
		unit "$u" "./$s" -w "${GATE_WATCHDOG:-600}" "${sel[@]}" \
			-d "@$deny" -J "$out/$u.json" ;;
	deny@*)
		# The I-th test_progs entry of the DENYLIST, alone.
		entry=$(sed 's/#.*//; s/^[[:space:]]*//; s/[[:space:]]*$//; /^[[:space:]]*$/d; /^test_verifier\//d' \
			"$deny" | sed -n "$((${u#*@} + 1))p")
		echo "$entry" >"$out/$u.entry"
		unit "$u" ./test_progs -w "${GATE_WATCHDOG:-600}" -a "$entry" -J "$out/$u.json" ;;
	fuzz)
		# The long run of the series' fuzzer, from the make-test build.
		run=$top/build/selftests unit fuzz env ATTACH_DATA_FUZZ_CALLS="$GATE_FUZZ_CALLS" \
			./test_progs -a attach_data_fuzz -J "$out/fuzz.json" ;;
	test_verifier|test_maps)
		# Line-buffered: stderr must not split a result line.
		unit "$u" stdbuf -oL -eL "./$u" ;;
	*)
		echo "gate: $side: unknown unit $u" ;;
	esac
done
exit 0
