#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ftnl-slurm's side of ftnl, on a real module, without Slurm (--dry-run:
# it logs the updates it would send): a 4-node cluster (one netns each,
# names cn1..cn4, self auto), ftnl-slurm on every node:
#   - node 2 cut off (its link cut; its ftnl-slurm runs on): exactly one
#     ftnl-slurm of the three others, the observer's, would set cn2 DOWN,
#     with a reason naming ftnl, the cause and that observer; the two
#     others say another node tells Slurm; node 2, hearing no member,
#     expels itself, and its own ftnl-slurm would drain cn2 with a
#     reason naming the expulsion;
#   - node 4 leaves (cluster leave): exactly one, node 1 (the lowest live
#     id), would drain cn4, "ftnl: left the cluster";
#   - idle, a daemon takes no CPU time (no busy polling);
#   - SIGTERM: every ftnl-slurm exits 0.
# tools/slurm/check.sh runs ftnl-slurm against a real slurmctld.

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

CLI=${FTNL_CLI:-ftnl-cli}
FS=${FTNL_SLURM:-ftnl-slurm}
NET=10.78.0
BR=ftnl-sd-br
ns() { echo "ftnl-sd-$1"; }

if ! command -v "$FS" >/dev/null 2>&1; then
	not_ok "ftnl-slurm on PATH"
	tap_end
	exit 1
fi

topology() {
	netns_add "$BR" || return 1
	"$IP" -n "$BR" link add br0 type bridge || return 1
	"$IP" -n "$BR" link set br0 up || return 1
	for i in 1 2 3 4; do
		n=$(ns "$i")
		netns_add "$n" || return 1
		"$IP" -n "$BR" link add "v$i" type veth peer name eth0 netns "$n" || return 1
		"$IP" -n "$BR" link set "v$i" master br0 up || return 1
		"$IP" -n "$n" addr add "$NET.$i/24" dev eth0 || return 1
		"$IP" -n "$n" link set eth0 up || return 1
	done
}
if ! topology; then
	not_ok "4 network namespaces on a bridge"
	tap_end
	exit 1
fi

key=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
{
	echo "cluster 7"
	echo "self auto"
	echo "heartbeat $(scaled 100)ms"
	echo "timeout $(scaled 1000)ms"
	echo "key $key"
	for i in 1 2 3 4; do echo "node $i $NET.$i 7400 name cn$i"; done
} >"$LIB_TMP/ftnl.conf"
cfg_ok=1
for i in 1 2 3 4; do
	in_ns "$(ns "$i")" "$CLI" cluster set file "$LIB_TMP/ftnl.conf" >"$LIB_TMP/set.$i" 2>&1 || cfg_ok=0
done
check "4 nodes configured from one file (self auto, names)" [ $cfg_ok -eq 1 ]

pids=
for i in 1 2 3 4; do
	# ip execs ftnl-slurm: $! is the daemon itself, to signal below.
	"$IP" netns exec "$(ns "$i")" "$FS" --dry-run -v >"$LIB_TMP/fs.$i" 2>&1 &
	eval "pid$i=$!"
	pids="$pids $!"
done
kill_all() { for p in $pids; do kill "$p" 2>/dev/null; done; }
trap 'kill_all; lib_cleanup' EXIT

# wait_grep SECONDS PATTERN FILE...: until one FILE has PATTERN.
wait_grep() {
	_t=$(($1 * 10))
	_p=$2
	shift 2
	while [ $_t -gt 0 ]; do
		grep -q -- "$_p" "$@" 2>/dev/null && return 0
		sleep 0.1
		_t=$((_t - 1))
	done
	return 1
}
started=0
for i in 1 2 3 4; do
	wait_grep 20 'started: self' "$LIB_TMP/fs.$i" && started=$((started + 1))
done
check "ftnl-slurm started on every node ($started)" [ $started -eq 4 ]
sleep "$(scaled 2)"

# Node 2 is cut off: its link goes silent, its ftnl-slurm runs on.
"$IP" -n "$BR" link set v2 down
wait_grep "$(scaled 15)" 'cn2: would set DOWN' "$LIB_TMP/fs.1" "$LIB_TMP/fs.3" "$LIB_TMP/fs.4"
sleep "$(scaled 2)" # a second actor would have spoken by now
actors=$(grep -l 'cn2: would set DOWN' "$LIB_TMP/fs.1" "$LIB_TMP/fs.3" "$LIB_TMP/fs.4" | wc -l)
deferred=$(grep -l 'node 2 (cn2) .*another node tells Slurm' "$LIB_TMP/fs.1" "$LIB_TMP/fs.3" "$LIB_TMP/fs.4" | wc -l)
check "node 2 silenced: one ftnl-slurm would set cn2 DOWN ($actors), two defer ($deferred)" \
	test "$actors" -eq 1 -a "$deferred" -eq 2
line=$(grep -h 'cn2: would set DOWN' "$LIB_TMP/fs.1" "$LIB_TMP/fs.3" "$LIB_TMP/fs.4" | head -n 1)
diag "$line"
actor=$(grep -l 'cn2: would set DOWN' "$LIB_TMP/fs.1" "$LIB_TMP/fs.3" "$LIB_TMP/fs.4" | head -n 1)
actor=${actor##*.}
case $line in
*"would set DOWN: ftnl: observed dead by cn$actor (incarnation "[1-9]*")") ok "the reason names ftnl, the cause and the observer (cn$actor, the one acting)" ;;
*) not_ok "the reason names ftnl, the cause and the observer (cn$actor, the one acting)" ;;
esac

# Node 4 leaves: node 1, the lowest live id, drains it.
in_ns "$(ns 4)" "$CLI" cluster leave >"$LIB_TMP/leave" 2>&1
wait_grep "$(scaled 15)" 'cn4: would set DRAIN' "$LIB_TMP/fs.1" "$LIB_TMP/fs.3"
sleep "$(scaled 2)"
drainers=$(grep -l 'cn4: would set DRAIN: ftnl: left the cluster' "$LIB_TMP/fs.1" "$LIB_TMP/fs.3" | wc -l)
by_node1=0
grep -q 'cn4: would set DRAIN' "$LIB_TMP/fs.1" && by_node1=1
check "node 4 left: one ftnl-slurm would drain cn4 ($drainers), node 1's" \
	test "$drainers" -eq 1 -a $by_node1 -eq 1

# Node 2, cut off, hears no member and expels itself; its own ftnl-slurm
# would drain it (--on-expel drain, the default).
wait_grep "$(scaled 20)" 'cn2: would set DRAIN' "$LIB_TMP/fs.2"
line=$(grep -h 'cn2: would set DRAIN' "$LIB_TMP/fs.2" | head -n 1)
case $line in
*"would set DRAIN: ftnl: expelled itself, hears no member (incarnation "[1-9]*")") ok "node 2 expelled itself: its own ftnl-slurm would drain cn2, the reason naming the expulsion" ;;
*) not_ok "node 2 expelled itself: its own ftnl-slurm would drain cn2, the reason naming the expulsion ($line)" ;;
esac

# No busy polling: an idle daemon sleeps in poll(2) (utime + stime, in
# clock ticks, from /proc/PID/stat, over 2 s).
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
# shellcheck disable=SC2154 # pid1 is set by the eval above
t1=$(ticks "$pid1")
sleep 2
t2=$(ticks "$pid1")
check "idle, ftnl-slurm uses no CPU ($((t2 - t1)) ticks in 2 s)" [ $((t2 - t1)) -le 1 ]

rc_ok=1
for i in 1 2 3 4; do
	eval "p=\$pid$i"
	kill -TERM "$p" 2>/dev/null
	wait "$p" || rc_ok=0
done
check "SIGTERM: every ftnl-slurm exits 0" [ $rc_ok -eq 1 ]
pids=
for i in 1 2 3 4; do
	grep -q 'would set\|another node\|never spoke\|stopping' "$LIB_TMP/fs.$i" || continue
	sed "s/^/# cn$i: /" "$LIB_TMP/fs.$i"
done
tap_end
