// SPDX-License-Identifier: GPL-2.0
/*
 * The local health rule (Documentation/ring.rst, "Local health"): a node
 * whose own timers ran late is no judge of its emitter's silence.
 *
 * A 5-node cluster (st_vcluster.h), h = 50 ms, d = 400 ms: node 3 observes
 * node 2 and is observed by node 4. The module's test-only parameter
 * test_stall_ms makes one node's ring run as if its CPU stalled: its
 * timers wait for the end of the stall (and then run late), the datagrams
 * it receives meanwhile are not read, and the last heartbeat among them
 * is read only after its suspicion timer ran - the order of a CPU whose
 * receive softirq waits behind ksoftirqd. Each round, the two neighbours
 * stall one after the other, each within the detector's bound:
 *
 *   t = 0      node 2 stalls for 300 ms (< d - h: node 3, its observer,
 *              would not suspect it for that alone);
 *   t = 250    node 3 stalls until D + h/2, D being its deadline for node
 *              2 (node 2's last heartbeat read before the round, from
 *              node 3's dump, + d): 125 to 175 ms, so its own heartbeats
 *              reach node 4 within h + 175 ms < d, and its heartbeat
 *              timer runs more than h late.
 *
 * Node 2's first heartbeat after its stall arrives while node 3 is
 * stalled. When node 3 resumes, its suspicion timer runs h/2 past the
 * deadline: too little for the old guard (more than h), so without the
 * local health rule node 3 declares node 2 dead before it reads that
 * heartbeat. With the rule, its late heartbeat timer makes it wait h; it
 * reads the heartbeat and nobody dies. Over ROUNDS rounds 2 s apart (a
 * round that the host delayed past its timing is not run, and tried
 * again, MAX_TRIES in all):
 *
 *   - no failure event at any node (node 3 declares no one dead, and
 *     neither stall is long enough for anyone to declare node 2 or 3
 *     dead);
 *   - node 3's stall_waits counter rose (at least once per round but
 *     those whose timing a loaded host moved out of the window: logged),
 *     and its suspicions did not;
 *   - the ring is intact at the end.
 *
 * Measured on 6.1 with the rule removed from kmod/ring/core.c: node 3
 * declared node 2 dead in the first round.
 *
 * The rule for a node's judgement of itself (starved_through_round_close):
 * node 3's receive path is cut (an nft input-drop rule on ftnl's port in
 * its netns, as in ring_deaf), so it hears nothing from node 2 and,
 * (d - h)/2 before its deadline, probes; none of the answers reach it. 150 ms
 * before that round closes (2d after the probe began, which the test
 * sees in node 3's counters, polled every 5 ms), node 3 stalls for
 * 300 ms (< d - h: node 4 does not suspect it), and its receive path is
 * given back (nft takes hundreds of ms in the guest: after the stall).
 * When it runs again its timer finds the round closed unanswered, 150 ms
 * late: with the rule it asks again for 2d, hears node 2 again and stays
 * a member; without it, it resigns as deaf and its observer publishes
 * its death. Checked: no failure event anywhere, node 3 still
 * heartbeats, its stall_waits rose and its suspicions did not, the ring
 * intact. Measured on 6.1 with the module built without the rule's
 * self-judgement part: node 3 resigned at its stall's end and every other
 * node learned its death.
 *
 * Junk on the link is no drop (junk_frames_are_no_drops): frames of an
 * unknown EtherType sent to node 3's eth0 are dropped by its stack and
 * counted in that device's rx_dropped, as a full backlog's drops are;
 * node 3's host rx drops must not count them while the host's backlogs
 * dropped nothing. Measured with the module counting the devices' drops
 * alone: node 3 counted all 64.
 *
 * The nft input chain is made before the cluster starts (in the VM's own
 * netns, holding the netfilter hook key on; see ring_deaf.c): creating it
 * under the ring's traffic patches kernel text.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <linux/if_packet.h>
#include <sched.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "st_vcluster.h"
#include "ksft.h"

#define N		5
#define CLUSTER		0x6c68		/* "lh" */
#define SCALE		st_time_scale()
#define H_MS		(50u * SCALE)
#define D_MS		(400u * SCALE)
#define EMITTER		2
#define ACCUSER		3
#define W_STALL_MS	(300u * SCALE)
#define X_START_MS	(250u * SCALE)
#define ROUNDS		5
#define MAX_TRIES	10
#define PARAM		"/sys/module/ftnl/parameters/test_stall_ms"
#define ROUND_STALL_AT_MS	(150u * SCALE)
#define ROUND_STALL_MS	(300u * SCALE)
/* IEEE 802 local experimental: no protocol of the guest takes it. */
#define ETHERTYPE_UNKNOWN	0x88b5
#define NFT_HOLD_KEY	"nft 'add table inet ftnl_health_key; " \
			"add chain inet ftnl_health_key input " \
			"{ type filter hook input priority 0; }'"

FIXTURE(health) {
	struct st_vc vc;
	int param;
};

FIXTURE_SETUP(health)
{
	char why[512] = "";

	ASSERT_EQ(0, system("command -v nft >/dev/null")) {
		TH_LOG("nft is missing in the guest: run 'make setup' (nftables)");
	}
	ASSERT_EQ(0, system(NFT_HOLD_KEY)) {
		TH_LOG("cannot create the nft input chain that holds the hook key");
	}
	self->param = open(PARAM, O_WRONLY);
	ASSERT_LE(0, self->param) {
		TH_LOG("%s: %s (a module without the test stall)", PARAM,
		       strerror(errno));
	}
	ASSERT_EQ(0, st_vc_start(&self->vc, N, CLUSTER, H_MS * 1000, D_MS * 1000,
				 10000, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
}

FIXTURE_TEARDOWN(health)
{
	if (self->param >= 0)
		close(self->param);
	st_vc_fini(&self->vc);
	/* Nothing flows any more: turning the key off patches safely. */
	if (system("nft delete table inet ftnl_health_key"))
		TH_LOG("cannot delete the nft table ftnl_health_key");
}

/* Stall node @id's ring for @ms ms: the write acts in the writer's netns. */
static int stall(struct st_vc *vc, int param, uint32_t id, unsigned int ms)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", ms), err = 0;

	if (setns(vc->node[id].ns, CLONE_NEWNET))
		return -errno;
	if (pwrite(param, buf, (size_t)len, 0) != len)
		err = -errno;
	if (setns(vc->root_ns, CLONE_NEWNET) && !err)
		err = -errno;
	return err;
}

/* When node @at last read a heartbeat of its emitter @of (st_mono_ns()). */
static int last_heartbeat(struct st_vc *vc, uint32_t at, uint32_t of,
			  uint64_t *when)
{
	struct ftnl_node_table t;
	const struct ftnl_node *e;
	uint64_t now = st_mono_ns();
	int err = st_vc_list(vc, at, &t);

	if (err)
		return err;
	e = st_vc_entry(&t, of);
	if (!e || !e->emitter || !e->has_hb_age)
		err = -ENOENT;
	else
		*when = now - e->hb_age_us * 1000;
	ftnl_node_table_free(&t);
	return err;
}

TEST_F_TIMEOUT(health, starved_accuser_waits, 120)
{
	const uint64_t ms = 1000000;
	bool live[ST_VC_MAX_NODES + 1] = { false };
	struct ftnl_stats before, after;
	unsigned int r, tries, waited = 0;
	char why[256] = "";
	uint32_t id;

	ASSERT_EQ(0, st_vc_stats(&self->vc, ACCUSER, &before));
	for (r = 1, tries = 0; r <= ROUNDS && tries < MAX_TRIES; tries++) {
		uint64_t last = 0, t0, deadline, end, now;
		struct ftnl_stats s0, s1;

		ASSERT_EQ(0, st_vc_stats(&self->vc, ACCUSER, &s0));
		ASSERT_EQ(0, last_heartbeat(&self->vc, ACCUSER, EMITTER, &last));
		ASSERT_EQ(0, stall(&self->vc, self->param, EMITTER, W_STALL_MS));
		t0 = st_mono_ns();
		deadline = last + (uint64_t)D_MS * ms;
		end = deadline + (uint64_t)H_MS * ms / 2;
		st_msleep(X_START_MS);
		now = st_mono_ns();
		/*
		 * Node 2's heartbeats resume at t0 + 300 ms: node 3 must be
		 * stalled by then, and for more than h. A host that delayed
		 * this process past that spoils the round: try again.
		 */
		if (now + 10 * ms > t0 + (uint64_t)W_STALL_MS * ms ||
		    end < now + (uint64_t)H_MS * ms) {
			TH_LOG("try %u: woke %.1f ms after node 2's stall began: round not run",
			       tries + 1, (now - t0) / 1e6);
			st_msleep(2000);
			continue;
		}
		ASSERT_EQ(0, stall(&self->vc, self->param, ACCUSER,
				   (unsigned int)((end - now) / ms)));
		/* Both stalls, the rule's h, and room. */
		st_msleep(2000);
		ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
		ASSERT_EQ(0, st_vc_stats(&self->vc, ACCUSER, &s1));
		TH_LOG("round %u: node 3 last heard node 2 %.1f ms before node 2's stall, stalled %.1f ms after it for %.1f ms; stall waits +%" PRIu64 ", suspicions +%" PRIu64,
		       r, (t0 - last) / 1e6, (now - t0) / 1e6,
		       (end - now) / 1e6, s1.stall_waits - s0.stall_waits,
		       s1.suspicions - s0.suspicions);
		if (s1.stall_waits > s0.stall_waits)
			waited++;
		ASSERT_EQ(0u, self->vc.nevents) {
			const struct st_vc_event *e = &self->vc.events[0];

			TH_LOG("round %u: node %u published node %u dead (cause %s, observer %u)",
			       r, e->at, e->f.node_id,
			       ftnl_event_cause_name(e->f.cause),
			       e->f.observer_id);
			ST_VC_LOG_STALL(&self->vc);
		}
		r++;
	}
	ASSERT_EQ(0, st_vc_stats(&self->vc, ACCUSER, &after));
	TH_LOG("node 3: stall waits %" PRIu64 " -> %" PRIu64 " (%u of %u rounds run, %u tries), suspicions %" PRIu64 " -> %" PRIu64,
	       before.stall_waits, after.stall_waits, waited, r - 1, tries,
	       before.suspicions, after.suspicions);
	EXPECT_EQ(before.suspicions, after.suspicions);
	ASSERT_LT(1u, r) {
		TH_LOG("no round could run in %u tries: the host delayed every one",
		       tries);
	}
	EXPECT_LE(1u, waited);
	for (id = 1; id <= N; id++)
		live[id] = true;
	EXPECT_TRUE(st_vc_ring_check(&self->vc, live, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
}

TEST_F_TIMEOUT(health, starved_through_round_close, 120)
{
	const uint64_t ms = 1000000;
	bool live[ST_VC_MAX_NODES + 1] = { false };
	struct ftnl_stats s0, s1, s2, now;
	uint64_t cut, before = 0, probed = 0, close, t;
	char why[256] = "";
	uint32_t id;

	ASSERT_EQ(0, st_vc_stats(&self->vc, ACCUSER, &s0));
	ASSERT_EQ(0, st_vc_sh(&self->vc, ACCUSER,
			      "nft 'add table inet ftnl_health; "
			      "add chain inet ftnl_health input "
			      "{ type filter hook input priority 0; }; "
			      "add rule inet ftnl_health input udp dport %u drop'",
			      ST_VC_PORT));
	cut = st_mono_ns();
	/* Its probe starts (d - h)/2 before its deadline, between polls. */
	for (t = cut; t < cut + 2000 * ms; t = st_mono_ns()) {
		ASSERT_EQ(0, st_vc_stats(&self->vc, ACCUSER, &now));
		if (now.probe_req_sent > s0.probe_req_sent) {
			probed = st_mono_ns();
			break;
		}
		before = t;
		st_msleep(5);
	}
	ASSERT_NE(0u, probed) {
		TH_LOG("node 3 sent no probe request within 2 s of the cut");
	}
	/*
	 * The round closes 2d after the probe began, at the latest @close,
	 * and ROUND_STALL_AT_MS - 30 ms before it at the earliest: the stall
	 * then still begins before the close and ends more than h after it.
	 * A host that delayed the polls more than that leaves nothing to
	 * test: skipped, not failed (node 3 then resigns, as it must).
	 */
	close = probed + 2 * (uint64_t)D_MS * ms;
	if (probed - before >= (ROUND_STALL_AT_MS - 30) * ms)
		SKIP(return, "the probe began somewhere in %.1f ms: too vague to stall across its close",
		     (probed - before) / 1e6);
	t = st_mono_ns();
	if (t < close - ROUND_STALL_AT_MS * ms)
		st_msleep((unsigned int)((close - ROUND_STALL_AT_MS * ms - t) / ms));
	t = st_mono_ns();
	ASSERT_EQ(0, stall(&self->vc, self->param, ACCUSER, ROUND_STALL_MS));
	/*
	 * Back after the stall, when it would have resigned, within the 2d
	 * more. Not before: a heartbeat of its emitter waiting unread when
	 * it resumes moves its deadline, and no round closes unanswered.
	 */
	st_msleep(ROUND_STALL_MS + 10 * SCALE);
	ASSERT_EQ(0, st_vc_sh(&self->vc, ACCUSER, "nft delete table inet ftnl_health"));
	TH_LOG("probe seen %.1f ms after the cut (began after %.1f); stalled %.1f ms before its close for %u ms; receive path back %.1f ms after the close",
	       (probed - cut) / 1e6, (before - cut) / 1e6, ((int64_t)close - (int64_t)t) / 1e6,
	       ROUND_STALL_MS, ((int64_t)st_mono_ns() - (int64_t)close) / 1e6);
	if (t + (probed - before) >= close)
		SKIP(return, "the host delayed this process past the round's close: nothing tested");
	/* The extended round (2d), and room. */
	st_msleep(3 * D_MS);
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	ASSERT_EQ(0, st_vc_stats(&self->vc, ACCUSER, &s1));
	st_msleep(4 * H_MS);
	ASSERT_EQ(0, st_vc_stats(&self->vc, ACCUSER, &s2));
	TH_LOG("node 3: probe requests sent +%" PRIu64 ", answers received +%" PRIu64 ", stall waits +%" PRIu64 ", suspicions +%" PRIu64,
	       s1.probe_req_sent - s0.probe_req_sent,
	       s1.probe_ack_recv - s0.probe_ack_recv,
	       s1.stall_waits - s0.stall_waits,
	       s1.suspicions - s0.suspicions);
	for (id = 1; id <= N; id++)
		live[id] = true;
	/*
	 * Still, the host may run node 3's close so late after its stall
	 * that its emitter's heartbeat is read first (make check on 6.1,
	 * once, with the path given back during the stall: no wait, no
	 * resignation, no event). The module before the rule would not have
	 * resigned either: nothing tested.
	 */
	if (s1.stall_waits == s0.stall_waits && !self->vc.nevents &&
	    s1.suspicions == s0.suspicions && s1.hb_sent < s2.hb_sent &&
	    st_vc_ring_check(&self->vc, live, why, sizeof(why)))
		SKIP(return, "node 3 heard its emitter before its round's close ran: nothing tested");
	EXPECT_EQ(0u, self->vc.nevents) {
		const struct st_vc_event *e = &self->vc.events[0];

		TH_LOG("node %u published node %u dead (cause %s, observer %u)",
		       e->at, e->f.node_id, ftnl_event_cause_name(e->f.cause),
		       e->f.observer_id);
		ST_VC_LOG_STALL(&self->vc);
	}
	EXPECT_LT(s0.stall_waits, s1.stall_waits);
	EXPECT_EQ(s0.suspicions, s1.suspicions);
	EXPECT_LT(s1.hb_sent, s2.hb_sent) {
		TH_LOG("node 3 no longer heartbeats: it resigned");
	}
	EXPECT_TRUE(st_vc_ring_check(&self->vc, live, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
}

/*
 * Frames anyone on the link can send make no drop for the local health
 * rule: the bridge sends node 3's eth0 DROP_FRAMES frames of an unknown
 * EtherType, which its stack drops (no protocol for them) and charges to
 * that device as a full input backlog's drops are. Counted as this
 * node's drops, they would hold its accusations d for a trickle of
 * junk (ring.c takes drops only when the host's backlog count rose with
 * its devices'). Node 3 counts none of them, unless the host's input
 * backlogs dropped something in the same window (an emulated guest's
 * may; /proc/net/softnet_stat says): then the count is only logged.
 */
#define DROP_FRAMES	64

/* The host's input backlog drops: softnet_stat's second column, summed. */
static uint64_t softnet_drops(void)
{
	FILE *f = fopen("/proc/net/softnet_stat", "r");
	unsigned int processed, dropped;
	uint64_t sum = 0;
	char line[512];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%x %x", &processed, &dropped) == 2)
			sum += dropped;
	fclose(f);
	return sum;
}

/* Node @id's eth0 rx_dropped, as ip(8) reads it in its netns. */
static int eth0_rx_dropped(struct st_vc *vc, uint32_t id, uint64_t *val)
{
	char out[4096];
	const char *rx, *dropped;
	size_t len;
	FILE *f;
	int err = -EIO;

	if (setns(vc->node[id].ns, CLONE_NEWNET))
		return -errno;
	f = popen("ip -s -j link show dev eth0", "r");
	if (f) {
		len = fread(out, 1, sizeof(out) - 1, f);
		out[len] = 0;
		rx = strstr(out, "\"rx\":{");
		dropped = rx ? strstr(rx, "\"dropped\":") : NULL;
		if (dropped &&
		    sscanf(dropped, "\"dropped\":%" SCNu64, val) == 1)
			err = 0;
		pclose(f);
	}
	if (setns(vc->root_ns, CLONE_NEWNET) && !err)
		err = -errno;
	return err;
}

TEST_F_TIMEOUT(health, junk_frames_are_no_drops, 60)
{
	struct sockaddr_ll to = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETHERTYPE_UNKNOWN),
		.sll_halen = ETH_ALEN,
	};
	uint64_t host0, host1, link0, link1;
	uint8_t frame[ETH_ZLEN] = { 0 };
	struct ftnl_stats a0, a1;
	char pif[IFNAMSIZ];
	unsigned int i;
	int sock;

	ASSERT_EQ(0, st_vc_stats(&self->vc, ACCUSER, &a0));
	host0 = softnet_drops();
	ASSERT_EQ(0, eth0_rx_dropped(&self->vc, ACCUSER, &link0)) {
		TH_LOG("cannot read node %u's eth0 rx_dropped with ip -s -j", ACCUSER);
	}
	st_vc_port_if(ACCUSER, pif, sizeof(pif));
	ASSERT_EQ(0, setns(self->vc.br_ns, CLONE_NEWNET));
	sock = socket(AF_PACKET, SOCK_RAW, 0);
	to.sll_ifindex = (int)if_nametoindex(pif);
	ASSERT_EQ(0, setns(self->vc.root_ns, CLONE_NEWNET));
	ASSERT_LE(0, sock) {
		TH_LOG("AF_PACKET socket: %s", strerror(errno));
	}
	ASSERT_NE(0, to.sll_ifindex);
	/* To node 3's eth0 (02:66:74:00:00:03), from nobody's address. */
	memcpy(frame, "\x02\x66\x74\x00\x00", 5);
	frame[5] = ACCUSER;
	memcpy(frame + ETH_ALEN, "\x02\x00\x00\x00\x00\xfe", ETH_ALEN);
	frame[2 * ETH_ALEN] = ETHERTYPE_UNKNOWN >> 8;
	frame[2 * ETH_ALEN + 1] = ETHERTYPE_UNKNOWN & 0xff;
	memcpy(to.sll_addr, frame, ETH_ALEN);
	for (i = 0; i < DROP_FRAMES; i++)
		ASSERT_EQ((ssize_t)sizeof(frame),
			  sendto(sock, frame, sizeof(frame), 0,
				 (struct sockaddr *)&to, sizeof(to)));
	close(sock);
	/* The ring reads the counts at its next heartbeat tick. */
	st_msleep(4 * H_MS);
	ASSERT_EQ(0, st_vc_stats(&self->vc, ACCUSER, &a1));
	host1 = softnet_drops();
	ASSERT_EQ(0, eth0_rx_dropped(&self->vc, ACCUSER, &link1));
	TH_LOG("node %u: eth0 rx_dropped +%" PRIu64 ", host rx drops +%" PRIu64 "; the host's backlogs +%" PRIu64,
	       ACCUSER, link1 - link0, a1.host_rx_drops - a0.host_rx_drops,
	       host1 - host0);
	/* The frames did reach the device, and were dropped there. */
	EXPECT_LE(link0 + DROP_FRAMES, link1);
	if (host1 == host0)
		EXPECT_EQ(a0.host_rx_drops, a1.host_rx_drops);
	/* Nobody accused anybody meanwhile. */
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	EXPECT_EQ(0u, self->vc.nevents);
}

TEST_HARNESS_MAIN
