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

/*
 * A random ULFM value: random flag and failed set; the acknowledged set is
 * empty, random, nearly full, or every rank (F's identity), which have
 * distinct encodings.
 */
static void random_value(const struct era_ulfm *u, uint64_t *value)
{
	unsigned int acked_kind = rnd64() % 4;

	era_ulfm_value_init(u, value, rnd64());
	for (uint32_t r = 0; r < u->nranks; r++) {
		if (rnd64() % 5 == 0)
			era_ulfm_set_failed(u, value, r);
		if ((acked_kind == 1 && rnd64() % 3 == 0) ||
		    (acked_kind == 2 && r) || acked_kind == 3)
			era_ulfm_set_acked(u, value, r);
	}
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

	random_value(u, value);
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
		0x45, 0x52, 1, 1, 49, 0, 0, 0,
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
		0x2a, 0, 0, 0, 0, 0, 0, 0,
		0x29, 0, 0, 0, 0, 0, 0, 0,			/* gc 41 */
		0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,	/* flag */
		3,			/* 3 failed ranks: */
		5,			/* 5 */
		0,			/* 6 */
		0x80, 0x01,		/* 6 + 128 + 1 = 135 */
		3,			/* 2 acknowledged ranks (+ 1): */
		5,			/* 5 */
		0x81, 0x01,		/* 5 + 129 + 1 = 135 */
	};
	static const uint8_t identity[] = {	/* a DOWN carrying F's identity */
		0x45, 0x52, 1, 2, 42, 0, 0, 0,
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
		0x2a, 0, 0, 0, 0, 0, 0, 0,
		0x29, 0, 0, 0, 0, 0, 0, 0,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,	/* flag */
		0,			/* no failed rank */
		0,			/* every rank acknowledged */
	};
	struct era_ulfm u;
	uint64_t v[ERA_ULFM_VALUE_WORDS(200)], w[ERA_ULFM_VALUE_WORDS(200)];
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
	era_ulfm_set_acked(&u, v, 5);
	era_ulfm_set_acked(&u, v, 135);
	m.type = ERA_MSG_UP;
	m.gc = 41;
	m.value = v;
	TAP_CHECK_INT(era_msg_encode(&u.op, &m, buf, sizeof(buf)),
		      sizeof(up));
	TAP_CHECK_MEM(buf, up, sizeof(up));
	TAP_CHECK_INT(era_msg_decode(&u.op, up, sizeof(up), &d, w), 0);
	TAP_CHECK_MEM(w, v, u.op.value_size);
	TAP_CHECK_UINT(era_ulfm_failed_count(&u, w), 3);
	TAP_CHECK(era_ulfm_acked(&u, w, 5) && era_ulfm_acked(&u, w, 135) &&
		  !era_ulfm_acked(&u, w, 6));

	u.op.identity(&u.op, v);
	m.type = ERA_MSG_DOWN;
	TAP_CHECK_INT(era_msg_encode(&u.op, &m, buf, sizeof(buf)),
		      sizeof(identity));
	TAP_CHECK_MEM(buf, identity, sizeof(identity));
	TAP_CHECK_INT(era_msg_decode(&u.op, identity, sizeof(identity), &d,
				     w), 0);
	TAP_CHECK_MEM(w, v, u.op.value_size);
	TAP_CHECK(era_ulfm_acked(&u, w, 0) && era_ulfm_acked(&u, w, 199) &&
		  !era_ulfm_acked(&u, w, 200));
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
	uint64_t v[ERA_ULFM_VALUE_WORDS(10)], w[ERA_ULFM_VALUE_WORDS(10)];
	uint8_t good[64], bad[64];
	struct era_msg m = { .type = ERA_MSG_DOWN, .group = 7, .id = 3,
			     .gc = 2, .value = v }, d;
	size_t len;

	(void)arg;
	era_ulfm_init(&u, 10);
	era_ulfm_value_init(&u, v, 5);
	era_ulfm_set_failed(&u, v, 9);
	len = era_msg_encode(&u.op, &m, good, sizeof(good));
	TAP_CHECK_UINT(len, 32 + 8 + 1 + 1 + 1);	/* flag, 1 failed, 0 acked */
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
	bad[43] = 1;
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

	memcpy(bad, good, len);		/* acknowledged: 1 rank, valid */
	bad[42] = 2;
	bad[43] = 9;
	bad[4] = 44;
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, 44, &d, w), 0);
	TAP_CHECK(era_ulfm_acked(&u, w, 9) && !era_ulfm_acked(&u, w, 8));

	bad[43] = 10;			/* acknowledged rank 10 of 10 */
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, 44, &d, w), -EBADMSG);

	bad[4] = 43;			/* the acknowledged rank missing */
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, 43, &d, w), -EBADMSG);

	bad[42] = 11;			/* every rank listed: 0 is canonical */
	memset(bad + 43, 0, 10);
	bad[4] = 53;
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, 53, &d, w), -EBADMSG);

	bad[42] = 12;			/* more acknowledged ranks than ranks */
	bad[53] = 0;
	bad[4] = 54;
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, 54, &d, w), -EBADMSG);

	memcpy(bad, good, len);		/* no acknowledged-set field */
	bad[4] = 42;
	TAP_CHECK_INT(era_msg_decode(&u.op, bad, 42, &d, w), -EBADMSG);

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
	uint64_t v[ERA_ULFM_VALUE_WORDS(100)], w[ERA_ULFM_VALUE_WORDS(100)];
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

/*
 * F on ULFM values: associative, commutative, idempotent, with identity,
 * and the acknowledged set an intersection whose identity is every rank.
 */
static void test_ulfm_algebra(const void *arg)
{
	enum { N = 70, W = ERA_ULFM_VALUE_WORDS(N) };
	struct era_ulfm u;
	uint64_t a[W], b[W], c[W], x[W], y[W], id[W];
	const struct era_op *op;

	(void)arg;
	era_ulfm_init(&u, N);
	op = &u.op;
	op->identity(op, id);
	for (int i = 0; i < 2000; i++) {
		random_value(&u, a);
		random_value(&u, b);
		random_value(&u, c);
		memcpy(x, a, sizeof(x));		/* (a.b).c */
		op->combine(op, x, b);
		op->combine(op, x, c);
		memcpy(y, b, sizeof(y));		/* a.(b.c) */
		op->combine(op, y, c);
		op->combine(op, y, a);
		if (!TAP_CHECK_MEM(x, y, sizeof(x)))
			break;
		memcpy(x, a, sizeof(x));		/* a.a = a */
		op->combine(op, x, a);
		TAP_CHECK_MEM(x, a, sizeof(x));
		memcpy(x, id, sizeof(x));		/* e.a = a */
		op->combine(op, x, a);
		TAP_CHECK_MEM(x, a, sizeof(x));
		memcpy(x, a, sizeof(x));		/* the intersection */
		op->combine(op, x, b);
		for (uint32_t r = 0; r < N; r++)
			if (!TAP_CHECK(era_ulfm_acked(&u, x, r) ==
				       (era_ulfm_acked(&u, a, r) &&
					era_ulfm_acked(&u, b, r))))
				return;
	}

	/* The error: a failure outside the acknowledged intersection. */
	era_ulfm_value_init(&u, a, 1);
	era_ulfm_set_failed(&u, a, 3);
	era_ulfm_set_acked(&u, a, 3);
	TAP_CHECK(!era_ulfm_unacked_failure(&u, a));
	era_ulfm_value_init(&u, b, 1);		/* b has not acknowledged 3 */
	era_ulfm_set_failed(&u, b, 3);
	memcpy(x, a, sizeof(x));
	op->combine(op, x, b);
	TAP_CHECK(era_ulfm_unacked_failure(&u, x));
	era_ulfm_set_acked(&u, b, 3);		/* now both have */
	memcpy(x, a, sizeof(x));
	op->combine(op, x, b);
	TAP_CHECK(!era_ulfm_unacked_failure(&u, x));
	era_ulfm_set_failed(&u, b, 69);		/* a new failure */
	op->combine(op, x, b);
	TAP_CHECK(era_ulfm_unacked_failure(&u, x));
	TAP_CHECK(!era_ulfm_unacked_failure(&u, id));
}

int main(void)
{
	tap_add(test_round_trip, NULL, "encode/decode round trips");
	tap_add(test_golden, NULL, "golden bytes (msg.h, ulfm.h)");
	tap_add(test_frame, NULL, "stream framing");
	tap_add(test_malformed, NULL, "malformed messages rejected");
	tap_add(test_fuzz, NULL, "corrupted messages: rejected or canonical");
	tap_add(test_ulfm_algebra, NULL,
		"ULFM value: F's laws, acknowledged intersection, error");
	return tap_run();
}
