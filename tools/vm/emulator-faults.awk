# SPDX-License-Identifier: GPL-2.0
#
# tools/vm/emulator-faults.awk: copy a kernel log, replacing each report
# that only the emulator can cause by one line saying so. tools/vm/run
# reads the guest's log through it before it looks for warnings, and so
# does selftests/run_tests.sh in the guest (as /usr/share/ftnl-vm/
# emulator-faults.awk): a run is failed for what the kernel or ftnl did,
# not for what TCG did. Everything else is copied unchanged.
#
# The one report replaced: the WARN_ON_ONCE in exc_debug_kernel(), a
# single-step debug trap (#DB with DR_STEP) taken in kernel mode, whose
# register dumps hold an EFLAGS that no x86 CPU can have: bit 1 clear,
# or bit 3, 5, 15 or any bit from 22 up set. Hardware reads those bits
# as fixed; TCG once saved 7e08d302 (TF and six reserved bits set) in a
# kworker allocating an skb. The kernel never single-steps itself outside
# kprobes and kgdb (neither is used here); the kernel's own comment names
# QEMU as the known cause; it clears TF and goes on. A report with only
# possible EFLAGS, any other report, and a report another one interrupts
# or the log cuts short are all copied as they are.
#
# Plain POSIX awk: busybox awk runs it in the guest.

function hexval(c) {
	return index("0123456789abcdef", tolower(c)) - 1
}

# impossible_eflags(h): 1 if the hex string h cannot be an x86 EFLAGS.
function impossible_eflags(h,    n, i, d, bit, pos, set) {
	n = length(h)
	for (i = 1; i <= n; i++)
		if (hexval(substr(h, i, 1)) < 0)
			return 0
	for (i = 1; i <= n; i++) {
		d = hexval(substr(h, n - i + 1, 1))
		for (bit = 0; bit < 4; bit++) {
			pos = (i - 1) * 4 + bit
			set = d % 2
			d = int(d / 2)
			if (set) {
				if (pos == 3 || pos == 5 || pos == 15 || pos >= 22)
					return 1
			} else if (pos == 1) {
				return 1
			}
		}
	}
	return 0
}

function stamp_of(line) {
	if (match(line, /^\[ *[0-9]+\.[0-9]+\]/))
		return substr(line, RSTART, RLENGTH) " "
	return ""
}

function flush_verbatim(    i) {
	for (i = 1; i <= held; i++)
		print buf[i]
	held = 0
	inrep = 0
	bad = ""
}

BEGIN { held = 0; inrep = 0; bad = "" }

{
	if (inrep && /WARNING:|BUG:|Oops|Kernel panic|general protection/) {
		# Another report inside this one: keep both as they are.
		flush_verbatim()
	}
	if (!inrep && /WARNING: .* exc_debug_kernel/) {
		inrep = 1
		held = 0
		bad = ""
		first = stamp_of($0)
	}
	if (!inrep) {
		print
		next
	}
	buf[++held] = $0
	if (match($0, /EFLAGS: [0-9a-fA-F]+/)) {
		v = substr($0, RSTART + 8, RLENGTH - 8)
		if (bad == "" && impossible_eflags(v))
			bad = v
	}
	if (/---\[ end trace/) {
		if (bad == "") {
			flush_verbatim()
		} else {
			printf "%sftnl-vm: emulator fault, not counted: a single-step debug trap in kernel mode (exc_debug_kernel) saved EFLAGS %s, which no x86 CPU can hold (reserved bits); the kernel cleared TF and went on\n", first, bad
			held = 0
			inrep = 0
			bad = ""
		}
	}
}

END { flush_verbatim() }
