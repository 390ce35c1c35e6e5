// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: GOSSIP payloads (kmod/bcast/message.c) and the FCG state
 * machine they drive (kmod/bcast/gossip.c), the way kmod/bcast/fcg.c
 * runs them on a receiver: decode against the node table, the first
 * payload of a broadcast sets its parameters, every payload is checked by
 * ftnl_gossip_msg_valid() then received, and the node steps whenever its
 * wake-up time has passed.
 *
 * Input: cluster size n (be16 + 1; members are the node ids 1..n, ring
 * position id - 1), this node's position (be16, mod n), a seed (be64),
 * then records: sender position (be16, mod n), slots that pass (u8),
 * payload length (be16), payload.
 *
 * Properties: no crash or undefined behaviour; an accepted payload
 * re-encodes to its own bytes; the node only sends valid messages to
 * other positions of the ring, which decode back on their receiver; its
 * clock never goes back; and a step at a due wake-up time always makes
 * progress (sends, changes state, or wakes later), or the kernel's timer
 * would fire again at once, forever.
 */
#include <string.h>

#include "fuzz.h"
#include "bcast/message.h"

#define MAX_STEPS_PER_RECORD	64

static bool is_member(const void *ctx, u32 id)
{
	return id >= 1 && id <= *(const u32 *)ctx;
}

struct bcast {
	bool used;
	struct ftnl_gossip_wire wire;
	struct ftnl_gossip_params par;
	struct ftnl_gossip_node node;
};

/* What fcg.c's ftnl_fcg_act() would send, checked. */
static void check_out(const struct bcast *b, const struct ftnl_gossip_out *out,
		      const struct ftnl_bcast_members *members)
{
	u8 buf[FTNL_GOSSIP_PAYLOAD_HDR + 4 * FTNL_GOSSIP_MAX_KNOWN];
	struct ftnl_gossip_wire wire;
	struct ftnl_gossip_msg msg;
	u32 len;

	FUZZ_CHECK(out->msg.nknown <= FTNL_GOSSIP_MAX_KNOWN);
	if (!(out->flags & FTNL_GOSSIP_OUT_SEND))
		return;
	FUZZ_CHECK(out->to < b->par.n);
	FUZZ_CHECK(out->to != b->node.self);
	FUZZ_CHECK(ftnl_gossip_msg_valid(&b->par, &out->msg));
	len = ftnl_gossip_payload_encode(buf, sizeof(buf), &b->wire, &out->msg);
	FUZZ_CHECK(len);
	/* Its receiver takes it, unless the clock ran past what any sends. */
	if (out->msg.time <= FTNL_GOSSIP_MAX_TIME)
		FUZZ_CHECK(!ftnl_gossip_payload_decode(&wire, &msg, b->par.n,
						       members, buf, len));
}

/* fcg.c's ftnl_fcg_fire(): one step when due, and it must get somewhere. */
static void step_due(struct bcast *b, u32 now,
		     const struct ftnl_bcast_members *members)
{
	struct ftnl_gossip_out out;
	int i;

	for (i = 0; i < MAX_STEPS_PER_RECORD && b->used; i++) {
		u32 time = b->node.time;
		u8 state = b->node.state;

		if (b->node.wake == FTNL_GOSSIP_NO_WAKE || b->node.wake > now)
			return;
		ftnl_gossip_step(&b->node, now, &out);
		check_out(b, &out, members);
		FUZZ_CHECK(b->node.time >= time);
		FUZZ_CHECK(out.flags & FTNL_GOSSIP_OUT_SEND ||
			   b->node.state != state || out.wake > now);
		if (out.flags & FTNL_GOSSIP_OUT_DONE)
			b->used = false;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct ftnl_bcast_members members;
	struct bcast b = { .used = false };
	u32 npos, self, now = 0;
	u64 seed;

	if (size < 12)
		return 0;
	npos = (u32)fuzz_u16(&in) + 1;
	self = fuzz_u16(&in) % npos;
	seed = fuzz_u64(&in);
	members = (struct ftnl_bcast_members){ is_member, &npos };

	while (in.left >= 5) {
		u8 payload[FTNL_GOSSIP_PAYLOAD_HDR + 4 * FTNL_GOSSIP_MAX_KNOWN + 8];
		u32 from = fuzz_u16(&in) % npos, len, elapsed = fuzz_u8(&in);
		struct ftnl_gossip_wire wire;
		struct ftnl_gossip_msg msg;
		struct ftnl_gossip_out out;
		u8 again[sizeof(payload)];
		bool fresh = false;

		len = fuzz_u16(&in);
		if (len > in.left)
			len = (u32)in.left;
		if (len > sizeof(payload))
			len = sizeof(payload);
		memcpy(payload, in.p, len);
		in.p += len;
		in.left -= len;

		if (b.used) {
			if (now + elapsed < now)
				break;
			now += elapsed;
			step_due(&b, now, &members);
		}
		if (ftnl_gossip_payload_decode(&wire, &msg, npos, &members,
					       payload, len))
			continue;
		FUZZ_CHECK(ftnl_gossip_payload_encode(again, sizeof(again),
						      &wire, &msg) == len);
		FUZZ_CHECK(!memcmp(again, payload, len));
		/* fcg.c's ftnl_fcg_wire_ok(), and the sender is not this node. */
		if (wire.algo != FTNL_GOSSIP_FCG || wire.lat < 1 || from == self)
			continue;

		if (b.used && (b.wire.origin_id != wire.origin_id ||
			       b.wire.origin_incarnation != wire.origin_incarnation ||
			       b.wire.seq != wire.seq))
			continue;	/* another broadcast: one is enough */
		if (!b.used) {
			b.used = true;
			b.wire = wire;
			ftnl_gossip_params_init(&b.par, FTNL_GOSSIP_FCG, npos,
						wire.origin_id - 1, wire.lat,
						wire.f);
			b.par.gossip_end = wire.gossip_end;
			ftnl_gossip_init(&b.node, &b.par, self, seed);
			fresh = true;
		}
		if (!ftnl_gossip_msg_valid(&b.par, &msg)) {
			if (fresh)
				b.used = false;
			continue;
		}
		ftnl_gossip_recv(&b.node, from, &msg, &out);
		if (fresh && b.node.state == FTNL_GOSSIP_IDLE) {
			b.used = false;
			continue;
		}
		/* The kernel maps the node's clock to now on first coloring. */
		if (fresh)
			now = b.node.time;
		check_out(&b, &out, &members);
		if (out.flags & FTNL_GOSSIP_OUT_DONE)
			b.used = false;
	}
	return 0;
}
