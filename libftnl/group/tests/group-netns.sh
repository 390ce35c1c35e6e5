#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# group-netns: the group across network namespaces (ftnl-launch --netns:
# one namespace per host, veth pairs to a bridge in a hub namespace), 4
# hosts of 4 ranks. First failure-free; then every rank of one host is
# killed at once (kill -9 of its 4 processes in one command) while the
# group agrees: host h1, and host h0 (with rank 0, the first root), with
# the flat binary tree and the hierarchical one (one representative per
# host). The survivors must agree on every flag and shrink to exactly the
# 12 survivors (group-check: Documentation/ftnl-launch.rst). Each run with
# every engine (ERA, validate-all strict and loose; the tree shapes are
# ERA's).
. "$(dirname "$0")/../group-tests/group-lib.sh"
gt_require

A=24
N=16
HOSTS=4
TRIGGER_WAIT=30	# see group-kill: only a hung group reaches it

if [ "$(id -u)" -ne 0 ] || ! ip netns list >/dev/null 2>&1; then
	skip "group across network namespaces" "needs root and ip netns"
	tap_end
	exit 0
fi

# NAME HOST-TO-KILL(-: none) TRIGGER WORKER-OPTIONS
runs=(
	"nofail - 0 --pause 2000"
	"kill-h1 1 5 --pause 10000"
	"kill-h0-hier 0 7 --topo hier --inter binary --intra binary --pause 10000"
	"kill-h2-iagree 2 9 --iagree 4 --thread --pause 5000 -s 8"
)
for engine in $ENGINES; do
for spec in "${runs[@]}"; do
	read -r name host trig wopts <<<"$spec"
	name=$engine-$name
	wopts="--engine $engine $wopts"
	t0=$SECONDS
	# The host's ranks (ftnl-launch: rank r on host r * HOSTS / N) all
	# stall before agreement $trig (see group-kill), and die together.
	dead=
	stalls=
	if [ "$host" != - ]; then
		for ((r = 0; r < N; r++)); do
			[ $((r * HOSTS / N)) -ne "$host" ] && continue
			dead="$dead$r "
			stalls="$stalls --stall $r:$trig:5000"
		done
	fi
	# shellcheck disable=SC2086
	launch "$name" $N --netns --hosts $HOSTS -- -a $A $wopts $stalls
	if [ "$host" != - ]; then
		wait_file "$RUN_DIR/pids" 10 || diag "$name: no pids file after 10 s"
		[ "$dead" = "$(ranks_of_host "$RUN_DIR" "$host")" ] ||
			diag "$name: host h$host has ranks $(ranks_of_host "$RUN_DIR" "$host"), not $dead"
		for r in $dead; do
			wait_line "$RUN_DIR/rank-$r.log" "^stall $trig " $TRIGGER_WAIT ||
				diag "$name: rank $r never reached agreement $trig"
		done
		pids=$(for r in $dead; do pid_of "$RUN_DIR" "$r"; done)
		# shellcheck disable=SC2086
		kill -9 $pids
		desc="$name: $N ranks on $HOSTS netns hosts, host h$host (${dead% }) killed at once in agreement $trig ($wopts)"
	else
		desc="$name: $N ranks on $HOSTS netns hosts, no failure ($wopts)"
	fi
	finish "$desc" $N $A "${dead% }" "$([ "$engine" = strict ] && echo -U)"
	diag "$name: $((SECONDS - t0)) s"
done
done
tap_end
