#!/usr/bin/env bash
# patches/ is the source of truth: exporting the tree that kernel/tree.sh
# made from it must give back identical files (patches/bpftrace/ is a patch
# to bpftrace, not to the kernel tree; patches/experiments/, patches that
# the benchmarks apply on top of the series).
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

read -r _ head <"$SERIES_STATE"
if [ "$(git -C "$KSRC" rev-parse HEAD)" != "$head" ]; then
	echo "FAIL: $KSRC has commits not in patches/ (make export, or make tree-reset)"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$TOP/kernel/export.sh" "$tmp" >/dev/null
diff -ru --exclude='*.md' --exclude=bpftrace --exclude=experiments "$TOP/patches" "$tmp"
echo "ok: $(find "$tmp" -name '*.patch' | wc -l) files identical"
