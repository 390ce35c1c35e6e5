#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What `make demo` runs inside the VM: an 8-node ftnl cluster, one netns per
# node, configured with ftnl-cli; then a node is silenced, its observer
# detects it, the broadcast tells every survivor, and the ring closes.
set -eu

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
N=8
VICTIM=5

say "building an $N-node cluster: one netns per node, veth to a bridge"
FTNL_VC_HB=100ms FTNL_VC_TIMEOUT=300ms ftnl-vcluster up $N
echo "config file given to every node:"
sed 's/^key .*/key <64 hex digits, random>/' /tmp/ftnl-vcluster.conf

say "node 1: ftnl-cli info"
ftnl-vcluster exec 1 ftnl-cli info
say "node 1: ftnl-cli cluster show"
ftnl-vcluster exec 1 ftnl-cli cluster show
say "node 1: ftnl-cli node list (who observes whom on the ring)"
sleep 1
ftnl-vcluster exec 1 ftnl-cli node list
say "node 6: ftnl-cli -j node list (JSON, for scripts)"
ftnl-vcluster exec 6 ftnl-cli -j node list
say "a bad request is refused with the reason, and nothing changes"
ftnl-vcluster exec 1 ftnl-cli cluster set file /tmp/ftnl-vcluster.conf self 99 || true
ftnl-vcluster exec 1 ftnl-cli -f cluster set file /tmp/ftnl-vcluster.conf self 1 timeout 50ms || true
ftnl-vcluster exec 1 ftnl-cli cluster show

say "every survivor runs 'ftnl-cli monitor'; node $VICTIM's link goes down (no goodbye)"
pids=""
i=1
while [ $i -le $N ]; do
	if [ $i -ne $VICTIM ]; then
		ftnl-vcluster exec $i ftnl-cli monitor >/tmp/demo-events.$i 2>&1 &
		pids="$pids $!"
	fi
	i=$((i + 1))
done
sleep 1
echo "silenced at $(date -u +%H:%M:%S) UTC (h = 100 ms, d = 300 ms)"
/sbin/ip link set vc$VICTIM down
sleep 2
# shellcheck disable=SC2086
kill $pids 2>/dev/null || true
wait 2>/dev/null || true

say "the failure event at every survivor (wall clock of learning, cause, observer)"
i=1
while [ $i -le $N ]; do
	if [ $i -ne $VICTIM ]; then
		printf 'node %s: ' $i
		grep -m1 failure /tmp/demo-events.$i || echo "(no event)"
	fi
	i=$((i + 1))
done

say "the ring, reconnected around node $VICTIM: each survivor's emitter"
i=1
while [ $i -le $N ]; do
	if [ $i -ne $VICTIM ]; then
		em=$(ftnl-vcluster exec $i ftnl-cli -j node list |
		     tr '{' '\n' | grep '"emitter":true' | sed 's/.*"id":\([0-9]*\).*/\1/')
		echo "node $i observes node ${em:-?}"
	fi
	i=$((i + 1))
done
say "node 6 (the observer of node $VICTIM): ftnl-cli node list and stats"
ftnl-vcluster exec 6 ftnl-cli node list
ftnl-vcluster exec 6 ftnl-cli stats
ftnl-vcluster down
