#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# example-solver: the fault-tolerant Jacobi solver (examples/solver.c)
# under ftnl-launch, 6 ranks on this host (loopback TCP, the launcher's
# failure directory as detector). TAP.
#
#  - failure-free: every rank finishes, all print the same result and the
#    view of 6;
#  - rank 3 SIGKILLed in the middle (iteration 3000), then the root
#    (rank 0) alone, then two ranks (1 and 4) in successive iterations:
#    the survivors finish, print the result of the failure-free run (the
#    solver recovers from the last agreed iterate: bitwise the same
#    numbers), agree on the final view, and its new rank 0 prints "final";
#  - rank 2 killed from outside (kill -9 on its pid) while it runs: the
#    survivors finish and agree on the view and the result;
#  - with 2 spares (ranks 6 and 7, --spares 2): ranks 1 and 4 killed, the
#    survivors grow back to 6 with the spares (ftnl_group_grow, the
#    spares in ftnl_group_join), and all 6 print the failure-free result;
#  - --respawn: rank 3 killed, restarted by the launcher as incarnation 2,
#    rejoins under rank 3 (the survivors grow), all 6 print the
#    failure-free result in a view of ranks 0..5.
#
# Installed as build/tests/example-solver by examples/Makefile; finds
# build/examples/ftnl-solver and build/bin/ftnl-launch (or
# tools/launch/ftnl-launch) from its own location.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${BUILD:-$(cd "$HERE/.." && pwd)}
SOLVER=$BUILD/examples/ftnl-solver
LAUNCH=
for l in "$BUILD/bin/ftnl-launch" "$BUILD/../tools/launch/ftnl-launch" \
	"$HERE/../tools/launch/ftnl-launch"; do
	[ -x "$l" ] && { LAUNCH=$l; break; }
done

echo "TAP version 13"
if [ ! -x "$SOLVER" ]; then
	echo "Bail out! $SOLVER missing (make -C examples)"
	exit 1
fi
if [ -z "$LAUNCH" ]; then
	echo "Bail out! ftnl-launch not found (make guest-scripts)"
	exit 1
fi

WORK=$(mktemp -d /tmp/ftnl-example-solver.XXXXXX) || exit 1
trap 'rm -rf "$WORK"' EXIT
N=6
echo "1..9"

t=0
nfailed=0
ok() {
	t=$((t + 1))
	echo "ok $t - $1"
}
not_ok() {
	t=$((t + 1))
	nfailed=$((nfailed + 1))
	echo "not ok $t - $1"
	shift
	for line in "$@"; do
		echo "# $line"
	done
}

# run NAME [SOLVER ARGS...]: launch the solver on $N ranks in $WORK/NAME
# ($LAUNCH_ARGS: more launcher options).
run() {
	local name=$1 dir=$WORK/$1
	shift
	mkdir -p "$dir"
	# shellcheck disable=SC2086
	"$LAUNCH" -n $N ${LAUNCH_ARGS:-} --dir "$dir" --timeout 120 -- \
		"$SOLVER" --state "$dir/state" "$@" >"$dir/launch.out" 2>&1
}

# The lines every survivor prints, and who printed "final".
lines() { grep -h "^$2" "$WORK/$1"/rank-*.log | sort -u; }
count() { grep -l "^$2" "$WORK/$1"/rank-*.log 2>/dev/null | wc -l; }
finals() { grep -l '^final:' "$WORK/$1"/rank-*.log 2>/dev/null |
	sed 's/.*rank-\([0-9]*\)\.log/\1/' | paste -sd, -; }
failed() { ls "$WORK/$1/failed" 2>/dev/null | sort -n | paste -sd, -; }

# check NAME STATUS SURVIVORS VIEW_MEMBERS FAILED [REFERENCE_RESULT]
check() {
	local name=$1 status=$2 want=$3 members=$4 dead=$5 ref=${6:-}
	local res view nres nview fin why=()

	res=$(lines "$name" result)
	view=$(lines "$name" view)
	nres=$(count "$name" result)
	nview=$(count "$name" view)
	fin=$(finals "$name")
	[ "$status" -eq 0 ] || why+=("launcher exit status $status")
	[ "$nres" -eq "$want" ] || why+=("$nres ranks printed a result, expected $want")
	[ "$(wc -l <<<"$res")" -eq 1 ] || why+=("results differ: $(paste -sd'|' <<<"$res")")
	[ "$nview" -eq "$want" ] || why+=("$nview ranks printed a view, expected $want")
	[[ $view == "view "*" members=$members" ]] && [ "$(wc -l <<<"$view")" -eq 1 ] ||
		why+=("views: $(paste -sd'|' <<<"$view"), expected members=$members")
	[ "$fin" = "${members%%,*}" ] || why+=("'final' printed by rank(s) '$fin', expected ${members%%,*}")
	[ "$(failed "$name")" = "$dead" ] || why+=("failed ranks '$(failed "$name")', expected '$dead'")
	[ -z "$ref" ] || [ "$res" = "$ref" ] ||
		why+=("result '$res' differs from the failure-free '$ref'")
	if [ ${#why[@]} -eq 0 ]; then
		ok "$name: $want survivors, $view; $res"
	else
		not_ok "$name" "${why[@]}" "logs: $(tail -n 3 "$WORK/$name"/rank-*.log | tr '\n' ' ' | cut -c1-600)"
	fi
}

run failure-free
check failure-free $? $N 0,1,2,3,4,5 ""
REF=$(lines failure-free result)

run kill-3 --crash 3:3000
check kill-3 $? 5 0,1,2,4,5 3 "$REF"

run kill-root --crash 0:2000
check kill-root $? 5 1,2,3,4,5 0 "$REF"

run kill-1-and-4 --crash 1:1500 --crash 4:1501
check kill-1-and-4 $? 4 0,2,3,5 1,4 "$REF"

# The view went through as many shrinks as failures were seen apart:
# kill-3's survivors are in view 1.
if grep -q '^view id=1 ' "$WORK/kill-3/rank-0.log" 2>/dev/null; then
	ok "kill-3: one shrink, view id 1"
else
	not_ok "kill-3: one shrink, view id 1" \
		"$(grep -h '^view' "$WORK/kill-3/rank-0.log" 2>/dev/null)"
fi

# Two ranks lost, two spares in: back at full size, the same result.
LAUNCH_ARGS="--spares 2" run spares --crash 1:1500 --crash 4:1501
check spares $? 6 0,2,3,5,6,7 1,4 "$REF"

# A killed rank restarted by the launcher rejoins under its rank.
LAUNCH_ARGS="--respawn" run respawn --crash 3:1500
check respawn $? 6 0,1,2,3,4,5 3 "$REF"
if [ -s "$WORK/respawn/rank-3.2.log" ] &&
	grep -q '^rank 3: new view .*: 6 members' "$WORK/respawn/rank-3.2.log"; then
	ok "respawn: incarnation 2 of rank 3 joined a view of 6"
else
	not_ok "respawn: incarnation 2 of rank 3 joined a view of 6" \
		"$(tail -n 5 "$WORK/respawn/rank-3.2.log" 2>/dev/null)"
fi

# From outside: a larger problem (N = 90 points, several seconds), rank 2
# killed with kill -9 once it has logged iteration 2000.
dir=$WORK/external
mkdir -p "$dir"
"$LAUNCH" -n $N --dir "$dir" --timeout 120 -- \
	"$SOLVER" --state "$dir/state" -N 90 >"$dir/launch.out" 2>&1 &
lpid=$!
victim=
for ((i = 0; i < 600; i++)); do
	if grep -q 'iteration 2000$' "$dir/rank-2.log" 2>/dev/null; then
		victim=$(sed -n 's/^rank 2: pid \([0-9]*\),.*/\1/p' "$dir/rank-2.log")
		break
	fi
	kill -0 $lpid 2>/dev/null || break
	sleep 0.1
done
[ -n "$victim" ] && kill -KILL "$victim"
wait $lpid
status=$?
if [ -z "$victim" ]; then
	not_ok "external: rank 2 never reached iteration 2000" \
		"$(tail -n 3 "$dir"/rank-2.log 2>/dev/null)"
elif grep -q '^result' "$dir/rank-2.log"; then
	not_ok "external: rank 2 finished before it was killed"
else
	check external $status 5 0,1,3,4,5 2
fi
[ $nfailed -eq 0 ]
