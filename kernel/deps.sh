#!/usr/bin/env bash
# Install the Debian packages the pipeline needs, only those that are missing.
# Usage: kernel/deps.sh [group...]   groups: build vm bpf bench real gate (default: all but gate)
set -euo pipefail

declare -A PKGS=(
	[build]="gcc make flex bison bc libelf-dev libssl-dev cpio dwarves ccache xz-utils git rsync python3"
	[vm]="qemu-system-x86 busybox-static"
	[bpf]="clang-19 llvm-19 lld-19 openssl libelf-dev libzstd-dev zlib1g-dev libcap-dev pkg-config binutils-dev systemtap-sdt-dev g++"
	[bench]="gnuplot-nox"
	# Debian's binaries with USDT probes that the usdt tests trace.
	[real]="openjdk-17-jre-headless postgresql-15"
	# The usdt tool's man page, rendered by the install test.
	[tool]="man-db"
	# What the tree's tests run in the gate's guests (whose root is the
	# host's): ping, iptables-legacy, nft, ethtool (ip and tc are base),
	# keyctl and fsverity (verify_sig_setup.sh, verify_pkcs7_sig).
	[gate]="iputils-ping iptables nftables ethtool iproute2 keyutils fsverity"
)

groups=("$@")
[ ${#groups[@]} -gt 0 ] || groups=(build vm bpf bench real tool)

want=()
for g in "${groups[@]}"; do
	[ -n "${PKGS[$g]+x}" ] || { echo "deps: unknown group '$g'" >&2; exit 2; }
	for p in ${PKGS[$g]}; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || want+=("$p")
	done
done

[ ${#want[@]} -gt 0 ] || exit 0
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages: ${want[*]} (run as root, or install them)" >&2
	exit 1
fi
echo "  DEPS    installing: ${want[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${want[@]}" >/dev/null
