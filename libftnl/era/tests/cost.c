// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * era-cost: what ERA costs in the simulated model, where every message
 * takes exactly one time unit (a round).
 *
 * Asserted: a failure-free agreement on n processes sends 2(n - 1) messages
 * (one UP and one DOWN per tree edge, paper Theorem 5) and decides
 * everywhere in 2 depth rounds, for n = 2..64 and every topology, also
 * with several agreements in flight at once.
 *
 * Printed: the analog of the paper's Figure 2d - messages and rounds of
 * the failure-detecting agreement (a process is dead when it starts; the
 * detector tells every survivor D rounds later), the stabilizing one (the
 * next: the failure is known, and agreed) and a post-failure one, for a
 * failed root, inner node and leaf, with and without rebalancing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../tree.h"
#include "sim.h"
#include "tap.h"

#define DETECT 10	/* rounds from a death to every survivor knowing */

struct shape {
	const char *name;
	enum era_topology topo, inter, intra;
	uint32_t per_host;	/* ERA_TOPO_HIER */
};

static const struct shape shapes[] = {
	{ "binary", ERA_TOPO_BINARY, 0, 0, 0 },
	{ "star", ERA_TOPO_STAR, 0, 0, 0 },
	{ "string", ERA_TOPO_STRING, 0, 0, 0 },
	{ "bin/bin, 4 per host", ERA_TOPO_HIER, ERA_TOPO_BINARY,
	  ERA_TOPO_BINARY, 4 },
	{ "bin/star, 8 per host", ERA_TOPO_HIER, ERA_TOPO_BINARY,
	  ERA_TOPO_STAR, 8 },
};

static void shape_cfg(struct sim_cfg *c, const struct shape *s, uint32_t n,
		      uint32_t agreements)
{
	sim_unit_cfg(c, n, agreements, s->topo);
	c->inter = s->inter;
	c->intra = s->intra;
	for (uint32_t r = 0; r < n; r++)
		c->host_of[r] = s->per_host ? r / s->per_host : 0;
}

static uint32_t tree_depth(const struct sim_cfg *c)
{
	uint32_t order[SIM_MAX_N], pos_of[SIM_MAX_N], parent[SIM_MAX_N];
	uint32_t first[SIM_MAX_N], next[SIM_MAX_N];
	uint32_t scratch[ERA_TREE_SCRATCH_WORDS(SIM_MAX_N)];
	uint64_t excluded[1];
	struct era_view v = { .order = order, .pos_of = pos_of,
			      .parent = parent, .first_child = first,
			      .next_sibling = next, .excluded = excluded };
	struct era_tree_shape shape = { .topo = c->topo, .inter = c->inter,
					.intra = c->intra,
					.host_of = c->host_of,
					.nranks = c->n };

	era_view_build(&v, &shape, NULL, scratch);
	return era_view_depth(&v);
}

/* One agreement, then @k in flight at once (window k), no failure. */
static void test_failure_free(const void *arg)
{
	const struct shape *s = arg;

	for (uint32_t n = 2; n <= SIM_MAX_N; n++) {
		for (uint32_t k = 1; k <= 4; k += 3) {
			struct sim_result res;
			struct sim_cfg c;

			shape_cfg(&c, s, n, k);
			c.window = k;
			c.rebalance = n % 2;	/* no failure: no difference */
			if (!TAP_CHECK_INT(sim_run(&c, &res), 0))
				return;
			if (!TAP_CHECK(res.ok))
				tap_diag("n = %u: %s", n, res.why);
			TAP_CHECK_UINT(res.stats.messages, 2 * k * (n - 1));
			TAP_CHECK_UINT(res.stats.by_type[ERA_MSG_UP],
				       k * (n - 1));
			TAP_CHECK_UINT(res.stats.by_type[ERA_MSG_DOWN],
				       k * (n - 1));
			for (uint32_t a = 1; a <= k; a++) {
				TAP_CHECK_UINT(res.stats.msgs[a], 2 * (n - 1));
				TAP_CHECK_UINT(res.stats.last_decide[a] -
					       res.stats.first_start[a],
					       2 * tree_depth(&c));
				TAP_CHECK_UINT(res.stats.latency[a],
					       2 * tree_depth(&c));
			}
		}
	}
}

struct scenario {
	const char *name;
	const struct shape *shape;
	uint32_t first, count;		/* the ranks that fail */
};

static const struct shape bin = { "binary", ERA_TOPO_BINARY, 0, 0, 0 };
static const struct shape binbin = { "bin/bin", ERA_TOPO_HIER,
				     ERA_TOPO_BINARY, ERA_TOPO_BINARY, 8 };

static const struct scenario scenarios[] = {
	{ "0 (root)", &bin, 0, 1 },
	{ "1 (child of root)", &bin, 1, 1 },
	{ "63 (leaf)", &bin, 63, 1 },
	{ "0 (root)", &binbin, 0, 1 },
	{ "8 (host rep.)", &binbin, 8, 1 },
	{ "9 (child of rep.)", &binbin, 9, 1 },
	{ "8-15 (full host)", &binbin, 8, 8 },
	{ "63 (leaf)", &binbin, 63, 1 },
};

static void test_figure_2d(const void *arg)
{
	const uint32_t n = SIM_MAX_N;

	(void)arg;
	printf("# Figure 2d analog: n = %u, unit message delay, detection "
	       "after %u rounds.\n", n, DETECT);
	printf("# Each cell: messages / rounds (the longest a survivor "
	       "spent in the agreement).\n");
	printf("# %-7s %-17s %-5s %-11s %-11s %s\n", "tree", "failed",
	       "rebal", "detecting", "stabilizing", "post-fail.");
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(*scenarios); i++) {
		const struct scenario *sc = &scenarios[i];

		for (int rebalance = 0; rebalance <= 1; rebalance++) {
			struct sim_result res;
			struct sim_cfg c;
			char cell[3][32];

			shape_cfg(&c, sc->shape, n, 3);
			c.rebalance = rebalance;
			c.fd_min = c.fd_max = DETECT;
			c.ncrashes = sc->count;
			for (uint32_t k = 0; k < sc->count; k++)
				c.crashes[k] = (struct sim_crash){
					sc->first + k, SIM_CRASH_AT_TIME, 0 };
			if (!TAP_CHECK_INT(sim_run(&c, &res), 0))
				return;
			if (!TAP_CHECK(res.ok))
				tap_diag("%s: %s", sc->name, res.why);
			for (int a = 1; a <= 3; a++)
				snprintf(cell[a - 1], sizeof(cell[0]),
					 "%" PRIu64 " / %" PRIu64,
					 res.stats.msgs[a],
					 res.stats.latency[a]);
			printf("# %-7s %-17s %-5s %-11s %-11s %s\n",
			       sc->shape->name, sc->name,
			       rebalance ? "yes" : "no", cell[0], cell[1],
			       cell[2]);
			/* Once the failure is known: a tree over survivors. */
			TAP_CHECK_UINT(res.stats.msgs[2],
				       2 * (n - sc->count - 1));
			TAP_CHECK_UINT(res.stats.msgs[3],
				       2 * (n - sc->count - 1));
			TAP_CHECK_UINT(res.stats.agreed_failed[1], sc->count);
			/* Detection comes first: the agreement waits for it. */
			TAP_CHECK(res.stats.latency[1] > DETECT);
		}
	}
}

int main(void)
{
	for (size_t i = 0; i < sizeof(shapes) / sizeof(*shapes); i++)
		tap_add(test_failure_free, &shapes[i],
			"%s: failure-free agreements cost 2(n - 1) messages "
			"and 2 depth rounds, n = 2..%u", shapes[i].name,
			SIM_MAX_N);
	tap_add(test_figure_2d, NULL,
		"failure-detecting, stabilizing, post-failure agreements");
	return tap_run();
}
