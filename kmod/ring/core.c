// SPDX-License-Identifier: GPL-2.0
/*
 * Algorithm 1 of "A failure detector for HPC platforms" (Bosilca et al.)
 * and the node's membership state, pure (see core.h):
 *
 *   T1  HB-TIMEOUT expires: heartbeat to the observer   ftnl_ring_det_tick()
 *   T2  heartbeat from the emitter: SUSP-TIMEOUT <- d   ftnl_ring_det_heartbeat()
 *   T3  SUSP-TIMEOUT expires: D += emitter,             ftnl_ring_det_expire(),
 *       FindEmitter, NEW_OBSERVER, SUSP-TIMEOUT <- 2d   ftnl_ring_core_failure_learned(),
 *       BCASTMSG (the broadcast layer, through ->failed) ftnl_ring_det_lost()
 *   T4  NEW_OBSERVER(j): observer <- j, heartbeat now   ftnl_ring_det_new_observer()
 *   T5  BCASTMSG(dead, s, D): D += dead                 ftnl_ring_core_death_heard()
 *   FindEmitter (lines 37-42)                           ftnl_ring_find_emitter()
 *
 * ftnl's additions, each a rule of this file only: the boot grace before a
 * first emitter's first heartbeat; NEW_OBSERVER repeated every h until the
 * new emitter is heard; the stall guard (a timer that runs more than h
 * late waits h once more, for the datagrams a stalled CPU has not read
 * yet); a failure learned by broadcast repairs the ring at once when it
 * was the emitter; graceful leave; incarnations (a node heard with a newer
 * one restarted: its old incarnation is dead) and readmission.
 */

#include "core.h"

/**
 * ftnl_ring_find_emitter - FindEmitter: closest predecessor not in D
 * @dead: the dead set D, a bitmap over ring positions
 * @n: number of positions
 * @self: this node's position, never in @dead
 * @from: where the backward walk starts (the old emitter in task T3; the
 *	position before @self to re-evaluate from scratch)
 *
 * Walks back from @from while the position is in D (line 39: "while k in
 * D_i do k <- (k - 1) mod N").
 *
 * Return: the new emitter, or @self when every other node is in D.
 */
u32 ftnl_ring_find_emitter(const unsigned long *dead, u32 n, u32 self,
			   u32 from)
{
	u32 pos = from, steps;

	for (steps = 0; steps < n; steps++) {
		if (pos == self || !ftnl_bit_test(dead, pos))
			return pos;
		pos = ftnl_ring_pred(pos, n);
	}
	return self;
}

/**
 * ftnl_ring_find_observer - closest successor of @self not in D
 * @dead: the dead set D
 * @n: number of positions
 * @self: this node's position
 *
 * Used when this node learns for sure that its observer is gone (it left
 * gracefully), instead of waiting for the NEW_OBSERVER of task T4.
 *
 * Return: the observer, or @self when every other node is in D.
 */
u32 ftnl_ring_find_observer(const unsigned long *dead, u32 n, u32 self)
{
	u32 pos = ftnl_ring_succ(self, n), steps;

	for (steps = 0; steps < n; steps++) {
		if (pos == self || !ftnl_bit_test(dead, pos))
			return pos;
		pos = ftnl_ring_succ(pos, n);
	}
	return self;
}

/* ---- Algorithm 1 ------------------------------------------------------ */

static void ftnl_ring_send(const struct ftnl_ring_detector *det,
			   const struct ftnl_ring_sink *out, u32 to, u8 type)
{
	if (to != det->self)
		out->send(out->ctx, to, type);
}

/* The deadline moved: the caller's timer must not fire after it. */
static void ftnl_ring_det_arm(struct ftnl_ring_detector *det)
{
	if (!det->timer_at || det->susp_deadline < det->timer_at) {
		det->timer_at = det->susp_deadline;
		det->timer_moved = true;
	}
}

/* The timer fires again at @at (from within its expiry). */
static void ftnl_ring_det_rearm(struct ftnl_ring_detector *det, u64 at)
{
	det->timer_at = at;
	det->timer_moved = true;
}

/**
 * ftnl_ring_det_init - Algorithm 1's initialization task
 * @det: the state
 * @n: ring positions
 * @self: this node's position
 * @period_ns: h
 * @timeout_ns: d
 *
 * emitter <- pred(self), observer <- succ(self). Nothing is armed until
 * ftnl_ring_det_start().
 */
void ftnl_ring_det_init(struct ftnl_ring_detector *det, u32 n, u32 self,
			u64 period_ns, u64 timeout_ns)
{
	*det = (struct ftnl_ring_detector){
		.n = n,
		.self = self,
		.emitter = ftnl_ring_pred(self, n),
		.observer = ftnl_ring_succ(self, n),
		.period_ns = period_ns,
		.timeout_ns = timeout_ns,
		.boot_grace_ns = FTNL_RING_BOOT_GRACE_NS,
	};
	det->observing = det->emitter != self;
}

/**
 * ftnl_ring_det_start - start observing
 * @det: the state
 * @now: current time
 * @out: the sink
 *
 * The node first tells its emitter that it observes it (NEW_OBSERVER), so
 * that a node joining or coming back is heartbeaten at once, and gives it
 * d plus the boot grace. The caller then runs task T1 at once and every h.
 */
void ftnl_ring_det_start(struct ftnl_ring_detector *det, u64 now,
			 const struct ftnl_ring_sink *out)
{
	if (!det->observing)
		return;
	det->susp_deadline = now + det->timeout_ns + det->boot_grace_ns;
	ftnl_ring_det_arm(det);
	ftnl_ring_send(det, out, det->emitter, FTNL_MSG_NEW_OBSERVER);
}

/**
 * ftnl_ring_det_tick - task T1: HB-TIMEOUT expired
 * @det: the state
 * @out: the sink
 *
 * Heartbeat to the observer. Until the emitter's first heartbeat,
 * NEW_OBSERVER is repeated every h too: a single one can wait a second
 * behind ARP, or be lost, and the new emitter would then be suspected
 * after 2d for nothing.
 */
void ftnl_ring_det_tick(struct ftnl_ring_detector *det,
			const struct ftnl_ring_sink *out)
{
	ftnl_ring_send(det, out, det->observer, FTNL_MSG_HEARTBEAT);
	if (det->observing && !det->heard_emitter)
		ftnl_ring_send(det, out, det->emitter, FTNL_MSG_NEW_OBSERVER);
}

/**
 * ftnl_ring_det_heartbeat - task T2: a heartbeat arrived
 * @det: the state
 * @from: its sender
 * @now: its arrival
 *
 * Return: it came from the emitter (and moved SUSP-TIMEOUT to now + d).
 */
bool ftnl_ring_det_heartbeat(struct ftnl_ring_detector *det, u32 from,
			     u64 now)
{
	if (!det->observing || from != det->emitter)
		return false;
	det->heard_emitter = true;
	det->last_hb = now;
	det->susp_deadline = now + det->timeout_ns;
	det->stall_grace = false;
	/* The timer moves only when the deadline moves earlier (2d or boot
	 * grace -> d); otherwise it fires early and is set again.
	 */
	ftnl_ring_det_arm(det);
	return true;
}

/**
 * ftnl_ring_det_new_observer - task T4: NEW_OBSERVER(@from) arrived
 * @det: the state
 * @from: the new observer
 * @out: the sink
 *
 * observer <- j, HB-TIMEOUT <- 0: the heartbeat leaves at once.
 */
void ftnl_ring_det_new_observer(struct ftnl_ring_detector *det, u32 from,
				const struct ftnl_ring_sink *out)
{
	det->observer = from;
	ftnl_ring_send(det, out, from, FTNL_MSG_HEARTBEAT);
}

/**
 * ftnl_ring_det_expire - the suspicion timer fired
 * @det: the state
 * @now: current time
 *
 * Before the deadline (a heartbeat moved it), the timer is set for the
 * deadline. More than h past it means this CPU was stalled: heartbeats
 * that arrived meanwhile may still wait to be read, so the emitter is
 * judged h later, once per deadline. Otherwise task T3 is due: the caller
 * adds the emitter to D (ftnl_ring_core_failure_learned() or its own D,
 * then ftnl_ring_det_lost()) and sets the timer again if still observing.
 *
 * Return: enum ftnl_ring_expiry.
 */
enum ftnl_ring_expiry ftnl_ring_det_expire(struct ftnl_ring_detector *det,
					   u64 now)
{
	det->timer_at = 0;
	if (!det->observing)
		return FTNL_RING_IDLE;
	if (now < det->susp_deadline) {
		ftnl_ring_det_rearm(det, det->susp_deadline);
		return FTNL_RING_WAIT;
	}
	if (!det->stall_grace && now > det->susp_deadline + det->period_ns) {
		det->stall_grace = true;
		ftnl_ring_det_rearm(det, now + det->period_ns);
		return FTNL_RING_WAIT;
	}
	return FTNL_RING_SUSPECT;
}

/*
 * Lines 20-23 of Algorithm 1 once the emitter is in D: FindEmitter from the
 * old emitter, tell the new one it is observed, give it 2d (line 19).
 */
static void ftnl_ring_det_reconnect(struct ftnl_ring_detector *det,
				    const unsigned long *dead, u32 from,
				    u64 now, const struct ftnl_ring_sink *out)
{
	det->emitter = ftnl_ring_find_emitter(dead, det->n, det->self, from);
	det->heard_emitter = false;
	det->stall_grace = false;
	det->observing = det->emitter != det->self;
	if (!det->observing)
		return;
	det->susp_deadline = now + 2 * det->timeout_ns;
	ftnl_ring_det_arm(det);
	ftnl_ring_send(det, out, det->emitter, FTNL_MSG_NEW_OBSERVER);
}

/**
 * ftnl_ring_det_lost - the node at @pos has just entered D
 * @det: the state
 * @dead: D, @pos in it
 * @pos: the node
 * @left: it left gracefully (it told this node so)
 * @now: current time
 * @out: the sink
 *
 * The ring is repaired when it was the emitter (task T3, lines 20-23; or a
 * broadcast revealed it before the timeout) or, for a leave, the observer:
 * no NEW_OBSERVER will come from a node that said goodbye.
 */
void ftnl_ring_det_lost(struct ftnl_ring_detector *det,
			const unsigned long *dead, u32 pos, bool left, u64 now,
			const struct ftnl_ring_sink *out)
{
	if (det->observing && pos == det->emitter)
		ftnl_ring_det_reconnect(det, dead, pos, now, out);
	if (pos == det->observer && left) {
		det->observer = ftnl_ring_find_observer(dead, det->n, det->self);
		ftnl_ring_send(det, out, det->observer, FTNL_MSG_HEARTBEAT);
	}
}

/**
 * ftnl_ring_det_readmitted - a node left D: re-evaluate the emitter
 * @det: the state
 * @dead: D
 * @now: current time
 * @out: the sink
 *
 * If the readmitted node now sits between this node and its emitter, it
 * becomes the emitter (NEW_OBSERVER, 2d). The observer does not change
 * here: as in the paper, only a NEW_OBSERVER moves it, and the readmitted
 * node sends one when it comes back (switching early would leave the old
 * observer without heartbeats while the node is still away).
 */
void ftnl_ring_det_readmitted(struct ftnl_ring_detector *det,
			      const unsigned long *dead, u64 now,
			      const struct ftnl_ring_sink *out)
{
	u32 emitter = ftnl_ring_find_emitter(dead, det->n, det->self,
					     ftnl_ring_pred(det->self, det->n));

	if (emitter == det->emitter)
		return;
	det->emitter = emitter;
	det->heard_emitter = false;
	det->observing = true;
	det->susp_deadline = now + 2 * det->timeout_ns;
	ftnl_ring_det_arm(det);
	ftnl_ring_send(det, out, emitter, FTNL_MSG_NEW_OBSERVER);
}

/* ---- the node's membership -------------------------------------------- */

/**
 * ftnl_ring_core_init - a node's ring before it starts
 * @core: the state
 * @n: cluster size (ring positions)
 * @self: this node's position
 * @period_ns: h
 * @timeout_ns: d
 * @incarnation: this node's incarnation
 * @dead: D, ftnl_bitmap_longs(@n) zeroed longs
 * @peers: @n zeroed entries
 */
void ftnl_ring_core_init(struct ftnl_ring_core *core, u32 n, u32 self,
			 u64 period_ns, u64 timeout_ns, u64 incarnation,
			 unsigned long *dead, struct ftnl_ring_peer *peers)
{
	ftnl_ring_det_init(&core->det, n, self, period_ns, timeout_ns);
	core->running = false;
	core->incarnation = incarnation;
	core->dead = dead;
	core->peers = peers;
}

/* See ftnl_ring_det_start(). */
void ftnl_ring_core_start(struct ftnl_ring_core *core, u64 now,
			  const struct ftnl_ring_sink *out)
{
	core->running = true;
	ftnl_ring_det_start(&core->det, now, out);
}

/* No input changes the state after this but readmission's bookkeeping. */
void ftnl_ring_core_stop(struct ftnl_ring_core *core)
{
	core->running = false;
}

/* Task T1 (ftnl_ring_det_tick()), while running. */
void ftnl_ring_core_tick(struct ftnl_ring_core *core,
			 const struct ftnl_ring_sink *out)
{
	if (core->running)
		ftnl_ring_det_tick(&core->det, out);
}

/**
 * ftnl_ring_core_failure_learned - the node at @pos failed (or left)
 * @core: the state
 * @pos: the failed node
 * @state: FTNL_NODE_STATE_DEAD or FTNL_NODE_STATE_LEFT
 * @cause: enum ftnl_event_cause
 * @observer: position of the node that detected it
 * @now: current time
 * @out: the sink
 *
 * The one place where a failure enters D: ->failed is called once per
 * failure and incarnation (D never loses a member but by readmission),
 * asking for a broadcast when this node found the failure (it observed it,
 * heard a new incarnation, or was told by its emitter that it leaves;
 * failures learned by broadcast are forwarded by the broadcast itself),
 * and the ring is repaired (ftnl_ring_det_lost()).
 */
void ftnl_ring_core_failure_learned(struct ftnl_ring_core *core, u32 pos,
				    u8 state, u8 cause, u32 observer, u64 now,
				    const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];
	struct ftnl_ring_detector *det = &core->det;
	bool was_emitter = det->observing && pos == det->emitter;

	if (peer->state != FTNL_NODE_STATE_ALIVE || pos == det->self)
		return;
	peer->state = state;
	peer->cause = cause;
	peer->observer = observer;
	peer->dead_incarnation = peer->incarnation;
	ftnl_bit_set(core->dead, pos);
	out->failed(out->ctx, pos,
		    cause == FTNL_CAUSE_OBSERVED || cause == FTNL_CAUSE_RESTARTED ||
		    (cause == FTNL_CAUSE_LEAVE && was_emitter));
	ftnl_ring_det_lost(det, core->dead, pos, state == FTNL_NODE_STATE_LEFT,
			   now, out);
}

/**
 * ftnl_ring_core_expire - the suspicion timer fired (task T3 when due)
 * @core: the state
 * @now: current time
 * @out: the sink
 *
 * Return: enum ftnl_ring_expiry; FTNL_RING_SUSPECT when the emitter was
 * declared dead. The timer's next expiry: ftnl_ring_core_take_timer().
 */
enum ftnl_ring_expiry ftnl_ring_core_expire(struct ftnl_ring_core *core,
					    u64 now,
					    const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_detector *det = &core->det;
	enum ftnl_ring_expiry what;

	if (!core->running) {
		det->timer_at = 0;
		return FTNL_RING_IDLE;
	}
	what = ftnl_ring_det_expire(det, now);
	if (what != FTNL_RING_SUSPECT)
		return what;
	ftnl_ring_core_failure_learned(core, det->emitter, FTNL_NODE_STATE_DEAD,
				       FTNL_CAUSE_OBSERVED, det->self, now, out);
	if (det->observing)
		ftnl_ring_det_rearm(det, det->susp_deadline);
	return FTNL_RING_SUSPECT;
}

/**
 * ftnl_ring_core_admit - incarnation check of an authentic datagram
 * @core: the state
 * @pos: its sender
 * @incarnation: the sender's incarnation it carries
 * @now: current time
 * @out: the sink
 *
 * A node heard with a newer incarnation than the one known restarted
 * before anyone noticed: the incarnation this node knew is dead (cause
 * restarted), and the new one waits for readmission.
 *
 * Return: enum ftnl_ring_admit.
 */
enum ftnl_ring_admit ftnl_ring_core_admit(struct ftnl_ring_core *core, u32 pos,
					  u64 incarnation, u64 now,
					  const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];

	if (peer->state != FTNL_NODE_STATE_ALIVE)
		return FTNL_RING_DEAD_SENDER;
	if (incarnation <= peer->dead_incarnation)
		return FTNL_RING_STALE;
	if (!peer->incarnation) {
		peer->incarnation = incarnation;
		return FTNL_RING_ACCEPT_NEW;
	}
	if (incarnation < peer->incarnation)
		return FTNL_RING_STALE;
	if (incarnation > peer->incarnation) {
		ftnl_ring_core_failure_learned(core, pos, FTNL_NODE_STATE_DEAD,
					       FTNL_CAUSE_RESTARTED,
					       core->det.self, now, out);
		return FTNL_RING_DEAD_SENDER;
	}
	return FTNL_RING_ACCEPT;
}

/* Task T2 (ftnl_ring_det_heartbeat()). Return: it came from the emitter. */
bool ftnl_ring_core_heartbeat(struct ftnl_ring_core *core, u32 from, u64 now)
{
	return ftnl_ring_det_heartbeat(&core->det, from, now);
}

/* Task T4 (ftnl_ring_det_new_observer()). */
void ftnl_ring_core_new_observer(struct ftnl_ring_core *core, u32 from,
				 const struct ftnl_ring_sink *out)
{
	ftnl_ring_det_new_observer(&core->det, from, out);
}

/* LEAVE from @from: it leaves; it says so itself. */
void ftnl_ring_core_leave_rx(struct ftnl_ring_core *core, u32 from, u64 now,
			     const struct ftnl_ring_sink *out)
{
	ftnl_ring_core_failure_learned(core, from, FTNL_NODE_STATE_LEFT,
				       FTNL_CAUSE_LEAVE, from, now, out);
}

/**
 * ftnl_ring_core_death_heard - task T5: a broadcast says @pos failed
 * @core: the state
 * @pos: the failed node
 * @state: FTNL_NODE_STATE_DEAD or FTNL_NODE_STATE_LEFT
 * @incarnation: the incarnation that failed, 0 if the message does not say
 * @observer: position of the node that detected it
 * @now: current time
 * @out: the sink
 *
 * News about an incarnation older than the one this node knows is stale
 * (the node restarted and was readmitted since). A node never heard from
 * takes the failed incarnation as the one it knew: its observer heard it.
 */
void ftnl_ring_core_death_heard(struct ftnl_ring_core *core, u32 pos, u8 state,
				u64 incarnation, u32 observer, u64 now,
				const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];

	if (peer->incarnation && incarnation && peer->incarnation > incarnation)
		return;
	if (peer->state == FTNL_NODE_STATE_ALIVE && !peer->incarnation)
		peer->incarnation = incarnation;
	ftnl_ring_core_failure_learned(core, pos, state, FTNL_CAUSE_BROADCAST,
				       observer, now, out);
}

/**
 * ftnl_ring_core_readmit - take a dead or departed node back
 * @core: the state
 * @pos: its position
 * @now: current time
 * @out: the sink
 * @why: set to a message for the user on failure
 *
 * The node's next incarnation (larger than the one it died with) will be
 * accepted; the ring is re-evaluated (ftnl_ring_det_readmitted()).
 *
 * Return: 0, or -EINVAL with @why set (nothing changed).
 */
int ftnl_ring_core_readmit(struct ftnl_ring_core *core, u32 pos, u64 now,
			   const struct ftnl_ring_sink *out, const char **why)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];

	if (pos == core->det.self) {
		*why = "a node cannot readmit itself";
		return -EINVAL;
	}
	if (peer->state == FTNL_NODE_STATE_ALIVE) {
		*why = "the node is alive: only a dead or departed node can be readmitted";
		return -EINVAL;
	}
	peer->state = FTNL_NODE_STATE_ALIVE;
	peer->incarnation = 0;
	ftnl_bit_clear(core->dead, pos);
	if (core->running)
		ftnl_ring_det_readmitted(&core->det, core->dead, now, out);
	return 0;
}

/* This node leaves: tell its observer and its emitter, who announce it. */
void ftnl_ring_core_leave(struct ftnl_ring_core *core,
			  const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_detector *det = &core->det;

	if (!core->running)
		return;
	ftnl_ring_send(det, out, det->observer, FTNL_MSG_LEAVE);
	if (det->emitter != det->observer)
		ftnl_ring_send(det, out, det->emitter, FTNL_MSG_LEAVE);
}

/* What the node dump shows of the node at @pos. */
void ftnl_ring_core_view(const struct ftnl_ring_core *core, u32 pos, u64 now,
			 struct ftnl_node_view *view)
{
	const struct ftnl_ring_detector *det = &core->det;
	bool self = pos == det->self;

	view->state = self ? FTNL_NODE_STATE_ALIVE : core->peers[pos].state;
	view->incarnation = self ? core->incarnation :
				   core->peers[pos].incarnation;
	view->emitter = det->observing && pos == det->emitter;
	view->observer = pos == det->observer && !self;
	view->has_hb_age = view->emitter && det->heard_emitter;
	view->hb_age_ns = view->has_hb_age ? now - det->last_hb : 0;
}

/**
 * ftnl_ring_core_take_timer - did the suspicion timer move?
 * @core: the state
 * @at: set to its expiry when it did
 *
 * Called after every input: when true, the caller (re)starts its timer
 * for @at. After an expiry, false means the timer stays off.
 */
bool ftnl_ring_core_take_timer(struct ftnl_ring_core *core, u64 *at)
{
	struct ftnl_ring_detector *det = &core->det;

	if (!det->timer_moved)
		return false;
	det->timer_moved = false;
	*at = det->timer_at;
	return true;
}
