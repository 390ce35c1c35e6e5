#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/dev/debug-kernel.sh [build|dir|kver]: the project's debug kernel.
#
#   build  (default) build it unless already built: Debian's linux-source-6.1
#          (/usr/src/linux-source-6.1.tar.xz, installed by tools/setup.sh),
#          configured as allnoconfig + tools/dev/debug-kernel.config (lockdep,
#          KASAN, object debugging, kmemleak, everything the tests need built
#          in), compiled with -j$(nproc) (or $FTNL_KBUILD_JOBS).
#   dir    print its directory (it need not exist yet)
#   kver   print its release string (it must be built)
#
# The kernel lives outside the repository, so every clone and worktree of a
# machine shares one build: $FTNL_KERNEL_CACHE (default
# /var/cache/ftnl/kernels) / debug-<source version>-<hash>, the hash covering
# the settings of the config fragment and $RECIPE below. Inside:
#   src/    the unpacked source tree
#   build/  the kbuild output (O=): the kdir of 'make -C build M=...', the
#           image build/arch/x86/boot/bzImage, build/.config
#   root/   lib/modules/<kver> (modules.builtin, modules.dep) for the runner
#   kver    the release string, written last: its presence means "built"
# An interrupted build resumes where it stopped (make is incremental).
# Concurrent builds of the same kernel wait for each other (flock).

set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FRAGMENT=$ROOT/tools/dev/debug-kernel.config
SRC_TAR=/usr/src/linux-source-6.1.tar.xz
CACHE=${FTNL_KERNEL_CACHE:-/var/cache/ftnl/kernels}
# Part of the cache key with the fragment: change it when a change of the
# build steps below must give a new kernel.
RECIPE="allnoconfig+fragment, ARCH=x86_64, bzImage modules, v1"

die() {
	printf 'debug-kernel: error: %s\n' "$*" >&2
	exit 1
}
log() { printf 'debug-kernel: %s\n' "$*" >&2; }

# kernel_dir: where the kernel for this source version and recipe lives.
kernel_dir() {
	local srcver hash
	srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null) ||
		die "package linux-source-6.1 is not installed: run 'make setup'"
	[ -n "$srcver" ] || die "package linux-source-6.1 is not installed: run 'make setup'"
	# The settings only: editing a comment does not rebuild the kernel.
	hash=$({ grep -E '^(CONFIG_|# CONFIG_.* is not set$)' "$FRAGMENT"; echo "$RECIPE"; } |
		sha256sum | cut -c1-12)
	printf '%s/debug-%s-%s\n' "$CACHE" "$srcver" "$hash"
}

# check_config CONFIG: every setting of the fragment is in CONFIG as written
# (an option whose dependencies are missing is silently dropped by kconfig).
check_config() {
	local line opt bad=0
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF -- "$line" "$1" || {
				log "fragment asks for '$line'; .config has: $(grep -E "^(# )?${line%%=*}[= ]" "$1" || echo nothing)"
				bad=1
			}
			;;
		'# CONFIG_'*' is not set')
			opt=${line#\# }
			opt=${opt%% *}
			if grep -q "^$opt=" "$1"; then
				log "fragment disables $opt; .config has: $(grep "^$opt=" "$1")"
				bad=1
			fi
			;;
		esac
	done <"$FRAGMENT"
	[ $bad -eq 0 ] || die "the config fragment did not apply as written (see above)"
}

build() {
	local dir jobs kmake kver start
	dir=$(kernel_dir)
	[ -f "$dir/kver" ] && return 0
	[ -f "$SRC_TAR" ] || die "$SRC_TAR missing: run 'make setup'"
	mkdir -p "$dir"
	exec 8>"$dir/.lock"
	flock 8
	[ -f "$dir/kver" ] && return 0 # built by whoever held the lock
	start=$(date +%s)
	jobs=${FTNL_KBUILD_JOBS:-$(nproc)}

	if [ ! -f "$dir/src/Makefile" ]; then
		log "unpacking $SRC_TAR into $dir/src"
		rm -rf "$dir/src"
		mkdir -p "$dir/src"
		tar -xJf "$SRC_TAR" -C "$dir/src" --strip-components=1 ||
			die "unpacking $SRC_TAR failed"
	fi
	kmake=(make -C "$dir/src" O="$dir/build" ARCH=x86_64 -s)
	mkdir -p "$dir/build"
	if [ ! -f "$dir/build/.config" ]; then
		log "configuring: allnoconfig + ${FRAGMENT#"$ROOT"/}"
		KCONFIG_ALLCONFIG=$FRAGMENT "${kmake[@]}" allnoconfig >&2 ||
			die "allnoconfig failed"
		"${kmake[@]}" olddefconfig >&2 || die "olddefconfig failed"
	fi
	check_config "$dir/build/.config"

	log "building in $dir/build with -j$jobs (tens of minutes on 2 cores)"
	"${kmake[@]}" -j"$jobs" bzImage modules >&2 || die "kernel build failed"
	rm -rf "$dir/root"
	"${kmake[@]}" INSTALL_MOD_PATH="$dir/root" modules_install >&2 ||
		die "modules_install failed"
	kver=$("${kmake[@]}" kernelrelease)
	[ -f "$dir/root/lib/modules/$kver/modules.builtin" ] ||
		die "no modules.builtin for $kver after modules_install"
	# The runner and 'make M=' never need these links; they point into
	# the build machine's paths.
	rm -f "$dir/root/lib/modules/$kver/build" "$dir/root/lib/modules/$kver/source"
	printf '%s\n' "$kver" >"$dir/kver.new"
	mv "$dir/kver.new" "$dir/kver"
	log "kernel $kver built in $(($(date +%s) - start)) s: $dir"
}

case ${1:-build} in
build) build ;;
dir) kernel_dir ;;
kver)
	dir=$(kernel_dir)
	[ -f "$dir/kver" ] || die "the debug kernel is not built ($dir): run 'make debug-kernel'"
	cat "$dir/kver"
	;;
-h | --help) sed -n '3,25s/^# \{0,1\}//p' "$0" ;;
*)
	printf 'usage: %s [build|dir|kver]\n' "$0" >&2
	exit 2
	;;
esac
