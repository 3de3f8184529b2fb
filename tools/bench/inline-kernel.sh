#!/usr/bin/env bash
# The "after" kernel of the inlining experiment: build/linux (the series)
# plus patches/experiments/inline-attach-cookie.patch, in a git worktree
# (build/linux-inline) with the same .config.  ccache makes the build cheap:
# only the verifier differs.  Prints the bzImage path.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

wt=$BUILD/linux-inline
patch=$TOP/patches/experiments/inline-attach-cookie.patch
if ! git -C "$wt" rev-parse --git-dir >/dev/null 2>&1; then
	say BENCH "worktree ${wt#"$TOP"/}: the series + the inlining experiment" >&2
	rm -rf "$wt"
	git -C "$KSRC" worktree prune
	git -C "$KSRC" worktree add -q --detach "$wt" HEAD
fi
# A commit on a detached HEAD, not loose changes: the worktree stays clean,
# and nothing of it goes into patches/.  Redone only when the series or the
# patch changed (the stamp names both), so that an unchanged experiment is
# not recompiled: reset and am would give the verifier a new mtime.
stamp=$wt/.bench-inline-stamp	# Debian's .gitignore hides it
want="$(git -C "$KSRC" rev-parse HEAD) $(sha256sum <"$patch" | cut -c1-16)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] ||
   [ -n "$(git -C "$wt" status --porcelain --untracked-files=no)" ]; then
	rm -f "$stamp"
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" reset -q --hard "${want%% *}"
	git -C "$wt" am -q --committer-date-is-author-date "$patch" ||
		die "inline-kernel: $patch does not apply to the series"
	echo "$want" >"$stamp"
fi
cmp -s "$KSRC/.config" "$wt/.config" || cp "$KSRC/.config" "$wt/.config"
ATTACH_DATA_KSRC=$wt "$TOP/kernel/build.sh" >&2
echo "$wt/arch/x86/boot/bzImage"
