#!/usr/bin/env bash
# vm/splat.sh on serial logs recorded from this project's guest kernel (a
# 6.12 build, in logs/): a clean boot passes; every recorded splat fails and
# is quoted.
set -euo pipefail
dir=$(dirname "$0")
splat=$dir/../../vm/splat.sh
logs=$dir/logs

"$splat" "$logs/clean-boot.log" || { echo "FAIL: clean boot log flagged"; exit 1; }
n=0
for f in "$logs"/splat-*.log; do
	want=$(head -n1 "$f.expect")
	if out=$("$splat" "$f"); then
		echo "FAIL: $f not flagged"
		exit 1
	fi
	grep -qF -- "$want" <<<"$out" || { echo "FAIL: $f: '$want' not quoted"; echo "$out"; exit 1; }
	n=$((n + 1))
done
[ $n -ge 3 ] || { echo "FAIL: only $n recorded splat logs"; exit 1; }
echo "ok: clean log passes, $n splat logs flagged"
