#!/usr/bin/env bash
# make bench: every benchmark in the patched kernel, in QEMU: one boot with
# -icount shift=0 (the guest clock counts instructions: deterministic) and
# one on the wall clock of whatever accelerator ran; then the lookups again
# on the series + an experiment inlining bpf_get_attach_cookie() (after);
# then kprobe_multi and the map timers on the series' base, Debian's source
# with the same .config (tools/bench/base-kernel.sh), to compare with the
# series.
# The benchmarks are build/bench/bin/bench (tools/bench/Makefile).
# Results in build/bench/results/: CSV + Markdown per group and boot, PNG per group,
# summary.md (all tables, printed at the end).
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

out=$BUILD/bench/results
bench=$TOP/tools/bench
rm -rf "$out"
mkdir -p "$out"
accel=$(tail -n1 "$CACHE/kvm-probe" 2>/dev/null || echo tcg)
icount_label="(guest instructions: QEMU $accel, -icount shift=0)"
wall_label="(wall clock, QEMU $accel: emulated, not hardware, times)"
t0=$(date +%s)

inlined=$("$bench/inline-kernel.sh")
based=$("$bench/base-kernel.sh")
cd "$BUILD/bench/bin"
boot() {	# boot N KERNEL TAG [-i 0] -- GROUPS...
	local n=$1 kernel=$2 tag=$3 unit=ns label=$wall_label
	shift 3
	local vmopts=()
	if [ "$1" = -i ]; then
		vmopts=(-i 0) unit="guest instructions" label=$icount_label
		shift 2
	fi
	shift	# --
	say BENCH "$n/4 ${kernel#"$TOP"/}, $tag: $*"
	"$TOP/vm/run.sh" -k "$kernel" "${vmopts[@]}" -t 1500 -l "$out/$tag.serial.log" -- \
		sh "$bench/guest.sh" "$out" "$tag" "$unit" "$label" "$@" >"$out/$tag.vm.log" 2>&1 ||
		die "bench: the $tag boot failed, see $out/$tag.vm.log"
}
after=$KSRC/arch/x86/boot/bzImage
boot 1 "$after" icount -i 0 -- lookup kprobe uprobe kprobe_multi fentry lock timer usdt fetch
boot 2 "$after" wall -- lookup kprobe uprobe kprobe_multi fentry lock timer usdt fetch scale probes \
	kmulti_attach
boot 3 "$inlined" icount-inline -i 0 -- lookup kprobe uprobe
boot 4 "$based" icount-base -i 0 -- kprobe_multi timer

"$bench/inline-table.sh" "$out" icount
"$bench/base-table.sh" "$out" kprobe_multi icount
"$bench/base-table.sh" "$out" timer icount
"$bench/plot.sh" "$out"

{
	echo "# Benchmark results"
	echo
	echo "Machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')),"
	echo "$(free -g | awk '/^Mem:/ { print $2 }') GiB; QEMU $accel ($(qemu-system-x86_64 --version | head -n1 | awk '{ print $4 }')), 2 vCPUs, single-threaded TCG;"
	echo -n "kernel: $(git -C "$KSRC" log -1 --format=%s base) + the $(series_count) patches of patches/"
	if series_current; then
		echo ";"
		echo "Series: $(series_tree) (the git tree of build/linux's HEAD: selftests/records.sh);"
	else	# local kernel work, not exported yet
		echo " (not as exported: ${KSRC#"$TOP"/} is at $(git -C "$KSRC" rev-list --count base..HEAD) commits,"
		echo "$(git -C "$KSRC" log -1 --format='%h %s'), plus any uncommitted changes);"
	fi
	t=$(( $(date +%s) - t0 ))
	echo "tools/bench/run.sh took $((t / 60))m$((t % 60))s (the inlined and base kernels' builds and the four boots)."
	for f in lookup-icount lookup-wall kprobe-icount kprobe-wall uprobe-icount uprobe-wall \
		 kprobe_multi-icount kprobe_multi-wall fentry-icount fentry-wall lock-icount lock-wall \
		 timer-icount timer-wall \
		 usdt-icount usdt-wall fetch-icount fetch-wall scale-wall probes-wall kmulti_attach-wall; do
		echo
		cat "$out/$f.md"
	done
	echo
	echo "### Inlining bpf_get_attach_cookie() (experiment), before/after (net guest instructions)"
	echo
	echo "The series, then the series + patches/experiments/inline-attach-cookie.patch, each in its own"
	echo "boot with -icount shift=0 (deterministic).  Not measured on the wall clock: two TCG"
	echo "boots differ by more than the effect."
	echo
	cat "$out/inline-icount.md"
	echo
	echo "### Cost per kprobe_multi hit, the series against its base (guest instructions)"
	echo
	echo "The same bench binary's kprobe_multi group on the series and on its base (Debian's"
	echo "source, the same .config: tools/bench/base-kernel.sh), each in its own boot with"
	echo "-icount shift=0; the median per call, as in the kprobe_multi table above.  The base"
	echo "has no attach data."
	echo
	cat "$out/kprobe_multi-icount-base.md"
	echo
	echo "### Cost per kprobe hit of a map value's timer, the series against its base (guest instructions)"
	echo
	echo "The timer group on the series and on its base, as above: the map rows show what"
	echo "timers owned by attach data cost the map's (the base has no attach data rows)."
	echo
	cat "$out/timer-icount-base.md"
} >"$out/summary.md"
cat "$out/summary.md"
echo
say BENCH "results in ${out#"$TOP"/}/: summary.md, *.csv, *.md, lookup.png usdt.png scale.png"
