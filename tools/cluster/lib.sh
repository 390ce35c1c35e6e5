# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# tools/cluster/lib.sh: the helpers of tools/cluster/run's scenarios
# (Documentation/cluster-harness.rst). Sourced by the runner and by every
# scenario; bash 5.1 or later. Node numbers are the ftnl node ids, 1..N.
#
# The runner exports:
#   FTNL_CLUSTER_DIR     this run's directory (logs, fifos, node-<i>/)
#   FTNL_CLUSTER_NODES   N
#   FTNL_CLUSTER_NS      the network namespace holding the bridge and taps
#   FTNL_CLUSTER_KERNEL  6.1 or 6.12
#   FTNL_CLUSTER_H_MS, FTNL_CLUSTER_D_MS   h and d of the cluster file
#   FTNL_CLUSTER_NET     the /24 of the tested network (node i is NET.i)
#
# Time: every stamp is the host's CLOCK_REALTIME in seconds with
# microseconds ($EPOCHREALTIME), taken on the host. Lines of the event log
# ($FTNL_CLUSTER_DIR/events.log) are "STAMP NODE JSON": a node's
# 'ftnl-cli -j monitor' line stamped as it arrives over its control
# port, or a harness action ({"harness":"power-kill",...}) stamped when
# the harness did it.

CL_DIR=${FTNL_CLUSTER_DIR:?not run by tools/cluster/run}
CL_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CL_N=${FTNL_CLUSTER_NODES:?}
CL_NS=${FTNL_CLUSTER_NS:?}
CL_EVENTS=$CL_DIR/events.log
CL_IP=/usr/sbin/ip
LC_NUMERIC=C

cl_now() { printf '%s\n' "$EPOCHREALTIME"; }

# cl_log MESSAGE: to stderr and the run's harness.log, stamped.
cl_log() {
	printf '%s harness: %s\n' "$EPOCHREALTIME" "$*" >>"$CL_DIR/harness.log"
	printf 'cluster: %s\n' "$*" >&2
}

# cl_mark NODE WHAT [JSON-MEMBERS]: put a harness action on the event log.
cl_mark() {
	printf '%s %s {"harness":"%s"%s}\n' "$EPOCHREALTIME" "$1" "$2" "${3:+,$3}" >>"$CL_EVENTS"
}

node_dir() { printf '%s/node-%s' "$CL_DIR" "$1"; }
node_pid() { cat "$(node_dir "$1")/pid" 2>/dev/null; }
node_addr() { printf '%s.%s' "$FTNL_CLUSTER_NET" "$1"; }

# node_alive I: node I's QEMU runs (not a zombie).
node_alive() {
	local pid
	pid=$(node_pid "$1") || return 1
	[ -n "$pid" ] && [ -r "/proc/$pid/stat" ] &&
		! grep -q '^[0-9]* ([^)]*) Z' "/proc/$pid/stat" 2>/dev/null
}

# node_start I: boot node I's QEMU (command line in node-I/qemu.cmd, the
# same image every time) and start the reader of its event port. Must run
# in the scenario's (or runner's) own shell, not in a subshell: QEMU dies
# with the process that started it (PR_SET_PDEATHSIG), so that no guest
# outlives a killed harness.
node_start() {
	local i=$1 d pid
	d=$(node_dir "$i")
	[ ! -e "$d/pid" ] || ! node_alive "$i" || { cl_log "node $i is already running"; return 1; }
	local -a cmd
	mapfile -t cmd <"$d/qemu.cmd"
	# The last boot's console is kept beside the new one.
	[ ! -s "$d/console.log" ] || mv "$d/console.log" "$d/console.$(date +%s%N).log"
	"${cmd[@]}" </dev/null >>"$d/qemu.log" 2>&1 &
	pid=$!
	disown "$pid" # killing it is the point: no job notices
	echo "$pid" >"$d/pid"
	echo "$EPOCHREALTIME" >"$d/started"
	cl_mark "$i" boot "\"pid\":$pid"
	# Each line of the event port, stamped on arrival. The reader ends
	# when QEMU closes the port (exit): EOF on the fifo.
	(
		while IFS= read -r line; do
			printf '%s %s %s\n' "$EPOCHREALTIME" "$i" "$line"
		done <"$d/events.out" >>"$CL_EVENTS"
	) &
	echo $! >"$d/reader.pid"
}

# node_wait_exit I SECONDS: node I's QEMU has ended (0) or not (1).
node_wait_exit() {
	local i=$1 t=$(($2 * 10))
	while [ $t -gt 0 ]; do
		node_alive "$i" || return 0
		sleep 0.1
		t=$((t - 1))
	done
	return 1
}

# _ctl_send I SEQ COMMAND: one request on node I's control port.
_ctl_send() {
	local d
	d=$(node_dir "$1")
	printf '%s %s\n' "$2" "$(printf '%s' "$3" | base64 -w0)" 1<>"$d/ctl.in"
}

# node_run [-t SECONDS] I COMMAND...: run the shell command (the words
# joined by spaces, as 'sh -c' sees them) on node I over its control
# port; print its output (stdout and stderr merged) and return its exit
# status; 124 after SECONDS (default 60) without an answer, 125 when node
# I's QEMU is not running. Requests to a node are served one at a time.
node_run() {
	local t=60
	if [ "$1" = -t ]; then t=$2; shift 2; fi
	local i=$1 d seq line buf='' begun=0 rc=124 deadline lock
	shift
	d=$(node_dir "$i")
	node_alive "$i" || { echo "node $i is not running" >&2; return 125; }
	exec {lock}>"$d/ctl.lock"
	flock "$lock"
	seq=$BASHPID.${EPOCHREALTIME/./}
	_ctl_send "$i" "$seq" "$*"
	deadline=$((${EPOCHREALTIME%.*} + t))
	local out
	exec {out}<>"$d/ctl.out" # read-write: never blocks, never EOF
	while [ "${EPOCHREALTIME%.*}" -lt $deadline ]; do
		if ! IFS= read -r -t 1 -u "$out" line; then
			# Timed out: keep the partial line, check the node.
			buf+=$line
			node_alive "$i" || { rc=125; break; }
			continue
		fi
		line=$buf$line
		buf=''
		if [ $begun -eq 0 ]; then
			[ "$line" != "@@ftnl-ctl-begin $seq" ] || begun=1
			continue
		fi
		case $line in
		"@@ftnl-ctl-end $seq "*)
			rc=${line##* }
			break
			;;
		*) printf '%s\n' "$line" ;;
		esac
	done
	exec {out}>&- {lock}>&-
	[ "$rc" != 125 ] || echo "node $i stopped while running: $*" >&2
	[ "$rc" != 124 ] || echo "node $i: no answer in $t s to: $*" >&2
	return "$rc"
}

# node_send I COMMAND...: like node_run but without waiting for the
# answer (for commands the node does not survive: panic, reboot).
node_send() {
	local i=$1 d lock
	shift
	d=$(node_dir "$i")
	exec {lock}>"$d/ctl.lock"
	flock "$lock"
	_ctl_send "$i" "send.${EPOCHREALTIME/./}" "$*"
	exec {lock}>&-
}

# node_qmp I COMMAND: a QMP command (e.g. stop, cont) on node I; 0 when
# QEMU returned, 1 on error or no answer in 10 s.
node_qmp() {
	local i=$1 d id line fd deadline
	d=$(node_dir "$i")
	node_alive "$i" || return 1
	id=q${EPOCHREALTIME/./}
	# Capabilities first, every time: a write to the fifo before QEMU
	# opened it was lost, and after the first time QEMU just says the
	# negotiation is over.
	printf '{"execute":"qmp_capabilities"}\n{"execute":"%s","id":"%s"}\n' "$2" "$id" 1<>"$d/qmp.in"
	exec {fd}<>"$d/qmp.out"
	deadline=$((${EPOCHREALTIME%.*} + 10))
	while [ "${EPOCHREALTIME%.*}" -lt $deadline ]; do
		IFS= read -r -t 1 -u "$fd" line || continue
		printf '%s %s\n' "$EPOCHREALTIME" "$line" >>"$d/qmp.log"
		case $line in
		*"\"$id\""*)
			exec {fd}>&-
			case $line in *'"return"'*) return 0 ;; *) return 1 ;; esac
			;;
		esac
	done
	exec {fd}>&-
	return 1
}

# ---- faults --------------------------------------------------------------------------

# node_kill I: power loss: SIGKILL of node I's QEMU.
node_kill() {
	local pid
	pid=$(node_pid "$1")
	cl_mark "$1" power-kill
	kill -KILL "$pid"
	node_wait_exit "$1" 10
}

# node_panic I: the guest kernel panics (sysrq c); QEMU then exits
# (panic=-1, -no-reboot). Stamped when the request is sent: the panic
# follows within the guest's reaction time.
node_panic() {
	cl_mark "$1" panic
	node_send "$1" 'echo c >/proc/sysrq-trigger'
	node_wait_exit "$1" 60
}

# node_freeze I / node_thaw I: a hung node that comes back (QMP stop/cont).
node_freeze() {
	cl_mark "$1" freeze
	node_qmp "$1" stop
}
node_thaw() {
	cl_mark "$1" thaw
	node_qmp "$1" cont
}

# node_reboot I: the guest reboots at once (sysrq b, no shutdown); QEMU
# exits (-no-reboot) and is started again with the same disk-less image:
# the module is loaded afresh (a new incarnation). The node is then ready
# for node_run but not configured: node_configure it (or not).
node_reboot() {
	cl_mark "$1" reboot
	node_send "$1" 'echo b >/proc/sysrq-trigger'
	node_wait_exit "$1" 60 || { cl_log "node $1 did not stop for its reboot"; return 1; }
	node_start "$1"
	node_wait_ready "$1"
}

# node_wait_boot I: node I's kernel reaches init (tools/vm/boot-watch,
# FTNL_CLUSTER_BOOT_DEADLINE seconds, 300 by default: it takes under 10 s
# of guest time). A kernel that hangs in its own boot, before any ftnl
# code runs, is the emulator's (Documentation/vm-runner.rst): its QEMU is
# killed and the node booted once more, its console kept. Fails only on a
# second hang; a QEMU that ended is left to the caller.
node_wait_boot() {
	local i=$1 d pid last
	local watch=$CL_LIB/../vm/boot-watch secs=${FTNL_CLUSTER_BOOT_DEADLINE:-300}
	d=$(node_dir "$i")
	pid=$(node_pid "$i") || return 1
	"$watch" "$d/console.log" "$pid" "$secs"
	[ $? -eq 124 ] || return 0
	last=$(grep -v '^[[:space:]]*$' "$d/console.log" | tail -n 1)
	cl_log "node $i: its kernel hung in its own boot, no init within $secs s (last line: $last): booting it again, once"
	kill -KILL "$pid" 2>/dev/null
	node_wait_exit "$i" 10 || return 1
	node_start "$i" || return 1
	"$watch" "$d/console.log" "$(node_pid "$i")" "$secs"
	[ $? -ne 124 ] || { cl_log "node $i: its kernel hung in its own boot again"; return 1; }
}

# node_wait_ready I [SECONDS]: node I answers on its control port (boot
# done; node_wait_boot() first); its boot time (QEMU start to answer,
# host clock) goes to node-I/boot.
node_wait_ready() {
	local i=$1 t=${2:-300} d fd line deadline
	d=$(node_dir "$i")
	node_wait_boot "$i" || return 1
	# The agent's first line: before it, requests would be lost.
	deadline=$((${EPOCHREALTIME%.*} + t))
	exec {fd}<>"$d/ctl.out"
	while :; do
		[ "${EPOCHREALTIME%.*}" -lt $deadline ] && node_alive "$i" || { exec {fd}>&-; return 1; }
		IFS= read -r -t 1 -u "$fd" line || continue
		[ "$line" != "@@ftnl-ctl-ready $i" ] || break
	done
	exec {fd}>&-
	node_run -t 60 "$i" true >/dev/null || return 1
	awk -v a="$(cat "$d/started")" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", b - a }' >"$d/boot"
	cl_mark "$i" ready "\"boot_s\":$(cat "$d/boot")"
}

# node_configure I: 'ftnl-cli cluster set' from the run's one cluster
# file (and its keyfile), with self I.
node_configure() {
	node_run "$1" "ftnl-cli cluster set file /etc/ftnl/cluster.conf self $1"
}

# cl_partition "I J ..." "K L ..." ...: cut the tested network into
# sides: each side's taps move to a bridge of its own (the host kernel
# has no packet filter to do it with; moving ports is complete and
# symmetric). Nodes not named stay on the main bridge.
cl_partition() {
	local side=0 s i
	for s; do
		side=$((side + 1))
		$CL_IP -n "$CL_NS" link add "br-side$side" type bridge 2>/dev/null
		$CL_IP -n "$CL_NS" link set "br-side$side" up
		for i in $s; do
			$CL_IP -n "$CL_NS" link set "tap$i" master "br-side$side"
		done
	done
	cl_mark 0 partition "\"sides\":\"$(printf '%s|' "$@")\""
}

# cl_heal: every tap back on the main bridge.
cl_heal() {
	local i br
	for i in $(seq "$CL_N"); do
		$CL_IP -n "$CL_NS" link set "tap$i" master br0
	done
	for br in $($CL_IP -n "$CL_NS" -o link show type bridge | awk -F': ' '{ print $2 }' | grep '^br-side'); do
		$CL_IP -n "$CL_NS" link del "$br"
	done
	cl_mark 0 heal
}

# cl_degrade NETEM-ARGS | cl_degrade off: every link degraded, e.g.
# "loss 5% delay 2ms 1ms". The host kernel has no netem, so each guest
# puts it on its own eth0's egress: every datagram crosses exactly one
# netem (its sender's).
cl_degrade() {
	local i rc=0
	for i in $(seq "$CL_N"); do
		node_alive "$i" || continue
		if [ "$1" = off ]; then
			node_run "$i" "tc qdisc del dev eth0 root" >/dev/null || rc=1
		else
			node_run "$i" "tc qdisc replace dev eth0 root netem $*" >/dev/null || rc=1
		fi
	done
	cl_mark 0 degrade "\"netem\":\"$*\""
	return $rc
}

# ---- what the nodes saw -------------------------------------------------------------

# cl_events_of NODE [JQ-LIKE-FILTER]: the JSON event lines node NODE sent,
# "STAMP JSON" (events.log holds every node's).
cl_events_of() {
	awk -v n="$1" '$2 == n && $3 ~ /^\{"time"/ { print $1, $3 }' "$CL_EVENTS"
}

# cl_failures_at NODE VICTIM: stamps of the failure events about VICTIM
# node NODE published, one per line.
cl_failures_at() {
	awk -v n="$1" -v v="$2" '$2 == n && index($3, "\"event\":\"failure\"") &&
		index($3, "\"node_id\":" v ",") { print $1 }' "$CL_EVENTS"
}

# cl_false_deaths NODE LIVE...: for each LIVE node that NODE published a
# failure event about, " node NODE: C deaths of live node L;" (for a
# diag); nothing when there is none. A live node declared dead is the
# failure every scenario must rule out.
cl_false_deaths() {
	local n=$1 v c
	shift
	for v; do
		c=$(cl_failures_at "$n" "$v" | wc -l)
		[ "$c" -eq 0 ] || printf ' node %s: %s deaths of live node %s;' "$n" "$c" "$v"
	done
}

# cl_mark_time NODE WHAT: the stamp of the last harness action WHAT on NODE.
cl_mark_time() {
	awk -v n="$1" -v w="{\"harness\":\"$2\"" '$2 == n && index($3, w) == 1 { t = $1 } END { print t }' "$CL_EVENTS"
}

# cl_wait_failures VICTIM SECONDS NODE...: wait until each NODE published
# a failure event about VICTIM; 0 when all did, 1 at the limit.
cl_wait_failures() {
	local v=$1 t=$(($2 * 10)) n missing
	shift 2
	while :; do
		missing=0
		for n; do
			[ -n "$(cl_failures_at "$n" "$v")" ] || { missing=1; break; }
		done
		[ $missing -eq 1 ] || return 0
		[ $t -gt 0 ] || return 1
		sleep 0.1
		t=$((t - 1))
	done
}

# cl_emitter_of I: the emitter node I watches, per its 'node list'.
cl_emitter_of() {
	node_run "$1" "ftnl-cli -j node list" | tr '{' '\n' |
		sed -n 's/.*"id":\([0-9]*\),.*"emitter":true.*/\1/p'
}

# cl_states_of I: node I's view, "id:state id:state ...", ids ascending.
cl_states_of() {
	node_run "$1" "ftnl-cli -j node list" | tr '{' '\n' |
		sed -n 's/.*"id":\([0-9]*\),.*"state":"\([a-z]*\)".*/\1:\2/p' | sort -n | tr '\n' ' '
}

# cl_want_states [DEAD...]: the view, as cl_states_of prints it, of a node
# that holds the DEAD nodes dead and every other node alive.
cl_want_states() {
	local i st
	for i in $(seq "$CL_N"); do
		case " $* " in *" $i "*) st=dead ;; *) st=alive ;; esac
		printf '%s:%s ' "$i" "$st"
	done
}

# cl_views_unlike WANT NODE...: " node I: [VIEW] want [WANT];" for each
# NODE whose view (cl_states_of) is not WANT; nothing when all agree.
cl_views_unlike() {
	local want=$1 n got
	shift
	for n; do
		got=$(cl_states_of "$n")
		[ "$got" = "$want" ] || printf ' node %s: [%s] want [%s];' "$n" "$got" "$want"
	done
}

# cl_sleep_ms MS: sleep MS milliseconds.
cl_sleep_ms() { sleep "$(($1 / 1000)).$(printf '%03d' $(($1 % 1000)))"; }

# cl_wait_for SECONDS COMMAND...: run COMMAND every 0.2 s until it
# succeeds; 1 once SECONDS have passed without.
cl_wait_for() {
	local deadline=$((${EPOCHREALTIME%.*} + $1))
	shift
	until "$@"; do
		[ "${EPOCHREALTIME%.*}" -lt $deadline ] || return 1
		sleep 0.2
	done
}

# cl_diag_nodes SUBCOMMAND...: for a failure, every running node's
# 'ftnl-cli -j stats' (drops by reason, suspicions, stall waits, lateness)
# and its 'ftnl-cli -j SUBCOMMAND' for each one given, as TAP comments.
cl_diag_nodes() {
	local i c
	for i in $(seq "$CL_N"); do
		node_alive "$i" || continue
		for c in stats "$@"; do
			diag "node $i $c: $(node_run -t 10 "$i" "ftnl-cli -j $c" 2>&1)"
		done
	done
}

# cl_settle: let every node hear its first emitter and the ring run a
# while before a fault (the boot grace is over at the first heartbeat).
cl_settle() { cl_sleep_ms $((3 * FTNL_CLUSTER_D_MS + 2000)); }

# cl_survivors VICTIM...: the nodes whose QEMU still runs, but VICTIMs.
cl_survivors() {
	local i v skip
	for i in $(seq "$CL_N"); do
		skip=0
		for v; do [ "$v" != "$i" ] || skip=1; done
		[ $skip -eq 1 ] || ! node_alive "$i" || printf '%s ' "$i"
	done
}

# cl_ring_closed SURVIVOR...: each survivor watches the survivor before it
# (ids ascending, cyclically): the ring is one cycle over the survivors.
# Prints what it found when not.
cl_ring_closed() {
	local -a s=("$@")
	local k n=${#s[@]} want got bad=''
	for k in $(seq 0 $((n - 1))); do
		want=${s[$(((k + n - 1) % n))]}
		got=$(cl_emitter_of "${s[$k]}")
		[ "$got" = "$want" ] || bad+=" node ${s[$k]} watches '${got}' (want $want)"
	done
	[ -z "$bad" ] || { diag "ring:$bad"; return 1; }
}

# cl_check_deaths T0 FIRST_MS ALL_MS "VICTIM..." SURVIVOR...: after the
# fault at host time T0, wait until every survivor published a failure
# event for every victim (or ALL_MS + 30 s pass), then d more for
# duplicates, and check (TAP):
#   - every survivor got exactly one failure event per victim;
#   - the first death each survivor learned within FIRST_MS of T0, every
#     death within ALL_MS (host stamps: arrival on the host);
#   - no survivor got a failure event about a survivor;
#   - every survivor's node list says the victims are dead, the others alive;
#   - the ring is closed over the survivors.
# Figures go to $FTNL_CLUSTER_DIR/latency.txt: "FAULT VICTIM NODE MS".
cl_check_deaths() {
	local t0=$1 first_ms=$2 all_ms=$3 victims=$4 fault=${CL_FAULT:-fault}
	shift 4
	local -a surv=("$@")
	local v n c t ms waited bad dup='' late='' lat_all='' falsely='' views='' lmax=0
	waited=$((all_ms / 1000 + 30))
	for v in $victims; do
		cl_wait_failures "$v" "$waited" "${surv[@]}" || true
	done
	sleep "$((FTNL_CLUSTER_D_MS / 1000 + 1))"
	for n in "${surv[@]}"; do
		local nfirst=''
		for v in $victims; do
			c=$(cl_failures_at "$n" "$v" | wc -l)
			[ "$c" -eq 1 ] || dup+=" node $n: $c about $v;"
			t=$(cl_failures_at "$n" "$v" | head -n 1)
			[ -n "$t" ] || continue
			ms=$(awk -v a="$t0" -v b="$t" 'BEGIN { printf "%d", (b - a) * 1000 }')
			echo "$fault $v $n $ms" >>"$CL_DIR/latency.txt"
			lat_all+=" $v@$n:${ms}ms"
			[ "$ms" -le "$all_ms" ] || late+=" $v@$n:${ms}ms>${all_ms}ms"
			[ -n "$nfirst" ] && [ "$nfirst" -le "$ms" ] || nfirst=$ms
			[ "$ms" -le "$lmax" ] || lmax=$ms
		done
		[ -z "$nfirst" ] || [ "$nfirst" -le "$first_ms" ] ||
			late+=" first@$n:${nfirst}ms>${first_ms}ms"
		falsely+=$(cl_false_deaths "$n" "${surv[@]}")
	done
	# Nodes dead before this fault stay dead.
	# shellcheck disable=SC2086 # lists of ids, one a word
	views=$(cl_views_unlike "$(cl_want_states $victims ${CL_DEAD:-})" "${surv[@]}")
	diag "$fault: learned at (victim@node: ms after the fault, host clock):$lat_all"
	local what="$fault of node(s) $victims, survivors ${surv[*]}"
	if [ -z "$dup" ]; then ok "$what: every survivor got exactly one event per death"; else
		not_ok "$what: every survivor got exactly one event per death"; diag "$dup"; fi
	if [ -z "$late" ]; then ok "$what: first death learned within $first_ms ms, all within $all_ms ms (slowest ${lmax} ms)"; else
		not_ok "$what: first death learned within $first_ms ms, all within $all_ms ms"; diag "late:$late"; fi
	if [ -z "$falsely" ]; then ok "$what: no survivor was reported dead"; else
		not_ok "$what: no survivor was reported dead"; diag "$falsely"; fi
	if [ -z "$views" ]; then ok "$what: every survivor's node list agrees"; else
		not_ok "$what: every survivor's node list agrees"; diag "$views"; fi
	check "$what: the ring is closed over the survivors" cl_ring_closed "${surv[@]}"
	CL_DEAD="${CL_DEAD:-} $victims"
}

# cl_bound_ms K: the detection bound for the K-th of consecutive ring
# deaths at once, per the admin guide (detection about d + h after the
# crash; ring.rst: after a detection the observer waits 2d for its new
# emitter), plus the harness margin CL_MARGIN_MS (broadcast, emulation,
# the trip to the host): K = 1: d + h; K = 2: 3d + h.
CL_MARGIN_MS=${CL_MARGIN_MS:-1500}
cl_bound_ms() {
	local k=$1 h=$FTNL_CLUSTER_H_MS d=$FTNL_CLUSTER_D_MS
	echo $(((2 * k - 1) * d + h + CL_MARGIN_MS))
}

# cl_baseline: before any fault, every node sees every node alive, no
# failure event anywhere, and the ring is the full cycle (TAP).
cl_baseline() {
	local bad c
	# shellcheck disable=SC2046 # one id per word
	bad=$(cl_views_unlike "$(cl_want_states)" $(seq "$CL_N"))
	c=$(grep -c '"event":"failure"' "$CL_EVENTS")
	[ "$c" -eq 0 ] || bad+=" $c failure events before any fault;"
	if [ -z "$bad" ]; then ok "baseline: $CL_N nodes see each other alive, no failure event"; else
		not_ok "baseline: $CL_N nodes see each other alive, no failure event"; diag "$bad"; fi
	# shellcheck disable=SC2046 # one id per word
	check "baseline: the ring is the cycle of all $CL_N nodes" cl_ring_closed $(seq "$CL_N")
}

# ---- TAP ------------------------------------------------------------------------------

CL_TAP_N=0
CL_TAP_FAILED=0
ok() {
	CL_TAP_N=$((CL_TAP_N + 1))
	echo "ok $CL_TAP_N - $*"
}
not_ok() {
	CL_TAP_N=$((CL_TAP_N + 1))
	CL_TAP_FAILED=$((CL_TAP_FAILED + 1))
	echo "not ok $CL_TAP_N - $*"
}
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }
# check DESCRIPTION COMMAND...: ok when COMMAND succeeds.
check() {
	local d=$1
	shift
	if "$@"; then ok "$d"; else not_ok "$d"; fi
}
tap_end() {
	echo "1..$CL_TAP_N"
	[ $CL_TAP_FAILED -eq 0 ]
}
