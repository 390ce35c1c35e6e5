#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: build everything, run the static checks, the userspace unit
# tests (ASan/UBSan) and the kselftests inside QEMU on each kernel given as
# argument (6.1, 6.12, debug), and the cluster harness's scenarios (the
# short set on 6.1; all of them on every kernel with CLUSTER_SET=all, the
# debug kernel excepted), and tools/slurm/check.sh: ftnl-slurm against a
# real Slurm (on 6.1; with CLUSTER_SET=all on every kernel but debug).
# Every suite speaks TAP; the last line is the total:
#   N passed, N failed
# preceded by "N skipped" when cases were skipped.
#
# The debug kernel (tools/dev/debug-kernel.sh: lockdep, KASAN, kmemleak) is
# built first if needed (once per machine) and runs the selftests of
# debug.list. --kernels-only (make check-debug) skips the host-side checks
# and unit tests: the build, the module builds and their W=1 + sparse
# check, and the selftests on the given kernels only.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$ROOT/build
LOGDIR=$BUILD/check
kernels_only=0
if [ "${1:-}" = --kernels-only ]; then
	kernels_only=1
	shift
fi
KERNELS=("$@")
[ ${#KERNELS[@]} -gt 0 ] || KERNELS=(6.1)
JOBS=${JOBS:-$(nproc)}

mkdir -p "$LOGDIR"
passed=0
failed=0
skipped=0
failures=()

# Count a TAP stream: top-level "ok"/"not ok" lines, "# SKIP" as skipped.
# A suite that exits non-zero without reporting a failure counts one.
tally() {
	local name=$1 log=$2 status=$3 p f s
	p=$(grep -cE '^ok [0-9]+' "$log" | tr -d ' ')
	s=$(grep -E '^ok [0-9]+' "$log" | grep -ciE '# skip' | tr -d ' ')
	f=$(grep -cE '^not ok [0-9]+' "$log" | tr -d ' ')
	p=$((p - s))
	if [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "not ok - $name exited with status $status" >>"$log"
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$s" -eq 0 ]; then
		f=1
		echo "not ok - $name ran no test" >>"$log"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	if [ "$f" -gt 0 ]; then
		failures+=("$name (log: ${log#"$ROOT"/})")
		grep -E '^not ok' "$log" | sed "s|^|  $name: |"
	fi
	# A VM that timed out or died: its console's last lines say why, and
	# CI keeps only this output, not the log.
	case $status in 120 | 124 | 125) tail -n 75 "$log" | sed 's/^/  | /' ;; esac
	# Minutes since make check began: CI stops a run at 90.
	printf '%-40s %4d passed %4d failed %4d skipped  at %d:%02d\n' \
		"$name" "$p" "$f" "$s" $((SECONDS / 60)) $((SECONDS % 60))
}

# A single pass/fail step (build, static check) as one TAP test.
step() {
	local name=$1 log=$LOGDIR/$1.log status
	shift
	"$@" >"$log" 2>&1
	status=$?
	if [ $status -eq 0 ]; then
		echo "ok 1 - $name" >>"$log"
	else
		tail -n 30 "$log" | sed 's/^/  | /'
		echo "not ok 1 - $name" >>"$log"
	fi
	tally "$name" "$log" 0
	return $status
}

cd "$ROOT" || exit 1

echo "== build"
if ! step build make -j"$JOBS" all; then
	echo "$passed passed, $failed failed"
	exit 1
fi
# The module for each kernel; a kernel that fails here runs no selftest.
declare -A vm_ok
for k in "${KERNELS[@]}"; do
	vm_ok[$k]=1
	if [ "$k" = debug ]; then
		# Tens of minutes the first time on a machine, then cached.
		step debug-kernel "$ROOT/tools/dev/debug-kernel.sh" || continue
	fi
	step "modules-vm-$k" make -j"$JOBS" modules-vm VM_KERNELS="$k"
	vm_ok[$k]=$?
done

echo "== static checks"
[ $kernels_only -eq 1 ] || step checkpatch "$ROOT/tools/dev/checkpatch.sh"
[ $kernels_only -eq 1 ] || step layers /usr/bin/python3 "$ROOT/tools/dev/check-layers.py"
[ $kernels_only -eq 1 ] || step shellcheck "$ROOT/tools/dev/shellcheck.sh"
step kbuild-W1-sparse env VM_KERNELS="${KERNELS[*]}" "$ROOT/tools/dev/kbuild-warnings.sh"
# Stack frames of the modules just built: none above 512 bytes.
step checkstack env VM_KERNELS="${KERNELS[*]}" "$ROOT/tools/dev/checkstack.sh"
if [ $kernels_only -eq 0 ]; then
	log=$LOGDIR/spec-check.tap
	/usr/bin/python3 "$ROOT/tools/dev/spec-check.py" >"$log" 2>&1
	tally spec-check "$log" $?

	echo "== userspace unit tests (ASan/UBSan)"
	# The ring DST (13 modes of 2000 schedules under ASan: 5 to 6 min
	# on the 2-core build host) runs on one core while the other runs
	# the pure simulations, which neither sleep nor time anything; the
	# tests that do (processes, sockets, timeouts) run after, alone.
	unit() {
		local t=$1 limit=300
		[ "$(basename "$t")" != kmod-ring-dst ] || limit=900
		(cd "$BUILD/tests" && timeout $limit "$t") >"$LOGDIR/$(basename "$t").tap" 2>&1
	}
	unit_tally() {
		tally "unit/$(basename "$1")" "$LOGDIR/$(basename "$1").tap" "$2"
	}
	dst=$BUILD/tests/kmod-ring-dst
	unit "$dst" &
	dst_pid=$!
	pure="kmod-bcast-topology kmod-bcast-topology-asan era-sim era-sim-asan
		radix-sim radix-sim-asan vall-sim vall-sim-asan sim-selftest"
	for t in $pure; do
		unit "$BUILD/tests/$t"
		unit_tally "$t" $?
	done
	wait $dst_pid
	unit_tally "$dst" $?
	for t in "$BUILD"/tests/*; do
		[ -x "$t" ] && [ -f "$t" ] || continue
		case " $(echo $pure) kmod-ring-dst " in *" $(basename "$t") "*) continue ;; esac
		unit "$t"
		unit_tally "$t" $?
	done
fi

# vm_selftests KERNEL LOG TIMEOUT LIST: run_tests.sh on the tests of LIST
# in one guest of KERNEL. A guest killed by a stale int3 (tools/vm/run's
# 120: multi-threaded TCG ran kernel text already patched away; see
# Documentation/vm-runner.rst) is booted again, twice at most, for the
# tests it had not finished; the unfinished one's results are dropped and
# it runs again from its start. Any other death is the verdict.
vm_selftests() {
	local k=$1 log=$2 timeout=$3 tests status boot=1 part started finished
	tests=$(grep -v '^#' "$4")
	: >"$log"
	while :; do
		part=$log.boot$boot
		# shellcheck disable=SC2086 # one test per word
		"$ROOT/tools/vm/run" --kernel "$k" --timeout "$timeout" -- \
			/opt/ftnl/selftests/run_tests.sh $tests >"$part" 2>&1
		status=$?
		started=$(sed -n 's/^# ---- \([^ :]*\)$/\1/p' "$part" | tail -n1)
		finished=$(sed -n 's/^# ---- \([^ :]*\): .* results.*/\1/p' "$part" | tail -n1)
		if [ $status -ne 120 ] || [ $boot -ge 3 ] || [ -z "$started" ]; then
			cat "$part" >>"$log"
			return $status
		fi
		# The finished tests' results stay; the rest runs again.
		if [ "$started" = "$finished" ]; then
			sed "/^# ---- $started: /q" "$part" >>"$log"
			tests=$(printf '%s\n' $tests | sed -n "/^$started\$/,\$p" | tail -n +2)
		else
			sed -n "/^# ---- $started\$/q;p" "$part" >>"$log"
			tests=$(printf '%s\n' $tests | sed -n "/^$started\$/,\$p")
		fi
		grep -E '^ftnl-vm: stale int3' "$part" | sed 's/^/# /' >>"$log"
		printf '# selftests/%s: boot %d died of a stale int3 in %s (%s); booting again for: %s\n' \
			"$k" "$boot" "$started" "$part" "$(echo $tests)" | tee -a "$log" | sed 's/^# /  /'
		[ -n "$tests" ] || return 120
		boot=$((boot + 1))
	done
}

for k in "${KERNELS[@]}"; do
	[ "${vm_ok[$k]}" -eq 0 ] || continue
	echo "== kselftests in QEMU, kernel $k"
	log=$LOGDIR/selftests-$k.tap
	if [ "$k" = debug ]; then
		# Emulated CPUs under KASAN and lockdep: several times slower.
		vm_selftests debug "$log" 5400 "$BUILD/selftests/debug.list"
	else
		# About 20 min on the 2-core host, up to 26 min seen.
		vm_selftests "$k" "$log" 2400 "$BUILD/selftests/tests.list"
	fi
	tally "selftests/$k" "$log" $?
done

# Separate guests, real faults (tools/cluster/run): make check runs the
# short set on 6.1, make check-all (CLUSTER_SET=all) every scenario on
# every kernel given but debug (its tier is the selftests of debug.list).
for k in "${KERNELS[@]}"; do
	[ "${vm_ok[$k]}" -eq 0 ] && [ "$k" != debug ] || continue
	[ "${CLUSTER_SET:-short}" = all ] || [ "$k" = 6.1 ] || continue
	echo "== cluster harness (separate VMs), kernel $k"
	while read -r set scenario nodes opts; do
		case $set in '' | '#'*) continue ;; esac
		[ "${CLUSTER_SET:-short}" = all ] || [ "$set" = short ] || continue
		# A Debian image boots its own kernel (Debian 12's): once, on 6.1.
		case " $opts " in *" --image debian "*) [ "$k" = 6.1 ] || continue ;; esac
		log=$LOGDIR/cluster-$scenario-$k.tap
		# shellcheck disable=SC2086 # options, one per word
		"$ROOT/tools/cluster/run" --kernel "$k" --nodes "$nodes" $opts -- "$scenario" </dev/null >"$log" 2>&1
		tally "cluster/$scenario/$k" "$log" $?
	done <"$ROOT/tools/cluster/scenarios/list"
done

# ftnl-slurm against a real Slurm (slurmctld, slurmd, munge from the
# packages make setup installs) in one VM: on 6.1 in make check, on every
# kernel but debug in make check-all (2 to 3 minutes each under TCG; its
# one time bound, d + 5 s, and its d of 2 s leave a margin for the loaded
# guest's stalls).
for k in "${KERNELS[@]}"; do
	[ "${vm_ok[$k]}" -eq 0 ] && [ "$k" != debug ] || continue
	[ "${CLUSTER_SET:-short}" = all ] || [ "$k" = 6.1 ] || continue
	echo "== ftnl-slurm against Slurm in QEMU, kernel $k"
	log=$LOGDIR/slurm-$k.tap
	"$ROOT/tools/slurm/check.sh" --kernel "$k" </dev/null >"$log" 2>&1
	tally "slurm/$k" "$log" $?
done

if [ ${#failures[@]} -gt 0 ]; then
	echo "failed suites:"
	printf '  %s\n' "${failures[@]}"
fi
# Skips (cases that do not apply here, counted in neither) on a line of
# their own: the last line is always exactly "N passed, N failed".
[ "$skipped" -eq 0 ] || echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
