#!/bin/sh
# Runs in the guest (from build/bench/bin): the benchmarks of one boot.
#   guest.sh OUT TAG UNIT LABEL GROUPS
# writes OUT/GROUP-TAG.{md,csv} for each of GROUPS (lookup, kprobe, uprobe,
# kprobe_multi, fentry, lock, timer, usdt, fetch, scale, probes, kmulti_attach: the names
# of the benchmarks in ./bench); stops at the first failure.  A TAG ending
# in -base is the series' base, without attach data: the kprobe, uprobe,
# kprobe_multi and timer groups leave those variants out there (bench -A).
set -eu
out=$1 tag=$2 unit=$3 label=$4
shift 4
case $tag in *-base) noad=-A ;; *) noad= ;; esac
for g in "$@"; do
	echo "bench: $g ($tag)" >&2
	case $g in
	lookup)	./bench lookup -n 300 -o "$out/lookup-$tag.csv" -u "$unit" -l "$label" ;;
	kprobe)	./bench kprobe $noad -n 20000 -r 15 -o "$out/kprobe-$tag.csv" -u "$unit" -l "$label" ;;
	uprobe)	./bench uprobe $noad -n 3000 -r 15 -o "$out/uprobe-$tag.csv" -u "$unit" -l "$label" ;;
	kprobe_multi)
		./bench kprobe_multi $noad -n 20000 -r 15 -o "$out/$g-$tag.csv" -u "$unit" -l "$label" ;;
	fentry)
		./bench fentry -n 20000 -r 15 -o "$out/$g-$tag.csv" -u "$unit" -l "$label" ;;
	lock)	./bench lock -n 20000 -r 15 -o "$out/lock-$tag.csv" -u "$unit" -l "$label" ;;
	timer)	./bench timer $noad -n 20000 -r 15 -o "$out/timer-$tag.csv" -u "$unit" -l "$label" ;;
	usdt)	./bench usdt -p 5 -r 3 -n 2000 -o "$out/usdt-$tag.csv" -u "$unit" -l "$label" ;;
	fetch)	./bench fetch -p 3 -r 3 -n 2000 -o "$out/fetch-$tag.csv" -u "$unit" -l "$label" ;;
	scale)	./bench scale -p 3 -o "$out/scale-$tag.csv" -l "$label" \
			./usdt_sites_1 ./usdt_sites_100 ./usdt_sites_1000 ./usdt_sites_10000 ;;
	kmulti_attach)
		./bench kmulti_attach -r 5 -o "$out/$g-$tag.csv" -l "$label" 100 1000 10000 ;;
	probes)	./bench probes -p 3 -o "$out/probes-$tag.csv" -l "$label" \
			"$(readlink -f /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so)" ;;
	*)	echo "guest.sh: unknown group $g" >&2; exit 2 ;;
	esac >"$out/$g-$tag.md"
done
