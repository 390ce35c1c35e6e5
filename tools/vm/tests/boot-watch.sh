#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-boot-watch: tools/vm/boot-watch, the runners' guard against a guest
# kernel that hangs in its own boot. TAP. A stand-in for QEMU (sleep)
# and a console written by the test: /init reached late but in time, a
# hang (the deadline passes, and not much later), QEMU exiting first, the
# line already there, a command line that names ftnl and /init (not a
# sign of /init), a console that does not exist yet; then tools/vm/run
# itself with a stand-in QEMU that hangs once, twice, and whose kernel
# dies once before /init (its command line naming an ftnl parameter).
#
# Installed as build/tests/vm-boot-watch by tools/Makefile; finds the
# script from its own location (build/tests -> tools/vm) or $FTNL_ROOT.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
WATCH=
for f in ${FTNL_ROOT:+"$FTNL_ROOT/tools/vm/boot-watch"} \
	"$HERE/../../tools/vm/boot-watch" "$HERE/../boot-watch"; do
	[ -x "$f" ] && { WATCH=$f; break; }
done

echo "TAP version 13"
if [ -z "$WATCH" ]; then
	echo "Bail out! tools/vm/boot-watch not found (set FTNL_ROOT)"
	exit 1
fi
dir=$(mktemp -d)
qemu=
trap '[ -z "$qemu" ] || kill "$qemu" 2>/dev/null; rm -rf "$dir"' EXIT

n=0
failed=0
check() { # DESCRIPTION EXPECTED-RC RC SECONDS MIN MAX
	n=$((n + 1))
	if [ "$3" -eq "$2" ] && awk -v s="$4" -v lo="$5" -v hi="$6" \
		'BEGIN { exit !(s >= lo && s <= hi) }'; then
		echo "ok $n $1"
	else
		failed=$((failed + 1))
		echo "not ok $n $1"
		echo "#   exit $3 (want $2) after $4 s (want $5 to $6 s)"
	fi
}
now() { printf '%s' "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'; }
# watch CONSOLE SECONDS [LIFE]: boot-watch against a QEMU stand-in that
# lives LIFE seconds (30); sets rc and took.
watch() {
	local t0
	sleep "${3:-30}" &
	qemu=$!
	t0=$(now)
	"$WATCH" "$1" "$qemu" "$2"
	rc=$?
	took=$(since "$t0")
	kill "$qemu" 2>/dev/null
	wait "$qemu" 2>/dev/null
	qemu=
}

# The upper bounds are generous (a loaded host); the lower ones are what
# the case is about: a hang is not declared before its deadline.
con=$dir/late.log
printf '[    1.23] pnp: PnP ACPI: found 5 devices\n' >"$con"
(sleep 2 && printf '[    9.00] Run /init as init process\n' >>"$con") &
watch "$con" 20
check "/init after 2 s, deadline 20 s: booted, once it shows" 0 "$rc" "$took" 1.5 10

con=$dir/hang.log
printf '[    1.23] pnp: PnP ACPI: found 5 devices\n' >"$con"
watch "$con" 3
check "no /init within the 3 s deadline: a hang (124), at the deadline" 124 "$rc" "$took" 2.9 10

con=$dir/exit.log
printf 'SeaBIOS\n' >"$con"
watch "$con" 20 1
check "QEMU ends before /init: 1, not a hang, without waiting for the deadline" 1 "$rc" "$took" 0.5 10

con=$dir/done.log
printf 'Run /init as init process\n' >"$con"
watch "$con" 20
check "/init already on the console: booted at once" 0 "$rc" "$took" 0 5

con=$dir/cmdline.log
printf '[    0.00] Command line: console=ttyS0 ftnl.test_verify_delay_ms=0 rdinit=/init\n' >"$con"
watch "$con" 2
check "the command line naming ftnl and /init is not /init running: a hang" 124 "$rc" "$took" 1.9 10

con=$dir/created-late.log
(sleep 1 && printf 'Run /init as init process\n' >"$con") &
watch "$con" 20
check "console created after the watch started: still seen" 0 "$rc" "$took" 0.5 10

n=$((n + 1))
if "$WATCH" "$con" notapid 5 2>/dev/null; then
	failed=$((failed + 1))
	echo "not ok $n a bad PID is a usage error"
else
	[ $? -eq 2 ] && echo "ok $n a bad PID is a usage error (2)" ||
		{ failed=$((failed + 1)); echo "not ok $n a bad PID is a usage error"; }
fi

# The runner itself (tools/vm/run), with a stand-in QEMU on PATH whose
# first FAKEQ_HANGS boots hang after "pnp: PnP ACPI" and whose next one
# reaches /init and reports status 0. Needs what the runner needs besides
# QEMU (the Debian kernel from 'make setup', busybox): skipped without.
ROOT=${FTNL_ROOT:-$(cd "$(dirname "$WATCH")/../.." && pwd)}
mkdir -p "$dir/bin"
cat >"$dir/bin/qemu-system-x86_64" <<'EOF'
#!/bin/bash
[ "${1:-}" = --version ] && { echo "QEMU emulator version 0 (boot-watch test)"; exit 0; }
con= st=
for a; do
	case $a in
	file,id=con,path=*) con=${a#file,id=con,path=} ;;
	file,id=status,append=on,path=*) st=${a#file,id=status,append=on,path=} ;;
	esac
done
n=$(($(cat "$FAKEQ_BOOTS") + 1))
echo "$n" >"$FAKEQ_BOOTS"
printf '[    0.00] Command line: console=ttyS0 rdinit=/init ftnl.test_sign_delay_ms=0\n[    1.23] pnp: PnP ACPI: found 5 devices\n' >"$con"
if [ "$n" -le "${FAKEQ_DIES:-0}" ]; then
	printf '[    1.50] Kernel panic - not syncing: Attempted to kill the idle task!\n' >>"$con"
	exit 0
fi
if [ "$n" -le "$FAKEQ_HANGS" ]; then
	trap 'exit 0' TERM
	while :; do sleep 1; done
fi
printf '[    4.10] Run /init as init process\n' >>"$con"
printf 'boot=4.1\nstatus=0\n' >>"$st"
EOF
chmod +x "$dir/bin/qemu-system-x86_64"
# runner HANGS [DIES]: the runner on 6.1 with a 3 s boot deadline, the
# first HANGS boots hanging and the first DIES (0) dying before /init;
# sets rc, boots, took and err (its stderr).
runner() {
	local t0
	echo 0 >"$dir/boots"
	rm -rf "$dir/log"
	t0=$(now)
	err=$(PATH="$dir/bin:$PATH" FAKEQ_BOOTS="$dir/boots" FAKEQ_HANGS=$1 FAKEQ_DIES=${2:-0} \
		FTNL_VM_BOOT_DEADLINE=3 "$ROOT/tools/vm/run" --kernel 6.1 --accel tcg \
		--no-load --timeout 120 --log-dir "$dir/log" -- true 2>&1 >/dev/null)
	rc=$?
	took=$(since "$t0")
	boots=$(cat "$dir/boots")
}
# said DESCRIPTION BOOTS PATTERN: the last runner() booted BOOTS times and
# said PATTERN.
said() {
	n=$((n + 1))
	if [ "$boots" -eq "$2" ] && printf '%s' "$err" | grep -qF "$3"; then
		echo "ok $n $1"
	else
		failed=$((failed + 1))
		echo "not ok $n $1"
		printf '%s\n' "boots $boots; stderr:" "$err" | head -n 20 | sed 's/^/#   /'
	fi
}
if [ ! -x "$ROOT/tools/vm/run" ]; then
	n=$((n + 1))
	echo "ok $n # SKIP the runner: $ROOT/tools/vm/run not found"
elif ! why=$("$ROOT/tools/vm/run" --kernel 6.1 --no-load --initrd-only "$dir/probe.cpio" -- true 2>&1); then
	n=$((n + 1))
	echo "ok $n # SKIP the runner: it cannot build a guest here ($(printf '%s' "$why" | tail -n1))"
else
	runner 1
	check "runner: a first boot that hangs before /init is booted again, and the run passes" 0 "$rc" "$took" 2.9 100
	said "runner: two boots, the hang said" 2 'hung in its own boot, no /init within 3 s'
	n=$((n + 1))
	if [ -s "$dir/log/console.boot1.log" ]; then
		echo "ok $n runner: the hung boot's console kept (console.boot1.log)"
	else
		failed=$((failed + 1))
		echo "not ok $n runner: the hung boot's console kept (console.boot1.log)"
	fi
	runner 2
	check "runner: a second hang fails the run as a timeout (124), well before --timeout" 124 "$rc" "$took" 5.9 100
	said "runner: not a third boot" 2 'hung in its own boot (boot 2 of at most 2)'
	runner 0 1
	check "runner: a kernel that dies before /init is booted again, and the run passes" 0 "$rc" "$took" 0 100
	said "runner: two boots, the death said, though the command line names ftnl" 2 'died in its own boot, before /init'
fi

echo "1..$n"
[ $failed -eq 0 ]
