// SPDX-License-Identifier: GPL-2.0
/*
 * A graceful leave (Documentation/ring.rst, "Leave"): on a 16-node cluster
 * (st_vcluster.h, h = 100 ms, d = 1 s), node 8 runs
 * "ftnl-cli cluster leave". Then:
 *
 *   - its observer, node 9, reports it at once (no timeout): cause leave,
 *     observer id 8 (the leaver announced itself), its incarnation; so does
 *     its emitter, node 7, which was told too;
 *   - node 9 broadcasts it: every other survivor gets one event, cause
 *     broadcast, observer 8; node 8 is "left" in every survivor's table;
 *   - the ring is reconnected: node 7 (the leaver's emitter) heartbeats
 *     node 9 (the leaver's observer), node 9 observes node 7;
 *   - no "observed" event about node 8 anywhere, and nobody suspects
 *     anybody, even after the 2d node 9 gives its new emitter plus margin;
 *   - the leaver itself has no configuration any more, and a new
 *     incarnation for its next life.
 *
 * Time margins: d = 1 s, h = 100 ms. This test is about what happens, not
 * when: a d far above the longest stalls of the emulated machine (tens of
 * ms usually, up to about a second seen on a loaded 2-core host) keeps a
 * stall from turning into a false suspicion that would fail a test about
 * something else (ring_detect and ring_quiet use d = 300 ms). The leave is
 * announced by datagrams, not by a timeout, so the events must come within
 * MARGIN = 250 ms (softirq and event work latency under TCG, as in
 * ring_detect.c) of the command's return, far below the d where a missed
 * LEAVE would surface as an observed failure. The absence of a timeout is
 * checked over 2d + MARGIN after the leave, the longest node 9 can wait
 * for its new emitter.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "st_vcluster.h"
#include "ksft.h"

#define N		16
#define CLUSTER		0x6c76		/* "lv" */
#define H_US		100000u		/* h = 100 ms */
#define D_US		1000000u	/* d = 1 s: see above */
#define D_NS		((uint64_t)D_US * 1000)
#define MARGIN_NS	250000000ull
#define LEAVER		8
#define EMITTER		7
#define OBSERVER	9

FIXTURE(leave) {
	struct st_vc vc;
};

FIXTURE_SETUP(leave)
{
	char why[512] = "";

	ASSERT_EQ(0, st_vc_start(&self->vc, N, CLUSTER, H_US, D_US, 10000, why,
				 sizeof(why))) {
		TH_LOG("%s", why);
	}
}

FIXTURE_TEARDOWN(leave)
{
	st_vc_fini(&self->vc);
}

TEST_F_TIMEOUT(leave, cluster_leave, 60)
{
	bool live[ST_VC_MAX_NODES + 1] = { false };
	struct ftnl_stats before[N + 1], s;
	struct ftnl_cluster_info ci;
	struct ftnl_info info;
	struct ftnl_node_table t;
	const struct ftnl_node *e;
	uint64_t inc, t0, t1;
	char why[256] = "";
	uint32_t id;
	size_t i;

	for (id = 1; id <= N; id++) {
		live[id] = id != LEAVER;
		ASSERT_EQ(0, st_vc_stats(&self->vc, id, &before[id]));
	}
	ASSERT_EQ(0, ftnl_cluster_get(self->vc.node[LEAVER].h, &ci));
	inc = ci.incarnation;

	t0 = st_mono_ns();
	ASSERT_EQ(0, st_vc_sh(&self->vc, LEAVER, "ftnl-cli cluster leave"));
	t1 = st_mono_ns();
	self->vc.node[LEAVER].configured = false;

	/* The observer and the emitter were told. */
	ASSERT_EQ(0, st_vc_wait_event(&self->vc, OBSERVER, LEAVER, 1,
				      t1 + 4 * MARGIN_NS));
	ASSERT_EQ(0, st_vc_wait_event(&self->vc, EMITTER, LEAVER, 1,
				      t1 + 4 * MARGIN_NS));
	for (id = EMITTER; id <= OBSERVER; id += OBSERVER - EMITTER) {
		const struct st_vc_event *ev = st_vc_find_event(&self->vc, id, LEAVER);

		ASSERT_NE(NULL, ev);
		EXPECT_EQ((uint32_t)FTNL_CAUSE_LEAVE, ev->f.cause) {
			TH_LOG("node %u: cause %s", id,
			       ftnl_event_cause_name(ev->f.cause));
		}
		EXPECT_EQ((uint32_t)LEAVER, ev->f.observer_id);
		EXPECT_EQ(inc, ev->f.incarnation);
		EXPECT_LE(t0, ev->f.time_mono_ns);
		EXPECT_GE(t1 + MARGIN_NS, ev->f.time_mono_ns);
		TH_LOG("node %u learned the leave %.1f ms after the command started",
		       id, (ev->f.time_mono_ns - t0) / 1e6);
	}

	/* Everybody else from node 9's broadcast. */
	for (id = 1; id <= N; id++) {
		const struct st_vc_event *ev;

		if (!live[id] || id == EMITTER || id == OBSERVER)
			continue;
		ASSERT_EQ(0, st_vc_wait_event(&self->vc, id, LEAVER, 1,
					      t1 + 4 * MARGIN_NS)) {
			TH_LOG("node %u never learned that node 8 left", id);
		}
		ev = st_vc_find_event(&self->vc, id, LEAVER);
		EXPECT_EQ((uint32_t)FTNL_CAUSE_BROADCAST, ev->f.cause);
		EXPECT_EQ((uint32_t)LEAVER, ev->f.observer_id);
		EXPECT_GE(t1 + MARGIN_NS, ev->f.time_mono_ns);
	}

	/* The ring closes over the gap: 7 -> 9. */
	ASSERT_EQ(0, st_vc_wait_ring(&self->vc, live, 2 * MARGIN_NS / 1000000,
				     why, sizeof(why))) {
		TH_LOG("ring not reconnected after the leave: %s", why);
	}

	/* No timeout follows: wait out node 9's 2d on its new emitter. */
	while (st_mono_ns() < t1 + 2 * D_NS + MARGIN_NS)
		ASSERT_LE(0, st_vc_poll_events(&self->vc, 50));
	for (i = 0; i < self->vc.nevents; i++) {
		const struct st_vc_event *ev = &self->vc.events[i];

		EXPECT_EQ((uint32_t)LEAVER, ev->f.node_id) {
			TH_LOG("node %u: event about node %u (%s)", ev->at,
			       ev->f.node_id, ftnl_event_cause_name(ev->f.cause));
			ST_VC_LOG_STALL(&self->vc);
		}
		EXPECT_NE((uint32_t)FTNL_CAUSE_OBSERVED, ev->f.cause) {
			TH_LOG("node %u observed node %u's failure", ev->at,
			       ev->f.node_id);
		}
	}
	for (id = 1; id <= N; id++) {
		if (live[id]) {
			EXPECT_EQ(1u, st_vc_count_events(&self->vc, id, LEAVER, -1));
		} else {
			EXPECT_EQ(0u, st_vc_count_events(&self->vc, id, 0, -1));
		}
	}
	ASSERT_EQ(0, st_vc_wait_ring(&self->vc, live, 0, why, sizeof(why))) {
		TH_LOG("ring after 2d: %s", why);
	}

	for (id = 1; id <= N; id++) {
		if (!live[id])
			continue;
		ASSERT_EQ(0, st_vc_stats(&self->vc, id, &s));
		EXPECT_EQ(before[id].suspicions, s.suspicions);
		EXPECT_EQ(before[id].leave_recv +
			  (id == EMITTER || id == OBSERVER), s.leave_recv);
		/* only the leaver's observer broadcasts a leave */
		EXPECT_EQ(before[id].bcast_originated + (id == OBSERVER),
			  s.bcast_originated);
		ASSERT_EQ(0, st_vc_list(&self->vc, id, &t));
		e = st_vc_entry(&t, LEAVER);
		ASSERT_NE(NULL, e);
		EXPECT_EQ((int)FTNL_NODE_STATE_LEFT, (int)e->state) {
			TH_LOG("node 8 is %s at node %u",
			       ftnl_node_state_name(e->state), id);
		}
		ftnl_node_table_free(&t);
	}

	/* The leaver forgot its cluster and starts its next life anew. */
	EXPECT_EQ(-ENOENT, ftnl_cluster_get(self->vc.node[LEAVER].h, &ci));
	ASSERT_EQ(0, ftnl_info_get(self->vc.node[LEAVER].h, &info));
	EXPECT_FALSE(info.configured);
	EXPECT_LT(inc, info.incarnation);
}

TEST_HARNESS_MAIN
