#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# group-loopback: agreements among real processes on 127.0.0.1, no
# failure. n = 2, 5, 16 and 64 ranks (64 processes on the 2-core build
# machines: they only progress if nobody busy-polls), with the blocking
# agree, iagree with several agreements in flight, the progress thread and
# each tree shape. Every rank must report, for every agreement, rc 0 and
# exactly the AND of every rank's contribution, and the same final view
# (group-check: Documentation/ftnl-launch.rst). Every run with ERA; with
# validate-all (strict, loose) the runs marked "all" (its tree is its
# own: the shapes are ERA's).
. "$(dirname "$0")/../group-tests/group-lib.sh"
gt_require

A=20
# NAME ENGINES N WORKER-OPTIONS
runs=(
	"n2 all 2 "
	"n5-star era 5 --topo star"
	"n5-string-iagree all 5 --topo string --iagree 4"
	"n16 era 16 "
	"n16-thread-iagree all 16 --thread --iagree 8"
	"n16-hier era 16 --topo hier --inter binary --intra star"
	"n64 all 64 "
	"n64-iagree era 64 --iagree 4 --no-rebalance"
)
for engine in $ENGINES; do
	for spec in "${runs[@]}"; do
		read -r name which n wopts <<<"$spec"
		[ "$engine" = era ] || [ "$which" = all ] || continue
		name=$engine-$name
		wopts="--engine $engine $wopts"
		t0=$SECONDS
		# shellcheck disable=SC2086
		launch "$name" "$n" --hosts $(( n >= 4 ? 4 : 1 )) -- -a $A $wopts
		finish "$name: $n ranks, $A + 1 agreements, every rank the same flags, the exact AND ($wopts)" "$n" $A
		diag "$name: $((SECONDS - t0)) s; $(cat "$RUN_DIR/cpu" 2>/dev/null)"
	done
done

# No busy-polling: 64 ranks wait inside agreement 10 for rank 37, which
# sleeps 3 s first; their CPU use is sampled over 2 s of that wait. With
# the library's own epoll loop, then with its progress thread (the ranks
# wait in ftnl_group_req_wait while the thread runs); validate-all strict
# with the library's loop.
STALL_WAIT=30	# reaching agreement 10 takes about a second; only a hang reaches 30 s
for mode in "agree" "thread-iagree --thread --iagree 2" "strict-agree --engine strict"; do
	read -r name wopts <<<"$mode"
	engine=era
	[[ $wopts =~ --engine\ ([a-z]+) ]] && engine=${BASH_REMATCH[1]}
	case " $ENGINES " in *" $engine "*) ;; *) continue ;; esac
	# shellcheck disable=SC2086
	launch "idle-$name" 64 -- -a $A --stall 37:10:3000 $wopts
	if wait_line "$RUN_DIR/rank-37.log" "^stall " $STALL_WAIT && wait_file "$RUN_DIR/pids" 5; then
		idle_check "idle-$name: 63 ranks blocked in an agreement use no CPU ($wopts)" "$RUN_DIR" 37 2
	else
		not_ok "idle-$name: rank 37 reached its stall"
	fi
	finish "idle-$name: 64 ranks, a 3 s stall, then the same flags everywhere ($wopts)" 64 $A
done
tap_end
