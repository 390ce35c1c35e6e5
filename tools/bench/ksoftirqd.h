/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel's softirq threads got of the CPUs over a window
 * (ksoftirqd.c): how long they ran and how long they waited, runnable,
 * for their turn. On 6.1, once a CPU's ksoftirqd is runnable, the
 * softirqs raised there (the network receive among them) wait for it,
 * and it competes with user tasks as an ordinary thread.
 */
#ifndef FTNL_BENCH_KSOFTIRQD_H
#define FTNL_BENCH_KSOFTIRQD_H

#include <stdint.h>

struct ksoftirqd_times {
	uint64_t run_ns;	/* on a CPU, summed over the threads */
	uint64_t wait_ns;	/* runnable, waiting for a CPU */
	uint64_t runs;		/* times each was put on a CPU */
	unsigned int threads;	/* ksoftirqd threads read (0: none found) */
};

/* Reads every ksoftirqd's /proc/PID/schedstat now. */
void ksoftirqd_read(struct ksoftirqd_times *t);
/* @end less @start, field by field (@threads: @end's). */
void ksoftirqd_since(struct ksoftirqd_times *d,
		     const struct ksoftirqd_times *start,
		     const struct ksoftirqd_times *end);

#endif
