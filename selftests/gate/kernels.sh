#!/usr/bin/env bash
# The gate's kernels, as git worktrees of build/linux: build/gate/base at
# the base commit (Debian's tree, unpatched), build/gate/patched at
# build/linux's HEAD (commit kernel work first).  One config for both, made
# as BPF CI makes its config: an empty .config, the patched tree's
# tools/testing/selftests/bpf/{config,config.vm,config.x86_64} and
# tools/testing/selftests/sched_ext/config, in that order, then
# selftests/gate/Kconfig (vmtest's own fragment, and where we differ), then
# olddefconfig; built (bzImage and modules) with one ccache.
#
#   selftests/gate/kernels.sh SIDE...      SIDE: patched, base
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

GATE=$BUILD/gate
export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache-gate} CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-25G}
[ -d "$KSRC/.git" ] || die "no kernel tree at $KSRC (make tree)"

# The patched kernel is the series: build/linux's HEAD must be patches/ as
# applied or exported, with no uncommitted change.
series_check

for side in "$@"; do
	case $side in
	patched) rev=$(git -C "$KSRC" rev-parse HEAD) ;;
	base) rev=$(git -C "$KSRC" rev-parse base) ;;
	*) die "kernels.sh: patched or base, not $side" ;;
	esac
	wt=$GATE/$side
	worktree_at "$wt" "$rev" "$(git -C "$KSRC" log -1 --format='%h %s' "$rev")"
	# The config fragments of the patched tree, for both: the series adds
	# no Kconfig option (kernel/config.sh fails on one that does not stick).
	st=$KSRC/tools/testing/selftests
	ATTACH_DATA_KSRC=$wt KCONFIG_BASE=empty \
		KCONFIG_FRAGMENTS="$st/bpf/config $st/bpf/config.vm $st/bpf/config.x86_64 $st/sched_ext/config $TOP/selftests/gate/Kconfig" \
		"$TOP/kernel/config.sh"
	ATTACH_DATA_KSRC=$wt KTARGETS="bzImage modules" COLD_TIME="${GATE_COLD:-~90 min}" \
		"$TOP/kernel/build.sh"
done
if [ -f "$GATE/base/.config" ] && [ -f "$GATE/patched/.config" ]; then
	diff <(grep -v '^#' "$GATE/base/.config") <(grep -v '^#' "$GATE/patched/.config") >/dev/null ||
		die "the gate's base and patched .config differ: diff $GATE/{base,patched}/.config"
fi
