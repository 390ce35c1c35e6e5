// SPDX-License-Identifier: GPL-2.0
/*
 * The broadcast payload codec (kmod/bcast/message.c) in userspace: random
 * round trips with both D encodings, and strict rejection of everything
 * that is not exactly an encoding (every truncation, corrupted fields,
 * ranges out of order or out of range, stray bitmap bits, deaths naming
 * no member or with an unknown cause or state), and the same for GOSSIP
 * payloads.
 */
#include <stdlib.h>
#include <string.h>

#include "../../tools/testing/tap.h"
#include "../bcast/message.h"
#include "../wire.h"

/* Above RAND_MAX: never one of the random ids the tests use. */
#define OUTSIDER	0xdeadbeefU

/* Every id but OUTSIDER is a node of the receiver's cluster. */
static bool is_member(const void *ctx, u32 id)
{
	(void)ctx;
	return id != OUTSIDER;
}

static const struct ftnl_bcast_members members = { is_member, NULL };

static unsigned long *bitmap_new(u32 n)
{
	unsigned long *map = calloc(ftnl_bitmap_longs(n) + 1, sizeof(long));

	if (!map)
		abort();
	return map;
}

static void fill_msg(struct ftnl_bcast_msg *msg, u32 npos, u32 ndeaths,
		     unsigned int *seed)
{
	memset(msg, 0, sizeof(*msg));
	msg->overlay = rand_r(seed) % 2;
	msg->cube = rand_r(seed) % 2;
	msg->origin_id = rand_r(seed);
	msg->origin_incarnation = (u64)rand_r(seed) << 32 | rand_r(seed);
	msg->seq = rand_r(seed) + 1;
	msg->origin_time_ns = (u64)rand_r(seed) << 20;
	msg->npos = npos;
	msg->ndeaths = ndeaths;
	for (u32 i = 0; i < ndeaths; i++) {
		struct ftnl_bcast_death *d = &msg->deaths[i];

		d->node_id = rand_r(seed);
		d->cause = rand_r(seed) % 4;
		d->state = 1 + rand_r(seed) % 4;	/* dead, left, process exit, JOIN */
		if (d->state == FTNL_BCAST_PROC_EXIT) {
			/* a node broadcasts its own processes' exits */
			d->node_id = msg->origin_id;
			d->owner_uid = rand_r(seed);
			d->rank = rand_r(seed);
			d->job = (u64)rand_r(seed) << 31 | rand_r(seed);
		} else {
			d->observer_id = rand_r(seed);
			d->incarnation = rand_r(seed);
		}
		d->flags = d->state == FTNL_BCAST_JOIN ?
			   rand_r(seed) % 2 * FTNL_BCAST_RENAMED : 0;
	}
}

/* D's incarnations in the tests: a function of the position. */
static u64 inc_of_pos(void *ctx, u32 pos)
{
	(void)ctx;
	return 0x1000000000ULL + 7ULL * pos;
}

static const struct ftnl_bcast_dead_incs incs = { inc_of_pos, NULL };

/* A decoded death, field by field, against the one encoded. */
static void check_death(const struct ftnl_bcast_death *got,
			const struct ftnl_bcast_death *want)
{
	TAP_CHECK_UINT(got->node_id, want->node_id);
	TAP_CHECK_UINT(got->observer_id, want->observer_id);
	TAP_CHECK_UINT(got->incarnation, want->incarnation);
	TAP_CHECK_UINT(got->cause, want->cause);
	TAP_CHECK_UINT(got->state, want->state);
	TAP_CHECK_UINT(got->rank, want->rank);
	TAP_CHECK_UINT(got->job, want->job);
	TAP_CHECK_UINT(got->owner_uid, want->owner_uid);
}

static void test_round_trip(const void *arg)
{
	unsigned int seed = 3;
	u32 cap = ftnl_bcast_msg_max_len(FTNL_BCAST_MAX_POSITIONS);
	u8 *buf = malloc(cap);
	int ranges_seen = 0, bitmaps_seen = 0, incs_seen = 0;

	(void)arg;
	if (!buf)
		abort();
	for (int round = 0; round < 400; round++) {
		u32 npos = round == 0 ? FTNL_BCAST_MAX_POSITIONS :
			   1 + rand_r(&seed) % 3000;
		u32 density = rand_r(&seed) % 4;	/* 0: few, 3: half */
		unsigned long *dead = bitmap_new(npos), *back = bitmap_new(npos);
		struct ftnl_bcast_msg msg, got;
		u32 len;

		for (u32 p = 0; p < npos; p++)
			if ((density == 0 && rand_r(&seed) % 500 == 0) ||
			    (density && rand_r(&seed) % (8 >> density) == 0))
				ftnl_bit_set(dead, p);
		fill_msg(&msg, npos, 1 + rand_r(&seed) % FTNL_BCAST_MAX_DEATHS, &seed);
		len = ftnl_bcast_msg_encode(buf, cap, &msg, dead, &incs);
		TAP_CHECK(len > 0);
		TAP_CHECK(len <= ftnl_bcast_msg_max_len(npos));
		if ((buf[3] & ~FTNL_BCAST_D_INCS) == FTNL_BCAST_D_RANGES)
			ranges_seen++;
		else
			bitmaps_seen++;
		TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, back, npos, &members, buf, len), 0);
		TAP_CHECK_UINT(got.origin_id, msg.origin_id);
		TAP_CHECK_UINT(got.origin_incarnation, msg.origin_incarnation);
		TAP_CHECK_UINT(got.seq, msg.seq);
		TAP_CHECK_UINT(got.origin_time_ns, msg.origin_time_ns);
		TAP_CHECK_UINT(got.ndeaths, msg.ndeaths);
		TAP_CHECK_UINT(got.cube, msg.cube);
		TAP_CHECK_UINT(got.overlay, msg.overlay);
		{
			/* the identity a receiver checks first, O(1) */
			struct ftnl_bcast_id id;

			TAP_CHECK_INT(ftnl_bcast_peek_id(&id, buf, len), 0);
			TAP_CHECK_UINT(id.origin_id, msg.origin_id);
			TAP_CHECK_UINT(id.origin_incarnation, msg.origin_incarnation);
			TAP_CHECK_UINT(id.seq, msg.seq);
			TAP_CHECK_UINT(id.cube, msg.cube);
			TAP_CHECK_INT(ftnl_bcast_peek_id(&id, buf, FTNL_BCAST_HDR_LEN - 1), -1);
		}
		for (u32 i = 0; i < msg.ndeaths; i++)
			check_death(&got.deaths[i], &msg.deaths[i]);
		for (u32 p = 0; p < npos; p++)
			if (ftnl_bit_test(dead, p) != ftnl_bit_test(back, p))
				TAP_CHECK_UINT(ftnl_bit_test(back, p), ftnl_bit_test(dead, p));
		/* D's incarnations, whenever they fit in a datagram. */
		{
			u32 k = 0, ndead = 0;

			for (u32 p = 0; p < npos; p++)
				ndead += ftnl_bit_test(dead, p);
			TAP_CHECK_UINT(got.ndead, ndead);
			if (got.dead_incs)
				incs_seen++;
			else
				TAP_CHECK(len + 8ULL * ndead > FTNL_WIRE_MAX_PAYLOAD);
			TAP_CHECK(len <= FTNL_WIRE_MAX_PAYLOAD);
			for (u32 p = 0; p < npos && got.dead_incs; p++)
				if (ftnl_bit_test(dead, p) &&
				    ftnl_bcast_msg_dead_inc(&got, k++) != inc_of_pos(NULL, p))
					TAP_CHECK_UINT(ftnl_bcast_msg_dead_inc(&got, k - 1),
						       inc_of_pos(NULL, p));
			if (got.dead_incs) {
				struct ftnl_bcast_incs_cursor cur = { &got, 0 };
				struct ftnl_bcast_dead_incs again = {
					ftnl_bcast_incs_cursor_next, &cur,
				};
				u8 *buf2 = malloc(cap);

				if (!buf2)
					abort();
				TAP_CHECK_UINT(ftnl_bcast_msg_encode(buf2, cap, &msg, dead,
								     &again), len);
				TAP_CHECK(!memcmp(buf, buf2, len));
				free(buf2);
			}
		}
		/* A cluster of another size never accepts it. */
		TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, back, npos + 1, &members, buf, len), -1);
		free(dead);
		free(back);
	}
	TAP_CHECK(ranges_seen > 0 && bitmaps_seen > 0);
	TAP_CHECK(incs_seen > 0 && incs_seen < 400);
	free(buf);
}

static u32 encode_sample(u8 *buf, u32 cap, u32 npos, unsigned long *dead,
			 bool want_bitmap)
{
	struct ftnl_bcast_msg msg;
	unsigned int seed = 5;

	memset(dead, 0, ftnl_bitmap_longs(npos) * sizeof(long));
	if (want_bitmap) {
		for (u32 p = 0; p < npos; p += 2)
			ftnl_bit_set(dead, p);
	} else {
		ftnl_bit_set(dead, 3);
		ftnl_bit_set(dead, 4);
		ftnl_bit_set(dead, 10);
	}
	fill_msg(&msg, npos, 2, &seed);
	return ftnl_bcast_msg_encode(buf, cap, &msg, dead, &incs);
}

static void test_rejects(const void *arg)
{
	const u32 npos = 77;
	u8 buf[2048], bad[2048];
	unsigned long *dead = bitmap_new(npos);
	struct ftnl_bcast_msg got;
	u32 len, off;

	(void)arg;
	for (int bitmap = 0; bitmap < 2; bitmap++) {
		len = encode_sample(buf, sizeof(buf), npos, dead, bitmap);
		TAP_CHECK(len > 0);
		TAP_CHECK_UINT(buf[3], (bitmap ? FTNL_BCAST_D_BITMAP : FTNL_BCAST_D_RANGES) |
				       FTNL_BCAST_D_INCS);
		TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, &members, buf, len), 0);
		/* Every truncation and every extension. */
		for (u32 l = 0; l < len; l++)
			if (ftnl_bcast_msg_decode(&got, dead, npos, &members, buf, l) != -1)
				TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos,
								    &members, buf, l), -1);
		memcpy(bad, buf, len);
		bad[len] = 0;
		TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, &members, bad, len + 1), -1);
		/* Bad counts, cube, encoding, padding, D length. */
		const struct { u32 off; u8 val; } corrupt[] = {
			{ 1, 2 }, { 2, 0 }, { 2, FTNL_BCAST_MAX_DEATHS + 1 }, { 3, 0x13 },
			{ FTNL_BCAST_HDR_LEN + 18, 1 }, { FTNL_BCAST_HDR_LEN + 19, 9 },
			{ 39, 0xff },
		};
		for (u32 i = 0; i < ARRAY_SIZE(corrupt); i++) {
			memcpy(bad, buf, len);
			bad[corrupt[i].off] = corrupt[i].val;
			if (ftnl_bcast_msg_decode(&got, dead, npos, &members, bad, len) != -1) {
				tap_diag("accepted corruption at offset %u", corrupt[i].off);
				TAP_CHECK(false);
			}
		}
	}

	/* Ranges: second range overlapping, adjacent, or past the end. */
	len = encode_sample(buf, sizeof(buf), npos, dead, false);
	off = FTNL_BCAST_HDR_LEN + 2 * FTNL_BCAST_DEATH_LEN;
	memcpy(bad, buf, len);
	ftnl_put_be16(bad + off + 4, 4);	/* starts inside the first */
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, &members, bad, len), -1);
	memcpy(bad, buf, len);
	ftnl_put_be16(bad + off + 4, 5);	/* adjacent: not maximal */
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, &members, bad, len), -1);
	memcpy(bad, buf, len);
	ftnl_put_be16(bad + off + 6, npos);	/* runs past the last position */
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, &members, bad, len), -1);

	/* Deaths and origin the receiver cannot act on. */
	len = encode_sample(buf, sizeof(buf), npos, dead, false);
	const struct { u32 off; u32 width; u32 val; const char *what; } deaths[] = {
		{ 0, 1, 2, "overlay FCG (GOSSIP only)" },
		{ 4, 4, OUTSIDER, "origin not a member" },
		{ FTNL_BCAST_HDR_LEN, 4, OUTSIDER, "dead node not a member" },
		{ FTNL_BCAST_HDR_LEN + 16, 1, FTNL_CAUSE_MAX + 1, "unknown cause" },
		{ FTNL_BCAST_HDR_LEN + 17, 1, 0, "state alive" },
		{ FTNL_BCAST_HDR_LEN + 17, 1, FTNL_BCAST_JOIN + 1, "unknown state" },
		{ FTNL_BCAST_HDR_LEN + 18, 1, 2, "unknown flag" },
		{ FTNL_BCAST_HDR_LEN + 19, 1, 1, "padding not zero" },
	};
	for (u32 i = 0; i < ARRAY_SIZE(deaths); i++) {
		memcpy(bad, buf, len);
		if (deaths[i].width == 4)
			ftnl_put_be32(bad + deaths[i].off, deaths[i].val);
		else
			bad[deaths[i].off] = deaths[i].val;
		/* a process exit's first slot is its owner: make it a node's */
		if (deaths[i].off == FTNL_BCAST_HDR_LEN)
			bad[FTNL_BCAST_HDR_LEN + 17] = FTNL_NODE_STATE_DEAD;
		if (ftnl_bcast_msg_decode(&got, dead, npos, &members, bad, len) != -1) {
			tap_diag("accepted: %s", deaths[i].what);
			TAP_CHECK(false);
		}
	}
	/* A node death's observer must be a member; a process's rank not. */
	memcpy(bad, buf, len);
	bad[FTNL_BCAST_HDR_LEN + 17] = FTNL_NODE_STATE_DEAD;
	ftnl_put_be32(bad + FTNL_BCAST_HDR_LEN + 4, OUTSIDER);
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, &members, bad, len), -1);
	bad[FTNL_BCAST_HDR_LEN + 17] = FTNL_BCAST_PROC_EXIT;
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, &members, bad, len), 0);
	TAP_CHECK_UINT(got.deaths[0].rank, OUTSIDER);
	/* FTNL_BCAST_RENAMED: on a JOIN only. */
	memcpy(bad, buf, len);
	bad[FTNL_BCAST_HDR_LEN + 17] = FTNL_BCAST_JOIN;
	bad[FTNL_BCAST_HDR_LEN + 18] = FTNL_BCAST_RENAMED;
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, &members, bad, len), 0);
	TAP_CHECK_UINT(got.deaths[0].flags, FTNL_BCAST_RENAMED);
	bad[FTNL_BCAST_HDR_LEN + 17] = FTNL_NODE_STATE_DEAD;
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, &members, bad, len), -1);

	/*
	 * D in the encoding the encoder would not choose: the same set as a
	 * bitmap where ranges are shorter, or as ranges longer than the bitmap.
	 */
	for (int bitmap = 0; bitmap < 2; bitmap++) {
		u32 dstart, dlen = 0;

		len = encode_sample(buf, sizeof(buf), npos, dead, bitmap);
		dstart = FTNL_BCAST_HDR_LEN + 2 * FTNL_BCAST_DEATH_LEN;
		memcpy(bad, buf, dstart);
		if (bitmap) {
			for (u32 p = 0; p < npos; p++) {
				u32 first = p;

				if (!ftnl_bit_test(dead, p))
					continue;
				while (p + 1 < npos && ftnl_bit_test(dead, p + 1))
					p++;
				ftnl_put_be16(bad + dstart + dlen, first);
				ftnl_put_be16(bad + dstart + dlen + 2, p - first);
				dlen += 4;
			}
			bad[3] = FTNL_BCAST_D_RANGES;
		} else {
			dlen = (npos + 7) / 8;
			memset(bad + dstart, 0, dlen);
			for (u32 p = 0; p < npos; p++)
				if (ftnl_bit_test(dead, p))
					bad[dstart + p / 8] |= 1U << (p % 8);
			bad[3] = FTNL_BCAST_D_BITMAP;
		}
		ftnl_put_be32(bad + 36, dlen);
		bad[3] |= FTNL_BCAST_D_INCS;
		{
			u32 ndead = 0;

			for (u32 p = 0; p < npos; p++)
				ndead += ftnl_bit_test(dead, p);
			memset(bad + dstart + dlen, 0, 8 * ndead);
			dlen += 8 * ndead;
		}
		TAP_CHECK(dstart + dlen != len);
		TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, &members, bad,
						    dstart + dlen), -1);
	}

	/* Bitmap: a bit past the last position. */
	len = encode_sample(buf, sizeof(buf), npos, dead, true);
	memcpy(bad, buf, len);
	bad[FTNL_BCAST_HDR_LEN + 2 * FTNL_BCAST_DEATH_LEN + (npos + 7) / 8 - 1] |= 0x80;
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, &members, bad, len), -1);

	/* D's incarnations left out although they fit, or sent twice. */
	for (int bitmap = 0; bitmap < 2; bitmap++) {
		u32 ndead = 0;

		len = encode_sample(buf, sizeof(buf), npos, dead, bitmap);
		for (u32 p = 0; p < npos; p++)
			ndead += ftnl_bit_test(dead, p);
		memcpy(bad, buf, len);
		bad[3] &= ~FTNL_BCAST_D_INCS;
		TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, &members, bad,
						    len - 8 * ndead), -1);
		TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, &members, bad, len), -1);
		memcpy(bad, buf, len);
		memcpy(bad + len, buf + len - 8 * ndead, 8 * ndead);
		TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, &members, bad,
						    len + 8 * ndead), -1);
	}
	free(dead);
}

/* Random bytes never crash the decoder (run under ASan/UBSan). */
static void test_garbage(const void *arg)
{
	unsigned int seed = 11;
	unsigned long *dead = bitmap_new(1000);
	struct ftnl_bcast_msg got;
	u8 buf[600];

	(void)arg;
	for (int round = 0; round < 200000; round++) {
		u32 len = rand_r(&seed) % sizeof(buf);

		for (u32 i = 0; i < len; i++)
			buf[i] = rand_r(&seed);
		if (len >= 40 && round % 2) {
			/* Plausible header so the deeper checks run too. */
			buf[2] = 1 + rand_r(&seed) % 3;
			buf[3] = rand_r(&seed) % 4;
			ftnl_put_be32(buf + 32, 1000);
			ftnl_put_be32(buf + 36, len - 40 - buf[2] * 20);
		}
		(void)ftnl_bcast_msg_decode(&got, dead, 1000, &members, buf, len);
	}
	TAP_CHECK(true);
	free(dead);
}

static void fill_gossip(struct ftnl_gossip_wire *wire,
			struct ftnl_gossip_msg *msg, u32 npos, unsigned int *seed)
{
	memset(wire, 0, sizeof(*wire));
	memset(msg, 0, sizeof(*msg));
	wire->algo = FTNL_GOSSIP_FCG;
	wire->f = 1 + rand_r(seed) % FTNL_GOSSIP_MAX_F;
	wire->lat = 1 + rand_r(seed) % 10;
	wire->origin_id = rand_r(seed);
	wire->origin_incarnation = (u64)rand_r(seed) << 32 | rand_r(seed);
	wire->seq = rand_r(seed) + 1;
	wire->origin_time_ns = (u64)rand_r(seed) << 20;
	wire->gossip_end = rand_r(seed) % (FTNL_GOSSIP_MAX_T + 1);
	wire->npos = npos;
	/* one death mostly, sometimes a batch up to the limit */
	wire->ndeaths = rand_r(seed) % 2 ? 1 :
			1 + rand_r(seed) % FTNL_BCAST_MAX_DEATHS;
	for (u32 i = 0; i < wire->ndeaths; i++) {
		struct ftnl_bcast_death *d = &wire->deaths[i];

		d->node_id = rand_r(seed);
		d->cause = rand_r(seed) % (FTNL_CAUSE_MAX + 1);
		d->state = 1 + rand_r(seed) % 4;
		if (d->state == FTNL_BCAST_PROC_EXIT) {
			d->node_id = wire->origin_id;
			d->owner_uid = rand_r(seed);
			d->rank = rand_r(seed);
			d->job = (u64)rand_r(seed) << 31 | rand_r(seed);
		} else {
			d->observer_id = rand_r(seed);
			d->incarnation = rand_r(seed);
		}
	}
	msg->type = rand_r(seed) % 4;
	msg->time = rand_r(seed) % (FTNL_GOSSIP_MAX_TIME + 1);
	msg->nknown = rand_r(seed) % (FTNL_GOSSIP_MAX_KNOWN + 1);
	for (u32 i = 0; i < msg->nknown; i++)
		msg->known[i] = rand_r(seed) % npos;
}

static void test_gossip_round_trip(const void *arg)
{
	u8 buf[FTNL_GOSSIP_PAYLOAD_MAX];
	unsigned int seed = 17;

	(void)arg;
	for (int round = 0; round < 2000; round++) {
		u32 npos = 1 + rand_r(&seed) % 3000, len;
		struct ftnl_gossip_wire wire, gw;
		struct ftnl_gossip_msg msg, gm;

		fill_gossip(&wire, &msg, npos, &seed);
		len = ftnl_gossip_payload_encode(buf, sizeof(buf), &wire, &msg);
		TAP_CHECK_UINT(len, FTNL_GOSSIP_PAYLOAD_HDR + 4 * msg.nknown +
			       (wire.ndeaths - 1) * FTNL_BCAST_DEATH_LEN);
		if (!TAP_CHECK_INT(ftnl_gossip_payload_decode(&gw, &gm, npos, &members,
							      buf, len), 0))
			return;
		TAP_CHECK_UINT(gw.ndeaths, wire.ndeaths);
		for (u32 i = 0; i < wire.ndeaths && i < gw.ndeaths; i++)
			check_death(&gw.deaths[i], &wire.deaths[i]);
		TAP_CHECK_UINT(gw.origin_incarnation, wire.origin_incarnation);
		TAP_CHECK_UINT(gw.seq, wire.seq);
		TAP_CHECK_UINT(gw.origin_time_ns, wire.origin_time_ns);
		TAP_CHECK_UINT(gw.origin_id, wire.origin_id);
		TAP_CHECK_UINT(gw.gossip_end, wire.gossip_end);
		TAP_CHECK_UINT(gw.f, wire.f);
		TAP_CHECK_UINT(gw.lat, wire.lat);
		{
			struct ftnl_bcast_id id;

			TAP_CHECK_INT(ftnl_bcast_peek_id(&id, buf, len), 0);
			TAP_CHECK_UINT(id.origin_id, wire.origin_id);
			TAP_CHECK_UINT(id.origin_incarnation, wire.origin_incarnation);
			TAP_CHECK_UINT(id.seq, wire.seq);
		}
		TAP_CHECK_UINT(gm.type, msg.type);
		TAP_CHECK_UINT(gm.time, msg.time);
		TAP_CHECK_UINT(gm.nknown, msg.nknown);
		TAP_CHECK_MEM(gm.known, msg.known, 4 * msg.nknown);
		TAP_CHECK_INT(ftnl_gossip_payload_decode(&gw, &gm, npos + 1, &members,
							 buf, len), -1);
		for (u32 l = 0; l < len; l++)
			if (ftnl_gossip_payload_decode(&gw, &gm, npos, &members, buf, l) != -1)
				TAP_CHECK_INT(ftnl_gossip_payload_decode(&gw, &gm, npos,
									 &members, buf, l), -1);
	}
}

static void test_gossip_rejects(const void *arg)
{
	u8 buf[FTNL_GOSSIP_PAYLOAD_MAX], bad[sizeof(buf)];
	const u32 npos = 50;
	struct ftnl_gossip_wire wire, gw;
	struct ftnl_gossip_msg msg, gm;
	unsigned int seed = 23;
	u32 len;
	const struct { u32 off; u32 width; u32 val; const char *what; } corrupt[] = {
		{ 0, 1, __FTNL_GOSSIP_ALGO_MAX, "unknown algorithm" },
		{ 1, 1, FTNL_GOSSIP_MAX_F + 1, "f above the uapi's" },
		{ 3, 1, FTNL_GOSSIP_MAX_KNOWN + 1, "too many known ranks" },
		{ 4, 4, OUTSIDER, "origin not a member" },
		{ 32, 4, FTNL_GOSSIP_MAX_T + 1, "T above the uapi's" },
		{ 40, 4, OUTSIDER, "dead node not a member" },
		{ 56, 1, FTNL_CAUSE_MAX + 1, "unknown cause" },
		{ 57, 1, 0, "state alive" },
		{ 57, 1, FTNL_BCAST_JOIN + 1, "unknown state" },
		{ 58, 1, 1, "death padding" },
		{ 61, 1, 1, "a further death the length lacks" },
		{ 61, 1, FTNL_BCAST_MAX_DEATHS, "more deaths than a message carries" },
		{ 62, 1, 4, "message flags: unknown" },
		{ 63, 1, 1, "message padding" },
		{ 64, 4, FTNL_GOSSIP_MAX_TIME + 1, "clock past half the range" },
		{ 64, 4, FTNL_GOSSIP_NO_WAKE, "clock at NO_WAKE" },
	};

	(void)arg;
	fill_gossip(&wire, &msg, npos, &seed);
	wire.ndeaths = 1;
	wire.deaths[0].state = FTNL_NODE_STATE_DEAD;
	wire.deaths[0].observer_id = 3;
	msg.nknown = 2;
	len = ftnl_gossip_payload_encode(buf, sizeof(buf), &wire, &msg);
	TAP_CHECK_INT(ftnl_gossip_payload_decode(&gw, &gm, npos, &members, buf, len), 0);
	for (u32 i = 0; i < ARRAY_SIZE(corrupt); i++) {
		memcpy(bad, buf, len);
		if (corrupt[i].width == 4)
			ftnl_put_be32(bad + corrupt[i].off, corrupt[i].val);
		else
			bad[corrupt[i].off] = corrupt[i].val;
		if (ftnl_gossip_payload_decode(&gw, &gm, npos, &members, bad, len) != -1) {
			tap_diag("accepted: %s", corrupt[i].what);
			TAP_CHECK(false);
		}
	}
	/* The observer of a node death must be a member. */
	memcpy(bad, buf, len);
	ftnl_put_be32(bad + 44, OUTSIDER);
	TAP_CHECK_INT(ftnl_gossip_payload_decode(&gw, &gm, npos, &members, bad, len), -1);
	/* At the limits: accepted. */
	memcpy(bad, buf, len);
	ftnl_put_be32(bad + 32, FTNL_GOSSIP_MAX_T);
	ftnl_put_be32(bad + 64, FTNL_GOSSIP_MAX_TIME);
	TAP_CHECK_INT(ftnl_gossip_payload_decode(&gw, &gm, npos, &members, bad, len), 0);
}

/*
 * A process exit carries its owner in the node slot and is attributed to
 * the broadcast's origin: no member can report an exit on another node.
 */
static void test_proc_exit_owner(const void *arg)
{
	struct ftnl_bcast_msg msg = {
		.origin_id = 7, .seq = 1, .npos = 16, .ndeaths = 1,
		.deaths[0] = { .node_id = 7, .owner_uid = 1000, .rank = 3,
			       .job = 42, .state = FTNL_BCAST_PROC_EXIT },
	}, got;
	unsigned long dead[1] = { 0 }, got_dead[1];
	u8 buf[256];
	u32 len;

	(void)arg;
	len = ftnl_bcast_msg_encode(buf, sizeof(buf), &msg, dead, NULL);
	TAP_CHECK(len > 0);
	TAP_CHECK_UINT(ftnl_get_be32(buf + FTNL_BCAST_HDR_LEN), 1000);
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, got_dead, 16, &members, buf, len), 0);
	TAP_CHECK_UINT(got.deaths[0].node_id, 7);
	TAP_CHECK_UINT(got.deaths[0].owner_uid, 1000);
	/* another origin: the exit is that origin's */
	ftnl_put_be32(buf + 4, 9);
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, got_dead, 16, &members, buf, len), 0);
	TAP_CHECK_UINT(got.deaths[0].node_id, 9);
	TAP_CHECK_UINT(got.deaths[0].owner_uid, 1000);
}

int main(void)
{
	tap_add(test_proc_exit_owner, NULL, "a process exit carries its owner and belongs to the broadcast's origin");
	tap_add(test_round_trip, NULL, "random messages (node and process deaths) and D round-trip, both encodings, up to 65,536 nodes");
	tap_add(test_rejects, NULL, "truncated, extended or corrupted payloads are rejected");
	tap_add(test_garbage, NULL, "200,000 random payloads decode without crashing");
	tap_add(test_gossip_round_trip, NULL, "GOSSIP payloads round-trip; truncations and another cluster size rejected");
	tap_add(test_gossip_rejects, NULL, "GOSSIP payloads with absurd T, clock, ids, deaths or padding are rejected");
	return tap_run();
}
