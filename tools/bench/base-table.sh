#!/usr/bin/env bash
# base-table.sh DIR GROUP TAG: GROUP's table on the series' base kernel
# beside the series, from DIR/GROUP-TAG-base.csv and DIR/GROUP-TAG.csv (the
# same benchmark binary in two boots, -icount shift=0: deterministic); the
# median per variant, and the series' change; writes DIR/GROUP-TAG-base.md.
set -euo pipefail
dir=$1 group=$2 tag=$3
# A group's line of callbacks per hit (timer), from each boot's own table
# (the base's is the file this script then replaces).
cbs() { [ ! -f "$1" ] || sed -n 's/^Callbacks run per hit: //p' "$1"; }
cb_base=$(cbs "$dir/$group-$tag-base.md") cb_series=$(cbs "$dir/$group-$tag.md")
awk -F, '
	FNR == 1 { file++; next }
	{ med[file, $2] = $4; if (file == 2) order[++n] = $2 }
	END {
		print "| variant | base | series | change |"
		print "|---|---:|---:|---:|"
		for (i = 1; i <= n; i++) {
			k = order[i]
			if ((1, k) in med)
				printf "| %s | %.1f | %.1f | %+.1f |\n", k, med[1, k], med[2, k],
					med[2, k] - med[1, k]
			else
				printf "| %s | (none) | %.1f | |\n", k, med[2, k]
		}
	}' "$dir/$group-$tag-base.csv" "$dir/$group-$tag.csv" >"$dir/$group-$tag-base.md"
[ -z "$cb_series" ] ||
	printf '\nCallbacks run per hit: on the base, %s; on the series, %s.\n' \
		"${cb_base:-none reported}" "$cb_series" >>"$dir/$group-$tag-base.md"
