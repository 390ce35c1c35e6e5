#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module's stack frames, by the kernel's own scripts/checkstack.pl over
# the built module of each kernel given (VM_KERNELS, default "6.1 6.12";
# those not built are skipped). Fails when a function's frame exceeds
# FTNL_STACK_MAX bytes (default 512): the receive path and the timers run
# in softirq, on whatever stack the interrupted context left, so a message
# or a table belongs in the ring's memory, not in a local variable.
set -u

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MAX=${FTNL_STACK_MAX:-512}
status=0
checked=0
debug_only=1
for k in ${VM_KERNELS:-6.1 6.12}; do
	[ "$k" != debug ] || continue	# KASAN's redzones inflate every frame
	debug_only=0
	ko=$ROOT/build/kmod/$k/ftnl.ko
	[ -f "$ko" ] || continue
	kdir=$("$ROOT/tools/dev/kernels.sh" kdir "$k") || { status=1; continue; }
	script=$kdir/scripts/checkstack.pl
	if [ ! -f "$script" ]; then
		echo "kernel $k: $script missing"
		status=1
		continue
	fi
	checked=$((checked + 1))
	# "0xADDR function [ftnl]:<tabs>BYTES", largest first
	frames=$(objdump -d "$ko" | perl "$script" x86_64 0)
	over=$(echo "$frames" | awk -v max="$MAX" '$NF + 0 > max')
	if [ -n "$over" ]; then
		echo "kernel $k: stack frames above $MAX bytes:"
		echo "$over"
		status=1
	else
		echo "kernel $k: largest stack frame $(echo "$frames" | head -n 1 | awk '{ print $2, $NF }') bytes (limit $MAX)"
	fi
done
if [ $debug_only -eq 1 ]; then
	# make check-debug: the debug kernel's frames say nothing.
	echo "only the debug kernel given: its frames are not checked"
elif [ $checked -eq 0 ]; then
	echo "no module built (make modules-vm)"
	status=1
fi
exit $status
