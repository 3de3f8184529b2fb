#!/usr/bin/env bash
# The VM runner must fail a run whose kernel printed a WARNING, even though
# the command itself succeeded: exit 99, and quote the splat.  LKDTM
# provokes a real WARN() in the guest kernel.
set -euo pipefail
. "$(dirname "$0")/../../lib.sh"

log=$BUILD/results/vm_detects_warning.serial.log
set +e
out=$("$TOP/vm/run.sh" -l "$log" -t 120 -- \
	sh -c 'echo WARNING > /sys/kernel/debug/provoke-crash/DIRECT' 2>&1)
rc=$?
set -e
echo "$out"
[ $rc = 99 ] || { echo "FAIL: runner exited $rc, want 99 (splat)"; exit 1; }
grep -q '^vm: kernel splat during the run' <<<"$out" || { echo "FAIL: no splat report"; exit 1; }
grep -qE '    \| .*WARNING: .*lkdtm' <<<"$out" || { echo "FAIL: WARNING line not quoted"; exit 1; }
