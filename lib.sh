# The one library every script of the project sources (not run): paths,
# the cache, the pinned sources, output helpers and the private apt setup.
# shellcheck shell=bash
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${ATTACH_DATA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/attach-data}
BUILD=${BUILD:-$TOP/build}
KSRC=${ATTACH_DATA_KSRC:-$BUILD/linux}	# another tree: tools/bench/inline-kernel.sh
V=${V:-0}
# shellcheck source=kernel/source.conf
. "$TOP/kernel/source.conf"

# The five series, in the order they apply, each on the one before:
# patches/NAME/ (git format-patch, with its cover letter) and build/linux's
# branch NAME.  fixes: fixes of upstream code (bpf tree); usdt: libbpf's USDT
# work, no kernel change (bpf-next); kprobe-ctx: kprobe programs read their
# context at a variable offset, and libbpf's USDT uses it (bpf-next);
# kprobe-multi: fprobe's node for kprobe_multi cookies (bpf-next, with
# fprobe patches for the tracing tree); attach-data: the feature (RFC).  The
# last is the branch build/linux has checked out.
SERIES=(fixes usdt kprobe-ctx kprobe-multi attach-data)
series_patches() {	# series_patches [DIR]: DIR's patches, cover letter excluded
	ls "${1:-$TOP/patches}"/[0-9][0-9][0-9][0-9]-*.patch 2>/dev/null | grep -v '/0000-cover-letter.patch$' || true
}
series_count() {	# series_count: the number of patches of all series
	local s n=0
	for s in "${SERIES[@]}"; do n=$((n + $(series_patches "$TOP/patches/$s" | wc -l))); done
	echo "$n"
}

# The series applied to build/linux: "<hash of patches/> <HEAD after am>",
# written by tree.sh (apply) and export.sh, read by patches_roundtrip.
SERIES_STATE=$KSRC/.git/attach-data-series
series_hash() {	# series_hash [DIR]: of the SERIES' patches, in the order of their names
	local s
	for s in $(printf '%s\n' "${SERIES[@]}" | sort); do
		cat "${1:-$TOP/patches}/$s"/*.patch 2>/dev/null || true
	done | sha256sum | cut -c1-16
}
record_series() { echo "$(series_hash "$1") $(git -C "$KSRC" rev-parse HEAD)" >"$SERIES_STATE"; }
series_check() {	# series_check: build/linux's HEAD is patches/ (applied or exported), committed
	local shash srev
	read -r shash srev <"$SERIES_STATE" 2>/dev/null || die "no series state in $KSRC (make tree)"
	[ "$shash" = "$(series_hash)" ] && [ "$srev" = "$(git -C "$KSRC" rev-parse HEAD)" ] ||
		die "build/linux's HEAD is not patches/ (make tree, or commit and make export)"
	git -C "$KSRC" diff --quiet HEAD -- || die "build/linux has uncommitted changes"
}

say()  { printf '  %-7s %s\n' "$1" "$2"; }
die()  { printf 'error: %s\n' "$*" >&2; exit 1; }
loud() {
	printf '\n%s\n' '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!' >&2
	printf '!!! %s\n' "$@" >&2
	printf '%s\n\n' '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!' >&2
}
# Run a noisy command quietly unless V=1; on failure show its output.
quiet() {
	if [ "$V" = 1 ]; then
		"$@"
	else
		local log
		log=$(mktemp)
		if ! "$@" >"$log" 2>&1; then
			tail -n 40 "$log" >&2
			rm -f "$log"
			return 1
		fi
		rm -f "$log"
	fi
}

# A private apt configuration that reads only one suite, so the host's sources
# are left alone.  apt_index_update [SUITE] (default $SRC_SUITE) fetches that
# suite's index, once a run, and points apt_priv and apt_cache at it; each
# suite keeps its own sources.list and lists.
APT=$CACHE/apt
apt_suite() {
	APT_OPTS=(-o Dir::Etc::SourceList="$APT/$1.list" -o Dir::Etc::SourceParts=/dev/null
		-o Dir::State::Lists="$APT/lists/$1" -o Dir::Cache="$APT"
		-o Dir::Cache::archives="$APT/archives" -o Debug::NoLocking=1)
}
apt_suite "$SRC_SUITE"
apt_priv()  { apt-get -q "${APT_OPTS[@]}" "$@"; }
apt_cache() { apt-cache "${APT_OPTS[@]}" "$@"; }
apt_index_update() {
	local suite=${1:-$SRC_SUITE}
	apt_suite "$suite"
	mkdir -p "$APT/lists/$suite/partial" "$APT/archives/partial"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR $suite main" \
		>"$APT/$suite.list"
	say FETCH "apt index of $suite" >&2
	quiet apt_priv update >&2
}
