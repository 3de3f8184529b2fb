#!/usr/bin/env bash
# The committed records beside the current series: one line per record,
# with the identity it carries and whether that is the current series', so
# that a number quoted from it is known to be of this series or of another.
# Prints; never fails (make test runs it first).  A record's identity: the
# "Series:" line of the benchmarks' and the debug runs' summaries (lib.sh's
# series_tree: the code of the series, not its messages), the gate's
# "Identity" (gate.py identity, which also covers its kernel config and
# limits).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
note() { printf 'RECORD %s\n' "$*"; }

cur=$(series_tree 2>/dev/null) || { note "no kernel tree: records not compared"; exit 0; }
series_current || note "build/linux is not patches/ as is: records compared with build/linux"
note "current series $cur (lib.sh series_tree)"

# series_of FILE: the series identity FILE's summary carries, if any
series_of() {
	sed -n -E 's/^(- series|Series): ([0-9a-f]{16}).*/\2/p' "$TOP/$1" | head -n1
}

for r in tools/bench/results/summary.md \
	$(cd "$TOP" && find selftests/debug-results -name summary.md | sort); do
	[ -f "$TOP/$r" ] || continue
	have=$(series_of "$r")
	if [ -z "$have" ]; then
		note "$r: none (an older series: the record carries no identity)"
	elif [ "$have" = "$cur" ]; then
		note "$r: $have, the current series"
	else
		note "$r: $have, not the current $cur"
	fi
done

r=selftests/gate/results/summary.md
if [ -f "$TOP/$r" ]; then
	have=$(sed -n -E 's/^Identity ([0-9a-f]{16}).*/\1/p' "$TOP/$r" | head -n1)
	if ! now=$(python3 "$TOP/selftests/gate/gate.py" identity 2>/dev/null); then
		note "$r: identity $have, the current one unknown (no kernel tree)"
	elif [ "$have" = "$now" ]; then
		note "$r: identity $have, the current one (gate.py identity)"
	else
		note "$r: identity $have, not the current $now (gate.py identity)"
	fi
fi
