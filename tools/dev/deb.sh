#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/dev/deb.sh: build the Debian packages from debian/ ('make deb').
#
# Installs what dpkg-buildpackage needs (debian/control's Build-Depends:
# debhelper, dh-dkms, ...) from Debian's registry if missing, copies the
# tree (tracked and untracked files, not build/ nor .cache/) to
# build/deb/src/ftnl-VERSION, builds the binary packages there, and leaves
# them in build/deb/: ftnl-dkms, libftnl1, libftnl-dev, ftnl-tools (plus
# the debug symbols). Prints the time the build took.

set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/build/deb
export DEBIAN_FRONTEND=noninteractive

log() { printf 'deb: %s\n' "$*" >&2; }
die() {
	printf 'deb: error: %s\n' "$*" >&2
	exit 1
}

# Build-Depends plus what turns them into packages (dpkg-dev, fakeroot is
# not needed: Rules-Requires-Root: no).
BUILD_DEPS=(dpkg-dev debhelper dh-dkms dkms libmnl-dev libslurm-dev pkg-config gcc make)
todo=()
for p in "${BUILD_DEPS[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null) || st=
	case $st in ii*) ;; *) todo+=("$p") ;; esac
done
if [ ${#todo[@]} -gt 0 ]; then
	[ "$(id -u)" -eq 0 ] || die "missing packages: ${todo[*]}; run as root"
	log "installing: ${todo[*]}"
	apt-get -y -q update </dev/null >&2 || die "apt-get update failed"
	apt-get -y -q install --no-install-recommends "${todo[@]}" </dev/null >&2 ||
		die "apt-get install ${todo[*]} failed"
fi

version=$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Version)
src=$OUT/src/ftnl-$version
rm -rf "$OUT"
mkdir -p "$src"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
	grep -zv '^\(build\|\.cache\)/' |
	xargs -0 tar -c --no-recursion -f - 2>/dev/null) | tar -x -C "$src" ||
	die "copying the tree to $src failed"

log "building ftnl $version in $src"
t0=$(date +%s.%N)
(cd "$src" && nice -n 10 dpkg-buildpackage -b -uc -us -j"$(nproc)") >"$OUT/build.log" 2>&1 ||
	{ tail -n 40 "$OUT/build.log" >&2; die "dpkg-buildpackage failed (log: $OUT/build.log)"; }
t1=$(date +%s.%N)
# dpkg-buildpackage writes the packages beside the source directory.
mv "$OUT"/src/*.deb "$OUT"/src/*.buildinfo "$OUT"/src/*.changes "$OUT"/ 2>/dev/null || true
ls "$OUT"/*.deb >/dev/null 2>&1 || die "no package built (log: $OUT/build.log)"
for d in "$OUT"/*.deb; do
	printf '%s\n' "$d"
done
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", b - a }' >"$OUT/build.time"
log "packages built in $(cat "$OUT/build.time") s"
