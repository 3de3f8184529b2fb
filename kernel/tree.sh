#!/usr/bin/env bash
# Make build/linux a git tree: Debian's source as the (tagged) base commit and
# the series of patches/ (lib.sh's SERIES, in order) applied on top with git
# am, each ending at a branch of its name; the last is checked out.  Re-applies
# them when patches/ changed, but never throws away kernel work that is not
# exported.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

git_k() { git -C "$KSRC" "$@"; }

make_base() {
	local tarball version tag
	tarball=$("$TOP/kernel/fetch.sh")
	version=${tarball##*/$SRC_PKG-}
	version=${version%.tar.xz}
	tag="debian-${version//[~+]/_}"
	rm -rf "$KSRC.tmp"
	mkdir -p "$KSRC.tmp"
	say UNTAR "${tarball##*/} (~20 s)"
	tar -xJf "$tarball" -C "$KSRC.tmp" --strip-components=1
	say GIT "base commit of the Debian tree (~1 min)"
	(
		cd "$KSRC.tmp"
		git init -q -b main
		git config gc.auto 0
		git config core.abbrev 12
		git add -A -f  # Debian's .gitignore ignores "/*"
		# Fixed identity and date: the base commit has the same hash
		# everywhere, so a patch's base-commit line means something.
		GIT_AUTHOR_NAME=Debian GIT_AUTHOR_EMAIL=debian-kernel@lists.debian.org \
		GIT_COMMITTER_NAME=Debian GIT_COMMITTER_EMAIL=debian-kernel@lists.debian.org \
		GIT_AUTHOR_DATE='2025-01-01T00:00:00Z' GIT_COMMITTER_DATE='2025-01-01T00:00:00Z' \
			git commit -q -m "Debian $SRC_PKG $version"
		git tag base
		git tag "$tag"
		git config user.email >/dev/null || {
			git config user.name 'attach-data pipeline'
			git config user.email 'attach-data@localhost'
		}
	)
	rm -rf "$KSRC"
	mv "$KSRC.tmp" "$KSRC"
	[ "$version" = "$SRC_VERSION" ] ||
		loud "Kernel tree is $SRC_PKG $version, not the tested $SRC_VERSION."
}

apply_series() {
	local s p dir last=${SERIES[-1]}
	git_k checkout -q -f -B "$last" base
	for s in "${SERIES[@]}"; do
		dir=$TOP/patches/$s
		mapfile -t p < <(series_patches "$dir")
		say PATCH "git am ${#p[@]} patches of ${dir#"$TOP"/}"
		if [ ${#p[@]} -gt 0 ] && ! quiet git_k am -q --3way "${p[@]}"; then
			git_k am --abort >/dev/null 2>&1 || true
			die "${dir#"$TOP"/} does not apply to $(git_k log -1 --format=%s base) and the series before it"
		fi
		[ "$s" = "$last" ] || git_k branch -f "$s" HEAD
		# The cover letter's subject and blurb live in the branch
		# description, which git format-patch --cover-from-description
		# reads; its subject prefix ("PATCH bpf v2") in the branch's config.
		if [ -f "$dir/0000-cover-letter.patch" ]; then
			"$TOP/kernel/cover.sh" read "$dir/0000-cover-letter.patch" |
				git_k config "branch.$s.description" "$(cat)"
			git_k config "branch.$s.subjectprefix" \
				"$("$TOP/kernel/cover.sh" prefix "$dir/0000-cover-letter.patch")"
		fi
	done
	record_series "$TOP/patches"
}

[ -d "$KSRC/.git" ] || make_base

have=none
[ ! -f "$SERIES_STATE" ] || read -r have _ <"$SERIES_STATE"

if [ "$(series_hash)" = "$have" ]; then
	tree_as_recorded ||
		say NOTE "building local kernel changes not yet exported to patches/ (make export)"
	exit 0
fi
if [ "$have" != none ] && ! tree_as_recorded; then
	die "patches/ changed, but $KSRC holds work not in patches/.
       Export it first (make export), or drop it (make tree-reset)."
fi
apply_series
