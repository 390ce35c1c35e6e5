#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A network partition with the quorum rule on (the default from 3 nodes;
# "Partitions and half-deaf nodes" in Documentation/admin-guide.rst): the
# network is cut into a majority side and a minority side of
# floor((N-1)/2) nodes (3 | 5 on 8 nodes), the nodes with the highest
# ids, or the ids given as arguments. Then:
#   - every majority node publishes exactly one failure event about each
#     minority node, and none about a majority node;
#   - every minority node expels itself: exactly one expelled event,
#     by itself, naming its incarnation, reason quorum (some helpers of
#     its probe answered, never a majority of the cluster: its own side)
#     or deaf (no helper of its probes answered: once the other minority
#     nodes have expelled themselves, the last one's emitter is silent
#     and every helper it may ask is across the cut or gone); with two
#     minority nodes or more, at least one says quorum; its node list
#     shows it expelled. No minority node publishes any failure event,
#     before or after: a death it finds needs a majority's confirmation,
#     which its side cannot give (the confirmation rule; before it, each
#     published the deaths of live majority nodes);
#   - no majority node is expelled; their node lists agree (the minority
#     dead), and the ring is closed over the majority.
# Then the partition heals, and nobody flaps: for 3d no event at all on
# any node, the majority's node lists and ring unchanged, the minority
# still expelled and silent (no heartbeat sent).
# Times (the cut to each event, host clock) go to
# $FTNL_CLUSTER_DIR/latency.txt as "partition-death V NODE MS" and
# "partition-expel V V MS".
. "$FTNL_CLUSTER_ROOT/tools/cluster/lib.sh"

[ "$CL_N" -ge 3 ] || { echo "1..0 # SKIP partition needs --nodes 3 or more"; exit 4; }
if [ $# -gt 0 ]; then
	minority=("$@")
else
	minority=()
	for i in $(seq $((CL_N - (CL_N - 1) / 2 + 1)) "$CL_N"); do minority+=("$i"); done
fi
majority=()
for i in $(seq "$CL_N"); do
	case " ${minority[*]} " in *" $i "*) ;; *) majority+=("$i") ;; esac
done
[ $((2 * ${#majority[@]})) -gt "$CL_N" ] ||
	{ echo "1..0 # SKIP the majority side (${majority[*]}) holds no strict majority"; exit 4; }
D=$FTNL_CLUSTER_D_MS

# expels_of NODE: NODE's expelled events, "STAMP JSON".
expels_of() {
	awk -v n="$1" '$2 == n && index($3, "\"event\":\"expelled\"") { print $1, $3 }' "$CL_EVENTS"
}
# failures_by NODE: the node ids of NODE's failure events, with stamps.
failures_by() {
	awk -v n="$1" '$2 == n && index($3, "\"event\":\"failure\"") { print $1, $3 }' "$CL_EVENTS" |
		sed -n 's/^\([0-9.]*\) .*"node_id":\([0-9]*\),.*/\1 \2/p'
}
field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }
inc_of() { node_run "$1" "ftnl-cli -j info" | field incarnation; }
hb_sent_of() { node_run "$1" "ftnl-cli -j stats" | field hb_sent; }

cl_settle
cl_baseline
bad=''
for n in $(seq "$CL_N"); do
	q=$(node_run "$n" "ftnl-cli -j cluster show" | field quorum)
	[ "$q" = true ] || bad+=" node $n: quorum '$q';"
done
if [ -z "$bad" ]; then ok "the quorum rule is on at every node (the default for $CL_N nodes)"; else
	not_ok "the quorum rule is on at every node (the default for $CL_N nodes)"; diag "$bad"; fi
declare -A inc
for v in "${minority[@]}"; do inc[$v]=$(inc_of "$v"); done

t0=$(cl_now)
cl_partition "${majority[*]}" "${minority[*]}"
diag "partition: majority ${majority[*]} | minority ${minority[*]}"

# The minority's nodes expel themselves one after another: the first
# when its probe's rounds close short of a majority, then its silence
# makes the next one's observer probe, and resign in turn.
waited=$(((2 * CL_N + 4) * D / 1000 + 60))
deadline=$((${EPOCHREALTIME%.*} + waited))
while [ "${EPOCHREALTIME%.*}" -lt $deadline ]; do
	missing=0
	for v in "${minority[@]}"; do
		[ -n "$(expels_of "$v")" ] || { missing=1; break; }
		for n in "${majority[@]}"; do
			[ -n "$(cl_failures_at "$n" "$v")" ] || { missing=1; break 2; }
		done
	done
	[ $missing -eq 1 ] || break
	sleep 0.5
done
sleep $((D / 1000 + 1))

# The majority declares the minority dead, exactly once each, no one else.
dup='' falsely='' lat='' lmax=0
for n in "${majority[@]}"; do
	for v in "${minority[@]}"; do
		c=$(cl_failures_at "$n" "$v" | wc -l)
		[ "$c" -eq 1 ] || dup+=" node $n: $c about $v;"
		t=$(cl_failures_at "$n" "$v" | head -n 1)
		[ -n "$t" ] || continue
		ms=$(awk -v a="$t0" -v b="$t" 'BEGIN { printf "%d", (b - a) * 1000 }')
		echo "partition-death $v $n $ms" >>"$CL_DIR/latency.txt"
		lat+=" $v@$n:${ms}ms"
		[ "$ms" -le "$lmax" ] || lmax=$ms
	done
	falsely+=$(cl_false_deaths "$n" "${majority[@]}")
done
diag "the majority learned (victim@node: ms after the cut):$lat"
if [ -z "$dup" ]; then ok "every majority node: exactly one failure event per minority node (last ${lmax} ms after the cut)"; else
	not_ok "every majority node: exactly one failure event per minority node"; diag "$dup"; fi
if [ -z "$falsely" ]; then ok "no majority node published the death of a majority node"; else
	not_ok "no majority node published the death of a majority node"; diag "$falsely"; fi

# The minority expels itself: by itself, its incarnation, quorum or deaf.
bad='' lat='' nquorum=0
for v in "${minority[@]}"; do
	c=$(expels_of "$v" | wc -l)
	[ "$c" -eq 1 ] || { bad+=" node $v: $c expelled events;"; continue; }
	line=$(expels_of "$v")
	r=$(printf '%s\n' "$line" | field reason)
	b=$(printf '%s\n' "$line" | field by_id)
	i=$(printf '%s\n' "$line" | field incarnation)
	case $r in quorum) nquorum=$((nquorum + 1)) ;; deaf) ;; *) r="'$r'" ;; esac
	case $r in quorum | deaf) ;; *) bad+=" node $v: reason $r;" ;; esac
	[ "$b" = "$v" ] && [ "$i" = "${inc[$v]}" ] ||
		bad+=" node $v: by '$b' incarnation '$i' (its own ${inc[$v]});"
	ms=$(awk -v a="$t0" -v b="${line%% *}" 'BEGIN { printf "%d", (b - a) * 1000 }')
	echo "partition-expel $v $v $ms" >>"$CL_DIR/latency.txt"
	lat+=" $v:${ms}ms($r)"
done
[ "$nquorum" -gt 0 ] || [ ${#minority[@]} -lt 2 ] ||
	bad+=" no minority node gave reason quorum;"
diag "the minority expelled itself (node: ms after the cut):$lat"
if [ -z "$bad" ]; then ok "every minority node expelled itself once: by itself, its incarnation, reason quorum or deaf"; else
	not_ok "every minority node expelled itself once: by itself, its incarnation, reason quorum or deaf"; diag "$bad"; fi

# The minority published no death: its side is no majority to confirm one.
bad='' seen=''
for v in "${minority[@]}"; do
	c=0 ids=''
	while read -r t id; do
		[ -n "$t" ] || continue
		c=$((c + 1))
		ids+="$id,"
	done < <(failures_by "$v")
	seen+=" node $v: ${c}${ids:+ (${ids%,})};"
	[ "$c" -eq 0 ] || bad+=" node $v published $c deaths (${ids%,});"
done
diag "deaths the minority published:$seen"
if [ -z "$bad" ]; then ok "no minority node published any death (none confirmed by a majority)"; else
	not_ok "no minority node published any death (none confirmed by a majority)"; diag "$bad"; fi

# Views: the majority agrees; the minority shows itself expelled.
want=$(cl_want_states "${minority[@]}")
bad=''
for n in "${majority[@]}"; do
	[ -z "$(expels_of "$n")" ] || bad+=" node $n was expelled;"
done
bad+=$(cl_views_unlike "$want" "${majority[@]}")
if [ -z "$bad" ]; then ok "the majority stays: no one expelled, every node list has the minority dead"; else
	not_ok "the majority stays: no one expelled, every node list has the minority dead"; diag "$bad"; fi
bad=''
for v in "${minority[@]}"; do
	st=$(cl_states_of "$v" | tr ' ' '\n' | sed -n "s/^$v://p")
	[ "$st" = expelled ] || bad+=" node $v: '$st';"
done
if [ -z "$bad" ]; then ok "every minority node's node list shows itself expelled"; else
	not_ok "every minority node's node list shows itself expelled"; diag "$bad"; fi
check "the ring is closed over the majority" cl_ring_closed "${majority[@]}"

# Heal: nobody flaps, the minority stays out and silent.
declare -A hb0
for v in "${minority[@]}"; do hb0[$v]=$(hb_sent_of "$v"); done
t1=$(cl_now)
cl_heal
sleep $((3 * D / 1000 + 2))
c=$(awk -v t="$t1" '$1 > t && $2 != 0 && index($3, "{\"time\"") == 1' "$CL_EVENTS" | wc -l)
if [ "$c" -eq 0 ]; then ok "healed: no event on any node for 3d (nobody flaps)"; else
	not_ok "healed: no event on any node for 3d (nobody flaps)"
	diag "$(awk -v t="$t1" '$1 > t && $2 != 0 && index($3, "{\"time\"") == 1' "$CL_EVENTS" | head -n 10)"
fi
bad=$(cl_views_unlike "$want" "${majority[@]}")
for v in "${minority[@]}"; do
	st=$(cl_states_of "$v" | tr ' ' '\n' | sed -n "s/^$v://p")
	[ "$st" = expelled ] || bad+=" node $v: '$st';"
	hb=$(hb_sent_of "$v")
	[ "$hb" = "${hb0[$v]}" ] || bad+=" node $v sent heartbeats (${hb0[$v]} -> $hb);"
done
if [ -z "$bad" ]; then ok "healed: the node lists are unchanged, the minority stays expelled and silent"; else
	not_ok "healed: the node lists are unchanged, the minority stays expelled and silent"; diag "$bad"; fi
check "healed: the ring is still closed over the majority" cl_ring_closed "${majority[@]}"

tap_end
