#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A kernel panic (sysrq c) on one node: its QEMU stops at once (panic=-1,
# -no-reboot). Every survivor must get exactly one failure event, within
# d + h of the panic request (plus the harness margin), no survivor
# reported dead, the node tables agreeing, the ring closed.
. "$FTNL_CLUSTER_ROOT/tools/cluster/lib.sh"

[ "$CL_N" -ge 3 ] || { echo "1..0 # SKIP panic needs --nodes 3 or more"; exit 4; }
CL_FAULT=panic
v=$(((CL_N + 1) / 2))
echo "$v" >>"$CL_DIR/expected-panics"

cl_settle
cl_baseline

t0=$(cl_now)
node_panic $v || not_ok "node $v's QEMU stopped after the panic"
check "node $v's console shows the panic" grep -q 'Kernel panic - not syncing: sysrq triggered crash' \
	"$(node_dir $v)/console.log"
# shellcheck disable=SC2046 # one id per word
cl_check_deaths "$t0" "$(cl_bound_ms 1)" "$(cl_bound_ms 1)" "$v" $(cl_survivors)

tap_end
