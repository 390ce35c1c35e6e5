/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The observation ring at run time: heartbeat emission (task T1), timeout
 * observation (T2, T3), ring reconnection (T4), graceful leave and
 * readmission. Kernel glue around the pure topology in topology.c.
 */
#ifndef _FTNL_RING_H
#define _FTNL_RING_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/net.h>
#include <linux/spinlock.h>

#include "../bcast/bcast.h"
#include "../ftnl.h"
#include "../wire.h"

/**
 * struct ftnl_peer - what this node knows of another member
 * @incarnation: incarnation heard from it, 0 if none yet
 * @dead_incarnation: incarnation it last died (or left) with; a readmitted
 *	node must come back with a larger one
 * @replay: anti-replay window over @incarnation's sequence numbers
 * @observer_id: who detected its failure (when not alive)
 * @state: enum ftnl_node_state
 * @cause: enum ftnl_event_cause of its failure (when not alive)
 */
struct ftnl_peer {
	u64 incarnation;
	u64 dead_incarnation;
	struct ftnl_replay replay;
	u32 observer_id;
	u8 state;
	u8 cause;
};

/* Counters are indexed by their enum ftnl_stats_attr value. */
#define FTNL_RING_NR_COUNTERS	__FTNL_A_STATS_MAX

/**
 * struct ftnl_ring - one running observation ring (one per configuration)
 * @fn: the netns state
 * @cluster: the configuration it runs (immutable)
 * @lock: protects the ring state below, taken in softirq (timers, receive)
 *	and, with BHs off, in process context
 * @running: timers armed and datagrams acted on
 * @self: this node's ring position
 * @emitter: the node this node observes (Algorithm 1 "emitter")
 * @observer: the node this node heartbeats (Algorithm 1 "observer")
 * @observing: @emitter is another node (false when every other is in D)
 * @heard_emitter: a heartbeat from the current @emitter arrived
 * @stall_grace: the suspicion timer already waited once for a stalled CPU
 *	to read its pending datagrams (reset when the deadline moves)
 * @susp_deadline: when the emitter is suspected (SUSP-TIMEOUT)
 * @last_hb: arrival of the last heartbeat from @emitter
 * @period: h
 * @timeout: d
 * @incarnation: this node's incarnation, stamped on every datagram
 * @hb_timer: HB-TIMEOUT, task T1
 * @susp_timer: SUSP-TIMEOUT, tasks T2/T3
 * @dead: D, a bitmap over ring positions
 * @peers: per position knowledge
 * @sock4: UDP socket for IPv4 members, NULL if none
 * @sock6: UDP socket for IPv6 members, NULL if none
 * @reuse4: @sock4 is the previous ring's, handed over when started
 * @reuse6: @sock6 likewise
 * @tx_seq: last sequence number sent
 * @counters: indexed by enum ftnl_stats_attr (simple counters only)
 * @drops: indexed by enum ftnl_drop_reason
 * @lateness: heartbeat emission lateness histogram (see uapi)
 * @lateness_max_ns: largest emission lateness
 * @bcast: the broadcast layer's state
 */
struct ftnl_ring {
	struct ftnl_net *fn;
	struct ftnl_cluster *cluster;
	spinlock_t lock; /* protects the ring state */
	bool running;
	u32 self;
	u32 emitter;
	u32 observer;
	bool observing;
	bool heard_emitter;
	bool stall_grace;
	ktime_t susp_deadline;
	ktime_t last_hb;
	ktime_t period;
	ktime_t timeout;
	u64 incarnation;
	struct hrtimer hb_timer;
	struct hrtimer susp_timer;
	unsigned long *dead;
	struct ftnl_peer *peers;
	struct socket *sock4;
	struct socket *sock6;
	bool reuse4;
	bool reuse6;
	atomic64_t tx_seq;
	atomic64_t counters[FTNL_RING_NR_COUNTERS];
	atomic64_t drops[__FTNL_DROP_MAX];
	atomic64_t lateness[FTNL_LATENESS_BUCKETS];
	u64 lateness_max_ns;
	struct ftnl_bcast bcast;
};

/**
 * struct ftnl_node_view - a node as the dump shows it
 * @state: enum ftnl_node_state
 * @incarnation: incarnation heard, 0 if none
 * @emitter: this node observes it
 * @observer: it observes this node
 * @has_hb_age: @hb_age_ns is meaningful
 * @hb_age_ns: time since its last heartbeat (emitter only)
 */
struct ftnl_node_view {
	u8 state;
	u64 incarnation;
	bool emitter;
	bool observer;
	bool has_hb_age;
	u64 hb_age_ns;
};

int ftnl_ring_create(struct ftnl_net *fn, struct ftnl_cluster *cluster,
		     const struct ftnl_ring *prev);
void ftnl_ring_start(struct ftnl_ring *ring, struct ftnl_ring *prev);
void ftnl_ring_stop(struct ftnl_ring *ring);
void ftnl_ring_close_sockets(struct ftnl_ring *ring);
void ftnl_ring_destroy(struct ftnl_ring *ring);
void ftnl_ring_leave(struct ftnl_ring *ring);
int ftnl_ring_readmit(struct ftnl_ring *ring, u32 pos, const char **why);
void ftnl_ring_rx(struct ftnl_ring *ring, u32 pos,
		  const struct ftnl_wire_hdr *hdr, const u8 *payload);
void ftnl_ring_failure_learned(struct ftnl_ring *ring, u32 pos, u8 state,
			       u8 cause, u32 observer_id, ktime_t now);
void ftnl_ring_view(struct ftnl_ring *ring, u32 pos,
		    struct ftnl_node_view *view);
void ftnl_ring_proc_exited(struct ftnl_ring *ring, u64 job, u32 rank,
			   bool event_lost);

static inline void ftnl_ring_count(struct ftnl_ring *ring, int counter)
{
	atomic64_inc(&ring->counters[counter]);
}

static inline void ftnl_ring_drop(struct ftnl_ring *ring,
				  enum ftnl_drop_reason reason)
{
	atomic64_inc(&ring->drops[reason]);
}

/* transport, for the ring's layers */
int ftnl_dgram_send(struct ftnl_ring *ring, u32 pos, u8 type,
		    const u8 *payload, u32 len);

#endif /* _FTNL_RING_H */
