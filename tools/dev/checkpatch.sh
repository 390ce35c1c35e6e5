#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl --strict over every kernel source file, the uapi header and
# the module's userspace tests (kmod/tests).
# checkpatch comes from Debian's linux-source-6.1 (extracted by setup.sh).
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CHECKPATCH=$ROOT/.cache/linux-src/scripts/checkpatch.pl
[ -x "$CHECKPATCH" ] || { echo "checkpatch.pl missing: run 'make setup'" >&2; exit 1; }

cd "$ROOT"
status=0
count=0
# check IGNORE FILE...: checkpatch --strict over FILEs, ignoring the
# comma-separated message types IGNORE.
check() {
	local ignore=$1 f
	shift
	for f; do
		count=$((count + 1))
		if ! "$CHECKPATCH" --strict --no-tree --terse --show-types \
			--ignore "$ignore" -f "$f"; then
			status=1
		fi
	done
}

mapfile -t kernel < <(find kmod uapi -path kmod/tests -prune -o -name '*.[ch]' -print | sort)
check SPDX_LICENSE_TAG "${kernel[@]}"

# kmod/tests: userspace programs built from the pure kernel files, in
# kernel style too, less two checks that do not apply to them:
#   PREFER_DEFINED_ATTRIBUTE_MACRO: __printf() and the like come from the
#     kernel's compiler_attributes.h, which userspace does not have;
#   LONG_LINE_STRING: TAP case names and diagnostics are sentences, longer
#     than kernel messages, kept whole on one line so that grep finds them
#     (kernel style's reason; SPLIT_STRING stays checked).
mapfile -t tests < <(find kmod/tests -name '*.[ch]' | sort)
check SPDX_LICENSE_TAG,PREFER_DEFINED_ATTRIBUTE_MACRO,LONG_LINE_STRING "${tests[@]}"

[ $status -eq 0 ] && echo "checkpatch --strict: $count files clean"
exit $status
