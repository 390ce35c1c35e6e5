// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * era-sim: the ERA properties over many random schedules, and every seed
 * that ever failed, as named regression tests (TAP).
 *
 *	era-sim				regressions + the default schedule count
 *	era-sim -n COUNT [-b BASE]	COUNT schedules, seeds BASE, BASE+1...
 *	era-sim --seed SEED [--trace]	replay one schedule (step by step)
 *	era-sim --soak [-n COUNT]	fresh seeds (printed), default 2,000,000
 *	era-sim --hunt QUIRKS [-n N]	search a schedule that refutes a
 *					reading of the paper (enum era_quirk)
 *	era-sim --quirks QUIRKS -n N	N schedules with that reading
 *
 * ERA_SCHEDULES in the environment overrides the default count.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"
#include "tap.h"

#ifndef ERA_SIM_SCHEDULES
#define ERA_SIM_SCHEDULES 200000
#endif
#define CHUNKS 20
#define PARENT_TRIGGER_SCHEDULES 10000
#define MAX_REPORTED 10

/*
 * Seeds that once failed. A @quirks entry replays a literal reading of
 * the paper's extracted text that the simulator refuted: the schedule must
 * violate @property with the quirk, and pass with the engine as is.
 */
struct regression {
	const char *name;
	uint64_t seed;
	uint32_t quirks;
	const char *property;	/* the violation the quirk shows */
};

static const struct regression regressions[] = {
	/*
	 * n = 4: root 0 decides agreement 3 and dies, its DOWN to 1 lost.
	 * New root 1 asks 2 and 3; 2, decided, answers DOWN, which, read
	 * literally ("q = Parent(S_p, p)"), 1 ignores: it waits for an UP
	 * that never comes.
	 */
	{ "literal DOWN rule: a new root ignores its child's decision", 32,
	  ERA_QUIRK_DOWN_FROM_PARENT | ERA_QUIRK_PARENT_TRIGGER,
	  "termination:" },
	/*
	 * 0 decides agreement 5 and dies; 2 gets it, sends DOWN to 6, dies.
	 * New root 1 asks 6, which answers UP; then 2's DOWN arrives: taken
	 * from anyone, 6 decides 0's value while 1 decides its own. (Our
	 * RESULT_REQUEST rule also tells 6 that 2 is dead: hence both
	 * quirks.)
	 */
	{ "DOWN from anyone: a stale decision beats the new root's", 8472,
	  ERA_QUIRK_DOWN_FROM_ANYONE | ERA_QUIRK_ELDERS_ONLY, "agreement:" },
	/*
	 * n = 8, one crash: 0's DOWN to 2 is lost with it. 2 learns 0 died
	 * and sends UP to 1, which has not learned it: 1 decides and tells
	 * Children(S_1, 1) only, which does not hold 2.
	 */
	{ "UP sender forgotten: an adopted child waits forever", 542,
	  ERA_QUIRK_UP_NOT_REQUESTER, "termination:" },
	/*
	 * 5 knows 3 died, then gets 3's stale RESULT_REQUEST: answering it,
	 * 5 awaits 3 and takes 3's stale DOWN, while the new root 4, alive,
	 * decides otherwise.
	 */
	{ "dead heard: a stale RESULT_REQUEST from a dead root", 379,
	  ERA_QUIRK_HEAR_THE_DEAD, "agreement:" },
	/*
	 * Found by the soak. 10's parent 4 decides agreement 4, sends DOWN
	 * to 10 (slow) and dies. Root 2 asks 10, which answers UP, then 2
	 * dies. Marking only the ranks before 2 dead (the paper's text), 10
	 * still counts 4 alive, turns back to it and takes its stale DOWN,
	 * while 14, alive, decided another value.
	 */
	{ "RESULT_REQUEST marks elders only: back to a stale parent", 724767,
	  ERA_QUIRK_ELDERS_ONLY, "agreement:" },
};

struct totals {
	uint64_t schedules, failed, events, messages, crashes, nonuniform;
	uint64_t reported;
	uint64_t requests, from_dead, stale, down_ignored, inferred, collected;
};

static struct totals totals;
static uint64_t base_seed;
static uint64_t chunk_size;
static uint32_t hunt_quirks;
static uint32_t run_quirks;	/* --quirks without --seed: every schedule */

static int run_one(uint64_t seed, uint32_t quirks, bool trace,
		   struct sim_result *res)
{
	struct sim_cfg cfg;

	sim_random_cfg(&cfg, seed);
	cfg.quirks = quirks;
	cfg.trace = trace;
	return sim_run(&cfg, res);
}

static void report(uint64_t seed, uint32_t quirks, const struct sim_result *res)
{
	struct sim_cfg cfg;
	char desc[512];

	sim_random_cfg(&cfg, seed);
	cfg.quirks = quirks;
	sim_describe(&cfg, desc, sizeof(desc));
	tap_diag("seed %" PRIu64 ": %s", seed, desc);
	tap_diag("  %s", res->why);
	if (quirks)
		tap_diag("  replay: era-sim --seed %" PRIu64
			 " --quirks %u --trace", seed, quirks);
	else
		tap_diag("  replay: era-sim --seed %" PRIu64 " --trace", seed);
}

static void test_regression(const void *arg)
{
	const struct regression *r = arg;
	struct sim_result res;

	if (r->quirks) {
		TAP_CHECK_INT(run_one(r->seed, r->quirks, false, &res), 0);
		if (!TAP_CHECK(!res.ok))
			tap_diag("the quirk no longer shows: %s", r->property);
		else if (!TAP_CHECK_CONTAINS(res.why, r->property))
			tap_diag("instead: %s", res.why);
	}
	TAP_CHECK_INT(run_one(r->seed, 0, false, &res), 0);
	if (!TAP_CHECK(res.ok))
		report(r->seed, 0, &res);
}

static void test_chunk(const void *arg)
{
	uint64_t first = base_seed + (uintptr_t)arg * chunk_size;
	struct sim_result res;

	for (uint64_t seed = first; seed < first + chunk_size; seed++) {
		if (!TAP_CHECK_INT(run_one(seed, run_quirks, false, &res), 0))
			return;
		totals.schedules++;
		totals.events += res.stats.events;
		totals.messages += res.stats.messages;
		totals.crashes += res.stats.crashed;
		totals.nonuniform += res.stats.nonuniform;
		totals.requests += res.stats.by_type[ERA_MSG_RESULT_REQUEST];
		totals.from_dead += res.stats.engine.from_dead;
		totals.stale += res.stats.engine.stale;
		totals.down_ignored += res.stats.engine.down_ignored;
		totals.inferred += res.stats.engine.inferred_dead;
		totals.collected += res.stats.engine.collected;
		if (res.ok)
			continue;
		totals.failed++;
		TAP_CHECK(res.ok);
		if (totals.reported++ < MAX_REPORTED)
			report(seed, run_quirks, &res);
	}
}

/* The paper's own Part 4 trigger holds too (it just sends more). */
static void test_parent_trigger(const void *arg)
{
	uint64_t failed = 0, messages[2] = { 0, 0 };
	struct sim_result res;

	(void)arg;
	for (uint64_t seed = 0; seed < PARENT_TRIGGER_SCHEDULES; seed++) {
		for (int q = 0; q < 2; q++) {
			if (!TAP_CHECK_INT(run_one(seed, q ?
					ERA_QUIRK_PARENT_TRIGGER : 0, false,
					&res), 0))
				return;
			messages[q] += res.stats.messages;
			if (!res.ok && q && failed++ < MAX_REPORTED)
				report(seed, ERA_QUIRK_PARENT_TRIGGER, &res);
		}
	}
	TAP_CHECK_UINT(failed, 0);
	tap_diag("messages: %" PRIu64 " resending when the awaited sender "
		 "dies, %" PRIu64 " when Parent(S', p) dies", messages[0],
		 messages[1]);
}

static int replay(uint64_t seed, uint32_t quirks, bool trace)
{
	struct sim_result res;
	struct sim_cfg cfg;
	char desc[512];
	int err;

	sim_random_cfg(&cfg, seed);
	cfg.quirks = quirks;
	sim_describe(&cfg, desc, sizeof(desc));
	printf("# seed %" PRIu64 ": %s\n", seed, desc);
	err = run_one(seed, quirks, trace, &res);
	if (err) {
		printf("not ok 1 - seed %" PRIu64 ": error %d\n", seed, err);
		return 1;
	}
	printf("# %" PRIu64 " events, %" PRIu64 " messages, %u crashed, %"
	       PRIu64 " non-uniform decisions\n", res.stats.events,
	       res.stats.messages, res.stats.crashed, res.stats.nonuniform);
	printf("1..1\n%s 1 - seed %" PRIu64 "%s%s\n", res.ok ? "ok" : "not ok",
	       seed, res.ok ? "" : ": ", res.ok ? "" : res.why);
	return !res.ok;
}

/* Search seeds where @quirks break a property (to name a regression). */
static int hunt(uint64_t first, uint64_t count)
{
	struct sim_result res;

	for (uint64_t seed = first; seed < first + count; seed++) {
		if (run_one(seed, hunt_quirks, false, &res) || res.ok)
			continue;
		printf("seed %" PRIu64 ": %s\n", seed, res.why);
		run_one(seed, 0, false, &res);
		printf("  without the quirk: %s\n", res.ok ? "ok" : res.why);
		return 0;
	}
	printf("no violation in %" PRIu64 " schedules\n", count);
	return 1;
}

static uint64_t env_count(uint64_t dflt)
{
	const char *s = getenv("ERA_SCHEDULES");

	return s && *s ? strtoull(s, NULL, 0) : dflt;
}

int main(int argc, char **argv)
{
	uint64_t count = 0, seed = 0;
	uint32_t quirks = 0;
	bool one = false, trace = false, soak = false, hunting = false;
	struct timespec t0, t1;
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
		} else if (!strcmp(a, "--quirks") && v) {
			quirks = (uint32_t)strtoul(v, NULL, 0);
			i++;
		} else if (!strcmp(a, "--hunt") && v) {
			hunt_quirks = (uint32_t)strtoul(v, NULL, 0);
			hunting = true;
			i++;
		} else if (!strcmp(a, "--trace")) {
			trace = true;
		} else if (!strcmp(a, "--soak")) {
			soak = true;
		} else {
			fprintf(stderr, "usage: see the head of props.c\n");
			return 2;
		}
	}
	if (one)
		return replay(seed, quirks, trace);
	if (hunting)
		return hunt(base_seed, count ? count : 1000000);
	run_quirks = quirks;
	if (soak) {
		if (!base_seed)
			base_seed = (uint64_t)time(NULL) << 20;
		count = count ? count : 2000000;
		printf("# soak: seeds %" PRIu64 "..%" PRIu64 "\n", base_seed,
		       base_seed + count - 1);
	}
	if (!count)
		count = env_count(ERA_SIM_SCHEDULES);
	chunk_size = (count + CHUNKS - 1) / CHUNKS;

	for (size_t i = 0; i < sizeof(regressions) / sizeof(*regressions); i++)
		if (regressions[i].name && !soak)
			tap_add(test_regression, &regressions[i],
				"regression %s (seed %" PRIu64 ")",
				regressions[i].name, regressions[i].seed);
	if (!soak && !run_quirks)
		tap_add(test_parent_trigger, NULL,
			"Part 4 on Parent(S', p) dying, as the paper writes "
			"it, also holds (%u schedules)",
			PARENT_TRIGGER_SCHEDULES);
	for (uintptr_t c = 0; c < CHUNKS; c++)
		tap_add(test_chunk, (const void *)c,
			"random schedules, seeds %" PRIu64 "..%" PRIu64,
			base_seed + c * chunk_size,
			base_seed + (c + 1) * chunk_size - 1);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	status = tap_run();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	tap_diag("%" PRIu64 " schedules in %.1f s: %" PRIu64 " failed, %"
		 PRIu64 " events, %" PRIu64 " messages, %" PRIu64
		 " crashes, %" PRIu64 " non-uniform decisions (allowed)",
		 totals.schedules, secs, totals.failed, totals.events,
		 totals.messages, totals.crashes, totals.nonuniform);
	tap_diag("coverage: %" PRIu64 " RESULT_REQUESTs, %" PRIu64
		 " messages of dead senders dropped, %" PRIu64 " stale, %"
		 PRIu64 " DOWNs not awaited, %" PRIu64 " deaths inferred, %"
		 PRIu64 " results collected", totals.requests,
		 totals.from_dead, totals.stale, totals.down_ignored,
		 totals.inferred, totals.collected);
	return status;
}
