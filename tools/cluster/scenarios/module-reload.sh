#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module unloaded and loaded again on a live node V, while its
# emitter's heartbeats keep arriving at its socket:
#   - rmmod ftnl succeeds and leaves nothing behind: /sys/module/ftnl is
#     gone (no reference was held); the module's own allocation count
#     (kmod/alloc_count.c) logs that every allocation was freed, since
#     Debian's kernels have no kmemleak; the guest kernel logs no refcount
#     or netdevice warning (the runner checks every console);
#   - the others learn it once: every survivor gets exactly one failure
#     event about V (a leave or a detection, never both), no event about
#     anyone else, and the ring closes;
#   - insmod and 'cluster set' again give V a new incarnation, and with
#     rejoin auto (the default) every survivor readmits it on its own: one
#     joined event each, no further failure event, every node sees every
#     node alive and the ring is the full cycle again.
. "$FTNL_CLUSTER_ROOT/tools/cluster/lib.sh"

[ "$CL_N" -ge 3 ] || { echo "1..0 # SKIP module-reload needs --nodes 3 or more"; exit 4; }
V=$(((CL_N + 1) / 2))
CL_FAULT=rmmod

cl_settle
cl_baseline

inc_of() { node_run "$1" "ftnl-cli -j info" | sed -n 's/.*"incarnation":\([0-9]*\).*/\1/p'; }
inc0=$(inc_of "$V")
t0=$(cl_now)
cl_mark "$V" rmmod
check "node $V: rmmod ftnl succeeds while the cluster runs" node_run "$V" "rmmod ftnl"
check "node $V: the module is gone (/sys/module/ftnl)" node_run "$V" "! test -e /sys/module/ftnl"
check "node $V: the unload freed every allocation the module made (its own count)" \
	node_run "$V" "dmesg | grep -q 'ftnl: unloaded, all [1-9][0-9]* allocations freed'"
survivors=()
for i in $(seq "$CL_N"); do [ "$i" -eq "$V" ] || survivors+=("$i"); done
# A node without the module is "alive" as a machine: cl_check_deaths
# compares the node tables against the victims named.
cl_check_deaths "$t0" "$(cl_bound_ms 1)" "$(cl_bound_ms 1)" "$V" "${survivors[@]}"
causes=''
for n in "${survivors[@]}"; do
	causes+=" $n:$(awk -v n="$n" -v v="$V" '$2 == n && index($3, "\"event\":\"failure\"") &&
		index($3, "\"node_id\":" v ",")' "$CL_EVENTS" | sed -n 's/.*"cause":"\([a-z]*\)".*/\1/p' | tr '\n' ',')"
done
diag "causes (node:cause):$causes"

# Back: the same file, a new incarnation.
cl_mark "$V" insmod
check "node $V: insmod ftnl.ko and cluster set again" node_run "$V" "insmod /opt/ftnl/ftnl.ko && \
ftnl-cli cluster set file /etc/ftnl/cluster.conf self $V"
inc1=$(inc_of "$V")
check "node $V: a new incarnation ($inc0 -> $inc1)" test -n "$inc1" -a "$inc1" != "$inc0"
sleep "$((FTNL_CLUSTER_D_MS * 3 / 1000 + 1))"
# Rejoin auto (the default): every survivor readmits it on its own.
bad=''
for n in "${survivors[@]}"; do
	c=$(awk -v n="$n" -v v="$V" '$2 == n && index($3, "\"event\":\"joined\"") &&
		index($3, "\"node_id\":" v ",")' "$CL_EVENTS" | wc -l)
	[ "$c" -eq 1 ] || bad+=" node $n: $c joined events about $V;"
	c=$(cl_failures_at "$n" "$V" | wc -l)
	[ "$c" -eq 1 ] || bad+=" node $n: $c failure events about $V;"
done
# shellcheck disable=SC2046 # one id per word
bad+=$(cl_views_unlike "$(cl_want_states)" $(seq "$CL_N"))
if [ -z "$bad" ]; then ok "rejoin auto: every survivor readmits node $V once (joined), every node sees every node alive"; else
	not_ok "rejoin auto: every survivor readmits node $V once (joined), every node sees every node alive"; diag "$bad"; fi
# shellcheck disable=SC2046 # one id per word
check "the ring is the full cycle again" cl_ring_closed $(seq "$CL_N")

tap_end
