// SPDX-License-Identifier: GPL-2.0
/*
 * A broadcast's origin signature (kmod/bcast/signature.c), compiled into
 * userspace: what it covers (every byte the origin wrote, not what a
 * forwarder changes), how a payload says it is signed once or twice, and
 * that the decoders take a signed payload's body as before.
 */
#include "../../tools/testing/tap.h"
#include "../bcast/message.h"
#include "../bcast/signature.h"
#include "../wire.h"

#define NPOS	16

static struct ftnl_ed25519_ctx ctx;

static bool is_member(const void *c, u32 id)
{
	(void)c;
	return id >= 1 && id <= NPOS;
}

static const struct ftnl_bcast_members members = { is_member, NULL };

static u64 inc_of(void *c, u32 pos)
{
	(void)c;
	return 1000 + pos;
}

static void key_of(struct ftnl_ed25519_key *key, u8 who)
{
	u8 seed[FTNL_ED25519_SEED_LEN];

	memset(seed, who, sizeof(seed));
	ftnl_ed25519_key_from_seed(&ctx, key, seed);
}

/* Nodes 5 and 9 died, seen by node 3. Return: how many. */
static u32 sample_deaths(struct ftnl_bcast_death *d)
{
	d[0] = (struct ftnl_bcast_death){ .node_id = 5, .observer_id = 3,
					  .incarnation = 9, .state = 1 };
	d[1] = (struct ftnl_bcast_death){ .node_id = 9, .observer_id = 3,
					  .incarnation = 11, .state = 1 };
	return 2;
}

/* A BCAST from node 3: nodes 5 and 9 died; D = {4, 8}. */
static u32 sample_bcast(u8 *buf, u32 cap)
{
	const struct ftnl_bcast_dead_incs incs = { inc_of, NULL };
	unsigned long dead[1] = { (1ul << 4) | (1ul << 8) };
	struct ftnl_bcast_msg msg = { 0 };

	msg.overlay = FTNL_BCAST_HYPERCUBE;
	msg.origin_id = 3;
	msg.origin_incarnation = 77;
	msg.seq = 5;
	msg.origin_time_ns = 123456789;
	msg.npos = NPOS;
	msg.ndeaths = sample_deaths(msg.deaths);
	return ftnl_bcast_msg_encode(buf, cap, &msg, dead, &incs);
}

/*
 * Signed once: found, verified under the origin's key only; the cube (set
 * per copy) is not covered, every other byte is; the decoder takes the
 * body as it took the unsigned payload.
 */
static void test_bcast(const void *arg)
{
	struct ftnl_ed25519_key origin, member;
	u8 buf[512], bad[512];
	unsigned long dead[1];
	struct ftnl_bcast_msg got;
	u32 len, body, i;
	int wrong = 0;

	(void)arg;
	key_of(&origin, 3);
	key_of(&member, 5);
	len = sample_bcast(buf, sizeof(buf) - FTNL_BCAST_SIG_LEN);
	TAP_CHECK(len > 0);
	TAP_CHECK_INT(ftnl_bcast_sig_find(FTNL_MSG_BCAST, buf, len, &body), 0);
	TAP_CHECK_UINT(body, len);
	ftnl_bcast_sig_flag(FTNL_MSG_BCAST, buf, 1);
	ftnl_bcast_sig_make(&ctx, FTNL_MSG_BCAST, buf, len, &origin, buf + len);
	TAP_CHECK_INT(ftnl_bcast_sig_find(FTNL_MSG_BCAST, buf, len + 64, &body), 1);
	TAP_CHECK_UINT(body, len);
	TAP_CHECK(ftnl_bcast_sig_ok(&ctx, FTNL_MSG_BCAST, buf, body, buf + body,
				    origin.public));
	TAP_CHECK(!ftnl_bcast_sig_ok(&ctx, FTNL_MSG_BCAST, buf, body, buf + body,
				     member.public));
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, NPOS, &members, buf, body), 0);
	TAP_CHECK_UINT(got.origin_id, 3);
	TAP_CHECK_UINT(got.ndeaths, 2);
	/* The second cube's copy: the same signature. */
	ftnl_bcast_msg_set_cube(buf, 1);
	TAP_CHECK(ftnl_bcast_sig_ok(&ctx, FTNL_MSG_BCAST, buf, body, buf + body,
				    origin.public));
	for (i = 0; i < body; i++) {
		if (i == 1)
			continue;
		memcpy(bad, buf, len + 64);
		bad[i] ^= 0x10;
		wrong += ftnl_bcast_sig_ok(&ctx, FTNL_MSG_BCAST, bad, body,
					   bad + body, origin.public);
	}
	TAP_CHECK_INT(wrong, 0);
	/* The member's own signature of a payload naming node 3: refused. */
	ftnl_bcast_sig_make(&ctx, FTNL_MSG_BCAST, buf, len, &member, buf + len);
	TAP_CHECK(!ftnl_bcast_sig_ok(&ctx, FTNL_MSG_BCAST, buf, body, buf + body,
				     origin.public));
}

/* Twice (a key change's grace): both found, each under its own key. */
static void test_twice(const void *arg)
{
	struct ftnl_ed25519_key now, before;
	u8 buf[512];
	u32 len, body;

	(void)arg;
	key_of(&now, 3);
	key_of(&before, 33);
	len = sample_bcast(buf, sizeof(buf) - 2 * FTNL_BCAST_SIG_LEN);
	ftnl_bcast_sig_flag(FTNL_MSG_BCAST, buf, 2);
	ftnl_bcast_sig_make(&ctx, FTNL_MSG_BCAST, buf, len, &now, buf + len);
	ftnl_bcast_sig_make(&ctx, FTNL_MSG_BCAST, buf, len, &before,
			    buf + len + 64);
	TAP_CHECK_INT(ftnl_bcast_sig_find(FTNL_MSG_BCAST, buf, len + 128, &body), 2);
	TAP_CHECK_UINT(body, len);
	TAP_CHECK(ftnl_bcast_sig_ok(&ctx, FTNL_MSG_BCAST, buf, body, buf + body,
				    now.public));
	TAP_CHECK(ftnl_bcast_sig_ok(&ctx, FTNL_MSG_BCAST, buf, body,
				    buf + body + 64, before.public));
	/* Flagged, but too short for what it says. */
	TAP_CHECK_INT(ftnl_bcast_sig_find(FTNL_MSG_BCAST, buf,
					  FTNL_BCAST_HDR_LEN + 100, &body), -1);
	/* "Twice" without "signed". */
	buf[3] &= ~FTNL_BCAST_SIGNED;
	TAP_CHECK_INT(ftnl_bcast_sig_find(FTNL_MSG_BCAST, buf, len + 128, &body), -1);
	/* Flagged unsigned again. */
	ftnl_bcast_sig_flag(FTNL_MSG_BCAST, buf, 0);
	TAP_CHECK_INT(ftnl_bcast_sig_find(FTNL_MSG_BCAST, buf, len, &body), 0);
	TAP_CHECK_UINT(body, len);
	/* Another type has no signature. */
	TAP_CHECK_INT(ftnl_bcast_sig_find(FTNL_MSG_HEARTBEAT, buf, len, &body), -1);
}

/*
 * GOSSIP: the origin signs once; a forwarder's message (type, clock,
 * known ranks) differs in every datagram and is not covered; the origin's
 * fields and deaths are.
 */
static void test_gossip(const void *arg)
{
	struct ftnl_gossip_wire wire = { 0 }, gw;
	struct ftnl_gossip_msg m1 = { 0 }, m2 = { 0 }, gm;
	struct ftnl_ed25519_key origin;
	u8 buf[1024], sig[64], bad[1024];
	u32 len, body, i;
	int wrong = 0;

	(void)arg;
	key_of(&origin, 3);
	wire.algo = FTNL_GOSSIP_FCG;
	wire.f = 1;
	wire.lat = 5;
	wire.origin_id = 3;
	wire.origin_incarnation = 77;
	wire.seq = 9;
	wire.gossip_end = 100;
	wire.npos = NPOS;
	wire.ndeaths = sample_deaths(wire.deaths);
	m1.type = 0;
	m1.time = 3;
	m1.nknown = 2;
	m1.known[0] = 4;
	m1.known[1] = 6;
	len = ftnl_gossip_payload_encode(buf, sizeof(buf) - 64, &wire, &m1);
	TAP_CHECK(len > 0);
	ftnl_bcast_sig_flag(FTNL_MSG_GOSSIP, buf, 1);
	ftnl_bcast_sig_make(&ctx, FTNL_MSG_GOSSIP, buf, len, &origin, sig);

	/* Another node's message of the same broadcast, the signature kept. */
	m2.type = 1;
	m2.time = 40;
	m2.nknown = 3;
	m2.known[0] = 1;
	m2.known[1] = 2;
	m2.known[2] = 7;
	len = ftnl_gossip_payload_encode(buf, sizeof(buf) - 64, &wire, &m2);
	ftnl_bcast_sig_flag(FTNL_MSG_GOSSIP, buf, 1);
	memcpy(buf + len, sig, 64);
	TAP_CHECK_INT(ftnl_bcast_sig_find(FTNL_MSG_GOSSIP, buf, len + 64, &body), 1);
	TAP_CHECK_UINT(body, len);
	TAP_CHECK(ftnl_bcast_sig_ok(&ctx, FTNL_MSG_GOSSIP, buf, body, buf + body,
				    origin.public));
	TAP_CHECK_INT(ftnl_gossip_payload_decode(&gw, &gm, NPOS, &members, buf,
						 body), 0);
	TAP_CHECK_UINT(gw.ndeaths, 2);
	TAP_CHECK_UINT(gm.nknown, 3);
	/* Every byte the origin wrote is covered; the forwarder's are not. */
	for (i = 0; i < body; i++) {
		bool forwarders = i == 60 || (i >= 64 && i < 68 + 4 * 3);

		memcpy(bad, buf, len + 64);
		bad[i] ^= 0x01;
		if (forwarders)
			wrong += !ftnl_bcast_sig_ok(&ctx, FTNL_MSG_GOSSIP, bad,
						    body, bad + body,
						    origin.public);
		else if (i != 3)	/* k: changes where the deaths are */
			wrong += ftnl_bcast_sig_ok(&ctx, FTNL_MSG_GOSSIP, bad,
						   body, bad + body,
						   origin.public);
	}
	TAP_CHECK_INT(wrong, 0);
}

int main(void)
{
	tap_add(test_bcast, NULL,
		"BCAST: signed by its origin, cube excluded, every other byte covered, body decodes");
	tap_add(test_twice, NULL,
		"BCAST: two signatures (key change), both found; malformed flags refused");
	tap_add(test_gossip, NULL,
		"GOSSIP: the origin's fields and deaths covered, a forwarder's message not");
	return tap_run();
}
