/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reliable broadcast of failure notifications: kernel glue around the pure
 * overlays (topology.c) and message codec (message.c).
 */
#ifndef _FTNL_BCAST_H
#define _FTNL_BCAST_H

#include <linux/hrtimer.h>
#include <linux/ktime.h>

#include "../compat.h"
#include "../wire.h"
#include "gossip.h"
#include "message.h"

struct ftnl_cluster;
struct ftnl_ring;

/* Broadcasts remembered for deduplication, most recent first out. */
#define FTNL_BCAST_SEEN		256

/**
 * struct ftnl_bcast_seen - a broadcast this node has taken part in
 * @origin_id: its source
 * @origin_incarnation: the source's incarnation
 * @seq: the source's broadcast number
 * @forwarded: bit c set once forwarded in cube c
 * @used: the slot holds a broadcast
 */
struct ftnl_bcast_seen {
	u32 origin_id;
	u64 origin_incarnation;
	u64 seq;
	u8 forwarded;
	bool used;
};

/* Corrected-gossip broadcasts a node takes part in at the same time. */
#define FTNL_FCG_ACTIVE		16

/**
 * struct ftnl_fcg_bcast - this node's part in one FCG broadcast
 * @used: the slot holds a broadcast
 * @epoch: real time of logical slot 0 for this node
 * @wire: the broadcast's identity, parameters and death
 * @par: the state machine's parameters (the same at every node)
 * @node: the state machine
 */
struct ftnl_fcg_bcast {
	bool used;
	ktime_t epoch;
	struct ftnl_gossip_wire wire;
	struct ftnl_gossip_params par;
	struct ftnl_gossip_node node;
};

/**
 * struct ftnl_fcg - a ring's corrected-gossip state
 * @f: failures during a broadcast it tolerates (FCG's f)
 * @gossip_end: T in slots, 0 for the paper's default
 * @timer: drives the state machines' logical clocks
 * @active: broadcasts in progress
 */
struct ftnl_fcg {
	u8 f;
	u32 gossip_end;
	struct hrtimer timer;
	struct ftnl_fcg_bcast active[FTNL_FCG_ACTIVE];
};

/**
 * struct ftnl_bcast - a ring's broadcast state, under the ring's lock
 * @algo: enum ftnl_bcast_algo of broadcasts this node starts
 * @seq: number of the last broadcast this node started
 * @seen: recent broadcasts, for deduplication
 * @seen_next: next slot of @seen to reuse
 * @scratch: a message's D while it is handled
 * @txbuf: payload being sent
 * @txbuf_len: size of @txbuf
 * @latency_last_ns: origin-to-delivery time of the last delivery
 * @latency_max_ns: largest such time
 * @latency_sum_ns: sum of such times
 * @fcg: corrected-gossip broadcasts (algorithm FTNL_BCAST_FCG)
 */
struct ftnl_bcast {
	u8 algo;
	u64 seq;
	struct ftnl_bcast_seen seen[FTNL_BCAST_SEEN];
	u32 seen_next;
	unsigned long *scratch;
	u8 *txbuf;
	u32 txbuf_len;
	u64 latency_last_ns;
	u64 latency_max_ns;
	u64 latency_sum_ns;
	struct ftnl_fcg fcg;
};

int ftnl_bcast_init(struct ftnl_bcast *bcast, u32 npos, u8 algo, u8 fcg_f,
		    u32 gossip_end_us);
void ftnl_bcast_stop(struct ftnl_bcast *bcast);
void ftnl_bcast_free(struct ftnl_bcast *bcast);
bool ftnl_bcast_seen(struct ftnl_bcast *bcast, const struct ftnl_bcast_msg *msg);
void ftnl_bcast_seen_add(struct ftnl_bcast *bcast,
			 const struct ftnl_bcast_msg *msg);
void ftnl_bcast_note_latency(struct ftnl_bcast *bcast, u64 origin_time_ns);
struct ftnl_bcast_members ftnl_bcast_members(const struct ftnl_cluster *cluster);
void ftnl_bcast_publish_proc(struct ftnl_ring *ring,
			     const struct ftnl_bcast_death *death);
void ftnl_bcast_originate(struct ftnl_ring *ring, u32 pos);
void ftnl_bcast_originate_proc(struct ftnl_ring *ring, u64 job, u32 rank);
int ftnl_bcast_rx(struct ftnl_ring *ring, u32 from, const u8 *payload,
		  u32 len);

/* fcg.c */
void ftnl_fcg_init(struct ftnl_fcg *fcg, u8 f, u32 gossip_end_us);
void ftnl_fcg_stop(struct ftnl_fcg *fcg);
void ftnl_fcg_originate(struct ftnl_ring *ring,
			const struct ftnl_bcast_death *death);
int ftnl_fcg_rx(struct ftnl_ring *ring, u32 from, const u8 *payload, u32 len);

#endif /* _FTNL_BCAST_H */
