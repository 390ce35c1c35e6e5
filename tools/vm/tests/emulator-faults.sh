#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-emulator-faults: tools/vm/emulator-faults.awk on kernel logs. TAP.
# The emulator's impossible single-step trap becomes one uncounted line;
# every other report (the same trap with a possible EFLAGS, an ftnl
# warning, a report interrupted by another or cut short) stays whole, so
# the runner's warning pattern still finds it. Run with the host's awk
# and, when present, busybox's (the one the guest has).
#
# Installed as build/tests/vm-emulator-faults by tools/Makefile; finds the
# filter from its own location (build/tests -> tools/vm) or $FTNL_ROOT.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
FILTER=
for f in ${FTNL_ROOT:+"$FTNL_ROOT/tools/vm/emulator-faults.awk"} \
	"$HERE/../../tools/vm/emulator-faults.awk" "$HERE/../emulator-faults.awk"; do
	[ -f "$f" ] && { FILTER=$f; break; }
done
# tools/vm/run's pattern, the part these logs can hit.
WARN_RE='WARNING:|BUG:|Oops|general protection|Call Trace|Kernel panic'

echo "TAP version 13"
if [ -z "$FILTER" ]; then
	echo "Bail out! tools/vm/emulator-faults.awk not found (set FTNL_ROOT)"
	exit 1
fi

n=0
failed=0
ok() {
	n=$((n + 1))
	echo "ok $n $1"
}
not_ok() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n $1"
}

# debug_trap EFLAGS: the report 6.12 printed under TCG, the interrupted
# context's EFLAGS replaced by EFLAGS; kernel lines before and after.
debug_trap() {
	cat <<EOF
[   91.300000] ftnl: cluster 1: node 3 joined
[   91.317300] ------------[ cut here ]------------
[   91.317315] WARNING: CPU: 1 PID: 847 at arch/x86/kernel/traps.c:1120 exc_debug_kernel+0xca/0x160
[   91.317400] Modules linked in: ftnl(OE) veth bridge stp llc
[   91.317500] CPU: 1 UID: 0 PID: 847 Comm: kworker/1:3 Tainted: G           OE      6.12.57+deb13-amd64 #1  Debian 6.12.57-1
[   91.317600] Workqueue: events ftnl_events_work [ftnl]
[   91.317700] RIP: 0010:exc_debug_kernel+0xca/0x160
[   91.317800] Code: 48 89 df e8 a0 fe ff ff eb c1 <0f> 0b 48 83 a3 90 00 00 00 fe eb a7
[   91.317900] RSP: 0018:fffffe0000050f18 EFLAGS: 00010046
[   91.318000] Call Trace:
[   91.318000]  <#DB>
[   91.318000]  ? __warn+0x89/0x130
[   91.318000]  asm_exc_debug+0x1e/0x40
[   91.318000] RIP: 0010:kmem_cache_alloc_node_noprof+0x1b/0x2e0
[   91.318000] Code: 90 90 90 90 f3 0f 1e fa 0f 1f 44 00 00 55 <48> 89 e5 41 57 41 56 41 55
[   91.318000] RSP: 0018:ffffb3c2c0b2bd10 EFLAGS: $1
[   91.318000]  </#DB>
[   91.318000]  <TASK>
[   91.318000]  __alloc_skb+0x8c/0x1a0
[   91.318000]  ftnl_notify_event+0x4a/0x220 [ftnl]
[   91.318000]  ftnl_events_work+0x7b/0x140 [ftnl]
[   91.318000]  </TASK>
[   91.318000] ---[ end trace 0000000000000000 ]---
[   91.400000] ftnl: cluster 1: node 4 joined
EOF
}

ftnl_warning() {
	cat <<'EOF'
[   12.000000] ------------[ cut here ]------------
[   12.000001] WARNING: CPU: 0 PID: 12 at kmod/ring/ring.c:400 ftnl_ring_rx+0x40/0x300 [ftnl]
[   12.000002] RSP: 0018:ffffb3c2c0b2bd10 EFLAGS: 7e08d302
[   12.000003] Call Trace:
[   12.000004] ---[ end trace 0000000000000000 ]---
EOF
}

# check NAME INPUT-FUNCTION [ARG] EXPECT: EXPECT is "replaced" (one note,
# no warning line left, the lines around kept) or "kept" (output equals
# input).
check() {
	local awk=$1 name=$2 gen=$3 arg=$4 expect=$5 in out
	in=$($gen "$arg")
	out=$(printf '%s\n' "$in" | $awk -f "$FILTER") || {
		not_ok "$awk: $name: the filter failed"
		return
	}
	case $expect in
	replaced)
		if printf '%s\n' "$out" | grep -qE "$WARN_RE"; then
			not_ok "$awk: $name: a warning line is left: $(printf '%s\n' "$out" | grep -E "$WARN_RE" | head -n1)"
		elif [ "$(printf '%s\n' "$out" | grep -c 'emulator fault, not counted')" -ne 1 ]; then
			not_ok "$awk: $name: no single 'emulator fault' line"
		elif ! printf '%s\n' "$out" | grep -q "^\[   91.317315\] ftnl-vm: emulator fault.*EFLAGS $arg"; then
			not_ok "$awk: $name: the note lacks the report's time or EFLAGS: $out"
		elif ! printf '%s\n' "$out" | grep -q 'node 3 joined' ||
			! printf '%s\n' "$out" | grep -q 'node 4 joined'; then
			not_ok "$awk: $name: the lines around the report were lost"
		else
			ok "$awk: $name: replaced by one uncounted line"
		fi
		;;
	kept)
		if [ "$out" = "$in" ]; then
			ok "$awk: $name: copied unchanged"
		else
			not_ok "$awk: $name: changed: $(diff <(printf '%s\n' "$in") <(printf '%s\n' "$out") | head -n 5 | tr '\n' ' ')"
		fi
		;;
	esac
}

# interrupted: a BUG on another CPU printed inside the trap's report.
interrupted() {
	debug_trap "$1" | sed '/<TASK>/i [   91.318000] BUG: kernel NULL pointer dereference, address: 0000000000000008'
}
# cut_short: the log ends inside the report.
cut_short() {
	debug_trap "$1" | sed '/<\/#DB>/,$d'
}
two_traps() {
	debug_trap "$1"
	debug_trap 00000246
}

awks=(awk)
! command -v busybox >/dev/null || awks+=("busybox awk")
for a in "${awks[@]}"; do
	check "$a" "TCG's trap (7e08d302: TF, bit 15, bits 25-30)" debug_trap 7e08d302 replaced
	check "$a" "bit 1 clear (00000300)" debug_trap 00000300 replaced
	check "$a" "bit 3 set (0000030a)" debug_trap 0000030a replaced
	check "$a" "bit 22 set (00400302)" debug_trap 00400302 replaced
	check "$a" "upper half set (0000000100000302)" debug_trap 0000000100000302 replaced
	check "$a" "possible EFLAGS (00000346: TF, IF)" debug_trap 00000346 kept
	check "$a" "possible EFLAGS (003f7fd7: every defined bit)" debug_trap 003f7fd7 kept
	check "$a" "another report inside the trap's" interrupted 7e08d302 kept
	check "$a" "the log ends inside the report" cut_short 7e08d302 kept
	check "$a" "an ftnl warning with an impossible EFLAGS" ftnl_warning "" kept
	out=$(two_traps 7e08d302 | $a -f "$FILTER")
	if [ "$(printf '%s\n' "$out" | grep -c 'emulator fault')" -eq 1 ] &&
		[ "$(printf '%s\n' "$out" | grep -c 'WARNING: .*exc_debug_kernel')" -eq 1 ]; then
		ok "$a: two traps, one impossible: only that one replaced"
	else
		not_ok "$a: two traps, one impossible: $(printf '%s\n' "$out" | grep -cE "$WARN_RE") warning lines"
	fi
done

echo "1..$n"
[ $failed -eq 0 ]
