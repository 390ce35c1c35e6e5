#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "ftnl-cli health" on a real module, a 3-node virtual cluster
# (h = 100 ms, d = 2 s, so that an emulated guest on a loaded host has no
# false suspicion; the lateness thresholds are set far out of reach: they
# are the unit tests' business): its exit status and its one line
#   - 2 (CRITICAL) "not configured" in a namespace without a cluster;
#   - 0 (OK) "observing node N" on a configured node;
#   - 1 (WARNING) "dropping datagrams" (too short) while garbage reaches
#     the node's port during the window (counters compared over it);
#   - 2 again on a node that left.

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

CLI=${FTNL_CLI:-ftnl-cli}
export FTNL_VC_HB=100ms FTNL_VC_TIMEOUT=2s FTNL_VC_NET=10.80.0
LATE="late-warn 1s late-crit 2s"

# health_in NODE ARGS...: run health in NODE's netns; sets $status, $line.
health_in() {
	_node=$1
	shift
	line=$(ftnl-vcluster exec "$_node" "$CLI" health "$@" 2>"$LIB_TMP/health.err")
	status=$?
}

# expect DESC STATUS PATTERN: $status is STATUS and $line matches PATTERN.
expect() {
	# shellcheck disable=SC2254 # PATTERN is a glob on purpose
	case $line in
	$3) [ "$status" -eq "$2" ] && { ok "$1"; return; } ;;
	esac
	not_ok "$1 (exit $status: $line)"
	sed 's/^/#   /' "$LIB_TMP/health.err"
}

ftnl-vcluster down >/dev/null 2>&1
trap 'ftnl-vcluster down >/dev/null 2>&1; lib_cleanup' EXIT

netns_add ftnl-health-empty || exit 1
line=$(in_ns ftnl-health-empty "$CLI" health window 0 2>"$LIB_TMP/health.err")
status=$?
expect "no cluster: CRITICAL, not configured" 2 \
	"ftnl CRITICAL: not configured (no cluster in this network namespace)"

if ! ftnl-vcluster up 3 >"$LIB_TMP/up.log" 2>&1; then
	sed 's/^/# /' "$LIB_TMP/up.log"
	not_ok "3-node cluster configured"
	tap_end
	exit 1
fi
sleep 2	# heartbeats flowing

health_in 1 $LATE
expect "configured: OK, observing its emitter" 0 \
	"ftnl OK: cluster 1 node 1 observing node * (heartbeat *ago), 3 of 3 nodes alive"

# Garbage to node 1's port from node 2 for as long as a 3 s window lasts
# (on a loaded host the check may take its first sample late: sending
# all along, some datagrams fall inside the window whenever it starts).
ftnl-vcluster exec 1 "$CLI" health window 3s $LATE >"$LIB_TMP/line" 2>"$LIB_TMP/health.err" &
hpid=$!
while kill -0 $hpid 2>/dev/null; do
	ftnl-vcluster exec 2 bash -c 'echo garbage >/dev/udp/10.80.0.1/7400'
	sleep 0.2
done
wait $hpid
status=$?
line=$(cat "$LIB_TMP/line")
expect "garbage datagrams: WARNING, dropping datagrams too short" 1 \
	"ftnl WARNING: dropping datagrams: * in 3000ms (*size *)"

ftnl-vcluster exec 2 "$CLI" cluster leave >/dev/null 2>&1
health_in 2 window 0
expect "after a leave: CRITICAL, not configured" 2 \
	"ftnl CRITICAL: not configured*"

tap_end
