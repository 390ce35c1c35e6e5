#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A node that cannot hear is no judge (indirect probes; "Partitions and
# half-deaf nodes" in Documentation/admin-guide.rst). Node V (the middle
# id, or the one given) loses its receive path while it can still send:
# an nftables rule in its own guest drops every datagram to ftnl's UDP
# port on input (ARP still resolves, its own datagrams still leave).
# Then:
#   - nobody declares a live node dead: the only failure events in the
#     whole run are about V, and V publishes none;
#   - V expels itself: exactly one expelled event, reason deaf, by
#     itself, naming its incarnation; it accused nobody (suspicions 0),
#     it asked helpers (probe requests sent), its heartbeats stop;
#   - every other node publishes exactly one failure event about V
#     within (2R + 1.5)d + 1.5h + the harness margin of the cut, every
#     node list agrees, the ring closes over the others. V gives up when
#     its R-th probe round closes: the first starts (d - h)/2 before its
#     deadline, each lasts 2d; with the quorum rule (the default) R = 1 up
#     to 10 nodes, 2 beyond (the first round asks N/2 + 3 helpers, the second
#     the rest); without it R = 1 from 5 to 7 nodes, 2 on 4 or 8 (the
#     rounds ask 3 helpers, then twice as many, max(3, N/2) in all); its
#     observer finds it silent d later.
# Then the rule is removed (V hears again): for 3d no event on any node,
# V stays expelled and silent.
# Times go to $FTNL_CLUSTER_DIR/latency.txt: "deaf-expel V V MS" and
# "deaf-death V NODE MS" (the cut to the event, host clock).
. "$FTNL_CLUSTER_ROOT/tools/cluster/lib.sh"

[ "$CL_N" -ge 4 ] || { echo "1..0 # SKIP deaf needs --nodes 4 or more (helpers to probe through)"; exit 4; }
V=${1:-$(((CL_N + 1) / 2))}
D=$FTNL_CLUSTER_D_MS
CL_FAULT=deaf
port=$(sed -n 's/^node [0-9]* [0-9.]* \([0-9]*\).*/\1/p' "$CL_DIR/cluster.conf" | head -n 1)

field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }
expels_of() {
	awk -v n="$1" '$2 == n && index($3, "\"event\":\"expelled\"") { print $1, $3 }' "$CL_EVENTS"
}
stat_of() { node_run "$1" "ftnl-cli -j stats" | field "$2"; }

others=()
for i in $(seq "$CL_N"); do [ "$i" -eq "$V" ] || others+=("$i"); done

cl_settle
cl_baseline
check "node $V: nft is there" node_run "$V" "command -v nft"
inc=$(node_run "$V" "ftnl-cli -j info" | field incarnation)

t0=$(cl_now)
cl_mark "$V" deaf "\"port\":$port"
check "node $V: input to UDP port $port dropped (nft)" node_run "$V" \
	"nft 'add table inet ftnl_deaf; add chain inet ftnl_deaf input { type filter hook input priority 0; }; add rule inet ftnl_deaf input udp dport $port drop'"

# R: probe rounds (kmod/ring/core.c, ftnl_ring_probe_round()). With the
# quorum rule, N/2 + 3 helpers, then every other live member; without it,
# rounds until max(3, N/2) helpers were asked (a round asks each other
# node at most once).
quorum=$(node_run "$V" "ftnl-cli -j cluster show" | field quorum)
if [ "$quorum" = true ]; then
	rounds=$((CL_N / 2 + 3 >= CL_N - 2 ? 1 : 2))
else
	cap=$((CL_N / 2 > 3 ? CL_N / 2 : 3)) asked=0 size=3 rounds=0
	while :; do
		take=$size
		[ $take -le $((cap - asked)) ] || take=$((cap - asked))
		[ $take -le $((CL_N - 2)) ] || take=$((CL_N - 2))
		[ $take -gt 0 ] || break
		asked=$((asked + take)) size=$((2 * take)) rounds=$((rounds + 1))
	done
fi
bound=$(((4 * rounds + 3) * D / 2 + 3 * FTNL_CLUSTER_H_MS / 2 + CL_MARGIN_MS))
diag "$rounds probe round(s) before node $V gives up: its death known within $bound ms"
deadline=$((${EPOCHREALTIME%.*} + bound / 1000 + 30))
while [ "${EPOCHREALTIME%.*}" -lt $deadline ]; do
	missing=0
	[ -n "$(expels_of "$V")" ] || missing=1
	cl_wait_failures "$V" 0 "${others[@]}" || missing=1
	[ $missing -eq 1 ] || break
	sleep 0.5
done
sleep $((2 * D / 1000 + 1))

# Nobody declares a live node dead; V accuses nobody.
bad=''
c=$(awk -v v="$V" 'index($3, "\"event\":\"failure\"") && !index($3, "\"node_id\":" v ",")' "$CL_EVENTS" | wc -l)
[ "$c" -eq 0 ] || bad+=" $c failure events about live nodes: $(awk -v v="$V" 'index($3, "\"event\":\"failure\"") &&
	!index($3, "\"node_id\":" v ",") { print "node " $2 ":" $3 }' "$CL_EVENTS" | head -n 5 | tr '\n' ' ')"
c=$(cl_events_of "$V" | grep -c '"event":"failure"')
[ "$c" -eq 0 ] || bad+=" node $V published $c failure events;"
if [ -z "$bad" ]; then ok "nobody declared a live node dead, node $V published no death"; else
	not_ok "nobody declared a live node dead, node $V published no death"; diag "$bad"; fi

# V expels itself.
bad=''
c=$(expels_of "$V" | wc -l)
if [ "$c" -eq 1 ]; then
	line=$(expels_of "$V")
	r=$(printf '%s\n' "$line" | field reason)
	b=$(printf '%s\n' "$line" | field by_id)
	i=$(printf '%s\n' "$line" | field incarnation)
	[ "$r" = deaf ] && [ "$b" = "$V" ] && [ "$i" = "$inc" ] ||
		bad+=" reason '$r' by '$b' incarnation '$i' (its own $inc);"
	ms=$(awk -v a="$t0" -v b="${line%% *}" 'BEGIN { printf "%d", (b - a) * 1000 }')
	echo "deaf-expel $V $V $ms" >>"$CL_DIR/latency.txt"
	diag "node $V expelled itself $ms ms after the cut"
else
	bad+=" $c expelled events;"
fi
if [ -z "$bad" ]; then ok "node $V expelled itself once: reason deaf, by itself, its incarnation"; else
	not_ok "node $V expelled itself once: reason deaf, by itself, its incarnation"; diag "$bad"; fi
susp=$(stat_of "$V" suspicions)
preq=$(stat_of "$V" probe_req_sent)
pack=$(stat_of "$V" probe_ack_recv)
diag "node $V: suspicions $susp, probe requests sent $preq, answers received $pack"
check "node $V accused nobody and asked helpers (suspicions $susp, probe requests $preq)" \
	test "$susp" = 0 -a -n "$preq" -a "${preq:-0}" -gt 0

# The others find it silent: the power-kill assertions, bound 4d + h.
CL_FAULT=deaf
cl_check_deaths "$t0" "$bound" "$bound" "$V" "${others[@]}"
for n in "${others[@]}"; do
	t=$(cl_failures_at "$n" "$V" | head -n 1)
	[ -z "$t" ] || echo "deaf-death $V $n $(awk -v a="$t0" -v b="$t" 'BEGIN { printf "%d", (b - a) * 1000 }')" >>"$CL_DIR/latency.txt"
done
st=$(cl_states_of "$V" | tr ' ' '\n' | sed -n "s/^$V://p")
check "node $V's node list shows itself expelled ('$st')" test "$st" = expelled

# It hears again: nobody flaps, it stays out and silent.
hb0=$(stat_of "$V" hb_sent)
t1=$(cl_now)
check "node $V: the rule removed" node_run "$V" "nft delete table inet ftnl_deaf"
cl_mark "$V" hears
sleep $((3 * D / 1000 + 2))
c=$(awk -v t="$t1" '$1 > t && $2 != 0 && index($3, "{\"time\"") == 1' "$CL_EVENTS" | wc -l)
if [ "$c" -eq 0 ]; then ok "it hears again: no event on any node for 3d"; else
	not_ok "it hears again: no event on any node for 3d"
	diag "$(awk -v t="$t1" '$1 > t && $2 != 0 && index($3, "{\"time\"") == 1' "$CL_EVENTS" | head -n 10)"
fi
hb1=$(stat_of "$V" hb_sent)
st=$(cl_states_of "$V" | tr ' ' '\n' | sed -n "s/^$V://p")
check "node $V stays expelled ('$st') and silent (heartbeats sent $hb0 -> $hb1)" \
	test "$st" = expelled -a "$hb0" = "$hb1"
check "the ring is still closed over the others" cl_ring_closed "${others[@]}"

tap_end
