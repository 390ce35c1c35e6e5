// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The join protocol's pure parts: the agreed value of a view, ULFM's plus
 * the joiners (group/joinop.c), and the JOIN and WELCOME messages
 * (group/joinmsg.c). The value's combine must be what ERA needs (an
 * associative, commutative, idempotent operation with an identity) also
 * when it cuts the joiners to the lowest GRP_JOIN_SLOTS ranks; both codecs
 * must take exactly what they write: round trips, every truncation
 * refused, every one-byte change refused or decoded to exactly the
 * changed bytes, named malformed cases.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "group/joinmsg.h"
#include "group/joinop.h"
#include "tap.h"

#define NRANKS	40	/* the view */
#define WORLD	200	/* the world: joiners are below it */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static struct grp_join_op jop;

/* A random contribution: flag, failures, acks, up to 90 joiners. */
static void random_value(void *v)
{
	uint32_t joiners = (uint32_t)(rnd() % 91);

	memset(v, 0, jop.op.value_size);
	era_ulfm_value_init(&jop.ulfm, v, rnd());
	for (int i = 0; i < 3; i++) {
		uint32_t r = (uint32_t)(rnd() % NRANKS);

		era_ulfm_set_failed(&jop.ulfm, v, r);
		if (rnd() & 1)
			era_ulfm_set_acked(&jop.ulfm, v, r);
	}
	for (uint32_t i = 0; i < joiners; i++)
		grp_join_add(&jop, v, (uint32_t)(rnd() % WORLD),
			     (uint32_t)(rnd() % 4) + 1);
}

static void test_algebra(const void *arg)
{
	size_t size = jop.op.value_size;
	uint8_t *a = malloc(size), *b = malloc(size), *c = malloc(size);
	uint8_t *x = malloc(size), *y = malloc(size), *id = malloc(size);
	unsigned int bad = 0;

	(void)arg;
	jop.op.identity(&jop.op, id);
	for (int round = 0; round < 2000; round++) {
		random_value(a);
		random_value(b);
		random_value(c);
		/* (a b) c == a (b c) */
		memcpy(x, a, size);
		jop.op.combine(&jop.op, x, b);
		jop.op.combine(&jop.op, x, c);
		memcpy(y, b, size);
		jop.op.combine(&jop.op, y, c);
		jop.op.combine(&jop.op, y, a);	/* commutes too */
		bad += !!memcmp(x, y, size);
		/* a a == a, a id == a */
		memcpy(x, a, size);
		jop.op.combine(&jop.op, x, a);
		bad += !!memcmp(x, a, size);
		memcpy(x, a, size);
		jop.op.combine(&jop.op, x, id);
		bad += !!memcmp(x, a, size);
	}
	TAP_CHECK_UINT(bad, 0);
	free(a);
	free(b);
	free(c);
	free(x);
	free(y);
	free(id);
}

/* The lowest ranks are kept, each with its highest incarnation. */
static void test_cut(const void *arg)
{
	uint8_t *v = malloc(jop.op.value_size), *w = malloc(jop.op.value_size);
	const struct grp_joiner *j;

	(void)arg;
	jop.op.identity(&jop.op, v);
	jop.op.identity(&jop.op, w);
	for (uint32_t r = WORLD - 1; r >= 100; r--)
		grp_join_add(&jop, v, r, 1);
	TAP_CHECK_UINT(grp_join_count(&jop, v), GRP_JOIN_SLOTS);
	grp_join_add(&jop, w, 5, 2);
	grp_join_add(&jop, w, 100, 7);
	grp_join_add(&jop, w, 5, 1);	/* lower: the 2 stays */
	grp_join_add(&jop, w, WORLD, 1);	/* out of the world: ignored */
	grp_join_add(&jop, w, 6, 0);	/* incarnation 0: ignored */
	TAP_CHECK_UINT(grp_join_count(&jop, w), 2);
	jop.op.combine(&jop.op, v, w);
	j = grp_join_list(&jop, v);
	TAP_CHECK_UINT(grp_join_count(&jop, v), GRP_JOIN_SLOTS);
	TAP_CHECK_UINT(j[0].rank, 5);
	TAP_CHECK_UINT(j[0].inc, 2);
	TAP_CHECK_UINT(j[1].rank, 100);
	TAP_CHECK_UINT(j[1].inc, 7);
	TAP_CHECK_UINT(j[GRP_JOIN_SLOTS - 1].rank, 100 + GRP_JOIN_SLOTS - 2);
	free(v);
	free(w);
}

/* Encode @v, then check the decoder on it and on every variant. */
static void check_value_codec(const void *v)
{
	size_t size = jop.op.wire_size(&jop.op, v), len;
	uint8_t *buf = malloc(size + 1), *again = malloc(size + 1);
	uint8_t *out = malloc(jop.op.value_size);
	unsigned int bad = 0;

	len = jop.op.encode(&jop.op, v, buf);
	TAP_CHECK_UINT(len, size);
	if (!TAP_CHECK_INT(jop.op.decode(&jop.op, buf, len, out), 0))
		goto out;
	TAP_CHECK(!memcmp(out, v, jop.op.value_size));
	for (size_t cut = 0; cut < len; cut++)
		bad += !jop.op.decode(&jop.op, buf, cut, out);
	buf[len] = 0;
	bad += !jop.op.decode(&jop.op, buf, len + 1, out);
	for (size_t i = 0; i < len; i++) {
		for (int bit = 0; bit < 8; bit++) {
			buf[i] ^= (uint8_t)(1u << bit);
			if (!jop.op.decode(&jop.op, buf, len, out) &&
			    (jop.op.encode(&jop.op, out, again) != len ||
			     memcmp(again, buf, len)))
				bad++;
			buf[i] ^= (uint8_t)(1u << bit);
		}
	}
	TAP_CHECK_UINT(bad, 0);
out:
	free(buf);
	free(again);
	free(out);
}

static void test_value_codec(const void *arg)
{
	uint8_t *v = malloc(jop.op.value_size);

	(void)arg;
	jop.op.identity(&jop.op, v);
	check_value_codec(v);
	for (int i = 0; i < 50; i++) {
		random_value(v);
		check_value_codec(v);
	}
	free(v);
}

static void test_value_bad(const void *arg)
{
	uint8_t *v = malloc(jop.op.value_size), buf[64];
	size_t len;

	(void)arg;
	jop.op.identity(&jop.op, v);
	grp_join_add(&jop, v, 3, 1);
	grp_join_add(&jop, v, 9, 2);
	len = jop.op.encode(&jop.op, v, buf);
	/* ranks out of order */
	buf[1] = 9;
	buf[9] = 3;
	TAP_CHECK_INT(jop.op.decode(&jop.op, buf, len, v), -EBADMSG);
	buf[1] = 3;
	buf[9] = 9;
	/* a rank beyond the world */
	buf[9] = WORLD & 0xff;
	TAP_CHECK_INT(jop.op.decode(&jop.op, buf, len, v), -EBADMSG);
	buf[9] = 9;
	/* incarnation 0 */
	buf[5] = 0;
	TAP_CHECK_INT(jop.op.decode(&jop.op, buf, len, v), -EBADMSG);
	buf[5] = 1;
	/* more joiners than slots */
	buf[0] = GRP_JOIN_SLOTS + 1;
	TAP_CHECK_INT(jop.op.decode(&jop.op, buf, len, v), -EBADMSG);
	buf[0] = 2;
	TAP_CHECK_INT(jop.op.decode(&jop.op, buf, len, v), 0);
	free(v);
}

/* ---- messages ------------------------------------------------------------ */

static uint32_t dm[WORLD], di[WORLD];

static void check_msg_codec(const struct grp_join_msg *m)
{
	size_t size = grp_join_msg_size(m), len, flen;
	uint8_t *buf = malloc(size + 1), *again = malloc(size + 1);
	struct grp_join_msg out = { .members = dm, .incs = di };
	unsigned int bad = 0;

	len = grp_join_msg_encode(m, buf, size);
	TAP_CHECK_UINT(len, size);
	TAP_CHECK_UINT(grp_join_msg_encode(m, buf, size - 1), 0);
	TAP_CHECK_INT(grp_join_msg_frame(buf, len, &flen), 0);
	TAP_CHECK_UINT(flen, len);
	if (!TAP_CHECK_INT(grp_join_msg_decode(buf, len, WORLD, &out), 0))
		goto out;
	TAP_CHECK_UINT(out.type, m->type);
	TAP_CHECK_UINT(out.job, m->job);
	TAP_CHECK_UINT(out.inc, m->inc);
	if (m->type == GRP_JOIN_T_WELCOME) {
		TAP_CHECK_UINT(out.view_id, m->view_id);
		TAP_CHECK_UINT(out.joiner_inc, m->joiner_inc);
		TAP_CHECK_UINT(out.count, m->count);
		TAP_CHECK(!memcmp(dm, m->members, m->count * 4));
		TAP_CHECK(!memcmp(di, m->incs, m->count * 4));
	}
	for (size_t cut = 0; cut < len; cut++)
		bad += !grp_join_msg_decode(buf, cut, WORLD, &out);
	buf[len] = 0;
	bad += !grp_join_msg_decode(buf, len + 1, WORLD, &out);
	for (size_t i = 0; i < len; i++) {
		for (int bit = 0; bit < 8; bit++) {
			buf[i] ^= (uint8_t)(1u << bit);
			if (!grp_join_msg_decode(buf, len, WORLD, &out) &&
			    (grp_join_msg_encode(&out, again, len) != len ||
			     memcmp(again, buf, len)))
				bad++;
			buf[i] ^= (uint8_t)(1u << bit);
		}
	}
	TAP_CHECK_UINT(bad, 0);
out:
	free(buf);
	free(again);
}

static void test_msg_codec(const void *arg)
{
	uint32_t members[5] = { 0, 2, 3, 7, WORLD - 1 }, incs[5] = {
		1, 1, 3, 1, 2 };
	struct grp_join_msg join = { .type = GRP_JOIN_T_JOIN, .job = 77,
				     .inc = 2 };
	struct grp_join_msg welcome = {
		.type = GRP_JOIN_T_WELCOME, .job = 77, .inc = 1,
		.joiner_inc = 3, .view_id = 12, .count = 5,
		.members = members, .incs = incs,
	};

	(void)arg;
	check_msg_codec(&join);
	check_msg_codec(&welcome);
}

static void test_msg_bad(const void *arg)
{
	uint32_t members[3] = { 1, 2, 3 }, incs[3] = { 1, 1, 1 };
	struct grp_join_msg w = {
		.type = GRP_JOIN_T_WELCOME, .job = 5, .inc = 1,
		.joiner_inc = 1, .view_id = 1, .count = 3,
		.members = members, .incs = incs,
	}, out = { .members = dm, .incs = di };
	uint8_t buf[64];
	size_t len, flen;

	(void)arg;
	len = grp_join_msg_encode(&w, buf, sizeof(buf));
	TAP_CHECK_INT(grp_join_msg_decode(buf, len, 3, &out), -EBADMSG);
	TAP_CHECK_INT(grp_join_msg_decode(buf, len, 4, &out), 0);
	members[1] = 1;		/* not increasing */
	len = grp_join_msg_encode(&w, buf, sizeof(buf));
	TAP_CHECK_INT(grp_join_msg_decode(buf, len, WORLD, &out), -EBADMSG);
	members[1] = 2;
	incs[2] = 0;		/* incarnation 0 */
	len = grp_join_msg_encode(&w, buf, sizeof(buf));
	TAP_CHECK_INT(grp_join_msg_decode(buf, len, WORLD, &out), -EBADMSG);
	incs[2] = 1;
	w.joiner_inc = 0;
	len = grp_join_msg_encode(&w, buf, sizeof(buf));
	TAP_CHECK_INT(grp_join_msg_decode(buf, len, WORLD, &out), -EBADMSG);
	w.joiner_inc = 1;
	w.inc = 0;
	len = grp_join_msg_encode(&w, buf, sizeof(buf));
	TAP_CHECK_INT(grp_join_msg_decode(buf, len, WORLD, &out), -EBADMSG);
	w.inc = 1;
	len = grp_join_msg_encode(&w, buf, sizeof(buf));
	buf[32] = 2;		/* a count the length does not hold */
	TAP_CHECK_INT(grp_join_msg_decode(buf, len, WORLD, &out), -EBADMSG);
	buf[32] = 3;
	buf[2] = 2;		/* another version */
	TAP_CHECK_INT(grp_join_msg_decode(buf, len, WORLD, &out),
		      -EPROTONOSUPPORT);
	buf[2] = 1;
	buf[3] = 3;		/* an unknown type */
	TAP_CHECK_INT(grp_join_msg_frame(buf, len, &flen), -EBADMSG);
	buf[3] = 2;
	buf[1] = 'X';
	TAP_CHECK_INT(grp_join_msg_frame(buf, len, &flen), -EBADMSG);
	TAP_CHECK_INT(grp_join_msg_frame(buf, 7, &flen), -EAGAIN);
}

int main(void)
{
	grp_join_op_init(&jop, NRANKS, WORLD);
	tap_add(test_algebra, NULL,
		"the value: associative, commutative, idempotent, identity");
	tap_add(test_cut, NULL,
		"joiners: the lowest ranks kept, the highest incarnation");
	tap_add(test_value_codec, NULL,
		"the value's codec takes exactly what it writes");
	tap_add(test_value_bad, NULL, "malformed joiners refused");
	tap_add(test_msg_codec, NULL,
		"JOIN and WELCOME: the codec takes exactly what it writes");
	tap_add(test_msg_bad, NULL, "malformed JOIN and WELCOME refused");
	return tap_run();
}
