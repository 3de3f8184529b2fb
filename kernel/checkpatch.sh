#!/usr/bin/env bash
# scripts/checkpatch.pl --strict on every patch of the series.  Fails
# on any finding that kernel/checkpatch.accept does not list (by type and
# file, with the reason there); accepted findings are counted, not hidden.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

accept=$TOP/kernel/checkpatch.accept
bad=0 ok=0
for p in $(for s in "${SERIES[@]}"; do series_patches "$TOP/patches/$s"; done); do
	# "TYPE FILE" per finding; FILE is "-" for findings about the patch
	# itself (commit message, new files).
	findings=$(cd "$KSRC" && ./scripts/checkpatch.pl --strict --no-tree --show-types "$p" |
		awk '/^(ERROR|WARNING|CHECK):/ { if (t != "") print t, "-"; split($0, a, ":"); t = a[2]; next }
		     t != "" && /^#[0-9]+: FILE: / { f = $3; sub(/:[0-9]+:$/, "", f); print t, f; t = ""; next }
		     t != "" && /^#[0-9]+:/ { next }
		     t != "" && /^$/ { print t, "-"; t = "" }
		     END { if (t != "") print t, "-" }') || true
	while read -r type file; do
		[ -n "$type" ] || continue
		if grep -qE "^$type ($file|\\*)( |$)" "$accept"; then
			ok=$((ok + 1))
		else
			echo "checkpatch: ${p#"$TOP"/patches/}: $type in $file (not in ${accept#"$TOP"/})"
			bad=$((bad + 1))
		fi
	done <<<"$findings"
done
say CHECK "checkpatch --strict: $bad findings to fix, $ok accepted (${accept#"$TOP"/})"
[ "$bad" = 0 ]
