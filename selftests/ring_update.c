// SPDX-License-Identifier: GPL-2.0
/*
 * Rolling updates (issue 14, "changes without false failures";
 * Documentation/admin-guide.rst, "Rolling updates"): a running cluster gets
 * a new configuration node by node, as pdsh does it, and no node is ever
 * declared dead for it.
 *
 * rolling.new_key_timing_and_node: 8 nodes run epoch 1 (h = 100 ms,
 * d = 1 s, key K1). Nodes 1..8 then get, one every 1.5 s, epoch 2: key
 * K2, h = 1.2 s, d = 4 s (an h longer than the old d: a node not updated
 * yet that judged an updated emitter by its own d would accuse it), and a
 * ninth node in the table; node 9 starts last, with epoch 2. Checked: no
 * failure event on any node from the first update to the end of the
 * update grace; every node then runs epoch 2 with 9 nodes, the ring is
 * whole around the 9 nodes (each one's emitter heard within the new d),
 * datagrams under the previous key were accepted during the grace, and
 * once the grace is over the previous key is gone everywhere. Before the
 * epoch and the previous key, the first updated node dropped every
 * datagram of the others (and they its own): its observer declared it
 * dead after d.
 *
 * rolling.epoch_rules: a changed key with the running epoch, or an epoch
 * below the running one, is refused with a message and changes nothing
 * (the node stays in the cluster, nobody suspects anybody); a change
 * without an epoch takes the running one plus one, an unchanged
 * configuration keeps it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "st_vcluster.h"
#include "ksft.h"

#define N_OLD		8
#define N_NEW		9
#define CLUSTER		0x7275		/* "ru" */
#define H1_US		100000u		/* epoch 1: h = 100 ms */
#define D1_US		1000000u	/*          d = 1 s */
#define H2_US		1200000u	/* epoch 2: h = 1.2 s */
#define D2_US		4000000u	/*          d = 4 s */
#define GRACE_S		25u		/* scaled: see grace_s() */
#define GAP_MS		1500u
#define MARGIN_NS	500000000ull

static const uint8_t key2[FTNL_KEY_LEN] = {
	0x6b, 0x32, 0x6e, 0x65, 0x77, 0x6b, 0x65, 0x79,
	0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28,
	0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38,
	0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
};

FIXTURE(rolling) {
	struct st_vc vc;
};

/*
 * The update grace must outlast the rollout (8 gaps, each scaled by the
 * kernel's time scale): on the debug kernel (scale 3) an unscaled 25 s
 * ended at node 1 before node 9 started, and node 1 rightly declared the
 * node that was not running dead.
 */
static unsigned int grace_s(void)
{
	return GRACE_S * st_time_scale();
}

/* Nine namespaces, eight of them configured in epoch 1. */
FIXTURE_SETUP(rolling)
{
	char why[256] = "";
	uint32_t id;

	ASSERT_EQ(0, st_vc_init(&self->vc, N_NEW, CLUSTER, H1_US, D1_US));
	self->vc.cfg.node_count = N_OLD;
	self->vc.cfg.has_epoch = true;
	self->vc.cfg.epoch = 1;
	self->vc.cfg.has_update_grace = true;
	self->vc.cfg.update_grace_s = grace_s();
	for (id = 1; id <= N_OLD; id++)
		ASSERT_EQ(0, st_vc_configure(&self->vc, id));
	ASSERT_EQ(0, st_vc_wait_settled(&self->vc, 10000, why, sizeof(why))) {
		TH_LOG("cluster did not settle: %s", why);
	}
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	ASSERT_EQ(0u, self->vc.nevents);
}

FIXTURE_TEARDOWN(rolling)
{
	st_vc_fini(&self->vc);
}

/* Collect events until @until (st_mono_ns() clock). */
static int poll_until(struct st_vc *vc, uint64_t until)
{
	int err;

	while (st_mono_ns() < until) {
		err = st_vc_poll_events(vc, 50);
		if (err < 0)
			return err;
	}
	return 0;
}

static int cluster_info(struct st_vc *vc, uint32_t id,
			struct ftnl_cluster_info *info)
{
	return ftnl_cluster_get(vc->node[id].h, info);
}

TEST_F_TIMEOUT(rolling, new_key_timing_and_node, 240)
{
	bool live[ST_VC_MAX_NODES + 1] = { false };
	uint64_t t_first, prev_key_recv = 0;
	unsigned int scale = st_time_scale();
	struct ftnl_cluster_info info;
	struct ftnl_stats s;
	char why[256] = "";
	uint32_t id;

	/* A cluster that has run a while: 2 s, 20 heartbeats. */
	st_msleep(2000);
	self->vc.cfg.node_count = N_NEW;
	self->vc.cfg.epoch = 2;
	self->vc.cfg.hb_period_us = H2_US;
	self->vc.cfg.timeout_us = D2_US;
	memcpy(self->vc.cfg.key, key2, sizeof(key2));
	t_first = st_mono_ns();
	for (id = 1; id <= N_NEW; id++) {
		ASSERT_EQ(0, st_vc_configure(&self->vc, id)) {
			TH_LOG("node %u: %s", id,
			       ftnl_errmsg(self->vc.node[id].h));
		}
		ASSERT_EQ(0, poll_until(&self->vc, st_mono_ns() +
					GAP_MS * 1000000ull * scale));
		if (self->vc.nevents) {
			TH_LOG("failure events after updating node %u:", id);
			break;
		}
	}
	ST_VC_EXPECT_NO_EVENT_SINCE(&self->vc, 0);
	ASSERT_EQ(0u, self->vc.nevents);

	/* The new configuration in force everywhere, the ring whole. */
	for (id = 1; id <= N_NEW; id++)
		live[id] = true;
	ASSERT_EQ(0, st_vc_wait_ring(&self->vc, live,
				     (2 * D2_US / 1000) * scale, why,
				     sizeof(why))) {
		TH_LOG("ring of 9 in epoch 2: %s", why);
		ST_VC_LOG_STALL(&self->vc);
	}
	for (id = 1; id <= N_NEW; id++) {
		ASSERT_EQ(0, cluster_info(&self->vc, id, &info));
		EXPECT_TRUE(info.has_epoch);
		EXPECT_EQ(2u, info.epoch);
		EXPECT_EQ((uint32_t)N_NEW, info.node_count);
		EXPECT_EQ(H2_US, info.hb_period_us);
		EXPECT_EQ(D2_US, info.timeout_us);
		ASSERT_EQ(0, st_vc_stats(&self->vc, id, &s));
		prev_key_recv += s.prev_key_recv;
		EXPECT_EQ(0u, s.suspicions) {
			TH_LOG("node %u suspected", id);
		}
	}
	/* Nodes not updated yet were heard under the previous key. */
	EXPECT_LT(0u, prev_key_recv);

	/* To the end of the last node's grace: still nobody accused. */
	ASSERT_EQ(0, poll_until(&self->vc, t_first + (uint64_t)N_OLD *
				GAP_MS * 1000000ull * scale +
				grace_s() * 1000000000ull + MARGIN_NS));
	ST_VC_EXPECT_NO_EVENT_SINCE(&self->vc, 0);
	for (id = 1; id <= N_NEW; id++) {
		ASSERT_EQ(0, cluster_info(&self->vc, id, &info));
		EXPECT_FALSE(info.has_prev_key) {
			TH_LOG("node %u still accepts the previous key for %" PRIu64 " ms",
			       id, info.prev_key_left_ms);
		}
	}
	EXPECT_TRUE(st_vc_ring_check(&self->vc, live, why, sizeof(why))) {
		TH_LOG("ring after the grace: %s", why);
	}
}

TEST_F_TIMEOUT(rolling, epoch_rules, 60)
{
	struct ftnl_cluster_config *c = &self->vc.cfg;
	struct ftnl_cluster_info info;
	struct ftnl_handle *h = self->vc.node[1].h;
	uint64_t t0;

	/* A new key under the running epoch: refused, nothing changes. */
	memcpy(c->key, key2, sizeof(key2));
	EXPECT_EQ(-EINVAL, st_vc_configure(&self->vc, 1));
	EXPECT_NE(NULL, strstr(ftnl_errmsg(h), "raise the epoch")) {
		TH_LOG("message: %s", ftnl_errmsg(h));
	}
	/* An epoch below the running one: refused, with or without change. */
	c->epoch = 0;
	EXPECT_EQ(-EINVAL, st_vc_configure(&self->vc, 1));
	EXPECT_NE(NULL, strstr(ftnl_errmsg(h), "below the running"));
	memcpy(c->key, st_vc_key(), FTNL_KEY_LEN);
	EXPECT_EQ(-EINVAL, st_vc_configure(&self->vc, 1));
	ASSERT_EQ(0, cluster_info(&self->vc, 1, &info));
	EXPECT_EQ(1u, info.epoch);
	EXPECT_EQ(H1_US, info.hb_period_us);

	/* The same configuration again keeps the epoch... */
	c->has_epoch = false;
	ASSERT_EQ(0, st_vc_configure(&self->vc, 1));
	ASSERT_EQ(0, cluster_info(&self->vc, 1, &info));
	EXPECT_EQ(1u, info.epoch);
	EXPECT_FALSE(info.has_prev_key);
	/* ...a change raises it by one, and keeps the previous key. */
	memcpy(c->key, key2, sizeof(key2));
	ASSERT_EQ(0, st_vc_configure(&self->vc, 1));
	ASSERT_EQ(0, cluster_info(&self->vc, 1, &info));
	EXPECT_EQ(2u, info.epoch);
	EXPECT_TRUE(info.has_prev_key);
	EXPECT_GE((uint64_t)grace_s() * 1000, info.prev_key_left_ms);
	EXPECT_LT((uint64_t)(grace_s() - 5) * 1000, info.prev_key_left_ms);

	/* Node 1 runs K2 among K1 nodes: nobody is accused over 3d. */
	t0 = st_mono_ns();
	ASSERT_EQ(0, poll_until(&self->vc, t0 + 3ull * D1_US * 1000 *
				st_time_scale() + MARGIN_NS));
	ST_VC_EXPECT_NO_EVENT_SINCE(&self->vc, 0);
}

TEST_HARNESS_MAIN
