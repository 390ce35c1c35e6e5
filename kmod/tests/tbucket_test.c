// SPDX-License-Identifier: GPL-2.0
/*
 * The token bucket that rate-limits process-exit broadcasts
 * (kmod/tbucket.c), compiled into userspace.
 */
#include "../../tools/testing/tap.h"
#include "../tbucket.h"

#define SEC 1000000000ULL

/* A full bucket gives @burst tokens at once, then none. */
static void test_burst(const void *arg)
{
	struct ftnl_tbucket b = { 0 };
	u64 now = 100 * SEC;
	int taken = 0;

	(void)arg;
	while (taken < 100 && ftnl_tbucket_take(&b, now, 4, 10))
		taken++;
	TAP_CHECK_INT(taken, 4);
	TAP_CHECK_UINT(ftnl_tbucket_wait_ns(&b, now, 4, 10), SEC / 10);
	TAP_CHECK(!ftnl_tbucket_take(&b, now + SEC / 10 - 1, 4, 10));
	TAP_CHECK(ftnl_tbucket_take(&b, now + SEC / 10, 4, 10));
	TAP_CHECK(!ftnl_tbucket_take(&b, now + SEC / 10, 4, 10));
}

/*
 * Over any interval, the tokens taken never exceed burst + rate * time,
 * whatever the pattern of attempts; and a steady caller gets the rate.
 */
static void test_bound(const void *arg)
{
	unsigned int seed = 7;

	(void)arg;
	for (int round = 0; round < 200; round++) {
		struct ftnl_tbucket b = { 0 };
		u32 burst = 1 + rand_r(&seed) % 16, rate = 1 + rand_r(&seed) % 200;
		u64 start = 50 * SEC, now = start, taken = 0;
		u64 max_gap = 2 * SEC / rate / 8;

		for (int i = 0; i < 20000; i++) {
			now += rand_r(&seed) % (max_gap + 1);
			taken += ftnl_tbucket_take(&b, now, burst, rate);
			TAP_CHECK(taken <= burst + (now - start) * rate / SEC + 1);
		}
		/* a token at most one gap after each period */
		TAP_CHECK(taken + 1 >= (now - start) / (SEC / rate + max_gap));
	}
}

/* The wait announced is exactly when the next token is there. */
static void test_wait_is_exact(const void *arg)
{
	struct ftnl_tbucket b = { 0 };
	u64 now = 10 * SEC, wait;

	(void)arg;
	while (ftnl_tbucket_take(&b, now, 3, 7))
		;
	for (int i = 0; i < 50; i++) {
		wait = ftnl_tbucket_wait_ns(&b, now, 3, 7);
		TAP_CHECK(wait > 0);
		TAP_CHECK(!ftnl_tbucket_take(&b, now + wait - 1, 3, 7));
		TAP_CHECK(ftnl_tbucket_wait_ns(&b, now + wait, 3, 7) == 0);
		TAP_CHECK(ftnl_tbucket_take(&b, now + wait, 3, 7));
		now += wait;
	}
}

/* Zero parameters are taken as 1; a clock going back takes nothing. */
static void test_edges(const void *arg)
{
	struct ftnl_tbucket b = { 0 };

	(void)arg;
	TAP_CHECK(ftnl_tbucket_take(&b, 5 * SEC, 0, 0));
	TAP_CHECK(!ftnl_tbucket_take(&b, 5 * SEC, 0, 0));
	TAP_CHECK(!ftnl_tbucket_take(&b, 4 * SEC, 0, 0));
	TAP_CHECK(ftnl_tbucket_take(&b, 6 * SEC, 0, 0));
}

int main(void)
{
	tap_add(test_burst, NULL, "a full bucket gives burst tokens, then one per period");
	tap_add(test_bound, NULL, "never more than burst + rate * time over random attempts, and the rate to a steady caller");
	tap_add(test_wait_is_exact, NULL, "the announced wait is exactly when the next token comes");
	tap_add(test_edges, NULL, "zero burst and rate count as 1; a clock stepping back gives nothing");
	return tap_run();
}
