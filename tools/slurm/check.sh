#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/slurm/check.sh [--kernel 6.1|6.12] [--bench]: ftnl-slurm against a
# real Slurm (slurmctld, slurmd, munged from Debian's slurm-wlm, which
# 'make setup' installs) in one VM. Gathers those programs, Slurm's
# plugins and their libraries into build/slurm/slurm-PID.cpio, boots the VM
# with it (tools/vm/run --cpio) and runs tools/slurm/vm-test.sh there.
# TAP on stdout. The guest's knobs: FTNL_SLURM_HB, FTNL_SLURM_D (ftnl's h
# and d, default 100ms and 2s), FTNL_SLURM_SLURMD_TIMEOUT (seconds,
# default 10), FTNL_SLURM_TIMING_ONLY.
#
# --bench (make bench): the silence-to-DOWN part only, with h = 50 ms and
# d = 400 ms, FTNL_SLURM_BENCH_RUNS times (default 3, one VM each), and
# prints the times: ftnl's event, ftnl-slurm's RPC, slurmctld's log, the
# first sinfo showing DOWN, and Slurm alone (SlurmdTimeout).

set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/build/slurm
kernel=${FTNL_VM_KERNEL:-6.1}
bench=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--bench) bench=1; shift ;;
	*) echo "usage: $0 [--kernel 6.1|6.12] [--bench]" >&2; exit 2 ;;
	esac
done

PROGS=(/usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/slurmstepd /usr/sbin/munged
	/usr/bin/sinfo /usr/bin/squeue /usr/bin/scontrol /usr/bin/sbatch /usr/bin/munge
	/usr/bin/date /usr/bin/od /usr/bin/head)
PLUGINS=/usr/lib/x86_64-linux-gnu/slurm-wlm
for p in "${PROGS[@]}"; do
	[ -x "$p" ] || { echo "check-slurm: $p missing: run 'make setup'" >&2; exit 1; }
done
[ -x "$ROOT/build/bin/ftnl-slurm" ] || { echo "check-slurm: build/bin/ftnl-slurm missing: make -C tools/slurm" >&2; exit 1; }

# This run's own staging and archive: runs for two kernels at once (each
# VM has its own lock in tools/vm/run) must not share them.
stage=$OUT/stage.$$
cpio=$OUT/slurm-$$.cpio
trap 'rm -rf "$stage" "$cpio"' EXIT
rm -rf "$stage"
mkdir -p "$stage/opt/ftnl-slurm"
copy() { mkdir -p "$stage$(dirname "$1")" && cp -L "$1" "$stage$1"; }
for p in "${PROGS[@]}"; do copy "$p"; done
mkdir -p "$stage$PLUGINS"
cp -L "$PLUGINS"/*.so "$stage$PLUGINS/"
# Every library those need, as the host resolves it (a plugin whose
# libraries are not installed is one Slurm's configuration does not use).
for f in "${PROGS[@]}" "$PLUGINS"/*.so; do ldd "$f" 2>/dev/null || true; done |
	awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u |
	while read -r l; do copy "$(readlink -f "$(dirname "$l")")/$(basename "$l")"; done
install -m 0755 "$ROOT/tools/slurm/vm-test.sh" "$stage/opt/ftnl-slurm/vm-test.sh"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$cpio"
rm -rf "$stage"

if [ $bench -eq 1 ]; then
	export FTNL_SLURM_HB=${FTNL_SLURM_HB:-50ms} FTNL_SLURM_D=${FTNL_SLURM_D:-400ms}
	export FTNL_SLURM_TIMING_ONLY=1
fi
# The guest's knobs, passed on.
mapfile -t knobs < <(env | grep -E '^FTNL_SLURM_(HB|D|SLURMD_TIMEOUT|TIMING_ONLY)=' || true)
run_vm() {
	nice -n 10 "$ROOT/tools/vm/run" --kernel "$kernel" --timeout 900 --cpio "$cpio" -- \
		env ${knobs[@]+"${knobs[@]}"} /opt/ftnl-slurm/vm-test.sh >"$1" 2>&1
}
rc=0
if [ $bench -eq 0 ]; then
	log=$OUT/vm-$kernel.log
	run_vm "$log" || rc=$?
	cat "$log"
	exit $rc
fi
runs=${FTNL_SLURM_BENCH_RUNS:-3}
for r in $(seq "$runs"); do
	log=$OUT/bench-$kernel-$r.log
	run_rc=0
	run_vm "$log" || run_rc=$?
	echo "run $r of $runs (host load $(cut -d' ' -f1-3 /proc/loadavg)):"
	sed -n 's/^# bench: /  /p; s/^# false suspicion/  false suspicion/p' "$log"
	# Figures only: a failed check (a false suspicion under load) is
	# reported and make bench goes on.
	[ $run_rc -eq 0 ] || echo "  (run $r: a check failed, exit $run_rc; log: $log)"
done
# The runs side by side: silence to ftnl's event, to slurmctld's DOWN, to
# the first sinfo showing it (polled back to back), to the return of the
# first sinfo started after the DOWN (one sinfo's own cost later), and
# Slurm alone in the same run (ms); a run where ftnl suspected a live
# node is left out (its times mean nothing).
echo "summary, h $FTNL_SLURM_HB, d $FTNL_SLURM_D, ms after the silence (runs without a false suspicion):"
for r in $(seq "$runs"); do
	log=$OUT/bench-$kernel-$r.log
	grep -q '^# false suspicion' "$log" && continue
	sed -n 's/^# bench-run: //p' "$log"
done >"$OUT/bench-$kernel.runs"
# stat KEY: "min median max (N runs)" of KEY's values in the runs.
stat() {
	awk -v k="$1" '{ for (i = 1; i < NF; i += 2) if ($i == k && $(i + 1) ~ /^[0-9]+$/) print $(i + 1) }' \
		"$OUT/bench-$kernel.runs" | sort -n |
		awk '{ a[NR] = $1 } END { if (NR) printf "%6d %6d %6d  (%d runs)", a[1], a[int((NR + 1) / 2)], a[NR], NR; else printf "     -" }'
}
printf '  %-34s %6s %6s %6s\n' "" min median max
printf '  %-34s %s\n' "ftnl: event at the observer" "$(stat event)" \
	"ftnl: slurmctld has it DOWN" "$(stat ctld)" \
	"ftnl: first sinfo showing DOWN" "$(stat sinfo)" \
	"ftnl: sinfo started after the DOWN" "$(stat after)" \
	"Slurm alone: sinfo showing DOWN" "$(stat alone)"
