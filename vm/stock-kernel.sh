#!/usr/bin/env bash
# vm/stock-kernel.sh NAME: one of Debian's stock kernels, unmodified, for the
# fallback runs (NAME from STOCK_KERNELS, its .debs pinned in STOCK_DEBS of
# kernel/source.conf).  Downloads the pinned packages from their suite,
# verifies them, keeps vmlinuz, config and the kernel's ELF image (vmlinux,
# whose BTF gives a vmlinux.h of the stock kernel), and builds an initramfs that loads
# whatever of 9p and virtio the kernel builds as modules and switches to the
# host root, where vm/guest-init.sh runs as with our own kernel.  Prints the
# directory holding vmlinuz and initrd.gz (cached; rebuilt when the pins change).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

name=${1:-}
[[ -n $name && " ${STOCK_KERNELS[*]} " = *" $name "* ]] ||
	die "usage: vm/stock-kernel.sh NAME, NAME one of: ${STOCK_KERNELS[*]}"
pins=$(printf '%s\n' "${STOCK_DEBS[@]}" | awk -v n="$name" '$1 == n')
[ -n "$pins" ] || die "$name: no packages pinned in STOCK_DEBS (kernel/source.conf)"
out=$CACHE/stock/$name
if [ -s "$out/vmlinuz" ] && [ -s "$out/vmlinux" ] && [ -s "$out/initrd.gz" ] && [ "$(cat "$out/pins" 2>/dev/null)" = "$pins" ]; then
	echo "$out"
	exit 0
fi
"$TOP/kernel/deps.sh" vm

mkdir -p "$CACHE/stock"
tmp=$(mktemp -d "$CACHE/stock/.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/debs" "$tmp/pkg"
last=
while read -r _ suite pkg version sha; do
	if [ "$suite" != "$last" ]; then
		apt_index_update "$suite" || die "cannot fetch the apt index of $suite from $MIRROR"
		last=$suite
	fi
	say FETCH "$pkg $version" >&2
	(cd "$tmp/debs" && quiet apt_priv download "$pkg=$version" >&2) ||
		die "$pkg $version is not on $MIRROR $suite (pinned for $name in kernel/source.conf)"
	deb=$(ls "$tmp/debs/${pkg}_"*.deb)
	sum=$(sha256sum "$deb" | cut -d' ' -f1)
	[ "$sum" = "$sha" ] || die "${deb##*/}: SHA-256 $sum does not match the pinned $sha"
	say VERIFY "sha256 $sum" >&2
	dpkg-deb -x "$deb" "$tmp/pkg"
	rm -f "$deb"
done <<<"$pins"

# Debian up to 6.x: /boot/vmlinuz-*, /boot/config-*, /lib/modules/<release>;
# from 7.x: /usr/lib/modules/<release>/{vmlinuz,config}.  No package ships
# modules.dep (depmod writes it on install): dependencies come from each
# module's depends= field, the one depmod reads.
first() { local f; for f; do [ ! -e "$f" ] || { echo "$f"; break; }; done; }
mods=$(first "$tmp"/pkg/lib/modules/* "$tmp"/pkg/usr/lib/modules/*)
vmlinuz=$(first "$tmp"/pkg/boot/vmlinuz-* "$mods/vmlinuz")
config=$(first "$tmp"/pkg/boot/config-* "$mods/config")
[[ -n $mods && -n $vmlinuz && -n $config ]] || die "$name: no vmlinuz, config or modules in its packages"
say EXTRACT "vmlinuz and the modules for 9p (${mods##*/})" >&2

rootfs=$tmp/initrd
mkdir -p "$rootfs/bin" "$rootfs/lib/modules"
cp /bin/busybox "$rootfs/bin/busybox"
declare -A ko=() builtin=() have=()
while read -r f; do b=${f##*/}; b=${b%%.ko*}; ko[${b//-/_}]=$f; done < <(find "$mods/kernel" -name '*.ko*')
while read -r f; do b=${f##*/}; b=${b%.ko}; builtin[${b//-/_}]=1; done <"$mods/modules.builtin"
load() {	# load MODULE: copy it and its dependencies, in insmod order
	local m=${1//-/_} d
	[ -z "${builtin[$m]:-}${have[$m]:-}" ] || return 0
	[ -n "${ko[$m]:-}" ] || die "$name: module $m is neither built in nor in the packages"
	have[$m]=1
	case ${ko[$m]} in
	*.xz) xz -dc "${ko[$m]}" ;;
	*.zst) zstd -dc "${ko[$m]}" ;;
	*.gz) gzip -dc "${ko[$m]}" ;;
	*) cat "${ko[$m]}" ;;
	esac >"$rootfs/lib/modules/$m.ko"
	for d in $(tr '\0' '\n' <"$rootfs/lib/modules/$m.ko" | sed -n '/^depends=/{s///p;q}' | tr , ' '); do
		load "$d"
	done
	echo "$m" >>"$rootfs/lib/modules/load"
}
# 9p over virtio-pci, and the virtio console the runner's output goes through.
touch "$rootfs/lib/modules/load"
for m in virtio_pci virtio_console 9pnet_virtio 9p; do load "$m"; done
[ "$V" != 1 ] || echo "insmod order: $(paste -sd' ' "$rootfs/lib/modules/load")" >&2

cat >"$rootfs/init" <<'INIT'
#!/bin/busybox sh
# Load the modules for 9p, mount the host root read-only, and run the
# project's guest init on it (ATTACH_DATA_TOP comes from the kernel command line).
bb=/bin/busybox
$bb mkdir -p /proc /dev /newroot
$bb mount -t proc proc /proc
$bb mount -t devtmpfs dev /dev
for m in $($bb cat /lib/modules/load); do
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

mkdir "$tmp/out"
cp "$vmlinuz" "$tmp/out/vmlinuz"
# The ELF image inside vmlinuz, for its BTF: the kernel tree's own script.
[ -x "$KSRC/scripts/extract-vmlinux" ] || die "no kernel tree at $KSRC for scripts/extract-vmlinux (make tree)"
"$KSRC/scripts/extract-vmlinux" "$vmlinuz" >"$tmp/out/vmlinux" 2>/dev/null ||
	die "$name: no ELF image found in ${vmlinuz##*/}"
cp "$config" "$tmp/out/config"
(cd "$rootfs" && find . | cpio -o -H newc --quiet | gzip -9) >"$tmp/out/initrd.gz"
echo "$pins" >"$tmp/out/pins"
rm -rf "$out"
mv "$tmp/out" "$out"
echo "$out"
