#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A node reboots and rejoins on its own (rejoin auto, the default;
# Documentation/ring.rst, "Rejoin"): node V's QEMU is killed (power loss)
# and its death found by every survivor; then the same disk-less image
# boots again, the module is loaded afresh (a new incarnation) and
# configured from the same file - no admin runs anything on the others:
#   - every survivor publishes exactly one joined event about V, naming
#     its new incarnation, within 2d + the harness margin of V's
#     configuration (the first member that hears it admits it and
#     broadcasts its JOIN);
#   - then every node sees every node alive, the ring is the full cycle
#     again, and no failure event follows.
# The rejoin time (V configured to the last survivor's joined event, host
# stamps) goes to $FTNL_CLUSTER_DIR/latency.txt as "rejoin V NODE MS".
. "$FTNL_CLUSTER_ROOT/tools/cluster/lib.sh"

[ "$CL_N" -ge 3 ] || { echo "1..0 # SKIP reboot needs --nodes 3 or more"; exit 4; }
V=$(((CL_N + 1) / 2))
CL_FAULT=power-kill

inc_of() { node_run "$1" "ftnl-cli -j info" | sed -n 's/.*"incarnation":\([0-9]*\).*/\1/p'; }
# joins_at NODE: host stamps of NODE's joined events about V.
joins_at() {
	awk -v n="$1" -v v="$V" '$2 == n && index($3, "\"event\":\"joined\"") &&
		index($3, "\"node_id\":" v ",") { print $1 }' "$CL_EVENTS"
}

cl_settle
cl_baseline
inc0=$(inc_of "$V")
survivors=()
for i in $(seq "$CL_N"); do [ "$i" -eq "$V" ] || survivors+=("$i"); done

t0=$(cl_now)
node_kill "$V"
cl_check_deaths "$t0" "$(cl_bound_ms 1)" "$(cl_bound_ms 1)" "$V" "${survivors[@]}"

# The same image boots again: the module is loaded, a new incarnation.
node_start "$V"
check "node $V: boots again" node_wait_ready "$V"
t1=$(cl_now)
cl_mark "$V" configure
check "node $V: cluster set from the same file, nothing run elsewhere" node_configure "$V"
inc1=$(inc_of "$V")
check "node $V: a new incarnation ($inc0 -> $inc1)" test -n "$inc1" -a "$inc1" != "$inc0"

limit_ms=$((2 * FTNL_CLUSTER_D_MS + CL_MARGIN_MS))
deadline=$((${EPOCHREALTIME%.*} + limit_ms / 1000 + 30))
while :; do
	missing=0
	for n in "${survivors[@]}"; do [ -n "$(joins_at "$n")" ] || missing=1; done
	[ $missing -eq 1 ] && [ "${EPOCHREALTIME%.*}" -lt $deadline ] || break
	sleep 0.1
done
sleep "$((FTNL_CLUSTER_D_MS * 2 / 1000 + 1))"
bad='' late='' lmax=0
for n in "${survivors[@]}"; do
	c=$(joins_at "$n" | wc -l)
	[ "$c" -eq 1 ] || { bad+=" node $n: $c joined events;"; continue; }
	ms=$(awk -v a="$t1" -v b="$(joins_at "$n")" 'BEGIN { printf "%d", (b - a) * 1000 }')
	echo "rejoin $V $n $ms" >>"$FTNL_CLUSTER_DIR/latency.txt"
	[ "$ms" -le "$limit_ms" ] || late+=" node $n: ${ms} ms;"
	[ "$ms" -le "$lmax" ] || lmax=$ms
	inc=$(awk -v n="$n" -v v="$V" '$2 == n && index($3, "\"event\":\"joined\"") &&
		index($3, "\"node_id\":" v ",")' "$CL_EVENTS" | sed -n 's/.*"incarnation":\([0-9]*\).*/\1/p')
	[ "$inc" = "$inc1" ] || bad+=" node $n: joined names incarnation $inc;"
done
if [ -z "$bad" ]; then ok "every survivor: exactly one joined event about node $V, its new incarnation"; else
	not_ok "every survivor: exactly one joined event about node $V, its new incarnation"; diag "$bad"; fi
if [ -z "$late" ]; then ok "every joined event within 2d + margin ($limit_ms ms) of the configuration"; else
	not_ok "every joined event within 2d + margin ($limit_ms ms) of the configuration"; diag "$late"; fi
diag "rejoin time (node $V configured to the last survivor's joined event): $lmax ms"

# shellcheck disable=SC2046 # one id per word
bad=$(cl_views_unlike "$(cl_want_states)" $(seq "$CL_N"))
c=$(awk -v t="$t1" '$1 > t && index($3, "\"event\":\"failure\"")' "$CL_EVENTS" | wc -l)
[ "$c" -eq 0 ] || bad+=" $c failure events after the reboot;"
if [ -z "$bad" ]; then ok "every node sees every node alive, no failure event since"; else
	not_ok "every node sees every node alive, no failure event since"; diag "$bad"; fi
# shellcheck disable=SC2046 # one id per word
check "the ring is the full cycle again" cl_ring_closed $(seq "$CL_N")

tap_end
