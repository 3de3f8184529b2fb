#!/usr/bin/env bash
# The rate of a flake, and what the kernel was doing when a test hung.
#
#   selftests/gate/soak.sh SIDE UNIT N
#
# Runs patched's command of test_progs unit UNIT (gate.py args; the default
# flavour's) N times on SIDE's gate kernel (patched or base), each in a
# fresh guest, one guest at a time, and prints one line a run and a count
# of each outcome: pass, fail, watchdog (a test outlived test_progs' -w:
# the unit's own, or SOAK_WATCHDOG seconds), timeout (the guest's 5400 s),
# died, or "exit N"; each with "+splat" when the kernel printed one (vm/
# splat.sh).  A guest that dies before test_progs starts boots once more.
# At the watchdog the guest keeps what would tell why, what cannot block
# first: the kernel stacks of test_progs and the kworkers, SysRq's blocked
# tasks, tasks and workqueues (dmesg), then bpftool's programs
# (recursion_misses), maps and .bss maps, 30 s each.  Everything stays in
# build/gate/soak/SIDE/UNIT/RUN/; the gate's record does not change.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

[ $# = 3 ] && [[ $1 =~ ^(patched|base)$ ]] && [[ $3 =~ ^[1-9][0-9]*$ ]] ||
	die "usage: selftests/gate/soak.sh patched|base UNIT N"
side=$1 u=$2 n=$3 wd=${SOAK_WATCHDOG:-}
[ -z "$wd" ] || [[ $wd =~ ^[1-9][0-9]*$ ]] || die "SOAK_WATCHDOG: seconds, not '$wd'"
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
# Its watchdog (the unit's own unless SOAK_WATCHDOG), and no JSON (that
# is the record's).
args=()
for ((i = 1; i < ${#cmd[@]}; i++)); do
	case ${cmd[i]} in
	-w) args+=(-w "${wd:-${cmd[i + 1]}}"); i=$((i + 1)) ;;
	-J) i=$((i + 1)) ;;
	*) args+=("${cmd[i]}") ;;
	esac
done

out=$GATE/soak/$side/$u
mkdir -p "$out"
run=$GATE/run-$side-soak-$$
trap 'rm -rf "$run"' EXIT
cp -as "$GATE/run-$side" "$run"
cat >"$run/soak-guest.sh" <<'EOF'
#!/bin/sh
# In the guest: test_progs ARGS, its output to $1/out and its exit code to
# $1/rc; when a test outlives the watchdog, diagnostics to $1 (bpftool $2)
# and "watchdog" to $1/rc.  What cannot block goes first: a hung kernel may
# hang bpftool too.
dir=$1 bpftool=$2
shift 2
./test_progs "$@" >"$dir/out" 2>&1 &
tp=$!
while kill -0 $tp 2>/dev/null; do
	if grep -q 'terminating with SIGSEGV' "$dir/out"; then
		for p in /proc/[0-9]*; do
			case $(cat $p/comm 2>/dev/null) in
			kworker* | test_progs*)
				echo "== ${p#/proc/} $(cat $p/comm)"
				cat $p/stack
				;;
			esac
		done >"$dir/stacks" 2>&1
		echo "soak: diagnostics follow" >/dev/kmsg
		echo 1 >/proc/sys/kernel/sysrq
		echo w >/proc/sysrq-trigger
		echo t >/proc/sysrq-trigger
		dmesg >"$dir/dmesg"
		timeout 30 "$bpftool" prog show >"$dir/progs" 2>&1
		timeout 30 "$bpftool" map show >"$dir/maps" 2>&1
		for id in $(timeout 30 "$bpftool" map show | sed -n 's/^\([0-9]*\): .* name [^ ]*bss .*/\1/p'); do
			echo "== map $id"
			timeout 30 "$bpftool" map dump id "$id"
		done >"$dir/bss" 2>&1
		echo watchdog >"$dir/rc"
		kill -9 $tp
		exit 0
	fi
	sleep 2
done
wait $tp
echo $? >"$dir/rc"
EOF
chmod +x "$run/soak-guest.sh"

declare -A count=()
for ((r = 1; r <= n; r++)); do
	d=$out/$r
	t0=$(date +%s)
	# A guest that died before test_progs started says nothing of the
	# unit: it boots once more, as in the gate.
	for try in 1 2; do
		rm -rf "$d"
		mkdir -p "$d"
		vrc=0
		(cd "$run" && "$TOP/vm/run.sh" -k "$kernel" -m 4096 -p "$("$gate_py" cmdline)" \
			-t 5400 -l "$d/serial" -- env KBUILD_OUTPUT="$GATE/$side" \
			./soak-guest.sh "$d" "$bpftool" "${args[@]}") \
			>"$d/vm.log" 2>&1 || vrc=$?
		[ $try = 1 ] && [ ! -e "$d/out" ] && [ $vrc != 124 ] || break
	done
	failed=$(sed -n 's/^#[0-9]*  *\([^/]*\):FAIL$/\1/p' "$d/out" 2>/dev/null | sort -u | paste -sd ' ' - || true)
	rc=$(cat "$d/rc" 2>/dev/null || true)
	case $rc in
	'') [ $vrc = 124 ] && what=timeout || what=died ;;
	watchdog | 0) what=$rc ;;
	*) [ -n "$failed" ] && what=fail || what="exit $rc" ;;
	esac
	[ "$what" != 0 ] || what=pass
	# The kernel's own splats: up to the SysRq dump of a watchdog run.
	sed '/soak: diagnostics follow/q' "$d/serial" >"$d/serial.own" 2>/dev/null || true
	"$TOP/vm/splat.sh" "$d/serial.own" >"$d/splat" || what+=+splat
	count[$what]=$((${count[$what]:-0} + 1))
	say SOAK "$side $u $r/$n: $what in $(($(date +%s) - t0)) s${failed:+, failed: $failed}"
done
summary=
while read -r what; do
	summary+="${summary:+, }${count[$what]} $what"
done < <(printf '%s\n' "${!count[@]}" | sort)
say SOAK "$side $u: $n runs: $summary (build/gate/soak/$side/$u/)"
