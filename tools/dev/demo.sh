#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: build what is needed, boot Debian's 6.1 kernel in QEMU and show
# an 8-node ftnl cluster (tools/demo/demo-guest.sh) running in it.
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
KERNEL=${KERNEL:-6.1}
cd "$ROOT"

echo "== building ftnl (module for kernel $KERNEL, library, CLI)"
make -s -j"$(nproc)" lib cli guest-scripts >/dev/null
make -s selftests >/dev/null	# ftnl-group-worker, group-check
make -s modules-vm VM_KERNELS="$KERNEL" >/dev/null
echo "== booting kernel $KERNEL in QEMU (TCG, takes a few seconds)"
exec "$ROOT/tools/vm/run" --kernel "$KERNEL" --timeout 600 -- demo-guest.sh
