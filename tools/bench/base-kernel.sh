#!/usr/bin/env bash
# The kernel the series is measured against: Debian's source without the
# series (the base commit), in a git worktree (build/linux-base) with
# build/linux's .config.  ccache makes the build cheaper: the files that the
# series does not touch, nor include a header it touches, hit the cache of
# build/linux's build.  Prints the bzImage path.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

wt=$BUILD/linux-base
"$TOP/kernel/worktree.sh" base "$wt" >&2
cmp -s "$KSRC/.config" "$wt/.config" || cp "$KSRC/.config" "$wt/.config"
ATTACH_DATA_KSRC=$wt KTARGETS=bzImage "$TOP/kernel/build.sh" >&2
echo "$wt/arch/x86/boot/bzImage"
