#!/usr/bin/env bash
# make regress: the A/B regression gate.  The tree's suites (test_progs and
# its no_alu32 and cpuv4 flavours, test_verifier, test_maps), built once,
# run on the unpatched and the patched gate kernel (kernel/gate.sh: BPF CI's
# config, KASAN, lockdep, kmemleak) in two guests side by side; the fuzzer's
# long run on the patched one; then selftests/gate-diff.py.  Fails on any
# regression, any failure outside selftests/lists/gate.deny, any kmemleak
# report and any kernel splat.  Results in build/regress/ (make regress-save
# keeps them in selftests/regress-results/).
#
# Environment: GATE_SUITES (default: all five), GATE_FUZZ_CALLS (100000),
# GATE_TIMEOUT (per guest, s).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

GATE=$BUILD/gate
out=$BUILD/regress
export GATE_SUITES=${GATE_SUITES:-test_progs test_progs-no_alu32 test_progs-cpuv4 test_verifier test_maps}
export GATE_FUZZ_CALLS=${GATE_FUZZ_CALLS:-100000}
timeout=${GATE_TIMEOUT:-28800}

"$TOP/kernel/gate.sh"
"$TOP/selftests/gate-build.sh"

rm -rf "$out"
mkdir -p "$out"
t0=$(date +%s)
pids=()
for side in base patched; do
	say VM "$side: $GATE_SUITES$([ $side = base ] || echo ", fuzz $GATE_FUZZ_CALLS calls")"
	# The guest has none of this environment: the settings go on the
	# command line.  A soft lockup is still a splat that fails the gate,
	# but the guest goes on (TCG with KASAN and lockdep is slow), so the
	# other results are there too.
	"$TOP/vm/run.sh" -k "$GATE/$side/arch/x86/boot/bzImage" -m 4096 -t "$timeout" \
		-p "softlockup_panic=0 nmi_watchdog=0" -l "$out/$side.serial.log" -- \
		env GATE_SUITES="$GATE_SUITES" GATE_FUZZ_CALLS="$GATE_FUZZ_CALLS" \
		GATE_WATCHDOG="${GATE_WATCHDOG:-600}" \
		"$TOP/selftests/gate-guest.sh" "$side" "$out/$side" >"$out/$side.console.log" 2>&1 &
	pids+=($!)
done
rc=0
for i in 0 1; do
	wait "${pids[$i]}" || rc=$?
done
cat "$out/base.console.log" "$out/patched.console.log" | grep -E '^gate:|^vm:|splat|    \|' || true
say VM "both guests done in $(( $(date +%s) - t0 )) s"

{
	echo "# Regression gate: $(git -C "$GATE/base" log -1 --format=%s) vs + the series"
	echo
	echo "patched: $(git -C "$GATE/patched" log -1 --format='%h %s'), $(git -C "$KSRC" rev-list --count base..HEAD) commits on base;"
	echo "config: tinyconfig + Kconfig.fragment + the tree's selftests/bpf config, config.x86_64, config.vm + kernel/Kconfig.gate (KASAN, lockdep, PROVE_RCU, DEBUG_ATOMIC_SLEEP, kmemleak)."
	echo
	for side in base patched; do
		printf '%s guest:' "$side"
		for s in $GATE_SUITES fuzz; do
			[ -f "$out/$side/$s.secs" ] && printf ' %s %s s (exit %s);' "$s" "$(cat "$out/$side/$s.secs")" "$(cat "$out/$side/$s.rc")"
		done
		echo
	done
	echo
	grep -h '^fuzz ' "$out/patched/fuzz.log" 2>/dev/null | sed 's/^/    /' || true
	echo
} >"$out/summary.md"
diff_rc=0
"$TOP/selftests/gate-diff.py" "$out/base" "$out/patched" "$TOP/selftests/lists/gate.deny" \
	$GATE_SUITES >>"$out/summary.md" || diff_rc=1
[ ! -f "$out/patched/fuzz.rc" ] || [ "$(cat "$out/patched/fuzz.rc")" = 0 ] ||
	{ echo "- the fuzzer's long run failed: $out/patched/fuzz.log" >>"$out/summary.md"; diff_rc=1; }
for side in base patched; do
	if grep -q 'kmemleak.*disabled' "$out/$side.serial.log"; then
		echo "- kmemleak disabled itself on $side: its scan proves nothing" >>"$out/summary.md"
		diff_rc=1
	fi
	if splat=$("$TOP/vm/splat.sh" "$out/$side.serial.log"); then :; else
		printf '\n## Kernel splat on %s\n\n```\n%s\n```\n' "$side" "$splat" >>"$out/summary.md"
		diff_rc=1
	fi
done
cat "$out/summary.md"
[ $rc = 0 ] && [ $diff_rc = 0 ] || die "regression gate failed: $out/summary.md"
say PASS "regression gate: 0 regressions ($out/summary.md)"
