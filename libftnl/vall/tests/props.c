// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vall-sim: validate-all's properties (tests/sim.h) over many random
 * schedules, strict and loose, and the schedules that pin a reading of
 * the paper, as named tests (TAP).
 *
 *	vall-sim			regressions + the default count, per
 *					semantics
 *	vall-sim -n COUNT [-b BASE]	COUNT schedules per semantics
 *	vall-sim --seed S [--loose] [--quirks Q] [--trace]   replay one
 *	vall-sim --soak [-n COUNT]	fresh seeds (printed)
 *	vall-sim --hunt-nonuniform [-n N]   a loose schedule whose returns
 *					are not uniform
 *	vall-sim --hunt QUIRKS [--loose] [--want TEXT] [-n N]   a
 *					schedule that refutes a reading (enum
 *					vall_quirk), its violation saying TEXT
 *
 * VALL_SCHEDULES in the environment overrides the default count.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim.h"
#include "tap.h"

#ifndef VALL_SIM_SCHEDULES
#define VALL_SIM_SCHEDULES 60000
#endif
#define CHUNKS 10
#define MAX_REPORTED 10

/*
 * Schedules kept as tests. @quirks: with them, @property is violated;
 * without, the run passes. @nonuniform: a loose schedule whose survivors
 * agree while a process that returned and then crashed returned another
 * value (section 4.3); the same seed with strict semantics is uniform.
 */
struct regression {
	const char *name;
	uint64_t seed;
	enum vall_semantics semantics;
	uint32_t quirks;
	const char *property;
	bool nonuniform;
};

static const struct regression regressions[] = {
	/*
	 * Section 4.3 shown: n = 32, one operation, processes crash right
	 * after returning. Loose: root 0 commits the empty ballot, returns
	 * it and dies before its COMMIT_BCAST reaches anyone; root 1 ballots
	 * {0}, returns it and dies; the survivors commit {0, 1}. They agree
	 * with each other, not with 0 and 1. Strict: nobody returns before
	 * every live process committed, and the run is uniform.
	 */
	{ "loose semantics are not uniform: a root returns and dies "
	  "before its commit leaves", 23, VALL_LOOSE, 0, NULL, true },
	/*
	 * "The acknowledgment of the COMMIT_BCAST ... omitted" (4.3) read as
	 * no ACK at all: 3 dies while forwarding a COMMIT_BCAST, nobody
	 * learns the broadcast must be redone, its subtree never commits.
	 * Hence loose keeps COMMIT's ACK and NAK ("processes need to continue
	 * to respond ... to ensure that the COMMIT_BCAST broadcast
	 * completes") and drops only the ALL_COMMIT phase.
	 */
	{ "loose without COMMIT acks: a lost COMMIT_BCAST is never redone",
	  5, VALL_LOOSE, VALL_QUIRK_LOOSE_NO_COMMIT_ACK, "termination:",
	  false },
	/*
	 * "A number larger than any broadcast number it has seen" as a plain
	 * counter: n = 12, root 0 dies; root 1 ballots with 2|1 (it saw
	 * 1|0) and dies; root 2, which saw only 1|0, ballots with 1|2: rule
	 * (6) NAKs it wherever 1's ballot arrived, and no news of a failure
	 * ever comes again to make 2 try another number. The
	 * engine's numbers begin with the root's rank: roots only move up.
	 */
	{ "plain broadcast counter: a new root's ballot is NAKed forever",
	  60, VALL_STRICT, VALL_QUIRK_PLAIN_BCAST_NUM, "termination:", false },
};

struct totals {
	uint64_t schedules, failed, events, messages, crashes, nonuniform;
	uint64_t reported, forced, rejected, naks, stale, changed;
};

static struct totals totals[2];
static uint64_t base_seed;
static uint64_t chunk_size;

static int run_one(uint64_t seed, enum vall_semantics sem, uint32_t quirks,
		   bool trace, struct sim_result *res)
{
	struct sim_cfg cfg;

	sim_random_cfg(&cfg, seed, sem);
	cfg.quirks = quirks;
	cfg.trace = trace;
	return sim_run(&cfg, res);
}

static const char *sem_name(enum vall_semantics sem)
{
	return sem == VALL_LOOSE ? "loose" : "strict";
}

static void report(uint64_t seed, enum vall_semantics sem, uint32_t quirks,
		   const struct sim_result *res)
{
	struct sim_cfg cfg;
	char desc[512];

	sim_random_cfg(&cfg, seed, sem);
	cfg.quirks = quirks;
	sim_describe(&cfg, desc, sizeof(desc));
	tap_diag("seed %" PRIu64 ": %s", seed, desc);
	tap_diag("  %s", res->why);
	tap_diag("  replay: vall-sim --seed %" PRIu64 "%s --quirks %u --trace",
		 seed, sem == VALL_LOOSE ? " --loose" : "", quirks);
}

static void test_regression(const void *arg)
{
	const struct regression *r = arg;
	struct sim_result res;

	if (r->quirks) {
		TAP_CHECK_INT(run_one(r->seed, r->semantics, r->quirks, false,
				      &res), 0);
		if (!TAP_CHECK(!res.ok))
			tap_diag("the quirk no longer shows: %s", r->property);
		else if (!TAP_CHECK_CONTAINS(res.why, r->property))
			tap_diag("instead: %s", res.why);
	}
	TAP_CHECK_INT(run_one(r->seed, r->semantics, 0, false, &res), 0);
	if (!TAP_CHECK(res.ok))
		report(r->seed, r->semantics, 0, &res);
	if (r->nonuniform) {
		TAP_CHECK(res.stats.nonuniform > 0);
		/* The same schedule, three phases: uniform. */
		TAP_CHECK_INT(run_one(r->seed, VALL_STRICT, 0, false, &res), 0);
		if (!TAP_CHECK(res.ok))
			report(r->seed, VALL_STRICT, 0, &res);
		TAP_CHECK_UINT(res.stats.nonuniform, 0);
	}
}

struct chunk {
	enum vall_semantics sem;
	uint64_t first;
};

static void test_chunk(const void *arg)
{
	const struct chunk *ch = arg;
	struct totals *t = &totals[ch->sem];
	struct sim_result res;

	for (uint64_t seed = ch->first; seed < ch->first + chunk_size; seed++) {
		if (!TAP_CHECK_INT(run_one(seed, ch->sem, 0, false, &res), 0))
			return;
		t->schedules++;
		t->events += res.stats.events;
		t->messages += res.stats.messages;
		t->crashes += res.stats.crashed;
		t->nonuniform += res.stats.nonuniform;
		t->forced += res.stats.engine.forced;
		t->rejected += res.stats.engine.ballots_rejected;
		t->naks += res.stats.by_type[VALL_MSG_NAK];
		t->stale += res.stats.engine.stale;
		t->changed += res.stats.engine.commit_changed;
		if (res.ok)
			continue;
		t->failed++;
		TAP_CHECK(res.ok);
		if (t->reported++ < MAX_REPORTED)
			report(seed, ch->sem, 0, &res);
	}
}

/*
 * The random schedules reach every recovery path: FORCED_NAK commits,
 * rejected or NAKed ballots, NAKs, stale operations, crashes; and loose
 * semantics show non-uniform returns. (A schedule generator that stopped
 * producing them would leave the properties untested.)
 */
static void test_coverage(const void *arg)
{
	(void)arg;
	for (int s = 0; s < 2; s++) {
		const struct totals *t = &totals[s];

		if (t->schedules < 1000)
			continue;	/* too few to expect every path */
		TAP_CHECK(t->forced > 0);
		TAP_CHECK(t->rejected > 0);
		TAP_CHECK(t->naks > 0);
		TAP_CHECK(t->stale > 0);
		TAP_CHECK(t->crashes > t->schedules);
	}
	if (totals[VALL_LOOSE].schedules >= 1000)
		TAP_CHECK(totals[VALL_LOOSE].nonuniform > 0);
	if (totals[VALL_STRICT].schedules < 1000)
		TAP_SKIP("fewer than 1,000 schedules");
}

static int replay(uint64_t seed, enum vall_semantics sem, uint32_t quirks,
		  bool trace)
{
	struct sim_result res;
	struct sim_cfg cfg;
	char desc[512];
	int err;

	sim_random_cfg(&cfg, seed, sem);
	cfg.quirks = quirks;
	sim_describe(&cfg, desc, sizeof(desc));
	printf("# seed %" PRIu64 ": %s\n", seed, desc);
	err = run_one(seed, sem, quirks, trace, &res);
	if (err) {
		printf("not ok 1 - seed %" PRIu64 ": error %d\n", seed, err);
		return 1;
	}
	printf("# %" PRIu64 " events, %" PRIu64 " messages, %u crashed, %"
	       PRIu64 " non-uniform returns\n", res.stats.events,
	       res.stats.messages, res.stats.crashed, res.stats.nonuniform);
	printf("1..1\n%s 1 - seed %" PRIu64 "%s%s\n", res.ok ? "ok" : "not ok",
	       seed, res.ok ? "" : ": ", res.ok ? "" : res.why);
	return !res.ok;
}

static const char *hunt_want;	/* --want: the violation must say so */

static int hunt(enum vall_semantics sem, uint32_t quirks, bool nonuniform,
		uint64_t first, uint64_t count)
{
	struct sim_result res;

	for (uint64_t seed = first; seed < first + count; seed++) {
		if (run_one(seed, sem, quirks, false, &res))
			continue;
		if (nonuniform ? !res.ok || !res.stats.nonuniform : res.ok)
			continue;
		if (hunt_want && !strstr(res.why, hunt_want))
			continue;
		printf("seed %" PRIu64 ": %s\n", seed,
		       nonuniform ? "loose, non-uniform" : res.why);
		run_one(seed, sem, 0, false, &res);
		printf("  without quirks: %s\n", res.ok ? "ok" : res.why);
		return 0;
	}
	printf("nothing in %" PRIu64 " schedules\n", count);
	return 1;
}

static uint64_t env_count(uint64_t dflt)
{
	const char *s = getenv("VALL_SCHEDULES");

	return s && *s ? strtoull(s, NULL, 0) : dflt;
}

static void summary(enum vall_semantics sem)
{
	const struct totals *t = &totals[sem];

	tap_diag("%s: %" PRIu64 " schedules: %" PRIu64 " failed, %" PRIu64
		 " events, %" PRIu64 " messages, %" PRIu64 " crashes, %"
		 PRIu64 " non-uniform returns%s", sem_name(sem), t->schedules,
		 t->failed, t->events, t->messages, t->crashes, t->nonuniform,
		 sem == VALL_LOOSE ? " (allowed)" : "");
	tap_diag("%s coverage: %" PRIu64 " FORCED_NAK commits, %" PRIu64
		 " ballots rejected or NAKed, %" PRIu64 " NAKs, %" PRIu64
		 " stale messages, %" PRIu64 " commits replaced", sem_name(sem),
		 t->forced, t->rejected, t->naks, t->stale, t->changed);
}

int main(int argc, char **argv)
{
	static struct chunk chunks[2][CHUNKS];
	uint64_t count = 0, seed = 0;
	uint32_t quirks = 0;
	bool one = false, trace = false, soak = false, hunting = false;
	bool hunt_nonuniform = false;
	enum vall_semantics sem = VALL_STRICT;
	struct timespec t0, t1;
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
			quirks = (uint32_t)strtoul(v, NULL, 0);
			hunting = true;
			i++;
		} else if (!strcmp(a, "--hunt-nonuniform")) {
			hunting = hunt_nonuniform = true;
			sem = VALL_LOOSE;
		} else if (!strcmp(a, "--want") && v) {
			hunt_want = v;
			i++;
		} else if (!strcmp(a, "--loose")) {
			sem = VALL_LOOSE;
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
		return replay(seed, sem, quirks, trace);
	if (hunting)
		return hunt(sem, quirks, hunt_nonuniform, base_seed,
			    count ? count : 1000000);
	if (soak) {
		if (!base_seed)
			base_seed = (uint64_t)time(NULL) << 20;
		count = count ? count : 2000000;
		printf("# soak: seeds %" PRIu64 "..%" PRIu64 "\n", base_seed,
		       base_seed + count - 1);
	}
	if (!count)
		count = env_count(VALL_SIM_SCHEDULES);
	chunk_size = (count + CHUNKS - 1) / CHUNKS;

	for (size_t i = 0; i < sizeof(regressions) / sizeof(*regressions); i++)
		if (regressions[i].name && !soak)
			tap_add(test_regression, &regressions[i],
				"%s (seed %" PRIu64 ")", regressions[i].name,
				regressions[i].seed);
	for (int s = 0; s < 2; s++) {
		for (uint64_t c = 0; c < CHUNKS; c++) {
			chunks[s][c] = (struct chunk){
				.sem = (enum vall_semantics)s,
				.first = base_seed + c * chunk_size,
			};
			tap_add(test_chunk, &chunks[s][c],
				"%s: random schedules, seeds %" PRIu64 "..%"
				PRIu64, sem_name((enum vall_semantics)s),
				chunks[s][c].first,
				chunks[s][c].first + chunk_size - 1);
		}
	}
	tap_add(test_coverage, NULL, "the schedules reach FORCED_NAK, rejected "
		"ballots, NAKs, stale operations; loose shows non-uniform "
		"returns");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	status = tap_run();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	tap_diag("%.1f s", (double)(t1.tv_sec - t0.tv_sec) +
		 (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	summary(VALL_STRICT);
	summary(VALL_LOOSE);
	return status;
}
