/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A deterministic simulated network driving the real ERA engine (one
 * struct era_group per simulated process) and checking the paper's
 * properties (ERA paper, section 2.1) on every step of every schedule.
 *
 * The model is the paper's: "a reliable asynchronous network with unknown
 * bounds on the message transmission delay", fail-stop crashes, and a
 * perfect failure detector whose reports reach each survivor at its own,
 * random, later time. The paper does not assume FIFO channels; TCP gives
 * them, so both are simulated (cfg.fifo). A crashed process sends nothing
 * more, and the messages it had in flight may be lost: with FIFO channels
 * a suffix of each channel is lost, otherwise each message independently.
 *
 * Everything derives from cfg.seed: a run is reproduced by its seed alone
 * (sim_random_cfg() draws the whole configuration from it).
 */
#ifndef FTNL_ERA_SIM_H
#define FTNL_ERA_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine.h"

#define SIM_MAX_N	64	/* ranks fit one 64-bit word: see sim.c */
#define SIM_MAX_K	16	/* agreements per run */

enum sim_crash_kind {
	SIM_CRASH_AT_TIME,	/* @arg: simulated time */
	SIM_CRASH_AFTER_SENDS,	/* @arg: its @arg-th message is its last */
	SIM_CRASH_AFTER_DECIDE,	/* @arg: right after deciding agreement @arg,
				 * before forwarding the decision */
	SIM_CRASH_FORWARDING,	/* @arg: agreement a | k << 32: after its
				 * k-th DOWN of agreement a (k >= 1) */
};

struct sim_crash {
	uint32_t rank;
	uint8_t kind;
	uint64_t arg;
};

/**
 * struct sim_cfg - one schedule
 * @seed: drives every random choice of the run
 * @n: processes
 * @agreements: K, agreements 1..K, started by every process in order
 * @window: agreements in flight (era_config.window)
 * @topo, @inter, @intra, @host_of: the tree (era_config)
 * @rebalance: era_config.rebalance
 * @fifo: per-pair FIFO channels
 * @quirks: era_config.quirks (to replay a rule the simulator refuted)
 * @delay_min, @delay_max: message delay, uniform
 * @slow_pct, @slow_max: this percentage of messages takes up to @slow_max
 * @fd_min, @fd_max: detector delay, per survivor, after a crash
 * @fd_slow_pct: this percentage of detector reports takes 2 to 10 times
 *	longer (some survivors hear of a death much later than others)
 * @start_jitter: a process starts an agreement up to this long after it
 *	may (the previous one returned, window permitting)
 * @crashes: planned crashes, distinct ranks, at least one survivor
 * @max_events: a run longer than this is a livelock (a violation)
 * @trace: print every step as TAP comments
 */
struct sim_cfg {
	uint64_t seed;
	uint32_t n;
	uint32_t agreements;
	uint32_t window;
	enum era_topology topo, inter, intra;
	uint32_t host_of[SIM_MAX_N];
	bool rebalance;
	bool fifo;
	uint32_t quirks;
	uint32_t delay_min, delay_max;
	uint32_t slow_pct, slow_max;
	uint32_t fd_min, fd_max;
	uint32_t fd_slow_pct;
	uint32_t start_jitter;
	uint32_t ncrashes;
	struct sim_crash crashes[SIM_MAX_N];
	uint64_t max_events;
	bool trace;
};

/**
 * struct sim_stats - what a run measured
 * @messages: messages sent (by processes alive when sending)
 * @by_type: the same, by enum era_msg_type
 * @msgs: messages of each agreement (index: agreement id)
 * @first_start: time the first process started each agreement
 * @last_decide: time the last surviving process decided it
 * @latency: the longest time a surviving process spent in it, from its
 *	start to its decision (what the paper's Figure 2 reports)
 * @agreed_failed: size of the failed set each agreement decided
 * @events: simulation steps
 * @crashed: processes that crashed
 * @decisions: decisions taken (by processes alive then)
 * @nonuniform: decisions that differ from the one of a process that
 *	decided earlier and crashed since - allowed (paper, footnote 1)
 * @engine: the engines' counters, summed over every process (coverage:
 *	stale or dead senders' messages, inferred deaths, collections...)
 */
struct sim_stats {
	uint64_t messages;
	uint64_t by_type[4];
	uint64_t msgs[SIM_MAX_K + 1];
	uint64_t first_start[SIM_MAX_K + 1];
	uint64_t last_decide[SIM_MAX_K + 1];
	uint64_t latency[SIM_MAX_K + 1];
	uint32_t agreed_failed[SIM_MAX_K + 1];
	uint64_t events;
	uint32_t crashed;
	uint64_t decisions;
	uint64_t nonuniform;
	struct era_stats engine;
};

/**
 * struct sim_result - a run's verdict
 * @ok: every property held on every step
 * @why: the first violation, if not @ok
 * @stats: measurements
 */
struct sim_result {
	bool ok;
	char why[512];
	struct sim_stats stats;
};

/* Draw a whole random schedule from @seed. */
void sim_random_cfg(struct sim_cfg *cfg, uint64_t seed);

/* A failure-free, unit-delay schedule: every message takes 1 time unit. */
void sim_unit_cfg(struct sim_cfg *cfg, uint32_t n, uint32_t agreements,
		  enum era_topology topo);

/* One line describing @cfg. */
void sim_describe(const struct sim_cfg *cfg, char *buf, size_t len);

/* Run @cfg. Return: 0 (see res->ok), or -ENOMEM/-EINVAL. */
int sim_run(const struct sim_cfg *cfg, struct sim_result *res);

#endif /* FTNL_ERA_SIM_H */
