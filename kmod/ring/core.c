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
 * new emitter is heard, and once more then; the local health rule
 * (ftnl_ring_det_expire(): a node whose own timers ran more than h late
 * while it waited for its emitter waits h once more before accusing it,
 * for the datagrams its stalled CPU has not read yet); a failure learned
 * by broadcast repairs the ring at once when it
 * was the emitter; graceful leave; incarnations (a node heard with a newer
 * one restarted: its old incarnation is dead) and readmission; and what
 * keeps the membership true under partitions, half-deaf and frozen nodes:
 *
 *   indirect probes  before an accusation, helpers try to reach the
 *                    suspect (SWIM's ping-req): ftnl_ring_probe_judge(),
 *                    ftnl_ring_core_probe_rx(); a node no helper answers
 *                    resigns rather than accuse
 *   quorum           no death is published that would leave this node's
 *                    live set without a strict majority of the cluster:
 *                    the node resigns instead (ftnl_ring_core_has_quorum())
 *   expulsion        a node declared dead that is still running is told so
 *                    by the first member that hears from it (EXPELLED), and
 *                    stops acting as a member, as a node that resigns does:
 *                    ftnl_ring_core_tell_dead(), ftnl_ring_core_expelled_rx(),
 *                    ftnl_ring_core_expel_self()
 *   rejoin           a new incarnation of a dead node heard here is
 *                    admitted and its JOIN broadcast; every member obeys
 *                    a JOIN; at most K rejoins per window, then held out
 *                    (ftnl_ring_rejoin(), ftnl_ring_core_join_heard())
 *   old news         death news from a broadcast started before this
 *                    node's life, about a node whose life it does not
 *                    know, waits for that node to prove a newer one, or
 *                    2d (ftnl_ring_core_death_old()); news naming no
 *                    life, of a life just pinned here, waits for a JOIN
 *                    of that life, or 2d (ftnl_ring_core_death_heard())
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

/**
 * ftnl_ring_can_observe - may @from be this node's observer, given D?
 * @dead: the dead set D
 * @n: number of positions
 * @self: this node's position
 * @from: the node that says it observes this node (NEW_OBSERVER)
 *
 * A node observes its closest predecessor not in its D: @from can be this
 * node's observer only if every node strictly between this node and
 * @from is in this node's D. A NEW_OBSERVER that fails the rule is a
 * replay or a forgery, or its sender knows of a death this node has not
 * heard yet (see ftnl_ring_core_new_observer()).
 *
 * Return: true if @from may observe this node.
 */
bool ftnl_ring_can_observe(const unsigned long *dead, u32 n, u32 self,
			   u32 from)
{
	u32 pos = ftnl_ring_succ(self, n), steps;

	if (from == self || from >= n)
		return false;
	for (steps = 0; steps < n && pos != from; steps++) {
		if (!ftnl_bit_test(dead, pos))
			return false;
		pos = ftnl_ring_succ(pos, n);
	}
	return true;
}

/* @pos lies strictly between @from and @to, walking forward from @from. */
bool ftnl_ring_between(u32 pos, u32 from, u32 to, u32 n)
{
	u32 a = (pos + n - from) % n, b = (to + n - from) % n;

	return a && a < b;
}

/* ---- Algorithm 1 ------------------------------------------------------ */

static void ftnl_ring_send(const struct ftnl_ring_detector *det,
			   const struct ftnl_ring_sink *out, u32 to, u8 type)
{
	if (to != det->self)
		out->send(out->ctx, to, type);
}

/* How long before the deadline a probe starts (0: probes are off). */
static u64 ftnl_ring_det_lead(const struct ftnl_ring_detector *det)
{
	u64 lead = det->probe_lead_ns;

	/*
	 * An adaptive timeout may be far below d: probe only once the
	 * heartbeat is overdue, halfway between h and the deadline.
	 */
	if (det->adaptive && det->adapt.timeout_ns > det->period_ns) {
		u64 estimated = FTNL_RING_PROBE_LEAD(det->adapt.timeout_ns,
						     det->period_ns);

		if (lead > estimated)
			lead = estimated;
	}
	return lead;
}

/* When the timer must fire first: the deadline, or the time to probe. */
static u64 ftnl_ring_det_wake(const struct ftnl_ring_detector *det)
{
	u64 lead = ftnl_ring_det_lead(det);

	if (lead && lead < det->susp_deadline)
		return det->susp_deadline - lead;
	return det->susp_deadline;
}

/* The deadline moved: the caller's timer must not fire after it. */
static void ftnl_ring_det_arm(struct ftnl_ring_detector *det)
{
	u64 wake = ftnl_ring_det_wake(det);

	if (!det->timer_at || wake < det->timer_at) {
		det->timer_at = wake;
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
 * ftnl_ring_det_set_adaptive - timeouts that adapt to the emitter
 * @det: the state, before it starts
 * @min_ns: d_min
 * @max_ns: d_max
 * @nines: target false-suspicion rate per heartbeat, 10^-@nines
 *
 * The values were checked with ftnl_adapt_invalid(). d becomes d_max:
 * where Algorithm 1 waits d or 2d for an emitter it has no estimate of
 * yet (a new one, the boot), and for the probe lead and the local health
 * rule; a heartbeat moves the deadline by the emitter's estimate instead.
 */
void ftnl_ring_det_set_adaptive(struct ftnl_ring_detector *det, u64 min_ns,
				u64 max_ns, u32 nines)
{
	det->adaptive = true;
	det->timeout_ns = max_ns;
	if (det->probe_lead_ns)
		det->probe_lead_ns = FTNL_RING_PROBE_LEAD(max_ns,
							  det->period_ns);
	ftnl_adapt_init(&det->adapt, det->period_ns, min_ns, max_ns, nines);
}

/*
 * How long after this heartbeat the emitter is suspected: d, or the
 * estimate of it (a fresh one for an emitter not heard yet: a new
 * emitter, or a new life of it).
 */
static u64 ftnl_ring_det_hb_timeout(struct ftnl_ring_detector *det, u64 now)
{
	if (!det->adaptive)
		return det->timeout_ns;
	if (!det->heard_emitter)
		ftnl_adapt_reset(&det->adapt);
	return ftnl_adapt_arrival(&det->adapt, now);
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
	det->booting = true;
	ftnl_ring_det_arm(det);
	ftnl_ring_send(det, out, det->emitter, FTNL_MSG_NEW_OBSERVER);
}

/*
 * NEW_OBSERVER again, every h, until the emitter is heard, and once more
 * then: an emitter that started after the first ones never heard this
 * node, and would not know which life of it died (a restart of that node
 * would then be taken for the dead life resuming, and expelled).
 */
static void ftnl_ring_det_renew(struct ftnl_ring_detector *det,
				const struct ftnl_ring_sink *out)
{
	if (!det->observing || det->emitter_knows)
		return;
	ftnl_ring_send(det, out, det->emitter, FTNL_MSG_NEW_OBSERVER);
	det->emitter_knows = det->heard_emitter;
}

/**
 * ftnl_ring_det_tick - task T1: HB-TIMEOUT expired
 * @det: the state
 * @out: the sink
 *
 * Heartbeat to the observer. Until the emitter's first heartbeat,
 * NEW_OBSERVER is repeated every h too: a single one can wait a second
 * behind ARP, or be lost, and the new emitter would then be suspected
 * after 2d for nothing (and once more after it: ftnl_ring_det_renew()).
 */
void ftnl_ring_det_tick(struct ftnl_ring_detector *det,
			const struct ftnl_ring_sink *out)
{
	ftnl_ring_send(det, out, det->observer, FTNL_MSG_HEARTBEAT);
	ftnl_ring_det_renew(det, out);
}

/*
 * The emitter is known alive at @now (its heartbeat, or its answer to a
 * probe): SUSP-TIMEOUT <- @timeout_ns, and the new window has its own
 * turn of the local health rule. The timer moves only when the deadline
 * moves earlier (2d or boot grace -> d); otherwise it fires early and is
 * set again. From within the timer's expiry (timer_at is 0 there) it is
 * set for the new deadline.
 */
static void ftnl_ring_det_alive(struct ftnl_ring_detector *det, u64 now,
				u64 timeout_ns)
{
	det->susp_deadline = now + timeout_ns;
	det->stall_grace = false;
	ftnl_ring_det_arm(det);
}

/**
 * ftnl_ring_det_heartbeat - task T2: a heartbeat arrived
 * @det: the state
 * @from: its sender
 * @now: its arrival
 *
 * Return: it came from the emitter (and moved SUSP-TIMEOUT to now + d, or
 * the adaptive timeout).
 */
bool ftnl_ring_det_heartbeat(struct ftnl_ring_detector *det, u32 from,
			     u64 now)
{
	if (!det->observing || from != det->emitter)
		return false;
	ftnl_ring_det_alive(det, now, ftnl_ring_det_hb_timeout(det, now));
	det->heard_emitter = true;
	det->booting = false;
	det->last_hb = now;
	return true;
}

/*
 * The suspect answered a probe itself (judged at @now): the suspicion is
 * refuted, and the answer counts as a heartbeat for the deadline and the
 * local health rule (ftnl_ring_det_alive()), with d - d_max when adaptive:
 * the emitter outlived its estimate, which is too tight for now; the next
 * heartbeat widens it by the gap it measures. It is no arrival of the
 * heartbeat stream: it adds no inter-arrival sample (a gap measured from
 * it would hide the heartbeats lost) and leaves the heartbeat's age alone.
 */
static void ftnl_ring_det_refuted(struct ftnl_ring_detector *det, u64 now)
{
	det->booting = false;
	ftnl_ring_det_alive(det, now, det->timeout_ns);
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
	det->observer_claimed = true;
	ftnl_ring_send(det, out, from, FTNL_MSG_HEARTBEAT);
}

/**
 * ftnl_ring_det_self_late - one of this node's own timers ran late
 * @det: the state
 * @late_ns: how long after its deadline it ran
 * @now: when it ran
 *
 * Input of the local health rule (ftnl_ring_det_expire()): more than h
 * late means this node did not run for a while, and may not have read
 * what arrived meanwhile.
 */
void ftnl_ring_det_self_late(struct ftnl_ring_detector *det, u64 late_ns,
			     u64 now)
{
	if (late_ns > det->period_ns)
		det->late_at = now;
}

/**
 * ftnl_ring_det_rx_lost - this node's host dropped datagrams it received
 * @det: the state
 * @now: when the caller saw the drops (they happened within h before)
 *
 * Input of the local health rule, as a late timer is: a host whose input
 * backlog overflowed (its receive softirq fell behind: a CPU saturated by
 * user load, a burst) lost datagrams before any protocol saw them, so a
 * silence heard meanwhile says nothing of the senders. A probe round that
 * nobody answered is opened again instead of resigning, as after a stall
 * (ftnl_ring_probe_self_late()). Any datagram dropped may have been the
 * emitter's heartbeat: the emitter is not judged before d after the last
 * report, however long the host goes on dropping (an observer with nobody
 * to ask would otherwise accuse after one wait of h); and a verification
 * the drops interrupted starts again (ftnl_ring_probe_judge()). @rx_lost
 * counts the reports.
 */
void ftnl_ring_det_rx_lost(struct ftnl_ring_detector *det, u64 now)
{
	det->late_at = now;
	det->rx_lost_at = now;
	det->rx_dropped_at = now;
	det->rx_gone_at = now;
	det->rx_lost++;
}

/**
 * ftnl_ring_det_rx_dropped - the host dropped received datagrams (counted)
 * @det: the state
 * @now: when the caller saw the drops
 *
 * What every node reports, the host-drop rule (ftnl_ring_det_rx_lost())
 * on or off. A silence heard while the host dropped input is no proof
 * that this node cannot hear, nor that the suspect is silent: a probe
 * round that closes short of answers after drops is opened again instead
 * of resigning (ftnl_ring_probe_self_late()); a node with nobody to ask
 * judges d after the last drop (ftnl_ring_probe_alone()); a verification
 * that drops interrupt starts again, and accuses no sooner than d after
 * the last one (ftnl_ring_probe_heard_by()); a probe that comes due at a
 * drop is put off (ftnl_ring_probe_defer()), and one in progress asks no
 * helper until the drops stop (ftnl_ring_probe_held()). Unlike the rule,
 * the drops do not hold the probe and its rounds d.
 */
void ftnl_ring_det_rx_dropped(struct ftnl_ring_detector *det, u64 now)
{
	det->rx_dropped_at = now;
	det->rx_gone_at = now;
}

/**
 * ftnl_ring_det_rx_held - the host holds received datagrams unread
 * @det: the state
 * @now: when the caller saw them
 *
 * Input queued before the last heartbeat tick still waits in a CPU's
 * backlog: what the emitter and the helpers sent may be there. Taken as
 * drops are (ftnl_ring_det_rx_dropped()), but for how long a verification
 * holds its accusation: a held datagram is read once the backlog drains,
 * so the suspect's silence need only outlast 2h after the last report
 * (ftnl_ring_probe_heard_by()), not d.
 */
void ftnl_ring_det_rx_held(struct ftnl_ring_detector *det, u64 now)
{
	det->rx_dropped_at = now;
}

/*
 * The local health rule for a new emitter not heard yet: this node was
 * itself late after it took it (a timer of its own ran more than h late
 * since the switch: ftnl_ring_det_self_late(), which the caller also
 * feeds with a heartbeat expiry still waiting when this timer runs). The
 * NEW_OBSERVER it sent as it switched, and the ones its late ticks
 * repeat, may have waited with it - in its CPU's backlog - so the new
 * emitter could not have heard it, let alone answered, before this node
 * ran again: its 2d (line 19) counts from then, once per new emitter.
 * A node that ran all along (Theorem 1's model: no timer of its own more
 * than h late) never gets here. Return: the deadline moved.
 */
static bool ftnl_ring_det_switch_late(struct ftnl_ring_detector *det,
				      u64 now)
{
	u64 ran = det->late_at;

	if (det->heard_emitter || det->switch_grace || !det->switched_at ||
	    ran <= det->switched_at ||
	    ran + 2 * det->timeout_ns <= det->susp_deadline)
		return false;
	det->switch_grace = true;
	det->stall_waits++;
	det->susp_deadline = ran + 2 * det->timeout_ns;
	ftnl_ring_det_rearm(det, ftnl_ring_det_wake(det) > now ?
			    ftnl_ring_det_wake(det) : det->susp_deadline);
	return true;
}

/**
 * ftnl_ring_det_expire - the suspicion timer fired
 * @det: the state
 * @now: current time
 *
 * Before the deadline (a heartbeat moved it), the timer is set for the
 * deadline; with probes on, it first fires @probe_lead_ns before it
 * (FTNL_RING_PROBE: the caller starts its indirect probe). Otherwise task
 * T3 is due, unless the local health rule puts it off: the caller adds the
 * emitter to D (ftnl_ring_core_failure_learned() or its own D, then
 * ftnl_ring_det_lost()) and sets the timer again if still observing.
 *
 * The local health rule: a node that was itself late is no judge of its
 * emitter's silence. If this node ran more than h late since the window
 * of the deadline opened (susp_deadline - d) - this expiry more than h
 * after the deadline, or a timer of its own reported late by
 * ftnl_ring_det_self_late() - heartbeats that arrived meanwhile may still
 * wait to be read: the emitter is judged h later, once per deadline
 * (@stall_waits counts it). A real failure is found at most h + the
 * stall later; a node that stays late still accuses after the wait. A
 * host that dropped input (ftnl_ring_det_rx_lost()) may have dropped a
 * heartbeat: the emitter is judged no sooner than d after the last
 * report, as if that had been one.
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
		u64 wake = ftnl_ring_det_wake(det);

		if (now < wake) {
			ftnl_ring_det_rearm(det, wake);
			return FTNL_RING_WAIT;
		}
		ftnl_ring_det_rearm(det, det->susp_deadline);
		return FTNL_RING_PROBE;
	}
	if (ftnl_ring_det_switch_late(det, now))
		return FTNL_RING_WAIT;
	/*
	 * Not the stall's grace: a stall that began after the drops (a timer
	 * of this node's then ran late; heartbeats wait unread) still gets
	 * its wait once the hold is over.
	 */
	if (det->rx_lost_at && now < det->rx_lost_at + det->timeout_ns) {
		det->stall_waits++;
		ftnl_ring_det_rearm(det, det->rx_lost_at + det->timeout_ns);
		return FTNL_RING_WAIT;
	}
	if (!det->stall_grace &&
	    (now > det->susp_deadline + det->period_ns ||
	     (det->late_at &&
	      det->late_at + det->timeout_ns > det->susp_deadline))) {
		det->stall_grace = true;
		det->stall_waits++;
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
	det->booting = false;
	det->emitter_knows = false;
	det->stall_grace = false;
	det->switched_at = now;
	det->switch_grace = false;
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
		det->observer_claimed = false;
		ftnl_ring_send(det, out, det->observer, FTNL_MSG_HEARTBEAT);
	}
}

/**
 * ftnl_ring_det_readmitted - a node left D: re-evaluate the emitter
 * @det: the state
 * @dead: D
 * @pos: the node
 * @now: current time
 * @out: the sink
 *
 * If the readmitted node now sits between this node and its emitter, it
 * becomes the emitter (NEW_OBSERVER, 2d). If it already was the emitter
 * (its death was not known here yet, a new life took its place), it is
 * observed afresh: the deadline of its previous life must not judge the
 * new one. The observer does not change
 * here: as in the paper, only a NEW_OBSERVER moves it, and the readmitted
 * node sends one when it comes back (switching early would leave the old
 * observer without heartbeats while the node is still away).
 */
void ftnl_ring_det_readmitted(struct ftnl_ring_detector *det,
			      const unsigned long *dead, u32 pos, u64 now,
			      const struct ftnl_ring_sink *out)
{
	u32 emitter = ftnl_ring_find_emitter(dead, det->n, det->self,
					     ftnl_ring_pred(det->self, det->n));

	if (emitter == det->emitter && (emitter != pos || !det->observing))
		return;
	det->emitter = emitter;
	det->heard_emitter = false;
	det->booting = false;
	det->emitter_knows = false;
	det->switched_at = now;
	det->switch_grace = false;
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
	core->quorum = false;
	core->probes = false;
	core->resigned = FTNL_RING_MEMBER;
	core->expelled = false;
	core->comeback = false;
	core->comeback_at = 0;
	core->rejoin_auto = false;
	core->flap_max = 0;
	core->flap_window_ns = 0;
	core->incarnation = incarnation;
	core->first = incarnation;
	core->nrenames = 0;
	core->renamed = 0;
	core->renames_held = 0;
	core->ndead = 0;
	core->nleft = 0;
	core->probe_budget = FTNL_RING_PROBE_BUDGET;
	core->probe = (struct ftnl_ring_prober){ 0 };
	core->probe_ids = 0;
	core->refuted = 0;
	core->verified = 0;
	core->throttled = 0;
	core->nclaims = 0;
	core->epoch = 0;
	core->update_grace_ns = 0;
	core->update_until = 0;
	core->prev_observer = self;
	core->dead = dead;
	core->peers = peers;
}

/*
 * Probe requests and relays served per period. With the quorum rule each
 * suspicion asks half the cluster or more (the confirmation rule): f
 * suspicions at once (a rack that fails) ask each node about f/2 times,
 * and a request refused here is a confirmation lost there, perhaps the
 * one its observer needed to stay a member. n/2 more serve every f that
 * leaves a majority; the work stays bounded: two sends per token.
 */
static u32 ftnl_ring_probe_budget(const struct ftnl_ring_core *core)
{
	if (core->quorum && core->probes)
		return FTNL_RING_PROBE_BUDGET + core->det.n / 2;
	return FTNL_RING_PROBE_BUDGET;
}

/**
 * ftnl_ring_core_set_rules - the membership rules this node follows
 * @core: the state, before it starts
 * @quorum: no death may leave this node without a strict majority
 * @probes: indirect probes before every accusation
 */
void ftnl_ring_core_set_rules(struct ftnl_ring_core *core, bool quorum,
			      bool probes)
{
	core->quorum = quorum;
	core->probes = probes;
	core->det.probe_lead_ns = probes ?
		FTNL_RING_PROBE_LEAD(core->det.timeout_ns,
				     core->det.period_ns) : 0;
	core->probe_budget = ftnl_ring_probe_budget(core);
}

/**
 * ftnl_ring_core_has_quorum - would this node keep a majority?
 * @core: the state
 * @more: further members it would hold dead
 *
 * Members that left gracefully are out of the count: they are on no side
 * of any partition (two sides that know of different leaves still cannot
 * both hold a strict majority of what remains).
 *
 * Return: the quorum rule is off, or this node and the members it holds
 * alive, less @more, are a strict majority of the members that did not
 * leave.
 */
bool ftnl_ring_core_has_quorum(const struct ftnl_ring_core *core, u32 more)
{
	u32 members = core->det.n - core->nleft;
	u32 live = members - core->ndead;

	if (!core->quorum)
		return true;
	return live > more && 2 * (live - more) > members;
}

/* Would this node keep its majority with one more member @state? */
static bool ftnl_ring_quorum_after(const struct ftnl_ring_core *core, u8 state)
{
	u32 members = core->det.n - core->nleft;
	u32 live = members - core->ndead;

	if (!core->quorum)
		return true;
	if (state == FTNL_NODE_STATE_LEFT)
		members--;
	return live > 1 && 2 * (live - 1) > members;
}

/*
 * This incarnation is over: stop acting as a member (no heartbeat, no
 * observation, no broadcast: every input but readmission's bookkeeping is
 * ignored, as when stopped) and say so once. With rejoin auto, a node the
 * cluster told it is dead comes back as a new incarnation once fenced
 * (ftnl_ring_core_fenced()): the cluster holds its old life dead and will
 * readmit a new one. Not one that expelled itself (quorum lost, deaf):
 * its own fault - the minority side of a partition, a receive path that
 * failed - outlives the expulsion, nobody tells it when that fault is
 * gone, and coming back would only make it flap until the flap rule
 * holds it out; an admin (or a restart) brings it back.
 */
static bool ftnl_ring_core_expel(struct ftnl_ring_core *core, u8 reason,
				 u32 by, const struct ftnl_ring_sink *out)
{
	if (!core->running || core->expelled)
		return false;
	core->running = false;
	core->probe.active = false;
	core->expelled = true;
	core->comeback = core->rejoin_auto &&
			 (reason == FTNL_EXPEL_TOLD ||
			  reason == FTNL_EXPEL_BROADCAST);
	core->comeback_at = 0;
	core->expel_reason = reason;
	core->expelled_by = by;
	core->det.timer_at = 0;
	if (out->expelled)
		out->expelled(out->ctx);
	return true;
}

/*
 * This node gives up its membership: quorum lost, or nobody answers it.
 * It stops acting (no heartbeat, no datagram, no timer) as a node the
 * others hold dead must; they find it silent and declare it dead.
 */
static void ftnl_ring_core_resign(struct ftnl_ring_core *core, u8 why,
				  const struct ftnl_ring_sink *out)
{
	if (core->resigned)
		return;
	core->resigned = why;
	core->probe.active = false;
	/* Resigning is expelling itself: the same state, event and fence. */
	ftnl_ring_core_expel(core, why == FTNL_RING_UNHEARD ?
			     FTNL_EXPEL_DEAF : FTNL_EXPEL_QUORUM,
			     core->det.self, out);
	core->running = false;
	if (out->resigned)
		out->resigned(out->ctx, why);
}

/**
 * ftnl_ring_core_inherit - keep what a replaced configuration knew of a peer
 * @core: the state, not started yet
 * @pos: the peer's position in @core
 * @peer: what the replaced ring knew of it (same id, same endpoint)
 * @observer: @peer->observer as a position of @core (this node's own when
 *	that node is no member any more)
 *
 * A `cluster set` that keeps a member keeps its state, D membership and
 * incarnations: a known-dead node stays dead (and is not announced again),
 * and an incarnation older than the one known stays stale.
 */
void ftnl_ring_core_inherit(struct ftnl_ring_core *core, u32 pos,
			    const struct ftnl_ring_peer *peer, u32 observer)
{
	if (pos == core->det.self)
		return;
	if (core->peers[pos].state != FTNL_NODE_STATE_ALIVE)
		return;		/* inherited once only */
	core->peers[pos] = *peer;
	core->peers[pos].observer = observer;
	/* Marks of the replaced ring's probes: its identifiers restart. */
	core->peers[pos].probe_asked = 0;
	core->peers[pos].probe_confirmed = 0;
	if (peer->doubt_until)
		core->ndoubts++;
	if (peer->rename_until)
		core->nrenames++;
	if (peer->claim_until)
		core->nclaims++;
	if (peer->state == FTNL_NODE_STATE_ALIVE)
		return;
	ftnl_bit_set(core->dead, pos);
	if (peer->state == FTNL_NODE_STATE_LEFT)
		core->nleft++;
	else
		core->ndead++;
}

/*
 * See ftnl_ring_det_start(). Emitter and observer are the closest live
 * neighbours: D may be inherited (ftnl_ring_core_inherit()).
 */
void ftnl_ring_core_start(struct ftnl_ring_core *core, u64 now,
			  const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_detector *det = &core->det;

	det->emitter = ftnl_ring_find_emitter(core->dead, det->n, det->self,
					      ftnl_ring_pred(det->self, det->n));
	det->observing = det->emitter != det->self;
	det->observer = ftnl_ring_find_observer(core->dead, det->n, det->self);
	core->running = true;
	if (core->update_grace_ns)
		core->update_until = now + core->update_grace_ns;
	ftnl_ring_det_start(det, now, out);
}

/*
 * No input changes the state after this but readmission's bookkeeping;
 * an expelled node no longer comes back either.
 */
void ftnl_ring_core_stop(struct ftnl_ring_core *core)
{
	core->running = false;
	core->comeback = false;
	core->comeback_at = 0;
}

static void ftnl_ring_core_hello(struct ftnl_ring_core *core, u32 pos,
				 u64 now, const struct ftnl_ring_sink *out);

/*
 * Held death news about the node at @pos ends (ftnl_ring_core_death_old(),
 * ftnl_ring_doubt_hold()): the node proved a life here (@proved), or the
 * wait is over. News naming a life is then judged as news proven fresh:
 * stale if the node lives a newer life, its death if it lives that one (a
 * zombie) or none is known. News that names no life says nothing against
 * a life proved while it was held (pinned, or named by a JOIN); otherwise
 * it is taken.
 */
static void ftnl_ring_doubt_end(struct ftnl_ring_core *core, u32 pos,
				bool proved, u64 now,
				const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];
	u8 was = peer->state;

	peer->doubt_until = 0;
	core->ndoubts--;
	if (peer->doubt_inc)
		ftnl_ring_core_death_heard(core, pos, peer->doubt_state,
					   peer->doubt_inc, peer->doubt_observer,
					   now, out);
	else if (!proved && was == FTNL_NODE_STATE_ALIVE &&
		 !peer->dead_incarnation)
		ftnl_ring_core_failure_learned(core, pos, peer->doubt_state,
					       FTNL_CAUSE_BROADCAST,
					       peer->doubt_observer, now, out);
	if (was == FTNL_NODE_STATE_ALIVE && peer->state == was)
		core->news_stale++;
}

/* The node at @pos proved a life here (pinned, or a JOIN named it). */
static void ftnl_ring_doubt_settle(struct ftnl_ring_core *core, u32 pos,
				   u64 now, const struct ftnl_ring_sink *out)
{
	if (core->peers[pos].doubt_until)
		ftnl_ring_doubt_end(core, pos, true, now, out);
}

/*
 * Death news about the node at @pos is held for FTNL_RING_DOUBT_WAIT and
 * the node asked to prove a newer life (a HELLO). Of two items held about
 * a node, the one naming the later life is kept.
 */
static void ftnl_ring_doubt_hold(struct ftnl_ring_core *core, u32 pos,
				 u8 state, u64 incarnation, u32 observer,
				 u64 now, const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];

	if (peer->doubt_until && incarnation < peer->doubt_inc)
		return;
	if (!peer->doubt_until) {
		peer->doubt_until = now + FTNL_RING_DOUBT_WAIT(&core->det);
		core->ndoubts++;
	}
	peer->doubt_inc = incarnation;
	peer->doubt_observer = observer;
	peer->doubt_state = state;
	core->news_held++;
	ftnl_ring_core_hello(core, pos, now, out);
}

/*
 * From the tick, while news is held: what waited long enough is taken; the
 * others' nodes are asked again (a HELLO or its answer may be lost).
 */
static void ftnl_ring_doubts_expire(struct ftnl_ring_core *core, u64 now,
				    const struct ftnl_ring_sink *out)
{
	u32 pos, left = core->ndoubts;

	for (pos = 0; pos < core->det.n && left; pos++) {
		if (!core->peers[pos].doubt_until)
			continue;
		left--;
		if (now >= core->peers[pos].doubt_until)
			ftnl_ring_doubt_end(core, pos, false, now, out);
		else
			ftnl_ring_core_hello(core, pos, now, out);
	}
}

static bool ftnl_ring_rejoin(struct ftnl_ring_core *core, u32 pos,
			     u64 incarnation, u64 first, u32 observer, u64 now,
			     bool admitting, const struct ftnl_ring_sink *out);

/*
 * A JOIN taken (ftnl_ring_rejoin()): a life it says was renamed began under
 * an incarnation not known here.
 */
static bool ftnl_ring_join_take(struct ftnl_ring_core *core, u32 pos,
				u64 incarnation, bool renamed, u32 observer,
				u64 now, const struct ftnl_ring_sink *out)
{
	return ftnl_ring_rejoin(core, pos, incarnation,
				renamed ? 0 : incarnation, observer, now, false,
				out);
}

/* A JOIN's later life of the node at @pos is settled: it spoke, or it left. */
static void ftnl_ring_rename_settle(struct ftnl_ring_core *core, u32 pos)
{
	if (!core->peers[pos].rename_until)
		return;
	core->peers[pos].rename_until = 0;
	core->nrenames--;
}

/*
 * From the tick, while a JOIN's later life is not settled
 * (ftnl_ring_core_join_heard()): the node is asked again (a HELLO, each
 * h); once the wait is over, the JOIN is taken as it would have been at
 * once: the life pinned here ended.
 */
static void ftnl_ring_renames_expire(struct ftnl_ring_core *core, u64 now,
				     const struct ftnl_ring_sink *out)
{
	u32 pos, left = core->nrenames;

	for (pos = 0; pos < core->det.n && left; pos++) {
		struct ftnl_ring_peer *peer = &core->peers[pos];

		if (!peer->rename_until)
			continue;
		left--;
		if (now < peer->rename_until) {
			ftnl_ring_core_hello(core, pos, now, out);
			continue;
		}
		ftnl_ring_rename_settle(core, pos);
		ftnl_ring_join_take(core, pos, peer->rename_inc, true,
				    peer->rename_observer, now, out);
	}
}

static void ftnl_ring_claim_end(struct ftnl_ring_core *core, u32 pos)
{
	core->peers[pos].claim_until = 0;
	core->nclaims--;
}

/*
 * Claims D did not allow (ftnl_ring_core_new_observer()), from the tick:
 * a claimant is owed nothing once it is in D, and becomes the observer
 * once D allows it (the deaths its claim was based on are known here
 * now). A claim not renewed for FTNL_RING_CLAIM_HOLD ends: its claimant
 * observes another node now, or never did (a replay). From half of it on
 * the claimant is asked (a HELLO each h): one that still observes this
 * node renews it; one whose answers the host may have dropped
 * (ftnl_ring_det_rx_dropped()) is asked on.
 */
static void ftnl_ring_claims_settle(struct ftnl_ring_core *core, u64 now,
				    const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_detector *det = &core->det;
	u64 ask = FTNL_RING_CLAIM_HOLD(det) / 2;
	u32 pos;

	for (pos = 0; pos < det->n && core->nclaims; pos++) {
		u64 until = core->peers[pos].claim_until;

		if (!until)
			continue;
		/*
		 * The host dropped input since the asks began: the answers may
		 * be among the drops (the local health rule). Asked on, until
		 * half a hold after the last drop.
		 */
		if (det->rx_dropped_at + ask > until) {
			until = det->rx_dropped_at + ask;
			core->peers[pos].claim_until = until;
		}
		if (ftnl_bit_test(core->dead, pos) || pos == det->observer) {
			ftnl_ring_claim_end(core, pos);
		} else if (ftnl_ring_can_observe(core->dead, det->n, det->self,
						 pos)) {
			det->observer = pos;
			det->observer_claimed = true;
			ftnl_ring_claim_end(core, pos);
		} else if (now >= until) {
			ftnl_ring_claim_end(core, pos);
		} else if (now + ask >= until) {
			ftnl_ring_core_hello(core, pos, now, out);
		}
	}
}

static void ftnl_ring_update_tick(struct ftnl_ring_core *core, u64 now,
				  const struct ftnl_ring_sink *out);
static void ftnl_ring_epoch_stretch(struct ftnl_ring_core *core, u32 from,
				    u64 now);
static bool ftnl_ring_update_hold(struct ftnl_ring_core *core, u64 now);

/*
 * Task T1 (ftnl_ring_det_tick()), while running. An observer this node
 * holds dead is not heartbeaten: only a NEW_OBSERVER moves the observer,
 * and when every node between it and this one is dead too, none comes; a
 * frozen observer that resumes would take the heartbeats as its emitter's
 * and never learn. It is told it is dead instead, or, when no one knows
 * its incarnation, left to miss its emitter: it then accuses this node,
 * which answers EXPELLED. A claimant D does not allow gets them too.
 */
void ftnl_ring_core_tick(struct ftnl_ring_core *core, u64 now,
			 const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_detector *det = &core->det;
	struct ftnl_ring_peer *peer;
	u32 pos;

	if (!core->running)
		return;
	core->probe_budget = ftnl_ring_probe_budget(core);
	if (core->ndoubts)
		ftnl_ring_doubts_expire(core, now, out);
	if (core->nrenames)
		ftnl_ring_renames_expire(core, now, out);
	if (core->nclaims)
		ftnl_ring_claims_settle(core, now, out);
	peer = &core->peers[det->observer];
	if (det->observer == det->self || peer->state != FTNL_NODE_STATE_DEAD ||
	    !out->expel) {
		ftnl_ring_det_tick(det, out);
	} else {
		if (peer->dead_incarnation && now >= peer->expel_next) {
			peer->expel_next = now + det->period_ns / 2;
			out->expel(out->ctx, det->observer, peer->dead_incarnation);
		}
		ftnl_ring_det_renew(det, out);
	}
	for (pos = 0; pos < det->n && core->nclaims; pos++)
		if (core->peers[pos].claim_until)
			ftnl_ring_send(det, out, pos, FTNL_MSG_HEARTBEAT);
	ftnl_ring_update_tick(core, now, out);
	/*
	 * An observer not proven yet may never send anything that would
	 * prove it (its HELLO, answering an unproven heartbeat, was lost,
	 * and it proved this node otherwise): ask it, at most once per h.
	 */
	peer = &core->peers[det->observer];
	if (det->observer != det->self && !peer->incarnation &&
	    peer->state == FTNL_NODE_STATE_ALIVE)
		ftnl_ring_core_hello(core, det->observer, now, out);
}

/* This node admitted the node at @pos: see FTNL_RING_WELCOME_WINDOW. */
static void ftnl_ring_welcome_window(struct ftnl_ring_core *core, u32 pos,
				     u64 now)
{
	u64 until = now + FTNL_RING_WELCOME_WINDOW(&core->det);

	core->peers[pos].welcome_until = until;
	if (until > core->welcome_until)
		core->welcome_until = until;
}

/* A death entered D: nodes welcomed lately get D again. */
static void ftnl_ring_welcome_again(struct ftnl_ring_core *core, u64 now,
				    const struct ftnl_ring_sink *out)
{
	u32 pos;

	if (!out->welcome || now >= core->welcome_until)
		return;
	for (pos = 0; pos < core->det.n; pos++)
		if (now < core->peers[pos].welcome_until &&
		    core->peers[pos].state == FTNL_NODE_STATE_ALIVE)
			out->welcome(out->ctx, pos);
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
 * and the ring is repaired (ftnl_ring_det_lost()). A death that would
 * leave this node without a majority is not published: the node resigns
 * instead (the quorum rule).
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
	if (!ftnl_ring_quorum_after(core, state)) {
		ftnl_ring_core_resign(core, FTNL_RING_QUORUM_LOST, out);
		return;
	}
	if (state == FTNL_NODE_STATE_LEFT)
		core->nleft++;
	else
		core->ndead++;
	peer->state = state;
	peer->cause = cause;
	peer->observer = observer;
	peer->dead_incarnation = peer->incarnation;
	peer->dead_guessed = false;
	peer->expel_next = now + FTNL_RING_EXPEL_HOLD(det);
	ftnl_bit_set(core->dead, pos);
	out->failed(out->ctx, pos,
		    cause == FTNL_CAUSE_OBSERVED || cause == FTNL_CAUSE_RESTARTED ||
		    (cause == FTNL_CAUSE_LEAVE && was_emitter));
	ftnl_ring_welcome_again(core, now, out);
	ftnl_ring_det_lost(det, core->dead, pos, state == FTNL_NODE_STATE_LEFT,
			   now, out);
}

/* ---- indirect probes -------------------------------------------------- */

/*
 * The confirmation rule (FTNL_RING_PROBE_HELPERS): with the quorum rule,
 * an observed death needs a strict majority of the members that did not
 * leave, the observer included.
 */
static bool ftnl_ring_confirming(const struct ftnl_ring_core *core)
{
	return core->quorum && core->probes;
}

/* Helpers for all rounds of one suspicion. */
static u32 ftnl_ring_probe_cap(const struct ftnl_ring_core *core)
{
	u32 half = core->det.n / 2;

	if (ftnl_ring_confirming(core))
		return core->det.n;	/* every live member, if need be */
	return half > FTNL_RING_PROBE_HELPERS ? half : FTNL_RING_PROBE_HELPERS;
}

/*
 * Helpers asked once the silence is established (or by a probe that
 * started late): k; with the confirmation rule the majority less this
 * node, plus k for helpers that died unnoticed (a run of failures).
 */
static u32 ftnl_ring_probe_first(const struct ftnl_ring_core *core)
{
	if (ftnl_ring_confirming(core))
		return (core->det.n - core->nleft) / 2 +
		       FTNL_RING_PROBE_HELPERS;
	return FTNL_RING_PROBE_HELPERS;
}

static bool ftnl_ring_probe_candidate(const struct ftnl_ring_core *core,
				      u32 pos)
{
	return pos != core->det.self && pos != core->probe.target &&
	       !ftnl_bit_test(core->dead, pos);
}

/*
 * Confirmations of the probe in progress: this node's own and those of
 * the helpers that answered it and are still alive here (one that died
 * or left since vouches for nothing now).
 */
static u32 ftnl_ring_probe_confirmations(const struct ftnl_ring_core *core)
{
	u32 pos, count = 1;

	for (pos = 0; pos < core->det.n; pos++)
		count += ftnl_ring_probe_candidate(core, pos) &&
			 core->peers[pos].probe_confirmed == core->probe.cid;
	return count;
}

/* @count confirmations are a strict majority of the members left. */
static bool ftnl_ring_probe_majority(const struct ftnl_ring_core *core,
				     u32 count)
{
	return 2 * count > core->det.n - core->nleft;
}

/*
 * Enough helpers answered to accuse (once the suspect's own answer would
 * be in): one, or with the confirmation rule a strict majority of the
 * members that did not leave. A walk over the members: at the judgement
 * only, not per answer (ftnl_ring_core_probe_rx() counts them).
 */
static bool ftnl_ring_probe_enough(const struct ftnl_ring_core *core)
{
	if (!ftnl_ring_confirming(core))
		return core->probe.heard_helper;
	return ftnl_ring_probe_majority(core,
					ftnl_ring_probe_confirmations(core));
}

/*
 * Helpers of this probe asked so far that are in D now: one that died
 * since (or was put out by another's accusation) answers nobody, and gives
 * its place under the cap back, so that a live member can still be asked
 * (ring-dst storm, seed 4894: of n = 9, the cap of 4 spent on helpers put
 * out after a storm, a live member never asked, and a live observer
 * resigned as unheard). Each gives it back once: the rounds still end.
 */
static u32 ftnl_ring_probe_asked_dead(const struct ftnl_ring_core *core)
{
	u32 pos, dead = 0;

	for (pos = 0; pos < core->det.n; pos++)
		dead += core->peers[pos].probe_asked == core->probe.id &&
			ftnl_bit_test(core->dead, pos);
	return dead;
}

/* PROBE_REQ of the probe in progress to @to (the suspect or a helper). */
static void ftnl_ring_probe_ask(const struct ftnl_ring_core *core, u32 to,
				const struct ftnl_ring_sink *out)
{
	const struct ftnl_ring_prober *p = &core->probe;
	const struct ftnl_ring_probe req = {
		.target = p->target,
		.origin = core->det.self,
		.id = p->id,
	};

	out->probe(out->ctx, to, FTNL_MSG_PROBE_REQ, &req);
}

/*
 * The host dropped or held this node's input at most the probe's wait
 * (ftnl_ring_probe_defer_ns()) ago: helpers' answers sent now would meet
 * the same backlog, and an accusation must be verified again after the
 * drops anyway (ftnl_ring_probe_judge()), so a request to a helper now
 * buys nothing and feeds the overload. n = 64 in one emulated guest, h =
 * 10 ms, idle (Documentation/bench.rst): every node's round asking its
 * majority again while the one backlog they share overflowed made 11.4
 * million probe datagrams in 300 s against 825,000 of the ring's, and
 * the backlog dropped 9.6 million. So while it lasts the helpers are
 * marked asked but not sent to (counted in @asks_held); the next retry
 * after it asks them (ftnl_ring_probe_retry()), and the round, short of
 * answers for it, is held open as for drops (ftnl_ring_probe_self_late()).
 * The suspect is still asked: its own answer ends the suspicion.
 */
static bool ftnl_ring_probe_held(const struct ftnl_ring_core *core, u64 now)
{
	const struct ftnl_ring_detector *det = &core->det;
	u64 wait = ftnl_ring_probe_defer_ns(ftnl_ring_det_lead(det),
					    det->period_ns);

	return wait && det->rx_dropped_at && now < det->rx_dropped_at + wait;
}

/*
 * PROBE_REQ to helper @to, unless the host's input is @held (see above):
 * then only noted, at @now.
 */
static void ftnl_ring_probe_ask_helper(struct ftnl_ring_core *core, u32 to,
				       bool held, u64 now,
				       const struct ftnl_ring_sink *out)
{
	if (held) {
		core->asks_held++;
		core->probe.held_at = now;
		return;
	}
	ftnl_ring_probe_ask(core, to, out);
}

/*
 * One round: PROBE_REQ to up to @size more helpers, walking forward from
 * the cursor (the observer's side first, away from a run of failures
 * behind it); the round closes 2d later. Return: helpers asked (none:
 * no new round).
 */
static u32 ftnl_ring_probe_round(struct ftnl_ring_core *core, u32 size,
				 u64 now, const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_prober *p = &core->probe;
	u32 cap = ftnl_ring_probe_cap(core) + ftnl_ring_probe_asked_dead(core);
	bool held = ftnl_ring_probe_held(core, now);
	u32 asked = 0, steps;

	for (steps = 0; steps < core->det.n && asked < size && p->asked < cap;
	     steps++) {
		u32 pos = p->cursor;

		p->cursor = ftnl_ring_succ(pos, core->det.n);
		/* The confirmation rule's second round: the rest only. */
		if (!ftnl_ring_probe_candidate(core, pos) ||
		    (ftnl_ring_confirming(core) &&
		     core->peers[pos].probe_asked == p->id))
			continue;
		core->peers[pos].probe_asked = p->id;
		ftnl_ring_probe_ask_helper(core, pos, held, now, out);
		asked++;
		p->asked++;
	}
	/* Nobody new: the round in progress goes on as it was. */
	if (!asked)
		return 0;
	p->round_size = asked;
	p->started = now;
	p->close = now + 2 * core->det.timeout_ns;
	/* A later round's; the first, in time, from the deadline (its caller). */
	p->retry_at = now + core->det.timeout_ns / 2;
	return asked;
}

/*
 * No helper to ask: the suspect's own answer is the only evidence it
 * lives, and the deadline judges it alone. One request and one answer,
 * each lost now and then, would make a silence of d that lost heartbeats
 * alone made into an accusation (ring-dst lossy 1 9271: 3 nodes, one
 * crashed, a live emitter accused when the answer to the single request
 * was lost). So the suspect is asked every FTNL_RING_PROBE_RETRY_ALONE
 * until the deadline: four requests from the probe lead before it, the
 * last with a quarter of the lead for its answer. Detection time does not
 * change.
 */
static void ftnl_ring_probe_alone_next(struct ftnl_ring_core *core, u64 now)
{
	struct ftnl_ring_detector *det = &core->det;
	u64 step = FTNL_RING_PROBE_RETRY_ALONE(ftnl_ring_det_lead(det));
	u64 next = now + step;

	if (step && next < det->susp_deadline) {
		core->probe.retry_at = next;
		ftnl_ring_det_rearm(det, next);
	}
}

/* Before the deadline, the probe that has no helper asks the suspect again. */
static void ftnl_ring_probe_ask_alone(struct ftnl_ring_core *core, u64 now,
				      const struct ftnl_ring_sink *out)
{
	const struct ftnl_ring_prober *p = &core->probe;

	if (p->asked || p->heard_alive || now < p->retry_at)
		return;
	ftnl_ring_probe_ask(core, p->target, out);
	ftnl_ring_probe_alone_next(core, now);
}

/*
 * A new probe of the emitter, under a new identifier: answers to an
 * earlier one (of this suspect too) count for nothing. The suspect is
 * asked too, directly: when only its heartbeats were lost, its own answer
 * refutes the suspicion, even with no helper to ask (two nodes). In time
 * (@late false, the probe lead before the deadline) it asks k helpers,
 * and asks them again from the deadline: most probes are of a heartbeat
 * merely late, which the deadline never sees (n = 64
 * in one emulated guest, h = 10 ms, d = 30 ms: a first round of the
 * majority made 2.7 million probe datagrams in 20 s against 137,000
 * heartbeats, and the input backlog dropped as many, heartbeats too).
 * Late (the timer ran past the time to probe), the silence is already
 * established and it asks what the deadline would. Return: some helper
 * was asked (the probe stays active either way, waiting for the
 * suspect's answer).
 */
static bool ftnl_ring_probe_start(struct ftnl_ring_core *core, u64 now,
				  bool late, const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_prober *p = &core->probe;

	if (!++core->probe_ids)
		core->probe_ids = 1;
	*p = (struct ftnl_ring_prober){
		.active = true,
		.escalated = late,
		.id = core->probe_ids,
		.cid = core->probe_ids,
		.target = core->det.emitter,
		.cursor = ftnl_ring_succ(core->det.self, core->det.n),
	};
	ftnl_ring_probe_ask(core, p->target, out);
	if (ftnl_ring_probe_round(core, late ? ftnl_ring_probe_first(core) :
				  FTNL_RING_PROBE_HELPERS, now, out)) {
		if (!late && core->det.susp_deadline > now)
			p->retry_at = core->det.susp_deadline;
		return true;
	}
	ftnl_ring_probe_alone_next(core, now);
	return false;
}

/*
 * The probe is due, but this node's host holds or drops its input: it was
 * reported (ftnl_ring_det_rx_dropped(), which ring.c calls for held input
 * too) at this expiry, or less than ftnl_ring_probe_defer_ns() before it.
 * The heartbeat that seems late may still wait in the backlog, and
 * requests sent now, with their answers and relays, only lengthen it:
 * every node of a loaded host probing its late emitter was the probe
 * storm (n = 32 in one guest, 6.1, four busy loops per CPU, ten minutes:
 * 8.9 million probe datagrams, 5.4 per heartbeat, 8.4 million input
 * datagrams dropped). So the probe waits that long, and the deadline
 * moves with it, so that the probe keeps its full lead. Nothing is judged
 * meanwhile: while the host goes on holding its input, a silent emitter
 * is judged later, as verifications already restart after drops.
 * Return: the probe was put off.
 */
static bool ftnl_ring_probe_defer(struct ftnl_ring_core *core, u64 now)
{
	struct ftnl_ring_detector *det = &core->det;
	u64 lead = ftnl_ring_det_lead(det);
	u64 wait = ftnl_ring_probe_defer_ns(lead, det->period_ns);

	if (!ftnl_ring_probe_held(core, now))
		return false;
	if (det->susp_deadline < now + wait + lead)
		det->susp_deadline = now + wait + lead;
	core->deferred++;
	ftnl_ring_det_rearm(det, ftnl_ring_det_wake(det));
	return true;
}

/*
 * The deadline passed short of enough answers: the silent helpers, and
 * the suspect, are asked again every FTNL_RING_PROBE_RETRY until the
 * round closes (its close unmoved). Each answer takes two datagrams, and
 * a majority many answers: on a lossy network one lost would otherwise
 * cost a live observer its membership (ring-dst's lossy mode, 5 % loss:
 * an observer of 7 nodes resigned when one request and its single retry
 * were both lost; one of 5 without the quorum rule, when its few helpers'
 * answers were; one of 7 whose majority needed every live member, when
 * one member's request or answer was lost four times, every d/2).
 * Return: when to ask again.
 */
static u64 ftnl_ring_probe_retry(struct ftnl_ring_core *core, u64 now,
				 const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_prober *p = &core->probe;
	bool held;
	u32 pos;

	if (now < p->retry_at)
		return p->retry_at;
	held = ftnl_ring_probe_held(core, now);
	p->retry_at = now + (p->paced ? core->det.timeout_ns :
			     FTNL_RING_PROBE_RETRY(&core->det));
	ftnl_ring_probe_ask(core, p->target, out);
	for (pos = 0; pos < core->det.n; pos++)
		if (ftnl_ring_probe_candidate(core, pos) &&
		    core->peers[pos].probe_asked == p->id &&
		    core->peers[pos].probe_confirmed != p->cid)
			ftnl_ring_probe_ask_helper(core, pos, held, now, out);
	return p->retry_at;
}

/*
 * Nobody is left to ask: Algorithm 1 as written accuses; with the
 * confirmation rule this node alone is no majority, and resigns. Either
 * way on this node's evidence alone, which drops of its host's input
 * (ftnl_ring_det_rx_dropped()) may have made: the heartbeats and the
 * suspect's answers may be among them (ring-dst blackout 1 7: two nodes,
 * the host dropped 5d of input, a live emitter accused). So a silence
 * during drops is judged only d after the last one, as if a heartbeat had
 * arrived then.
 */
static enum ftnl_ring_expiry ftnl_ring_probe_alone(struct ftnl_ring_core *core,
						   u64 now,
						   const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_detector *det = &core->det;

	if (det->rx_dropped_at && now < det->rx_dropped_at + det->timeout_ns) {
		det->stall_waits++;
		core->probe.active = false;
		ftnl_ring_det_rearm(det, det->rx_dropped_at + det->timeout_ns);
		return FTNL_RING_WAIT;
	}
	if (!ftnl_ring_confirming(core))
		return FTNL_RING_SUSPECT;
	ftnl_ring_core_resign(core, FTNL_RING_UNCONFIRMED, out);
	return FTNL_RING_RESIGNED;
}

/*
 * Enough helpers said they hear this node, and the suspect stayed silent
 * until now, the suspect's time to answer included. But those answers came
 * before the silence ended: an observer whose receive path failed since
 * heard nothing more of the suspect for its own fault, and that is no
 * evidence of a death (ring-dst deaf, seed 7483: two helpers' answers,
 * then deaf, then a live emitter accused). So the confirmations start
 * again under a new identifier (@cid): only answers received from now on
 * count, proof that this node still hears, so that it heard through the
 * whole silence (a receive path that failed stays failed). The helpers
 * that were asked, and the suspect, are asked again at once and every
 * FTNL_RING_PROBE_RETRY; the round closes 2d from now, as a round does.
 * Return: when to come back.
 */
static u64 ftnl_ring_probe_verify(struct ftnl_ring_core *core, u64 now,
				  const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_prober *p = &core->probe;

	if (!++core->probe_ids)
		core->probe_ids = 1;
	p->cid = core->probe_ids;
	core->verified++;
	/*
	 * The suspect is asked again now, and gets a round trip for its
	 * answer, measured from now by the confirmations received: the time
	 * to answer of the first round would let one helper's quick answer
	 * accuse at once, and the suspect's answers of that round may all
	 * have been lost - on a lossy network (ring-dst lossy 1 15690, 5 %
	 * loss: four heartbeats and the three first-round requests to the
	 * suspect lost, a live emitter accused 0.6 ms into the verification)
	 * or among the host's drops (ring-dst blackout with drops only
	 * counted; kmod-ring-core, *host-drop rule off*).
	 */
	p->started = now;
	p->decide_at = 0;
	p->verify_from = now;
	p->heard_helper = false;
	p->confirmed = 0;
	p->close = now + 2 * core->det.timeout_ns;
	p->retry_at = now;
	return ftnl_ring_probe_retry(core, now, out);
}

/*
 * The deadline passed with the confirmation rule short of its majority
 * (the first round asked k helpers): the silence is established, so the
 * helpers asked are verified (ftnl_ring_probe_verify()) and the round
 * grows to the majority less this node, plus k, its new helpers asked
 * now; the round then closes 2d from now. The suspect's relayed answer gets
 * twice the round trip of the majority's last answer, measured from now,
 * not from the first round: a suspect that came up or resumed since
 * (ring-dst forming 1 2066: an emitter configured with the majority,
 * accused as soon as the majority answered) must be heard before it is
 * accused. The accusation comes about 4t after the deadline instead of
 * 2t, and only a silence of d pays for the majority's requests. Return:
 * when to come back.
 */
static u64 ftnl_ring_probe_escalate(struct ftnl_ring_core *core, u64 now,
				    const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_prober *p = &core->probe;
	u32 first = ftnl_ring_probe_first(core);
	u64 close = p->close;
	u64 again = ftnl_ring_probe_verify(core, now, out);

	p->escalated = true;
	/*
	 * Nobody new to ask (the first round asked every live member): the
	 * round closes when it would have, so that a deaf node on a small
	 * cluster resigns as early as before - unless that leaves the
	 * verification less than d: the deadline moved on past most of the
	 * round (a new emitter's local health wait, a probe put off), and
	 * the answers to the requests sent now could come after the close
	 * (ring-dst blackout 1 3782 with probes put off: verified 10 ms
	 * before the close, one helper of two heard by then, and the live
	 * observer resigned).
	 */
	if (ftnl_ring_probe_round(core, first > p->asked ? first - p->asked :
				  0, now, out) ||
	    close < now + core->det.timeout_ns)
		close = now + 2 * core->det.timeout_ns;
	p->started = now;
	p->close = close;
	p->retry_at = again;
	p->decide_at = 0;
	/*
	 * Still waiting for its first emitter: the majority that answers
	 * may be coming up now, the emitter with it, its first heartbeats
	 * held until its life is proven (ring-dst forming 1 3415: 8 of 15
	 * configured 37 ms after the deadline, the emitter accused 2 ms
	 * after it started): once the majority is heard, it gets a new
	 * emitter's 2d (ftnl_ring_probe_formed()).
	 */
	if (core->det.booting)
		p->awaited = true;
	return again;
}

/*
 * Verifying, and the helpers asked again have not made enough by the first
 * retry: some of them may have failed since they answered, and they would
 * hold the accusation until the round closes, 2d later
 * (selftests/bcast_forwarders, bmg: four of the first round's helpers cut
 * off after they answered left a majority one short). So the next round
 * runs now rather than at the close: with the confirmation rule every
 * other live member, without it twice as many helpers. Once per suspicion,
 * and only when short: in the usual case the verification asks nobody it
 * did not ask before. Return: when to come back.
 */
static u64 ftnl_ring_probe_widen(struct ftnl_ring_core *core, u64 now,
				 const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_prober *p = &core->probe;

	p->widened = true;
	ftnl_ring_probe_round(core, ftnl_ring_confirming(core) ? core->det.n :
			      2 * p->round_size, now, out);
	p->retry_at = now + FTNL_RING_PROBE_RETRY(&core->det);
	return p->retry_at;
}

/* When the current probe round opened: its close less the round's 2d. */
static u64 ftnl_ring_probe_opened(const struct ftnl_ring_core *core)
{
	return core->probe.close - 2 * core->det.timeout_ns;
}

/*
 * Input the host dropped, or a timer of this node's own ran late, since
 * @since: the round goes on because this node could not hear or did not
 * run. Its requests and their answers then share the overflowing backlog
 * or the starved CPU with everything else, so asking every
 * FTNL_RING_PROBE_RETRY only feeds the overload: every node of a loaded
 * host extending its round and asking its majority every d/4 (6.12, 32
 * nodes in one guest under four busy loops per CPU, ten minutes: 28
 * million probe datagrams, 20 million dropped; 6.1, whose timers fired
 * 13 % of the times due and kept rounds open for their own lateness: 4.8
 * million). So such a round asks every d (@paced): at its start and once
 * more before it closes, and again at each extension while it goes on;
 * likewise one whose requests were held (ftnl_ring_probe_held()).
 */
static void ftnl_ring_probe_pace(struct ftnl_ring_core *core, u64 since)
{
	const struct ftnl_ring_detector *det = &core->det;

	core->probe.paced = (det->rx_dropped_at && det->rx_dropped_at >= since) ||
			    (det->late_at && det->late_at >= since) ||
			    (core->probe.held_at && core->probe.held_at >= since);
}

/*
 * The local health rule, for this node's judgement of itself: a round
 * that closes short of answers says this node cannot hear (or is on a
 * minority side) only if it ran all along. If one of its own timers ran
 * more than h late since the round opened - this expiry more than h after
 * the close, or one reported by ftnl_ring_det_self_late() - the answers
 * may wait unread behind its own stall; if its host dropped input since
 * (ftnl_ring_det_rx_dropped()), they may be among the drops, and if it
 * held requests since (ftnl_ring_probe_held()), they were never asked
 * (selftests/bcast_notify on a host
 * running two emulated guests: the nodes of one guest resigned together
 * when their timers ran again up to 470 ms late, after closes they had
 * slept through). Only the self-judgement waits: an accusation still needs
 * answers received after the silence (ftnl_ring_probe_verify()).
 */
static bool ftnl_ring_probe_self_late(const struct ftnl_ring_core *core,
				      u64 now)
{
	const struct ftnl_ring_detector *det = &core->det;
	u64 opened = ftnl_ring_probe_opened(core);

	return now > core->probe.close + det->period_ns ||
	       (det->late_at && det->late_at >= opened) ||
	       (det->rx_dropped_at && det->rx_dropped_at >= opened) ||
	       (core->probe.held_at && core->probe.held_at >= opened);
}

/*
 * The probe round is open 2d more from now: the suspect and the silent
 * helpers asked again at once. Return: when to ask them again.
 */
static u64 ftnl_ring_probe_reopen(struct ftnl_ring_core *core, u64 now,
				  const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_prober *p = &core->probe;

	p->started = now;
	p->close = now + 2 * core->det.timeout_ns;
	p->retry_at = now;
	return ftnl_ring_probe_retry(core, now, out);
}

/*
 * The round of a node that was late is reopened, its suspect and silent
 * helpers asked again at once and every d (ftnl_ring_probe_pace()). Each
 * extension needs a new lateness, so a node that runs on time again
 * resigns at the next close; counted with the rule's other waits.
 * Return: when to come back.
 */
static u64 ftnl_ring_probe_extend(struct ftnl_ring_core *core, u64 now,
				  const struct ftnl_ring_sink *out)
{
	u64 again;

	/* Only lateness or drops extend a round: it is always paced. */
	core->probe.paced = true;
	again = ftnl_ring_probe_reopen(core, now, out);

	core->det.stall_waits++;
	return again < core->probe.close ? again : core->probe.close;
}

/*
 * The cluster may still be forming around a node that waits for its
 * first emitter under the boot grace: members are configured one after
 * another, and those not configured yet answer nobody. Its last round
 * closing with helpers heard but short of a majority then says that the
 * majority is not up yet, not that this node is on a minority side, so it
 * waits for the majority instead of resigning (selftests/bcast_notify on a
 * loaded host: 32 nodes configured over 100 s; the first resigned when
 * its grace ended with 10 up, then its observer, and so on down the
 * ring, each short of a majority). It still accuses only with one. A node
 * that no helper answers resigns as before: alone, it cannot tell its own
 * deafness from nobody else being up.
 */
static bool ftnl_ring_probe_forming(const struct ftnl_ring_core *core)
{
	return core->det.booting && core->probe.heard_helper &&
	       ftnl_ring_confirming(core);
}

/*
 * While the cluster forms, the silent helpers and the suspect are asked
 * again once per round of 2d, not every FTNL_RING_PROBE_RETRY: a node may
 * wait so for minutes, at up to n requests a round. Return: the close.
 */
static u64 ftnl_ring_probe_await(struct ftnl_ring_core *core, u64 now,
				 const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_prober *p = &core->probe;

	core->det.forming_waits++;
	p->awaited = true;
	ftnl_ring_probe_reopen(core, now, out);
	p->retry_at = p->close;
	return p->close;
}

/*
 * The majority came up while this node waited for it: the cluster has
 * formed, and the emitter may have come up with it, its first datagrams
 * (its answers too) held until its life is proven (HELLO) - ring-dst
 * forming 1 5160: the emitter started with the majority, and was accused
 * 11 ms after it started. So it gets what a new emitter gets, 2d from
 * now (Algorithm 1, line 19), and is judged again by the rules of a
 * formed cluster.
 */
static void ftnl_ring_probe_formed(struct ftnl_ring_core *core, u64 now)
{
	struct ftnl_ring_detector *det = &core->det;

	core->probe.active = false;
	det->booting = false;
	det->stall_grace = false;
	det->susp_deadline = now + 2 * det->timeout_ns;
	ftnl_ring_det_rearm(det, ftnl_ring_det_wake(det));
}

/*
 * When a verification's evidence covers the suspect's silence, the input
 * its host dropped or held notwithstanding: a datagram that waited in the
 * backlog is read once it drains, and a live suspect heartbeats within h,
 * its datagram arriving within the next - 2h after the last hold
 * (ring-dst drops 1 90: the drops ended 5 ms before a fast helper's
 * answer accused, h = 10 ms). A dropped one is gone, and the heartbeat
 * the suspect sent just before a stall of less than d - h, which a live
 * node may make, may be among the drops: its silence since is one it
 * made only from d after the last drop (ring-dst drops 1 16075 and
 * 12278: a suspect that stalled as the drops ended was accused 2h after
 * them). Held input, the kind a busy guest reports most, keeps 2h, so
 * that detection is not held d per report (selftests/bcast_forwarders
 * missed its bound of d + 1 s with every report held d). 0 when nothing
 * was ever reported.
 */
static u64 ftnl_ring_probe_heard_by(const struct ftnl_ring_detector *det)
{
	u64 held = det->rx_dropped_at ?
		   det->rx_dropped_at + 2 * det->period_ns : 0;
	u64 gone = det->rx_gone_at ? det->rx_gone_at + det->timeout_ns : 0;

	return held > gone ? held : gone;
}

/*
 * The deadline passed: what the probe says. FTNL_RING_SUSPECT when enough
 * helpers hear this node (ftnl_ring_probe_enough()) and none relayed an
 * answer of the suspect (or nobody is left to ask, without the
 * confirmation rule: Algorithm 1 as written); FTNL_RING_WAIT while the
 * round is open or a new one runs; FTNL_RING_RESIGNED when the last round
 * closed without enough: no helper answered (the fault is this node's
 * own), or too few for a majority (this node is on a minority side).
 */
static enum ftnl_ring_expiry ftnl_ring_probe_judge(struct ftnl_ring_core *core,
						   u64 now,
						   const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_prober *p = &core->probe;
	struct ftnl_ring_detector *det = &core->det;

	if (!p->active || p->target != det->emitter) {
		/* The timer ran past the time to probe (a stall): now. */
		if (!ftnl_ring_probe_start(core, now, true, out))
			return ftnl_ring_probe_alone(core, now, out);
	} else if (p->heard_alive) {
		/*
		 * It answers: only its heartbeats to this node are lost. Its
		 * answer is as fresh as a heartbeat: a new deadline d from
		 * now, probed again the lead before it (a new probe decided at
		 * once would not wait for the suspect's answer); and tell it
		 * again who observes it.
		 */
		core->refuted++;
		p->active = false;
		ftnl_ring_det_refuted(det, now);
		ftnl_ring_send(det, out, det->emitter, FTNL_MSG_NEW_OBSERVER);
		return FTNL_RING_WAIT;
	} else if (!p->asked) {
		/* Nobody to ask but the suspect, and it did not answer. */
		return ftnl_ring_probe_alone(core, now, out);
	} else if (ftnl_ring_confirming(core) && !p->escalated) {
		det->stall_grace = true;
		ftnl_ring_det_rearm(det, ftnl_ring_probe_escalate(core, now,
								  out));
		return FTNL_RING_WAIT;
	} else if (p->decide_at && ftnl_ring_probe_enough(core)) {
		u64 again = p->decide_at;

		if (p->awaited) {
			ftnl_ring_probe_formed(core, now);
			return FTNL_RING_WAIT;
		}
		/*
		 * Heard after the silence ended: it heard all of it - unless
		 * its host dropped or held input since the verification
		 * began: the suspect's answers, or the helpers' news of them,
		 * may be among it. Verified again then. And the suspect's
		 * silence since the last report must be one it made
		 * (ftnl_ring_probe_heard_by()).
		 */
		if (now >= p->decide_at && p->verify_from &&
		    det->rx_dropped_at < p->verify_from) {
			u64 heard = ftnl_ring_probe_heard_by(det);

			if (now >= heard)
				return FTNL_RING_SUSPECT;
			again = heard;
		} else if (now >= p->decide_at) {
			ftnl_ring_probe_pace(core, p->verify_from ?
					     p->verify_from : p->started);
			again = ftnl_ring_probe_verify(core, now, out);
		}
		det->stall_grace = true;
		ftnl_ring_det_rearm(det, again);
		return FTNL_RING_WAIT;
	} else if (now >= p->close &&
		   ftnl_ring_probe_self_late(core, now)) {
		det->stall_grace = true;
		ftnl_ring_det_rearm(det, ftnl_ring_probe_extend(core, now, out));
		return FTNL_RING_WAIT;
	} else if (now >= p->close &&
		   !ftnl_ring_probe_round(core, ftnl_ring_confirming(core) ?
					  det->n : 2 * p->round_size, now, out)) {
		if (ftnl_ring_probe_forming(core)) {
			det->stall_grace = true;
			ftnl_ring_det_rearm(det,
					    ftnl_ring_probe_await(core, now, out));
			return FTNL_RING_WAIT;
		}
		ftnl_ring_core_resign(core, p->heard_helper ?
				      FTNL_RING_UNCONFIRMED : FTNL_RING_UNHEARD,
				      out);
		return FTNL_RING_RESIGNED;
	} else if (now < p->close) {
		bool widen = p->verify_from && !p->widened &&
			     now >= p->retry_at;
		u64 again = ftnl_ring_probe_retry(core, now, out);

		if (widen)
			again = ftnl_ring_probe_widen(core, now, out);
		det->stall_grace = true;
		ftnl_ring_det_rearm(det, again < p->close ? again : p->close);
		return FTNL_RING_WAIT;
	}
	/* The stall guard already had its turn at this deadline. */
	det->stall_grace = true;
	ftnl_ring_det_rearm(det, p->close);
	return FTNL_RING_WAIT;
}

/* Past the deadline the timer waits for the round's close: come sooner. */
static void ftnl_ring_probe_wake(struct ftnl_ring_core *core, u64 at)
{
	struct ftnl_ring_detector *det = &core->det;

	if (det->timer_at && at < det->timer_at &&
	    det->susp_deadline < det->timer_at)
		ftnl_ring_det_rearm(det, at > det->susp_deadline ? at :
				    det->susp_deadline);
}

static bool ftnl_ring_probe_spend(struct ftnl_ring_core *core)
{
	if (!core->probe_budget) {
		core->throttled++;
		return false;
	}
	core->probe_budget--;
	return true;
}

/**
 * ftnl_ring_core_probe_rx - PROBE_REQ or PROBE_ACK from @from
 * @core: the state
 * @from: its sender
 * @type: FTNL_MSG_PROBE_REQ or FTNL_MSG_PROBE_ACK
 * @probe: what it carries (positions checked by the caller: < n)
 * @now: current time
 * @out: the sink
 *
 * The suspect answers a request with PROBE_ACK (alive). A helper answers
 * the origin itself at once (it hears it) and forwards the request to the
 * suspect, unless the suspect is dead here; it relays the suspect's answer
 * to the origin. Every answer carries the request's identifier. The
 * origin records what it hears for the probe that identifier names (a
 * helper's answer once per helper asked: its confirmation). Each datagram
 * costs at most two sends, and requests and relays are served
 * FTNL_RING_PROBE_BUDGET times per period at most (n/2 more with the
 * quorum rule: ftnl_ring_probe_budget()).
 */
void ftnl_ring_core_probe_rx(struct ftnl_ring_core *core, u32 from, u8 type,
			     const struct ftnl_ring_probe *probe, u64 now,
			     const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_prober *p = &core->probe;
	u32 self = core->det.self;
	struct ftnl_ring_probe ack = {
		.target = probe->target,
		.origin = probe->origin,
		.id = probe->id,
	};

	if (!core->running || !core->probes || from == self ||
	    probe->target >= core->det.n || probe->origin >= core->det.n)
		return;
	if (type == FTNL_MSG_PROBE_REQ) {
		if (probe->target == self) {
			ack.alive = true;
			if (ftnl_ring_probe_spend(core))
				out->probe(out->ctx, from, FTNL_MSG_PROBE_ACK,
					   &ack);
			return;
		}
		/* A helper serves the observer that asks, for another node. */
		if (probe->origin != from || probe->target == from ||
		    !ftnl_ring_probe_spend(core))
			return;
		out->probe(out->ctx, from, FTNL_MSG_PROBE_ACK, &ack);
		if (!ftnl_bit_test(core->dead, probe->target))
			out->probe(out->ctx, probe->target, FTNL_MSG_PROBE_REQ,
				   probe);
		return;
	}
	if (type != FTNL_MSG_PROBE_ACK)
		return;
	if (probe->origin == self) {
		struct ftnl_ring_peer *helper = &core->peers[from];

		if (!p->active || p->target != probe->target ||
		    probe->id != p->id)
			return;
		if (probe->alive) {
			p->heard_alive = true;
			return;
		}
		if (helper->probe_asked != p->id ||
		    helper->probe_confirmed == p->cid)
			return;
		helper->probe_confirmed = p->cid;
		p->heard_helper = true;
		p->confirmed++;
		/*
		 * Counted, not walked: a helper that died since still counts
		 * here; the judgement walks the live ones.
		 */
		if (ftnl_ring_confirming(core) &&
		    !ftnl_ring_probe_majority(core, 1 + p->confirmed))
			return;
		/*
		 * The request and this answer crossed twice; the suspect's
		 * answer crosses twice more.
		 */
		if (!p->decide_at)
			p->decide_at = p->started + 2 * (now - p->started);
		/* Verifying: the suspect's time to answer is long over. */
		ftnl_ring_probe_wake(core, p->decide_at > now ? p->decide_at :
				     now);
		return;
	}
	/* The suspect's own answer, for the helper to relay. */
	if (!probe->alive || from != probe->target || probe->origin == from ||
	    ftnl_bit_test(core->dead, probe->origin) ||
	    !ftnl_ring_probe_spend(core))
		return;
	out->probe(out->ctx, probe->origin, FTNL_MSG_PROBE_ACK, probe);
}

/**
 * ftnl_ring_core_expire - the suspicion timer fired (task T3 when due)
 * @core: the state
 * @now: current time
 * @out: the sink
 *
 * With probes on, the emitter is probed first ((d - h)/2 before the
 * deadline) and declared dead only as ftnl_ring_probe_judge() allows;
 * with the quorum rule, only if this node keeps a majority.
 *
 * Return: enum ftnl_ring_expiry; FTNL_RING_SUSPECT when the emitter was
 * declared dead, FTNL_RING_RESIGNED when this node gave up its membership
 * instead. The timer's next expiry: ftnl_ring_core_take_timer().
 */
enum ftnl_ring_expiry ftnl_ring_core_expire(struct ftnl_ring_core *core,
					    u64 now,
					    const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_detector *det = &core->det;
	enum ftnl_ring_expiry what;

	if (!core->running) {
		det->timer_at = 0;
		if (!core->expelled || !core->comeback_at)
			return FTNL_RING_IDLE;
		if (now >= core->comeback_at)
			return FTNL_RING_COMEBACK;
		ftnl_ring_det_rearm(det, core->comeback_at);
		return FTNL_RING_WAIT;
	}
	what = ftnl_ring_det_expire(det, now);
	if ((what == FTNL_RING_PROBE || what == FTNL_RING_SUSPECT) &&
	    ftnl_ring_update_hold(core, now))
		return FTNL_RING_WAIT;
	if (what == FTNL_RING_PROBE) {
		if (!core->probes)
			return FTNL_RING_WAIT;
		if (!(core->probe.active && core->probe.target == det->emitter)) {
			if (!ftnl_ring_probe_defer(core, now))
				ftnl_ring_probe_start(core, now, false, out);
		} else {
			ftnl_ring_probe_ask_alone(core, now, out);
		}
		return FTNL_RING_WAIT;
	}
	if (what != FTNL_RING_SUSPECT)
		return what;
	if (core->probes) {
		what = ftnl_ring_probe_judge(core, now, out);
		if (what != FTNL_RING_SUSPECT)
			return what;
	}
	core->probe.active = false;
	ftnl_ring_core_failure_learned(core, det->emitter, FTNL_NODE_STATE_DEAD,
				       FTNL_CAUSE_OBSERVED, det->self, now, out);
	if (core->resigned)
		return FTNL_RING_RESIGNED;
	/* The new emitter's probe, like its deadline, comes in time. */
	if (det->observing)
		ftnl_ring_det_rearm(det, ftnl_ring_det_wake(det));
	return FTNL_RING_SUSPECT;
}

/*
 * A node this one holds dead is still talking: tell it (EXPELLED, with the
 * incarnation that died), from 2d after the death on (a zombie that just
 * accused a live member is told before it tells it: see
 * FTNL_RING_EXPEL_HOLD), at most twice per h per node. Only a death says
 * so: a node that left said goodbye itself. A node declared dead before
 * anyone alive heard it (its observer took over while it was frozen)
 * died in an incarnation no one knows: the first one heard from it since
 * is taken as that one - a frozen node speaks the moment it resumes, a
 * restarted one only after booting, and a restarted one that was told
 * comes back again as a newer incarnation. That guess is told only
 * FTNL_RING_GUESS_HOLD after it is made: a member that knew the dead
 * life may have admitted this one, and its JOIN refutes the guess
 * (ftnl_ring_core_join_heard()).
 */
static void ftnl_ring_core_tell_dead(struct ftnl_ring_core *core, u32 pos,
				     u64 incarnation, u64 now,
				     const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];

	if (peer->state != FTNL_NODE_STATE_DEAD || !out->expel ||
	    pos == core->det.self)
		return;
	if (!peer->dead_incarnation) {
		peer->dead_incarnation = incarnation;
		peer->incarnation = incarnation;
		peer->dead_guessed = true;
		if (peer->expel_next < now + FTNL_RING_GUESS_HOLD(&core->det))
			peer->expel_next = now + FTNL_RING_GUESS_HOLD(&core->det);
	}
	if (!peer->dead_incarnation || now < peer->expel_next)
		return;
	peer->expel_next = now + core->det.period_ns / 2;
	out->expel(out->ctx, pos, peer->dead_incarnation);
}

/* D is not empty. */
static bool ftnl_ring_dead_any(const struct ftnl_ring_core *core)
{
	size_t i;

	for (i = 0; i < ftnl_bitmap_longs(core->det.n); i++)
		if (core->dead[i])
			return true;
	return false;
}

/*
 * The flap rule: rejoins of a node are counted in windows of W that start
 * at the first rejoin of each; the (K+1)-th within one is refused, and the
 * node is held out until the window ends (heard again after that, it
 * rejoins). Return: the rejoin may go ahead (it is counted).
 */
static bool ftnl_ring_flap_admit(struct ftnl_ring_core *core,
				 struct ftnl_ring_peer *peer, u64 now)
{
	if (!peer->flap_count || now - peer->flap_since >= core->flap_window_ns) {
		peer->flap_since = now;
		peer->flap_count = 0;
	}
	if (peer->flap_count >= core->flap_max)
		return false;
	peer->flap_count++;
	return true;
}

/* The flap rule refused the node at @pos: it stays in D, held out. */
static void ftnl_ring_hold_out(struct ftnl_ring_core *core, u32 pos,
			       const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];

	if (peer->state == FTNL_NODE_STATE_HELD_OUT)
		return;
	peer->state = FTNL_NODE_STATE_HELD_OUT;
	ftnl_bit_set(core->dead, pos);
	if (out->held_out)
		out->held_out(out->ctx, pos);
}

/*
 * A new incarnation of the node at @pos, dead here or known in an older
 * life, becomes a member: it leaves D and the ring is re-evaluated around
 * it. An older life known alive is published dead (and broadcast when
 * found here), but the ring is not repaired around it first: the node
 * keeps its place, and a NEW_OBSERVER sent for a moment's repair would
 * steal its emitter's heartbeats. @admitting: this node heard it (rejoin
 * auto and the flap rule decide; the sink broadcasts the JOIN); else a
 * JOIN broadcast says another member admitted it, which every member
 * obeys so that all agree.
 */
static bool ftnl_ring_rejoin(struct ftnl_ring_core *core, u32 pos,
			     u64 incarnation, u64 first, u32 observer, u64 now,
			     bool admitting, const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];
	u8 was;

	if (pos == core->det.self || !core->running || !core->rejoin_auto ||
	    incarnation <= peer->dead_incarnation ||
	    (peer->state == FTNL_NODE_STATE_ALIVE &&
	     incarnation <= peer->incarnation))
		return false;
	if (admitting && !ftnl_ring_flap_admit(core, peer, now)) {
		if (peer->state == FTNL_NODE_STATE_ALIVE)
			ftnl_ring_core_failure_learned(core, pos,
						       FTNL_NODE_STATE_DEAD,
						       FTNL_CAUSE_RESTARTED,
						       observer, now, out);
		ftnl_ring_hold_out(core, pos, out);
		return false;
	}
	was = peer->state;
	if (!admitting &&
	    (!peer->flap_count || now - peer->flap_since >= core->flap_window_ns)) {
		peer->flap_since = now;
		peer->flap_count = 0;
	}
	if (!admitting)
		peer->flap_count++;
	if (peer->state == FTNL_NODE_STATE_ALIVE && peer->incarnation) {
		peer->state = FTNL_NODE_STATE_DEAD;
		peer->cause = admitting ? FTNL_CAUSE_RESTARTED :
					  FTNL_CAUSE_BROADCAST;
		peer->observer = observer;
		peer->dead_incarnation = peer->incarnation;
		out->failed(out->ctx, pos, admitting);
	}
	/*
	 * Every earlier life is over, even one never heard here: later
	 * news about any of them (named, or bare) is stale.
	 */
	peer->dead_incarnation = incarnation - 1;
	/* Out of the counts the quorum rule uses (an alive life was not in). */
	if (was == FTNL_NODE_STATE_LEFT)
		core->nleft--;
	else if (was != FTNL_NODE_STATE_ALIVE)
		core->ndead--;
	peer->state = FTNL_NODE_STATE_ALIVE;
	peer->incarnation = incarnation;
	/* What it began as (0: renamed from a life not known here). */
	peer->first = first;
	ftnl_ring_rename_settle(core, pos);
	/* A JOIN is authentic news of it: echo that life from now on. */
	if (incarnation > peer->heard)
		peer->heard = incarnation;
	/* Its sequence numbers start again: a new replay window. */
	peer->fresh = !admitting;
	peer->observer = observer;
	ftnl_bit_clear(core->dead, pos);
	ftnl_ring_det_readmitted(&core->det, core->dead, pos, now, out);
	if (admitting)
		ftnl_ring_welcome_window(core, pos, now);
	if (out->joined)
		out->joined(out->ctx, pos, admitting);
	ftnl_ring_doubt_settle(core, pos, now, out);
	return true;
}

/**
 * ftnl_ring_core_set_rejoin - the rejoin policy
 * @core: the state
 * @rejoin_auto: FTNL_REJOIN_AUTO: a new incarnation of a dead node
 *	rejoins without an admin; else ftnl_ring_core_readmit() only
 * @flap_max: K: at most K rejoins of a node within @flap_window_ns
 * @flap_window_ns: W
 */
void ftnl_ring_core_set_rejoin(struct ftnl_ring_core *core, bool rejoin_auto,
			       u32 flap_max, u64 flap_window_ns)
{
	core->rejoin_auto = rejoin_auto;
	core->flap_max = flap_max;
	core->flap_window_ns = flap_window_ns;
}

/**
 * ftnl_ring_core_join_heard - a broadcast says the node at @pos rejoined
 * @core: the state
 * @pos: the node
 * @incarnation: its new incarnation
 * @renamed: the JOIN says that life was renewed (FTNL_BCAST_RENAMED): it
 *	began under a smaller incarnation
 * @observer: position of the member that admitted it
 * @now: current time
 * @out: the sink
 *
 * Every member obeys a JOIN (with rejoin auto), as it obeys a death: the
 * admitting member applied the flap rule. A JOIN about a life no newer
 * than one known is stale.
 *
 * Return: the node was readmitted here.
 */
bool ftnl_ring_core_join_heard(struct ftnl_ring_core *core, u32 pos,
			       u64 incarnation, bool renamed, u32 observer,
			       u64 now, const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];

	/*
	 * A renamed life (its clock stepped back, ftnl_ring_core_renew()) of
	 * a node whose life is pinned here may be the pinned life itself:
	 * the member that admitted it knew a later life than the one pinned
	 * here, not this one. Only the node can tell: it is asked (a HELLO,
	 * each h), and its answer's first incarnation says
	 * (ftnl_ring_core_admit()); without an answer within
	 * FTNL_RING_DOUBT_WAIT, the JOIN is taken (the pinned life ended).
	 * A life that was not renamed began as the JOIN names it: the one
	 * pinned here ended.
	 */
	if (renamed && pos != core->det.self && core->running &&
	    core->rejoin_auto && peer->state == FTNL_NODE_STATE_ALIVE &&
	    peer->incarnation && peer->first &&
	    incarnation > peer->incarnation &&
	    incarnation > peer->dead_incarnation) {
		if (!peer->rename_until) {
			peer->rename_until = now + FTNL_RING_DOUBT_WAIT(&core->det);
			core->nrenames++;
			core->renames_held++;
		} else if (incarnation < peer->rename_inc) {
			return false;
		}
		peer->rename_inc = incarnation;
		peer->rename_observer = observer;
		if (incarnation > peer->heard)
			peer->heard = incarnation;
		ftnl_ring_core_hello(core, pos, now, out);
		return false;
	}
	/*
	 * The life pinned here, admitted by a member after a death (of a
	 * life this node never knew): news of a death that names no life is
	 * of an earlier one (ftnl_ring_core_death_heard()).
	 */
	if (pos != core->det.self && core->rejoin_auto &&
	    peer->state == FTNL_NODE_STATE_ALIVE && peer->incarnation &&
	    incarnation == peer->incarnation) {
		peer->join_named = incarnation;
		ftnl_ring_doubt_settle(core, pos, now, out);
		return false;
	}
	/*
	 * The life taken here for the one that died, as the first heard
	 * after a death that named none (ftnl_ring_core_tell_dead()): a
	 * member admitted it as a life after that death. The guess was
	 * wrong; the JOIN is obeyed, as by every member.
	 */
	if (core->running && core->rejoin_auto &&
	    peer->state == FTNL_NODE_STATE_DEAD && peer->dead_guessed &&
	    incarnation == peer->dead_incarnation) {
		peer->dead_incarnation = incarnation - 1;
		peer->dead_guessed = false;
	}
	return ftnl_ring_join_take(core, pos, incarnation, renamed, observer,
				   now, out);
}

/**
 * ftnl_ring_core_renamed - was the life known of the node at @pos renewed?
 * @core: the state
 * @pos: the node
 *
 * Return: that life began under a smaller incarnation (or one not known
 * here): a JOIN or welcome about it says so (FTNL_BCAST_RENAMED).
 */
bool ftnl_ring_core_renamed(const struct ftnl_ring_core *core, u32 pos)
{
	const struct ftnl_ring_peer *peer = &core->peers[pos];

	return peer->incarnation && peer->first != peer->incarnation;
}

/**
 * ftnl_ring_core_welcome - may a welcome (the D of the member that
 *	admitted this node) be applied here?
 * @core: the state
 * @incarnation: the incarnation the welcome admits
 * @now: current time
 *
 * Only a welcome of this very life: one of an earlier life is a replay.
 * The caller then feeds its JOINs to ftnl_ring_core_join_heard() (the
 * sender's live nodes that rejoined: this node may have missed their JOIN
 * and learned a late death of their previous life instead) and its D to
 * ftnl_ring_core_death_heard().
 */
bool ftnl_ring_core_welcome(struct ftnl_ring_core *core, u64 incarnation,
			    u64 now)
{
	struct ftnl_ring_detector *det = &core->det;

	if (!core->running || incarnation != core->incarnation)
		return false;
	/*
	 * The cluster is up: no boot grace for the first emitter, which
	 * may have died unnoticed while this node was away (it was the one
	 * that observed it).
	 */
	det->booting = false;
	if (det->observing && !det->heard_emitter &&
	    det->susp_deadline > now + 2 * det->timeout_ns) {
		det->susp_deadline = now + 2 * det->timeout_ns;
		ftnl_ring_det_arm(det);
	}
	return true;
}

/**
 * ftnl_ring_core_rejoined - live nodes known to have come back, for a welcome
 * @core: the state
 * @pos: filled with their positions
 * @incarnation: filled with the incarnation each lives now
 * @max: room in both
 *
 * Nodes alive here in an incarnation heard, after a death seen here: the
 * node being welcomed may have missed their JOIN.
 *
 * Return: how many were filled in (at most @max).
 */
u32 ftnl_ring_core_rejoined(const struct ftnl_ring_core *core, u32 *pos,
			    u64 *incarnation, u32 max)
{
	u32 p, k = 0;

	for (p = 0; p < core->det.n && k < max; p++) {
		const struct ftnl_ring_peer *peer = &core->peers[p];

		if (p == core->det.self || peer->state != FTNL_NODE_STATE_ALIVE ||
		    !peer->dead_incarnation || !peer->incarnation)
			continue;
		pos[k] = p;
		incarnation[k++] = peer->incarnation;
	}
	return k;
}

/*
 * A HELLO to @pos, at most one per h: its header tells @pos the
 * incarnation this node knows of it (ftnl_ring_core_admit(): a sender not
 * proven yet, or one that speaks from an older life than known).
 */
static void ftnl_ring_core_hello(struct ftnl_ring_core *core, u32 pos,
				 u64 now, const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];

	if (peer->hello_at && now - peer->hello_at < core->det.period_ns)
		return;
	peer->hello_at = now;
	ftnl_ring_send(&core->det, out, pos, FTNL_MSG_HELLO);
}

/**
 * ftnl_ring_core_outlived - did a member hear a later life of this node?
 * @core: the state
 * @echo: an authentic datagram's echo (this node's incarnation as its
 *	sender heard it)
 *
 * An echo larger than this node's incarnation names a life of this node
 * that came after the one it lives: its incarnation came from a clock that
 * stepped back across a restart (an RTC behind before NTP), and every
 * member that knew the later life drops this one as stale (and says so,
 * ftnl_ring_core_admit()). The caller then takes an incarnation above
 * @echo (ftnl_ring_core_renew()). Only a life this node had can be
 * echoed: a replay cannot push it anywhere it need not go.
 *
 * Return: this node must take a new incarnation.
 */
bool ftnl_ring_core_outlived(const struct ftnl_ring_core *core, u64 echo)
{
	return echo > core->incarnation;
}

/**
 * ftnl_ring_core_renew - this node lives on as @incarnation
 * @core: the state
 * @incarnation: larger than any echoed (ftnl_ring_core_outlived())
 *
 * The same life under a new name: @core->first, which every datagram
 * carries, stays. Members that knew a later life readmit it as a new one
 * (ftnl_ring_rejoin()): that later life did end. Members that pinned a
 * name of this life take the new one as that life renamed
 * (ftnl_ring_core_admit(): the datagram's first is the one they pinned),
 * and publish no death: the life did not end. What this node knows of
 * the others is kept.
 */
void ftnl_ring_core_renew(struct ftnl_ring_core *core, u64 incarnation)
{
	core->incarnation = incarnation;
}

/**
 * ftnl_ring_core_set_first - the incarnation this life began with
 * @core: the state
 * @first: no larger than @core->incarnation
 *
 * For a ring that replaces one (cluster set) and keeps a life that was
 * renewed (ftnl_ring_core_renew()): the members may know it by its first
 * name still.
 */
void ftnl_ring_core_set_first(struct ftnl_ring_core *core, u64 first)
{
	if (first && first <= core->incarnation)
		core->first = first;
}

/**
 * ftnl_ring_core_admit - incarnation check of an authentic datagram
 * @core: the state
 * @pos: its sender
 * @incarnation: the sender's incarnation it carries
 * @first: the incarnation the sender's life began with, as it carries it
 *	(0: not said)
 * @echo: this node's incarnation as the sender last heard it (0: never)
 * @now: current time
 * @out: the sink
 *
 * A node heard with a newer incarnation than the one known restarted
 * before anyone noticed: the incarnation this node knew is dead (cause
 * restarted) - unless the newer one began as the one known (@first): the
 * same life renamed (ftnl_ring_core_renew()), which is no death; nor is
 * a renamed life of a node dead here a new one. A new incarnation of a
 * node that is dead here (rebooted, or restarted after its death)
 * rejoins at once with rejoin auto
 * (ftnl_ring_rejoin()): this node admits it, and the sink broadcasts its
 * JOIN; otherwise it waits for an admin's readmission, and the node is
 * told that it is dead (FTNL_MSG_EXPELLED, rate-limited).
 *
 * First contact (no incarnation of the sender accepted yet: this node just
 * started, or readmitted the sender) is where a replay could do harm: an
 * old datagram of a previous life of the sender, replayed then, would pin
 * that life, and the sender's next real datagram would be taken for a
 * restart. So the first incarnation is pinned only from a datagram that
 * echoes this node's own incarnation, which did not exist before this
 * node started: it was sent after the sender heard this node. Others are
 * acted on but pin nothing (FTNL_RING_UNPINNED; the caller refuses a LEAVE
 * among them, which could be a previous life's), and are answered with a
 * HELLO (at most one per h and sender): a live sender learns this node's
 * incarnation from it and answers with a HELLO_ACK that echoes it
 * (ftnl_ring_core_hello_rx()) - one that only ever receives from this
 * node (its observer) would otherwise never prove itself. Dropping them
 * instead would lose the first broadcast and NEW_OBSERVER of every pair of
 * nodes that had not talked yet (the ring's DST finds both). A datagram
 * from an older life of the sender than known is answered with a HELLO
 * too, which tells the sender the life known of it: a sender whose clock
 * stepped back learns that it must live on above it
 * (ftnl_ring_core_outlived()). Every
 * authentic datagram updates what this node echoes back (@peer->heard,
 * the largest incarnation heard: a replay of an older life cannot lower
 * it).
 *
 * Return: enum ftnl_ring_admit.
 */
enum ftnl_ring_admit ftnl_ring_core_admit(struct ftnl_ring_core *core, u32 pos,
					  u64 incarnation, u64 first, u64 echo,
					  u64 now,
					  const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];

	if (incarnation > peer->heard)
		peer->heard = incarnation;
	if (peer->state != FTNL_NODE_STATE_ALIVE) {
		/*
		 * A larger name of the very life that died here (renewed
		 * since: the same first) is that life still talking, not a
		 * new one: told it is dead, never readmitted.
		 */
		if (peer->dead_incarnation &&
		    incarnation > peer->dead_incarnation &&
		    (!first || first != peer->first) &&
		    ftnl_ring_rejoin(core, pos, incarnation, first,
				     core->det.self, now, true, out))
			return FTNL_RING_ACCEPT_NEW;
		if (incarnation < peer->heard)
			ftnl_ring_core_hello(core, pos, now, out);
		ftnl_ring_core_tell_dead(core, pos, incarnation, now, out);
		return FTNL_RING_DEAD_SENDER;
	}
	if (incarnation <= peer->dead_incarnation) {
		ftnl_ring_core_hello(core, pos, now, out);
		return FTNL_RING_STALE;
	}
	if (!peer->incarnation) {
		if (echo != core->incarnation) {
			ftnl_ring_core_hello(core, pos, now, out);
			return FTNL_RING_UNPINNED;
		}
		peer->incarnation = incarnation;
		peer->first = first;
		peer->pinned_until = now + FTNL_RING_DOUBT_WAIT(&core->det);
		/* It may have restarted before anyone noticed: no JOIN then. */
		if (out->welcome && core->rejoin_auto &&
		    ftnl_ring_dead_any(core))
			out->welcome(out->ctx, pos);
		ftnl_ring_doubt_settle(core, pos, now, out);
		return FTNL_RING_ACCEPT_NEW;
	}
	if (incarnation < peer->incarnation) {
		ftnl_ring_core_hello(core, pos, now, out);
		return FTNL_RING_STALE;
	}
	if (incarnation == peer->incarnation && peer->fresh) {
		peer->fresh = false;
		peer->first = first;
		return FTNL_RING_ACCEPT_NEW;
	}
	/*
	 * The life pinned here, renamed (its clock had stepped back below a
	 * life a member knew: ftnl_ring_core_renew()): it did not end, and
	 * its sequence numbers go on under the new name in a new window.
	 */
	if (incarnation > peer->incarnation && first && first == peer->first) {
		peer->incarnation = incarnation;
		peer->fresh = false;
		core->renamed++;
		if (peer->rename_until && incarnation >= peer->rename_inc)
			ftnl_ring_rename_settle(core, pos);
		return FTNL_RING_ACCEPT_NEW;
	}
	/*
	 * A later life that is not the pinned one renamed, while a JOIN
	 * waits (ftnl_ring_core_join_heard()): the pinned life did end; the
	 * JOIN is taken as it would have been at once, then this datagram
	 * is judged against the life it named.
	 */
	if (incarnation > peer->incarnation && peer->rename_until) {
		ftnl_ring_rename_settle(core, pos);
		ftnl_ring_join_take(core, pos, peer->rename_inc, true,
				    peer->rename_observer, now, out);
		if (peer->state != FTNL_NODE_STATE_ALIVE)
			return FTNL_RING_DEAD_SENDER;
		if (incarnation < peer->incarnation)
			return FTNL_RING_STALE;
		if (incarnation == peer->incarnation) {
			peer->fresh = false;
			peer->first = first;
			return FTNL_RING_ACCEPT_NEW;
		}
	}
	if (incarnation > peer->incarnation) {
		if (ftnl_ring_rejoin(core, pos, incarnation, first,
				     core->det.self, now, true, out))
			return FTNL_RING_ACCEPT_NEW;
		ftnl_ring_core_failure_learned(core, pos, FTNL_NODE_STATE_DEAD,
					       FTNL_CAUSE_RESTARTED,
					       core->det.self, now, out);
		return FTNL_RING_DEAD_SENDER;
	}
	return FTNL_RING_ACCEPT;
}

/**
 * ftnl_ring_core_hello_rx - a HELLO from @from: it has not pinned this node
 * @core: the state
 * @from: the sender
 * @now: current time
 * @out: the sink
 *
 * Answer with a HELLO_ACK, which echoes @from's incarnation (the HELLO's
 * header updated what this node echoes): proof that this node's datagrams
 * are fresh (ftnl_ring_core_admit()). At most one per h per node, so that
 * replayed HELLOs cost little; a HELLO_ACK is never answered. A HELLO
 * from the emitter may ask whether this node still observes it (its D
 * does not allow it yet: FTNL_RING_CLAIM_HOLD): a NEW_OBSERVER says so.
 */
void ftnl_ring_core_hello_rx(struct ftnl_ring_core *core, u32 from, u64 now,
			     const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[from];

	if (!core->running || from == core->det.self ||
	    (peer->ack_at && now - peer->ack_at < core->det.period_ns))
		return;
	peer->ack_at = now;
	ftnl_ring_send(&core->det, out, from, FTNL_MSG_HELLO_ACK);
	if (core->det.observing && from == core->det.emitter)
		ftnl_ring_send(&core->det, out, from, FTNL_MSG_NEW_OBSERVER);
}

/*
 * Task T2 (ftnl_ring_det_heartbeat()), from a sender whose life is pinned
 * only: a heartbeat not proven fresh (FTNL_RING_UNPINNED) may be an old
 * one replayed, of a node dead since, and is no news of its life; the
 * HELLO that answered it gets the proof within a round trip. Return: it
 * came from the emitter.
 */
bool ftnl_ring_core_heartbeat(struct ftnl_ring_core *core, u32 from, u64 now)
{
	if (!core->peers[from].incarnation ||
	    !ftnl_ring_det_heartbeat(&core->det, from, now))
		return false;
	ftnl_ring_epoch_stretch(core, from, now);
	/* Heard: whatever the probe would say, there is nothing to judge. */
	core->probe.active = false;
	return true;
}

/**
 * ftnl_ring_core_self_late - one of this node's own timers ran late
 * @core: the state
 * @late_ns: how long after its deadline it ran
 * @now: when it ran
 *
 * See ftnl_ring_det_self_late() and the local health rule.
 */
void ftnl_ring_core_self_late(struct ftnl_ring_core *core, u64 late_ns,
			      u64 now)
{
	ftnl_ring_det_self_late(&core->det, late_ns, now);
}

/**
 * ftnl_ring_core_rx_lost - this node's host dropped received datagrams
 * @core: the state
 * @now: current time
 *
 * See ftnl_ring_det_rx_lost() and the local health rule.
 */
void ftnl_ring_core_rx_lost(struct ftnl_ring_core *core, u64 now)
{
	ftnl_ring_det_rx_lost(&core->det, now);
}

/**
 * ftnl_ring_core_rx_dropped - the host dropped received datagrams (counted)
 * @core: the state
 * @now: current time
 *
 * See ftnl_ring_det_rx_dropped().
 */
void ftnl_ring_core_rx_dropped(struct ftnl_ring_core *core, u64 now)
{
	ftnl_ring_det_rx_dropped(&core->det, now);
}

/**
 * ftnl_ring_core_rx_held - the host holds received datagrams unread
 * @core: the state
 * @now: current time
 *
 * See ftnl_ring_det_rx_held().
 */
void ftnl_ring_core_rx_held(struct ftnl_ring_core *core, u64 now)
{
	ftnl_ring_det_rx_held(&core->det, now);
}

/**
 * ftnl_ring_core_new_observer - task T4 (ftnl_ring_det_new_observer())
 * @core: the state
 * @from: the sender, who says it observes this node now
 * @now: current time
 * @out: the sink
 *
 * observer <- @from, as Algorithm 1 says, but only when @from can be this
 * node's observer given its D (ftnl_ring_can_observe(): every node between
 * them is in D). Otherwise the claim is stale (its sender has not learned
 * yet that a node between them rejoined), replayed or forged, or its
 * sender knows of a death this node has not learned (the broadcast is on
 * its way, or was lost here). The observer then stays, so that no claim
 * silences a live observer, and @from is heartbeaten too (its
 * @claim_until), so that a sender that is right does not suspect this
 * node after 2d - every such claimant: of a run of nodes that died
 * together, the ones this node has not learned yet may claim it one
 * after another, and only the last is right. Once D allows it, the
 * claimant becomes the observer (ftnl_ring_core_tick()); a claim not
 * renewed ends after FTNL_RING_CLAIM_HOLD.
 *
 * Return: @from was taken as the observer.
 */
bool ftnl_ring_core_new_observer(struct ftnl_ring_core *core, u32 from,
				 u64 now, const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_detector *det = &core->det;
	struct ftnl_ring_peer *peer;

	if (from == det->self || from >= det->n)
		return false;
	peer = &core->peers[from];
	if (from != det->observer &&
	    !ftnl_ring_can_observe(core->dead, det->n, det->self, from)) {
		if (ftnl_bit_test(core->dead, from))
			return false;
		if (!peer->claim_until)
			core->nclaims++;
		peer->claim_until = now + FTNL_RING_CLAIM_HOLD(det);
		ftnl_ring_send(det, out, from, FTNL_MSG_HEARTBEAT);
		return false;
	}
	if (peer->claim_until)
		ftnl_ring_claim_end(core, from);
	ftnl_ring_det_new_observer(det, from, out);
	return true;
}

/* LEAVE from @from: it leaves; it says so itself. */
void ftnl_ring_core_leave_rx(struct ftnl_ring_core *core, u32 from, u64 now,
			     const struct ftnl_ring_sink *out)
{
	ftnl_ring_core_failure_learned(core, from, FTNL_NODE_STATE_LEFT,
				       FTNL_CAUSE_LEAVE, from, now, out);
}

/*
 * A life of the node at @pos older than the one this node knows alive
 * died (@observer found it), and this node never knew it: it took the
 * node's new life for its first. The others hold the node dead now. With
 * rejoin auto, this node admits the life it knows and broadcasts its JOIN,
 * as a member that heard the new life after the old one does. Otherwise
 * (rejoin manual, or the flap rule refuses it) the members that heard both
 * lives hold the node out until readmitted: so does this node, which
 * publishes the death it missed (the life that died) and from then on
 * tells the new life that it is dead. Keeping the new life would leave
 * this node alone in counting it a member (seen in the VM: the emitter of
 * a node restarted under "rejoin manual", never proven its previous life,
 * kept it alive while every other member held it dead).
 */
static void ftnl_ring_life_between(struct ftnl_ring_core *core, u32 pos,
				   u8 state, u64 incarnation, u32 observer,
				   u64 now, const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];

	peer->dead_incarnation = incarnation;
	if (!core->running)
		return;
	if (core->rejoin_auto && ftnl_ring_flap_admit(core, peer, now)) {
		peer->observer = core->det.self;
		ftnl_ring_welcome_window(core, pos, now);
		if (out->joined)
			out->joined(out->ctx, pos, true);
		return;
	}
	/* The event and D name the life that died; its first is unknown. */
	peer->incarnation = incarnation;
	peer->first = 0;
	ftnl_ring_core_failure_learned(core, pos, state, FTNL_CAUSE_BROADCAST,
				       observer, now, out);
	if (core->rejoin_auto && peer->state == FTNL_NODE_STATE_DEAD)
		ftnl_ring_hold_out(core, pos, out);
}

/**
 * ftnl_ring_core_expel_self - a rule of this node's own expels it
 * @core: the state
 * @reason: enum ftnl_expel_reason (FTNL_EXPEL_QUORUM, FTNL_EXPEL_DEAF)
 * @out: the sink
 *
 * For the rules that find this node unfit to judge or to stay (it lost
 * the majority, it cannot hear): it stops acting as a member of its
 * incarnation at once, as if a member had told it (->expelled).
 *
 * Return: it was expelled now (false: not running, or already expelled).
 */
bool ftnl_ring_core_expel_self(struct ftnl_ring_core *core, u8 reason,
			       const struct ftnl_ring_sink *out)
{
	return ftnl_ring_core_expel(core, reason, core->det.self, out);
}

/**
 * ftnl_ring_core_expelled_rx - a member says this node is dead (EXPELLED)
 * @core: the state
 * @from: the member that says so
 * @sender_inc: the incarnation it sent in
 * @sender_first: the one its life began with (the header's first)
 * @incarnation: the incarnation it holds dead
 * @out: the sink
 *
 * Obeyed only for this node's current incarnation: an older one is news
 * of a previous life (the node restarted since, and is a new member or
 * waits to rejoin). The datagram is authentic (MAC) and from a member.
 * From a member this node holds dead, it is obeyed only when this node
 * holds most of the others dead (a node cut off declares the others dead
 * before it hears them again, and must still obey), and only from the
 * life that died here: a later life that this node did not admit (rejoin
 * manual, the flap rule) is no member. Repeating it changes nothing:
 * what it says stays true.
 *
 * Return: this node was expelled now.
 */
bool ftnl_ring_core_expelled_rx(struct ftnl_ring_core *core, u32 from,
				u64 sender_inc, u64 sender_first,
				u64 incarnation,
				const struct ftnl_ring_sink *out)
{
	const struct ftnl_ring_peer *peer;
	u32 n = core->det.n;

	if ((incarnation != core->incarnation &&
	     incarnation != core->first) || from == core->det.self)
		return false;
	/*
	 * Two nodes under rejoin manual: the other's new life, kept out
	 * here, heard nothing, accused this node and told it so (ring-dst
	 * rejoin 1 671 expelled this live node). A larger name of the life
	 * that died (renewed: the same first) is that life still talking.
	 */
	peer = &core->peers[from];
	if (ftnl_bit_test(core->dead, from) && peer->dead_incarnation &&
	    sender_inc > peer->dead_incarnation &&
	    (!sender_first || sender_first != peer->first))
		return false;
	/*
	 * A node this one holds dead is a zombie in its eyes, whose word
	 * counts only when this node holds most of the others dead: then it
	 * is this node that was cut off. Otherwise a zombie that accused its
	 * emitter on resuming could expel a live member.
	 */
	if (ftnl_bit_test(core->dead, from) &&
	    2 * core->ndead <= n - 1 - core->nleft)
		return false;
	return ftnl_ring_core_expel(core, FTNL_EXPEL_TOLD, from, out);
}

/**
 * ftnl_ring_core_fenced - the fence of this expelled node is done
 * @core: the state
 * @now: current time
 *
 * Its registered processes were told (and killed, as the policy says):
 * none of them acts in the old life any more. A node that is to come
 * back (@core->comeback) does so FTNL_RING_COMEBACK_HOLD after this: the
 * suspicion timer is set for then, and its expiry says
 * FTNL_RING_COMEBACK.
 *
 * Return: the comeback is scheduled (false: nothing to come back to).
 */
bool ftnl_ring_core_fenced(struct ftnl_ring_core *core, u64 now)
{
	if (!core->expelled || !core->comeback || core->comeback_at)
		return false;
	core->comeback_at = now + FTNL_RING_COMEBACK_HOLD(&core->det);
	ftnl_ring_det_rearm(&core->det, core->comeback_at);
	return true;
}

/*
 * Accusations of this node's ended life that the cluster may never have
 * taken (it was cut off or frozen when it made them, and its broadcasts
 * came from a dead node): forgotten, so that the new life never tells a
 * live member that it is dead. The deaths it learned from others stay;
 * a true death among the forgotten ones comes back with the welcome's D,
 * or is found again.
 */
static void ftnl_ring_core_forget_own(struct ftnl_ring_core *core)
{
	u32 pos;

	for (pos = 0; pos < core->det.n; pos++) {
		struct ftnl_ring_peer *peer = &core->peers[pos];

		if (pos == core->det.self || peer->state != FTNL_NODE_STATE_DEAD ||
		    peer->observer != core->det.self ||
		    peer->cause != FTNL_CAUSE_OBSERVED)
			continue;
		peer->state = FTNL_NODE_STATE_ALIVE;
		/* Its life goes on: news of its death in it is news again. */
		peer->dead_incarnation = peer->incarnation ?
					 peer->incarnation - 1 : 0;
		core->ndead--;
		ftnl_bit_clear(core->dead, pos);
	}
}

/*
 * Algorithm 1's state as ftnl_ring_det_init() leaves it, for a new life:
 * what configures the detector (h, d, the probe lead, the adaptive
 * estimator, which starts afresh with the first heartbeat of an emitter
 * not heard yet) and its counters stay.
 */
static void ftnl_ring_det_new_life(struct ftnl_ring_detector *det)
{
	det->emitter = ftnl_ring_pred(det->self, det->n);
	det->observer = ftnl_ring_succ(det->self, det->n);
	det->observing = det->emitter != det->self;
	det->heard_emitter = false;
	det->booting = false;
	det->emitter_knows = false;
	det->observer_claimed = false;
	det->stall_grace = false;
	det->late_at = 0;
	det->rx_lost_at = 0;
	det->rx_dropped_at = 0;
	det->rx_gone_at = 0;
	det->switched_at = 0;
	det->switch_grace = false;
	det->timer_moved = false;
	det->susp_deadline = 0;
	det->last_hb = 0;
	det->timer_at = 0;
}

/**
 * ftnl_ring_core_comeback - this expelled node comes back as @incarnation
 * @core: the state
 * @incarnation: its new incarnation, larger than every one it had
 * @now: current time
 * @out: the sink
 *
 * Once the hold after the fence is over (ftnl_ring_core_expire() said
 * FTNL_RING_COMEBACK). The node keeps D (less its own accusations: see
 * ftnl_ring_core_forget_own()) and the incarnations it knows, and starts
 * the detector afresh (NEW_OBSERVER to its emitter, heartbeats): the
 * members hear a new incarnation of a node they hold dead and readmit it
 * through the rejoin path (the first one admits it, broadcasts its JOIN
 * and welcomes it with its D). The caller stamps @incarnation on its
 * datagrams from now on.
 *
 * Return: it came back (false: not expelled to come back, the hold is
 * not over, or @incarnation is not newer).
 */
bool ftnl_ring_core_comeback(struct ftnl_ring_core *core, u64 incarnation,
			     u64 now, const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_detector *det = &core->det;
	u32 pos;

	if (!core->expelled || !core->comeback_at || now < core->comeback_at ||
	    incarnation <= core->incarnation)
		return false;
	ftnl_ring_core_forget_own(core);
	core->incarnation = incarnation;
	core->first = incarnation;
	core->expelled = false;
	core->comeback = false;
	core->comeback_at = 0;
	core->resigned = FTNL_RING_MEMBER;
	core->probe = (struct ftnl_ring_prober){ 0 };
	for (pos = 0; pos < det->n; pos++)
		core->peers[pos].claim_until = 0;
	core->nclaims = 0;
	ftnl_ring_det_new_life(det);
	ftnl_ring_core_start(core, now, out);
	return true;
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
 * News about a life that is over is stale: an incarnation no newer than
 * the one it last died in here (a late broadcast about the life before a
 * readmission), or older than the one known alive. News that does not
 * name the incarnation (the sender never heard the node, or a D too large
 * to carry them) is taken only for a node never seen to die here: for a
 * node that died and came back, it may be about the previous life; for a
 * node whose life was just pinned here, it is held (see the body). A
 * node never heard from takes the failed incarnation as the one it knew
 * (its observer heard it); news of a newer incarnation's death is the
 * death of the one known too; news of a life between the one that died
 * here and the one known alive means that this node took a restarted
 * node's new life for its first (ftnl_ring_life_between()).
 * News of this node's own death in its current incarnation expels it.
 */
void ftnl_ring_core_death_heard(struct ftnl_ring_core *core, u32 pos, u8 state,
				u64 incarnation, u32 observer, u64 now,
				const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];

	if (pos == core->det.self) {
		if (state == FTNL_NODE_STATE_DEAD &&
		    (incarnation == core->incarnation ||
		     incarnation == core->first))
			ftnl_ring_core_expel(core, FTNL_EXPEL_BROADCAST,
					     observer, out);
		return;
	}
	/*
	 * Held dead here before any life of it was heard (its observer took
	 * over while it was down), or with the first life heard since taken
	 * for the dead one (ftnl_ring_core_tell_dead()): a member that heard
	 * it names the life that died. A later one is then a rejoin, not
	 * that life resuming, and is not expelled (it was, once, before).
	 */
	if (peer->state == FTNL_NODE_STATE_DEAD &&
	    state == FTNL_NODE_STATE_DEAD && incarnation &&
	    (!peer->dead_incarnation ||
	     (peer->dead_guessed && incarnation < peer->dead_incarnation))) {
		peer->dead_incarnation = incarnation;
		peer->incarnation = incarnation;
		peer->dead_guessed = false;
		return;
	}
	if (peer->state != FTNL_NODE_STATE_ALIVE)
		return;
	/* The first name of a life known renamed: that life's death. */
	if (incarnation && incarnation == peer->first &&
	    incarnation < peer->incarnation)
		incarnation = peer->incarnation;
	if (incarnation && incarnation > peer->dead_incarnation &&
	    incarnation < peer->incarnation) {
		ftnl_ring_life_between(core, pos, state, incarnation, observer,
				       now, out);
		return;
	}
	if (!incarnation ? peer->dead_incarnation != 0 :
	    incarnation <= peer->dead_incarnation ||
	    incarnation < peer->incarnation)
		return;
	/*
	 * News naming no life, of a life pinned here: its sender never heard
	 * the node. If this node has only just heard that life for the first
	 * time, the one before it (which this node never knew: the node
	 * restarted) may be the one that died. Stale if a JOIN named the
	 * pinned life (a life after a death); from a life pinned less than
	 * FTNL_RING_DOUBT_WAIT ago, held for that JOIN, which may be on its
	 * way. A life heard for longer is the one the sender waited for (the
	 * next of a run of nodes that died together, say): taken at once.
	 */
	if (!incarnation && peer->incarnation) {
		if (peer->join_named == peer->incarnation)
			return;
		if (core->running && now < peer->pinned_until) {
			ftnl_ring_doubt_hold(core, pos, state, 0, observer,
					     now, out);
			return;
		}
	}
	if (incarnation > peer->incarnation)
		peer->incarnation = incarnation;
	ftnl_ring_core_failure_learned(core, pos, state, FTNL_CAUSE_BROADCAST,
				       observer, now, out);
}

/**
 * ftnl_ring_core_death_old - T5 for news older than this life
 * @core: the state
 * @pos: the failed node
 * @state: FTNL_NODE_STATE_DEAD or FTNL_NODE_STATE_LEFT
 * @incarnation: the incarnation that failed, 0 if the message does not say
 * @observer: position of the node that detected it
 * @now: current time
 * @out: the sink
 *
 * For news (a broadcast's death or D) from a broadcast started before
 * this node's life began: it reached this life late - queued behind
 * address resolution while this node was down, delayed, replayed. It
 * tells of a death before this life, true then; but @pos may live a
 * newer life since, unknown here (seen in the VM: a death broadcast of a
 * node's previous life, held 2.3 s - in a neighbour's ARP queue, most
 * likely - reached a node that had restarted meanwhile, which published
 * that death and repaired its ring around the live node). When @pos's
 * life is known here, the incarnations tell
 * (ftnl_ring_core_death_heard()). Otherwise
 * the news is held for FTNL_RING_DOUBT_WAIT and @pos asked to prove
 * itself (a HELLO): a newer life heard, or named by a JOIN, meanwhile
 * makes it stale (that life began after the news: nothing died in this
 * node's life); at the end of the wait it is taken (a dead node does not
 * answer: this node's D must hold it). Of two held items about a node,
 * the one naming the later life is kept.
 */
void ftnl_ring_core_death_old(struct ftnl_ring_core *core, u32 pos,
			      u8 state, u64 incarnation, u32 observer,
			      u64 now, const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];

	if (pos == core->det.self || peer->incarnation ||
	    peer->state != FTNL_NODE_STATE_ALIVE || !core->running) {
		ftnl_ring_core_death_heard(core, pos, state, incarnation,
					   observer, now, out);
		return;
	}
	ftnl_ring_doubt_hold(core, pos, state, incarnation, observer, now,
			     out);
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
 * accepted; the ring is re-evaluated (ftnl_ring_det_readmitted()). A node
 * held out for flapping is let back and its rejoins counted afresh.
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
	if (peer->state == FTNL_NODE_STATE_LEFT)
		core->nleft--;
	else
		core->ndead--;
	peer->state = FTNL_NODE_STATE_ALIVE;
	peer->incarnation = 0;
	peer->first = 0;
	ftnl_ring_rename_settle(core, pos);
	peer->flap_count = 0;
	ftnl_bit_clear(core->dead, pos);
	if (core->running)
		ftnl_ring_det_readmitted(&core->det, core->dead, pos, now,
					 out);
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

	if (self)
		view->state = core->expelled ? FTNL_NODE_STATE_EXPELLED :
					       FTNL_NODE_STATE_ALIVE;
	else
		view->state = core->peers[pos].state;
	view->incarnation = self ? core->incarnation :
				   core->peers[pos].incarnation;
	/* Alive, not proven yet (ftnl_ring_core_admit()): what was heard. */
	if (!self && !view->incarnation &&
	    core->peers[pos].state == FTNL_NODE_STATE_ALIVE)
		view->incarnation = core->peers[pos].heard;
	view->emitter = det->observing && pos == det->emitter;
	view->observer = (pos == det->observer ||
			  core->peers[pos].claim_until) && !self;
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

/* ---- configuration updates (see the comment in core.h) ---------------- */

/**
 * ftnl_ring_core_set_epoch - this configuration's epoch
 * @core: the state, before it starts
 * @epoch: FTNL_A_EPOCH
 */
void ftnl_ring_core_set_epoch(struct ftnl_ring_core *core, u32 epoch)
{
	core->epoch = epoch;
}

/**
 * ftnl_ring_core_updated - this ring replaces one of another epoch
 * @core: the state, before it starts (after ftnl_ring_core_inherit())
 * @grace_ns: the update grace (FTNL_A_UPDATE_GRACE_S), from the start on
 * @prev_observer: the replaced ring's observer as a position of @core,
 *	this node's own when it is no member any more
 */
void ftnl_ring_core_updated(struct ftnl_ring_core *core, u64 grace_ns,
			    u32 prev_observer)
{
	core->update_grace_ns = grace_ns;
	core->prev_observer = prev_observer < core->det.n ? prev_observer :
							    core->det.self;
}

/**
 * ftnl_ring_core_epoch_heard - a datagram of the node at @pos was accepted
 * @core: the state
 * @pos: its sender
 * @incarnation: the sender incarnation it carried
 * @epoch: the configuration epoch it carried
 * @timeout_ns: the d it carried (its sender's configuration's)
 *
 * Called before the datagram is acted on, so that a heartbeat is judged
 * with what it says (ftnl_ring_epoch_stretch()). Within one life of the
 * sender the epoch only grows: a datagram sent before its update and
 * overtaken by a later one says nothing any more.
 *
 * Return: it was taken (the caller records its epoch and key too).
 */
bool ftnl_ring_core_epoch_heard(struct ftnl_ring_core *core, u32 pos,
				u64 incarnation, u32 epoch, u64 timeout_ns)
{
	struct ftnl_ring_peer *peer = &core->peers[pos];

	if (pos == core->det.self)
		return false;
	if (peer->epoch_timeout_ns && incarnation == peer->epoch_inc &&
	    epoch < peer->epoch)
		return false;
	if (peer->epoch_timeout_ns && incarnation < peer->epoch_inc)
		return false;
	peer->epoch_inc = incarnation;
	peer->epoch = epoch;
	peer->epoch_timeout_ns = timeout_ns ? timeout_ns : 1;
	return true;
}

/* The node at @pos was heard in this node's epoch or a later one. */
bool ftnl_ring_core_in_epoch(const struct ftnl_ring_core *core, u32 pos)
{
	const struct ftnl_ring_peer *peer = &core->peers[pos];

	return peer->epoch_timeout_ns && peer->epoch >= core->epoch;
}

/*
 * Task T2 of an emitter heard in another epoch: it heartbeats at its own
 * configuration's h, which may be longer than this one's; it is suspected
 * only after the longer of both d.
 */
static void ftnl_ring_epoch_stretch(struct ftnl_ring_core *core, u32 from,
				    u64 now)
{
	const struct ftnl_ring_peer *peer = &core->peers[from];
	struct ftnl_ring_detector *det = &core->det;

	if (!peer->epoch_timeout_ns || peer->epoch == core->epoch)
		return;
	if (now + peer->epoch_timeout_ns > det->susp_deadline)
		det->susp_deadline = now + peer->epoch_timeout_ns;
}

/*
 * The emitter's deadline came during the update grace, and it was never
 * heard in this configuration: it may not know yet that it is observed (a
 * node not updated yet) or not run yet (a node being added). It is judged
 * d after the grace ends instead. Return: held (the timer is set again).
 */
static bool ftnl_ring_update_hold(struct ftnl_ring_core *core, u64 now)
{
	struct ftnl_ring_detector *det = &core->det;

	if (now >= core->update_until || det->heard_emitter ||
	    ftnl_ring_core_in_epoch(core, det->emitter))
		return false;
	det->susp_deadline = core->update_until + det->timeout_ns;
	det->stall_grace = false;
	ftnl_ring_det_rearm(det, ftnl_ring_det_wake(det));
	return true;
}

/*
 * Task T1 during the update grace: the replaced configuration's observer
 * is heartbeaten too until it is heard in this epoch (it runs this
 * configuration then, and observes whom it says), it is in D, or the
 * grace ends. A node not updated yet still observes this one.
 */
static void ftnl_ring_update_tick(struct ftnl_ring_core *core, u64 now,
				  const struct ftnl_ring_sink *out)
{
	struct ftnl_ring_detector *det = &core->det;
	u32 prev = core->prev_observer;

	if (prev == det->self)
		return;
	if (now >= core->update_until || ftnl_bit_test(core->dead, prev) ||
	    ftnl_ring_core_in_epoch(core, prev)) {
		core->prev_observer = det->self;
		return;
	}
	if (prev != det->observer && !core->peers[prev].claim_until)
		ftnl_ring_send(det, out, prev, FTNL_MSG_HEARTBEAT);
}
