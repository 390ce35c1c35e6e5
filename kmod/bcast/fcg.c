// SPDX-License-Identifier: GPL-2.0
/*
 * Failure-proof Corrected Gossip (FCG, Hoefler et al., Algorithm 3) as a
 * third way to broadcast failures, around the pure state machine of
 * gossip.c. Every node's broadcast state lives in a small table in the
 * ring; one soft hrtimer per ring drives the state machines' logical
 * clocks, one slot being FTNL_FCG_SLOT_NS of real time (the LogP overhead
 * O: a node sends at most one message per slot).
 *
 * All under the ring's lock (env->lock), like the rest of the broadcast
 * layer.
 */

#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/random.h>
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
					    const struct ftnl_gossip_wire *wire)
{
	int i;

	for (i = 0; i < FTNL_FCG_ACTIVE; i++) {
		struct ftnl_fcg_bcast *b = &fcg->active[i];

		if (b->used && b->wire.origin_id == wire->origin_id &&
		    b->wire.origin_incarnation == wire->origin_incarnation &&
		    b->wire.seq == wire->seq)
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
	const struct ftnl_node *node;
	u32 len;

	if (out->flags & FTNL_GOSSIP_OUT_SEND && out->to < cluster->node_count &&
	    out->to != env->self) {
		len = ftnl_gossip_payload_encode(bcast->txbuf, bcast->txbuf_len,
						 &b->wire, &out->msg);
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
		ftnl_bcast_count(bcast, FTNL_A_STATS_BCAST_DELIVERED);
		ftnl_bcast_note_latency(bcast, b->wire.origin_time_ns);
		if (b->wire.death.state == FTNL_BCAST_PROC_EXIT) {
			ftnl_bcast_publish_proc(bcast, &b->wire.death);
		} else {
			node = ftnl_cluster_find(cluster, b->wire.death.node_id);
			if (node)
				env->ops->failure_learned(env->ctx,
							  node - cluster->nodes,
							  b->wire.death.state,
							  b->wire.death.incarnation,
							  b->wire.death.observer_id,
							  now);
		}
	}
	if (out->flags & FTNL_GOSSIP_OUT_DONE) {
		/* Later copies of this broadcast are duplicates. */
		struct ftnl_bcast_msg id = {
			.origin_id = b->wire.origin_id,
			.origin_incarnation = b->wire.origin_incarnation,
			.seq = b->wire.seq,
		};

		ftnl_bcast_seen_add(bcast, &id);
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
	next = ftnl_fcg_next_wake(fcg);
	if (next != KTIME_MAX) {
		hrtimer_set_expires(timer, next);
		ret = HRTIMER_RESTART;
	}
out:
	spin_unlock(bcast->env.lock);
	return ret;
}

void ftnl_fcg_init(struct ftnl_fcg *fcg, u8 f, u32 gossip_end_us)
{
	fcg->f = f;
	fcg->gossip_end = gossip_end_us / FTNL_GOSSIP_SLOT_US;
	hrtimer_init(&fcg->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	fcg->timer.function = ftnl_fcg_fire;
}

void ftnl_fcg_stop(struct ftnl_fcg *fcg)
{
	hrtimer_cancel(&fcg->timer);
}

/**
 * ftnl_fcg_originate - start an FCG broadcast of @death from this node
 * @bcast: the broadcast state, the ring locked
 * @death: what to broadcast
 */
void ftnl_fcg_originate(struct ftnl_bcast *bcast,
			const struct ftnl_bcast_death *death)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	const struct ftnl_cluster *cluster = env->cluster;
	struct ftnl_fcg_bcast *b = ftnl_fcg_slot(&bcast->fcg);
	struct ftnl_gossip_out out;
	ktime_t now = ktime_get();

	if (!b) {
		ftnl_bcast_count(bcast, FTNL_A_STATS_TX_ERRORS);
		return;
	}
	ftnl_bcast_count(bcast, FTNL_A_STATS_BCAST_ORIGINATED);
	*b = (struct ftnl_fcg_bcast){
		.used = true,
		.epoch = now,
		.wire = {
			.algo = FTNL_GOSSIP_FCG,
			.f = bcast->fcg.f,
			.lat = FTNL_FCG_LAT,
			.origin_id = cluster->self_id,
			.origin_incarnation = env->incarnation,
			.seq = ++env->transport->bcast_seq,
			.origin_time_ns = ktime_get_real_ns(),
			.npos = cluster->node_count,
			.death = *death,
		},
	};
	ftnl_gossip_params_init(&b->par, FTNL_GOSSIP_FCG, cluster->node_count,
				env->self, FTNL_FCG_LAT, bcast->fcg.f);
	if (bcast->fcg.gossip_end)
		b->par.gossip_end = bcast->fcg.gossip_end;
	b->wire.gossip_end = b->par.gossip_end;
	ftnl_gossip_init(&b->node, &b->par, env->self, get_random_u64());
	ftnl_gossip_start(&b->node, &out);
	ftnl_fcg_act(bcast, b, &out, now);
	ftnl_fcg_arm(bcast);
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
 *
 * Return: 0, or -EINVAL if malformed or inconsistent (nothing changed).
 */
int ftnl_fcg_rx(struct ftnl_bcast *bcast, u32 from, const u8 *payload,
		u32 len)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	const struct ftnl_cluster *cluster = env->cluster;
	const struct ftnl_node *origin;
	struct ftnl_gossip_wire wire;
	struct ftnl_gossip_msg msg;
	struct ftnl_gossip_out out;
	struct ftnl_bcast_members members = ftnl_bcast_members(cluster);
	struct ftnl_fcg_bcast *b;
	ktime_t now = ktime_get();
	struct ftnl_bcast_msg id;
	bool fresh = false;

	if (ftnl_gossip_payload_decode(&wire, &msg, cluster->node_count,
				       &members, payload, len) ||
	    !ftnl_fcg_wire_ok(&wire))
		return -EINVAL;
	origin = ftnl_cluster_find(cluster, wire.origin_id);

	id = (struct ftnl_bcast_msg){
		.origin_id = wire.origin_id,
		.origin_incarnation = wire.origin_incarnation,
		.seq = wire.seq,
	};
	b = ftnl_fcg_find(&bcast->fcg, &wire);
	if (!b) {
		if (ftnl_bcast_seen(bcast, &id)) {
			ftnl_bcast_count(bcast, FTNL_A_STATS_BCAST_DUPLICATES);
			return 0;
		}
		b = ftnl_fcg_slot(&bcast->fcg);
		if (!b) {
			ftnl_bcast_count(bcast, FTNL_A_STATS_EVENTS_LOST);
			return 0;
		}
		*b = (struct ftnl_fcg_bcast){ .used = true, .wire = wire };
		ftnl_gossip_params_init(&b->par, FTNL_GOSSIP_FCG,
					cluster->node_count, origin - cluster->nodes,
					wire.lat, wire.f);
		b->par.gossip_end = wire.gossip_end;
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
	ftnl_fcg_arm(bcast);
	return 0;
}
