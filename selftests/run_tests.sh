#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run_tests.sh [--list FILE | TEST...]: run the ftnl selftests inside the
# guest and print one TAP stream on stdout.
#
# Runs the tests of tests.list in order (or those of FILE, e.g. debug.list,
# or only the TESTs named). Each test
# prints TAP of its own (kselftest_harness binaries, and the shell tests
# through lib.sh); this script renumbers their result lines into one
# sequence, prefixes them with the test's name, and turns everything else
# (their own "TAP version", plans, logs) into "# " comment lines, so that
# the only top-level lines are this stream's "ok N" / "not ok N". A test
# that exits non-zero without reporting a failure, reports fewer results
# than it planned, or none at all, adds a "not ok" line of its own.
#
#
# Under the VM runner, the kernel's own checkers judge too: a kernel log
# line matching $FTNL_VM_WARN_RE (lockdep, KASAN, BUG:, WARNING:, ODEBUG ...)
# logged while a test ran adds a "not ok" for that test, and on a kernel
# with kmemleak a last result says whether a leak scan after all tests
# found unreferenced objects. A report only the emulator can cause
# (tools/vm/emulator-faults.awk) is a "# kernel:" comment, not a failure.
#
# Exit status: 0 if every test passed (skips are passes), 1 otherwise.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE" || exit 1

# Longest any one test may run (the harness has its own per-case limits).
TEST_TIMEOUT=${FTNL_SELFTEST_TIMEOUT:-900}

if [ "${1:-}" = --list ]; then
	[ $# -eq 2 ] || { echo "usage: $0 [--list FILE | TEST...]" >&2; exit 2; }
	tests=$(cat "$2") || exit 1
elif [ $# -gt 0 ]; then
	tests=$*
else
	tests=$(cat tests.list) || exit 1
fi
WARN_RE=${FTNL_VM_WARN_RE:-}
# tools/vm/run's filter of the reports only the emulator can cause (see
# tools/vm/emulator-faults.awk): the guest's base image has it.
FAULTS_AWK=/usr/share/ftnl-vm/emulator-faults.awk
KMEMLEAK=/sys/kernel/debug/kmemleak

echo "TAP version 13"

# The debug kernel (release *-ftnl-debug: lockdep, KASAN) runs timers
# hundreds of ms late; its timing tests scale h, d and their margins
# (st_time_scale(), lib.sh's scaled). Set FTNL_TIME_SCALE to override.
case $(uname -r) in
*-ftnl-debug) : "${FTNL_TIME_SCALE:=3}" ;;
esac
export FTNL_TIME_SCALE="${FTNL_TIME_SCALE:-1}"
echo "# time scale $FTNL_TIME_SCALE ($(uname -r))"

# The runner loads the module; when run by hand (or with --no-load), load it.
if [ ! -d /sys/module/ftnl ] && [ -f /opt/ftnl/ftnl.ko ]; then
	echo "# loading /opt/ftnl/ftnl.ko"
	insmod /opt/ftnl/ftnl.ko || echo "# insmod /opt/ftnl/ftnl.ko failed"
fi

state=$(mktemp /tmp/ftnl-selftests.XXXXXX) || exit 1
trap 'rm -f "$state"' EXIT
n=0
failed=0
skipped=0
t0=$(date +%s)

# renumber BASE NAME: filter one test's output (ending with a line
# "__ftnl_rc__ STATUS"); write "COUNT FAILED SKIPPED" to $state.
renumber() {
	awk -v base="$1" -v name="$2" -v state="$state" '
	function result(ok, desc,    d) {
		k++
		d = desc
		sub(/^[ \t]+/, "", d)
		if (d ~ /^# *[Ss][Kk][Ii][Pp]/) {
			s++
			sub(/^# */, "", d)
			printf "ok %d %s: %s # %s\n", base + k, name, (current != "" ? current : "?"), d
		} else {
			if (!ok) f++
			sub(/^- /, "", d)
			sub(/^global\./, "", d)
			if (d == "") d = (current != "" ? current : "?")
			printf "%s %d %s: %s\n", ok ? "ok" : "not ok", base + k, name, d
		}
		current = ""
		fflush()
	}
	/^__ftnl_rc__ / { rc = $2; next }
	/^ok [0-9]+/ { sub(/^ok [0-9]+/, ""); result(1, $0); next }
	/^not ok [0-9]+/ { sub(/^not ok [0-9]+/, ""); result(0, $0); next }
	/^1\.\.[0-9]+/ { plan = substr($1, 4) + 0; print "# " $0; fflush(); next }
	{
		# the harness announces each case: remember its name for skips
		if (match($0, /^#  RUN  +[^ ]+/)) {
			current = $0
			sub(/^#  RUN  +/, "", current)
			sub(/ .*/, "", current)
			sub(/^global\./, "", current)
		}
		if ($0 ~ /^#/) print
		else print "# " $0
		fflush()
	}
	END {
		if (plan != "" && k < plan) {
			k++; f++
			printf "not ok %d %s: reported %d of %d planned results\n", base + k, name, k - 1, plan
		} else if (k == 0) {
			k++; f++
			printf "not ok %d %s: reported no result (exit status %s)\n", base + k, name, rc
		} else if (rc != 0 && f == 0) {
			k++; f++
			printf "not ok %d %s: exited with status %s without reporting a failure\n", base + k, name, rc
		}
		printf "%d %d %d\n", k, f, s > state
	}'
}

# log_clock: seconds since boot, the clock of the kernel log's timestamps.
log_clock() {
	read -r up _ </proc/uptime
	echo "$up"
}

# kernel_log SINCE: the kernel log from SINCE on (the buffer may have
# wrapped: times, not line counts), the emulator's faults replaced.
kernel_log() {
	if [ -f "$FAULTS_AWK" ]; then
		dmesg | awk -f "$FAULTS_AWK"
	else
		dmesg
	fi | awk -v since="$1" '
		/^\[ *[0-9]+\.[0-9]+\]/ { t = substr($0, 2, index($0, "]") - 2) + 0 }
		t >= since'
}

# kernel_verdict NAME SINCE: a "not ok" for test NAME if the kernel
# reported something (a line matching $WARN_RE) since SINCE; an
# emulator's fault is only noted.
kernel_verdict() {
	[ -n "$WARN_RE" ] || return 0
	klog=$(kernel_log "$2")
	printf '%s\n' "$klog" | grep -F 'ftnl-vm: emulator fault' | sed 's/^/# kernel: /'
	reports=$(printf '%s\n' "$klog" | grep -E "$WARN_RE")
	[ -n "$reports" ] || return 0
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n $1: kernel log: $(printf '%s\n' "$reports" | head -n1)"
	printf '%s\n' "$reports" | head -n 40 | sed 's/^/# kernel: /'
}

for t in $tests; do
	since=$(log_clock)
	if [ ! -x "./$t" ]; then
		n=$((n + 1))
		failed=$((failed + 1))
		echo "not ok $n $t: no such test in $HERE"
		continue
	fi
	echo "# ---- $t"
	ts=$(date +%s)
	{
		if command -v timeout >/dev/null 2>&1; then
			timeout -k 10 "$TEST_TIMEOUT" "./$t" 2>&1 </dev/null
		else
			"./$t" 2>&1 </dev/null
		fi
		echo "__ftnl_rc__ $?"
	} | renumber "$n" "$t"
	read -r k f s <"$state"
	n=$((n + k))
	failed=$((failed + f))
	skipped=$((skipped + s))
	kernel_verdict "$t" "$since"
	echo "# ---- $t: $k results, $f failed, $s skipped, $(($(date +%s) - ts)) s"
done

# Leaks: a scan once every test is over (kmemleak does not report objects
# younger than 5 s: wait that long so the last test's are seen too).
if [ -n "$WARN_RE" ] && [ -w "$KMEMLEAK" ]; then
	echo "# ---- kmemleak"
	sleep 5
	ts=$(date +%s)
	echo scan >"$KMEMLEAK"
	leaks=$(grep -c '^unreferenced object' "$KMEMLEAK")
	n=$((n + 1))
	if [ "$leaks" -eq 0 ]; then
		echo "ok $n kmemleak: no unreferenced object after the tests"
	else
		failed=$((failed + 1))
		echo "not ok $n kmemleak: $leaks unreferenced objects after the tests"
		sed 's/^/# kmemleak: /' "$KMEMLEAK" | head -n 200
	fi
	echo "# ---- kmemleak: scan in $(($(date +%s) - ts)) s"
fi

echo "1..$n"
echo "# ftnl selftests: $((n - failed - skipped)) passed, $failed failed, $skipped skipped in $(($(date +%s) - t0)) s"
[ "$failed" -eq 0 ]
