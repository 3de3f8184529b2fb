#!/usr/bin/env bash
# The cover letter's own words (subject line and blurb) round-trip through the
# kernel tree's branch description, which git format-patch turns back into
# the cover letter.
#   cover.sh read FILE   print the branch description held in a cover letter
set -euo pipefail

[ "${1:-}" = read ] && [ -f "${2:-}" ] || { echo "usage: $0 read COVER-LETTER" >&2; exit 2; }
# Subject: drop "[PATCH 0/N] "; blurb: the body up to the shortlog, which
# starts at the first "Name (N):" line that format-patch writes.
awk '
	/^Subject: / { sub(/^Subject: (\[[^]]*\] )?/, ""); subj = $0; insubj = 1; next }
	insubj && /^ / { subj = subj $0; next }
	insubj { insubj = 0 }
	!body && /^$/ && subj != "" { body = 1; print subj; print ""; next }
	body && /^[^ ].* \([0-9]+\):$/ { exit }
	body { print }
' "$2" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
