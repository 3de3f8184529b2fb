#!/usr/bin/env bash
# Build a kernel tree (build/linux, or ATTACH_DATA_KSRC) with ccache: the
# bzImage and modules (Module.symvers, for the tree's test modules), or the
# make targets in KTARGETS.  The ccache settings make a fresh
# clone at another path, or another worktree, hit the cache of an earlier one.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
export CCACHE_BASEDIR=$KSRC CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
# Same build "user/host/time" everywhere: fewer needless recompiles.
export KBUILD_BUILD_USER=attach-data KBUILD_BUILD_HOST=vm
export KBUILD_BUILD_TIMESTAMP='2025-01-01'

jobs=${JOBS:-$(nproc)}
read -ra targets <<<"${KTARGETS:-bzImage modules}"
rel=${KSRC#"$BUILD"/}	# one log per tree: build/kernel-build[-gate-base].log
log=$BUILD/kernel-build.log
[ "$rel" = linux ] || log=$BUILD/kernel-build-${rel//\//-}.log
before=$(stat -c %Y "$KSRC/arch/x86/boot/bzImage" 2>/dev/null || echo 0)
say BUILD "${KSRC#"$TOP"/}: ${targets[*]} (-j$jobs; cold ${COLD_TIME:-~19 min}, incremental < 1 min)"
t0=$(date +%s)
if [ "$V" = 1 ]; then
	make -C "$KSRC" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$jobs" "${targets[@]}"
else
	# Progress: a line every 30 s with the object count; errors as they come.
	make -C "$KSRC" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$jobs" "${targets[@]}" 2>&1 |
		tee "$log" | {
			n=0 last=$t0
			while IFS= read -r line; do
				case "$line" in
				*error:*|*"Error "[0-9]*) echo "$line" ;;
				"  "[A-Z]*) n=$((n + 1)) ;;
				esac
				now=$EPOCHSECONDS
				if [ $((now - last)) -ge 30 ]; then
					last=$now
					say BUILD "$((now - t0)) s, $n steps: ${line##* }"
				fi
			done
		}
	[ "${PIPESTATUS[0]}" = 0 ] || die "kernel build failed: $log"
fi
after=$(stat -c %Y "$KSRC/arch/x86/boot/bzImage")
[ "$before" = "$after" ] || say BUILD "bzImage done in $(( $(date +%s) - t0 )) s"
# 7.3's DYNAMIC_FTRACE_WITH_JMP reads bit 0 of an ftrace target as "jump,
# not call": an ftrace callback at an odd address is jumped to and returns
# into its caller's registers (kernel/README.md, "-O2").  Refuse such a kernel.
[ ! -f "$KSRC/System.map" ] || odd=$(awk '$3 ~ /^(fprobe_ftrace_entry|fprobe_fgraph_entry|call_direct_funcs|ftrace_ops_list_func|ftrace_ops_assist_func|ftrace_stub|function_trace_call|kprobe_ftrace_handler|ftrace_graph_func|ftrace_pid_func|perf_ftrace_function_call)$/ &&
	index("13579bdf", substr($1, length($1))) { print $3 }' "$KSRC/System.map")
[ -z "${odd:-}" ] || die "ftrace callbacks at odd addresses (an -Os build?): $(echo $odd)"
