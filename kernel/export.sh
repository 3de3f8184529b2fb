#!/usr/bin/env bash
# Export the kernel tree's series to patches/ (or DIR): for each series of
# lib.sh's SERIES, git format-patch of its branch over the one before (base
# for the first) into DIR/NAME/, with a cover letter and stable names, so
# that apply (kernel/tree.sh) then export changes nothing.
#   kernel/export.sh [DIR]
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ -d "$KSRC/.git" ] || die "no kernel tree at $KSRC (make tree)"
git_k() { git -C "$KSRC" "$@"; }
[ -z "$(git_k status --porcelain --untracked-files=no)" ] ||
	die "$KSRC has uncommitted changes: commit them first"
last=${SERIES[-1]}
[ "$(git_k symbolic-ref -q --short HEAD)" = "$last" ] ||
	die "$KSRC: check out branch $last (the last series) to export"

# only_needs SERIES COVER: COVER lists as prerequisites only the patches of
# the series SERIES needs (lib.sh's SERIES_NEEDS), not all the series before
# it in the stack.
only_needs() {
	local n p s2 keep=
	for n in ${SERIES_NEEDS[$1]}; do
		p=base
		for s2 in "${SERIES[@]}"; do [ "$s2" = "$n" ] && break; p=$s2; done
		keep+=$(git_k log --reverse --format=%H "$p..$n" | while read -r c; do
			git_k show "$c" | git_k patch-id --stable | cut -d' ' -f1; done)$'\n'
	done
	awk -v keep="$keep" 'BEGIN { n = split(keep, k, "\n"); for (i = 1; i <= n; i++) if (k[i] != "") ok[k[i]] = 1 }
		/^prerequisite-patch-id: / && !($2 in ok) { next } { print }' "$2" >"$2.tmp"
	mv "$2.tmp" "$2"
}

out=${1:-$TOP/patches}
prev=base total=0
for s in "${SERIES[@]}"; do
	git_k merge-base --is-ancestor "$prev" "$s" ||
		die "$KSRC: branch $s does not contain $prev (rebase with --update-refs keeps them stacked)"
	n=$(git_k rev-list --count "$prev..$s")
	dir=$out/$s
	mkdir -p "$dir"
	rm -f "$dir"/[0-9][0-9][0-9][0-9]-*.patch
	if [ "$n" -gt 0 ]; then
		git_k config "branch.$s.description" >/dev/null ||
			git_k config "branch.$s.description" "$(printf '%s\n\n*** BLURB HERE ***' "$s")"
		prefix=$(git_k config "branch.$s.subjectprefix" || echo "PATCH bpf-next")
		# The cover letter gets the newest patch's author and date, not
		# the exporter's identity and clock: exports are reproducible.
		# The base is Debian's tree; the series before are prerequisites.
		git_k -c user.name="$(git_k log -1 --format=%an "$s")" \
			-c user.email="$(git_k log -1 --format=%ae "$s")" \
			format-patch -q --abbrev=12 --zero-commit --no-signature --cover-letter \
			--cover-from-description=subject --base=base --subject-prefix="$prefix" \
			-o "$dir" "$prev..$s"
		sed -i "s/^Date: .*/Date: $(git_k log -1 --format=%aD "$s")/" "$dir/0000-cover-letter.patch"
		[ -z "${SERIES_NEEDS[$s]+set}" ] || only_needs "$s" "$dir/0000-cover-letter.patch"
	else
		rm -f "$dir/0000-cover-letter.patch"
	fi
	total=$((total + n))
	prev=$s
done
# Keep tree.sh from re-applying what it just exported.
if [ "$out" = "$TOP/patches" ]; then
	record_series "$out"
fi
say EXPORT "$total patches to ${out#"$TOP"/}/{$(IFS=,; echo "${SERIES[*]}")}"
