// SPDX-License-Identifier: GPL-2.0
/*
 * The observation ring in the kernel: the pure state machine of core.c
 * (Algorithm 1 and the node's membership state) driven by two soft
 * hrtimers and the receive path, under @lock:
 *
 *   HB-TIMEOUT   ftnl_ring_hb_fire()    task T1, every h
 *   SUSP-TIMEOUT ftnl_ring_susp_fire()  task T3 when due, set where the
 *                                        core asks (ftnl_ring_sync_timer())
 *   datagrams    ftnl_ring_rx()         T2, T4, leave, broadcasts (T5)
 *
 * Neither emission nor observation ever waits for a task to be scheduled.
 * The core's outputs come back through ftnl_ring_sink: datagrams go to the
 * transport, failures become events and broadcasts.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "ring.h"
#include "../bcast/bcast.h"
#include "../transport.h"

static u32 ftnl_ring_id(const struct ftnl_ring *ring, u32 pos)
{
	return ring->cluster->nodes[pos].id;
}

static u32 ftnl_ring_pos_of(const struct ftnl_ring *ring, u32 id)
{
	const struct ftnl_node *node = ftnl_cluster_find(ring->cluster, id);

	/* Callers pass ids their decoders checked against the table. */
	return node ? node - ring->cluster->nodes : ring->core.det.self;
}

static int ftnl_ring_tx_counter(u8 type)
{
	switch (type) {
	case FTNL_MSG_NEW_OBSERVER:
		return FTNL_A_STATS_NEW_OBSERVER_SENT;
	case FTNL_MSG_LEAVE:
		return FTNL_A_STATS_LEAVE_SENT;
	default:
		return FTNL_A_STATS_HB_SENT;
	}
}

/* The core's datagrams. */
static void ftnl_ring_sink_send(void *ctx, u32 pos, u8 type)
{
	struct ftnl_ring *ring = ctx;

	if (ftnl_dgram_send(ring, pos, type, NULL, 0))
		ftnl_ring_count(ring, FTNL_A_STATS_TX_ERRORS);
	else
		ftnl_ring_count(ring, ftnl_ring_tx_counter(type));
}

static void ftnl_ring_publish(struct ftnl_ring *ring, u32 pos)
{
	const struct ftnl_ring_peer *peer = &ring->core.peers[pos];
	struct ftnl_event_rec *rec;

	rec = ftnl_event_new(ring->cluster, peer->cause, ftnl_ring_id(ring, pos),
			     ftnl_ring_id(ring, peer->observer));
	if (!rec) {
		ftnl_ring_count(ring, FTNL_A_STATS_EVENTS_LOST);
		return;
	}
	rec->incarnation = peer->incarnation;
	ftnl_event_queue(ring->fn, rec);
}

/*
 * A failure entered D: publish it, and hand it to the broadcast layer
 * (task T3, line 24) when this node found it.
 */
static void ftnl_ring_sink_failed(void *ctx, u32 pos, bool originate)
{
	struct ftnl_ring *ring = ctx;

	ftnl_ring_publish(ring, pos);
	if (originate)
		ftnl_bcast_originate(ring, pos);
}

static void ftnl_ring_sink(struct ftnl_ring *ring, struct ftnl_ring_sink *out)
{
	*out = (struct ftnl_ring_sink){
		.send = ftnl_ring_sink_send,
		.failed = ftnl_ring_sink_failed,
		.ctx = ring,
	};
}

/* Start or move SUSP-TIMEOUT when the core asks; not from its callback. */
static void ftnl_ring_sync_timer(struct ftnl_ring *ring)
{
	u64 at;

	lockdep_assert_held(&ring->lock);
	if (ftnl_ring_core_take_timer(&ring->core, &at))
		hrtimer_start(&ring->susp_timer, ns_to_ktime(at),
			      HRTIMER_MODE_ABS_SOFT);
}

/**
 * ftnl_ring_failure_learned - this node learned that the node at @pos
 *	failed (or left)
 * @ring: the ring, locked
 * @pos: the failed node
 * @state: FTNL_NODE_STATE_DEAD or FTNL_NODE_STATE_LEFT
 * @cause: enum ftnl_event_cause
 * @observer_id: the node that detected it, in the node table
 * @now: current time
 *
 * See ftnl_ring_core_failure_learned(). Called by the broadcast layer
 * (task T5), which is how a broadcast can reveal that the emitter is dead
 * before its timeout.
 */
void ftnl_ring_failure_learned(struct ftnl_ring *ring, u32 pos, u8 state,
			       u8 cause, u32 observer_id, ktime_t now)
{
	struct ftnl_ring_sink out;

	lockdep_assert_held(&ring->lock);
	ftnl_ring_sink(ring, &out);
	ftnl_ring_core_failure_learned(&ring->core, pos, state, cause,
				       ftnl_ring_pos_of(ring, observer_id),
				       ktime_to_ns(now), &out);
	ftnl_ring_sync_timer(ring);
}

/**
 * ftnl_ring_death_heard - a broadcast says the node at @pos failed
 * @ring: the ring, locked
 * @pos: the failed node
 * @state: FTNL_NODE_STATE_DEAD or FTNL_NODE_STATE_LEFT
 * @incarnation: the incarnation that failed, 0 if unknown
 * @observer_id: the node that detected it, in the node table
 * @now: current time
 *
 * See ftnl_ring_core_death_heard() (task T5).
 */
void ftnl_ring_death_heard(struct ftnl_ring *ring, u32 pos, u8 state,
			   u64 incarnation, u32 observer_id, ktime_t now)
{
	struct ftnl_ring_sink out;

	lockdep_assert_held(&ring->lock);
	ftnl_ring_sink(ring, &out);
	ftnl_ring_core_death_heard(&ring->core, pos, state, incarnation,
				   ftnl_ring_pos_of(ring, observer_id),
				   ktime_to_ns(now), &out);
	ftnl_ring_sync_timer(ring);
}

static void ftnl_ring_record_lateness(struct ftnl_ring *ring, s64 late_ns)
{
	u64 late_us;
	int bucket;

	if (late_ns < 0)
		late_ns = 0;
	late_us = div_u64(late_ns, NSEC_PER_USEC);
	bucket = late_us ? min_t(int, fls64(late_us), FTNL_LATENESS_BUCKETS - 1) : 0;
	atomic64_inc(&ring->lateness[bucket]);
	if (late_ns > READ_ONCE(ring->lateness_max_ns))
		WRITE_ONCE(ring->lateness_max_ns, late_ns);
}

/* Task T1. */
static enum hrtimer_restart ftnl_ring_hb_fire(struct hrtimer *timer)
{
	struct ftnl_ring *ring = container_of(timer, struct ftnl_ring, hb_timer);
	ktime_t now = ktime_get();
	ktime_t late = ktime_sub(now, hrtimer_get_expires(timer));
	struct ftnl_ring_sink out;
	u64 periods;

	ftnl_ring_record_lateness(ring, ktime_to_ns(late));

	spin_lock(&ring->lock);
	if (!ring->core.running) {
		spin_unlock(&ring->lock);
		return HRTIMER_NORESTART;
	}
	ftnl_ring_sink(ring, &out);
	ftnl_ring_core_tick(&ring->core, &out);
	spin_unlock(&ring->lock);

	periods = hrtimer_forward(timer, now,
				  ns_to_ktime(ring->core.det.period_ns));
	/* More than one period passed: the heartbeats in between never left. */
	if (periods > 1)
		atomic64_add(periods - 1, &ring->counters[FTNL_A_STATS_HB_SKIPPED]);
	return HRTIMER_RESTART;
}

/* Task T3, the re-check of a deadline moved by T2, the stall guard. */
static enum hrtimer_restart ftnl_ring_susp_fire(struct hrtimer *timer)
{
	struct ftnl_ring *ring = container_of(timer, struct ftnl_ring, susp_timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	ktime_t now = ktime_get();
	struct ftnl_ring_sink out;
	u64 at;

	spin_lock(&ring->lock);
	/* Restarted under the lock while this callback waited for it. */
	if (hrtimer_is_queued(timer))
		goto out;
	ftnl_ring_sink(ring, &out);
	if (ftnl_ring_core_expire(&ring->core, ktime_to_ns(now), &out) ==
	    FTNL_RING_SUSPECT)
		ftnl_ring_count(ring, FTNL_A_STATS_SUSPICIONS);
	if (ftnl_ring_core_take_timer(&ring->core, &at)) {
		hrtimer_set_expires(timer, ns_to_ktime(at));
		ret = HRTIMER_RESTART;
	}
out:
	spin_unlock(&ring->lock);
	return ret;
}

/*
 * Incarnation (the core's) and replay (the window's) checks of a datagram
 * from the node at @pos whose header is authentic. Returns -1 to accept,
 * else the drop reason.
 */
static int ftnl_ring_admit(struct ftnl_ring *ring, u32 pos,
			   const struct ftnl_wire_hdr *hdr, ktime_t now,
			   const struct ftnl_ring_sink *out)
{
	switch (ftnl_ring_core_admit(&ring->core, pos, hdr->incarnation,
				     ktime_to_ns(now), out)) {
	case FTNL_RING_DEAD_SENDER:
		return FTNL_DROP_DEAD_SENDER;
	case FTNL_RING_STALE:
		return FTNL_DROP_STALE_INCARNATION;
	case FTNL_RING_ACCEPT_NEW:
		ring->replay[pos] = (struct ftnl_replay){};
		break;
	case FTNL_RING_ACCEPT:
		break;
	}
	if (!ftnl_replay_accept(&ring->replay[pos], hdr->seq))
		return FTNL_DROP_REPLAY;
	return -1;
}

/**
 * ftnl_ring_rx - act on an authenticated datagram
 * @ring: the ring
 * @pos: the sender's position
 * @hdr: the datagram's header (type already checked)
 * @payload: its payload, hdr->payload_len bytes
 *
 * Called in softirq by the receive path once size, magic, version, cluster,
 * sender, destination and MAC are checked.
 */
void ftnl_ring_rx(struct ftnl_ring *ring, u32 pos,
		  const struct ftnl_wire_hdr *hdr, const u8 *payload)
{
	ktime_t now = ktime_get();
	struct ftnl_ring_sink out;
	int drop;

	spin_lock(&ring->lock);
	if (!ring->core.running)
		goto out;
	ftnl_ring_sink(ring, &out);
	drop = ftnl_ring_admit(ring, pos, hdr, now, &out);
	if (drop >= 0) {
		ftnl_ring_drop(ring, drop);
		goto sync;
	}

	switch (hdr->type) {
	case FTNL_MSG_HEARTBEAT:
		ftnl_ring_count(ring, FTNL_A_STATS_HB_RECV);
		if (ftnl_ring_core_heartbeat(&ring->core, pos, ktime_to_ns(now)))
			ftnl_ring_count(ring, FTNL_A_STATS_HB_FROM_EMITTER);
		break;
	case FTNL_MSG_NEW_OBSERVER:
		ftnl_ring_count(ring, FTNL_A_STATS_NEW_OBSERVER_RECV);
		ftnl_ring_core_new_observer(&ring->core, pos, &out);
		break;
	case FTNL_MSG_LEAVE:
		ftnl_ring_count(ring, FTNL_A_STATS_LEAVE_RECV);
		ftnl_ring_core_leave_rx(&ring->core, pos, ktime_to_ns(now), &out);
		break;
	case FTNL_MSG_BCAST:
		if (ftnl_bcast_rx(ring, pos, payload, hdr->payload_len))
			ftnl_ring_drop(ring, FTNL_DROP_TYPE);
		break;
	case FTNL_MSG_GOSSIP:
		if (ftnl_fcg_rx(ring, pos, payload, hdr->payload_len))
			ftnl_ring_drop(ring, FTNL_DROP_TYPE);
		break;
	}
sync:
	ftnl_ring_sync_timer(ring);
out:
	spin_unlock(&ring->lock);
}

/**
 * ftnl_ring_create - prepare the ring of a new configuration
 * @fn: the netns state
 * @cluster: the finalized configuration; on success @cluster->ring is set
 * @prev: the running ring it replaces, or NULL
 *
 * Opens the UDP sockets the members' address families need on this node's
 * port, unless @prev has them on the same port: those are handed over by
 * ftnl_ring_start(), so that replacing a configuration never needs the port
 * free. Nothing runs yet. Process context, @fn->lock held.
 *
 * Return: 0, or a negative errno (with nothing left allocated).
 */
int ftnl_ring_create(struct ftnl_net *fn, struct ftnl_cluster *cluster,
		     const struct ftnl_ring *prev)
{
	u16 port = cluster->nodes[cluster->self_index].port;
	bool need4 = false, need6 = false;
	struct ftnl_ring_peer *peers;
	struct ftnl_ring *ring;
	u32 i, n = cluster->node_count;
	unsigned long *dead;
	int err;

	ring = kzalloc(sizeof(*ring), GFP_KERNEL_ACCOUNT);
	if (!ring)
		return -ENOMEM;
	dead = bitmap_zalloc(n, GFP_KERNEL_ACCOUNT);
	peers = kvcalloc(n, sizeof(*peers), GFP_KERNEL_ACCOUNT);
	ring->replay = kvcalloc(n, sizeof(*ring->replay), GFP_KERNEL_ACCOUNT);
	ftnl_ring_core_init(&ring->core, n, cluster->self_index,
			    (u64)cluster->hb_period_us * NSEC_PER_USEC,
			    (u64)cluster->timeout_us * NSEC_PER_USEC,
			    fn->incarnation, dead, peers);
	if (!dead || !peers || !ring->replay) {
		err = -ENOMEM;
		goto err_free;
	}
	err = ftnl_bcast_init(&ring->bcast, n, cluster->bcast_algo,
			      cluster->fcg_f, cluster->gossip_end_us);
	if (err)
		goto err_free;

	for (i = 0; i < n; i++) {
		if (cluster->nodes[i].family == AF_INET)
			need4 = true;
		else
			need6 = true;
	}
	if (prev && prev->cluster->nodes[prev->cluster->self_index].port == port) {
		ring->reuse4 = need4 && prev->sock4;
		ring->reuse6 = need6 && prev->sock6;
	}
	if (need4 && !ring->reuse4) {
		err = ftnl_sock_open(fn, AF_INET, port, &ring->sock4);
		if (err)
			goto err_free;
	}
	if (need6 && !ring->reuse6) {
		err = ftnl_sock_open(fn, AF_INET6, port, &ring->sock6);
		if (err)
			goto err_close;
	}

	ring->fn = fn;
	ring->cluster = cluster;
	spin_lock_init(&ring->lock);
	ring->incarnation = fn->incarnation;
	hrtimer_init(&ring->hb_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_SOFT);
	ring->hb_timer.function = ftnl_ring_hb_fire;
	hrtimer_init(&ring->susp_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	ring->susp_timer.function = ftnl_ring_susp_fire;
	cluster->ring = ring;
	return 0;

err_close:
	ftnl_sock_close(ring->sock4);
err_free:
	ftnl_bcast_free(&ring->bcast);
	kvfree(ring->replay);
	kvfree(ring->core.peers);
	bitmap_free(ring->core.dead);
	kfree(ring);
	return err;
}

/**
 * ftnl_ring_start - start heartbeating and observing
 * @ring: a ring from ftnl_ring_create()
 * @prev: the ring it replaces, already stopped, or NULL; sockets marked
 *	for reuse move from it to @ring
 *
 * The node first tells its emitter that it observes it (NEW_OBSERVER), so
 * that a node joining or coming back is heartbeaten at once, and sends its
 * first heartbeat immediately. Process context.
 */
void ftnl_ring_start(struct ftnl_ring *ring, struct ftnl_ring *prev)
{
	ktime_t now = ktime_get();
	struct ftnl_ring_sink out;

	/*
	 * Same node, same incarnation: its sequence numbers go on, or the
	 * others' replay windows would drop the new ring's datagrams.
	 */
	if (prev) {
		atomic64_set(&ring->tx_seq, atomic64_read(&prev->tx_seq));
		/* Likewise its broadcasts: receivers remember their numbers. */
		ring->bcast.seq = prev->bcast.seq;
	}
	if (ring->reuse4) {
		ring->sock4 = prev->sock4;
		prev->sock4 = NULL;
	}
	if (ring->reuse6) {
		ring->sock6 = prev->sock6;
		prev->sock6 = NULL;
	}

	spin_lock_bh(&ring->lock);
	ftnl_ring_sink(ring, &out);
	ftnl_ring_core_start(&ring->core, ktime_to_ns(now), &out);
	ftnl_ring_sync_timer(ring);
	hrtimer_start(&ring->hb_timer, 0, HRTIMER_MODE_REL_SOFT);
	spin_unlock_bh(&ring->lock);
}

/**
 * ftnl_ring_stop - stop timers and datagram handling, close own sockets
 * @ring: the ring
 *
 * After this returns no timer of @ring runs and no datagram changes it;
 * receive paths still inside it under RCU only see it stopped. Sockets
 * promised to a successor are left open for ftnl_ring_start(). Process
 * context.
 */
void ftnl_ring_stop(struct ftnl_ring *ring)
{
	spin_lock_bh(&ring->lock);
	ftnl_ring_core_stop(&ring->core);
	spin_unlock_bh(&ring->lock);
	hrtimer_cancel(&ring->hb_timer);
	hrtimer_cancel(&ring->susp_timer);
	ftnl_bcast_stop(&ring->bcast);
}

/**
 * ftnl_ring_close_sockets - close the sockets a stopped ring still owns
 * @ring: the ring
 *
 * Sockets handed over to a successor by ftnl_ring_start() are not its own
 * any more. Process context: closing waits for receive paths in flight.
 */
void ftnl_ring_close_sockets(struct ftnl_ring *ring)
{
	ftnl_sock_close(ring->sock4);
	ring->sock4 = NULL;
	ftnl_sock_close(ring->sock6);
	ring->sock6 = NULL;
}

/**
 * ftnl_ring_destroy - free a stopped ring without sockets
 * @ring: the ring, or NULL
 *
 * Called after an RCU grace period, once no receive path can see it; may
 * run in softirq (an RCU callback).
 */
void ftnl_ring_destroy(struct ftnl_ring *ring)
{
	if (!ring)
		return;
	WARN_ON_ONCE(ring->sock4 || ring->sock6);
	ftnl_bcast_free(&ring->bcast);
	kvfree(ring->replay);
	kvfree(ring->core.peers);
	bitmap_free(ring->core.dead);
	kfree(ring);
}

/**
 * ftnl_ring_leave - tell the observer and the emitter that this node leaves
 * @ring: the running ring
 *
 * They announce the leave (cause FTNL_CAUSE_LEAVE) and close the ring
 * around this node. Process context.
 */
void ftnl_ring_leave(struct ftnl_ring *ring)
{
	struct ftnl_ring_sink out;

	spin_lock_bh(&ring->lock);
	ftnl_ring_sink(ring, &out);
	ftnl_ring_core_leave(&ring->core, &out);
	spin_unlock_bh(&ring->lock);
}

/**
 * ftnl_ring_readmit - take a dead or departed node back
 * @ring: the running ring
 * @pos: its position
 * @why: set to a message for the user on failure
 *
 * The node's next incarnation (larger than the one it died with) is
 * accepted. If the node now sits between this node and its emitter, it
 * becomes the emitter (NEW_OBSERVER, 2d). This node's observer does not
 * change here: as in the paper, only a NEW_OBSERVER moves it, and the
 * readmitted node sends one when it comes back (switching early would leave
 * the old observer without heartbeats while the node is still away).
 * Process context.
 *
 * Return: 0, or -EINVAL with @why set.
 */
int ftnl_ring_readmit(struct ftnl_ring *ring, u32 pos, const char **why)
{
	ktime_t now = ktime_get();
	struct ftnl_ring_sink out;
	int err;

	spin_lock_bh(&ring->lock);
	ftnl_ring_sink(ring, &out);
	err = ftnl_ring_core_readmit(&ring->core, pos, ktime_to_ns(now), &out,
				     why);
	ftnl_ring_sync_timer(ring);
	spin_unlock_bh(&ring->lock);
	return err;
}

/**
 * ftnl_ring_view - what the node dump shows of the node at @pos
 * @ring: the ring
 * @pos: the node
 * @view: filled in
 */
void ftnl_ring_view(struct ftnl_ring *ring, u32 pos, struct ftnl_node_view *view)
{
	spin_lock_bh(&ring->lock);
	ftnl_ring_core_view(&ring->core, pos, ktime_get_ns(), view);
	spin_unlock_bh(&ring->lock);
}

/**
 * ftnl_ring_proc_exited - a process registered on this node died
 * @ring: the ring
 * @job: its job
 * @rank: its rank
 * @event_lost: its local event could not be queued
 *
 * Broadcast like a node death, so that every node publishes it.
 */
void ftnl_ring_proc_exited(struct ftnl_ring *ring, u64 job, u32 rank,
			   bool event_lost)
{
	spin_lock_bh(&ring->lock);
	if (event_lost)
		ftnl_ring_count(ring, FTNL_A_STATS_EVENTS_LOST);
	if (ring->core.running)
		ftnl_bcast_originate_proc(ring, job, rank);
	spin_unlock_bh(&ring->lock);
}
