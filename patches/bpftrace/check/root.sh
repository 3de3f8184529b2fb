#!/bin/bash
# A Debian sid chroot in build/bpftrace/root with what bpftrace's build and
# its runtime tests need (LLVM 21, BCC, cereal, ...): Debian 12 has no LLVM
# >= 18.  By hand, as root; not part of any make target.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
R=$TOP/build/bpftrace/root
M=http://deb.debian.org/debian
APT=(-o Acquire::Check-Valid-Until=false)
command -v debootstrap >/dev/null || apt-get install -y -q debootstrap
[ -x "$R/usr/bin/apt-get" ] || debootstrap --variant=minbase sid "$R" "$M"
echo "deb $M sid main" >"$R/etc/apt/sources.list"
mountpoint -q "$R/proc" || mount --bind /proc "$R/proc"
trap 'umount "$R/proc"' EXIT
chroot "$R" apt-get "${APT[@]}" update -q
chroot "$R" env DEBIAN_FRONTEND=noninteractive apt-get "${APT[@]}" install -y -q \
	--no-install-recommends build-essential cmake ninja-build bison flex git pkg-config \
	llvm-dev libclang-dev clang llvm libelf-dev libdw-dev zlib1g-dev libzstd-dev \
	libcereal-dev libpcap-dev systemtap-sdt-dev binutils-dev libbpfcc-dev libgtest-dev \
	libgmock-dev python3 python3-looseversion xxd libssl-dev bpftool pahole zip gawk \
	bpftrace
