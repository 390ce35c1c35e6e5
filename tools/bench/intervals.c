// SPDX-License-Identifier: GPL-2.0
/* Logs of time intervals (intervals.h). */
#include "intervals.h"

void interval_log_reset(struct interval_log *log)
{
	atomic_store(&log->count, 0);
}

void interval_log_add(struct interval_log *log, uint64_t from, uint64_t to)
{
	unsigned int k = atomic_fetch_add(&log->count, 1);

	/* A full log still counts what it cannot keep (summary's unrecorded). */
	if (k < log->cap) {
		log->slot[k].from = from;
		log->slot[k].to = to;
	}
}

static unsigned int kept(const struct interval_log *log)
{
	unsigned int n = atomic_load(&log->count);

	return n < log->cap ? n : log->cap;
}

bool interval_log_within(const struct interval_log *log, uint64_t from,
			 uint64_t to, uint64_t len_ns)
{
	unsigned int i, n = kept(log);

	for (i = 0; i < n; i++) {
		const struct interval *v = &log->slot[i];

		if (v->to - v->from >= len_ns && v->to >= from && v->from <= to)
			return true;
	}
	return false;
}

void interval_log_summary(const struct interval_log *log, uint64_t long_ns,
			  struct interval_summary *s)
{
	unsigned int i, n = kept(log);
	uint64_t len;

	s->count = atomic_load(&log->count);
	s->unrecorded = s->count - n;
	s->long_count = 0;
	s->max_ns = 0;
	s->total_ns = 0;
	for (i = 0; i < n; i++) {
		len = log->slot[i].to - log->slot[i].from;
		if (len > s->max_ns)
			s->max_ns = len;
		s->total_ns += len;
		s->long_count += len >= long_ns;
	}
}
