// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the BCAST payload decoder (kmod/bcast/message.c), with
 * the death and id checks the decoder owns, then the forwarding that
 * kmod/bcast/bcast.c's ftnl_bcast_rx() computes from the payload's D
 * (kmod/bcast/topology.c).
 *
 * Input: the receiver's cluster size n (be16 + 1), this node's position
 * and the sender's (be16 each, mod n), then the payload. The members are
 * the node ids 1..n at positions 0..n-1, as in every test cluster.
 *
 * Properties: no crash or undefined behaviour on any input; a payload the
 * decoder accepts names only members, has known causes and states, and is
 * exactly what the encoder writes for what was decoded (decoding accepts
 * nothing but encodings); the nodes a receiver forwards it to are at most
 * FTNL_BCAST_MAX_FANOUT and participants (not in D).
 */
#include <string.h>

#include "fuzz.h"
#include "bcast/message.h"
#include "bcast/topology.h"
#include "wire.h"

static bool is_member(const void *ctx, u32 id)
{
	return id >= 1 && id <= *(const u32 *)ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned long dead[FTNL_BCAST_MAX_POSITIONS / (8 * sizeof(long)) + 1];
	static u8 again[FTNL_WIRE_MAX_PAYLOAD];
	struct fuzz_in in = { data, size };
	struct ftnl_bcast_members members;
	u32 npos, self, from, len, i, label, from_label, count, origin_pos;
	u32 to[FTNL_BCAST_MAX_FANOUT];
	struct ftnl_bcast_view view;
	struct ftnl_bcast_msg msg;
	struct ftnl_bcast_incs_cursor cursor;
	const struct ftnl_bcast_dead_incs incs = {
		ftnl_bcast_incs_cursor_next, &cursor,
	};

	if (size < 6)
		return 0;
	npos = (u32)fuzz_u16(&in) + 1;
	self = fuzz_u16(&in) % npos;
	from = fuzz_u16(&in) % npos;
	members = (struct ftnl_bcast_members){ is_member, &npos };
	if (ftnl_bcast_msg_decode(&msg, dead, npos, &members, in.p,
				  (u32)in.left))
		return 0;

	FUZZ_CHECK(msg.npos == npos);
	FUZZ_CHECK(msg.ndeaths >= 1 && msg.ndeaths <= FTNL_BCAST_MAX_DEATHS);
	FUZZ_CHECK(is_member(&npos, msg.origin_id));
	for (i = 0; i < msg.ndeaths; i++) {
		const struct ftnl_bcast_death *d = &msg.deaths[i];

		FUZZ_CHECK(is_member(&npos, d->node_id));
		FUZZ_CHECK(d->cause <= FTNL_CAUSE_MAX);
		FUZZ_CHECK(d->state == FTNL_NODE_STATE_DEAD ||
			   d->state == FTNL_NODE_STATE_LEFT ||
			   d->state == FTNL_BCAST_PROC_EXIT ||
			   d->state == FTNL_BCAST_JOIN);
		if (d->state != FTNL_BCAST_PROC_EXIT)
			FUZZ_CHECK(is_member(&npos, d->observer_id));
	}

	cursor = (struct ftnl_bcast_incs_cursor){ &msg, 0 };
	len = ftnl_bcast_msg_encode(again, sizeof(again), &msg, dead, &incs);
	FUZZ_CHECK(len == in.left);
	FUZZ_CHECK(!memcmp(again, in.p, len));

	/* ftnl_bcast_rx(): an origin in D, or this node in D, forwards nothing. */
	origin_pos = msg.origin_id - 1;
	if (ftnl_bit_test(dead, origin_pos) || ftnl_bit_test(dead, self))
		return 0;
	ftnl_bcast_view_init(&view, dead, npos, origin_pos);
	FUZZ_CHECK(view.n >= 1 && view.n <= npos);
	label = ftnl_bcast_label(&view, self);
	from_label = ftnl_bit_test(dead, from) ? label :
		     ftnl_bcast_label(&view, from);
	FUZZ_CHECK(label < view.n && from_label < view.n);
	FUZZ_CHECK(ftnl_bcast_pos(&view, label) == self);
	if (msg.overlay == FTNL_BCAST_BMG)
		count = ftnl_bmg_forward(view.n, label, to);
	else
		count = ftnl_hcube_forward(view.n, msg.cube, label, from_label,
					   to);
	FUZZ_CHECK(count <= FTNL_BCAST_MAX_FANOUT);
	for (i = 0; i < count; i++) {
		u32 pos;

		FUZZ_CHECK(to[i] < view.n);
		pos = ftnl_bcast_pos(&view, to[i]);
		FUZZ_CHECK(pos < npos && !ftnl_bit_test(dead, pos));
	}
	return 0;
}
