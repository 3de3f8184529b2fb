#!/usr/bin/env bash
# The "after" kernel of the inlining experiment: build/linux (the series)
# plus tools/bench/inline-attach-cookie.patch, in a git worktree
# (build/linux-inline) with the same .config.  ccache makes the build cheap:
# only the verifier differs.  Prints the bzImage path.
set -euo pipefail
. "$(dirname "$0")/../../kernel/lib.sh"

wt=$BUILD/linux-inline
patch=$TOP/tools/bench/inline-attach-cookie.patch
if ! git -C "$wt" rev-parse --git-dir >/dev/null 2>&1; then
	say BENCH "worktree ${wt#"$TOP"/}: the series + the inlining experiment" >&2
	rm -rf "$wt"
	git -C "$KSRC" worktree prune
	git -C "$KSRC" worktree add -q --detach "$wt" HEAD
fi
# A commit on a detached HEAD, not loose changes: the worktree stays clean,
# and nothing of it goes into patches/.
git -C "$wt" am --abort >/dev/null 2>&1 || true
git -C "$wt" reset -q --hard "$(git -C "$KSRC" rev-parse HEAD)"
git -C "$wt" am -q --committer-date-is-author-date "$patch" ||
	die "inline-kernel: $patch does not apply to the series"
cmp -s "$KSRC/.config" "$wt/.config" || cp "$KSRC/.config" "$wt/.config"
ATTACH_DATA_KSRC=$wt "$TOP/kernel/build.sh" >&2
echo "$wt/arch/x86/boot/bzImage"
