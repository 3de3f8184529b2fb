#!/usr/bin/env bash
# Configure build/linux: tinyconfig + Kconfig.fragment, then check that every
# option of the fragment stuck.  Skipped when neither input changed.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

frag=$TOP/Kconfig.fragment
stamp=$KSRC/.config.fragment
if [ -f "$KSRC/.config" ] && [ -f "$stamp" ] && cmp -s "$frag" "$stamp"; then
	exit 0
fi

say CONFIG "tinyconfig + Kconfig.fragment"
kmake() { make -C "$KSRC" -s ARCH=x86_64 "$@"; }
quiet kmake tinyconfig
quiet "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$KSRC" "$KSRC/.config" "$frag"
quiet kmake olddefconfig

bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qx -- "$line" "$KSRC/.config" || {
			echo "config: $line did not stick (have: $(grep -E "^(# )?${line%%=*}[= ]" "$KSRC/.config" || echo unset))" >&2
			bad=1
		} ;;
	"# CONFIG_"*" is not set")
		! grep -q "^${line:2:-11}=" "$KSRC/.config" || { echo "config: $line did not stick" >&2; bad=1; } ;;
	esac
done <"$frag"
[ $bad = 0 ] || { rm -f "$KSRC/.config"; die "Kconfig.fragment did not apply cleanly"; }
cp "$frag" "$stamp"
