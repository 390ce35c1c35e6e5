// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-radix-stab: stabilization time of the radix-tree membership service
 * in the simulator, next to the paper's model (section 4):
 *
 *	Ts = 2 * L * (H - 1) + Ocp * H
 *
 * for one failure (a leaf), a root failure and a join, n = 8 .. 65,536
 * members, fan-out 2 and 4, every message taking L = 118 us and every
 * round message Ocp = 2 us of computation (the paper's TCP figures). The
 * real engine runs in every simulated process, messages through the real
 * codec. Figures only (make bench), never pass/fail.
 *
 *	ftnl-radix-stab [--max N] [--latency US] [--ocp US]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/sim.h"
#include "tree.h"

enum scenario { ONE_FAILURE, ROOT_FAILURE, JOIN, SCENARIOS };

static const char *const names[] = { "one failure", "root failure",
				     "join" };

struct figure {
	uint64_t ts;		/* issue of the first round to the last
				 * stabilization, simulated us */
	uint32_t rounds, height;
	uint64_t messages;
	double secs;		/* to simulate it */
};

static int run(uint32_t n, uint32_t a, uint32_t latency, uint32_t ocp,
	       enum scenario s, struct figure *f)
{
	struct rsim_cfg c = {
		.seed = 1, .cap = n + 1, .initial = n, .fanout = a,
		.delay_min = latency, .delay_max = latency, .ocp = ocp,
		.fd_min = 1, .fd_max = 1, .max_events = UINT64_MAX,
		.survivor = s == ROOT_FAILURE ? 1 : 0,
	};
	struct rsim_result *res = malloc(sizeof(*res));
	struct timespec t0, t1;
	int err;

	if (!res)
		return -1;
	c.nplans = 1;
	c.plans[0] = s == ONE_FAILURE ?
		     (struct rsim_plan){ RSIM_CRASH_AT, n - 1, 1 } :
		     s == ROOT_FAILURE ?
		     (struct rsim_plan){ RSIM_CRASH_AT, 0, 1 } :
		     (struct rsim_plan){ RSIM_SPAWN_AT, n, 1 };
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = rsim_run(&c, res);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	memset(f, 0, sizeof(*f));
	f->secs = (double)(t1.tv_sec - t0.tv_sec) +
		  (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (!err && res->ok && res->stats.nrounds) {
		const struct rsim_round *first = &res->stats.rounds[0];
		const struct rsim_round *last =
			&res->stats.rounds[res->stats.nrounds - 1];

		f->ts = last->stable - first->issued;
		f->rounds = res->stats.nrounds;
		f->height = last->height;
		f->messages = res->stats.messages;
	} else if (!err) {
		fprintf(stderr, "n=%u a=%u %s: %s\n", n, a, names[s],
			res->ok ? "no round" : res->why);
		err = -1;
	}
	free(res);
	return err;
}

int main(int argc, char **argv)
{
	uint32_t max = 65536, latency = 118, ocp = 2;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--max"))
			max = (uint32_t)strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--latency"))
			latency = (uint32_t)strtoul(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--ocp"))
			ocp = (uint32_t)strtoul(argv[i + 1], NULL, 0);
		else
			return fprintf(stderr, "usage: see stab.c\n"), 2;
	}
	printf("# radix-tree membership: stabilization, simulated vs the "
	       "paper's model\n");
	printf("# L = %u us per message, Ocp = %u us per round message; "
	       "model Ts = 2 L (H - 1) + Ocp H, H the height for n "
	       "(n - 1 after a failure, n + 1 after a join)\n", latency, ocp);
	printf("# a root failure is two rounds here (the new root collects, "
	       "then changes the view): its model is one round, as in the "
	       "paper\n");
	printf("%-3s %6s %-13s %3s %10s %10s %6s %9s %8s\n", "a", "n",
	       "scenario", "H", "model_us", "sim_us", "rounds", "messages",
	       "wall_s");
	for (uint32_t a = 2; a <= 4; a *= 2)
		for (uint32_t n = 8; n <= max; n *= 2)
			for (int s = 0; s < SCENARIOS; s++) {
				uint64_t m = s == JOIN ? n + 1 : n - 1;
				struct figure f;

				if (run(n, a, latency, ocp, s, &f))
					return 1;
				printf("%-3u %6u %-13s %3u %10.0f %10" PRIu64
				       " %6u %9" PRIu64 " %8.2f\n", a, n,
				       names[s], radix_model_height(m, a),
				       radix_model_ts(m, a, latency, ocp),
				       f.ts, f.rounds, f.messages, f.secs);
				fflush(stdout);
			}
	return 0;
}
