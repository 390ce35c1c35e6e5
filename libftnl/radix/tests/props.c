// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * radix-sim: the membership properties (sim.h) over many random schedules,
 * the paper's scenarios next to its stabilization model, and every seed
 * that once failed, as named regression tests (TAP).
 *
 *	radix-sim			the default schedule count
 *	radix-sim -n COUNT [-b BASE]	COUNT schedules from seed BASE
 *	radix-sim --seed SEED [--trace]	replay one schedule
 *
 * RADIX_SCHEDULES in the environment overrides the default count.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tree.h"
#include "sim.h"
#include "tap.h"

#ifndef RADIX_SIM_SCHEDULES
#define RADIX_SIM_SCHEDULES 100000
#endif
#define CHUNKS 20
#define MAX_REPORTED 10

/* Seeds that once failed, with what went wrong then. */
static const struct {
	uint64_t seed;
	const char *what;
} regressions[] = {
	{ 0, "a welcome for a joiner not yet in the view was dropped" },
	{ 5, "a process crashing inside its own send was freed under the "
	     "engine" },
	{ 739, "a change sent to a dead process reached its restarted "
	       "successor, which took it for its own" },
	{ 1505, "a new root died while catching members up: three views "
		"apart, one catch-up view was not enough" },
	{ 2190, "a member whose root died before welcoming it was named "
		"the next root and never took over" },
	{ 6118, "two members one change apart took over at once" },
	{ 8657, "a new root missed a newer term: its collection was "
		"ignored for ever" },
	{ 4473, "a welcomed joiner of the latest change skipped itself as "
		"next root while the others named it" },
	{ 27832, "a member that missed every change naming it was "
		 "redirected to itself" },
	{ 338561, "a new root lacked views only other members held to "
		  "catch a member up" },
	{ 365664, "a joiner let in by a later view kept a history with a "
		  "hole" },
	{ 302559, "a new root never heard of a member that its dead "
		  "predecessor's views held" },
	{ 1007975, "a new root's collection missed the members of the newer "
		   "views it collected" },
	{ 1030139, "a member let in by a later view could not give the "
		   "views before it to members behind" },
	{ 1220214, "a joiner's views that nobody delivered were collected" },
	{ 1205162, "a change of an older term was dropped in silence: its "
		   "root waited for ever" },
	{ 68, "a refusal naming a newer term passed for an acknowledgment "
	      "of that term's round" },
	{ 2134881, "a joiner holding a dead root's view refused the next "
		   "root's older seq" },
	{ 3286997, "a root refused for a dead root's term stepped down to "
		   "a member that still took it for the root" },
	{ 5117929, "a joiner took a welcome of an older term than the root "
		   "it had answered, alive" },
	{ 49323, "a joiner refusing every welcome older than its dead root's "
		 "term was the only one who could take over" },
	{ 9144394, "a joiner that refused welcomes while its root lived "
		   "stopped looking when that root died" },
	{ 20339163, "a root's restarted successor was taken for the root of "
		    "the dead one's term" },
};

struct totals {
	uint64_t schedules, failed, events, messages, crashes, spawns, views;
	uint64_t takeovers, adopted, duplicates, stale, from_dead, redirects;
	uint64_t nonuniform, quiet_rounds, reported;
	uint64_t stepped_down, refusals, recollections, catchups, proofs;
};

static struct totals totals;
static uint64_t base_seed, chunk_size;

static void report(uint64_t seed, const struct rsim_result *res)
{
	struct rsim_cfg cfg;
	char desc[1024];

	rsim_random_cfg(&cfg, seed);
	rsim_describe(&cfg, desc, sizeof(desc));
	tap_diag("seed %" PRIu64 ": %s", seed, desc);
	tap_diag("  %s", res->why);
	tap_diag("  replay: radix-sim --seed %" PRIu64 " --trace", seed);
}

static void test_chunk(const void *arg)
{
	uint64_t first = base_seed + (uintptr_t)arg * chunk_size;
	struct rsim_result res;
	struct rsim_cfg cfg;

	for (uint64_t seed = first; seed < first + chunk_size; seed++) {
		rsim_random_cfg(&cfg, seed);
		if (!TAP_CHECK_INT(rsim_run(&cfg, &res), 0))
			return;
		totals.schedules++;
		totals.events += res.stats.events;
		totals.messages += res.stats.messages;
		totals.crashes += res.stats.crashed;
		totals.spawns += res.stats.spawned;
		totals.views += res.stats.views;
		totals.takeovers += res.stats.takeovers;
		totals.adopted += res.stats.adopted;
		totals.duplicates += res.stats.duplicates;
		totals.stale += res.stats.stale;
		totals.from_dead += res.stats.from_dead;
		totals.redirects += res.stats.redirects;
		totals.nonuniform += res.stats.nonuniform;
		totals.stepped_down += res.stats.stepped_down;
		totals.refusals += res.stats.refusals;
		totals.recollections += res.stats.recollections;
		totals.catchups += res.stats.catchups;
		totals.proofs += res.stats.proofs;
		for (uint32_t i = 0; i < res.stats.nrounds; i++)
			totals.quiet_rounds += res.stats.rounds[i].quiet;
		if (res.ok)
			continue;
		totals.failed++;
		TAP_CHECK(res.ok);
		if (totals.reported++ < MAX_REPORTED)
			report(seed, &res);
	}
}

static void test_regression(const void *arg)
{
	uint64_t seed = *(const uint64_t *)arg;
	struct rsim_result res;
	struct rsim_cfg cfg;

	rsim_random_cfg(&cfg, seed);
	TAP_CHECK_INT(rsim_run(&cfg, &res), 0);
	if (!TAP_CHECK(res.ok))
		report(seed, &res);
}

/*
 * The paper's scenarios with every message taking L and every round
 * message Ocp of computation: one failure, a root failure, a join. The
 * single failure and the join are one round: the model's Ts exactly for
 * the tree they run on; a root failure takes two (the new root collects,
 * then changes the view).
 */
enum scenario { ONE_FAILURE, ROOT_FAILURE, JOIN };

struct scenario_arg {
	enum scenario kind;
	uint32_t n, fanout;
};

#define L_UNITS 10
#define OCP_UNITS 1

static void test_scenario(const void *arg)
{
	const struct scenario_arg *s = arg;
	struct rsim_cfg c = {
		.seed = 1, .cap = s->n + 1, .initial = s->n,
		.fanout = s->fanout, .delay_min = L_UNITS,
		.delay_max = L_UNITS, .ocp = OCP_UNITS, .fd_min = 1,
		.fd_max = 1, .max_events = 100000000, .survivor = 0,
		.check = s->n + 1 <= RSIM_MAX_CHECKED,
	};
	struct rsim_result res;
	uint64_t sim_ts = 0;
	uint32_t rounds = 0, height = 0;
	double model;

	if (s->kind == ONE_FAILURE)	/* a leaf: the paper's example */
		c.plans[c.nplans++] = (struct rsim_plan){ RSIM_CRASH_AT,
							  s->n - 1, 1 };
	else if (s->kind == ROOT_FAILURE)
		c.plans[c.nplans++] = (struct rsim_plan){ RSIM_CRASH_AT, 0,
							  1 };
	else
		c.plans[c.nplans++] = (struct rsim_plan){ RSIM_SPAWN_AT, s->n,
							  1 };
	if (s->kind == ROOT_FAILURE)
		c.survivor = 1;
	TAP_CHECK_INT(rsim_run(&c, &res), 0);
	if (!TAP_CHECK(res.ok))
		tap_diag("%s", res.why);
	for (uint32_t i = 0; i < res.stats.nrounds; i++) {
		const struct rsim_round *r = &res.stats.rounds[i];

		TAP_CHECK(r->stable);
		sim_ts += r->stable - r->issued;
		rounds++;
		height = r->height;
		/* Each round: exactly the model's Ts on its own tree. */
		TAP_CHECK_UINT(r->stable - r->issued,
			       2ull * L_UNITS * (r->height - 1) +
			       (uint64_t)OCP_UNITS * r->height);
	}
	TAP_CHECK_UINT(rounds, s->kind == ROOT_FAILURE ? 2 : 1);
	model = radix_model_ts(s->kind == JOIN ? s->n + 1 : s->n - 1,
			       s->fanout, L_UNITS, OCP_UNITS);
	tap_diag("a=%u n=%u %s: model Ts %.0f (H=%u), simulated %" PRIu64
		 " in %u round%s (H=%u)", s->fanout, s->n,
		 s->kind == ONE_FAILURE ? "one failure" :
		 s->kind == ROOT_FAILURE ? "root failure" : "join", model,
		 radix_model_height(s->kind == JOIN ? s->n + 1 : s->n - 1,
				    s->fanout), sim_ts, rounds,
		 rounds > 1 ? "s" : "", height);
}

/*
 * The schedules must keep reaching the recovery paths, or the properties
 * above hold for want of trying (runs after the chunks).
 */
static void test_coverage(const void *arg)
{
	(void)arg;
	if (totals.schedules < 10000) {
		TAP_SKIP("%" PRIu64 " schedules: too few to judge",
			 totals.schedules);
		return;
	}
	TAP_CHECK(totals.takeovers);
	TAP_CHECK(totals.adopted);
	TAP_CHECK(totals.duplicates);
	TAP_CHECK(totals.stepped_down);
	TAP_CHECK(totals.refusals);
	TAP_CHECK(totals.recollections);
	TAP_CHECK(totals.catchups);
	TAP_CHECK(totals.proofs);
	TAP_CHECK(totals.redirects);
	TAP_CHECK(totals.quiet_rounds);
	tap_diag("recovery paths: %" PRIu64 " takeovers, %" PRIu64
		 " step-downs, %" PRIu64 " refusals, %" PRIu64
		 " re-collections, %" PRIu64 " catch-ups, %" PRIu64
		 " joiners let in by a member's view", totals.takeovers,
		 totals.stepped_down, totals.refusals, totals.recollections,
		 totals.catchups, totals.proofs);
}

static int replay(uint64_t seed, bool trace)
{
	struct rsim_result res;
	struct rsim_cfg cfg;
	char desc[1024];
	int err;

	rsim_random_cfg(&cfg, seed);
	cfg.trace = trace;
	rsim_describe(&cfg, desc, sizeof(desc));
	printf("# seed %" PRIu64 ": %s\n", seed, desc);
	err = rsim_run(&cfg, &res);
	if (err) {
		printf("not ok 1 - seed %" PRIu64 ": error %d\n", seed, err);
		return 1;
	}
	printf("# %" PRIu64 " events, %" PRIu64 " messages, %u crashed, %u "
	       "spawned, %" PRIu64 " takeovers\n", res.stats.events,
	       res.stats.messages, res.stats.crashed, res.stats.spawned,
	       res.stats.takeovers);
	printf("1..1\n%s 1 - seed %" PRIu64 "%s%s\n", res.ok ? "ok" : "not ok",
	       seed, res.ok ? "" : ": ", res.ok ? "" : res.why);
	return !res.ok;
}

static struct scenario_arg scenarios[64];

int main(int argc, char **argv)
{
	uint64_t count = 0, seed = 0;
	bool one = false, trace = false;
	struct timespec t0, t1;
	const char *env = getenv("RADIX_SCHEDULES");
	uint32_t ns = 0;
	double secs;
	int status;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--seed") && v) {
			seed = strtoull(v, NULL, 0);
			one = true;
			i++;
		} else if (!strcmp(a, "-n") && v) {
			count = strtoull(v, NULL, 0);
			i++;
		} else if (!strcmp(a, "-b") && v) {
			base_seed = strtoull(v, NULL, 0);
			i++;
		} else if (!strcmp(a, "--trace")) {
			trace = true;
		} else {
			fprintf(stderr, "usage: see the head of props.c\n");
			return 2;
		}
	}
	if (one)
		return replay(seed, trace);
	if (!count)
		count = env && *env ? strtoull(env, NULL, 0) :
				      RADIX_SIM_SCHEDULES;
	chunk_size = (count + CHUNKS - 1) / CHUNKS;

	for (size_t i = 0; i < sizeof(regressions) / sizeof(*regressions);
	     i++)
		if (regressions[i].what)
			tap_add(test_regression, &regressions[i].seed,
				"regression: %s (seed %" PRIu64 ")",
				regressions[i].what, regressions[i].seed);
	{
		static const uint32_t fanouts[] = { 2, 4 };
		static const uint32_t sizes[] = { 5, 6, 21, 22, 47, 63 };

		for (size_t f = 0; f < 2; f++)
			for (size_t s = 0; s < 6; s++)
				for (int k = 0; k < 3; k++) {
					struct scenario_arg *a =
						&scenarios[ns++];

					*a = (struct scenario_arg){
						(enum scenario)k, sizes[s],
						fanouts[f] };
					tap_add(test_scenario, a,
						"model: a=%u n=%u %s",
						a->fanout, a->n,
						k == 0 ? "one failure" :
						k == 1 ? "root failure" :
						"join");
				}
	}
	for (uintptr_t c = 0; c < CHUNKS; c++)
		tap_add(test_chunk, (const void *)c,
			"random schedules, seeds %" PRIu64 "..%" PRIu64,
			base_seed + c * chunk_size,
			base_seed + (c + 1) * chunk_size - 1);

	tap_add(test_coverage, NULL, "the schedules reach every recovery "
		"path");

	clock_gettime(CLOCK_MONOTONIC, &t0);
	status = tap_run();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	tap_diag("%" PRIu64 " schedules in %.1f s: %" PRIu64 " failed, %"
		 PRIu64 " events, %" PRIu64 " messages, %" PRIu64
		 " crashes, %" PRIu64 " joins, %" PRIu64 " views installed",
		 totals.schedules, secs, totals.failed, totals.events,
		 totals.messages, totals.crashes, totals.spawns, totals.views);
	tap_diag("coverage: %" PRIu64 " takeovers, %" PRIu64 " adoptions, %"
		 PRIu64 " duplicate round messages, %" PRIu64 " stale, %"
		 PRIu64 " from the dead, %" PRIu64 " redirects, %" PRIu64
		 " quiet rounds checked against the bound, %" PRIu64
		 " non-uniform views of processes that crashed", totals.takeovers,
		 totals.adopted, totals.duplicates, totals.stale,
		 totals.from_dead, totals.redirects, totals.quiet_rounds,
		 totals.nonuniform);
	return status;
}
