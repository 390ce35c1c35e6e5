// SPDX-License-Identifier: GPL-2.0
/*
 * A node that cannot hear is no judge (issue 14; Documentation/ring.rst,
 * "Indirect probes and quorum").
 *
 * 8 nodes (st_vcluster.h), h = 10 ms, d = 30 ms: the setting in which one
 * node whose receive path failed while it could still send walked the ring
 * backwards and declared all 7 others dead within 360 ms, and every other
 * node accepted its broadcasts. Here node DEAF's receive path is cut by an
 * input-drop rule in its own netns (nft, inet family, input hook: ftnl's
 * UDP port only, so ARP still resolves and it keeps sending). Then:
 *
 *   - nobody declares a live node dead: the only failure event any node
 *     publishes in the whole run is about DEAF;
 *   - DEAF accuses nobody (suspicions 0): it asks helpers (PROBE_REQ
 *     sent), none of whose answers it can hear, and expels itself
 *     (FTNL_EXPEL_DEAF): it stops acting as a member, so its heartbeats
 *     stop;
 *   - its observer then finds it silent: every other node learns DEAF's
 *     death once, and the ring closes around it.
 *
 * The rule goes into a chain made before the cluster starts: creating an
 * input-hook chain turns on the kernel's netfilter hook static key, whose
 * text patching of ip_local_deliver() under the ring's traffic once hung
 * a 2-vCPU TCG guest (CPU 1 looping on the patch's int3 in
 * ip_local_deliver, an RCU stall, then cluster del blocked in
 * synchronize_rcu): the same hazard as issue 10 item 8's UDP encap key.
 * A chain in the VM's own netns, made while nothing flows, holds the key
 * on; the one in DEAF's netns then patches nothing.
 *
 * Margins: DEAF expels itself about d + 2d = 90 ms after the last
 * heartbeat it heard (on 8 nodes with the quorum rule its probe asks 3
 * helpers (d - h)/2 before the deadline, all 6 other live nodes at it,
 * and the round closes 2d later), and is detected d later; 5 s
 * leaves TCG room. A false event about a live node is a
 * failure whatever the load (the VM stall diagnostic is logged with it).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "st_vcluster.h"
#include "ksft.h"

#define N		8
#define CLUSTER		0x6465		/* "de" */
#define H_US		10000u		/* h = 10 ms */
#define D_US		30000u		/* d = 30 ms */
#define DEAF		4u
#define WAIT_NS		5000000000ull
/* An input-hook chain in the VM's own netns (see above); idempotent. */
#define NFT_HOLD_KEY	"nft 'add table inet ftnl_deaf_key; " \
			"add chain inet ftnl_deaf_key input " \
			"{ type filter hook input priority 0; }'"

FIXTURE(deaf) {
	struct st_vc vc;
};

FIXTURE_SETUP(deaf)
{
	char why[512] = "";

	/* Checked first: a process started later stalls a TCG guest. */
	ASSERT_EQ(0, system("command -v nft >/dev/null")) {
		TH_LOG("nft is missing in the guest: run 'make setup' (nftables)");
	}
	ASSERT_EQ(0, system(NFT_HOLD_KEY)) {
		TH_LOG("cannot create the nft input chain that holds the hook key");
	}
	st_wait_quiet_machine(1000, 10000, NULL);
	ASSERT_EQ(0, st_vc_start(&self->vc, N, CLUSTER, H_US, D_US, 10000,
				 why, sizeof(why))) {
		TH_LOG("%s", why);
	}
}

FIXTURE_TEARDOWN(deaf)
{
	st_vc_fini(&self->vc);
	/* Nothing flows any more: turning the key off patches safely. */
	if (system("nft delete table inet ftnl_deaf_key"))
		TH_LOG("cannot delete the nft table ftnl_deaf_key");
}

TEST_F_TIMEOUT(deaf, receive_path_cut, 120)
{
	struct st_vc *vc = &self->vc;
	struct ftnl_stats st;
	uint64_t hb_sent;
	bool live[N + 1];
	char why[256] = "";
	uint64_t t0;
	size_t i;
	uint32_t id;

	/* One nft process: the table, its input chain, the drop rule. */
	ASSERT_EQ(0, st_vc_sh(vc, DEAF,
			      "nft 'add table inet ftnl_deaf; "
			      "add chain inet ftnl_deaf input "
			      "{ type filter hook input priority 0; }; "
			      "add rule inet ftnl_deaf input udp dport %u drop'",
			      ST_VC_PORT));
	t0 = st_mono_ns();

	/* Every other node learns DEAF's death (it expelled itself, then
	 * fell silent); no node learns any other.
	 */
	for (id = 1; id <= N; id++) {
		if (id == DEAF)
			continue;
		EXPECT_EQ(0, st_vc_wait_event(vc, id, DEAF, 1, t0 + WAIT_NS)) {
			TH_LOG("node %u did not learn node %u's death within %llu ms",
			       id, DEAF, WAIT_NS / 1000000);
		}
	}
	/* Anything late would show here. */
	st_msleep(20 * D_US / 1000);
	ASSERT_LE(0, st_vc_poll_events(vc, 0));
	for (i = 0; i < vc->nevents; i++) {
		const struct st_vc_event *ev = &vc->events[i];

		EXPECT_EQ(DEAF, ev->f.node_id) {
			TH_LOG("node %u learned the death of live node %u (%s, observer %u) %.1f ms after the cut",
			       ev->at, ev->f.node_id,
			       ftnl_event_cause_name(ev->f.cause),
			       ev->f.observer_id,
			       ((int64_t)ev->f.time_mono_ns - (int64_t)t0) / 1e6);
			ST_VC_LOG_STALL(vc);
		}
		EXPECT_NE(DEAF, ev->at) {
			TH_LOG("the deaf node published a death (node %u)",
			       ev->f.node_id);
		}
	}

	/* It accused nobody, asked helpers, and stopped acting: no more
	 * heartbeats over 10 periods.
	 */
	ASSERT_EQ(0, st_vc_stats(vc, DEAF, &st));
	hb_sent = st.hb_sent;
	st_msleep(10 * H_US / 1000);
	ASSERT_EQ(0, st_vc_stats(vc, DEAF, &st));
	EXPECT_EQ(hb_sent, st.hb_sent) {
		TH_LOG("node %u still heartbeats: it did not expel itself", DEAF);
	}
	EXPECT_EQ(0u, st.suspicions);
	EXPECT_LT(0u, st.probe_req_sent);
	TH_LOG("node %u: probe requests sent %" PRIu64 ", answers received %" PRIu64,
	       DEAF, st.probe_req_sent, st.probe_ack_recv);
	for (id = 1; id <= N; id++) {
		if (id == DEAF || st_vc_stats(vc, id, &st))
			continue;
		if (st.probe_req_recv || st.suspicions)
			TH_LOG("node %u: suspicions %" PRIu64 " refuted %" PRIu64
			       " probe requests received %" PRIu64,
			       id, st.suspicions, st.suspicions_refuted,
			       st.probe_req_recv);
	}

	/* The ring closed around it. */
	for (id = 1; id <= N; id++)
		live[id] = id != DEAF;
	EXPECT_EQ(0, st_vc_wait_ring(vc, live, 2000, why, sizeof(why))) {
		TH_LOG("ring not reconnected around node %u: %s", DEAF, why);
	}
}

TEST_HARNESS_MAIN
