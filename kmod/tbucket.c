// SPDX-License-Identifier: GPL-2.0
/*
 * Token bucket (tbucket.h). Credit is kept as time: a token costs one
 * period, the bucket holds @burst periods, so that changing @rate or
 * @burst between calls (module parameters) needs no conversion.
 */

#include "tbucket.h"

#define FTNL_TBUCKET_NS_PER_SEC	1000000000ULL

static u64 ftnl_tbucket_period(u32 rate)
{
	return FTNL_TBUCKET_NS_PER_SEC / (rate ? rate : 1);
}

/* The credit at @now_ns, capped at @burst periods (at least one). */
static u64 ftnl_tbucket_credit(const struct ftnl_tbucket *b, u64 now_ns,
			       u32 burst, u64 period)
{
	u64 cap = period * (burst ? burst : 1);
	u64 elapsed = now_ns > b->last_ns ? now_ns - b->last_ns : 0;

	if (b->credit_ns >= cap || elapsed >= cap - b->credit_ns)
		return cap;
	return b->credit_ns + elapsed;
}

/**
 * ftnl_tbucket_take - take a token if one is there
 * @b: the bucket
 * @now_ns: a monotonic clock reading
 * @burst: tokens the bucket holds (0 is taken as 1)
 * @rate: tokens per second (0 is taken as 1)
 *
 * Return: true if a token was taken (the action may happen now).
 */
bool ftnl_tbucket_take(struct ftnl_tbucket *b, u64 now_ns, u32 burst,
		       u32 rate)
{
	u64 period = ftnl_tbucket_period(rate);
	u64 credit = ftnl_tbucket_credit(b, now_ns, burst, period);

	if (now_ns > b->last_ns)
		b->last_ns = now_ns;
	b->credit_ns = credit;
	if (credit < period)
		return false;
	b->credit_ns -= period;
	return true;
}

/**
 * ftnl_tbucket_wait_ns - how long until a token is there
 * @b: the bucket
 * @now_ns: a monotonic clock reading
 * @burst: as for ftnl_tbucket_take()
 * @rate: as for ftnl_tbucket_take()
 *
 * Return: 0 if one is there now, else the ns until there is one.
 */
u64 ftnl_tbucket_wait_ns(const struct ftnl_tbucket *b, u64 now_ns, u32 burst,
			 u32 rate)
{
	u64 period = ftnl_tbucket_period(rate);
	u64 credit = ftnl_tbucket_credit(b, now_ns, burst, period);

	return credit >= period ? 0 : period - credit;
}
