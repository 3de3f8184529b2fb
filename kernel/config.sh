#!/usr/bin/env bash
# Configure a kernel tree: tinyconfig (or an empty .config) + fragments, then
# check that every option of the fragments stuck (where several fragments set
# an option, the last one counts, as in merge_config.sh).  Skipped when no
# input changed.
#
#   kernel/config.sh                    build/linux, Kconfig.fragment
#   KCONFIG_FRAGMENTS="A B ..." kernel/config.sh   another list, in order
#   KCONFIG_BASE=empty kernel/config.sh  the fragments on an empty .config,
#                                        as BPF CI configures its kernels
#                                        (olddefconfig's defaults for the rest)
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

read -ra frags <<<"${KCONFIG_FRAGMENTS:-$TOP/Kconfig.fragment}"
base=${KCONFIG_BASE:-tinyconfig}
case $base in
tinyconfig|empty) ;;
*) die "KCONFIG_BASE: tinyconfig or empty, not $base" ;;
esac
# What the config was made of; the base only when it is not the default,
# so that the stamp of an existing tinyconfig tree stays valid.
inputs() {
	[ "$base" = tinyconfig ] || echo "# KCONFIG_BASE=$base"
	cat "${frags[@]}"
}
stamp=$KSRC/.config.fragment
if [ -f "$KSRC/.config" ] && [ -f "$stamp" ] && inputs | cmp -s - "$stamp"; then
	exit 0
fi
# No stamp until the new config is made and checked: a run that fails
# half-way must not leave a .config that a later run takes as done.
rm -f "$stamp"

say CONFIG "$base + $(for f in "${frags[@]}"; do printf '%s ' "${f#"$TOP"/}"; done)"
kmake() { make -C "$KSRC" -s ARCH=x86_64 "$@"; }
if [ "$base" = empty ]; then
	: >"$KSRC/.config"
else
	quiet kmake tinyconfig
fi
quiet "$KSRC/scripts/kconfig/merge_config.sh" -m -O "$KSRC" "$KSRC/.config" "${frags[@]}"
quiet kmake olddefconfig

# The last setting of each option across the fragments, then check it.
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
done < <(cat "${frags[@]}" | sed -nE 's/^(CONFIG_[A-Za-z0-9_]+)=.*/\1 &/p; s/^# (CONFIG_[A-Za-z0-9_]+) is not set$/\1 &/p' |
	awk '{ k = $1; sub(/^[^ ]+ /, ""); if (!(k in v)) o[n++] = k; v[k] = $0 }
	     END { for (i = 0; i < n; i++) print v[o[i]] }')
[ $bad = 0 ] || { rm -f "$KSRC/.config"; die "the config fragments did not apply cleanly"; }
inputs >"$stamp"
