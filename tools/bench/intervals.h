/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A log of time intervals that probe threads append to without a lock and
 * the bench reads once they stopped: the stall probe's stalls (stall.h),
 * the backlog probe's episodes (backlog_probe.h). Attribution asks whether an
 * interval of some length overlaps a time window.
 */
#ifndef FTNL_BENCH_INTERVALS_H
#define FTNL_BENCH_INTERVALS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct interval {
	uint64_t from, to;	/* CLOCK_MONOTONIC */
};

struct interval_log {
	struct interval *slot;
	unsigned int cap;
	atomic_uint count;	/* appended, kept or not */
};

#define INTERVAL_LOG_INIT(array) \
	{ (array), sizeof(array) / sizeof((array)[0]), 0 }

struct interval_summary {
	unsigned int count;	/* appended */
	unsigned int unrecorded;	/* appended when the log was full */
	unsigned int long_count;	/* kept ones of at least the length asked */
	uint64_t max_ns;	/* of those kept */
	uint64_t total_ns;
};

void interval_log_reset(struct interval_log *log);
/* Safe from any number of threads at once. */
void interval_log_add(struct interval_log *log, uint64_t from, uint64_t to);
/* Is an interval of @len_ns or more overlapping [@from, @to] kept? */
bool interval_log_within(const struct interval_log *log, uint64_t from,
			 uint64_t to, uint64_t len_ns);
void interval_log_summary(const struct interval_log *log, uint64_t long_ns,
			  struct interval_summary *s);

#endif
