/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The observation ring, pure: Algorithm 1 of "A failure detector for HPC
 * platforms" (Bosilca et al.) and the node's membership state, as one state
 * machine. No kernel headers beyond compat.h and the uapi header, no I/O,
 * no clock, no allocation: the module (ring.c), the benchmark's userspace
 * ring (tools/bench/uring.c), the simulator (tools/sim/ring.c), the unit
 * tests and the DST (kmod/tests/) all run this file.
 *
 * Inputs are events, each a function: the ring is started or stopped, the
 * heartbeat period elapsed (T1), a datagram's sender is to be admitted, a
 * heartbeat (T2), NEW_OBSERVER (T4) or LEAVE arrived, the suspicion timer
 * fired (T3), a death was learned by broadcast (T5), an admin readmitted a
 * node or makes this node leave, a member said this node is dead
 * (EXPELLED), a rule of the node's own expels it. Outputs are data,
 * through struct ftnl_ring_sink during the call: datagrams to send,
 * failures that entered D (each one an event to publish, some to
 * broadcast), this node's expulsion; and the next deadline of the
 * suspicion timer (ftnl_ring_core_take_timer()).
 *
 * Two layers, one file:
 *   struct ftnl_ring_detector  Algorithm 1 proper (emitter, observer,
 *                              SUSP-TIMEOUT); D is the caller's bitmap, so
 *                              a simulator of 10^5 nodes can keep D in its
 *                              own compact form.
 *   struct ftnl_ring_core      a detector plus D and what the node knows of
 *                              every other (state, incarnations): the whole
 *                              membership state of a node.
 * Time is nanoseconds of a monotonic clock, never 0 once the ring runs.
 */
#ifndef _FTNL_RING_CORE_H
#define _FTNL_RING_CORE_H

#include <linux/ftnl.h>

#include "../compat.h"
#include "adaptive.h"
#include "../wire.h"

/*
 * Before the first heartbeat of its first emitter, a node waits this long
 * on top of d: cluster members are configured one after another, seconds
 * apart (tens of seconds for a large emulated cluster), and a node that is
 * not up yet has not failed. Once the cluster is up, Algorithm 1's
 * timeouts apply unchanged.
 */
#define FTNL_RING_BOOT_GRACE_NS	(30ULL * 1000000000ULL)

/*
 * Indirect probes (SWIM's ping-req), so that a node that cannot hear is no
 * judge: before an observer declares its emitter dead it asks helpers,
 * other live members, to reach it, FTNL_RING_PROBE_LEAD before the
 * suspicion deadline; a round closes 2d after it started (four network
 * crossings: request, forward, answer, relay). A helper that answers (it
 * hears the observer) while the suspect answers nobody confirms the
 * suspicion; one that hears no helper at all doubts itself and resigns.
 *
 * The first round, before the deadline, asks FTNL_RING_PROBE_HELPERS
 * (k) helpers: a heartbeat merely late arrives before the deadline and
 * ends the probe, so a late heartbeat costs k requests whatever n.
 * Without the quorum rule one confirmation accuses: a round nobody
 * answered is followed by one twice as large, up to max(k, n/2) helpers
 * in all (one put in D since it was asked does not count). With it, a
 * death is published only when a strict majority of the members that
 * did not leave confirmed it, the observer included (the confirmation
 * rule): at the deadline, the silence established, the round grows to
 * that majority less the observer, plus k (ftnl_ring_probe_escalate()),
 * the next round asks every other live member; a node that the last
 * round leaves without a majority is on a minority side (or cannot hear)
 * and resigns, accusing nobody. Answers are bound to one probe by its
 * identifier.
 */
#define FTNL_RING_PROBE_HELPERS	3
/*
 * The first round starts this long before the deadline: halfway between
 * h and d after the last heartbeat, when one heartbeat is missing rather
 * than merely late (d/2 before, at d = 3h, probed a heartbeat half a
 * period late: 32 nodes in one emulated guest under load, h = 10 ms,
 * d = 30 ms, sent 1.2 to 2.8 times the probe datagrams, Documentation/
 * bench.rst). Adaptive timeouts take it from their estimate.
 */
#define FTNL_RING_PROBE_LEAD(d, h)	(((d) - (h)) / 2)
/*
 * From the deadline on, the helpers that have not answered and the
 * suspect are asked again this often until the round closes: six more
 * requests each, seven in all, so that a helper whose datagrams are lost
 * 5 % of the time fails a round about once in 10^7
 * (ftnl_ring_probe_retry()).
 */
#define FTNL_RING_PROBE_RETRY(det)	((det)->timeout_ns / 4)
/*
 * A probe with no helper to ask (two nodes, or every other one dead) asks
 * the suspect this often until the deadline (ftnl_ring_probe_ask_alone()):
 * a quarter of the lead it started with, the one an adaptive timeout's
 * estimate gives when that is shorter than d_max's.
 */
#define FTNL_RING_PROBE_RETRY_ALONE(lead)	((lead) / 4)
/*
 * A death broadcast in flight while a node rejoins was planned without it
 * (it was dead then): it may reach the admitting member after that member
 * welcomed the node with its D. For this long after admitting it the
 * member sends the node its D again at each death it learns. (Not after
 * the welcome of a node merely heard for the first time: with probes,
 * helpers hear observers for the first time all along.)
 */
#define FTNL_RING_WELCOME_WINDOW(det)	(2 * (det)->timeout_ns)

/*
 * News of a death older than this node's life, about a node whose life is
 * not known here, is held this long for the node to prove a newer life
 * (ftnl_ring_core_death_old()): a HELLO asks it at once, and a live
 * node answers within two network delays, a stalled one within d.
 */
#define FTNL_RING_DOUBT_WAIT(det)	(2 * (det)->timeout_ns)

/*
 * A claim to observe this node that its D does not allow yet (a death on
 * its way, or a stale, replayed or forged NEW_OBSERVER) is honoured with
 * heartbeats this long after its last NEW_OBSERVER
 * (ftnl_ring_core_new_observer()). From half of it on, the claimant is
 * asked with a HELLO each h; a claimant that observes this node answers
 * with a NEW_OBSERVER too (ftnl_ring_core_hello_rx()), which renews the
 * claim: a claim still true is kept, one that nobody makes any more ends.
 */
#define FTNL_RING_CLAIM_HOLD(det)	(4 * (det)->timeout_ns)

/*
 * Probe requests and relays one node serves per heartbeat period; with
 * the quorum rule n/2 more (ftnl_ring_core_set_rules()).
 */
#define FTNL_RING_PROBE_BUDGET	16

/*
 * A probe that comes due while the host holds or drops its input waits
 * this long (ftnl_ring_probe_defer()): half the lead or half a period,
 * whichever is shorter. A backlog holds input for milliseconds to tens
 * of them, whatever d; each wait delays a real failure's detection as
 * much.
 */
static inline u64 ftnl_ring_probe_defer_ns(u64 lead_ns, u64 period_ns)
{
	return (lead_ns < period_ns ? lead_ns : period_ns) / 2;
}

/*
 * A node tells another it holds dead that it is dead (EXPELLED) only 2d
 * after the death: a node resuming from a freeze accuses its emitter
 * (stall guard: h after resuming) before it hears that it is dead itself
 * (the next datagram it sends, or the next tick of a member, answers it
 * within h + 2 network delays); its fresh accusations must not reach a
 * live member as "you are dead" first. The members held it dead far
 * longer: it was frozen for more than d.
 */
#define FTNL_RING_EXPEL_HOLD(det)	(2 * (det)->timeout_ns)

/*
 * A node held dead without its incarnation (declared dead before anyone
 * heard it) that speaks again is taken to speak in the life that died
 * (ftnl_ring_core_tell_dead()): a guess. It is told EXPELLED only this
 * long after the guess: a restarted life, which the guess takes for the
 * dead one, may have been heard by a member that knows the life that
 * died, whose JOIN is then on its way (it admitted the new life within
 * h of its first heartbeat; a broadcast reaches every member well
 * within d in a working cluster). Seen in the VM (slurm, 6.1): a member
 * heard the new life before the JOIN, and the guess expelled it 3.5 ms
 * after it came back. A zombie, which the guess is right about, is told
 * d later than it would be otherwise.
 */
#define FTNL_RING_GUESS_HOLD(det)	((det)->timeout_ns)

/*
 * The comeback (rejoin auto): a node the cluster told it is dead (EXPELLED,
 * or a broadcast of its own death) starts a new incarnation this long after
 * its fence is done, and is readmitted like a rebooted node. The members
 * told it only 2d after its death (FTNL_RING_EXPEL_HOLD), and a death's
 * broadcast reaches every member within d in a working cluster: 4d more,
 * and every member holds the old life dead, with the incarnation the
 * broadcast named, long before the new one speaks. The new life then
 * meets a dead node everywhere (one rejoin, one JOIN, one `joined` per
 * member) rather than racing the broadcast of the old life's death, and
 * any late news about the old life names an incarnation that is stale
 * (older than the new one). The flap rule (K rejoins per window W) bounds
 * the cycle of a node that keeps being expelled.
 */
#define FTNL_RING_COMEBACK_HOLD(det)	(4 * (det)->timeout_ns)

/*
 * Configuration updates (a rolling update: nodes get a new configuration
 * one after another, seconds or minutes apart). Every datagram carries its
 * sender's epoch and d (kmod/wire.h). For the update grace after a ring
 * replaced one of another epoch (ftnl_ring_core_updated()):
 *   - an emitter never heard in this configuration (the first, or one
 *     that replaced a dead one) is not judged before the grace ends plus
 *     d: it may be a node not updated yet, that does not know it is
 *     observed, or a node not started yet;
 *   - it heartbeats the replaced configuration's observer too, until that
 *     one is heard in this epoch: a node not updated yet still observes it.
 * At any time, an emitter heard in another epoch is suspected only after
 * the longer of both d (its configuration's h may be longer than this
 * one's). After the grace, Algorithm 1's timeouts apply unchanged.
 */

/*
 * Ring positions: indices 0..n-1 of the id-sorted node table; the ring
 * runs in ascending order, wrapping around.
 */
static inline u32 ftnl_ring_pred(u32 pos, u32 n)
{
	return pos ? pos - 1 : n - 1;
}

static inline u32 ftnl_ring_succ(u32 pos, u32 n)
{
	return pos + 1 < n ? pos + 1 : 0;
}

u32 ftnl_ring_find_emitter(const unsigned long *dead, u32 n, u32 self,
			   u32 from);
u32 ftnl_ring_find_observer(const unsigned long *dead, u32 n, u32 self);
bool ftnl_ring_can_observe(const unsigned long *dead, u32 n, u32 self,
			   u32 from);
bool ftnl_ring_between(u32 pos, u32 from, u32 to, u32 n);

/**
 * struct ftnl_ring_sink - where the ring's outputs go, during a call only
 * @send: send a datagram of @type (enum ftnl_wire_type) to position @to, never
 *	this node's own
 * @failed: the node at @pos entered D (its peer entry says how and who saw
 *	it): publish the event; when @originate, this node found the failure
 *	and must broadcast it (task T3, line 24). Core layer only.
 * @probe: send PROBE_REQ or PROBE_ACK (@type) carrying @probe to @to
 *	(core layer, only when probes are on)
 * @resigned: this node gave up its membership (enum ftnl_ring_resign):
 *	it stopped; core layer only
 * @expel: send FTNL_MSG_EXPELLED to position @to: "you are dead in
 *	@incarnation" (a dead node is still talking). Core layer only; may
 *	be NULL in a driver that never admits dead senders.
 * @expelled: this node is expelled from its current incarnation
 *	(struct ftnl_ring_core, @expel_reason, @expelled_by say why and who
 *	said so): publish the event, tell the registered processes, fence
 *	them if the policy says so. It no longer acts as a member. Core
 *	layer only; may be NULL.
 * @ctx: passed back
 * @joined: the node at @pos rejoined with a new incarnation (its peer
 *	entry says which, and who admitted it) and is a member again:
 *	publish the event; when @originate, this node admitted it and must
 *	broadcast its JOIN and tell it the current D. Optional (NULL).
 * @held_out: the node at @pos rejoined too often (more than the flap
 *	limit within the window) and is held out: say so. Optional (NULL).
 * @welcome: the node at @pos was heard for the first time while D is not
 *	empty: it may have restarted unnoticed, tell it D. Optional (NULL).
 *
 * Callbacks must not call into the ring.
 */
struct ftnl_ring_probe;

struct ftnl_ring_sink {
	void (*send)(void *ctx, u32 to, u8 type);
	void (*failed)(void *ctx, u32 pos, bool originate);
	void (*probe)(void *ctx, u32 to, u8 type,
		      const struct ftnl_ring_probe *probe);
	void (*resigned)(void *ctx, u8 why);
	void (*expel)(void *ctx, u32 to, u64 incarnation);
	void (*expelled)(void *ctx);
	void *ctx;
	void (*joined)(void *ctx, u32 pos, bool originate);
	void (*held_out)(void *ctx, u32 pos);
	void (*welcome)(void *ctx, u32 pos);
};

/**
 * struct ftnl_ring_detector - Algorithm 1's state at one node
 * @n: ring positions
 * @self: this node's position
 * @emitter: the node this node observes ("emitter")
 * @observer: the node this node heartbeats ("observer")
 * @observing: @emitter is another node (false when every other is in D)
 * @heard_emitter: a heartbeat from the current @emitter arrived
 * @booting: this node still waits for its first emitter under the boot
 *	grace: it never heard it, took no other, and no member welcomed it
 *	(the cluster may still be forming around it: ftnl_ring_probe_judge())
 * @emitter_knows: a NEW_OBSERVER left after @emitter was heard: it knows
 *	this node's incarnation even when it started after the first ones
 * @observer_claimed: @observer asked for this node's heartbeats (T4), as
 *	opposed to the initial successor or one chosen after a leave
 * @stall_grace: the suspicion timer already waited once for a stalled CPU
 *	to read its pending datagrams (reset when a heartbeat or a new
 *	emitter moves the deadline): the local health rule
 * @late_at: when one of this node's own timers last ran more than h late
 *	(ftnl_ring_det_self_late()), or its host last dropped datagrams it
 *	received (ftnl_ring_det_rx_lost()), 0 if never
 * @rx_lost_at: when its host last dropped datagrams it received, 0 if
 *	never
 * @rx_lost: reports of received datagrams the host dropped
 * @rx_dropped_at: when its host last dropped or held datagrams it
 *	received, as counted whether or not the host-drop rule is on
 *	(ftnl_ring_det_rx_dropped(), ftnl_ring_det_rx_held()), 0 if never
 * @rx_gone_at: when its host last dropped datagrams it received (held
 *	ones are read later; dropped ones are gone), 0 if never
 * @stall_waits: judgements of the emitter, or of itself at a probe round's
 *	close, the local health rule put off
 * @forming_waits: probe rounds kept open, instead of resigning, because
 *	this node was @booting and fewer than a majority answered: its
 *	cluster was still forming (ftnl_ring_probe_await())
 * @switched_at: when this node last took a new emitter (task T3, a death
 *	learned, a readmission), 0 if it kept its first
 * @switch_grace: the new emitter's 2d was counted again from when this
 *	node ran again after being late (the local health rule, once per
 *	new emitter)
 * @period_ns: h
 * @timeout_ns: d
 * @boot_grace_ns: added to the first deadline (FTNL_RING_BOOT_GRACE_NS)
 * @susp_deadline: SUSP-TIMEOUT, as a deadline that heartbeats move
 * @last_hb: arrival of the last heartbeat from @emitter
 * @timer_at: when the caller's suspicion timer is set to fire, 0 if unset
 * @timer_moved: the caller must (re)start its timer at @timer_at
 * @probe_lead_ns: the timer first fires this long before the deadline
 *	(FTNL_RING_PROBE), 0 when nothing probes
 * @adaptive: a heartbeat moves the deadline by @adapt's timeout for the
 *	emitter instead of d (ftnl_ring_det_set_adaptive())
 * @adapt: the estimator of the current emitter's inter-arrival times
 *
 * The timer may fire before the deadline (a heartbeat moved it later): it
 * is then set again for the deadline. It is only restarted when the
 * deadline moves earlier than @timer_at, as the kernel's hrtimer is.
 */
struct ftnl_ring_detector {
	u32 n;
	u32 self;
	u32 emitter;
	u32 observer;
	bool observing;
	bool heard_emitter;
	bool booting;
	bool emitter_knows;
	bool observer_claimed;
	bool stall_grace;
	u64 late_at;
	u64 rx_lost_at;
	u64 rx_lost;
	u64 rx_dropped_at;
	u64 rx_gone_at;
	u64 stall_waits;
	u64 forming_waits;
	u64 switched_at;
	bool switch_grace;
	bool timer_moved;
	u64 period_ns;
	u64 timeout_ns;
	u64 boot_grace_ns;
	u64 susp_deadline;
	u64 last_hb;
	u64 timer_at;
	u64 probe_lead_ns;
	bool adaptive;
	struct ftnl_adapt adapt;
};

/* What the suspicion timer found (ftnl_ring_det_expire()). */
enum ftnl_ring_expiry {
	FTNL_RING_IDLE,		/* nothing observed: timer stays off */
	FTNL_RING_WAIT,		/* not yet (or a stalled CPU): timer set again */
	FTNL_RING_SUSPECT,	/* task T3: the emitter is to enter D */
	FTNL_RING_PROBE,	/* the deadline is near: probe the emitter */
	FTNL_RING_RESIGNED,	/* this node gave up its membership */
	FTNL_RING_COMEBACK,	/* expelled: the hold is over, come back */
};

void ftnl_ring_det_init(struct ftnl_ring_detector *det, u32 n, u32 self,
			u64 period_ns, u64 timeout_ns);
void ftnl_ring_det_set_adaptive(struct ftnl_ring_detector *det, u64 min_ns,
				u64 max_ns, u32 nines);
void ftnl_ring_det_start(struct ftnl_ring_detector *det, u64 now,
			 const struct ftnl_ring_sink *out);
void ftnl_ring_det_tick(struct ftnl_ring_detector *det,
			const struct ftnl_ring_sink *out);
bool ftnl_ring_det_heartbeat(struct ftnl_ring_detector *det, u32 from,
			     u64 now);
void ftnl_ring_det_new_observer(struct ftnl_ring_detector *det, u32 from,
				const struct ftnl_ring_sink *out);
enum ftnl_ring_expiry ftnl_ring_det_expire(struct ftnl_ring_detector *det,
					   u64 now);
void ftnl_ring_det_self_late(struct ftnl_ring_detector *det, u64 late_ns,
			     u64 now);
void ftnl_ring_det_rx_lost(struct ftnl_ring_detector *det, u64 now);
void ftnl_ring_det_rx_dropped(struct ftnl_ring_detector *det, u64 now);
void ftnl_ring_det_rx_held(struct ftnl_ring_detector *det, u64 now);
void ftnl_ring_det_lost(struct ftnl_ring_detector *det,
			const unsigned long *dead, u32 pos, bool left, u64 now,
			const struct ftnl_ring_sink *out);
void ftnl_ring_det_readmitted(struct ftnl_ring_detector *det,
			      const unsigned long *dead, u32 pos, u64 now,
			      const struct ftnl_ring_sink *out);

/**
 * struct ftnl_ring_peer - what this node knows of another member
 * @incarnation: its incarnation this node accepted (pinned by a datagram
 *	proven fresh, see ftnl_ring_core_admit()), 0 if none yet
 * @heard: the largest incarnation any authentic datagram of it carried:
 *	echoed back in every datagram to it
 * @hello_at: when this node last answered an unproven datagram of it
 *	(FTNL_MSG_HELLO)
 * @ack_at: when this node last answered a HELLO of it (FTNL_MSG_HELLO_ACK)
 * @dead_incarnation: incarnation it last died (or left) with; a readmitted
 *	node must come back with a larger one
 * @dead_guessed: @dead_incarnation is the first life heard after a death
 *	published before any was (ftnl_ring_core_tell_dead()), not one a
 *	member saw die
 * @observer: position of the node that detected its failure (when not
 *	alive)
 * @expel_next: while it is dead here, no EXPELLED to it before this time
 *	(at most one per h: a dead node cannot make a member do unbounded
 *	work)
 * @state: enum ftnl_node_state
 * @cause: enum ftnl_event_cause of its failure (when not alive)
 * @fresh: its @incarnation was learned from a JOIN, not heard: its next
 *	datagram starts a new replay window (FTNL_RING_ACCEPT_NEW)
 * @flap_since: start of the window its rejoins are counted in
 * @flap_count: rejoins in that window
 * @welcome_until: this node admitted it (a rejoin): until then, each
 *	death it learns is sent to it too (FTNL_RING_WELCOME_WINDOW)
 * @probe_asked: identifier of this node's probe that asked it to help
 *	(0: none)
 * @probe_confirmed: confirmation identifier (struct ftnl_ring_prober's
 *	@cid) of this node's probe it answered as a helper (0: none): a
 *	confirmation, counted while it is alive here
 * @doubt_until: news of its death is held until then, 0 if none
 *	(ftnl_ring_core_death_old(), ftnl_ring_core_death_heard())
 * @doubt_inc: the incarnation that news names (0: it does not)
 * @doubt_observer: position of the node that detected it, as the news says
 * @doubt_state: FTNL_NODE_STATE_DEAD or FTNL_NODE_STATE_LEFT, as it says
 * @claim_until: it claims to observe this node, which D does not allow
 *	(a live node between them here): heartbeaten too until then, 0 if
 *	no such claim (FTNL_RING_CLAIM_HOLD)
 * @epoch: the configuration epoch of its last datagram accepted here
 * @epoch_timeout_ns: the d that datagram carried (its configuration's),
 *	0 if none was heard yet
 * @epoch_inc: the sender incarnation that datagram carried
 * @first: the incarnation its pinned life began with (the header's
 *	@first), which a renewal keeps (ftnl_ring_core_renew()); 0 if not
 *	known
 * @rename_until: a JOIN named a later life of it while a life of it is
 *	pinned here: until then it is asked whether that is the same life
 *	renamed (ftnl_ring_core_join_heard()), 0 if no such JOIN
 * @rename_inc: the life that JOIN named
 * @rename_observer: the member that admitted it, as the JOIN says
 * @join_named: the last life of it a JOIN named while pinned here: a life
 *	after a death (ftnl_ring_core_join_heard()), 0 if none
 * @pinned_until: FTNL_RING_DOUBT_WAIT after its life was pinned here by
 *	first contact: news of its death naming no life is held until then
 *	(ftnl_ring_core_death_heard())
 */
struct ftnl_ring_peer {
	u64 incarnation;
	u64 heard;
	u64 hello_at;
	u64 ack_at;
	u64 dead_incarnation;
	bool dead_guessed;
	u64 expel_next;
	u64 flap_since;
	u32 flap_count;
	u64 welcome_until;
	u32 probe_asked;
	u32 probe_confirmed;
	bool fresh;
	u32 observer;
	u8 state;
	u8 cause;
	u64 doubt_until;
	u64 doubt_inc;
	u32 doubt_observer;
	u8 doubt_state;
	u64 claim_until;
	u32 epoch;
	u64 epoch_timeout_ns;
	u64 epoch_inc;
	u64 first;
	u64 rename_until;
	u64 rename_inc;
	u32 rename_observer;
	u64 join_named;
	u64 pinned_until;
};

/**
 * struct ftnl_ring_probe - what PROBE_REQ and PROBE_ACK carry
 * @target: position of the suspect
 * @origin: position of the observer that suspects it
 * @alive: PROBE_ACK only: the suspect itself answered (relayed by the
 *	helper); false: the helper hears the origin
 * @id: the origin's identifier of the probe, echoed by every answer
 */
struct ftnl_ring_probe {
	u32 target;
	u32 origin;
	bool alive;
	u32 id;
};

/* Why a node gave up its membership (ftnl_ring_sink.resigned). */
enum ftnl_ring_resign {
	FTNL_RING_MEMBER,		/* it did not */
	FTNL_RING_QUORUM_LOST,		/* a death would leave it in a minority */
	FTNL_RING_UNHEARD,		/* no helper answered its probes */
	FTNL_RING_UNCONFIRMED,		/* no majority confirmed its suspicion */
};

/**
 * struct ftnl_ring_prober - the indirect probe of the emitter in progress
 * @active: a probe of @target runs
 * @id: its identifier (struct ftnl_ring_probe), never 0
 * @cid: what a helper's answer counts under (@probe_confirmed): @id, then
 *	a new identifier when the answers received so far are set aside to
 *	verify that this node still hears (@verify_from)
 * @target: the suspect (the emitter when it started)
 * @heard_helper: a helper answered (since @verify_from, once set): it
 *	hears this node
 * @heard_alive: a helper relayed the suspect's own answer
 * @retry_at: the silent helpers and the suspect are asked again from then
 *	(ftnl_ring_probe_retry()): the deadline for the first round, d/2
 *	after a later round started, then every FTNL_RING_PROBE_RETRY
 * @confirmed: helpers' answers counted (once per helper asked and @cid)
 * @asked: helpers asked for this suspicion
 * @round_size: helpers the current round asked
 * @cursor: where the walk for the next helper goes on
 * @started: the current round started
 * @close: the current round closes
 * @decide_at: enough helpers answered (one, or with the quorum rule the
 *	majority's last): the suspect's own answer, two crossings further,
 *	would be here by then (twice that answer's round trip), 0 until then
 * @verify_from: the suspect's silence was established then, 0 until it
 *	was; only answers received since count (ftnl_ring_probe_verify())
 * @widened: the verification, short at its first retry, ran the next
 *	round at once (ftnl_ring_probe_widen())
 * @awaited: this node waited for a majority to come up (the cluster was
 *	forming: ftnl_ring_probe_await())
 * @escalated: with the confirmation rule, the majority was asked (at the
 *	deadline: ftnl_ring_probe_escalate(), or at once by a probe that
 *	started late)
 * @paced: the round goes on because of input the host dropped or this
 *	node's own lateness: those not answering are asked again every d,
 *	not FTNL_RING_PROBE_RETRY (ftnl_ring_probe_pace())
 * @held_at: requests to helpers were last held then, the host's input
 *	being held or dropped (ftnl_ring_probe_held()), 0 if never: the
 *	round is then paced and held open as for drops
 */
struct ftnl_ring_prober {
	bool active;
	bool heard_helper;
	bool heard_alive;
	bool widened;
	bool awaited;
	bool escalated;
	bool paced;
	u32 id;
	u32 cid;
	u32 target;
	u32 confirmed;
	u32 asked;
	u32 round_size;
	u32 cursor;
	u64 started;
	u64 close;
	u64 decide_at;
	u64 retry_at;
	u64 verify_from;
	u64 held_at;
};

/**
 * struct ftnl_ring_core - one node's ring and membership state
 * @det: Algorithm 1
 * @running: started and not stopped (nor expelled): timers and datagrams
 *	are acted on
 * @quorum: the quorum rule is on: no death is published that would leave
 *	this node's live set without a strict majority of the cluster, and
 *	one it observed only once a majority confirmed it (with @probes)
 * @probes: indirect probes before an accusation (struct ftnl_ring_prober)
 * @resigned: enum ftnl_ring_resign, FTNL_RING_MEMBER until it gives up
 * @expelled: the cluster declared this incarnation dead (or it expelled
 *	itself): it no longer acts as a member - no heartbeat, no
 *	observation, no broadcast - until it comes back as a new incarnation
 * @comeback: expelled because the cluster said so, with rejoin auto: it
 *	comes back (ftnl_ring_core_comeback()) once fenced and held
 * @comeback_at: when the hold ends, 0 until the fence is done
 * @expel_reason: enum ftnl_expel_reason, when @expelled
 * @expelled_by: position of the member that said so (this node's own when
 *	it expelled itself), when @expelled
 * @incarnation: this node's incarnation
 * @first: the incarnation this life began with: @incarnation, unless the
 *	life was renewed above a later one a member knew
 *	(ftnl_ring_core_renew()); every datagram carries it
 * @ndead: members dead here (state dead, not left)
 * @nleft: members that left gracefully (they form no side of a partition)
 * @probe_budget: probe requests and relays it still serves this period
 * @probe: the probe in progress
 * @probe_ids: the last probe identifier used
 * @refuted: suspicions withheld because the suspect answered a helper
 * @verified: suspicions whose silence was established and whose helpers'
 *	answers were then asked again (ftnl_ring_probe_verify()); each takes
 *	an identifier of @probe_ids
 * @throttled: probe requests and relays refused over the budget
 * @deferred: probes put off because the host held or dropped input when
 *	they were due (ftnl_ring_core_expire())
 * @asks_held: requests to helpers not sent because the host held or
 *	dropped input just before (ftnl_ring_probe_held())
 * @nclaims: peers whose claim to observe this node D does not allow
 *	(their @claim_until is set): heartbeaten too, until the claim ends,
 *	the claimant is in D or D allows it to observe
 * @dead: D, a bitmap over positions (caller memory, zeroed)
 * @peers: per position (caller memory, zeroed); @peers[self] is unused
 * @rejoin_auto: a dead node heard with a new incarnation is readmitted
 *	cluster-wide (FTNL_REJOIN_AUTO); else only by an admin
 * @flap_max: K, rejoins of one node admitted within @flap_window_ns
 * @flap_window_ns: W
 * @welcome_until: the latest of the peers' @welcome_until
 * @ndoubts: peers whose death news is held (their @doubt_until is set)
 * @news_held: death news held (ftnl_ring_core_death_old(), or naming no
 *	life: ftnl_ring_core_death_heard())
 * @news_stale: held news dropped: its node proved a newer life, or a JOIN
 *	named the life pinned
 * @nrenames: peers a JOIN named in a later life that is not settled yet
 *	(their @rename_until is set)
 * @renamed: lives of members taken as renamed (ftnl_ring_core_admit()),
 *	not ended
 * @renames_held: JOINs of a later life of a member whose life is pinned
 *	here, held for it to say whether it renamed itself
 * @epoch: this configuration's epoch (FTNL_A_EPOCH)
 * @update_grace_ns: the update grace of ftnl_ring_core_updated(), 0 when
 *	this ring replaced none of another epoch
 * @update_until: when that grace ends (set at the start), 0 if none
 * @prev_observer: the replaced configuration's observer, heartbeaten too
 *	during the grace until heard in this epoch (this node's own position:
 *	none, or no more)
 */
struct ftnl_ring_core {
	struct ftnl_ring_detector det;
	bool running;
	bool quorum;
	bool probes;
	u8 resigned;
	bool expelled;
	bool comeback;
	u64 comeback_at;
	u8 expel_reason;
	u32 expelled_by;
	bool rejoin_auto;
	u32 flap_max;
	u64 flap_window_ns;
	u64 welcome_until;
	u64 incarnation;
	u64 first;
	u32 ndead;
	u32 nleft;
	u32 probe_budget;
	struct ftnl_ring_prober probe;
	u32 probe_ids;
	u64 refuted;
	u64 verified;
	u64 throttled;
	u64 deferred;
	u64 asks_held;
	u32 nclaims;
	u32 ndoubts;
	u64 news_held;
	u64 news_stale;
	u32 nrenames;
	u64 renamed;
	u64 renames_held;
	u32 epoch;
	u64 update_grace_ns;
	u64 update_until;
	u32 prev_observer;
	unsigned long *dead;
	struct ftnl_ring_peer *peers;
};

/* How a datagram's sender fares (ftnl_ring_core_admit()). */
enum ftnl_ring_admit {
	FTNL_RING_ACCEPT,	/* known incarnation: check its sequence */
	FTNL_RING_ACCEPT_NEW,	/* first of this incarnation: new replay window */
	FTNL_RING_DEAD_SENDER,	/* dead or left here: dropped, a dead one told */
	FTNL_RING_STALE,	/* an incarnation older than known */
	FTNL_RING_UNPINNED,	/* first contact not proven fresh: acted on
				 * (but a LEAVE: FTNL_DROP_UNPROVEN), no life
				 * pinned, no replay window
				 */
};

/**
 * struct ftnl_node_view - a node as the node dump shows it
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

void ftnl_ring_core_init(struct ftnl_ring_core *core, u32 n, u32 self,
			 u64 period_ns, u64 timeout_ns, u64 incarnation,
			 unsigned long *dead, struct ftnl_ring_peer *peers);
void ftnl_ring_core_set_rules(struct ftnl_ring_core *core, bool quorum,
			      bool probes);
bool ftnl_ring_core_has_quorum(const struct ftnl_ring_core *core, u32 more);
void ftnl_ring_core_probe_rx(struct ftnl_ring_core *core, u32 from, u8 type,
			     const struct ftnl_ring_probe *probe, u64 now,
			     const struct ftnl_ring_sink *out);
void ftnl_ring_core_inherit(struct ftnl_ring_core *core, u32 pos,
			    const struct ftnl_ring_peer *peer, u32 observer);
void ftnl_ring_core_start(struct ftnl_ring_core *core, u64 now,
			  const struct ftnl_ring_sink *out);
void ftnl_ring_core_stop(struct ftnl_ring_core *core);
void ftnl_ring_core_tick(struct ftnl_ring_core *core, u64 now,
			 const struct ftnl_ring_sink *out);
enum ftnl_ring_expiry ftnl_ring_core_expire(struct ftnl_ring_core *core,
					    u64 now,
					    const struct ftnl_ring_sink *out);
enum ftnl_ring_admit ftnl_ring_core_admit(struct ftnl_ring_core *core, u32 pos,
					  u64 incarnation, u64 first, u64 echo,
					  u64 now,
					  const struct ftnl_ring_sink *out);
bool ftnl_ring_core_heartbeat(struct ftnl_ring_core *core, u32 from, u64 now);
void ftnl_ring_core_self_late(struct ftnl_ring_core *core, u64 late_ns,
			      u64 now);
void ftnl_ring_core_rx_lost(struct ftnl_ring_core *core, u64 now);
void ftnl_ring_core_rx_dropped(struct ftnl_ring_core *core, u64 now);
void ftnl_ring_core_rx_held(struct ftnl_ring_core *core, u64 now);
void ftnl_ring_core_hello_rx(struct ftnl_ring_core *core, u32 from, u64 now,
			     const struct ftnl_ring_sink *out);
bool ftnl_ring_core_outlived(const struct ftnl_ring_core *core, u64 echo);
void ftnl_ring_core_renew(struct ftnl_ring_core *core, u64 incarnation);
void ftnl_ring_core_set_first(struct ftnl_ring_core *core, u64 first);
bool ftnl_ring_core_new_observer(struct ftnl_ring_core *core, u32 from,
				 u64 now, const struct ftnl_ring_sink *out);
void ftnl_ring_core_leave_rx(struct ftnl_ring_core *core, u32 from, u64 now,
			     const struct ftnl_ring_sink *out);
void ftnl_ring_core_failure_learned(struct ftnl_ring_core *core, u32 pos,
				    u8 state, u8 cause, u32 observer, u64 now,
				    const struct ftnl_ring_sink *out);
void ftnl_ring_core_death_heard(struct ftnl_ring_core *core, u32 pos, u8 state,
				u64 incarnation, u32 observer, u64 now,
				const struct ftnl_ring_sink *out);
void ftnl_ring_core_death_old(struct ftnl_ring_core *core, u32 pos,
			      u8 state, u64 incarnation, u32 observer,
			      u64 now, const struct ftnl_ring_sink *out);
int ftnl_ring_core_readmit(struct ftnl_ring_core *core, u32 pos, u64 now,
			   const struct ftnl_ring_sink *out, const char **why);
void ftnl_ring_core_set_rejoin(struct ftnl_ring_core *core, bool rejoin_auto,
			       u32 flap_max, u64 flap_window_ns);
bool ftnl_ring_core_join_heard(struct ftnl_ring_core *core, u32 pos,
			       u64 incarnation, bool renamed, u32 observer,
			       u64 now, const struct ftnl_ring_sink *out);
bool ftnl_ring_core_renamed(const struct ftnl_ring_core *core, u32 pos);
bool ftnl_ring_core_welcome(struct ftnl_ring_core *core, u64 incarnation,
			    u64 now);
u32 ftnl_ring_core_rejoined(const struct ftnl_ring_core *core, u32 *pos,
			    u64 *incarnation, u32 max);
void ftnl_ring_core_leave(struct ftnl_ring_core *core,
			  const struct ftnl_ring_sink *out);
bool ftnl_ring_core_expel_self(struct ftnl_ring_core *core, u8 reason,
			       const struct ftnl_ring_sink *out);
bool ftnl_ring_core_expelled_rx(struct ftnl_ring_core *core, u32 from,
				u64 sender_inc, u64 sender_first,
				u64 incarnation,
				const struct ftnl_ring_sink *out);
bool ftnl_ring_core_fenced(struct ftnl_ring_core *core, u64 now);
bool ftnl_ring_core_comeback(struct ftnl_ring_core *core, u64 incarnation,
			     u64 now, const struct ftnl_ring_sink *out);
void ftnl_ring_core_view(const struct ftnl_ring_core *core, u32 pos, u64 now,
			 struct ftnl_node_view *view);
bool ftnl_ring_core_take_timer(struct ftnl_ring_core *core, u64 *at);
void ftnl_ring_core_set_epoch(struct ftnl_ring_core *core, u32 epoch);
void ftnl_ring_core_updated(struct ftnl_ring_core *core, u64 grace_ns,
			    u32 prev_observer);
bool ftnl_ring_core_epoch_heard(struct ftnl_ring_core *core, u32 pos,
				u64 incarnation, u32 epoch, u64 timeout_ns);
bool ftnl_ring_core_in_epoch(const struct ftnl_ring_core *core, u32 pos);

#endif /* _FTNL_RING_CORE_H */
