#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/bench/era/run.sh: the agreement benchmark ("make bench", after the
# ring benchmark; or "make -C tools/bench/era run"). On this host, over
# loopback TCP, every rank a process started by ftnl-launch:
#
#   1. failure-free ftnl_group_agree() latency for n = 2..64, beside
#      MPI_Allreduce(MPI_BAND) of Debian's Open MPI at the same n;
#   2. ERA messages per agreement beside 2(n - 1);
#   3. the failure-detecting, stabilizing and post-failure agreements
#      (the paper's Fig. 2d) for a failed root, inner node and leaf.
#
# The table goes to stdout and to $BUILD/bench/era-results.txt. Figures
# never fail this script: it fails only when the benchmark could not run
# (no launcher, an ERA run failed). The MPI part is skipped with a note if
# Open MPI cannot be installed. Documentation/bench.rst explains every
# figure and the MPI configuration.
#
# Environment:
#   ERA_BENCH_SIZES    group sizes (default "2 4 8 16 32 64")
#   ERA_BENCH_ITERS    timed ERA agreements per size (default 2000)
#   ERA_BENCH_FAIL_N   group size of the failure runs (default 64)
#   ERA_BENCH_TRIALS   runs per failure scenario (default 5)
#   ERA_BENCH_NO_MPI=1 no MPI column
#   ERA_BENCH_MPI_TIMEOUT  seconds per MPI run (default 120)
#   ERA_BENCH_QUICK=1  a few iterations of everything (a smoke test)
set -u

ROOT=${ROOT:-$(cd "$(dirname "$0")/../../.." && pwd)}
BUILD=${BUILD:-$ROOT/build}
OUT=$BUILD/bench
RESULTS=$OUT/era-results.txt
MPICC=${MPICC:-mpicc.openmpi}
MPIRUN=${MPIRUN:-mpirun.openmpi}

SIZES=${ERA_BENCH_SIZES:-2 4 8 16 32 64}
ITERS=${ERA_BENCH_ITERS:-2000}
WARMUP=100
FAIL_N=${ERA_BENCH_FAIL_N:-64}
TRIALS=${ERA_BENCH_TRIALS:-5}
PRE=200		# failure-free agreements timed before the failure
POST=100	# post-failure agreements timed
MPI_TIMEOUT=${ERA_BENCH_MPI_TIMEOUT:-120}
if [ "${ERA_BENCH_QUICK:-0}" = 1 ]; then
	ITERS=50 WARMUP=10 TRIALS=1 PRE=20 POST=20
fi

die() {
	echo "era bench: $*" >&2
	exit 1
}

LAUNCH=
for l in "$BUILD/bin/ftnl-launch" "$ROOT/tools/launch/ftnl-launch"; do
	[ -x "$l" ] && { LAUNCH=$l; break; }
done
[ -n "$LAUNCH" ] || die "ftnl-launch not found (tools/launch/ftnl-launch)"
[ -x "$OUT/era-bench" ] || die "$OUT/era-bench missing: make -C tools/bench/era"

WORK=$(mktemp -d /tmp/ftnl-era-bench.XXXXXX) || die "mktemp failed"

# Every rank watches the failure directory with its own inotify instance,
# and Linux allows 128 per user by default (fs.inotify.max_user_instances):
# 64 ranks of one run plus anything else the user runs exceed it
# (ftnl_group_open() fails with EMFILE). Raise it for the run, as root,
# and put the old value back at the end.
INOTIFY=/proc/sys/fs/inotify/max_user_instances
OLD_INOTIFY=
need=1024
if [ -w "$INOTIFY" ] && [ "$(cat "$INOTIFY")" -lt $need ]; then
	OLD_INOTIFY=$(cat "$INOTIFY")
	echo $need >"$INOTIFY" || OLD_INOTIFY=
fi
cleanup() {
	[ -z "$OLD_INOTIFY" ] || echo "$OLD_INOTIFY" >"$INOTIFY"
	rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$OUT"
: >"$RESULTS"

say() { echo "$*" | tee -a "$RESULTS"; }

# ---- MPI: Debian's Open MPI, installed on demand -----------------------------

MPI_NOTE=
setup_mpi() {
	if [ "${ERA_BENCH_NO_MPI:-0}" = 1 ]; then
		MPI_NOTE="MPI skipped (ERA_BENCH_NO_MPI=1)"
		return 1
	fi
	if ! command -v "$MPIRUN" >/dev/null || ! command -v "$MPICC" >/dev/null; then
		if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
			echo "era bench: installing Open MPI (openmpi-bin libopenmpi-dev)" >&2
			DEBIAN_FRONTEND=noninteractive apt-get install -y \
				--no-install-recommends openmpi-bin libopenmpi-dev \
				>"$WORK/apt.log" 2>&1 ||
				{ DEBIAN_FRONTEND=noninteractive apt-get update >>"$WORK/apt.log" 2>&1 &&
				  DEBIAN_FRONTEND=noninteractive apt-get install -y \
					--no-install-recommends openmpi-bin libopenmpi-dev \
					>>"$WORK/apt.log" 2>&1; }
		fi
	fi
	if ! command -v "$MPIRUN" >/dev/null || ! command -v "$MPICC" >/dev/null; then
		MPI_NOTE="MPI skipped: $MPIRUN/$MPICC not available and not installable"
		return 1
	fi
	if ! make --no-print-directory -C "$ROOT/tools/bench/era" ROOT="$ROOT" \
		BUILD="$BUILD" MPICC="$MPICC" mpi >"$WORK/mpicc.log" 2>&1; then
		MPI_NOTE="MPI skipped: building era-bench-mpi failed ($(tail -n 1 "$WORK/mpicc.log"))"
		return 1
	fi
	return 0
}

# Open MPI over loopback TCP like ERA (no shared-memory BTL), every rank
# yielding the CPU in its progress loop (Open MPI cannot block: see
# Documentation/bench.rst), no binding (64 ranks share the cores).
MPI_ARGS=(--allow-run-as-root --oversubscribe --bind-to none
	  --mca pml ob1 --mca btl self,tcp --mca btl_tcp_if_include lo
	  --mca oob_tcp_if_include lo --mca mpi_yield_when_idle 1)

HAVE_MPI=0
setup_mpi && HAVE_MPI=1

# ---- helpers --------------------------------------------------------------------

# field KEY LINE: the value of KEY=... in a key=value line
field() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" <<<"$2"; }

# One launch of era-bench; its summary line is appended to $2.
era_run() {
	local n=$1 out=$2 dir
	shift 2
	dir=$WORK/run
	rm -rf "$dir" && mkdir -p "$dir"
	if ! "$LAUNCH" -n "$n" --quiet --dir "$dir" --timeout 300 -- \
		"$OUT/era-bench" --dir "$dir" --out "$out" "$@" \
		>"$WORK/launch.log" 2>&1; then
		echo "era bench: era-bench -n $n $* failed; what the ranks said:" >&2
		cat "$dir"/rank-*.log | sed 's/rank [0-9]*/rank R/' | sort | uniq -c |
			sort -rn | head -n 5 >&2
		tail -n 3 "$WORK/launch.log" >&2
		return 1
	fi
}

# ---- 1 and 2: failure-free latency ----------------------------------------------

say "ftnl agreement benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
say "host: $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)), $(uname -r); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
say "every rank a process on this host, over loopback TCP; ERA: binary tree, launcher's failure directory as detector"
[ -z "$OLD_INOTIFY" ] || say "fs.inotify.max_user_instances raised from $OLD_INOTIFY to $need for the run (one per rank)"
if [ $HAVE_MPI -eq 1 ]; then
	say "MPI: $($MPIRUN --version 2>/dev/null | head -n 1), $MPIRUN ${MPI_ARGS[*]}"
else
	say "$MPI_NOTE"
fi
say ""
say "1. Failure-free agreement, microseconds per call ($ITERS timed calls after $WARMUP; MPI: see iters)"
say "   r0 = rank 0's median / 90th percentile; max = largest per-rank median / 90th percentile"
say "2. msgs = ERA messages sent by all ranks per agreement (Theorem 5: 2(n - 1))"
say ""
hdr=$(printf '%4s | %9s %9s %9s %9s | %7s %6s | %9s %9s %9s %9s %6s | %7s' \
	n "r0 med" "r0 p90" "max med" "max p90" msgs "2(n-1)" \
	"r0 med" "r0 p90" "max med" "max p90" iters "paper")
say "$(printf '%4s | %-39s | %-14s | %-46s | %s' '' 'ftnl_group_agree (ERA)' 'messages' 'Open MPI MPI_Allreduce(MPI_BAND)' 'Fig. 2a')"
say "$hdr"
say "$(sed 's/[^|]/-/g' <<<"$hdr")"

for n in $SIZES; do
	eout=$WORK/era-$n.txt
	: >"$eout"
	era_run "$n" "$eout" --warmup "$WARMUP" --iters "$ITERS" || die "ERA failure-free run failed at n = $n"
	e=$(tail -n 1 "$eout")
	# MPI: fewer calls at large n (tens of ms per call once 64 ranks share
	# the cores).
	if [ "${ERA_BENCH_QUICK:-0}" = 1 ]; then mi=20
	elif [ "$n" -le 8 ]; then mi=2000
	elif [ "$n" -le 32 ]; then mi=1000
	else mi=500; fi
	mpi="n/a"
	if [ $HAVE_MPI -eq 1 ]; then
		mout=$WORK/mpi-$n.txt
		: >"$mout"
		timeout -k 5 "$MPI_TIMEOUT" "$MPIRUN" "${MPI_ARGS[@]}" -np "$n" \
			"$OUT/era-bench-mpi" 20 "$mi" "$mout" >"$WORK/mpi.log" 2>&1
		rc=$?
		m=$(tail -n 1 "$mout")
		if [ -n "$m" ]; then
			mpi=$(printf '%9s %9s %9s %9s %6s' "$(field r0_med_us "$m")" \
				"$(field r0_p90_us "$m")" "$(field max_med_us "$m")" \
				"$(field max_p90_us "$m")" "$mi")
		elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
			mpi="did not finish in $MPI_TIMEOUT s"
		else
			mpi="failed (status $rc: $(grep -v '^$' "$WORK/mpi.log" | head -n 1 | cut -c1-60))"
		fi
	else
		mpi=$(printf '%-46s' "n/a")
	fi
	fit=$(awk -v n="$n" 'BEGIN { printf "%.1f", 6.7 * log(n) / log(2.125) }')
	say "$(printf '%4s | %9s %9s %9s %9s | %7s %6s | %s | %7s' "$n" \
		"$(field r0_med_us "$e")" "$(field r0_p90_us "$e")" \
		"$(field max_med_us "$e")" "$(field max_p90_us "$e")" \
		"$(field msgs "$e")" $((2 * (n - 1))) "$mpi" "$fit")"
done
say ""
say "Fig. 2a column: the paper's fit of ERA's failure-free latency on Darter (Cray XC30, Aries,"
say "16 processes per node, bin/bin), 6.7 log_2.125(x) us, with x read as the number of processes."
say "The paper's Allreduce there is about half ERA's latency (\"the latency is doubled\")."

# ---- 3: failures ---------------------------------------------------------------

# Median over the trials of KEY in file F (one line per trial).
med() {
	sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" "$2" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'
}
# Distinct values of KEY in F, comma separated.
vals() {
	sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" "$2" | sort -u | paste -sd, -
}

say ""
say "3. One failure (the paper's Fig. 2d), n = $FAIL_N, binary tree; microseconds; median of $TRIALS runs"
say "   A rank SIGKILLs itself 100 ms after agreement k returned everywhere; the survivors, at once:"
say "   detecting = agreement k+1 (returns -FTNL_EPROCFAILED, then failure_ack), stabilizing = k+2,"
say "   post = median of the next $POST; each the largest over survivors (detect min: the smallest)."
say "   pre = failure-free before (largest per-survivor median). msgs: sent by the survivors."
say ""
hdr=$(printf '%-17s %-5s | %8s | %9s %9s | %8s | %8s | %-11s %-3s | %6s %6s %6s %6s' \
	"failed rank" rebal pre detect "det. min" stab post "detect rc" "st." \
	"m.det" "m.stab" "m.post" "2(n-2)")
say "$hdr"
say "$(sed 's/[^|]/-/g' <<<"$hdr")"
leaf=$((FAIL_N - 1))
for rebal in no yes; do
	for role in "0 (root)" "1 (inner)" "$leaf (leaf)"; do
		v=${role%% *}
		fout=$WORK/fail-$v-$rebal.txt
		: >"$fout"
		extra=()
		[ $rebal = no ] && extra=(--no-rebalance)
		for ((t = 0; t < TRIALS; t++)); do
			era_run "$FAIL_N" "$fout" --warmup "$WARMUP" --iters "$PRE" \
				--fail "$v" --post "$POST" --tag "$v" "${extra[@]}" ||
				die "ERA failure run failed (victim $v)"
		done
		say "$(printf '%-17s %-5s | %8s | %9s %9s | %8s | %8s | %-11s %-3s | %6s %6s %6s %6s' \
			"$role" $rebal "$(med pre_us "$fout")" "$(med detect_us "$fout")" \
			"$(med detect_min_us "$fout")" "$(med stab_us "$fout")" \
			"$(med post_us "$fout")" "$(vals detect_rc "$fout")" \
			"$(vals stab_rc "$fout")" "$(med msgs_detect "$fout")" \
			"$(med msgs_stab "$fout")" "$(med msgs_post "$fout")" \
			$((2 * (FAIL_N - 2))))"
	done
done
say ""
say "The paper's Fig. 2d (us; Darter, Cray XC30, 6000 processes, bin/bin, no rebalancing;"
say "detector: Open MPI's runtime, out-of-band over a TCP overlay):"
say "$(printf '  %-22s %10s %10s %10s' 'failed rank' detecting stabilize post-fail.)"
say "$(printf '  %-22s %10s %10s %10s' '0 (root)' 12659 104.9 69.7)"
say "$(printf '  %-22s %10s %10s %10s' '4 (child of 0)' 93816 102 75.7)"
say "$(printf '  %-22s %10s %10s %10s' '16 (node master)' 80023 98.9 77.1)"
say "$(printf '  %-22s %10s %10s %10s' '17 (child of 16)' 112414 104.2 76.7)"
say "$(printf '  %-22s %10s %10s %10s' '16-31 (full node)' 82171 117.1 85.2)"
say "Here: $(nproc) shared cores, one host, loopback TCP, n = $FAIL_N, a flat binary tree; the"
say "detector is ftnl-launch's failure directory (the launcher's wait, a file, inotify)."
say ""
say "load average after: $(cut -d' ' -f1-3 /proc/loadavg); results in ${RESULTS#"$ROOT"/}"
