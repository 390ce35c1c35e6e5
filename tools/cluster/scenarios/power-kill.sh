#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Power loss (SIGKILL of a guest's QEMU): first of one node, then of two
# consecutive ring nodes at once. Every survivor must get exactly one
# failure event per death, the first within d + h of the fault and the
# second of the pair within 3d + h (plus the harness margin), no survivor
# reported dead, the node tables agreeing, the ring closed.
# Needs 5 nodes or more: run with --nodes 5.
. "$FTNL_CLUSTER_ROOT/tools/cluster/lib.sh"

[ "$CL_N" -ge 5 ] || { echo "1..0 # SKIP power-kill needs --nodes 5 or more"; exit 4; }
CL_FAULT=power-kill

cl_settle
cl_baseline

# One node.
v=2
t0=$(cl_now)
node_kill $v
# shellcheck disable=SC2046 # one id per word
cl_check_deaths "$t0" "$(cl_bound_ms 1)" "$(cl_bound_ms 1)" "$v" $(cl_survivors)

# Two consecutive ring nodes at once (3 and 4: 4 watches 3, 5 watches 4).
a=3 b=4
t0=$(cl_now)
node_kill $a &
node_kill $b
wait
# shellcheck disable=SC2046
cl_check_deaths "$t0" "$(cl_bound_ms 1)" "$(cl_bound_ms 2)" "$a $b" $(cl_survivors)

tap_end
