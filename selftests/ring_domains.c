// SPDX-License-Identifier: GPL-2.0
/*
 * Failure domains (kmod/ring/order.c) on a 16-node cluster of network
 * namespaces: 4 racks of 4 nodes, nodes 1-4 in rack0, 5-8 in rack1, and
 * so on, so that in id order every rack is a run of 4 ring neighbours.
 *
 * order: every node's dump lists the same ring, no two neighbours (wrap
 *	included) share a rack, and each node's emitter and observer are its
 *	ring neighbours.
 *
 * rack_fails: rack1 (nodes 5-8) is silenced at once. With domains, no two
 *	of its nodes are neighbours: each is detected by its own ring
 *	successor (cause observed, that successor the observer), a survivor,
 *	without any walk back (Theorem 1's d(2f - 1) does not apply).
 *	Without domains (the "ids" variant) the rack is a run of 4 dead
 *	neighbours: node 9 walks back and detects all four itself. Both:
 *	every survivor gets exactly one event per dead node and none about a
 *	survivor, and the ring closes over the survivors. Times (detection of
 *	each node, last survivor knowing all) are reported, not asserted.
 *
 * h = 100 ms, d = 1 s: the id-order walk keeps a cluster of 16 emulated
 * nodes busy for 7d, and with d = 300 ms a TCG guest on a loaded host
 * stalled long enough for false suspicions of live nodes during it (seen:
 * a survivor declared dead then gets no broadcast). Waits are bounded by
 * 20 s, far beyond 7d, only so that a lost event fails the test.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "st_vcluster.h"
#include "ksft.h"

#define N		16
#define RACK		4		/* nodes per rack */
#define FAILED_RACK	1		/* nodes 5..8 */
#define CLUSTER		0x646f		/* "do" */
#define H_US		100000u
#define D_US		1000000u
#define WAIT_NS		20000000000ull

static uint32_t rack_of(uint32_t id)
{
	return (id - 1) / RACK;
}

/* Every event node @at received, for a failure's diagnosis. */
static void log_events_at(struct __test_metadata *_metadata,
			  const struct st_vc *vc, uint32_t at)
{
	for (size_t i = 0; i < vc->nevents; i++) {
		const struct st_vc_event *e = &vc->events[i];

		if (e->at == at)
			TH_LOG("  node %u got: node %u %s, observer %u", at,
			       e->f.node_id, ftnl_event_cause_name(e->f.cause),
			       e->f.observer_id);
	}
}

FIXTURE(dom) {
	struct st_vc vc;
};

FIXTURE_VARIANT(dom) {
	bool domains;
};

FIXTURE_VARIANT_ADD(dom, domains) {
	.domains = true,
};

FIXTURE_VARIANT_ADD(dom, ids) {
	.domains = false,
};

FIXTURE_SETUP(dom)
{
	char why[256] = "";
	size_t i;

	st_wait_quiet_machine(1000, 10000, NULL);
	ASSERT_EQ(0, st_vc_init(&self->vc, N, CLUSTER, H_US, D_US));
	for (i = 0; i < self->vc.cfg.node_count && variant->domains; i++) {
		struct ftnl_node *node = &self->vc.cfg.nodes[i];

		snprintf(node->domain, sizeof(node->domain), "rack%u",
			 rack_of(node->id));
	}
	ASSERT_EQ(0, st_vc_configure_all(&self->vc));
	ASSERT_EQ(0, st_vc_learn_ring(&self->vc, 1));
	ASSERT_EQ(0, st_vc_wait_settled(&self->vc, 10000, why, sizeof(why))) {
		TH_LOG("cluster did not settle: %s", why);
	}
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	ASSERT_EQ(0u, self->vc.nevents) {
		TH_LOG("failure event while the cluster settled");
		ST_VC_LOG_STALL(&self->vc);
	}
}

FIXTURE_TEARDOWN(dom)
{
	st_vc_fini(&self->vc);
}

TEST_F(dom, order)
{
	struct st_vc *vc = &self->vc;
	char line[256] = "";
	size_t used = 0, i;
	uint32_t id, shared = 0;

	for (i = 0; i < N; i++) {
		uint32_t a = vc->ring[i], b = vc->ring[(i + 1) % N];

		shared += rack_of(a) == rack_of(b);
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 " %u", a);
	}
	TH_LOG("ring:%s", line);
	if (variant->domains) {
		EXPECT_EQ(0u, shared);
	} else {
		EXPECT_EQ((uint32_t)((RACK - 1) * N / RACK), shared);
		for (i = 0; i < N; i++)
			EXPECT_EQ((uint32_t)i + 1, vc->ring[i]);
	}

	/* Every node computed the same ring from the same table. */
	for (id = 1; id <= N; id++) {
		struct ftnl_node_table t;

		ASSERT_EQ(0, st_vc_list(vc, id, &t));
		ASSERT_EQ((size_t)N, t.count);
		for (i = 0; i < N; i++) {
			EXPECT_EQ(vc->ring[i], t.nodes[i].id);
			if (variant->domains) {
				char want[FTNL_NODE_DOMAIN_MAX + 1];

				snprintf(want, sizeof(want), "rack%u",
					 rack_of(t.nodes[i].id));
				EXPECT_STREQ(want, t.nodes[i].domain);
			} else {
				EXPECT_STREQ("", t.nodes[i].domain);
			}
		}
		ftnl_node_table_free(&t);
	}
}

TEST_F(dom, rack_fails)
{
	struct st_vc *vc = &self->vc;
	bool live[N + 1] = { false };
	uint64_t t0, t1, last = 0, tmp;
	const struct st_vc_event *ev;
	char why[256] = "";
	uint32_t id, s, v;

	for (id = 1; id <= N; id++)
		live[id] = rack_of(id) != FAILED_RACK;

	t0 = 0;
	for (id = 1; id <= N; id++) {
		if (live[id])
			continue;
		ASSERT_EQ(0, st_vc_silence(vc, id, t0 ? NULL : &t0, &tmp));
	}
	t1 = st_mono_ns();

	for (v = 1; v <= N; v++) {
		uint32_t observer = 0;
		uint64_t det = 0;

		if (live[v])
			continue;
		for (s = 1; s <= N; s++) {
			if (!live[s])
				continue;
			ASSERT_EQ(0, st_vc_wait_event(vc, s, v, 1, t1 + WAIT_NS)) {
				TH_LOG("node %u never learned that node %u failed",
				       s, v);
				log_events_at(_metadata, vc, s);
			}
			ev = st_vc_find_event(vc, s, v);
			ASSERT_NE(NULL, ev);
			if (ev->f.cause == FTNL_CAUSE_OBSERVED) {
				EXPECT_EQ(s, ev->f.observer_id);
				observer = s;
				det = ev->f.time_mono_ns;
			}
			if (ev->f.time_mono_ns > last)
				last = ev->f.time_mono_ns;
		}
		ASSERT_NE(0u, observer) {
			TH_LOG("no survivor reported node %u as observed", v);
		}
		if (variant->domains) {
			/* Its own ring successor, no walk back. */
			EXPECT_EQ(vc->ring[(vc->pos[v] + 1) % N], observer);
		} else {
			/* The first live node after the run walks back. */
			EXPECT_EQ((uint32_t)(FAILED_RACK + 1) * RACK + 1,
				  observer);
		}
		TH_LOG("node %u (rack%u) detected by node %u %.1f ms after the silencing (d = %u ms)",
		       v, rack_of(v), observer, (int64_t)(det - t0) / 1e6,
		       D_US / 1000);
	}
	TH_LOG("%s: every survivor knew all %u failures %.1f ms after the silencing (Theorem 1's walk: %u ms)",
	       variant->domains ? "domains" : "id order", RACK,
	       (int64_t)(last - t0) / 1e6, (2 * RACK - 1) * D_US / 1000);

	ASSERT_EQ(0, st_vc_wait_ring(vc, live, 20000, why, sizeof(why))) {
		TH_LOG("ring not reconnected around rack%u: %s", FAILED_RACK,
		       why);
	}
	/* Late duplicates would arrive within a few d: wait, then count. */
	st_msleep(3 * D_US / 1000);
	ASSERT_LE(0, st_vc_poll_events(vc, 0));
	for (s = 1; s <= N; s++) {
		if (!live[s])
			continue;
		EXPECT_EQ((size_t)RACK, st_vc_count_events(vc, s, 0, -1));
		for (v = 1; v <= N; v++)
			EXPECT_EQ(live[v] ? 0u : 1u,
				  st_vc_count_events(vc, s, v, -1)) {
				TH_LOG("node %u: %zu events about node %u", s,
				       st_vc_count_events(vc, s, v, -1), v);
			}
	}
	EXPECT_EQ(0u, vc->overruns);
}

TEST_HARNESS_MAIN
