/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tools/bench/era: small helpers shared by the ERA and MPI benchmark
 * programs: a monotonic clock in nanoseconds and order statistics.
 */
#ifndef ERA_BENCH_STATS_H
#define ERA_BENCH_STATS_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int bench_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The q-quantile (0 < q <= 1) of @n samples by the nearest-rank method:
 * the smallest sample with at least q n samples at or below it. Sorts
 * @v in place. 0 when @n is 0.
 */
static inline uint64_t bench_quantile(uint64_t *v, size_t n, double q)
{
	size_t k;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), bench_cmp_u64);
	k = (size_t)(q * (double)n + 0.999999);
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return v[k - 1];
}

#endif /* ERA_BENCH_STATS_H */
