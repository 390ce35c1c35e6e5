// SPDX-License-Identifier: GPL-2.0
/*
 * The observation ring in the kernel: the pure state machine of core.c
 * (Algorithm 1 and the node's membership state) driven by two timers and
 * the receive path, under @lock:
 *
 *   HB-TIMEOUT   ftnl_ring_hb_run()     task T1, every h, in a HI tasklet
 *                                        a hard hrtimer schedules
 *   SUSP-TIMEOUT ftnl_ring_susp_fire()  task T3 when due, set where the
 *                                        core asks (ftnl_ring_sync_timer())
 *   datagrams    ftnl_ring_rx()         T2, T4, leave, broadcasts (T5),
 *                                        EXPELLED
 *
 * Neither emission nor observation ever waits for a task to be scheduled.
 * This node's own timers running late feed the core's local health rule.
 * The core's outputs come back through ftnl_ring_sink: datagrams go to the
 * transport, failures become events and broadcasts, this node's expulsion
 * an event and the fencing of its registered processes. Datagrams are built
 * under @lock and sent once it is released (ftnl_bcast_flush()), so that a
 * heartbeat never waits while another context transmits, nor while this
 * node signs a broadcast it started.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/bottom_half.h>
#include <linux/delay.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/nsproxy.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "ring.h"

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
	case FTNL_MSG_PROBE_REQ:
		return FTNL_A_STATS_PROBE_REQ_SENT;
	case FTNL_MSG_PROBE_ACK:
		return FTNL_A_STATS_PROBE_ACK_SENT;
	default:	/* a HELLO too: a heartbeat's size, once per contact */
		return FTNL_A_STATS_HB_SENT;
	}
}

/* The core's datagrams. */
static void ftnl_ring_sink_send(void *ctx, u32 pos, u8 type)
{
	struct ftnl_ring *ring = ctx;

	lockdep_assert_held(&ring->lock);
	if (ftnl_transport_send(&ring->xport, pos, type, NULL, 0))
		ftnl_ring_count(ring, FTNL_A_STATS_TX_ERRORS);
	else
		ftnl_ring_count(ring, ftnl_ring_tx_counter(type));
}

/* The core's probe datagrams: positions become node ids on the wire. */
static void ftnl_ring_sink_probe(void *ctx, u32 pos, u8 type,
				 const struct ftnl_ring_probe *probe)
{
	struct ftnl_ring *ring = ctx;
	const struct ftnl_wire_probe wire = {
		.target_id = ftnl_ring_id(ring, probe->target),
		.origin_id = ftnl_ring_id(ring, probe->origin),
		.flags = probe->alive ? FTNL_PROBE_ALIVE : 0,
		.probe_id = probe->id,
	};
	u8 buf[FTNL_WIRE_PROBE_LEN];

	lockdep_assert_held(&ring->lock);
	ftnl_wire_probe_encode(buf, &wire);
	if (ftnl_transport_send(&ring->xport, pos, type, buf, sizeof(buf)))
		ftnl_ring_count(ring, FTNL_A_STATS_TX_ERRORS);
	else
		ftnl_ring_count(ring, ftnl_ring_tx_counter(type));
}

/*
 * This node expelled itself (quorum lost, or it cannot hear): the
 * expulsion's own output says so to its subscribers; the log says why.
 */
static void ftnl_ring_sink_resigned(void *ctx, u8 why)
{
	struct ftnl_ring *ring = ctx;

	lockdep_assert_held(&ring->lock);
	pr_warn("cluster %u: node %u resigned its membership: %s\n",
		ring->cluster->cluster_id, ring->cluster->self_id,
		why == FTNL_RING_QUORUM_LOST ?
		"a death would have left it without a majority" :
		why == FTNL_RING_UNCONFIRMED ?
		"no majority of the cluster confirmed its suspicion: it is on a minority side" :
		"no member answered its probes: it cannot hear");
}

static void ftnl_ring_publish(struct ftnl_ring *ring, u32 pos)
{
	const struct ftnl_ring_peer *peer = &ring->core.peers[pos];
	const struct ftnl_event_what what = {
		.incarnation = peer->incarnation,
	};

	ftnl_event_publish(ring->fn, ring->cluster, peer->cause,
			   ftnl_ring_id(ring, pos),
			   ftnl_ring_id(ring, peer->observer), &what);
}

/*
 * A failure entered D: publish it, and hand it to the broadcast layer
 * (task T3, line 24) when this node found it.
 */
static void ftnl_ring_sink_failed(void *ctx, u32 pos, bool originate)
{
	struct ftnl_ring *ring = ctx;
	const struct ftnl_ring_peer *peer = &ring->core.peers[pos];
	const struct ftnl_bcast_death death = {
		.node_id = ftnl_ring_id(ring, pos),
		.observer_id = ftnl_ring_id(ring, peer->observer),
		.incarnation = peer->dead_incarnation,
		.cause = peer->cause,
		.state = peer->state,
	};

	lockdep_assert_held(&ring->lock);
	ftnl_ring_publish(ring, pos);
	if (originate)
		ftnl_bcast_originate(&ring->bcast, &death, 1);
}

/*
 * The node at @pos rejoined: publish it, and when this node admitted it,
 * broadcast its JOIN and welcome it with this node's D.
 */
static void ftnl_ring_sink_joined(void *ctx, u32 pos, bool originate)
{
	struct ftnl_ring *ring = ctx;
	const struct ftnl_ring_peer *peer = &ring->core.peers[pos];
	const struct ftnl_bcast_death join = {
		.node_id = ftnl_ring_id(ring, pos),
		.observer_id = ftnl_ring_id(ring, peer->observer),
		.incarnation = peer->incarnation,
		.cause = FTNL_CAUSE_OBSERVED,
		.state = FTNL_BCAST_JOIN,
		.flags = ftnl_ring_core_renamed(&ring->core, pos) ?
			 FTNL_BCAST_RENAMED : 0,
	};
	const struct ftnl_event_what what = {
		.joined = true,
		.incarnation = peer->incarnation,
	};

	lockdep_assert_held(&ring->lock);
	ftnl_event_publish(ring->fn, ring->cluster,
			   originate ? FTNL_CAUSE_OBSERVED : FTNL_CAUSE_BROADCAST,
			   join.node_id, join.observer_id, &what);
	if (!originate)
		return;
	ftnl_bcast_originate(&ring->bcast, &join, 1);
	ftnl_bcast_welcome(&ring->bcast, pos, &join);
}

/* The node at @pos was heard first while D is not empty: tell it D. */
static void ftnl_ring_sink_welcome(void *ctx, u32 pos)
{
	struct ftnl_ring *ring = ctx;
	const struct ftnl_bcast_death join = {
		.node_id = ftnl_ring_id(ring, pos),
		.observer_id = ring->cluster->self_id,
		.incarnation = ring->core.peers[pos].incarnation,
		.cause = FTNL_CAUSE_OBSERVED,
		.state = FTNL_BCAST_JOIN,
		.flags = ftnl_ring_core_renamed(&ring->core, pos) ?
			 FTNL_BCAST_RENAMED : 0,
	};

	lockdep_assert_held(&ring->lock);
	ftnl_bcast_welcome(&ring->bcast, pos, &join);
}

/* The core's EXPELLED: "you are dead in @incarnation". */
static void ftnl_ring_sink_expel(void *ctx, u32 pos, u64 incarnation)
{
	struct ftnl_ring *ring = ctx;
	u8 payload[FTNL_WIRE_EXPELLED_LEN];

	lockdep_assert_held(&ring->lock);
	ftnl_put_be64(payload, incarnation);
	if (ftnl_transport_send(&ring->xport, pos, FTNL_MSG_EXPELLED, payload,
				sizeof(payload)))
		ftnl_ring_count(ring, FTNL_A_STATS_TX_ERRORS);
	else
		ftnl_ring_count(ring, FTNL_A_STATS_EXPELLED_SENT);
}

/*
 * This node is expelled (the core stopped acting): publish it, and have
 * the registered processes fenced as the policy says, from a work item.
 */
static void ftnl_ring_sink_expelled(void *ctx)
{
	struct ftnl_ring *ring = ctx;
	const struct ftnl_ring_core *core = &ring->core;
	const struct ftnl_event_what what = {
		.expelled = true,
		.expel_reason = core->expel_reason,
		.incarnation = core->incarnation,
	};

	lockdep_assert_held(&ring->lock);
	pr_notice("node %u expelled from cluster %u in incarnation %llu (reason %u, by node %u)\n",
		  ring->cluster->self_id, ring->cluster->cluster_id,
		  core->incarnation, core->expel_reason,
		  ftnl_ring_id(ring, core->expelled_by));
	ftnl_event_publish(ring->fn, ring->cluster, FTNL_CAUSE_OBSERVED,
			   ring->cluster->self_id,
			   ftnl_ring_id(ring, core->expelled_by), &what);
	ftnl_procs_expelled(ring->fn, ring->cluster->fence == FTNL_FENCE_KILL,
			    core->comeback);
}

/* The node at @pos came back too often: held out, and the log says so. */
static void ftnl_ring_sink_held_out(void *ctx, u32 pos)
{
	struct ftnl_ring *ring = ctx;

	pr_notice_ratelimited("cluster %u: node %u rejoined more than %u times within %u s: held out\n",
			      ring->cluster->cluster_id, ftnl_ring_id(ring, pos),
			      ring->cluster->flap_limit,
			      ring->cluster->flap_window_s);
}

/*
 * Working memory of verifying broadcasts' signatures and of signing those
 * this node starts, one per CPU, used with BHs disabled: both run without
 * the ring's lock, so they cannot use the ring's (ftnl_ring_rx_signed(),
 * ftnl_bcast_flush()).
 */
static struct ftnl_ed25519_ctx __percpu *ftnl_ring_crypto_ctx;

static void ftnl_ring_sink(struct ftnl_ring *ring, struct ftnl_ring_sink *out)
{
	*out = (struct ftnl_ring_sink){
		.send = ftnl_ring_sink_send,
		.failed = ftnl_ring_sink_failed,
		.expel = ftnl_ring_sink_expel,
		.expelled = ftnl_ring_sink_expelled,
		.probe = ftnl_ring_sink_probe,
		.resigned = ftnl_ring_sink_resigned,
		.ctx = ring,
		.joined = ftnl_ring_sink_joined,
		.held_out = ftnl_ring_sink_held_out,
		.welcome = ftnl_ring_sink_welcome,
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

/*
 * The broadcast layer's one call into the ring (struct ftnl_bcast_ops): a
 * broadcast says the node at @pos failed, task T5 (see
 * ftnl_ring_core_death_heard()), which is also how a broadcast can reveal
 * that the emitter is dead before its timeout.
 */
static void ftnl_ring_death_heard(void *ctx, u32 pos, u8 state,
				  u64 incarnation, u32 observer_id,
				  u64 origin_ns, ktime_t now)
{
	struct ftnl_ring *ring = ctx;
	struct ftnl_ring_sink out;
	u32 observer;

	lockdep_assert_held(&ring->lock);
	ftnl_ring_sink(ring, &out);
	observer = ftnl_ring_pos_of(ring, observer_id);
	/* Started before this life began (wall clocks): see the core. */
	if (origin_ns < ring->life_start_real)
		ftnl_ring_core_death_old(&ring->core, pos, state, incarnation,
					 observer, ktime_to_ns(now), &out);
	else
		ftnl_ring_core_death_heard(&ring->core, pos, state,
					   incarnation, observer,
					   ktime_to_ns(now), &out);
	ftnl_ring_sync_timer(ring);
}

/* What a broadcast's D says of the node at @pos (the ring locked). */
static u64 ftnl_ring_dead_incarnation(void *ctx, u32 pos)
{
	struct ftnl_ring *ring = ctx;

	lockdep_assert_held(&ring->lock);
	return ring->core.peers[pos].dead_incarnation;
}

/* A broadcast says the node at @pos rejoined (see ftnl_ring_core_join_heard()). */
static void ftnl_ring_join_heard(void *ctx, u32 pos, u64 incarnation,
				 bool renamed, u32 observer_id, ktime_t now)
{
	struct ftnl_ring *ring = ctx;
	struct ftnl_ring_sink out;

	lockdep_assert_held(&ring->lock);
	ftnl_ring_sink(ring, &out);
	ftnl_ring_core_join_heard(&ring->core, pos, incarnation, renamed,
				  ftnl_ring_pos_of(ring, observer_id),
				  ktime_to_ns(now), &out);
	/* What the transport echoes to it: the life the JOIN names. */
	if (ring->core.peers[pos].heard > ring->xport.echo[pos])
		WRITE_ONCE(ring->xport.echo[pos], ring->core.peers[pos].heard);
	ftnl_ring_sync_timer(ring);
}

/* A welcome for this node's incarnation @incarnation (the ring locked). */
static bool ftnl_ring_welcome(void *ctx, u64 incarnation, ktime_t now)
{
	struct ftnl_ring *ring = ctx;
	bool ok;

	lockdep_assert_held(&ring->lock);
	ok = ftnl_ring_core_welcome(&ring->core, incarnation, ktime_to_ns(now));
	ftnl_ring_sync_timer(ring);
	return ok;
}

/*
 * For a welcome: live nodes known here to have come back, as JOIN entries
 * (the node being welcomed may have missed their JOIN).
 */
static u32 ftnl_ring_rejoined(void *ctx, struct ftnl_bcast_death *joins,
			      u32 max)
{
	struct ftnl_ring *ring = ctx;
	u32 *pos = ring->rejoined_pos;
	u64 *inc = ring->rejoined_inc;
	u32 i, n;

	lockdep_assert_held(&ring->lock);
	n = ftnl_ring_core_rejoined(&ring->core, pos, inc,
				    min_t(u32, max, FTNL_BCAST_MAX_DEATHS));
	for (i = 0; i < n; i++)
		joins[i] = (struct ftnl_bcast_death){
			.node_id = ftnl_ring_id(ring, pos[i]),
			.observer_id = ring->cluster->self_id,
			.incarnation = inc[i],
			.cause = FTNL_CAUSE_OBSERVED,
			.state = FTNL_BCAST_JOIN,
			.flags = ftnl_ring_core_renamed(&ring->core, pos[i]) ?
				 FTNL_BCAST_RENAMED : 0,
		};
	return n;
}

static const struct ftnl_bcast_ops ftnl_ring_bcast_ops = {
	.failure_learned = ftnl_ring_death_heard,
	.dead_incarnation = ftnl_ring_dead_incarnation,
	.join_learned = ftnl_ring_join_heard,
	.welcome = ftnl_ring_welcome,
	.rejoined = ftnl_ring_rejoined,
};

/* One more duration in a histogram of FTNL_LATENESS_BUCKETS (see uapi). */
static void ftnl_ring_record(atomic64_t *hist, u64 *max_ns, s64 ns)
{
	u64 us;
	int bucket;

	if (ns < 0)
		ns = 0;
	us = div_u64(ns, NSEC_PER_USEC);
	bucket = us ? min_t(int, fls64(us), FTNL_LATENESS_BUCKETS - 1) : 0;
	atomic64_inc(&hist[bucket]);
	if (ns > READ_ONCE(*max_ns))
		WRITE_ONCE(*max_ns, ns);
}

/*
 * Off, this node's own timers are not reported to the core: only the
 * suspicion timer's own lateness counts (the former stall guard). For
 * measuring the rule (make bench), not for production.
 */
static bool local_health = true;
module_param(local_health, bool, 0644);
MODULE_PARM_DESC(local_health,
		 "report this node's late timers to the local health rule (1, default); 0 keeps only the suspicion timer's own lateness, for comparison");

static void ftnl_ring_self_late(struct ftnl_ring *ring, ktime_t due,
				ktime_t now)
{
	if (READ_ONCE(local_health) && ktime_after(now, due))
		ftnl_ring_core_self_late(&ring->core,
					 ktime_to_ns(ktime_sub(now, due)),
					 ktime_to_ns(now));
}

/*
 * Off by default: holding every judgement d past the last drop, the probe
 * included, delays detection by up to d per drop (a 6.1 guest of 32
 * nodes, d = 2 s, missed selftests/bcast_forwarders' bound of d + 1 s
 * with it on, when drops were counted host-wide), which is not bounded
 * yet. On, it removed the 6.12 quiet runs' collapses
 * (Documentation/bench.rst, part 8). Off, the drops still keep a node
 * from resigning, put a probe off, re-verify an accusation they may have
 * made and hold it d after the last one (ftnl_ring_core_rx_dropped()).
 */
static bool host_drop_rule;
module_param(host_drop_rule, bool, 0644);
MODULE_PARM_DESC(host_drop_rule,
		 "1: input drops hold every judgement d (0, default: they hold resignations, and accusations d); see Documentation/ring.rst");

/*
 * The host dropped (@gone) or held input that may have been this node's:
 * the local health rule hears it (how: host_drop_rule).
 */
static void ftnl_ring_report_host_rx(struct ftnl_ring *ring, ktime_t now,
				     bool gone)
{
	if (!READ_ONCE(local_health))
		return;
	if (READ_ONCE(host_drop_rule))
		ftnl_ring_core_rx_lost(&ring->core, ktime_to_ns(now));
	else if (gone)
		ftnl_ring_core_rx_dropped(&ring->core, ktime_to_ns(now));
	else
		ftnl_ring_core_rx_held(&ring->core, ktime_to_ns(now));
}

/*
 * Input of this node dropped at a full backlog since the last heartbeat
 * tick (host_rx.c): the stats count it, and the local health rule hears
 * it. Read at each tick and before each judgement. Only when the host's
 * backlog drops and the drops of this netns's devices rose together: the
 * host's alone may be another namespace's input (a one-kernel cluster),
 * the devices' alone frames with no protocol (anyone on the link can send
 * those, and they would hold this node's accusations for nothing). The
 * smaller rise is counted.
 */
static void ftnl_ring_note_host_drops(struct ftnl_ring *ring, ktime_t now)
{
	u64 host = ftnl_host_rx_drops(), host_seen = ring->host_rx_drops;
	u64 mine = ftnl_netns_rx_drops(read_pnet(&ring->fn->net));
	u64 mine_seen = ring->netns_rx_drops, rise;

	lockdep_assert_held(&ring->lock);
	ring->host_rx_drops = host;
	ring->netns_rx_drops = mine;
	if (host == host_seen || mine <= mine_seen)
		return;
	/* A CPU's 32-bit count wrapped: at least one drop. */
	rise = host > host_seen ? host - host_seen : 1;
	if (mine - mine_seen < rise)
		rise = mine - mine_seen;
	atomic64_add(rise, &ring->counters[FTNL_A_STATS_HOST_RX_DROPS]);
	ftnl_ring_report_host_rx(ring, now, true);
}

/*
 * Input the host queued before the last tick and has not read yet (a CPU's
 * receive softirq behind, as when it waits for ksoftirqd behind user
 * tasks): what the emitter and the helpers sent may be waiting there, so
 * a silence heard meanwhile says nothing of them. The local health rule
 * takes it as it takes drops: input delayed is input not heard yet. Read
 * at each tick (@tick: then what is queued now is noted for the next)
 * and before each judgement; the stats count it.
 */
static void ftnl_ring_note_host_unread(struct ftnl_ring *ring, ktime_t now,
				       bool tick)
{
	bool unread;

	lockdep_assert_held(&ring->lock);
	unread = ftnl_host_rx_unread(ring->host_rx_tails);
	if (tick)
		ftnl_host_rx_snapshot(ring->host_rx_tails);
	if (!unread)
		return;
	ftnl_ring_count(ring, FTNL_A_STATS_HOST_RX_UNREAD);
	ftnl_ring_report_host_rx(ring, now, false);
}

/*
 * The test stall (module parameter test_stall_ms): for a while, this ring
 * runs as if its CPU did not, to test the local health rule. Its timers
 * wait until the end (then run late, as a stalled CPU's do), and the
 * datagrams it receives meanwhile are not read; the last heartbeat among
 * them is kept and read once the suspicion timer ran, the order in which
 * a CPU whose receive softirq waits behind ksoftirqd reads it.
 */
static bool ftnl_ring_stalled(const struct ftnl_ring *ring, ktime_t now)
{
	return ktime_before(now, READ_ONCE(ring->stalled_until));
}

static void ftnl_ring_stall_backlog(struct ftnl_ring *ring, ktime_t now)
{
	u32 pos;

	lockdep_assert_held(&ring->lock);
	if (!ring->stall_hb_from)
		return;
	pos = ring->stall_hb_from - 1;
	ring->stall_hb_from = 0;
	ftnl_ring_count(ring, FTNL_A_STATS_HB_RECV);
	if (ftnl_ring_core_heartbeat(&ring->core, pos, ktime_to_ns(now)))
		ftnl_ring_count(ring, FTNL_A_STATS_HB_FROM_EMITTER);
}

static int ftnl_ring_inject_stall(struct ftnl_ring *ring, unsigned int ms)
{
	spin_lock_bh(&ring->lock);
	WRITE_ONCE(ring->stalled_until, ktime_add_ms(ktime_get(), ms));
	spin_unlock_bh(&ring->lock);
	return 0;
}

/* Writing N stalls the ring of the writer's netns for N ms (test only). */
static int ftnl_ring_param_stall(const char *val, const struct kernel_param *kp)
{
	struct ftnl_cluster *cluster;
	struct ftnl_net *fn;
	unsigned int ms;
	int err;

	err = kstrtouint(val, 0, &ms);
	if (err)
		return err;
	if (!ms || ms > 10000)
		return -ERANGE;
	/* Given to insmod, or written while the module goes away: no ring. */
	if (!ftnl_netns_ready())
		return -ENOENT;
	fn = ftnl_net(current->nsproxy->net_ns);
	mutex_lock(&fn->lock);
	cluster = ftnl_cluster_current(fn);
	err = cluster ? ftnl_ring_inject_stall(cluster->ring, ms) : -ENOENT;
	mutex_unlock(&fn->lock);
	return err;
}

static const struct kernel_param_ops ftnl_ring_stall_ops = {
	.set = ftnl_ring_param_stall,
};

module_param_cb(test_stall_ms, &ftnl_ring_stall_ops, NULL, 0200);
MODULE_PARM_DESC(test_stall_ms,
		 "test only: writing N makes the ring of the writer's network namespace run as if its CPU stalled for N ms (1 to 10000)");

/*
 * Where task T1 runs (issue 11 item 2, issue 10 item 7). 1 (default): a
 * hard hrtimer that only schedules a HI tasklet, which runs first in
 * every softirq pass and which 6.1 never leaves to ksoftirqd, so a
 * heartbeat waits at most for the softirq handler running when it falls
 * due. 0: the soft hrtimer's softirq, which also waits for the network
 * receive softirq of the same pass and, on 6.1, for ksoftirqd once
 * softirq work overflows a pass (Documentation/bench.rst, part 5); kept
 * for comparison. Read when a ring is created.
 */
static bool hb_hi_softirq = true;
module_param(hb_hi_softirq, bool, 0644);
MODULE_PARM_DESC(hb_hi_softirq,
		 "send heartbeats from the HI softirq, a hard hrtimer scheduling a HI tasklet (1, default), or from the timer softirq (0); read when a cluster is configured");

/*
 * Arm the heartbeat timer to run T1 now (a ring that starts or comes
 * back); its mode must match the one it was set up with.
 */
static void ftnl_ring_hb_start_now(struct ftnl_ring *ring)
{
	hrtimer_start(&ring->hb_timer, 0, ring->hb_hi ? HRTIMER_MODE_REL_HARD :
			HRTIMER_MODE_REL_SOFT);
}

/*
 * The heartbeat timer's expiry is set for the next period: with the HI
 * tasklet the timer is re-armed here, under @lock, so that once @lock
 * saw the ring stopped no tasklet arms it again; the soft timer's
 * callback restarts it itself.
 */
static void ftnl_ring_hb_again(struct ftnl_ring *ring)
{
	lockdep_assert_held(&ring->lock);
	if (ring->hb_hi)
		hrtimer_start_expires(&ring->hb_timer, HRTIMER_MODE_ABS_HARD);
}

/*
 * Task T1, from the soft timer's callback or the HI tasklet. Returns
 * whether the timer runs again (its expiry set).
 */
static bool ftnl_ring_hb_run(struct ftnl_ring *ring)
{
	struct hrtimer *timer = &ring->hb_timer;
	ktime_t now = ktime_get(), due = hrtimer_get_expires(timer);
	struct ftnl_ring_sink out;
	u64 periods;

	spin_lock(&ring->lock);
	/* What a heartbeat waits for another context's work (item 7). */
	ftnl_ring_record(ring->hb_lock_wait, &ring->hb_lock_wait_max_ns,
			 ktime_to_ns(ktime_sub(ktime_get(), now)));
	/* Stopped, or restarted under the lock (a comeback) meanwhile. */
	if (!ring->core.running || hrtimer_is_queued(timer)) {
		spin_unlock(&ring->lock);
		return false;
	}
	if (ftnl_ring_stalled(ring, now)) {
		/* Test stall: this expiry runs when it ends, as late as that. */
		if (!ring->stall_hb_due)
			WRITE_ONCE(ring->stall_hb_due, due);
		hrtimer_set_expires(timer, ring->stalled_until);
		ftnl_ring_hb_again(ring);
		spin_unlock(&ring->lock);
		return true;
	}
	if (ring->stall_hb_due) {
		due = ring->stall_hb_due;
		WRITE_ONCE(ring->stall_hb_due, 0);
		hrtimer_set_expires(timer, due);
	}
	/* The interrupt's and the softirq's delivery, before this handler. */
	ftnl_ring_record(ring->hb_start_late, &ring->hb_start_late_max_ns,
			 ktime_to_ns(ktime_sub(now, due)));
	ftnl_ring_sink(ring, &out);
	/* Late by more than h: the local health rule wants to know. */
	ftnl_ring_self_late(ring, due, now);
	ftnl_ring_note_host_drops(ring, now);
	ftnl_ring_note_host_unread(ring, now, true);
	ftnl_ring_core_tick(&ring->core, ktime_to_ns(now), &out);
	ftnl_transport_expire_key(&ring->xport, ktime_to_ns(now));
	/* No judgement due: what the test stall held back is read now. */
	if (ktime_after(hrtimer_get_expires(&ring->susp_timer), now))
		ftnl_ring_stall_backlog(ring, now);
	periods = hrtimer_forward(timer, now,
				  ns_to_ktime(ring->core.det.period_ns));
	ftnl_ring_hb_again(ring);
	spin_unlock(&ring->lock);
	ftnl_transport_flush(&ring->xport);
	/*
	 * Lateness: from the deadline to the heartbeat handed to the stack,
	 * not counting the signing of a broadcast this tick started, which
	 * follows it.
	 */
	ftnl_ring_record(ring->lateness, &ring->lateness_max_ns,
			 ktime_to_ns(ktime_sub(ktime_get(), due)));
	ftnl_bcast_flush(&ring->bcast);
	/* More than one period passed: the heartbeats in between never left. */
	if (periods > 1)
		atomic64_add(periods - 1, &ring->counters[FTNL_A_STATS_HB_SKIPPED]);
	return true;
}

static enum hrtimer_restart ftnl_ring_hb_fire(struct hrtimer *timer)
{
	struct ftnl_ring *ring = container_of(timer, struct ftnl_ring, hb_timer);

	return ftnl_ring_hb_run(ring) ? HRTIMER_RESTART : HRTIMER_NORESTART;
}

/* hb_hi_softirq: the hard timer's interrupt only hands T1 on. */
static enum hrtimer_restart ftnl_ring_hb_kick(struct hrtimer *timer)
{
	struct ftnl_ring *ring = container_of(timer, struct ftnl_ring, hb_timer);

	tasklet_hi_schedule(&ring->hb_tasklet);
	return HRTIMER_NORESTART;
}

static void ftnl_ring_hb_tasklet(struct tasklet_struct *t)
{
	struct ftnl_ring *ring = from_tasklet(ring, t, hb_tasklet);

	ftnl_ring_hb_run(ring);
}

/*
 * A heartbeat expiry still waiting to run is this node's own lateness too
 * (the local health rule): the timer's own expiry, or the one a test stall
 * held back.
 */
static void ftnl_ring_note_hb_wait(struct ftnl_ring *ring, ktime_t now)
{
	ktime_t due;

	lockdep_assert_held(&ring->lock);
	due = READ_ONCE(ring->stall_hb_due);
	if (!due)
		due = hrtimer_get_expires(&ring->hb_timer);
	ftnl_ring_self_late(ring, due, now);
}

/*
 * The netns's next lives start above @inc, this ring's new one (the
 * netns's incarnation only grows; configuration changes write it too).
 */
static void ftnl_ring_raise_netns_life(struct ftnl_net *fn, u64 inc)
{
	u64 old = READ_ONCE(fn->incarnation);

	while (old < inc) {
		u64 was = cmpxchg64(&fn->incarnation, old, inc);

		if (was == old)
			break;
		old = was;
	}
}

/*
 * The expelled node comes back (the core's hold after its fence is over):
 * a new incarnation, which every datagram (transport) and broadcast (the
 * broadcast layer, whose broadcasts of the old life are dropped) carries
 * from now on, and `info` shows (@fn->incarnation: a later `cluster set`
 * goes on with it); heartbeats start again.
 */
static void ftnl_ring_comeback(struct ftnl_ring *ring, ktime_t now,
			       const struct ftnl_ring_sink *out)
{
	struct ftnl_net *fn = ring->fn;
	u64 old = ring->core.incarnation;
	u64 inc = ftnl_new_incarnation(max_t(u64, READ_ONCE(fn->incarnation),
					     old));

	lockdep_assert_held(&ring->lock);
	WRITE_ONCE(ring->xport.first, inc);
	WRITE_ONCE(ring->xport.incarnation, inc);
	ftnl_bcast_new_life(&ring->bcast, inc);
	ftnl_ring_raise_netns_life(fn, inc);
	WRITE_ONCE(fn->first, inc);
	if (WARN_ON_ONCE(!ftnl_ring_core_comeback(&ring->core, inc,
						  ktime_to_ns(now), out)))
		return;
	ring->life_start_real = ktime_get_real_ns();
	pr_notice("node %u of cluster %u comes back: incarnation %llu after %llu\n",
		  ring->cluster->self_id, ring->cluster->cluster_id, inc, old);
	ftnl_ring_hb_start_now(ring);
}

/* Task T3, the re-check of a deadline moved by T2, the local health rule. */
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
	if (ftnl_ring_stalled(ring, now)) {
		/* Test stall: held to its end. */
		hrtimer_set_expires(timer, ring->stalled_until);
		ret = HRTIMER_RESTART;
		goto out;
	}
	ftnl_ring_sink(ring, &out);
	ftnl_ring_note_hb_wait(ring, now);
	/* Drops since the last tick too: the judgement must know of them. */
	ftnl_ring_note_host_drops(ring, now);
	ftnl_ring_note_host_unread(ring, now, false);
	switch (ftnl_ring_core_expire(&ring->core, ktime_to_ns(now), &out)) {
	case FTNL_RING_SUSPECT:
		ftnl_ring_count(ring, FTNL_A_STATS_SUSPICIONS);
		break;
	case FTNL_RING_COMEBACK:
		ftnl_ring_comeback(ring, now, &out);
		break;
	default:
		break;
	}
	/* Test stall: its receive backlog is read after the timer. */
	ftnl_ring_stall_backlog(ring, now);
	if (ftnl_ring_core_take_timer(&ring->core, &at)) {
		hrtimer_set_expires(timer, ns_to_ktime(at));
		ret = HRTIMER_RESTART;
	}
out:
	spin_unlock(&ring->lock);
	ftnl_bcast_flush(&ring->bcast);
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
	enum ftnl_ring_admit admit;
	bool fresh = false;

	/*
	 * What the transport echoes to this sender from now on (the core's
	 * rule, ahead of it: the answer to an unproven datagram carries it).
	 */
	if (hdr->incarnation > ring->core.peers[pos].heard)
		WRITE_ONCE(ring->xport.echo[pos], hdr->incarnation);
	admit = ftnl_ring_core_admit(&ring->core, pos, hdr->incarnation,
				     hdr->first, hdr->echo, ktime_to_ns(now),
				     out);
	switch (admit) {
	case FTNL_RING_DEAD_SENDER:
		return FTNL_DROP_DEAD_SENDER;
	case FTNL_RING_STALE:
		return FTNL_DROP_STALE_INCARNATION;
	case FTNL_RING_UNPINNED:
		/*
		 * Not proven fresh, no life pinned: acted on without a
		 * replay window, but for a LEAVE, which a previous life of
		 * the sender may have sent.
		 */
		return hdr->type == FTNL_MSG_LEAVE ? FTNL_DROP_UNPROVEN : -1;
	case FTNL_RING_ACCEPT_NEW:
		fresh = true;
		break;
	case FTNL_RING_ACCEPT:
		break;
	}
	switch (ftnl_transport_replay_accept(&ring->xport, pos, hdr, fresh)) {
	case FTNL_REPLAY_NEW:
		return -1;
	case FTNL_REPLAY_EARLY:
		/*
		 * Numbered below the datagram its window began with: sent
		 * before it, perhaps before the sender heard this node (a
		 * copy reordered around the pin, or a replay): not proven
		 * fresh.
		 */
		return FTNL_DROP_UNPROVEN;
	case FTNL_REPLAY_SEEN:
		break;
	}
	return FTNL_DROP_REPLAY;
}

/* PROBE_REQ or PROBE_ACK: ids of members only. Return: 0, or -EINVAL. */
static int ftnl_ring_probe_rx(struct ftnl_ring *ring, u32 pos,
			      const struct ftnl_wire_hdr *hdr, const u8 *payload,
			      ktime_t now, const struct ftnl_ring_sink *out)
{
	const struct ftnl_node *target, *origin;
	struct ftnl_ring_probe probe;
	struct ftnl_wire_probe wire;

	if (ftnl_wire_probe_decode(&wire, payload, hdr->payload_len))
		return -EINVAL;
	target = ftnl_cluster_find(ring->cluster, wire.target_id);
	origin = ftnl_cluster_find(ring->cluster, wire.origin_id);
	if (!target || !origin)
		return -EINVAL;
	probe = (struct ftnl_ring_probe){
		.target = target - ring->cluster->nodes,
		.origin = origin - ring->cluster->nodes,
		.alive = wire.flags & FTNL_PROBE_ALIVE,
		.id = wire.probe_id,
	};
	ftnl_ring_count(ring, hdr->type == FTNL_MSG_PROBE_REQ ?
			FTNL_A_STATS_PROBE_REQ_RECV :
			FTNL_A_STATS_PROBE_ACK_RECV);
	ftnl_ring_core_probe_rx(&ring->core, pos, hdr->type, &probe,
				ktime_to_ns(now), out);
	return 0;
}

/*
 * A member knew a later life of this node, @heard (see
 * ftnl_ring_core_outlived()): its clock stepped back across a restart.
 * Live on above it, everywhere this node's incarnation is used; the
 * netns's next lives start above it too. Under the ring's lock.
 */
static void ftnl_ring_renew(struct ftnl_ring *ring, u64 heard)
{
	u64 inc = ftnl_new_incarnation(heard);

	pr_notice("cluster %u: a member knew incarnation %llu of this node, later than %llu (clock stepped back?): now %llu\n",
		  ring->cluster->cluster_id, heard, ring->core.incarnation, inc);
	ftnl_ring_core_renew(&ring->core, inc);
	WRITE_ONCE(ring->xport.incarnation, inc);
	ring->bcast.env.incarnation = inc;
	ftnl_ring_raise_netns_life(ring->fn, inc);
}

static void ftnl_ring_bcast_drop(struct ftnl_ring *ring, int err)
{
	ftnl_transport_drop(&ring->xport, err == -EKEYREJECTED ?
			    FTNL_DROP_SIGNATURE : FTNL_DROP_TYPE);
}

static unsigned int test_verify_delay_ms;
module_param(test_verify_delay_ms, uint, 0600);
MODULE_PARM_DESC(test_verify_delay_ms,
		 "test only: every broadcast signature verification takes N ms more (0 to 1000; busy-waits in softirq)");

/*
 * A signed broadcast to act on (ftnl_bcast_rx() said -EAGAIN): its origin's
 * signature is verified with the lock released, a fraction of a millisecond
 * (milliseconds in an emulated guest) that the heartbeat timer, which takes
 * the lock, never waits for (issue 10, item 7); then it is handed in again.
 * A copy that came meanwhile and was handled makes this one a duplicate
 * there. Softirq, under RCU (the caller's: it keeps the configuration).
 */
static void ftnl_ring_rx_signed(struct ftnl_ring *ring, u32 pos,
				const struct ftnl_wire_hdr *hdr,
				const u8 *payload)
{
	unsigned int delay = READ_ONCE(test_verify_delay_ms);
	int err;

	local_bh_disable();
	err = ftnl_bcast_verify_origin(ring->cluster, &ring->xport,
				       this_cpu_ptr(ftnl_ring_crypto_ctx),
				       hdr->type, payload, hdr->payload_len);
	local_bh_enable();
	if (unlikely(delay))
		mdelay(min(delay, 1000U));

	spin_lock(&ring->lock);
	if (!ring->core.running || ftnl_ring_stalled(ring, ktime_get()))
		goto out;
	if (!err)
		err = ftnl_bcast_rx(&ring->bcast, pos, hdr->type, payload,
				    hdr->payload_len, true);
	if (err)
		ftnl_ring_bcast_drop(ring, err);
	ftnl_ring_sync_timer(ring);
out:
	spin_unlock(&ring->lock);
	ftnl_bcast_flush(&ring->bcast);
}

/**
 * ftnl_ring_module_init - what every ring shares, at module load
 *
 * Return: 0 or -ENOMEM.
 */
int ftnl_ring_module_init(void)
{
	ftnl_ring_crypto_ctx = alloc_percpu(struct ftnl_ed25519_ctx);
	return ftnl_ring_crypto_ctx ? 0 : -ENOMEM;
}

/* At module unload, every ring gone. */
void ftnl_ring_module_exit(void)
{
	free_percpu(ftnl_ring_crypto_ctx);
}

/**
 * ftnl_ring_rx - act on an authenticated datagram
 * @ring: the ring
 * @pos: the sender's position
 * @hdr: the datagram's header (type already checked)
 * @payload: its payload, hdr->payload_len bytes
 * @prev_key: its MAC is the previous key's (the update grace)
 *
 * Called in softirq by the receive path once size, magic, version, cluster,
 * sender, destination and MAC are checked.
 */
void ftnl_ring_rx(struct ftnl_ring *ring, u32 pos,
		  const struct ftnl_wire_hdr *hdr, const u8 *payload,
		  bool prev_key)
{
	ktime_t now = ktime_get();
	struct ftnl_ring_sink out;
	bool verify = false;
	int drop, err;

	spin_lock(&ring->lock);
	if (!ring->core.running)
		goto out;
	if (ftnl_ring_stalled(ring, now)) {
		if (hdr->type == FTNL_MSG_HEARTBEAT)
			ring->stall_hb_from = pos + 1;
		goto out;
	}
	ftnl_ring_sink(ring, &out);
	if (ftnl_ring_core_outlived(&ring->core, hdr->echo))
		ftnl_ring_renew(ring, hdr->echo);
	/*
	 * From a member this node may hold dead itself (cut off, it declared
	 * the others dead first): no admission, no replay window - what it
	 * says of this incarnation stays true, a replay repeats it. The core
	 * obeys it only for this node's current incarnation.
	 */
	if (hdr->type == FTNL_MSG_EXPELLED) {
		ftnl_ring_count(ring, FTNL_A_STATS_EXPELLED_RECV);
		ftnl_ring_core_expelled_rx(&ring->core, pos, hdr->incarnation,
					   hdr->first, ftnl_get_be64(payload),
					   &out);
		goto sync;
	}
	drop = ftnl_ring_admit(ring, pos, hdr, now, &out);
	if (drop >= 0) {
		ftnl_transport_drop(&ring->xport, drop);
		goto sync;
	}
	if (prev_key)
		ftnl_ring_count(ring, FTNL_A_STATS_PREV_KEY_RECV);
	/* Which key it verifies, and how its configuration judges. */
	if (ftnl_ring_core_epoch_heard(&ring->core, pos, hdr->incarnation,
				       hdr->epoch,
				       (u64)hdr->timeout_us * NSEC_PER_USEC))
		WRITE_ONCE(ring->xport.peer_seen[pos],
			   hdr->epoch | FTNL_PEER_KNOWN |
			   (prev_key ? FTNL_PEER_PREV : 0));

	switch (hdr->type) {
	case FTNL_MSG_HEARTBEAT:
		ftnl_ring_count(ring, FTNL_A_STATS_HB_RECV);
		if (ftnl_ring_core_heartbeat(&ring->core, pos, ktime_to_ns(now)))
			ftnl_ring_count(ring, FTNL_A_STATS_HB_FROM_EMITTER);
		break;
	case FTNL_MSG_NEW_OBSERVER:
		ftnl_ring_count(ring, FTNL_A_STATS_NEW_OBSERVER_RECV);
		ftnl_ring_core_new_observer(&ring->core, pos, ktime_to_ns(now),
					    &out);
		break;
	case FTNL_MSG_LEAVE:
		ftnl_ring_count(ring, FTNL_A_STATS_LEAVE_RECV);
		ftnl_ring_core_leave_rx(&ring->core, pos, ktime_to_ns(now), &out);
		break;
	case FTNL_MSG_PROBE_REQ:
	case FTNL_MSG_PROBE_ACK:
		if (ftnl_ring_probe_rx(ring, pos, hdr, payload, now, &out))
			ftnl_transport_drop(&ring->xport, FTNL_DROP_TYPE);
		break;
	case FTNL_MSG_BCAST:
	case FTNL_MSG_GOSSIP:
	case FTNL_MSG_JOIN:
		err = ftnl_bcast_rx(&ring->bcast, pos, hdr->type, payload,
				    hdr->payload_len, false);
		if (err == -EAGAIN)
			verify = true;
		else if (err)
			ftnl_ring_bcast_drop(ring, err);
		break;
	case FTNL_MSG_HELLO:
		ftnl_ring_core_hello_rx(&ring->core, pos, ktime_to_ns(now),
					&out);
		break;
	case FTNL_MSG_HELLO_ACK:
		break;	/* its header did the work (ftnl_ring_admit()) */
	}
sync:
	ftnl_ring_sync_timer(ring);
out:
	spin_unlock(&ring->lock);
	ftnl_bcast_flush(&ring->bcast);
	if (verify)
		ftnl_ring_rx_signed(ring, pos, hdr, payload);
}

/* The ring's own memory; may run in softirq (kvfree() defers vfree). */
static void ftnl_ring_free_mem(struct ftnl_ring *ring)
{
	ftnl_uncount(ring->core.peers);
	kvfree(ring->core.peers);
	ftnl_uncount(ring->core.dead);
	bitmap_free(ring->core.dead);
	ftnl_uncount(ring->host_rx_tails);
	kfree(ring->host_rx_tails);
	ftnl_uncount(ring);
	kfree(ring);
}

/**
 * ftnl_ring_create - prepare the ring of a new configuration
 * @fn: the netns state
 * @cluster: the finalized configuration; on success @cluster->ring and
 *	@cluster->transport are set
 * @prev: the running ring it replaces, or NULL
 *
 * Opens its transport (ftnl_transport_open(): sockets of @prev on the same
 * port are handed over by ftnl_ring_start()). Nothing runs yet. Process
 * context, @fn->lock held.
 *
 * Return: 0, or a negative errno (with nothing left allocated).
 */
int ftnl_ring_create(struct ftnl_net *fn, struct ftnl_cluster *cluster,
		     const struct ftnl_ring *prev)
{
	u32 n = cluster->node_count;
	struct ftnl_ring_peer *peers;
	struct ftnl_bcast_env env;
	struct ftnl_ring *ring;
	unsigned long *dead;
	int err;

	ring = ftnl_counted(kzalloc(sizeof(*ring), GFP_KERNEL_ACCOUNT));
	if (!ring)
		return -ENOMEM;
	dead = ftnl_counted(bitmap_zalloc(n, GFP_KERNEL_ACCOUNT));
	peers = ftnl_counted(kvcalloc(n, sizeof(*peers), GFP_KERNEL_ACCOUNT));
	ring->host_rx_tails = ftnl_counted(kcalloc(nr_cpu_ids,
						   sizeof(*ring->host_rx_tails),
						   GFP_KERNEL_ACCOUNT));
	ftnl_ring_core_init(&ring->core, n, cluster->self_index,
			    (u64)cluster->hb_period_us * NSEC_PER_USEC,
			    (u64)cluster->timeout_us * NSEC_PER_USEC,
			    fn->incarnation, dead, peers);
	/* A renewed life keeps the name it began with (the members' pin). */
	ftnl_ring_core_set_first(&ring->core, READ_ONCE(fn->first));
	ftnl_ring_core_set_rejoin(&ring->core,
				  cluster->rejoin == FTNL_REJOIN_AUTO,
				  cluster->flap_limit,
				  (u64)cluster->flap_window_s * NSEC_PER_SEC);
	ftnl_ring_core_set_rules(&ring->core, cluster->quorum == FTNL_QUORUM_ON,
				 true);
	ftnl_ring_core_set_epoch(&ring->core, cluster->epoch);
	if (cluster->timeout_min_us)
		ftnl_ring_det_set_adaptive(&ring->core.det,
					   (u64)cluster->timeout_min_us * NSEC_PER_USEC,
					   (u64)cluster->timeout_us * NSEC_PER_USEC,
					   cluster->timeout_nines);
	if (!dead || !peers || !ring->host_rx_tails) {
		err = -ENOMEM;
		goto err_free;
	}
	ring->fn = fn;
	ring->cluster = cluster;
	spin_lock_init(&ring->lock);
	err = ftnl_transport_open(&ring->xport, fn, cluster,
				  prev ? &prev->xport : NULL);
	if (err)
		goto err_free;
	env = (struct ftnl_bcast_env){
		.fn = fn,
		.cluster = cluster,
		.self = cluster->self_index,
		.incarnation = ring->xport.incarnation,
		.dead = ring->core.dead,
		.running = &ring->core.running,
		.lock = &ring->lock,
		.transport = &ring->xport,
		.ops = &ftnl_ring_bcast_ops,
		.ctx = ring,
		.cpu_ctx = ftnl_ring_crypto_ctx,
	};
	ring->xport.tx_errors = &ring->counters[FTNL_A_STATS_TX_ERRORS];
	err = ftnl_bcast_init(&ring->bcast, &env);
	if (err)
		goto err_close;

	ring->hb_hi = READ_ONCE(hb_hi_softirq);
	if (ring->hb_hi) {
		hrtimer_init(&ring->hb_timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_HARD);
		ring->hb_timer.function = ftnl_ring_hb_kick;
		tasklet_setup(&ring->hb_tasklet, ftnl_ring_hb_tasklet);
	} else {
		hrtimer_init(&ring->hb_timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_SOFT);
		ring->hb_timer.function = ftnl_ring_hb_fire;
	}
	hrtimer_init(&ring->susp_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	ring->susp_timer.function = ftnl_ring_susp_fire;
	cluster->ring = ring;
	cluster->transport = &ring->xport;
	return 0;

err_close:
	ftnl_transport_close(&ring->xport);
	ftnl_transport_free(&ring->xport);
err_free:
	ftnl_ring_free_mem(ring);
	return err;
}

static bool ftnl_node_same_endpoint(const struct ftnl_node *a,
				    const struct ftnl_node *b)
{
	if (a->family != b->family || a->port != b->port)
		return false;
	if (a->family == AF_INET)
		return a->addr4 == b->addr4;
	return !memcmp(&a->addr6, &b->addr6, sizeof(a->addr6));
}

/*
 * What the replaced ring @prev knew of every member that stays (same id,
 * same address and port): state, D, incarnations, anti-replay windows,
 * the epoch and key of its last datagram; a new member is taken to run
 * this configuration (it signs and checks with its key).
 * @prev is stopped: nothing changes it any more. Under @ring's lock.
 * An expelled @prev passes on its windows only: this node is a new
 * incarnation (see ftnl_nl_cluster_set()), and the deaths its dead life
 * concluded - often of live nodes, heard from nobody while it was cut off
 * or frozen - are void; the new life learns D from its welcome.
 */
static void ftnl_ring_inherit(struct ftnl_ring *ring,
			      const struct ftnl_ring *prev)
{
	const struct ftnl_cluster *cluster = ring->cluster;
	const struct ftnl_cluster *old = prev->cluster;
	u32 pos, old_pos, observer;

	if (old->self_id != cluster->self_id)
		return;
	for (pos = 0; pos < cluster->node_count; pos++) {
		const struct ftnl_node *was;
		const struct ftnl_ring_peer *peer;

		if (pos == cluster->self_index)
			continue;
		was = ftnl_cluster_find(old, cluster->nodes[pos].id);
		if (!was || !ftnl_node_same_endpoint(was, &cluster->nodes[pos])) {
			/* Only this configuration names it: it has its key. */
			WRITE_ONCE(ring->xport.peer_seen[pos],
				   cluster->epoch | FTNL_PEER_KNOWN);
			continue;
		}
		old_pos = was - old->nodes;
		peer = &prev->core.peers[old_pos];
		observer = ftnl_ring_pos_of(ring, old->nodes[peer->observer].id);
		if (!prev->core.expelled)
			ftnl_ring_core_inherit(&ring->core, pos, peer,
					       observer);
		ftnl_transport_replay_copy(&ring->xport, pos, &prev->xport,
					   old_pos);
	}
}

/*
 * A configuration of another epoch replaces @prev's: for the update grace,
 * its observer is heartbeaten too and the first emitter waited for
 * (ftnl_ring_core_updated()). Under @ring's lock.
 */
static void ftnl_ring_updated(struct ftnl_ring *ring,
			      const struct ftnl_ring *prev)
{
	const struct ftnl_cluster *old = prev->cluster;
	u32 observer = ring->core.det.self;

	if (old->epoch == ring->cluster->epoch)
		return;
	if (prev->core.det.observer != prev->core.det.self &&
	    old->self_id == ring->cluster->self_id)
		observer = ftnl_ring_pos_of(ring,
					    old->nodes[prev->core.det.observer].id);
	ftnl_ring_core_updated(&ring->core,
			       (u64)ring->cluster->update_grace_s * NSEC_PER_SEC,
			       observer);
}

/**
 * ftnl_ring_start - start heartbeating and observing
 * @ring: a ring from ftnl_ring_create()
 * @prev: the ring it replaces, already stopped, or NULL; its transport's
 *	sequence numbers go on in @ring's, sockets marked for reuse move over,
 *	and what it knew of the members that stay is kept
 *
 * The node first tells its emitter that it observes it (NEW_OBSERVER), so
 * that a node joining or coming back is heartbeaten at once, and sends its
 * first heartbeat immediately. Process context.
 */
void ftnl_ring_start(struct ftnl_ring *ring, struct ftnl_ring *prev)
{
	ktime_t now = ktime_get();
	struct ftnl_ring_sink out;

	ftnl_transport_start(&ring->xport, prev ? &prev->xport : NULL);
	spin_lock_bh(&ring->lock);
	/* A new configuration of the same life keeps its start. */
	ring->life_start_real = ktime_get_real_ns();
	if (prev) {
		ftnl_ring_inherit(ring, prev);
		if (prev->core.incarnation == ring->core.incarnation)
			ring->life_start_real = prev->life_start_real;
		ftnl_ring_updated(ring, prev);
	}
	ring->host_rx_drops = ftnl_host_rx_drops();
	ring->netns_rx_drops = ftnl_netns_rx_drops(read_pnet(&ring->fn->net));
	/* Only what is queued from now on is this ring's to wait for. */
	ftnl_host_rx_snapshot(ring->host_rx_tails);
	ftnl_ring_sink(ring, &out);
	ftnl_ring_core_start(&ring->core, ktime_to_ns(now), &out);
	ftnl_ring_sync_timer(ring);
	ftnl_ring_hb_start_now(ring);
	spin_unlock_bh(&ring->lock);
	ftnl_bcast_flush(&ring->bcast);
}

/**
 * ftnl_ring_stop - stop timers and datagram handling
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
	/* A tasklet the timer scheduled sees the ring stopped: no re-arm. */
	if (ring->hb_hi)
		tasklet_kill(&ring->hb_tasklet);
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
	ftnl_transport_close(&ring->xport);
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
	ftnl_transport_free(&ring->xport);
	ftnl_bcast_free(&ring->bcast);
	ftnl_ring_free_mem(ring);
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
	ftnl_bcast_flush(&ring->bcast);
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
	ftnl_bcast_flush(&ring->bcast);
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
 * ftnl_ring_expelled - was this node expelled from its incarnation?
 * @ring: the ring
 *
 * Return: true once the cluster told it that it is dead (or it expelled
 * itself): it no longer acts as a member.
 */
bool ftnl_ring_expelled(struct ftnl_ring *ring)
{
	bool expelled;

	spin_lock_bh(&ring->lock);
	expelled = ring->core.expelled;
	spin_unlock_bh(&ring->lock);
	return expelled;
}

/**
 * ftnl_ring_fenced - the fence of this expelled node is done
 * @ring: the ring
 *
 * Its registered processes of the ended life are told, killed as the
 * policy says, and forgotten: with rejoin auto, a node the cluster told
 * it is dead comes back as a new incarnation after the core's hold
 * (FTNL_RING_COMEBACK_HOLD). Nothing once the ring is stopped. Process
 * context (the fence work).
 */
void ftnl_ring_fenced(struct ftnl_ring *ring)
{
	spin_lock_bh(&ring->lock);
	if (ftnl_ring_core_fenced(&ring->core, ktime_get_ns()))
		ftnl_ring_sync_timer(ring);
	spin_unlock_bh(&ring->lock);
}

/**
 * ftnl_ring_proc_exited - processes registered on this node died
 * @ring: the ring
 * @exits: the exits
 * @n: their number, 1..FTNL_BCAST_MAX_DEATHS
 *
 * Broadcast like a node death, so that every node publishes them.
 * Process context (the exits work of process_registry.c).
 *
 * Return: the number of broadcasts started (0 if the ring is stopped).
 */
u32 ftnl_ring_proc_exited(struct ftnl_ring *ring,
			  const struct ftnl_proc_exit *exits, u32 n)
{
	struct ftnl_bcast_death *deaths = ring->proc_deaths;
	u32 i, started = 0;

	if (WARN_ON_ONCE(!n || n > FTNL_BCAST_MAX_DEATHS))
		return 0;
	spin_lock_bh(&ring->lock);
	for (i = 0; i < n; i++)
		deaths[i] = (struct ftnl_bcast_death){
			.node_id = ring->cluster->self_id,
			.owner_uid = exits[i].owner_uid,
			.rank = exits[i].rank,
			.job = exits[i].job,
			.cause = FTNL_CAUSE_OBSERVED,
			.state = FTNL_BCAST_PROC_EXIT,
		};
	if (ring->core.running)
		started = ftnl_bcast_originate(&ring->bcast, deaths, n);
	spin_unlock_bh(&ring->lock);
	ftnl_bcast_flush(&ring->bcast);
	return started;
}

/**
 * ftnl_ring_read_stats - a copy of the ring's statistics, for a dump
 * @ring: the ring
 * @st: filled in: the ring's and the broadcast layer's counters added,
 *	the transport's drops, the lateness histogram, delivery latencies
 *
 * Counters are read one by one, not as one snapshot. Process context.
 */
void ftnl_ring_read_stats(struct ftnl_ring *ring, struct ftnl_ring_stats *st)
{
	int i;

	for (i = 0; i < FTNL_RING_NR_COUNTERS; i++)
		st->counters[i] = atomic64_read(&ring->counters[i]);
	ftnl_bcast_add_counters(&ring->bcast, st->counters);
	ftnl_transport_read_drops(&ring->xport, st->drops);
	for (i = 0; i < FTNL_LATENESS_BUCKETS; i++) {
		st->lateness[i] = atomic64_read(&ring->lateness[i]);
		st->hb_lock_wait[i] = atomic64_read(&ring->hb_lock_wait[i]);
		st->hb_start_late[i] = atomic64_read(&ring->hb_start_late[i]);
	}
	st->lateness_max_ns = READ_ONCE(ring->lateness_max_ns);
	st->hb_lock_wait_max_ns = READ_ONCE(ring->hb_lock_wait_max_ns);
	st->hb_start_late_max_ns = READ_ONCE(ring->hb_start_late_max_ns);

	spin_lock_bh(&ring->lock);
	ftnl_bcast_get_stats(&ring->bcast, &st->bcast);
	st->counters[FTNL_A_STATS_STALL_WAITS] = ring->core.det.stall_waits;
	st->counters[FTNL_A_STATS_FORMING_WAITS] = ring->core.det.forming_waits;
	st->counters[FTNL_A_STATS_SUSPICIONS_REFUTED] = ring->core.refuted;
	st->counters[FTNL_A_STATS_SUSPICIONS_VERIFIED] = ring->core.verified;
	st->counters[FTNL_A_STATS_PROBES_THROTTLED] = ring->core.throttled;
	st->counters[FTNL_A_STATS_PROBES_DEFERRED] = ring->core.deferred;
	st->counters[FTNL_A_STATS_PROBE_ASKS_HELD] = ring->core.asks_held;
	st->counters[FTNL_A_STATS_NEWS_HELD] = ring->core.news_held;
	st->counters[FTNL_A_STATS_NEWS_STALE] = ring->core.news_stale;
	spin_unlock_bh(&ring->lock);
}
