/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stall probe: one real-time thread per CPU sleeps 1 ms at a time and
 * records every wake-up later than STALL_MIN_NS. Nothing but an interrupt,
 * or the vCPU not running at all (the emulator's host not scheduling its
 * thread), delays a SCHED_FIFO thread that much; a false suspicion with a
 * stall of d - h or more just before it is the test bed's, not ftnl's
 * (Documentation/bench.rst). Used by the TIPC part, the quiet runs, and
 * on the node under test's CPU with --own-cpu.
 */
#ifndef FTNL_BENCH_STALL_H
#define FTNL_BENCH_STALL_H

#include <stdbool.h>
#include <stdint.h>

#define STALL_MIN_NS		(5 * 1000000ULL)

struct interval_summary;

/* Starts one probe per online CPU (64 at most); 0 or -errno. */
int stall_probe_start(void);
/* Starts one probe, on @cpu, recording stalls of @min_ns or more. */
int stall_probe_start_on(int cpu, uint64_t min_ns);
/* Stops them; what they recorded stays readable. */
void stall_probe_stop(void);
/* Was there a stall of @len_ns or more overlapping [@from, @to]? */
bool stall_within(uint64_t from, uint64_t to, uint64_t len_ns);
/* The stalls (of STALL_MIN_NS or more), how many last @long_ns or more. */
void stall_summary(uint64_t long_ns, struct interval_summary *s);

#endif
