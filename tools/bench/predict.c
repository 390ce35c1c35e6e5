// SPDX-License-Identifier: GPL-2.0
/*
 * What each broadcast algorithm's analysis predicts for the benchmark's
 * failure notifications: the messages of one fault-free broadcast, run in
 * the simulator's LogP model (tools/sim/gsim.c) on the module's own pure
 * overlay and gossip code (kmod/bcast/topology.c, kmod/bcast/gossip.c),
 * with the module's parameters (kmod/bcast/fcg.c: slots of 20 us, L/O = 5).
 *
 * The floods run over the survivors only (the dead node is in the
 * message's D); FCG runs over every position, the dead one included, which
 * never answers (the module's choice: no D in a GOSSIP datagram).
 */
#include <errno.h>
#include <string.h>

#include <linux/ftnl.h>

#include "../sim/gsim.h"
#include "predict.h"

/* kmod/bcast/fcg.c: FTNL_FCG_SLOT_NS and FTNL_FCG_LAT. */
#define MODULE_SLOT_US	20
#define MODULE_LAT	5

int bench_predict(unsigned int algo, unsigned int n, unsigned int f,
		  unsigned int gossip_t_us, unsigned int runs,
		  struct bench_prediction *out)
{
	struct gsim_cfg cfg;
	struct gsim_result res;
	unsigned int i;
	double sum = 0;
	int err;

	memset(out, 0, sizeof(*out));
	if (n < 3 || !runs)
		return -EINVAL;
	memset(&cfg, 0, sizeof(cfg));
	cfg.lat = MODULE_LAT;
	switch (algo) {
	case FTNL_BCAST_HYPERCUBE:
	case FTNL_BCAST_BMG:
		cfg.algo = algo == FTNL_BCAST_BMG ? GSIM_BMG : GSIM_HCUBE;
		cfg.n = n - 1;
		runs = 1;	/* a fault-free flood is deterministic */
		break;
	case FTNL_BCAST_FCG:
		cfg.algo = GSIM_FCG;
		cfg.n = n;
		cfg.f = (uint8_t)f;
		cfg.pre_failed = 1;
		cfg.gossip_end = gossip_t_us ? gossip_t_us / MODULE_SLOT_US :
			ftnl_gossip_default_gossip_end(FTNL_GOSSIP_FCG, n,
						       MODULE_LAT);
		if (!cfg.gossip_end)
			cfg.gossip_end = 1;
		out->gossip_t_slots = cfg.gossip_end;
		break;
	default:
		return -EINVAL;
	}
	for (i = 0; i < runs; i++) {
		cfg.seed = 0x5eed0000ULL + i;
		err = gsim_run(&cfg, &res);
		if (err)
			return err;
		sum += (double)res.messages;
		if (res.reached != res.live)
			out->incomplete++;
		if (res.sos)
			out->sos_runs++;
	}
	out->messages = sum / runs;
	/*
	 * The simulator's BMG node sends to all its neighbors; the module's
	 * skips the one it heard from (kmod/bcast/bcast.c), which is always a
	 * neighbor (p + 2^j and p - 2^j: the graph is symmetric), so every
	 * participant but the source sends one datagram less.
	 */
	if (algo == FTNL_BCAST_BMG)
		out->messages -= cfg.n - 1;
	out->runs = runs;
	return 0;
}
