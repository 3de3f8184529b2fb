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

# The series, in the order they apply, each on the one before:
# patches/NAME/ (git format-patch, with its cover letter) and build/linux's
# branch NAME.  fixes: fixes of upstream code (bpf tree); usdt: libbpf's USDT
# work, no kernel change (bpf-next); kprobe-ctx: kprobe programs read their
# context at a variable offset, and libbpf's USDT uses it (bpf-next);
# attach-data: the feature's core, perf-event and uprobe_multi links, libbpf
# and its USDT use (RFC); fprobe: fprobe's node for an entry handler (the
# tracing tree); kprobe-multi: kprobe_multi cookies by that node (bpf-next);
# attach-data-links: the other link types and bpftool (RFC);
# attach-data-fields: locks, kptrs, live updates, timers, wq and task_work
# in attach data (RFC).  The last is the branch build/linux has checked out.
SERIES=(fixes usdt kprobe-ctx attach-data fprobe kprobe-multi attach-data-links attach-data-fields)
# A series that needs fewer than all the series before it: the ones it
# needs, which alone its cover letter lists as prerequisites (its patches
# apply to the base with them; kernel/export.sh).  The others need all the
# series before them.
declare -A SERIES_NEEDS=([fprobe]="" [kprobe-multi]="fprobe")
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
# series_tree [TREE]: the series' identity as records carry it: the git tree
# of TREE's (build/linux's) HEAD, the code of all the series, not their
# messages; the same on any machine that applies the same patches
series_tree() { git -C "${1:-$KSRC}" rev-parse 'HEAD^{tree}' | cut -c1-16; }
record_series() { echo "$(series_hash "$1") $(git -C "$KSRC" rev-parse HEAD)" >"$SERIES_STATE"; }
# tree_as_recorded: build/linux's HEAD is the commit recorded when patches/
# was last applied or exported, with no uncommitted change
tree_as_recorded() {
	local shash srev
	read -r shash srev <"$SERIES_STATE" 2>/dev/null || return 1
	[ "$srev" = "$(git -C "$KSRC" rev-parse HEAD)" ] &&
		[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ]
}
# series_current: build/linux is what patches/ holds, as is
series_current() {
	local shash srev
	read -r shash srev <"$SERIES_STATE" 2>/dev/null || return 1
	[ "$shash" = "$(series_hash)" ] && tree_as_recorded
}
# worktree_at DIR REV WHAT: DIR is a detached git worktree of build/linux at
# REV (WHAT names it in the progress line), made there or moved there; moving
# rewrites only the files that differ
worktree_at() {
	local dir=$1 rev=$2 what=$3
	if [ ! -e "$dir/.git" ]; then
		git -C "$KSRC" worktree prune
		say GIT "worktree ${dir#"$TOP"/} at $what (~1 min)"
		mkdir -p "$(dirname "$dir")"
		git -C "$KSRC" worktree add -q -f --detach "$dir" "$rev"
	elif [ "$(git -C "$dir" rev-parse HEAD)" != "$(git -C "$KSRC" rev-parse "$rev")" ]; then
		say GIT "${dir#"$TOP"/} to $what"
		git -C "$dir" checkout -q -f --detach "$rev"
	fi
}
# usdt_expected_mode KERNEL: the USDT mode libbpf must take there, as the
# tests print it (selftests/usdt_mode.h, with tools/common/libbpf_usdt_mode.h's
# names): attach data on the patched kernel; elsewhere cookie + ARRAY on a
# uprobe_multi link (7.3, 6.12), on per-site perf-event uprobes (6.1, which
# has no uprobe_multi), or IP + HASH (5.10, which has no BPF cookie)
usdt_expected_mode() {
	case $1 in
	patched) echo "attach data" ;;
	stock-6.1) echo "cookie + ARRAY, perf event" ;;
	stock-5.10) echo "IP + HASH, perf event" ;;
	*) echo "cookie + ARRAY, uprobe_multi" ;;
	esac
}
series_check() {	# series_check: die unless series_current
	[ -f "$SERIES_STATE" ] || die "no series state in $KSRC (make tree)"
	series_current ||
		die "build/linux is not patches/ (make tree, or commit and make export)"
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
