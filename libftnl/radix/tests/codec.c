// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * radix-codec: every message type round-trips; the decoder accepts
 * exactly what the encoder produces (any truncation, any byte changed
 * either fails or re-encodes to the very same bytes); named rejections.
 */
#include <errno.h>
#include <string.h>

#include "../msg.h"
#include "tap.h"

#define CAP 40

static struct radix_view view, view2, prev;
static struct radix_set failed, joined, none;
static struct radix_chain chain;
static struct radix_inbox in;

static void setup(void)
{
	radix_view_init(&view, CAP);
	radix_view_init(&view2, CAP);
	radix_view_init(&prev, CAP);
	radix_inbox_init(&in, CAP);
	/* Members 1..9, 12, 20..39; 3 and 21 restarted; root 1. */
	for (uint32_t id = 1; id < CAP; id++)
		if (id < 10 || id == 12 || id >= 20)
			radix_view_add(&view, id, id == 3 ? 2 :
				       id == 21 ? 5 : 1);
	view.seq = 7;
	view.root = 1;
	radix_set_put(&failed, 0, 1);
	radix_set_put(&failed, 10, 3);
	radix_set_put(&joined, 21, 5);
	radix_view_copy(&prev, &view);
	radix_view_del(&prev, 21);
	radix_view_add(&prev, 10, 3);
	radix_view_add(&prev, 0, 1);
	prev.seq = 6;
	prev.root = 0;
	radix_chain_push(&chain, &prev);
	radix_view_copy(&view2, &view);
	view2.seq = 8;
}

static struct radix_msg sample(uint8_t type)
{
	struct radix_msg m = {
		.type = type, .group = 0x1122334455667788ull,
		.from = { 5, 2 }, .who = { 17, 3 },
	};

	switch (type) {
	case RADIX_MSG_FAILED_NODE:
	case RADIX_MSG_ROOT_AND_NODE_FAILURE:
		m.term = 0x100000001ull;
		m.floor = 6;
		m.view = &view;
		m.failed = &failed;
		m.joined = type == RADIX_MSG_FAILED_NODE ? &none : &joined;
		m.chain = type == RADIX_MSG_FAILED_NODE ? NULL : &chain;
		m.seq = view.seq;
		break;
	case RADIX_MSG_NODE_JOIN:
		m.term = 3;
		m.view = &view;
		m.failed = &none;
		m.joined = &joined;
		m.seq = view.seq;
		break;
	case RADIX_MSG_ROOT_DEAD:
		m.term = 0x200000004ull;
		m.floor = 2;
		m.view = &view;
		m.failed = &none;
		m.joined = &none;
		m.seq = view.seq;
		break;
	case RADIX_MSG_FAILURE_ACK:
	case RADIX_MSG_NODE_JOIN_ACK:
		m.term = 9;
		m.seq = 4;
		break;
	case RADIX_MSG_ROOT_DEAD_ACK:
		m.term = 9;
		m.seq = 6;
		m.min_seq = 5;
		break;
	case RADIX_MSG_JOIN_DET_ACK:
		m.term = 9;
		m.view = &view;
		m.joined = &joined;
		m.seq = view.seq;
		break;
	case RADIX_MSG_JOIN_REDIRECT:
		m.who = (struct radix_member){ RADIX_NONE, 0 };
		break;
	case RADIX_MSG_NEW_NODE:
		m.who = m.from = (struct radix_member){ 33, 1 };
		break;
	}
	return m;
}

static void test_roundtrip(const void *arg)
{
	uint8_t type = (uint8_t)(uintptr_t)arg;
	struct radix_msg m = sample(type);
	uint8_t buf[4096], again[4096];
	size_t len = radix_msg_encode(&m, buf, sizeof(buf)), len2, framed;
	const struct radix_msg *d = &in.msg;

	if (!TAP_CHECK(len) || !TAP_CHECK_UINT(len, radix_msg_size(&m)))
		return;
	TAP_CHECK_INT(radix_msg_frame(buf, len, &framed), 0);
	TAP_CHECK_UINT(framed, len);
	TAP_CHECK_INT(radix_msg_frame(buf, 7, &framed), -EAGAIN);
	TAP_CHECK_UINT(radix_msg_encode(&m, buf, len - 1), 0);
	if (!TAP_CHECK_INT(radix_msg_decode(buf, len, &in), 0))
		return;
	TAP_CHECK_UINT(d->type, type);
	TAP_CHECK_UINT(d->group, m.group);
	TAP_CHECK_UINT(d->from.id, m.from.id);
	TAP_CHECK_UINT(d->from.inc, m.from.inc);
	TAP_CHECK_UINT(d->term, m.term);
	TAP_CHECK_UINT(d->seq, m.seq);
	TAP_CHECK_UINT(d->floor, m.floor);
	TAP_CHECK_UINT(d->min_seq, m.min_seq);
	if (m.view)
		TAP_CHECK(d->view && radix_view_equal(d->view, m.view));
	if (m.chain && m.chain->n) {
		TAP_CHECK(d->chain && d->chain->n == 1 &&
			  radix_view_equal(&d->chain->v[0], &prev));
	}
	if (m.failed && d->failed)
		TAP_CHECK_UINT(d->failed->n, m.failed->n);
	if (m.joined && d->joined)
		TAP_CHECK_UINT(d->joined->n, m.joined->n);
	if (!m.view && !radix_msg_is_round(type) && type != 8 && type != 9 &&
	    type != 10) {
		TAP_CHECK_UINT(d->who.id, m.who.id);
		TAP_CHECK_UINT(d->who.inc, m.who.inc);
	}
	/* Decoded, re-encoded: the same bytes. */
	len2 = radix_msg_encode(d, again, sizeof(again));
	TAP_CHECK_UINT(len2, len);
	TAP_CHECK_MEM(again, buf, len);
}

/*
 * Strictness: every proper prefix fails; every single changed byte (all
 * 255 other values) fails or decodes to a message whose encoding is
 * exactly the changed buffer.
 */
static void test_strict(const void *arg)
{
	uint8_t type = (uint8_t)(uintptr_t)arg;
	struct radix_msg m = sample(type);
	uint8_t buf[4096], again[4096];
	size_t len = radix_msg_encode(&m, buf, sizeof(buf));
	uint64_t accepted = 0, refused = 0;

	for (size_t cut = 0; cut < len; cut++)
		if (!TAP_CHECK(radix_msg_decode(buf, cut, &in) < 0))
			return;
	for (size_t i = 0; i < len; i++) {
		uint8_t orig = buf[i];

		for (int v = 0; v < 256; v++) {
			if (v == orig)
				continue;
			buf[i] = (uint8_t)v;
			if (radix_msg_decode(buf, len, &in)) {
				refused++;
				continue;
			}
			accepted++;
			if (!TAP_CHECK_UINT(radix_msg_encode(&in.msg, again,
							     sizeof(again)),
					    len) ||
			    !TAP_CHECK_MEM(again, buf, len)) {
				tap_diag("byte %zu = %d", i, v);
				buf[i] = orig;
				return;
			}
		}
		buf[i] = orig;
	}
	tap_diag("%s: %zu bytes, %" PRIu64 " changes refused, %" PRIu64
		 " accepted (canonical)", radix_msg_type_name(type), len,
		 refused, accepted);
}

/* Encode @m, let @poke change the bytes, expect @want from the decoder. */
static int decode_poked(struct radix_msg m, size_t off, const void *bytes,
			size_t n)
{
	uint8_t buf[4096];
	size_t len = radix_msg_encode(&m, buf, sizeof(buf));

	memcpy(buf + off, bytes, n);
	return radix_msg_decode(buf, len, &in);
}

static void test_rejections(const void *arg)
{
	struct radix_msg m = sample(RADIX_MSG_NODE_FAILURE);
	uint8_t buf[4096];
	size_t len;
	uint32_t big = CAP, zero = 0;
	uint8_t v2 = 2;

	(void)arg;
	TAP_CHECK_INT(decode_poked(m, 0, "XX", 2), -EBADMSG);
	TAP_CHECK_INT(decode_poked(m, 2, &v2, 1), -EPROTONOSUPPORT);
	TAP_CHECK_INT(decode_poked(m, 24, &big, 4), -EBADMSG);	/* id */
	TAP_CHECK_INT(decode_poked(m, 28, &zero, 4), -EBADMSG);	/* inc */
	TAP_CHECK_INT(decode_poked(m, 20, &zero, 4), -EBADMSG);	/* sender */
	/* Trailing bytes. */
	len = radix_msg_encode(&m, buf, sizeof(buf));
	buf[4] = (uint8_t)(len + 1);
	TAP_CHECK_INT(radix_msg_decode(buf, len + 1, &in), -EBADMSG);

	/* A change whose failed process is still a member. */
	m = sample(RADIX_MSG_FAILED_NODE);
	radix_set_put(&failed, 5, 1);
	TAP_CHECK(radix_msg_encode(&m, buf, sizeof(buf)));
	TAP_CHECK_INT(radix_msg_decode(buf, radix_msg_size(&m), &in),
		      -EBADMSG);
	radix_set_del(&failed, 5);
	/* ... or joiners in a FAILED_NODE, none in a NODE_JOIN. */
	m.joined = &joined;
	radix_msg_encode(&m, buf, sizeof(buf));
	TAP_CHECK_INT(radix_msg_decode(buf, radix_msg_size(&m), &in),
		      -EBADMSG);
	m = sample(RADIX_MSG_NODE_JOIN);
	m.joined = &none;
	radix_msg_encode(&m, buf, sizeof(buf));
	TAP_CHECK_INT(radix_msg_decode(buf, radix_msg_size(&m), &in),
		      -EBADMSG);
	/* A joiner with another incarnation than the view's. */
	m = sample(RADIX_MSG_NODE_JOIN);
	radix_set_put(&joined, 21, 4);
	radix_msg_encode(&m, buf, sizeof(buf));
	TAP_CHECK_INT(radix_msg_decode(buf, radix_msg_size(&m), &in),
		      -EBADMSG);
	radix_set_put(&joined, 21, 5);
	/* A chain outside ROOT_AND_NODE_FAILURE, or with a gap. */
	m = sample(RADIX_MSG_NODE_JOIN);
	m.chain = &chain;
	radix_msg_encode(&m, buf, sizeof(buf));
	TAP_CHECK_INT(radix_msg_decode(buf, radix_msg_size(&m), &in),
		      -EBADMSG);
	m = sample(RADIX_MSG_ROOT_AND_NODE_FAILURE);
	chain.v[0].seq = 5;
	radix_msg_encode(&m, buf, sizeof(buf));
	TAP_CHECK_INT(radix_msg_decode(buf, radix_msg_size(&m), &in),
		      -EBADMSG);
	chain.v[0].seq = 6;
	/* A floor above the view. */
	m = sample(RADIX_MSG_ROOT_DEAD);
	m.floor = 8;
	radix_msg_encode(&m, buf, sizeof(buf));
	TAP_CHECK_INT(radix_msg_decode(buf, radix_msg_size(&m), &in),
		      -EBADMSG);
	/* A ROOT_DEAD whose dead are not members of its view. */
	m = sample(RADIX_MSG_ROOT_DEAD);
	m.failed = &failed;
	radix_msg_encode(&m, buf, sizeof(buf));
	TAP_CHECK_INT(radix_msg_decode(buf, radix_msg_size(&m), &in),
		      -EBADMSG);
	/* A root that is no member. */
	m = sample(RADIX_MSG_JOIN_DET_ACK);
	view.root = 11;
	radix_msg_encode(&m, buf, sizeof(buf));
	TAP_CHECK_INT(radix_msg_decode(buf, radix_msg_size(&m), &in),
		      -EBADMSG);
	view.root = 1;
	/* A ROOT_DEAD_ACK whose min_seq is above its seq and chain. */
	m = sample(RADIX_MSG_ROOT_DEAD_ACK);
	m.chain = &chain;
	m.joined = &none;
	m.seq = 4;
	m.min_seq = 6;
	radix_msg_encode(&m, buf, sizeof(buf));
	TAP_CHECK_INT(radix_msg_decode(buf, radix_msg_size(&m), &in), 0);
	m.min_seq = 7;
	radix_msg_encode(&m, buf, sizeof(buf));
	TAP_CHECK_INT(radix_msg_decode(buf, radix_msg_size(&m), &in),
		      -EBADMSG);
	m = sample(RADIX_MSG_ROOT_DEAD_ACK);
	m.min_seq = 7;
	radix_msg_encode(&m, buf, sizeof(buf));
	TAP_CHECK_INT(radix_msg_decode(buf, radix_msg_size(&m), &in),
		      -EBADMSG);
	/* A NEW_NODE for another, a redirect naming none with an inc. */
	m = sample(RADIX_MSG_JOIN_REDIRECT);
	m.who.inc = 1;
	radix_msg_encode(&m, buf, sizeof(buf));
	TAP_CHECK_INT(radix_msg_decode(buf, radix_msg_size(&m), &in),
		      -EBADMSG);
}

/* Runs: adjacent or out of order, an incarnation 1 listed, sets unsorted. */
static void test_view_canonical(const void *arg)
{
	struct radix_msg m = sample(RADIX_MSG_JOIN_DET_ACK);
	uint8_t buf[4096];
	size_t len = radix_msg_encode(&m, buf, sizeof(buf));
	/* view at 32: seq(8) root(4) runs(4) = 3: {1,9} {12,1} {20,20} */
	uint32_t touching = 10, backwards = 5, one = 1;

	(void)arg;

	TAP_CHECK_INT(decode_poked(m, 32 + 16 + 8, &touching, 4), -EBADMSG);
	TAP_CHECK_INT(decode_poked(m, 32 + 16 + 8, &backwards, 4), -EBADMSG);
	TAP_CHECK_INT(decode_poked(m, 32 + 16 + 3 * 8 + 4 + 4, &one, 4),
		      -EBADMSG);
	TAP_CHECK_INT(radix_msg_decode(buf, len, &in), 0);
}

int main(void)
{
	static const uint8_t types[] = {
		RADIX_MSG_NODE_FAILURE, RADIX_MSG_ROOT_FAILURE,
		RADIX_MSG_FAILURE_DET_ACK, RADIX_MSG_FAILED_NODE,
		RADIX_MSG_NODE_JOIN, RADIX_MSG_ROOT_AND_NODE_FAILURE,
		RADIX_MSG_ROOT_DEAD, RADIX_MSG_FAILURE_ACK,
		RADIX_MSG_NODE_JOIN_ACK, RADIX_MSG_ROOT_DEAD_ACK,
		RADIX_MSG_NEW_NODE, RADIX_MSG_NODE_ALIVE,
		RADIX_MSG_JOIN_DET_ACK, RADIX_MSG_JOIN_REDIRECT,
	};

	setup();
	for (size_t i = 0; i < sizeof(types); i++)
		tap_add(test_roundtrip, (const void *)(uintptr_t)types[i],
			"%s round-trips", radix_msg_type_name(types[i]));
	for (size_t i = 0; i < sizeof(types); i++)
		tap_add(test_strict, (const void *)(uintptr_t)types[i],
			"%s: the decoder accepts only canonical bytes",
			radix_msg_type_name(types[i]));
	tap_add(test_rejections, NULL, "named rejections");
	tap_add(test_view_canonical, NULL, "views: runs and incarnations "
		"canonical");
	return tap_run();
}
