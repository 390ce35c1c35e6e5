// SPDX-License-Identifier: GPL-2.0
/*
 * Encoding and strict decoding of broadcast payloads (format: message.h).
 * Decoding accepts exactly what encoding produces: anything else from the
 * network is rejected whole.
 */

#include "gossip.h"
#include "message.h"
#include "../wire.h"

static void ftnl_death_encode(u8 *p, const struct ftnl_bcast_death *death)
{
	bool proc = death->state == FTNL_BCAST_PROC_EXIT;

	ftnl_put_be32(p, proc ? death->owner_uid : death->node_id);
	ftnl_put_be32(p + 4, proc ? death->rank : death->observer_id);
	ftnl_put_be64(p + 8, proc ? death->job : death->incarnation);
	p[16] = death->cause;
	p[17] = death->state;
	p[18] = death->state == FTNL_BCAST_JOIN ? death->flags : 0;
	p[19] = 0;
}

static bool ftnl_is_member(const struct ftnl_bcast_members *members, u32 id)
{
	return members->is_member(members->ctx, id);
}

/*
 * Decode and check one death: a member, a known cause, and for a node
 * death (or JOIN) an observer that is a member and a state of dead, left
 * or JOIN. A
 * receiver acts on these fields (it looks the ids up in its table), so no
 * payload naming anything else may get past the decoder. A process exit
 * is the origin's (@origin_id): a node broadcasts only its own.
 */
static int ftnl_death_decode(struct ftnl_bcast_death *death, const u8 *p,
			     const struct ftnl_bcast_members *members,
			     u32 origin_id)
{
	death->cause = p[16];
	death->state = p[17];
	death->flags = p[18];
	if (p[19] || (death->flags & ~FTNL_BCAST_RENAMED) ||
	    (death->flags && death->state != FTNL_BCAST_JOIN))
		return -1;
	if (death->state == FTNL_BCAST_PROC_EXIT) {
		death->node_id = origin_id;
		death->owner_uid = ftnl_get_be32(p);
		death->rank = ftnl_get_be32(p + 4);
		death->job = ftnl_get_be64(p + 8);
		death->observer_id = 0;
		death->incarnation = 0;
	} else {
		death->node_id = ftnl_get_be32(p);
		death->owner_uid = 0;
		death->observer_id = ftnl_get_be32(p + 4);
		death->incarnation = ftnl_get_be64(p + 8);
		death->rank = 0;
		death->job = 0;
		if (death->state != FTNL_NODE_STATE_DEAD &&
		    death->state != FTNL_NODE_STATE_LEFT &&
		    death->state != FTNL_BCAST_JOIN)
			return -1;
		if (!ftnl_is_member(members, death->observer_id))
			return -1;
	}
	if (death->cause > FTNL_CAUSE_MAX ||
	    !ftnl_is_member(members, death->node_id))
		return -1;
	return 0;
}

static u32 ftnl_bitmap_bytes(u32 npos)
{
	return (npos + 7) / 8;
}

/* Number of maximal runs of set bits among the first @npos bits. */
static u32 ftnl_count_ranges(const unsigned long *dead, u32 npos)
{
	u32 pos, ranges = 0;
	bool in = false;

	for (pos = 0; pos < npos; pos++) {
		bool set = ftnl_bit_test(dead, pos);

		if (set && !in)
			ranges++;
		in = set;
	}
	return ranges;
}

/* The longest payload without D's incarnations. */
static u32 ftnl_bcast_msg_base_max(u32 npos)
{
	return FTNL_BCAST_HDR_LEN +
	       FTNL_BCAST_MAX_DEATHS * FTNL_BCAST_DEATH_LEN +
	       ftnl_bitmap_bytes(npos);
}

/* The longest payload for a cluster of @npos nodes. */
u32 ftnl_bcast_msg_max_len(u32 npos)
{
	u64 with_incs = (u64)ftnl_bcast_msg_base_max(npos) + 8ULL * npos;

	if (with_incs > FTNL_WIRE_MAX_PAYLOAD)
		with_incs = FTNL_WIRE_MAX_PAYLOAD;
	return with_incs > ftnl_bcast_msg_base_max(npos) ?
	       (u32)with_incs : ftnl_bcast_msg_base_max(npos);
}

/* D's incarnations are sent when the payload then still fits a datagram. */
static bool ftnl_bcast_incs_fit(u32 len_without, u32 ndead)
{
	return (u64)len_without + 8ULL * ndead <= FTNL_WIRE_MAX_PAYLOAD;
}

/**
 * ftnl_bcast_msg_dead_inc - the incarnation of the @k-th member of D
 * @msg: a decoded message
 * @k: 0..@msg->ndead - 1, in ascending position order
 *
 * Return: the incarnation that died, 0 when the message does not say.
 */
u64 ftnl_bcast_msg_dead_inc(const struct ftnl_bcast_msg *msg, u32 k)
{
	if (!msg->dead_incs || k >= msg->ndead)
		return 0;
	return ftnl_get_be64(msg->dead_incs + 8 * k);
}

/* struct ftnl_bcast_dead_incs's @of over a decoded message. */
u64 ftnl_bcast_incs_cursor_next(void *cursor, u32 pos)
{
	struct ftnl_bcast_incs_cursor *c = cursor;

	(void)pos;
	return ftnl_bcast_msg_dead_inc(c->msg, c->next++);
}

/**
 * ftnl_bcast_msg_encode - write a broadcast payload
 * @buf: destination
 * @cap: its size
 * @msg: the message (1..FTNL_BCAST_MAX_DEATHS deaths, npos >= 1)
 * @dead: D, a bitmap of @msg->npos positions
 * @incs: D's incarnations, or NULL to send 0 (unknown) for each
 *
 * D's incarnations are included whenever the payload then fits in
 * FTNL_WIRE_MAX_PAYLOAD (message.h).
 *
 * Return: the payload length, or 0 if @msg is invalid or @cap too small.
 */
u32 ftnl_bcast_msg_encode(u8 *buf, u32 cap, const struct ftnl_bcast_msg *msg,
			  const unsigned long *dead,
			  const struct ftnl_bcast_dead_incs *incs)
{
	u32 ranges, dlen, len, i, pos, off, ndead = 0, inc_off;
	bool with_incs;
	u8 encoding;

	if (!msg->ndeaths || msg->ndeaths > FTNL_BCAST_MAX_DEATHS ||
	    !msg->npos || msg->npos > FTNL_BCAST_MAX_POSITIONS)
		return 0;
	ranges = ftnl_count_ranges(dead, msg->npos);
	if (ranges * 4 <= ftnl_bitmap_bytes(msg->npos)) {
		encoding = FTNL_BCAST_D_RANGES;
		dlen = ranges * 4;
	} else {
		encoding = FTNL_BCAST_D_BITMAP;
		dlen = ftnl_bitmap_bytes(msg->npos);
	}
	len = FTNL_BCAST_HDR_LEN + msg->ndeaths * FTNL_BCAST_DEATH_LEN + dlen;
	for (pos = 0; pos < msg->npos; pos++)
		ndead += ftnl_bit_test(dead, pos);
	with_incs = ftnl_bcast_incs_fit(len, ndead);
	inc_off = len;
	if (with_incs)
		len += 8 * ndead;
	if (len > cap)
		return 0;

	buf[0] = msg->overlay;
	buf[1] = msg->cube;
	buf[2] = msg->ndeaths;
	buf[3] = encoding | (with_incs ? FTNL_BCAST_D_INCS : 0);
	ftnl_put_be32(buf + 4, msg->origin_id);
	ftnl_put_be64(buf + 8, msg->origin_incarnation);
	ftnl_put_be64(buf + 16, msg->seq);
	ftnl_put_be64(buf + 24, msg->origin_time_ns);
	ftnl_put_be32(buf + 32, msg->npos);
	ftnl_put_be32(buf + 36, dlen);
	off = FTNL_BCAST_HDR_LEN;
	for (i = 0; i < msg->ndeaths; i++) {
		ftnl_death_encode(buf + off, &msg->deaths[i]);
		off += FTNL_BCAST_DEATH_LEN;
	}

	if (encoding == FTNL_BCAST_D_BITMAP) {
		for (i = 0; i < dlen; i++)
			buf[off + i] = 0;
		for (pos = 0; pos < msg->npos; pos++)
			if (ftnl_bit_test(dead, pos))
				buf[off + pos / 8] |= 1U << (pos % 8);
	} else {
		for (pos = 0; pos < msg->npos; pos++) {
			u32 first;

			if (!ftnl_bit_test(dead, pos))
				continue;
			first = pos;
			while (pos + 1 < msg->npos && ftnl_bit_test(dead, pos + 1))
				pos++;
			ftnl_put_be16(buf + off, first);
			ftnl_put_be16(buf + off + 2, pos - first);
			off += 4;
		}
	}
	if (!with_incs)
		return len;
	for (pos = 0; pos < msg->npos; pos++) {
		if (!ftnl_bit_test(dead, pos))
			continue;
		ftnl_put_be64(buf + inc_off, incs ? incs->of(incs->ctx, pos) : 0);
		inc_off += 8;
	}
	return len;
}

/*
 * After D (@body bytes in): exactly D's incarnations when flagged, which
 * the encoder does exactly when they fit.
 */
static int ftnl_bcast_msg_decode_incs(struct ftnl_bcast_msg *msg,
				      const unsigned long *dead, const u8 *buf,
				      u32 len, u32 body, bool with_incs)
{
	u32 pos;

	for (pos = 0; pos < msg->npos; pos++)
		msg->ndead += ftnl_bit_test(dead, pos);
	if (with_incs != ftnl_bcast_incs_fit(body, msg->ndead))
		return -1;
	if (len != body + (with_incs ? 8 * msg->ndead : 0))
		return -1;
	msg->dead_incs = with_incs ? buf + body : NULL;
	return 0;
}

/**
 * ftnl_bcast_msg_decode - parse and check a received broadcast payload
 * @msg: filled in
 * @dead: filled with D; a zeroed-or-not bitmap of @npos positions
 * @npos: this node's cluster size, which the message must match
 * @members: this node's table: the origin and every death must name
 *	members
 * @buf: the payload
 * @len: its length
 *
 * Return: 0, or -1 if the payload is not exactly a valid encoding of a
 * broadcast among @members (a BCAST overlay, deaths as
 * ftnl_death_decode() checks them).
 */
int ftnl_bcast_msg_decode(struct ftnl_bcast_msg *msg, unsigned long *dead,
			  u32 npos, const struct ftnl_bcast_members *members,
			  const u8 *buf, u32 len)
{
	u32 dlen, off, i, prev_end = 0, body;
	bool with_incs;
	u8 encoding;

	if (len < FTNL_BCAST_HDR_LEN)
		return -1;
	msg->overlay = buf[0];
	msg->cube = buf[1];
	msg->ndeaths = buf[2];
	encoding = buf[3];
	msg->origin_id = ftnl_get_be32(buf + 4);
	msg->origin_incarnation = ftnl_get_be64(buf + 8);
	msg->seq = ftnl_get_be64(buf + 16);
	msg->origin_time_ns = ftnl_get_be64(buf + 24);
	msg->npos = ftnl_get_be32(buf + 32);
	dlen = ftnl_get_be32(buf + 36);
	with_incs = encoding & FTNL_BCAST_D_INCS;
	/* A signature (signature.c) was taken off by the caller. */
	encoding &= ~(FTNL_BCAST_D_INCS | FTNL_BCAST_SIGNED |
		      FTNL_BCAST_SIGNED_TWICE);
	msg->ndead = 0;
	msg->dead_incs = NULL;

	/* The length is checked against D's size once D is decoded. */
	if (msg->npos != npos || !msg->ndeaths ||
	    msg->ndeaths > FTNL_BCAST_MAX_DEATHS || msg->cube > 1 ||
	    (msg->overlay != FTNL_BCAST_HYPERCUBE &&
	     msg->overlay != FTNL_BCAST_BMG) ||
	    dlen > len ||
	    len < FTNL_BCAST_HDR_LEN + msg->ndeaths * FTNL_BCAST_DEATH_LEN + dlen ||
	    !ftnl_is_member(members, msg->origin_id))
		return -1;
	body = FTNL_BCAST_HDR_LEN + msg->ndeaths * FTNL_BCAST_DEATH_LEN + dlen;

	off = FTNL_BCAST_HDR_LEN;
	for (i = 0; i < msg->ndeaths; i++) {
		if (ftnl_death_decode(&msg->deaths[i], buf + off, members,
				      msg->origin_id))
			return -1;
		off += FTNL_BCAST_DEATH_LEN;
	}

	for (i = 0; i < ftnl_bitmap_longs(npos); i++)
		dead[i] = 0;
	if (encoding == FTNL_BCAST_D_BITMAP) {
		if (dlen != ftnl_bitmap_bytes(npos))
			return -1;
		for (i = 0; i < npos; i++)
			if ((buf[off + i / 8] >> (i % 8)) & 1)
				ftnl_bit_set(dead, i);
		/* Bits past the last position must be clear. */
		if (npos % 8 && (buf[off + dlen - 1] >> (npos % 8)))
			return -1;
		/* The encoder sends a bitmap only when ranges are longer. */
		if (ftnl_count_ranges(dead, npos) * 4 <= dlen)
			return -1;
		return ftnl_bcast_msg_decode_incs(msg, dead, buf, len, body,
						  with_incs);
	}
	/* Ranges only when no longer than the bitmap, as the encoder chooses. */
	if (encoding != FTNL_BCAST_D_RANGES || dlen % 4 ||
	    dlen > ftnl_bitmap_bytes(npos))
		return -1;
	for (i = 0; i < dlen; i += 4) {
		u32 first = ftnl_get_be16(buf + off + i);
		u32 count = ftnl_get_be16(buf + off + i + 2) + 1;
		u32 pos;

		/* Ascending, disjoint, not adjacent (maximal), in range. */
		if ((i && first <= prev_end) || first + count > npos)
			return -1;
		for (pos = first; pos < first + count; pos++)
			ftnl_bit_set(dead, pos);
		prev_end = first + count;
	}
	return ftnl_bcast_msg_decode_incs(msg, dead, buf, len, body, with_incs);
}

/**
 * ftnl_bcast_peek_id - a broadcast's identity from its fixed header
 * @id: filled in
 * @buf: a BCAST or GOSSIP payload
 * @len: its length
 *
 * O(1): lets a receiver drop a copy it already handled before decoding
 * the rest (D, deaths), which costs O(n). Nothing else is checked: a copy
 * that is not dropped must still be decoded in full.
 *
 * Return: 0, or -1 if @len is shorter than either fixed header.
 */
int ftnl_bcast_peek_id(struct ftnl_bcast_id *id, const u8 *buf, u32 len)
{
	if (len < FTNL_BCAST_HDR_LEN)
		return -1;
	id->cube = buf[1];
	id->origin_id = ftnl_get_be32(buf + 4);
	id->origin_incarnation = ftnl_get_be64(buf + 8);
	id->seq = ftnl_get_be64(buf + 16);
	return 0;
}

/* Forwarders rewrite only the cube a copy travels in. */
void ftnl_bcast_msg_set_cube(u8 *buf, u8 cube)
{
	buf[1] = cube;
}

/**
 * ftnl_gossip_payload_encode - write a GOSSIP payload
 * @buf: destination
 * @cap: its size
 * @wire: the broadcast's identity, parameters and deaths
 * @msg: the gossip message
 *
 * Return: the payload length, or 0 if @cap is too small or @msg invalid.
 */
u32 ftnl_gossip_payload_encode(u8 *buf, u32 cap,
			       const struct ftnl_gossip_wire *wire,
			       const struct ftnl_gossip_msg *msg)
{
	u32 len = FTNL_GOSSIP_PAYLOAD_HDR + 4 * msg->nknown +
		  (wire->ndeaths - 1) * FTNL_BCAST_DEATH_LEN, off, i;

	if (msg->nknown > FTNL_GOSSIP_MAX_KNOWN || !wire->ndeaths ||
	    wire->ndeaths > FTNL_BCAST_MAX_DEATHS || len > cap)
		return 0;
	buf[0] = wire->algo;
	buf[1] = wire->f;
	buf[2] = wire->lat;
	buf[3] = msg->nknown;
	ftnl_put_be32(buf + 4, wire->origin_id);
	ftnl_put_be64(buf + 8, wire->origin_incarnation);
	ftnl_put_be64(buf + 16, wire->seq);
	ftnl_put_be64(buf + 24, wire->origin_time_ns);
	ftnl_put_be32(buf + 32, wire->gossip_end);
	ftnl_put_be32(buf + 36, wire->npos);
	ftnl_death_encode(buf + 40, &wire->deaths[0]);
	buf[60] = msg->type;
	buf[61] = wire->ndeaths - 1;
	buf[62] = 0;
	buf[63] = 0;
	ftnl_put_be32(buf + 64, msg->time);
	for (i = 0; i < msg->nknown; i++)
		ftnl_put_be32(buf + FTNL_GOSSIP_PAYLOAD_HDR + 4 * i, msg->known[i]);
	off = FTNL_GOSSIP_PAYLOAD_HDR + 4 * msg->nknown;
	for (i = 1; i < wire->ndeaths; i++) {
		ftnl_death_encode(buf + off, &wire->deaths[i]);
		off += FTNL_BCAST_DEATH_LEN;
	}
	return len;
}

/**
 * ftnl_gossip_payload_decode - parse a GOSSIP payload strictly
 * @wire: filled in
 * @msg: filled in
 * @npos: this node's cluster size, which the payload must match
 * @members: this node's table: the origin and the death must name members
 * @buf: the payload
 * @len: its length
 *
 * Return: 0, or -1 if it is not exactly a valid encoding of a broadcast
 * among @members (T and the clock within FTNL_GOSSIP_MAX_T and
 * FTNL_GOSSIP_MAX_TIME, every death as ftnl_death_decode() checks it).
 */
int ftnl_gossip_payload_decode(struct ftnl_gossip_wire *wire,
			       struct ftnl_gossip_msg *msg, u32 npos,
			       const struct ftnl_bcast_members *members,
			       const u8 *buf, u32 len)
{
	u32 i, off;

	if (len < FTNL_GOSSIP_PAYLOAD_HDR)
		return -1;
	wire->algo = buf[0];
	wire->f = buf[1];
	wire->lat = buf[2];
	msg->nknown = buf[3];
	wire->origin_id = ftnl_get_be32(buf + 4);
	wire->origin_incarnation = ftnl_get_be64(buf + 8);
	wire->seq = ftnl_get_be64(buf + 16);
	wire->origin_time_ns = ftnl_get_be64(buf + 24);
	wire->gossip_end = ftnl_get_be32(buf + 32);
	wire->npos = ftnl_get_be32(buf + 36);
	wire->ndeaths = 1 + (u32)buf[61];
	if (wire->npos != npos || wire->algo >= __FTNL_GOSSIP_ALGO_MAX ||
	    wire->f > FTNL_GOSSIP_MAX_F || msg->nknown > FTNL_GOSSIP_MAX_KNOWN ||
	    wire->ndeaths > FTNL_BCAST_MAX_DEATHS ||
	    len != FTNL_GOSSIP_PAYLOAD_HDR + 4 * (u32)msg->nknown +
		   (wire->ndeaths - 1) * FTNL_BCAST_DEATH_LEN ||
	    (buf[62] & ~(FTNL_GOSSIP_SIGNED | FTNL_GOSSIP_SIGNED_TWICE)) ||
	    buf[63] ||
	    wire->gossip_end > FTNL_GOSSIP_MAX_T ||
	    !ftnl_is_member(members, wire->origin_id) ||
	    ftnl_death_decode(&wire->deaths[0], buf + 40, members,
			      wire->origin_id))
		return -1;
	msg->type = buf[60];
	msg->pad = 0;
	msg->time = ftnl_get_be32(buf + 64);
	if (msg->time > FTNL_GOSSIP_MAX_TIME)
		return -1;
	for (i = 0; i < msg->nknown; i++)
		msg->known[i] = ftnl_get_be32(buf + FTNL_GOSSIP_PAYLOAD_HDR + 4 * i);
	off = FTNL_GOSSIP_PAYLOAD_HDR + 4 * msg->nknown;
	for (i = 1; i < wire->ndeaths; i++) {
		if (ftnl_death_decode(&wire->deaths[i], buf + off, members,
				      wire->origin_id))
			return -1;
		off += FTNL_BCAST_DEATH_LEN;
	}
	return 0;
}
