#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every link loses 5 % of the datagrams and delays each by 2 ms +- 1 ms
# (netem on every node's egress) for SECONDS (default 300). Nobody fails:
# no node may publish a single failure event, every node must still see
# every node alive, and the ring must be the full cycle. Run it with the
# h and d the admin guide recommends for noisy nodes (tools/cluster/
# scenarios/list: h = 1 s, d = 3 s); the suspicions each node counted
# (ftnl-cli stats) are reported.
. "$FTNL_CLUSTER_ROOT/tools/cluster/lib.sh"

SECONDS_LOSSY=${1:-300}
cl_settle
cl_baseline

susp_of() { node_run "$1" "ftnl-cli -j stats" | sed -n 's/.*"suspicions":\([0-9]*\).*/\1/p'; }
before=()
for i in $(seq "$CL_N"); do before+=("$(susp_of "$i")"); done

check "netem loss 5% delay 2ms 1ms on every node's egress" cl_degrade loss 5% delay 2ms 1ms
t0=$(cl_now)
sleep "$SECONDS_LOSSY"
t1=$(cl_now)
# The netem really dropped: its counters, summed over the nodes.
sent=0 dropped=0
for i in $(seq "$CL_N"); do
	read -r p d < <(node_run "$i" "tc -s qdisc show dev eth0" |
		sed -n 's/.*Sent [0-9]* bytes \([0-9]*\) pkt (dropped \([0-9]*\),.*/\1 \2/p' | head -n 1)
	sent=$((sent + ${p:-0}))
	dropped=$((dropped + ${d:-0}))
done
check "netem dropped datagrams: $dropped of $((sent + dropped))" test "$dropped" -gt 0
check "netem removed" cl_degrade off

c=$(awk -v t="$t0" '$1 >= t && index($3, "\"event\":\"failure\"")' "$CL_EVENTS" | wc -l)
if [ "$c" -eq 0 ]; then ok "no failure event in $SECONDS_LOSSY s of lossy links (h $FTNL_CLUSTER_H_MS ms, d $FTNL_CLUSTER_D_MS ms)"; else
	not_ok "no failure event in $SECONDS_LOSSY s of lossy links (h $FTNL_CLUSTER_H_MS ms, d $FTNL_CLUSTER_D_MS ms)"
	awk -v t="$t0" '$1 >= t && index($3, "\"event\":\"failure\"")' "$CL_EVENTS" | head -n 10 | sed 's/^/# /'
fi
susp=''
for i in $(seq "$CL_N"); do susp+=" $i:$(($(susp_of "$i") - before[i - 1]))"; done
diag "suspicions counted per node during the run (ftnl-cli stats):$susp"
# shellcheck disable=SC2046 # one id per word
bad=$(cl_views_unlike "$(cl_want_states)" $(seq "$CL_N"))
if [ -z "$bad" ]; then ok "every node still sees every node alive"; else
	not_ok "every node still sees every node alive"; diag "$bad"; fi
# shellcheck disable=SC2046 # one id per word
check "the ring is still the full cycle" cl_ring_closed $(seq "$CL_N")
diag "lossy period: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }') s"

tap_end
