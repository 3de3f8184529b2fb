#!/bin/sh
# In a guest (vm/run.sh -- sh tools/bench/libbpf-ab/usdt-tool/run.sh): the
# usdt tool's specialized program on all of libjvm's probes, built against
# libbpf before (build/ab-libbpf/usdt/usdt: make -C tools/usdt
# LIBBPF=build/bench-ab/libbpf OUT=build/ab-libbpf/usdt, after
# libbpf-ab.sh) and after (build/usdt/usdt), twice each, alternating: the
# system's Slab, VmallocUsed and Percpu before the attach (BUILD-N-0.mem) and
# while attached (BUILD-N-1.mem), in build/ab-libbpf/slab/.
TOP=$(cd "$(dirname "$0")/../../../.." && pwd)
L=$(readlink -f /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so)
O=$TOP/build/ab-libbpf/slab
M='grep -E "Percpu|VmallocUsed|Slab" /proc/meminfo'
mkdir -p "$O"
for i in 1 2; do
	for b in before after; do
		[ $b = before ] && u=$TOP/build/ab-libbpf/usdt/usdt || u=$TOP/build/usdt/usdt
		sh -c "$M" >"$O/$b-$i-0.mem"
		"$u" --specialize -C "$L" '*' -c "sh -c '$M >$O/$b-$i-1.mem'" >"$O/$b-$i.out" 2>&1
		echo "$b $i rc=$?"
		sleep 2
	done
done
