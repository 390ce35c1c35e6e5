/* SPDX-License-Identifier: GPL-2.0 */
/* ftnl-sim's commands and the batches of runs they share. */
#ifndef FTNL_SIM_SIM_H
#define FTNL_SIM_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "gsim.h"
#include "ring.h"
#include "stats.h"

/* The ring paper's scenarios (section 4.1), t = 1 ms in both. */
struct ring_scenario {
	const char *name;
	double h_s;
	double d_s;
	double t_s;
};

const struct ring_scenario *ring_scenario_find(const char *name);

/**
 * struct ring_batch - runs of one ring configuration (seeds seed..seed+runs-1)
 * @t_first: seconds until all survivors know the first failure
 * @t_all: seconds until all survivors know all failures
 * @failures: failures before stabilization
 * @broadcasts: broadcasts per run
 * @msgs: broadcast messages per run
 * @runs: runs made
 * @unstable: runs that never stabilized (must stay 0)
 * @unreconnected: runs whose ring was not reconnected at the end (must
 *	stay 0)
 * @wall_s: wall-clock time of the batch
 */
struct ring_batch {
	struct sim_stat t_first;
	struct sim_stat t_all;
	struct sim_stat failures;
	struct sim_stat broadcasts;
	struct sim_stat msgs;
	uint32_t runs;
	uint32_t unstable;
	uint32_t unreconnected;
	double wall_s;
};

/**
 * struct gsim_batch - runs of one broadcast configuration
 * @done: slots until the last live node completed
 * @reach: slots until the last live node delivered
 * @messages: messages per broadcast
 * @gossip_msgs: of which gossip-phase pushes
 * @sos_msgs: of which SOS messages
 * @reached: share of live nodes that delivered, per run where any did
 * @gnodes: g-nodes per run
 * @runs: runs made
 * @incomplete: runs where some live node did not deliver
 * @none: runs where no live node delivered (the root failed first)
 * @inconsistent: runs neither all nor none (violations of property IV)
 * @sos_runs: runs where some node entered SOS
 * @dup: duplicate deliveries over all runs (must stay 0)
 * @unfinished: live delivered nodes that never exited (must stay 0)
 * @wall_s: wall-clock time of the batch
 */
struct gsim_batch {
	struct sim_stat done;
	struct sim_stat reach;
	struct sim_stat messages;
	struct sim_stat gossip_msgs;
	struct sim_stat sos_msgs;
	struct sim_stat reached;
	struct sim_stat gnodes;
	uint32_t runs;
	uint32_t incomplete;
	uint32_t none;
	uint32_t inconsistent;
	uint32_t sos_runs;
	uint64_t dup;
	uint64_t unfinished;
	double wall_s;
};

int ring_batch_run(const struct ring_cfg *cfg, uint32_t runs,
		   struct ring_batch *out);
int gsim_batch_run(const struct gsim_cfg *cfg, uint32_t runs,
		   struct gsim_batch *out);
double sim_wall_seconds(void);

int sim_compare(int argc, char **argv);
int sim_selftest(void);

#endif /* FTNL_SIM_SIM_H */
