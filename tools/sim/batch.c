// SPDX-License-Identifier: GPL-2.0
/* Batches of runs, and the ring scenarios (see sim.h). */
#include <string.h>
#include <time.h>

#include "sim.h"

static const struct ring_scenario ring_scenarios[] = {
	{ "lownoise", 10.0, 60.0, 0.001 },
	{ "lowlat", 0.1, 1.0, 0.001 },
};

const struct ring_scenario *ring_scenario_find(const char *name)
{
	for (size_t i = 0; i < sizeof(ring_scenarios) / sizeof(ring_scenarios[0]); i++)
		if (!strcmp(name, ring_scenarios[i].name))
			return &ring_scenarios[i];
	return NULL;
}

double sim_wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int ring_batch_run(const struct ring_cfg *cfg, uint32_t runs,
		   struct ring_batch *out)
{
	double start = sim_wall_seconds();
	struct ring_cfg run = *cfg;
	struct ring_result res;
	uint32_t i;
	int err;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < runs; i++) {
		run.seed = cfg->seed + i;
		err = ring_run(&run, &res);
		if (err)
			return err;
		out->runs++;
		if (!res.stable) {
			out->unstable++;
			continue;
		}
		if (!res.reconnected)
			out->unreconnected++;
		sim_stat_add(&out->t_first, res.t_first_ns * 1e-9);
		sim_stat_add(&out->t_all, res.t_all_ns * 1e-9);
		sim_stat_add(&out->failures, res.failures);
		sim_stat_add(&out->broadcasts, res.broadcasts);
		sim_stat_add(&out->msgs, res.bcast_msgs);
	}
	out->wall_s = sim_wall_seconds() - start;
	return 0;
}

int gsim_batch_run(const struct gsim_cfg *cfg, uint32_t runs,
		   struct gsim_batch *out)
{
	double start = sim_wall_seconds();
	struct gsim_cfg run = *cfg;
	struct gsim_result res;
	uint32_t i;
	int err;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < runs; i++) {
		run.seed = cfg->seed + i;
		err = gsim_run(&run, &res);
		if (err)
			return err;
		out->runs++;
		sim_stat_add(&out->done, res.done);
		sim_stat_add(&out->reach, res.reach);
		sim_stat_add(&out->messages, res.messages);
		sim_stat_add(&out->gossip_msgs, res.gossip_msgs);
		sim_stat_add(&out->sos_msgs, res.sos_msgs);
		if (res.reached)
			sim_stat_add(&out->reached, (double)res.reached / res.live);
		out->none += !res.reached;
		sim_stat_add(&out->gnodes, res.gnodes);
		out->incomplete += res.reached != res.live;
		out->inconsistent += !res.all_or_none;
		out->sos_runs += res.sos > 0;
		out->dup += res.dup;
		out->unfinished += res.unfinished;
	}
	out->wall_s = sim_wall_seconds() - start;
	return 0;
}
