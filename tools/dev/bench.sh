#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/dev/bench.sh: the ring benchmark ("make bench"). Builds tools/bench,
# boots each kernel of BENCH_KERNELS in QEMU with the module loaded, runs
# ftnl-bench-guest there and prints its tables; the whole output is kept in
# build/bench/results-<kernel>.txt. See Documentation/bench.rst.
#
# Needs the module and libftnl built ("make modules-vm lib"). The figures
# never fail this script: it fails only when the benchmark could not run
# (build, VM, setup) or the kernel logged a warning.
#
# Environment: BENCH_KERNELS (default "6.1"; "6.1 6.12" for both),
# BENCH_VM_TIMEOUT (seconds per boot, default 4200), BENCH_SMP (guest CPUs,
# default 2), and every BENCH_* knob of tools/bench/bench-guest.sh, passed
# to the guest unchanged.
set -eu

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$ROOT/build}
OUT=$BUILD/bench
KERNELS=${BENCH_KERNELS:-6.1}
VM_TIMEOUT=${BENCH_VM_TIMEOUT:-4200}
SMP=${BENCH_SMP:-2}

make --no-print-directory -C "$ROOT/tools/bench" ROOT="$ROOT" BUILD="$BUILD"

for k in $KERNELS; do
	if [ ! -f "$BUILD/kmod/$k/ftnl.ko" ]; then
		echo "bench: $BUILD/kmod/$k/ftnl.ko missing: run 'make modules-vm lib'" >&2
		exit 1
	fi
done

# The guest's knobs: every BENCH_* variable but the host-side ones, as
# arguments of env(1) (the runner passes them verbatim, spaces included).
guest_env=$(mktemp)
trap 'rm -f "$guest_env"' EXIT
env | grep -E '^BENCH_' | grep -vE '^BENCH_(KERNELS|VM_TIMEOUT|SMP)=' >"$guest_env" || true

status=0
for k in $KERNELS; do
	log=$OUT/results-$k.txt
	echo "bench: kernel $k, $SMP guest CPUs; host load average: $(cut -d' ' -f1-3 /proc/loadavg)" |
		tee "$log"
	start=$(date +%s)
	set --
	while IFS= read -r kv; do
		set -- "$@" "$kv"
	done <"$guest_env"
	# The pipeline's status is tee's: keep the runner's in a file.
	{
		rc=0
		# sch_ingress: the clsact qdisc counting frames (TIPC part);
		# sch_netem: the links' jitter and loss (adaptive timeouts part).
		"$ROOT/tools/vm/run" --kernel "$k" --timeout "$VM_TIMEOUT" --smp "$SMP" \
			--module sch_ingress --module sch_netem \
			--bin "$OUT/ftnl-bench" --bin "$OUT/ftnl-uring" \
			--bin "$OUT/ftnl-bench-hog" --bin "$OUT/ftnl-bench-hbtrace" \
			--bin "$OUT/ftnl-bench-guest" \
			-- env "$@" ftnl-bench-guest 2>&1 || rc=$?
		echo $rc >"$OUT/.status-$k"
	} | tee -a "$log"
	rc=$(cat "$OUT/.status-$k")
	rm -f "$OUT/.status-$k"
	echo "bench: kernel $k done in $(($(date +%s) - start)) s (status $rc);" \
		"host load average: $(cut -d' ' -f1-3 /proc/loadavg); output in $log" |
		tee -a "$log"
	[ "$rc" -eq 0 ] || status=$rc
done
exit "$status"
