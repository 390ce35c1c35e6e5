#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ftnl-bench-guest: the ring benchmark, inside the VM (tools/dev/bench.sh boots
# it; Documentation/bench.rst explains every figure). Builds a virtual
# cluster (netns ftnl-b-I, veth vbI on bridge ftnl-bbr, 10.78.0.I), runs
#
#   1. detection latency of the kernel ring, for every n in BENCH_N and h in
#      BENCH_H_MS (d = BENCH_D_FACTOR * h), BENCH_TRIALS silenced nodes each;
#   2. heartbeat emission lateness and false suspicions of the kernel ring
#      and of the userspace ring (ftnl-uring) side by side, n = BENCH_LAT_N,
#      h in BENCH_LAT_H_MS, for each load of BENCH_LOADS: K busy loops per
#      guest CPU (0: idle; else plus a memory copy loop), and for each
#      value of BENCH_LAT_LOCAL_HEALTH (the module's local_health parameter;
#      runs with 0 carry "/off" after the load);
#   4. failure notification by broadcast: for every n in BENCH_BCAST_N and
#      algorithm in BENCH_BCAST_ALGOS, BENCH_BCAST_TRIALS silenced nodes:
#      time to the last survivor's event, datagrams per notification;
#   5. heartbeat emission lateness of the kernel ring while broadcasts run:
#      n = BENCH_BLAT_N, h = BENCH_BLAT_H_MS, for each rate of
#      BENCH_BLAT_RATES (process-exit broadcasts per second over the whole
#      cluster; 0: none, the baseline), BENCH_BLAT_S seconds each, and
#      for each receive budget of BENCH_BLAT_RX_BUDGET ("default": the
#      kernel's; P sets net.core.netdev_budget to P datagrams, the most
#      one NET_RX softirq run handles before the heartbeat's timer softirq
#      may run; its time limit, netdev_budget_usecs, cannot go below two
#      jiffies, 8 ms at HZ = 250; P:W also sets net.core.dev_weight to W,
#      the most one poll of a CPU's input backlog handles, which a run
#      never cuts short: one broadcast's datagrams for one node rather
#      than for all the bed's), and for each value of BENCH_BLAT_HB_HI
#      (the module's hb_hi_softirq: 0, heartbeats from the timer softirq;
#      1, from a HI tasklet a hard hrtimer schedules); each rate runs once
#      per word of BENCH_BLAT_OWN_CPU: "-", every node on every CPU, or a
#      node id: that node alone on CPU 0 (its timers, its receive work by
#      RPS, its share of the broadcasts) and every other node on CPU 1, so
#      that its CPU carries one node's share of a broadcast, as a real
#      node's does, and its lateness is reported apart (CPU "own" against
#      "shared"); with BENCH_BLAT_TRACE=1 (the default) an own-CPU run also
#      traces CPU 0 and cuts each late heartbeat's time into where it went
#      (ftnl-bench-hbtrace: the timer's interrupt, another softirq, the
#      heartbeat's own handler; inside or outside a stall of the CPU);
#   6. TIPC beside ftnl: for every n in BENCH_TIPC_N and every run
#      TOL:H/D of BENCH_TIPC_RUNS, TIPC (link tolerance TOL ms) and the ftnl
#      ring (h = H ms, d = D ms) on the same nodes at once, the same victim
#      silenced for both, BENCH_TIPC_TRIALS times: times to the first and
#      last survivor that knows, background frames, false suspicions;
#   7. fixed against adaptive timeouts: n = BENCH_ADAPT_N, h, d = d_max, for
#      every netem pattern of BENCH_ADAPT_PATTERNS on every node's link and
#      every timeout of BENCH_ADAPT_SETTINGS ("fixed" or MIN/NINES): false
#      suspicions over BENCH_ADAPT_WINDOW_S seconds, BENCH_ADAPT_TRIALS
#      silenced nodes, and the simulator's model of the same link;
#   8. quiet runs: the kernel ring alone at h = BENCH_QUIET_H_MS, d =
#      BENCH_QUIET_D_MS, for every n in BENCH_QUIET_N and load of
#      BENCH_QUIET_LOADS (K busy loops per CPU, 0: idle, or "bcast":
#      BENCH_QUIET_BCAST_RATE process-exit broadcasts per second), nobody
#      failing for BENCH_QUIET_S seconds: every false suspicion attributed
#      to a stall the probe measured or to ftnl (tools/bench/quiet.c);
#
# and prints the tables. Environment (defaults in brackets):
#
#   BENCH_N ["8 16 32 64"]     BENCH_H_MS ["10 50 100"]   BENCH_D_FACTOR [3]
#   BENCH_TRIALS [20]          BENCH_CONFIG_BUDGET_S [90] per detection config
#   BENCH_LAT_N [8]            BENCH_LAT_H_MS ["100 10 5"]  BENCH_LAT_S [60]
#   BENCH_LOADS ["0 1 4"]      BENCH_MEMHOG_MIB [64] (0: no memory hog)
#   BENCH_LAT_LOCAL_HEALTH ["1"]
#   BENCH_BCAST_N ["8 16 32 64"]  BENCH_BCAST_ALGOS ["hypercube bmg fcg"]
#   BENCH_BCAST_TRIALS [10]    BENCH_BCAST_H_MS [50]      BENCH_BCAST_BUDGET_S [40]
#   BENCH_BLAT_N [64]          BENCH_BLAT_H_MS [100]      BENCH_BLAT_S [20]
#   BENCH_BLAT_RATES ["0 20 50"] BENCH_BLAT_RX_BUDGET ["default"]
#   BENCH_BLAT_HB_HI ["1"]         BENCH_BLAT_OWN_CPU ["-"]   BENCH_BLAT_TRACE [1]
#   BENCH_TIPC_N ["8 16 32"]   BENCH_TIPC_RUNS ["50:16/50 50:10/30 1500:30/90"]
#   BENCH_TIPC_TRIALS [10]     BENCH_TIPC_BUDGET_S [150]  BENCH_TIPC_RATE_S [5]
#   BENCH_ADAPT_N [8]          BENCH_ADAPT_H_MS [10]      BENCH_ADAPT_D_MS [30]
#   BENCH_ADAPT_PATTERNS ["quiet jitter loss1 loss5 jitterloss spikes"]
#   BENCH_ADAPT_SETTINGS ["fixed 12/6 12/9 21/6 21/9"]
#   BENCH_ADAPT_WINDOW_S [5]   BENCH_ADAPT_TRIALS [5]     BENCH_ADAPT_BUDGET_S [60]
#   BENCH_ADAPT_BEATS [1000000]
#   BENCH_QUIET_N ["8 64"]     BENCH_QUIET_H_MS [10]      BENCH_QUIET_D_MS [30]
#   BENCH_QUIET_S [120]        BENCH_QUIET_LOADS ["0 4 bcast"]
#   BENCH_HOST_DROP_RULE [module default, 0]: the module's host_drop_rule
#   BENCH_QUIET_BCAST_RATE [20]     BENCH_QUIET_QUORUM [the module's: on]
#   BENCH_QUIET_BACKLOG [the kernel's, 1000 shared by all nodes]: N gives
#               every emulated node a real node's input backlog of N
#               (net.core.netdev_max_backlog = N * n for each quiet run)
#   BENCH_QUIET_HB_HI [the module's]: values of hb_hi_softirq, the loads
#               run once for each, in this order, in one boot (labels
#               ",T1:timer" and ",T1:HI")
#   BENCH_QUIET_BACKLOG_PROBE [0]: 1 runs the backlog probe beside the quiet
#               runs (label ",backlog-probe"; class "full"). It changes what
#               it measures (Documentation/bench.rst, "Quiet runs")
#   BENCH_SKIP: words among detect, bcast, lateness, bcastlat, tipc, adaptive,
#               quiet
#   BENCH_SEED [time]
set -eu

IP=/sbin/ip
N_LIST=${BENCH_N:-8 16 32 64}
H_LIST=${BENCH_H_MS:-10 50 100}
D_FACTOR=${BENCH_D_FACTOR:-3}
TRIALS=${BENCH_TRIALS:-20}
CONFIG_BUDGET=${BENCH_CONFIG_BUDGET_S:-90}
LAT_N=${BENCH_LAT_N:-8}
LAT_H_LIST=${BENCH_LAT_H_MS:-100 10 5}
LAT_S=${BENCH_LAT_S:-60}
LOADS=${BENCH_LOADS:-0 1 4}
LAT_LH=${BENCH_LAT_LOCAL_HEALTH:-1}
LH_PARAM=/sys/module/ftnl/parameters/local_health
# The module's host_drop_rule for the whole run (Documentation/ring.rst,
# "Local health", input its host dropped); empty: the module's default.
HOST_DROP_RULE=${BENCH_HOST_DROP_RULE:-}
if [ -n "$HOST_DROP_RULE" ]; then
	echo "$HOST_DROP_RULE" >/sys/module/ftnl/parameters/host_drop_rule
fi
MEMHOG_MIB=${BENCH_MEMHOG_MIB:-64}
BCAST_N_LIST=${BENCH_BCAST_N:-8 16 32 64}
BCAST_ALGOS=${BENCH_BCAST_ALGOS:-hypercube bmg fcg}
BCAST_TRIALS=${BENCH_BCAST_TRIALS:-10}
BCAST_H=${BENCH_BCAST_H_MS:-50}
BCAST_BUDGET=${BENCH_BCAST_BUDGET_S:-40}
BLAT_N=${BENCH_BLAT_N:-64}
BLAT_H=${BENCH_BLAT_H_MS:-100}
BLAT_S=${BENCH_BLAT_S:-20}
BLAT_RATES=${BENCH_BLAT_RATES:-0 20 50}
BLAT_RX_BUDGET=${BENCH_BLAT_RX_BUDGET:-default}
BLAT_HB_HI=${BENCH_BLAT_HB_HI:-1}
BLAT_OWN_CPU=${BENCH_BLAT_OWN_CPU:--}
BLAT_TRACE=${BENCH_BLAT_TRACE:-1}
TIPC_N_LIST=${BENCH_TIPC_N:-8 16 32}
TIPC_RUNS=${BENCH_TIPC_RUNS:-50:16/50 50:10/30 1500:30/90}
TIPC_TRIALS=${BENCH_TIPC_TRIALS:-10}
TIPC_BUDGET=${BENCH_TIPC_BUDGET_S:-150}
TIPC_RATE_S=${BENCH_TIPC_RATE_S:-5}
ADAPT_N=${BENCH_ADAPT_N:-8}
ADAPT_H=${BENCH_ADAPT_H_MS:-10}
ADAPT_D=${BENCH_ADAPT_D_MS:-30}
ADAPT_PATTERNS=${BENCH_ADAPT_PATTERNS:-quiet jitter loss1 loss5 jitterloss spikes}
ADAPT_SETTINGS=${BENCH_ADAPT_SETTINGS:-fixed 12/6 12/9 21/6 21/9}
ADAPT_WINDOW=${BENCH_ADAPT_WINDOW_S:-5}
ADAPT_TRIALS=${BENCH_ADAPT_TRIALS:-5}
ADAPT_BUDGET=${BENCH_ADAPT_BUDGET_S:-60}
ADAPT_BEATS=${BENCH_ADAPT_BEATS:-1000000}
QUIET_N_LIST=${BENCH_QUIET_N:-8 64}
QUIET_H=${BENCH_QUIET_H_MS:-10}
QUIET_D=${BENCH_QUIET_D_MS:-30}
QUIET_S=${BENCH_QUIET_S:-120}
QUIET_LOADS=${BENCH_QUIET_LOADS:-0 4 bcast}
QUIET_BCAST_RATE=${BENCH_QUIET_BCAST_RATE:-20}
QUIET_QUORUM=${BENCH_QUIET_QUORUM:-}
QUIET_BACKLOG=${BENCH_QUIET_BACKLOG:-}
# 1: the backlog probe runs beside the quiet runs (it perturbs them).
QUIET_BACKLOG_PROBE=${BENCH_QUIET_BACKLOG_PROBE:-0}
# The module's hb_hi_softirq for the quiet runs, each value in turn;
# empty: the module's default, one pass.
QUIET_HB_HI=${BENCH_QUIET_HB_HI:-}
HB_HI_PARAM=/sys/module/ftnl/parameters/hb_hi_softirq
SKIP=${BENCH_SKIP:-}
SEED=${BENCH_SEED:-$(date +%s)}

PREFIX=ftnl-b
VETH=vb
BRIDGE=ftnl-bbr
NET=10.78.0
RESULTS=/tmp/ftnl-bench.results
NCPU=$(nproc)

say() { printf '== %s\n' "$*"; }
skipped() { case " $SKIP " in *" $1 "*) return 0 ;; esac; return 1; }

max_n=$LAT_N
skipped detect || for n in $N_LIST; do
	[ "$n" -le "$max_n" ] || max_n=$n
done
skipped bcast || for n in $BCAST_N_LIST; do
	[ "$n" -le "$max_n" ] || max_n=$n
done
skipped bcastlat || [ "$BLAT_N" -le "$max_n" ] || max_n=$BLAT_N
skipped tipc || for n in $TIPC_N_LIST; do
	[ "$n" -le "$max_n" ] || max_n=$n
done
skipped adaptive || [ "$ADAPT_N" -le "$max_n" ] || max_n=$ADAPT_N
skipped quiet || for n in $QUIET_N_LIST; do
	[ "$n" -le "$max_n" ] || max_n=$n
done

# --- the virtual cluster ---------------------------------------------------------

t0=$(date +%s)
# The neighbor (ARP) table is one for the whole kernel, all namespaces
# together, and its default hard limit (gc_thresh3) is 1024 entries. A
# broadcast makes every node talk to many others: n(n-1) entries, 4032 at
# n = 64. Past the limit, datagrams to unresolved neighbors are dropped
# ("neighbor table overflow") and survivors miss notifications. A real node
# holds only its own n - 1 entries.
arp_max=$((max_n * max_n * 2 + 1024))
for kv in "gc_thresh1=$((arp_max / 4))" "gc_thresh2=$((arp_max / 2))" \
	"gc_thresh3=$arp_max"; do
	echo "${kv#*=}" >"/proc/sys/net/ipv4/neigh/default/${kv%%=*}"
done
say "building a virtual cluster of $max_n nodes"
$IP link add $BRIDGE type bridge
$IP link set $BRIDGE up
i=1
while [ $i -le "$max_n" ]; do
	ns=$PREFIX-$i
	$IP netns add "$ns"
	$IP link add "$VETH$i" type veth peer name eth0 netns "$ns"
	$IP link set "$VETH$i" master $BRIDGE up
	$IP -n "$ns" link set lo up
	$IP -n "$ns" addr add "$NET.$i/24" dev eth0
	$IP -n "$ns" link set eth0 up
	i=$((i + 1))
done
say "cluster ready in $(($(date +%s) - t0)) s"
: >"$RESULTS"

# Options common to every ftnl-bench call, split into words on purpose.
common="--prefix $PREFIX --veth $VETH --net $NET --seed $SEED"

# --- load ------------------------------------------------------------------------

# The cpu hogs also probe their vCPU (see hog.c); their reports go to
# HOGOUT and then, tagged with the run, to the results.
HOGOUT=/tmp/ftnl-bench.hogs
hog_pids=
start_load() { # busy loops per CPU
	: >"$HOGOUT"
	k=0
	while [ $k -lt $((NCPU * $1)) ]; do
		ftnl-bench-hog cpu >>"$HOGOUT" &
		hog_pids="$hog_pids $!"
		k=$((k + 1))
	done
	if [ "$MEMHOG_MIB" -gt 0 ]; then
		ftnl-bench-hog mem "$MEMHOG_MIB" &
		hog_pids="$hog_pids $!"
	fi
	sleep 1
}
stop_load() {
	[ -n "$hog_pids" ] || return 0
	# shellcheck disable=SC2086 # one pid per word
	kill $hog_pids
	# shellcheck disable=SC2086
	wait $hog_pids 2>/dev/null || true
	hog_pids=
}
trap stop_load EXIT

# --- 1. detection latency --------------------------------------------------------

if ! skipped detect; then
	for n in $N_LIST; do
		for h in $H_LIST; do
			d=$((h * D_FACTOR))
			say "detection: n=$n h=${h}ms d=${d}ms, $TRIALS trials"
			# shellcheck disable=SC2086
			ftnl-bench detect $common --nodes "$n" --hb-ms "$h" \
				--timeout-ms "$d" --trials "$TRIALS" \
				--budget-s "$CONFIG_BUDGET" | tee -a "$RESULTS" ||
				echo "RESULT test=detect n=$n h_ms=$h d_ms=$d verdict=error" |
				tee -a "$RESULTS"
		done
	done
fi

# --- 2. and 3. emission lateness, kernel and userspace rings ---------------------

# --- 4. failure notification by broadcast ---------------------------------------

if ! skipped bcast; then
	d=$((BCAST_H * D_FACTOR))
	for n in $BCAST_N_LIST; do
		for algo in $BCAST_ALGOS; do
			say "broadcast: $algo n=$n h=${BCAST_H}ms d=${d}ms, $BCAST_TRIALS trials"
			# shellcheck disable=SC2086
			ftnl-bench bcast $common --nodes "$n" --hb-ms "$BCAST_H" \
				--timeout-ms "$d" --algo "$algo" \
				--trials "$BCAST_TRIALS" --budget-s "$BCAST_BUDGET" |
				tee -a "$RESULTS" ||
				echo "RESULT test=bcast algo=$algo n=$n h_ms=$BCAST_H d_ms=$d verdict=error" |
				tee -a "$RESULTS"
		done
	done
fi

if ! skipped lateness; then
	for h in $LAT_H_LIST; do
		d=$((h * D_FACTOR))
		for hogs in $LOADS; do
			for lh in $LAT_LH; do
				if [ "$hogs" -eq 0 ]; then load=idle; else load=$hogs/cpu; fi
				[ "$lh" -ne 0 ] || load=$load/off
				echo "$lh" >"$LH_PARAM"
				say "lateness: n=$LAT_N h=${h}ms d=${d}ms, ${LAT_S}s, $load"
				[ "$hogs" -eq 0 ] || start_load "$hogs"
				# shellcheck disable=SC2086
				ftnl-bench lateness $common --nodes "$LAT_N" --hb-ms "$h" \
					--timeout-ms "$d" --duration-s "$LAT_S" \
					--label "$load" | tee -a "$RESULTS" ||
					echo "RESULT test=lateness ring=both load=$load n=$LAT_N h_ms=$h d_ms=$d verdict=error" |
					tee -a "$RESULTS"
				if [ "$hogs" -gt 0 ]; then
					stop_load
					sed "s|^RESULT test=hog |RESULT test=hog h_ms=$h load=$load |" "$HOGOUT" |
						tee -a "$RESULTS"
				fi
			done
		done
	done
	echo 1 >"$LH_PARAM"
fi

# --- 5. emission lateness while broadcasts run ----------------------------------

# steer_rx NODE: the receive work of node NODE's eth0 to CPU 0 and of every
# other device of the first BLAT_N nodes (their eth0, every bridge port) to
# CPU 1 (RPS: a veth hands what it receives to the backlog of the CPU its
# map names); steer_rx "": every map back to none, the kernel's default.
steer_rx() {
	i=1
	while [ $i -le "$BLAT_N" ]; do
		if [ -z "$1" ]; then own_map=0 map=0
		elif [ $i = "$1" ]; then own_map=1 map=2
		else own_map=2 map=2; fi
		echo $map >"/sys/class/net/$VETH$i/queues/rx-0/rps_cpus"
		$IP netns exec "$PREFIX-$i" sh -c \
			"echo $own_map >/sys/class/net/eth0/queues/rx-0/rps_cpus"
		i=$((i + 1))
	done
}

# hb_timers_per_cpu: how many heartbeat timers of the rings each CPU holds
# (/proc/timer_list), to show that --own-cpu put them where it meant to.
hb_timers_per_cpu() {
	awk '/^cpu: / { cpu = $2 } /ftnl_ring_hb_(kick|fire)/ { c[cpu]++ }
		END { s = ""; for (k in c) s = s " cpu" k "=" c[k]; print s }' \
		/proc/timer_list 2>/dev/null
}

# softnet_processed: datagrams each CPU's network receive softirq handled
# so far (/proc/net/softnet_stat, first column, one line per CPU);
# softnet_since BEFORE: the count per CPU since BEFORE was read.
softnet_processed() {
	while read -r p _; do printf '%d ' "0x$p"; done </proc/net/softnet_stat
}
softnet_since() {
	set -- $1
	cpu=0
	for p in $(softnet_processed); do
		printf ' cpu%s=%s' $cpu $((p - ${1:-0}))
		cpu=$((cpu + 1))
		[ $# -eq 0 ] || shift
	done
}

# hb_trace_start: trace CPU 0 for ftnl-bench-hbtrace (tools/bench/hbtrace.c),
# on the monotonic clock: every hrtimer's arming and expiry (the heartbeat
# timer's, and how late the others' interrupts came: the stall probe's
# timer falls due every 1 ms), every softirq handler, every local timer
# interrupt, every task switch. Fails without tracefs or the events.
# hb_trace_stop FILE: stop, write the trace to FILE, restore.
TRACEFS=/sys/kernel/tracing
HB_TRACE_TIMER="timer/hrtimer_start timer/hrtimer_expire_entry"
HB_TRACE_OTHER="irq/softirq_entry irq/softirq_exit irq_vectors/local_timer_entry
	irq_vectors/local_timer_exit sched/sched_switch"
hb_trace_start() {
	[ -d $TRACEFS/events ] || mount -t tracefs nodev $TRACEFS 2>/dev/null ||
		return 1
	for e in $HB_TRACE_TIMER $HB_TRACE_OTHER; do
		[ -w "$TRACEFS/events/$e/enable" ] || return 1
	done
	trace_cpumask=$(cat $TRACEFS/tracing_cpumask)
	# "7 (expanded: 1408)" before the buffer was first used. Only CPU 0's
	# grows: it is the only one traced.
	trace_buffer_kb=$(awk '{ print $1 }' $TRACEFS/per_cpu/cpu0/buffer_size_kb)
	echo 0 >$TRACEFS/tracing_on
	echo mono >$TRACEFS/trace_clock
	echo 1 >$TRACEFS/tracing_cpumask
	echo 65536 >$TRACEFS/per_cpu/cpu0/buffer_size_kb
	: >$TRACEFS/trace
	# The ticker's expiries (ftnl-bench's ticker.c): their interrupts are
	# what counts, and there are 2,000 a second.
	perf=$(awk '$3 == "perf_swevent_hrtimer" { print $1; exit }' /proc/kallsyms)
	[ -z "$perf" ] || echo "function != 0x$perf" \
		>$TRACEFS/events/timer/hrtimer_expire_entry/filter
	for e in $HB_TRACE_TIMER $HB_TRACE_OTHER; do
		echo 1 >"$TRACEFS/events/$e/enable"
	done
	echo 1 >$TRACEFS/tracing_on
}
hb_trace_stop() {
	echo 0 >$TRACEFS/tracing_on
	for e in $HB_TRACE_TIMER $HB_TRACE_OTHER; do
		echo 0 >"$TRACEFS/events/$e/enable"
	done
	echo 0 >$TRACEFS/events/timer/hrtimer_expire_entry/filter
	# Events the buffer lost: the analysis would be partial.
	trace_lost=$(awk '/^overrun:/ { print $2 }' $TRACEFS/per_cpu/cpu0/stats)
	cat $TRACEFS/trace >"$1"
	: >$TRACEFS/trace
	echo "$trace_cpumask" >$TRACEFS/tracing_cpumask
	echo "$trace_buffer_kb" >$TRACEFS/per_cpu/cpu0/buffer_size_kb
	echo local >$TRACEFS/trace_clock
}

if ! skipped bcastlat; then
	d=$((BLAT_H * D_FACTOR))
	migration=/proc/sys/kernel/timer_migration
	migration_default=$(cat $migration 2>/dev/null || echo 1)
	rx_sysctl=/proc/sys/net/core/netdev_budget
	rx_default=$(cat $rx_sysctl)
	weight_sysctl=/proc/sys/net/core/dev_weight
	weight_default=$(cat $weight_sysctl)
	hi_param=/sys/module/ftnl/parameters/hb_hi_softirq
	hi_default=$(cat $hi_param 2>/dev/null || echo 0)
	for hi in $BLAT_HB_HI; do
		# A module without the parameter runs T1 in the timer softirq.
		if [ -w $hi_param ]; then
			echo "$hi" >$hi_param
		elif [ "$hi" != 0 ]; then
			echo "RESULT test=bcastlat ring=kernel n=$BLAT_N h_ms=$BLAT_H d_ms=$d hb_hi=$hi verdict=error" |
				tee -a "$RESULTS"
			continue
		fi
		for rx in $BLAT_RX_BUDGET; do
			[ "$rx" != default ] || rx=$rx_default
			weight=$weight_default
			case $rx in *:*) weight=${rx#*:} rx=${rx%%:*} ;; esac
			echo "$rx" >$rx_sysctl
			echo "$weight" >$weight_sysctl
			rx="$(cat $rx_sysctl)/$(cat $rx_sysctl"_usecs")us"
			[ "$(cat $weight_sysctl)" = "$weight_default" ] ||
				rx="$rx/w$(cat $weight_sysctl)"
			for rate in $BLAT_RATES; do
				for own in $BLAT_OWN_CPU; do
					own_cpu=
					if [ "$own" != - ]; then
						# Two CPUs, a node of the run, and RPS (steer_rx).
						if [ "$NCPU" -lt 2 ] || [ "$own" -gt "$BLAT_N" ] ||
							[ ! -w "/sys/class/net/${VETH}1/queues/rx-0/rps_cpus" ]; then
							say "own CPU $own: needs 2 CPUs ($NCPU), a node of the $BLAT_N, and RPS"
							echo "RESULT test=bcastlat ring=kernel cpu=own n=$BLAT_N h_ms=$BLAT_H d_ms=$d bcast_rate=$rate verdict=error" |
								tee -a "$RESULTS"
							continue
						fi
						own_cpu="--own-cpu $own"
						steer_rx "$own"
						# Timers stay on the CPU that armed them.
						[ ! -w $migration ] || echo 0 >$migration
					fi
					say "lateness under broadcasts: n=$BLAT_N h=${BLAT_H}ms d=${d}ms, ${BLAT_S}s, $rate broadcasts/s, receive budget $rx, hb_hi_softirq $hi, own CPU $own"
					sampler='' traced=''
					if [ -n "$own_cpu" ]; then
						{ sleep $((BLAT_S / 2 + 1)); say "heartbeat timers:$(hb_timers_per_cpu)"; } &
						sampler=$!
						if [ "$BLAT_TRACE" = 1 ]; then
							if hb_trace_start; then traced=1
							else say "no trace of CPU 0: tracefs or its events missing"; fi
						fi
					fi
					rx_before=$(softnet_processed)
					results_before=$(wc -l <"$RESULTS")
					# shellcheck disable=SC2086
					{ ftnl-bench lateness $common --nodes "$BLAT_N" --hb-ms "$BLAT_H" \
						--timeout-ms "$d" --duration-s "$BLAT_S" --no-uring \
						--bcast-rate "$rate" --label "bcast=$rate/s" $own_cpu ||
						echo "RESULT test=bcastlat ring=kernel load=bcast=$rate/s n=$BLAT_N h_ms=$BLAT_H d_ms=$d bcast_rate=$rate verdict=error"; } |
						sed "/^RESULT /s|\$| rx_budget=$rx hb_hi=$hi|" | tee -a "$RESULTS"
					[ -z "$sampler" ] || wait "$sampler"
					say "datagrams received, per CPU:$(softnet_since "$rx_before")"
					if [ -n "$traced" ]; then
						hb_trace_stop /tmp/ftnl-bench.trace
						# The probe's window, from this run's own row (none:
						# the run failed, and there is nothing to cut).
						window=$(tail -n +$((results_before + 1)) "$RESULTS" |
							awk '$1 == "RESULT" && / cpu=own / { w = ""
							for (i = 2; i <= NF; i++) if ($i ~ /^probe_(from|to)_ns=/) {
								split($i, kv, "="); w = w " --" substr(kv[1], 7, length(kv[1]) - 9) " " kv[2]
							} else if ($i ~ /^tick_us=[1-9]/) w = w " --tick-us " substr($i, 9)
							} END { print w }')
						# shellcheck disable=SC2086
						{ [ -n "$window" ] && ftnl-bench-hbtrace --cpu 0 $window /tmp/ftnl-bench.trace ||
							echo "RESULT test=hbtrace verdict=error"; } |
							sed "/^RESULT /s|\$| n=$BLAT_N h_ms=$BLAT_H d_ms=$d bcast_rate=$rate trace_lost=$trace_lost|" |
							tee -a "$RESULTS"
						rm -f /tmp/ftnl-bench.trace
					fi
					if [ -n "$own_cpu" ]; then
						steer_rx ""
						[ ! -w $migration ] || echo "$migration_default" >$migration
					fi
				done
			done
		done
	done
	[ ! -w $hi_param ] || echo "$hi_default" >$hi_param
	echo "$rx_default" >$rx_sysctl
	echo "$weight_default" >$weight_sysctl
fi

# --- 6. TIPC beside ftnl ---------------------------------------------------------

if ! skipped tipc; then
	for n in $TIPC_N_LIST; do
		for run in $TIPC_RUNS; do
			tol=${run%%:*} hd=${run#*:}
			h=${hd%/*} d=${hd#*/}
			say "TIPC beside ftnl: n=$n TIPC tolerance ${tol}ms, ftnl h=${h}ms d=${d}ms, $TIPC_TRIALS trials"
			# Its status, not tee's: a run that failed still gets a row.
			# shellcheck disable=SC2086
			ftnl-bench tipc $common --nodes "$n" --hb-ms "$h" \
				--timeout-ms "$d" --tolerance-ms "$tol" \
				--trials "$TIPC_TRIALS" --budget-s "$TIPC_BUDGET" \
				--rate-s "$TIPC_RATE_S" >/tmp/ftnl-bench.tipc ||
				echo "RESULT test=tipc n=$n tol_ms=$tol h_ms=$h d_ms=$d verdict=error" \
					>>/tmp/ftnl-bench.tipc
			tee -a "$RESULTS" </tmp/ftnl-bench.tipc
		done
	done
fi

# --- 7. fixed against adaptive timeouts -------------------------------------------

TC=/sbin/tc
# The spikes pattern: netem draws each datagram's extra delay from a table
# (delay MU SIGMA distribution T: MU + SIGMA * t / 8192, t an entry picked
# at random). 16 of 16000 entries (0.1 %) spread evenly over [0, 8192),
# the others 0: 0.1 % of the datagrams delayed a further [0, SIGMA).
ADAPT_TC_LIB=/tmp/ftnl-bench.tc

# netem's arguments for a pattern, and the model's link for it (see
# tools/bench/adapt.c); "rate" keeps each link's order, as the model does
# (netem then never lets a datagram leave before the one queued ahead).
adapt_netem() {
	case $1 in
	quiet) echo "" ;;
	jitter) echo "delay 2500us 2500us rate 1gbit" ;;
	loss1) echo "loss 1%" ;;
	loss5) echo "loss 5%" ;;
	jitterloss) echo "delay 1ms 1ms loss 1% rate 1gbit" ;;
	spikes) echo "delay 100us 25ms distribution ftnl-spike rate 1gbit" ;;
	*) return 1 ;;
	esac
}
adapt_model() {
	case $1 in
	quiet) echo "--model-jitter-us 100" ;;
	jitter) echo "--model-jitter-us 5000" ;;
	loss1) echo "--model-jitter-us 100 --model-loss-ppm 10000" ;;
	loss5) echo "--model-jitter-us 100 --model-loss-ppm 50000" ;;
	jitterloss) echo "--model-jitter-us 2000 --model-loss-ppm 10000" ;;
	spikes) echo "--model-jitter-us 100 --model-spike-ppm 1000 --model-spike-us 25000" ;;
	esac
}
# Put pattern $1 on the egress of every node's eth0 (each datagram crosses
# one such link: the sender's), or take it off (quiet, "").
adapt_apply() {
	args=$(adapt_netem "$1")
	i=1
	while [ $i -le "$ADAPT_N" ]; do
		$TC -n "$PREFIX-$i" qdisc del dev eth0 root 2>/dev/null || true
		if [ -n "$args" ]; then
			# shellcheck disable=SC2086 # netem's arguments, one per word
			TC_LIB_DIR=$ADAPT_TC_LIB $TC -n "$PREFIX-$i" qdisc add dev eth0 root netem $args ||
				return 1
		fi
		i=$((i + 1))
	done
}

if ! skipped adaptive; then
	mkdir -p "$ADAPT_TC_LIB"
	awk 'BEGIN {
		print "# ftnl-bench: 0.1 % spikes, uniform over [0, sigma)"
		for (i = 0; i < 16000; i++)
			print (i % 1000 == 0 ? int(8192 * (2 * (i / 1000) + 1) / 32) : 0)
	}' >"$ADAPT_TC_LIB/ftnl-spike.dist"
	for pattern in $ADAPT_PATTERNS; do
		if ! adapt_netem "$pattern" >/dev/null || ! adapt_apply "$pattern"; then
			echo "RESULT test=adapt pattern=$pattern n=$ADAPT_N h_ms=$ADAPT_H d_ms=$ADAPT_D verdict=nopattern" |
				tee -a "$RESULTS"
			continue
		fi
		for setting in $ADAPT_SETTINGS; do
			if [ "$setting" = fixed ]; then
				adaptive='' dmin=0
			else
				dmin=${setting%/*}
				adaptive="--adaptive-min-ms $dmin --nines ${setting#*/}"
			fi
			say "timeouts: $pattern, n=$ADAPT_N h=${ADAPT_H}ms d=${ADAPT_D}ms, $setting, ${ADAPT_WINDOW}s + $ADAPT_TRIALS trials"
			# shellcheck disable=SC2086,SC2046 # options, one per word
			ftnl-bench adapt $common --nodes "$ADAPT_N" --hb-ms "$ADAPT_H" \
				--timeout-ms "$ADAPT_D" $adaptive --label "$pattern" \
				--duration-s "$ADAPT_WINDOW" --trials "$ADAPT_TRIALS" \
				--budget-s "$ADAPT_BUDGET" --model-beats "$ADAPT_BEATS" \
				$(adapt_model "$pattern") | tee -a "$RESULTS" ||
				echo "RESULT test=adapt pattern=$pattern n=$ADAPT_N h_ms=$ADAPT_H d_ms=$ADAPT_D dmin_ms=$dmin nines=${setting#*/} verdict=error" |
				tee -a "$RESULTS"
		done
	done
	adapt_apply quiet
fi

# --- 8. quiet runs: every false suspicion attributed ------------------------------

if ! skipped quiet; then
	hi_default=$(cat $HB_HI_PARAM 2>/dev/null || echo 0)
	for n in $QUIET_N_LIST; do
		for hi in ${QUIET_HB_HI:-default}; do
			# A value only a module with the parameter can take.
			if [ "$hi" != default ] && ! echo "$hi" 2>/dev/null >$HB_HI_PARAM; then
				echo "RESULT test=quiet load=T1:$hi n=$n h_ms=$QUIET_H d_ms=$QUIET_D verdict=error" |
					tee -a "$RESULTS"
				continue
			fi
			for load in $QUIET_LOADS; do
				# Options of this run: the broadcasts, the quorum rule.
				extra=
				case $load in
				bcast) label=bcast:$QUIET_BCAST_RATE/s extra="--bcast-rate $QUIET_BCAST_RATE" ;;
				0) label=idle ;;
				*) label=$load/cpu ;;
				esac
				case $hi in
				default) ;;
				1) label=$label,T1:HI ;;
				*) label=$label,T1:timer ;;
				esac
				[ -z "$QUIET_QUORUM" ] || extra="$extra --quorum $QUIET_QUORUM"
				if [ "$QUIET_BACKLOG_PROBE" = 1 ]; then
					extra="$extra --backlog-probe"
					label=$label,backlog-probe
				fi
				# One kernel's input backlogs serve all n nodes; a real
				# node has its own (Documentation/bench.rst, part 8).
				if [ -n "$QUIET_BACKLOG" ]; then
					echo $((QUIET_BACKLOG * n)) >/proc/sys/net/core/netdev_max_backlog
					label=$label,backlog:$QUIET_BACKLOG/node
				fi
				say "quiet: n=$n h=${QUIET_H}ms d=${QUIET_D}ms, ${QUIET_S}s, $label${QUIET_QUORUM:+, quorum $QUIET_QUORUM}, netdev_max_backlog $(cat /proc/sys/net/core/netdev_max_backlog)"
				case $load in bcast | 0) ;; *) start_load "$load" ;; esac
				# Its lateness line joins the quiet table, not the lateness one.
				# shellcheck disable=SC2086 # options, one per word
				ftnl-bench lateness $common --nodes "$n" --hb-ms "$QUIET_H" \
					--timeout-ms "$QUIET_D" --duration-s "$QUIET_S" --no-uring \
					--attribute $extra --label "$label" >/tmp/ftnl-bench.quiet ||
					echo "RESULT test=quiet load=$label n=$n h_ms=$QUIET_H d_ms=$QUIET_D verdict=error" \
						>>/tmp/ftnl-bench.quiet
				stop_load
				sed -E 's/^RESULT test=(lateness|bcastlat) /RESULT test=quietlat /' \
					/tmp/ftnl-bench.quiet | tee -a "$RESULTS"
			done
		done
	done
	[ ! -w $HB_HI_PARAM ] || echo "$hi_default" >$HB_HI_PARAM
fi

# --- tables ------------------------------------------------------------------------

model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
echo
echo "ftnl ring benchmark -- $(date -u '+%Y-%m-%d %H:%M UTC'), kernel $(uname -r),"
echo "$NCPU guest CPUs ($model), seed $SEED, $(($(date +%s) - t0)) s in the guest"
awk -v ncpu="$NCPU" -v load_desc="K/cpu: K busy loops per CPU ($NCPU CPUs)$([ "$MEMHOG_MIB" -gt 0 ] && echo " + one ${MEMHOG_MIB} MiB memcpy loop")" '
function ms(us) { return us == "" ? "-" : sprintf("%.1fms", us / 1000) }
function parse(   i, kv) {
	delete f
	for (i = 2; i <= NF; i++) {
		split($i, kv, "=")
		f[kv[1]] = kv[2]
	}
}
$1 == "RESULT" {
	parse()
	if (f["test"] == "detect") det[++nd] = $0
	else if (f["test"] == "hog") hog[++nh] = $0
	else if (f["test"] == "bcast") bc[++nb] = $0
	else if (f["test"] == "bcastlat") bl[++nbl] = $0
	else if (f["test"] == "hbtrace") ht[++nht] = $0
	else if (f["test"] == "tipc") tp[++ntp] = $0
	else if (f["test"] == "adapt") ad[++nad] = $0
	else if (f["test"] == "quiet") qt[++nqt] = $0
	else if (f["test"] == "quietlat") ql[f["load"] " " f["n"]] = $0
	else lat[++nl] = $0
}
END {
	if (nd) print_detect()
	if (nl) print_lateness()
	if (nb) print_bcast()
	if (nbl) print_bcastlat()
	if (nht) print_hbtrace()
	if (ntp) print_tipc()
	if (nad) print_adapt()
	if (nqt) print_quiet()
}
function secs(ms) { return ms == "" ? "-" : sprintf("%.1f", ms / 1000) }
function print_quiet(   unread, sirq, kdrun, kdwait, i, key, other, full, nfull, flong, n, load, susp, learnt, expel, stalled, follow, nstall, longest, lost, backlog, gone, unpub, kern, user, idle) {
	$0 = qt[1]; parse()
	print ""
	print "8. Quiet runs: the kernel ring at h=" f["h_ms"] "ms d=" f["d_ms"] "ms, nobody failing; every false"
	print "   suspicion attributed (Documentation/bench.rst, \"Quiet runs\")."
	printf "%4s %-16s %6s %9s %9s %5s %6s %5s %5s %6s %5s %5s %6s %8s %6s %7s %6s %5s %5s %5s %7s %7s %8s\n", "n", "load", "window", \
		"p99.9", "max", "susp", "learnt", "expel", "stall", "follow", "full", "ftnl", "stalls", \
		"longest", "f>=d-h", "f-long", "waits", "kern%", "user%", "idle%", "sirq-s", "ksd-run", "ksd-wait"
	for (i = 1; i <= nqt; i++) {
		$0 = qt[i]; parse()
		key = f["load"] " " f["n"]
		if (f["verdict"] == "error") {
			printf "%4s %-16s   not measured: error\n", f["n"], f["load"]
			continue
		}
		other = f["other"] + f["follow_other"]
		full = f["full_readings"] == "" ? "-" : f["full"] + f["follow_full"]
		nfull = f["full_ge_d_h"] == "" ? "-" : f["full_ge_d_h"]
		flong = f["full_longest_us"] == "" ? "-" : ms(f["full_longest_us"])
		n = f["n"]; load = f["load"]; susp = f["suspicions"]; learnt = f["learned"]
		expel = f["expelled"]
		stalled = f["stalled"]; follow = f["follow_stalled"]; nstall = f["stalls_ge_d_h"]
		longest = f["stall_max_us"]; lost = f["unrecorded"] + f["overruns"]
		backlog = f["backlog_drops"]; gone = f["end_not_member"]; unpub = f["events_unpublished"]
		unread = f["rx_unread"]; sprobe = f["sent_probe"]; deferred = f["probes_deferred"]; held = f["asks_held"]
		kern = f["cpu_sys_pct"] == "" ? "-" : f["cpu_sys_pct"] + f["cpu_irq_pct"] + f["cpu_softirq_pct"]
		user = f["cpu_user_pct"] == "" ? "-" : f["cpu_user_pct"]
		idle = f["cpu_idle_pct"] == "" ? "-" : f["cpu_idle_pct"]
		sirq = secs(f["cpu_softirq_ms"]); kdrun = secs(f["ksoftirqd_run_ms"])
		kdwait = secs(f["ksoftirqd_wait_ms"])
		$0 = ql[key]; parse()
		printf "%4s %-16s %5ss %9s %9s %5s %6s %5s %5s %6s %5s %5s %6s %8s %6s %7s %6s %5s %5s %5s %7s %7s %8s%s\n", n, load, \
			f["window_s"] == "" ? "-" : f["window_s"], \
			f["p999"] == "" ? "-" : f["p999"], ms(f["max_us"]), susp, learnt, expel, \
			stalled, follow, full, other, nstall, ms(longest), nfull, flong, \
			f["stall_waits"] == "" ? "-" : f["stall_waits"], kern, user, idle, \
			sirq, kdrun, kdwait, \
			(lost ? "  (events lost " lost " times: suspicions may be missing)" : "") \
			(backlog ? "  (" backlog " datagrams dropped: input backlog full)" : "") \
			(gone ? "  (" gone " nodes no members at the end)" : "") \
			(unread ? "  (" unread " checks found input held unread)" : "") \
			(sprobe != "" ? "  (" sprobe " probe datagrams sent, " (deferred == "" ? 0 : deferred) " probes deferred, " (held == "" ? 0 : held) " requests to helpers held)" : "") \
			(unpub ? "  (" unpub " events not published)" : "")
	}
	print "   p99.9, max: heartbeat timer lateness, all nodes. susp: failure events of a"
	print "   node'"'"'s own (observed, restarted) or self-expulsions (quorum, deaf); learnt:"
	print "   by broadcast; expel: expulsion events, self-inflicted or told. Each suspicion is:"
	print "   stall, a stall of d-h or more measured within d before it by the stall probe"
	print "   (a real-time thread per vCPU waking every 1 ms); follow, within 3d of an"
	print "   earlier one that was a stall; full, not a stall, but the backlog probe (a"
	print "   real-time thread reading /proc/net/softnet_stat every 1 ms) saw a vCPU'"'"'s input"
	print "   backlog drop datagrams for d-h or more within d before it, or a follow-on of"
	print "   one (not excused: the backlog carries ftnl'"'"'s own datagrams); ftnl, anything"
	print "   else (none may be). stalls: probe stalls of d-h or more, longest: the longest"
	print "   of all; f>=d-h: backlog drop episodes of d-h or more, f-long: the longest."
	print "   waits: the local health"
	print "   rule'"'"'s (stats stall_waits). Input backlog: /proc/net/softnet_stat drops, shared"
	print "   by all nodes of this one-kernel cluster (net.core.netdev_max_backlog)."
	print "   kern%, user%, idle%: the guest'"'"'s CPU time over the run (/proc/stat, all"
	print "   CPUs): system + irq + softirq, user, idle; the rest is steal. sirq-s: softirq"
	print "   time, wherever it ran (tick-sampled); ksd-run, ksd-wait: the ksoftirqd threads'"'"'"
	print "   time on a CPU and runnable but waiting for one (schedstat), seconds, all CPUs."
}
function pattern_name(p) {
	if (p == "quiet") return "quiet"
	if (p == "jitter") return "jitter 0..5ms"
	if (p == "loss1") return "loss 1%"
	if (p == "loss5") return "loss 5%"
	if (p == "jitterloss") return "jitter 2ms, loss 1%"
	if (p == "spikes") return "spikes 0.1% to 25ms"
	return p
}
function per10k(k, beats) { return beats > 0 ? sprintf("%.1f", k * 1e4 / beats) : "-" }
function print_adapt(   i, timeout, prev, beats) {
	$0 = ad[1]; parse()
	print ""
	print "7. Fixed against adaptive timeouts, n=" f["n"] " h=" f["h_ms"] "ms d=d_max=" f["d_ms"] \
		"ms, idle guest, netem on every"
	print "   node'"'"'s link; beside each, the simulator'"'"'s one-link model of the same"
	print "   pattern and timeout (model, run in the guest by ftnl-bench on the module'"'"'s"
	print "   estimator). Timeouts per 10^4 heartbeats taken, over " f["window_s"] " s with nobody failing;"
	print "   detection: silence -> the observer'"'"'s failure event, ms."
	printf "%-19s %-9s %5s %-13s %9s  %-30s  %-17s\n", "", "", "", \
		"timeouts/10^4", "", "--------- detection, ms ------", "---- model, ms ---"
	printf "%-19s %-9s %5s %6s %6s %4s %4s %6s %6s %6s %10s  %5s %5s %5s\n", "pattern", \
		"timeout", "hb", "expired", "model", "decl", "late", "trials", "median", "max", \
		"calm", "p50", "p99", "mean"
	for (i = 1; i <= nad; i++) {
		$0 = ad[i]; parse()
		timeout = f["dmin_ms"] > 0 ? f["dmin_ms"] ".." f["d_ms"] "/" f["nines"] : f["d_ms"] " fixed"
		if (f["verdict"] == "nopattern" || f["verdict"] == "error" || f["hb"] == "") {
			printf "%-19s %-9s   not measured: %s\n", \
				pattern_name(f["pattern"]) == prev ? "" : pattern_name(f["pattern"]), \
				f["verdict"] == "nopattern" ? "" : timeout, \
				f["verdict"] == "nopattern" ? "netem refused the pattern" : f["verdict"]
			prev = pattern_name(f["pattern"])
			continue
		}
		if (f["model_beats"] > beats) beats = f["model_beats"]
		printf "%-19s %-9s %5s %6s %6s %4s %4s %6s %6s %6s %10s  %5.1f %5.1f %5.1f%s\n", \
			pattern_name(f["pattern"]) == prev ? "" : pattern_name(f["pattern"]), \
			timeout, f["hb"], per10k(f["refuted"] + f["declared"], f["hb"]), \
			per10k(f["model_fs"], f["model_beats"]), f["declared"], f["late"], \
			f["detected"] "/" f["trials"], \
			f["detected"] ? sprintf("%.1f", f["median_us"] / 1000) : "-", \
			f["detected"] ? sprintf("%.1f", f["max_us"] / 1000) : "-", \
			f["calm"] ? sprintf("%d: %.1f", f["calm"], f["calm_median_us"] / 1000) : "0", \
			f["model_p50_us"] / 1000, f["model_p99_us"] / 1000, \
			f["model_mean_us"] / 1000, \
			(f["trial_declared"] ? "  (" f["trial_declared"] " declared in trials)" : "") \
			(f["unsteady"] ? "  (" f["unsteady"] " retried)" : "") \
			(f["verdict"] == "ok" ? "" : "  (" f["verdict"] ")")
		prev = pattern_name(f["pattern"])
	}
	print "   timeout: d fixed, or d_min..d_max/nines (target 10^-nines per heartbeat)."
	print "   hb: heartbeats the observers took from their emitters in the window."
	print "   expired: timeouts that ran out on a live emitter (its answer to the probe"
	print "   refuted them, suspicions_refuted, or it was declared dead), per 10^4"
	print "   heartbeats; model: the model'"'"'s false suspicions (gaps longer than the"
	print "   timeout) per 10^4 heartbeats, " beats " simulated. declared: live"
	print "   nodes the module declared dead in the window (decl: the probes did not"
	print "   save them; the model has no probes). late: heartbeat timer expiries 8.2 ms"
	print "   late or more in the window, all nodes (the guest stalled). detection:"
	print "   silence (bridge port down, random phase) -> first failure event about the"
	print "   victim with cause observed, stamped by the kernel; calm: the trials in"
	print "   which the detecting node'"'"'s timers never ran 8.2 ms late, and their"
	print "   median. model: crash mid-period -> suspicion, no probe."
}
function mm(m, x) { return m == "" ? "-" : sprintf("%.0f/%.0f", m / 1000, x / 1000) }
function ratio(a, b) { return a == "" || b == "" || b == 0 ? "-" : sprintf("%.2f", a / b) }
function print_tipc(   i) {
	print ""
	print "6. TIPC beside ftnl, idle guest: both on the same nodes at once (TIPC bearer on"
	print "   the veth ftnl uses), the same victim silenced for both (its bridge port down);"
	print "   time from the silence to the first and to the last survivor that knows, each"
	print "   event read by one process on CLOCK_MONOTONIC; median/max over the trials in"
	print "   which every survivor knew, in ms. frames: background frames per node per"
	print "   second on the bridge ports (TIPC: ethertype 0x88ca; ftnl: IPv4 + ARP)."
	printf "%4s %6s %7s %6s %13s %11s %11s %11s %11s %15s %19s %6s\n", "", "TIPC", "ftnl", \
		"", "frames/node/s", "first", "", "last", "", "ftnl/TIPC", "false", "stall"
	printf "%4s %6s %7s %6s %6s %6s %11s %11s %11s %11s %7s %7s %4s %14s %6s\n", "n", \
		"tol", "h/d", "trials", "TIPC", "ftnl", "TIPC", "ftnl", "TIPC", "ftnl", \
		"last", "frames", "TIPC", "ftnl(s/f/o)", "max"
	for (i = 1; i <= ntp; i++) {
		$0 = tp[i]; parse()
		if (f["verdict"] == "nomesh") {
			printf "%4s %4sms %7s   not measured: TIPC never had its full mesh up (%d of %d links after 60 s, %d node-down events)\n", \
				f["n"], f["tol_ms"], f["h_ms"] "/" f["d_ms"], f["links_up"], \
				f["links"], f["tipc_false"]
			continue
		}
		if (f["verdict"] == "unsteady" && f["trials"] == 0) {
			printf "%4s %4sms %7s   not measured: the ftnl ring never got steady (5 tries; %d TIPC and %d ftnl false suspicions)\n", \
				f["n"], f["tol_ms"], f["h_ms"] "/" f["d_ms"], f["tipc_false"], \
				f["ftnl_false"]
			continue
		}
		if (f["verdict"] == "error" || f["trials"] == "" || f["trials"] == 0) {
			printf "%4s %4sms %7s   not measured: %s\n", f["n"], f["tol_ms"], \
				f["h_ms"] "/" f["d_ms"], f["verdict"]
			continue
		}
		printf "%4s %4sms %7s %6s %6.0f %6.0f %11s %11s %11s %11s %7s %7s %4s %14s %6s%s\n", \
			f["n"], f["tol_ms"], f["h_ms"] "/" f["d_ms"], f["trials"], \
			f["tipc_fps"], f["ftnl_fps"], \
			mm(f["tipc_first_median_us"], f["tipc_first_max_us"]), \
			mm(f["ftnl_first_median_us"], f["ftnl_first_max_us"]), \
			mm(f["tipc_last_median_us"], f["tipc_last_max_us"]), \
			mm(f["ftnl_last_median_us"], f["ftnl_last_max_us"]), \
			ratio(f["ftnl_last_median_us"], f["tipc_last_median_us"]), \
			ratio(f["ftnl_fps"], f["tipc_fps"]), f["tipc_false"], \
			f["ftnl_false"] "(" f["ftnl_false_stalled"] "/" f["ftnl_false_follow"] "/" \
			f["ftnl_false"] - f["ftnl_false_stalled"] - f["ftnl_false_follow"] ")", \
			f["stall_max_us"] == "" ? "-" : sprintf("%.0fms", f["stall_max_us"] / 1000), \
			(f["tipc_all"] == f["trials"] && f["ftnl_all"] == f["trials"] ? "" : \
			 sprintf("  (all knew: TIPC %d, ftnl %d of %d)", f["tipc_all"], \
				 f["ftnl_all"], f["trials"])) \
			(f["unsteady"] ? "  (" f["unsteady"] " retried)" : "") \
			(f["rate_tries"] > 1 ? "  (frames: " f["rate_tries"] " windows" \
			 (f["rate_disturbed"] ? ", " f["rate_disturbed"] " false in the kept one" : "") ")" : "") \
			(f["verdict"] == "ok" ? "" : "  (" f["verdict"] ": fewer trials)")
	}
	print "   last: ratio of the medians. false: live nodes reported down by live nodes,"
	print "   whole run (ftnl: by their observer; TIPC: a node-down event). ftnl (s/f/o):"
	print "   s: a stall of d-h or more measured within d before it by the stall probe (a"
	print "   real-time thread per vCPU waking every 1 ms; stall max: its longest gap);"
	print "   f: follow-on, within 3d of an earlier false suspicion; o: other causes."
	print "   ftnl times are read times, like TIPC'"'"'s; the kernel stamps ftnl'"'"'s events"
	print "   earlier (RESULT ftnl_stamp_last_*). retried: trials redone because a ring"
	print "   or mesh was not whole. frames: k windows: the frame count was taken again"
	print "   because false suspicions (a node declared dead or expelled sends and is"
	print "   sent less) disturbed the earlier windows; after 5, the least disturbed one"
	print "   is kept."
}
function live(name) { return sprintf("%.1f", f[name "_live_us"] / 1000) }
function print_hbtrace(   i, bhoff, bed) {
	print ""
	print "5b. Where the own node'"'"'s late heartbeats lost their time (own-CPU rows,"
	print "   BENCH_BLAT_TRACE=1; tools/bench/hbtrace.c says how): a trace of CPU 0"
	print "   cuts each heartbeat'"'"'s time, deadline to the end of its HI handler."
	print "   late: heartbeats 1 ms or more late. What may be the node'"'"'s own work,"
	print "   summed over them in ms, outside stalls: netrx (waiting inside the"
	print "   network receive softirq), sirq (another softirq), bh-off (a task, a"
	print "   kworker or ksoftirqd ran meanwhile), hb (the heartbeat'"'"'s handler);"
	print "   workmax: the most of it in one heartbeat; covered: late heartbeats with"
	print "   under 1 ms of it. What cannot be: irq (the timer'"'"'s interrupt came late),"
	print "   idle/rt (HI pending while the CPU idled or the probe ran), and stalls:"
	print "   the CPU took no interrupt, seen from timers 0.2 ms or more late (how"
	print "   many, tmax: the latest) and from gaps between timer interrupts, which"
	print "   a 0.5 ms ticker keeps coming (gapmax); stalled: their time in the"
	print "   window, with the timer interrupts'"'"' own. NET_RX: the receive"
	print "   softirq'"'"'s runs on CPU 0, their total time and the longest. lost:"
	print "   trace events the buffer lost."
	printf "%4s %5s %4s %6s %5s %7s %6s %6s %6s %6s %8s %6s %7s %6s %7s %8s %8s %8s %8s %8s %5s\n", \
		"n", "h", "B/s", "beats", "late", "covered", "netrx", "sirq", "bh-off", \
		"hb", "workmax", "irq", "idle/rt", "timers", "tmax", "gapmax", "stalled", \
		"NET_RX", "busy", "longest", "lost"
	for (i = 1; i <= nht; i++) {
		$0 = ht[i]; parse()
		if (f["verdict"] == "error") {
			printf "%4s %3sms %4s   not measured: error\n", f["n"], f["h_ms"], \
				f["bcast_rate"]
			continue
		}
		bhoff = (f["other_task_live_us"] + f["other_kworker_live_us"] + \
			f["other_ksoftirqd_live_us"]) / 1000
		bed = (f["other_idle_live_us"] + f["other_rt_live_us"]) / 1000
		printf "%4s %3sms %4s %6s %5s %7s %6s %6s %6.1f %6s %8s %6.1f %7.1f %6s %7s %8s %8s %8s %8s %8s %5s\n", \
			f["n"], f["h_ms"], f["bcast_rate"], f["beats"], f["late"], \
			f["covered"], live("netrx"), live("softirq"), bhoff, \
			live("handler"), ms(f["work_max_us"]), f["irq_us"] / 1000, bed, \
			f["late_timers"], ms(f["timer_late_max_us"]), ms(f["gap_max_us"]), \
			ms(f["stalled_us"]), f["netrx_runs"], ms(f["netrx_busy_us"]), \
			ms(f["netrx_run_max_us"]), f["trace_lost"]
	}
}
function print_bcastlat(   i, missed) {
	print ""
	print "5. Heartbeat emission lateness of the kernel ring while broadcasts run:"
	print "   nodes register processes and close them, B process-exit broadcasts per"
	print "   second over the cluster (default algorithm); lateness = deadline -> the"
	print "   heartbeat handed to the network (timer, ring lock, build); start: of it,"
	print "   the part before the timer'"'"'s handler ran (p99, max); lock: the wait for"
	print "   the ring'"'"'s lock (p99.9, max); rx budget: the kernel'"'"'s"
	print "   netdev_budget/netdev_budget_usecs (datagrams/us of one NET_RX run),"
	print "   /wW: dev_weight W (datagrams of one input backlog poll, default 64);"
	print "   T1 in: the softirq that sends heartbeats (timer: the soft hrtimer'"'"'s;"
	print "   HI: a HI tasklet a hard hrtimer schedules, module hb_hi_softirq=1)."
	print "   CPU: own, the node BENCH_BLAT_OWN_CPU alone on CPU 0, its own share"
	print "   of the broadcasts; shared, the other nodes together on CPU 1; all,"
	print "   every node on every CPU. stalls, stallmax: own rows, the stalls of"
	print "   2 ms or more a real-time thread on CPU 0 saw, and the longest."
	print "   Quantiles are histogram bucket upper bounds (powers of two in us);"
	print "   max is exact."
	printf "%4s %5s %6s %7s %14s %5s %6s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %6s %10s %10s %6s %8s\n", \
		"n", "h", "d", "B/s", "rx budget", "T1 in", "CPU", "emitted", "p50", "p99", "p99.9", \
		"max", "start99", "startmax", "lock99.9", "lockmax", "missed", "false", \
		"bcasts", "delivered", "stalls", "stallmax"
	for (i = 1; i <= nbl; i++) {
		$0 = bl[i]; parse()
		if (f["verdict"] == "error") {
			printf "%4s %4sms %4sms %7s %14s %5s %6s   not measured: error\n", f["n"], \
				f["h_ms"], f["d_ms"], f["bcast_rate"], f["rx_budget"], \
				f["hb_hi"] == 1 ? "HI" : "timer", f["cpu"] == "" ? "all" : f["cpu"]
			continue
		}
		missed = f["expected"] - f["fires"]
		if (missed < 0) missed = 0
		printf "%4s %4sms %4sms %7s %14s %5s %6s %9s %9s %9s %9s %9s %9s %9s %9s %9s %9s %6s %10s %10s %6s %8s\n", \
			f["n"], f["h_ms"], f["d_ms"], f["bcast_rate"], f["rx_budget"], \
			f["hb_hi"] == 1 ? "HI" : "timer", f["cpu"] == "" ? "all" : f["cpu"], f["fires"], \
			f["p50"], f["p99"], f["p999"], ms(f["max_us"]), \
			f["start_p99"] == "" ? "-" : f["start_p99"], \
			f["start_max_us"] == "" ? "-" : ms(f["start_max_us"]), \
			f["lock_p999"] == "" ? "-" : f["lock_p999"], \
			f["lock_max_us"] == "" ? "-" : f["lock_max_us"] "us", "~" missed, \
			f["suspicions"], f["bcast_originated"], f["bcast_delivered"], \
			f["cpu_stalls"] == "" ? "-" : f["cpu_stalls"], \
			f["cpu_stall_max_us"] == "" ? "-" : ms(f["cpu_stall_max_us"])
	}
	print "   bcasts: broadcasts started in the window; delivered: their deliveries"
	print "   summed over the nodes (each reaches n - 1 nodes); false: suspicions."
}
function print_detect(   i, h, d, paper) {
	print ""
	print "1. Detection latency of the kernel ring, idle guest: silence (bridge-side veth"
	print "   down) -> the observer'"'"'s failure event (mono_ns stamped when task T3 ran)."
	print "   paper: in (d-h, d+t], mean d-h/2 (sec. 4.2); Lemma 1: R(1) <= t + d."
	printf "%4s %5s %6s %6s %7s %7s %7s %7s %17s %5s %4s %5s %9s %9s\n", \
		"n", "h", "d", "trials", "min", "median", "p99", "max", \
		"paper, ms: mean", "early", "late", "false", "all know", "to app"
	for (i = 1; i <= nd; i++) {
		$0 = det[i]; parse()
		h = f["h_ms"]; d = f["d_ms"]
		paper = sprintf("(%g,%g+t] %g", d - h, d, d - h / 2)
		if (f["verdict"] == "error" || f["detected"] == "" || f["detected"] == 0) {
			printf "%4s %4sms %4sms %6s   not measured: %s\n", f["n"], h, d, \
				f["trials"] == "" ? "-" : f["trials"], \
				f["verdict"] == "unsteady" ? "the ring never got steady (infeasible here)" : f["verdict"]
			continue
		}
		printf "%4s %4sms %4sms %6s %7s %7s %7s %7s %17s %5s %4s %5s %9s %9s%s\n", \
			f["n"], h, d, f["detected"] "/" f["trials"], ms(f["min_us"]), \
			ms(f["median_us"]), ms(f["p99_us"]), ms(f["max_us"]), paper, \
			f["early"], f["late"], f["false"], \
			f["all_notified"] ? ms(f["all_median_us"]) : "-", \
			ms(f["delivery_median_us"]), \
			(f["unsteady"] ? "  (" f["unsteady"] " retried)" : "") \
			(f["verdict"] == "ok" ? "" : "  (" f["verdict"] ": fewer trials)")
	}
	print "   p99 of 20 trials is their maximum (nearest rank). early: detections at or"
	print "   before d-h, impossible in the model (the observer missed heartbeats before the"
	print "   silence); late: after d+h. false: live nodes declared dead by their observer"
	print "   during the configuration (cascades count every step). all know: median time"
	print "   until every survivor had the failure (broadcast), when the module broadcasts."
	print "   to app: median delay from the kernel stamping the event to the subscriber"
	print "   (this process, watching every node) reading it. retried: trials that never"
	print "   got steady (the victim'"'"'s observer suspected someone first), done again."
}
function print_lateness(   i, missed, key, kv, runs, stalls, stall_us, stall_max, order, nk) {
	print ""
	print "2./3. Heartbeat emission lateness (how late task T1 ran after its deadline),"
	print "   kernel ring (soft hrtimer) vs userspace ring (ftnl-uring: a process per node,"
	print "   timer thread on clock_nanosleep(TIMER_ABSTIME)), both running at once."
	print "   Quantiles are histogram bucket upper bounds (powers of two in us); max is exact."
	print "   load " load_desc ", nice 0."
	printf "%4s %5s %6s %-7s %-7s %9s %9s %9s %9s %9s %9s %6s %7s %6s\n", \
		"n", "h", "d", "ring", "load", "emitted", "p50", "p99", "p99.9", \
		"max", "missed", "false", "warm-up", "waits"
	for (i = 1; i <= nl; i++) {
		$0 = lat[i]; parse()
		if (f["verdict"] == "error") {
			printf "%4s %4sms %4sms %-7s %-7s   not measured: error\n", f["n"], \
				f["h_ms"], f["d_ms"], f["ring"], f["load"]
			continue
		}
		missed = f["expected"] - f["fires"]
		if (missed < 0) missed = 0
		printf "%4s %4sms %4sms %-7s %-7s %9s %9s %9s %9s %9s %9s %6s %7s %6s\n", \
			f["n"], f["h_ms"], f["d_ms"], f["ring"], f["load"], f["fires"], \
			f["p50"], f["p99"], f["p999"], ms(f["max_us"]), \
			(f["ring"] == "user" ? "" : "~") missed, f["suspicions"], \
			f["ring"] == "user" ? f["warmup_suspicions"] : "-", \
			((f["ring"] == "user" || f["stall_waits"] == "") ? "-" : f["stall_waits"])
	}
	print "   emitted: timer expiries over all nodes; missed: periods with no expiry"
	print "   (a late timer skips the periods it overran; ~: estimated from the window);"
	print "   false: suspicions (task T3) of live nodes in the window, nobody dies in"
	print "   this test; warm-up: the userspace ring'"'"'s suspicions while its processes"
	print "   started, before the window (the kernel ring has no such phase). waits:"
	print "   accusations the kernel ring put off because the accuser'"'"'s own timers ran"
	print "   more than h late (local health rule, stats stall_waits)."
	print_lateness_ratio()
	if (nh) {
		# One row per run: the loops of a run summed, their worst stall.
		for (i = 1; i <= nh; i++) {
			$0 = hog[i]; parse()
			key = f["h_ms"] " " f["load"]
			if (!(key in runs)) order[++nk] = key
			runs[key] = f["run_s"]
			stalls[key] += f["stalls"]
			stall_us[key] += f["stall_total_us"]
			if (f["stall_max_us"] + 0 > stall_max[key] + 0) stall_max[key] = f["stall_max_us"]
		}
		print ""
		print "   vCPU probe (the busy loops of the loaded runs): gaps >= 1 ms in their"
		print "   execution without a guest context switch = their virtual CPU stopped"
		print "   (host not running the vCPU thread, or long guest interrupt work); stall"
		print "   time: their sum over the run'"'"'s CPU time (" ncpu " vCPUs)."
		printf "%5s %-7s %8s %9s %9s %11s\n", "h", "load", "run", "stalls", "max", \
			"stall time"
		for (i = 1; i <= nk; i++) {
			key = order[i]; split(key, kv, " ")
			printf "%4sms %-7s %7ss %9s %9s %10s%%\n", kv[1], kv[2], runs[key], \
				stalls[key], ms(stall_max[key]), \
				sprintf("%.1f", runs[key] ? stall_us[key] / 1e4 / (runs[key] * ncpu) : 0)
		}
	}
}
# The bucket bound of a quantile ("<512us", "<16.4ms", "<1.05s", ">=1.05s") in us.
function bound_us(b,   v) {
	v = b; sub(/^[<>=]+/, "", v)
	if (v ~ /us$/) return v + 0
	if (v ~ /ms$/) return v * 1000
	if (v ~ /s$/) return v * 1000000
	return ""
}
# Kernel ring against userspace ring, the pairs of rows of one run.
function print_lateness_ratio(   i, key, kern, user, order, nk, kv, a, b) {
	for (i = 1; i <= nl; i++) {
		$0 = lat[i]; parse()
		if (f["verdict"] == "error") continue
		key = f["n"] " " f["h_ms"] " " f["d_ms"] " " f["load"]
		if (!((key, "seen") in kern)) { kern[key, "seen"] = 1; order[++nk] = key }
		if (f["ring"] == "kernel") { kern[key, "p"] = f["p999"]; kern[key, "m"] = f["max_us"] }
		if (f["ring"] == "user") { user[key, "p"] = f["p999"]; user[key, "m"] = f["max_us"] }
	}
	print ""
	print "   Kernel ring against userspace ring, same run: p99.9 lateness (bucket bounds,"
	print "   so the ratio is a power of two) and maximum, ratio kernel / user (< 1: the"
	print "   kernel ring was less late)."
	printf "%4s %5s %-7s %10s %10s %6s %9s %9s %6s\n", "n", "h", "load", "kern p99.9", \
		"user p99.9", "ratio", "kern max", "user max", "ratio"
	for (i = 1; i <= nk; i++) {
		key = order[i]; split(key, kv, " ")
		if (!((key, "p") in user) || !((key, "p") in kern)) continue
		a = kern[key, "p"]; b = user[key, "p"]
		printf "%4s %3sms %-7s %10s %10s %6s %9s %9s %6s\n", kv[1], kv[2], kv[4], a, b, \
			ratio(bound_us(a), bound_us(b)), ms(kern[key, "m"]), ms(user[key, "m"]), \
			ratio(kern[key, "m"], user[key, "m"])
	}
}
function print_bcast(   i, fcg_note) {
		$0 = bc[1]; parse()
		print ""
		print "4. Failure notification by broadcast, idle guest, h=" f["h_ms"] "ms d=" f["d_ms"] "ms:"
		print "   silence one node (bridge-side veth down); times to the LAST survivor'"'"'s"
		print "   failure event (mono_ns), from the silence and from the observer'"'"'s detection;"
		print "   datagrams of one notification = sum of the survivors'"'"' bcast sent counters."
		printf "%4s %-9s %6s %8s %17s %17s %15s %7s %7s %6s\n", "n", "algo", \
			"trials", "detect", "silence->all", "detection->all", \
			"datagrams", "model", "nlog2n", "dups"
		printf "%4s %-9s %6s %8s %8s %8s %8s %8s %6s %8s %7s %7s %6s\n", "", "", "", \
			"median", "median", "max", "median", "max", "median", "min-max", \
			"", "", "median"
		for (i = 1; i <= nb; i++) {
			$0 = bc[i]; parse()
			if (f["verdict"] == "error" || f["timed"] == "" || f["timed"] == 0) {
				printf "%4s %-9s %6s   not measured: %s\n", f["n"], f["algo"], \
					f["trials"] == "" ? "-" : f["trials"], f["verdict"]
				continue
			}
			printf "%4s %-9s %6s %8s %8s %8s %8s %8s %6s %8s %7s %7s %6s%s\n", \
				f["n"], f["algo"], f["timed"] "/" f["trials"], \
				ms(f["detect_us_median"]), ms(f["silence_us_median"]), \
				ms(f["silence_us_max"]), ms(f["bcast_us_median"]), \
				ms(f["bcast_us_max"]), \
				f["counted"] ? f["msgs_median"] : "-", \
				f["counted"] ? f["msgs_min"] "-" f["msgs_max"] : "-", \
				f["pred_msgs"] == "" ? "-" : sprintf("%.0f", f["pred_msgs"]), \
				sprintf("%.0f", f["nlogn"]), \
				f["counted"] ? f["dups_median"] : "-", \
				(f["missed"] + f["disturbed"] + f["unsettled"] + f["unclean"] + \
				 f["unsteady"] + f["false"] ? \
				 sprintf("  (missed %d, disturbed %d, unsettled %d, unclean %d, retried %d; false %d)", \
					 f["missed"], f["disturbed"], f["unsettled"], f["unclean"], \
					 f["unsteady"], f["false"]) : "") \
				(f["verdict"] == "ok" ? "" : "  (" f["verdict"] ": fewer trials)")
			if (f["algo"] == "fcg" && !fcg_note) fcg_note = "f=" f["fcg_f"]
		}
		print "   detect: observer'"'"'s failure event after the silence. silence->all, detection->all:"
		print "   until the last survivor'"'"'s event. datagrams: per notification (trials with one"
		print "   broadcast and no false suspicion). model: the same algorithm fault-free in the"
		print "   simulator'"'"'s LogP model on the module'"'"'s own overlay/gossip code: hypercube"
		print "   2(2^k(k-1)+1), k=floor(log2(n-1)); bmg sum of degrees - (n-2); fcg mean of 200"
		print "   runs (" fcg_note ", T the module'"'"'s default, one dead rank). dups: copies ignored."
		print "   In brackets: missed = detected but some survivor never learned it (2 s) with"
		print "   no false suspicion; disturbed = the same during false suspicions (stalls);"
		print "   unsettled = counters still moving after 3 s; unclean = more than one"
		print "   broadcast started; retried = ring never steady; false = live nodes declared"
		print "   dead by their observer. Only clean trials count in the datagram columns."
}' "$RESULTS"
