#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl --strict over every kernel source file and the uapi header.
# checkpatch comes from Debian's linux-source-6.1 (extracted by setup.sh).
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CHECKPATCH=$ROOT/.cache/linux-src/scripts/checkpatch.pl
[ -x "$CHECKPATCH" ] || { echo "checkpatch.pl missing: run 'make setup'" >&2; exit 1; }

cd "$ROOT"
# kmod/tests is userspace test code, not kernel code.
mapfile -t files < <(find kmod uapi -path kmod/tests -prune -o -name '*.[ch]' -print | sort)
status=0
for f in "${files[@]}"; do
	if ! "$CHECKPATCH" --strict --no-tree --terse --show-types \
		--ignore SPDX_LICENSE_TAG -f "$f"; then
		status=1
	fi
done
[ $status -eq 0 ] && echo "checkpatch --strict: ${#files[@]} files clean"
exit $status
