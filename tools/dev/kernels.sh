#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where are the kernels the project builds against and boots?
#
#   tools/dev/kernels.sh QUERY TAG
#
# TAG is a kernel series the project supports:
#   6.1   Debian 12's own kernel, installed on the host by tools/dev/setup.sh
#         (packages linux-image-amd64 + linux-headers-amd64). Its release
#         string is read from the installed linux-image-amd64's dependency.
#   6.12  the LTS kernel from bookworm-backports, downloaded and unpacked by
#         tools/dev/setup.sh under .cache/kernels/6.12/root (never installed on
#         the host). Its release string is in .cache/kernels/6.12/kver.
#   debug 6.1 from Debian's linux-source-6.1 with lockdep, KASAN, object
#         debugging and kmemleak, built by tools/dev/debug-kernel.sh ('make
#         debug-kernel') into a per-machine cache outside the repository.
#
# QUERY is one of:
#   kver     the full release string, e.g. 6.1.0-56-amd64
#   kdir     the kbuild directory: make -C "$(tools/dev/kernels.sh kdir 6.1)" M=...
#   vmlinuz  the bootable kernel image
#   moddir   the modules directory itself, i.e. <root>/lib/modules/<kver>
#            (holding kernel/, modules.dep, modules.builtin ...)
#   root     the prefix holding that kernel's lib/modules/<kver> tree, i.e.
#            what depmod -b / modprobe -d want: "/" for 6.1, the unpacked
#            package tree for 6.12
#   config   the kernel's .config
#   list     (no TAG) the supported tags, one per line
#
# Every path printed is absolute. If the kernel (or the queried part of it)
# is not set up, a message naming the fix goes to stderr and the exit status
# is 1; a bad invocation exits 2.

set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CACHE=$ROOT/.cache
TAGS=(6.1 6.12 debug)

die() {
	printf 'kernels.sh: %s\n' "$*" >&2
	exit 1
}

usage() {
	printf 'usage: %s {kver|kdir|vmlinuz|moddir|root|config} {%s}\n       %s list\n' \
		"$0" "$(IFS="|"; echo "${TAGS[*]}")" "$0" >&2
	exit 2
}

# kver_6_1: the release string of the installed linux-image-amd64's kernel.
kver_6_1() {
	local st deps dep kver

	st=$(dpkg-query -W -f='${db:Status-Abbrev}|${Depends}' linux-image-amd64 2>/dev/null) ||
		die "kernel 6.1: package linux-image-amd64 is not installed: run 'make setup'"
	case $st in
	ii*) ;;
	*) die "kernel 6.1: package linux-image-amd64 is not (fully) installed: run 'make setup'" ;;
	esac
	deps=${st#*|}
	kver=
	for dep in ${deps//,/ }; do
		case $dep in
		linux-image-*)
			kver=${dep#linux-image-}
			break
			;;
		esac
	done
	case $kver in
	6.1.*) ;;
	'') die "kernel 6.1: cannot read the kernel version from linux-image-amd64's dependencies ($deps)" ;;
	*) die "kernel 6.1: linux-image-amd64 depends on $kver, not a 6.1 kernel" ;;
	esac
	printf '%s\n' "$kver"
}

kver_6_12() {
	local f=$CACHE/kernels/6.12/kver kver

	[ -s "$f" ] || die "kernel 6.12 is not set up (no $f): run 'make setup'"
	kver=$(cat "$f")
	case $kver in
	6.12.*) ;;
	*) die "kernel 6.12: $f holds '$kver', not a 6.12 release: run 'make setup'" ;;
	esac
	printf '%s\n' "$kver"
}

# need PATH WHAT: PATH must exist, else fail naming WHAT.
need() {
	[ -e "$1" ] || die "kernel $tag: $2 missing ($1): run '$fix'"
	printf '%s\n' "$1"
}

[ $# -ge 1 ] || usage
query=$1
if [ "$query" = list ]; then
	[ $# -eq 1 ] || usage
	printf '%s\n' "${TAGS[@]}"
	exit 0
fi
[ $# -eq 2 ] || usage
tag=$2
fix='make setup' # what provides a missing part

case $tag in
6.1)
	kver=$(kver_6_1)
	root=/
	kdir=/usr/src/linux-headers-$kver
	vmlinuz=/boot/vmlinuz-$kver
	config=/boot/config-$kver
	moddir=/lib/modules/$kver
	;;
6.12)
	kver=$(kver_6_12)
	root=$CACHE/kernels/6.12/root
	kdir=$root/usr/src/linux-headers-$kver
	vmlinuz=$root/boot/vmlinuz-$kver
	config=$root/boot/config-$kver
	moddir=$root/lib/modules/$kver
	;;
debug)
	root=$("$ROOT/tools/dev/debug-kernel.sh" dir)
	[ -s "$root/kver" ] || die "the debug kernel is not built ($root): run 'make debug-kernel'"
	kver=$(cat "$root/kver")
	fix='make debug-kernel'
	kdir=$root/build
	vmlinuz=$kdir/arch/x86/boot/bzImage
	config=$kdir/.config
	root=$root/root
	moddir=$root/lib/modules/$kver
	;;
*)
	printf 'kernels.sh: unknown kernel "%s" (known: %s)\n' "$tag" "${TAGS[*]}" >&2
	exit 2
	;;
esac

case $query in
kver) printf '%s\n' "$kver" ;;
kdir)
	need "$kdir/Makefile" "kernel headers (linux-headers-$kver)" >/dev/null
	printf '%s\n' "$kdir"
	;;
vmlinuz) need "$vmlinuz" "kernel image" ;;
config) need "$config" "kernel config" ;;
moddir)
	need "$moddir/modules.dep" "modules.dep" >/dev/null
	printf '%s\n' "$moddir"
	;;
root)
	need "$moddir/modules.dep" "modules.dep" >/dev/null
	printf '%s\n' "$root"
	;;
*) usage ;;
esac
