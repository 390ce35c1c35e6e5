#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Debian 12 nodes from the packages (run with --image debian; 3 nodes or
# more): every node came up configured by ftnl.service at boot, from one
# file (self auto: each found its own id), nobody typed a command; the
# ring settles; node 2 loses power and every survivor detects it (the
# power-kill assertions); then 'systemctl stop ftnl' on node 3 is
# announced to every other survivor as a leave (cause leave, once), and
# node 3 is no longer configured.
. "$FTNL_CLUSTER_ROOT/tools/cluster/lib.sh"

[ "$CL_N" -ge 4 ] || { echo "1..0 # SKIP debian-boot needs --nodes 4 or more"; exit 4; }
[ -f "$CL_DIR/disk.raw" ] || { echo "1..0 # SKIP debian-boot needs --image debian"; exit 4; }
CL_FAULT=power-kill # read by cl_check_deaths (lib.sh)
export CL_FAULT

# Each node configured itself: its id is its own, the unit is active and
# enabled, and the command that did it is the unit's (journal).
for i in $(seq "$CL_N"); do
	out=$(node_run "$i" "ftnl-cli cluster show; systemctl is-enabled ftnl.service; hostname -I")
	self=$(printf '%s\n' "$out" | sed -n 's/^cluster [0-9]* self \([0-9]*\) .*/\1/p' | head -n1)
	if [ "$self" = "$i" ] && printf '%s\n' "$out" | grep -qx enabled; then
		ok "node $i: configured at boot by ftnl.service (self auto found id $self)"
	else
		not_ok "node $i: configured at boot by ftnl.service (self auto)"
		diag "$out"
	fi
done
diag "boot to configured (guest kernel start to ftnl.service active): $(sed -n 's/^node\([0-9]*\) boot_to_configured_s=\(.*\)/\1:\2s/p' "$CL_DIR/boot.txt" | tr '\n' ' ')"
diag "QEMU start to agent answering (host): $(sed -n 's/^node\([0-9]*\) boot_s=\([0-9.]*\).*/\1:\2s/p' "$CL_DIR/boot.txt" | tr '\n' ' ')"

cl_settle
cl_baseline

# Power loss of node 2.
v=2
t0=$(cl_now)
node_kill $v
# shellcheck disable=SC2046 # one id per word
cl_check_deaths "$t0" "$(cl_bound_ms 1)" "$(cl_bound_ms 1)" "$v" $(cl_survivors)

# systemctl stop ftnl on node 3: a leave.
l=3
t0=$(cl_now)
node_run "$l" "systemctl stop ftnl.service" >/dev/null
rest=$(cl_survivors "$l")
# shellcheck disable=SC2086 # one id per word
cl_wait_failures "$l" 30 $rest || true
sleep "$((FTNL_CLUSTER_D_MS / 1000 + 1))"
bad=''
for n in $rest; do
	c=$(awk -v n="$n" -v v="$l" '$2 == n && index($3, "\"event\":\"failure\"") &&
		index($3, "\"node_id\":" v ",") && index($3, "\"cause\":\"leave\"")' "$CL_EVENTS" | wc -l)
	all=$(cl_failures_at "$n" "$l" | wc -l)
	[ "$c" -eq 1 ] && [ "$all" -eq 1 ] || bad+=" node $n: $c leave events of $all about node $l;"
	t=$(cl_failures_at "$n" "$l" | head -n1)
	[ -z "$t" ] || diag "systemctl stop ftnl on node $l: node $n learned it $(awk -v a="$t0" -v b="$t" 'BEGIN { printf "%d", (b - a) * 1000 }') ms later"
done
if [ -z "$bad" ]; then ok "systemctl stop ftnl on node $l: every other survivor got one failure event, cause leave"; else
	not_ok "systemctl stop ftnl on node $l: every other survivor got one failure event, cause leave"; diag "$bad"; fi
st=$(node_run "$l" "systemctl is-active ftnl.service; ftnl-cli cluster show")
check "node $l: ftnl.service inactive and the node no longer configured" \
	grep -qx 'no cluster configured' <<<"$st"
grep -qx inactive <<<"$st" || diag "node $l: $st"
tap_end
