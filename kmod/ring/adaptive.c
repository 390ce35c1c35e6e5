// SPDX-License-Identifier: GPL-2.0
/*
 * Timeouts that adapt (see adaptive.h).
 *
 * The admin picks a target rate of false suspicions per heartbeat,
 * 10^-nines, and bounds d_min <= timeout <= d_max. Over the last W
 * inter-arrival times of the emitter's heartbeats the observer keeps the
 * mean m and the standard deviation s; the next heartbeat is expected m
 * after the last one (Chen, Toueg and Aguilera's expected arrival, taken
 * from the observed gaps instead of sequence numbers, so that a lost
 * heartbeat widens the estimate instead of being skipped), and the safety
 * margin is z * s, z the normal quantile with tail 10^-nines (the
 * phi-accrual reading of the same tail). So
 *
 *	timeout = clamp(max(m + z * max(s, h / 16), widest + h / 16),
 *			d_min, d_max)
 *
 * The floor on s keeps a margin when arrivals are perfectly regular (a
 * simulator, a quiet link): timer granularity and scheduling still move
 * single heartbeats by a fraction of h. And the timeout is never below
 * the widest gap in the window plus h / 16: a window of W samples can
 * underestimate s (arrivals that reorder, a loss), while a gap already
 * seen is evidence that the emitter lives through it. The widest gap is
 * found by W compares per update: bounded, as W is.
 *
 * Until W gaps are known (a new emitter, or a new life of it) the timeout
 * is d_max: the estimate of a fresh emitter is not trusted.
 *
 * Arithmetic: samples in ticks of 1024 ns, clamped to d_max (a longer gap
 * was a suspicion anyway); with d_max <= 60 s a sample is < 2^26 ticks,
 * the window's sum of squares < 2^57 and W * sumsq < 2^62: no overflow.
 */
#include "adaptive.h"

/* Normal upper-tail quantiles z(10^-p), p = 1..9, times 1024. */
static const u32 ftnl_adapt_z_q10[FTNL_ADAPT_NINES_MAX] = {
	1312, 2382, 3164, 3808, 4367, 4867, 5324, 5747, 6142,
};

/* floor(sqrt(x)), bit by bit: 32 rounds, no division. */
static u64 ftnl_adapt_isqrt(u64 x)
{
	u64 root = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= root + bit) {
			x -= root + bit;
			root = (root >> 1) + bit;
		} else {
			root >>= 1;
		}
		bit >>= 2;
	}
	return root;
}

/**
 * ftnl_adapt_invalid - why a configuration cannot be used
 * @period_ns: h
 * @min_ns: d_min
 * @max_ns: d_max
 * @nines: the target false-suspicion rate per heartbeat is 10^-@nines
 *
 * Return: NULL when valid, else the reason (for an extack or a config
 * file error).
 */
const char *ftnl_adapt_invalid(u64 period_ns, u64 min_ns, u64 max_ns,
			       u32 nines)
{
	if (nines < FTNL_ADAPT_NINES_MIN || nines > FTNL_ADAPT_NINES_MAX)
		return "adaptive target rate must be 10^-1 .. 10^-9";
	if (min_ns <= period_ns)
		return "adaptive minimum timeout must exceed the heartbeat period";
	if (max_ns < min_ns)
		return "adaptive maximum timeout is below its minimum";
	if (max_ns > FTNL_ADAPT_MAX_NS)
		return "adaptive maximum timeout exceeds 60 s";
	return NULL;
}

/**
 * ftnl_adapt_init - an estimator for a valid configuration
 * @est: the state
 * @period_ns: h
 * @min_ns: d_min
 * @max_ns: d_max
 * @nines: target rate 10^-@nines
 *
 * The caller checked the values with ftnl_adapt_invalid().
 */
void ftnl_adapt_init(struct ftnl_adapt *est, u64 period_ns, u64 min_ns,
		     u64 max_ns, u32 nines)
{
	est->period_ns = period_ns;
	est->min_ns = min_ns;
	est->max_ns = max_ns;
	est->z_q10 = ftnl_adapt_z_q10[nines - 1];
	ftnl_adapt_reset(est);
}

/**
 * ftnl_adapt_reset - forget the emitter: a new one, or a new life of it
 * @est: the state
 *
 * The timeout is d_max until the window is full again.
 */
void ftnl_adapt_reset(struct ftnl_adapt *est)
{
	est->have_last = false;
	est->last_ns = 0;
	est->count = 0;
	est->head = 0;
	est->sum = 0;
	est->sumsq = 0;
	est->timeout_ns = est->max_ns;
}

static u64 ftnl_adapt_estimate(const struct ftnl_adapt *est)
{
	u64 mean = est->sum >> FTNL_ADAPT_WINDOW_SHIFT;
	/* W^2 var = W sumsq - sum^2 >= 0 (Cauchy-Schwarz), exactly */
	u64 var = ((est->sumsq << FTNL_ADAPT_WINDOW_SHIFT) -
		   est->sum * est->sum) >> (2 * FTNL_ADAPT_WINDOW_SHIFT);
	u64 sd = ftnl_adapt_isqrt(var);
	u64 floor = est->period_ns >> (FTNL_ADAPT_TICK_SHIFT + 4);
	u64 ticks, widest = 0;
	u32 i;

	if (sd < floor)
		sd = floor;
	/* +1: round the truncated mean and margin up */
	ticks = mean + ((est->z_q10 * sd) >> 10) + 1;
	/* W compares: a gap the window has seen is not a failure */
	for (i = 0; i < FTNL_ADAPT_WINDOW; i++)
		if (est->samples[i] > widest)
			widest = est->samples[i];
	if (ticks < widest + floor + 1)
		ticks = widest + floor + 1;
	if (ticks << FTNL_ADAPT_TICK_SHIFT < est->min_ns)
		return est->min_ns;
	if (ticks << FTNL_ADAPT_TICK_SHIFT > est->max_ns)
		return est->max_ns;
	return ticks << FTNL_ADAPT_TICK_SHIFT;
}

/**
 * ftnl_adapt_arrival - a heartbeat of the emitter arrived
 * @est: the state
 * @now: its arrival (monotonic, not before the previous one)
 *
 * Return: the timeout the suspicion deadline is now + it.
 */
u64 ftnl_adapt_arrival(struct ftnl_adapt *est, u64 now)
{
	u64 gap;
	u32 sample;

	if (!est->have_last || now < est->last_ns) {
		est->have_last = true;
		est->last_ns = now;
		return est->timeout_ns;
	}
	gap = now - est->last_ns;
	est->last_ns = now;
	if (gap > est->max_ns)
		gap = est->max_ns;
	sample = gap >> FTNL_ADAPT_TICK_SHIFT;
	if (est->count == FTNL_ADAPT_WINDOW) {
		u64 old = est->samples[est->head];

		est->sum -= old;
		est->sumsq -= old * old;
	} else {
		est->count++;
	}
	est->samples[est->head] = sample;
	est->head = (est->head + 1) & (FTNL_ADAPT_WINDOW - 1);
	est->sum += sample;
	est->sumsq += (u64)sample * sample;
	if (est->count == FTNL_ADAPT_WINDOW)
		est->timeout_ns = ftnl_adapt_estimate(est);
	return est->timeout_ns;
}
