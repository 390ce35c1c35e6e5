/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A deterministic simulated network driving the real validate-all engine
 * (one struct vall_group per simulated process), after libftnl/era's
 * (tests/sim.h there): fail-stop crashes at any step, a perfect failure
 * detector whose reports reach each survivor at its own random later
 * time, FIFO or unordered channels, messages of a crashed sender lost
 * (a suffix of each channel with FIFO, each one at random otherwise).
 * Everything derives from cfg.seed.
 *
 * Checked on every return and at the end (Buntinas, section 3):
 *
 * Termination	every process that did not crash returns every operation.
 * Agreement	every survivor returns the same value; and, on the fly, a
 *		process never returns a value different from one returned
 *		by a process still alive.
 * Validity	the returned failed set holds every failure the returning
 *		process knew of when it called, every survivor's too, and
 *		only processes that really crashed; the flag is the AND of
 *		proposals, every survivor's among them.
 * Uniformity	strict semantics only: no process, even one that crashed
 *		after returning, returned a different value. Loose: counted
 *		(stats.nonuniform), the paper says it may happen.
 */
#ifndef FTNL_VALL_SIM_H
#define FTNL_VALL_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vall/engine.h"

#define SIM_MAX_N	64
#define SIM_MAX_K	16

enum sim_crash_kind {
	SIM_CRASH_AT_TIME,	/* @arg: simulated time */
	SIM_CRASH_AFTER_SENDS,	/* @arg: its @arg-th message is its last */
	SIM_CRASH_AFTER_RETURN,	/* @arg: right after returning operation @arg */
	SIM_CRASH_AFTER_TYPE,	/* @arg: op | k << 32 | type << 48: after its
				 * k-th message of that type for op */
};

struct sim_crash {
	uint32_t rank;
	uint8_t kind;
	uint64_t arg;
};

/**
 * struct sim_cfg - one schedule (see libftnl/era/tests/sim.h)
 * @semantics: VALL_STRICT or VALL_LOOSE
 * @ops: operations 1..ops, called by every process in order
 * @window: operations in flight
 * @quirks: enum vall_quirk
 * (the rest: as ERA's)
 */
struct sim_cfg {
	uint64_t seed;
	uint32_t n;
	enum vall_semantics semantics;
	uint32_t ops;
	uint32_t window;
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
 * @messages: messages sent; @by_type by enum vall_msg_type
 * @msgs: per operation
 * @latency: the longest time a survivor spent in each operation
 * @events, @crashed, @returns
 * @nonuniform: returns that differ from an earlier one of a process that
 *	crashed since (loose only: strict fails the run)
 * @engine: the engines' counters, summed
 */
struct sim_stats {
	uint64_t messages;
	uint64_t by_type[VALL_MSG_NTYPES];
	uint64_t msgs[SIM_MAX_K + 1];
	uint64_t latency[SIM_MAX_K + 1];
	uint64_t events;
	uint32_t crashed;
	uint64_t returns;
	uint64_t nonuniform;
	struct vall_stats engine;
};

struct sim_result {
	bool ok;
	char why[512];
	struct sim_stats stats;
};

/* Draw a whole random schedule from @seed, with @semantics. */
void sim_random_cfg(struct sim_cfg *cfg, uint64_t seed,
		    enum vall_semantics semantics);

/* A failure-free schedule where every message takes one time unit. */
void sim_unit_cfg(struct sim_cfg *cfg, uint32_t n, uint32_t ops,
		  enum vall_semantics semantics);

void sim_describe(const struct sim_cfg *cfg, char *buf, size_t len);

/* Run @cfg. Return: 0 (see res->ok), or -ENOMEM/-EINVAL. */
int sim_run(const struct sim_cfg *cfg, struct sim_result *res);

#endif /* FTNL_VALL_SIM_H */
