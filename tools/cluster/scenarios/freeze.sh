#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A node hangs longer than d and comes back (QMP stop, then cont): the
# others declare it dead, and the thawed node must learn it, stop acting
# as a member and have its processes fenced (Documentation/admin-guide.rst,
# "Expulsion and fencing"). Node V runs a job of 2 ranks of
# ftnl-group-worker registered with the module (FTNL_GROUP_MODULE=on).
#   Phase 1, fence none (the default), V configured again with rejoin
#   manual (its own policy: it does not come back by itself; the
#   survivors keep rejoin auto): V frozen; every survivor publishes
#   exactly one death of V, within the bound of a power-kill; V thawed:
#     - V publishes exactly one expelled event naming the incarnation the
#       cluster declared dead, within d + h + the harness margin of the
#       thaw (its first datagram reaches a member that answers EXPELLED);
#     - V's node list says its own entry is expelled, and it stays so;
#     - its ranks end with -ESTALE (the worker's exit status 3), nothing
#       stays registered, and a new rank cannot register (-ESTALE);
#     - after 2d more: still exactly one death of V at every survivor, no
#       death of a survivor anywhere but on V itself, no joined event; the
#       survivors' ring stays closed without V.
#   Phase 2: the admin configures V again, now with fence kill: a new
#   incarnation, which rejoins on its own (rejoin auto): every survivor
#   publishes exactly one joined event naming it, the ring is the full
#   cycle. V is frozen and thawed again: one more death at every survivor,
#   one more expelled event at V (the new incarnation), and its ranks are
#   SIGKILLed by the module (exit status 137 from their shell). With
#   rejoin auto, V then comes back by itself as a newer incarnation once
#   fenced and held 4d (Documentation/ring.rst, "Comeback"): every
#   survivor publishes a second joined event naming it, every node sees
#   every node alive, the ring is the full cycle, and a new job registers.
# The time from thaw to expelled (host stamps) goes to
# $FTNL_CLUSTER_DIR/latency.txt as "expel V V MS".
. "$FTNL_CLUSTER_ROOT/tools/cluster/lib.sh"

[ "$CL_N" -ge 3 ] || { echo "1..0 # SKIP freeze needs --nodes 3 or more"; exit 4; }
V=$(((CL_N + 1) / 2))
CL_FAULT=freeze
PER=2
D_MS=$FTNL_CLUSTER_D_MS
H_MS=$FTNL_CLUSTER_H_MS
survivors=()
for i in $(seq "$CL_N"); do [ "$i" -eq "$V" ] || survivors+=("$i"); done

inc_of() { node_run "$1" "ftnl-cli -j info" | sed -n 's/.*"incarnation":\([0-9]*\).*/\1/p'; }
# events_at NODE KIND ABOUT: host stamps of NODE's KIND events about node ABOUT.
events_at() {
	awk -v n="$1" -v k="\"event\":\"$2\"" -v v="\"node_id\":$3," \
		'$2 == n && index($3, k) && index($3, v) { print $1 }' "$CL_EVENTS"
}
# event_json NODE KIND ABOUT: the last such event's JSON.
event_json() {
	awk -v n="$1" -v k="\"event\":\"$2\"" -v v="\"node_id\":$3," \
		'$2 == n && index($3, k) && index($3, v) { j = $3 } END { print j }' "$CL_EVENTS"
}
ms_between() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%d", (b - a) * 1000 }'; }
count_is() { [ "$("${@:2}" | wc -l)" -eq "$1" ]; }
all_survivors_count() {
	local want=$1 kind=$2 n
	for n in "${survivors[@]}"; do count_is "$want" events_at "$n" "$kind" "$V" || return 1; done
}

# start_job JOB: PER ranks of a group whose ranks all run on V, each
# registered with V's module; a rank's exit status goes to
# /tmp/job-JOB/status-R when it ends.
start_job() {
	local job=$1 r cmd
	cmd="mkdir -p /tmp/job-$job && cat >/tmp/job-$job/peers <<'PEERS'
job $job
key $(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
"
	for r in $(seq 0 $((PER - 1))); do
		cmd+="rank $r $(node_addr "$V") $((9200 + job % 100 * PER + r)) host h$V node $V
"
	done
	cmd+="PEERS
"
	for r in $(seq 0 $((PER - 1))); do
		cmd+="(FTNL_GROUP_PEERS=/tmp/job-$job/peers FTNL_GROUP_RANK=$r FTNL_GROUP_MODULE=on \
/opt/ftnl/selftests/ftnl-group-worker -a 1000000 --pause 50000 >/tmp/job-$job/rank-$r.log 2>&1; \
echo \$? >/tmp/job-$job/status-$r) </dev/null >/dev/null 2>&1 &
"
	done
	node_run "$V" "$cmd"
}
registered() { node_run "$V" "ftnl-cli -j proc list" | grep -o '"rank":' | wc -l; }
registered_is() { [ "$(registered)" -eq "$1" ]; }
start_registered() { start_job "$1" && cl_wait_for 30 registered_is "$PER"; }
# statuses JOB: the ranks' exit statuses, "R:STATUS ..." (R:- while running).
statuses() {
	local r s out=''
	for r in $(seq 0 $((PER - 1))); do
		s=$(node_run "$V" "cat /tmp/job-$1/status-$r 2>/dev/null")
		out+="$r:${s:--} "
	done
	printf '%s' "$out"
}
ranks_ended() { [[ $(statuses "$1") != *:-* ]]; }
want_statuses() {
	local r out=''
	for r in $(seq 0 $((PER - 1))); do out+="$r:$1 "; done
	printf '%s' "$out"
}

# freeze_thaw ROUND INCARNATION: freeze V until every survivor published
# its ROUND-th death of V and 2d more passed (every member may tell it
# from then on), then thaw it and wait for its ROUND-th expelled event.
# Sets T_FREEZE, T_THAW.
freeze_thaw() {
	local round=$1 inc=$2 n bound
	T_FREEZE=$(cl_now)
	check "round $round: freeze node $V (QMP stop)" node_freeze "$V"
	bound=$(cl_bound_ms 1)
	cl_wait_for $((bound / 1000 + 30)) all_survivors_count "$round" failure
	local late='' lat='' t ms
	for n in "${survivors[@]}"; do
		t=$(events_at "$n" failure "$V" | sed -n "${round}p")
		[ -n "$t" ] || { late+=" node $n: none;"; continue; }
		ms=$(ms_between "$T_FREEZE" "$t")
		lat+=" $V@$n:${ms}ms"
		echo "freeze $V $n $ms" >>"$CL_DIR/latency.txt"
		[ "$ms" -le "$bound" ] || late+=" node $n: ${ms} ms;"
	done
	diag "round $round: death of node $V learned at:$lat"
	if [ -z "$late" ]; then ok "round $round: every survivor declared node $V dead within $bound ms"; else
		not_ok "round $round: every survivor declared node $V dead within $bound ms"; diag "$late"; fi
	cl_sleep_ms $((2 * D_MS + 500))
	T_THAW=$(cl_now)
	check "round $round: thaw node $V (QMP cont)" node_thaw "$V"
	bound=$((D_MS + H_MS + CL_MARGIN_MS))
	cl_wait_for $((bound / 1000 + 30)) count_is "$round" events_at "$V" expelled "$V"
	t=$(events_at "$V" expelled "$V" | sed -n "${round}p")
	if [ -z "$t" ]; then
		not_ok "round $round: node $V publishes an expelled event after the thaw"
		return
	fi
	ms=$(ms_between "$T_THAW" "$t")
	echo "expel $V $V $ms" >>"$CL_DIR/latency.txt"
	diag "round $round: thaw to expelled: $ms ms ($(event_json "$V" expelled "$V"))"
	check "round $round: node $V learns it was expelled within $bound ms of the thaw" \
		test "$ms" -le "$bound"
	check "round $round: its expelled event names incarnation $inc, reason told" \
		grep -q "\"incarnation\":$inc,\"reason\":\"told\"" <<<"$(event_json "$V" expelled "$V")"
}

# ---- baseline --------------------------------------------------------------
cl_settle
cl_baseline
inc0=$(inc_of "$V")
check "node $V: cluster set again with rejoin manual (same incarnation)" \
	node_run "$V" "ftnl-cli cluster set file /etc/ftnl/cluster.conf self $V rejoin manual"
check "node $V: still incarnation $inc0" test "$(inc_of "$V")" = "$inc0"
check "node $V: a job of $PER ranks registered with the module" \
	start_registered 1

# ---- phase 1: fence none ---------------------------------------------------
freeze_thaw 1 "$inc0"
check "node $V: its ranks end with -ESTALE (status 3): got [$(cl_wait_for 20 ranks_ended 1; statuses 1)]" \
	test "$(statuses 1)" = "$(want_statuses 3)"
check "node $V: nothing registered any more" test "$(registered)" -eq 0
start_job 2 >/dev/null
cl_wait_for 20 ranks_ended 2
check "node $V: a new rank cannot register (status 3, -ESTALE): got [$(statuses 2)]" \
	test "$(statuses 2)" = "$(want_statuses 3)"
cl_sleep_ms $((2 * D_MS + 1000))
got=$(cl_states_of "$V")
check "node $V: its own entry says expelled, still 2d after ($got)" \
	grep -q "\\b$V:expelled " <<<"$got"
check "node $V: exactly one expelled event" count_is 1 events_at "$V" expelled "$V"
bad=''
for n in "${survivors[@]}"; do
	c=$(events_at "$n" failure "$V" | wc -l)
	[ "$c" -eq 1 ] || bad+=" node $n: $c deaths of $V;"
	c=$(events_at "$n" joined "$V" | wc -l)
	[ "$c" -eq 0 ] || bad+=" node $n: $c joined events;"
	bad+=$(cl_false_deaths "$n" "${survivors[@]}")
done
bad+=$(cl_views_unlike "$(cl_want_states "$V")" "${survivors[@]}")
if [ -z "$bad" ]; then ok "every survivor: one death of node $V, none of a survivor, no rejoin, views agree"; else
	not_ok "every survivor: one death of node $V, none of a survivor, no rejoin, views agree"; diag "$bad"; cl_diag_nodes 'node list'; fi
check "the survivors' ring stays closed without node $V" cl_ring_closed "${survivors[@]}"

# ---- phase 2: configured again (a new incarnation, rejoin), fence kill -----
t1=$(cl_now)
check "node $V: cluster set again from the file, with fence kill" \
	node_run "$V" "ftnl-cli cluster set file /etc/ftnl/cluster.conf self $V fence kill"
inc1=$(inc_of "$V")
check "node $V: a new incarnation ($inc0 -> $inc1)" test -n "$inc1" -a "$inc1" != "$inc0"
limit_ms=$((2 * D_MS + CL_MARGIN_MS))
cl_wait_for $((limit_ms / 1000 + 30)) all_survivors_count 1 joined
cl_sleep_ms $((2 * D_MS + 1000))
bad=''
for n in "${survivors[@]}"; do
	c=$(events_at "$n" joined "$V" | wc -l)
	[ "$c" -eq 1 ] || { bad+=" node $n: $c joined events;"; continue; }
	ms=$(ms_between "$t1" "$(events_at "$n" joined "$V")")
	echo "rejoin $V $n $ms" >>"$CL_DIR/latency.txt"
	[ "$ms" -le "$limit_ms" ] || bad+=" node $n: joined after $ms ms;"
	grep -q "\"incarnation\":$inc1," <<<"$(event_json "$n" joined "$V")" ||
		bad+=" node $n: joined names another incarnation;"
done
if [ -z "$bad" ]; then ok "every survivor: exactly one joined event about node $V's new incarnation, within $limit_ms ms"; else
	not_ok "every survivor: exactly one joined event about node $V's new incarnation, within $limit_ms ms"; diag "$bad"; fi
# shellcheck disable=SC2046 # one id per word
bad=$(cl_views_unlike "$(cl_want_states)" $(seq "$CL_N"))
if [ -z "$bad" ]; then ok "every node sees every node alive again"; else
	not_ok "every node sees every node alive again"; diag "$bad"; fi
# shellcheck disable=SC2046 # one id per word
check "the ring is the full cycle again" cl_ring_closed $(seq "$CL_N")
check "node $V: a new job of $PER ranks registered" \
	start_registered 3

freeze_thaw 2 "$inc1"
check "node $V: fence kill SIGKILLed its ranks (status 137): got [$(cl_wait_for 20 ranks_ended 3; statuses 3)]" \
	test "$(statuses 3)" = "$(want_statuses 137)"
check "node $V: nothing registered any more" test "$(registered)" -eq 0
cl_sleep_ms $((D_MS + 1000))
bad=''
for n in "${survivors[@]}"; do
	c=$(events_at "$n" failure "$V" | wc -l)
	[ "$c" -eq 2 ] || bad+=" node $n: $c deaths of $V;"
	bad+=$(cl_false_deaths "$n" "${survivors[@]}")
done
check "node $V: exactly two expelled events, one per incarnation" count_is 2 events_at "$V" expelled "$V"
if [ -z "$bad" ]; then ok "every survivor: one death of node $V per incarnation, none of a survivor"; else
	not_ok "every survivor: one death of node $V per incarnation, none of a survivor"; diag "$bad"; cl_diag_nodes 'node list'; fi

# ---- phase 3: the comeback (rejoin auto) -------------------------------------
t2=$(cl_now)
limit_ms=$((6 * D_MS + CL_MARGIN_MS))
cl_wait_for $((limit_ms / 1000 + 30)) all_survivors_count 2 joined
inc2=$(inc_of "$V")
check "node $V: came back as a newer incarnation ($inc1 -> $inc2)" \
	test -n "$inc2" -a "$inc2" != "$inc1"
bad=''
for n in "${survivors[@]}"; do
	c=$(events_at "$n" joined "$V" | wc -l)
	[ "$c" -eq 2 ] || { bad+=" node $n: $c joined events;"; continue; }
	ms=$(ms_between "$t2" "$(events_at "$n" joined "$V" | sed -n 2p)")
	echo "comeback $V $n $ms" >>"$CL_DIR/latency.txt"
	grep -q "\"incarnation\":$inc2," <<<"$(event_json "$n" joined "$V")" ||
		bad+=" node $n: joined names another incarnation;"
done
if [ -z "$bad" ]; then ok "every survivor: a second joined event, about node $V's comeback"; else
	not_ok "every survivor: a second joined event, about node $V's comeback"; diag "$bad"; cl_diag_nodes 'node list'; fi
cl_sleep_ms $((2 * D_MS + 1000))
# shellcheck disable=SC2046 # one id per word
bad=$(cl_views_unlike "$(cl_want_states)" $(seq "$CL_N"))
for n in "${survivors[@]}"; do
	c=$(events_at "$n" joined "$V" | wc -l)
	[ "$c" -eq 2 ] || bad+=" node $n: $c joined events;"
done
if [ -z "$bad" ]; then ok "after the comeback every node sees every node alive, no more joined"; else
	not_ok "after the comeback every node sees every node alive, no more joined"; diag "$bad"; cl_diag_nodes 'node list'; fi
check "node $V: still exactly two expelled events" count_is 2 events_at "$V" expelled "$V"
# shellcheck disable=SC2046 # one id per word
check "the ring is the full cycle again" cl_ring_closed $(seq "$CL_N")
check "node $V: a new job of $PER ranks registered in its new life" \
	start_registered 4

tap_end
