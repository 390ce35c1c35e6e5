// SPDX-License-Identifier: GPL-2.0
/*
 * Broadcast de-duplication (kmod/bcast/window.c) under ASan/UBSan:
 *   - the window's rules one by one (new, seen, old, sliding, restart of
 *     the origin, forwarding once per cube);
 *   - a deterministic simulation of bursts over many seeded schedules:
 *     several origins each start hundreds of broadcasts at once (far more
 *     than the window, and than the 256-entry FIFO this replaced), every
 *     broadcast reaches the receiver as several copies in each cube,
 *     reordered and delayed at random. Checked: no broadcast is ever
 *     delivered twice, no (broadcast, cube) is forwarded twice, whatever
 *     the delays; and every broadcast whose first copy arrives while it is
 *     inside its origin's window (fewer than FTNL_BCAST_WINDOW later
 *     broadcasts of that origin delivered before it) is delivered exactly
 *     once, and forwarded exactly once in each cube whose first copy
 *     arrives so.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/testing/tap.h"
#include "../bcast/window.h"

static void test_rules(const void *arg)
{
	struct ftnl_bcast_window w = { 0 };
	u64 s;

	(void)arg;
	TAP_CHECK_INT(ftnl_bcast_window_check(&w, 5, 1), FTNL_WINDOW_NEW);
	TAP_CHECK_INT(ftnl_bcast_window_check(&w, 5, 0), FTNL_WINDOW_OLD);
	TAP_CHECK_INT(ftnl_bcast_window_check(&w, 0, 1), FTNL_WINDOW_OLD);
	TAP_CHECK(!ftnl_bcast_window_forward_once(&w, 5, 1, 0));
	TAP_CHECK(ftnl_bcast_window_mark(&w, 5, 10));
	TAP_CHECK(!ftnl_bcast_window_mark(&w, 5, 10));
	TAP_CHECK_INT(ftnl_bcast_window_check(&w, 5, 10), FTNL_WINDOW_SEEN);
	/* below the top, inside the window: still new */
	TAP_CHECK_INT(ftnl_bcast_window_check(&w, 5, 9), FTNL_WINDOW_NEW);
	TAP_CHECK(!ftnl_bcast_window_forwarded(&w, 5, 10, 0));
	TAP_CHECK(ftnl_bcast_window_forward_once(&w, 5, 10, 0));
	TAP_CHECK(ftnl_bcast_window_forwarded(&w, 5, 10, 0));
	TAP_CHECK(!ftnl_bcast_window_forwarded(&w, 5, 10, 1));
	TAP_CHECK(ftnl_bcast_window_forwarded(&w, 5, 10, 2));
	TAP_CHECK(!ftnl_bcast_window_forward_once(&w, 5, 10, 0));
	TAP_CHECK(ftnl_bcast_window_forward_once(&w, 5, 10, 1));
	TAP_CHECK(!ftnl_bcast_window_forward_once(&w, 5, 10, 2));
	TAP_CHECK(!ftnl_bcast_window_forward_once(&w, 5, 9, 0));

	/* slide by less than the window: 10 stays seen */
	TAP_CHECK(ftnl_bcast_window_mark(&w, 5, 10 + FTNL_BCAST_WINDOW - 1));
	TAP_CHECK_INT(ftnl_bcast_window_check(&w, 5, 10), FTNL_WINDOW_SEEN);
	TAP_CHECK_INT(ftnl_bcast_window_check(&w, 5, 11), FTNL_WINDOW_NEW);
	TAP_CHECK(!ftnl_bcast_window_forward_once(&w, 5, 10, 0));
	/* one more: 10 falls out, and is old, never new again */
	TAP_CHECK(ftnl_bcast_window_mark(&w, 5, 10 + FTNL_BCAST_WINDOW));
	TAP_CHECK_INT(ftnl_bcast_window_check(&w, 5, 10), FTNL_WINDOW_OLD);
	TAP_CHECK(!ftnl_bcast_window_mark(&w, 5, 10));
	TAP_CHECK(!ftnl_bcast_window_forward_once(&w, 5, 10, 1));
	/* the slot 10 used is clean for the number now in it */
	TAP_CHECK_INT(ftnl_bcast_window_check(&w, 5, 10 + FTNL_BCAST_WINDOW),
		      FTNL_WINDOW_SEEN);
	TAP_CHECK(ftnl_bcast_window_forward_once(&w, 5, 10 + FTNL_BCAST_WINDOW, 0));

	/* a jump beyond the window forgets everything below */
	TAP_CHECK(ftnl_bcast_window_mark(&w, 5, 10000));
	for (s = 10000 - FTNL_BCAST_WINDOW + 1; s < 10000; s++)
		if (ftnl_bcast_window_check(&w, 5, s) != FTNL_WINDOW_NEW)
			break;
	TAP_CHECK_UINT(s, 10000);
	TAP_CHECK_INT(ftnl_bcast_window_check(&w, 5, 10000 - FTNL_BCAST_WINDOW),
		      FTNL_WINDOW_OLD);
	TAP_CHECK(ftnl_bcast_window_forward_once(&w, 5, 10000, 1));

	/* the origin restarted: its old life is old, the new one new */
	TAP_CHECK_INT(ftnl_bcast_window_check(&w, 6, 1), FTNL_WINDOW_NEW);
	TAP_CHECK(ftnl_bcast_window_mark(&w, 6, 1));
	TAP_CHECK_INT(ftnl_bcast_window_check(&w, 5, 10000), FTNL_WINDOW_OLD);
	TAP_CHECK(!ftnl_bcast_window_mark(&w, 5, 10001));
	TAP_CHECK_INT(ftnl_bcast_window_check(&w, 6, 2), FTNL_WINDOW_NEW);
	TAP_CHECK_INT(ftnl_bcast_window_check(&w, 6, 1), FTNL_WINDOW_SEEN);
}

/* The burst simulation. */
#define ORIGINS		6
#define COPIES		3	/* per cube */
#define CUBES		FTNL_BCAST_WINDOW_CUBES

struct copy {
	u32 origin;
	u64 seq;
	u8 cube;
	u64 at;		/* arrival time */
};

struct sim {
	unsigned int seed;
	u32 burst;		/* broadcasts per origin */
	struct ftnl_bcast_window w[ORIGINS];
	u8 *delivered;		/* [origin][seq]: times delivered */
	u8 *forwarded;		/* [origin][seq][cube] */
	u64 *first_at;		/* arrival of the first copy */
	bool *first_in_window;	/* its verdict was not "old" */
	u8 *cube_first;		/* [x][cube]: 1 + (first copy in it not old) */
	struct copy *copies;
	size_t ncopies;
	u64 old;
};

static size_t idx(const struct sim *s, u32 origin, u64 seq)
{
	return (size_t)origin * (s->burst + 1) + seq;
}

static int by_arrival(const void *a, const void *b)
{
	const struct copy *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * Origin o starts broadcast k at time k * gap_o; each copy is delayed by
 * up to @spread (a burst in flight together); ties in arrival keep the
 * generation order, which the seed shuffles.
 */
static void sim_run(struct sim *s, u32 burst, u64 spread, unsigned int seed)
{
	size_t n = (size_t)ORIGINS * (burst + 1), i;
	u32 o, c, k;
	u64 seq;

	memset(s, 0, sizeof(*s));
	s->seed = seed;
	s->burst = burst;
	s->delivered = calloc(n, 1);
	s->forwarded = calloc(n * CUBES, 1);
	s->first_at = calloc(n, sizeof(u64));
	s->first_in_window = calloc(n, sizeof(bool));
	s->cube_first = calloc(n * CUBES, 1);
	s->copies = calloc((size_t)ORIGINS * burst * CUBES * COPIES,
			   sizeof(*s->copies));
	if (!s->delivered || !s->forwarded || !s->first_at ||
	    !s->first_in_window || !s->cube_first || !s->copies)
		abort();
	for (o = 0; o < ORIGINS; o++) {
		u64 gap = 1 + (u64)(rand_r(&s->seed) % 5);

		for (seq = 1; seq <= burst; seq++)
			for (c = 0; c < CUBES; c++)
				for (k = 0; k < COPIES; k++)
					s->copies[s->ncopies++] = (struct copy){
						.origin = o,
						.seq = seq,
						.cube = (u8)c,
						.at = seq * gap +
						      (u64)rand_r(&s->seed) % (spread + 1),
					};
	}
	/* shuffle, then a stable order by arrival (insertion by qsort of
	 * distinct keys: break ties with the shuffled index)
	 */
	for (i = s->ncopies; i > 1; i--) {
		size_t j = (size_t)rand_r(&s->seed) % i;
		struct copy t = s->copies[i - 1];

		s->copies[i - 1] = s->copies[j];
		s->copies[j] = t;
	}
	for (i = 0; i < s->ncopies; i++)
		s->copies[i].at = s->copies[i].at * s->ncopies + i;
	qsort(s->copies, s->ncopies, sizeof(*s->copies), by_arrival);

	for (i = 0; i < s->ncopies; i++) {
		const struct copy *cp = &s->copies[i];
		struct ftnl_bcast_window *w = &s->w[cp->origin];
		size_t x = idx(s, cp->origin, cp->seq);
		enum ftnl_bcast_window_verdict v;

		v = ftnl_bcast_window_check(w, 1, cp->seq);
		if (!s->first_at[x]) {
			s->first_at[x] = cp->at + 1;
			s->first_in_window[x] = v != FTNL_WINDOW_OLD;
		}
		if (!s->cube_first[x * CUBES + cp->cube])
			s->cube_first[x * CUBES + cp->cube] =
				1 + (v != FTNL_WINDOW_OLD);
		if (v == FTNL_WINDOW_OLD) {
			s->old++;
			continue;
		}
		if (v == FTNL_WINDOW_NEW) {
			if (!ftnl_bcast_window_mark(w, 1, cp->seq))
				abort();
			s->delivered[x]++;
		}
		if (ftnl_bcast_window_forward_once(w, 1, cp->seq, cp->cube))
			s->forwarded[x * CUBES + cp->cube]++;
	}
}

static void sim_free(struct sim *s)
{
	free(s->delivered);
	free(s->forwarded);
	free(s->first_at);
	free(s->first_in_window);
	free(s->cube_first);
	free(s->copies);
}

struct burst_case {
	u32 burst;
	u64 spread;
	unsigned int seeds;
	bool expect_old;	/* copies that late must exist */
};

static void test_bursts(const void *arg)
{
	const struct burst_case *bc = arg;
	unsigned int seed, bad_dup = 0, bad_fwd = 0, bad_miss = 0;
	u64 old = 0, missed_old = 0;

	for (seed = 1; seed <= bc->seeds; seed++) {
		struct sim s;
		u32 o;
		u64 q;

		sim_run(&s, bc->burst, bc->spread, seed);
		old += s.old;
		for (o = 0; o < ORIGINS; o++)
			for (q = 1; q <= bc->burst; q++) {
				size_t x = idx(&s, o, q);
				u32 c;

				if (s.delivered[x] > 1)
					bad_dup++;
				for (c = 0; c < CUBES; c++)
					if (s.forwarded[x * CUBES + c] > 1 ||
					    s.forwarded[x * CUBES + c] > s.delivered[x])
						bad_fwd++;
				if (s.first_in_window[x] && s.delivered[x] != 1)
					bad_miss++;
				for (c = 0; c < CUBES; c++)
					if (s.cube_first[x * CUBES + c] == 2 &&
					    s.forwarded[x * CUBES + c] != 1)
						bad_miss++;
				if (!s.first_in_window[x])
					missed_old++;
			}
		if (bad_dup || bad_fwd || bad_miss) {
			tap_diag("burst %u spread %llu seed %u: delivered twice %u, forwarded twice %u, in-window missed %u",
				 bc->burst, (unsigned long long)bc->spread, seed,
				 bad_dup, bad_fwd, bad_miss);
			sim_free(&s);
			break;
		}
		sim_free(&s);
	}
	TAP_CHECK_UINT(bad_dup, 0);
	TAP_CHECK_UINT(bad_fwd, 0);
	TAP_CHECK_UINT(bad_miss, 0);
	if (bc->expect_old) {
		TAP_CHECK(old > 0);
		TAP_CHECK(missed_old > 0);
	} else {
		/* in flight together within the window: nothing is old */
		TAP_CHECK_UINT(old, 0);
	}
}

/*
 * Spread < FTNL_BCAST_WINDOW (times 1 per broadcast at the fastest
 * origin): every copy arrives while its broadcast is in the window.
 * A spread of several windows makes some copies old: never delivered
 * twice all the same.
 */
static const struct burst_case cases[] = {
	{ .burst = 1000, .spread = FTNL_BCAST_WINDOW - 1, .seeds = 200 },
	{ .burst = 300, .spread = 40, .seeds = 200 },
	{ .burst = 2000, .spread = 6 * FTNL_BCAST_WINDOW, .seeds = 50,
	  .expect_old = true },
};

int main(void)
{
	size_t i;

	tap_add(test_rules, NULL, "window rules: new, seen, old, slide, restart, forward once per cube");
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		tap_add(test_bursts, &cases[i],
			"%d origins x %u broadcasts in flight, %d copies per cube, delays up to %llu, %u seeds: exactly once in the window, never twice",
			ORIGINS, cases[i].burst, COPIES,
			(unsigned long long)cases[i].spread, cases[i].seeds);
	return tap_run();
}
