/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Heartbeat emission lateness histogram, defined exactly as the kernel
 * ring's (uapi/linux/ftnl.h, FTNL_A_STATS_LATENESS): lateness is "when the
 * heartbeat task ran" minus "the deadline it ran for", truncated to whole
 * microseconds; bucket 0 counts < 1 us, bucket i (0 < i < last) counts
 * [2^(i-1), 2^i) us, the last bucket everything later. The userspace ring
 * fills one of these, the kernel's is read from its stats, and both are
 * summarized by the same code.
 */
#ifndef FTNL_BENCH_HIST_H
#define FTNL_BENCH_HIST_H

#include <stddef.h>
#include <stdint.h>
#include <linux/ftnl.h>

#define LAT_BUCKETS	FTNL_LATENESS_BUCKETS

struct lat_hist {
	uint64_t bucket[LAT_BUCKETS];
	uint64_t max_ns;
};

/* Count one emission @late_ns after its deadline (negative counts as 0). */
void lat_hist_add(struct lat_hist *hist, int64_t late_ns);

/* Add every bucket of @src to @dst; the max is the larger of both. */
void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src);

uint64_t lat_hist_count(const struct lat_hist *hist);

/*
 * The bucket holding the @p quantile (0 < p <= 1, nearest rank), or -1 if
 * the histogram is empty.
 */
int lat_hist_quantile_bucket(const struct lat_hist *hist, double p);

/*
 * The exclusive upper bound of a bucket, as text: "<1us", "<64us",
 * "<16.4ms"; the last bucket is open: ">=4.19s". This is all the histogram
 * says of a quantile, so it is what the benchmark reports.
 */
void lat_bucket_bound(int bucket, char *buf, size_t len);

/* A duration in ns as text with a sensible unit: "850us", "12.3ms". */
void fmt_duration_ns(uint64_t ns, char *buf, size_t len);

/* "c0,c1,...,c23" <-> histogram, for the userspace ring's report. */
int lat_hist_format(const struct lat_hist *hist, char *buf, size_t len);
int lat_hist_parse(struct lat_hist *hist, const char *text);

#endif /* FTNL_BENCH_HIST_H */
