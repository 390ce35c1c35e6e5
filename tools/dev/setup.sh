#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/dev/setup.sh [--refresh]: make this machine able to build, check and demo
# ftnl. Run by 'make setup' (and so by 'make check' and 'make demo') on every
# invocation: idempotent, and a fraction of a second when everything is there.
#
#  1. Installs the missing Debian packages ($PACKAGES below) with apt-get,
#     running 'apt-get update' only if something has to be installed.
#  2. Kernel 6.1 (Debian 12's own): linux-image-amd64 + linux-headers-amd64
#     are installed on the host; the headers are the module's build dir.
#  3. Kernel 6.12 (bookworm-backports): a private apt configuration under
#     .cache/apt/ points at the <codename>-backports suite of the mirror the
#     machine's own apt sources already use; the newest 6.12 image, headers,
#     -common headers and kbuild packages are 'apt-get download'ed and
#     'dpkg -x'ed into .cache/kernels/6.12/root, never installed on the host.
#     The unpacked headers are patched so that 'make -C <kdir> M=...' works
#     from there, and depmod indexes the unpacked modules. The compiler the
#     packages were built with (their gcc-NN dependency) is installed.
#     Once unpacked, the kernel is kept: --refresh fetches the newest again.
#  4. Extracts from /usr/src/linux-source-6.1.tar.xz only checkpatch.pl and
#     its data files and the kselftest harness headers, into .cache/linux-src/.
#
# Writes nothing outside the repository except through apt-get and dpkg.
# Must run as root when something has to be installed (CI runs it so).

set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=$ROOT/.cache
KERNELS=$CACHE/kernels
LINUX_SRC=$CACHE/linux-src
PRIVATE_APT=$CACHE/apt

export DEBIAN_FRONTEND=noninteractive

# Everything the build, the checks and the VM runner use. gcc-12 is the
# compiler Debian 12's kernels are built with (the headers call it by name);
# dwarves provides pahole, which kbuild runs to add BTF to modules. clang
# and its libFuzzer runtime are for 'make fuzz' (make check replays the
# fuzz corpus with gcc alone). libslurm-dev builds ftnl-slurm; slurmctld,
# slurmd, slurm-client and munge are the real Slurm its test boots in the
# VM (tools/slurm/check.sh; their services are not started here).
# debootstrap, qemu-img and mkfs.ext4/debugfs make the Debian 12 disk of
# tools/cluster/run --image debian.
PACKAGES=(
	gcc gcc-12 make pkg-config libc6-dev binutils libasan8 libubsan1
	perl python3 kmod bc flex bison libelf-dev libssl-dev dwarves
	cpio xz-utils zstd ca-certificates
	qemu-system-x86 busybox-static iproute2 nftables dash bash
	libmnl-dev libnl-3-dev libnl-genl-3-dev
	linux-image-amd64 linux-headers-amd64 linux-source-6.1 sparse
	clang libclang-rt-14-dev
	libslurm-dev slurmctld slurmd slurm-client munge
	debootstrap qemu-utils e2fsprogs shellcheck
)

# The members of the 6.1 source tarball the project uses.
LINUX_SRC_FILES=(
	scripts/checkpatch.pl
	scripts/spelling.txt
	scripts/const_structs.checkpatch
	tools/testing/selftests/kselftest_harness.h
	tools/testing/selftests/kselftest.h
)

refresh=0
for arg; do
	case $arg in
	--refresh) refresh=1 ;;
	-h | --help)
		sed -n '3,25s/^# \{0,1\}//p' "$0"
		exit 0
		;;
	*)
		printf 'usage: %s [--refresh]\n' "$0" >&2
		exit 2
		;;
	esac
done

log() { printf 'setup: %s\n' "$*" >&2; }
die() {
	printf 'setup: error: %s\n' "$*" >&2
	exit 1
}

APT_GET=(apt-get -y -q -o Acquire::Retries=3 -o Dpkg::Use-Pty=0
	-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
apt_updated=0

# missing PKG...: print those packages that are not fully installed.
missing() {
	local p st
	for p; do
		st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null) || st=
		case $st in
		ii*) ;;
		*) printf '%s\n' "$p" ;;
		esac
	done
}

# apt_install PKG...: apt-get install whichever of them is missing.
apt_install() {
	local todo
	mapfile -t todo < <(missing "$@")
	[ ${#todo[@]} -gt 0 ] || return 0
	[ "$(id -u)" -eq 0 ] ||
		die "missing packages: ${todo[*]}; run this as root (or: apt-get install ${todo[*]})"
	log "installing: ${todo[*]}"
	if [ $apt_updated -eq 0 ]; then
		"${APT_GET[@]}" update </dev/null >&2 || die "apt-get update failed"
		apt_updated=1
	fi
	"${APT_GET[@]}" install --no-install-recommends "${todo[@]}" </dev/null >&2 ||
		die "apt-get install ${todo[*]} failed"
}

mkdir -p "$CACHE"
exec 9>"$CACHE/.setup.lock"
flock 9 # setups started in parallel run one after the other

# --- 1, 2: host packages, kernel 6.1 -----------------------------------------

apt_install "${PACKAGES[@]}"

kver61=$("$ROOT/tools/dev/kernels.sh" kver 6.1)
# The metapackages may point at a newer ABI than what is unpacked (e.g. the
# image was upgraded but not the headers): make both halves of that kernel
# present.
[ -f "/usr/src/linux-headers-$kver61/Makefile" ] || apt_install "linux-headers-$kver61"
[ -f "/boot/vmlinuz-$kver61" ] || apt_install "linux-image-$kver61"
[ -f "/lib/modules/$kver61/modules.dep" ] || {
	[ "$(id -u)" -eq 0 ] || die "/lib/modules/$kver61/modules.dep missing: run depmod $kver61 as root"
	depmod "$kver61"
}

# --- 3: kernel 6.12 from backports -------------------------------------------

# codename: the Debian release this machine runs (bookworm).
codename() {
	local VERSION_CODENAME=
	# shellcheck disable=SC1091
	. /etc/os-release
	[ -n "$VERSION_CODENAME" ] || die "cannot read VERSION_CODENAME from /etc/os-release"
	printf '%s\n' "$VERSION_CODENAME"
}

# mirror_source CODENAME: print, as deb822 lines, the URIs and Signed-By
# fields of the first enabled 'deb' source of suite CODENAME that the
# machine's apt configuration holds (deb822 *.sources first, then the
# one-line *.list files and sources.list).
mirror_source() {
	local f out
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		out=$(awk -v suite="$1" '
			function flush() {
				if (!done && types ~ /(^| )deb( |$)/ && suites ~ ("(^| )" suite "( |$)") &&
				    enabled != "no" && uri != "") {
					print "URIs: " uri
					if (signed != "") print signed
					done = 1
				}
				types = suites = uri = signed = enabled = ""; field = ""
			}
			/^[ \t]*#/ { next }
			/^[ \t]*$/ { flush(); next }
			/^[ \t]/ { if (field == "signed-by") signed = signed "\n" $0; next }
			{
				field = tolower(substr($0, 1, index($0, ":") - 1))
				val = substr($0, index($0, ":") + 1)
				gsub(/^[ \t]+|[ \t]+$/, "", val)
				if (field == "types") types = val
				else if (field == "suites") suites = val
				else if (field == "uris") { split(val, u, /[ \t]+/); uri = u[1] }
				else if (field == "enabled") enabled = tolower(val)
				else if (field == "signed-by") signed = "Signed-By: " val
			}
			END { flush() }' "$f")
		if [ -n "$out" ]; then
			printf '%s\n' "$out"
			return 0
		fi
	done
	for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list; do
		[ -f "$f" ] || continue
		out=$(awk -v suite="$1" '
			{ sub(/#.*/, "") }
			$1 != "deb" { next }
			{
				i = 2; signed = ""
				if ($2 ~ /^\[/) {
					for (; i <= NF; i++) {
						if ($i ~ /^\[?signed-by=/) { s = $i; sub(/^\[?signed-by=/, "", s); sub(/\]$/, "", s); signed = s }
						if ($i ~ /\]$/) { i++; break }
					}
				}
				if ($(i + 1) != suite) next
				print "URIs: " $i
				if (signed != "") print "Signed-By: " signed
				exit
			}' "$f")
		if [ -n "$out" ]; then
			printf '%s\n' "$out"
			return 0
		fi
	done
	return 1
}

# The private apt: only the backports suite, its own lists, cache and
# (empty) dpkg status, so the host's apt state is never touched.
APT_BPO=(-o "Dir::Etc::SourceList=$PRIVATE_APT/backports.sources"
	-o "Dir::Etc::SourceParts=$PRIVATE_APT/none"
	-o "Dir::Etc::Preferences=$PRIVATE_APT/none/preferences"
	-o "Dir::Etc::PreferencesParts=$PRIVATE_APT/none"
	-o "Dir::State::Lists=$PRIVATE_APT/lists"
	-o "Dir::State::status=$PRIVATE_APT/status"
	-o "Dir::Cache=$PRIVATE_APT/cache"
	-o APT::Sandbox::User=root -o Acquire::Retries=3)

private_apt_update() {
	local suite uri
	suite=$(codename)-backports
	uri=$(mirror_source "$(codename)") ||
		die "no 'deb' source for suite $(codename) in /etc/apt/sources.list{,.d/}: cannot locate $suite"
	mkdir -p "$PRIVATE_APT/none" "$PRIVATE_APT/lists/partial" "$PRIVATE_APT/cache/archives/partial"
	: >"$PRIVATE_APT/status"
	printf 'Types: deb\n%s\nSuites: %s\nComponents: main\n' "$uri" "$suite" \
		>"$PRIVATE_APT/backports.sources"
	log "fetching the $suite index (${uri%%$'\n'*})"
	apt-get "${APT_BPO[@]}" -q update </dev/null >&2 || die "apt-get update of $suite failed"
}

# The newest 6.12 amd64 image of the suite: what its linux-image-amd64
# points at if that is a 6.12, else the highest linux-image-6.12.*-amd64.
bpo_kver() {
	local dep
	dep=$(apt-cache "${APT_BPO[@]}" depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: linux-image-\(6\.12\.[^ ]*-amd64\)$/\1/p' | head -n1)
	if [ -z "$dep" ]; then
		dep=$(apt-cache "${APT_BPO[@]}" pkgnames linux-image-6.12. 2>/dev/null |
			sed -n 's/^linux-image-\(6\.12\.[0-9][^ ]*-amd64\)$/\1/p' | sort -V | tail -n1)
	fi
	[ -n "$dep" ] || die "no 6.12 amd64 kernel in $(codename)-backports"
	printf '%s\n' "$dep"
}

# deps_matching PKG REGEX: PKG's direct dependencies matching REGEX.
deps_matching() {
	apt-cache "${APT_BPO[@]}" depends --no-recommends --no-suggests "$1" |
		sed -n 's/^ *|\{0,1\}Depends: \([^ <>]*\)$/\1/p' | grep -E "$2" | sort -u || true
}

# k612_ok: is the unpacked 6.12 tree complete and usable from here?
k612_ok() {
	local kver root hdr
	kver=$(cat "$KERNELS/6.12/kver" 2>/dev/null) || return 1
	root=$KERNELS/6.12/root
	hdr=$root/usr/src/linux-headers-$kver
	[ -f "$root/boot/vmlinuz-$kver" ] &&
		[ -f "$root/lib/modules/$kver/modules.dep" ] &&
		[ -f "$hdr/.config" ] &&
		[ -f "$(readlink -f "$hdr/scripts")/basic/fixdep" ] &&
		grep -q '^include \.\./linux-headers-.*-common/Makefile$' "$hdr/Makefile" &&
		[ -f "$hdr/$(sed -n 's/^include //p' "$hdr/Makefile")" ]
}

fetch_6_12() {
	local kver dir tmp hdr common pkgs cc deb
	dir=$KERNELS/6.12
	private_apt_update
	kver=$(bpo_kver)
	mapfile -t pkgs < <(
		printf '%s\n' "linux-image-$kver" "linux-headers-$kver"
		deps_matching "linux-headers-$kver" '^linux-(headers-.*-common|kbuild-)'
	)
	[ ${#pkgs[@]} -ge 4 ] ||
		die "linux-headers-$kver: cannot find its -common and kbuild dependencies (got: ${pkgs[*]})"

	# The compiler the kernel was built with (the headers call it by name).
	mapfile -t cc < <(deps_matching "linux-headers-$kver" '^gcc-[0-9]+$')
	[ ${#cc[@]} -eq 0 ] || apt_install "${cc[@]}"

	log "downloading kernel $kver: ${pkgs[*]}"
	mkdir -p "$dir"
	tmp=$dir/tmp
	rm -rf "$tmp" "$dir/root.new"
	mkdir -p "$tmp" "$dir/root.new"
	(cd "$tmp" && apt-get "${APT_BPO[@]}" -q download "${pkgs[@]}" </dev/null >&2) ||
		die "apt-get download ${pkgs[*]} failed"
	for deb in "$tmp"/*.deb; do
		dpkg -x "$deb" "$dir/root.new" || die "dpkg -x $deb failed"
	done
	rm -rf "$tmp"

	# Make the unpacked tree self-contained: the arch headers' Makefile
	# includes the -common one by its /usr/src path, and lib/modules'
	# build/source links are absolute. Relative paths work from any place
	# the repository is checked out ('make -C kdir' runs from kdir).
	hdr=$dir/root.new/usr/src/linux-headers-$kver
	[ -f "$hdr/Makefile" ] || die "linux-headers-$kver: no Makefile after unpacking"
	common=$(sed -n 's|^include /usr/src/\(linux-headers-[^/]*-common\)/Makefile$|\1|p' "$hdr/Makefile")
	if [ -z "$common" ] || [ ! -f "$dir/root.new/usr/src/$common/Makefile" ]; then
		die "linux-headers-$kver: unexpected Makefile: $(cat "$hdr/Makefile")"
	fi
	printf 'include ../%s/Makefile\n' "$common" >"$hdr/Makefile"
	ln -sfn "../../../usr/src/linux-headers-$kver" "$dir/root.new/lib/modules/$kver/build"
	ln -sfn "../../../usr/src/$common" "$dir/root.new/lib/modules/$kver/source"
	depmod -b "$dir/root.new" "$kver" || die "depmod for $kver failed"

	rm -rf "$dir/root" "$dir/kver"
	mv "$dir/root.new" "$dir/root"
	printf '%s\n' "$kver" >"$dir/kver.new"
	mv "$dir/kver.new" "$dir/kver"
	k612_ok || die "kernel $kver unpacked in $dir but incomplete"
	log "kernel $kver ready in $dir/root"
}

if [ $refresh -eq 1 ] || ! k612_ok; then
	fetch_6_12
fi
kver612=$(cat "$KERNELS/6.12/kver")

# The compiler of the 6.12 headers must be here even on a machine whose
# cache survived (CI caches .cache/ but not the packages).
cc612=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="[^ ]*\(gcc-[0-9][0-9]*\) .*/\1/p' \
	"$KERNELS/6.12/root/usr/src/linux-headers-$kver612/.config")
[ -z "$cc612" ] || apt_install "$cc612"

# --- 4: the few files of the 6.1 source tree the project uses ----------------

src_tar=/usr/src/linux-source-6.1.tar.xz
src_ver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
src_ok=1
[ "$(cat "$LINUX_SRC/.version" 2>/dev/null || true)" = "$src_ver" ] || src_ok=0
for f in "${LINUX_SRC_FILES[@]}"; do
	[ -f "$LINUX_SRC/$f" ] || src_ok=0
done
if [ $src_ok -eq 0 ]; then
	[ -f "$src_tar" ] || die "$src_tar missing (package linux-source-6.1)"
	log "extracting ${LINUX_SRC_FILES[*]} from $src_tar"
	top=$(tar -tJf "$src_tar" 2>/dev/null | head -n1 || true)
	top=${top%%/*}
	[ -n "$top" ] || die "cannot list $src_tar"
	rm -rf "$LINUX_SRC.new"
	mkdir -p "$LINUX_SRC.new"
	tar -xJf "$src_tar" -C "$LINUX_SRC.new" --strip-components=1 \
		"${LINUX_SRC_FILES[@]/#/$top/}" || die "extracting from $src_tar failed"
	printf '%s\n' "$src_ver" >"$LINUX_SRC.new/.version"
	rm -rf "$LINUX_SRC"
	mv "$LINUX_SRC.new" "$LINUX_SRC"
fi

printf 'setup: ok (kernels: 6.1 = %s, 6.12 = %s)\n' "$kver61" "$kver612"
