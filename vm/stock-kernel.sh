#!/usr/bin/env bash
# Debian's stock 6.12 kernel, unmodified, for the fallback runs: download the
# pinned linux-image package, verify it, keep its vmlinuz, and build an
# initramfs that loads the 9p modules (the stock kernel builds them as
# modules) and switches to the host root, where vm/guest-init.sh runs as
# with our own kernel.  Prints the directory holding vmlinuz and initrd.gz.
set -euo pipefail
. "$(dirname "$0")/../kernel/lib.sh"

out=$CACHE/stock/$STOCK_VERSION
if [ -s "$out/vmlinuz" ] && [ -s "$out/initrd.gz" ]; then
	echo "$out"
	exit 0
fi
"$TOP/kernel/deps.sh" vm

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
apt_index_update
say FETCH "$STOCK_PKG $STOCK_VERSION (~106 MB)" >&2
(cd "$tmp" && quiet apt_priv download "$STOCK_PKG=$STOCK_VERSION" >&2) ||
	die "$STOCK_PKG $STOCK_VERSION is not on the mirror (pinned in kernel/source.conf)"
deb=$(ls "$tmp"/*.deb)
sum=$(sha256sum "$deb" | cut -d' ' -f1)
[ "$sum" = "$STOCK_SHA256" ] || die "$deb: SHA-256 $sum does not match the pinned $STOCK_SHA256"
say VERIFY "sha256 $sum" >&2

say EXTRACT "vmlinuz and the 9p modules" >&2
dpkg-deb -x "$deb" "$tmp/pkg"
rootfs=$tmp/initrd
mkdir -p "$rootfs/bin" "$rootfs/lib/modules"
cp /bin/busybox "$rootfs/bin/busybox"
for m in fs/netfs/netfs net/9p/9pnet net/9p/9pnet_virtio fs/9p/9p; do
	xz -dc "$tmp"/pkg/lib/modules/*/kernel/$m.ko.xz >"$rootfs/lib/modules/${m##*/}.ko"
done
cat >"$rootfs/init" <<'INIT'
#!/bin/busybox sh
# Load 9p, mount the host root read-only, and run the project's guest init
# on it (ATTACH_DATA_TOP comes from the kernel command line).
bb=/bin/busybox
$bb mkdir -p /proc /dev /newroot
$bb mount -t proc proc /proc
$bb mount -t devtmpfs dev /dev
for m in netfs 9pnet 9pnet_virtio 9p; do
	$bb insmod /lib/modules/$m.ko || echo "initrd: insmod $m failed"
done
if ! $bb mount -t 9p -o ro,trans=virtio,version=9p2000.L,msize=512000 hostroot /newroot; then
	echo "initrd: cannot mount the host root"
	$bb poweroff -f
fi
$bb umount /dev /proc
exec $bb switch_root /newroot "$ATTACH_DATA_TOP/vm/guest-init.sh"
INIT
chmod +x "$rootfs/init"

mkdir -p "$out"
cp "$tmp"/pkg/boot/vmlinuz-* "$out/vmlinuz"
(cd "$rootfs" && find . | cpio -o -H newc --quiet | gzip -9) >"$out/initrd.gz"
echo "$out"
