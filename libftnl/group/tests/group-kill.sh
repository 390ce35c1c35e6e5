#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# group-kill: kill -9 of 1 to 3 ranks while the group agrees, on 127.0.0.1.
# Each seed of a fixed list draws the size, the victims (rank 0, the first
# root, in every third run), the agreement after which each victim is
# killed, and the worker's mode (blocking agree or iagree, progress thread,
# tree shape, pacing, periodic shrinks). The launcher's failure directory
# (the oracle) is the only failure detector. Every survivor must complete
# every agreement with the same rc and flag as every other survivor, and
# every survivor's last view must be exactly the survivors
# (group-check: Documentation/ftnl-launch.rst). Every seed with each
# engine: ERA, validate-all strict and loose (the tree shapes are ERA's).
#
# Each victim stalls (worker --stall, 5 s) before joining its trigger
# agreement; the test kills it as soon as its log says so, within tens of
# ms: the others are then blocked inside that agreement (and, with iagree,
# the victim has agreements in flight, driven by its progress thread in
# some runs), waiting for a contribution that never comes. The 5 s only
# bound the test's reaction time: a shell driver watching logs cannot kill
# a process between two agreements of 100 us, and a victim killed after
# the final shrink would make a correct run fail. Triggers are at most
# A - K - 3, so the final shrink comes after every death.
. "$(dirname "$0")/../group-tests/group-lib.sh"
gt_require

A=24
SEEDS=${FTNL_GROUP_SEEDS:-1 2 3 4 5 6 7 8 9 10}
sizes=(4 6 8 12 16)
topos=(binary star string)
# Longest wait for a victim to reach its trigger: a run takes seconds; this
# is only reached if the group hangs, and the run then fails anyway.
TRIGGER_WAIT=30

for engine in $ENGINES; do
for seed in $SEEDS; do
	RANDOM=$seed
	n=${sizes[seed % 5]}
	k=$((1 + seed % 3))
	wopts=(-a "$A" --engine "$engine" --topo "${topos[seed % 3]}")
	inflight=1
	case $((seed % 4)) in
	1) wopts+=(--thread) ;;
	2) wopts+=(--iagree 3); inflight=3 ;;
	3) wopts+=(--iagree 2 --thread); inflight=2 ;;
	esac
	if [ $((seed % 2)) -eq 0 ]; then
		wopts+=(--pause 20000 -s 6)
	else
		wopts+=(--pause 2000)
	fi
	# victims, and the agreement index after which each dies
	victims=()
	[ $((seed % 3)) -ne 0 ] || victims=(0)
	while [ ${#victims[@]} -lt $k ]; do
		v=$((RANDOM % n))
		case " ${victims[*]} " in *" $v "*) continue ;; esac
		victims+=("$v")
	done
	declare -A trig=()
	for v in "${victims[@]}"; do
		trig[$v]=$((1 + RANDOM % (A - inflight - 3)))
		wopts+=(--stall "$v:${trig[$v]}:5000")
	done
	# kill order: by trigger
	order=$(for v in "${victims[@]}"; do echo "${trig[$v]} $v"; done | sort -n | awk '{ print $2 }')
	desc="$engine seed $seed: $n ranks, kill -9 of rank@agreement $(for v in $order; do printf '%s@%s ' "$v" "${trig[$v]}"; done)(${wopts[*]})"

	t0=$SECONDS
	launch "$engine-seed$seed" "$n" -- "${wopts[@]}"
	if ! wait_file "$RUN_DIR/pids" 10; then
		diag "seed $seed: no pids file after 10 s"
	fi
	for v in $order; do
		wait_line "$RUN_DIR/rank-$v.log" "^stall ${trig[$v]} " $TRIGGER_WAIT ||
			diag "seed $seed: rank $v never reached agreement ${trig[$v]}"
		p=$(pid_of "$RUN_DIR" "$v")
		[ -n "$p" ] && kill -9 "$p"
	done
	# validate-all strict is uniform: the victims' results count too
	finish "$desc" "$n" $A "${victims[*]}" "$([ "$engine" = strict ] && echo -U)"
	diag "$engine seed $seed: $((SECONDS - t0)) s"
	unset trig
done
done
tap_end
