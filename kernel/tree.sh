#!/usr/bin/env bash
# Make build/linux a git tree: Debian's source as the (tagged) base commit and
# patches/*.patch applied on top with git am.  Re-applies the series when
# patches/ changed, but never throws away kernel work that is not exported.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

git_k() { git -C "$KSRC" "$@"; }
patch_list() { ls "$TOP"/patches/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '/0000-cover-letter.patch$' || true; }

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
	local p
	git_k reset -q --hard base
	mapfile -t p < <(patch_list)
	if [ ${#p[@]} -gt 0 ]; then
		say PATCH "git am ${#p[@]} patches"
		if ! quiet git_k am -q --3way "${p[@]}"; then
			git_k am --abort >/dev/null 2>&1 || true
			die "patches/ does not apply to $(git_k log -1 --format=%s base); tree left at base"
		fi
	fi
	# The cover letter's subject and blurb live in the branch description,
	# which is where git format-patch --cover-from-description reads them.
	if [ -f "$TOP/patches/0000-cover-letter.patch" ]; then
		"$TOP/kernel/cover.sh" read "$TOP/patches/0000-cover-letter.patch" |
			git_k config branch.main.description "$(cat)"
	fi
	record_series "$TOP/patches"
}

[ -d "$KSRC/.git" ] || make_base

want=$(series_hash)
have=none head=none
[ ! -f "$SERIES_STATE" ] || read -r have head <"$SERIES_STATE"
cur=$(git_k rev-parse HEAD)
dirty=$(git_k status --porcelain --untracked-files=no)

if [ "$want" = "$have" ]; then
	if [ "$cur" != "$head" ] || [ -n "$dirty" ]; then
		say NOTE "building local kernel changes not yet exported to patches/ (make export)"
	fi
	exit 0
fi
if [ "$have" != none ] && { [ "$cur" != "$head" ] || [ -n "$dirty" ]; }; then
	die "patches/ changed, but $KSRC holds work not in patches/.
       Export it first (make export), or drop it (make tree-reset)."
fi
apply_series
