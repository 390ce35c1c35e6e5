// SPDX-License-Identifier: GPL-2.0
/*
 * The broadcast payload codec (kmod/bcast/message.c) in userspace: random
 * round trips with both D encodings, and strict rejection of everything
 * that is not exactly an encoding (every truncation, corrupted fields,
 * ranges out of order or out of range, stray bitmap bits).
 */
#include <stdlib.h>
#include <string.h>

#include "../../tools/testing/tap.h"
#include "../bcast/message.h"
#include "../wire.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

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
		d->state = 1 + rand_r(seed) % 3;	/* dead, left, process exit */
		if (d->state == FTNL_BCAST_PROC_EXIT) {
			d->rank = rand_r(seed);
			d->job = (u64)rand_r(seed) << 31 | rand_r(seed);
		} else {
			d->observer_id = rand_r(seed);
			d->incarnation = rand_r(seed);
		}
	}
}

static void test_round_trip(const void *arg)
{
	unsigned int seed = 3;
	u32 cap = ftnl_bcast_msg_max_len(FTNL_BCAST_MAX_POSITIONS);
	u8 *buf = malloc(cap);
	int ranges_seen = 0, bitmaps_seen = 0;

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
		len = ftnl_bcast_msg_encode(buf, cap, &msg, dead);
		TAP_CHECK(len > 0);
		TAP_CHECK(len <= ftnl_bcast_msg_max_len(npos));
		if (buf[3] == FTNL_BCAST_D_RANGES)
			ranges_seen++;
		else
			bitmaps_seen++;
		TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, back, npos, buf, len), 0);
		TAP_CHECK_UINT(got.origin_id, msg.origin_id);
		TAP_CHECK_UINT(got.origin_incarnation, msg.origin_incarnation);
		TAP_CHECK_UINT(got.seq, msg.seq);
		TAP_CHECK_UINT(got.origin_time_ns, msg.origin_time_ns);
		TAP_CHECK_UINT(got.ndeaths, msg.ndeaths);
		TAP_CHECK_UINT(got.cube, msg.cube);
		TAP_CHECK_UINT(got.overlay, msg.overlay);
		for (u32 i = 0; i < msg.ndeaths; i++) {
			TAP_CHECK_UINT(got.deaths[i].node_id, msg.deaths[i].node_id);
			TAP_CHECK_UINT(got.deaths[i].observer_id, msg.deaths[i].observer_id);
			TAP_CHECK_UINT(got.deaths[i].incarnation, msg.deaths[i].incarnation);
			TAP_CHECK_UINT(got.deaths[i].cause, msg.deaths[i].cause);
			TAP_CHECK_UINT(got.deaths[i].state, msg.deaths[i].state);
			TAP_CHECK_UINT(got.deaths[i].rank, msg.deaths[i].rank);
			TAP_CHECK_UINT(got.deaths[i].job, msg.deaths[i].job);
		}
		for (u32 p = 0; p < npos; p++)
			if (ftnl_bit_test(dead, p) != ftnl_bit_test(back, p))
				TAP_CHECK_UINT(ftnl_bit_test(back, p), ftnl_bit_test(dead, p));
		/* A cluster of another size never accepts it. */
		TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, back, npos + 1, buf, len), -1);
		free(dead);
		free(back);
	}
	TAP_CHECK(ranges_seen > 0 && bitmaps_seen > 0);
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
	return ftnl_bcast_msg_encode(buf, cap, &msg, dead);
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
		TAP_CHECK_UINT(buf[3], bitmap ? FTNL_BCAST_D_BITMAP : FTNL_BCAST_D_RANGES);
		TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, buf, len), 0);
		/* Every truncation and every extension. */
		for (u32 l = 0; l < len; l++)
			if (ftnl_bcast_msg_decode(&got, dead, npos, buf, l) != -1)
				TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, buf, l), -1);
		memcpy(bad, buf, len);
		bad[len] = 0;
		TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, bad, len + 1), -1);
		/* Bad counts, cube, encoding, padding, D length. */
		const struct { u32 off; u8 val; } corrupt[] = {
			{ 1, 2 }, { 2, 0 }, { 2, FTNL_BCAST_MAX_DEATHS + 1 }, { 3, 7 },
			{ FTNL_BCAST_HDR_LEN + 18, 1 }, { FTNL_BCAST_HDR_LEN + 19, 9 },
			{ 39, 0xff },
		};
		for (u32 i = 0; i < ARRAY_SIZE(corrupt); i++) {
			memcpy(bad, buf, len);
			bad[corrupt[i].off] = corrupt[i].val;
			if (ftnl_bcast_msg_decode(&got, dead, npos, bad, len) != -1) {
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
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, bad, len), -1);
	memcpy(bad, buf, len);
	ftnl_put_be16(bad + off + 4, 5);	/* adjacent: not maximal */
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, bad, len), -1);
	memcpy(bad, buf, len);
	ftnl_put_be16(bad + off + 6, npos);	/* runs past the last position */
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, bad, len), -1);

	/* Bitmap: a bit past the last position. */
	len = encode_sample(buf, sizeof(buf), npos, dead, true);
	memcpy(bad, buf, len);
	bad[len - 1] |= 0x80;
	TAP_CHECK_INT(ftnl_bcast_msg_decode(&got, dead, npos, bad, len), -1);
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
			buf[3] = rand_r(&seed) % 2;
			ftnl_put_be32(buf + 32, 1000);
			ftnl_put_be32(buf + 36, len - 40 - buf[2] * 20);
		}
		(void)ftnl_bcast_msg_decode(&got, dead, 1000, buf, len);
	}
	TAP_CHECK(true);
	free(dead);
}

int main(void)
{
	tap_add(test_round_trip, NULL, "random messages (node and process deaths) and D round-trip, both encodings, up to 65,536 nodes");
	tap_add(test_rejects, NULL, "truncated, extended or corrupted payloads are rejected");
	tap_add(test_garbage, NULL, "200,000 random payloads decode without crashing");
	return tap_run();
}
