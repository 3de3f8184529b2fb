#!/usr/bin/env bash
# Run every test: host-side checks (selftests/host/*.sh), then the tree's
# test_progs in the VM, on the patched kernel and on Debian's stock kernels.
# Which tests run on which kernel: the lists in selftests/lists/ (test_progs'
# -a@FILE/-d@FILE).  One result line per (sub)test, read from test_progs'
# output and checked against its --json-summary; the last line is
# "N passed, N failed".  A kernel splat during a VM run is a failed test of
# its own (kernel_log_clean).  Results and logs land in build/results/.
#
#   selftests/run.sh [GLOB[/GLOB][,...]]     only the matching tests (test_progs
#                                             -a); a stock kernel's name (e.g.
#                                             stock-6.1) runs its tests
#   selftests/run.sh --debug [GLOB...]       make test-debug: the same tests on
#                                             the debug kernel (BUILD=build/debug:
#                                             KASAN, lockdep, kmemleak, KFENCE),
#                                             patched kernel only, the fuzzer's
#                                             long run, a kmemleak check per
#                                             guest; summary.md for the record
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

debug=0
[ "${1:-}" != --debug ] || { debug=1; shift; }
filter=${1:-}
RES=$BUILD/results
LISTS=$TOP/selftests/lists
mkdir -p "$RES"
# A run starts with no guest of an earlier one: its summary lists the
# guests it finds here.
rm -f "$RES"/*.json "$RES"/*.vm.log "$RES"/*.serial.log "$RES"/*.kmemleak
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

# The committed records that are not of the series as it is now: a line
# each (README.md, "The two commands").
[ $debug = 1 ] || "$TOP/selftests/records.sh"

# Host-side tests: each script is one test, named after it (not with
# --debug: they do not boot a kernel).
for t in "$TOP"/selftests/host/*.sh; do
	[ $debug = 0 ] || break
	name=$(basename "$t" .sh)
	matches "$name" || continue
	if "$t" >"$RES/$name.log" 2>&1; then
		result PASS "$name"
	else
		result FAIL "$name"
		sed 's/^/    | /' "$RES/$name.log" | tail -n 30
	fi
done

# test_progs in a guest:
#   [TPDIR=DIR] vm_tests NAME LABEL MODE [vm/run.sh options] -- [test_progs options]
# MODE is the USDT mode libbpf must choose on that kernel (the tests assert
# it).  Logs go to $RES/NAME.*; result names get LABEL as a prefix; a kernel
# splat fails LABEL"kernel_log_clean"(NAME).  Output goes to stdout.  TPDIR
# holds the test_progs to run: build/selftests (all the series) unless set.
vm_tests() {
	local name=$1 label=$2 mode=$3 rc lines vmopts=() tpopts=()
	shift 3
	while [ "$1" != -- ]; do vmopts+=("$1"); shift; done
	shift
	tpopts=("$@")
	[ "$V" != 1 ] || tpopts+=(-v)
	# The debug kernel is 3-5 times slower: test_progs' per-test watchdog
	# (120 s) likewise.
	[ $debug = 0 ] || tpopts+=(-w 600)
	# The fuzzer's settings (ATTACH_DATA_FUZZ_SEED, _CALLS, ...), if set
	# here, go to the guest, which has none of this environment.
	local v fuzzenv=() wrap=()
	for v in ${!ATTACH_DATA_FUZZ_@}; do fuzzenv+=("$v=${!v}"); done
	# The debug kernel: test_progs between two kmemleak checks.
	[ $debug = 0 ] || { wrap=("$TOP/vm/kmemleak.sh" "$RES/$name.kmemleak" --); rm -f "$RES/$name.kmemleak"; }
	set +e
	# From test_progs' directory: the USDT tests trace ./test_progs and
	# ./urandom_read.
	(cd "${TPDIR:-$BUILD/selftests}" && "$TOP/vm/run.sh" -l "$RES/$name.serial.log" "${vmopts[@]}" -- \
		"${wrap[@]}" env USDT_EXPECT_MODE="$mode" "${fuzzenv[@]}" ./test_progs "${tpopts[@]}" \
		--json-summary="$RES/$name.json") >"$RES/$name.vm.log" 2>&1
	rc=$?
	set -e
	[ "$V" != 1 ] || cat "$RES/$name.vm.log"
	lines=$("$TOP/selftests/tp-results.py" "$label" "$RES/$name.vm.log" "$RES/$name.json") || true
	printf '%s\n' "$lines" | tee -a "$RES/results.txt"
	if grep -q '^FAIL ' <<<"$lines" && [ "$V" != 1 ]; then
		# (head closing the pipe early is no failure)
		sed -n '/^All error logs:/,$p' "$RES/$name.vm.log" | sed 's/^/    | /' | head -n 200 || true
	fi
	case $rc in
	0|1) result PASS "${label}kernel_log_clean($name)" ;;
	99)  result FAIL "${label}kernel_log_clean($name)"
	     sed -n '/^vm: kernel splat/,/^  VM /p' "$RES/$name.vm.log" | sed 's/^/    | /' | head -n 200 ;;
	*)   result FAIL "${label}vm_run($name, exit $rc, see $RES/$name.vm.log)" ;;
	esac
	[ $debug = 1 ] || return 0
	if [ ! -f "$RES/$name.kmemleak" ]; then
		result FAIL "${label}kmemleak_clean($name, no scan: $RES/$name.vm.log)"
	elif grep -q '^unreferenced object' "$RES/$name.kmemleak"; then
		result FAIL "${label}kmemleak_clean($name)"
		sed 's/^/    | /' "$RES/$name.kmemleak" | head -n 200
	else
		result PASS "${label}kmemleak_clean($name)"
	fi
}

# The patched kernel.  KFENCE samples an allocation every millisecond: a
# use-after-free of attach data in the lifetime tests is then caught.
patched=(-p kfence.sample_interval=1)
# The debug kernel: KASAN's shadow and kmemleak's pool need memory, and
# everything runs 3-5 times slower; the fuzzer makes its long run.  PCI
# interrupt routing from the BIOS table, not ACPI's _PRT: under TCG with
# KASAN and lockdep the AML interpreter runs the _PRT method's loop past
# ACPI's 30 s loop timeout, the virtio devices get no interrupt, and the
# 9p root mount waits forever.  4-level paging (no5lvl): with TCG's LA57
# the direct map is at ff11..., and identify_boot_cpu() clears the boot
# CPU's feature bits before it reads them again; an interrupt in that
# window has KASAN compute its shadow start for 4 levels and report a
# spin lock of the direct map as a wild access (seen once in five boots,
# before any test; upstream's, not the series').
if [ $debug = 1 ]; then
	patched=(-p "kfence.sample_interval=1 pci=noacpi no5lvl" -m 3072 -t 7200)
	export ATTACH_DATA_FUZZ_CALLS=${ATTACH_DATA_FUZZ_CALLS:-100000}
fi

# Debian's unmodified kernels (STOCK_KERNELS, kernel/source.conf), twice:
# the same test binary as on the patched kernel, whose libbpf must fall back
# by itself (to lib.sh's usdt_expected_mode); and the test_progs of the
# series without attach data (build/selftests-usdt/selftests, results named
# "fixes+usdt@KERNEL:"), as those series would be used on their own.
# Stock 7.3 is the base the series apply to, as Debian builds it.
stock_tests() {
	local k mode dir deny
	[ $debug = 0 ] || return 0
	for k in "${STOCK_KERNELS[@]}"; do
		matches "$k" || continue
		mode=$(usdt_expected_mode "$k")
		dir=$("$TOP/vm/stock-kernel.sh" "$k")
		deny=(-d@"$LISTS/stock.deny")
		[ ! -f "$LISTS/$k.deny" ] || deny+=(-d@"$LISTS/$k.deny")
		vm_tests "$k" "$k:" "$mode" -k "$dir/vmlinuz" -r "$dir/initrd.gz" -- \
			-a@"$LISTS/stock.allow" "${deny[@]}"
		deny=()
		[ ! -f "$LISTS/$k.deny" ] || deny+=(-d@"$LISTS/$k.deny")
		TPDIR=$BUILD/selftests-usdt/selftests vm_tests "$k-usdt" "fixes+usdt@$k:" "$mode" \
			-k "$dir/vmlinuz" -r "$dir/initrd.gz" -- -a@"$LISTS/stock-usdt.allow" "${deny[@]}"
	done
}

# make test-debug's record (make test-debug-save keeps it): what ran, on
# what, how long, the counts, the fuzzer's calls and errnos, the checks.
debug_summary() {
	local t0 now f
	t0=$(cat "$BUILD/started" 2>/dev/null || echo "")
	now=$(date +%s)
	echo "# Debug run (make test-debug)"
	echo
	echo "- project: $(git -C "$TOP" log -1 --format='%h %s')$(git -C "$TOP" diff --quiet HEAD -- 2>/dev/null || echo ' (with uncommitted changes)')"
	echo "- kernel: $(git -C "$KSRC" log -1 --format='%h %s'), $(git -C "$KSRC" rev-list --count base..HEAD) commits on Debian's $SRC_PKG $SRC_VERSION"
	echo "- series: $(series_tree "$KSRC") (the git tree of that commit: selftests/records.sh)"
	echo "- config: tinyconfig + Kconfig.fragment + kernel/Kconfig.debug (generic KASAN with KASAN_VMALLOC, PROVE_LOCKING, PROVE_RCU, DEBUG_ATOMIC_SLEEP, KMEMLEAK, KFENCE sampled every 1 ms)"
	echo "- date: $(date -u +%F), on $(nproc) cores; QEMU TCG"
	[ -z "$filter" ] || echo "- tests: test_progs -a '$filter' (not the whole run: no fuzzer's long run)"
	[ -z "$t0" ] || echo "- time: $(( (now - t0) / 60 )) min $(( (now - t0) % 60 )) s from the start of make test-debug (builds included)"
	for f in "$RES"/*.vm.log; do
		echo "- guest $(basename "$f" .vm.log): $(sed -n 's/^ *VM *done in \([0-9.]*s\).*/\1/p' "$f" | tail -n1)"
	done
	echo
	echo "Results: $(grep -c '^PASS ' "$RES/results.txt") passed, $(grep -c '^FAIL ' "$RES/results.txt") failed, $(grep -c '^SKIP ' "$RES/results.txt") skipped; every splat check (kernel_log_clean), kmemleak check (kmemleak_clean) and the fuzzer's count of calls (fuzz_calls):"
	echo
	grep -E '^(PASS|FAIL) .*(kernel_log_clean|kmemleak_clean|vm_run|fuzz_calls)' "$RES/results.txt" | sed 's/^/    /'
	echo
	echo "The fuzzer's long run (calls per subtest, by errno):"
	echo
	{ grep -h '^fuzz ' "$RES/fuzz.vm.log" 2>/dev/null || true; } | sed 's/^/    /'
	echo
	local failed
	failed=$({ grep '^FAIL ' "$RES/results.txt" || true; } | cut -d' ' -f2- | paste -sd' ')
	echo "Failed: ${failed:-none}"
	for f in "$RES"/*.vm.log; do
		grep -q '^vm: kernel splat' "$f" || continue
		printf '\nKernel splat in %s:\n\n' "$(basename "$f" .vm.log)"
		sed -n '/^vm: kernel splat/,/^  VM /p' "$f" | sed 's/^/    /'
	done
	for f in "$RES"/*.kmemleak; do
		grep -q '^unreferenced object' "$f" 2>/dev/null || continue
		printf '\nkmemleak reports after %s:\n\n' "$(basename "$f" .kmemleak)"
		sed 's/^/    /' "$f"
	done
}

# Unfiltered, the tests run in two guests at once, one per host core (each
# guest is single-threaded TCG): the USDT tests and the tree's verifier_*
# tests; and all the others followed by the stock kernels' runs, printed
# when both are done.
# With --debug, the fuzzer's long run follows the others (16 min against
# 48 for the USDT and verifier tests under the debug kernel, 2026-11-26).
fuzz_long_run() {
	vm_tests fuzz "" "$(usdt_expected_mode patched)" "${patched[@]}" -- -a attach_data_fuzz
	# Its size: the calls of its subtests' summary lines.
	calls=$({ grep -h '^fuzz [a-z_]*: seed' "$RES/fuzz.vm.log" || true; } |
		sed -n 's/.* calls \([0-9]*\) .*/\1/p' | paste -sd+ | bc)
	if [ "${calls:-0}" -ge "$ATTACH_DATA_FUZZ_CALLS" ]; then
		result PASS "fuzz_calls(${calls} of $ATTACH_DATA_FUZZ_CALLS)"
	else
		result FAIL "fuzz_calls(${calls:-0} of $ATTACH_DATA_FUZZ_CALLS)"
	fi
}
if [ -z "$filter" ]; then
	nofuzz=()
	[ $debug = 0 ] || nofuzz=(-d attach_data_fuzz)
	{ vm_tests others "" "$(usdt_expected_mode patched)" "${patched[@]}" -- -d 'usdt*,verifier_*' "${nofuzz[@]}" \
		-d@"$LISTS/patched.deny"
	  [ $debug = 0 ] || fuzz_long_run
	  stock_tests; } >"$RES/others.out" 2>&1 &
	vm_tests usdt-verifier "" "$(usdt_expected_mode patched)" "${patched[@]}" -- -a 'usdt*,verifier_*' \
		-d@"$LISTS/patched.deny"
	wait $!
	cat "$RES/others.out"
else
	# Boot only if a registered test matches (the list test_progs was built
	# with); running test_progs -l on the host would touch its keyring.
	for t in $(sed -n 's/^DEFINE_TEST(\(.*\))$/\1/p' "$BUILD/selftests/prog_tests/tests.h"); do
		if matches "$t"; then
			vm_tests main "" "$(usdt_expected_mode patched)" "${patched[@]}" -- -a "$filter" \
				-d@"$LISTS/patched.deny"
			break
		fi
	done
	stock_tests
fi

pass=$(grep -c '^PASS ' "$RES/results.txt" || true)
fail=$(grep -c '^FAIL ' "$RES/results.txt" || true)
skip=$(grep -c '^SKIP ' "$RES/results.txt" || true)
[ $debug = 0 ] || debug_summary >"$RES/summary.md"
echo "results: $RES/results.txt; serial logs: $RES/*.serial.log"
[ "$skip" = 0 ] || echo "$skip skipped (SKIP lines above: the kernel or the test's setup lacks a feature)"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
