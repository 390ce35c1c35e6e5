/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One broadcast in the LogP model of the corrected-gossip paper (Hoefler
 * et al., section II): a message costs its sender O, spends L in flight
 * and costs its receiver O; a node sends one message per O and may receive
 * at the same time. Time is counted in slots of O (L / O = lat slots), as
 * in the paper's pseudo-code; receptions are not serialized (the paper's
 * c(t) recurrence, Lemma 1, does not serialize them either).
 *
 * Algorithms: GOS, OCG, CCG, FCG driven through kmod/bcast/gossip.c, and
 * three floods forwarding on first receipt: BIG (p + 2^x), the dual
 * hypercube and BMG (p +/- 2^j) of kmod/bcast/topology.c. Failures are
 * unknown to every algorithm (no detector): nodes failed before the start
 * and nodes that fail at given slots simply stop.
 */
#ifndef FTNL_SIM_GSIM_H
#define FTNL_SIM_GSIM_H

#include <stdbool.h>
#include <stdint.h>

#include "../../kmod/bcast/gossip.h"

enum gsim_algo {
	GSIM_GOS = FTNL_GOSSIP_GOS,
	GSIM_OCG = FTNL_GOSSIP_OCG,
	GSIM_CCG = FTNL_GOSSIP_CCG,
	GSIM_FCG = FTNL_GOSSIP_FCG,
	GSIM_BIG,
	GSIM_HCUBE,
	GSIM_BMG,
	__GSIM_ALGO_MAX,
};

/**
 * struct gsim_cfg - one broadcast
 * @n: nodes (ranks 0..n-1; the root is rank 0, which is no loss of
 *	generality: failures are placed uniformly at random)
 * @algo: enum gsim_algo
 * @lat: L / O
 * @gossip_end: T (gossip algorithms)
 * @corr_len: OCG: C - (T + lat + 1), the correction's length in slots
 * @f: FCG's f
 * @sos_timeout: FCG c-node timeout; 0: ftnl_gossip_params_init()'s
 * @pre_failed: nodes failed before the broadcast (never the root)
 * @online: nodes failing during it, at slots uniform in [0, @online_window)
 * @online_window: see @online
 * @online_active: pick each online victim, when it strikes, among nodes
 *	that hold the message and have not exited (the failures that hurt);
 *	gossip algorithms only. Otherwise among all nodes, drawn in advance.
 * @seed: the run's seed
 */
struct gsim_cfg {
	uint32_t n;
	int algo;
	uint32_t lat;
	uint32_t gossip_end;
	uint32_t corr_len;
	uint8_t f;
	uint32_t sos_timeout;
	uint32_t pre_failed;
	uint32_t online;
	uint32_t online_window;
	bool online_active;
	uint64_t seed;
};

/**
 * struct gsim_result - one broadcast's outcome
 * @live: nodes alive at the end
 * @reached: live nodes that delivered
 * @reach: slot of the last delivery at a live node
 * @done: slot at which the last live node completed: exited (gossip
 *	algorithms) or received or sent its last message (floods)
 * @messages: messages sent (work)
 * @gossip_msgs: of which gossip-phase pushes
 * @sos_msgs: of which FCG SOS messages
 * @gnodes: nodes colored by the gossip phase (with the root)
 * @sos: nodes that entered SOS (FCG)
 * @dup: deliveries beyond the first at a node (must stay 0)
 * @unfinished: live nodes that delivered and never exited (must stay 0)
 * @all_or_none: every live node delivered, or none did
 */
struct gsim_result {
	uint32_t live;
	uint32_t reached;
	uint64_t reach;
	uint64_t done;
	uint64_t messages;
	uint64_t gossip_msgs;
	uint64_t sos_msgs;
	uint32_t gnodes;
	uint32_t sos;
	uint32_t dup;
	uint32_t unfinished;
	bool all_or_none;
};

const char *gsim_algo_name(int algo);
int gsim_algo_parse(const char *name);
int gsim_run(const struct gsim_cfg *cfg, struct gsim_result *res);

#endif /* FTNL_SIM_GSIM_H */
