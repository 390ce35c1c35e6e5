// SPDX-License-Identifier: GPL-2.0
/*
 * Adaptive timeouts (Documentation/ring.rst, "Adaptive timeouts"; the
 * estimator is kmod/ring/adaptive.c, its arithmetic unit-tested in
 * kmod/tests/adaptive_test.c and driven by the ring DST's adaptive mode).
 *
 * An 8-node cluster of network namespaces (st_vcluster.h) with h = 100 ms,
 * timeouts adapting between d_min = 150 ms and d_max = 600 ms for a target
 * of 10^-9 false suspicions per heartbeat:
 *
 *   - "cluster get" reports the minimum and the target rate on every node;
 *   - for 6 s (60 heartbeats, the estimator's window of 32 filled on every
 *     observer) no node is suspected;
 *   - node 1 is then silenced: it is reported dead by every survivor, and
 *     its observer's detection comes within d_max + MARGIN of the
 *     silencing (never later than a fixed d = d_max would allow). The
 *     detection latency is logged: under an emulator the estimator's
 *     timeout is wide (its timers are late by tens of ms), so the test
 *     does not assert that it beats d_max.
 *
 * Bad values are config_invalid's cases (adaptive_*): refused with the
 * attribute and a message, nothing installed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "st_vcluster.h"
#include "ksft.h"

#define N		8
#define CLUSTER		0x6164		/* "ad" */
#define H_US		(100000u * st_time_scale())	/* h = 100 ms, scaled */
#define DMAX_US		(600000u * st_time_scale())	/* d_max, scaled */
#define DMIN_US		(150000u * st_time_scale())	/* d_min, scaled */
#define NINES		9
#define MARGIN_NS	(250000000ull * st_time_scale())	/* as ring_detect */
#define WARM_S		6

FIXTURE(adaptive) {
	struct st_vc vc;
};

FIXTURE_SETUP(adaptive)
{
	char why[256] = "";

	st_wait_quiet_machine(1000, 10000, NULL);
	ASSERT_EQ(0, st_vc_init(&self->vc, N, CLUSTER, H_US, DMAX_US));
	self->vc.cfg.has_timeout_min = true;
	self->vc.cfg.timeout_min_us = DMIN_US;
	self->vc.cfg.has_timeout_nines = true;
	self->vc.cfg.timeout_nines = NINES;
	ASSERT_EQ(0, st_vc_configure_all(&self->vc));
	ASSERT_EQ(0, st_vc_wait_settled(&self->vc, 10000, why, sizeof(why))) {
		TH_LOG("cluster did not settle: %s", why);
	}
}

FIXTURE_TEARDOWN(adaptive)
{
	st_vc_fini(&self->vc);
}

TEST_F_TIMEOUT(adaptive, shown_quiet_and_detects, 90)
{
	bool live[ST_VC_MAX_NODES + 1] = { false };
	const struct st_vc_event *ev;
	struct ftnl_cluster_info info;
	uint64_t t0, t1, end, now;
	uint32_t id;
	char why[256] = "";

	for (id = 1; id <= N; id++) {
		live[id] = true;
		ASSERT_EQ(0, ftnl_cluster_get(self->vc.node[id].h, &info));
		EXPECT_TRUE(info.has_timeout_min);
		EXPECT_EQ(DMIN_US, info.timeout_min_us);
		EXPECT_EQ((uint8_t)NINES, info.timeout_nines);
		EXPECT_EQ(DMAX_US, info.timeout_us);
	}

	/* The estimators fill their windows: no suspicion meanwhile. */
	end = st_mono_ns() + WARM_S * 1000000000ull;
	while ((now = st_mono_ns()) < end)
		ASSERT_LE(0, st_vc_poll_events(&self->vc,
					       (int)((end - now) / 1000000) + 1));
	ASSERT_EQ(0u, self->vc.nevents) {
		ev = &self->vc.events[0];
		TH_LOG("false suspicion: node %u reported %u dead (observer %u)",
		       ev->at, ev->f.node_id, ev->f.observer_id);
		ST_VC_LOG_STALL(&self->vc);
	}
	ASSERT_TRUE(st_vc_ring_check(&self->vc, live, why, sizeof(why))) {
		TH_LOG("%s", why);
	}

	ASSERT_EQ(0, st_vc_silence(&self->vc, 1, &t0, &t1));
	live[1] = false;
	for (id = 2; id <= N; id++) {
		ASSERT_EQ(0, st_vc_wait_event(&self->vc, id, 1, 1,
					      t1 + 2 * DMAX_US * 1000ull +
					      2 * MARGIN_NS)) {
			TH_LOG("node %u never learned node 1's death", id);
			ST_VC_LOG_STALL(&self->vc);
		}
	}
	for (id = 2; id <= N; id++) {
		ev = st_vc_find_event(&self->vc, id, 1);
		ASSERT_NE(NULL, ev);
		if (ev->f.cause != FTNL_CAUSE_OBSERVED)
			continue;
		TH_LOG("node %u detected node 1 %.1f ms after the silencing (d_min %u ms, d_max %u ms)",
		       id, (ev->f.time_mono_ns - t0) / 1e6, DMIN_US / 1000,
		       DMAX_US / 1000);
		EXPECT_LE(ev->f.time_mono_ns, t1 + DMAX_US * 1000ull + MARGIN_NS) {
			ST_VC_LOG_STALL(&self->vc);
		}
	}
	EXPECT_EQ(1u, st_vc_count_events(&self->vc, 0, 1, FTNL_CAUSE_OBSERVED));
	/* nobody else was suspected */
	EXPECT_EQ((size_t)(N - 1), self->vc.nevents);
}

TEST_HARNESS_MAIN
