#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/bench/era/run.sh: the agreement benchmark ("make bench", after the
# ring benchmark; or "make -C tools/bench/era run"). On this host, over
# loopback TCP, every rank a process started by ftnl-launch:
#
#   1. failure-free ftnl_group_agree() latency for n = 2..64 with each
#      engine (ERA, validate-all strict and loose), beside
#      MPI_Allreduce(MPI_BAND) of Debian's Open MPI at the same n, in one
#      table with the papers' figures;
#   2. messages per agreement beside each algorithm's analysis;
#   3. the failure-detecting, stabilizing and post-failure agreements
#      (ERA paper's Fig. 2d) for a failed root, inner node and leaf, with
#      each engine.
#
# The table goes to stdout and to $BUILD/bench/era-results.txt. Figures
# never fail this script: it fails only when the benchmark could not run
# (no launcher, an ERA run failed). The MPI part is skipped with a note if
# Open MPI cannot be installed. Documentation/bench.rst explains every
# figure and the MPI configuration.
#
# Environment:
#   ERA_BENCH_SIZES    group sizes (default "2 4 8 16 32 64")
#   ERA_BENCH_ITERS    timed agreements per size and engine (default 2000)
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
RESULTS_RAW=$OUT/era-results-raw.txt
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
# shellcheck disable=SC2054 # "self,tcp" is one argument
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
say "1. Failure-free agreement, microseconds per call ($ITERS timed calls after $WARMUP; MPI: see iters):"
say "   med / p90 = the slowest rank's median / 90th percentile (r0 = rank 0's, in $RESULTS_RAW)."
say "   ERA = ftnl_group_agree() with ERA (binary tree); strict, loose = the same call with"
say "   validate-all (binomial tree), strict and loose semantics; MPI = MPI_Allreduce(MPI_BAND)."
say "2. msgs = messages sent by all ranks per call, beside each algorithm's analysis:"
say "   ERA 2(n-1) (Theorem 5), strict 6(n-1) (3 broadcasts + their ACKs), loose 4(n-1)."
say ""
hdr=$(printf '%4s | %8s %8s | %8s %8s | %8s %8s | %8s %8s %5s | %6s %5s | %6s %5s | %6s %5s | %5s %5s %5s' \
	n "ERA med" p90 "str med" p90 "loo med" p90 "MPI med" p90 iters \
	"m.ERA" "2n-2" "m.str" "6n-6" "m.loo" "4n-4" "s/l" "s/MPI" "s/ERA")
say "$hdr"
say "$(sed 's/[^|]/-/g' <<<"$hdr")"
: >"$RESULTS_RAW"

for n in $SIZES; do
	declare -A med=() p90=() msgs=()
	for engine in era strict loose; do
		eout=$WORK/$engine-$n.txt
		: >"$eout"
		era_run "$n" "$eout" --engine "$engine" --warmup "$WARMUP" --iters "$ITERS" ||
			die "$engine failure-free run failed at n = $n"
		e=$(tail -n 1 "$eout")
		echo "$engine $e" >>"$RESULTS_RAW"
		med[$engine]=$(field max_med_us "$e")
		p90[$engine]=$(field max_p90_us "$e")
		msgs[$engine]=$(field msgs "$e")
	done
	# MPI: fewer calls at large n (tens of ms per call once 64 ranks share
	# the cores).
	if [ "${ERA_BENCH_QUICK:-0}" = 1 ]; then mi=20
	elif [ "$n" -le 8 ]; then mi=2000
	elif [ "$n" -le 32 ]; then mi=1000
	else mi=500; fi
	med[mpi]=- p90[mpi]=-
	mnote=
	if [ $HAVE_MPI -eq 1 ]; then
		mout=$WORK/mpi-$n.txt
		: >"$mout"
		timeout -k 5 "$MPI_TIMEOUT" "$MPIRUN" "${MPI_ARGS[@]}" -np "$n" \
			"$OUT/era-bench-mpi" 20 "$mi" "$mout" >"$WORK/mpi.log" 2>&1
		rc=$?
		m=$(tail -n 1 "$mout")
		if [ -n "$m" ]; then
			echo "mpi $m" >>"$RESULTS_RAW"
			med[mpi]=$(field max_med_us "$m")
			p90[mpi]=$(field max_p90_us "$m")
		elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
			mnote="MPI at n = $n did not finish in $MPI_TIMEOUT s"
		else
			mnote="MPI at n = $n failed (status $rc: $(grep -v '^$' "$WORK/mpi.log" | head -n 1 | cut -c1-60))"
		fi
	else
		mi=-
	fi
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 > 0 && a != "-") printf "%.2f", a / b; else print "-" }'; }
	say "$(printf '%4s | %8s %8s | %8s %8s | %8s %8s | %8s %8s %5s | %6s %5s | %6s %5s | %6s %5s | %5s %5s %5s' \
		"$n" "${med[era]}" "${p90[era]}" "${med[strict]}" "${p90[strict]}" \
		"${med[loose]}" "${p90[loose]}" "${med[mpi]}" "${p90[mpi]}" "$mi" \
		"${msgs[era]}" $((2 * (n - 1))) "${msgs[strict]}" $((6 * (n - 1))) \
		"${msgs[loose]}" $((4 * (n - 1))) \
		"$(ratio "${med[strict]}" "${med[loose]}")" "$(ratio "${med[strict]}" "${med[mpi]}")" \
		"$(ratio "${med[strict]}" "${med[era]}")")"
	[ -z "$mnote" ] || say "     $mnote"
	unset med p90 msgs
done
say ""
say "s/l = strict / loose, s/MPI = strict / MPI, s/ERA = strict / ERA (slowest-rank medians)."
say "The papers' figures, beside these:"
say "  validate-all (Buntinas, IPDPS'12; Blue Gene/P, 4,096 cores, torus): strict 305 us at"
say "    full scale, 1.66 x the same pattern with unoptimized collectives (bcast + reduce), loose"
say "    133 us faster, i.e. strict / loose = 1.78; O(log n) scaling."
say "  ERA (Herault et al., SC'15; Darter, Cray XC30, bin/bin): 6.7 log_2.125(x) us (Fig. 2a fit),"
say "    about twice the optimized Allreduce (\"the latency is doubled\"); its related work finds a"
say "    two-phase commit over one global root (ULFM's previous Log2phases agreement) clearly slower."
say "  Analysis, one agreement: ERA 2 tree traversals, loose 3 (ballot down and up, commit down),"
say "  strict 5 (+ commit up, all-commit down): strict / loose ~ 5/3 = 1.67, strict / ERA ~ 2.5"
say "  in rounds; the binomial tree (validate-all) is ~log2(n) deep, ERA's binary tree ~log2(n) too."

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
say "3. One failure (ERA paper's Fig. 2d), n = $FAIL_N; microseconds; median of $TRIALS runs"
say "   A rank SIGKILLs itself 100 ms after agreement k returned everywhere; the survivors, at once:"
say "   detecting = agreement k+1 (returns -FTNL_EPROCFAILED, then failure_ack), stabilizing = k+2,"
say "   post = median of the next $POST; each the largest over survivors (detect min: the smallest)."
say "   pre = failure-free before (largest per-survivor median). msgs: sent by the survivors;"
say "   a post-failure call costs 2(n-2) with ERA, 6(n-2) strict, 4(n-2) loose. Inner: ERA's binary"
say "   tree has rank 1 under the root, validate-all's binomial tree rank n/2 (the largest subtree);"
say "   rebalancing is ERA's only."
say ""
hdr=$(printf '%-6s %-12s %-5s | %8s | %9s %9s | %8s | %8s | %-11s %-3s | %6s %6s %6s %6s' \
	engine "failed rank" rebal pre detect "det. min" stab post "detect rc" "st." \
	"m.det" "m.stab" "m.post" "analys")
say "$hdr"
say "$(sed 's/[^|]/-/g' <<<"$hdr")"
leaf=$((FAIL_N - 1))
for variant in "era no" "era yes" "strict -" "loose -"; do
	read -r engine rebal <<<"$variant"
	case $engine in
	era) inner=1 per=2 ;;
	strict) inner=$((FAIL_N / 2)) per=6 ;;
	*) inner=$((FAIL_N / 2)) per=4 ;;
	esac
	for role in "0 (root)" "$inner (inner)" "$leaf (leaf)"; do
		v=${role%% *}
		fout=$WORK/fail-$engine-$v-$rebal.txt
		: >"$fout"
		extra=(--engine "$engine")
		[ "$rebal" = no ] && extra+=(--no-rebalance)
		for ((t = 0; t < TRIALS; t++)); do
			era_run "$FAIL_N" "$fout" --warmup "$WARMUP" --iters "$PRE" \
				--fail "$v" --post "$POST" --tag "$v" "${extra[@]}" ||
				die "$engine failure run failed (victim $v)"
		done
		say "$(printf '%-6s %-12s %-5s | %8s | %9s %9s | %8s | %8s | %-11s %-3s | %6s %6s %6s %6s' \
			"$engine" "$role" "$rebal" "$(med pre_us "$fout")" "$(med detect_us "$fout")" \
			"$(med detect_min_us "$fout")" "$(med stab_us "$fout")" \
			"$(med post_us "$fout")" "$(vals detect_rc "$fout")" \
			"$(vals stab_rc "$fout")" "$(med msgs_detect "$fout")" \
			"$(med msgs_stab "$fout")" "$(med msgs_post "$fout")" \
			$((per * (FAIL_N - 2))))"
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
