#!/usr/bin/env bash
# make regress: the A/B regression gate.  The tree's suites (test_progs and
# its no_alu32 and cpuv4 flavours, test_verifier, test_maps), built once,
# run on the patched and the unpatched gate kernel (kernel/gate.sh: BPF CI's
# config, KASAN, lockdep, kmemleak), then selftests/gate-diff.py.  Fails on
# any regression, any failure outside selftests/lists/gate.deny, any
# kmemleak report and any kernel splat.  Results in build/regress/ (make
# regress-save keeps them in selftests/regress-results/).
#
# 1. patched: GATE_SHARDS guests side by side (one per host core: TCG runs
#    a guest on one).  Each test_progs flavour is cut into GATE_SLICES
#    slices (every GATE_SLICES-th test by number), dealt out to the guests;
#    the first guest also runs test_verifier, the last test_maps and the
#    fuzzer's long run; each DENYLIST entry of test_progs then runs alone
#    (deny@I), last, as it may crash the kernel.
# 2. base, the same binaries: test_progs (the default flavour) whole,
#    test_verifier, test_maps and the deny@I units; then, of the no_alu32
#    and cpuv4 flavours, the tests that did not pass on patched or whose
#    subtests there are not those base's default flavour ran (a test that
#    passes on patched with base's subtests cannot be a regression).
#    GATE_BASE=all runs everything on base.
#
# Each slice or suite is a unit of work with its results in
# build/regress/SIDE/GUEST/; a unit that finished is not run again while
# the kernels, the test binaries and the settings stay the same, so a run
# that was stopped (or outlived GATE_TIMEOUT) resumes where it stopped.  A
# guest that dies in a unit (a crash: oops=panic) ends that unit with exit
# code "crash", and the next boot goes on with the rest.  To run a unit
# again, delete its UNIT.rc.
#
# Environment: GATE_SUITES (default: all five), GATE_SHARDS (nproc),
# GATE_SLICES (slices per test_progs flavour, 12),
# GATE_FUZZ_CALLS (100000; fewer fails the gate), GATE_BASE (needed|all),
# GATE_TIMEOUT (per boot, s), GATE_WATCHDOG (test_progs' per-test limit, s).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

GATE=$BUILD/gate
out=$BUILD/regress
export GATE_SUITES=${GATE_SUITES:-test_progs test_progs-no_alu32 test_progs-cpuv4 test_verifier test_maps}
export GATE_FUZZ_CALLS=${GATE_FUZZ_CALLS:-100000} GATE_WATCHDOG=${GATE_WATCHDOG:-600}
fuzz_min=100000	# issue 11: the long run makes at least this many calls
shards=${GATE_SHARDS:-$(nproc)}
export GATE_SLICES=${GATE_SLICES:-12}
base_mode=${GATE_BASE:-needed}
timeout=${GATE_TIMEOUT:-28800}
case $base_mode in needed|all) ;; *) die "GATE_BASE is needed or all, not $base_mode" ;; esac

"$TOP/kernel/deps.sh" gate
"$TOP/kernel/gate.sh"
"$TOP/selftests/gate-build.sh"

# What the results depend on; another identity starts the run afresh: the
# settings, the kernels, every file the tests run or load (binaries, helper
# programs, BPF objects, modules, bpftool), the fuzzer's build, and the
# scripts that run the units in the guest.  (The DENYLIST is not: deny@I
# records the entry it ran, and gate-diff.py wants a result for every test
# it does not deny whole.)
say HASH "kernels, test binaries and files, BPF objects, modules, guest scripts"
identity=$(
	{
		echo "suites=$GATE_SUITES shards=$shards slices=$GATE_SLICES fuzz=$GATE_FUZZ_CALLS base=$base_mode watchdog=$GATE_WATCHDOG"
		cd "$GATE"
		{
			find base/arch/x86/boot/bzImage patched/arch/x86/boot/bzImage \
				"$BUILD/selftests/test_progs" selftests/tools/sbin/bpftool \
				"$TOP/selftests/gate-guest.sh" "$TOP/vm/run.sh" "$TOP/vm/guest-init.sh" -type f
			find selftests -maxdepth 1 -type f
			find selftests "$BUILD/selftests" -name '*.bpf.o' -type f
			find run-base run-patched -name '*.ko' -type f
		} | sort | xargs sha256sum
	} | sha256sum | cut -c1-16)
if [ "$(cat "$out/identity" 2>/dev/null)" != "$identity" ]; then
	[ ! -d "$out" ] || say GATE "new kernels, binaries or settings: the old results go"
	rm -rf "$out"
	mkdir -p "$out"
	echo "$identity" >"$out/identity"
else
	say GATE "resuming the run in ${out#"$TOP"/} (identity $identity)"
fi

pending() {	# pending DIR UNIT...: the units without DIR/UNIT.rc
	local d=$1 s
	shift
	for s in "$@"; do [ -f "$d/$s.rc" ] || printf '%s ' "$s"; done
}

guest() {	# guest SIDE SHARD UNIT...: boot until every unit has a result
	local side=$1 k=$2 d=$out/$1/$2 todo rc s
	shift 2
	mkdir -p "$d"
	for _ in 1 2 3 4 5 6 7 8 9; do	# boots, at most
		todo=$(pending "$d" "$@")
		[ -n "$todo" ] || return 0
		rm -f "$d"/*.started
		# Its own run directory (symlinks; copied here: in the guest,
		# under TCG over 9p, that takes minutes).
		rm -rf "$GATE/run-$side-$k"
		cp -as "$GATE/run-$side" "$GATE/run-$side-$k"
		# The guest has none of this environment: the settings go on
		# the command line.  A soft lockup is still a splat that fails
		# the gate, but the guest goes on (TCG with KASAN and lockdep
		# is slow), so the other results are there too.
		rc=0
		"$TOP/vm/run.sh" -k "$GATE/$side/arch/x86/boot/bzImage" -m 4096 -t "$timeout" \
			-p "softlockup_panic=0 nmi_watchdog=0" -l "$d/serial.$(date +%s).log" -- \
			env GATE_UNITS="$todo" GATE_SLICES="$GATE_SLICES" GATE_FUZZ_CALLS="$GATE_FUZZ_CALLS" \
			GATE_WATCHDOG="$GATE_WATCHDOG" GATE_BASE="$base_mode" \
			"$TOP/selftests/gate-guest.sh" "$side" "$side-$k" "$d" \
			>>"$d/console.log" 2>&1 || rc=$?
		[ "$rc" != 124 ] || { echo "vm: $side/$k: timed out after $timeout s" >>"$d/console.log"; return 1; }
		# A unit that started and has no result: the guest died in it.
		for s in $todo; do
			if [ -f "$d/$s.started" ] && [ ! -f "$d/$s.rc" ]; then
				echo crash >"$d/$s.rc"
				echo "vm: $side/$k: the guest died in $s (exit $rc)" >>"$d/console.log"
			fi
		done
		[ "$(pending "$d" "$@")" != "$todo" ] ||
			{ echo "vm: $side/$k: no progress (exit $rc)" >>"$d/console.log"; return 1; }
	done
	return 1
}

side() {	# side SIDE: every guest of SIDE (its plan in $out/SIDE/SHARD/plan)
	local side=$1 k pids=() rc=0 t0
	t0=$(date +%s)
	for k in $(seq 0 $((shards - 1))); do
		[ -s "$out/$side/$k/plan" ] || continue
		say VM "$side/$k: $(cat "$out/$side/$k/plan")"
		# shellcheck disable=SC2046
		guest "$side" "$k" $(cat "$out/$side/$k/plan") &
		pids+=($!)
	done
	for k in "${pids[@]}"; do wait "$k" || rc=1; done
	cat "$out/$side"/*/console.log 2>/dev/null | grep -E '^gate:.*(exit|reports|failed)|^vm:' || true
	say VM "$side: done in $(( $(date +%s) - t0 )) s"
	return $rc
}

ndeny=$(sed 's/#.*//; s/^[[:space:]]*//; s/[[:space:]]*$//; /^$/d; /^test_verifier\//d' \
	"$TOP/selftests/lists/gate.deny" | wc -l)

plan() {	# plan SIDE: each guest's units, in $out/SIDE/SHARD/plan
	local side=$1 k s j i last=$((shards - 1))
	for k in $(seq 0 $last); do
		mkdir -p "$out/$side/$k"
		[ -f "$out/$side/$k/plan" ] && continue
		{
			for s in $GATE_SUITES; do
				case $s in
				test_progs*) for j in $(seq "$k" "$shards" $((GATE_SLICES - 1))); do echo "$s@$j"; done ;;
				test_verifier) [ "$k" != 0 ] || echo "$s" ;;
				*) [ "$k" != "$last" ] || echo "$s" ;;
				esac
			done
			if [ "$side" = patched ] && [ "$k" = "$last" ] && [ "$GATE_FUZZ_CALLS" != 0 ]; then
				echo fuzz
			fi
		} | paste -sd' ' >"$out/$side/$k/plan"
	done
	deny_units "$side"
}

deny_units() {	# deny_units SIDE: a deny@I unit for every DENYLIST entry, last
	local side=$1 i k
	for i in $(seq 0 $((ndeny - 1))); do
		grep -qw "deny@$i" "$out/$side"/*/plan && continue
		k=$((i % shards))
		sed -i "s/\$/ deny@$i/; s/^ //" "$out/$side/$k/plan"
	done
}

rc=0
plan patched
side patched || rc=1
if [ $rc = 0 ]; then
	if [ "$base_mode" = all ]; then
		plan base
		side base || rc=1
	else
		# gate-diff.py --plan-base: what base must run (see above).
		for phase in 1 2; do
			[ $rc = 0 ] || break
			"$TOP/selftests/gate-diff.py" --plan-base $phase "$out" "$shards" "$GATE_SLICES" \
				"$TOP/selftests/lists/gate.deny" $GATE_SUITES
			side base || rc=1
		done
	fi
fi

{
	echo "# Regression gate: $(git -C "$GATE/base" log -1 --format=%s) vs + the series"
	echo
	echo "patched: $(git -C "$GATE/patched" log -1 --format='%h %s'), $(git -C "$KSRC" rev-list --count base..HEAD) commits on base;"
	echo "config: tinyconfig + Kconfig.fragment + the tree's selftests/bpf config, config.x86_64, config.vm + kernel/Kconfig.gate (KASAN, lockdep, PROVE_RCU, DEBUG_ATOMIC_SLEEP, kmemleak)."
	echo "$shards guests per kernel; base ran $([ "$base_mode" = all ] && echo everything || echo "test_progs, test_verifier, test_maps and the DENYLIST entries whole, and of the other flavours what did not pass on patched or ran other subtests there")."
	echo
	echo "| kernel/guest | unit: seconds (exit) |"
	echo "|---|---|"
	for d in "$out"/patched/* "$out"/base/*; do
		[ -s "$d/plan" ] || continue
		printf '| %s |' "${d#"$out"/}"
		for u in $(cat "$d/plan"); do
			[ -f "$d/$u.rc" ] && printf ' %s: %s (%s);' "$u" "$(cat "$d/$u.secs" 2>/dev/null || echo ?)" "$(cat "$d/$u.rc")"
		done
		echo ' |'
	done
	echo
	grep -h '^fuzz ' "$out"/patched/*/fuzz.log 2>/dev/null | sed 's/^/    /' || true
	echo
} >"$out/summary.md"
if [ $rc != 0 ]; then
	echo "**incomplete**: a guest timed out or stopped making progress; see build/regress/*/*/console.log. make regress resumes." >>"$out/summary.md"
fi
"$TOP/selftests/gate-diff.py" "$out" "$TOP/selftests/lists/gate.deny" \
	"$GATE/patched/tools/testing/selftests/bpf/prog_tests/tests.h" "$fuzz_min" \
	$GATE_SUITES >>"$out/summary.md" || rc=1
for log in "$out"/*/*/serial.*.log; do
	[ -f "$log" ] || continue
	if grep -q 'kmemleak.*disabled' "$log"; then
		echo "- kmemleak disabled itself (${log#"$out"/}): its scans prove nothing" >>"$out/summary.md"
		rc=1
	fi
	if ! splat=$("$TOP/vm/splat.sh" "$log"); then
		printf '\n## Kernel splat (%s)\n\n```\n%s\n```\n' "${log#"$out"/}" "$splat" >>"$out/summary.md"
		rc=1
	fi
done
cat "$out/summary.md"
[ $rc = 0 ] || die "regression gate failed: $out/summary.md"
say PASS "regression gate: 0 regressions ($out/summary.md)"
