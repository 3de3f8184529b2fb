#!/usr/bin/env bash
# Build build/linux's bzImage with ccache.  The ccache settings make a fresh
# clone at another path hit the cache of an earlier one.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
export CCACHE_BASEDIR=$KSRC CCACHE_NOHASHDIR=1 CCACHE_SLOPPINESS=time_macros
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
# Same build "user/host/time" everywhere: fewer needless recompiles.
export KBUILD_BUILD_USER=attach-data KBUILD_BUILD_HOST=vm
export KBUILD_BUILD_TIMESTAMP='2025-01-01'

jobs=${JOBS:-$(nproc)}
before=$(stat -c %Y "$KSRC/arch/x86/boot/bzImage" 2>/dev/null || echo 0)
say BUILD "bzImage (-j$jobs; cold ~9 min, incremental < 1 min)"
t0=$(date +%s)
if [ "$V" = 1 ]; then
	make -C "$KSRC" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$jobs" bzImage
else
	# Progress: a line every 30 s with the object count; errors as they come.
	make -C "$KSRC" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" -j"$jobs" bzImage 2>&1 |
		tee "$BUILD/kernel-build.log" | {
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
	[ "${PIPESTATUS[0]}" = 0 ] || die "kernel build failed: $BUILD/kernel-build.log"
fi
after=$(stat -c %Y "$KSRC/arch/x86/boot/bzImage")
[ "$before" = "$after" ] || say BUILD "bzImage done in $(( $(date +%s) - t0 )) s"
