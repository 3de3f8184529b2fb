#!/usr/bin/env bash
# A cover letter's own words round-trip through the kernel tree's branch
# config, which git format-patch turns back into the cover letter:
#   cover.sh read FILE     the subject line and blurb (branch.NAME.description)
#   cover.sh prefix FILE   the subject prefix, "PATCH bpf v2" of
#                          "[PATCH bpf v2 0/3]" (branch.NAME.subjectprefix)
set -euo pipefail

[[ ${1:-} =~ ^(read|prefix)$ ]] && [ -f "${2:-}" ] ||
	{ echo "usage: $0 read|prefix COVER-LETTER" >&2; exit 2; }
if [ "$1" = prefix ]; then
	sed -n 's/^Subject: \[\(.*\) 0*[0-9]*\/[0-9]*\] .*/\1/p;T;q' "$2"
	exit 0
fi
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
