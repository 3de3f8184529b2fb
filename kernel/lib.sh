# Shared settings for kernel/*.sh and vm/*.sh (sourced, not run).
# shellcheck shell=bash
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${ATTACH_DATA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/attach-data}
BUILD=${BUILD:-$TOP/build}
KSRC=$BUILD/linux
V=${V:-0}
# shellcheck source=kernel/source.conf
. "$TOP/kernel/source.conf"

say()  { printf '  %-7s %s\n' "$1" "$2"; }
die()  { printf 'error: %s\n' "$*" >&2; exit 1; }
loud() {
	printf '\n%s\n' '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!' >&2
	printf '!!! %s\n' "$@" >&2
	printf '%s\n\n' '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!' >&2
}
# Run a noisy command quietly unless V=1; on failure show its output.
quiet() {
	if [ "$V" = 1 ]; then
		"$@"
	else
		local log
		log=$(mktemp)
		if ! "$@" >"$log" 2>&1; then
			tail -n 40 "$log" >&2
			rm -f "$log"
			return 1
		fi
		rm -f "$log"
	fi
}
