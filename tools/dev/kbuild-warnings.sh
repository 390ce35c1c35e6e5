#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the module with W=1 and sparse (C=2: check every file) against each
# kernel that is set up, and fail on any compiler or sparse warning.
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
status=0
for k in ${VM_KERNELS:-6.1 6.12}; do
	kdir=$("$ROOT/tools/dev/kernels.sh" kdir "$k") || { status=1; continue; }
	tree=$ROOT/build/kmod/warnings-$k
	rm -rf "$tree" && mkdir -p "$tree"
	cp -rs "$ROOT/Kbuild" "$ROOT/kmod" "$ROOT/uapi" "$tree/"
	log=$tree.log
	if ! make -C "$kdir" M="$tree" W=1 C=2 modules >"$log" 2>&1; then
		echo "kernel $k: build failed"; cat "$log"; status=1; continue
	fi
	# kbuild's own progress lines start with two spaces and a verb.
	if grep -vE '^make|^  [A-Z]+ |^Skipping BTF' "$log" | grep -q .; then
		echo "kernel $k: warnings:"
		grep -vE '^make|^  [A-Z]+ |^Skipping BTF' "$log"
		status=1
	else
		echo "kernel $k: W=1 C=2 clean"
	fi
done
exit $status
