#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/cluster/debian-image.sh OUTDIR NODES H_MS D_MS: the disk of
# tools/cluster/run --image debian: a Debian 12 root filesystem with
# systemd as init and the project's packages installed with apt, the way
# an admin installs them (Documentation/cluster-harness.rst, "Debian
# images"). Writes OUTDIR/disk.raw (the nodes boot copy-on-write
# overlays of it), OUTDIR/vmlinuz, OUTDIR/initrd.img and OUTDIR/image.txt
# (the times of each stage).
#
# Three stages, the first two cached outside the clone in
# $FTNL_IMAGE_CACHE (default /var/cache/ftnl/debian12):
#   1. rootfs/: debootstrap of bookworm (minbase, systemd, udev, the
#      kernel and its headers, dkms) from the mirror apt already uses;
#      kept until removed;
#   2. base-SUM.raw: a copy of it with ftnl-dkms, libftnl1 and ftnl-tools
#      (built by tools/dev/deb.sh first, as 'make deb') installed by 'apt-get install ./...deb' in a chroot (DKMS
#      builds the module for the image's kernel), systemd-networkd giving
#      each node its address by its MAC (52:54:00:99:00:NN, NN the node
#      id), ftnl.service enabled, and the harness's agent as a unit of
#      its own (ftnl-cluster-node.service: the control and event ports,
#      which configure nothing); SUM covers the packages and this script;
#   3. OUTDIR/disk.raw: that image plus this run's /etc/ftnl/ftnl.conf
#      ("self auto", nodes 1..NODES named nodeI) and key, written with
#      debugfs: one file for every node, nothing per node.

set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=${FTNL_IMAGE_CACHE:-/var/cache/ftnl/debian12}
[ $# -eq 4 ] || { echo "usage: $0 OUTDIR NODES H_MS D_MS" >&2; exit 2; }
out=$1 nodes=$2 h_ms=$3 d_ms=$4
NET=10.99.0
PORT=7400
SIZE=3G

log() { printf 'debian-image: %s\n' "$*" >&2; }
die() {
	printf 'debian-image: error: %s\n' "$*" >&2
	exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
for p in debootstrap mkfs.ext4 debugfs qemu-img chroot; do
	command -v "$p" >/dev/null || die "$p not found: run 'make setup'"
done
mkdir -p "$CACHE" "$out"
exec 9>"$CACHE/.lock"
flock 9

# --- 1. the root filesystem --------------------------------------------------------

# The mirror of the machine's own apt sources (setup.sh's rule, simplified:
# the first deb822 URIs line of a bookworm source).
mirror() {
	local u
	u=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
	[ -n "$u" ] || u=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list 2>/dev/null || true)
	printf '%s\n' "${u:-http://deb.debian.org/debian}"
}
INCLUDE=systemd,systemd-sysv,udev,dbus,kmod,iproute2,procps,linux-image-amd64,linux-headers-amd64,dkms,initramfs-tools,libmnl0,ca-certificates
if [ ! -f "$CACHE/rootfs/.done" ]; then
	t=$(now)
	log "debootstrap bookworm into $CACHE/rootfs (minutes, once)"
	rm -rf "$CACHE/rootfs.tmp"
	nice -n 10 debootstrap --variant=minbase --include="$INCLUDE" bookworm "$CACHE/rootfs.tmp" \
		"$(mirror)" >"$CACHE/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$CACHE/debootstrap.log" >&2; die "debootstrap failed"; }
	rm -rf "$CACHE/rootfs"
	mv "$CACHE/rootfs.tmp" "$CACHE/rootfs"
	echo "debootstrap_s=$(since "$t")" >"$CACHE/rootfs/.done"
fi

# --- 2. the packages, installed with apt ------------------------------------------

# The packages of this tree ('make deb'), unless told to take those in
# build/deb as they are (FTNL_IMAGE_REUSE_DEBS=1, for development).
if [ "${FTNL_IMAGE_REUSE_DEBS:-0}" != 1 ]; then
	log "building the packages (tools/dev/deb.sh)"
	"$ROOT/tools/dev/deb.sh" >/dev/null || die "make deb failed"
fi
version=$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Version)
debs=()
for p in ftnl-dkms libftnl1 ftnl-tools; do
	f=$(find "$ROOT/build/deb" -maxdepth 1 -name "${p}_${version}_*.deb" 2>/dev/null | head -n1)
	[ -n "$f" ] || die "no $p package in build/deb: run 'make deb'"
	debs+=("$f")
done
sum=$(cat "${debs[@]}" "$0" "$ROOT/tools/cluster/node" "$CACHE/rootfs/.done" | sha256sum | cut -c1-16)
base=$CACHE/base-$sum.raw
if [ ! -f "$base" ]; then
	t=$(now)
	stage=$CACHE/stage
	cleanup_stage() {
		for m in dev/pts dev proc sys; do umount "$stage/$m" 2>/dev/null || true; done
	}
	trap cleanup_stage EXIT
	rm -rf "$stage"
	cp -a "$CACHE/rootfs" "$stage"
	mount -t proc proc "$stage/proc"
	mount -t sysfs sys "$stage/sys"
	mount --bind /dev "$stage/dev"
	mount --bind /dev/pts "$stage/dev/pts"
	mkdir -p "$stage/tmp/debs"
	cp "${debs[@]}" "$stage/tmp/debs/"
	log "apt-get install ${debs[*]##*/} in the image (DKMS builds the module)"
	in_image=()
	for f in "${debs[@]}"; do in_image+=("/tmp/debs/${f##*/}"); done
	chroot "$stage" env DEBIAN_FRONTEND=noninteractive nice -n 10 apt-get -y -q install \
		--no-install-recommends "${in_image[@]}" >"$CACHE/install.log" 2>&1 ||
		{ tail -n 30 "$CACHE/install.log" >&2; die "apt-get install in the image failed"; }
	rm -rf "$stage/tmp/debs"
	kver=$(ls "$stage/lib/modules" | sort -V | tail -n1)
	find "$stage/lib/modules/$kver" -name 'ftnl.ko*' | grep -q . ||
		die "DKMS built no ftnl.ko for $kver in the image (log: $CACHE/install.log)"

	# The network: each node's address by its MAC, from the image alone.
	mkdir -p "$stage/etc/systemd/network"
	for i in $(seq 16); do
		printf '[Match]\nMACAddress=52:54:00:99:00:%02x\n\n[Network]\nAddress=%s.%d/24\n' \
			"$i" "$NET" "$i" >"$stage/etc/systemd/network/10-node$i.network"
	done
	chroot "$stage" systemctl enable systemd-networkd.service >/dev/null 2>&1
	chroot "$stage" systemctl enable ftnl.service >/dev/null 2>&1
	echo ftnl-node >"$stage/etc/hostname"
	printf '/dev/vda / ext4 defaults 0 1\n' >"$stage/etc/fstab"
	# The harness's agent (test instrumentation, not ftnl's setup): after
	# ftnl.service, so that it finds the node as the boot left it.
	install -m 0755 "$ROOT/tools/cluster/node" "$stage/usr/local/bin/ftnl-cluster-node"
	cat >"$stage/etc/systemd/system/ftnl-cluster-node.service" <<'UNIT'
[Unit]
Description=tools/cluster/run's agent: control and event ports
After=ftnl.service network-online.target
Wants=network-online.target

[Service]
ExecStart=/usr/local/bin/ftnl-cluster-node

[Install]
WantedBy=multi-user.target
UNIT
	chroot "$stage" systemctl enable ftnl-cluster-node.service >/dev/null 2>&1
	# A getty on the console is for people; the guests have none.
	chroot "$stage" systemctl mask serial-getty@ttyS0.service getty@tty1.service >/dev/null 2>&1
	cp -L "$stage/boot/vmlinuz-$kver" "$CACHE/vmlinuz-$sum"
	cp -L "$stage/boot/initrd.img-$kver" "$CACHE/initrd-$sum"
	cleanup_stage
	trap - EXIT
	rm -f "$base.tmp"
	mkfs.ext4 -q -F -L root -d "$stage" "$base.tmp" "$SIZE" || die "mkfs.ext4 -d failed"
	mv "$base.tmp" "$base"
	rm -rf "$stage"
	echo "packages_s=$(since "$t")" >"$base.time"
	# Older bases of this cache are of older packages.
	find "$CACHE" -maxdepth 1 -name 'base-*.raw' ! -name "base-$sum.raw" -delete
	log "image $base ready"
fi

# --- 3. this run's configuration, one file for every node ----------------------------

t=$(now)
cp --sparse=always "$base" "$out/disk.raw"
cp "$CACHE/vmlinuz-$sum" "$out/vmlinuz"
cp "$CACHE/initrd-$sum" "$out/initrd.img"
tmp=$(mktemp -d)
{
	echo "# tools/cluster/run --image debian: $nodes nodes, one file for all"
	echo "cluster 15"
	echo "self auto"
	echo "heartbeat ${h_ms}ms"
	echo "timeout ${d_ms}ms"
	echo "keyfile key"
	for i in $(seq "$nodes"); do echo "node $i $NET.$i $PORT name node$i"; done
} >"$tmp/ftnl.conf"
head -c 32 /dev/urandom >"$tmp/key"
cp "$tmp/ftnl.conf" "$out/ftnl.conf"
debugfs -w -f - "$out/disk.raw" >/dev/null 2>"$tmp/debugfs.err" <<CMDS || { cat "$tmp/debugfs.err" >&2; die "debugfs failed"; }
mkdir /etc/ftnl
write $tmp/ftnl.conf /etc/ftnl/ftnl.conf
write $tmp/key /etc/ftnl/key
set_inode_field /etc/ftnl/key mode 0100600
CMDS
rm -rf "$tmp"
{
	cat "$CACHE/rootfs/.done"
	cat "$base.time"
	echo "config_s=$(since "$t")"
} >"$out/image.txt"
