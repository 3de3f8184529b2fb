#!/usr/bin/env bash
# Boot a kernel in QEMU with the host root (read-only) and the project
# directory (read-write) over virtio-9p, run a command inside, and return its
# exit code.  The whole serial log is kept; a kernel splat in it fails the run
# (exit 99) even when the command passed.  A run that does not finish in
# time exits 124.
#
#   vm/run.sh [options] -- COMMAND [ARGS...]      run COMMAND in the guest
#   vm/run.sh [options] --shell                   interactive shell
#
# Options:
#   -k FILE      kernel image (default: build/linux/arch/x86/boot/bzImage)
#   -r FILE      initramfs (the stock kernel's, see vm/stock-kernel.sh)
#   -c N         vCPUs (default 2)              -m MB     memory (default 1024)
#   -i SHIFT     QEMU -icount shift=SHIFT (deterministic guest clock)
#   -t SECONDS   timeout (default 900)          -l FILE   serial log path
#   -a ACCEL     kvm or tcg (default: probe KVM once, else TCG)
#   -p ARGS      extra kernel command line
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

kernel=$KSRC/arch/x86/boot/bzImage initrd= cpus=2 mem=1024 icount= timeout=900
log= accel=${VM_ACCEL:-} extra= shell=0
while [ $# -gt 0 ]; do
	case "$1" in
	-k) kernel=$2; shift 2 ;;
	-r) initrd=$2; shift 2 ;;
	-c) cpus=$2; shift 2 ;;
	-m) mem=$2; shift 2 ;;
	-i) icount=$2; shift 2 ;;
	-t) timeout=$2; shift 2 ;;
	-l) log=$2; shift 2 ;;
	-a) accel=$2; shift 2 ;;
	-p) extra=$2; shift 2 ;;
	--shell) shell=1; shift ;;
	--) shift; break ;;
	*) die "vm/run.sh: unknown option $1 (see the header of $0)" ;;
	esac
done
[ $shell = 1 ] || [ $# -gt 0 ] || die "vm/run.sh: no command (use -- CMD or --shell)"
[ -r "$kernel" ] || die "no kernel image at $kernel (make kernel)"
"$TOP/kernel/deps.sh" vm

mkdir -p "$BUILD/vm"
run=$(mktemp -d "$BUILD/vm/run.XXXXXX")
trap 'rm -rf "$run"' EXIT
log=${log:-$BUILD/vm/serial.log}

qemu_args() {	# qemu_args ACCEL SERIAL-LOG
	local acc=$1 serial=$2 cmdline
	cmdline="console=ttyS0 root=hostroot rootfstype=9p ro"
	cmdline+=" rootflags=trans=virtio,version=9p2000.L,msize=512000"
	cmdline+=" init=$TOP/vm/guest-init.sh ATTACH_DATA_TOP=$TOP ATTACH_DATA_RUN=$run"
	# no_timer_check: the IO-APIC timer check counts timer ticks against
	# a busy loop, and a TCG guest whose host core is taken by another
	# (a second guest, a build) misses them and panics at boot ("IO-APIC
	# + timer doesn't work"): seen when the gate ran beside the debug run.
	cmdline+=" panic=-1 oops=panic ignore_loglevel tsc=reliable no_timer_check $extra"
	printf '%s\n' -nodefaults -no-reboot -display none -monitor none \
		-m "$mem" -smp "$cpus" -kernel "$kernel" -append "$cmdline" \
		-virtfs "local,path=/,mount_tag=hostroot,readonly=on,security_model=none,multidevs=remap" \
		-virtfs "local,path=$TOP,mount_tag=project,security_model=none,multidevs=remap" \
		-serial "file:$serial" -device virtio-serial-pci \
		-chardev stdio,id=out,signal=off -device virtconsole,chardev=out
	case "$acc" in
	kvm) printf '%s\n' -accel kvm -cpu host ;;
	# Single-threaded TCG: multi-threaded TCG with several vCPUs rarely
	# oopses while the kernel patches its own text.
	tcg) printf '%s\n' -accel tcg,thread=single -cpu max ;;
	esac
	[ -z "$icount" ] || printf '%s\n' -icount "shift=$icount"
	[ -z "$initrd" ] || printf '%s\n' -initrd "$initrd"
}

# KVM: a short boot probe, its answer cached per host kernel and QEMU.
probe_kvm() {
	local key cache=$CACHE/kvm-probe
	key="$(uname -r) $(qemu-system-x86_64 --version | head -n1)"
	if [ -f "$cache" ] && [ "$(head -n1 "$cache")" = "$key" ]; then
		tail -n1 "$cache"
		return
	fi
	local ans=tcg
	# Runs before the real command is written: the guest runs "true".
	if [ -w /dev/kvm ]; then
		echo true >"$run/cmd.sh"
		mapfile -t a < <(qemu_args kvm "$run/probe.log")
		if timeout -s KILL 20 qemu-system-x86_64 "${a[@]}" </dev/null >/dev/null 2>&1 &&
		   [ "$(cat "$run/exit" 2>/dev/null)" = 0 ]; then
			ans=kvm
		fi
		rm -f "$run/exit"
	fi
	mkdir -p "$CACHE"
	printf '%s\n%s\n' "$key" "$ans" >"$cache"
	echo "$ans"
}
[ -n "$accel" ] || accel=$(probe_kvm)

if [ $shell = 1 ]; then
	touch "$run/shell"
else
	{ printf 'cd %q\n' "$PWD"; printf '%q ' "$@"; echo; } >"$run/cmd.sh"
fi

mapfile -t args < <(qemu_args "$accel" "$log")
say VM "boot ${kernel#"$TOP"/} ($accel${icount:+, icount shift=$icount}, ${cpus} vCPU, ${mem} MB)" >&2
t0=$(date +%s.%N)
set +e
if [ $shell = 1 ]; then
	qemu-system-x86_64 "${args[@]}"
else
	timeout -s KILL "$timeout" qemu-system-x86_64 "${args[@]}" </dev/null
fi
qrc=$?
set -e
secs=$(printf '%.1f' "$(echo "$(date +%s.%N) - $t0" | bc)")

rc=$(cat "$run/exit" 2>/dev/null || echo none)
if [ "$rc" = none ]; then
	if [ $qrc = 137 ]; then
		echo "vm: timed out after ${timeout}s; serial log: $log" >&2
		rc=124
	else
		echo "vm: guest did not finish its command (qemu exit $qrc); serial log: $log" >&2
		tail -n 30 "$log" | sed 's/^/    | /' >&2
		rc=125
	fi
fi
if ! splat=$("$TOP/vm/splat.sh" "$log"); then
	printf 'vm: kernel splat during the run (serial log: %s):\n%s\n' "$log" "$splat" >&2
	rc=99
fi
say VM "done in ${secs}s, accel $accel, exit $rc" >&2
exit "$rc"
