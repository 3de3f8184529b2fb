#!/usr/bin/env bash
# Scan a kernel log for splats: WARNING, BUG, Oops, panic, KASAN/KFENCE/UBSAN,
# lockdep and RCU stall reports, and any stray call trace.
# Exit 1 and quote each splat (its header and up to 25 more lines) on stdout;
# exit 0 when the log is clean.
set -euo pipefail
[ $# = 1 ] && [ -r "$1" ] || { echo "usage: $0 LOG" >&2; exit 2; }

awk '
BEGIN {
	pat = "(WARNING:|BUG:|Oops|general protection fault|Kernel panic|KASAN:|KFENCE:|UBSAN:|" \
	      "INFO: (possible|inconsistent|task .* blocked)|rcu: INFO:|detected stalls|" \
	      "self-detected stall|soft lockup|hard LOCKUP|Call Trace:)"
}
{ sub(/\r$/, "") }
left > 0 { print "    | " $0; left--; if (/---\[ end /) left = 0; next }
$0 ~ pat { n++; print "  splat " n ":"; print "    | " $0; left = 25 }
END { exit n > 0 }
' "$1"
