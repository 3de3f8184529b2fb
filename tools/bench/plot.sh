#!/usr/bin/env bash
# plot.sh DIR: one PNG per benchmark group from DIR's CSV files (gnuplot).
#   lookup.png  net cost per access, per kprobe hit, per uprobe hit (icount)
#   usdt.png    USDT net cost per hit by argument count and mode (icount)
#   scale.png   attach time, detach time, memory by number of sites (wall)
set -euo pipefail
dir=$1
cd "$dir"

# variant;per access;per kprobe hit;per uprobe hit (net, guest instructions)
awk -F, 'FNR == 1 { f++; next }
	f == 1 && $1 != "empty loop" { n++; name[n] = $1; a[$1] = $6 }
	f == 2 { k[$2] = $7 } f == 3 { u[$2] = $7 }
	END { for (i = 1; i <= n; i++) printf "%s;%s;%s;%s\n", name[i], a[name[i]],
		k[name[i]], u[name[i]] }' lookup-icount.csv kprobe-icount.csv uprobe-icount.csv >.lookup.dat
# args;attach data;cookie + ARRAY;IP + HASH (net)
awk -F, 'NR > 1 { net[$1, $2] = $8; if (!($1 in seen)) { seen[$1]; o[++n] = $1 } }
	END { for (i = 1; i <= n; i++) printf "%s;%s;%s;%s\n", o[i], net[o[i], "attach data"],
		net[o[i], "cookie + ARRAY"], net[o[i], "IP + HASH"] }' usdt-icount.csv >.usdt.dat
# sites;mode;attach;detach;memcg  (one line per sites and mode)
for m in "attach data" "cookie + ARRAY"; do
	awk -F, -v m="$m" 'NR > 1 && $2 == m { v[$1, $3] = $4; if (!($1 in s)) { s[$1]; o[++n] = $1 } }
		END { for (i = 1; i <= n; i++) printf "%s;%s;%s;%s\n", o[i],
			v[o[i], "attach_ms"], v[o[i], "detach_ms"], v[o[i], "memcg_kernel_kib"] }' \
		scale-wall.csv >".scale-${m%% *}.dat"
done

gnuplot <<'GP'
set datafile separator ";"
set terminal pngcairo size 1000,560 font "sans,10"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set grid ytics
set key top left

set output "lookup.png"
set title "Reaching per-attachment data: net cost (guest instructions, QEMU -icount shift=0)"
set ylabel "guest instructions (log scale)"
set logscale y
set yrange [1:*]
set xtics rotate by -20
plot ".lookup.dat" using 2:xtic(1) title "per access (bpf\\_loop)", \
     "" using 3 title "per kprobe hit", "" using 4 title "per uprobe hit"

set output "usdt.png"
set title "USDT end to end: net cost per hit, program reads every argument (guest instructions)"
set ylabel "guest instructions"
unset logscale y
set yrange [0:*]
set xtics norotate
set xlabel "USDT arguments"
plot ".usdt.dat" using 2:xtic(1) title "attach data", "" using 3 title "cookie + ARRAY", \
     "" using 4 title "IP + HASH"

set output "scale.png"
set terminal pngcairo size 1200,420 font "sans,10"
set multiplot layout 1,3 title "Attaching one USDT program to N sites (N specs): guest wall clock under QEMU"
set style data linespoints
set logscale x
set xlabel "sites"
set xrange [0.7:15000]
set key top left
set title "attach (ms)"
set ylabel ""
set logscale y
set yrange [*:*]
plot ".scale-attach.dat" using 1:2 title "attach data", ".scale-cookie.dat" using 1:2 title "cookie + ARRAY"
set title "detach (ms)"
plot ".scale-attach.dat" using 1:3 title "attach data", ".scale-cookie.dat" using 1:3 title "cookie + ARRAY"
set title "kernel memory charged to the memcg (KiB)"
plot ".scale-attach.dat" using 1:4 title "attach data", ".scale-cookie.dat" using 1:4 title "cookie + ARRAY"
unset multiplot
GP
rm -f .lookup.dat .usdt.dat .scale-*.dat
