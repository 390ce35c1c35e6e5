// SPDX-License-Identifier: GPL-2.0
/*
 * The datagram header codec and the anti-replay window (kmod/wire.c),
 * compiled into userspace.
 */
#include <string.h>

#include "../../tools/testing/tap.h"
#include "../wire.h"

static void test_header_layout(const void *arg)
{
	const struct ftnl_wire_hdr hdr = {
		.magic = FTNL_WIRE_MAGIC, .version = 1, .type = FTNL_MSG_LEAVE,
		.payload_len = 0x0102, .cluster_id = 0x0a0b0c0d,
		.sender_id = 7, .dest_id = 0xfffffffe,
		.incarnation = 0x1122334455667788ULL,
		.echo = 0x99aabbccddeeff01ULL, .seq = 42,
		.epoch = 0x01020304, .timeout_us = 0xa0b0c0d0,
		.first = 0x0102030405060708ULL,
	};
	static const u8 want[FTNL_WIRE_HDR_LEN] = {
		'F', 'T', 'N', 'L', 1, 3, 0x01, 0x02,
		0x0a, 0x0b, 0x0c, 0x0d, 0, 0, 0, 7,
		0xff, 0xff, 0xff, 0xfe,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x01,
		0, 0, 0, 0, 0, 0, 0, 42,
		0x01, 0x02, 0x03, 0x04, 0xa0, 0xb0, 0xc0, 0xd0,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	};
	u8 buf[FTNL_WIRE_HDR_LEN];
	struct ftnl_wire_hdr back;

	(void)arg;
	ftnl_wire_hdr_encode(buf, &hdr);
	TAP_CHECK_MEM(buf, want, sizeof(want));
	memset(&back, 0, sizeof(back));
	ftnl_wire_hdr_decode(&back, buf);
	TAP_CHECK_UINT(back.magic, hdr.magic);
	TAP_CHECK_UINT(back.version, hdr.version);
	TAP_CHECK_UINT(back.type, hdr.type);
	TAP_CHECK_UINT(back.payload_len, hdr.payload_len);
	TAP_CHECK_UINT(back.cluster_id, hdr.cluster_id);
	TAP_CHECK_UINT(back.sender_id, hdr.sender_id);
	TAP_CHECK_UINT(back.dest_id, hdr.dest_id);
	TAP_CHECK_UINT(back.incarnation, hdr.incarnation);
	TAP_CHECK_UINT(back.echo, hdr.echo);
	TAP_CHECK_UINT(back.seq, hdr.seq);
	TAP_CHECK_UINT(back.epoch, hdr.epoch);
	TAP_CHECK_UINT(back.timeout_us, hdr.timeout_us);
	TAP_CHECK_UINT(back.first, hdr.first);
}

/* The window took @seq as new. */
static bool replay_new(struct ftnl_replay *win, u64 seq)
{
	return ftnl_replay_accept(win, seq) == FTNL_REPLAY_NEW;
}

static void test_replay_in_order(const void *arg)
{
	struct ftnl_replay win = { 0 };

	(void)arg;
	TAP_CHECK(!replay_new(&win, 0));
	for (u64 seq = 1; seq <= 1000; seq++)
		TAP_CHECK(replay_new(&win, seq));
	for (u64 seq = 1; seq <= 1000; seq++)
		TAP_CHECK(!replay_new(&win, seq));
}

static void test_replay_reordered(const void *arg)
{
	struct ftnl_replay win = { 0 };

	(void)arg;
	TAP_CHECK(replay_new(&win, 100));
	/* Late but within the window: accepted once. */
	TAP_CHECK(replay_new(&win, 99));
	TAP_CHECK(!replay_new(&win, 99));
	TAP_CHECK(replay_new(&win, 100 - FTNL_REPLAY_WINDOW + 1));
	TAP_CHECK(!replay_new(&win, 100 - FTNL_REPLAY_WINDOW + 1));
	/* Older than the window: refused even if never seen. */
	TAP_CHECK(!replay_new(&win, 100 - FTNL_REPLAY_WINDOW));
	TAP_CHECK(!replay_new(&win, 1));
	/* A jump past the window forgets the old bits but keeps the rule. */
	TAP_CHECK(replay_new(&win, 1000));
	TAP_CHECK(!replay_new(&win, 100));
	TAP_CHECK(replay_new(&win, 999));
	TAP_CHECK(!replay_new(&win, 1000));
	TAP_CHECK(replay_new(&win, UINT64_MAX));
	TAP_CHECK(!replay_new(&win, UINT64_MAX));
}

/* Random arrival orders: each number accepted exactly once. */
static void test_replay_random(const void *arg)
{
	unsigned int seed = 7;

	(void)arg;
	for (int round = 0; round < 200; round++) {
		struct ftnl_replay win = { 0 };
		u64 order[256];
		int accepted = 0;

		for (int i = 0; i < 256; i++)
			order[i] = i + 1;
		/*
		 * Shuffle within blocks of 32 (Fisher-Yates): no number
		 * arrives 64 or more behind the highest seen.
		 */
		for (int block = 0; block < 256; block += 32) {
			for (int i = 31; i > 0; i--) {
				int j = rand_r(&seed) % (i + 1);
				u64 t = order[block + i];

				order[block + i] = order[block + j];
				order[block + j] = t;
			}
		}
		for (int i = 0; i < 256; i++) {
			accepted += replay_new(&win, order[i]);
			TAP_CHECK(!replay_new(&win, order[i]));
		}
		TAP_CHECK_INT(accepted, 256);
	}
}

static void test_probe_payload(const void *arg)
{
	const struct ftnl_wire_probe probe = {
		.target_id = 0x01020304, .origin_id = 0x0a0b0c0d,
		.flags = FTNL_PROBE_ALIVE, .probe_id = 0x11223344,
	};
	const u8 want[FTNL_WIRE_PROBE_LEN] = { 1, 2, 3, 4, 10, 11, 12, 13, 1,
					       0x11, 0x22, 0x33, 0x44 };
	u8 buf[FTNL_WIRE_PROBE_LEN];
	struct ftnl_wire_probe back = { 0 };

	(void)arg;
	ftnl_wire_probe_encode(buf, &probe);
	TAP_CHECK_MEM(buf, want, sizeof(want));
	TAP_CHECK_INT(ftnl_wire_probe_decode(&back, buf, sizeof(buf)), 0);
	TAP_CHECK_UINT(back.target_id, probe.target_id);
	TAP_CHECK_UINT(back.origin_id, probe.origin_id);
	TAP_CHECK_UINT(back.flags, probe.flags);
	TAP_CHECK_UINT(back.probe_id, probe.probe_id);
	/* Version 4's 9 bytes (no identifier) are refused. */
	TAP_CHECK_INT(ftnl_wire_probe_decode(&back, buf, 9), -EINVAL);
	TAP_CHECK_INT(ftnl_wire_probe_decode(&back, buf, sizeof(buf) - 1),
		      -EINVAL);
	buf[8] = 0x02;
	TAP_CHECK_INT(ftnl_wire_probe_decode(&back, buf, sizeof(buf)), -EINVAL);
}

/* The lock-free pre-check agrees with the window on every number. */
static void test_replay_seen_agrees(const void *arg)
{
	unsigned int seed = 11;

	(void)arg;
	for (int round = 0; round < 200; round++) {
		struct ftnl_replay win = { 0 };

		if (round & 1)
			ftnl_replay_start(&win, 1 + rand_r(&seed) % 200);
		for (int i = 0; i < 300; i++) {
			u64 seq = (u64)(rand_r(&seed) % 400);
			enum ftnl_replay_verdict v = ftnl_replay_check(&win, seq);

			TAP_CHECK(v == ftnl_replay_accept(&win, seq));
			TAP_CHECK(ftnl_replay_check(&win, seq) != FTNL_REPLAY_NEW);
		}
	}
}

/*
 * A window started at a datagram (its sender's life pinned there) holds
 * every earlier number as seen, but tells those within its reach apart:
 * sent before the first one counted, not accepted here (a copy reordered
 * around the start is no replay).
 */
static void test_replay_start(const void *arg)
{
	struct ftnl_replay win;

	(void)arg;
	ftnl_replay_start(&win, 100);
	TAP_CHECK_INT(ftnl_replay_check(&win, 99), FTNL_REPLAY_EARLY);
	TAP_CHECK_INT(ftnl_replay_accept(&win, 100), FTNL_REPLAY_NEW);
	TAP_CHECK_INT(ftnl_replay_accept(&win, 100), FTNL_REPLAY_SEEN);
	TAP_CHECK_INT(ftnl_replay_accept(&win, 99), FTNL_REPLAY_EARLY);
	TAP_CHECK_INT(ftnl_replay_accept(&win, 99), FTNL_REPLAY_EARLY);
	TAP_CHECK_INT(ftnl_replay_accept(&win, 37), FTNL_REPLAY_EARLY);
	/* Beyond the window's reach: too old, whatever the floor. */
	TAP_CHECK_INT(ftnl_replay_accept(&win, 36), FTNL_REPLAY_SEEN);
	TAP_CHECK_INT(ftnl_replay_accept(&win, 0), FTNL_REPLAY_SEEN);
	/* Above the floor, reordered: accepted once. */
	TAP_CHECK_INT(ftnl_replay_accept(&win, 103), FTNL_REPLAY_NEW);
	TAP_CHECK_INT(ftnl_replay_accept(&win, 101), FTNL_REPLAY_NEW);
	TAP_CHECK_INT(ftnl_replay_accept(&win, 102), FTNL_REPLAY_NEW);
	TAP_CHECK_INT(ftnl_replay_accept(&win, 101), FTNL_REPLAY_SEEN);
	TAP_CHECK_INT(ftnl_replay_accept(&win, 98), FTNL_REPLAY_EARLY);
	/* The top moves on: the floor falls out of reach. */
	TAP_CHECK_INT(ftnl_replay_accept(&win, 170), FTNL_REPLAY_NEW);
	TAP_CHECK_INT(ftnl_replay_accept(&win, 107), FTNL_REPLAY_NEW);
	TAP_CHECK_INT(ftnl_replay_accept(&win, 106), FTNL_REPLAY_SEEN);
	TAP_CHECK_INT(ftnl_replay_accept(&win, 99), FTNL_REPLAY_SEEN);
	/* A window started at the first number has nothing below it. */
	ftnl_replay_start(&win, 1);
	TAP_CHECK_INT(ftnl_replay_check(&win, 0), FTNL_REPLAY_SEEN);
	TAP_CHECK_INT(ftnl_replay_accept(&win, 1), FTNL_REPLAY_NEW);
}

/*
 * The keys a datagram is signed with during the update grace: the current
 * one to a peer known to hold it (heard in this epoch or a later one, or
 * authenticated with it), a spare copy with the previous one to any other;
 * no previous key, the current one alone.
 */
static void test_sign(const void *arg)
{
	(void)arg;
	TAP_CHECK_INT(ftnl_wire_sign(false, 2, false, 0, false), FTNL_SIGN_CURRENT);
	TAP_CHECK_INT(ftnl_wire_sign(false, 2, true, 1, true), FTNL_SIGN_CURRENT);
	/* Not heard: either key. */
	TAP_CHECK_INT(ftnl_wire_sign(true, 2, false, 0, false), FTNL_SIGN_BOTH);
	/* Heard in epoch 1 under the previous key: it may have updated since. */
	TAP_CHECK_INT(ftnl_wire_sign(true, 2, true, 1, true), FTNL_SIGN_BOTH);
	/* An older epoch with the current key (a fresh start): current. */
	TAP_CHECK_INT(ftnl_wire_sign(true, 2, true, 1, false), FTNL_SIGN_CURRENT);
	/* Updated, whatever key it last used towards this node: current. */
	TAP_CHECK_INT(ftnl_wire_sign(true, 2, true, 2, true), FTNL_SIGN_CURRENT);
	TAP_CHECK_INT(ftnl_wire_sign(true, 2, true, 3, true), FTNL_SIGN_CURRENT);
	TAP_CHECK_INT(ftnl_wire_sign(true, 2, true, 2, false), FTNL_SIGN_CURRENT);
}

/*
 * The two sequence number spaces: what has no payload (the ring's
 * datagrams, sent first) and what has one (sent after them); every type
 * of one kind in one space, by its type alone.
 */
static void test_spaces(const void *arg)
{
	static const u8 ring[] = {
		FTNL_MSG_HEARTBEAT, FTNL_MSG_NEW_OBSERVER, FTNL_MSG_LEAVE,
		FTNL_MSG_HELLO, FTNL_MSG_HELLO_ACK,
	};
	static const u8 bcast[] = {
		FTNL_MSG_BCAST, FTNL_MSG_GOSSIP, FTNL_MSG_EXPELLED,
		FTNL_MSG_PROBE_REQ, FTNL_MSG_PROBE_ACK, FTNL_MSG_JOIN,
	};
	size_t i;

	(void)arg;
	for (i = 0; i < sizeof(ring); i++)
		TAP_CHECK_INT(ftnl_wire_space(ring[i]), FTNL_SPACE_RING);
	for (i = 0; i < sizeof(bcast); i++)
		TAP_CHECK_INT(ftnl_wire_space(bcast[i]), FTNL_SPACE_BCAST);
	TAP_CHECK_INT(FTNL_WIRE_SPACES, 2);
}

int main(void)
{
	tap_add(test_header_layout, NULL, "header encodes big endian at fixed offsets and decodes back");
	tap_add(test_replay_in_order, NULL, "replay window: in-order numbers once, 0 never");
	tap_add(test_replay_reordered, NULL, "replay window: reordering within the window, nothing older");
	tap_add(test_replay_random, NULL, "replay window: locally shuffled arrivals accepted exactly once");
	tap_add(test_probe_payload, NULL, "probe payload: ids and flags at fixed offsets, wrong length or flags rejected");
	tap_add(test_replay_seen_agrees, NULL, "replay pre-check refuses exactly what the window refuses");
	tap_add(test_replay_start, NULL, "a started window tells numbers before its start from replays");
	tap_add(test_sign, NULL, "update grace: the key each peer can verify");
	tap_add(test_spaces, NULL, "sequence number spaces: ring datagrams apart from those with a payload");
	return tap_run();
}
