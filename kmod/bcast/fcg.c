// SPDX-License-Identifier: GPL-2.0
/*
 * Failure-proof Corrected Gossip (FCG, Hoefler et al., Algorithm 3) as a
 * third way to broadcast failures, around the pure state machine of
 * gossip.c. Every node's broadcast state lives in a small table in the
 * ring; one soft hrtimer per ring drives the state machines' logical
 * clocks, one slot being FTNL_FCG_SLOT_NS of real time (the LogP overhead
 * O: a node sends at most one message per slot).
 *
 * A broadcast carries up to FTNL_BCAST_MAX_DEATHS deaths. A node runs at
 * most FTNL_FCG_OWN_ACTIVE broadcasts of its own at once; further deaths
 * wait in a bounded queue (overflow counted as a tx error) and leave
 * together in the next broadcast, so that a burst of deaths is a few
 * broadcasts and never more than the table of active broadcasts, shared
 * with the other origins' broadcasts, can hold.
 *
 * All under the ring's lock (env->lock), like the rest of the broadcast
 * layer. A broadcast this node starts is signed after the lock's section
 * (ftnl_bcast_defer_gossip()): its slot waits, sending nothing, and starts
 * when the signatures come back (ftnl_fcg_signed()), under the lock again.
 */

#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "fcg.h"
#include "gossip.h"
#include "message.h"
#include "../transport.h"

/*
 * O and L / O of the model: one send per 20 us, 100 us in flight. A LAN
 * with kernel UDP sends faster than that; the margin keeps the logical
 * clocks of receivers from running ahead of messages still in flight, and
 * only latency (never correctness) depends on it.
 */
#define FTNL_FCG_SLOT_NS	(FTNL_GOSSIP_SLOT_US * NSEC_PER_USEC)
#define FTNL_FCG_LAT		5

static u32 ftnl_fcg_slots_since(const struct ftnl_fcg_bcast *b, ktime_t now)
{
	s64 ns = ktime_to_ns(ktime_sub(now, b->epoch));

	return ns <= 0 ? 0 : (u32)div_u64(ns, FTNL_FCG_SLOT_NS);
}

static ktime_t ftnl_fcg_slot_time(const struct ftnl_fcg_bcast *b, u32 slot)
{
	return ktime_add_ns(b->epoch, (u64)slot * FTNL_FCG_SLOT_NS);
}

static struct ftnl_fcg_bcast *ftnl_fcg_find(struct ftnl_fcg *fcg,
					    const struct ftnl_bcast_id *id)
{
	int i;

	for (i = 0; i < FTNL_FCG_ACTIVE; i++) {
		struct ftnl_fcg_bcast *b = &fcg->active[i];

		if (b->used && b->wire.origin_id == id->origin_id &&
		    b->wire.origin_incarnation == id->origin_incarnation &&
		    b->wire.seq == id->seq)
			return b;
	}
	return NULL;
}

static struct ftnl_fcg_bcast *ftnl_fcg_slot(struct ftnl_fcg *fcg)
{
	int i;

	for (i = 0; i < FTNL_FCG_ACTIVE; i++)
		if (!fcg->active[i].used)
			return &fcg->active[i];
	return NULL;
}

/* The earliest wake of all active broadcasts; KTIME_MAX if none. */
static ktime_t ftnl_fcg_next_wake(const struct ftnl_fcg *fcg)
{
	ktime_t next = KTIME_MAX;
	int i;

	for (i = 0; i < FTNL_FCG_ACTIVE; i++) {
		const struct ftnl_fcg_bcast *b = &fcg->active[i];

		if (b->used && b->node.wake != FTNL_GOSSIP_NO_WAKE)
			next = min(next, ftnl_fcg_slot_time(b, b->node.wake));
	}
	return next;
}

/* Carry out what the state machine asked for. */
static void ftnl_fcg_act(struct ftnl_bcast *bcast, struct ftnl_fcg_bcast *b,
			 const struct ftnl_gossip_out *out, ktime_t now)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	const struct ftnl_cluster *cluster = env->cluster;
	u32 len;

	if (out->flags & FTNL_GOSSIP_OUT_SEND && out->to < cluster->node_count &&
	    out->to != env->self) {
		len = ftnl_gossip_payload_encode(bcast->txbuf, bcast->txbuf_len -
						 sizeof(b->sigs), &b->wire,
						 &out->msg);
		if (len && b->node.self == b->par.root && !b->signed_here) {
			/* What the origin wrote is the same in every message. */
			b->nsigs = ftnl_bcast_sign(bcast, FTNL_MSG_GOSSIP,
						   bcast->txbuf, len, b->sigs);
			b->signed_here = true;
		}
		if (len && b->nsigs) {
			ftnl_bcast_sig_flag(FTNL_MSG_GOSSIP, bcast->txbuf,
					    b->nsigs);
			memcpy(bcast->txbuf + len, b->sigs,
			       b->nsigs * FTNL_BCAST_SIG_LEN);
			len += b->nsigs * FTNL_BCAST_SIG_LEN;
		}
		if (len && !ftnl_transport_send(env->transport, out->to,
						FTNL_MSG_GOSSIP, bcast->txbuf,
						len)) {
			ftnl_bcast_count(bcast, FTNL_A_STATS_BCAST_SENT);
			if (b->node.self != b->par.root)
				ftnl_bcast_count(bcast, FTNL_A_STATS_BCAST_FORWARDED);
		} else {
			ftnl_bcast_count(bcast, FTNL_A_STATS_TX_ERRORS);
		}
	}
	if (out->flags & FTNL_GOSSIP_OUT_DELIVER && b->node.self != b->par.root) {
		u32 i;

		ftnl_bcast_count(bcast, FTNL_A_STATS_BCAST_DELIVERED);
		ftnl_bcast_note_latency(bcast, b->wire.origin_time_ns);
		for (i = 0; i < b->wire.ndeaths; i++)
			ftnl_bcast_deliver_entry(bcast, &b->wire.deaths[i],
						 b->wire.origin_time_ns, now);
	}
	if (out->flags & FTNL_GOSSIP_OUT_DONE) {
		/* Later copies of this broadcast are duplicates. */
		struct ftnl_bcast_window *w;

		w = ftnl_bcast_window_of(bcast, b->wire.origin_id);
		if (w)
			ftnl_bcast_window_mark(w, b->wire.origin_incarnation,
					       b->wire.seq);
		if (b->wire.origin_id == cluster->self_id)
			bcast->fcg.own--;
		b->used = false;
	}
}

/* (Re)start the ring's gossip timer for the earliest wake. */
static void ftnl_fcg_arm(struct ftnl_bcast *bcast)
{
	ktime_t next = ftnl_fcg_next_wake(&bcast->fcg);

	if (next != KTIME_MAX)
		hrtimer_start(&bcast->fcg.timer, next, HRTIMER_MODE_ABS_SOFT);
}

static u32 ftnl_fcg_drain(struct ftnl_bcast *bcast, ktime_t now);

static enum hrtimer_restart ftnl_fcg_fire(struct hrtimer *timer)
{
	struct ftnl_bcast *bcast = container_of(timer, struct ftnl_bcast,
						fcg.timer);
	struct ftnl_fcg *fcg = &bcast->fcg;
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	ktime_t now = ktime_get(), next;
	int i;

	spin_lock(bcast->env.lock);
	/* Restarted under the lock while this callback waited for it. */
	if (hrtimer_is_queued(timer) || !*bcast->env.running)
		goto out;
	for (i = 0; i < FTNL_FCG_ACTIVE; i++) {
		struct ftnl_fcg_bcast *b = &fcg->active[i];
		struct ftnl_gossip_out out;

		/* One step per due broadcast per firing: one port. */
		if (!b->used || b->node.wake == FTNL_GOSSIP_NO_WAKE ||
		    ktime_after(ftnl_fcg_slot_time(b, b->node.wake), now))
			continue;
		ftnl_gossip_step(&b->node, ftnl_fcg_slots_since(b, now), &out);
		ftnl_fcg_act(bcast, b, &out, now);
	}
	ftnl_fcg_drain(bcast, now);
	next = ftnl_fcg_next_wake(fcg);
	if (next != KTIME_MAX) {
		hrtimer_set_expires(timer, next);
		ret = HRTIMER_RESTART;
	}
out:
	spin_unlock(bcast->env.lock);
	ftnl_bcast_flush(bcast);
	return ret;
}

/* Process context. Return: 0 or -ENOMEM (ftnl_fcg_free() cleans up). */
int ftnl_fcg_init(struct ftnl_fcg *fcg, u8 f, u32 gossip_end_us)
{
	fcg->f = f;
	fcg->gossip_end = gossip_end_us / FTNL_GOSSIP_SLOT_US;
	hrtimer_init(&fcg->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	fcg->timer.function = ftnl_fcg_fire;
	fcg->active = ftnl_counted(kvcalloc(FTNL_FCG_ACTIVE,
					    sizeof(*fcg->active),
					    GFP_KERNEL_ACCOUNT));
	fcg->queue = ftnl_counted(kvcalloc(FTNL_FCG_QUEUE, sizeof(*fcg->queue),
					   GFP_KERNEL_ACCOUNT));
	return fcg->active && fcg->queue ? 0 : -ENOMEM;
}

void ftnl_fcg_stop(struct ftnl_fcg *fcg)
{
	hrtimer_cancel(&fcg->timer);
}

/* May run in softirq (an RCU callback). */
void ftnl_fcg_free(struct ftnl_fcg *fcg)
{
	ftnl_uncount(fcg->active);
	kvfree(fcg->active);
	fcg->active = NULL;
	ftnl_uncount(fcg->queue);
	kvfree(fcg->queue);
	fcg->queue = NULL;
}

/* This node's broadcast in @b, ready (signed if it is to be): its first send. */
static void ftnl_fcg_begin(struct ftnl_bcast *bcast, struct ftnl_fcg_bcast *b,
			   ktime_t now)
{
	struct ftnl_gossip_out out;

	b->epoch = now;
	ftnl_gossip_start(&b->node, &out);
	ftnl_fcg_act(bcast, b, &out, now);
}

/* Start a broadcast of this node's in @b with the deaths at the queue's head. */
static void ftnl_fcg_start(struct ftnl_bcast *bcast, struct ftnl_fcg_bcast *b,
			   ktime_t now)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	const struct ftnl_cluster *cluster = env->cluster;
	struct ftnl_fcg *fcg = &bcast->fcg;
	u32 i, n = min_t(u32, fcg->queue_len, FTNL_BCAST_MAX_DEATHS);

	ftnl_bcast_count(bcast, FTNL_A_STATS_BCAST_ORIGINATED);
	/* Field by field: no temporary of the slot's size on the stack. */
	memset(b, 0, sizeof(*b));
	b->used = true;
	b->epoch = now;
	b->wire.algo = FTNL_GOSSIP_FCG;
	b->wire.f = fcg->f;
	b->wire.lat = FTNL_FCG_LAT;
	b->wire.origin_id = cluster->self_id;
	b->wire.origin_incarnation = env->incarnation;
	b->wire.seq = ++env->transport->bcast_seq;
	b->wire.origin_time_ns = ktime_get_real_ns();
	b->wire.npos = cluster->node_count;
	b->wire.ndeaths = n;
	for (i = 0; i < n; i++) {
		b->wire.deaths[i] = fcg->queue[fcg->queue_head];
		fcg->queue_head = (fcg->queue_head + 1) % FTNL_FCG_QUEUE;
	}
	fcg->queue_len -= n;
	fcg->own++;
	ftnl_gossip_params_init(&b->par, FTNL_GOSSIP_FCG, cluster->node_count,
				env->self, FTNL_FCG_LAT, fcg->f);
	if (fcg->gossip_end)
		b->par.gossip_end = fcg->gossip_end;
	b->wire.gossip_end = b->par.gossip_end;
	ftnl_gossip_init(&b->node, &b->par, env->self, get_random_u64());
	/* No wake before it starts: the timer passes it by meanwhile. */
	if (ftnl_bcast_defer_gossip(bcast, &b->wire)) {
		b->signing = true;
		return;
	}
	ftnl_fcg_begin(bcast, b, now);
}

/**
 * ftnl_fcg_signed - a broadcast this node started comes back signed
 * @bcast: the broadcast state, the ring locked
 * @incarnation: the life it was started in
 * @seq: its number
 * @sigs: its signatures
 * @nsigs: how many
 *
 * It starts now, carrying them in every message. Gone meanwhile (a new
 * life dropped it) or the ring stopped: nothing happens.
 */
void ftnl_fcg_signed(struct ftnl_bcast *bcast, u64 incarnation, u64 seq,
		     const u8 *sigs, u32 nsigs)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	const struct ftnl_bcast_id id = {
		.origin_id = env->cluster->self_id,
		.origin_incarnation = incarnation,
		.seq = seq,
	};
	struct ftnl_fcg_bcast *b;

	lockdep_assert_held(env->lock);
	b = ftnl_fcg_find(&bcast->fcg, &id);
	if (!b || !b->signing || !*env->running)
		return;
	b->signing = false;
	b->signed_here = true;
	b->nsigs = nsigs;
	memcpy(b->sigs, sigs, nsigs * FTNL_BCAST_SIG_LEN);
	ftnl_fcg_begin(bcast, b, ktime_get());
	ftnl_fcg_arm(bcast);
}

/*
 * Start broadcasts of waiting deaths while this node may run more of its
 * own and a slot is free. Return: how many started.
 */
static u32 ftnl_fcg_drain(struct ftnl_bcast *bcast, ktime_t now)
{
	struct ftnl_fcg *fcg = &bcast->fcg;
	struct ftnl_fcg_bcast *b;
	u32 started = 0;

	while (fcg->queue_len && fcg->own < FTNL_FCG_OWN_ACTIVE) {
		b = ftnl_fcg_slot(fcg);
		if (!b)
			break;
		ftnl_fcg_start(bcast, b, now);
		started++;
	}
	return started;
}

/**
 * ftnl_fcg_originate - broadcast @deaths from this node with FCG
 * @bcast: the broadcast state, the ring locked
 * @deaths: what to broadcast
 * @n: their number
 *
 * They join the queue (what does not fit is counted as tx errors) and
 * leave as soon as this node may start a broadcast, with whatever else
 * waits.
 *
 * Return: the number of broadcasts started now.
 */
u32 ftnl_fcg_originate(struct ftnl_bcast *bcast,
		       const struct ftnl_bcast_death *deaths, u32 n)
{
	struct ftnl_fcg *fcg = &bcast->fcg;
	ktime_t now = ktime_get();
	u32 i, started;

	for (i = 0; i < n; i++) {
		if (fcg->queue_len == FTNL_FCG_QUEUE) {
			ftnl_bcast_count(bcast, FTNL_A_STATS_TX_ERRORS);
			continue;
		}
		fcg->queue[(fcg->queue_head + fcg->queue_len) % FTNL_FCG_QUEUE] =
			deaths[i];
		fcg->queue_len++;
	}
	started = ftnl_fcg_drain(bcast, now);
	ftnl_fcg_arm(bcast);
	return started;
}

/*
 * The decoder checked ids, deaths and clocks; this node's FCG runs only
 * FCG with messages in flight for at least one slot.
 */
static bool ftnl_fcg_wire_ok(const struct ftnl_gossip_wire *wire)
{
	return wire->algo == FTNL_GOSSIP_FCG && wire->lat >= 1;
}

/**
 * ftnl_fcg_rx - a GOSSIP datagram from the node at @from, authenticated
 * @bcast: the broadcast state, the ring locked
 * @from: the sender's position
 * @payload: the payload
 * @len: its length
 * @verified: its origin's signature was verified (ftnl_bcast_rx())
 *
 * Return: 0, -EINVAL if malformed or inconsistent, -EKEYREJECTED or
 * -EAGAIN as ftnl_bcast_check_origin() says (nothing changed then).
 */
int ftnl_fcg_rx(struct ftnl_bcast *bcast, u32 from, const u8 *payload,
		u32 len, bool verified)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	const struct ftnl_cluster *cluster = env->cluster;
	struct ftnl_bcast_members members = ftnl_bcast_members(cluster);
	struct ftnl_gossip_wire *wire = &bcast->fcg.rx_wire;
	const struct ftnl_node *origin;
	struct ftnl_bcast_window *w;
	struct ftnl_gossip_msg msg;
	struct ftnl_gossip_out out;
	struct ftnl_fcg_bcast *b;
	struct ftnl_bcast_id id;
	ktime_t now = ktime_get();
	bool fresh = false;
	u32 body_len;
	int nsigs;

	/* A broadcast done here or out of its window: from the header. */
	if (ftnl_bcast_peek_id(&id, payload, len))
		return -EINVAL;
	b = ftnl_fcg_find(&bcast->fcg, &id);
	/* This node's own, not sent yet (ftnl_fcg_signed()): none is real. */
	if (b && b->signing)
		return -EINVAL;
	if (!b) {
		w = ftnl_bcast_window_of(bcast, id.origin_id);
		if (!w)
			return -EINVAL;
		if (ftnl_bcast_window_check(w, id.origin_incarnation, id.seq) !=
		    FTNL_WINDOW_NEW) {
			ftnl_bcast_count(bcast, FTNL_A_STATS_BCAST_DUPLICATES);
			return 0;
		}
	}

	/*
	 * Its origin's signatures, checked at the first message (later ones
	 * add only a forwarder's part: the origin's is kept from the first).
	 */
	nsigs = ftnl_bcast_sig_find(FTNL_MSG_GOSSIP, payload, len, &body_len);
	if (nsigs < 0)
		return -EINVAL;
	if (!b) {
		int err = ftnl_bcast_check_origin(bcast, FTNL_MSG_GOSSIP,
						  id.origin_id, payload, len,
						  &body_len, verified);

		if (err)
			return err;
	}
	if (ftnl_gossip_payload_decode(wire, &msg, cluster->node_count,
				       &members, payload, body_len) ||
	    !ftnl_fcg_wire_ok(wire))
		return -EINVAL;
	origin = ftnl_cluster_find(cluster, wire->origin_id);

	if (!b) {
		b = ftnl_fcg_slot(&bcast->fcg);
		if (!b) {
			ftnl_bcast_count(bcast, FTNL_A_STATS_EVENTS_LOST);
			return 0;
		}
		memset(b, 0, sizeof(*b));
		b->used = true;
		b->wire = *wire;
		b->nsigs = nsigs;
		memcpy(b->sigs, payload + body_len, nsigs * FTNL_BCAST_SIG_LEN);
		ftnl_gossip_params_init(&b->par, FTNL_GOSSIP_FCG,
					cluster->node_count, origin - cluster->nodes,
					wire->lat, wire->f);
		b->par.gossip_end = wire->gossip_end;
		ftnl_gossip_init(&b->node, &b->par, env->self, get_random_u64());
		fresh = true;
	}
	if (!ftnl_gossip_msg_valid(&b->par, &msg)) {
		if (fresh)
			b->used = false;
		return -EINVAL;
	}
	ftnl_gossip_recv(&b->node, from, &msg, &out);
	if (fresh && b->node.state == FTNL_GOSSIP_IDLE) {
		/* The message could not color this node: keep no state. */
		b->used = false;
		return 0;
	}
	/* Its logical clock starts where the message says: map it to now. */
	if (fresh)
		b->epoch = ktime_sub_ns(now, (u64)b->node.time * FTNL_FCG_SLOT_NS);
	ftnl_fcg_act(bcast, b, &out, now);
	ftnl_fcg_drain(bcast, now);
	ftnl_fcg_arm(bcast);
	return 0;
}
