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

# test_progs in a guest: vm_tests NAME LABEL FILTER [vm/run.sh options].
# Logs go to $RES/NAME*.log; result names get LABEL as a prefix; a kernel
# splat fails LABEL"kernel_log_clean"(NAME).  Output goes to stdout.
vm_tests() {
	local name=$1 label=$2 tfilter=$3 rc
	shift 3
	local log=$RES/$name.serial.log tp_args=()
	[ -z "$tfilter" ] || tp_args+=(-t "$tfilter")
	[ -z "${VERBOSE_TESTS:-}" ] || tp_args+=(-v)
	if [ -n "$tfilter" ] && [ -z "$("$tp" -l "${tp_args[@]}" 2>/dev/null)" ]; then
		return 0	# no VM test matches the filter
	fi
	set +e
	# From test_progs' directory: the USDT tests trace ./test_progs and
	# ./urandom_read.
	(cd "$BUILD/selftests" && "$TOP/vm/run.sh" -l "$log" "$@" -- "$tp" "${tp_args[@]}") 2>&1 |
		tee "$RES/$name.vm.log" | grep -v '^Summary: ' |
		sed -E "s/^(PASS|FAIL|SKIP) /\1 $label/"
	rc=${PIPESTATUS[0]}
	set -e
	grep -E '^(PASS|FAIL|SKIP) ' "$RES/$name.vm.log" |
		sed -E "s/^(PASS|FAIL|SKIP) /\1 $label/" >>"$RES/results.txt" || true
	case $rc in
	0|1) result PASS "${label}kernel_log_clean($name)" ;;
	99)  result FAIL "${label}kernel_log_clean($name)" ;;
	*)   result FAIL "${label}vm_run($name, exit $rc, see $log)" ;;
	esac
}

tp=$BUILD/selftests/test_progs

# The patched kernel.  KFENCE samples an allocation every millisecond: a
# use-after-free of attach data in the lifetime tests is then caught.
patched=(-p kfence.sample_interval=1)

# Debian's stock kernel, unmodified: the same test binary, and libbpf must
# fall back to cookie + ARRAY by itself.
stock_tests() {
	local stock

	stock=$("$TOP/vm/stock-kernel.sh")
	vm_tests stock stock_kernel: 'usdt*,cookie,attach_data_feature' \
		-k "$stock/vmlinuz" -r "$stock/initrd.gz"
}

# Unfiltered, the tests run in two guests at once, one per host core (each
# guest is single-threaded TCG): the USDT tests, whose many uprobe links take
# long to detach; and all the others followed by the stock kernel's run,
# printed when both are done.
if [ -z "$filter" ]; then
	others=$("$tp" -l | grep -v '^usdt' | paste -sd, -)
	{ vm_tests others "" "$others" "${patched[@]}"; stock_tests; } >"$RES/others.out" 2>&1 &
	vm_tests usdt "" 'usdt*' "${patched[@]}"
	wait $!
	cat "$RES/others.out"
else
	vm_tests main "" "$filter" "${patched[@]}"
	if matches stock_kernel; then
		stock_tests
	fi
fi

pass=$(grep -c '^PASS ' "$RES/results.txt" || true)
fail=$(grep -c '^FAIL ' "$RES/results.txt" || true)
skip=$(grep -c '^SKIP ' "$RES/results.txt" || true)
echo "results: $RES/results.txt; serial logs: $RES/*.serial.log"
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" = 0 ]
