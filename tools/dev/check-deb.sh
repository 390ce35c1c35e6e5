#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/dev/check-deb.sh [SELFTEST...]: 'make check-deb'. Proves the Debian
# packages on this machine (as root), then in the VM:
#
#  1. builds them (tools/dev/deb.sh);
#  2. purges any installed ftnl packages and installs the new ones with
#     'apt-get install ./...deb': ftnl-dkms's postinst has DKMS build and
#     install ftnl.ko for Debian's 6.1 kernel (its headers are installed);
#  3. has DKMS build the module for the 6.12 kernel unpacked under
#     .cache/kernels/6.12 (not installed on the host, so 'dkms build -k
#     KVER --kernelsourcedir KDIR', then 'dkms remove' of that kernel again:
#     nothing is left under /lib/modules for a kernel the host lacks);
#  4. compiles and runs a program against the installed libftnl-dev through
#     pkg-config, and checks it records the LIBFTNL_1.0 symbol version;
#     checks the installed ftnl.service (systemd-analyze verify, the
#     template's text, enabled);
#  5. boots each kernel with the DKMS-built module (tools/vm/run --ko) and
#     runs the selftests named (default below) with it; the shell tests
#     call the packaged ftnl-cli (FTNL_CLI), node_config.sh runs the
#     packaged ftnl.service's commands.
#
# Prints the time of the package build and of each DKMS build. Exit status
# 0 when everything passed. Not part of 'make check' (it installs packages).

set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/build/deb
KERNELS=$ROOT/tools/dev/kernels.sh
SELFTESTS=("$@")
[ ${#SELFTESTS[@]} -gt 0 ] ||
	SELFTESTS=(family_netns config_invalid events cli_cluster.sh ring_detect ring_leave
		node_config.sh health.sh)
export DEBIAN_FRONTEND=noninteractive

log() { printf 'check-deb: %s\n' "$*" >&2; }
die() {
	printf 'check-deb: error: %s\n' "$*" >&2
	exit 1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

[ "$(id -u)" -eq 0 ] || die "must run as root (it installs the packages)"

# --- 1. build ---------------------------------------------------------------
"$ROOT/tools/dev/deb.sh" >/dev/null
version=$(dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Version)
debs=()
for p in ftnl-dkms libftnl1 libftnl-dev ftnl-tools ftnl-slurm; do
	f=$(ls "$OUT/${p}_${version}_"*.deb 2>/dev/null | head -n1)
	[ -n "$f" ] || die "no $p package in $OUT"
	debs+=("$f")
done

# --- 2. install; DKMS builds for 6.1 ----------------------------------------
installed=()
for p in ftnl-slurm ftnl-tools libftnl-dev libftnl1 ftnl-dkms; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null) || st=
	case $st in '' | un*) ;; *) installed+=("$p") ;; esac
done
if [ ${#installed[@]} -gt 0 ]; then
	log "purging the installed ${installed[*]}"
	apt-get -y -q purge "${installed[@]}" </dev/null >"$OUT/purge.log" 2>&1 ||
		die "apt-get purge failed (log: $OUT/purge.log)"
fi
kver61=$("$KERNELS" kver 6.1)
log "apt-get install ${debs[*]##*/} (DKMS builds for $kver61)"
t0=$(now)
apt-get -y -q install --no-install-recommends "${debs[@]}" </dev/null >"$OUT/install.log" 2>&1 ||
	{ tail -n 30 "$OUT/install.log" >&2; die "apt-get install failed (log: $OUT/install.log)"; }
t_install=$(since "$t0")
dkms status -m ftnl -v "$version" -k "$kver61" | grep -q ': installed' ||
	die "DKMS did not install ftnl/$version for $kver61 (log: $OUT/install.log)"
ko61=$(modinfo -k "$kver61" -n ftnl 2>/dev/null) || die "modinfo -k $kver61 ftnl: not found"
case $ko61 in */updates/dkms/*) ;; *) die "ftnl for $kver61 is $ko61, not DKMS's" ;; esac
log "installed in $t_install s (the DKMS build for $kver61 included): $ko61"

# --- 3. DKMS builds for 6.12 -------------------------------------------------
kver612=$("$KERNELS" kver 6.12)
kdir612=$("$KERNELS" kdir 6.12)
log "dkms build for $kver612 (headers in $kdir612)"
t0=$(now)
dkms build -m ftnl -v "$version" -k "$kver612" --kernelsourcedir "$kdir612" \
	>"$OUT/dkms-6.12.log" 2>&1 ||
	{ tail -n 30 "$OUT/dkms-6.12.log" >&2; die "dkms build for $kver612 failed"; }
t_612=$(since "$t0")
built=/var/lib/dkms/ftnl/$version/$kver612/$(uname -m)/module
ko612=$(ls "$built"/ftnl.ko* 2>/dev/null | head -n1)
[ -n "$ko612" ] || die "no ftnl.ko in $built"
mkdir -p "$OUT/ko/6.12"
case $ko612 in
*.xz) xz -dc "$ko612" >"$OUT/ko/6.12/ftnl.ko" ;;
*.zst) zstd -qdc "$ko612" >"$OUT/ko/6.12/ftnl.ko" ;;
*) cp "$ko612" "$OUT/ko/6.12/ftnl.ko" ;;
esac
dkms remove -m ftnl -v "$version" -k "$kver612" >>"$OUT/dkms-6.12.log" 2>&1 ||
	die "dkms remove -k $kver612 failed"
log "built for $kver612 in $t_612 s"

mkdir -p "$OUT/ko/6.1"
case $ko61 in
*.xz) xz -dc "$ko61" >"$OUT/ko/6.1/ftnl.ko" ;;
*.zst) zstd -qdc "$ko61" >"$OUT/ko/6.1/ftnl.ko" ;;
*) cp "$ko61" "$OUT/ko/6.1/ftnl.ko" ;;
esac

# --- 4. libftnl-dev -----------------------------------------------------------
prog=$OUT/pkgconfig-test
cat >"$prog.c" <<'PROG'
#include <stdio.h>
#include <string.h>
#include <ftnl/ftnl.h>

int main(void)
{
	const char *name = ftnl_node_state_name(FTNL_NODE_STATE_ALIVE);

	puts(name);
	return strcmp(name, "alive") != 0;
}
PROG
# shellcheck disable=SC2046
cc -std=c11 -Wall -Werror -o "$prog" "$prog.c" $(pkg-config --cflags --libs libftnl) ||
	die "building against the installed libftnl-dev failed"
"$prog" >/dev/null || die "$prog failed"
objdump -T "$prog" | grep -q 'LIBFTNL_1\.0.*ftnl_node_state_name' ||
	die "$prog does not record the symbol version LIBFTNL_1.0"
log "libftnl-dev: a program built with pkg-config runs, linked to LIBFTNL_1.0"

# --- ftnl-tools: the unit is valid and is the template's (whose commands
# node_config.sh runs in the VM), enabled, not started ----------------------
unit=/lib/systemd/system/ftnl.service
systemd-analyze verify "$unit" || die "systemd-analyze verify $unit failed"
sed 's|@BINDIR@|/usr/bin|g' "$ROOT/tools/systemd/ftnl.service.in" | cmp -s - "$unit" ||
	die "$unit differs from tools/systemd/ftnl.service.in"
[ -L /etc/systemd/system/multi-user.target.wants/ftnl.service ] ||
	die "ftnl.service is not enabled after the install"
log "ftnl-tools: $unit verified, enabled"

# --- ftnl-slurm: its unit too, enabled; the program runs ---------------------
unit=/lib/systemd/system/ftnl-slurm.service
systemd-analyze verify "$unit" || die "systemd-analyze verify $unit failed"
[ -L /etc/systemd/system/multi-user.target.wants/ftnl-slurm.service ] ||
	die "ftnl-slurm.service is not enabled after the install"
/usr/sbin/ftnl-slurm --help | grep -q -- '--resume' || die "ftnl-slurm --help"
log "ftnl-slurm: $unit verified, enabled; /usr/sbin/ftnl-slurm runs"

# --- 5. selftests in the VM with the DKMS-built modules ------------------------
nice -n 10 make -C "$ROOT" -s lib cli selftests guest-scripts >/dev/null
rc=0
for k in 6.1 6.12; do
	log "kernel $k: selftests ${SELFTESTS[*]} with $OUT/ko/$k/ftnl.ko"
	if "$ROOT/tools/vm/run" --kernel "$k" --ko "$OUT/ko/$k/ftnl.ko" \
		--bin /usr/bin/ftnl-cli --timeout 1200 -- \
		env FTNL_CLI=/usr/local/bin/ftnl-cli \
		/opt/ftnl/selftests/run_tests.sh "${SELFTESTS[@]}" >"$OUT/selftests-$k.tap" 2>&1; then
		log "kernel $k: $(grep -c '^ok ' "$OUT/selftests-$k.tap") passed"
	else
		rc=1
		grep '^not ok' "$OUT/selftests-$k.tap" >&2 || tail -n 20 "$OUT/selftests-$k.tap" >&2
		log "kernel $k: FAILED (log: $OUT/selftests-$k.tap)"
	fi
done
log "times: package build $(cat "$OUT/build.time") s; apt-get install with the DKMS build for $kver61 $t_install s; DKMS build for $kver612 $t_612 s"
exit $rc
