// SPDX-License-Identifier: GPL-2.0
/*
 * The ring's pure core (kmod/ring/core.c) event by event: every task of
 * Algorithm 1 and every membership rule, with its outputs (datagrams,
 * failures, the timer) recorded and compared; exhaustively, every order in
 * which a node of a ring of up to 7 can learn any set of deaths, against a
 * brute-force reading of the paper (emitter = closest live predecessor,
 * each failure published once, no datagram to a node in D).
 */
#include <stdlib.h>
#include <string.h>

#include "../../tools/testing/tap.h"
#include "../ring/core.h"

#define N_MAX	16
#define H	10
#define D	50
/* The first probe's lead before the deadline: (d - h)/2 */
#define LEAD	FTNL_RING_PROBE_LEAD(D, H)
#define GRACE	FTNL_RING_BOOT_GRACE_NS
#define MS	1000000ULL

struct rec {
	u32 nsent;
	u32 to[64];
	u8 type[64];
	u32 nfailed;
	u32 failed[64];
	bool originate[64];
	u32 nprobes;
	u32 probe_to[64];
	u8 probe_type[64];
	struct ftnl_ring_probe probe[64];
	u8 resigned;
	u32 nexpel;
	u32 expel_to[64];
	u64 expel_inc[64];
	u32 nexpelled;
	u32 njoined;
	u32 joined[64];
	bool join_originate[64];
	u32 nheld_out;
	u32 held_out;
	u32 nwelcome;
	u32 welcome[64];
};

static void rec_probe(void *ctx, u32 to, u8 type,
		      const struct ftnl_ring_probe *probe)
{
	struct rec *r = ctx;

	if (r->nprobes < 64) {
		r->probe_to[r->nprobes] = to;
		r->probe_type[r->nprobes] = type;
		r->probe[r->nprobes] = *probe;
	}
	r->nprobes++;
}

static void rec_resigned(void *ctx, u8 why)
{
	struct rec *r = ctx;

	r->resigned = why;
}

static void rec_expel(void *ctx, u32 to, u64 incarnation)
{
	struct rec *r = ctx;

	if (r->nexpel < 64) {
		r->expel_to[r->nexpel] = to;
		r->expel_inc[r->nexpel] = incarnation;
	}
	r->nexpel++;
}

static void rec_expelled(void *ctx)
{
	struct rec *r = ctx;

	r->nexpelled++;
}

static void rec_send(void *ctx, u32 to, u8 type)
{
	struct rec *r = ctx;

	if (r->nsent < 64) {
		r->to[r->nsent] = to;
		r->type[r->nsent] = type;
	}
	r->nsent++;
}

static void rec_failed(void *ctx, u32 pos, bool originate)
{
	struct rec *r = ctx;

	if (r->nfailed < 64) {
		r->failed[r->nfailed] = pos;
		r->originate[r->nfailed] = originate;
	}
	r->nfailed++;
}

static void rec_joined(void *ctx, u32 pos, bool originate)
{
	struct rec *r = ctx;

	if (r->njoined < 64) {
		r->joined[r->njoined] = pos;
		r->join_originate[r->njoined] = originate;
	}
	r->njoined++;
}

static void rec_welcome(void *ctx, u32 pos)
{
	struct rec *r = ctx;

	if (r->nwelcome < 64)
		r->welcome[r->nwelcome] = pos;
	r->nwelcome++;
}

static void rec_held_out(void *ctx, u32 pos)
{
	struct rec *r = ctx;

	r->held_out = pos;
	r->nheld_out++;
}

struct node {
	struct ftnl_ring_core core;
	unsigned long dead[1];
	struct ftnl_ring_peer peers[N_MAX];
	struct rec rec;
	struct ftnl_ring_sink out;
};

static void node_init_hd(struct node *x, u32 n, u32 self, u64 h, u64 d)
{
	memset(x, 0, sizeof(*x));
	ftnl_ring_core_init(&x->core, n, self, h, d, 100 + self, x->dead,
			    x->peers);
	x->out = (struct ftnl_ring_sink){ .send = rec_send,
					  .failed = rec_failed,
					  .probe = rec_probe,
					  .resigned = rec_resigned,
					  .expel = rec_expel,
					  .expelled = rec_expelled,
					  .ctx = &x->rec,
					  .joined = rec_joined,
					  .held_out = rec_held_out,
					  .welcome = rec_welcome };
}

static void node_init(struct node *x, u32 n, u32 self)
{
	node_init_hd(x, n, self, H, D);
}

static void clear(struct node *x)
{
	memset(&x->rec, 0, sizeof(x->rec));
}

static u64 timer(struct node *x)
{
	u64 at;

	return ftnl_ring_core_take_timer(&x->core, &at) ? at : 0;
}

/* Node @self of a ring of @n, started at time 0. */
static void node_start(struct node *x, u32 n, u32 self)
{
	node_init(x, n, self);
	ftnl_ring_core_start(&x->core, 0, &x->out);
}

/* As node_start(), with the rejoin policy set first. */
static void node_start_rejoin(struct node *x, u32 n, u32 self, bool rejoin_auto,
			      u32 flap_max, u64 flap_window_ns)
{
	node_init(x, n, self);
	ftnl_ring_core_set_rejoin(&x->core, rejoin_auto, flap_max,
				  flap_window_ns);
	ftnl_ring_core_start(&x->core, 0, &x->out);
}

/*
 * A heartbeat from @from at @now, its life pinned first if it was not
 * (as its first datagram echoing this node's incarnation would).
 */
static bool heartbeat(struct node *x, u32 from, u64 now)
{
	if (!x->peers[from].incarnation)
		x->peers[from].incarnation = 100 + from;
	return ftnl_ring_core_heartbeat(&x->core, from, now);
}

/* Node 2 of 5, started at 0, its emitter (node 1) heard at 100. */
static void node_heard_at_100(struct node *x)
{
	node_start(x, 5, 2);
	heartbeat(x, 1, 100);
	timer(x);
}

/* A datagram of @from's incarnation @inc that echoes this node's own. */
static enum ftnl_ring_admit admit(struct node *x, u32 from, u64 inc, u64 now)
{
	return ftnl_ring_core_admit(&x->core, from, inc, inc, x->core.incarnation,
				    now, &x->out);
}

/*
 * EXPELLED from @from naming @inc, sent by the life of @from known here
 * (a zombie speaks in the life that died).
 */
static bool expelled_rx(struct node *x, u32 from, u64 inc)
{
	const struct ftnl_ring_peer *peer = &x->core.peers[from];

	return ftnl_ring_core_expelled_rx(&x->core, from, peer->incarnation,
					  peer->first, inc, &x->out);
}

static void test_start_tick(const void *arg)
{
	struct node x;

	(void)arg;
	node_init(&x, 5, 2);
	ftnl_ring_core_start(&x.core, 1000, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 1);
	TAP_CHECK_INT(x.rec.to[0], 1);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_NEW_OBSERVER);
	/* The boot grace: d + 30 s for the first emitter's first heartbeat. */
	TAP_CHECK_UINT(timer(&x), 1000 + D + GRACE);
	TAP_CHECK_UINT(timer(&x), 0);
	clear(&x);
	/*
	 * T1: heartbeat to the observer, NEW_OBSERVER again until heard, and
	 * a HELLO to the observer until it proves itself (at most one per h).
	 */
	ftnl_ring_core_tick(&x.core, 10000, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 3);
	TAP_CHECK_INT(x.rec.to[0], 3);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_HEARTBEAT);
	TAP_CHECK_INT(x.rec.to[1], 1);
	TAP_CHECK_INT(x.rec.type[1], FTNL_MSG_NEW_OBSERVER);
	TAP_CHECK_INT(x.rec.to[2], 3);
	TAP_CHECK_INT(x.rec.type[2], FTNL_MSG_HELLO);
	clear(&x);
	ftnl_ring_core_tick(&x.core, 10000 + H - 1, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 2);
	clear(&x);
	/* Proven (a datagram echoing this node's life): no more HELLO. */
	admit(&x, 3, 30, 10000 + H);
	clear(&x);
	ftnl_ring_core_tick(&x.core, 10000 + 2 * H, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 2);
	TAP_CHECK(x.rec.type[0] != FTNL_MSG_HELLO && x.rec.type[1] != FTNL_MSG_HELLO);
	clear(&x);
	/* T2 from another node: nothing moves. */
	TAP_CHECK(!heartbeat(&x, 4, 1010));
	TAP_CHECK_UINT(timer(&x), 0);
	/* T2 from the emitter: d, and the timer moves (earlier). */
	TAP_CHECK(heartbeat(&x, 1, 1010));
	TAP_CHECK_UINT(timer(&x), 1010 + D);
	/* A later deadline does not move the timer: it fires early. */
	TAP_CHECK(heartbeat(&x, 1, 1020));
	TAP_CHECK_UINT(timer(&x), 0);
	/*
	 * Heard: NEW_OBSERVER once more (the emitter may have started after
	 * the first ones: it learns this node's incarnation), then no more.
	 */
	ftnl_ring_core_tick(&x.core, 10000, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 2);
	TAP_CHECK_INT(x.rec.to[1], 1);
	TAP_CHECK_INT(x.rec.type[1], FTNL_MSG_NEW_OBSERVER);
	clear(&x);
	ftnl_ring_core_tick(&x.core, 10000, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 1);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_HEARTBEAT);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1010 + D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), 1020 + D);
	TAP_CHECK_INT(x.rec.nsent + x.rec.nfailed, 0);
	/* Stopped: no tick, no expiry acts. */
	ftnl_ring_core_stop(&x.core);
	ftnl_ring_core_tick(&x.core, 10000, &x.out);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 5000, &x.out), FTNL_RING_IDLE);
	TAP_CHECK_INT(x.rec.nsent + x.rec.nfailed, 0);
}

static void test_t3_stall_guard(const void *arg)
{
	struct node x;

	(void)arg;
	node_heard_at_100(&x);
	clear(&x);
	/* More than h late: a stalled CPU; judge h later, once. */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + D + H + 1, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), 100 + D + H + 1 + H);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	/* The heartbeat read meanwhile saves it, and re-arms the guard. */
	heartbeat(&x, 1, 100 + D + H + 2);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + D + H + 1 + H, &x.out),
		      FTNL_RING_WAIT);
	timer(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000, &x.out), FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), 1000 + H);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	/* Still nothing: task T3. */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + H, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 1);
	TAP_CHECK(x.rec.originate[0]);
	TAP_CHECK(ftnl_bit_test(x.dead, 1));
	TAP_CHECK_INT(x.peers[1].state, FTNL_NODE_STATE_DEAD);
	TAP_CHECK_INT(x.peers[1].cause, FTNL_CAUSE_OBSERVED);
	TAP_CHECK_INT(x.peers[1].observer, 2);
	/* FindEmitter, NEW_OBSERVER, 2d. */
	TAP_CHECK_INT(x.core.det.emitter, 0);
	TAP_CHECK_INT(x.rec.nsent, 1);
	TAP_CHECK_INT(x.rec.to[0], 0);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_NEW_OBSERVER);
	TAP_CHECK_UINT(timer(&x), 1000 + H + 2 * D);
	clear(&x);
	/* Exactly at deadline + h: no grace. */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + H + 2 * D + H, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.failed[0], 0);
	TAP_CHECK_INT(x.core.det.emitter, 4);
	/* T4 from 3, the closest node alive here: observer <- 3 at once. */
	clear(&x);
	TAP_CHECK(ftnl_ring_core_new_observer(&x.core, 3, 10000, &x.out));
	TAP_CHECK_INT(x.core.det.observer, 3);
	TAP_CHECK_INT(x.rec.nsent, 1);
	TAP_CHECK_INT(x.rec.to[0], 3);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_HEARTBEAT);
	/* T4 from 4 with 3 alive here between them: a stale claim, a replay,
	 * a forgery, or news of 3's death on its way. 3 stays the observer
	 * however often 4 asks, and 4 is heartbeaten too: neither suspects
	 * this node.
	 */
	for (int i = 0; i < 3; i++) {
		clear(&x);
		TAP_CHECK(!ftnl_ring_core_new_observer(&x.core, 4, 10000, &x.out));
		TAP_CHECK_INT(x.core.det.observer, 3);
		TAP_CHECK_INT(x.core.nclaims, 1);
		TAP_CHECK_UINT(x.peers[4].claim_until, 10000 + 4 * D);
		TAP_CHECK_INT(x.rec.nsent, 1);
		TAP_CHECK_INT(x.rec.to[0], 4);
		TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_HEARTBEAT);
	}
	clear(&x);
	ftnl_ring_core_tick(&x.core, 10000, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 4);
	TAP_CHECK_INT(x.rec.to[0], 3);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_HEARTBEAT);
	TAP_CHECK_INT(x.rec.to[1], 4);	/* the emitter, not heard yet */
	TAP_CHECK_INT(x.rec.type[1], FTNL_MSG_NEW_OBSERVER);
	TAP_CHECK_INT(x.rec.to[2], 4);	/* the claimant */
	TAP_CHECK_INT(x.rec.type[2], FTNL_MSG_HEARTBEAT);
	TAP_CHECK_INT(x.rec.to[3], 3);	/* the observer, not proven yet */
	TAP_CHECK_INT(x.rec.type[3], FTNL_MSG_HELLO);
	/* A node in D claims nothing. */
	clear(&x);
	TAP_CHECK(!ftnl_ring_core_new_observer(&x.core, 0, 10000, &x.out));
	TAP_CHECK_INT(x.core.nclaims, 1);
	TAP_CHECK_INT(x.rec.nsent, 0);
	/* 3's death arrives: D allows 4, which becomes the observer. */
	ftnl_ring_core_death_heard(&x.core, 3, FTNL_NODE_STATE_DEAD, 0, 4,
				   1000 + H + 2 * D + H + 1, &x.out);
	clear(&x);
	ftnl_ring_core_tick(&x.core, 10000, &x.out);
	TAP_CHECK_INT(x.core.det.observer, 4);
	TAP_CHECK_INT(x.core.nclaims, 0);
	TAP_CHECK_UINT(x.peers[4].claim_until, 0);
	/* One heartbeat, one NEW_OBSERVER, one HELLO (4 is not proven). */
	TAP_CHECK_INT(x.rec.nsent, 3);
	for (u32 i = 0; i < x.rec.nsent; i++)
		TAP_CHECK_INT(x.rec.to[i], 4);
	/* The last one: alone, nothing observed, timer off. */
	clear(&x);
	timer(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, x.core.det.susp_deadline,
					    &x.out), FTNL_RING_SUSPECT);
	TAP_CHECK(!x.core.det.observing);
	TAP_CHECK_UINT(timer(&x), 0);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 9000, &x.out), FTNL_RING_IDLE);
}

/*
 * The local health rule: a node whose own timer ran more than h late
 * during the window of the deadline waits h once before accusing, even
 * when the suspicion timer itself runs on time; lateness outside the
 * window, or of at most h, changes nothing.
 */
static void test_local_health(const void *arg)
{
	struct node x;

	(void)arg;
	node_heard_at_100(&x);
	/* Late before the window (which opens at 100): no effect. */
	ftnl_ring_core_self_late(&x.core, 5 * H, 90);
	/* At most h late inside it: no effect either. */
	ftnl_ring_core_self_late(&x.core, H, 120);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + D, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_UINT(x.core.det.stall_waits, 0);

	node_heard_at_100(&x);
	/* Its heartbeat timer ran 2h late, inside the window. */
	ftnl_ring_core_self_late(&x.core, 2 * H, 100 + D - 1);
	clear(&x);
	/* The suspicion timer on time: put off by h, counted. */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), 100 + D + H);
	TAP_CHECK_UINT(x.core.det.stall_waits, 1);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	/* Still silent after the wait: accused, the rule had its turn. */
	ftnl_ring_core_self_late(&x.core, 2 * H, 100 + D + 1);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + D + H, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_UINT(x.core.det.stall_waits, 1);

	node_heard_at_100(&x);
	ftnl_ring_core_self_late(&x.core, 3 * H, 100 + D);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + D, &x.out),
		      FTNL_RING_WAIT);
	/* The heartbeats it had not read arrive: no accusation. */
	TAP_CHECK(heartbeat(&x, 1, 100 + D + 2));
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + D + H, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	/* The next window starts clean: that lateness is behind it. */
	timer(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + 2 * D + 2, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_UINT(x.core.det.stall_waits, 1);
}

/*
 * The local health rule for a new emitter: an observer that was itself
 * late after it took a new emitter - its NEW_OBSERVER may have waited
 * with it - gives the new emitter its 2d from when it ran again, once;
 * one that ran all along accuses at 2d after the switch, as Algorithm 1.
 * Before the rule, the observer accused the new emitter h after it
 * resumed: a walk down the ring (the ring DST's storm mode, seed 234).
 */
static void test_new_emitter_late_observer(const void *arg)
{
	struct node x;

	(void)arg;
	/* Ran all along: the new emitter (node 0) is accused at 2d. */
	node_heard_at_100(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + D, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.core.det.emitter, 0);
	TAP_CHECK_UINT(timer(&x), 100 + 3 * D);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + 3 * D, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 0);

	/* Stalled right after the switch, from 150 to 280. */
	node_heard_at_100(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + D, &x.out),
		      FTNL_RING_SUSPECT);
	timer(&x);
	clear(&x);
	ftnl_ring_core_self_late(&x.core, 3 * H, 280);
	/* Not h later, nor at once: 2d from 280. */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 280, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(x.core.det.susp_deadline, 280 + 2 * D);
	TAP_CHECK_UINT(timer(&x), 280 + 2 * D);
	TAP_CHECK_UINT(x.core.det.stall_waits, 1);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 280 + H, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	/* Its first heartbeat, a round trip after 280: no accusation. */
	TAP_CHECK(heartbeat(&x, 0, 280 + 2 * H));
	TAP_CHECK_INT(x.rec.nfailed, 0);

	/* Once per new emitter: still silent at 2d after 280, accused. */
	node_heard_at_100(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + D, &x.out),
		      FTNL_RING_SUSPECT);
	timer(&x);
	ftnl_ring_core_self_late(&x.core, 3 * H, 280);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 280, &x.out),
		      FTNL_RING_WAIT);
	timer(&x);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 280 + 2 * D, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 0);
	TAP_CHECK_UINT(x.core.det.stall_waits, 1);
}

static void test_admit(const void *arg)
{
	struct node x;

	(void)arg;
	node_start(&x, 4, 0);
	clear(&x);
	TAP_CHECK_INT(admit(&x, 3, 7, 1), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(admit(&x, 3, 7, 1), FTNL_RING_ACCEPT);
	TAP_CHECK_INT(admit(&x, 3, 6, 1), FTNL_RING_STALE);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	/* A newer incarnation: the one known restarted, it is dead. */
	TAP_CHECK_INT(admit(&x, 3, 8, 2), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK(x.rec.originate[0]);
	TAP_CHECK_INT(x.peers[3].cause, FTNL_CAUSE_RESTARTED);
	TAP_CHECK_UINT(x.peers[3].dead_incarnation, 7);
	TAP_CHECK_INT(x.core.det.emitter, 2);	/* it was the emitter */
	TAP_CHECK_INT(admit(&x, 3, 9, 3), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	/* Readmission: errors change nothing; then a newer one only. */
	{
		const char *why = NULL;

		TAP_CHECK_INT(ftnl_ring_core_readmit(&x.core, 0, 4, &x.out, &why), -EINVAL);
		TAP_CHECK(why && strstr(why, "itself"));
		TAP_CHECK_INT(ftnl_ring_core_readmit(&x.core, 1, 4, &x.out, &why), -EINVAL);
		TAP_CHECK(why && strstr(why, "alive"));
		clear(&x);
		timer(&x);
		TAP_CHECK_INT(ftnl_ring_core_readmit(&x.core, 3, 4, &x.out, &why), 0);
	}
	TAP_CHECK(!ftnl_bit_test(x.dead, 3));
	TAP_CHECK_INT(x.core.det.emitter, 3);
	TAP_CHECK_INT(x.rec.nsent, 1);
	TAP_CHECK_INT(x.rec.to[0], 3);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_NEW_OBSERVER);
	/* Set for 2 + 2d already: it fires then, and waits for 4 + 2d. */
	TAP_CHECK_UINT(timer(&x), 0);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 2 + 2 * D, &x.out), FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), 4 + 2 * D);
	TAP_CHECK_INT(admit(&x, 3, 7, 5), FTNL_RING_STALE);
	TAP_CHECK_INT(admit(&x, 3, 9, 5), FTNL_RING_ACCEPT_NEW);
}

static void test_broadcast_and_leave(const void *arg)
{
	struct node x;

	(void)arg;
	node_start(&x, 6, 3);
	admit(&x, 1, 20, 1);
	clear(&x);
	/* Never heard: takes the failed incarnation; not this node's find. */
	ftnl_ring_core_death_heard(&x.core, 5, FTNL_NODE_STATE_DEAD, 33, 0, 2, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK(!x.rec.originate[0]);
	TAP_CHECK_UINT(x.peers[5].incarnation, 33);
	TAP_CHECK_INT(x.peers[5].cause, FTNL_CAUSE_BROADCAST);
	/* Twice: once; an older life's: stale news (test_life_between()). */
	ftnl_ring_core_death_heard(&x.core, 5, FTNL_NODE_STATE_DEAD, 33, 0, 2, &x.out);
	ftnl_ring_core_death_heard(&x.core, 5, FTNL_NODE_STATE_DEAD, 32, 0, 2, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	/* The emitter, by broadcast: the ring is repaired at once. */
	clear(&x);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 0, 0, 3, &x.out);
	TAP_CHECK_INT(x.core.det.emitter, 1);
	TAP_CHECK_INT(x.rec.nsent, 1);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_NEW_OBSERVER);
	/* The observer leaves: next live successor, heartbeat at once. */
	clear(&x);
	ftnl_ring_core_leave_rx(&x.core, 4, 4, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK(!x.rec.originate[0]);
	TAP_CHECK_INT(x.peers[4].state, FTNL_NODE_STATE_LEFT);
	TAP_CHECK_INT(x.peers[4].observer, 4);
	TAP_CHECK_INT(x.core.det.observer, 0);
	TAP_CHECK_INT(x.rec.nsent, 1);
	TAP_CHECK_INT(x.rec.to[0], 0);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_HEARTBEAT);
	/* The emitter leaves: this node announces it. */
	clear(&x);
	ftnl_ring_core_leave_rx(&x.core, 1, 5, &x.out);
	TAP_CHECK(x.rec.originate[0]);
	TAP_CHECK_INT(x.core.det.emitter, 0);
	/* This node leaves: observer and emitter (the same one: once). */
	clear(&x);
	ftnl_ring_core_leave(&x.core, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 1);
	TAP_CHECK_INT(x.rec.to[0], 0);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_LEAVE);
}

/*
 * A dead node still talking is told so, with the incarnation that died, at
 * most once per h; only deaths (not leaves, not nodes never heard).
 */
static void test_tell_dead(const void *arg)
{
	const u64 t0 = 2 + 2 * D;	/* death at 2, told from 2 + 2d on */
	struct node x;

	(void)arg;
	node_start(&x, 5, 0);
	TAP_CHECK_INT(admit(&x, 2, 42, 1), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 42, 1, 2, &x.out);
	clear(&x);
	/* Within 2d of the death: not yet (a zombie's fresh accusation). */
	TAP_CHECK_INT(admit(&x, 2, 42, t0 - 1), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.nexpel, 0);
	TAP_CHECK_INT(admit(&x, 2, 42, t0), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.nexpel, 1);
	TAP_CHECK_INT(x.rec.expel_to[0], 2);
	TAP_CHECK_UINT(x.rec.expel_inc[0], 42);
	/* Within h/2: nothing more, however much it sends. */
	for (int k = 0; k < 100; k++)
		admit(&x, 2, 42, t0 + H / 2 - 1);
	TAP_CHECK_INT(x.rec.nexpel, 1);
	TAP_CHECK_INT(admit(&x, 2, 42, t0 + H / 2), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.nexpel, 2);
	/* A newer incarnation is told of its previous life: it decides. */
	TAP_CHECK_INT(admit(&x, 2, 43, t0 + 2 * H), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.nexpel, 3);
	TAP_CHECK_UINT(x.rec.expel_inc[2], 42);
	/* Left: it said goodbye itself. */
	admit(&x, 1, 50, 200);
	ftnl_ring_core_leave_rx(&x.core, 1, 201, &x.out);
	clear(&x);
	TAP_CHECK_INT(admit(&x, 1, 50, 201 + 3 * D), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.nexpel, 0);
	/*
	 * Declared dead unheard: the first incarnation heard is taken for
	 * the dead one, and told so d after that guess (a JOIN may refute
	 * it: test_guess_refuted_by_join()).
	 */
	ftnl_ring_core_death_heard(&x.core, 3, FTNL_NODE_STATE_DEAD, 0, 4, 202, &x.out);
	TAP_CHECK_INT(admit(&x, 3, 60, 202 + 2 * D), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.nexpel, 0);
	TAP_CHECK_INT(admit(&x, 3, 60, 202 + 3 * D - 1), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.nexpel, 0);
	TAP_CHECK_INT(admit(&x, 3, 60, 202 + 3 * D), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.nexpel, 1);
	TAP_CHECK_UINT(x.rec.expel_inc[0], 60);
	TAP_CHECK_INT(admit(&x, 3, 61, 202 + 3 * D + H), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_UINT(x.rec.expel_inc[1], 60);
	clear(&x);
	/* A driver without ->expel: dropped as before. */
	x.out.expel = NULL;
	TAP_CHECK_INT(admit(&x, 2, 42, 1000 * D), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.nexpel, 0);
	/* An observer held dead is told so (from 2d on), not heartbeaten... */
	node_start(&x, 3, 0);
	admit(&x, 1, 70, 1);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 70, 2, 2, &x.out);
	clear(&x);
	ftnl_ring_core_tick(&x.core, t0 - 1, &x.out);
	TAP_CHECK_INT(x.rec.nexpel, 0);
	ftnl_ring_core_tick(&x.core, t0, &x.out);
	TAP_CHECK_INT(x.rec.nexpel, 1);
	TAP_CHECK_INT(x.rec.expel_to[0], 1);
	TAP_CHECK_UINT(x.rec.expel_inc[0], 70);
	ftnl_ring_core_tick(&x.core, t0 + H, &x.out);
	TAP_CHECK_INT(x.rec.nexpel, 2);
	for (u32 k = 0; k < x.rec.nsent; k++)
		TAP_CHECK(x.rec.to[k] != 1 || x.rec.type[k] != FTNL_MSG_HEARTBEAT);
	/* ...and one whose incarnation no one knows is sent nothing. */
	node_start(&x, 3, 0);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 0, 2, 2, &x.out);
	clear(&x);
	ftnl_ring_core_tick(&x.core, 10 * D, &x.out);
	TAP_CHECK_INT(x.rec.nexpel, 0);
	for (u32 k = 0; k < x.rec.nsent; k++)
		TAP_CHECK(x.rec.to[k] != 1);
}

/*
 * EXPELLED obeyed for the current incarnation only (from a member this node
 * holds dead only when it holds most others dead); then nothing acts: no
 * heartbeat, no NEW_OBSERVER, no suspicion, no broadcast, no EXPELLED
 * answered; said once.
 */
static void test_expelled(const void *arg)
{
	struct ftnl_node_view view;
	struct node x;
	u64 inc;

	(void)arg;
	node_start(&x, 5, 2);
	inc = x.core.incarnation;
	heartbeat(&x, 1, 5);
	admit(&x, 3, 77, 5);
	ftnl_ring_core_death_heard(&x.core, 3, FTNL_NODE_STATE_DEAD, 77, 4, 6, &x.out);
	clear(&x);
	/* A previous life, or this node's own id: ignored. */
	TAP_CHECK(!expelled_rx(&x, 1, inc - 1));
	TAP_CHECK(!expelled_rx(&x, 1, inc + 1));
	TAP_CHECK(!expelled_rx(&x, 2, inc));
	TAP_CHECK_INT(x.rec.nexpelled, 0);
	TAP_CHECK(x.core.running);
	/* From node 3, held dead, while most others live: a zombie's word. */
	TAP_CHECK(!expelled_rx(&x, 3, inc));
	TAP_CHECK_INT(x.rec.nexpelled, 0);
	/* Holding most others dead, this node is the one cut off: obeyed. */
	ftnl_ring_core_death_heard(&x.core, 0, FTNL_NODE_STATE_DEAD, 0, 4, 7, &x.out);
	TAP_CHECK(!expelled_rx(&x, 3, inc));
	ftnl_ring_core_death_heard(&x.core, 4, FTNL_NODE_STATE_DEAD, 0, 1, 7, &x.out);
	clear(&x);
	TAP_CHECK(expelled_rx(&x, 3, inc));
	TAP_CHECK_INT(x.rec.nexpelled, 1);
	TAP_CHECK(x.core.expelled);
	TAP_CHECK(!x.core.running);
	TAP_CHECK_INT(x.core.expel_reason, FTNL_EXPEL_TOLD);
	TAP_CHECK_INT(x.core.expelled_by, 3);
	TAP_CHECK(!expelled_rx(&x, 1, inc));
	TAP_CHECK(!ftnl_ring_core_expel_self(&x.core, FTNL_EXPEL_QUORUM, &x.out));
	TAP_CHECK_INT(x.rec.nexpelled, 1);
	TAP_CHECK_INT(x.core.expelled_by, 3);
	/* It no longer acts. */
	ftnl_ring_core_tick(&x.core, 10000, &x.out);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 * D, &x.out), FTNL_RING_IDLE);
	TAP_CHECK_INT(x.rec.nsent + x.rec.nfailed + x.rec.nexpel, 0);
	ftnl_ring_core_view(&x.core, 2, 10, &view);
	TAP_CHECK_INT(view.state, FTNL_NODE_STATE_EXPELLED);
	ftnl_ring_core_view(&x.core, 1, 10, &view);
	TAP_CHECK_INT(view.state, FTNL_NODE_STATE_ALIVE);
}

/* Its own death by broadcast, this incarnation: expelled; else not. */
static void test_expelled_by_broadcast(const void *arg)
{
	struct ftnl_node_view view;
	struct node x;
	u64 inc;

	(void)arg;
	node_start(&x, 4, 1);
	inc = x.core.incarnation;
	clear(&x);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, inc - 1, 2, 5, &x.out);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 0, 2, 5, &x.out);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_LEFT, inc, 2, 5, &x.out);
	TAP_CHECK_INT(x.rec.nexpelled, 0);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, inc, 2, 5, &x.out);
	TAP_CHECK_INT(x.rec.nexpelled, 1);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.core.expel_reason, FTNL_EXPEL_BROADCAST);
	TAP_CHECK_INT(x.core.expelled_by, 2);
	ftnl_ring_core_view(&x.core, 1, 10, &view);
	TAP_CHECK_INT(view.state, FTNL_NODE_STATE_EXPELLED);
}

/* The entry point of the node's own rules (quorum, deafness). */
static void test_expel_self(const void *arg)
{
	struct node x;

	(void)arg;
	node_init(&x, 4, 0);
	/* Not running: nothing to expel. */
	TAP_CHECK(!ftnl_ring_core_expel_self(&x.core, FTNL_EXPEL_QUORUM, &x.out));
	ftnl_ring_core_start(&x.core, 0, &x.out);
	clear(&x);
	TAP_CHECK(ftnl_ring_core_expel_self(&x.core, FTNL_EXPEL_DEAF, &x.out));
	TAP_CHECK_INT(x.rec.nexpelled, 1);
	TAP_CHECK_INT(x.rec.nsent, 0);
	TAP_CHECK_INT(x.core.expel_reason, FTNL_EXPEL_DEAF);
	TAP_CHECK_INT(x.core.expelled_by, 0);
	TAP_CHECK(!x.core.running);
	TAP_CHECK(!ftnl_ring_core_expel_self(&x.core, FTNL_EXPEL_QUORUM, &x.out));
	TAP_CHECK_INT(x.rec.nexpelled, 1);
	/* A sink without ->expelled: the state alone. */
	node_init(&x, 4, 0);
	x.out.expelled = NULL;
	ftnl_ring_core_start(&x.core, 0, &x.out);
	TAP_CHECK(ftnl_ring_core_expel_self(&x.core, FTNL_EXPEL_QUORUM, &x.out));
	TAP_CHECK(x.core.expelled);
}

/* Brute force: the closest predecessor of @self not in @set. */
static u32 closest_live_pred(u32 set, u32 n, u32 self)
{
	u32 k = self;

	do
		k = (k + n - 1) % n;
	while (k != self && (set >> k & 1));
	return k;
}

/*
 * Every n <= 7, every self, every set of other nodes that die, every order
 * in which this node learns them (by T3 when the dead one is its emitter,
 * else by broadcast): at the end the emitter is the closest live
 * predecessor, every death was published once, the last NEW_OBSERVER
 * went to that emitter, and only what T3 found was to be broadcast.
 */
static u32 orders_checked;

static void check_order(u32 n, u32 self, const u32 *order, u32 k)
{
	struct node x;
	u32 set = 0, i, j, t3 = 0, originated = 0;
	u64 now = 1000;

	node_start(&x, n, self);
	for (i = 0; i < n; i++)
		if (i != self)
			heartbeat(&x, i, 1);
	for (i = 0; i < k; i++) {
		u32 p = order[i];

		set |= 1U << p;
		if (x.core.det.observing && x.core.det.emitter == p) {
			now = x.core.det.susp_deadline;
			TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, now, &x.out),
				      FTNL_RING_SUSPECT);
			t3++;
		} else {
			ftnl_ring_core_death_heard(&x.core, p, FTNL_NODE_STATE_DEAD,
						   0, self, now, &x.out);
		}
		/* Dead emitters learned meanwhile are found by T3 in turn. */
		while (x.core.det.observing && (set >> x.core.det.emitter & 1)) {
			now = x.core.det.susp_deadline;
			TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, now, &x.out),
				      FTNL_RING_SUSPECT);
			t3++;
		}
	}
	TAP_CHECK_INT(x.core.det.observing ? x.core.det.emitter : self,
		      closest_live_pred(set, n, self));
	TAP_CHECK_INT(x.rec.nfailed, k);
	for (i = 0; i < x.rec.nfailed && i < 64; i++) {
		originated += x.rec.originate[i];
		for (j = 0; j < i; j++)
			TAP_CHECK(x.rec.failed[j] != x.rec.failed[i]);
	}
	TAP_CHECK_INT(originated, t3);
	/* The last NEW_OBSERVER went to the emitter it ends with. */
	for (i = x.rec.nsent < 64 ? x.rec.nsent : 64; i-- > 0;) {
		if (x.rec.type[i] != FTNL_MSG_NEW_OBSERVER)
			continue;
		if (x.core.det.observing)
			TAP_CHECK_INT(x.rec.to[i], x.core.det.emitter);
		break;
	}
	orders_checked++;
}

static void permute(u32 n, u32 self, u32 *order, u32 k, u32 used, u32 depth)
{
	u32 p;

	if (depth == k) {
		check_order(n, self, order, k);
		return;
	}
	for (p = 0; p < n; p++) {
		if (p == self || (used >> p & 1))
			continue;
		order[depth] = p;
		permute(n, self, order, k, used | 1U << p, depth + 1);
	}
}

/*
 * A readmitted node is never killed again by late news about its previous
 * life: a death naming the incarnation it died in, or an older one, or a
 * bare D entry (no incarnation) is stale; the death of its new
 * incarnation, or of one newer still, is not.
 */
/*
 * Rejoin: a dead node's new incarnation heard here is admitted (joined,
 * originate); a JOIN heard from another member readmits without
 * originating, and the node's next datagram starts a new replay window;
 * older lives are stale; the (K+1)-th rejoin within the window is refused
 * (held out), and one after the window goes through; manual does nothing.
 */
static void test_rejoin(const void *arg)
{
	struct node x;

	(void)arg;
	node_start_rejoin(&x, 6, 3, true, 2, 1000);
	TAP_CHECK_INT(admit(&x, 2, 20, 1), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 20, 1, 2, &x.out);
	TAP_CHECK(ftnl_bit_test(x.dead, 2));
	clear(&x);
	/* Heard here in a new life: admitted, JOIN to broadcast. */
	TAP_CHECK_INT(admit(&x, 2, 30, 3), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(x.rec.njoined, 1);
	TAP_CHECK(x.rec.join_originate[0]);
	TAP_CHECK(!ftnl_bit_test(x.dead, 2));
	TAP_CHECK_INT(x.core.det.emitter, 2);	/* back between 3 and its emitter */
	TAP_CHECK_INT(admit(&x, 2, 30, 4), FTNL_RING_ACCEPT);
	TAP_CHECK_INT(admit(&x, 2, 20, 4), FTNL_RING_STALE);
	/* The same JOIN from elsewhere: nothing more. */
	TAP_CHECK(!ftnl_ring_core_join_heard(&x.core, 2, 30, false, 1, 5, &x.out));
	TAP_CHECK_INT(x.rec.njoined, 1);
	/* Another node dies; its JOIN comes by broadcast: no originate, and
	 * its first datagram opens a new replay window.
	 */
	TAP_CHECK_INT(admit(&x, 5, 50, 5), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_death_heard(&x.core, 5, FTNL_NODE_STATE_DEAD, 50, 0, 6, &x.out);
	clear(&x);
	TAP_CHECK(ftnl_ring_core_join_heard(&x.core, 5, 55, false, 0, 7, &x.out));
	TAP_CHECK_INT(x.rec.njoined, 1);
	TAP_CHECK(!x.rec.join_originate[0]);
	TAP_CHECK_UINT(x.peers[5].incarnation, 55);
	TAP_CHECK_INT(admit(&x, 5, 55, 8), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(admit(&x, 5, 55, 8), FTNL_RING_ACCEPT);
	/* Node 2 flaps: its 2nd rejoin in the window passes, the 3rd not. */
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 30, 1, 10, &x.out);
	clear(&x);
	TAP_CHECK_INT(admit(&x, 2, 40, 11), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(x.rec.njoined, 1);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 40, 1, 12, &x.out);
	clear(&x);
	TAP_CHECK_INT(admit(&x, 2, 45, 13), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.njoined, 0);
	TAP_CHECK_INT(x.rec.nheld_out, 1);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_HELD_OUT);
	TAP_CHECK(ftnl_bit_test(x.dead, 2));
	/* Told once; still held out while the window lasts. */
	TAP_CHECK_INT(admit(&x, 2, 45, 14), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.nheld_out, 1);
	/* After the window (it started at 3): back. */
	TAP_CHECK_INT(admit(&x, 2, 45, 1003), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(x.rec.njoined, 1);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_ALIVE);

	/*
	 * A death learned within 2d of admitting a node (a broadcast planned
	 * while it was dead skipped it): D goes to it again; later, not.
	 */
	node_start_rejoin(&x, 6, 3, true, 2, 1000);
	TAP_CHECK_INT(admit(&x, 2, 20, 1), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(admit(&x, 4, 40, 1), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 20, 1, 2, &x.out);
	TAP_CHECK_INT(admit(&x, 2, 30, 10), FTNL_RING_ACCEPT_NEW);
	clear(&x);
	ftnl_ring_core_death_heard(&x.core, 4, FTNL_NODE_STATE_DEAD, 40, 5, 10 + 2 * D - 1,
				   &x.out);
	TAP_CHECK_INT(x.rec.nwelcome, 1);
	TAP_CHECK_INT(x.rec.welcome[0], 2);
	clear(&x);
	ftnl_ring_core_death_heard(&x.core, 5, FTNL_NODE_STATE_DEAD, 0, 0, 10 + 2 * D,
				   &x.out);
	TAP_CHECK(ftnl_bit_test(x.dead, 5));
	TAP_CHECK_INT(x.rec.nwelcome, 0);

	/*
	 * A rejoined node counts as live again for the quorum rule: on 4
	 * nodes, node 2 dies and rejoins; a death then still leaves 3 of 4.
	 */
	node_init(&x, 4, 3);
	ftnl_ring_core_set_rules(&x.core, true, false);
	ftnl_ring_core_set_rejoin(&x.core, true, 2, 1000);
	ftnl_ring_core_start(&x.core, 0, &x.out);
	TAP_CHECK_INT(admit(&x, 2, 20, 1), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 20, 1, 2, &x.out);
	TAP_CHECK(!ftnl_ring_core_has_quorum(&x.core, 1));
	TAP_CHECK_INT(admit(&x, 2, 30, 3), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK(ftnl_ring_core_has_quorum(&x.core, 1));
	/* Its JOIN heard from elsewhere counts the same. */
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 30, 1, 4, &x.out);
	TAP_CHECK(ftnl_ring_core_join_heard(&x.core, 2, 40, false, 1, 5, &x.out));
	TAP_CHECK(ftnl_ring_core_has_quorum(&x.core, 1));
	clear(&x);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 40, 1, 6, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_MEMBER);

	/* Manual: a new life stays dead, no JOIN. */
	node_start_rejoin(&x, 6, 3, false, 2, 1000);
	TAP_CHECK_INT(admit(&x, 2, 20, 1), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 20, 1, 2, &x.out);
	clear(&x);
	TAP_CHECK_INT(admit(&x, 2, 30, 3), FTNL_RING_DEAD_SENDER);
	TAP_CHECK(!ftnl_ring_core_join_heard(&x.core, 2, 30, false, 1, 3, &x.out));
	TAP_CHECK_INT(x.rec.njoined, 0);
	TAP_CHECK(ftnl_bit_test(x.dead, 2));

	/*
	 * Node 1 published dead here before any life of it was heard (life
	 * 0); its next life, 80, heard first, is taken for the dead one
	 * (a frozen node speaks in the life that died). A member's broadcast
	 * names the life that did die, 70: 80 is a rejoin, not expelled.
	 */
	node_start_rejoin(&x, 6, 3, true, 2, 1000);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 0, 2, 10,
				   &x.out);
	TAP_CHECK_INT(admit(&x, 1, 80, 20), FTNL_RING_DEAD_SENDER);
	TAP_CHECK(x.peers[1].dead_guessed);
	TAP_CHECK_UINT(x.peers[1].dead_incarnation, 80);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 70, 0, 30,
				   &x.out);
	TAP_CHECK(!x.peers[1].dead_guessed);
	TAP_CHECK_UINT(x.peers[1].dead_incarnation, 70);
	clear(&x);
	TAP_CHECK_INT(admit(&x, 1, 80, 40 + 2 * D), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(x.rec.nexpel, 0);
	TAP_CHECK_INT(x.rec.njoined, 1);
	TAP_CHECK(!ftnl_bit_test(x.dead, 1));
	/* A later broadcast naming a life after the guess changes nothing. */
	node_start_rejoin(&x, 6, 3, true, 2, 1000);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 0, 2, 10,
				   &x.out);
	admit(&x, 1, 80, 20);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 90, 0, 30,
				   &x.out);
	TAP_CHECK(x.peers[1].dead_guessed);
	TAP_CHECK_UINT(x.peers[1].dead_incarnation, 80);
}

/*
 * A member that never heard a node's previous life pins its new one first
 * (node 2's restart reached it before the news), then hears the previous
 * life's death: the life between (ftnl_ring_life_between()).
 */
static void test_life_between(const void *arg)
{
	const char *why = NULL;
	struct node x;

	(void)arg;
	/*
	 * rejoin manual: the members that heard both lives hold node 2 dead
	 * until an admin readmits it; this one publishes the death it missed
	 * and holds it dead too (it kept it alive before: the VM's
	 * ring_restart, restarted, on the restarted node's emitter).
	 */
	node_start_rejoin(&x, 6, 3, false, 2, 1000);
	TAP_CHECK_INT(admit(&x, 2, 30, 1), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 20, 1, 2,
				   &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK(!x.rec.originate[0]);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_DEAD);
	TAP_CHECK_INT(x.peers[2].cause, FTNL_CAUSE_BROADCAST);
	TAP_CHECK_UINT(x.peers[2].dead_incarnation, 20);
	TAP_CHECK_UINT(x.peers[2].incarnation, 20);
	TAP_CHECK_UINT(x.peers[2].observer, 1);
	TAP_CHECK(ftnl_bit_test(x.dead, 2));
	TAP_CHECK_INT(x.rec.njoined, 0);
	/* The new life is kept out, as everywhere else; news again: nothing. */
	TAP_CHECK_INT(admit(&x, 2, 30, 3), FTNL_RING_DEAD_SENDER);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 20, 1, 4,
				   &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	/* Readmitted, the new life is taken. */
	TAP_CHECK_INT(ftnl_ring_core_readmit(&x.core, 2, 5, &x.out, &why), 0);
	TAP_CHECK_INT(admit(&x, 2, 30, 6), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_ALIVE);
	TAP_CHECK(!ftnl_bit_test(x.dead, 2));

	/* rejoin auto: the life known is admitted and its JOIN broadcast. */
	node_start_rejoin(&x, 6, 3, true, 2, 1000);
	TAP_CHECK_INT(admit(&x, 2, 30, 1), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 20, 1, 2,
				   &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.rec.njoined, 1);
	TAP_CHECK(x.rec.join_originate[0]);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_ALIVE);
	TAP_CHECK_UINT(x.peers[2].incarnation, 30);
	TAP_CHECK_INT(admit(&x, 2, 30, 3), FTNL_RING_ACCEPT);

	/*
	 * rejoin auto, one rejoin allowed per window and used (life 30):
	 * the death of life 35 before life 40 is refused like the rejoin
	 * it is: dead, then held out.
	 */
	node_start_rejoin(&x, 6, 3, true, 1, 1000);
	TAP_CHECK_INT(admit(&x, 2, 20, 1), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 20, 1, 2,
				   &x.out);
	TAP_CHECK_INT(admit(&x, 2, 30, 3), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(x.rec.njoined, 1);
	x.peers[2].incarnation = 40;
	clear(&x);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 35, 1, 4,
				   &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.njoined, 0);
	TAP_CHECK_INT(x.rec.nheld_out, 1);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_HELD_OUT);
	TAP_CHECK_UINT(x.peers[2].dead_incarnation, 35);
	TAP_CHECK(ftnl_bit_test(x.dead, 2));
}

static void test_late_news_after_readmit(const void *arg)
{
	const char *why = NULL;
	struct node x;

	(void)arg;
	node_start(&x, 6, 3);
	TAP_CHECK_INT(admit(&x, 1, 20, 1), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 20, 0, 2, &x.out);
	TAP_CHECK_UINT(x.peers[1].dead_incarnation, 20);
	TAP_CHECK_INT(ftnl_ring_core_readmit(&x.core, 1, 3, &x.out, &why), 0);
	clear(&x);
	/* Not heard since: the old life's death again, older, bare D. */
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 20, 0, 4, &x.out);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 19, 0, 4, &x.out);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 0, 0, 4, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.peers[1].state, FTNL_NODE_STATE_ALIVE);
	TAP_CHECK(!ftnl_bit_test(x.dead, 1));
	/* Heard in its new life: the same, and its datagrams are accepted. */
	TAP_CHECK_INT(admit(&x, 1, 25, 5), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 20, 0, 6, &x.out);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 0, 0, 6, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(admit(&x, 1, 25, 7), FTNL_RING_ACCEPT);
	/* The new life's own death counts. */
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 25, 0, 8, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_UINT(x.peers[1].dead_incarnation, 25);
	/* A node never seen to die takes a bare D entry. */
	ftnl_ring_core_death_heard(&x.core, 5, FTNL_NODE_STATE_DEAD, 0, 0, 9, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 2);
	/* A newer life's death is the known life's death too. */
	TAP_CHECK_INT(admit(&x, 4, 40, 9), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_death_heard(&x.core, 4, FTNL_NODE_STATE_DEAD, 41, 0, 9, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 3);
	TAP_CHECK_UINT(x.peers[4].dead_incarnation, 41);
	/* Nothing about this node itself. */
	ftnl_ring_core_death_heard(&x.core, 3, FTNL_NODE_STATE_DEAD, 103, 0, 9, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 3);
}

static void test_exhaustive_orders(const void *arg)
{
	u32 order[8];

	(void)arg;
	for (u32 n = 2; n <= 7; n++)
		for (u32 self = 0; self < n; self++)
			for (u32 k = 0; k < n; k++)
				permute(n, self, order, k, 0, 0);
	tap_diag("%u orders of deaths checked", orders_checked);
}

/* Node 3 of 8 with probes (and the quorum rule), running, emitter 2 heard. */
static void probing_node(struct node *x, bool quorum)
{
	node_init(x, 8, 3);
	ftnl_ring_core_set_rules(&x->core, quorum, true);
	ftnl_ring_core_start(&x->core, 1000, &x->out);
	TAP_CHECK(heartbeat(x, 2, 1000));
	timer(x);
	clear(x);
}

/* A helper's answer to @x's probe @id: it hears it (or relays the suspect). */
static void probe_ack(struct node *x, u32 from, u32 target, bool alive, u32 id,
		      u64 now)
{
	const struct ftnl_ring_probe ack = {
		.target = target,
		.origin = x->core.det.self,
		.alive = alive,
		.id = id,
	};

	ftnl_ring_core_probe_rx(&x->core, from, FTNL_MSG_PROBE_ACK, &ack, now,
				&x->out);
}

/*
 * The suspect's silence is established at @at: @x does not accuse yet but
 * asks its helpers again (ftnl_ring_probe_verify()), and accuses only on
 * answers received from then on - here from the helpers in @mask, at
 * @at + 2 - once the suspect's relayed answer would be in, twice that
 * round trip after @at. Return: what its timer then says.
 */
static enum ftnl_ring_expiry confirm_again(struct node *x, u64 at, u32 mask)
{
	u32 pos;

	TAP_CHECK_INT(ftnl_ring_core_expire(&x->core, at, &x->out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(x->core.probe.verify_from, at);
	for (pos = 0; pos < 32; pos++)
		if (mask >> pos & 1)
			probe_ack(x, pos, x->core.probe.target, false,
				  x->core.probe.id, at + 2);
	return ftnl_ring_core_expire(&x->core, at + 4, &x->out);
}

/*
 * Run @x's timer, each time where it asks, until it stops waiting: it must
 * resign. Return: when it did (0 if it never stopped waiting).
 */
static u64 run_until_resigned(struct node *x)
{
	u32 i;

	for (i = 0; i < 100; i++) {
		u64 at = timer(x);
		enum ftnl_ring_expiry what;

		what = ftnl_ring_core_expire(&x->core, at, &x->out);
		if (what == FTNL_RING_WAIT)
			continue;
		TAP_CHECK_INT(what, FTNL_RING_RESIGNED);
		return at;
	}
	return 0;
}

static void test_probe_observer(const void *arg)
{
	struct node x;
	u32 i;

	(void)arg;
	probing_node(&x, false);
	/* The timer first fires the lead before the deadline: probe only. */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + (D - LEAD), &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), 1000 + D);
	TAP_CHECK_INT(x.rec.nprobes, 1 + FTNL_RING_PROBE_HELPERS);
	for (i = 0; i <= FTNL_RING_PROBE_HELPERS; i++) {
		/*
		 * The suspect itself first, then helpers from the observer's
		 * side, never self.
		 */
		TAP_CHECK_INT(x.rec.probe_to[i], i ? 3 + i : 2);
		TAP_CHECK_INT(x.rec.probe_type[i], FTNL_MSG_PROBE_REQ);
		TAP_CHECK_INT(x.rec.probe[i].target, 2);
		TAP_CHECK_INT(x.rec.probe[i].origin, 3);
	}
	/*
	 * A helper hears us; the deadline passes: the suspect's silence is
	 * established, but that answer came before it ended. The suspect
	 * and the helpers asked are asked again (same identifier), and a
	 * helper's answer received from then on proves that this node heard
	 * all of the silence: accused once the suspect's answer to the new
	 * requests would be in too, twice that answer's round trip after
	 * the verification (ring-dst lossy 1 15690: the first round's
	 * requests to the suspect were all lost).
	 */
	probe_ack(&x, 5, 2, false, 1, 1030);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.rec.nprobes, 1 + FTNL_RING_PROBE_HELPERS);
	for (i = 0; i <= FTNL_RING_PROBE_HELPERS; i++) {
		TAP_CHECK_INT(x.rec.probe_to[i], i ? 3 + i : 2);
		TAP_CHECK_INT(x.rec.probe[i].id, 1);
	}
	TAP_CHECK_UINT(timer(&x), 1000 + D + D / 4);
	/* Other probes' answers prove nothing; the fresh one wakes it. */
	probe_ack(&x, 5, 2, false, 2, 1000 + D + 2);
	TAP_CHECK_UINT(timer(&x), 0);
	probe_ack(&x, 5, 2, false, 1, 1000 + D + 3);
	TAP_CHECK_UINT(timer(&x), 1000 + D + 6);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + 5, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + 6, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 2);
	/* The next emitter (2d) is probed the lead before its deadline. */
	TAP_CHECK_UINT(timer(&x), 1000 + D + 6 + 2 * D - LEAD);

	/*
	 * Deaf right after its helpers answered (ring-dst deaf, seed 7483):
	 * nothing is received after the deadline, its live emitter's
	 * heartbeats included. No accusation: the verification's first
	 * retry, d/4 after the deadline, finds no fresh answer and asks the
	 * next round at once (one more helper, n/2 = 4 in all); when that
	 * round closes, 2d later, nobody is left to ask: it resigns, unheard.
	 */
	probing_node(&x, false);
	ftnl_ring_core_expire(&x.core, 1000 + (D - LEAD), &x.out);
	probe_ack(&x, 4, 2, false, 1, 1030);
	probe_ack(&x, 5, 2, false, 1, 1031);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(run_until_resigned(&x), 1000 + D + D / 4 + 2 * D);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_UNHEARD);
	TAP_CHECK_INT(x.core.expel_reason, FTNL_EXPEL_DEAF);
	TAP_CHECK_INT(x.rec.nfailed, 0);

	/*
	 * The suspect answers a helper: no accusation. Its answer is as
	 * fresh as a heartbeat: a new deadline d from now, probed again the
	 * lead before it, nobody asked meanwhile (a probe decided at once
	 * would not wait for the suspect's answer).
	 */
	probing_node(&x, false);
	ftnl_ring_core_expire(&x.core, 1000 + (D - LEAD), &x.out);
	ftnl_ring_core_probe_rx(&x.core, 4, FTNL_MSG_PROBE_ACK,
				&(struct ftnl_ring_probe){ 2, 3, false, 1 }, 1030,
				&x.out);
	ftnl_ring_core_probe_rx(&x.core, 4, FTNL_MSG_PROBE_ACK,
				&(struct ftnl_ring_probe){ 2, 3, true, 1 }, 1031,
				&x.out);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.rec.nprobes, 0);
	TAP_CHECK_UINT(x.core.refuted, 1);
	TAP_CHECK_INT(x.rec.nsent, 1);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_NEW_OBSERVER);
	TAP_CHECK(!x.core.probe.active);
	TAP_CHECK_UINT(timer(&x), 1000 + D + D - LEAD);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + D - LEAD,
					    &x.out), FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nprobes, 1 + FTNL_RING_PROBE_HELPERS);
	TAP_CHECK(heartbeat(&x, 2, 1100));

	/*
	 * Nobody answers: the silent helpers and the suspect are asked
	 * again every d/4 (a datagram lost), then rounds until n/2
	 * helpers, then it resigns.
	 */
	probing_node(&x, false);
	ftnl_ring_core_expire(&x.core, 1000 + (D - LEAD), &x.out);
	for (i = 0; i < 3; i++) {
		clear(&x);
		TAP_CHECK_INT(ftnl_ring_core_expire(&x.core,
						    1000 + D + i * (D / 4),
						    &x.out), FTNL_RING_WAIT);
		TAP_CHECK_INT(x.rec.nprobes, 1 + FTNL_RING_PROBE_HELPERS);
		TAP_CHECK_INT(x.rec.probe_to[0], 2);
		TAP_CHECK_UINT(timer(&x), 1000 + D + (i + 1) * (D / 4));
	}
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + (D - LEAD) + 2 * D,
					    &x.out), FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nprobes, 1);	/* 8 / 2 = 4 in all */
	TAP_CHECK_INT(x.rec.probe_to[0], 7);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + (D - LEAD) + 4 * D,
					    &x.out), FTNL_RING_RESIGNED);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_UNHEARD);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK(!x.core.running);
	clear(&x);
	ftnl_ring_core_tick(&x.core, 10000, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 0);

	/*
	 * Two nodes, nobody else to ask: the suspect is asked directly, and
	 * its answer refutes the suspicion its lost heartbeats raised
	 * (ring-dst lossy accused a live node of two before).
	 */
	node_init(&x, 2, 1);
	ftnl_ring_core_set_rules(&x.core, false, true);
	ftnl_ring_core_start(&x.core, 1000, &x.out);
	TAP_CHECK(heartbeat(&x, 0, 1000));
	timer(&x);
	clear(&x);
	ftnl_ring_core_expire(&x.core, 1000 + (D - LEAD), &x.out);
	TAP_CHECK_INT(x.rec.nprobes, 1);
	TAP_CHECK_INT(x.rec.probe_to[0], 0);
	TAP_CHECK_INT(x.rec.probe[0].target, 0);
	ftnl_ring_core_probe_rx(&x.core, 0, FTNL_MSG_PROBE_ACK,
				&(struct ftnl_ring_probe){ 0, 1, true,
							   x.rec.probe[0].id },
				1030, &x.out);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_UINT(x.core.refuted, 1);
	/* Silent this time: accused at the deadline, as before. */
	clear(&x);
	ftnl_ring_core_expire(&x.core, 1000 + D + (D - LEAD), &x.out);
	TAP_CHECK_INT(x.rec.nprobes, 1);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + 2 * D, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 0);
}

/*
 * A refutation counts as a heartbeat (ftnl_ring_det_alive()): the new
 * window has its own turn of the local health rule, whatever the probe's
 * waits used up, so the next accusation comes no sooner than after a
 * heartbeat at the same time. It adds no inter-arrival sample to the
 * adaptive estimator and gives d_max, not the estimate the emitter just
 * outlived.
 */
static void refute_after_retry(struct node *x)
{
	/* Probe the lead before, nobody answers by the deadline: a retry. */
	ftnl_ring_core_expire(&x->core, 1000 + (D - LEAD), &x->out);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x->core, 1000 + D, &x->out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(x), 1000 + D + D / 4);
	/* The suspect's answer, relayed by a helper. */
	ftnl_ring_core_probe_rx(&x->core, 4, FTNL_MSG_PROBE_ACK,
				&(struct ftnl_ring_probe){ 2, 3, true, 1 },
				1000 + D + 5, &x->out);
	clear(x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x->core, 1000 + D + D / 4,
					    &x->out), FTNL_RING_WAIT);
	TAP_CHECK_UINT(x->core.refuted, 1);
	TAP_CHECK_INT(x->rec.nfailed, 0);
}

/*
 * After @alive_at's renewal (refutation or heartbeat), this node runs 2h
 * late in the window and a helper answers the next probe: the deadline
 * waits h once (the local health rule), then accuses.
 */
static void check_next_window(struct node *x, u64 alive_at)
{
	u64 deadline = alive_at + D, at = timer(x);

	TAP_CHECK_UINT(x->core.det.susp_deadline, deadline);
	/* A heartbeat moves the timer only earlier: it fires and is reset. */
	if (at && at < deadline - LEAD) {
		TAP_CHECK_INT(ftnl_ring_core_expire(&x->core, at, &x->out),
			      FTNL_RING_WAIT);
		at = timer(x);
	}
	TAP_CHECK_UINT(at, deadline - LEAD);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x->core, deadline - LEAD,
					    &x->out), FTNL_RING_WAIT);
	ftnl_ring_core_probe_rx(&x->core, 4, FTNL_MSG_PROBE_ACK,
				&(struct ftnl_ring_probe){ 2, 3, false,
							   x->core.probe.id },
				deadline - LEAD + 2, &x->out);
	ftnl_ring_core_self_late(&x->core, 2 * H, deadline - 5);
	clear(x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x->core, deadline, &x->out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(x->core.det.stall_waits, 1);
	TAP_CHECK_INT(x->rec.nfailed, 0);
	TAP_CHECK_UINT(timer(x), deadline + H);
	TAP_CHECK_INT(confirm_again(x, deadline + H, 1 << 4),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x->rec.nfailed, 1);
}

/*
 * Node 3 of 8 probes its silent emitter, nobody answers, and its second
 * round (helper 7) closes at 1000 + (D - LEAD) + 4D. Return: that close.
 */
static u64 unanswered_rounds(struct node *x)
{
	u64 at;

	probing_node(x, false);
	ftnl_ring_core_expire(&x->core, 1000 + (D - LEAD), &x->out);
	for (at = 1000 + D; at < 1000 + (D - LEAD) + 2 * D; at += D / 4)
		ftnl_ring_core_expire(&x->core, at, &x->out);
	clear(x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x->core, 1000 + (D - LEAD) + 2 * D,
					    &x->out), FTNL_RING_WAIT);
	TAP_CHECK_INT(x->rec.nprobes, 1);
	TAP_CHECK_INT(x->rec.probe_to[0], 7);
	clear(x);
	return 1000 + (D - LEAD) + 4 * D;
}

/*
 * The local health rule for the self-judgement: a round that closes with
 * no answer makes a node that was late during it ask again for 2d, not
 * resign (the answers may wait unread behind its stall); once it runs on
 * time through a whole extension, it resigns.
 */
static void test_probe_self_late(const void *arg)
{
	struct node x;
	u64 close;
	u32 i;

	(void)arg;
	/* A timer of its own ran more than h late during the last round. */
	close = unanswered_rounds(&x);
	ftnl_ring_core_self_late(&x.core, H + 1, close - D);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, close, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.resigned, 0);
	TAP_CHECK_UINT(x.core.det.stall_waits, 1);
	/* The suspect and the four silent helpers, asked again at once. */
	TAP_CHECK_INT(x.rec.nprobes, 5);
	TAP_CHECK_INT(x.rec.probe_to[0], 2);
	for (i = 1; i < 5; i++) {
		TAP_CHECK_INT(x.rec.probe_to[i], 3 + i);
		TAP_CHECK_UINT(x.rec.probe[i].id, x.core.probe.id);
	}
	/* Paced: asked again every d, not every d/4, while it is late. */
	TAP_CHECK_UINT(timer(&x), close + D);
	/* On time since: it resigns when the extension closes, 2d later. */
	TAP_CHECK_UINT(run_until_resigned(&x), close + 2 * D);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_UNHEARD);
	TAP_CHECK_UINT(x.core.det.stall_waits, 1);

	/* The expiry at the close itself runs more than h late: the same. */
	close = unanswered_rounds(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, close + H + 1, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.resigned, 0);
	TAP_CHECK_UINT(x.core.det.stall_waits, 1);
	TAP_CHECK_UINT(timer(&x), close + H + 1 + D);
	/* An answer read during the extension: heard, not deaf. */
	probe_ack(&x, 5, 2, false, x.core.probe.id, close + H + 2);
	TAP_CHECK(x.core.probe.heard_helper);

	/* Late before the round opened: no excuse, it resigns at the close. */
	close = unanswered_rounds(&x);
	ftnl_ring_core_self_late(&x.core, H + 1, close - 2 * D - 1);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, close, &x.out),
		      FTNL_RING_RESIGNED);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_UNHEARD);
}

/*
 * Input the host dropped (its backlog full) is the local health rule's
 * too: a round that nobody answered while the host dropped is opened
 * again, not closed by resigning; and the emitter is not judged before d
 * after the last drop report, however many (any datagram dropped may have
 * been its heartbeat), then judged as usual.
 */
static void test_host_rx_lost(const void *arg)
{
	struct node x;
	u64 close;

	(void)arg;
	close = unanswered_rounds(&x);
	ftnl_ring_core_rx_lost(&x.core, close - D);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, close, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.resigned, 0);
	TAP_CHECK_UINT(x.core.det.rx_lost, 1);
	/* Drops go on through the extension: opened again at its close. */
	ftnl_ring_core_rx_lost(&x.core, close + D);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, close + 2 * D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.resigned, 0);
	/* They stopped: deaf after all, it resigns at the next close. */
	TAP_CHECK_UINT(run_until_resigned(&x), close + 4 * D);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_UNHEARD);

	/* Without probes: the emitter judged d after the last report. */
	node_heard_at_100(&x);
	ftnl_ring_core_rx_lost(&x.core, 100 + D - 2);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), 100 + 2 * D - 2);
	ftnl_ring_core_rx_lost(&x.core, 100 + 2 * D - 3);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + 2 * D - 2, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), 100 + 3 * D - 3);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_UINT(x.core.det.stall_waits, 2);
	/*
	 * No drop for d. The drops were lateness too, and the hold was not
	 * the stall's grace: h once more, then a silence it heard accuses.
	 */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + 3 * D - 3, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), 100 + 3 * D - 3 + H);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + 3 * D - 3 + H,
					    &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
}

/*
 * Drops counted with the host-drop rule off (ftnl_ring_core_rx_dropped()):
 * a round nobody answered while the host dropped is opened again instead
 * of resigning; a node with nobody to ask judges its silent emitter d
 * after the last drop, not at the deadline; and a verification after
 * drops gives the suspect a new round trip, so that one helper's quick
 * answer does not accuse at once, and accuses d after the last drop (2h
 * after input held). The probe and its rounds are not held d (that is
 * the rule's, off here).
 */
static void test_host_rx_dropped(const void *arg)
{
	u64 close, deadline = 1000 + D, at;
	struct node x;

	(void)arg;
	close = unanswered_rounds(&x);
	ftnl_ring_core_rx_dropped(&x.core, close - D);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, close, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.resigned, 0);
	TAP_CHECK_UINT(x.core.det.stall_waits, 1);
	TAP_CHECK_UINT(x.core.det.rx_lost, 0);
	/*
	 * Asked again at once (the suspect and the four silent helpers),
	 * then every d, not every d/4: the drops' round is paced.
	 */
	TAP_CHECK_INT(x.rec.nprobes, 5);
	TAP_CHECK(x.core.probe.paced);
	TAP_CHECK_UINT(timer(&x), close + D);
	/* No drop since: deaf after all, it resigns when the extension closes. */
	TAP_CHECK_UINT(run_until_resigned(&x), close + 2 * D);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_UNHEARD);

	/* Two nodes: nobody to ask but the suspect. */
	node_init(&x, 2, 1);
	ftnl_ring_core_set_rules(&x.core, false, true);
	ftnl_ring_core_start(&x.core, 1000, &x.out);
	TAP_CHECK(heartbeat(&x, 0, 1000));
	for (at = x.core.det.timer_at; at && at < deadline;
	     at = x.core.det.timer_at)
		ftnl_ring_core_expire(&x.core, at, &x.out);
	ftnl_ring_core_rx_dropped(&x.core, deadline - 2);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_UINT(x.core.det.timer_at, deadline - 2 + D);
	/* Silent on, no drop for d: accused then, after asking it again. */
	for (at = x.core.det.timer_at; at && !x.rec.nfailed;
	     at = x.core.det.timer_at)
		if (ftnl_ring_core_expire(&x.core, at, &x.out) ==
		    FTNL_RING_SUSPECT)
			break;
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK(at >= deadline - 2 + D);
	TAP_CHECK(x.rec.nprobes > 0);

	/*
	 * Eight nodes without the quorum rule: the first round's helper
	 * answered before the deadline; drops then; at the deadline the
	 * verification asks again, and a helper answering 2 later does not
	 * accuse 4 later (before the drops it would: the first round's
	 * round trip was long over) but twice its own round trip after the
	 * verification began, and not before d after the last drop: the
	 * heartbeat a live suspect sent before a stall shorter than d - h
	 * may be among the drops (ring-dst drops 1 16075).
	 */
	probing_node(&x, false);
	ftnl_ring_core_expire(&x.core, 1000 + (D - LEAD), &x.out);
	probe_ack(&x, 4, 2, false, x.core.probe.id, 1000 + (D - LEAD) + 2);
	ftnl_ring_core_rx_dropped(&x.core, deadline - 5);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(x.core.probe.verify_from, deadline);
	probe_ack(&x, 4, 2, false, x.core.probe.id, deadline + 2);
	TAP_CHECK_UINT(x.core.probe.decide_at, deadline + 4);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline + 3, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline + 4, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(x.core.det.timer_at, deadline - 5 + D);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline - 5 + 2 * H,
					    &x.out), FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline - 5 + D, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);

	/*
	 * The same with input held, not dropped (ftnl_ring_core_rx_held()):
	 * a held heartbeat is read once the backlog drains, so 2h after
	 * the last report is enough.
	 */
	probing_node(&x, false);
	ftnl_ring_core_expire(&x.core, 1000 + (D - LEAD), &x.out);
	probe_ack(&x, 4, 2, false, x.core.probe.id, 1000 + (D - LEAD) + 2);
	ftnl_ring_core_rx_held(&x.core, deadline - 5);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline, &x.out),
		      FTNL_RING_WAIT);
	probe_ack(&x, 4, 2, false, x.core.probe.id, deadline + 2);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline + 4, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(x.core.det.timer_at, deadline - 5 + 2 * H);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline - 5 + 2 * H,
					    &x.out), FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
}

/*
 * The probe is due while the host holds or drops input (reported at the
 * expiry, or within ftnl_ring_probe_defer_ns() before it): the heartbeat
 * may wait in the backlog, and a probe would only add to it. Nothing is
 * sent; the probe waits that long and the deadline moves
 * with it. The held heartbeat read meanwhile ends it without a datagram;
 * input the host goes on holding puts the probe off again, and nothing
 * is judged; once the host has read its input that long, the probe
 * starts, its lead kept, and the silent emitter is judged as usual.
 */
static void test_probe_deferred_by_host_rx(const void *arg)
{
	u64 due = 1000 + (D - LEAD), wait = ftnl_ring_probe_defer_ns(LEAD, H), at;
	struct node x;

	(void)arg;
	probing_node(&x, false);
	ftnl_ring_core_rx_dropped(&x.core, due);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, due, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nprobes, 0);
	TAP_CHECK(!x.core.probe.active);
	TAP_CHECK_UINT(x.core.deferred, 1);
	TAP_CHECK_UINT(x.core.det.susp_deadline, due + wait + LEAD);
	TAP_CHECK_UINT(timer(&x), due + wait);
	/* The held heartbeat is read: d from it, and nothing was sent. */
	TAP_CHECK(heartbeat(&x, 2, due + 3));
	TAP_CHECK_UINT(x.core.det.susp_deadline, due + 3 + D);
	TAP_CHECK_INT(x.rec.nprobes, 0);

	/* Held, reported at the last tick, a little before the probe was due. */
	probing_node(&x, false);
	ftnl_ring_core_rx_held(&x.core, due - wait + 1);
	ftnl_ring_core_expire(&x.core, due, &x.out);
	TAP_CHECK_INT(x.rec.nprobes, 0);
	TAP_CHECK_UINT(timer(&x), due + wait);
	/* Held again when it comes back: put off again, nobody judged. */
	ftnl_ring_core_rx_held(&x.core, due + wait);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, due + wait, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nprobes, 0);
	TAP_CHECK_UINT(x.core.deferred, 2);
	TAP_CHECK_UINT(timer(&x), due + 2 * wait);
	/* Read since: the probe starts with its lead, k helpers and the suspect. */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, due + 2 * wait, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nprobes, 1 + FTNL_RING_PROBE_HELPERS);
	TAP_CHECK(x.core.probe.active);
	TAP_CHECK_UINT(x.core.det.susp_deadline, due + 2 * wait + LEAD);
	/*
	 * A helper hears it, the suspect stays silent: verified at the
	 * deadline, accused twice the helper's round trip later (2h after
	 * the last report has passed by then).
	 */
	at = due + 2 * wait + LEAD;
	probe_ack(&x, 4, 2, false, x.core.probe.id, due + 2 * wait + 1);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, at, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(x.core.probe.verify_from, at);
	probe_ack(&x, 4, 2, false, x.core.probe.id, at + 2);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, at + 4, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);

	/* Drops older than half the lead: probed when due, as before. */
	probing_node(&x, false);
	ftnl_ring_core_rx_dropped(&x.core, due - wait);
	ftnl_ring_core_expire(&x.core, due, &x.out);
	TAP_CHECK_INT(x.rec.nprobes, 1 + FTNL_RING_PROBE_HELPERS);
	TAP_CHECK_UINT(x.core.deferred, 0);
}

/* Requests the probe sent, all PROBE_REQ; how many went to @to. */
static u32 probe_reqs_to(const struct node *x, u32 to)
{
	u32 k, count = 0;

	for (k = 0; k < x->rec.nprobes; k++) {
		TAP_CHECK_INT(x->rec.probe_type[k], FTNL_MSG_PROBE_REQ);
		count += x->rec.probe_to[k] == to;
	}
	return count;
}

/*
 * A probe in progress while the host drops its input (a report within
 * ftnl_ring_probe_defer_ns()) asks its suspect only: the helpers' answers
 * would meet the same backlog (ftnl_ring_probe_held()). Here the deadline
 * comes at a drop, with the quorum rule: the escalation marks the
 * majority asked and sends them nothing; its first retry after the drops
 * asks them all, and they accuse, d after the last drop.
 */
static void test_probe_asks_held_by_host_rx(const void *arg)
{
	u64 due = 1000 + (D - LEAD), deadline = 1000 + D;
	u64 retry = deadline + D / 4;
	struct node x;
	u32 helper;

	(void)arg;
	probing_node(&x, true);
	ftnl_ring_core_expire(&x.core, due, &x.out);
	TAP_CHECK_INT(x.rec.nprobes, 1 + FTNL_RING_PROBE_HELPERS);
	clear(&x);
	ftnl_ring_core_rx_dropped(&x.core, deadline - 1);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline, &x.out),
		      FTNL_RING_WAIT);
	/* The suspect only; the 6 other live members noted, not asked. */
	TAP_CHECK_INT(x.rec.nprobes, 1);
	TAP_CHECK_UINT(probe_reqs_to(&x, 2), 1);
	TAP_CHECK_UINT(x.core.asks_held, 3 + 3);
	TAP_CHECK_UINT(x.core.probe.asked, 6);
	TAP_CHECK_UINT(timer(&x), retry);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, retry, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nprobes, 1 + 6);
	for (helper = 0; helper < 8; helper++)
		TAP_CHECK_UINT(probe_reqs_to(&x, helper),
			       helper == 3 ? 0 : 1);
	TAP_CHECK_UINT(x.core.asks_held, 6);
	/*
	 * A majority answers; the suspect's answer would be in twice that
	 * round trip after the escalation. Accused d after the last drop,
	 * not before.
	 */
	for (helper = 4; helper < 8; helper++)
		probe_ack(&x, helper, 2, false, x.core.probe.id, retry + 2);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core,
					    deadline + 2 * (retry + 2 - deadline),
					    &x.out), FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_UINT(timer(&x), deadline - 1 + D);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline - 1 + D,
					    &x.out), FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_UINT(x.rec.failed[0], 2);
}

/*
 * A probe that starts late (its timer ran past the time to probe) just
 * after a drop: every helper is marked asked and none is sent to. Its
 * round closing without an answer says nothing of this node's hearing:
 * held open as for drops (ftnl_ring_probe_self_late()), the helpers
 * asked as it reopens, and only a round that asked them and heard none
 * makes it resign.
 */
static void test_probe_round_held_open(const void *arg)
{
	u64 deadline = 1000 + D, close = deadline + 2 * D;
	struct node x;

	(void)arg;
	probing_node(&x, true);
	ftnl_ring_core_rx_dropped(&x.core, deadline - 1);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nprobes, 1);
	TAP_CHECK_UINT(probe_reqs_to(&x, 2), 1);
	TAP_CHECK_UINT(x.core.probe.held_at, deadline);
	TAP_CHECK_UINT(timer(&x), close);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, close, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_MEMBER);
	TAP_CHECK_INT(x.rec.nprobes, 1 + 6);
	TAP_CHECK(x.core.probe.paced);
	TAP_CHECK_UINT(x.core.det.stall_waits, 1);
	/* Asked this time, and nobody answered: it cannot hear. */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, close + 2 * D, &x.out),
		      FTNL_RING_RESIGNED);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_UNHEARD);
}

/*
 * A stall that begins after the drops and ends past the hold: the timer
 * set for the hold's end runs 2h late, the emitter's heartbeats of the
 * stall still unread. The hold did not use up the stall's wait: judged h
 * later, by when the heartbeat is read.
 */
static void test_host_rx_lost_then_stall(const void *arg)
{
	u64 hold_end = 100 + 2 * D - 2, ran = hold_end + 2 * H;
	struct node x;

	(void)arg;
	node_heard_at_100(&x);
	ftnl_ring_core_rx_lost(&x.core, 100 + D - 2);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 100 + D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), hold_end);
	/* The stall: its heartbeat timer reports it as the CPU runs again. */
	ftnl_ring_core_self_late(&x.core, 3 * H, ran);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, ran, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), ran + H);
	TAP_CHECK(heartbeat(&x, 1, ran + 1));
	TAP_CHECK_INT(x.rec.nfailed, 0);
}

/*
 * A verification that input drops interrupted proves nothing: the
 * suspect's answers may have been among the drops. Node 3 verifies its
 * silent emitter from the deadline on; its host drops input 2 after it;
 * a helper's answer arrives 3 after it. Judged d after the drops (the
 * emitter's due), the verification starts again instead of accusing, and
 * an answer received after that accuses.
 */
static void test_probe_verify_after_drops(const void *arg)
{
	struct node x;
	u64 at = 1000 + 2 * D + 2;

	(void)arg;
	probing_node(&x, false);
	ftnl_ring_core_expire(&x.core, 1000 + (D - LEAD), &x.out);
	probe_ack(&x, 5, 2, false, 1, 1030);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(x.core.probe.verify_from, 1000 + D);
	ftnl_ring_core_rx_lost(&x.core, 1000 + D + 2);
	probe_ack(&x, 5, 2, false, 1, 1000 + D + 3);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, at, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_UINT(x.core.probe.verify_from, at);
	probe_ack(&x, 5, 2, false, x.core.probe.id, at + 1);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, timer(&x), &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
}

/* The helpers in @mask answer @x's requests just sent, at @at. */
static void answer_requests(struct node *x, u32 mask, u64 at)
{
	u32 k;

	for (k = 0; k < x->rec.nprobes && k < 64; k++)
		if (x->rec.probe_type[k] == FTNL_MSG_PROBE_REQ &&
		    mask >> x->rec.probe_to[k] & 1)
			probe_ack(x, x->rec.probe_to[k], x->rec.probe[k].target,
				  false, x->rec.probe[k].id, at);
}

/*
 * Node 3 of 8 with the quorum rule, started at 1000 and booting: its
 * emitter 2 never heard, the boot grace shortened to 10d. Its probe
 * starts the lead before the deadline and grows to every live member at it;
 * the helpers in @mask answer every request at once. Return: the close
 * of its last round, 2d after the deadline.
 */
static u64 booting_rounds(struct node *x, u32 mask)
{
	u64 start = 1000 + D + 10 * D - LEAD, at;
	u32 i;

	node_init(x, 8, 3);
	ftnl_ring_core_set_rules(&x->core, true, true);
	x->core.det.boot_grace_ns = 10 * D;
	ftnl_ring_core_start(&x->core, 1000, &x->out);
	TAP_CHECK(x->core.det.booting);
	TAP_CHECK_UINT(timer(x), start);
	for (at = start, i = 0; at < start + LEAD + 2 * D && i < 100;
	     at = timer(x), i++) {
		x->rec.nprobes = 0;
		TAP_CHECK_INT(ftnl_ring_core_expire(&x->core, at, &x->out),
			      FTNL_RING_WAIT);
		answer_requests(x, mask, at + 1);
	}
	TAP_CHECK_UINT(x->core.probe.close, start + LEAD + 2 * D);
	clear(x);
	return start + LEAD + 2 * D;
}

/*
 * Run @x's timer, each time where it asks, the helpers in @mask answering
 * every request at once, until it accuses. Return: when it did (0 if it
 * did not within 100 expiries).
 */
static u64 run_answered(struct node *x, u32 mask)
{
	u32 i;

	for (i = 0; i < 100; i++) {
		u64 at = timer(x);
		enum ftnl_ring_expiry what;

		x->rec.nprobes = 0;
		what = ftnl_ring_core_expire(&x->core, at, &x->out);
		if (what == FTNL_RING_SUSPECT)
			return at;
		TAP_CHECK_INT(what, FTNL_RING_WAIT);
		answer_requests(x, mask, at + 1);
	}
	return 0;
}

/*
 * The cluster still forming (members configured one after another, those
 * not up yet answer nobody): a node waiting for its first emitter whose
 * last round closes with helpers heard but short of a majority waits for
 * the majority instead of resigning, asking the silent ones again once a
 * round, and accuses once a majority confirms (selftests/bcast_notify on
 * a loaded host: the first node resigned 30 s after it started with 10 of
 * 32 up, then its observer, and so on down the ring). Heard by nobody,
 * or once it heard its emitter, it resigns as before.
 */
static void test_probe_forming(const void *arg)
{
	struct node x;
	u64 close, at;
	u32 i;

	(void)arg;
	/* Helpers 4 and 5 are up: 3 of 8. */
	close = booting_rounds(&x, 1 << 4 | 1 << 5);
	TAP_CHECK_UINT(x.core.det.forming_waits, 0);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, close, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.resigned, 0);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK(x.core.running);
	/* Counted once per round kept open, apart from the stall waits. */
	TAP_CHECK_UINT(x.core.det.forming_waits, 1);
	TAP_CHECK_UINT(x.core.det.stall_waits, 0);
	/* The suspect and the four silent helpers, asked again once. */
	TAP_CHECK_INT(x.rec.nprobes, 5);
	TAP_CHECK_INT(x.rec.probe_to[0], 2);
	for (i = 1; i < 5; i++)
		TAP_CHECK_INT(x.rec.probe_to[i], i < 3 ? i - 1 : i + 3);
	/* Not every d/4 meanwhile: at the next close, and again. */
	TAP_CHECK_UINT(timer(&x), close + 2 * D);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, close + 2 * D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nprobes, 5);
	TAP_CHECK_UINT(x.core.det.forming_waits, 2);
	close += 2 * D;
	/*
	 * Helpers 6 and 7 come up and answer: 5 of 8, the cluster formed.
	 * The emitter may have come up with them (its answers held until
	 * its life is proven): it gets a new emitter's 2d, then is judged
	 * as in a formed cluster - silent still, it is accused.
	 */
	probe_ack(&x, 6, 2, false, x.core.probe.id, close + 10);
	probe_ack(&x, 7, 2, false, x.core.probe.id, close + 10);
	at = timer(&x);
	TAP_CHECK_UINT(at, close + 20);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, at, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK(!x.core.det.booting);
	TAP_CHECK(!x.core.probe.active);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_UINT(timer(&x), at + 2 * D - LEAD);
	/*
	 * At the deadline, on the answers to its verification (1 later),
	 * twice their round trip after it.
	 */
	TAP_CHECK_UINT(run_answered(&x, 1 << 4 | 1 << 5 | 1 << 6 | 1 << 7),
		       at + 2 * D + 2);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 2);
	TAP_CHECK_INT(x.rec.resigned, 0);
	TAP_CHECK_UINT(x.core.det.forming_waits, 2);

	/* Its emitter comes up while it waits: heard, no accusation. */
	close = booting_rounds(&x, 1 << 4 | 1 << 5);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, close, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK(heartbeat(&x, 2, close + 10));
	TAP_CHECK(!x.core.det.booting);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, timer(&x), &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.resigned, 0);
	TAP_CHECK_INT(x.rec.nfailed, 0);

	/* No helper answered: deaf or alone, it resigns as before. */
	close = booting_rounds(&x, 0);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, close, &x.out),
		      FTNL_RING_RESIGNED);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_UNHEARD);
	TAP_CHECK_UINT(x.core.det.forming_waits, 0);
}

/*
 * The helpers' cap (max(k, n/2) = 4 of 8) counts helpers that can still
 * answer: the first round's three, put in D while the round ran (a storm's
 * accusations), leave the next round room for three live members, not
 * one (ring-dst storm, seed 4894: a live observer resigned as unheard with
 * a live member never asked).
 */
static void test_probe_cap_live(const void *arg)
{
	u64 now = 1000 + (D - LEAD), close = 1000 + (D - LEAD) + 2 * D;
	bool to[8] = { false };
	u32 i, helpers = 0;
	struct node x;

	(void)arg;

	probing_node(&x, false);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, now, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nprobes, 1 + FTNL_RING_PROBE_HELPERS);
	for (i = 4; i <= 6; i++)
		ftnl_ring_core_death_heard(&x.core, i, FTNL_NODE_STATE_DEAD, 0,
					   7, now + i, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 3);
	for (i = 0; i < 100 && now < close; i++) {
		now = timer(&x);
		clear(&x);
		TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, now, &x.out),
			      FTNL_RING_WAIT);
	}
	TAP_CHECK_UINT(now, close);
	for (i = 0; i < x.rec.nprobes && i < 64; i++)
		if (x.rec.probe_to[i] != 2)
			to[x.rec.probe_to[i]] = true;
	for (i = 0; i < 8; i++)
		helpers += to[i];
	TAP_CHECK_INT(helpers, 3);
	TAP_CHECK(to[7] && to[0] && to[1]);
}

/*
 * No helper to ask (two nodes): the suspect is asked every quarter of the
 * probe lead from the lead before the deadline until it, so one lost
 * request or answer does not
 * accuse it (ring-dst lossy 1 9271: the single request's answer lost, a
 * live emitter accused). An answer to the third request refutes; a
 * silent suspect is asked four times, then accused at the deadline.
 */
static void test_probe_alone_retries(const void *arg)
{
	u64 start = 1000 + (D - LEAD), deadline = 1000 + D, at;
	u32 i;
	struct node x;

	(void)arg;
	node_init(&x, 2, 1);
	ftnl_ring_core_set_rules(&x.core, false, true);
	ftnl_ring_core_start(&x.core, 1000, &x.out);
	TAP_CHECK(heartbeat(&x, 0, 1000));
	timer(&x);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, start, &x.out),
		      FTNL_RING_WAIT);
	for (i = 1; i <= 2; i++) {
		at = timer(&x);
		TAP_CHECK_UINT(at, start + i * (LEAD / 4));
		TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, at, &x.out),
			      FTNL_RING_WAIT);
	}
	TAP_CHECK_INT(x.rec.nprobes, 3);
	for (i = 0; i < x.rec.nprobes && i < 3; i++) {
		TAP_CHECK_INT(x.rec.probe_to[i], 0);
		TAP_CHECK_INT(x.rec.probe[i].id, x.rec.probe[0].id);
	}
	ftnl_ring_core_probe_rx(&x.core, 0, FTNL_MSG_PROBE_ACK,
				&(struct ftnl_ring_probe){ 0, 1, true,
							   x.rec.probe[0].id },
				start + 2 * (LEAD / 4) + 2, &x.out);
	/* Answered: nobody is asked again; the deadline refutes. */
	at = timer(&x);
	TAP_CHECK_UINT(at, start + 3 * (LEAD / 4));
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, at, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nprobes, 3);
	TAP_CHECK_UINT(timer(&x), deadline);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_UINT(x.core.refuted, 1);

	/* Silent: asked until the deadline, accused at the deadline, as Algorithm 1. */
	clear(&x);
	start = deadline + (D - LEAD);
	deadline += D;
	for (at = timer(&x), i = 0; at && at < deadline && i < 10;
	     at = timer(&x), i++)
		TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, at, &x.out),
			      FTNL_RING_WAIT);
	/* From the lead before, every quarter of it: four. */
	TAP_CHECK_INT(x.rec.nprobes, 4);
	TAP_CHECK_UINT(at, deadline);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 0);
}

/*
 * The same with an adaptive timeout whose estimate is far below d_max:
 * the probe starts half the estimate less h before the deadline, and the
 * suspect is asked every quarter of that lead, four times, not every
 * quarter of d_max's (which asked once: a single lost answer made the
 * accusation).
 */
static void test_probe_alone_retries_adaptive(const void *arg)
{
	u64 last, deadline, lead, at;
	struct node x;
	u32 i;

	(void)arg;
	node_init_hd(&x, 2, 1, 10 * MS, 50 * MS);
	ftnl_ring_core_set_rules(&x.core, false, true);
	ftnl_ring_det_set_adaptive(&x.core.det, 11 * MS, 50 * MS, 3);
	ftnl_ring_core_start(&x.core, 0, &x.out);
	for (i = 0; i <= FTNL_ADAPT_WINDOW; i++)
		TAP_CHECK(heartbeat(&x, 0, (u64)(i + 1) * 10 * MS));
	last = (u64)(FTNL_ADAPT_WINDOW + 1) * 10 * MS;
	deadline = x.core.det.susp_deadline;
	lead = FTNL_RING_PROBE_LEAD(deadline - last, 10 * MS);
	/* The estimate's lead is well under d_max's: the case at hand. */
	TAP_CHECK(lead > 0 && 4 * lead < FTNL_RING_PROBE_LEAD(50 * MS, 10 * MS));
	clear(&x);
	/* Timers armed before the last heartbeat find nothing to do. */
	for (at = timer(&x), i = 0; at < deadline - lead && i < 100;
	     at = timer(&x), i++)
		ftnl_ring_core_expire(&x.core, at, &x.out);
	TAP_CHECK_INT(x.rec.nprobes, 0);
	for (i = 0; at && at < deadline && i < 10; at = timer(&x), i++) {
		TAP_CHECK_UINT(at, deadline - lead + i * (lead / 4));
		TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, at, &x.out),
			      FTNL_RING_WAIT);
	}
	TAP_CHECK_INT(x.rec.nprobes, 4);
	for (i = 0; i < x.rec.nprobes && i < 4; i++)
		TAP_CHECK_INT(x.rec.probe_to[i], 0);
	TAP_CHECK_UINT(at, deadline);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, deadline, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
}

/*
 * Two nodes under rejoin manual: the other's new life is kept out (its
 * previous one published dead). Kept out, it hears nothing, accuses this
 * node and tells it EXPELLED: a life never admitted here is no member,
 * its word is ignored, although this node holds "most" of the others
 * dead (ring-dst rejoin 1 671 expelled the live node). The life that
 * died here, or a renamed name of it, is still obeyed there (this node
 * may be the one cut off).
 */
static void test_expelled_by_kept_out_life(const void *arg)
{
	const struct ftnl_ring_peer *peer;
	struct node x;
	u64 inc;

	(void)arg;
	node_start_rejoin(&x, 2, 1, false, 3, 60 * D);
	inc = x.core.incarnation;
	TAP_CHECK_INT(admit(&x, 0, 10, 5), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK(heartbeat(&x, 0, 5));
	TAP_CHECK_INT(admit(&x, 0, 20, 50), FTNL_RING_DEAD_SENDER);
	peer = &x.core.peers[0];
	TAP_CHECK(ftnl_bit_test(x.dead, 0));
	TAP_CHECK_UINT(peer->dead_incarnation, 10);
	clear(&x);
	TAP_CHECK(!ftnl_ring_core_expelled_rx(&x.core, 0, 20, 20, inc,
					      &x.out));
	TAP_CHECK(!ftnl_ring_core_expelled_rx(&x.core, 0, 20, 0, inc,
					      &x.out));
	TAP_CHECK_INT(x.rec.nexpelled, 0);
	TAP_CHECK(x.core.running);
	/* The dead life renamed (the same first): obeyed. */
	TAP_CHECK(ftnl_ring_core_expelled_rx(&x.core, 0, 30, 10, inc, &x.out));
	TAP_CHECK_INT(x.rec.nexpelled, 1);
	/* The dead life itself: obeyed. */
	node_start_rejoin(&x, 2, 1, false, 3, 60 * D);
	inc = x.core.incarnation;
	TAP_CHECK_INT(admit(&x, 0, 10, 5), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(admit(&x, 0, 20, 50), FTNL_RING_DEAD_SENDER);
	TAP_CHECK(ftnl_ring_core_expelled_rx(&x.core, 0, 10, 10, inc, &x.out));
	TAP_CHECK(x.core.expelled);
	TAP_CHECK_INT(x.core.expelled_by, 0);
}

static void test_refutation_is_heartbeat(const void *arg)
{
	struct node x;
	u64 count, last, at;
	u32 i;

	(void)arg;
	/* The refutation after a retry (which used the stall guard). */
	probing_node(&x, false);
	refute_after_retry(&x);
	check_next_window(&x, 1000 + D + D / 4);

	/* A heartbeat at the same moment instead: the same. */
	probing_node(&x, false);
	ftnl_ring_core_expire(&x.core, 1000 + (D - LEAD), &x.out);
	ftnl_ring_core_expire(&x.core, 1000 + D, &x.out);
	TAP_CHECK(heartbeat(&x, 2, 1000 + D + D / 4));
	check_next_window(&x, 1000 + D + D / 4);

	/*
	 * Adaptive, in real units (the estimator counts 1024 ns ticks): h =
	 * 10 ms, d_max = 50 ms; a full window of h gaps puts the estimate
	 * below d_max.
	 */
	node_init_hd(&x, 8, 3, 10 * MS, 50 * MS);
	ftnl_ring_core_set_rules(&x.core, false, true);
	ftnl_ring_det_set_adaptive(&x.core.det, 15 * MS, 50 * MS, 3);
	ftnl_ring_core_start(&x.core, 0, &x.out);
	for (i = 0; i <= FTNL_ADAPT_WINDOW; i++)
		TAP_CHECK(heartbeat(&x, 2, (u64)(i + 1) * 10 * MS));
	last = (u64)(FTNL_ADAPT_WINDOW + 1) * 10 * MS;
	TAP_CHECK(x.core.det.adapt.timeout_ns < 50 * MS);
	TAP_CHECK_UINT(x.core.det.susp_deadline,
		       last + x.core.det.adapt.timeout_ns);
	count = x.core.det.adapt.count;
	while (!x.core.probe.active)
		ftnl_ring_core_expire(&x.core, timer(&x), &x.out);
	at = x.core.det.susp_deadline;
	ftnl_ring_core_probe_rx(&x.core, 2, FTNL_MSG_PROBE_ACK,
				&(struct ftnl_ring_probe){ 2, 3, true,
							   x.core.probe.id },
				at - 1, &x.out);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, at, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(x.core.refuted, 1);
	/* d_max from the refutation; the estimator untouched. */
	TAP_CHECK_UINT(x.core.det.susp_deadline, at + 50 * MS);
	TAP_CHECK_UINT(x.core.det.adapt.count, count);
	TAP_CHECK_UINT(x.core.det.adapt.last_ns, last);
	TAP_CHECK_UINT(x.core.det.last_hb, last);
	/* The next heartbeat's gap covers the ones lost: estimate widened. */
	TAP_CHECK(heartbeat(&x, 2, at + 10 * MS));
	TAP_CHECK(x.core.det.adapt.timeout_ns >= at + 10 * MS - last);
}

static void test_probe_helper(const void *arg)
{
	struct node x;
	u32 k;

	(void)arg;
	probing_node(&x, false);
	/* The suspect itself: alive, to whoever asked. */
	ftnl_ring_core_probe_rx(&x.core, 6, FTNL_MSG_PROBE_REQ,
				&(struct ftnl_ring_probe){ 3, 1, false, 7 }, 1010,
				&x.out);
	TAP_CHECK_INT(x.rec.nprobes, 1);
	TAP_CHECK_INT(x.rec.probe_to[0], 6);
	TAP_CHECK_INT(x.rec.probe_type[0], FTNL_MSG_PROBE_ACK);
	TAP_CHECK(x.rec.probe[0].alive);
	TAP_CHECK_INT(x.rec.probe[0].origin, 1);
	clear(&x);
	/* A helper: answers the origin, forwards to the suspect. */
	ftnl_ring_core_probe_rx(&x.core, 1, FTNL_MSG_PROBE_REQ,
				&(struct ftnl_ring_probe){ 0, 1, false, 7 }, 1010,
				&x.out);
	TAP_CHECK_INT(x.rec.nprobes, 2);
	TAP_CHECK_INT(x.rec.probe_to[0], 1);
	TAP_CHECK_INT(x.rec.probe_type[0], FTNL_MSG_PROBE_ACK);
	TAP_CHECK(!x.rec.probe[0].alive);
	TAP_CHECK_INT(x.rec.probe_to[1], 0);
	TAP_CHECK_INT(x.rec.probe_type[1], FTNL_MSG_PROBE_REQ);
	clear(&x);
	/* The suspect's answer is relayed to the origin; nothing else is. */
	ftnl_ring_core_probe_rx(&x.core, 0, FTNL_MSG_PROBE_ACK,
				&(struct ftnl_ring_probe){ 0, 1, true, 7 }, 1011,
				&x.out);
	ftnl_ring_core_probe_rx(&x.core, 5, FTNL_MSG_PROBE_ACK,
				&(struct ftnl_ring_probe){ 0, 1, true, 7 }, 1011,
				&x.out);
	ftnl_ring_core_probe_rx(&x.core, 5, FTNL_MSG_PROBE_REQ,
				&(struct ftnl_ring_probe){ 0, 1, false, 7 }, 1011,
				&x.out);
	TAP_CHECK_INT(x.rec.nprobes, 1);
	TAP_CHECK_INT(x.rec.probe_to[0], 1);
	TAP_CHECK(x.rec.probe[0].alive);
	/* Bounded work: the budget, refilled every period. */
	for (k = 0; k < 2 * FTNL_RING_PROBE_BUDGET; k++)
		ftnl_ring_core_probe_rx(&x.core, 1, FTNL_MSG_PROBE_REQ,
					&(struct ftnl_ring_probe){ 0, 1, false, 7 },
					1012, &x.out);
	/* 3 spent above: the suspect's answer, a helper's, a relay. */
	TAP_CHECK_UINT(x.core.throttled, FTNL_RING_PROBE_BUDGET + 3);
	ftnl_ring_core_tick(&x.core, 10000, &x.out);
	clear(&x);
	ftnl_ring_core_probe_rx(&x.core, 1, FTNL_MSG_PROBE_REQ,
				&(struct ftnl_ring_probe){ 0, 1, false, 7 }, 1020,
				&x.out);
	TAP_CHECK_INT(x.rec.nprobes, 2);
}

/*
 * Node @self of @n with the quorum rule and probes, running, its emitter
 * heard at 1000 (deadline 1000 + D), its probe started at 1000 + D/2:
 * returns the probe's identifier.
 */
static u32 confirming_node(struct node *x, u32 n, u32 self)
{
	node_init(x, n, self);
	ftnl_ring_core_set_rules(&x->core, true, true);
	ftnl_ring_core_start(&x->core, 1000, &x->out);
	TAP_CHECK(heartbeat(x, x->core.det.emitter, 1000));
	timer(x);
	clear(x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x->core, 1000 + (D - LEAD), &x->out),
		      FTNL_RING_WAIT);
	TAP_CHECK(x->rec.nprobes > 0);
	return x->rec.probe[0].id;
}

/*
 * A confirming_node() whose round closes short of a majority: it grows
 * its round at the deadline, resigns for @why when the round closes - 2d
 * after the deadline, or 2d after the first round when that asked every
 * live member already - and accuses nobody.
 */
static void check_resigns(struct node *x, u8 why)
{
	u64 close = x->core.det.n > 5 ? 1000 + 3 * D : 1000 + (D - LEAD) + 2 * D;

	TAP_CHECK_INT(ftnl_ring_core_expire(&x->core, 1000 + D, &x->out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(x->core.probe.close, close);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x->core, close, &x->out),
		      FTNL_RING_RESIGNED);
	TAP_CHECK_INT(x->rec.resigned, why);
	TAP_CHECK_INT(x->rec.nfailed, 0);
}

/*
 * The confirmation rule: with the quorum rule, an observed death is
 * published only once a strict majority of the members (the observer,
 * helpers that answered this very probe and are alive) confirmed it; an
 * observer that the last round leaves short of it resigns, accusing
 * nobody.
 */
static void test_confirm_split(const void *arg)
{
	static const u32 grown[] = { 2, 4, 5, 6, 7, 0, 1 };
	struct node x;
	u32 id, i;
	u64 at;

	(void)arg;
	/*
	 * 3 | 5 split of 8, node 3 on the minority side {3, 4, 5}, its
	 * emitter 2 on the majority side. The first round, the lead before
	 * the deadline, asks the suspect itself and k helpers from its
	 * observer's side on: a heartbeat merely late costs no more.
	 */
	id = confirming_node(&x, 8, 3);
	TAP_CHECK(id != 0);
	TAP_CHECK_INT(x.rec.nprobes, 1 + FTNL_RING_PROBE_HELPERS);
	for (i = 0; i < 4; i++) {
		TAP_CHECK_INT(x.rec.probe_to[i], i ? 3 + i : 2);
		TAP_CHECK_INT(x.rec.probe_type[i], FTNL_MSG_PROBE_REQ);
		TAP_CHECK_INT(x.rec.probe[i].target, 2);
		TAP_CHECK_INT(x.rec.probe[i].id, id);
	}
	probe_ack(&x, 4, 2, false, id, 1030);
	probe_ack(&x, 5, 2, false, id, 1031);
	/*
	 * At the deadline the silence is established: the suspect and the
	 * first round are asked again (the verification), and the round
	 * grows to the majority less itself plus k - every other live
	 * member here - under the same identifier.
	 */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_UINT(x.core.probe.verify_from, 1000 + D);
	TAP_CHECK_INT(x.rec.nprobes, 4 + 7);
	for (i = 0; i < 7; i++) {
		TAP_CHECK_INT(x.rec.probe_to[4 + i], grown[i]);
		TAP_CHECK_INT(x.rec.probe[4 + i].id, id);
	}
	TAP_CHECK_UINT(timer(&x), 1000 + D + D / 4);
	/* Not again before d/4. */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + 1, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nprobes, 4 + 7);
	TAP_CHECK_UINT(timer(&x), 1000 + D + D / 4);
	/*
	 * Its side answers again: 3 of 8 is no majority. Every d/4 the
	 * suspect and the silent ones are asked again (a datagram may have
	 * been lost); the round's close does not move.
	 */
	probe_ack(&x, 4, 2, false, id, 1000 + D + 2);
	probe_ack(&x, 5, 2, false, id, 1000 + D + 2);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + D / 4, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nprobes, 5);	/* 2, 6, 7, 0, 1 */
	TAP_CHECK_INT(x.rec.probe_to[0], 2);
	TAP_CHECK_INT(x.rec.probe_to[1], 0);
	TAP_CHECK_UINT(x.core.probe.close, 1000 + D + 2 * D);
	/* The round closes, nobody is left to ask: it resigns, no death. */
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + 2 * D, &x.out),
		      FTNL_RING_RESIGNED);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_UNCONFIRMED);
	TAP_CHECK_INT(x.core.expel_reason, FTNL_EXPEL_QUORUM);
	TAP_CHECK_INT(x.rec.nexpelled, 1);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.rec.nprobes, 0);
	TAP_CHECK(!ftnl_bit_test(x.core.dead, 2));
	TAP_CHECK(!x.core.running);

	/*
	 * The same split seen from the majority: node 3 on {3, 4, 5, 6, 7},
	 * its emitter 2 on the minority side. Answers are bound to the
	 * probe and to a helper asked: a stale identifier, none, a repeat,
	 * a stranger's, one about another target count for nothing.
	 */
	id = confirming_node(&x, 8, 3);
	probe_ack(&x, 4, 2, false, id, 1030);
	probe_ack(&x, 5, 2, false, id, 1030);
	probe_ack(&x, 6, 2, false, id, 1030);
	probe_ack(&x, 6, 2, false, id + 1, 1031);
	probe_ack(&x, 6, 2, false, 0, 1031);
	probe_ack(&x, 6, 2, false, id, 1031);
	probe_ack(&x, 7, 2, false, id, 1031);
	probe_ack(&x, 4, 1, false, id, 1031);
	TAP_CHECK_UINT(x.core.probe.confirmed, 3);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	/*
	 * Only answers received after the silence count: the first
	 * round's again and 7's make 5 of 8. The suspect's answer, relayed,
	 * would take twice their round trip: accused then.
	 */
	for (i = 4; i < 7; i++)
		probe_ack(&x, i, 2, false, id, 1000 + D + 2);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + 2, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	probe_ack(&x, 7, 2, false, id, 1000 + D + 3);
	TAP_CHECK_UINT(timer(&x), 1000 + D + 6);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + 6, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 2);
	TAP_CHECK(x.rec.originate[0]);
	TAP_CHECK(x.core.running);

	/*
	 * The first round's answers lost: the majority's answers to the
	 * grown round must leave the suspect's relayed answer its time,
	 * twice their round trip from the deadline.
	 */
	confirming_node(&x, 8, 3);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D, &x.out),
		      FTNL_RING_WAIT);
	for (i = 4; i < 8; i++)
		probe_ack(&x, i, 2, false, x.core.probe.id, 1000 + D + 10);
	TAP_CHECK_UINT(timer(&x), 1000 + D + D / 4);	/* the retry first */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + D / 4, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), 1000 + D + 20);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + 20, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);

	/*
	 * A second death while the first is confirmed: helper 7 is learned
	 * dead after it made the majority; its word no longer counts, and
	 * the accusation waits until a live helper makes it again.
	 */
	id = confirming_node(&x, 8, 3);
	for (i = 4; i < 7; i++)
		probe_ack(&x, i, 2, false, id, 1030);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D, &x.out),
		      FTNL_RING_WAIT);
	for (i = 4; i < 8; i++)
		probe_ack(&x, i, 2, false, id, 1000 + D + 2);
	ftnl_ring_core_death_heard(&x.core, 7, FTNL_NODE_STATE_DEAD, 0, 6,
				   1000 + D + 2, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + 2, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	probe_ack(&x, 0, 2, false, id, 1000 + D + 5);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + 5, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 2);
	TAP_CHECK_INT(x.rec.failed[1], 2);
	/* The next emitter, 1, under a new probe: 0's old answer is void. */
	clear(&x);
	at = timer(&x);
	TAP_CHECK_UINT(at, 1000 + D + 5 + 2 * D - LEAD);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, at, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nprobes, 4);	/* 1 itself, 4, 5, 6 */
	TAP_CHECK(x.rec.probe[0].id != id);
	TAP_CHECK_INT(x.rec.probe[0].target, 1);
	for (i = 4; i < 7; i++)
		probe_ack(&x, i, 1, false, x.rec.probe[0].id, at + 2);
	probe_ack(&x, 0, 1, false, id, at + 2);
	/* At the deadline 0 is asked too; old answers count for nothing. */
	TAP_CHECK_INT(confirm_again(&x, at + (D - LEAD), 1 << 4 | 1 << 5 | 1 << 6),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	probe_ack(&x, 0, 1, false, x.rec.probe[0].id, at + (D - LEAD) + 3);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, at + (D - LEAD) + 6, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 1);
}

/* The rule on 3 and 4 nodes, with leaves, and the deaf node. */
static void test_confirm_small(const void *arg)
{
	struct node x;
	u32 id;

	(void)arg;
	/* n = 3: the other live node is the majority's second voice. */
	id = confirming_node(&x, 3, 0);
	TAP_CHECK_INT(x.rec.nprobes, 2);
	TAP_CHECK_INT(x.rec.probe_to[0], 2);	/* the suspect itself */
	TAP_CHECK_INT(x.rec.probe_to[1], 1);
	probe_ack(&x, 1, 2, false, id, 1030);
	TAP_CHECK_INT(confirm_again(&x, 1000 + D, 1 << 1), FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	/* Then 1 of 3 alive besides itself: nobody can confirm. Resigns. */
	clear(&x);
	ftnl_ring_core_expire(&x.core, 1004 + D + 2 * D - LEAD, &x.out);
	TAP_CHECK_INT(x.rec.nprobes, 1);	/* the suspect only */
	TAP_CHECK_INT(x.rec.probe_to[0], 1);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1004 + 3 * D, &x.out),
		      FTNL_RING_RESIGNED);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_UNCONFIRMED);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	/* n = 3, cut from both others: no answer, it resigns as deaf. */
	confirming_node(&x, 3, 0);
	check_resigns(&x, FTNL_RING_UNHEARD);
	TAP_CHECK_INT(x.core.expel_reason, FTNL_EXPEL_DEAF);

	/* n = 4 split 2 | 2: one helper makes 2 of 4, no majority. */
	id = confirming_node(&x, 4, 0);
	TAP_CHECK_INT(x.rec.nprobes, 3);
	probe_ack(&x, 1, 3, false, id, 1030);
	TAP_CHECK_INT(confirm_again(&x, 1000 + D, 1 << 1), FTNL_RING_WAIT);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + (D - LEAD) + 2 * D,
					    &x.out), FTNL_RING_RESIGNED);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_UNCONFIRMED);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	/*
	 * n = 4, one answer lost: the verification at the deadline asks
	 * the suspect and both helpers again, and brings it.
	 */
	id = confirming_node(&x, 4, 0);
	probe_ack(&x, 1, 3, false, id, 1030);
	clear(&x);
	TAP_CHECK_INT(confirm_again(&x, 1000 + D, 1 << 1 | 1 << 2),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nprobes, 3);
	TAP_CHECK_INT(x.rec.probe_to[0], 3);	/* the suspect */
	TAP_CHECK_INT(x.rec.probe_to[1], 1);
	TAP_CHECK_INT(x.rec.probe_to[2], 2);	/* the silent helper */
	TAP_CHECK_INT(x.rec.nfailed, 1);
	/* n = 4, both others answer: 3 of 4. */
	id = confirming_node(&x, 4, 0);
	probe_ack(&x, 1, 3, false, id, 1030);
	probe_ack(&x, 2, 3, false, id, 1030);
	TAP_CHECK_INT(confirm_again(&x, 1000 + D, 1 << 1 | 1 << 2),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 3);

	/*
	 * Leaves are out of the count: 2 of 8 left, a majority of 6 is 4,
	 * and the round grows at the deadline to 6 / 2 + k (every live
	 * member here).
	 */
	node_init(&x, 8, 3);
	ftnl_ring_core_set_rules(&x.core, true, true);
	ftnl_ring_core_start(&x.core, 1000, &x.out);
	ftnl_ring_core_leave_rx(&x.core, 0, 1000, &x.out);
	ftnl_ring_core_leave_rx(&x.core, 1, 1000, &x.out);
	TAP_CHECK(heartbeat(&x, 2, 1000));
	timer(&x);
	clear(&x);
	ftnl_ring_core_expire(&x.core, 1000 + (D - LEAD), &x.out);
	TAP_CHECK_INT(x.rec.nprobes, 4);
	id = x.rec.probe[0].id;
	probe_ack(&x, 4, 2, false, id, 1030);
	probe_ack(&x, 5, 2, false, id, 1030);
	clear(&x);
	TAP_CHECK_INT(confirm_again(&x, 1000 + D, 1 << 4 | 1 << 5 | 1 << 6),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nprobes, 4 + 1);	/* 2, 4, 5, 6 again; 7 */
	TAP_CHECK_INT(x.rec.probe_to[4], 7);
	TAP_CHECK_INT(x.rec.nfailed, 1);

	/* The deaf node of 8: nobody answers, nobody accused. */
	confirming_node(&x, 8, 3);
	TAP_CHECK_INT(x.rec.nprobes, 4);
	check_resigns(&x, FTNL_RING_UNHEARD);
}

/*
 * A heartbeat merely late - the probe started the lead before the deadline,
 * the heartbeat came before it - costs the suspect and k helpers whatever
 * n, with the quorum rule too: the majority is asked only once the
 * silence lasted d (64 nodes in one emulated guest: a first round of the
 * majority made 2.7 million probe datagrams in 20 s, against 137,000
 * heartbeats; Documentation/bench.rst, "Quiet runs").
 */
static void test_probe_late_heartbeat(const void *arg)
{
	struct node x;
	int quorum;
	u64 at;
	u32 i;

	(void)arg;
	for (quorum = 0; quorum < 2; quorum++) {
		node_init(&x, 16, 3);
		ftnl_ring_core_set_rules(&x.core, quorum, true);
		ftnl_ring_core_start(&x.core, 1000, &x.out);
		TAP_CHECK(heartbeat(&x, 2, 1000));
		TAP_CHECK_UINT(timer(&x), 1000 + (D - LEAD));
		clear(&x);
		TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + (D - LEAD),
						    &x.out), FTNL_RING_WAIT);
		TAP_CHECK_INT(x.rec.nprobes, 1 + FTNL_RING_PROBE_HELPERS);
		TAP_CHECK_INT(x.rec.probe_to[0], 2);
		for (i = 4; i < 7; i++)
			probe_ack(&x, i, 2, false, x.core.probe.id,
				  1000 + (D - LEAD) + 1);
		TAP_CHECK(heartbeat(&x, 2, 1000 + D - 1));
		/* Nothing more until the next probe time, d - lead after it. */
		at = timer(&x);
		for (i = 0; i < 10 && at && at < 1000 + D - 1 + (D - LEAD); i++) {
			TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, at,
							    &x.out),
				      FTNL_RING_WAIT);
			at = timer(&x);
		}
		TAP_CHECK_UINT(at, 1000 + D - 1 + (D - LEAD));
		TAP_CHECK_INT(x.rec.nprobes, 1 + FTNL_RING_PROBE_HELPERS);
		TAP_CHECK_INT(x.rec.nfailed, 0);
		TAP_CHECK_INT(x.rec.resigned, 0);
	}
}

/*
 * Node 3 of 16 verifying since the deadline, short of a majority with 4
 * of the grown round silent: its first retry, at @at, asks the suspect 2
 * and those 4 again, and widens to 15, 0 and 1 for the first time, under
 * the probe's identifier @id.
 */
static void check_widened(struct node *x, u32 id, u64 at)
{
	clear(x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x->core, at, &x->out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x->rec.nprobes, 1 + 4 + 3);
	TAP_CHECK_INT(x->rec.probe_to[0], 2);
	TAP_CHECK_INT(x->rec.probe_to[5], 15);
	TAP_CHECK_INT(x->rec.probe_to[6], 0);
	TAP_CHECK_INT(x->rec.probe_to[7], 1);
	TAP_CHECK_INT(x->rec.probe[7].id, id);
}

/* Beyond 10 nodes: the round grows at the deadline, then to every member. */
static void test_confirm_rounds(const void *arg)
{
	struct node x;
	u32 id, i;

	(void)arg;
	/*
	 * 16: the suspect 2 itself and k helpers first (4, 5, 6); at the
	 * deadline the round grows to 8 + 3 (7..14 new); short of a
	 * majority at the verification's first retry, it asks every other
	 * live member: 15, 0 and 1 (2 never as a helper).
	 */
	id = confirming_node(&x, 16, 3);
	TAP_CHECK_INT(x.rec.nprobes, 4);
	for (i = 4; i < 7; i++)
		probe_ack(&x, i, 2, false, id, 1030);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nprobes, 4 + 8);
	for (i = 4; i < 12; i++) {
		TAP_CHECK_INT(x.rec.probe_to[i], 3 + i);
		TAP_CHECK_INT(x.rec.probe[i].id, id);
	}
	for (i = 4; i < 11; i++)
		probe_ack(&x, i, 2, false, id, 1000 + D + 2);
	/* the suspect, the silent 11..14, then 15, 0, 1 */
	check_widened(&x, id, 1000 + D + D / 4);
	/* 1 + 7 = 8 of 16 is no majority; the 9th voice is. */
	TAP_CHECK_INT(x.rec.nfailed, 0);
	probe_ack(&x, 15, 2, false, id, 1000 + D + D / 4 + 5);
	TAP_CHECK_UINT(timer(&x), 1000 + D + D / 4 + 10);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + D / 4 + 10,
					    &x.out), FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);

	/*
	 * Each suspicion asks half the cluster: a helper serves n/2 more
	 * requests per period (16 + 8 here), then refuses.
	 */
	confirming_node(&x, 16, 3);
	clear(&x);
	for (i = 0; i < 2 * (FTNL_RING_PROBE_BUDGET + 8); i++) {
		const struct ftnl_ring_probe req = {
			.target = 5, .origin = 1 + i % 2, .id = 9,
		};

		ftnl_ring_core_probe_rx(&x.core, req.origin, FTNL_MSG_PROBE_REQ,
					&req, 1030, &x.out);
	}
	TAP_CHECK_INT(x.rec.nprobes, 2 * (FTNL_RING_PROBE_BUDGET + 8));
	TAP_CHECK_UINT(x.core.throttled, FTNL_RING_PROBE_BUDGET + 8);
}

/*
 * Helpers that failed after they answered (selftests/bcast_forwarders,
 * bmg): 16 nodes, the first round's helpers 4, 5, 6 answer, the round
 * grows at the deadline to 4..14, and 4..7 have failed by then. Fresh
 * answers of 8..14 and this node are 8 of 16, no majority. At the first
 * retry, d/4 later, it asks every other live member (15, 0, 1) at once,
 * not when the round closes 2d later; their answers make it.
 */
static void test_confirm_helpers_failed(const void *arg)
{
	struct node x;
	u32 id, i;

	(void)arg;
	id = confirming_node(&x, 16, 3);
	TAP_CHECK_INT(x.rec.nprobes, 4);	/* 2 itself, 4..6 */
	for (i = 4; i < 7; i++)
		probe_ack(&x, i, 2, false, id, 1030);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(x.core.probe.verify_from, 1000 + D);
	/* the suspect and the first round again, then 7..14 */
	TAP_CHECK_INT(x.rec.nprobes, 12);
	for (i = 1; i < x.rec.nprobes; i++)
		TAP_CHECK_INT(x.rec.probe_to[i], 3 + i);
	/* 4..7 failed: 8..14 answer, 8 of 16. */
	for (i = 8; i < 15; i++)
		probe_ack(&x, i, 2, false, id, 1000 + D + 2);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + 2, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_UINT(timer(&x), 1000 + D + D / 4);
	/* The first retry: 2 and 4..7 again, and 15, 0, 1 for the first time. */
	check_widened(&x, id, 1000 + D + D / 4);
	/* 15 and 0 answer: 10 of 16, fresh. */
	probe_ack(&x, 15, 2, false, id, 1000 + D + D / 4 + 3);
	probe_ack(&x, 0, 2, false, id, 1000 + D + D / 4 + 3);
	TAP_CHECK_UINT(timer(&x), 1000 + D + D / 4 + 6);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + D / 4 + 6,
					    &x.out), FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 2);
}

static void test_quorum(const void *arg)
{
	struct node x;

	(void)arg;
	probing_node(&x, true);
	/* 8 nodes: 3 dead leave 5 > 4; the 4th would leave 4 of 8. */
	ftnl_ring_core_death_heard(&x.core, 5, FTNL_NODE_STATE_DEAD, 0, 6,
				   1010, &x.out);
	ftnl_ring_core_death_heard(&x.core, 6, FTNL_NODE_STATE_DEAD, 0, 7,
				   1010, &x.out);
	ftnl_ring_core_death_heard(&x.core, 7, FTNL_NODE_STATE_DEAD, 0, 0,
				   1010, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 3);
	TAP_CHECK(ftnl_ring_core_has_quorum(&x.core, 0));
	TAP_CHECK(!ftnl_ring_core_has_quorum(&x.core, 1));
	ftnl_ring_core_death_heard(&x.core, 0, FTNL_NODE_STATE_DEAD, 0, 1,
				   1010, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 3);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_QUORUM_LOST);
	TAP_CHECK(!ftnl_bit_test(x.core.dead, 0));
	TAP_CHECK(!x.core.running);
	/* Leaves are out of the count: 2 left of 8, then 3 live of 6 is none. */
	probing_node(&x, true);
	ftnl_ring_core_leave_rx(&x.core, 4, 1010, &x.out);
	ftnl_ring_core_leave_rx(&x.core, 2, 1010, &x.out);
	ftnl_ring_core_death_heard(&x.core, 5, FTNL_NODE_STATE_DEAD, 0, 6,
				   1010, &x.out);
	ftnl_ring_core_death_heard(&x.core, 6, FTNL_NODE_STATE_DEAD, 0, 7,
				   1010, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 4);
	TAP_CHECK(!x.rec.resigned);
	ftnl_ring_core_death_heard(&x.core, 7, FTNL_NODE_STATE_DEAD, 0, 0,
				   1010, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 4);
	TAP_CHECK_INT(x.rec.resigned, FTNL_RING_QUORUM_LOST);
	/* Off: Algorithm 1 alone. */
	probing_node(&x, false);
	ftnl_ring_core_death_heard(&x.core, 5, FTNL_NODE_STATE_DEAD, 0, 6, 1, &x.out);
	ftnl_ring_core_death_heard(&x.core, 6, FTNL_NODE_STATE_DEAD, 0, 6, 1, &x.out);
	ftnl_ring_core_death_heard(&x.core, 7, FTNL_NODE_STATE_DEAD, 0, 6, 1, &x.out);
	ftnl_ring_core_death_heard(&x.core, 0, FTNL_NODE_STATE_DEAD, 0, 6, 1, &x.out);
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 0, 6, 1, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 5);
	TAP_CHECK(!x.rec.resigned);
}

/*
 * NEW_OBSERVER's rule over every D of n <= 10: the closest live successor
 * may observe this node; any node past a live one may not.
 */
/* Brute force: @from is not @self, and every node after @self, before
 * @from (going round the ring), is dead.
 */
static bool nothing_live_between(unsigned long dead, u32 n, u32 self, u32 from)
{
	if (from == self)
		return false;
	for (u32 p = (self + 1) % n; p != from; p = (p + 1) % n)
		if (!(dead >> p & 1))
			return false;
	return true;
}

static void test_can_observe(const void *arg)
{
	(void)arg;
	for (u32 n = 2; n <= 10; n++) {
		for (unsigned long dead = 0; dead < (1UL << n); dead++) {
			for (u32 self = 0; self < n; self++) {
				u32 first = ftnl_ring_find_observer(&dead, n, self);

				if (dead >> self & 1)
					continue;
				for (u32 from = 0; from < n; from++)
					TAP_CHECK(ftnl_ring_can_observe(&dead, n, self, from) ==
						  nothing_live_between(dead, n, self, from));
				if (first != self)
					TAP_CHECK(ftnl_ring_can_observe(&dead, n, self, first));
			}
		}
	}
}

/*
 * A replaced configuration's knowledge (ftnl_ring_core_inherit()): a dead
 * peer stays dead, in D, its incarnations kept; the ring starts around it.
 */
static void test_inherit(const void *arg)
{
	struct ftnl_ring_peer dead_peer = {
		.incarnation = 7, .dead_incarnation = 7, .observer = 3,
		.state = FTNL_NODE_STATE_DEAD, .cause = FTNL_CAUSE_OBSERVED,
	};
	struct ftnl_ring_peer live_peer = { .incarnation = 9 };
	struct node x;

	(void)arg;
	node_init(&x, 5, 2);
	ftnl_ring_core_inherit(&x.core, 1, &dead_peer, 3);
	ftnl_ring_core_inherit(&x.core, 3, &dead_peer, 4);
	ftnl_ring_core_inherit(&x.core, 4, &live_peer, 2);
	ftnl_ring_core_inherit(&x.core, 2, &dead_peer, 2);	/* self: ignored */
	TAP_CHECK(ftnl_bit_test(x.dead, 1));
	TAP_CHECK(ftnl_bit_test(x.dead, 3));
	TAP_CHECK(!ftnl_bit_test(x.dead, 2));
	TAP_CHECK_INT(x.peers[3].observer, 4);
	TAP_CHECK_UINT(x.core.ndead, 2);
	ftnl_ring_core_start(&x.core, 1000, &x.out);
	/* Emitter and observer skip the dead; NEW_OBSERVER to the emitter. */
	TAP_CHECK_INT(x.core.det.emitter, 0);
	TAP_CHECK_INT(x.core.det.observer, 4);
	TAP_CHECK_INT(x.rec.nsent, 1);
	TAP_CHECK_INT(x.rec.to[0], 0);
	/* Known dead: no new event when a broadcast repeats it. */
	ftnl_ring_core_death_heard(&x.core, 1, FTNL_NODE_STATE_DEAD, 7, 0, 1001,
				   &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	/* Its old incarnation stays dead; the live one's older stays stale. */
	TAP_CHECK_INT(admit(&x, 1, 7, 1002),
		      FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(admit(&x, 4, 8, 1002),
		      FTNL_RING_STALE);
	TAP_CHECK_INT(admit(&x, 4, 9, 1002),
		      FTNL_RING_ACCEPT);
	TAP_CHECK_INT(x.rec.nfailed, 0);
}

/*
 * First contact (ftnl_ring_core_admit()): node 0 (incarnation
 * 100) just started and knows nothing of node 2, which lived as 7, then
 * restarted as 9 and was readmitted by the others long ago. An old
 * datagram of life 7, replayed now, does not echo 100 (it was sent before
 * node 0 started): acted on, but it pins nothing, and it is answered with
 * one HELLO per h. Without the rule it pinned 7, and node 2's next real
 * datagram (9) was taken for a restart: a live node declared dead. A
 * datagram of life 9 echoing 100 was sent after node 2 heard node 0:
 * accepted, pinned.
 */
static void test_first_contact(const void *arg)
{
	struct node x;

	(void)arg;
	node_start(&x, 4, 0);
	clear(&x);
	TAP_CHECK_INT(ftnl_ring_core_admit(&x.core, 2, 7, 7, 0, 10, &x.out),
		      FTNL_RING_UNPINNED);
	TAP_CHECK_INT(x.rec.nsent, 1);
	TAP_CHECK_INT(x.rec.to[0], 2);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_HELLO);
	TAP_CHECK_UINT(x.peers[2].incarnation, 0);
	TAP_CHECK_UINT(x.peers[2].heard, 7);
	/* Another replay within h: not answered again. */
	TAP_CHECK_INT(ftnl_ring_core_admit(&x.core, 2, 7, 7, 55, 11, &x.out),
		      FTNL_RING_UNPINNED);
	TAP_CHECK_INT(x.rec.nsent, 1);
	/* The real node: unproven too at first (it had not heard node 0)... */
	TAP_CHECK_INT(ftnl_ring_core_admit(&x.core, 2, 9, 9, 0, 12 + H, &x.out),
		      FTNL_RING_UNPINNED);
	TAP_CHECK_INT(x.rec.nsent, 2);
	TAP_CHECK_INT(x.rec.type[1], FTNL_MSG_HELLO);
	TAP_CHECK_UINT(x.peers[2].heard, 9);
	TAP_CHECK_UINT(x.peers[2].incarnation, 0);
	/* ...and a replay of the old life cannot lower what is echoed. */
	ftnl_ring_core_admit(&x.core, 2, 7, 7, 0, 13 + H, &x.out);
	TAP_CHECK_UINT(x.peers[2].heard, 9);
	/* It echoes node 0's incarnation: proven, pinned. */
	TAP_CHECK_INT(admit(&x, 2, 9, 14 + H), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_UINT(x.peers[2].incarnation, 9);
	/* Now the old life is stale, and nobody was declared dead. */
	TAP_CHECK_INT(admit(&x, 2, 7, 15 + H), FTNL_RING_STALE);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_ALIVE);
	/* A HELLO of node 1: one HELLO_ACK per h, however many come. */
	clear(&x);
	ftnl_ring_core_hello_rx(&x.core, 1, 20 + H, &x.out);
	ftnl_ring_core_hello_rx(&x.core, 1, 21 + H, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 1);
	TAP_CHECK_INT(x.rec.to[0], 1);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_HELLO_ACK);
	ftnl_ring_core_hello_rx(&x.core, 1, 20 + 2 * H, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 2);
	/*
	 * Of node 3, its emitter: it may ask whether node 0 still observes
	 * it (FTNL_RING_CLAIM_HOLD), and a NEW_OBSERVER says so.
	 */
	clear(&x);
	ftnl_ring_core_hello_rx(&x.core, 3, 20 + H, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 2);
	TAP_CHECK_INT(x.rec.to[0], 3);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_HELLO_ACK);
	TAP_CHECK_INT(x.rec.to[1], 3);
	TAP_CHECK_INT(x.rec.type[1], FTNL_MSG_NEW_OBSERVER);
}

/*
 * A heartbeat not proven fresh is no news of its sender's life: node 0
 * just started and has not pinned node 3, its emitter. Heartbeats of
 * node 3 that do not echo node 0's incarnation - sent before node 3
 * heard it, or old ones replayed, of a life perhaps dead since - are
 * answered with a HELLO but move no deadline (before, each moved it to
 * now + d, and dropped the boot grace: replayed often enough, a dead
 * emitter looked alive for as long as the replays went on). The first
 * one that echoes node 0's incarnation pins node 3 and counts.
 */
static void test_unpinned_heartbeat(const void *arg)
{
	struct node x;
	u64 t;

	(void)arg;
	node_start(&x, 4, 0);
	TAP_CHECK_INT(x.core.det.emitter, 3);
	TAP_CHECK_UINT(timer(&x), D + GRACE);
	for (t = 10; t < 10 + 5 * D; t += H) {
		clear(&x);
		TAP_CHECK_INT(ftnl_ring_core_admit(&x.core, 3, 7, 7, 0, t, &x.out),
			      FTNL_RING_UNPINNED);
		TAP_CHECK(!ftnl_ring_core_heartbeat(&x.core, 3, t));
		TAP_CHECK_INT(x.rec.nsent, 1);
		TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_HELLO);
	}
	TAP_CHECK(!x.core.det.heard_emitter);
	TAP_CHECK_UINT(x.core.det.susp_deadline, D + GRACE);
	TAP_CHECK_UINT(timer(&x), 0);
	/* Its answer echoes 100: pinned, and its heartbeats count. */
	TAP_CHECK_INT(admit(&x, 3, 7, 10 + 5 * D), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK(ftnl_ring_core_heartbeat(&x.core, 3, 11 + 5 * D));
	TAP_CHECK(x.core.det.heard_emitter);
	TAP_CHECK_UINT(timer(&x), 11 + 6 * D);
}

/* Nodes that @x's view shows as its observers. */
static u32 observers(const struct node *x, u64 now)
{
	struct ftnl_node_view view;
	u32 pos, count = 0;

	for (pos = 0; pos < x->core.det.n; pos++) {
		ftnl_ring_core_view(&x->core, pos, now, &view);
		count += view.observer;
	}
	return count;
}

/* Heartbeats @x sent to @to since the last clear(). */
static u32 sent_to(const struct node *x, u32 to, u8 type)
{
	u32 k, count = 0;

	for (k = 0; k < x->rec.nsent && k < 64; k++)
		count += x->rec.to[k] == to && x->rec.type[k] == type;
	return count;
}

/*
 * Claims D does not allow (ftnl_ring_core_new_observer()). Node 2 of 6
 * knows no death. Nodes 4 and 5 claim to observe it, as they would when
 * 3, then 4 died and their broadcasts are late here: every claimant is
 * heartbeaten (before, only the closer one, 4 - dead in truth - and 5
 * declared node 2 dead after 2d). From half the hold on, each claimant
 * is asked with a HELLO each h; 5 answers with a NEW_OBSERVER and keeps
 * its claim; 4 does not, and its claim ends 4d after its last
 * NEW_OBSERVER: one observer again in the view and on the wire (before,
 * the extra heartbeat went on for good). The deaths of 3 and 4 then make
 * 5 the observer.
 */
static void test_claim_expiry(const void *arg)
{
	const u64 t0 = 1000, hold = 4 * D;
	struct node x;
	u64 t;

	(void)arg;
	node_start(&x, 6, 2);
	TAP_CHECK_UINT(FTNL_RING_CLAIM_HOLD(&x.core.det), hold);
	clear(&x);
	TAP_CHECK(!ftnl_ring_core_new_observer(&x.core, 4, t0, &x.out));
	TAP_CHECK(!ftnl_ring_core_new_observer(&x.core, 5, t0, &x.out));
	TAP_CHECK_INT(x.core.det.observer, 3);
	TAP_CHECK_INT(x.core.nclaims, 2);
	TAP_CHECK_INT(sent_to(&x, 4, FTNL_MSG_HEARTBEAT), 1);
	TAP_CHECK_INT(sent_to(&x, 5, FTNL_MSG_HEARTBEAT), 1);
	TAP_CHECK_INT(observers(&x, t0), 3);
	/* Each tick heartbeats the observer and both claimants; no HELLO yet. */
	for (t = t0 + H; t < t0 + hold / 2; t += H) {
		clear(&x);
		ftnl_ring_core_tick(&x.core, t, &x.out);
		TAP_CHECK_INT(sent_to(&x, 3, FTNL_MSG_HEARTBEAT), 1);
		TAP_CHECK_INT(sent_to(&x, 4, FTNL_MSG_HEARTBEAT), 1);
		TAP_CHECK_INT(sent_to(&x, 5, FTNL_MSG_HEARTBEAT), 1);
		TAP_CHECK_INT(sent_to(&x, 4, FTNL_MSG_HELLO) +
			      sent_to(&x, 5, FTNL_MSG_HELLO), 0);
	}
	/* Half the hold: both asked, each h; 5 renews, 4 stays silent. */
	for (; t < t0 + hold; t += H) {
		clear(&x);
		ftnl_ring_core_tick(&x.core, t, &x.out);
		TAP_CHECK_INT(sent_to(&x, 4, FTNL_MSG_HEARTBEAT), 1);
		TAP_CHECK_INT(sent_to(&x, 4, FTNL_MSG_HELLO), 1);
		TAP_CHECK_INT(sent_to(&x, 5, FTNL_MSG_HEARTBEAT), 1);
		TAP_CHECK_INT(sent_to(&x, 5, FTNL_MSG_HELLO),
			      t == t0 + hold / 2);
		if (t == t0 + hold / 2)
			TAP_CHECK(!ftnl_ring_core_new_observer(&x.core, 5, t + 1,
							       &x.out));
	}
	/* 4's claim is over; 5's holds until 4d after its renewal. */
	clear(&x);
	ftnl_ring_core_tick(&x.core, t0 + hold, &x.out);
	TAP_CHECK_INT(x.core.nclaims, 1);
	TAP_CHECK_UINT(x.peers[4].claim_until, 0);
	TAP_CHECK_UINT(x.peers[5].claim_until, t0 + hold / 2 + 1 + hold);
	TAP_CHECK_INT(sent_to(&x, 4, FTNL_MSG_HEARTBEAT), 0);
	TAP_CHECK_INT(sent_to(&x, 5, FTNL_MSG_HEARTBEAT), 1);
	TAP_CHECK_INT(observers(&x, t0 + hold), 2);
	/* The deaths arrive: 5 is the observer, and claims nothing more. */
	ftnl_ring_core_death_heard(&x.core, 3, FTNL_NODE_STATE_DEAD, 0, 4,
				   t0 + hold + 1, &x.out);
	ftnl_ring_core_death_heard(&x.core, 4, FTNL_NODE_STATE_DEAD, 0, 5,
				   t0 + hold + 2, &x.out);
	clear(&x);
	ftnl_ring_core_tick(&x.core, t0 + hold + H, &x.out);
	TAP_CHECK_INT(x.core.det.observer, 5);
	TAP_CHECK_INT(x.core.nclaims, 0);
	TAP_CHECK_INT(sent_to(&x, 5, FTNL_MSG_HEARTBEAT), 1);
	TAP_CHECK_INT(observers(&x, t0 + hold + H), 1);
	/* Without a renewal, a claim from a node that observes another ends. */
	TAP_CHECK(!ftnl_ring_core_new_observer(&x.core, 0, t0 + hold + H,
					       &x.out));
	TAP_CHECK_INT(observers(&x, t0 + hold + H), 2);
	for (t = t0 + hold + 2 * H; t <= t0 + 2 * hold + H; t += H)
		ftnl_ring_core_tick(&x.core, t, &x.out);
	TAP_CHECK_INT(x.core.nclaims, 0);
	TAP_CHECK_INT(observers(&x, t), 1);
	clear(&x);
	ftnl_ring_core_tick(&x.core, t, &x.out);
	TAP_CHECK_INT(sent_to(&x, 5, FTNL_MSG_HEARTBEAT), 1);
	TAP_CHECK_INT(sent_to(&x, 0, FTNL_MSG_HEARTBEAT), 0);
}

/*
 * A claim whose answers the host may have dropped is asked on (ring-dst
 * blackout, seed 11298: node 0's NEW_OBSERVER arrived just before its
 * host dropped all input for 6.6d; the claim ended unanswered, node 0
 * stopped heartbeating its claimant, which then accused it). Node 2 of 6
 * has a claim from 5; its host drops input from the asks' start to 1.5
 * holds: the claim outlives its hold, asked each h, until half a hold
 * after the last drop; the claimant's answer then keeps it; without one
 * it ends.
 */
static void test_claim_through_drops(const void *arg)
{
	const u64 t0 = 1000, hold = 4 * D;
	u64 t, last_drop = 0;
	struct node x;

	(void)arg;
	node_start(&x, 6, 2);
	TAP_CHECK(!ftnl_ring_core_new_observer(&x.core, 5, t0, &x.out));
	for (t = t0 + H; t <= t0 + hold + hold / 2; t += H) {
		if (t >= t0 + hold / 2) {
			ftnl_ring_core_rx_lost(&x.core, t);
			last_drop = t;
		}
		clear(&x);
		ftnl_ring_core_tick(&x.core, t, &x.out);
		TAP_CHECK_INT(x.core.nclaims, 1);
		TAP_CHECK_INT(sent_to(&x, 5, FTNL_MSG_HEARTBEAT), 1);
		TAP_CHECK_INT(sent_to(&x, 5, FTNL_MSG_HELLO),
			      t >= t0 + hold / 2);
	}
	/* The drops stopped: asked for half a hold more, then it ends. */
	for (; t < last_drop + hold / 2; t += H) {
		clear(&x);
		ftnl_ring_core_tick(&x.core, t, &x.out);
		TAP_CHECK_INT(x.core.nclaims, 1);
		TAP_CHECK_INT(sent_to(&x, 5, FTNL_MSG_HELLO), 1);
	}
	clear(&x);
	ftnl_ring_core_tick(&x.core, t, &x.out);
	TAP_CHECK_INT(x.core.nclaims, 0);
	TAP_CHECK_INT(sent_to(&x, 5, FTNL_MSG_HEARTBEAT), 0);
}

/*
 * A claim that crossed a rejoin (selftests/ring_rejoin, about one run in
 * ten on the 6.12 VM). Node 4 of 8 holds node 5 dead and is observed by
 * node 6. Node 5 comes back: its NEW_OBSERVER makes it the observer. A
 * NEW_OBSERVER node 6 sent before it learned the rejoin (the last of
 * those its switch to node 4 repeats, up to h after node 4's heartbeat
 * counted there: ftnl_ring_det_renew()) arrives next. D does not allow
 * it (node 5 lives between them): a claim. Node 6 now observes node 5,
 * so it answers no HELLO with a NEW_OBSERVER, and the claim ends at the
 * first tick 4d after it arrived, not before: the view shows two
 * observers for 4d, and a test of the ring after a rejoin must wait that
 * long (plus h, plus the transit of the last such NEW_OBSERVER), not the
 * 2d in which the new observer itself settles.
 */
static void test_claim_across_rejoin(const void *arg)
{
	const u64 t0 = 1000, hold = 4 * D;
	struct node x;
	u64 t, t1;

	(void)arg;
	node_start_rejoin(&x, 8, 4, true, 3, 1000 * D);
	x.peers[5].incarnation = 105;
	ftnl_ring_core_death_heard(&x.core, 5, FTNL_NODE_STATE_DEAD, 105, 6,
				   t0, &x.out);
	TAP_CHECK(ftnl_ring_core_new_observer(&x.core, 6, t0 + 1, &x.out));
	TAP_CHECK_INT(x.core.det.observer, 6);
	/* Node 5's new life: admitted, and its NEW_OBSERVER taken. */
	TAP_CHECK_INT(admit(&x, 5, 205, t0 + 2), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(x.rec.njoined, 1);
	TAP_CHECK(ftnl_ring_core_new_observer(&x.core, 5, t0 + 2, &x.out));
	TAP_CHECK_INT(x.core.det.observer, 5);
	TAP_CHECK_INT(observers(&x, t0 + 2), 1);
	/* Node 6's last NEW_OBSERVER, sent before it heard of node 5. */
	t1 = t0 + 3;
	TAP_CHECK(!ftnl_ring_core_new_observer(&x.core, 6, t1, &x.out));
	TAP_CHECK_INT(x.core.det.observer, 5);
	TAP_CHECK_UINT(x.peers[6].claim_until, t1 + hold);
	/* Ticks on the h grid of t0: still two observers after 2d and more. */
	for (t = t0 + H; t < t1 + hold; t += H) {
		clear(&x);
		ftnl_ring_core_tick(&x.core, t, &x.out);
		TAP_CHECK_INT(observers(&x, t), 2);
		TAP_CHECK_INT(sent_to(&x, 6, FTNL_MSG_HEARTBEAT), 1);
		TAP_CHECK_INT(sent_to(&x, 6, FTNL_MSG_HELLO),
			      t + hold / 2 >= t1 + hold);
	}
	TAP_CHECK(t - t1 > 2 * D + H);
	/* The first tick at or after t1 + 4d (within h of it) ends it. */
	TAP_CHECK(t >= t1 + hold && t < t1 + hold + H);
	clear(&x);
	ftnl_ring_core_tick(&x.core, t, &x.out);
	TAP_CHECK_INT(x.core.nclaims, 0);
	TAP_CHECK_INT(observers(&x, t), 1);
	TAP_CHECK_INT(sent_to(&x, 5, FTNL_MSG_HEARTBEAT), 1);
	TAP_CHECK_INT(sent_to(&x, 6, FTNL_MSG_HEARTBEAT), 0);
}

/*
 * News older than this life (ftnl_ring_core_death_old()), as seen in the
 * VM: node 0 restarted; node 2 had lived as 7 and restarted as 9 before
 * that. The death broadcast of life 7, held 2 s in the network (in a
 * neighbour's ARP queue, most likely), reaches node 0's new life. Taken
 * as news (ftnl_ring_core_death_heard(), as the module did), node 0 published node
 * 2 dead and repaired its ring around it. Held, with a HELLO to node 2:
 * the JOIN of life 9 that follows makes it stale, and nothing is
 * published. Then: held news about a node that proves a newer life by
 * answering is stale; about a node that never answers, taken after 2d;
 * about a node whose life is pinned, judged by its incarnation at once.
 */
static void test_news_older_than_life(const void *arg)
{
	struct node x;

	(void)arg;
	node_init(&x, 5, 0);
	ftnl_ring_core_set_rejoin(&x.core, true, 3, 60 * D);
	ftnl_ring_core_start(&x.core, 1000, &x.out);
	clear(&x);
	ftnl_ring_core_death_old(&x.core, 2, FTNL_NODE_STATE_DEAD, 7, 1,
				 1005, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_ALIVE);
	TAP_CHECK_INT(x.rec.nsent, 1);
	TAP_CHECK_INT(x.rec.to[0], 2);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_HELLO);
	TAP_CHECK_UINT(x.core.news_held, 1);
	ftnl_ring_core_join_heard(&x.core, 2, 9, false, 1, 1006, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_UINT(x.core.news_stale, 1);
	TAP_CHECK_UINT(x.core.ndoubts, 0);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_ALIVE);
	/* Its life is known now: the same news again is stale at once. */
	ftnl_ring_core_death_old(&x.core, 2, FTNL_NODE_STATE_DEAD, 7, 1,
				 1007, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_UINT(x.core.ndoubts, 0);

	/* Node 3 proves a newer life by answering: its HELLO_ACK pins it. */
	ftnl_ring_core_death_old(&x.core, 3, FTNL_NODE_STATE_DEAD, 5, 4,
				 1008, &x.out);
	TAP_CHECK_UINT(x.core.ndoubts, 1);
	TAP_CHECK_INT(ftnl_ring_core_admit(&x.core, 3, 6, 6, x.core.incarnation,
					   1009, &x.out), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_UINT(x.core.ndoubts, 0);
	TAP_CHECK_UINT(x.core.news_stale, 2);
	TAP_CHECK_INT(x.rec.nfailed, 0);

	/* Node 4 is dead: asked again each h, taken 2d after it came. */
	clear(&x);
	ftnl_ring_core_death_old(&x.core, 4, FTNL_NODE_STATE_DEAD, 8, 3,
				 1010, &x.out);
	ftnl_ring_core_tick(&x.core, 1010 + 2 * D - 1, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.rec.type[1], FTNL_MSG_HELLO);
	ftnl_ring_core_tick(&x.core, 1010 + 2 * D, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 4);
	TAP_CHECK_UINT(x.peers[4].dead_incarnation, 8);
	TAP_CHECK_INT(x.peers[4].cause, FTNL_CAUSE_BROADCAST);
	TAP_CHECK_UINT(x.core.ndoubts, 0);

	/* Node 3's life is pinned: old news about an older one is stale. */
	clear(&x);
	ftnl_ring_core_death_old(&x.core, 3, FTNL_NODE_STATE_DEAD, 5, 4,
				 1000 + 3 * D, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.rec.nsent, 0);
	TAP_CHECK_UINT(x.core.news_held, 3);
}

/*
 * News of a death that names no life, about a node whose life is pinned
 * here, as the ring DST found it (ring-dst rejoin 1 47390): node 3 died
 * as 1003 and came back as 1004; node 5, which had never heard node 3,
 * accused it (no life named); node 8, which had never heard 1003, had
 * just pinned 1004 and took that news for 1004's death: a live node put
 * in D, while the JOIN of 1004 was on its way. Now the news is held: the
 * JOIN of the pinned life makes it stale, and after that JOIN the same
 * news is stale at once; news of a node that has no such JOIN is taken
 * 2d after it came (the pinned life may be the one that died). News of a
 * life pinned 2d ago or more is taken at once (the next node of a run
 * that died together, whose new observer never heard it: held, every
 * survivor would learn it 2d late; the VM's ring_detect fails so).
 */
static void test_bare_news_of_pinned_life(const void *arg)
{
	struct node x;

	(void)arg;
	node_init(&x, 5, 0);
	ftnl_ring_core_set_rejoin(&x.core, true, 3, 60 * D);
	ftnl_ring_core_start(&x.core, 1000, &x.out);
	/* First contact with node 2's life 1004 (renamed from 953). */
	TAP_CHECK_INT(ftnl_ring_core_admit(&x.core, 2, 1004, 953,
					   x.core.incarnation, 1004, &x.out),
		      FTNL_RING_ACCEPT_NEW);
	clear(&x);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 0, 1,
				   1005, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_ALIVE);
	TAP_CHECK_UINT(x.core.ndoubts, 1);
	TAP_CHECK_UINT(x.core.news_held, 1);
	TAP_CHECK(!ftnl_ring_core_join_heard(&x.core, 2, 1004, true, 1, 1006,
					     &x.out));
	TAP_CHECK_UINT(x.core.ndoubts, 0);
	TAP_CHECK_UINT(x.core.news_stale, 1);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_ALIVE);
	/* The JOIN came first: the news is stale at once, nothing held. */
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 0, 1,
				   1007, &x.out);
	TAP_CHECK_UINT(x.core.ndoubts, 0);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	ftnl_ring_core_tick(&x.core, 1007 + 3 * D, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_ALIVE);

	/* No JOIN names node 3's life: its death, 2d after the news. */
	TAP_CHECK_INT(ftnl_ring_core_admit(&x.core, 3, 1006, 1006,
					   x.core.incarnation, 1999, &x.out),
		      FTNL_RING_ACCEPT_NEW);
	clear(&x);
	ftnl_ring_core_death_heard(&x.core, 3, FTNL_NODE_STATE_DEAD, 0, 4,
				   2000, &x.out);
	TAP_CHECK_UINT(x.core.ndoubts, 1);
	ftnl_ring_core_tick(&x.core, 2000 + 2 * D - 1, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	ftnl_ring_core_tick(&x.core, 2000 + 2 * D, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 3);
	TAP_CHECK_UINT(x.peers[3].dead_incarnation, 1006);
	TAP_CHECK_INT(x.peers[3].cause, FTNL_CAUSE_BROADCAST);
	TAP_CHECK_INT(x.peers[3].observer, 4);
	TAP_CHECK_UINT(x.core.ndoubts, 0);

	/* Node 4's life, pinned 2d before the news: taken at once. */
	TAP_CHECK_INT(ftnl_ring_core_admit(&x.core, 4, 1008, 1008,
					   x.core.incarnation, 3000, &x.out),
		      FTNL_RING_ACCEPT_NEW);
	clear(&x);
	ftnl_ring_core_death_heard(&x.core, 4, FTNL_NODE_STATE_DEAD, 0, 0,
				   3000 + 2 * D, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 4);
	TAP_CHECK_UINT(x.peers[4].dead_incarnation, 1008);
	TAP_CHECK_UINT(x.core.ndoubts, 0);
	TAP_CHECK_UINT(x.core.news_held, 2);
}

/*
 * A guess refuted by a JOIN, as the ring DST found it (ring-dst rejoin 1
 * 99802): node 2 died as 1002 and came back as 1102; its accuser had
 * never heard it, and this node took the death, naming no life, then
 * heard 1102 first and took it for the life that died
 * (ftnl_ring_core_tell_dead()). A member admitted 1102 and broadcast its
 * JOIN: refused here (no newer than the life guessed dead), this node
 * alone held a live node dead. The JOIN now wins over the guess.
 */
static void test_guess_refuted_by_join(const void *arg)
{
	struct node x;

	(void)arg;
	node_start(&x, 5, 0);
	ftnl_ring_core_set_rejoin(&x.core, true, 3, 60 * D);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 0, 3, 10,
				   &x.out);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_DEAD);
	TAP_CHECK_INT(admit(&x, 2, 1102, 20), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_UINT(x.peers[2].dead_incarnation, 1102);
	TAP_CHECK(x.peers[2].dead_guessed);
	clear(&x);
	TAP_CHECK(ftnl_ring_core_join_heard(&x.core, 2, 1102, false, 1, 30,
					    &x.out));
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_ALIVE);
	TAP_CHECK_UINT(x.peers[2].incarnation, 1102);
	TAP_CHECK(!x.peers[2].dead_guessed);
	TAP_CHECK(!ftnl_bit_test(x.core.dead, 2));
	/* A late copy of the death naming no life is stale now. */
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, 0, 3, 40,
				   &x.out);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_ALIVE);
	/*
	 * Long after the death (its 2d hold over), as in the VM (slurm,
	 * 6.1: a member heard the new life before the JOIN): the guess is
	 * not told before the JOIN, d later, can refute it. It told the
	 * live node EXPELLED at once before.
	 */
	ftnl_ring_core_death_heard(&x.core, 3, FTNL_NODE_STATE_DEAD, 0, 1, 100,
				   &x.out);
	clear(&x);
	TAP_CHECK_INT(admit(&x, 3, 1203, 100 + 10 * D), FTNL_RING_DEAD_SENDER);
	TAP_CHECK(x.peers[3].dead_guessed);
	ftnl_ring_core_tick(&x.core, 100 + 10 * D + H, &x.out);
	TAP_CHECK_INT(admit(&x, 3, 1203, 100 + 11 * D - 1),
		      FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.nexpel, 0);
	TAP_CHECK(ftnl_ring_core_join_heard(&x.core, 3, 1203, false, 1,
					    100 + 11 * D - 1, &x.out));
	TAP_CHECK_INT(x.peers[3].state, FTNL_NODE_STATE_ALIVE);
	TAP_CHECK_INT(admit(&x, 3, 1203, 100 + 11 * D), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(x.rec.nexpel, 0);
	/* A guess the JOIN does not name stands: a later life rejoins. */
	ftnl_ring_core_death_heard(&x.core, 4, FTNL_NODE_STATE_DEAD, 0, 3, 50,
				   &x.out);
	TAP_CHECK_INT(admit(&x, 4, 2004, 60), FTNL_RING_DEAD_SENDER);
	TAP_CHECK(!ftnl_ring_core_join_heard(&x.core, 4, 2003, false, 1, 70,
					     &x.out));
	TAP_CHECK_INT(x.peers[4].state, FTNL_NODE_STATE_DEAD);
	TAP_CHECK_UINT(x.peers[4].dead_incarnation, 2004);
}

/*
 * The comeback: told it is dead, with rejoin auto, fenced, held 4d: a new
 * incarnation, its own accusations forgotten, the rest of D kept, the
 * detector started afresh; a member readmits it. Not for manual, not when
 * it expelled itself, not before the fence or the hold.
 */
static void test_comeback(const void *arg)
{
	struct ftnl_node_view view;
	struct node x, m;
	u64 inc, at;
	u32 ndead;

	(void)arg;
	node_start_rejoin(&x, 5, 2, true, 3, 100000);
	inc = x.core.incarnation;
	admit(&x, 1, 101, 1);
	admit(&x, 4, 104, 1);
	heartbeat(&x, 1, 1);
	/* Node 4 died (learned), then this node, cut off, accused node 1. */
	ftnl_ring_core_death_heard(&x.core, 4, FTNL_NODE_STATE_DEAD, 104, 0, 2, &x.out);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1 + D + 4, &x.out), FTNL_RING_SUSPECT);
	TAP_CHECK(ftnl_bit_test(x.dead, 1));
	TAP_CHECK_INT(x.core.det.emitter, 0);
	ndead = x.core.ndead;
	TAP_CHECK_INT(ndead, 2);
	clear(&x);
	/* Not fenced, not expelled: nothing to come back from. */
	TAP_CHECK(!ftnl_ring_core_fenced(&x.core, 2000));
	TAP_CHECK(!ftnl_ring_core_comeback(&x.core, inc + 1, 1 << 30, &x.out));
	TAP_CHECK(expelled_rx(&x, 3, inc));
	TAP_CHECK(x.core.comeback);
	/* Before the fence is done: the timer stays off. */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 3000, &x.out), FTNL_RING_IDLE);
	TAP_CHECK(!ftnl_ring_core_comeback(&x.core, inc + 1, 3000, &x.out));
	TAP_CHECK(ftnl_ring_core_fenced(&x.core, 3000));
	TAP_CHECK(!ftnl_ring_core_fenced(&x.core, 3001));	/* once */
	TAP_CHECK(ftnl_ring_core_take_timer(&x.core, &at));
	TAP_CHECK_UINT(at, 3000 + 4 * D);
	/* Early: waits for the end of the hold; then says so. */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 3000 + D, &x.out), FTNL_RING_WAIT);
	TAP_CHECK(ftnl_ring_core_take_timer(&x.core, &at));
	TAP_CHECK_UINT(at, 3000 + 4 * D);
	TAP_CHECK(!ftnl_ring_core_comeback(&x.core, inc + 1, 3000 + D, &x.out));
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, at, &x.out), FTNL_RING_COMEBACK);
	TAP_CHECK(!ftnl_ring_core_take_timer(&x.core, &at));
	/* Never an older or the same incarnation. */
	TAP_CHECK(!ftnl_ring_core_comeback(&x.core, inc, 3000 + 4 * D, &x.out));
	TAP_CHECK_INT(x.rec.nsent, 0);
	TAP_CHECK(ftnl_ring_core_comeback(&x.core, inc + 7, 3000 + 4 * D, &x.out));
	TAP_CHECK(x.core.running);
	TAP_CHECK(!x.core.expelled);
	TAP_CHECK_UINT(x.core.incarnation, inc + 7);
	/* Its own accusation is forgotten; the death it learned stays. */
	TAP_CHECK(!ftnl_bit_test(x.dead, 1));
	TAP_CHECK_INT(x.peers[1].state, FTNL_NODE_STATE_ALIVE);
	TAP_CHECK(ftnl_bit_test(x.dead, 4));
	TAP_CHECK_INT(x.core.ndead, 1);
	/* Its old emitter's life goes on: its datagrams are accepted. */
	TAP_CHECK_INT(admit(&x, 1, 101, 3000 + 4 * D),
		      FTNL_RING_ACCEPT);
	/* The detector starts afresh: NEW_OBSERVER to its emitter. */
	TAP_CHECK_INT(x.core.det.emitter, 1);
	TAP_CHECK_INT(x.rec.nsent, 1);
	TAP_CHECK_INT(x.rec.to[0], 1);
	TAP_CHECK_INT(x.rec.type[0], FTNL_MSG_NEW_OBSERVER);
	ftnl_ring_core_view(&x.core, 2, 10, &view);
	TAP_CHECK_INT(view.state, FTNL_NODE_STATE_ALIVE);
	TAP_CHECK_UINT(view.incarnation, inc + 7);
	/* The old life's EXPELLED and death are stale now. */
	TAP_CHECK(!expelled_rx(&x, 3, inc));
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD, inc, 3, 3000 + 4 * D, &x.out);
	TAP_CHECK(x.core.running);

	/* A member that holds the old life dead readmits the new one. */
	node_start_rejoin(&m, 5, 3, true, 3, 100000);
	admit(&m, 2, inc, 1);
	heartbeat(&m, 2, 1);
	ftnl_ring_core_death_heard(&m.core, 2, FTNL_NODE_STATE_DEAD, inc, 4, 2, &m.out);
	clear(&m);
	TAP_CHECK_INT(admit(&m, 2, inc + 7, 5000),
		      FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(m.rec.njoined, 1);
	TAP_CHECK(m.rec.join_originate[0]);
	TAP_CHECK_INT(m.core.ndead, 0);
	ftnl_ring_core_death_heard(&m.core, 2, FTNL_NODE_STATE_DEAD, inc, 4, 5001, &m.out);
	TAP_CHECK(!ftnl_bit_test(m.dead, 2));

	/* Manual, or expelled by its own rule: no comeback. */
	node_start_rejoin(&x, 5, 2, false, 3, 100000);
	TAP_CHECK(expelled_rx(&x, 3, x.core.incarnation));
	TAP_CHECK(!ftnl_ring_core_fenced(&x.core, 10));
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1 << 30, &x.out), FTNL_RING_IDLE);
	node_start_rejoin(&x, 5, 2, true, 3, 100000);
	TAP_CHECK(ftnl_ring_core_expel_self(&x.core, FTNL_EXPEL_QUORUM, &x.out));
	TAP_CHECK(!ftnl_ring_core_fenced(&x.core, 10));
	TAP_CHECK(!ftnl_ring_core_comeback(&x.core, x.core.incarnation + 1, 1 << 30, &x.out));
	/* By broadcast of its own death: it comes back too. */
	node_start_rejoin(&x, 5, 2, true, 3, 100000);
	ftnl_ring_core_death_heard(&x.core, 2, FTNL_NODE_STATE_DEAD,
				   x.core.incarnation, 3, 5, &x.out);
	TAP_CHECK(x.core.expelled);
	TAP_CHECK(ftnl_ring_core_fenced(&x.core, 10));
}

/*
 * A rolling update (ftnl_ring_core_updated()): node 2 of 5 runs epoch 2
 * while others may still run epoch 1. An emitter never heard in this
 * configuration is judged only d after the update grace (it may not know
 * yet that it is observed, or not run yet), even once a new emitter
 * replaced a dead one; the
 * replaced configuration's observer (4 here) is heartbeaten too until it
 * is heard in epoch 2, or the grace ends; an emitter heard in epoch 1
 * with a longer d is judged by that d.
 */
/* A datagram of @from's life @inc, which began as @first, echoing this node. */
static enum ftnl_ring_admit admit_first(struct node *x, u32 from, u64 inc,
					u64 first, u64 now)
{
	return ftnl_ring_core_admit(&x->core, from, inc, first,
				    x->core.incarnation, now, &x->out);
}

/*
 * A node whose life was renewed above a later one a member knew (its clock
 * stepped back, ftnl_ring_core_renew()) lives on: a member that pinned an
 * earlier name of that life publishes no death, whether it hears the new
 * name from the node itself or first from a JOIN; a life that began anew
 * is still a restart, and a JOIN nobody answers for within 2d is taken.
 */
static void test_renamed_life(const void *arg)
{
	struct node x;

	(void)arg;
	node_start_rejoin(&x, 6, 3, true, 2, 1000);
	TAP_CHECK_INT(admit_first(&x, 2, 20, 20, 1), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(admit_first(&x, 4, 40, 40, 1), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(admit_first(&x, 5, 50, 50, 1), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(admit_first(&x, 1, 10, 10, 1), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(admit_first(&x, 0, 5, 5, 1), FTNL_RING_ACCEPT_NEW);
	clear(&x);

	/* Node 2 renamed 20 -> 50: the same life, a new replay window. */
	TAP_CHECK_INT(admit_first(&x, 2, 50, 20, 2), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.rec.njoined, 0);
	TAP_CHECK_UINT(x.peers[2].incarnation, 50);
	TAP_CHECK_INT(x.peers[2].state, FTNL_NODE_STATE_ALIVE);
	TAP_CHECK_INT(admit_first(&x, 2, 50, 20, 3), FTNL_RING_ACCEPT);
	TAP_CHECK_INT(admit_first(&x, 2, 20, 20, 3), FTNL_RING_STALE);
	TAP_CHECK_UINT(x.core.renamed, 1);
	/* Then it restarts for real: a life that began as itself. */
	TAP_CHECK_INT(admit_first(&x, 2, 60, 60, 4), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 2);
	TAP_CHECK_UINT(x.peers[2].dead_incarnation, 59);
	TAP_CHECK_INT(x.rec.njoined, 1);
	TAP_CHECK(ftnl_ring_core_renamed(&x.core, 2) == false);
	clear(&x);

	/* A JOIN names node 4's renamed life 90: held, node 4 asked. */
	TAP_CHECK(!ftnl_ring_core_join_heard(&x.core, 4, 90, true, 1, 10,
					     &x.out));
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.rec.njoined, 0);
	TAP_CHECK(sent_to(&x, 4, FTNL_MSG_HELLO));
	TAP_CHECK_UINT(x.core.renames_held, 1);
	/* It answers from 90, begun as 40: the life pinned here, renamed. */
	TAP_CHECK_INT(admit_first(&x, 4, 90, 40, 11), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(x.rec.njoined, 0);
	TAP_CHECK_UINT(x.peers[4].incarnation, 90);
	TAP_CHECK_INT(x.core.nrenames, 0);
	/* Its death under its first name is the death of that life. */
	ftnl_ring_core_death_heard(&x.core, 4, FTNL_NODE_STATE_DEAD, 40, 5, 12,
				   &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK(ftnl_bit_test(x.dead, 4));
	TAP_CHECK_UINT(x.peers[4].dead_incarnation, 90);
	clear(&x);
	/* That life renamed again is still the life that died; a new one rejoins. */
	TAP_CHECK_INT(admit_first(&x, 4, 120, 40, 13), FTNL_RING_DEAD_SENDER);
	TAP_CHECK_INT(x.rec.njoined, 0);
	TAP_CHECK(ftnl_bit_test(x.dead, 4));
	TAP_CHECK_INT(admit_first(&x, 4, 130, 130, 14), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(x.rec.njoined, 1);
	TAP_CHECK(!ftnl_bit_test(x.dead, 4));
	clear(&x);

	/* A renamed life of node 5 that did not begin as 50: 50 ended. */
	TAP_CHECK(!ftnl_ring_core_join_heard(&x.core, 5, 95, true, 1, 20,
					     &x.out));
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK_INT(admit_first(&x, 5, 95, 70, 21), FTNL_RING_ACCEPT_NEW);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 5);
	TAP_CHECK(!x.rec.originate[0]);
	TAP_CHECK_UINT(x.peers[5].dead_incarnation, 94);
	TAP_CHECK_INT(x.rec.njoined, 1);
	TAP_CHECK(!x.rec.join_originate[0]);
	TAP_CHECK_UINT(x.peers[5].incarnation, 95);
	TAP_CHECK_UINT(x.peers[5].first, 70);
	TAP_CHECK(ftnl_ring_core_renamed(&x.core, 5));
	clear(&x);

	/* Node 1 does not answer: the JOIN is taken 2d later, not before. */
	TAP_CHECK(!ftnl_ring_core_join_heard(&x.core, 1, 99, true, 0, 30,
					     &x.out));
	ftnl_ring_core_tick(&x.core, 30 + 2 * D - 1, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 0);
	TAP_CHECK(sent_to(&x, 1, FTNL_MSG_HELLO));
	ftnl_ring_core_tick(&x.core, 30 + 2 * D, &x.out);
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.failed[0], 1);
	TAP_CHECK_INT(x.rec.njoined, 1);
	TAP_CHECK_UINT(x.peers[1].incarnation, 99);
	TAP_CHECK_UINT(x.peers[1].first, 0);	/* renamed, from unknown */
	TAP_CHECK(ftnl_ring_core_renamed(&x.core, 1));
	clear(&x);

	/* A JOIN of a life that was not renamed: the pinned one ended. */
	TAP_CHECK(ftnl_ring_core_join_heard(&x.core, 0, 98, false, 1, 40,
					    &x.out));
	TAP_CHECK_INT(x.rec.nfailed, 1);
	TAP_CHECK_INT(x.rec.njoined, 1);

	/* This node renewed: its first name still names its life. */
	TAP_CHECK_UINT(x.core.first, 103);
	ftnl_ring_core_renew(&x.core, 500);
	TAP_CHECK_UINT(x.core.first, 103);
	TAP_CHECK_UINT(x.core.incarnation, 500);
	TAP_CHECK(expelled_rx(&x, 2, 103));
	TAP_CHECK(x.core.expelled);
}

static void test_rolling_update(const void *arg)
{
	const u64 update = 60ULL * 1000000000ULL;
	struct node x;

	(void)arg;
	node_init(&x, 5, 2);
	ftnl_ring_core_set_epoch(&x.core, 2);
	ftnl_ring_core_updated(&x.core, update, 4);
	ftnl_ring_core_start(&x.core, 1000, &x.out);
	TAP_CHECK_UINT(timer(&x), 1000 + D + GRACE);
	/* Not heard by the boot grace's end: held until the update's, + d. */
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + D + GRACE, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), 1000 + update + D);
	admit(&x, 3, 30, 1500);	/* observer 3 proven: no HELLO to it */
	clear(&x);
	/* T1: observer 3, NEW_OBSERVER to 1, and the previous observer 4. */
	ftnl_ring_core_tick(&x.core, 2000, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 3);
	TAP_CHECK_INT(x.rec.to[0], 3);
	TAP_CHECK_INT(x.rec.to[2], 4);
	TAP_CHECK_INT(x.rec.type[2], FTNL_MSG_HEARTBEAT);
	clear(&x);
	/* Heard in epoch 1: not updated yet, still heartbeaten. */
	ftnl_ring_core_epoch_heard(&x.core, 4, 7, 1, D);
	TAP_CHECK(!ftnl_ring_core_in_epoch(&x.core, 4));
	ftnl_ring_core_tick(&x.core, 3000, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 3);
	TAP_CHECK_INT(x.rec.to[2], 4);
	clear(&x);
	/* Heard in epoch 2: it observes whom its configuration says. */
	TAP_CHECK(ftnl_ring_core_epoch_heard(&x.core, 4, 7, 2, D));
	TAP_CHECK(ftnl_ring_core_in_epoch(&x.core, 4));
	/* One sent before its update, overtaken: says nothing any more. */
	TAP_CHECK(!ftnl_ring_core_epoch_heard(&x.core, 4, 7, 1, D));
	TAP_CHECK(ftnl_ring_core_in_epoch(&x.core, 4));
	ftnl_ring_core_tick(&x.core, 4000, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 2);
	TAP_CHECK_INT(x.core.prev_observer, 2);
	clear(&x);
	/* Emitter 1 heard in epoch 1 with d = 5D: judged after 5D. */
	TAP_CHECK_INT(admit(&x, 1, 7, 4500), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_epoch_heard(&x.core, 1, 7, 1, 5 * D);
	TAP_CHECK(ftnl_ring_core_heartbeat(&x.core, 1, 5000));
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 5000 + D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), 5000 + 5 * D);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 5000 + 5 * D, &x.out),
		      FTNL_RING_SUSPECT);
	/* Heard in this epoch: this configuration's d again. */
	node_init(&x, 5, 2);
	ftnl_ring_core_set_epoch(&x.core, 2);
	ftnl_ring_core_start(&x.core, 1000, &x.out);
	TAP_CHECK_UINT(timer(&x), 1000 + D + GRACE);
	TAP_CHECK_INT(admit(&x, 1, 7, 4500), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_epoch_heard(&x.core, 1, 7, 2, 5 * D);
	TAP_CHECK(ftnl_ring_core_heartbeat(&x.core, 1, 5000));
	TAP_CHECK_UINT(timer(&x), 5000 + D);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 5000 + D, &x.out),
		      FTNL_RING_SUSPECT);
	/*
	 * During the grace: emitter 1 dies, emitter 0 takes over, never
	 * heard: held to the grace's end + d; heard: d again.
	 */
	node_init(&x, 5, 2);
	ftnl_ring_core_set_epoch(&x.core, 2);
	ftnl_ring_core_updated(&x.core, update, 2);
	ftnl_ring_core_start(&x.core, 1000, &x.out);
	TAP_CHECK_INT(admit(&x, 1, 7, 1500), FTNL_RING_ACCEPT_NEW);
	ftnl_ring_core_epoch_heard(&x.core, 1, 7, 2, D);
	TAP_CHECK(ftnl_ring_core_heartbeat(&x.core, 1, 2000));
	timer(&x);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 2000 + D, &x.out),
		      FTNL_RING_SUSPECT);
	TAP_CHECK_INT(x.core.det.emitter, 0);
	TAP_CHECK_UINT(timer(&x), 2000 + D + 2 * D);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 2000 + 3 * D, &x.out),
		      FTNL_RING_WAIT);
	TAP_CHECK_UINT(timer(&x), 1000 + update + D);
	TAP_CHECK_INT(ftnl_ring_core_expire(&x.core, 1000 + update + D,
					    &x.out), FTNL_RING_SUSPECT);
	TAP_CHECK(ftnl_bit_test(x.dead, 0));
	/* No update: no previous observer; the grace ends: no more. */
	node_init(&x, 5, 2);
	ftnl_ring_core_updated(&x.core, 500, 0);
	ftnl_ring_core_start(&x.core, 1000, &x.out);
	admit(&x, 3, 30, 1200);	/* observer 3 proven: no HELLO to it */
	clear(&x);
	ftnl_ring_core_tick(&x.core, 1400, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 3);
	TAP_CHECK_INT(x.rec.to[2], 0);
	clear(&x);
	ftnl_ring_core_tick(&x.core, 1500, &x.out);
	TAP_CHECK_INT(x.rec.nsent, 2);
}

int main(void)
{
	tap_add(test_start_tick, NULL,
		"start: NEW_OBSERVER, boot grace; T1; T2 moves the timer only earlier");
	tap_add(test_t3_stall_guard, NULL,
		"stall guard waits h once per deadline; T3: D, broadcast, FindEmitter, NEW_OBSERVER, 2d; T4");
	tap_add(test_local_health, NULL,
		"local health: a timer of its own more than h late in the window puts the accusation off by h, once; counted");
	tap_add(test_new_emitter_late_observer, NULL,
		"local health, new emitter: an observer late after the switch gives it 2d from when it ran again, once; on time, 2d from the switch");
	tap_add(test_admit, NULL,
		"incarnations: new, stale, restarted (dead, announced); readmit errors and re-evaluation");
	tap_add(test_broadcast_and_leave, NULL,
		"T5: stale news ignored, once per death, emitter repaired at once; leave of observer and emitter");
	tap_add(test_rejoin, NULL,
		"rejoin: admitted and JOIN originated, JOIN obeyed with a new replay window, flap hold-out, manual");
	tap_add(test_life_between, NULL,
		"T5, a life between the one dead and the one known: joined with rejoin auto; else dead here too, as everywhere");
	tap_add(test_late_news_after_readmit, NULL,
		"T5 after a readmission: news of the previous life (named or bare D) never kills the new one");
	tap_add(test_tell_dead, NULL,
		"a dead node still talking is told EXPELLED with its dead incarnation, from 2d on, at most twice per h; a dead observer too; not a leaver");
	tap_add(test_expelled, NULL,
		"EXPELLED for this incarnation only; from a node held dead only when most are; then nothing acts; said once");
	tap_add(test_expelled_by_broadcast, NULL,
		"its own death by broadcast in this incarnation expels it; an older one, a leave or no incarnation does not");
	tap_add(test_comeback, NULL,
		"comeback: told dead, fenced, held 4d, new incarnation, own accusations forgotten, readmitted; not manual nor self-expelled");
	tap_add(test_expel_self, NULL,
		"ftnl_ring_core_expel_self: once, while running, reason and self recorded, nothing sent");
	tap_add(test_exhaustive_orders, NULL,
		"n <= 7, every self, every order of deaths learned: closest live emitter, each published once, T3 finds broadcast");
	tap_add(test_probe_observer, NULL,
		"probes: (d - h)/2 early, a helper's answer accuses, the suspect's refutes, nobody's resigns");
	tap_add(test_probe_verify_after_drops, NULL,
		"local health: a verification that input drops interrupted starts again, and accuses only on answers after it");
	tap_add(test_host_rx_lost, NULL,
		"local health: input the host dropped opens the probe round again and puts the emitter's judgement d past the last drop");
	tap_add(test_host_rx_lost_then_stall, NULL,
		"local health: a stall after input the host dropped, past the hold, still gets its wait: the heartbeats it sat on are read, no accusation");
	tap_add(test_probe_self_late, NULL,
		"local health: a node late during its probe round asks again instead of resigning");
	tap_add(test_probe_forming, NULL,
		"a node still waiting for its first emitter when its last round closes short of a majority waits for the majority, asking once a round; once it is up, the emitter gets 2d, then is accused as in a formed cluster; heard by none, the node resigns");
	tap_add(test_probe_cap_live, NULL,
		"probe: helpers put in D since they were asked leave room under the cap for live ones");
	tap_add(test_host_rx_dropped, NULL,
		"local health, host-drop rule off: drops counted keep a node from resigning, hold a judgement with nobody to ask d, give a verification's suspect a new round trip and d after the last drop (2h after held input); a round extended for drops asks every d");
	tap_add(test_probe_deferred_by_host_rx, NULL,
		"local health: a probe due while the host holds or drops input waits, its deadline moved with it; a held heartbeat read ends it unsent, held input puts it off again, then it starts with its lead and judges as usual");
	tap_add(test_probe_asks_held_by_host_rx, NULL,
		"probe: helpers not asked while the host drops input");
	tap_add(test_probe_round_held_open, NULL,
		"probe: a round whose requests were held stays open");
	tap_add(test_probe_alone_retries, NULL,
		"a probe with no helper asks the suspect every quarter of the lead until the deadline: an answer to the third request refutes, a silent suspect is asked four times and accused at the deadline");
	tap_add(test_probe_alone_retries_adaptive, NULL,
		"the same with an adaptive estimate far below d_max: four requests, every quarter of the estimate's lead, not d_max's");
	tap_add(test_expelled_by_kept_out_life, NULL,
		"EXPELLED from a later life kept out under rejoin manual is ignored, two nodes; from the life that died, or a name of it, obeyed");
	tap_add(test_refutation_is_heartbeat, NULL,
		"a refutation counts as a heartbeat: deadline, the local health rule's turn; no adaptive sample, d_max");
	tap_add(test_probe_helper, NULL,
		"probes: the suspect answers, a helper answers and forwards, relays only the suspect, budget");
	tap_add(test_confirm_split, NULL,
		"confirmation: 3 | 5, the minority resigns accusing nobody, the majority accuses; answers bound to the probe; a confirmer's death");
	tap_add(test_confirm_small, NULL,
		"confirmation: n = 3 and 4, leaves out of the count, the deaf node resigns accusing nobody");
	tap_add(test_confirm_rounds, NULL,
		"confirmation: a majority plus k first, then every other live member; helpers serve n/2 more");
	tap_add(test_probe_late_heartbeat, NULL,
		"probes: a heartbeat merely late costs the suspect and k helpers, with the quorum rule too");
	tap_add(test_confirm_helpers_failed, NULL,
		"confirmation: first-round helpers failed since they answered: the verification asks every other member at its first retry");
	tap_add(test_quorum, NULL,
		"quorum: a death that leaves no strict majority resigns instead; leaves out of the count; off");
	tap_add(test_can_observe, NULL,
		"NEW_OBSERVER only from a node with nothing but D between: every D, n <= 10");
	tap_add(test_inherit, NULL,
		"cluster set keeps D and incarnations: ring starts around the dead, no event again");
	tap_add(test_first_contact, NULL,
		"first contact needs the echo of this node's incarnation: an old life replayed pins nothing");
	tap_add(test_unpinned_heartbeat, NULL,
		"a heartbeat not proven fresh moves no deadline: a replayed one keeps no dead emitter alive");
	tap_add(test_claim_through_drops, NULL,
		"a claim whose answers the host may have dropped is asked on until half a hold after the last drop, then ends");
	tap_add(test_claim_expiry, NULL,
		"every claimant D does not allow is heartbeaten; a claim not renewed ends after 4d");
	tap_add(test_claim_across_rejoin, NULL,
		"a NEW_OBSERVER that crossed a rejoin is a claim: two observers in the view for 4d, gone within 4d + h");
	tap_add(test_news_older_than_life, NULL,
		"death news older than this life is held until its node proves a newer one, or for 2d");
	tap_add(test_bare_news_of_pinned_life, NULL,
		"death news naming no life, of a life pinned in the last 2d: stale once a JOIN named that life, else taken after 2d; of one pinned before, taken at once");
	tap_add(test_guess_refuted_by_join, NULL,
		"a JOIN of the life guessed dead (the first heard after a death naming none) readmits it");
	tap_add(test_rolling_update, NULL,
		"rolling update: an emitter unheard in the epoch waits for the grace, previous observer heartbeaten until heard in the epoch, the longer d of another epoch");
	tap_add(test_renamed_life, NULL,
		"a life renewed above a later one is the same life renamed: no death where an earlier name was pinned, whether heard from it or from a JOIN; a new life, an unanswered JOIN still end it; a dead life renamed stays dead");
	return tap_run();
}
