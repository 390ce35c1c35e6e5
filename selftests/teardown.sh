#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Teardown: network namespaces holding a configured cluster (one of them
# with a 65,536-node table) are deleted while another netns is being
# reconfigured and dumped in a loop; then the module is unloaded with
# clusters still configured in the root netns and in other netns, while a
# loop keeps issuing requests and an events subscriber is listening; then it
# is loaded again and works (nothing configured, configurable again). The
# kernel log written meanwhile has no WARNING/BUG/Oops/refcount/leak line,
# and the module's own count of its allocations (kmod/alloc_count.c) says
# at the unload that every one was freed.
#
# Runs last: it unloads the module (and leaves it loaded again).

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"

CLI=${FTNL_CLI:-ftnl-cli}
KO=${FTNL_KO:-/opt/ftnl/ftnl.ko}
BAD_RE='WARNING:|BUG:|Oops|refcount|leak|general protection|Call Trace'

if ! command -v "$CLI" >/dev/null 2>&1 || [ ! -f "$KO" ]; then
	not_ok "teardown needs ftnl-cli in PATH and $KO"
	tap_end
	exit 1
fi

# Everything the kernel logs from here on is checked at the end.
marker="ftnl-selftest-teardown-$$-$(date +%s)"
echo "$marker" >/dev/kmsg

ns() { echo "ftnl-td-$1"; }

# conf FILE NODES: a configuration of NODES nodes (ids 1..NODES).
conf() {
	awk -v n="$2" 'BEGIN {
		print "cluster 91"
		print "heartbeat 100ms"
		print "timeout 300ms"
		printf "key "
		for (i = 0; i < 32; i++) printf "%02x", i * 7 % 256
		print ""
		for (i = 1; i <= n; i++)
			printf "node %d 10.%d.%d.%d 7000\n", i, int(i / 65536) + 90, int(i / 256) % 256, i % 256
	}' >"$1"
}
SMALL=$LIB_TMP/small.conf
BIG=$LIB_TMP/big.conf
conf "$SMALL" 4
conf "$BIG" 65536

# --- clusters in the root netns and five others ---------------------------------------

setup() {
	"$CLI" cluster set file "$SMALL" self 1 || return 1
	for i in 1 2 3 4 5; do
		netns_add "$(ns $i)" || return 1
		in_ns "$(ns $i)" "$CLI" cluster set file "$SMALL" self $(((i - 1) % 4 + 1)) ||
			return 1
	done
	in_ns "$(ns 5)" "$CLI" cluster set file "$BIG" self 65536 || return 1
	in_ns "$(ns 5)" "$CLI" -j cluster show | grep -q '"node_count": *65536'
}
check "clusters configured in the root netns and 5 netns (one of 65,536 nodes)" setup

# --- netns deletion under traffic -----------------------------------------------------

# traffic NETNS STOPFILE ERRFILE: reconfigure, dump, show, delete in a loop
# until STOPFILE disappears; write "FAILURES ROUNDS" to ERRFILE.
traffic() {
	_n=0
	_r=0
	while [ -e "$2" ]; do
		for cmd in "cluster set file $SMALL self 2" "node list" "cluster show" \
			"cluster delete"; do
			# shellcheck disable=SC2086 # words on purpose
			"$CLI" -n "$1" $cmd >/dev/null 2>>"$3.log" || _n=$((_n + 1))
		done
		_r=$((_r + 1))
		echo "$_n $_r" >"$3"
	done
}

stop=$LIB_TMP/stop
touch "$stop"
traffic "$(ns 3)" "$stop" "$LIB_TMP/traffic3" &
tpid=$!
sleep 1

delete_busy() {
	netns_del "$(ns 1)" && netns_del "$(ns 2)" && netns_del "$(ns 5)"
}
check "3 configured netns deleted (one of 65,536 nodes) while another is busy" delete_busy
sleep 1
rm -f "$stop"
wait $tpid
read -r errors rounds <"$LIB_TMP/traffic3" || errors="?"
diag "traffic in ftnl-td-3: ${rounds:-0} rounds of set/list/show/delete"
if [ "$errors" = 0 ] && [ "${rounds:-0}" -gt 1 ]; then
	ok "the busy netns saw no failure meanwhile"
else
	not_ok "the busy netns saw $errors failed requests"
	sed 's/^/#   /' "$LIB_TMP/traffic3.log" 2>/dev/null | head -n 5
fi
check "the root netns and ftnl-td-4 kept their clusters" \
	sh -c "'$IP' netns exec '$(ns 4)' '$CLI' -j cluster show | grep -q '\"configured\": *true' &&
		'$CLI' -j cluster show | grep -q '\"configured\": *true'"

# --- module unload with clusters configured, under traffic, with a subscriber --------------

in_ns "$(ns 3)" "$CLI" cluster set file "$SMALL" self 3 >/dev/null
"$CLI" monitor >"$LIB_TMP/monitor.out" 2>&1 &
mpid=$!
touch "$stop"
traffic "$(ns 4)" "$stop" "$LIB_TMP/traffic4" &
tpid=$!
sleep 1

# A dump in progress holds a reference on the module: retry for a while.
unload() {
	tries=0
	kill -0 "$mpid" 2>/dev/null || diag "the subscriber is not running"
	while [ $tries -lt 50 ]; do
		if rmmod ftnl 2>/dev/null; then
			diag "rmmod succeeded after $tries busy attempts"
			return 0
		fi
		tries=$((tries + 1))
		sleep 0.2
	done
	rmmod ftnl
}
check "rmmod ftnl with clusters configured in 3 netns, traffic and a subscriber" unload
rm -f "$stop"
wait $tpid
read -r _ rounds <"$LIB_TMP/traffic4"
diag "traffic in ftnl-td-4: ${rounds:-0} rounds until and after the unload"
check "the module is gone" sh -c '! test -d /sys/module/ftnl'
check "ftnl-cli says the family is missing (exit 3)" \
	sh -c "'$CLI' info 2>&1 | grep -q 'not registered'; '$CLI' info >/dev/null 2>&1; test \$? -eq 3"
# the subscriber saw the family go away: it must not hang on
kill "$mpid" 2>/dev/null
wait "$mpid" 2>/dev/null
check "a netns can be deleted while the module is unloaded" netns_del "$(ns 3)"

# --- reload --------------------------------------------------------------------------

# A parameter whose handler needs a ring (test_stall_ms) cannot be given to
# insmod: it is set before the module registers its per-netns state. The
# load must fail cleanly, not oops (the kernel log check below).
check "insmod $KO test_stall_ms=5 is refused" sh -c "! insmod '$KO' test_stall_ms=5 2>/dev/null && ! test -d /sys/module/ftnl"
check "insmod $KO again" insmod "$KO"
reloaded() {
	"$CLI" -j info | grep -q '"configured": *false' || return 1
	in_ns "$(ns 4)" "$CLI" -j info | grep -q '"configured": *false' || return 1
	"$CLI" cluster set file "$SMALL" self 1 || return 1
	in_ns "$(ns 4)" "$CLI" cluster set file "$SMALL" self 4 || return 1
	[ "$("$CLI" -j node list | json_flat | json_get /dev/stdin '#')" = 4 ] || return 1
	"$CLI" -j cluster show | grep -q '"generation": *1' || return 1
	"$CLI" cluster delete && in_ns "$(ns 4)" "$CLI" cluster delete
}
check "after reload: nothing configured, and clusters can be set again" reloaded
netns_del "$(ns 4)"

# --- the kernel log ---------------------------------------------------------------------

log=$(dmesg | sed -n "/$marker/,\$p")
if [ -z "$log" ]; then
	not_ok "the kernel log since the start of this test can be read"
else
	ok "the kernel log since the start of this test can be read"
fi
expect_empty "no WARNING/BUG/Oops/refcount/leak in the kernel log" \
	"$(printf '%s\n' "$log" | grep -E "$BAD_RE")"
check "the unload freed every allocation the module made (its own count)" \
	sh -c "printf '%s\n' \"\$1\" | grep -q 'ftnl: unloaded, all [1-9][0-9]* allocations freed'" sh "$log"
check "the module logged its reload" \
	sh -c "printf '%s\n' \"\$1\" | grep -q 'ftnl: version .* loaded'" sh "$log"

tap_end
