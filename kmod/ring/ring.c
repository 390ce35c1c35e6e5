// SPDX-License-Identifier: GPL-2.0
/*
 * The observation ring of "A failure detector for HPC platforms"
 * (Bosilca et al.), Algorithm 1, in the kernel:
 *
 *   T1  HB-TIMEOUT expires: heartbeat to the observer     ftnl_ring_hb_fire()
 *   T2  heartbeat from the emitter: SUSP-TIMEOUT <- d     ftnl_ring_rx_heartbeat()
 *   T3  SUSP-TIMEOUT expires: D += emitter, FindEmitter,  ftnl_ring_susp_fire()
 *       NEW_OBSERVER to it, SUSP-TIMEOUT <- 2d            ftnl_ring_reconnect()
 *   T4  NEW_OBSERVER(j): observer <- j, heartbeat now     ftnl_ring_rx()
 *
 * Both timers are soft hrtimers and datagrams arrive in softirq, so neither
 * emission nor observation ever waits for a task to be scheduled.
 *
 * SUSP-TIMEOUT is kept as a deadline: a heartbeat only moves the deadline,
 * and the timer, when it fires early, re-arms itself for the deadline. The
 * timer is (re)started only under @lock, which is also what the callback
 * holds, so it can tell a concurrent restart from its own expiry.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "ring.h"
#include "topology.h"
#include "../bcast/bcast.h"
#include "../transport.h"

/*
 * Before the first heartbeat of its first emitter, a node waits this long
 * on top of d: cluster members are configured one after another, seconds
 * apart (tens of seconds for a large emulated cluster), and a node that is
 * not up yet has not failed. Once the cluster is up, Algorithm 1's
 * timeouts apply unchanged.
 */
#define FTNL_BOOT_GRACE_NS	(30 * NSEC_PER_SEC)

static u32 ftnl_ring_size(const struct ftnl_ring *ring)
{
	return ring->cluster->node_count;
}

static u32 ftnl_ring_id(const struct ftnl_ring *ring, u32 pos)
{
	return ring->cluster->nodes[pos].id;
}

static void ftnl_ring_send(struct ftnl_ring *ring, u32 pos, u8 type, int counter)
{
	if (pos == ring->self)
		return;
	if (ftnl_dgram_send(ring, pos, type, NULL, 0))
		ftnl_ring_count(ring, FTNL_A_STATS_TX_ERRORS);
	else
		ftnl_ring_count(ring, counter);
}

/* SUSP-TIMEOUT for a new emitter: 2d (line 19). */
static ktime_t ftnl_ring_first_deadline(const struct ftnl_ring *ring,
					ktime_t now)
{
	return ktime_add(now, ktime_add(ring->timeout, ring->timeout));
}

/* Start or move SUSP-TIMEOUT; outside the timer's own callback only. */
static void ftnl_ring_arm_susp(struct ftnl_ring *ring)
{
	lockdep_assert_held(&ring->lock);
	hrtimer_start(&ring->susp_timer, ring->susp_deadline,
		      HRTIMER_MODE_ABS_SOFT);
}

/*
 * Lines 20-23 of Algorithm 1 once the emitter is in D: FindEmitter from the
 * old emitter, tell the new one it is observed, give it 2d.
 */
static void ftnl_ring_reconnect(struct ftnl_ring *ring, u32 from, ktime_t now)
{
	u32 n = ftnl_ring_size(ring);

	ring->emitter = ftnl_ring_find_emitter(ring->dead, n, ring->self, from);
	ring->heard_emitter = false;
	ring->stall_grace = false;
	ring->observing = ring->emitter != ring->self;
	if (!ring->observing)
		return;
	ring->susp_deadline = ftnl_ring_first_deadline(ring, now);
	ftnl_ring_send(ring, ring->emitter, FTNL_MSG_NEW_OBSERVER,
		       FTNL_A_STATS_NEW_OBSERVER_SENT);
}

static void ftnl_ring_publish(struct ftnl_ring *ring, u32 pos, u8 cause,
			      u32 observer_id)
{
	struct ftnl_event_rec *rec;

	rec = ftnl_event_new(ring->cluster, cause, ftnl_ring_id(ring, pos),
			     observer_id);
	if (!rec) {
		ftnl_ring_count(ring, FTNL_A_STATS_EVENTS_LOST);
		return;
	}
	rec->incarnation = ring->peers[pos].incarnation;
	ftnl_event_queue(ring->fn, rec);
}

/**
 * ftnl_ring_failure_learned - this node learned that the node at @pos
 *	failed (or left)
 * @ring: the ring, locked
 * @pos: the failed node
 * @state: FTNL_NODE_STATE_DEAD or FTNL_NODE_STATE_LEFT
 * @cause: enum ftnl_event_cause
 * @observer_id: the node that detected it
 * @now: current time
 *
 * The one place where a failure enters D: the event is published (once per
 * failure and incarnation, as D never loses a member but by readmission),
 * the broadcast layer is handed the failure, and the ring is repaired when
 * the failed node was this node's emitter or, for a leave, its observer.
 * Also called by the broadcast layer (task T5), which is how a broadcast
 * can reveal that the emitter is dead before its timeout.
 */
void ftnl_ring_failure_learned(struct ftnl_ring *ring, u32 pos, u8 state,
			       u8 cause, u32 observer_id, ktime_t now)
{
	struct ftnl_peer *peer = &ring->peers[pos];
	bool was_emitter = ring->observing && pos == ring->emitter;

	lockdep_assert_held(&ring->lock);
	if (peer->state != FTNL_NODE_STATE_ALIVE || pos == ring->self)
		return;
	peer->state = state;
	peer->cause = cause;
	peer->observer_id = observer_id;
	peer->dead_incarnation = peer->incarnation;
	ftnl_bit_set(ring->dead, pos);
	ftnl_ring_publish(ring, pos, cause, observer_id);

	/*
	 * Hand the failure to the broadcast layer (task T3, line 24) when this
	 * node found it: it observed it, heard a new incarnation, or was told
	 * by its emitter that it leaves. Failures learned by broadcast are
	 * forwarded by the broadcast itself.
	 */
	if (cause == FTNL_CAUSE_OBSERVED || cause == FTNL_CAUSE_RESTARTED ||
	    (cause == FTNL_CAUSE_LEAVE && was_emitter))
		ftnl_bcast_originate(ring, pos);

	if (was_emitter)
		ftnl_ring_reconnect(ring, pos, now);
	if (pos == ring->observer && state == FTNL_NODE_STATE_LEFT) {
		/* It said goodbye: no NEW_OBSERVER will come from it. */
		ring->observer = ftnl_ring_find_observer(ring->dead,
							 ftnl_ring_size(ring),
							 ring->self);
		ftnl_ring_send(ring, ring->observer, FTNL_MSG_HEARTBEAT,
			       FTNL_A_STATS_HB_SENT);
	}
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
	u64 periods;

	ftnl_ring_record_lateness(ring, ktime_to_ns(late));

	spin_lock(&ring->lock);
	if (!ring->running) {
		spin_unlock(&ring->lock);
		return HRTIMER_NORESTART;
	}
	ftnl_ring_send(ring, ring->observer, FTNL_MSG_HEARTBEAT,
		       FTNL_A_STATS_HB_SENT);
	/*
	 * Until the emitter's first heartbeat, repeat NEW_OBSERVER every h: a
	 * single one can wait a second behind ARP, or be lost, and the new
	 * emitter would then be suspected after 2d for nothing.
	 */
	if (ring->observing && !ring->heard_emitter)
		ftnl_ring_send(ring, ring->emitter, FTNL_MSG_NEW_OBSERVER,
			       FTNL_A_STATS_NEW_OBSERVER_SENT);
	spin_unlock(&ring->lock);

	periods = hrtimer_forward(timer, now, ring->period);
	/* More than one period passed: the heartbeats in between never left. */
	if (periods > 1)
		atomic64_add(periods - 1, &ring->counters[FTNL_A_STATS_HB_SKIPPED]);
	return HRTIMER_RESTART;
}

/* Task T3, and the re-check of a deadline moved by T2. */
static enum hrtimer_restart ftnl_ring_susp_fire(struct hrtimer *timer)
{
	struct ftnl_ring *ring = container_of(timer, struct ftnl_ring, susp_timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	ktime_t now = ktime_get();

	spin_lock(&ring->lock);
	/* Restarted under the lock while this callback waited for it. */
	if (hrtimer_is_queued(timer) || !ring->running || !ring->observing)
		goto out;

	if (ktime_before(now, ring->susp_deadline)) {
		hrtimer_set_expires(timer, ring->susp_deadline);
		ret = HRTIMER_RESTART;
		goto out;
	}
	/*
	 * Running more than h past the deadline means this CPU was stalled:
	 * heartbeats that arrived meanwhile may still wait in the receive
	 * softirq. Judge once they had a chance to be read.
	 */
	if (!ring->stall_grace &&
	    ktime_after(now, ktime_add(ring->susp_deadline, ring->period))) {
		ring->stall_grace = true;
		hrtimer_set_expires(timer, ktime_add(now, ring->period));
		ret = HRTIMER_RESTART;
		goto out;
	}

	ftnl_ring_count(ring, FTNL_A_STATS_SUSPICIONS);
	ftnl_ring_failure_learned(ring, ring->emitter, FTNL_NODE_STATE_DEAD,
				  FTNL_CAUSE_OBSERVED,
				  ftnl_ring_id(ring, ring->self), now);
	if (ring->observing) {
		hrtimer_set_expires(timer, ring->susp_deadline);
		ret = HRTIMER_RESTART;
	}
out:
	spin_unlock(&ring->lock);
	return ret;
}

/* Task T2. */
static void ftnl_ring_rx_heartbeat(struct ftnl_ring *ring, u32 pos, ktime_t now)
{
	ftnl_ring_count(ring, FTNL_A_STATS_HB_RECV);
	if (!ring->observing || pos != ring->emitter)
		return;
	ftnl_ring_count(ring, FTNL_A_STATS_HB_FROM_EMITTER);
	ring->heard_emitter = true;
	ring->last_hb = now;
	ring->susp_deadline = ktime_add(now, ring->timeout);
	ring->stall_grace = false;
	/* Only when the deadline moves earlier (2d or boot grace -> d). */
	if (ktime_before(ring->susp_deadline,
			 hrtimer_get_expires(&ring->susp_timer)) ||
	    !hrtimer_is_queued(&ring->susp_timer))
		ftnl_ring_arm_susp(ring);
}

/*
 * Incarnation and replay checks of a datagram from the node at @pos whose
 * header is authentic. Returns -1 to accept, else the drop reason.
 */
static int ftnl_ring_admit(struct ftnl_ring *ring, u32 pos,
			   const struct ftnl_wire_hdr *hdr, ktime_t now)
{
	struct ftnl_peer *peer = &ring->peers[pos];

	if (peer->state != FTNL_NODE_STATE_ALIVE)
		return FTNL_DROP_DEAD_SENDER;
	if (hdr->incarnation <= peer->dead_incarnation)
		return FTNL_DROP_STALE_INCARNATION;
	if (!peer->incarnation) {
		peer->incarnation = hdr->incarnation;
		peer->replay = (struct ftnl_replay){};
	} else if (hdr->incarnation < peer->incarnation) {
		return FTNL_DROP_STALE_INCARNATION;
	} else if (hdr->incarnation > peer->incarnation) {
		/*
		 * It restarted before anyone noticed: the incarnation this
		 * node knew is dead, and the new one waits for readmission.
		 */
		ftnl_ring_failure_learned(ring, pos, FTNL_NODE_STATE_DEAD,
					  FTNL_CAUSE_RESTARTED,
					  ftnl_ring_id(ring, ring->self), now);
		if (pos == ring->emitter || ring->observing)
			ftnl_ring_arm_susp(ring);
		return FTNL_DROP_DEAD_SENDER;
	}
	if (!ftnl_replay_accept(&peer->replay, hdr->seq))
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
	u32 old_emitter;
	ktime_t now = ktime_get();
	int drop;

	spin_lock(&ring->lock);
	if (!ring->running)
		goto out;
	drop = ftnl_ring_admit(ring, pos, hdr, now);
	if (drop >= 0) {
		ftnl_ring_drop(ring, drop);
		goto out;
	}
	old_emitter = ring->emitter;

	switch (hdr->type) {
	case FTNL_MSG_HEARTBEAT:
		ftnl_ring_rx_heartbeat(ring, pos, now);
		break;
	case FTNL_MSG_NEW_OBSERVER:
		/* Task T4: observer <- j, HB-TIMEOUT <- 0. */
		ftnl_ring_count(ring, FTNL_A_STATS_NEW_OBSERVER_RECV);
		ring->observer = pos;
		ftnl_ring_send(ring, pos, FTNL_MSG_HEARTBEAT,
			       FTNL_A_STATS_HB_SENT);
		break;
	case FTNL_MSG_LEAVE:
		ftnl_ring_count(ring, FTNL_A_STATS_LEAVE_RECV);
		ftnl_ring_failure_learned(ring, pos, FTNL_NODE_STATE_LEFT,
					  FTNL_CAUSE_LEAVE,
					  ftnl_ring_id(ring, pos), now);
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
	/* The emitter changed (ring repaired): SUSP-TIMEOUT is now 2d. */
	if (ring->emitter != old_emitter && ring->observing)
		ftnl_ring_arm_susp(ring);
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
	struct ftnl_ring *ring;
	u32 i, n = cluster->node_count;
	int err;

	ring = kzalloc(sizeof(*ring), GFP_KERNEL_ACCOUNT);
	if (!ring)
		return -ENOMEM;
	ring->dead = bitmap_zalloc(n, GFP_KERNEL_ACCOUNT);
	ring->peers = kvcalloc(n, sizeof(*ring->peers), GFP_KERNEL_ACCOUNT);
	if (!ring->dead || !ring->peers) {
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
	if (prev && prev->cluster->nodes[prev->self].port == port) {
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
	ring->self = cluster->self_index;
	ring->emitter = ftnl_ring_pred(ring->self, n);
	ring->observer = ftnl_ring_succ(ring->self, n);
	ring->observing = ring->emitter != ring->self;
	ring->period = ns_to_ktime((u64)cluster->hb_period_us * NSEC_PER_USEC);
	ring->timeout = ns_to_ktime((u64)cluster->timeout_us * NSEC_PER_USEC);
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
	kvfree(ring->peers);
	bitmap_free(ring->dead);
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
	ring->running = true;
	if (ring->observing) {
		ring->susp_deadline = ktime_add_ns(ktime_add(now, ring->timeout),
						   FTNL_BOOT_GRACE_NS);
		ftnl_ring_arm_susp(ring);
		ftnl_ring_send(ring, ring->emitter, FTNL_MSG_NEW_OBSERVER,
			       FTNL_A_STATS_NEW_OBSERVER_SENT);
	}
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
	ring->running = false;
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
	kvfree(ring->peers);
	bitmap_free(ring->dead);
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
	spin_lock_bh(&ring->lock);
	if (ring->running) {
		ftnl_ring_send(ring, ring->observer, FTNL_MSG_LEAVE,
			       FTNL_A_STATS_LEAVE_SENT);
		if (ring->emitter != ring->observer)
			ftnl_ring_send(ring, ring->emitter, FTNL_MSG_LEAVE,
				       FTNL_A_STATS_LEAVE_SENT);
	}
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
	u32 n = ftnl_ring_size(ring), emitter;
	struct ftnl_peer *peer = &ring->peers[pos];
	ktime_t now = ktime_get();
	int err = 0;

	spin_lock_bh(&ring->lock);
	if (pos == ring->self) {
		*why = "a node cannot readmit itself";
		err = -EINVAL;
		goto out;
	}
	if (peer->state == FTNL_NODE_STATE_ALIVE) {
		*why = "the node is alive: only a dead or departed node can be readmitted";
		err = -EINVAL;
		goto out;
	}
	peer->state = FTNL_NODE_STATE_ALIVE;
	peer->incarnation = 0;
	peer->replay = (struct ftnl_replay){};
	ftnl_bit_clear(ring->dead, pos);
	if (!ring->running)
		goto out;

	emitter = ftnl_ring_find_emitter(ring->dead, n, ring->self,
					 ftnl_ring_pred(ring->self, n));
	if (emitter != ring->emitter) {
		ring->emitter = emitter;
		ring->heard_emitter = false;
		ring->observing = true;
		ring->susp_deadline = ftnl_ring_first_deadline(ring, now);
		ftnl_ring_arm_susp(ring);
		ftnl_ring_send(ring, emitter, FTNL_MSG_NEW_OBSERVER,
			       FTNL_A_STATS_NEW_OBSERVER_SENT);
	}
out:
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
	view->state = pos == ring->self ? FTNL_NODE_STATE_ALIVE :
					  ring->peers[pos].state;
	view->incarnation = pos == ring->self ? ring->incarnation :
						ring->peers[pos].incarnation;
	view->emitter = ring->observing && pos == ring->emitter;
	view->observer = pos == ring->observer && pos != ring->self;
	view->has_hb_age = view->emitter && ring->heard_emitter;
	view->hb_age_ns = view->has_hb_age ?
			  ktime_to_ns(ktime_sub(ktime_get(), ring->last_hb)) : 0;
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
	if (ring->running)
		ftnl_bcast_originate_proc(ring, job, rank);
	spin_unlock_bh(&ring->lock);
}
