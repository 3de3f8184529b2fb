#!/usr/bin/env bash
# Export the kernel tree's commits on top of the Debian base to patches/:
# git format-patch with a cover letter and stable names, so that
# apply (kernel/tree.sh) then export changes nothing.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

[ -d "$KSRC/.git" ] || die "no kernel tree at $KSRC (make tree)"
git_k() { git -C "$KSRC" "$@"; }
[ -z "$(git_k status --porcelain --untracked-files=no)" ] ||
	die "$KSRC has uncommitted changes: commit them first"

n=$(git_k rev-list --count base..HEAD)
out=${1:-$TOP/patches}
mkdir -p "$out"
rm -f "$out"/[0-9][0-9][0-9][0-9]-*.patch
if [ "$n" -gt 0 ]; then
	git_k config branch.main.description >/dev/null ||
		git_k config branch.main.description "$(printf 'bpf: attach data\n\n*** BLURB HERE ***')"
	# The cover letter gets the newest patch's author and date, not the
	# exporter's identity and clock: exports are reproducible.
	git_k -c user.name="$(git_k log -1 --format=%an)" \
		-c user.email="$(git_k log -1 --format=%ae)" \
		format-patch -q --abbrev=12 --zero-commit --no-signature --cover-letter \
		--cover-from-description=subject --base=base --subject-prefix='PATCH bpf-next' \
		-o "$out" base..HEAD
	sed -i "s/^Date: .*/Date: $(git_k log -1 --format=%aD)/" "$out/0000-cover-letter.patch"
fi
# Keep tree.sh from re-applying what it just exported.
if [ "$out" = "$TOP/patches" ]; then
	record_series "$out"
fi
say EXPORT "$n patches to ${out#"$TOP"/}"
