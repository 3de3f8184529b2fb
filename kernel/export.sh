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

# on_base SERIES: SERIES' commits replayed without a worktree (git apply
# --cached, in an index of its own) onto base and the series it needs
# (lib.sh's SERIES_NEEDS: at most one, itself replayed so), in place of
# all the series before it; sets FROM and TIP, the range to export.  Its
# patches then are what they would be posted as: their index lines are of
# the tree they apply to, and their cover letter lists only the series
# they need as prerequisites.  Author, committer and dates are kept, so
# every export replays the same commits.
declare -A replayed=()
idx=$KSRC/.git/export-index
# The replays' index and branches go, whatever happens.
cleanup() {
	local b
	rm -f "$idx"
	for b in $(git_k for-each-ref --format='%(refname:short)' refs/heads/export/); do
		git_k config --remove-section "branch.$b" 2>/dev/null || true
		git_k branch -q -D "$b"
	done
}
trap cleanup EXIT
on_base() {
	local s=$1 n p s2 c tree msg needs who
	read -ra needs <<<"${SERIES_NEEDS[$s]}"
	[ ${#needs[@]} -le 1 ] || die "export: $s needs more than one series (SERIES_NEEDS)"
	FROM=base
	for n in "${needs[@]}"; do
		[ -n "${replayed[$n]:-}" ] || die "export: $s needs $n, which SERIES_NEEDS does not list or SERIES lists later"
		FROM=${replayed[$n]}
	done
	p=base
	for s2 in "${SERIES[@]}"; do [ "$s2" = "$s" ] && break; p=$s2; done
	TIP=$FROM
	for c in $(git_k rev-list --reverse "$p..$s"); do
		GIT_INDEX_FILE=$idx git_k read-tree "$TIP"
		git_k diff-tree -p --binary --full-index "$c^" "$c" | GIT_INDEX_FILE=$idx git_k apply --cached ||
			die "export: $(git_k log -1 --format='%h %s' "$c") does not apply to base and the series $s needs"
		tree=$(GIT_INDEX_FILE=$idx git_k write-tree)
		msg=$(git_k log -1 --format=%B "$c")
		mapfile -t who < <(git_k log -1 --format='%an%n%ae%n%aD%n%cn%n%ce%n%cD' "$c")
		TIP=$(GIT_AUTHOR_NAME=${who[0]} GIT_AUTHOR_EMAIL=${who[1]} GIT_AUTHOR_DATE=${who[2]} \
			GIT_COMMITTER_NAME=${who[3]} GIT_COMMITTER_EMAIL=${who[4]} GIT_COMMITTER_DATE=${who[5]} \
			git_k commit-tree "$tree" -p "$TIP" <<<"$msg")
	done
	replayed[$s]=$TIP
}

out=${1:-$TOP/patches}
prev=base total=0
for s in "${SERIES[@]}"; do
	git_k merge-base --is-ancestor "$prev" "$s" ||
		die "$KSRC: branch $s does not contain $prev (rebase with --update-refs keeps them stacked)"
	n=$(git_k rev-list --count "$prev..$s")
	range=$prev..$s
	[ -z "${SERIES_NEEDS[$s]+set}" ] || on_base "$s"
	dir=$out/$s
	mkdir -p "$dir"
	rm -f "$dir"/[0-9][0-9][0-9][0-9]-*.patch
	if [ "$n" -gt 0 ]; then
		git_k config "branch.$s.description" >/dev/null ||
			git_k config "branch.$s.description" "$(printf '%s\n\n*** BLURB HERE ***' "$s")"
		if [ -n "${SERIES_NEEDS[$s]+set}" ]; then
			# format-patch takes the cover letter from the range's
			# branch: the replay gets one, with SERIES' description.
			git_k branch -f "export/$s" "$TIP"
			git_k config "branch.export/$s.description" "$(git_k config "branch.$s.description")"
			range=$FROM..export/$s
		fi
		prefix=$(git_k config "branch.$s.subjectprefix" || echo "PATCH bpf-next")
		# The cover letter gets the newest patch's author and date, not
		# the exporter's identity and clock: exports are reproducible.
		# The base is Debian's tree; the series before are prerequisites
		# (only those it needs, for a series in SERIES_NEEDS: on_base).
		git_k -c user.name="$(git_k log -1 --format=%an "$s")" \
			-c user.email="$(git_k log -1 --format=%ae "$s")" \
			format-patch -q --abbrev=12 --zero-commit --no-signature --cover-letter \
			--cover-from-description=subject --base=base --subject-prefix="$prefix" \
			-o "$dir" "$range"
		sed -i "s/^Date: .*/Date: $(git_k log -1 --format=%aD "$s")/" "$dir/0000-cover-letter.patch"
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
