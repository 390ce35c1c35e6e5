// SPDX-License-Identifier: GPL-2.0
/*
 * The lateness histogram shared by the userspace ring and the benchmark
 * driver (see hist.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

/* The kernel's fls64(): 1-based index of the highest set bit, 0 for 0. */
static int fls64(uint64_t x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

void lat_hist_add(struct lat_hist *hist, int64_t late_ns)
{
	uint64_t late_us;
	int bucket;

	if (late_ns < 0)
		late_ns = 0;
	late_us = (uint64_t)late_ns / 1000;
	bucket = fls64(late_us);
	if (bucket > LAT_BUCKETS - 1)
		bucket = LAT_BUCKETS - 1;
	hist->bucket[bucket]++;
	if ((uint64_t)late_ns > hist->max_ns)
		hist->max_ns = (uint64_t)late_ns;
}

void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src)
{
	int i;

	for (i = 0; i < LAT_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

uint64_t lat_hist_count(const struct lat_hist *hist)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < LAT_BUCKETS; i++)
		n += hist->bucket[i];
	return n;
}

int lat_hist_quantile_bucket(const struct lat_hist *hist, double p)
{
	uint64_t total = lat_hist_count(hist), rank, seen = 0;
	int i;

	if (!total)
		return -1;
	/* Nearest rank: the smallest bucket holding at least p * total. */
	rank = (uint64_t)(p * (double)total);
	if ((double)rank < p * (double)total)
		rank++;
	if (rank < 1)
		rank = 1;
	for (i = 0; i < LAT_BUCKETS; i++) {
		seen += hist->bucket[i];
		if (seen >= rank)
			return i;
	}
	return LAT_BUCKETS - 1;
}

void fmt_duration_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns < 10000)
		snprintf(buf, len, "%.1fus", (double)ns / 1e3);
	else if (ns < 1000000)
		snprintf(buf, len, "%.0fus", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.1fms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", (double)ns / 1e9);
}

void lat_bucket_bound(int bucket, char *buf, size_t len)
{
	uint64_t us;

	if (bucket < 0) {
		snprintf(buf, len, "-");
		return;
	}
	if (bucket == LAT_BUCKETS - 1) {
		us = (uint64_t)1 << (bucket - 1);
		snprintf(buf, len, ">=%.2fs", (double)us / 1e6);
		return;
	}
	us = (uint64_t)1 << bucket;
	if (us < 10000)
		snprintf(buf, len, "<%" PRIu64 "us", us);
	else if (us < 1000000)
		snprintf(buf, len, "<%.1fms", (double)us / 1e3);
	else
		snprintf(buf, len, "<%.2fs", (double)us / 1e6);
}

int lat_hist_format(const struct lat_hist *hist, char *buf, size_t len)
{
	size_t used = 0;
	int i, n;

	for (i = 0; i < LAT_BUCKETS; i++) {
		n = snprintf(buf + used, len - used, "%s%" PRIu64, i ? "," : "",
			     hist->bucket[i]);
		if (n < 0 || (size_t)n >= len - used)
			return -ENOSPC;
		used += (size_t)n;
	}
	return 0;
}

int lat_hist_parse(struct lat_hist *hist, const char *text)
{
	const char *p = text;
	char *end;
	int i;

	for (i = 0; i < LAT_BUCKETS; i++) {
		errno = 0;
		hist->bucket[i] = strtoull(p, &end, 10);
		if (errno || end == p)
			return -EINVAL;
		if (i < LAT_BUCKETS - 1) {
			if (*end != ',')
				return -EINVAL;
			p = end + 1;
		} else if (*end && *end != ' ' && *end != '\n') {
			return -EINVAL;
		}
	}
	return 0;
}
