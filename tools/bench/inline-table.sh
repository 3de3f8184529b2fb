#!/usr/bin/env bash
# inline-table.sh DIR TAG: the inlining experiment's before/after table from
# DIR/{lookup,kprobe,uprobe}-TAG.csv (the series: before) and -TAG-inline.csv
# (with patches/experiments/inline-attach-cookie.patch: after); net costs of the
# cookie and attach data variants; writes DIR/inline-TAG.{csv,md}.
set -euo pipefail
dir=$1 tag=$2
# rows "what,variant,before,after" from the net columns
rows() {
	awk -F, -v what="$1" -v vcol="$2" -v ncol="$3" -v keep="$4" '
		FNR == 1 { file++; next }
		$vcol ~ keep { v[$vcol] = 1; net[file, $vcol] = $ncol; order[++n] = $vcol }
		END { for (i = 1; i <= n; i++) if (v[order[i]]) {
			k = order[i]; v[k] = 0
			printf "%s,%s,%s,%s\n", what, k, net[1, k], net[2, k] } }
	' "$5" "$6"
}
{
	echo "measure,variant,before,after"
	rows "per access" 1 6 '^(cookie|attach data)' "$dir/lookup-$tag.csv" "$dir/lookup-$tag-inline.csv"
	rows "per kprobe hit" 2 7 '^(cookie|attach data)' "$dir/kprobe-$tag.csv" "$dir/kprobe-$tag-inline.csv"
	rows "per uprobe hit" 2 7 '^(cookie|attach data)' "$dir/uprobe-$tag.csv" "$dir/uprobe-$tag-inline.csv"
} >"$dir/inline-$tag.csv"
awk -F, 'NR == 1 { next }
	{ d = $4 - $3; printf "| %s | %s | %.2f | %.2f | %+.2f | %s |\n", $1, $2, $3, $4, d,
		($3 > 0) ? sprintf("%+.1f%%", 100 * d / $3) : "" }' "$dir/inline-$tag.csv" >"$dir/.rows"
{
	printf '| measure | variant | before (call) | after (inlined) | change | %% |\n'
	printf '|---|---|---:|---:|---:|---:|\n'
	cat "$dir/.rows"
} >"$dir/inline-$tag.md"
rm -f "$dir/.rows"
