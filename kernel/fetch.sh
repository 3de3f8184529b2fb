#!/usr/bin/env bash
# Download Debian's linux-source-X.Y .deb (pinned version), verify it, and
# cache the source tarball outside the build tree.
# Prints the path of the cached tarball on stdout.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

mkdir -p "$CACHE/src"

tarball_for() { echo "$CACHE/src/$SRC_PKG-$1.tar.xz"; }

tar_out=$(tarball_for "$SRC_VERSION")
if [ -s "$tar_out" ]; then
	echo "$tar_out"
	exit 0
fi

apt_index_update

# apt-cache show succeeds even for a version that does not exist: decide
# from the list of versions the index has.
versions=$(apt_cache madison "$SRC_PKG" | awk -F'|' '{gsub(/ /, "", $2); print $2}')
version=$SRC_VERSION
if ! grep -qxF -- "$SRC_VERSION" <<<"$versions"; then
	series=${SRC_PKG#linux-source-}
	version=$(grep "^${series//./\\.}\\." <<<"$versions" | sort -V | tail -n1 || true)
	[ -n "$version" ] || die "$SRC_PKG: no $series.y version on $MIRROR $SRC_SUITE"
	loud "$SRC_PKG $SRC_VERSION (the tested, pinned version) is gone from the mirror." \
	     "Using the newest $series.y instead: $version (verified by apt's signed index only)." \
	     "The series will be applied with 3-way merge; update kernel/source.conf once tested."
	tar_out=$(tarball_for "$version")
	if [ -s "$tar_out" ]; then
		echo "$tar_out"
		exit 0
	fi
fi

say FETCH "$SRC_PKG $version (~170 MB)" >&2
quiet apt_priv install -y --download-only --no-install-recommends "$SRC_PKG=$version" >&2 ||
	quiet apt_priv download "$SRC_PKG=$version" >&2
deb=$(ls "$APT/archives/${SRC_PKG}_${version//:/%3a}_all.deb" 2>/dev/null ||
	ls "${SRC_PKG}_${version//:/%3a}_all.deb")
sum=$(sha256sum "$deb" | cut -d' ' -f1)
if [ "$version" = "$SRC_VERSION" ] && [ "$sum" != "$SRC_SHA256" ]; then
	die "$deb: SHA-256 $sum does not match the pinned $SRC_SHA256"
fi
say VERIFY "sha256 $sum" >&2

say EXTRACT "${tar_out##*/}" >&2
dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./usr/src/$SRC_PKG.tar.xz" >"$tar_out.tmp"
mv "$tar_out.tmp" "$tar_out"
rm -f "$deb"
echo "$tar_out"
