#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What `make demo` runs inside the VM: an 8-node ftnl cluster, one netns per
# node, configured with ftnl-cli; then a node is silenced, its observer
# detects it, the broadcast tells every survivor, and the ring closes.
# Last, a job of 14 processes (2 per surviving node, ftnl-launch --vcluster
# --module) agrees with libftnl's process groups: one rank is killed, one
# more node is silenced, and the survivors' agreements fail, acknowledge
# and shrink consistently (the approach of selftests/group_module.sh).
set -eu

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
N=8
VICTIM=8
OBSERVER=1	# node i + 1 observes node i, node 1 observes node $N

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
say "node $OBSERVER (the observer of node $VICTIM): ftnl-cli node list and stats"
ftnl-vcluster exec $OBSERVER ftnl-cli node list
ftnl-vcluster exec $OBSERVER ftnl-cli stats

# ---- processes: a job agreeing over the module's failure detection ----------
#
# 14 ranks of ftnl-group-worker (the group tests' workload), 2 on each of
# nodes 1..7, started by ftnl-launch --vcluster --module: every rank runs in
# its node's netns, registers with its node's kernel and learns failures only
# from it. Each rank agrees (ftnl_group_agree) on a 64-bit flag 8 times, one
# agreement every 100 ms, and logs each result. --stall makes rank 5 sleep
# before agreement 3 (and node 6's ranks before agreement 6), so the others
# are waiting for it there when it is killed: the demo is the same every
# time. Every wait is bounded; ftnl-launch SIGKILLs what is left after 120 s.
W=/opt/ftnl/selftests/ftnl-group-worker
CHECK=/opt/ftnl/selftests/group-check
D=/tmp/demo-job
JOB=42
RANKS=14
HOSTS=$((N - 1))
KILLED=5		# on node 3
SILENCED=6		# ranks 10 and 11

# wait_grep FILE ERE SECONDS: a line of FILE matches ERE (polls every 0.1 s)
wait_grep() {
	_n=$(($3 * 10))
	while [ $_n -gt 0 ]; do
		grep -Eq "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		_n=$((_n - 1))
	done
	return 1
}
# all_logged ERE SECONDS RANKS...: every rank's log has a line matching ERE
all_logged() {
	_e=$1 _s=$2
	shift 2
	for _r in "$@"; do
		wait_grep "$D/rank-$_r.log" "$_e" "$_s" || return 1
	done
}
job_failed() {
	echo "demo: $* (the job's logs are in $D)"
	tail -n 5 /tmp/demo-launch.out "$D"/rank-*.log 2>/dev/null || true
	kill $LAUNCH 2>/dev/null || true
	wait $LAUNCH 2>/dev/null || true
	ftnl-vcluster down
	exit 1
}
pid_of() { awk -v r="$1" '$1 == r { print $2 }' "$D/pids"; }
node_of() { echo $(($1 * HOSTS / RANKS + 1)); }
# result RANK I: agreement I's result in RANK's log, then the ack and the
# view that follow it (if any), on one line
result() {
	awk -v i="$2" '
		$1 == "agree" && $3 == i { s = "agreement " i " (view " $2 "): " $4 " " $5; f = 1; next }
		f && $1 == "ack" { sub(/^ack acked=/, ""); s = s ", acked " $0; next }
		f && $1 == "view" { s = s ", new view " $2 " {" $3 "}"; exit }
		f && $1 == "agree" { exit }
		END { print s }' "$D/rank-$1.log"
}
survivors() {
	_r=0
	while [ $_r -lt $RANKS ]; do
		case " $* " in *" $_r "*) ;; *) printf '%s ' $_r ;; esac
		_r=$((_r + 1))
	done
}

say "a job of $RANKS processes, 2 on each of nodes 1..$HOSTS, the module their only failure detector"
echo "$ ftnl-launch -n $RANKS --hosts $HOSTS --vcluster --module --job $JOB --timeout 120 -- ftnl-group-worker -a 8"
mon=""
for i in 1 7; do
	ftnl-vcluster exec $i ftnl-cli monitor >/tmp/demo-job-events.$i 2>&1 &
	mon="$mon $!"
done
ftnl-launch -n $RANKS --hosts $HOSTS --vcluster --module --job $JOB --port 9300 \
	--dir $D --timeout 120 --quiet -- $W -a 8 --pause 100000 \
	--stall $KILLED:3:60000 --stall 10:6:60000 --stall 11:6:60000 \
	>/tmp/demo-launch.out 2>&1 &
LAUNCH=$!
if ! wait_grep "$D/rank-$KILLED.log" '^stall 3 ' 60 || [ ! -s "$D/pids" ]; then
	job_failed "the ranks did not start"
fi

say "node 3: ftnl-cli proc list (its 2 ranks, registered with its kernel)"
ftnl-vcluster exec 3 ftnl-cli proc list
say "the first agreements: the same view, rc and flag at every rank"
for i in 0 1 2; do
	line=$(result 0 $i)
	same=0
	for r in $(survivors); do
		if [ "$(result "$r" $i)" = "$line" ]; then
			same=$((same + 1))
		fi
	done
	echo "$line   ($same of $RANKS ranks)"
done

say "kill -9 rank $KILLED (node 3) while the other ranks wait for it in agreement 3"
kill -9 "$(pid_of $KILLED)"
# shellcheck disable=SC2046
all_logged '^view ' 30 $(survivors $KILLED) || job_failed "agreement 3 did not end"
echo "node 3's kernel broadcasts the exit; 'ftnl-cli monitor' on nodes 1 and 7:"
for i in 1 7; do
	printf 'node %s: ' $i
	grep -m1 proc_exit /tmp/demo-job-events.$i || echo "(no event)"
done
say "each survivor: agreement 3 fails with FTNL_EPROCFAILED (-130), ack, shrink"
for r in $(survivors $KILLED); do
	printf 'rank %2d (node %s): %s\n' "$r" "$(node_of "$r")" "$(result "$r" 3)"
done

say "node $SILENCED (ranks 10, 11) goes silent while the others wait for them in agreement 6"
# shellcheck disable=SC2046
all_logged '^stall 6 ' 30 10 11 || job_failed "ranks 10 and 11 did not reach agreement 6"
/sbin/ip link set vc$SILENCED down
# shellcheck disable=SC2046
all_logged '^done ' 30 $(survivors $KILLED 10 11) || job_failed "the survivors did not finish"
for r in 10 11; do	# alive, but declared dead with their node: fence them
	kill -9 "$(pid_of $r)" 2>/dev/null || true
done
wait $LAUNCH || job_failed "ftnl-launch failed"
echo "its observer (node 7) declares it dead and broadcasts it; 'ftnl-cli monitor' on nodes 1 and 7:"
for i in 1 7; do
	printf 'node %s: ' $i
	grep -m1 "failure node $SILENCED" /tmp/demo-job-events.$i || echo "(no event)"
done
say "each survivor: agreement 6 fails with FTNL_EPROCFAILED, ack, shrink"
for r in $(survivors $KILLED 10 11); do
	printf 'rank %2d (node %s): %s\n' "$r" "$(node_of "$r")" "$(result "$r" 6)"
done
say "the end: the last agreement and view, the same at every survivor"
for r in $(survivors $KILLED 10 11); do
	awk '$1 == "view" { v = "view " $2 " {" $3 "}" }
	     $1 == "agree" && $3 == 8 { a = "agreement 8: " $4 " " $5 }
	     END { print v ", " a }' "$D/rank-$r.log"
done | sort | uniq -c | sed 's/^ *\([0-9]*\) /\1 ranks: final /'
if "$CHECK" -n $RANKS -a 8 -d "$KILLED 10 11" $D >/tmp/demo-check.out 2>&1; then
	echo "group-check: every survivor agreed on every rc, flag and view"
else
	cat /tmp/demo-check.out
fi
# shellcheck disable=SC2086
kill $mon 2>/dev/null || true
wait 2>/dev/null || true
ftnl-vcluster down
