// SPDX-License-Identifier: GPL-2.0
/*
 * FindEmitter of the ring's pure core (kmod/ring/core.c), compiled into userspace:
 * FindEmitter against a brute-force reading of Algorithm 1 lines 37-42,
 * exhaustively for small rings and on random dead sets for large ones, and
 * the reconnection property: once every survivor re-evaluated its emitter,
 * each survivor is observed by exactly one survivor.
 */
#include <stdlib.h>
#include <string.h>

#include "../../tools/testing/tap.h"
#include "../ring/core.h"

/* Reference: walk back from @from one position at a time, as line 40 does. */
static u32 reference_find_emitter(const unsigned long *dead, u32 n, u32 self,
				  u32 from)
{
	u32 k = from;

	while (k != self && ftnl_bit_test(dead, k))
		k = (k + n - 1) % n;
	return k;
}

static u32 reference_find_observer(const unsigned long *dead, u32 n, u32 self)
{
	u32 k = (self + 1) % n;

	while (k != self && ftnl_bit_test(dead, k))
		k = (k + 1) % n;
	return k;
}

static unsigned long *bitmap_new(u32 n)
{
	unsigned long *map = calloc(ftnl_bitmap_longs(n), sizeof(long));

	if (!map)
		abort();
	return map;
}

/* Every dead set of every ring up to 12 nodes, every self, every start. */
static void test_exhaustive_small(const void *arg)
{
	(void)arg;
	for (u32 n = 1; n <= 12; n++) {
		unsigned long *dead = bitmap_new(n);

		for (u32 set = 0; set < (1U << n); set++) {
			for (u32 b = 0; b < n; b++) {
				if (set >> b & 1)
					ftnl_bit_set(dead, b);
				else
					ftnl_bit_clear(dead, b);
			}
			for (u32 self = 0; self < n; self++) {
				if (set >> self & 1)
					continue;	/* self is never in D */
				TAP_CHECK_INT(ftnl_ring_find_observer(dead, n, self),
					      reference_find_observer(dead, n, self));
				for (u32 from = 0; from < n; from++)
					TAP_CHECK_INT(ftnl_ring_find_emitter(dead, n, self, from),
						      reference_find_emitter(dead, n, self, from));
			}
		}
		free(dead);
	}
}

/*
 * The ring is reconnected (paper section 3.1.3): every survivor's emitter is
 * its closest alive predecessor, and the "observes" relation is a
 * permutation of the survivors: each is observed by exactly one.
 */
static void test_reconnected_random(const void *arg)
{
	unsigned int seed = 12345;

	(void)arg;
	for (int round = 0; round < 400; round++) {
		u32 n = 2 + rand_r(&seed) % 3000;
		u32 ndead = rand_r(&seed) % n;
		unsigned long *dead = bitmap_new(n);
		u32 *observed_by = calloc(n, sizeof(u32));
		u32 alive = n;

		if (!observed_by)
			abort();
		for (u32 i = 0; i < ndead; i++) {
			u32 pos = rand_r(&seed) % n;

			if (!ftnl_bit_test(dead, pos) && alive > 1) {
				ftnl_bit_set(dead, pos);
				alive--;
			}
		}
		for (u32 self = 0; self < n; self++) {
			u32 emitter, observer;

			if (ftnl_bit_test(dead, self))
				continue;
			emitter = ftnl_ring_find_emitter(dead, n, self,
							 ftnl_ring_pred(self, n));
			observer = ftnl_ring_find_observer(dead, n, self);
			TAP_CHECK(!ftnl_bit_test(dead, emitter));
			TAP_CHECK(!ftnl_bit_test(dead, observer));
			/* My observer's emitter is me. */
			TAP_CHECK_INT(ftnl_ring_find_emitter(dead, n, observer,
							     ftnl_ring_pred(observer, n)),
				      alive > 1 ? self : observer);
			observed_by[emitter]++;
		}
		for (u32 pos = 0; pos < n; pos++)
			if (!ftnl_bit_test(dead, pos) && alive > 1)
				TAP_CHECK_INT(observed_by[pos], 1);
		free(observed_by);
		free(dead);
	}
}

/*
 * Task T3 repeated by one observer while f consecutive predecessors are
 * silent (Theorem 1's worst case): each dead node is suspected exactly once
 * by this observer (Lemma 2, i = f), and the observer ends up observing the
 * first live predecessor.
 */
static void test_consecutive_failures(const void *arg)
{
	(void)arg;
	for (u32 n = 4; n <= 1024; n *= 2) {
		u32 logn = 0;

		while ((1U << (logn + 1)) <= n)
			logn++;
		for (u32 f = 1; f + 1 <= logn; f++) {
			unsigned long *dead = bitmap_new(n);
			u32 self = n / 2, emitter = ftnl_ring_pred(self, n);
			u32 suspicions = 0;
			bool truly_dead[1024] = { false };

			for (u32 i = 1; i <= f; i++)
				truly_dead[(self + n - i) % n] = true;
			/* T3 fires while the emitter is really dead. */
			while (truly_dead[emitter]) {
				TAP_CHECK(!ftnl_bit_test(dead, emitter));
				ftnl_bit_set(dead, emitter);
				suspicions++;
				emitter = ftnl_ring_find_emitter(dead, n, self, emitter);
			}
			TAP_CHECK_INT(suspicions, f);
			TAP_CHECK_INT(emitter, (self + n - f - 1) % n);
			free(dead);
		}
	}
}

static void test_alone(const void *arg)
{
	unsigned long *dead = bitmap_new(5);

	(void)arg;
	for (u32 i = 0; i < 5; i++)
		if (i != 3)
			ftnl_bit_set(dead, i);
	TAP_CHECK_INT(ftnl_ring_find_emitter(dead, 5, 3, 2), 3);
	TAP_CHECK_INT(ftnl_ring_find_observer(dead, 5, 3), 3);
	TAP_CHECK_INT(ftnl_ring_pred(0, 5), 4);
	TAP_CHECK_INT(ftnl_ring_succ(4, 5), 0);
	TAP_CHECK_INT(ftnl_ring_pred(0, 1), 0);
	free(dead);
}

int main(void)
{
	tap_add(test_exhaustive_small, NULL,
		"FindEmitter/observer match Algorithm 1 on every dead set, n <= 12");
	tap_add(test_reconnected_random, NULL,
		"after re-evaluation every survivor is observed by exactly one survivor (random D, n < 3002)");
	tap_add(test_consecutive_failures, NULL,
		"f <= log2(n) - 1 consecutive silent predecessors: each suspected once, ring closes on the first live one");
	tap_add(test_alone, NULL, "a lone survivor observes nobody; pred/succ wrap");
	return tap_run();
}
