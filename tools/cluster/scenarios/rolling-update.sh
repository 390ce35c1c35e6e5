#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A rolling update on separate machines (Documentation/admin-guide.rst,
# "Rolling updates"; issue 14): the running cluster (epoch 0, the run's
# file) gets new configurations node by node, as pdsh would give them,
# and no live node is ever declared dead for it.
#   1. Node X (the highest id) leaves (ftnl-cli cluster leave): every other
#      node publishes a failure event about it whose observer is X itself
#      (cause leave at its neighbours, broadcast elsewhere).
#   2. Epoch 1, one node after another, 1.5 d apart: the table without X.
#   3. Epoch 2, one node after another: a new key, h' = d + h (longer than
#      the old d: a node not updated yet that judged an updated emitter by
#      its own d would accuse it), d' = 3h', and X in the table again;
#      X is configured last, from the same file.
# Asserted: no failure event about a live node on any node from the
# start to the end of the update grace (60 s) after the last reload, but
# the one leave of X at each other node; every node runs epoch 2 with h',
# d' and N nodes; every node sees every node alive and the ring is the
# full cycle; datagrams under the previous key were accepted during the
# rollout; once the grace is over no node accepts the previous key.
. "$FTNL_CLUSTER_ROOT/tools/cluster/lib.sh"

[ "$CL_N" -ge 4 ] || { echo "1..0 # SKIP rolling-update needs --nodes 4 or more"; exit 4; }
X=$CL_N
H_MS=$FTNL_CLUSTER_H_MS
D_MS=$FTNL_CLUSTER_D_MS
H2_MS=$((D_MS + H_MS))
D2_MS=$((3 * H2_MS))
GRACE_S=60
others=()
for i in $(seq "$CL_N"); do [ "$i" -eq "$X" ] || others+=("$i"); done
all=()
for i in $(seq "$CL_N"); do all+=("$i"); done

# show_field NODE FIELD: a number of node NODE's 'ftnl-cli -j cluster show'.
show_field() {
	node_run "$1" "ftnl-cli -j cluster show" |
		sed -n "s/.*\"$2\": *\\([0-9]*\\).*/\\1/p"
}
# The configurations, written on every node next to the run's file (its
# keyfile is relative to it): epoch 1 without X, epoch 2 with a new key,
# h', d' and X.
key2=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
write_files() {
	node_run "$1" "set -e; cd /etc/ftnl
printf '%s\n' '$key2' >key2; chmod 600 key2
grep -v '^node $X ' cluster.conf >epoch1.conf
printf 'epoch 1\nupdate-grace $GRACE_S\n' >>epoch1.conf
sed -e 's/^heartbeat .*/heartbeat ${H2_MS}ms/' -e 's/^timeout .*/timeout ${D2_MS}ms/' \
	-e 's/^keyfile .*/keyfile key2/' cluster.conf >epoch2.conf
printf 'epoch 2\nupdate-grace $GRACE_S\n' >>epoch2.conf"
}
# false_deaths: every failure event about a live node, but X's one leave
# at each other node (a diag; nothing when there is none).
false_deaths() {
	local n bad=''
	for n in "${others[@]}"; do
		# shellcheck disable=SC2046 # one id per word
		bad+=$(cl_false_deaths "$n" $(printf '%s\n' "${others[@]}" | grep -vx "$n"))
		c=$(cl_failures_at "$n" "$X" | wc -l)
		[ "$c" -eq 1 ] || bad+=" node $n: $c failure events about node $X;"
	done
	bad+=$(cl_false_deaths "$X" "${others[@]}")
	printf '%s' "$bad"
}

# ---- baseline --------------------------------------------------------------
cl_settle
cl_baseline
for i in "${all[@]}"; do
	check "node $i: the epoch 1 and epoch 2 files written" write_files "$i"
done

# ---- 1. node X leaves --------------------------------------------------------
check "node $X leaves (ftnl-cli cluster leave)" node_run "$X" "ftnl-cli cluster leave"
leaves() {
	local n
	for n in "${others[@]}"; do
		awk -v n="$n" -v v="\"node_id\":$X," -v o="\"observer_id\":$X," \
			'$2 == n && index($3, "\"event\":\"failure\"") && index($3, v) &&
			index($3, o)' "$CL_EVENTS" | grep -q . || return 1
	done
}
check "every other node publishes node $X's leave" cl_wait_for $((D_MS / 1000 + 30)) leaves
cl_sleep_ms $((2 * D_MS))

# ---- 2. epoch 1, node by node ------------------------------------------------
for i in "${others[@]}"; do
	check "node $i: epoch 1 (node $X out of the table)" \
		node_run "$i" "ftnl-cli cluster set file /etc/ftnl/epoch1.conf self $i"
	cl_sleep_ms $((3 * D_MS / 2))
done
bad=$(false_deaths)
if [ -z "$bad" ]; then ok "epoch 1: no failure event about a live node"; else
	not_ok "epoch 1: no failure event about a live node"; diag "$bad"; cl_diag_nodes 'cluster show'; fi
check "epoch 1: the ring is the cycle of nodes ${others[*]}" cl_ring_closed "${others[@]}"

# ---- 3. epoch 2, node by node: a new key, h', d', node X back ---------------
gap=$((H2_MS + H_MS))
[ "$gap" -ge $((3 * D_MS / 2)) ] || gap=$((3 * D_MS / 2))
for i in "${others[@]}" "$X"; do
	check "node $i: epoch 2 (new key, h ${H2_MS} ms, d ${D2_MS} ms, $CL_N nodes)" \
		node_run "$i" "ftnl-cli cluster set file /etc/ftnl/epoch2.conf self $i"
	t_last=$(cl_now)
	[ "$i" -eq "$X" ] || cl_sleep_ms "$gap"
done
prev_rx=0
for i in "${others[@]}"; do
	n=$(show_field "$i" prev_key_left_ms)
	check "node $i: the previous key is accepted ($n ms left)" test -n "$n"
done
ring_full() { cl_ring_closed "${all[@]}" >/dev/null 2>&1; }
cl_wait_for $((3 * D2_MS / 1000 + 30)) ring_full
check "epoch 2: the ring becomes the full cycle" cl_ring_closed "${all[@]}"
for i in "${all[@]}"; do
	got="$(show_field "$i" epoch) $(show_field "$i" heartbeat_us) $(show_field "$i" timeout_us) $(show_field "$i" node_count)"
	check "node $i: epoch 2, h, d and $CL_N nodes in force ($got)" \
		test "$got" = "2 $((H2_MS * 1000)) $((D2_MS * 1000)) $CL_N"
	n=$(node_run "$i" "ftnl-cli -j stats" | sed -n 's/.*"prev_key_recv": *\([0-9]*\).*/\1/p')
	prev_rx=$((prev_rx + ${n:-0}))
done
check "datagrams under the previous key were accepted ($prev_rx)" test "$prev_rx" -gt 0

# ---- the grace ends ----------------------------------------------------------
wait_s=$(awk -v t="$t_last" -v now="$(cl_now)" -v g="$GRACE_S" -v d="$D2_MS" \
	'BEGIN { s = t + g + 2 * d / 1000 - now; print (s > 0 ? int(s) + 1 : 0) }')
diag "waiting ${wait_s}s for the end of the update grace"
sleep "$wait_s"
for i in "${others[@]}"; do
	check "node $i: the previous key is gone after the grace" \
		test -z "$(show_field "$i" prev_key_left_ms)"
done
bad=$(false_deaths)
# shellcheck disable=SC2046 # one id per word
bad+=$(cl_views_unlike "$(cl_want_states)" $(seq "$CL_N"))
if [ -z "$bad" ]; then ok "no failure event about a live node (but node $X's leave), every node sees every node alive"; else
	not_ok "no failure event about a live node (but node $X's leave), every node sees every node alive"
	diag "$bad"
	cl_diag_nodes 'cluster show'
fi
# shellcheck disable=SC2046 # one id per word
check "the ring is the full cycle after the grace" cl_ring_closed $(seq "$CL_N")

tap_end
