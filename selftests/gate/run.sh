#!/usr/bin/env bash
# make gate: the A/B.  The tree's suites on the patched kernel, then, on the
# unpatched base, what did not pass on patched; selftests/gate/gate.py
# plans the units and gives the verdict.  Each unit runs in a guest of its
# own, two guests side by side (TCG runs a guest on one host core), and its
# result is committed to selftests/gate/results/ as soon as it is in: work
# continued on another machine, with the same identity (gate.py identity:
# the series, the base source, the config), adds to the same record.  A run
# that is stopped loses only the units in flight.
#
# Environment: GATE_BUDGET (s: start no unit after this long; default
# none), GATE_COMMIT (0: record without committing), GATE_WORKERS (guests
# side by side; 2, one per host core: 1 leaves a core to other work).  A
# unit's guest: 2 CPUs (vm/run.sh's), 4G and a time limit of 5400 s, here,
# which gate.py identity covers.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

GATE=$BUILD/gate
RESULTS=$TOP/selftests/gate/results
export GATE_RESULTS=$RESULTS
export GATE_TESTS_H=$GATE/patched/tools/testing/selftests/bpf/prog_tests/tests.h
export GATE_DENYLIST=$GATE/patched/tools/testing/selftests/bpf/DENYLIST
gate_py=$TOP/selftests/gate/gate.py
cmdline=$("$gate_py" cmdline)
budget=${GATE_BUDGET:-0} timeout=5400 workers=${GATE_WORKERS:-2}
[[ $workers =~ ^[1-9][0-9]*$ ]] || die "GATE_WORKERS: a number of guests, not '$workers'"
t_start=$(date +%s)

commit() {	# commit MESSAGE [DIR SIDE UNIT]: DIR's record of UNIT in place of
		# SIDE's, the summary, and a commit of the record as it is now
	(
		flock 9
		if [ -n "${2:-}" ]; then
			mkdir -p "$RESULTS/$3"
			rm -f "$RESULTS/$3/$4".*
			mv -f "$2"/* "$RESULTS/$3/"
		fi
		"$gate_py" summary >"$RESULTS/summary.md" || true
		[ "${GATE_COMMIT:-1}" = 1 ] || exit 0
		git -C "$TOP" add -A "$RESULTS"
		git -C "$TOP" diff --cached --quiet -- "$RESULTS" ||
			git -C "$TOP" commit -q -m "$1" -- "$RESULTS" >/dev/null ||
			loud "gate: could not commit the record ($1): commit selftests/gate/results/ by hand"
	) 9>"$BUILD/gate.lock"
}

# The record belongs to one identity; another starts it afresh (the old
# one stays in git's history).  Only for the series as exported: kernel
# work in progress must not replace it.
series_check
identity=$("$gate_py" identity)
if [ "$(cat "$RESULTS/identity" 2>/dev/null)" != "$identity" ]; then
	[ ! -d "$RESULTS" ] || say GATE "new identity $identity: the record of $(cat "$RESULTS/identity" 2>/dev/null || echo ?) goes"
	rm -rf "$RESULTS"
	mkdir -p "$RESULTS"
	echo "$identity" >"$RESULTS/identity"
fi
say GATE "identity $identity, record in ${RESULTS#"$TOP"/}"

"$TOP/kernel/deps.sh" gate

unit() {	# unit SIDE K UNIT: run UNIT in guest K of SIDE, record it
	local side=$1 k=$2 u=$3 d=$RESULTS/$1 tmp rc t0 cmd vrc rec try
	mapfile -t cmd < <("$gate_py" args "$side" "$u")
	tmp=$GATE/out/$side/$u
	mkdir -p "$GATE/out/$side"
	rm -rf "$tmp".*
	# Its own run directory (a tree of symlinks): what a test writes to its
	# working directory stays with its guest.
	rm -rf "$GATE/run-$side-$k"
	cp -as "$GATE/run-$side" "$GATE/run-$side-$k"
	say VM "$side/$k: $u"
	t0=$(date +%s)
	# KBUILD_OUTPUT: where livepatch_trampoline finds the livepatch sample
	# module of the kernel the guest runs (BPF CI sets it).
	# The command's exit code, written by the guest: none when the guest
	# died in it (oops=panic) or ran out of time.  A guest that died
	# before the command started (at boot) says nothing of the unit: it
	# boots once more.
	for try in 1 2; do
		rm -f "$tmp.rc" "$tmp.started"
		vrc=0
		(cd "$GATE/run-$side-$k" && "$TOP/vm/run.sh" -k "$GATE/$side/arch/x86/boot/bzImage" \
			-m 4096 -p "$cmdline" -t "$timeout" -l "$tmp.serial" -- \
			sh -c ': >"$0.started"; "$@"; echo $? >"$0.rc"' "$tmp" \
			env KBUILD_OUTPUT="$GATE/$side" "${cmd[@]}") \
			>"$tmp.log" 2>&1 || vrc=$?
		[ $try = 1 ] && [ ! -e "$tmp.started" ] && [ $vrc != 124 ] || break
		say VM "$side/$k: $u: the guest died at boot (exit $vrc), once more"
	done
	if [ -s "$tmp.rc" ]; then
		rc=$(cat "$tmp.rc")
	elif [ $vrc = 124 ]; then
		rc=timeout
	else
		rc=died
	fi
	# The record: the command, the exit code, the time, the output, the
	# JSON; a splat's quote (and the serial log) only when there is one.
	# Made aside and moved in whole, under the lock: a commit holds whole
	# units only.
	rec=$tmp.rec
	rm -rf "$rec"
	mkdir -p "$rec"
	printf '%s\n' "${cmd[@]}" >"$rec/$u.args"
	echo $(( $(date +%s) - t0 )) >"$rec/$u.secs"
	xz -9 -c "$tmp.log" >"$rec/$u.log.xz"
	[ ! -f "$tmp.json" ] || xz -9 -c "$tmp.json" >"$rec/$u.json.xz"
	if [ -f "$tmp.serial" ] && ! "$TOP/vm/splat.sh" "$tmp.serial" >"$rec/$u.splat"; then
		xz -9 -c "$tmp.serial" >"$rec/$u.serial.xz"
	else
		rm -f "$rec/$u.splat"
	fi
	echo "$rc" >"$rec/$u.rc"
	commit "gate: $side $u, exit $rc in $(cat "$rec/$u.secs") s (identity $identity)" "$rec" "$side" "$u"
	say VM "$side/$k: $u exit $rc in $(cat "$d/$u.secs") s"
}

worker() {	# worker SIDE K UNIT...: every $workers-th unit from the K-th on
	local side=$1 k=$2 i=0 u
	shift 2
	for u in "$@"; do
		if [ $((i++ % workers)) = "$k" ]; then
			if spent; then
				say GATE "$side/$k: budget of $budget s spent, $u and after it left"
				return 0
			fi
			unit "$side" "$k" "$u"
		fi
	done
}

side() {	# side SIDE: build what SIDE needs, run its units
	local side=$1 units
	"$TOP/selftests/gate/kernels.sh" "$side"
	"$TOP/selftests/gate/build.sh" "$side"
	mapfile -t units < <("$gate_py" units "$side")
	say GATE "$side: ${#units[@]} units to run"
	[ ${#units[@]} != 0 ] || return 0
	local k pids=()
	for ((k = 1; k < workers; k++)); do
		worker "$side" "$k" "${units[@]}" &
		pids+=($!)
	done
	worker "$side" 0 "${units[@]}"
	[ ${#pids[@]} = 0 ] || wait "${pids[@]}"
}

spent() { [ "$budget" != 0 ] && [ $(( $(date +%s) - t_start )) -ge "$budget" ]; }
side patched
if [ -n "$("$gate_py" units base)" ] && ! spent; then
	side base
fi
rc=0
commit "gate: summary (identity $identity)"
"$gate_py" summary || rc=$?
case $rc in
0) say PASS "the gate: 0 regressions (${RESULTS#"$TOP"/}/summary.md)" ;;
2) say GATE "incomplete: make gate goes on where it stopped (${RESULTS#"$TOP"/}/summary.md)"; exit 2 ;;
*) die "the gate failed: ${RESULTS#"$TOP"/}/summary.md" ;;
esac
