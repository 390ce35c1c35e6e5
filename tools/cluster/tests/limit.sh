#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cluster-limit: tools/cluster/run's --limit and what a run leaves behind
# when it ends. TAP. A stand-in for QEMU on PATH: a guest whose kernel
# hangs in its boot (the run must still end at --limit, exit 124, well
# before the 300 s boot deadline), and one whose QEMU exits at once (the
# run fails as unbootable, 125, at once). In both the run's output must
# close as it exits: nothing it started (the --limit watchdog's sleep, a
# stand-in guest) may go on holding it or running.
#
# Installed as build/tests/cluster-limit by tools/Makefile; finds the
# runner from its own location (build/tests -> tools/cluster) or
# $FTNL_ROOT. Needs root, /dev/net/tun and what the runner needs besides
# QEMU (build/bin/ftnl-cli and ftnl-cluster-node, a 6.1 guest image):
# skipped without.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
RUN=
for f in ${FTNL_ROOT:+"$FTNL_ROOT/tools/cluster/run"} \
	"$HERE/../../tools/cluster/run" "$HERE/../run"; do
	[ -x "$f" ] && { RUN=$f; break; }
done

echo "TAP version 13"
if [ -z "$RUN" ]; then
	echo "Bail out! tools/cluster/run not found (set FTNL_ROOT)"
	exit 1
fi
ROOT=$(cd "$(dirname "$RUN")/../.." && pwd)
dir=$(mktemp -d)
# The stand-in's processes carry this tag: the test finds what is left.
tag=ftnl-limit-test-$$
trap 'pkill -KILL -f "$tag" 2>/dev/null; rm -rf "$dir"' EXIT

skip() {
	echo "ok 1 # SKIP $*"
	echo "1..1"
	exit 0
}
[ "$(id -u)" -eq 0 ] || skip "needs root (the runner's network namespace and taps)"
[ -c /dev/net/tun ] || skip "no /dev/net/tun"
for b in ftnl-cli ftnl-cluster-node; do
	[ -x "$ROOT/build/bin/$b" ] || skip "build/bin/$b missing"
done
why=$("$ROOT/tools/vm/run" --kernel 6.1 --no-load --initrd-only "$dir/probe.cpio" -- true 2>&1) ||
	skip "the runner cannot build a guest here ($(printf '%s' "$why" | tail -n1))"
rm -f "$dir/probe.cpio"*

mkdir -p "$dir/bin"
cat >"$dir/bin/qemu-system-x86_64" <<STANDIN
#!/bin/bash
[ "\${1:-}" = --version ] && { echo "QEMU emulator version 0 (cluster-limit test)"; exit 0; }
con=
for a; do
	case \$a in file,id=con,path=*) con=\${a#file,id=con,path=} ;; esac
done
printf '[    0.00] Command line: console=ttyS0\n[    1.23] pnp: PnP ACPI: found 5 devices\n' >"\$con"
[ "\$FAKEQ_MODE" = hang ] || exit 1
exec -a "$tag-guest" sleep 3600
STANDIN
chmod +x "$dir/bin/qemu-system-x86_64"

n=0
failed=0
# run MODE LIMIT: the runner, 2 nodes, behind a pipe as a user's
# 'tools/cluster/run ... | tee' would be; sets rc (the runner's), took
# (until the pipe closed) and out.
run() {
	local t0=$EPOCHREALTIME
	# shellcheck disable=SC2016 # expanded by the inner shell
	timeout 400 env PATH="$dir/bin:$PATH" FAKEQ_MODE="$1" bash -c \
		'"$0" --kernel 6.1 --nodes 2 --limit "$1" --log-dir "$2" -- power-kill; echo "runner-exit $?"' \
		"$RUN" "$2" "$dir/log-$1" 2>&1 | cat >"$dir/out-$1"
	took=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
	rc=$(sed -n 's/^runner-exit //p' "$dir/out-$1")
	out=$(cat "$dir/out-$1")
}
# check DESCRIPTION WANT-RC MAX-SECONDS
check() {
	n=$((n + 1))
	if [ "${rc:-none}" = "$2" ] && awk -v s="$took" -v hi="$3" 'BEGIN { exit !(s <= hi) }'; then
		echo "ok $n $1"
	else
		failed=$((failed + 1))
		echo "not ok $n $1"
		echo "#   exit ${rc:-none} (want $2), output closed after $took s (want at most $3 s)"
		printf '%s\n' "$out" | tail -n 8 | sed 's/^/#   /'
	fi
}
# left DESCRIPTION: nothing of the stand-in's still runs.
left() {
	n=$((n + 1))
	if pgrep -f "$tag" >/dev/null; then
		failed=$((failed + 1))
		echo "not ok $n $1"
		pgrep -af "$tag" | sed 's/^/#   still running: /'
	else
		echo "ok $n $1"
	fi
}

# The bounds: the image is built first (seconds to a minute on a loaded
# host), then the limit; 300 s is the boot deadline a hang would wait.
run hang 20
check "a guest hung in its boot: the run ends at --limit (124), not at the boot deadline" 124 200
n=$((n + 1))
if printf '%s' "$out" | grep -q 'over --limit (20 s)'; then
	echo "ok $n the run says it went over --limit"
else
	failed=$((failed + 1))
	echo "not ok $n the run says it went over --limit"
fi
left "no stand-in guest outlives a run ended at --limit"

run exit 240
check "a QEMU that exits at once: the run fails (125) and its output closes, not at --limit" 125 200
left "no stand-in guest outlives a failed run"

echo "1..$n"
[ $failed -eq 0 ]
