/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A deterministic simulated network driving the real radix membership
 * engine (one struct radix_node per live process, messages through the
 * real codec) and checking the membership properties on every schedule:
 *
 *  - agreement: every surviving member installs the same sequence of
 *    views: one content per seq, each survivor's seqs consecutive;
 *  - self inclusion: a process installs only views that hold it;
 *  - no resurrection: a process (id, incarnation) absent from a view is in
 *    no later view;
 *  - termination: at the end every survivor is in the group and holds the
 *    same last view, which is exactly the live processes: every failure
 *    and every join of a live process made it into a view;
 *  - bounded stabilization: a round during which no process fails
 *    stabilizes within Ocp * H + 2 * (H - 1) * dmax, H the height of its
 *    tree (the paper's section 4 model with the slowest message);
 *  - no engine counts a protocol error.
 *
 * The network is reliable and FIFO between live processes (TCP); a
 * crashed process sends nothing more and a random suffix of what it had
 * in flight is lost; a message to an id with no live process bounces
 * (connection refused). The failure detector is perfect: every live
 * process learns each crash, at its own random later time; a process
 * started later learns the earlier ones at start (a dump).
 *
 * Everything derives from cfg.seed.
 */
#ifndef FTNL_RADIX_SIM_H
#define FTNL_RADIX_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RSIM_MAX_CHECKED	64	/* ids the property checks handle */
#define RSIM_MAX_PLANS		128

enum rsim_plan_kind {
	RSIM_CRASH_AT,		/* @id's first process crashes at @arg */
	RSIM_CRASH_AFTER_SENDS,	/* ... right after its @arg-th send */
	RSIM_CRASH_ROOT_AT,	/* whoever is root at @arg crashes */
	RSIM_SPAWN_AT,		/* spare @id starts and joins at @arg */
	RSIM_RESPAWN,		/* @id restarts @arg after each crash, once */
};

struct rsim_plan {
	uint8_t kind;
	uint32_t id;
	uint64_t arg;
};

/**
 * struct rsim_cfg - one schedule
 * @cap, @initial, @fanout: the group (radix_config)
 * @delay_min, @delay_max: message delay, uniform
 * @ocp: computation per round message (the paper's Ocp)
 * @fd_min, @fd_max: detector delay
 * @plans: crashes, spawns, restarts
 * @survivor: an id whose first process never crashes (RADIX_NONE: any
 *	may), so that the group never dies out
 * @check: run the property checks (needs cap <= RSIM_MAX_CHECKED)
 * @max_events: more is a livelock
 * @trace: print every step as TAP comments
 */
struct rsim_cfg {
	uint64_t seed;
	uint32_t cap, initial, fanout;
	uint32_t delay_min, delay_max;
	uint32_t ocp;
	uint32_t fd_min, fd_max;
	uint32_t nplans;
	struct rsim_plan plans[RSIM_MAX_PLANS];
	uint32_t survivor;
	bool check;
	uint64_t max_events;
	bool trace;
};

/**
 * struct rsim_round - one round as its root saw it
 * @type: its message type
 * @issued, @stable: times (stable 0: never)
 * @height: levels of its tree (members known dead at issue left out)
 * @nodes: members of that tree
 * @quiet: no process failed while it ran, none of its tree was dead
 */
struct rsim_round {
	uint8_t type;
	uint64_t issued, stable;
	uint32_t height;
	uint32_t nodes;
	bool quiet;
};

#define RSIM_MAX_ROUNDS 256

struct rsim_stats {
	uint64_t events, messages, bytes;
	uint64_t by_type[16];
	uint32_t crashed, spawned, views;
	uint64_t nonuniform;
	uint32_t nrounds;
	struct rsim_round rounds[RSIM_MAX_ROUNDS];
	uint64_t takeovers, adopted, duplicates, stale, from_dead, redirects;
	uint64_t stepped_down, refusals, recollections, catchups, proofs;
	uint64_t end;		/* time of the last event */
};

struct rsim_result {
	bool ok;
	char why[512];
	struct rsim_stats stats;
};

void rsim_random_cfg(struct rsim_cfg *cfg, uint64_t seed);
void rsim_describe(const struct rsim_cfg *cfg, char *buf, size_t len);
/* Return: 0 (see res->ok), -EINVAL or -ENOMEM. */
int rsim_run(const struct rsim_cfg *cfg, struct rsim_result *res);

#endif /* FTNL_RADIX_SIM_H */
