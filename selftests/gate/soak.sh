#!/usr/bin/env bash
# The rate of a flake, and what the kernel was doing when a test hung.
#
#   selftests/gate/soak.sh SIDE UNIT N
#
# Runs patched's command of test_progs unit UNIT (gate.py args) N times on
# SIDE's gate kernel (patched or base), each in a fresh guest, one guest at
# a time, and prints one line a run and a count of each kind of outcome.  Its
# watchdog (-w) becomes SOAK_WATCHDOG seconds (default 120).  When a test
# outlives it, the guest takes what would tell why before it stops the
# run: bpftool's programs (recursion_misses) and maps, every .bss map's
# contents, the kernel stacks of test_progs and the kworkers, and SysRq's
# blocked tasks and workqueues.  Everything stays in build/gate/soak/SIDE/
# UNIT/RUN/; nothing goes into the gate's record, which is not changed.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

[ $# = 3 ] && [[ $1 =~ ^(patched|base)$ ]] && [[ $3 =~ ^[1-9][0-9]*$ ]] ||
	die "usage: selftests/gate/soak.sh patched|base UNIT N"
side=$1 u=$2 n=$3 wd=${SOAK_WATCHDOG:-120}
[[ $wd =~ ^[1-9][0-9]*$ ]] || die "SOAK_WATCHDOG: seconds, not '$wd'"
GATE=$BUILD/gate
export GATE_RESULTS=$TOP/selftests/gate/results
export GATE_TESTS_H=$GATE/patched/tools/testing/selftests/bpf/prog_tests/tests.h
export GATE_DENYLIST=$GATE/patched/tools/testing/selftests/bpf/DENYLIST
gate_py=$TOP/selftests/gate/gate.py
kernel=$GATE/$side/arch/x86/boot/bzImage
[ -f "$kernel" ] && [ -d "$GATE/run-$side" ] ||
	die "no $side gate kernel or run directory: make gate builds them"
# The full bpftool the tree's selftests build (run-SIDE's is the bootstrap
# one, which lists neither programs nor maps).
bpftool=$GATE/selftests/tools/sbin/bpftool
[ -x "$bpftool" ] || die "no $bpftool: make gate builds it"
mapfile -t cmd < <("$gate_py" args patched "$u")
[ "${cmd[0]:-}" = ./test_progs ] || die "$u: not a test_progs unit of the default flavour"
# Its watchdog, and no JSON (that is the record's).
args=()
for ((i = 1; i < ${#cmd[@]}; i++)); do
	case ${cmd[i]} in
	-w) args+=(-w "$wd"); i=$((i + 1)) ;;
	-J) i=$((i + 1)) ;;
	*) args+=("${cmd[i]}") ;;
	esac
done

out=$GATE/soak/$side/$u
mkdir -p "$out"
run=$GATE/run-$side-soak
rm -rf "$run"
cp -as "$GATE/run-$side" "$run"
cat >"$run/soak-guest.sh" <<'EOF'
#!/bin/sh
# In the guest: test_progs ARGS, its output to $1/out; when a test outlives
# the watchdog, diagnostics to $1 (with bpftool $2) and exit 3.
dir=$1 bpftool=$2
shift 2
./test_progs "$@" >"$dir/out" 2>&1 &
tp=$!
while kill -0 $tp 2>/dev/null; do
	if grep -q 'terminating with SIGSEGV' "$dir/out"; then
		"$bpftool" prog show >"$dir/progs" 2>&1
		"$bpftool" map show >"$dir/maps" 2>&1
		for id in $("$bpftool" map show | sed -n 's/^\([0-9]*\): .* name [^ ]*bss .*/\1/p'); do
			echo "== map $id"
			"$bpftool" map dump id "$id"
		done >"$dir/bss" 2>&1
		for p in /proc/[0-9]*; do
			case $(cat $p/comm 2>/dev/null) in
			kworker* | test_progs*)
				echo "== ${p#/proc/} $(cat $p/comm)"
				cat $p/stack
				;;
			esac
		done >"$dir/stacks" 2>&1
		echo 1 >/proc/sys/kernel/sysrq
		echo w >/proc/sysrq-trigger
		echo t >/proc/sysrq-trigger
		dmesg >"$dir/dmesg"
		kill -9 $tp
		exit 3
	fi
	sleep 2
done
wait $tp
EOF
chmod +x "$run/soak-guest.sh"

declare -A count=()
for ((r = 1; r <= n; r++)); do
	d=$out/$r
	rm -rf "$d"
	mkdir -p "$d"
	t0=$(date +%s)
	rc=0
	(cd "$run" && "$TOP/vm/run.sh" -k "$kernel" -m 4096 -p "$("$gate_py" cmdline)" \
		-t 5400 -l "$d/serial" -- ./soak-guest.sh "$d" "$bpftool" "${args[@]}") >"$d/vm.log" 2>&1 || rc=$?
	failed=$(sed -n 's/^#[0-9]*  *\([^/]*\):FAIL$/\1/p' "$d/out" 2>/dev/null | sort -u | tr "\n" " " || true)
	# A hung run's SysRq dump is a splat to vm/run.sh: its diagnostics say
	# it hung.
	if [ -e "$d/progs" ]; then
		what=hung
	else
		case $rc in
		0) what=pass ;;
		99) what=splat ;;
		124) what=timeout ;;
		125) what=died ;;
		*) [ -n "$failed" ] && what=fail || what="exit $rc" ;;
		esac
	fi
	count[$what]=$((${count[$what]:-0} + 1))
	say SOAK "$side $u $r/$n: $what in $(($(date +%s) - t0)) s${failed:+, failed: $failed}"
done
summary=
for what in "${!count[@]}"; do
	summary+="${summary:+, }${count[$what]} $what"
done
say SOAK "$side $u: $n runs: $summary (build/gate/soak/$side/$u/)"
