/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixed against adaptive timeouts on one observer-emitter link: the
 * emitter sends every h, each heartbeat is lost with probability @loss or
 * arrives after a delay drawn from the pattern; the link keeps order (a
 * heartbeat never overtakes the one before). The adaptive detector is the
 * module's own estimator (kmod/ring/adaptive.c), the fixed one waits d.
 *
 * Measured per detector: false suspicions (a gap between arrivals longer
 * than the timeout set at the first of them) and the detection time of a
 * crash in the middle of every period (last arrival + timeout - crash).
 */
#ifndef FTNL_SIM_ADAPT_H
#define FTNL_SIM_ADAPT_H

#include <stdint.h>

/**
 * struct adapt_cfg - one pattern
 * @name: its label in the table
 * @h_ns: heartbeat period h
 * @d_ns: the fixed timeout d, also the adaptive d_max
 * @dmin_ns: the adaptive d_min of the first adaptive detector
 * @dmin2_ns: the adaptive d_min of the second (e.g. above 2h: one lost
 *	heartbeat is then never a suspicion)
 * @nines: the adaptive target rate 10^-nines
 * @base_ns: every delay is at least this
 * @jitter_ns: plus uniform in [0, @jitter_ns)
 * @loss: probability a heartbeat is lost
 * @spike: probability a heartbeat is delayed a further uniform [0, @spike_ns)
 * @spike_ns: see @spike
 * @beats: heartbeats simulated
 * @seed: the run's seed
 */
struct adapt_cfg {
	const char *name;
	int64_t h_ns;
	int64_t d_ns;
	int64_t dmin_ns;
	int64_t dmin2_ns;
	uint32_t nines;
	int64_t base_ns;
	int64_t jitter_ns;
	double loss;
	double spike;
	int64_t spike_ns;
	uint64_t beats;
	uint64_t seed;
};

/**
 * struct adapt_side - what one detector did
 * @false_suspicions: gaps longer than the timeout
 * @detect_mean_ns: mean crash-to-suspicion time
 * @detect_p50_ns: its median (upper bound of its 10 us bucket)
 * @detect_p99_ns: its 99th percentile (likewise)
 * @detect_max_ns: its maximum
 */
struct adapt_side {
	uint64_t false_suspicions;
	double detect_mean_ns;
	int64_t detect_p50_ns;
	int64_t detect_p99_ns;
	int64_t detect_max_ns;
};

/* fixed d, adaptive from @dmin_ns, adaptive from @dmin2_ns */
struct adapt_result {
	struct adapt_side side[3];
};

int adapt_run(const struct adapt_cfg *cfg, struct adapt_result *res);
int cmd_adapt(int argc, char **argv);

#endif /* FTNL_SIM_ADAPT_H */
