/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The observation ring and its failure broadcast in the ring paper's model
 * (Bosilca et al., section 4.1): every message takes a time uniform in
 * (0, t]; a node sends one message at a time (one-port), in FIFO order;
 * heartbeats are not simulated one by one but their schedule is, so the
 * exact suspicion time of an observer is known when its emitter dies.
 *
 * Driven code: Algorithm 1's detector (kmod/ring/core.c: T2, T3, T4,
 * FindEmitter) at every node, ftnl_hcube_forward()/ftnl_bmg_forward() and
 * ftnl_bcast_view_init() (kmod/bcast/topology.c) for the broadcast of task
 * T3/T5.
 */
#ifndef FTNL_SIM_RING_H
#define FTNL_SIM_RING_H

#include <stdbool.h>
#include <stdint.h>

/* D is a per-node bitmask over failure indices. */
#define RING_MAX_FAILURES	64

enum ring_mode {
	RING_BURST,	/* Figure 4: floor(log2 n) - 1 failures within a window */
	RING_MTBF,	/* Figure 5: exponential failures, first at time 0 */
	RING_SEGMENT,	/* Figure 2: a burst striking consecutive nodes, each
			 * the predecessor of the previous: Theorem 1's worst case */
	RING_RACK,	/* every node of one failure domain, all at time 0 */
};

/**
 * struct ring_cfg - one run
 * @n: nodes
 * @h_ns: heartbeat period h
 * @d_ns: suspicion timeout d
 * @t_ns: message time bound t
 * @overlay: FTNL_OVERLAY_HYPERCUBE or FTNL_OVERLAY_BMG
 * @mode: enum ring_mode
 * @nfail: RING_BURST, RING_SEGMENT: failures injected (first at 0, others
 *	uniform in [0, @window_ns))
 * @window_ns: RING_BURST, RING_SEGMENT: the window
 * @mtbf_node_s: RING_MTBF: a node's mean time between failures (m_ind);
 *	the platform's is m_ind / n
 * @rack: RING_RACK: nodes per failure domain (ids 0..n-1, domain id / @rack);
 *	one domain, drawn at random, fails whole at time 0 (@nfail = @rack)
 * @domains: the ring order interleaves the domains (kmod/ring/order.c) as
 *	a table naming them makes it; off, ids in order: a domain is a run of
 *	consecutive nodes
 * @paper_t5: Algorithm 1 to the letter: T5 only adds the announced death
 *	to D and does not reconnect the ring, so an observer that learns its
 *	emitter's death from a broadcast still times out and broadcasts it
 *	again. Off: ftnl's kmod/bcast/bcast.c and ring.c, where a node unions
 *	the message's whole D and reconnects at once if its emitter is in it.
 * @seed: the run's seed
 */
struct ring_cfg {
	uint32_t n;
	int64_t h_ns;
	int64_t d_ns;
	int64_t t_ns;
	int overlay;
	int mode;
	uint32_t nfail;
	int64_t window_ns;
	double mtbf_node_s;
	uint32_t rack;
	bool domains;
	bool paper_t5;
	uint64_t seed;
};

/**
 * struct ring_result - what a run measured
 * @t_first_ns: all survivors know the failure of time 0
 * @t_all_ns: all survivors know all failures (the stable configuration)
 * @failures: failures that struck before @t_all_ns
 * @broadcasts: broadcasts started (task T3)
 * @bcast_msgs: broadcast messages sent
 * @newobs_msgs: NEW_OBSERVER messages sent
 * @suspicions: task T3 runs
 * @events: events processed
 * @stable: all survivors knew all failures at the end
 * @reconnected: the ring was reconnected at the end (every survivor
 *	observes its closest live predecessor, which heartbeats it)
 */
struct ring_result {
	int64_t t_first_ns;
	int64_t t_all_ns;
	uint32_t failures;
	uint32_t broadcasts;
	uint64_t bcast_msgs;
	uint64_t newobs_msgs;
	uint32_t suspicions;
	uint64_t events;
	bool stable;
	bool reconnected;
};

int ring_run(const struct ring_cfg *cfg, struct ring_result *res);

#endif /* FTNL_SIM_RING_H */
