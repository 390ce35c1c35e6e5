/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timeouts that adapt, pure: an observer's estimate of its emitter's
 * heartbeat inter-arrival times, and the suspicion timeout it implies for
 * a target false-suspicion rate (Chen, Toueg and Aguilera's QoS detector
 * with a normal tail, as phi-accrual models it). Integer arithmetic only
 * (the kernel has no floating point here), bounded memory (a ring of
 * FTNL_ADAPT_WINDOW samples), O(1) per heartbeat.
 */
#ifndef _FTNL_RING_ADAPTIVE_H
#define _FTNL_RING_ADAPTIVE_H

#include "../compat.h"

/* Inter-arrival samples the estimate is taken over: 2^SHIFT of them. */
#define FTNL_ADAPT_WINDOW	32
#define FTNL_ADAPT_WINDOW_SHIFT	5

/* Samples are kept in ticks of 1024 ns: shifts instead of divisions. */
#define FTNL_ADAPT_TICK_SHIFT	10

/*
 * Bounds the configuration is checked against (ftnl_adapt_invalid()):
 * a sample never exceeds the largest d_max, so the sums cannot overflow.
 */
#define FTNL_ADAPT_MAX_NS	(60ULL * 1000 * 1000 * 1000)
#define FTNL_ADAPT_NINES_MIN	1
#define FTNL_ADAPT_NINES_MAX	9

/**
 * struct ftnl_adapt - one observer's estimator of its current emitter
 * @period_ns: h
 * @min_ns: d_min, the timeout never goes below it
 * @max_ns: d_max, the timeout never goes above it (and is the timeout
 *	until the window is full)
 * @z_q10: the normal quantile of the target rate, times 1024
 * @last_ns: arrival of the previous heartbeat, when @have_last
 * @have_last: a heartbeat of this emitter arrived since the last reset
 * @count: samples in the window (up to FTNL_ADAPT_WINDOW)
 * @head: where the next sample goes
 * @sum: sum of the samples in the window, in ticks
 * @sumsq: sum of their squares
 * @timeout_ns: the current timeout
 * @samples: inter-arrival times in ticks, a ring
 */
struct ftnl_adapt {
	u64 period_ns;
	u64 min_ns;
	u64 max_ns;
	u32 z_q10;
	u64 last_ns;
	bool have_last;
	u32 count;
	u32 head;
	u64 sum;
	u64 sumsq;
	u64 timeout_ns;
	u32 samples[FTNL_ADAPT_WINDOW];
};

const char *ftnl_adapt_invalid(u64 period_ns, u64 min_ns, u64 max_ns,
			       u32 nines);
void ftnl_adapt_init(struct ftnl_adapt *est, u64 period_ns, u64 min_ns,
		     u64 max_ns, u32 nines);
void ftnl_adapt_reset(struct ftnl_adapt *est);
u64 ftnl_adapt_arrival(struct ftnl_adapt *est, u64 now);

#endif /* _FTNL_RING_ADAPTIVE_H */
