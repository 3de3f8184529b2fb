#!/usr/bin/env bash
# Run every test: host-side checks (selftests/host/*.sh), then test_progs in
# the VM.  One result line per test; the last line is "N passed, N failed".
# A kernel splat during the VM run is a failed test of its own
# (kernel_log_clean).  Results and logs land in build/results/.
#
#   selftests/run.sh [GLOB[/GLOB][,...]]     only the matching tests
set -euo pipefail
. "$(dirname "$0")/../kernel/lib.sh"

filter=${1:-}
RES=$BUILD/results
mkdir -p "$RES"
: >"$RES/results.txt"

matches() {	# matches NAME: does NAME pass the filter (test part of each glob)?
	[ -z "$filter" ] && return 0
	local f
	IFS=, read -ra fs <<<"$filter"
	for f in "${fs[@]}"; do
		# shellcheck disable=SC2053
		[[ $1 == ${f%%/*} ]] && return 0
	done
	return 1
}

result() {	# result VERDICT NAME
	printf '%s %s\n' "$1" "$2" | tee -a "$RES/results.txt"
}

# Host-side tests: each script is one test, named after it.
for t in "$TOP"/selftests/host/*.sh; do
	name=$(basename "$t" .sh)
	matches "$name" || continue
	if "$t" >"$RES/$name.log" 2>&1; then
		result PASS "$name"
	else
		result FAIL "$name"
		sed 's/^/    | /' "$RES/$name.log" | tail -n 30
	fi
done

# test_progs in the guest.
tp=$BUILD/selftests/test_progs
tp_args=()
[ -z "$filter" ] || tp_args+=(-t "$filter")
[ -z "${VERBOSE_TESTS:-}" ] || tp_args+=(-v)
if [ -n "$filter" ] && [ -z "$("$tp" -l "${tp_args[@]}" 2>/dev/null)" ]; then
	: # no VM test matches the filter
else
	set +e
	# KFENCE samples an allocation every millisecond: a use-after-free of
	# attach data in the lifetime tests is then caught as a splat.
	# From test_progs' directory: the USDT tests trace ./test_progs and
	# ./urandom_read.
	(cd "$BUILD/selftests" && "$TOP/vm/run.sh" -l "$RES/serial.log" -p kfence.sample_interval=1 \
		-- "$tp" "${tp_args[@]}") 2>&1 |
		tee "$RES/vm.log" | grep -v '^Summary: '
	rc=${PIPESTATUS[0]}
	set -e
	grep -E '^(PASS|FAIL|SKIP) ' "$RES/vm.log" >>"$RES/results.txt" || true
	case $rc in
	0|1) result PASS kernel_log_clean ;;
	99)  result FAIL kernel_log_clean ;;
	*)   result FAIL "vm_run (exit $rc, see $RES/serial.log)" ;;
	esac
fi

pass=$(grep -c '^PASS ' "$RES/results.txt" || true)
fail=$(grep -c '^FAIL ' "$RES/results.txt" || true)
skip=$(grep -c '^SKIP ' "$RES/results.txt" || true)
echo "results: $RES/results.txt; serial log: $RES/serial.log"
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" = 0 ]
