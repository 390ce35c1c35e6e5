#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The harness's own fault helpers do what they say, checked on the
# machines rather than on ftnl (whose answers to these faults, expulsion,
# quorum and rejoin, are issue 14 item 3):
#   freeze/thaw: a frozen node answers nothing, its QEMU still runs; after
#     the thaw it answers again;
#   partition/heal: across the sides no ping passes, within a side it does;
#     healed, it passes again;
#   reboot: a new boot of the same image (the uptime starts again, the
#     module is loaded, with a new incarnation once configured).
# Run on its own cluster (the faults here make ftnl's verdicts moot).
. "$FTNL_CLUSTER_ROOT/tools/cluster/lib.sh"

[ "$CL_N" -ge 4 ] || { echo "1..0 # SKIP helpers needs --nodes 4 or more"; exit 4; }

up_of() { node_run "$1" "cut -d' ' -f1 /proc/uptime"; }
pings() { node_run "$1" "ping -c 2 -W 2 $(node_addr "$2")" >/dev/null; }

# freeze/thaw
check "freeze node 2 (QMP stop)" node_freeze 2
node_run -t 5 2 true >/dev/null 2>&1
rc=$?
check "a frozen node answers nothing (got $rc; 124: no answer)" test $rc -eq 124
check "its QEMU still runs" node_alive 2
check "thaw node 2 (QMP cont)" node_thaw 2
check "the thawed node answers again" node_run -t 30 2 true

# partition/heal
cl_partition "1 2" "3 4"
check "partition 1 2 | 3 4: 1 reaches 2" pings 1 2
check "partition 1 2 | 3 4: 3 reaches 4" pings 3 4
if pings 1 3; then not_ok "partition: 1 does not reach 3"; else ok "partition: 1 does not reach 3"; fi
if pings 4 2; then not_ok "partition: 4 does not reach 2"; else ok "partition: 4 does not reach 2"; fi
cl_heal
check "healed: 1 reaches 3" pings 1 3
check "healed: 4 reaches 2" pings 4 2

# reboot
inc0=$(node_run 3 "ftnl-cli -j info" | sed -n 's/.*"incarnation":\([0-9]*\).*/\1/p')
up0=$(up_of 3)
check "reboot node 3 (sysrq b, same image)" node_reboot 3
up1=$(up_of 3)
check "a new boot: uptime $up0 s before, $up1 s after" awk -v a="$up0" -v b="$up1" 'BEGIN { exit !(b < a) }'
check "the module is loaded again" node_run 3 "test -e /sys/module/ftnl"
check "and configured from the same file" node_configure 3
inc1=$(node_run 3 "ftnl-cli -j info" | sed -n 's/.*"incarnation":\([0-9]*\).*/\1/p')
check "a new incarnation ($inc0 -> $inc1)" test -n "$inc1" -a "$inc1" != "$inc0"
check "the previous boot's console is kept" test -n "$(ls "$(node_dir 3)"/console.*.log 2>/dev/null)"

tap_end
