// SPDX-License-Identifier: GPL-2.0
/*
 * The heartbeat path is marked for the network (Documentation/ring.rst,
 * "Datagrams on the wire"): ring datagrams (HEARTBEAT, NEW_OBSERVER,
 * LEAVE) carry DSCP CS6 (network control), so that a switch or a qdisc
 * honouring DSCP serves them before bulk traffic; broadcast datagrams
 * are best effort, so that a burst of failure notices never competes with
 * heartbeats in the same class.
 *
 * A 4-node cluster (st_vcluster.h, h = 50 ms, d = 500 ms): a packet socket
 * in the bridge's netns sees every frame the bridge delivers to a node,
 * as the network would. Then:
 *
 *   - steady ring: at least 20 heartbeats in 2 s (4 nodes, 20 each per
 *     second), and each one's IPv4 TOS byte has DSCP 48 (CS6, TOS 0xc0;
 *     the ECN bits are ignored); so has any NEW_OBSERVER or LEAVE seen
 *     (a NEW_OBSERVER is repeated once after the emitter is heard);
 *   - node 2 silenced: its observer (node 3) declares it dead, sends
 *     NEW_OBSERVER to node 1 and broadcasts the death: each NEW_OBSERVER
 *     carries CS6, no broadcast datagram (BCAST, GOSSIP) does.
 *
 * The frames are read as the wire carries them (link layer, IPv4 header,
 * UDP header, the ftnl header of kmod/wire.h), independent of the module.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "st_vcluster.h"
#include "ksft.h"
#include "wire.h"

#define N		4
#define CLUSTER		0x6473		/* "ds" */
#define H_US		(50000u * st_time_scale())	/* h = 50 ms */
#define D_US		(500000u * st_time_scale())	/* d = 500 ms */
#define DSCP_CS6	48
#define VICTIM		2

/* What the capture saw, per ftnl datagram type. */
struct dscp_seen {
	unsigned int frames[256];
	unsigned int cs6[256];
	unsigned int other_tos[256];	/* last TOS byte that was not CS6 */
};

FIXTURE(dscp) {
	struct st_vc vc;
	int sock;
};

FIXTURE_SETUP(dscp)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(ETH_P_ALL),
	};
	char why[256] = "";

	self->sock = -1;
	ASSERT_EQ(0, st_vc_init(&self->vc, N, CLUSTER, H_US, D_US));
	/* The socket lives in the bridge's netns; every port (ifindex 0). */
	ASSERT_EQ(0, setns(self->vc.br_ns, CLONE_NEWNET));
	self->sock = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	ASSERT_EQ(0, setns(self->vc.root_ns, CLONE_NEWNET));
	ASSERT_LE(0, self->sock) {
		TH_LOG("AF_PACKET socket: %s", strerror(errno));
	}
	ASSERT_EQ(0, bind(self->sock, (struct sockaddr *)&sll, sizeof(sll)));
	ASSERT_EQ(0, st_vc_configure_all(&self->vc));
	ASSERT_EQ(0, st_vc_wait_settled(&self->vc, 10000, why, sizeof(why))) {
		TH_LOG("cluster did not settle: %s", why);
	}
}

FIXTURE_TEARDOWN(dscp)
{
	if (self->sock >= 0)
		close(self->sock);
	st_vc_fini(&self->vc);
}

/* Drop what the socket queued so far (frames before the phase). */
static void drain(int sock)
{
	uint8_t frame[2048];

	while (recv(sock, frame, sizeof(frame), MSG_DONTWAIT) > 0)
		;
}

/*
 * Read frames for @ms milliseconds; count the ftnl datagrams to the
 * cluster's port that the bridge delivers (outgoing on a bridge port: each
 * datagram once), by type and TOS.
 */
static void capture(int sock, unsigned int ms, struct dscp_seen *seen)
{
	const uint64_t end = st_mono_ns() + (uint64_t)ms * 1000000;
	uint8_t frame[FTNL_WIRE_HDR_LEN + FTNL_WIRE_MAX_PAYLOAD + 128];
	uint64_t now;

	memset(seen, 0, sizeof(*seen));
	while ((now = st_mono_ns()) < end) {
		struct pollfd pfd = { .fd = sock, .events = POLLIN };
		struct sockaddr_ll from;
		socklen_t fromlen = sizeof(from);
		const struct iphdr *ip;
		const struct udphdr *udp;
		const uint8_t *ftnl;
		size_t ihl;
		ssize_t n;
		uint8_t type;

		if (poll(&pfd, 1, (int)((end - now) / 1000000) + 1) <= 0)
			continue;
		n = recvfrom(sock, frame, sizeof(frame), 0,
			     (struct sockaddr *)&from, &fromlen);
		if (n < (ssize_t)(ETH_HLEN + sizeof(*ip)) ||
		    from.sll_pkttype != PACKET_OUTGOING ||
		    frame[12] != ETH_P_IP >> 8 || frame[13] != (ETH_P_IP & 0xff))
			continue;
		ip = (const struct iphdr *)(frame + ETH_HLEN);
		ihl = (size_t)ip->ihl * 4;
		if (ip->protocol != IPPROTO_UDP ||
		    n < (ssize_t)(ETH_HLEN + ihl + sizeof(*udp) + FTNL_WIRE_HDR_LEN))
			continue;
		udp = (const struct udphdr *)(frame + ETH_HLEN + ihl);
		ftnl = (const uint8_t *)(udp + 1);
		if (ntohs(udp->dest) != ST_VC_PORT ||
		    ftnl_get_be32(ftnl) != FTNL_WIRE_MAGIC)
			continue;
		type = ftnl[5];
		seen->frames[type]++;
		if (ip->tos >> 2 == DSCP_CS6)
			seen->cs6[type]++;
		else
			seen->other_tos[type] = ip->tos;
	}
}

TEST_F_TIMEOUT(dscp, heartbeats_cs6, 60)
{
	const unsigned int ring_types[] = { FTNL_MSG_NEW_OBSERVER,
					    FTNL_MSG_LEAVE };
	struct dscp_seen seen;
	unsigned int i, t, others = 0;

	drain(self->sock);
	capture(self->sock, 2000, &seen);
	for (t = 0; t < 256; t++)
		if (t != FTNL_MSG_HEARTBEAT)
			others += seen.frames[t];
	TH_LOG("2 s of a steady ring: %u heartbeats, %u with DSCP CS6; %u other ftnl datagrams (%u NEW_OBSERVER)",
	       seen.frames[FTNL_MSG_HEARTBEAT], seen.cs6[FTNL_MSG_HEARTBEAT],
	       others, seen.frames[FTNL_MSG_NEW_OBSERVER]);
	ASSERT_LE(20u, seen.frames[FTNL_MSG_HEARTBEAT]);
	EXPECT_EQ(seen.frames[FTNL_MSG_HEARTBEAT], seen.cs6[FTNL_MSG_HEARTBEAT]) {
		TH_LOG("a heartbeat carried TOS 0x%02x, not DSCP CS6 (0xc0)",
		       seen.other_tos[FTNL_MSG_HEARTBEAT]);
	}
	/* A NEW_OBSERVER repeated once after settling may pass by too. */
	for (i = 0; i < sizeof(ring_types) / sizeof(ring_types[0]); i++)
		EXPECT_EQ(seen.frames[ring_types[i]], seen.cs6[ring_types[i]]);
}

TEST_F_TIMEOUT(dscp, new_observer_cs6_broadcast_not, 60)
{
	const unsigned int bcast_types[] = { FTNL_MSG_BCAST, FTNL_MSG_GOSSIP };
	struct dscp_seen seen;
	unsigned int i, bcast = 0;

	drain(self->sock);
	ASSERT_EQ(0, st_vc_silence(&self->vc, VICTIM, NULL, NULL));
	/* d, then the NEW_OBSERVER repeats and the broadcast, with room. */
	capture(self->sock, D_US / 1000 + 1500, &seen);
	ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
	ASSERT_LE(1u, st_vc_count_events(&self->vc, VICTIM + 1, VICTIM, -1)) {
		TH_LOG("node %u did not declare node %u dead", VICTIM + 1,
		       VICTIM);
	}
	for (i = 0; i < sizeof(bcast_types) / sizeof(bcast_types[0]); i++) {
		bcast += seen.frames[bcast_types[i]];
		EXPECT_EQ(0u, seen.cs6[bcast_types[i]]) {
			TH_LOG("%u broadcast datagrams of type %u marked CS6",
			       seen.cs6[bcast_types[i]], bcast_types[i]);
		}
	}
	TH_LOG("after the silence: %u NEW_OBSERVER (%u CS6), %u heartbeats (%u CS6), %u broadcast datagrams",
	       seen.frames[FTNL_MSG_NEW_OBSERVER], seen.cs6[FTNL_MSG_NEW_OBSERVER],
	       seen.frames[FTNL_MSG_HEARTBEAT], seen.cs6[FTNL_MSG_HEARTBEAT],
	       bcast);
	ASSERT_LE(1u, seen.frames[FTNL_MSG_NEW_OBSERVER]);
	EXPECT_EQ(seen.frames[FTNL_MSG_NEW_OBSERVER],
		  seen.cs6[FTNL_MSG_NEW_OBSERVER]) {
		TH_LOG("a NEW_OBSERVER carried TOS 0x%02x",
		       seen.other_tos[FTNL_MSG_NEW_OBSERVER]);
	}
	EXPECT_EQ(seen.frames[FTNL_MSG_HEARTBEAT], seen.cs6[FTNL_MSG_HEARTBEAT]);
	ASSERT_LE(1u, bcast);
}

TEST_HARNESS_MAIN
