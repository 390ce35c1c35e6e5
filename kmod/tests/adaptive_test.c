// SPDX-License-Identifier: GPL-2.0
/*
 * The adaptive timeout estimator (kmod/ring/adaptive.c), compiled into
 * userspace: d_max until the window is full; regular arrivals give about
 * h + z * h / 16; jitter and losses widen it so that no gap of a bounded
 * pattern exceeds the timeout set before it; it follows a change of rate
 * within a window; it stays within [d_min, d_max] for any arrivals; a
 * reset forgets everything (a replay after it matches a fresh estimator);
 * bad configurations are refused with a reason.
 */
#include "../../tools/testing/tap.h"
#include "../ring/adaptive.h"

#define MS 1000000ULL
#define US 1000ULL

/* Deterministic PRNG (xorshift64*), so a failure replays. */
static u64 rng_state;

static u64 rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

/* Uniform in [-span, span]. */
static long long rng_jitter(u64 span)
{
	return (long long)(rng_next() % (2 * span + 1)) - (long long)span;
}

static void feed_regular(struct ftnl_adapt *est, u64 *now, u64 gap, u32 n)
{
	for (u32 i = 0; i < n; i++) {
		*now += gap;
		ftnl_adapt_arrival(est, *now);
	}
}

static void test_warm_up(const void *arg)
{
	struct ftnl_adapt est;
	u64 now = 1000 * MS;

	(void)arg;
	ftnl_adapt_init(&est, 10 * MS, 15 * MS, 100 * MS, 6);
	/* the first arrival and W - 1 gaps: not trusted yet */
	for (u32 i = 0; i < FTNL_ADAPT_WINDOW; i++) {
		TAP_CHECK_UINT(ftnl_adapt_arrival(&est, now), 100 * MS);
		now += 10 * MS;
	}
	TAP_CHECK(ftnl_adapt_arrival(&est, now) < 100 * MS);
}

static void test_stationary(const void *arg)
{
	struct ftnl_adapt est;
	u64 now = 0, t;

	(void)arg;
	ftnl_adapt_init(&est, 10 * MS, 11 * MS, 100 * MS, 6);
	feed_regular(&est, &now, 10 * MS, 200);
	t = est.timeout_ns;
	/* h + z(1e-6) * h / 16 = 10 + 4.753 * 0.625 = 12.97 ms */
	TAP_CHECK(t >= 12900 * US && t <= 13100 * US);
	if (!(t >= 12900 * US && t <= 13100 * US))
		tap_diag("timeout %llu ns", (unsigned long long)t);
	/* a stricter target rate gives a larger margin */
	ftnl_adapt_init(&est, 10 * MS, 11 * MS, 100 * MS, 9);
	now = 0;
	feed_regular(&est, &now, 10 * MS, 200);
	TAP_CHECK(est.timeout_ns > t);
	/* d_min above the estimate wins */
	ftnl_adapt_init(&est, 10 * MS, 20 * MS, 100 * MS, 6);
	now = 0;
	feed_regular(&est, &now, 10 * MS, 200);
	TAP_CHECK_UINT(est.timeout_ns, 20 * MS);
}

/*
 * Arrivals with bounded jitter: the timeout widens with it, and no gap
 * exceeds the timeout set at the arrival before it (no false suspicion).
 */
static void test_jitter_widens(const void *arg)
{
	struct ftnl_adapt quiet, noisy;
	u64 now = 0, prev_timeout, late = 0;
	u64 send = 0;

	(void)arg;
	rng_state = 0x9e3779b97f4a7c15ULL;
	ftnl_adapt_init(&quiet, 10 * MS, 11 * MS, 100 * MS, 6);
	feed_regular(&quiet, &now, 10 * MS, 100);
	ftnl_adapt_init(&noisy, 10 * MS, 11 * MS, 100 * MS, 6);
	now = 0;
	prev_timeout = ftnl_adapt_arrival(&noisy, 0);
	for (u32 i = 0; i < 100000; i++) {
		u64 at;

		send += 10 * MS;
		/* sent every h, delayed 0 .. 4 ms */
		at = send + 2 * MS + rng_jitter(2 * MS);
		if (at < now)
			at = now;
		if (at - now > prev_timeout)
			late++;
		now = at;
		prev_timeout = ftnl_adapt_arrival(&noisy, now);
	}
	TAP_CHECK_UINT(late, 0);
	TAP_CHECK(noisy.timeout_ns > quiet.timeout_ns + 2 * MS);
	TAP_CHECK(noisy.timeout_ns < 30 * MS);
	if (noisy.timeout_ns >= 30 * MS || noisy.timeout_ns <= quiet.timeout_ns)
		tap_diag("quiet %llu noisy %llu",
			 (unsigned long long)quiet.timeout_ns,
			 (unsigned long long)noisy.timeout_ns);
}

/* One heartbeat in 8 lost: the timeout covers the 2h gaps. */
static void test_losses_widen(const void *arg)
{
	struct ftnl_adapt est;
	u64 now = 0, prev_timeout, late = 0;

	(void)arg;
	ftnl_adapt_init(&est, 10 * MS, 11 * MS, 100 * MS, 6);
	prev_timeout = ftnl_adapt_arrival(&est, 0);
	for (u32 i = 1; i < 10000; i++) {
		if (i % 8 == 0)
			continue;
		if (i * 10 * MS - now > prev_timeout && i > 2 * FTNL_ADAPT_WINDOW)
			late++;
		now = i * 10 * MS;
		prev_timeout = ftnl_adapt_arrival(&est, now);
	}
	TAP_CHECK_UINT(late, 0);
	TAP_CHECK(est.timeout_ns > 20 * MS);
}

/* The rate changes from h = 10 ms to 50 ms: followed within a window. */
static void test_follows_rate(const void *arg)
{
	struct ftnl_adapt est;
	u64 now = 0;

	(void)arg;
	ftnl_adapt_init(&est, 10 * MS, 11 * MS, 500 * MS, 6);
	feed_regular(&est, &now, 10 * MS, 100);
	TAP_CHECK(est.timeout_ns < 15 * MS);
	feed_regular(&est, &now, 50 * MS, FTNL_ADAPT_WINDOW);
	/* the floor on s stays h / 16 of the configured h */
	TAP_CHECK(est.timeout_ns >= 50 * MS && est.timeout_ns < 55 * MS);
	feed_regular(&est, &now, 10 * MS, FTNL_ADAPT_WINDOW);
	TAP_CHECK(est.timeout_ns < 15 * MS);
}

/* Any arrivals at all, any configuration: d_min <= timeout <= d_max. */
static void test_bounds(const void *arg)
{
	u64 bad = 0;

	(void)arg;
	rng_state = 0x1234567887654321ULL;
	for (u32 seed = 0; seed < 200; seed++) {
		struct ftnl_adapt est;
		u64 h = 1 * MS + rng_next() % (1000 * MS);
		u64 lo = h + 1 + rng_next() % (10 * h);
		u64 hi = lo + rng_next() % (FTNL_ADAPT_MAX_NS - lo + 1);
		u32 nines = 1 + rng_next() % 9;
		u64 now = rng_next() % (1ULL << 40);

		if (ftnl_adapt_invalid(h, lo, hi, nines)) {
			bad++;
			continue;
		}
		ftnl_adapt_init(&est, h, lo, hi, nines);
		for (u32 i = 0; i < 500; i++) {
			u64 t;

			switch (rng_next() % 4) {
			case 0:
				now += rng_next() % (2 * FTNL_ADAPT_MAX_NS);
				break;
			case 1:
				now += rng_next() % 1000;
				break;
			default:
				now += h + rng_jitter(h / 2);
			}
			t = ftnl_adapt_arrival(&est, now);
			if (t < lo || t > hi)
				bad++;
		}
	}
	TAP_CHECK_UINT(bad, 0);
}

/*
 * A reset (new emitter, new life) forgets the past: d_max at once, and
 * the same arrivals then give the same timeouts as a fresh estimator's.
 */
static void test_reset(const void *arg)
{
	struct ftnl_adapt used, fresh;
	u64 now = 0, mismatches = 0;

	(void)arg;
	rng_state = 42;
	ftnl_adapt_init(&used, 10 * MS, 11 * MS, 200 * MS, 6);
	for (u32 i = 0; i < 300; i++) {
		now += 10 * MS + rng_jitter(5 * MS);
		ftnl_adapt_arrival(&used, now);
	}
	TAP_CHECK(used.timeout_ns < 200 * MS);
	ftnl_adapt_reset(&used);
	TAP_CHECK_UINT(used.timeout_ns, 200 * MS);
	ftnl_adapt_init(&fresh, 10 * MS, 11 * MS, 200 * MS, 6);
	for (u32 i = 0; i < 300; i++) {
		now += 10 * MS + (i % 7) * MS;
		if (ftnl_adapt_arrival(&used, now) !=
		    ftnl_adapt_arrival(&fresh, now))
			mismatches++;
	}
	TAP_CHECK_UINT(mismatches, 0);
	TAP_CHECK(fresh.timeout_ns < 200 * MS);
}

static void test_invalid(const void *arg)
{
	(void)arg;
	TAP_CHECK(!ftnl_adapt_invalid(10 * MS, 11 * MS, 11 * MS, 1));
	TAP_CHECK(!ftnl_adapt_invalid(10 * MS, 20 * MS, FTNL_ADAPT_MAX_NS, 9));
	TAP_CHECK_CONTAINS(ftnl_adapt_invalid(10 * MS, 20 * MS, 50 * MS, 0),
			   "target rate");
	TAP_CHECK_CONTAINS(ftnl_adapt_invalid(10 * MS, 20 * MS, 50 * MS, 10),
			   "target rate");
	TAP_CHECK_CONTAINS(ftnl_adapt_invalid(10 * MS, 10 * MS, 50 * MS, 6),
			   "exceed the heartbeat period");
	TAP_CHECK_CONTAINS(ftnl_adapt_invalid(10 * MS, 50 * MS, 20 * MS, 6),
			   "below its minimum");
	TAP_CHECK_CONTAINS(ftnl_adapt_invalid(10 * MS, 20 * MS,
					      FTNL_ADAPT_MAX_NS + 1, 6),
			   "exceeds 60 s");
}

int main(void)
{
	tap_add(test_warm_up, NULL, "d_max until the window of gaps is full");
	tap_add(test_stationary, NULL,
		"regular arrivals: about h + z * h / 16; stricter rate, larger; d_min wins");
	tap_add(test_jitter_widens, NULL,
		"0..4 ms jitter over 100000 heartbeats: wider, no gap beyond the timeout");
	tap_add(test_losses_widen, NULL,
		"one heartbeat in 8 lost: the timeout covers 2h, no false suspicion");
	tap_add(test_follows_rate, NULL, "a change of rate is followed within a window");
	tap_add(test_bounds, NULL, "200 random configurations and arrival patterns: within [d_min, d_max]");
	tap_add(test_reset, NULL, "a reset forgets: d_max, then the same as a fresh estimator");
	tap_add(test_invalid, NULL, "bad configurations are refused with a reason");
	return tap_run();
}
