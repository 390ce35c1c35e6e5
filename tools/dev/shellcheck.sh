#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs shellcheck over every shell script of the tree: the *.sh files and the
# files whose first line runs sh or bash (tools/vm/run, .ci/run, ...).
# Warnings and errors fail; style and info notes do not. A script that
# means what shellcheck flags says so with a disable comment and a reason.
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
command -v shellcheck >/dev/null || { echo "shellcheck missing: run 'make setup'" >&2; exit 1; }

cd "$ROOT"
files=()
while IFS= read -r -d '' f; do
	[ -f "$f" ] || continue
	case $f in
	*.sh) files+=("$f") ;;
	*) head -n 1 "$f" | grep -qE '^#!(/usr)?/bin/(env )?(ba|da)?sh( |$)' && files+=("$f") ;;
	esac
done < <(git ls-files -z)
[ ${#files[@]} -gt 0 ] || { echo "no shell script found" >&2; exit 1; }
if shellcheck -S warning "${files[@]}"; then
	echo "shellcheck: ${#files[@]} scripts clean"
else
	echo "shellcheck: warnings above (${#files[@]} scripts checked)"
	exit 1
fi
