#!/usr/bin/env bash
# kernel/worktree.sh NAME DIR: DIR is a git worktree of build/linux at the tip
# of series NAME (its branch), or at the base commit (NAME base: Debian's
# source), detached; moved there when the branch moved (only the files that
# differ are rewritten).  For building what a series gives without the series
# after it, or the kernel without any of them.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

name=${1:-} dir=${2:-}
[[ -n $dir && " base ${SERIES[*]} " = *" $name "* ]] ||
	die "usage: kernel/worktree.sh NAME DIR, NAME one of: base ${SERIES[*]}"
ref=refs/heads/$name what="series $name"
[ "$name" != base ] || ref=refs/tags/base what="the base commit"
rev=$(git -C "$KSRC" rev-parse --verify -q "$ref^{commit}") ||
	die "$KSRC has no $ref (make tree)"
worktree_at "$dir" "$rev" "$what"
