// SPDX-License-Identifier: GPL-2.0
/*
 * Rejoin (Documentation/ring.rst, "Rejoin"), on a 16-node cluster
 * (st_vcluster.h) with the default policy, rejoin auto. Node 5 dies (its
 * network namespace is destroyed: the module's state with it) and its
 * death is detected everywhere; it comes back (a new namespace, hence a
 * new incarnation, configured alike), as after a reboot.
 *
 * auto (h = 100 ms, d = 1 s): without any admin, every member publishes
 *	exactly one joined event about node 5, naming its new incarnation,
 *	node 5 is alive in every table with the ring whole again
 *	(4 -> 5 -> 6), and no failure event follows. The time from its
 *	configuration to the last member's joined event is logged.
 *	Then a late broadcast about its previous life: the death broadcast
 *	that node 6 sent node 7 when node 5 died, captured on the way, sent
 *	again as a new broadcast (a new broadcast number, forwarded by node
 *	12 with a new datagram sequence number, MAC'ed with the cluster key:
 *	authentic), is
 *	delivered (node 7's delivered counter moves) and forwarded, and kills
 *	nobody: its death entry and its D name the incarnation that died.
 *
 * cold_replay (issue 10 item 2): a datagram of a previous life, replayed
 *	to a node that has just started, must not pin that life there. A
 *	heartbeat of node 4 to node 5 is captured; node 4 restarts (every
 *	member publishes its joined event); node 5 dies, its death is known,
 *	and it comes back while no member can reach it (a blackhole route to
 *	it in every member's namespace), so that the first datagram of node
 *	4 it hears is the captured one, replayed from an outsider's
 *	namespace with node 4's address. Then the routes go. The replay
 *	does not echo node 5's new incarnation: node 5 may act on it (a
 *	heartbeat) but must not pin the old life; it must take node 4's
 *	current life when it hears it, and publish no failure. Before the
 *	fix it pinned the old life, took node 4's next heartbeat for a
 *	restart, and declared node 4 dead.
 *
 * clock_back (issue 10 item 2): incarnations come from the wall clock,
 *	which may step back across a reboot (an RTC behind before NTP). The
 *	guest's clock is set back one hour; node 5 dies, its death is known,
 *	and it comes back with an incarnation an hour below the one the
 *	members hold dead. A member tells it the life it knows (the echo of a
 *	HELLO), node 5 lives on above it, and every member publishes one
 *	joined event for it; no live node dies. The clock is put back after.
 *	Before the fix node 5's datagrams were dropped as stale everywhere
 *	and it never came back. Since the module never gives a life below
 *	one it gave (ftnl_new_incarnation()), the clock set back within one
 *	boot no longer makes node 5's new life smaller; a node of another
 *	machine may still come back below a life a member knew (its RTC
 *	behind, no state file), which is what comes next: node 12 (which
 *	sends node 5 nothing in normal times) tells node 5, in a datagram
 *	MAC'ed with the cluster key, that it knew a life of node 5 an hour
 *	later than the one it lives. Node 5 renews above it, and the members
 *	that pinned its current life (every one) take the new one as the
 *	same life renamed: no survivor publishes a death of node 5, it stays
 *	alive everywhere, and its observer knows it by its new name. Before
 *	that rule its observer took the new name for a restart and every
 *	member published the death of a node that never stopped.
 *
 * Time margins as in ring_restart.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "st_vcluster.h"
#include "wire.h"		/* kmod/wire.h: the datagram types */
#include "ksft.h"

#define N		16
#define CLUSTER		0x726a		/* "rj" */
#define H_US		(100000u * st_time_scale())	/* h = 100 ms, scaled */
#define D_US		(1000000u * st_time_scale())	/* d = 1 s, scaled */
#define MARGIN_NS	(250000000ull * st_time_scale())
#define ARP_NS		1000000000ull
#define NODE		5
#define EMITTER		4
#define OBSERVER	6
#define VICTIM_PEER	7	/* receives node 6's broadcast directly */
#define FORWARDER	12	/* sends node 7 nothing in normal times */
#define FORGED_SEQ	2000000000ull
/*
 * The ring once node 5 is back, from the last member's joined event. Node
 * 6 repeats its NEW_OBSERVER to node 4 each h after it took node 4 as its
 * emitter, until node 4's heartbeat counts and once more then
 * (ftnl_ring_det_renew()); the last one can leave just before node 6
 * hears of node 5 and reach node 4 after node 5's own took over. D does
 * not allow it there (node 5 lives between them): a claim, which node 6
 * no longer renews and node 4 honours for FTNL_RING_CLAIM_HOLD = 4d
 * after it arrived, ended at its next tick (h later at most) - two
 * observer flags at node 4 until then (Documentation/ring.rst, "A claim
 * ends when nobody makes it any more"). Plus the transit of that
 * datagram, ARP_NS at most. 2d, all that node 5's new observer itself
 * needs, failed about one run in ten on the 6.12 VM, the ring settling
 * 4.1 s after the joined events.
 */
#define REJOINED_RING_NS	(4 * D_US * 1000ull + H_US * 1000ull + ARP_NS + \
				 MARGIN_NS)

FIXTURE(rejoin) {
	struct st_vc vc;
	char dir[64];
	bool clock_back;	/* the wall clock was set back an hour */
};

FIXTURE_SETUP(rejoin)
{
	char why[256] = "";

	ASSERT_EQ(0, st_vc_init(&self->vc, N, CLUSTER, H_US, D_US));
	ASSERT_EQ(0, st_vc_configure_all(&self->vc));
	ASSERT_EQ(0, st_vc_wait_settled(&self->vc, 10000, why, sizeof(why))) {
		TH_LOG("cluster did not settle: %s", why);
	}
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	ASSERT_EQ(0u, self->vc.nevents);
}

/* CLOCK_REALTIME moved by @delta_s seconds (negative: back). */
static int step_clock(long delta_s)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts))
		return -1;
	ts.tv_sec += delta_s;
	return clock_settime(CLOCK_REALTIME, &ts);
}

FIXTURE_TEARDOWN(rejoin)
{
	char path[128];

	st_vc_fini(&self->vc);
	if (self->clock_back && step_clock(3600))
		TH_LOG("cannot put the wall clock forward again");
	if (self->dir[0]) {
		snprintf(path, sizeof(path), "%s/death", self->dir);
		unlink(path);
		strcat(path, ".ready");
		unlink(path);
		rmdir(self->dir);
	}
}

/*
 * Node 5 dies (its namespace goes): every other node of @live publishes
 * its death within the detection bound, and the ring closes without it.
 * @live no longer holds node 5.
 */
static void kill_node_known(struct __test_metadata *_metadata,
			    struct st_vc *vc, bool *live)
{
	char why[256] = "";
	uint64_t t_kill;
	uint32_t id;

	ASSERT_EQ(0, st_vc_kill(vc, NODE, &t_kill));
	live[NODE] = false;
	for (id = 1; id <= N; id++) {
		if (!live[id])
			continue;
		ASSERT_EQ(0, st_vc_wait_event(vc, id, NODE, 1,
					      t_kill + 2 * (D_US * 1000ull + MARGIN_NS) +
					      4 * MARGIN_NS)) {
			TH_LOG("node %u did not learn of node 5's death", id);
		}
	}
	ASSERT_EQ(0, st_vc_wait_ring(vc, live,
				     (2 * D_US * 1000ull + MARGIN_NS) / 1000000,
				     why, sizeof(why))) {
		TH_LOG("ring without node 5: %s", why);
	}
}

TEST_F_TIMEOUT(rejoin, auto_and_late_broadcast, 120)
{
	bool live[ST_VC_MAX_NODES + 1] = { false };
	char why[256] = "", death[96], key[2 * FTNL_KEY_LEN + 1];
	char addr[16], seq[24], poke[48], fwd[12], fwd_inc[24];
	uint64_t inc_old, inc_new, t_back, last = 0;
	struct ftnl_stats s0, s;
	size_t i, nbefore;
	uint32_t id;
	pid_t pid;

	for (i = 0; i < FTNL_KEY_LEN; i++)
		snprintf(key + 2 * i, 3, "%02x", st_vc_key()[i]);
	for (id = 1; id <= N; id++)
		live[id] = true;
	inc_old = st_vc_incarnation(&self->vc, NODE);
	ASSERT_NE(0u, inc_old);

	/* Capture node 6's broadcast of the death to node 7, for the end. */
	snprintf(self->dir, sizeof(self->dir), "/tmp/ftnl-rejoin.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(death, sizeof(death), "%s/death", self->dir);
	pid = st_vc_capture(&self->vc, death, VICTIM_PEER, 4, VICTIM_PEER,
			    OBSERVER, 1);
	ASSERT_LT(0, pid);

	kill_node_known(_metadata, &self->vc, live);
	ASSERT_EQ(0, st_wait_pid(pid, 30000));
	nbefore = self->vc.nevents;
	ASSERT_EQ(0u, st_vc_count_joins(&self->vc, 0, 0));

	/* A reboot: a new incarnation, the same configuration, no admin. */
	ASSERT_EQ(0, st_vc_revive(&self->vc, NODE));
	t_back = st_mono_ns();
	ASSERT_EQ(0, st_vc_configure(&self->vc, NODE));
	inc_new = st_vc_incarnation(&self->vc, NODE);
	EXPECT_LT(inc_old, inc_new);
	live[NODE] = true;

	for (id = 1; id <= N; id++) {
		const struct st_vc_event *j = NULL;

		if (id == NODE)
			continue;
		ASSERT_EQ(0, st_vc_wait_joins(&self->vc, id, NODE, 1,
					      t_back + ARP_NS + 2 * D_US * 1000ull +
					      8 * MARGIN_NS)) {
			TH_LOG("node %u published no joined event for node 5", id);
		}
		for (i = 0; i < self->vc.njoins; i++)
			if (self->vc.joins[i].at == id)
				j = &self->vc.joins[i];
		EXPECT_EQ(inc_new, j->f.incarnation);
		if (j->f.time_mono_ns > last)
			last = j->f.time_mono_ns;
	}
	TH_LOG("rejoin: node 5 configured to the last member's joined event: %.1f ms",
	       (last - t_back) / 1e6);
	ASSERT_EQ(0, st_vc_wait_ring(&self->vc, live,
				     REJOINED_RING_NS / 1000000,
				     why, sizeof(why))) {
		TH_LOG("ring with node 5 back: %s", why);
	}
	for (id = 1; id <= N; id++) {
		if (id == NODE)
			continue;
		EXPECT_EQ(FTNL_NODE_STATE_ALIVE, st_vc_state_at(&self->vc, id, NODE, NULL)) {
			TH_LOG("node %u does not hold node 5 alive", id);
		}
	}

	/* The late broadcast about the previous life. */
	ASSERT_EQ(0, st_vc_stats(&self->vc, VICTIM_PEER, &s0));
	snprintf(seq, sizeof(seq), "%llu", FORGED_SEQ);
	snprintf(poke, sizeof(poke), "16:%016llx", FORGED_SEQ);
	/*
	 * Forwarded by node 12, which sends node 7 nothing else: the forged
	 * sequence number moves only node 7's replay window for node 12.
	 * From node 12's address and port (IP_TRANSPARENT, in an outsider's
	 * netns: node 1's own socket holds the port in its netns): node 7
	 * checks the source against its node table.
	 */
	snprintf(fwd, sizeof(fwd), "%u", FORWARDER);
	snprintf(fwd_inc, sizeof(fwd_inc), "%" PRIu64,
		 st_vc_incarnation(&self->vc, FORWARDER));
	{
		const char *a[] = { "send",
				    st_vc_addr(VICTIM_PEER, addr, sizeof(addr)),
				    "7600", "--from", death, "--sender", fwd,
				    "--inc", fwd_inc, "--seq", seq,
				    "--poke", poke, "--key", key,
				    "--as-sender", "10.99.0.0:7600", NULL };

		ASSERT_EQ(0, st_vc_add_outsider(&self->vc));
		ASSERT_EQ(0, st_vc_forge(&self->vc, ST_VC_OUTSIDER_HOST, a));
	}
	for (i = 0; i < 100; i++) {
		st_msleep(20);
		ASSERT_EQ(0, st_vc_stats(&self->vc, VICTIM_PEER, &s));
		if (s.bcast_delivered > s0.bcast_delivered)
			break;
	}
	EXPECT_LT(s0.bcast_delivered, s.bcast_delivered) {
		TH_LOG("node 7 did not take the late broadcast (drops type %" PRIu64
		       " replay %" PRIu64 " source %" PRIu64 ")",
		       s.drops[FTNL_DROP_TYPE], s.drops[FTNL_DROP_REPLAY],
		       s.drops[FTNL_DROP_SOURCE]);
	}
	st_msleep(3 * D_US / 1000);
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	for (i = nbefore; i < self->vc.nevents; i++)
		TH_LOG("unexpected event at node %u about node %u (%s)",
		       self->vc.events[i].at, self->vc.events[i].f.node_id,
		       ftnl_event_cause_name(self->vc.events[i].f.cause));
	EXPECT_EQ(nbefore, self->vc.nevents);
	for (id = 1; id <= N; id++) {
		if (id == NODE)
			continue;
		EXPECT_EQ(FTNL_NODE_STATE_ALIVE, st_vc_state_at(&self->vc, id, NODE, NULL)) {
			TH_LOG("node %u killed node 5 again", id);
		}
	}
	EXPECT_EQ((size_t)(N - 1), st_vc_count_joins(&self->vc, 0, NODE));
}

/* Every member but node 5 routes node 5's address to a blackhole, or not. */
static int cut_off(struct st_vc *vc, uint32_t node, bool cut)
{
	uint32_t id;
	int err;

	for (id = 1; id <= N; id++) {
		if (id == node)
			continue;
		err = st_vc_sh(vc, id, "ip route %s blackhole 10.99.0.%u/32",
			       cut ? "add" : "del", node);
		if (err)
			return err;
	}
	return 0;
}

TEST_F_TIMEOUT(rejoin, cold_replay, 120)
{
	bool live[ST_VC_MAX_NODES + 1] = { false };
	char why[256] = "", old_hb[96];
	const char *a[] = { "replay", "10.99.0.5", "7600", old_hb, "--src",
			    "10.99.0.4:7600", NULL };
	uint64_t inc4, inc, t_kill, t_back, deadline;
	struct ftnl_stats s0, s;
	size_t i, nbefore;
	uint32_t id;
	pid_t pid;

	for (id = 1; id <= N; id++)
		live[id] = true;
	ASSERT_EQ(0, st_vc_add_outsider(&self->vc));
	snprintf(self->dir, sizeof(self->dir), "/tmp/ftnl-rejoin.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(old_hb, sizeof(old_hb), "%s/death", self->dir);
	pid = st_vc_capture(&self->vc, old_hb, NODE, FTNL_MSG_HEARTBEAT, NODE,
			    EMITTER, 1);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, st_wait_pid(pid, 30000));

	/* Node 4 restarts: that heartbeat is now of a previous life. */
	ASSERT_EQ(0, st_vc_kill(&self->vc, EMITTER, &t_kill));
	ASSERT_EQ(0, st_vc_revive(&self->vc, EMITTER));
	t_back = st_mono_ns();
	ASSERT_EQ(0, st_vc_configure(&self->vc, EMITTER));
	inc4 = st_vc_incarnation(&self->vc, EMITTER);
	for (id = 1; id <= N; id++) {
		if (id == EMITTER)
			continue;
		ASSERT_EQ(0, st_vc_wait_joins(&self->vc, id, EMITTER, 1,
					      t_back + ARP_NS + 2 * D_US * 1000ull +
					      8 * MARGIN_NS)) {
			TH_LOG("node %u published no joined event for node 4", id);
		}
	}

	/* Node 5 dies, and everybody knows it. */
	kill_node_known(_metadata, &self->vc, live);

	/* Back, and cut off: it hears nobody but the replay. */
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	nbefore = self->vc.nevents;
	ASSERT_EQ(0, cut_off(&self->vc, NODE, true));
	ASSERT_EQ(0, st_vc_revive(&self->vc, NODE));
	ASSERT_EQ(0, st_vc_configure(&self->vc, NODE));
	live[NODE] = true;
	ASSERT_EQ(0, st_vc_stats(&self->vc, NODE, &s0));
	ASSERT_EQ(0, st_vc_forge(&self->vc, ST_VC_OUTSIDER_HOST, a));
	/*
	 * Sent: it is ahead of anything node 4 sends from now on. The cut
	 * ends at once, well within d of node 5's start (its emitter's first
	 * heartbeat must come in time).
	 */
	ASSERT_EQ(0, cut_off(&self->vc, NODE, false));
	deadline = st_mono_ns() + 5000000000ull;
	do {
		st_msleep(20);
		ASSERT_EQ(0, st_vc_stats(&self->vc, NODE, &s));
	} while (s.hb_recv == s0.hb_recv && st_mono_ns() < deadline);
	/*
	 * Received (hb_recv counts it), but not proven fresh: it pins
	 * nothing, and moves no deadline (ftnl_ring_core_heartbeat()).
	 */
	EXPECT_LT(s0.hb_recv, s.hb_recv);

	/* Node 4's real heartbeats reach it: its current life, no death. */
	EXPECT_EQ(0, st_vc_wait_ring(&self->vc, live,
				     (ARP_NS + 2 * D_US * 1000ull + 4 * MARGIN_NS) / 1000000,
				     why, sizeof(why))) {
		struct ftnl_node_table t;

		TH_LOG("ring with node 5 back: %s", why);
		for (id = 3; id <= 6 && !st_vc_list(&self->vc, id, &t); id++) {
			for (i = 0; i < t.count; i++)
				if (t.nodes[i].id >= 3 && t.nodes[i].id <= 6)
					TH_LOG("at node %u: node %u %s inc %" PRIu64 " e %d o %d",
					       id, t.nodes[i].id,
					       ftnl_node_state_name(t.nodes[i].state),
					       t.nodes[i].incarnation,
					       t.nodes[i].emitter, t.nodes[i].observer);
			ftnl_node_table_free(&t);
		}
	}
	deadline = st_mono_ns() + 2 * D_US * 1000ull + MARGIN_NS;
	while (st_mono_ns() < deadline)
		ASSERT_LE(0, st_vc_poll_events(&self->vc, 50));
	for (i = nbefore; i < self->vc.nevents; i++) {
		const struct st_vc_event *e = &self->vc.events[i];

		TH_LOG("event at node %u about node %u (%s, life %" PRIu64
		       ", observer %u; node 4 lives %" PRIu64 ")", e->at,
		       e->f.node_id, ftnl_event_cause_name(e->f.cause),
		       e->f.incarnation, e->f.observer_id, inc4);
	}
	EXPECT_EQ(nbefore, self->vc.nevents);
	EXPECT_EQ(FTNL_NODE_STATE_ALIVE,
		  st_vc_state_at(&self->vc, NODE, EMITTER, &inc));
	EXPECT_EQ(inc4, inc);
	/*
	 * Broadcasts of before its restart that reach it (a neighbour's ARP
	 * queue delivers them when it answers again) are old news.
	 */
	ASSERT_EQ(0, st_vc_stats(&self->vc, NODE, &s));
	TH_LOG("node 5: old death news held %" PRIu64 ", stale %" PRIu64,
	       s.news_held, s.news_stale);
}

TEST_F_TIMEOUT(rejoin, clock_back, 120)
{
	bool live[ST_VC_MAX_NODES + 1] = { false };
	uint64_t inc_old, inc_new, t_back, inc12, inc_renewed, inc, deadline;
	char why[256] = "", key[2 * FTNL_KEY_LEN + 1], echo[24], seq[24];
	char addr[16], fwd[12], fwd_inc[24], cluster[12], node[12];
	size_t i, nbefore;
	uint32_t id;

	for (id = 1; id <= N; id++)
		live[id] = true;
	inc_old = st_vc_incarnation(&self->vc, NODE);
	kill_node_known(_metadata, &self->vc, live);
	nbefore = self->vc.nevents;

	/* A reboot with the wall clock an hour behind. */
	ASSERT_EQ(0, step_clock(-3600));
	self->clock_back = true;
	ASSERT_EQ(0, st_vc_revive(&self->vc, NODE));
	t_back = st_mono_ns();
	ASSERT_EQ(0, st_vc_configure(&self->vc, NODE));
	live[NODE] = true;

	for (id = 1; id <= N; id++) {
		if (id == NODE)
			continue;
		EXPECT_EQ(0, st_vc_wait_joins(&self->vc, id, NODE, 1,
					      t_back + ARP_NS + 4 * D_US * 1000ull +
					      8 * MARGIN_NS)) {
			TH_LOG("node %u published no joined event for node 5", id);
		}
	}
	inc_new = st_vc_incarnation(&self->vc, NODE);
	EXPECT_LT(inc_old, inc_new);
	EXPECT_EQ(0, st_vc_wait_ring(&self->vc, live,
				     REJOINED_RING_NS / 1000000,
				     why, sizeof(why))) {
		TH_LOG("ring with node 5 back: %s", why);
	}
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	for (i = nbefore; i < self->vc.nevents; i++)
		TH_LOG("unexpected event at node %u about node %u (%s)",
		       self->vc.events[i].at, self->vc.events[i].f.node_id,
		       ftnl_event_cause_name(self->vc.events[i].f.cause));
	EXPECT_EQ(nbefore, self->vc.nevents);

	/* A member knew a later life of node 5: it renews, and lives on. */
	nbefore = self->vc.nevents;
	for (i = 0; i < FTNL_KEY_LEN; i++)
		snprintf(key + 2 * i, 3, "%02x", st_vc_key()[i]);
	snprintf(echo, sizeof(echo), "%" PRIu64,
		 (uint64_t)(inc_new + 3600000000000ull));
	snprintf(fwd, sizeof(fwd), "%u", FORWARDER);
	inc12 = st_vc_incarnation(&self->vc, FORWARDER);
	snprintf(fwd_inc, sizeof(fwd_inc), "%" PRIu64, inc12);
	snprintf(seq, sizeof(seq), "%llu", FORGED_SEQ);
	{
		const char *a[] = { "send",
				    st_vc_addr(NODE, addr, sizeof(addr)), "7600",
				    "--cluster", cluster, "--sender", fwd,
				    "--dest", node, "--inc", fwd_inc,
				    "--first", fwd_inc, "--echo", echo,
				    "--seq", seq, "--key", key,
				    "--as-sender", "10.99.0.0:7600", NULL };

		snprintf(cluster, sizeof(cluster), "%u", CLUSTER);
		snprintf(node, sizeof(node), "%u", NODE);
		ASSERT_EQ(0, st_vc_add_outsider(&self->vc));
		ASSERT_EQ(0, st_vc_forge(&self->vc, ST_VC_OUTSIDER_HOST, a));
	}
	deadline = st_mono_ns() + 5000000000ull;
	do {
		st_msleep(20);
		inc_renewed = st_vc_incarnation(&self->vc, NODE);
	} while (inc_renewed <= inc_new + 3600000000000ull &&
		 st_mono_ns() < deadline);
	ASSERT_LT(inc_new + 3600000000000ull, inc_renewed) {
		TH_LOG("node 5 did not renew its life above the one echoed");
	}
	TH_LOG("node 5 renewed: %" PRIu64 " -> %" PRIu64, inc_new, inc_renewed);
	deadline = st_mono_ns() + 3 * D_US * 1000ull + 4 * MARGIN_NS;
	while (st_mono_ns() < deadline)
		ASSERT_LE(0, st_vc_poll_events(&self->vc, 50));
	for (i = nbefore; i < self->vc.nevents; i++)
		TH_LOG("event at node %u about node %u (%s, life %" PRIu64 ")",
		       self->vc.events[i].at, self->vc.events[i].f.node_id,
		       ftnl_event_cause_name(self->vc.events[i].f.cause),
		       self->vc.events[i].f.incarnation);
	EXPECT_EQ(nbefore, self->vc.nevents) {
		TH_LOG("a survivor published a death after node 5 renewed its life");
	}
	for (id = 1; id <= N; id++) {
		if (id == NODE)
			continue;
		EXPECT_EQ(FTNL_NODE_STATE_ALIVE,
			  st_vc_state_at(&self->vc, id, NODE, &inc)) {
			TH_LOG("node %u does not hold node 5 alive", id);
		}
		if (id == OBSERVER)
			EXPECT_EQ(inc_renewed, inc) {
				TH_LOG("its observer knows node 5 as %" PRIu64, inc);
			}
	}
	EXPECT_EQ(0, st_vc_wait_ring(&self->vc, live,
				     (2 * D_US * 1000ull + MARGIN_NS) / 1000000,
				     why, sizeof(why))) {
		TH_LOG("ring after node 5 renewed: %s", why);
	}
}

TEST_HARNESS_MAIN
