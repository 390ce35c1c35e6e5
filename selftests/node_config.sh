#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The boot-time service's commands and what they rely on, on a 3-node
# cluster (one netns per node, veth to a bridge in a netns of its own):
#   - one /etc/ftnl/ftnl.conf with "self auto" and node names; each node
#     runs ftnl.service's own ExecStart line (read from the unit file) and
#     comes up as the node whose address it has;
#   - "node list" shows the names (text and JSON);
#   - "self auto" is refused with the reason, and nothing is configured,
#     in a netns with no address of the table and in one with two;
#   - the unit's ExecStop on node 3 is a graceful leave: node 1's monitor
#     shows the failure of node 3, cause leave, with its name;
#   - the unit's state file (/var/lib/ftnl/incarnation, "state" of cluster
#     set): ExecStart writes back the incarnation the module chose; read
#     as the floor, a node with no cluster takes a life above it (a
#     reboot whose wall clock is behind); garbage in it, or a floor above
#     a running life, is refused with the reason and changes nothing; a
#     reload with the floor it wrote is taken.

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

CLI=${FTNL_CLI:-ftnl-cli}
UNIT=$HERE/ftnl.service.in
NET=10.79.0
BR=ftnl-nc-br
CONF=/etc/ftnl/ftnl.conf

ns() { echo "ftnl-nc-$1"; }

if ! command -v "$CLI" >/dev/null 2>&1 || [ ! -f "$UNIT" ]; then
	not_ok "ftnl-cli on PATH and $UNIT present"
	tap_end
	exit 1
fi
BINDIR=$(dirname "$(command -v "$CLI")")

# unit_cmd KEY: the unit's KEY= command line, for this machine's ftnl-cli.
unit_cmd() {
	sed -n "s/^$1=//p" "$UNIT" | sed "s|@BINDIR@|$BINDIR|g"
}
START=$(unit_cmd ExecStart)
STOP=$(unit_cmd ExecStop)

STATE=/var/lib/ftnl/incarnation

cleanup_conf() { rm -rf /etc/ftnl /var/lib/ftnl; }

topology() {
	netns_add "$BR" || return 1
	"$IP" -n "$BR" link add br0 type bridge || return 1
	"$IP" -n "$BR" link set br0 up || return 1
	for i in 1 2 3; do
		n=$(ns "$i")
		netns_add "$n" || return 1
		"$IP" -n "$BR" link add "v$i" type veth peer name eth0 netns "$n" || return 1
		"$IP" -n "$BR" link set "v$i" master br0 up || return 1
		"$IP" -n "$n" addr add "$NET.$i/24" dev eth0 || return 1
		"$IP" -n "$n" link set eth0 up || return 1
	done
	# A host with the addresses of two nodes (on its loopback only).
	netns_add "$(ns x)" || return 1
	"$IP" -n "$(ns x)" addr add "$NET.1/32" dev lo || return 1
	"$IP" -n "$(ns x)" addr add "$NET.2/32" dev lo || return 1
}

if ! topology; then
	not_ok "topology"
	tap_end
	exit 1
fi

mkdir -p /etc/ftnl || exit 1
mkdir -p /var/lib/ftnl || exit 1	# the unit's StateDirectory=
trap 'cleanup_conf; lib_cleanup' EXIT
od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >/etc/ftnl/key
chmod 600 /etc/ftnl/key
cat >"$CONF" <<CONF
# one file for every node
cluster 79
self auto
heartbeat 100ms
timeout 500ms
keyfile key
node 1 $NET.1 7400 name cn001
node 2 $NET.2 7400 name cn002
node 3 $NET.3 7400 name cn003
CONF

check "the unit has an ExecStart and an ExecStop" test -n "$START" -a -n "$STOP"

# --- every node comes up from the same file -------------------------------------

for i in 1 2 3; do
	if in_ns "$(ns "$i")" sh -c "$START" >"$LIB_TMP/start-$i.log" 2>&1; then
		ok "node $i: the unit's ExecStart succeeds"
	else
		not_ok "node $i: the unit's ExecStart succeeds"
		sed 's/^/#   /' "$LIB_TMP/start-$i.log"
	fi
	in_ns "$(ns "$i")" "$CLI" -j cluster show | json_flat >"$LIB_TMP/show-$i" 2>/dev/null
	self=$(json_get "$LIB_TMP/show-$i" self_id)
	check "node $i: self auto chose self $i (got '${self:-none}')" test "$self" = "$i"
done

# --- names in node list -----------------------------------------------------------

in_ns "$(ns 1)" "$CLI" -j node list | json_flat >"$LIB_TMP/nodes" 2>/dev/null
names=""
for k in 0 1 2; do
	names="$names $(json_get "$LIB_TMP/nodes" "[$k].id")=$(json_get "$LIB_TMP/nodes" "[$k].name")"
done
check "node list -j: names of the table (got:$names)" test "$names" = " 1=cn001 2=cn002 3=cn003"
in_ns "$(ns 1)" "$CLI" node list >"$LIB_TMP/nodes.txt" 2>&1
check "node list: a NAME column" grep -q '^ID  NAME ' "$LIB_TMP/nodes.txt"
check "node list: node 2's row names it" grep -q '^ 2  cn002 ' "$LIB_TMP/nodes.txt"

# --- the heartbeats' timer starts and lock waits in stats --------------------------

in_ns "$(ns 1)" "$CLI" stats >"$LIB_TMP/stats.txt" 2>&1
check "stats: a lock wait line" grep -q '^lock wait      max [0-9]*ns over [1-9][0-9]* heartbeats$' "$LIB_TMP/stats.txt"
check "stats: a timer start line" grep -q '^timer start    max [0-9]*ns over [1-9][0-9]* heartbeats$' "$LIB_TMP/stats.txt"
in_ns "$(ns 1)" "$CLI" -j stats | json_flat >"$LIB_TMP/stats" 2>/dev/null
check "stats -j: hb_lock_wait has 24 buckets" test -n "$(json_get "$LIB_TMP/stats" "hb_lock_wait[23]")"
check "stats -j: hb_lock_wait_max_ns" test -n "$(json_get "$LIB_TMP/stats" hb_lock_wait_max_ns)"
check "stats -j: hb_start_late has 24 buckets" test -n "$(json_get "$LIB_TMP/stats" "hb_start_late[23]")"
# histogram_total NAME: the sum of the 24 buckets of histogram NAME.
histogram_total() {
	total=0 k=0
	while [ "$k" -lt 24 ]; do
		total=$((total + $(json_get "$LIB_TMP/stats" "$1[$k]")))
		k=$((k + 1))
	done
	echo "$total"
}
sent=$(histogram_total lateness)
started=$(histogram_total hb_start_late)
# The two histograms are read bucket by bucket while heartbeats go on:
# one heartbeat may be counted in one of them and not yet in the other.
check "stats -j: every heartbeat sent has its timer start ($started of $sent)" \
	test "$started" -ge $((sent - 1)) -a "$started" -le $((sent + 1)) -a "$sent" -gt 0

# --- refusals ----------------------------------------------------------------------

# start_fails NS LABEL TEXT: the unit's ExecStart in netns NS fails saying
# TEXT (one result, named LABEL). Returns 1 when it succeeded instead.
start_fails() {
	if in_ns "$1" sh -c "$START" >"$LIB_TMP/refused.log" 2>&1; then
		not_ok "$2"
		return 1
	fi
	if grep -q "$3" "$LIB_TMP/refused.log"; then
		ok "$2: $3"
	else
		not_ok "$2: $3"
		sed 's/^/#   /' "$LIB_TMP/refused.log"
	fi
}

refused() {
	where=$1
	want=$2
	start_fails "$where" "$where: self auto refused" "$want" || return 0
	check "$where: nothing configured" sh -c \
		"$IP netns exec $where $CLI cluster show | grep -q 'no cluster configured'"
}
refused "$BR" "no node of the table has an address of this host (127.0.0.1"
refused "$(ns x)" "nodes 1 ($NET.1) and 2 ($NET.2) both have an address of this host"

# --- stop: a graceful leave, announced with the name ----------------------------------

sleep 1	# a few heartbeats: node 3 is alive for everyone
in_ns "$(ns 1)" timeout 30 "$CLI" -j monitor count 1 >"$LIB_TMP/monitor" 2>&1 &
mon=$!
check "node 1: monitor subscribed" wait_subscribed "$(ns 1)"
if in_ns "$(ns 3)" sh -c "$STOP" >"$LIB_TMP/stop.log" 2>&1; then
	ok "node 3: the unit's ExecStop succeeds"
else
	not_ok "node 3: the unit's ExecStop succeeds"
	sed 's/^/#   /' "$LIB_TMP/stop.log"
fi
wait $mon
json_flat <"$LIB_TMP/monitor" >"$LIB_TMP/event" 2>/dev/null
ev="$(json_get "$LIB_TMP/event" event) $(json_get "$LIB_TMP/event" node_id) $(json_get "$LIB_TMP/event" cause) $(json_get "$LIB_TMP/event" node_name)"
if [ "$ev" = "failure 3 leave cn003" ]; then
	ok "node 1 hears: failure 3 leave cn003"
else
	not_ok "node 1 hears: failure 3 leave cn003 (got '$ev')"
	sed 's/^/#   /' "$LIB_TMP/monitor"
fi
check "node 3: no cluster after the stop" sh -c \
	"$IP netns exec $(ns 3) $CLI cluster show | grep -q 'no cluster configured'"

# --- the state file ---------------------------------------------------------------

inc3=$(json_get "$LIB_TMP/show-3" incarnation)
check "ExecStart wrote the incarnation node 3 was given to $STATE ($inc3)" \
	test -n "$inc3" -a "$(cat "$STATE" 2>/dev/null)" = "$inc3"

# The unit's ExecStart on node 3 succeeds ($1 names the case; $2 its log).
start_taken() {
	if in_ns "$(ns 3)" sh -c "$START" >"$LIB_TMP/$2.log" 2>&1; then
		ok "$1"
	else
		not_ok "$1"
		sed 's/^/#   /' "$LIB_TMP/$2.log"
	fi
}

# A reboot whose wall clock is behind: the file's life is above any the
# clock would give.
floor=$((inc3 + 1000000000000000))
echo "$floor" >"$STATE"
start_taken "node 3: ExecStart with a floor above its clock's life" floor
in_ns "$(ns 3)" "$CLI" -j cluster show | json_flat >"$LIB_TMP/show-3b" 2>/dev/null
inc=$(json_get "$LIB_TMP/show-3b" incarnation)
gen=$(json_get "$LIB_TMP/show-3b" generation)
check "node 3 lives above the floor $floor (got ${inc:-none})" \
	test -n "$inc" -a "$inc" -gt "$floor"
check "the state file holds that life" test "$(cat "$STATE")" = "$inc"

# start_refused WHAT TEXT: ExecStart on node 3 fails saying TEXT, nothing changes.
start_refused() {
	start_fails "$(ns 3)" "$1: refused" "$2" || return 0
	in_ns "$(ns 3)" "$CLI" -j cluster show | json_flat >"$LIB_TMP/show-3c" 2>/dev/null
	check "$1: node 3 unchanged (generation $gen, incarnation $inc)" test \
		"$(json_get "$LIB_TMP/show-3c" generation) $(json_get "$LIB_TMP/show-3c" incarnation)" = "$gen $inc"
}
echo garbage >"$STATE"
start_refused "a state file of garbage" "does not hold an incarnation"
check "the garbage is left as it was" test "$(cat "$STATE")" = garbage
echo 99999999999999999999 >"$STATE"
start_refused "a state file above 2^63 - 1" "does not hold an incarnation"
echo $((inc + 1000)) >"$STATE"
start_refused "a floor above the running life" "incarnation floor above the running incarnation"
echo "$inc" >"$STATE"
start_taken "node 3: a reload with the floor it wrote is taken" reload
in_ns "$(ns 3)" "$CLI" -j cluster show | json_flat >"$LIB_TMP/show-3d" 2>/dev/null
check "node 3 keeps its life across the reload" \
	test "$(json_get "$LIB_TMP/show-3d" incarnation)" = "$inc"

tap_end
