// SPDX-License-Identifier: GPL-2.0
/*
 * The broadcast of a failure survives the loss of its forwarders (ring
 * paper, section 2; Documentation/bcast.rst), on a 32-node cluster
 * (st_vcluster.h), for each algorithm:
 *
 *   hypercube  the dual hypercube (the default); A has n = 31 members,
 *		k = floor(log2 31) = 4: k - 1 = 3 forwarders lost, the
 *		"worst placement" of bcast_topology_test.c: the first three
 *		cube-0 neighbours the source sends to (labels 1, 2, 4), each
 *		the root of a sub-cube only it would forward to first;
 *   bmg	the binomial graph, within its tolerance (fewer than
 *		ceil(log2 n) = 5 failures): the source's first four
 *		neighbours, labels 1, 2, 4, 8;
 *   fcg	Failure-proof Corrected Gossip configured with f = k - 1 = 3:
 *		its gossip targets are random, so the three lost nodes are
 *		the root's next ring positions, which its correction sweep
 *		reaches first.
 *
 * The labels come from the pure overlay code the module runs
 * (kmod/bcast/topology.c, compiled in), over the message's D = {X}, from
 * the source: the observer of the failed node X.
 *
 * The scenario: node X = 10 is cut off (its bridge port down); its
 * observer O = 11 will detect it d after the last heartbeat it got, and
 * broadcast it. GAP before that instant, while the failure is still
 * undetected, the forwarders are cut off too: when O's broadcast runs they
 * are dead but nobody knows it, so they silently drop what they are sent,
 * which is the "failures during the broadcast" the algorithms tolerate.
 * Checked:
 *
 *   - O reports X (cause observed, observer O, X's incarnation) no sooner
 *     than d after X's last heartbeat, and after the forwarders were cut
 *     off (else the scenario did not happen: the test process was late by
 *     more than GAP, and the case fails, saying so);
 *   - every survivor (neither X nor cut off) gets exactly one event about
 *     X, cause broadcast, observer O (X's incarnation, or 0 under FCG for
 *     a node that never heard X), no sooner than O's detection, and
 *     *before the earliest instant any forwarder's own failure could
 *     have been detected*: so it came through the
 *     redundancy of O's broadcast, not through the later broadcasts of
 *     the forwarders' deaths (which carry D, hence X, but observer != O);
 *     or, observer V, from V's welcome (a node pinning a life it never
 *     heard sends it D, whose entries name the sender): the observers of
 *     the forwarders start probing them (d - h)/2 before they can accuse,
 *     and their first PROBE_REQ to a helper may end in a welcome that outruns
 *     O's copy (seen in make check on 6.1 and 6.12). V must then have had
 *     X from O's broadcast before, and the node must still deliver O's
 *     broadcast before a forwarder can be detected (its bcast delivered
 *     counter, which welcomes do not move, rises);
 *   - no event about a forwarder exists anywhere yet at that point;
 *   - (hypercube, BMG) O sent exactly one datagram to each overlay
 *     neighbour the topology code gives, lost forwarders included;
 *   - the cut-off nodes never got O's broadcast (no broadcast event about
 *     X there);
 *   - once every survivor has learned of every forwarder's death (their
 *     observers detect them, walking back over consecutive ones), still
 *     exactly one event about X per survivor, and the ring is closed
 *     around all the dead.
 *
 * Times (QEMU TCG on a shared 2-core host, see ring_detect.c):
 *
 *   h = 100 ms, d = 2 s. A forwarder cut off at tf cannot be declared dead
 *   before its last heartbeat arrived + d: that arrival is read from its
 *   observer's dump right after the cut (HB_AGE_US, bracketed by two clock
 *   readings), so E = min over forwarders of (last heartbeat + d) is an
 *   exact lower bound, not a margin (a forwarder whose observer is cut off
 *   too is only found by a walk back, 2d after E at the earliest). The
 *   forwarders are cut GAP = 800 ms before the earliest possible detection
 *   of X: 800 ms of slack for the test process's own wake-up, several
 *   times the usual TCG lateness. Then E - detection of X is about
 *   d - GAP - h = 1.1 s, which the broadcast must beat. No tighter bound
 *   is asserted: the dual hypercube and BMG took 13 to 117 ms under TCG
 *   with the forwarders lost, FCG up to 313 ms (its sends are paced by a
 *   soft hrtimer slot by slot, each firing late under TCG, and lost nodes
 *   make its c-nodes wait and correct further), so E keeps three times the
 *   slowest delivery seen. A broadcast that does not route around its lost
 *   forwarders reaches the nodes behind them only through the forwarders'
 *   own death broadcasts, after E, with another observer: it fails.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "st_vcluster.h"
#include "bcast/topology.h"	/* kmod/bcast: the overlays the module runs */
#include "ksft.h"

#define N		32
#define CLUSTER		0x6266		/* "bf" */
#define H_US		(100000u * st_time_scale())	/* h = 100 ms, scaled */
#define D_US		(2000000u * st_time_scale())	/* d = 2 s, scaled */
#define H_NS		((uint64_t)H_US * 1000)
#define D_NS		((uint64_t)D_US * 1000)
/* Waits only (as ring_detect.c); the bounds asserted are exact. */
#define MARGIN_NS	(250000000ull * st_time_scale())
#define GAP_NS		(800000000ull * st_time_scale())	/* see above */
#define VICTIM		10		/* X */
#define SOURCE		11		/* O: X's observer */
#define MAX_LOST	8

FIXTURE(bf) {
	struct st_vc vc;
	uint32_t lost[MAX_LOST];	/* the forwarders cut off, ids */
	unsigned int nlost;
	uint32_t n;			/* |A| */
	uint32_t expect_sent;		/* O's datagrams (hypercube, BMG) */
};

FIXTURE_VARIANT(bf) {
	uint8_t algo;
};

FIXTURE_VARIANT_ADD(bf, hypercube) {
	.algo = FTNL_BCAST_HYPERCUBE,
};

FIXTURE_VARIANT_ADD(bf, bmg) {
	.algo = FTNL_BCAST_BMG,
};

FIXTURE_VARIANT_ADD(bf, fcg) {
	.algo = FTNL_BCAST_FCG,
};

/* Ring successor of @id (ids 1..N are the ring order). */
static uint32_t succ(uint32_t id)
{
	return id % N + 1;
}

/*
 * Who forwards O's broadcast first, from the topology code: the labels of
 * the broadcast over D = {X} from O, turned into node ids (position = id -
 * 1). Fills self->lost and self->expect_sent.
 */
static void pick_forwarders(struct __test_metadata *_metadata,
			    FIXTURE_DATA(bf) *self, uint8_t algo)
{
	unsigned long dead[(N + BITS_PER_LONG - 1) / BITS_PER_LONG] = { 0 };
	u32 to[FTNL_BCAST_MAX_FANOUT], cnt, k, i, want;
	struct ftnl_bcast_view view;
	char list[256] = "";
	size_t off = 0;

	ftnl_bit_set(dead, VICTIM - 1);
	ftnl_bcast_view_init(&view, dead, N, SOURCE - 1);
	self->n = view.n;
	k = ftnl_hcube_dim(view.n);
	ASSERT_EQ(31u, view.n);
	ASSERT_EQ(4u, k);

	switch (algo) {
	case FTNL_BCAST_HYPERCUBE:
		/* cube 0 first: the source sends along dimensions 0..k-1 */
		cnt = ftnl_hcube_forward(view.n, 0, 0, 0, to);
		ASSERT_EQ(k, cnt);
		want = k - 1;
		self->expect_sent = cnt;
		{
			u32 to1[FTNL_BCAST_MAX_FANOUT];

			self->expect_sent += ftnl_hcube_forward(view.n, 1, 0, 0, to1);
		}
		break;
	case FTNL_BCAST_BMG:
		cnt = ftnl_bmg_forward(view.n, 0, to);
		want = ftnl_bmg_degree(view.n) - 1;	/* its tolerance */
		self->expect_sent = cnt;
		break;
	default:
		/* FCG: ranks are ring positions; the root's next ones */
		cnt = k - 1;
		for (i = 0; i < cnt; i++)
			to[i] = i + 1;
		want = k - 1;
		self->expect_sent = 0;
		break;
	}
	ASSERT_LE(want, cnt);
	ASSERT_GE((u32)MAX_LOST, want);
	for (i = 0; i < want; i++) {
		u32 id;

		if (algo == FTNL_BCAST_FCG) {
			/* position SOURCE - 1 + to[i], skipping nothing: X is
			 * behind the root, its next ranks are all alive
			 */
			id = (SOURCE - 1 + to[i]) % N + 1;
		} else {
			id = ftnl_bcast_pos(&view, to[i]) + 1;
		}
		ASSERT_NE((u32)VICTIM, id);
		ASSERT_NE((u32)SOURCE, id);
		self->lost[i] = id;
		if (algo == FTNL_BCAST_FCG)
			off += (size_t)snprintf(list + off, sizeof(list) - off,
						"%s%u (root + %u)", i ? ", " : "",
						id, to[i]);
		else
			off += (size_t)snprintf(list + off, sizeof(list) - off,
						"%s%u (label %u)", i ? ", " : "",
						id, ftnl_bcast_label(&view, id - 1));
	}
	self->nlost = want;
	TH_LOG("n = %u, k = %u: cutting off %s", view.n, k, list);
}

FIXTURE_SETUP(bf)
{
	char why[256] = "";

	pick_forwarders(_metadata, self, variant->algo);

	st_wait_quiet_machine(1000, 10000, NULL);
	ASSERT_EQ(0, st_vc_init(&self->vc, N, CLUSTER, H_US, D_US));
	self->vc.cfg.has_bcast_algo = true;
	self->vc.cfg.bcast_algo = variant->algo;
	if (variant->algo == FTNL_BCAST_FCG) {
		/* FCG's f: failures during a broadcast it tolerates */
		self->vc.cfg.has_fcg_f = true;
		self->vc.cfg.fcg_f = (uint8_t)self->nlost;
	}
	ASSERT_EQ(0, st_vc_configure_all(&self->vc));
	/* 32 nodes under TCG: configuration and first heartbeats take a
	 * second or two; 20 s only a failure reaches
	 */
	ASSERT_EQ(0, st_vc_wait_settled(&self->vc, 20000, why, sizeof(why))) {
		TH_LOG("cluster did not settle: %s", why);
	}
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	ASSERT_EQ(0u, self->vc.nevents) {
		TH_LOG("failure event while the cluster settled: node %u about %u (%s)",
		       self->vc.events[0].at, self->vc.events[0].f.node_id,
		       ftnl_event_cause_name(self->vc.events[0].f.cause));
		ST_VC_LOG_STALL(&self->vc);
	}
}

FIXTURE_TEARDOWN(bf)
{
	st_vc_fini(&self->vc);
}

/*
 * When did @victim's last heartbeat reach @observer? Read right after
 * @victim was cut off: *lo is no later than the arrival (the kernel read
 * its clock after c0; the age is truncated to the microsecond).
 */
static bool last_heartbeat(struct st_vc *vc, uint32_t observer,
			   uint32_t victim, uint64_t *lo)
{
	const struct ftnl_node *e;
	struct ftnl_node_table t;
	uint64_t c0;
	bool ok = false;

	c0 = st_mono_ns();
	if (st_vc_list(vc, observer, &t))
		return false;
	e = st_vc_entry(&t, victim);
	if (e && e->emitter && e->has_hb_age) {
		*lo = c0 - e->hb_age_us * 1000 - 1000;
		ok = true;
	}
	ftnl_node_table_free(&t);
	return ok;
}

static bool is_lost(const FIXTURE_DATA(bf) *self, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < self->nlost; i++)
		if (self->lost[i] == id)
			return true;
	return false;
}

/*
 * What O's local health rule heard since @s0: input its host dropped or
 * held, and the waits and deferrals they caused - the cause to look at
 * first when O detects X late.
 */
static void log_observer_input(struct __test_metadata *_metadata,
			       struct st_vc *vc, const struct ftnl_stats *s0)
{
	struct ftnl_stats s;

	if (st_vc_stats(vc, SOURCE, &s))
		return;
	TH_LOG("node %u since X's silence: host drops %llu, input unread %llu, stall waits %llu, probes deferred %llu, verified %llu",
	       SOURCE,
	       (unsigned long long)(s.host_rx_drops - s0->host_rx_drops),
	       (unsigned long long)(s.host_rx_unread - s0->host_rx_unread),
	       (unsigned long long)(s.stall_waits - s0->stall_waits),
	       (unsigned long long)(s.probes_deferred - s0->probes_deferred),
	       (unsigned long long)(s.suspicions_verified -
				    s0->suspicions_verified));
}

TEST_F_TIMEOUT(bf, forwarders_lost, 120)
{
	bool live[ST_VC_MAX_NODES + 1] = { false };
	uint64_t lo_x, tf_first = 0, tf_last = 0, earliest = UINT64_MAX;
	uint64_t inc_x, det, slowest = 0, last_x = 0, deadline;
	static uint64_t delivered0[ST_VC_MAX_NODES + 1];
	const struct st_vc_event *ev;
	struct ftnl_stats s0, s1;
	char why[256] = "";
	uint32_t s;
	unsigned int i;
	size_t e;

	for (s = 1; s <= N; s++)
		live[s] = s != VICTIM && !is_lost(self, s);
	inc_x = st_vc_incarnation(&self->vc, VICTIM);
	ASSERT_NE(0u, inc_x);
	ASSERT_EQ(0, st_vc_stats(&self->vc, SOURCE, &s0));
	/* Broadcasts each survivor delivered before (welcomes not counted). */
	for (s = 1; s <= N; s++) {
		if (!live[s])
			continue;
		ASSERT_EQ(0, st_vc_stats(&self->vc, s, &s1));
		delivered0[s] = s1.bcast_delivered;
	}

	ASSERT_EQ(0, st_vc_silence(&self->vc, VICTIM, NULL, NULL));
	ASSERT_TRUE(last_heartbeat(&self->vc, SOURCE, VICTIM, &lo_x)) {
		TH_LOG("node %u does not observe node %u", SOURCE, VICTIM);
	}

	/* GAP before X can be detected, its forwarders-to-be fall silent */
	{
		uint64_t at = lo_x + D_NS - GAP_NS, now = st_mono_ns();

		if (now < at)
			st_msleep((unsigned int)((at - now) / 1000000ull));
	}
	for (i = 0; i < self->nlost; i++) {
		uint64_t b, a;

		ASSERT_EQ(0, st_vc_silence(&self->vc, self->lost[i], &b, &a));
		if (!i)
			tf_first = b;
		tf_last = a;
	}
	/* The earliest instant any of them could be declared dead. */
	for (i = 0; i < self->nlost; i++) {
		uint32_t obs = succ(self->lost[i]);
		uint64_t lo;

		if (!live[obs])
			continue;	/* found only by a walk back, later */
		ASSERT_TRUE(last_heartbeat(&self->vc, obs, self->lost[i], &lo)) {
			TH_LOG("node %u does not observe node %u", obs, self->lost[i]);
		}
		if (lo + D_NS < earliest)
			earliest = lo + D_NS;
	}
	ASSERT_NE(UINT64_MAX, earliest);
	TH_LOG("forwarders cut off %.0f ms after X; none can be declared dead before %.0f ms after their cut",
	       (tf_first - lo_x) / 1e6, (earliest - tf_last) / 1e6);

	/* O detects X, after the forwarders fell silent. */
	ASSERT_EQ(0, st_vc_wait_event(&self->vc, SOURCE, VICTIM, 1,
				      lo_x + D_NS + 4 * MARGIN_NS)) {
		log_observer_input(_metadata, &self->vc, &s0);
	}
	log_observer_input(_metadata, &self->vc, &s0);
	ev = st_vc_find_event(&self->vc, SOURCE, VICTIM);
	ASSERT_NE(NULL, ev);
	det = ev->f.time_mono_ns;
	EXPECT_EQ((uint32_t)FTNL_CAUSE_OBSERVED, ev->f.cause);
	EXPECT_EQ((uint32_t)SOURCE, ev->f.observer_id);
	EXPECT_EQ(inc_x, ev->f.incarnation);
	EXPECT_LE(lo_x + D_NS, det) {
		TH_LOG("node %u detected node %u %.1f ms early", SOURCE, VICTIM,
		       (lo_x + D_NS - det) / 1e6);
	}
	ASSERT_LT(tf_last, det) {
		TH_LOG("the forwarders were cut off %.1f ms after the broadcast started: the test process was late by more than GAP",
		       (tf_last - det) / 1e6);
		ST_VC_LOG_STALL(&self->vc);
	}

	/* Every survivor: one event, from O's broadcast, before E. */
	for (s = 1; s <= N; s++) {
		if (!live[s] || s == SOURCE)
			continue;
		ASSERT_EQ(0, st_vc_wait_event(&self->vc, s, VICTIM, 1,
					      earliest + MARGIN_NS)) {
			TH_LOG("node %u got no event about node %u", s, VICTIM);
			ST_VC_LOG_STALL(&self->vc);
			ST_VC_LOG_NODE(&self->vc, s);
			ST_VC_LOG_NODE(&self->vc, SOURCE);
		}
		ev = st_vc_find_event(&self->vc, s, VICTIM);
		ASSERT_NE(NULL, ev);
		EXPECT_EQ(1u, st_vc_count_events(&self->vc, s, VICTIM, -1));
		EXPECT_EQ((uint32_t)FTNL_CAUSE_BROADCAST, ev->f.cause) {
			TH_LOG("node %u learned node %u's death as %s", s, VICTIM,
			       ftnl_event_cause_name(ev->f.cause));
		}
		if (ev->f.observer_id != SOURCE) {
			/*
			 * Told by a survivor that had O's broadcast: its
			 * welcome on first contact (ftnl_bcast_welcome(),
			 * D's entries name the sender) outran O's copy.
			 */
			uint32_t via = ev->f.observer_id;
			const struct st_vc_event *had = NULL;

			if (via >= 1 && via <= N && live[via] &&
			    !st_vc_wait_event(&self->vc, via, VICTIM, 1,
					      earliest + MARGIN_NS))
				had = st_vc_find_event(&self->vc, via, VICTIM);
			EXPECT_TRUE(had && had->f.observer_id == SOURCE &&
				    had->f.time_mono_ns <= ev->f.time_mono_ns) {
				TH_LOG("node %u learned it from node %u, which had it %s",
				       s, via, !had ? "not" :
				       had->f.observer_id != SOURCE ?
				       "from another" : "later");
			}
			/* O's broadcast reached it all the same, in time. */
			for (;;) {
				ASSERT_EQ(0, st_vc_stats(&self->vc, s, &s1));
				if (s1.bcast_delivered > delivered0[s] ||
				    st_mono_ns() > earliest)
					break;
				ASSERT_LE(0, st_vc_poll_events(&self->vc, 10));
			}
			EXPECT_LT(delivered0[s], s1.bcast_delivered) {
				TH_LOG("node %u never delivered node %u's broadcast before a forwarder could be detected",
				       s, SOURCE);
			}
			TH_LOG("node %u learned it from node %u's welcome, which had node %u's broadcast, and delivered that broadcast too",
			       s, via, SOURCE);
		}
		if (variant->algo != FTNL_BCAST_FCG || ev->f.incarnation)
			EXPECT_EQ(inc_x, ev->f.incarnation);
		EXPECT_LE(det, ev->f.time_mono_ns);
		/* the claim: the redundancy, not a later broadcast */
		EXPECT_GT(earliest, ev->f.time_mono_ns) {
			TH_LOG("node %u learned it %.1f ms after a forwarder could have been detected",
			       s, (ev->f.time_mono_ns - earliest) / 1e6);
		}
		if (ev->f.time_mono_ns > det && ev->f.time_mono_ns - det > slowest)
			slowest = ev->f.time_mono_ns - det;
		if (ev->f.time_mono_ns > last_x)
			last_x = ev->f.time_mono_ns;
	}
	TH_LOG("%s: every survivor learned it within %.1f ms of the detection, %.0f ms before any forwarder could be detected",
	       ftnl_bcast_algo_name(variant->algo), slowest / 1e6,
	       (earliest - last_x) / 1e6);

	/* Nothing about the forwarders yet, anywhere. */
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	for (i = 0; i < self->nlost; i++) {
		EXPECT_EQ(0u, st_vc_count_events(&self->vc, 0, self->lost[i], -1)) {
			TH_LOG("an event about node %u before node %u's broadcast was everywhere",
			       self->lost[i], SOURCE);
		}
	}

	/* O sent to every overlay neighbour, the lost ones included. */
	ASSERT_EQ(0, st_vc_stats(&self->vc, SOURCE, &s1));
	EXPECT_EQ(s0.bcast_originated + 1, s1.bcast_originated);
	EXPECT_EQ(s0.tx_errors, s1.tx_errors);
	if (self->expect_sent) {
		EXPECT_EQ(s0.bcast_sent + self->expect_sent, s1.bcast_sent);
	}

	/*
	 * Now the forwarders' own deaths: their observers detect them (d
	 * after the cut), walking back over consecutive ones (2d a step),
	 * and broadcast them with D, which holds X. Generous deadline: one d
	 * and a walk-back step per lost node, plus 2 s.
	 */
	deadline = tf_last + (2 * self->nlost + 1) * D_NS + 2000000000ull;
	for (s = 1; s <= N; s++) {
		if (!live[s])
			continue;
		for (i = 0; i < self->nlost; i++) {
			ASSERT_EQ(0, st_vc_wait_event(&self->vc, s, self->lost[i],
						      1, deadline)) {
				TH_LOG("node %u never learned of node %u's death",
				       s, self->lost[i]);
			}
		}
	}
	/* and whatever would follow them */
	st_msleep(2 * MARGIN_NS / 1000000);
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	for (s = 1; s <= N; s++) {
		if (live[s]) {
			EXPECT_EQ(1u, st_vc_count_events(&self->vc, s, VICTIM, -1)) {
				TH_LOG("node %u: %zu events about node %u", s,
				       st_vc_count_events(&self->vc, s, VICTIM, -1),
				       VICTIM);
			}
		} else if (s != VICTIM) {
			/* cut off: O's broadcast never reached it */
			EXPECT_EQ(0u, st_vc_count_events(&self->vc, s, VICTIM,
							 FTNL_CAUSE_BROADCAST));
		}
	}
	for (e = 0; e < self->vc.nevents; e++) {
		const struct st_vc_event *x = &self->vc.events[e];

		/* no live node was declared dead */
		EXPECT_FALSE(live[x->f.node_id] && live[x->at]) {
			TH_LOG("node %u: event about live node %u (%s)", x->at,
			       x->f.node_id, ftnl_event_cause_name(x->f.cause));
			ST_VC_LOG_STALL(&self->vc);
		}
	}
	ASSERT_EQ(0, st_vc_wait_ring(&self->vc, live, 5000, why, sizeof(why))) {
		TH_LOG("ring: %s", why);
	}
}

TEST_HARNESS_MAIN
