#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An 8-node cluster configured through ftnl-cli: 8 network namespaces, each
# linked by a veth pair to a bridge in a namespace of its own, IPv4 on every
# node and IPv6 on nodes 7 and 8 (which are IPv6 nodes in the table). One
# shared configuration file; each node runs
#   ftnl-cli cluster set file CONF self N
# in its netns. Then, in every netns, "ftnl-cli -j node list" shows the 8
# nodes as configured (ids, families, addresses, ports, alive) with the self
# marker on N only, and "ftnl-cli -j cluster show" / "-j info" agree.
# A typo on the command line and a request the kernel rejects both print a
# clear message and exit non-zero, and change nothing. FCG's f and T, from
# arguments and from a file, reach the kernel; out of range they are refused
# by ftnl-cli, and when forced by the kernel.

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

CLI=${FTNL_CLI:-ftnl-cli}
NODES=8
NET4=10.78.0
NET6=fd78::
PORT=7400
CLUSTER=78
BR=ftnl-cb-br
CONF=$LIB_TMP/cluster.conf

ns() { echo "ftnl-cb-$1"; }

# addr N: node N's address in the table (IPv6 for 7 and 8)
addr() {
	if [ "$1" -ge 7 ]; then echo "$NET6$1"; else echo "$NET4.$1"; fi
}

if ! command -v "$CLI" >/dev/null 2>&1; then
	not_ok "ftnl-cli not found in PATH ($PATH)"
	tap_end
	exit 1
fi

# --- topology -------------------------------------------------------------------

topology() {
	netns_add "$BR" || return 1
	"$IP" -n "$BR" link add br0 type bridge || return 1
	"$IP" -n "$BR" link set br0 up || return 1
	i=1
	while [ $i -le $NODES ]; do
		n=$(ns $i)
		netns_add "$n" || return 1
		"$IP" -n "$BR" link add "v$i" type veth peer name eth0 netns "$n" || return 1
		"$IP" -n "$BR" link set "v$i" master br0 up || return 1
		"$IP" -n "$n" addr add "$NET4.$i/24" dev eth0 || return 1
		if [ $i -ge 7 ]; then
			"$IP" -n "$n" addr add "$NET6$i/64" dev eth0 nodad || return 1
		fi
		"$IP" -n "$n" link set eth0 up || return 1
		i=$((i + 1))
	done
}
check "8 netns linked by veth to a bridge" topology
reachable() { in_ns "$(ns 1)" ping -c 1 -W 5 "$NET4.8" >/dev/null; }
check "node 1 reaches node 8 over the bridge" reachable

# --- one configuration file, every node configured from it ----------------------

key=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
{
	echo "# ftnl selftest: $NODES nodes, IPv4 and IPv6"
	echo "cluster $CLUSTER"
	# no node may be suspected while the test runs: every state is alive
	echo "heartbeat 1s"
	echo "timeout 600s"
	echo "key $key"
	i=$NODES
	while [ $i -ge 1 ]; do # in descending order: the kernel sorts
		echo "node $i $(addr $i) $PORT"
		i=$((i - 1))
	done
} >"$CONF"

i=1
while [ $i -le $NODES ]; do
	out=$(in_ns "$(ns $i)" "$CLI" cluster set file "$CONF" self $i 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "node $i: cluster set file CONF self $i"
	else
		not_ok "node $i: cluster set file CONF self $i (exit $rc)"
		printf '%s\n' "$out" | sed 's/^/#   /'
	fi
	i=$((i + 1))
done

# --- every node sees the whole table, itself marked self ------------------------

# check_node_list N: the JSON node list in node N's netns, as configured
check_node_list() {
	f=$LIB_TMP/nodes.$1
	in_ns "$(ns $1)" "$CLI" -j node list >"$f.json" || { diag "node list failed"; return 1; }
	json_flat <"$f.json" >"$f" || return 1
	[ "$(json_get "$f" "#")" = $NODES ] || { diag "not $NODES nodes: $(cat "$f.json")"; return 1; }
	selfs=$(grep -c '^\[[0-9]*\]\.self=true$' "$f")
	[ "$selfs" = 1 ] || { diag "$selfs entries marked self"; return 1; }
	k=0
	while [ $k -lt $NODES ]; do
		id=$((k + 1))
		fam=inet
		[ $id -lt 7 ] || fam=inet6
		self=false
		[ $id -ne "$1" ] || self=true
		for kv in "id=$id" "family=$fam" "address=$(addr $id)" "port=$PORT" \
			"state=alive" "self=$self"; do
			key_=${kv%%=*}
			want=${kv#*=}
			got=$(json_get "$f" "[$k].$key_")
			if [ "$got" != "$want" ]; then
				diag "entry $k: $key_ is \"$got\", want \"$want\""
				return 1
			fi
		done
		k=$((k + 1))
	done
	# the text form marks the same line
	in_ns "$(ns $1)" "$CLI" node list | grep -Eq "^ *$1 .*self\$"
}

# check_cluster_show N: configuration and info as JSON in node N's netns
check_cluster_show() {
	f=$LIB_TMP/show.$1
	in_ns "$(ns $1)" "$CLI" -j cluster show >"$f.json" || return 1
	json_flat <"$f.json" >"$f" || return 1
	for kv in configured=true cluster_id=$CLUSTER self_id=$1 heartbeat_us=1000000 \
		timeout_us=600000000 node_count=$NODES generation=1; do
		got=$(json_get "$f" "${kv%%=*}")
		if [ "$got" != "${kv#*=}" ]; then
			diag "cluster show: ${kv%%=*} is \"$got\", want \"${kv#*=}\""
			return 1
		fi
	done
	in_ns "$(ns $1)" "$CLI" -j info | json_flat >"$f.info" || return 1
	[ "$(json_get "$f.info" configured)" = true ] &&
		[ "$(json_get "$f.info" max_nodes)" = 65536 ]
}

i=1
while [ $i -le $NODES ]; do
	check "node $i: node list -j: $NODES nodes as configured, self is $i" check_node_list $i
	check "node $i: cluster show -j and info -j" check_cluster_show $i
	i=$((i + 1))
done

# The bridge's netns and the root netns were never configured.
check "a netns not given a configuration has none" \
	sh -c "'$IP' netns exec '$BR' '$CLI' -j cluster show | grep -q '\"configured\": *false'"

# --- mistakes are explained, exit non-zero, and change nothing --------------------

# expect_failure DESC STATUS PATTERN CMD...: CMD exits with STATUS and its
# stderr matches PATTERN (grep -E); node 1's configuration is unchanged.
expect_failure() {
	desc=$1 want=$2 pattern=$3
	shift 3
	in_ns "$(ns 1)" "$CLI" -j cluster show >"$LIB_TMP/before" 2>&1
	"$@" >"$LIB_TMP/out" 2>"$LIB_TMP/err"
	rc=$?
	in_ns "$(ns 1)" "$CLI" -j cluster show >"$LIB_TMP/after" 2>&1
	if [ $rc -ne "$want" ]; then
		not_ok "$desc: exit status $rc, want $want"
	elif ! grep -Eq "$pattern" "$LIB_TMP/err"; then
		not_ok "$desc: stderr does not match /$pattern/"
	elif ! cmp -s "$LIB_TMP/before" "$LIB_TMP/after"; then
		not_ok "$desc: the configuration changed"
	else
		ok "$desc"
		sed 's/^/#   stderr: /' "$LIB_TMP/err"
		return 0
	fi
	sed 's/^/#   stderr: /' "$LIB_TMP/err"
	sed 's/^/#   stdout: /' "$LIB_TMP/out"
	return 1
}

expect_failure "a typo in the object is refused, with a suggestion" 1 \
	'"clustr".*"cluster"' in_ns "$(ns 1)" "$CLI" clustr show
expect_failure "a typo in a keyword is refused" 1 \
	'"hearbeat"' in_ns "$(ns 1)" "$CLI" cluster set file "$CONF" self 1 hearbeat 100ms
expect_failure "a bad self id is caught before sending" 1 \
	'99' in_ns "$(ns 1)" "$CLI" cluster set file "$CONF" self 99
expect_failure "the kernel's rejection (forced) is printed with its reason" 2 \
	"this node's id is not in the node table" \
	in_ns "$(ns 1)" "$CLI" -f cluster set file "$CONF" self 99
expect_failure "the kernel's range check (forced) is printed with its reason" 2 \
	"integer out of range" \
	in_ns "$(ns 1)" "$CLI" -f cluster set file "$CONF" self 1 heartbeat 500us
if command -v setpriv >/dev/null 2>&1; then
	expect_failure "an unprivileged user cannot delete the cluster" 2 \
		"CAP_NET_ADMIN" \
		in_ns "$(ns 1)" setpriv --reuid 65534 --regid 65534 --clear-groups \
		"$(command -v "$CLI")" cluster delete
else
	skip "an unprivileged user cannot delete the cluster (no setpriv)"
fi

# --- FCG's parameters: arguments and file keywords reach the kernel ----------------

# check_fcg N F T_US DESCRIBED: node N's configuration and broadcast report
# FCG with f = F and T = T_US, and "bcast show" says DESCRIBED.
check_fcg() {
	f=$LIB_TMP/fcg.$1
	in_ns "$(ns $1)" "$CLI" -j cluster show | json_flat >"$f" || return 1
	for kv in bcast_algo=fcg bcast_fcg_f=$2 bcast_gossip_t_us=$3; do
		got=$(json_get "$f" "${kv%%=*}")
		if [ "$got" != "${kv#*=}" ]; then
			diag "cluster show: ${kv%%=*} is \"$got\", want \"${kv#*=}\""
			return 1
		fi
	done
	in_ns "$(ns $1)" "$CLI" -j bcast show | json_flat >"$f.bcast" || return 1
	[ "$(json_get "$f.bcast" fcg_f)" = "$2" ] &&
		[ "$(json_get "$f.bcast" gossip_t_us)" = "$3" ] || {
		diag "bcast show -j: $(cat "$f.bcast")"
		return 1
	}
	in_ns "$(ns $1)" "$CLI" bcast show | grep -q "fcg $4\$" || {
		diag "bcast show: $(in_ns "$(ns $1)" "$CLI" bcast show)"
		return 1
	}
}

fcg_args() {
	in_ns "$(ns 2)" "$CLI" cluster set file "$CONF" self 2 bcast fcg \
		gossip-faults 3 gossip-time 2ms && check_fcg 2 3 2000 "gossip-faults 3 gossip-time 2ms"
}
check "cluster set ... bcast fcg gossip-faults 3 gossip-time 2ms reaches the kernel" fcg_args

fcg_file() {
	{
		cat "$CONF"
		echo "bcast fcg"
		echo "gossip-faults 7"
		echo "gossip-time auto"
	} >"$CONF.fcg" &&
		in_ns "$(ns 3)" "$CLI" cluster set file "$CONF.fcg" self 3 &&
		check_fcg 3 7 0 "gossip-faults 7 gossip-time auto"
}
check "config file keywords gossip-faults 7 and gossip-time auto reach the kernel" fcg_file

# The quorum policy: on by default from 3 nodes; "quorum off" on the
# command line and "quorum on" in the file reach the kernel.
check_quorum() {
	f=$LIB_TMP/quorum.$1
	in_ns "$(ns $1)" "$CLI" -j cluster show | json_flat >"$f" || return 1
	for kv in quorum=$2; do
		got=$(json_get "$f" "${kv%%=*}")
		if [ "$got" != "${kv#*=}" ]; then
			diag "cluster show: ${kv%%=*} is \"$got\", want \"${kv#*=}\""
			return 1
		fi
	done
}
quorum_policy() {
	check_quorum 4 true &&
		in_ns "$(ns 4)" "$CLI" cluster set file "$CONF" self 4 quorum off &&
		check_quorum 4 false &&
		in_ns "$(ns 4)" "$CLI" cluster show | grep -q ' quorum off$' &&
		{ cat "$CONF"; echo "quorum on"; } >"$CONF.quorum" &&
		in_ns "$(ns 4)" "$CLI" cluster set file "$CONF.quorum" self 4 &&
		check_quorum 4 true
}
check "quorum is on by default for 8 nodes; quorum off and the file's quorum on reach the kernel" quorum_policy
expect_failure "a quorum other than on or off is refused" 1 \
	"invalid quorum" \
	in_ns "$(ns 1)" "$CLI" cluster set file "$CONF" self 1 quorum 2

# Adaptive timeouts: timeout-adaptive and timeout-nines reach the kernel,
# cluster show prints them; without them the timeout is fixed again.
check_adaptive() {
	f=$LIB_TMP/adaptive.$1
	in_ns "$(ns $1)" "$CLI" -j cluster show | json_flat >"$f" || return 1
	for kv in $2; do
		got=$(json_get "$f" "${kv%%=*}")
		if [ "$got" != "${kv#*=}" ]; then
			diag "cluster show: ${kv%%=*} is \"$got\", want \"${kv#*=}\""
			return 1
		fi
	done
}
adaptive_timeouts() {
	in_ns "$(ns 5)" "$CLI" cluster set file "$CONF" self 5 timeout 3s \
		timeout-adaptive 1500ms timeout-nines 8 &&
		check_adaptive 5 "timeout_us=3000000 timeout_min_us=1500000 timeout_nines=8" &&
		in_ns "$(ns 5)" "$CLI" cluster show | grep -q ' timeout-adaptive [^ ]* nines 8$' &&
		in_ns "$(ns 5)" "$CLI" cluster set file "$CONF" self 5 &&
		check_adaptive 5 "timeout_us=600000000 timeout_min_us="
}
check "timeout-adaptive and timeout-nines reach the kernel and are shown; gone without them" adaptive_timeouts
expect_failure "an adaptive minimum not above the heartbeat period is caught before sending" 1 \
	"the adaptive minimum timeout must be greater than the heartbeat period" \
	in_ns "$(ns 1)" "$CLI" cluster set file "$CONF" self 1 timeout 3s timeout-adaptive 1s
expect_failure "the kernel refuses it too (forced), with the same reason" 2 \
	"the adaptive minimum timeout must be greater than the heartbeat period" \
	in_ns "$(ns 1)" "$CLI" -f cluster set file "$CONF" self 1 timeout 3s timeout-adaptive 1s
expect_failure "adaptive timeouts need a timeout of at most 60 s" 1 \
	"must be at most 60 s" \
	in_ns "$(ns 1)" "$CLI" cluster set file "$CONF" self 1 timeout-adaptive 2s

# Rolling updates: epoch and update-grace reach the kernel and are shown;
# a new key under a raised epoch keeps the previous key for the grace; a
# new key without raising the epoch is refused by the kernel, with why.
epoch_grace() {
	key2=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
	in_ns "$(ns 6)" "$CLI" cluster set file "$CONF" self 6 epoch 7 \
		update-grace 60 &&
		check_adaptive 6 "epoch=7 update_grace_s=60" &&
		in_ns "$(ns 6)" "$CLI" cluster show | grep -q ' epoch 7 update-grace 60s' &&
		in_ns "$(ns 6)" "$CLI" cluster set file "$CONF" self 6 epoch 8 \
			update-grace 60 key "$key2" &&
		check_adaptive 6 "epoch=8" &&
		in_ns "$(ns 6)" "$CLI" cluster show | grep -q ' previous-key [0-9]*ms'
}
check "epoch and update-grace reach the kernel and are shown; a new key keeps the previous one" epoch_grace
expect_failure "a new key under the running epoch is refused with the kernel's reason" 2 \
	"raise the epoch above the running one" \
	in_ns "$(ns 1)" "$CLI" cluster set file "$CONF" self 1 \
	epoch "$(in_ns "$(ns 1)" "$CLI" -j cluster show | json_flat | json_get /dev/stdin epoch)" \
	key "$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
expect_failure "an update grace out of range is caught before sending" 1 \
	"update grace 0 s out of range" \
	in_ns "$(ns 1)" "$CLI" cluster set file "$CONF" self 1 update-grace 0

expect_failure "FCG's f out of range is caught before sending" 1 \
	"FCG's f must be between 1 and 7" \
	in_ns "$(ns 1)" "$CLI" cluster set file "$CONF" self 1 bcast fcg gossip-faults 8
expect_failure "FCG's parameters without bcast fcg are refused" 1 \
	"gossip-time applies only to bcast fcg" \
	in_ns "$(ns 1)" "$CLI" cluster set file "$CONF" self 1 bcast bmg gossip-time 1ms
expect_failure "the kernel's range check of FCG's f (forced)" 2 \
	"integer out of range" \
	in_ns "$(ns 1)" "$CLI" -f cluster set file "$CONF" self 1 bcast fcg gossip-faults 8
expect_failure "the kernel's range check of FCG's gossip time (forced)" 2 \
	"integer out of range" \
	in_ns "$(ns 1)" "$CLI" -f cluster set file "$CONF" self 1 bcast fcg gossip-time 11s

# --- -n NETNS is the same as ip netns exec; delete ----------------------------------

check "ftnl-cli -n NETNS acts in that netns" \
	sh -c "'$CLI' -n '$(ns 5)' -j cluster show | grep -q '\"self_id\": *5'"

# Pair keys: the admin derives node 2's file from a secret kept off the
# nodes (its pair keys with the others' public signing keys, and its own
# signing seed); node 2 runs on it ("keys pair signed"), then on the
# cluster key again. A pairkeys file that lacks a node, or a public key
# without the seed, is refused before anything is sent.
pair_keys() {
	head -c 32 /dev/urandom >"$LIB_TMP/secret" &&
		sed 's/^key .*/pairkeys pair.keys/' "$CONF" >"$LIB_TMP/pair.conf" &&
		"$CLI" cluster pairkeys "$LIB_TMP/secret" "$CONF" 2 >"$LIB_TMP/pair.keys" &&
		[ "$(grep -Ec '^[0-9]+ [0-9a-f]{64} [0-9a-f]{64}$' "$LIB_TMP/pair.keys")" -eq $((NODES - 1)) ] &&
		[ "$(grep -Ec '^sign [0-9a-f]{64}$' "$LIB_TMP/pair.keys")" -eq 1 ] &&
		! grep -q '^2 ' "$LIB_TMP/pair.keys" &&
		in_ns "$(ns 2)" "$CLI" cluster set file "$LIB_TMP/pair.conf" self 2 &&
		in_ns "$(ns 2)" "$CLI" cluster show | grep -q ' keys pair signed' &&
		[ "$(in_ns "$(ns 2)" "$CLI" -j cluster show | json_flat | json_get /dev/stdin keys)" = pair ] &&
		[ "$(in_ns "$(ns 2)" "$CLI" -j cluster show | json_flat | json_get /dev/stdin signed)" = true ] &&
		in_ns "$(ns 2)" "$CLI" cluster set file "$CONF" self 2 &&
		in_ns "$(ns 2)" "$CLI" cluster show | grep -q ' keys cluster' &&
		in_ns "$(ns 2)" "$CLI" cluster set file "$CONF" self 2 pairkeys "$LIB_TMP/pair.keys" &&
		in_ns "$(ns 2)" "$CLI" cluster show | grep -q ' keys pair' &&
		in_ns "$(ns 2)" "$CLI" cluster set file "$CONF" self 2 &&
		in_ns "$(ns 2)" "$CLI" cluster show | grep -q ' keys cluster'
}
check "cluster pairkeys writes a node's pair keys; the node runs on them, from the file or the argument" pair_keys
expect_failure "a pairkeys file without every other node's key is refused before sending" 1 \
	"every node but this one needs its pair key" \
	sh -c "'$CLI' cluster pairkeys '$LIB_TMP/secret' '$CONF' 1 | grep -v '^3 ' >'$LIB_TMP/short.keys' &&
		sed 's/^pairkeys .*/pairkeys short.keys/' '$LIB_TMP/pair.conf' >'$LIB_TMP/short.conf' &&
		'$IP' netns exec '$(ns 1)' '$CLI' cluster set file '$LIB_TMP/short.conf' self 1"
expect_failure "a pairkeys file with public signing keys but no seed is refused" 1 \
	"but no .sign SEED. line" \
	sh -c "grep -v '^sign ' '$LIB_TMP/pair.keys' >'$LIB_TMP/noseed.keys' &&
		sed 's/^pairkeys .*/pairkeys noseed.keys/' '$LIB_TMP/pair.conf' >'$LIB_TMP/noseed.conf' &&
		'$IP' netns exec '$(ns 2)' '$CLI' cluster set file '$LIB_TMP/noseed.conf' self 2"
expect_failure "cluster pairkeys for a node the table lacks" 1 \
	"node 99 is not in the node table" \
	"$CLI" cluster pairkeys "$LIB_TMP/secret" "$CONF" 99

deleted() {
	i=1
	while [ $i -le $NODES ]; do
		in_ns "$(ns $i)" "$CLI" cluster delete || return 1
		in_ns "$(ns $i)" "$CLI" node list | grep -q 'no cluster configured' || return 1
		in_ns "$(ns $i)" "$CLI" -j node list | json_flat | grep -qx '#=0' || return 1
		i=$((i + 1))
	done
	# a second delete is an error: nothing to delete
	! in_ns "$(ns 1)" "$CLI" cluster delete 2>/dev/null
}
check "cluster delete on every node empties its table" deleted

tap_end
