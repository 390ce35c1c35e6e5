// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vall-engine: compute_children (Figure 1) and the failure-free cost of
 * validate-all, in the simulator with every message taking one round.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "era/bitmap.h"
#include "sim.h"
#include "tap.h"

/* The paper's example: children chosen at the median form a binomial tree. */
static void test_binomial(const void *arg)
{
	uint64_t desc[1] = { 0xfe };	/* 1..7, the root is 0 */
	uint32_t children[8], n;
	uint64_t sub[1];

	(void)arg;
	n = vall_compute_children(desc, 8, children);
	TAP_CHECK_UINT(n, 3);
	TAP_CHECK_UINT(children[0], 4);
	TAP_CHECK_UINT(children[1], 2);
	TAP_CHECK_UINT(children[2], 1);
	vall_child_desc(desc, 8, children, 0, sub);
	TAP_CHECK_UINT(sub[0], 0xe0);		/* 5, 6, 7 */
	vall_child_desc(desc, 8, children, 1, sub);
	TAP_CHECK_UINT(sub[0], 0x08);		/* 3 */
	vall_child_desc(desc, 8, children, 2, sub);
	TAP_CHECK_UINT(sub[0], 0);
	n = vall_compute_children(sub, 8, children);
	TAP_CHECK_UINT(n, 0);
}

/*
 * Walk the tree from @root over @desc: every rank of @desc is reached
 * exactly once, each child's descendants rank above it; return the depth.
 */
static uint32_t walk(const uint64_t *desc, uint32_t nranks, uint32_t root,
		     uint64_t *seen, bool *ok)
{
	uint32_t children[256], n, depth = 0;
	uint64_t sub[4];

	n = vall_compute_children(desc, nranks, children);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t c = children[i], d, r;

		if (c <= root || era_bit_test(seen, c) ||
		    !era_bit_test(desc, c))
			*ok = false;
		era_bit_set(seen, c);
		vall_child_desc(desc, nranks, children, i, sub);
		era_bitmap_for_each(r, sub, nranks)
			if (r <= c || !era_bit_test(desc, r))
				*ok = false;
		d = 1 + walk(sub, nranks, c, seen, ok);
		if (d > depth)
			depth = d;
	}
	return depth;
}

/* Every n <= 256, full and with holes: a spanning binomial tree. */
static void test_spanning(const void *arg)
{
	uint64_t state = 7;

	(void)arg;
	for (uint32_t n = 1; n <= 256; n++) {
		for (int holes = 0; holes < 2; holes++) {
			uint64_t desc[4] = { 0 }, seen[4] = { 0 };
			uint32_t live = 0, depth, want = 0;
			bool ok = true;

			for (uint32_t r = 1; r < n; r++) {
				state = state * 6364136223846793005ull + 1;
				if (!holes || (state >> 33) % 3) {
					era_bit_set(desc, r);
					live++;
				}
			}
			depth = walk(desc, n, 0, seen, &ok);
			while ((2u << want) <= live + 1)
				want++;
			if (!TAP_CHECK(ok) ||
			    !TAP_CHECK(!memcmp(seen, desc, sizeof(desc))) ||
			    !TAP_CHECK_UINT(depth, want)) {
				tap_diag("n = %u, holes %d", n, holes);
				return;
			}
		}
	}
}

/*
 * Failure-free, one round per message: strict sends three broadcasts and
 * their acknowledgements, 6(n - 1) messages, and the last process returns
 * after 5 depth rounds (ballot down and up, commit down and up,
 * all-commit down); loose 4(n - 1) and 3 depth rounds. The binomial
 * tree of n ranks has depth floor(log2(n)).
 */
static void test_cost(const void *arg)
{
	enum vall_semantics sem = (enum vall_semantics)(uintptr_t)arg;
	uint32_t per_edge = sem == VALL_STRICT ? 6 : 4;
	uint32_t trips = sem == VALL_STRICT ? 5 : 3;

	for (uint32_t n = 1; n <= SIM_MAX_N; n++) {
		struct sim_result res;
		struct sim_cfg c;
		uint32_t depth = 0;

		while ((2u << depth) <= n)
			depth++;
		sim_unit_cfg(&c, n, 3, sem);
		if (!TAP_CHECK_INT(sim_run(&c, &res), 0) || !TAP_CHECK(res.ok)) {
			tap_diag("n = %u: %s", n, res.why);
			return;
		}
		for (uint32_t op = 1; op <= 3; op++) {
			/* Later operations start unevenly: op 1 only. */
			if (!TAP_CHECK_UINT(res.stats.msgs[op],
					    per_edge * (n - 1)) ||
			    (op == 1 && !TAP_CHECK_UINT(res.stats.latency[op],
							trips * depth))) {
				tap_diag("n = %u, operation %u", n, op);
				return;
			}
		}
		if (n == 64)
			tap_diag("%s, n = 64: %" PRIu64 " messages, %" PRIu64
				 " rounds per operation", sem == VALL_STRICT ?
				 "strict" : "loose", res.stats.msgs[1],
				 res.stats.latency[1]);
	}
}

int main(void)
{
	tap_add(test_binomial, NULL, "compute_children at the median: the "
		"binomial tree of 8 ranks");
	tap_add(test_spanning, NULL, "compute_children spans every "
		"descendant set of n <= 256 once, depth floor(log2(live + 1))");
	tap_add(test_cost, (void *)(uintptr_t)VALL_STRICT,
		"strict: 6(n - 1) messages and 5 depth rounds, n = 1..64");
	tap_add(test_cost, (void *)(uintptr_t)VALL_LOOSE,
		"loose: 4(n - 1) messages and 3 depth rounds, n = 1..64");
	return tap_run();
}
