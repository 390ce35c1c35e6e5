// SPDX-License-Identifier: GPL-2.0
/*
 * The ring order (kmod/ring/order.c), compiled into userspace: for every
 * multiset of failure-domain sizes of every table up to 14 nodes (with and
 * without domainless nodes, ids spread over the domains at random), the
 * order is a permutation, no two ring neighbours share a domain when the
 * largest domain holds at most n/2 nodes, and otherwise exactly 2m - n
 * neighbour pairs do, the fewest possible; the same table given in any
 * order yields the same ring; without domains the ring is id order.
 */
#include <stdlib.h>
#include <string.h>

#include "../../tools/testing/tap.h"
#include "../ring/order.h"

#define MAX_SMALL 14

static char domain_names[256][16];

/* Deterministic PRNG (xorshift64*), so a failure replays. */
static u64 rng_state = 0x9e3779b97f4a7c15ULL;

static u64 rng_next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static void shuffle(u32 *v, u32 n)
{
	for (u32 i = n; i > 1; i--) {
		u32 j = rng_next() % i, t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

static bool same_domain(const struct ftnl_ring_member *a,
			const struct ftnl_ring_member *b)
{
	if (!a->domain || !b->domain)
		return a == b;	/* domainless: a domain of its own */
	return !strcmp(a->domain, b->domain);
}

/* Neighbour pairs (pos, succ(pos)) inside one domain, wrap-around included. */
static u32 shared_pairs(const struct ftnl_ring_member *m, const u32 *ring,
			u32 n)
{
	u32 count = 0;

	for (u32 pos = 0; pos < n; pos++)
		count += same_domain(&m[ring[pos]], &m[ring[(pos + 1) % n]]);
	return count;
}

static bool is_permutation(const u32 *ring, u32 n)
{
	bool seen[4096] = { false };

	for (u32 i = 0; i < n; i++) {
		if (ring[i] >= n || seen[ring[i]])
			return false;
		seen[ring[i]] = true;
	}
	return true;
}

static u32 checked;

/*
 * Check one table: @sizes[0..k-1] nodes in domains 0..k-1, @loose more
 * without a domain; ids random and distinct.
 */
static void check_table(const u32 *sizes, u32 k, u32 loose)
{
	struct ftnl_ring_member m[4096], shuffled[4096];
	static u32 ring[4096], ring2[4096], scratch[4096], perm[4096];
	u32 n = loose, max = loose ? 1 : 0, i = 0, expect;

	for (u32 d = 0; d < k; d++) {
		n += sizes[d];
		if (sizes[d] > max)
			max = sizes[d];
	}
	for (u32 j = 0; j < n; j++)
		perm[j] = j * 7 + 3;	/* distinct ids, spread by shuffle */
	shuffle(perm, n);
	for (u32 d = 0; d < k; d++)
		for (u32 s = 0; s < sizes[d]; s++, i++)
			m[i] = (struct ftnl_ring_member){ perm[i], domain_names[d] };
	for (; i < n; i++)
		m[i] = (struct ftnl_ring_member){ perm[i], NULL };

	ftnl_ring_order(m, n, ring, scratch);
	TAP_CHECK(is_permutation(ring, n));
	TAP_CHECK_INT(ftnl_ring_order_max_domain(m, scratch, n), max);
	expect = 2 * max > n ? 2 * max - n : 0;
	if (shared_pairs(m, ring, n) != expect) {
		TAP_CHECK_INT(shared_pairs(m, ring, n), expect);
		printf("# n=%u k=%u loose=%u max=%u\n", n, k, loose, max);
	}

	/* The same table in another order: the same ring of ids. */
	for (u32 j = 0; j < n; j++)
		perm[j] = j;
	shuffle(perm, n);
	for (u32 j = 0; j < n; j++)
		shuffled[j] = m[perm[j]];
	ftnl_ring_order(shuffled, n, ring2, scratch);
	for (u32 pos = 0; pos < n; pos++)
		if (shuffled[ring2[pos]].id != m[ring[pos]].id) {
			TAP_CHECK_INT(shuffled[ring2[pos]].id, m[ring[pos]].id);
			break;
		}
	checked++;
}

/* Every partition of every n <= MAX_SMALL into domain sizes (descending). */
static void partitions(u32 *sizes, u32 k, u32 left, u32 cap, u32 loose)
{
	if (!left) {
		/* Sizes in several orders, so names and sizes do not align. */
		for (u32 r = 0; r < 3; r++) {
			check_table(sizes, k, loose);
			shuffle(sizes, k);
		}
		return;
	}
	for (u32 s = cap < left ? cap : left; s >= 1; s--) {
		sizes[k] = s;
		partitions(sizes, k + 1, left - s, s, loose);
	}
}

static void test_all_small_multisets(const void *arg)
{
	u32 sizes[MAX_SMALL];

	(void)arg;
	checked = 0;
	for (u32 n = 1; n <= MAX_SMALL; n++)
		for (u32 loose = 0; loose <= 2 && loose < n; loose++)
			partitions(sizes, 0, n - loose, n - loose, loose);
	printf("# %u tables checked\n", checked);
	TAP_CHECK(checked > 1000);
}

/* Large random tables: racks of random sizes up to n = 4096. */
static void test_random_large(const void *arg)
{
	u32 sizes[256];

	(void)arg;
	for (u32 trial = 0; trial < 300; trial++) {
		u32 k = 1 + rng_next() % 64, n = 0, loose = rng_next() % 3;

		for (u32 d = 0; d < k; d++) {
			sizes[d] = 1 + rng_next() % (4000 / k);
			n += sizes[d];
		}
		check_table(sizes, k, loose);
	}
	/* The simulator's case: 256 racks of 16 at n = 4096. */
	for (u32 d = 0; d < 256; d++)
		sizes[d] = 16;
	check_table(sizes, 256, 0);
}

static void test_no_domain_is_id_order(const void *arg)
{
	struct ftnl_ring_member m[100];
	u32 ring[100], scratch[100];

	(void)arg;
	for (u32 i = 0; i < 100; i++)
		m[i] = (struct ftnl_ring_member){ (i * 37) % 101 + 1, i % 2 ? "" : NULL };
	TAP_CHECK(!ftnl_ring_order_has_domains(m, 100));
	ftnl_ring_order(m, 100, ring, scratch);
	for (u32 pos = 1; pos < 100; pos++)
		TAP_CHECK(m[ring[pos - 1]].id < m[ring[pos]].id);
}

/* A worked example the admin guide shows: 4 racks of 4, ids 1..16. */
static void test_four_racks(const void *arg)
{
	static const char * const racks[] = { "r0", "r1", "r2", "r3" };
	static const u32 expect[16] = { 1, 9, 2, 10, 3, 11, 4, 12,
					5, 13, 6, 14, 7, 15, 8, 16 };
	struct ftnl_ring_member m[16];
	u32 ring[16], scratch[16];

	(void)arg;
	for (u32 i = 0; i < 16; i++)
		m[i] = (struct ftnl_ring_member){ i + 1, racks[i / 4] };
	ftnl_ring_order(m, 16, ring, scratch);
	for (u32 pos = 0; pos < 16; pos++)
		TAP_CHECK_INT(m[ring[pos]].id, expect[pos]);
	TAP_CHECK_INT(shared_pairs(m, ring, 16), 0);
}

int main(void)
{
	for (u32 d = 0; d < 256; d++)
		snprintf(domain_names[d], sizeof(domain_names[d]), "rack%u", d);
	tap_add(test_all_small_multisets, NULL,
		"every multiset of domain sizes, n <= 14: neighbours differ iff max <= n/2, else exactly 2m - n shared pairs; order-independent");
	tap_add(test_random_large, NULL,
		"random racks up to n = 4096 and 256 racks of 16: same properties");
	tap_add(test_no_domain_is_id_order, NULL,
		"without domains the ring is ascending id order");
	tap_add(test_four_racks, NULL, "4 racks of 4: the documented order");
	return tap_run();
}
