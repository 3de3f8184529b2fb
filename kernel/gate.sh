#!/usr/bin/env bash
# The two kernels of the regression gate (make regress), as git worktrees of
# build/linux: build/gate/base at the base commit (Debian's tree, unpatched)
# and build/gate/patched at build/linux's HEAD (commit kernel work first).
# Both get the same config -- tinyconfig + Kconfig.fragment + the tree's
# tools/testing/selftests/bpf/{config,config.x86_64,config.vm} (BPF CI's
# merge) + kernel/Kconfig.gate (KASAN, lockdep, kmemleak) -- and are built
# (bzImage and modules) with one ccache, so the second build mostly hits.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

GATE=$BUILD/gate
export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache-gate} CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-25G}
[ -d "$KSRC/.git" ] || die "no kernel tree at $KSRC (make tree)"

# The patched kernel is the series: build/linux's HEAD must be patches/ as
# applied or exported (lib.sh's record), with no uncommitted change.
read -r shash srev <"$SERIES_STATE" 2>/dev/null || die "no series state in $KSRC (make tree)"
[ "$shash" = "$(series_hash)" ] && [ "$srev" = "$(git -C "$KSRC" rev-parse HEAD)" ] ||
	die "build/linux's HEAD is not patches/ (make tree, or commit and make export)"
git -C "$KSRC" diff --quiet HEAD -- || die "build/linux has uncommitted changes"
[ "$(git -C "$KSRC" rev-list --count base..HEAD)" -gt 0 ] || die "build/linux has no series on base"

# Worktrees: moving one to another commit rewrites only the files that differ.
git -C "$KSRC" worktree prune
for side in patched base; do
	rev=$(git -C "$KSRC" rev-parse "$([ $side = base ] && echo base || echo HEAD)")
	wt=$GATE/$side
	if [ ! -e "$wt/.git" ]; then
		say GIT "worktree ${wt#"$TOP"/} at $(git -C "$KSRC" log -1 --format='%h %s' "$rev")"
		mkdir -p "$GATE"
		git -C "$KSRC" worktree add -q --detach "$wt" "$rev"
	elif [ "$(git -C "$wt" rev-parse HEAD)" != "$rev" ]; then
		say GIT "${wt#"$TOP"/} to $(git -C "$KSRC" log -1 --format='%h %s' "$rev")"
		git -C "$wt" checkout -q --detach "$rev"
	fi
done

# One config for both, from the patched tree's selftests config files.
st=$GATE/patched/tools/testing/selftests/bpf
frags="$TOP/Kconfig.fragment $st/config $st/config.x86_64 $st/config.vm $TOP/kernel/Kconfig.gate"
for side in patched base; do
	ATTACH_DATA_KSRC=$GATE/$side KCONFIG_FRAGMENTS=$frags "$TOP/kernel/config.sh"
done
# The series adds no Kconfig option: anything else would not be an A/B.
diff <(grep -v '^#' "$GATE/base/.config") <(grep -v '^#' "$GATE/patched/.config") >/dev/null ||
	die "the gate's base and patched .config differ: diff $GATE/{base,patched}/.config"

for side in patched base; do
	ATTACH_DATA_KSRC=$GATE/$side KTARGETS="bzImage modules" COLD_TIME="${GATE_COLD:-~60 min}" \
		"$TOP/kernel/build.sh"
done
