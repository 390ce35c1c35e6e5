#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Broadcast of failure notifications on a 32-node virtual cluster, for each
# algorithm (dual hypercube, BMG, FCG):
#   - one node silenced (link down, no goodbye): every survivor publishes
#     exactly one event for it, and the ring closes around it;
#   - then three more at once, two of them consecutive on the ring: every
#     survivor converges to the same D (its dump's dead set) and the ring
#     closes again (each survivor observed by exactly one survivor);
#   - every broadcast is delivered exactly once at every survivor but its
#     source: at each survivor, "delivered" + "originated" equals the
#     broadcasts the survivors originated in all (each failure is broadcast
#     by the one survivor that found it, possibly several deaths in one
#     broadcast); copies beyond the first are counted as "duplicates" and
#     never cause a second delivery or event. How many duplicates there are
#     depends on the algorithm and timing: only reported.
# Margins: h = 100 ms, d = 500 ms; we wait d + 4 s after silencing before
# judging: the VM is emulated (TCG) and a 32-node broadcast crosses many
# virtual links, which takes tens of ms here, far below the wait. All of
# them times FTNL_TIME_SCALE on a slow (debug) kernel.
. ./lib.sh

N=32
FTNL_VC_HB=$(scaled 100)ms
FTNL_VC_TIMEOUT=$(scaled 500)ms
export FTNL_VC_HB FTNL_VC_TIMEOUT

# snapshot [bcast]: save every survivor's node list (and with "bcast", its
# "bcast show" and events history) in /tmp/bcast-st.I, one netns entry per
# node: under TCG with 32 rings beating, each entry costs about 0.5 s.
snapshot() {
	i=1
	while [ $i -le $N ]; do
		if ! is_dead $i; then
			if [ "${1:-}" = bcast ]; then
				ftnl-vcluster exec $i sh -c 'ftnl-cli -j node list; echo;
					ftnl-cli -j bcast show; echo;
					ftnl-cli events history' >/tmp/bcast-st.$i 2>&1
			else
				ftnl-vcluster exec $i ftnl-cli -j node list >/tmp/bcast-st.$i 2>&1
			fi
		fi
		i=$((i + 1))
	done
}

# node_entries I: node I's node list (last snapshot), one node per line.
node_entries() {
	grep '"emitter"' /tmp/bcast-st.$1 | tr '{' '\n'
}

# emitter_of I: the id node I observes (its dump's emitter flag).
emitter_of() {
	node_entries "$1" | grep '"emitter":true' | sed 's/.*"id":\([0-9]*\).*/\1/'
}

# bcast_counter I NAME: the member NAME of node I's "bcast show".
bcast_counter() {
	grep '"originated"' /tmp/bcast-st.$1 | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"
}

# dead_set I: the ids node I's dump shows dead, space separated.
dead_set() {
	node_entries "$1" | grep '"state":"dead"' | sed 's/.*"id":\([0-9]*\).*/\1/' |
		sort -n | tr '\n' ' '
}

is_dead() {
	for d in $DEAD; do [ "$d" = "$1" ] && return 0; done
	return 1
}

# ring_closed: every survivor's emitter is a survivor and no survivor is
# the emitter of two: the ring is reconnected (paper, section 3.1.3), as
# the last snapshot shows it.
ring_closed() {
	seen=" "
	i=1
	while [ $i -le $N ]; do
		if ! is_dead $i; then
			em=$(emitter_of $i)
			if [ -z "$em" ] || is_dead "$em"; then
				diag "node $i observes '${em:-nobody}'"
				return 1
			fi
			case $seen in *" $em "*) diag "node $em observed twice"; return 1 ;; esac
			seen="$seen$em "
		fi
		i=$((i + 1))
	done
	return 0
}

# first_events: the earliest events any monitor printed, on one time axis
# (every node shares the guest's clock): who accused whom first.
first_events() {
	i=1
	while [ $i -le $N ]; do
		sed "s/^/node$i: /" /tmp/bcast-ev.$i
		i=$((i + 1))
	done | sort -k2,2 | head -n 12 | sed "s/^/# /"
}

run_algo() {
	algo=$1
	FTNL_VC_BCAST=$algo ftnl-vcluster up $N >/tmp/bcast-up.log 2>&1 || {
		sed "s/^/# /" /tmp/bcast-up.log
		not_ok "$algo: 32-node cluster configured"
		ftnl-vcluster down >/dev/null 2>&1
		return
	}
	sleep 2
	DEAD=""
	pids=""
	i=1
	while [ $i -le $N ]; do
		ftnl-vcluster exec $i ftnl-cli monitor >/tmp/bcast-ev.$i 2>&1 &
		pids="$pids $!"
		i=$((i + 1))
	done
	# A monitor only prints what follows its subscription: wait for each
	# one's subscribed socket rather than a fixed delay.
	i=1
	while [ $i -le $N ]; do
		wait_subscribed "ftnl-$i" || diag "node $i: monitor not subscribed after 10 s"
		i=$((i + 1))
	done

	/sbin/ip link set vc7 down
	DEAD="7"
	sleep "$(scaled 5)"
	snapshot
	bad=""
	i=1
	while [ $i -le $N ]; do
		if ! is_dead $i; then
			c=$(grep -c "failure node 7 " /tmp/bcast-ev.$i)
			[ "$c" -eq 1 ] || bad="$bad node$i:$c"
		fi
		i=$((i + 1))
	done
	expect_empty "$algo: one silenced node, every survivor gets exactly one event" "$bad"
	[ -z "$bad" ] || first_events
	check "$algo: the ring is closed around it" ring_closed

	/sbin/ip link set vc12 down
	/sbin/ip link set vc13 down
	/sbin/ip link set vc20 down
	DEAD="7 12 13 20"
	sleep "$(scaled 6)"
	snapshot bcast
	bad=""
	i=1
	while [ $i -le $N ]; do
		if ! is_dead $i; then
			set=$(dead_set $i)
			[ "$set" = "7 12 13 20 " ] || bad="$bad node$i:[$set]"
		fi
		i=$((i + 1))
	done
	expect_empty "$algo: overlapping failures, every survivor converges to D = {7, 12, 13, 20}" "$bad"
	check "$algo: the ring is closed again" ring_closed

	bad=""
	dups=0
	total=0
	i=1
	while [ $i -le $N ]; do
		if ! is_dead $i; then
			for d in 12 13 20; do
				c=$(grep -c "failure node $d " /tmp/bcast-ev.$i)
				[ "$c" -eq 1 ] || bad="$bad node$i/$d:$c"
			done
			o=$(bcast_counter $i originated)
			dl=$(bcast_counter $i delivered)
			n=$(bcast_counter $i duplicates)
			eval "orig_$i=\${o:-x} deliv_$i=\${dl:-x}"
			total=$((total + ${o:-0}))
			dups=$((dups + ${n:-0}))
		fi
		i=$((i + 1))
	done
	expect_empty "$algo: exactly one event per failure at every survivor" "$bad"

	# The node's history holds every failure its monitor printed, under
	# the same sequence number ("failure node ID ... seq N"); it may hold
	# more (a monitor only sees what follows its subscription).
	bad=""
	i=1
	while [ $i -le $N ]; do
		if ! is_dead $i; then
			mon=$(awk '/ failure node /{print $4 ":" $NF}' /tmp/bcast-ev.$i)
			hist=" $(awk '/ failure node /{print $4 ":" $NF}' /tmp/bcast-st.$i |
				tr '\n' ' ')"
			for pair in $mon; do
				case "$hist" in
				*" $pair "*) ;;
				*) bad="$bad node$i:$pair/[$hist]" ;;
				esac
			done
		fi
		i=$((i + 1))
	done
	expect_empty "$algo: events history holds every failure the monitor printed, same seq" "$bad"

	# Every survivor delivered every broadcast but its own, once.
	bad=""
	i=1
	while [ $i -le $N ]; do
		if ! is_dead $i; then
			eval "o=\$orig_$i dl=\$deliv_$i"
			if [ "$o" = x ] || [ "$dl" = x ] ||
			   [ $((o + dl)) -ne "$total" ]; then
				bad="$bad node$i:$o+$dl"
			fi
		fi
		i=$((i + 1))
	done
	[ "$total" -ge 4 ] || bad="$bad originated:$total<4"
	expect_empty "$algo: each of the $total broadcasts delivered once at every survivor (delivered + originated)" "$bad"
	diag "$algo: duplicate copies ignored across survivors: $dups"
	# shellcheck disable=SC2086
	kill $pids 2>/dev/null
	wait 2>/dev/null
	ftnl-vcluster down >/dev/null 2>&1
}

for algo in hypercube bmg fcg; do
	run_algo $algo
done
tap_end
