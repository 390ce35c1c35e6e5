/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reliable broadcast of failure notifications: kernel glue around the pure
 * overlays (topology.c), message codec (message.c) and corrected gossip
 * (gossip.c, driven by fcg.c behind this interface).
 *
 * The contract with the ring: the broadcast layer sees its node through a
 * read-only struct ftnl_bcast_env (the configuration, this node's
 * position and incarnation, D, whether the ring runs), sends through the
 * transport, and tells the ring of a death it learned through one
 * callback (->failure_learned), of a rejoin through another
 * (->join_learned). It exports init, originate, welcome, receive, stats
 * and stop; all but init and stop run under the ring's lock (env->lock),
 * which they assert.
 */
#ifndef _FTNL_BCAST_H
#define _FTNL_BCAST_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/llist.h>
#include <linux/spinlock.h>

#include "../compat.h"
#include "../wire.h"
#include "gossip.h"
#include "message.h"
#include "signature.h"
#include "topology.h"
#include "window.h"

struct ftnl_cluster;
struct ftnl_net;
struct ftnl_transport;

/**
 * struct ftnl_bcast_ops - what the broadcast layer may ask of the ring
 * @failure_learned: a broadcast says the node at @pos failed (@state
 *	FTNL_NODE_STATE_DEAD or _LEFT, @incarnation the one that failed, 0 if
 *	not said, @observer_id the node that detected it, in the table):
 *	task T5; @origin_ns: when the broadcast (or welcome) was started,
 *	on its origin's wall clock
 * @dead_incarnation: the incarnation the node at @pos (in D) died in, 0
 *	if unknown: what a broadcast's D says of it
 * @join_learned: a broadcast says the node at @pos rejoined with
 *	@incarnation, admitted by @observer_id (in the table); @renamed:
 *	that life began under a smaller incarnation (FTNL_BCAST_RENAMED)
 * @welcome: a welcome for this node's incarnation @incarnation arrived:
 *	may its JOINs (->join_learned) and D (->failure_learned) be learned?
 * @rejoined: fill @joins (at most @max) with JOIN entries of the live nodes
 *	known to have come back, for a welcome; return how many
 */
struct ftnl_bcast_ops {
	void (*failure_learned)(void *ctx, u32 pos, u8 state, u64 incarnation,
				u32 observer_id, u64 origin_ns, ktime_t now);
	u64 (*dead_incarnation)(void *ctx, u32 pos);
	void (*join_learned)(void *ctx, u32 pos, u64 incarnation,
			     bool renamed, u32 observer_id, ktime_t now);
	bool (*welcome)(void *ctx, u64 incarnation, ktime_t now);
	u32 (*rejoined)(void *ctx, struct ftnl_bcast_death *joins, u32 max);
};

/**
 * struct ftnl_bcast_env - the node as the broadcast layer sees it
 * @fn: the netns, where events are queued
 * @cluster: the configuration (immutable)
 * @self: this node's position
 * @incarnation: this node's incarnation (a broadcast's identity)
 * @dead: D, read-only here (the ring writes it)
 * @running: the ring runs (read-only here)
 * @lock: the ring's lock, held by every caller but init and stop
 * @transport: where datagrams and broadcast numbers come from
 * @ops: the ring's callbacks
 * @ctx: passed back to them
 * @cpu_ctx: per-CPU working memory of signing without the lock
 *	(ftnl_bcast_flush()), used with BHs disabled
 */
struct ftnl_bcast_env {
	struct ftnl_net *fn;
	const struct ftnl_cluster *cluster;
	u32 self;
	u64 incarnation;
	const unsigned long *dead;
	const bool *running;
	spinlock_t *lock; /* the ring's, held around every call but init/stop */
	struct ftnl_transport *transport;
	const struct ftnl_bcast_ops *ops;
	void *ctx;
	struct ftnl_ed25519_ctx __percpu *cpu_ctx;
};

/**
 * struct ftnl_bcast_stats - delivery latencies (origin to delivery, wall
 *	clocks of both nodes)
 * @latency_last_ns: of the last delivery
 * @latency_max_ns: the largest
 * @latency_sum_ns: their sum
 */
struct ftnl_bcast_stats {
	u64 latency_last_ns;
	u64 latency_max_ns;
	u64 latency_sum_ns;
};

/*
 * The broadcast layer's own counters, indexed by enum ftnl_stats_attr like
 * the ring's (only the broadcast ones and TX_ERRORS, EVENTS_LOST are used);
 * a stats dump adds both (ftnl_bcast_add_counters()).
 */
#define FTNL_BCAST_NR_COUNTERS	__FTNL_A_STATS_MAX

/*
 * Corrected-gossip broadcasts a node takes part in at the same time (its
 * own and others'), and how many of those may be its own: the rest of its
 * deaths wait in a queue, in batches of up to FTNL_BCAST_MAX_DEATHS.
 */
#define FTNL_FCG_ACTIVE		64
#define FTNL_FCG_OWN_ACTIVE	4
#define FTNL_FCG_QUEUE		256

/**
 * struct ftnl_fcg_bcast - this node's part in one FCG broadcast
 * @used: the slot holds a broadcast
 * @epoch: real time of logical slot 0 for this node
 * @wire: the broadcast's identity, parameters and death
 * @par: the state machine's parameters (the same at every node)
 * @node: the state machine
 * @nsigs: signatures of its origin in @sigs (kmod/bcast/signature.h),
 *	sent with every message of it; 0 if unsigned
 * @signed_here: this node, its origin, made @sigs
 * @signing: this node started it and signs it without the ring's lock:
 *	it sends nothing, and takes no message, until ftnl_fcg_signed()
 * @sigs: the origin's signatures
 */
struct ftnl_fcg_bcast {
	bool used;
	bool signing;
	ktime_t epoch;
	struct ftnl_gossip_wire wire;
	struct ftnl_gossip_params par;
	struct ftnl_gossip_node node;
	u8 nsigs;
	bool signed_here;
	u8 sigs[FTNL_BCAST_MAX_SIGS * FTNL_BCAST_SIG_LEN];
};

/**
 * struct ftnl_fcg - a ring's corrected-gossip state
 * @f: failures during a broadcast it tolerates (FCG's f)
 * @gossip_end: T in slots, 0 for the paper's default
 * @timer: drives the state machines' logical clocks
 * @active: broadcasts in progress, FTNL_FCG_ACTIVE slots
 * @own: how many of them this node started
 * @queue: deaths waiting for a broadcast of their own, a ring of
 *	FTNL_FCG_QUEUE
 * @queue_head: the oldest waiting
 * @queue_len: how many wait
 * @rx_wire: a received payload while it is handled (off the stack)
 */
struct ftnl_fcg {
	u8 f;
	u32 gossip_end;
	struct hrtimer timer;
	struct ftnl_fcg_bcast *active;
	u32 own;
	struct ftnl_bcast_death *queue;
	u32 queue_head;
	u32 queue_len;
	struct ftnl_gossip_wire rx_wire;
};

/**
 * struct ftnl_bcast_unsigned - a broadcast this node started, signed once
 *	the ring's lock is released (ftnl_bcast_flush())
 * @node: in struct ftnl_bcast's @unsigned_q
 * @incarnation: this node's incarnation when it started it: not sent in
 *	another life
 * @seq: its number (a corrected gossip's, to find it again)
 * @type: FTNL_MSG_BCAST (sent as it is, to @to) or FTNL_MSG_GOSSIP (its
 *	signatures go back to its slot, which then starts: ftnl_fcg_signed())
 * @len: the payload's length without signatures
 * @nsigs: how many signatures it is to carry (room for them follows)
 * @ncopies: destinations in @to
 * @cube1: @to[@cube1] on get the copy of the second hypercube
 * @to: the destinations' positions
 * @payload: the payload
 */
struct ftnl_bcast_unsigned {
	struct llist_node node;
	u64 incarnation;
	u64 seq;
	u8 type;
	u32 len;
	u8 nsigs;
	u8 ncopies;
	u8 cube1;
	u32 to[2 * FTNL_BCAST_MAX_FANOUT];
	u8 payload[];
};

/**
 * struct ftnl_bcast - a ring's broadcast state, under the ring's lock
 * @env: the node as seen from here
 * @algo: enum ftnl_bcast_algo of broadcasts this node starts
 * @windows: per origin position, the broadcasts taken part in (window.h)
 * @msg: a received message while it is handled (off the stack)
 * @tx_msg: a message this node starts, while it is built (a delivery may
 *	start one while @msg is in use)
 * @to: the labels a copy is forwarded to, while it is (off the stack)
 * @to_pos: their positions
 * @scratch: a message's D while it is handled
 * @txbuf: payload being sent
 * @txbuf_len: size of @txbuf
 * @stats: delivery latencies
 * @counters: what the layer counts, by enum ftnl_stats_attr
 * @fcg: corrected-gossip broadcasts (algorithm FTNL_BCAST_FCG)
 * @sig_ctx: the working memory of signing under the ring's lock (a
 *	broadcast @unsigned_q had no memory for), off the stack; the others
 *	are signed, and received ones verified, without the lock, in
 *	per-CPU memory (ftnl_bcast_flush(), ftnl_bcast_verify_origin())
 * @unsigned_q: broadcasts this node started, to be signed and sent once
 *	the lock is released: a signature costs a fraction of a millisecond
 *	(milliseconds in an emulated guest) that no heartbeat waits for
 */
struct ftnl_bcast {
	struct ftnl_bcast_env env;
	u8 algo;
	struct ftnl_bcast_window *windows;
	struct ftnl_bcast_msg msg;
	struct ftnl_bcast_msg tx_msg;
	u32 to[FTNL_BCAST_MAX_FANOUT];
	u32 to_pos[FTNL_BCAST_MAX_FANOUT];
	unsigned long *scratch;
	u8 *txbuf;
	u32 txbuf_len;
	struct ftnl_bcast_stats stats;
	atomic64_t counters[FTNL_BCAST_NR_COUNTERS];
	struct ftnl_fcg fcg;
	struct ftnl_ed25519_ctx sig_ctx;
	struct llist_head unsigned_q;
};

int ftnl_bcast_init(struct ftnl_bcast *bcast, const struct ftnl_bcast_env *env);
u32 ftnl_bcast_originate(struct ftnl_bcast *bcast,
			 const struct ftnl_bcast_death *deaths, u32 n);
void ftnl_bcast_flush(struct ftnl_bcast *bcast);
int ftnl_bcast_welcome(struct ftnl_bcast *bcast, u32 to,
		       const struct ftnl_bcast_death *join);
int ftnl_bcast_rx(struct ftnl_bcast *bcast, u32 from, u8 type,
		  const u8 *payload, u32 len, bool verified);
int ftnl_bcast_verify_origin(const struct ftnl_cluster *cluster,
			     struct ftnl_transport *t,
			     struct ftnl_ed25519_ctx *ctx, u8 type,
			     const u8 *payload, u32 len);
void ftnl_bcast_get_stats(struct ftnl_bcast *bcast,
			  struct ftnl_bcast_stats *stats);
void ftnl_bcast_add_counters(const struct ftnl_bcast *bcast, u64 *sums);
void ftnl_bcast_new_life(struct ftnl_bcast *bcast, u64 incarnation);
void ftnl_bcast_stop(struct ftnl_bcast *bcast);
void ftnl_bcast_free(struct ftnl_bcast *bcast);

#endif /* _FTNL_BCAST_H */
