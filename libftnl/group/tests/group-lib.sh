# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# group-lib.sh: sourced (by bash) by the group system tests in build/tests
# (group-loopback, group-kill, group-netns). TAP output, the programs, and
# the waits of a test driver. Documentation/ftnl-launch.rst.

GT_TESTS=$(cd "$(dirname "${BASH_SOURCE[1]:-$0}")" && pwd)
GT_DIR=$(cd "$GT_TESTS/../group-tests" 2>/dev/null && pwd)
LAUNCH=$GT_DIR/ftnl-launch
WORKER=$GT_DIR/ftnl-group-worker
CHECK=$GT_DIR/group-check

gt_n=0
gt_failed=0

# The consensus engines every test runs with (worker --engine):
# ERA, validate-all strict, validate-all loose.
# shellcheck disable=SC2034 # read by the scripts that source this file
ENGINES=${FTNL_GROUP_ENGINES:-era strict loose}

diag() { printf '# %s\n' "$*"; }
ok() { gt_n=$((gt_n + 1)); printf 'ok %d - %s\n' "$gt_n" "$*"; }
not_ok() {
	gt_n=$((gt_n + 1))
	gt_failed=$((gt_failed + 1))
	printf 'not ok %d - %s\n' "$gt_n" "$*"
}
skip() { gt_n=$((gt_n + 1)); printf 'ok %d - %s # SKIP %s\n' "$gt_n" "$1" "$2"; }

# The plan at the end (TAP allows it); exit status 1 if anything failed.
tap_end() {
	printf '1..%d\n' "$gt_n"
	[ "$gt_failed" -eq 0 ]
}

GT_TMP=$(mktemp -d /tmp/ftnl-group-test.XXXXXX) || exit 1
GT_KEEP=${FTNL_GROUP_TEST_KEEP:-0}
GT_BG=()
gt_cleanup() {
	local p
	for p in "${GT_BG[@]}"; do
		kill "$p" 2>/dev/null
	done
	if [ "$GT_KEEP" = 1 ] || [ "$gt_failed" -gt 0 ]; then
		echo "# logs kept in $GT_TMP" >&2
	else
		rm -rf "$GT_TMP"
	fi
}
trap gt_cleanup EXIT

# gt_require: the programs are built; else one "not ok" and exit.
gt_require() {
	local f
	for f in "$LAUNCH" "$WORKER" "$CHECK"; do
		if [ ! -x "$f" ]; then
			not_ok "$f is built (make -C libftnl/group/tests)"
			tap_end
			exit 1
		fi
	done
}

# wait_line FILE ERE SECONDS: block until a line of FILE matches ERE (the
# file may not exist yet); 1 after SECONDS. tail -F sleeps in inotify.
wait_line() {
	local file=$1 re=$2 secs=$3 tp rc
	exec {gt_fd}< <(exec timeout "$secs" tail -n +1 -F "$file" 2>/dev/null)
	tp=$!
	grep -E -m1 -q -e "$re" <&$gt_fd
	rc=$?
	exec {gt_fd}<&-
	kill "$tp" 2>/dev/null
	return $rc
}

# wait_file FILE SECONDS: FILE exists (bounded wait: 50 ms steps, for the
# pids file the launcher writes once every rank has started, well before
# anyone can have finished an agreement).
wait_file() {
	local n=$(($2 * 20))
	while [ ! -e "$1" ] && [ $n -gt 0 ]; do
		sleep 0.05
		n=$((n - 1))
	done
	[ -e "$1" ]
}

# pid_of DIR RANK
pid_of() { awk -v r="$2" '$1 == r { print $2 }' "$1/pids"; }

# ranks_of_host DIR HOST: the ranks on host hH, space separated
ranks_of_host() { awk -v h="h$2" '$3 == h { printf "%s ", $1 }' "$1/pids"; }

# show_failure DIR: the end of the logs of a failed run, as diagnostics
show_failure() {
	local f
	sed 's/^/#   launcher: /' "$1/launch.out" 2>/dev/null | tail -n 20
	for f in "$1"/rank-*.log; do
		[ -f "$f" ] || continue
		if grep -q -E '^error' "$f" || ! grep -q '^done' "$f"; then
			tail -n 4 "$f" | sed "s|^|#   $(basename "$f"): |"
		fi
	done | head -n 60
}

# Longest one run may take: a run takes 1 to 5 s on the 2-core build
# machines; only a hang (a survivor that never decides) reaches this, and
# the launcher then SIGKILLs every rank, so the test goes on and fails.
RUN_TIMEOUT=${FTNL_GROUP_RUN_TIMEOUT:-60}

# launch NAME N [LAUNCHER OPTIONS] -- [WORKER OPTIONS]: start a run in the
# background. Sets RUN_DIR (the launcher's --dir) and RUN_PID.
launch() {
	local name=$1 n=$2 lopts=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		lopts+=("$1")
		shift
	done
	shift
	RUN_DIR=$GT_TMP/$name
	mkdir -p "$RUN_DIR"
	"$LAUNCH" -n "$n" --dir "$RUN_DIR" --timeout "$RUN_TIMEOUT" "${lopts[@]}" \
		-- "$WORKER" "$@" >"$RUN_DIR/launch.out" 2>&1 &
	RUN_PID=$!
	GT_BG+=("$RUN_PID")
}

# finish DESC N A [DEAD [CHECK-OPTIONS]]: wait for the run launch started;
# one result: the launcher exited 0 (every rank not killed exited 0) and
# group-check holds for ranks DEAD killed.
finish() {
	local desc=$1 n=$2 a=$3 dead=${4:-} copts=${5:-} st
	wait "$RUN_PID"
	st=$?
	if [ $st -eq 0 ] &&
		"$CHECK" -n "$n" -a "$a" -d "$dead" $copts "$RUN_DIR" >"$RUN_DIR/check.out" 2>&1; then
		ok "$desc"
		cat "$RUN_DIR/check.out"
	else
		not_ok "$desc"
		[ $st -eq 0 ] || diag "ftnl-launch exited $st (124: timeout after $RUN_TIMEOUT s)"
		"$CHECK" -n "$n" -a "$a" -d "$dead" $copts "$RUN_DIR" 2>&1 | head -n 25
		show_failure "$RUN_DIR"
	fi
}

# cpu_ticks DIR EXCEPT: the CPU time (user + system, all threads, in clock
# ticks) the ranks of DIR but rank EXCEPT have used so far, and how many of
# them are runnable (state R), as "TICKS RUNNABLE".
cpu_ticks() {
	local dir=$1 except=$2 r p line ticks=0 run=0 st
	while read -r r p _; do
		[ "$r" = "$except" ] && continue
		line=$(cat "/proc/$p/stat" 2>/dev/null) || continue
		# fields after "(comm)": 3 state ... 14 utime 15 stime
		read -r -a st <<<"${line##*) }"
		ticks=$((ticks + st[11] + st[12]))
		[ "${st[0]}" != R ] || run=$((run + 1))
	done <"$dir/pids"
	echo "$ticks $run"
}

# idle_check DESC DIR STALLER WINDOW: one result. Rank STALLER sleeps in
# the middle of the run (worker --stall) while every other rank waits for
# it inside an agreement; over WINDOW seconds of that wait, those ranks
# must together use less than 5% of the machine's cores (in clock ticks:
# 0.05 * cores * WINDOW * CLK_TCK). A rank that waits in epoll_wait uses
# nothing; a rank that busy-polls uses every cycle the scheduler gives it,
# and 63 of them get nearly all of the cores even on a loaded machine.
# Called once STALLER has logged "stall"; the window starts 200 ms later,
# when everyone else is surely inside the agreement.
idle_check() {
	local desc=$1 dir=$2 staller=$3 window=$4 a b hz cores lim d
	hz=$(getconf CLK_TCK)
	cores=$(nproc)
	sleep 0.2
	a=$(cpu_ticks "$dir" "$staller")
	sleep "$window"
	b=$(cpu_ticks "$dir" "$staller")
	d=$((${b% *} - ${a% *}))
	lim=$((5 * cores * window * hz / 100))
	if [ "$d" -lt "$lim" ]; then
		ok "$desc"
	else
		not_ok "$desc"
	fi
	diag "waiting ranks: $d ticks of CPU in $window s (limit $lim, $cores cores, $hz ticks/s); runnable: ${a#* } then ${b#* }"
}
