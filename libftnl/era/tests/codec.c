// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ERA wire format: round trips, golden bytes, and a decoder that accepts
 * exactly what the encoder produces (malformed input comes from sockets).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../msg.h"
#include "../ulfm.h"
#include "tap.h"

#define MAXBUF 4096

static uint64_t rng_state = 0x1234;

static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A random message of @type for groups of @n ranks into @value. */
static struct era_msg random_msg(const struct era_ulfm *u, uint8_t type,
				 uint64_t *value)
{
	struct era_msg m = {
		.type = type,
		.group = rnd64(),
		.id = rnd64() | 1,
		.gc = type == ERA_MSG_RESULT_REQUEST ? 0 : rnd64(),
	};

	era_ulfm_value_init(u, value, rnd64());
	for (uint32_t r = 0; r < u->nranks; r++)
		if (rnd64() % 5 == 0)
			era_ulfm_set_failed(u, value, r);
	if (type != ERA_MSG_RESULT_REQUEST)
		m.value = value;
	return m;
}

static void test_round_trip(const void *arg)
{
	static const uint32_t sizes[] = { 1, 2, 63, 64, 65, 1000 };

	(void)arg;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
		struct era_ulfm u;
		uint64_t *v, *w;

		era_ulfm_init(&u, sizes[i]);
		v = malloc(u.op.value_size);
		w = malloc(u.op.value_size);
		if (!TAP_CHECK(v && w)) {
			free(v);
			free(w);
			return;
		}
		for (uint8_t t = ERA_MSG_UP; t <= ERA_MSG_RESULT_REQUEST;
		     t++) {
			for (int k = 0; k < 50; k++) {
				struct era_msg m = random_msg(&u, t, v), d;
				uint8_t buf[MAXBUF];
				size_t len = era_msg_encode(&u.op, &m, buf,
							    sizeof(buf));

				if (!TAP_CHECK(len == era_msg_size(&u.op, &m)))
					continue;
				TAP_CHECK_INT(era_msg_decode(&u.op, buf, len,
							     &d, w), 0);
				TAP_CHECK_UINT(d.type, t);
				TAP_CHECK_UINT(d.group, m.group);
				TAP_CHECK_UINT(d.id, m.id);
				TAP_CHECK_UINT(d.gc, m.gc);
				if (t != ERA_MSG_RESULT_REQUEST)
					TAP_CHECK_MEM(w, v, u.op.value_size);
				else
					TAP_CHECK(!d.value);
				TAP_CHECK_INT(era_msg_encode(&u.op, &m, buf,
							     len - 1), 0);
			}
		}
		free(v);
		free(w);
	}
}

/* The layout of msg.h and ulfm.h, byte for byte. */
static void test_golden(const void *arg)
{
	static const uint8_t request[] = {
		0x45, 0x52, 1, 3, 24, 0, 0, 0,
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
		0x2a, 0, 0, 0, 0, 0, 0, 0,
	};
	static const uint8_t up[] = {
		0x45, 0x52, 1, 1, 45, 0, 0, 0,
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
		0x2a, 0, 0, 0, 0, 0, 0, 0,
		0x29, 0, 0, 0, 0, 0, 0, 0,			/* gc 41 */
		0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,	/* flag */
		3,			/* 3 failed ranks: */
		5,			/* 5 */
		0,			/* 6 */
		0x80, 0x01,		/* 6 + 128 + 1 = 135 */
	};
	struct era_ulfm u;
	uint64_t v[5], w[5];		/* 200 ranks: flag + 4 words */
	uint8_t buf[64];
	struct era_msg m = {
		.type = ERA_MSG_RESULT_REQUEST,
		.group = 0x0102030405060708ull,
		.id = 42,
	}, d;

	(void)arg;
	era_ulfm_init(&u, 200);
	TAP_CHECK_INT(era_msg_encode(&u.op, &m, buf, sizeof(buf)),
		      sizeof(request));
	TAP_CHECK_MEM(buf, request, sizeof(request));

	era_ulfm_value_init(&u, v, ~(uint64_t)1);
	era_ulfm_set_failed(&u, v, 5);
	era_ulfm_set_failed(&u, v, 6);
	era_ulfm_set_failed(&u, v, 135);
	m.type = ERA_MSG_UP;
	m.gc = 41;
	m.value = v;
	TAP_CHECK_INT(era_msg_encode(&u.op, &m, buf, sizeof(buf)),
		      sizeof(up));
	TAP_CHECK_MEM(buf, up, sizeof(up));
	TAP_CHECK_INT(era_msg_decode(&u.op, up, sizeof(up), &d, w), 0);
	TAP_CHECK_MEM(w, v, u.op.value_size);
	TAP_CHECK_UINT(era_ulfm_failed_count(&u, w), 3);
}

static void test_frame(const void *arg)
{
	static const uint8_t hdr[] = { 0x45, 0x52, 1, 2, 40, 0, 0, 0 };
	uint8_t b[8];
	size_t len = 0;

	(void)arg;
	TAP_CHECK_INT(era_msg_frame(hdr, 7, &len), -EAGAIN);
	TAP_CHECK_INT(era_msg_frame(hdr, 8, &len), 0);
	TAP_CHECK_UINT(len, 40);
	memcpy(b, hdr, 8);
	b[0] = 0x46;
	TAP_CHECK_INT(era_msg_frame(b, 8, &len), -EBADMSG);
	memcpy(b, hdr, 8);
	b[2] = 2;
	TAP_CHECK_INT(era_msg_frame(b, 8, &len), -EPROTONOSUPPORT);
	memcpy(b, hdr, 8);
	b[3] = 0;
	TAP_CHECK_INT(era_msg_frame(b, 8, &len), -EBADMSG);
	b[3] = 4;
	TAP_CHECK_INT(era_msg_frame(b, 8, &len), -EBADMSG);
	memcpy(b, hdr, 8);
	b[4] = 31;			/* shorter than an UP/DOWN header */
	TAP_CHECK_INT(era_msg_frame(b, 8, &len), -EBADMSG);
	memcpy(b, hdr, 8);
	b[7] = 0x10;			/* beyond ERA_MSG_MAX_LEN */
	TAP_CHECK_INT(era_msg_frame(b, 8, &len), -EBADMSG);
	memcpy(b, hdr, 8);
	b[3] = 3;			/* a RESULT_REQUEST is 24 bytes */
	TAP_CHECK_INT(era_msg_frame(b, 8, &len), -EBADMSG);
}

/* Hand-made malformed messages, each rejected. */
static void test_malformed(const void *arg)
{
	struct era_ulfm u;
	uint64_t v[2], w[2];
	uint8_t good[64], bad[64];
	struct era_msg m = { .type = ERA_MSG_DOWN, .group = 7, .id = 3,
			     .gc = 2, .value = v }, d;
	size_t len;

	(void)arg;
	era_ulfm_init(&u, 10);
	era_ulfm_value_init(&u, v, 5);
	era_ulfm_set_failed(&u, v, 9);
	len = era_msg_encode(&u.op, &m, good, sizeof(good));
	TAP_CHECK_UINT(len, 32 + 8 + 1 + 1);
	TAP_CHECK_INT(era_msg_decode(&u.op, good, len, &d, w), 0);

	/* Every truncation, and one byte too many. */
	for (size_t l = 0; l < len; l++)
		TAP_CHECK_INT(era_msg_decode(&u.op, good, l, &d, w), -EBADMSG);
	memcpy(bad, good, len);
	bad[len] = 0;
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, len + 1, &d, w), -EBADMSG);
	bad[4]++;			/* ...even if the length says so */
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, len + 1, &d, w), -EBADMSG);

	memcpy(bad, good, len);		/* agreement id 0 */
	memset(bad + 16, 0, 8);
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, len, &d, w), -EBADMSG);

	memcpy(bad, good, len);		/* rank 10 of 10 */
	bad[41] = 10;
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, len, &d, w), -EBADMSG);

	memcpy(bad, good, len);		/* 11 failed ranks of 10 */
	bad[40] = 11;
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, len, &d, w), -EBADMSG);

	memcpy(bad, good, len);		/* 2 failed, 1 given */
	bad[40] = 2;
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, len, &d, w), -EBADMSG);

	memcpy(bad, good, len);		/* non-minimal varint 9 = 0x89 0x00 */
	bad[41] = 0x89;
	bad[42] = 0;
	bad[4]++;
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, len + 1, &d, w), -EBADMSG);

	memcpy(bad, good, len);		/* gaps that overflow 64 bits */
	bad[40] = 2;
	bad[41] = 1;
	memset(bad + 42, 0xff, 9);
	bad[51] = 0x01;
	bad[4] = 52;
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, 52, &d, w), -EBADMSG);

	memcpy(bad, good, len);		/* an 11-byte varint */
	memset(bad + 40, 0x80, 10);
	bad[50] = 0;
	bad[4] = 51;
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, 51, &d, w), -EBADMSG);

	memcpy(bad, good, len);		/* a value where none belongs */
	bad[3] = ERA_MSG_RESULT_REQUEST;
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, len, &d, w), -EBADMSG);
}

/*
 * Random corruption of valid messages: whatever the decoder accepts must
 * be canonical, i.e. re-encode to the very same bytes.
 */
static void test_fuzz(const void *arg)
{
	struct era_ulfm u;
	uint64_t v[3], w[3];
	unsigned int accepted = 0, mismatches = 0;

	(void)arg;
	era_ulfm_init(&u, 100);
	for (int i = 0; i < 200000; i++) {
		struct era_msg m = random_msg(&u, 1 + rnd64() % 3, v), d;
		uint8_t buf[MAXBUF], again[MAXBUF];
		size_t len = era_msg_encode(&u.op, &m, buf, sizeof(buf));
		int flips = 1 + rnd64() % 3;

		for (int f = 0; f < flips; f++)
			buf[rnd64() % len] ^= (uint8_t)(1 + rnd64() % 255);
		if (rnd64() % 4 == 0)
			len -= rnd64() % len;
		if (era_msg_decode(&u.op, buf, len, &d, w))
			continue;
		accepted++;
		if (era_msg_encode(&u.op, &d, again, sizeof(again)) != len ||
		    memcmp(again, buf, len))
			mismatches++;
	}
	TAP_CHECK_UINT(mismatches, 0);
	tap_diag("%u of 200000 corrupted messages still valid, all canonical",
		 accepted);
}

int main(void)
{
	tap_add(test_round_trip, NULL, "encode/decode round trips");
	tap_add(test_golden, NULL, "golden bytes (msg.h, ulfm.h)");
	tap_add(test_frame, NULL, "stream framing");
	tap_add(test_malformed, NULL, "malformed messages rejected");
	tap_add(test_fuzz, NULL, "corrupted messages: rejected or canonical");
	return tap_run();
}
