#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A libftnl job over the VMs, the module as its only failure detector: 2
# ranks of ftnl-group-worker per node (a peers file naming each rank's
# node, FTNL_GROUP_MODULE=on, no failure directory). The ranks of node V
# stall before agreement 8, so that every other rank waits for them in it;
# then node V loses power. Its observer detects it, the broadcast tells
# every node, and every surviving rank must complete agreement 8 with
# FTNL_EPROCFAILED, acknowledge, shrink to the same view without V's ranks
# and complete every agreement with the same result: group-check
# (libftnl/group/tests/group-check) judges the survivors' logs.
. "$FTNL_CLUSTER_ROOT/tools/cluster/lib.sh"

[ "$CL_N" -ge 3 ] || { echo "1..0 # SKIP group-kill needs --nodes 3 or more"; exit 4; }
CHECK=$FTNL_CLUSTER_ROOT/libftnl/group/tests/group-check
PER=2
N=$((CL_N * PER))
A=16
JOB=1401
PORT=9100
V=$(((CL_N + 1) / 2))
DEAD="$(((V - 1) * PER)) $(((V - 1) * PER + 1))"
D=$CL_DIR/job
mkdir -p "$D/failed"

ranks_of() { seq $((($1 - 1) * PER)) $(($1 * PER - 1)); }

{
	echo "job $JOB"
	echo "key $(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')"
	for r in $(seq 0 $((N - 1))); do
		h=$((r / PER + 1))
		echo "rank $r $(node_addr $h) $((PORT + r)) host h$h node $h"
	done
} >"$D/peers"

cl_settle
cl_baseline

stalls=''
for r in $DEAD; do stalls+=" --stall $r:8:300000"; done
started=1
for i in $(seq "$CL_N"); do
	script="mkdir -p /tmp/job && cat >/tmp/job/peers <<'PEERS'
$(cat "$D/peers")
PEERS
"
	for r in $(ranks_of "$i"); do
		script+="(FTNL_GROUP_PEERS=/tmp/job/peers FTNL_GROUP_RANK=$r FTNL_GROUP_MODULE=on \
/opt/ftnl/selftests/ftnl-group-worker -a $A --pause 20000$stalls >/tmp/job/rank-$r.log 2>&1; \
echo \$? >/tmp/job/status-$r) </dev/null >/dev/null 2>&1 &
"
	done
	node_run "$i" "$script" || started=0
done
check "$N ranks started, $PER per node" [ $started -eq 1 ]

# wait_on NODE SECONDS TEST: TEST (a shell test run on NODE) holds.
wait_on() {
	local t=$(($2 / 2))
	while [ $t -gt 0 ]; do
		node_run "$1" "$3" >/dev/null 2>&1 && return 0
		sleep 2
		t=$((t - 1))
	done
	return 1
}

first=${DEAD%% *}
if wait_on "$V" 180 "grep -q '^stall 8 ' /tmp/job/rank-$first.log"; then
	ok "node $V's ranks reached agreement 8, the others wait for them in it"
	CL_FAULT=power-kill-in-agreement
	t0=$(cl_now)
	node_kill "$V"
	# shellcheck disable=SC2046 # one id per word
	cl_check_deaths "$t0" "$(cl_bound_ms 1)" "$(cl_bound_ms 1)" "$V" $(cl_survivors)
else
	not_ok "node $V's ranks reached agreement 8, the others wait for them in it"
fi

bad=''
for i in $(cl_survivors); do
	for r in $(ranks_of "$i"); do
		wait_on "$i" 240 "test -s /tmp/job/status-$r" || bad+=" rank $r (node $i) did not end;"
		node_run "$i" "cat /tmp/job/rank-$r.log" >"$D/rank-$r.log"
		st=$(node_run "$i" "cat /tmp/job/status-$r")
		[ "$st" = 0 ] || bad+=" rank $r (node $i) exited '$st';"
	done
done
if [ -z "$bad" ]; then ok "every surviving rank exited 0"; else not_ok "every surviving rank exited 0"; diag "$bad"; fi
# The launcher's record of the ranks that died: with their node's power.
for r in $DEAD; do echo "signal 9" >"$D/failed/$r"; done
if "$CHECK" -n $N -a $A -d "$DEAD" "$D" >"$D/check.out" 2>&1; then
	ok "every surviving rank completed every agreement with the same result and shrank to the same view"
else
	not_ok "every surviving rank completed every agreement with the same result and shrank to the same view"
	sed 's/^/# /' "$D/check.out" | head -n 20
fi
sed 's/^# */# group-check: /' "$D/check.out" | head -n 5
check "agreement 8 failed with FTNL_EPROCFAILED at rank 0 (node $V's ranks)" \
	grep -q '^agree 0 8 rc=-130 ' "$D/rank-0.log"

tap_end
