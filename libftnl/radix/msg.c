// SPDX-License-Identifier: LGPL-2.1-or-later
/* Radix membership wire format: see msg.h for the layout. */
#include <errno.h>
#include <string.h>

#include "msg.h"

#define MAGIC0 0x52	/* 'R' */
#define MAGIC1 0x58	/* 'X' */

const char *radix_msg_type_name(unsigned int type)
{
	static const char *const names[] = {
		"?", "NODE_FAILURE", "ROOT_FAILURE", "FAILURE_DET_ACK",
		"FAILED_NODE", "NODE_JOIN", "ROOT_AND_NODE_FAILURE",
		"ROOT_DEAD", "FAILURE_ACK", "NODE_JOIN_ACK", "ROOT_DEAD_ACK",
		"NEW_NODE", "NODE_ALIVE", "JOIN_DET_ACK", "JOIN_REDIRECT",
	};

	return type <= RADIX_MSG_TYPE_MAX ? names[type] : "?";
}

bool radix_msg_is_round(unsigned int type)
{
	return type >= RADIX_MSG_FAILED_NODE && type <= RADIX_MSG_ROOT_DEAD;
}

unsigned int radix_msg_ack_type(unsigned int round_type)
{
	switch (round_type) {
	case RADIX_MSG_NODE_JOIN:
		return RADIX_MSG_NODE_JOIN_ACK;
	case RADIX_MSG_ROOT_DEAD:
		return RADIX_MSG_ROOT_DEAD_ACK;
	default:
		return RADIX_MSG_FAILURE_ACK;
	}
}

static bool has_member_body(unsigned int type)
{
	return type <= RADIX_MSG_FAILURE_DET_ACK ||
	       type == RADIX_MSG_NEW_NODE || type == RADIX_MSG_NODE_ALIVE ||
	       type == RADIX_MSG_JOIN_REDIRECT;
}

/* ---- sizes ------------------------------------------------------------- */

static uint32_t view_runs(const struct radix_view *v)
{
	uint32_t runs = 0, id = radix_view_next(v, 0);

	while (id != RADIX_NONE) {
		runs++;
		id = radix_view_next(v, radix_view_next_gap(v, id));
	}
	return runs;
}

static size_t view_size(const struct radix_view *v)
{
	return 8 + 4 + 4 + 8 * (size_t)view_runs(v) + 4 + 8 * (size_t)v->incs.n;
}

static size_t set_size(const struct radix_set *s)
{
	return 4 + 8 * (size_t)(s ? s->n : 0);
}

static size_t chain_size(const struct radix_chain *c)
{
	size_t len = 4;

	for (uint32_t i = 0; c && i < c->n; i++)
		len += view_size(&c->v[i]);
	return len;
}

size_t radix_msg_size(const struct radix_msg *m)
{
	size_t len = RADIX_MSG_HEADER_LEN;

	if (has_member_body(m->type))
		return len + 8;
	switch (m->type) {
	case RADIX_MSG_FAILED_NODE:
	case RADIX_MSG_NODE_JOIN:
	case RADIX_MSG_ROOT_AND_NODE_FAILURE:
	case RADIX_MSG_ROOT_DEAD:
		if (!m->view)
			return 0;
		return len + 16 + view_size(m->view) + set_size(m->failed) +
		       set_size(m->joined) + chain_size(m->chain);
	case RADIX_MSG_FAILURE_ACK:
	case RADIX_MSG_NODE_JOIN_ACK:
		return len + 20;
	case RADIX_MSG_ROOT_DEAD_ACK:
		len += 28 + chain_size(m->chain);
		if (m->chain && m->chain->n)
			len += set_size(m->joined);
		return len;
	case RADIX_MSG_JOIN_DET_ACK:
		if (!m->view)
			return 0;
		return len + 8 + view_size(m->view) + set_size(m->joined) +
		       chain_size(m->chain);
	default:
		return 0;
	}
}

/* ---- encoding ---------------------------------------------------------- */

struct writer {
	uint8_t *p;
};

static void put32(struct writer *w, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		*w->p++ = (uint8_t)(v >> (8 * i));
}

static void put64(struct writer *w, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		*w->p++ = (uint8_t)(v >> (8 * i));
}

static void put_view(struct writer *w, const struct radix_view *v)
{
	uint32_t id = radix_view_next(v, 0);

	put64(w, v->seq);
	put32(w, v->root);
	put32(w, view_runs(v));
	while (id != RADIX_NONE) {
		uint32_t gap = radix_view_next_gap(v, id);

		put32(w, id);
		put32(w, gap - id);
		id = radix_view_next(v, gap);
	}
	put32(w, v->incs.n);
	for (uint32_t i = 0; i < v->incs.n; i++) {
		put32(w, v->incs.v[i].id);
		put32(w, v->incs.v[i].inc);
	}
}

static void put_set(struct writer *w, const struct radix_set *s)
{
	put32(w, s ? s->n : 0);
	for (uint32_t i = 0; s && i < s->n; i++) {
		put32(w, s->v[i].id);
		put32(w, s->v[i].inc);
	}
}

static void put_chain(struct writer *w, const struct radix_chain *c)
{
	put32(w, c ? c->n : 0);
	for (uint32_t i = 0; c && i < c->n; i++)
		put_view(w, &c->v[i]);
}

size_t radix_msg_encode(const struct radix_msg *m, uint8_t *buf, size_t cap)
{
	size_t len = radix_msg_size(m);
	struct writer w = { buf };

	if (!len || len > cap || len > RADIX_MSG_MAX_LEN)
		return 0;
	*w.p++ = MAGIC0;
	*w.p++ = MAGIC1;
	*w.p++ = RADIX_MSG_VERSION;
	*w.p++ = m->type;
	put32(&w, (uint32_t)len);
	put64(&w, m->group);
	put32(&w, m->from.id);
	put32(&w, m->from.inc);
	if (has_member_body(m->type)) {
		put32(&w, m->who.id);
		put32(&w, m->who.inc);
		return len;
	}
	put64(&w, m->term);
	switch (m->type) {
	case RADIX_MSG_FAILED_NODE:
	case RADIX_MSG_NODE_JOIN:
	case RADIX_MSG_ROOT_AND_NODE_FAILURE:
	case RADIX_MSG_ROOT_DEAD:
		put64(&w, m->floor);
		put_view(&w, m->view);
		put_set(&w, m->failed);
		put_set(&w, m->joined);
		put_chain(&w, m->chain);
		break;
	case RADIX_MSG_FAILURE_ACK:
	case RADIX_MSG_NODE_JOIN_ACK:
		put64(&w, m->seq);
		put32(&w, m->who.inc);
		break;
	case RADIX_MSG_ROOT_DEAD_ACK:
		put64(&w, m->seq);
		put32(&w, m->who.inc);
		put64(&w, m->min_seq);
		put_chain(&w, m->chain);
		if (m->chain && m->chain->n)
			put_set(&w, m->joined);
		break;
	case RADIX_MSG_JOIN_DET_ACK:
		put_view(&w, m->view);
		put_set(&w, m->joined);
		put_chain(&w, m->chain);
		break;
	}
	return (size_t)(w.p - buf) == len ? len : 0;
}

/* ---- decoding ---------------------------------------------------------- */

struct reader {
	const uint8_t *p, *end;
	bool bad;
};

static uint32_t get32(struct reader *r)
{
	uint32_t v = 0;

	if (r->end - r->p < 4) {
		r->bad = true;
		return 0;
	}
	for (int i = 3; i >= 0; i--)
		v = v << 8 | r->p[i];
	r->p += 4;
	return v;
}

static uint64_t get64(struct reader *r)
{
	uint64_t lo = get32(r);

	return lo | (uint64_t)get32(r) << 32;
}


static int get_view(struct reader *r, struct radix_view *v)
{
	uint32_t runs, incs;
	uint64_t next = 0;	/* the lowest id the next run may start at */
	int err;

	radix_view_clear(v);
	v->seq = get64(r);
	v->root = get32(r);
	runs = get32(r);
	if (r->bad || runs > v->cap)
		return -EBADMSG;
	for (uint32_t i = 0; i < runs; i++) {
		uint32_t first = get32(r), count = get32(r);

		if (r->bad || first < next || !count ||
		    (uint64_t)first + count > v->cap)
			return -EBADMSG;
		radix_view_add_run(v, first, count);
		next = (uint64_t)first + count + 1;
	}
	incs = get32(r);
	if (r->bad || incs > v->count)
		return -EBADMSG;
	for (uint32_t i = 0; i < incs; i++) {
		uint32_t id = get32(r), inc = get32(r);

		if (r->bad || !radix_view_has(v, id) || inc < 2 ||
		    (v->incs.n && id <= v->incs.v[v->incs.n - 1].id))
			return -EBADMSG;
		err = radix_view_add(v, id, inc);
		if (err)
			return err;
	}
	if (!radix_view_has(v, v->root))
		return -EBADMSG;
	return 0;
}

static int get_set(struct reader *r, struct radix_set *s, uint32_t cap)
{
	uint32_t n = get32(r);

	radix_set_clear(s);
	if (r->bad || n > cap)
		return -EBADMSG;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t id = get32(r), inc = get32(r);

		if (r->bad || id >= cap || !inc ||
		    (s->n && id <= s->v[s->n - 1].id))
			return -EBADMSG;
		if (radix_set_put(s, id, inc))
			return -ENOMEM;
	}
	return 0;
}

/* Consecutive views, decoded into @c (its views reused). */
static int get_chain(struct reader *r, struct radix_chain *c, uint32_t cap,
		     struct radix_view *tmp)
{
	uint32_t n = get32(r);

	radix_chain_clear(c);
	if (r->bad || n > cap)
		return -EBADMSG;
	for (uint32_t i = 0; i < n; i++) {
		int err = get_view(r, tmp);

		if (err)
			return err;
		err = radix_chain_push(c, tmp);
		if (err)
			return err == -EINVAL ? -EBADMSG : err;
	}
	return 0;
}

/* Joiners must be members of @v with exactly that incarnation. */
static bool joiners_in(const struct radix_set *j, const struct radix_view *v)
{
	for (uint32_t i = 0; i < j->n; i++)
		if (radix_view_inc(v, j->v[i].id) != j->v[i].inc)
			return false;
	return true;
}

int radix_msg_frame(const uint8_t *buf, size_t avail, size_t *len)
{
	uint32_t total;

	if (avail < RADIX_MSG_PREFIX_LEN)
		return -EAGAIN;
	if (buf[0] != MAGIC0 || buf[1] != MAGIC1)
		return -EBADMSG;
	if (buf[2] != RADIX_MSG_VERSION)
		return -EPROTONOSUPPORT;
	if (!buf[3] || buf[3] > RADIX_MSG_TYPE_MAX)
		return -EBADMSG;
	total = (uint32_t)buf[4] | (uint32_t)buf[5] << 8 |
		(uint32_t)buf[6] << 16 | (uint32_t)buf[7] << 24;
	if (total < RADIX_MSG_HEADER_LEN + 8 || total > RADIX_MSG_MAX_LEN)
		return -EBADMSG;
	if (has_member_body(buf[3]) && total != RADIX_MSG_HEADER_LEN + 8)
		return -EBADMSG;
	*len = total;
	return 0;
}

int radix_inbox_init(struct radix_inbox *in, uint32_t cap)
{
	int err;

	memset(in, 0, sizeof(*in));
	err = radix_view_init(&in->view, cap);
	if (err)
		radix_inbox_free(in);
	return err;
}

void radix_inbox_free(struct radix_inbox *in)
{
	radix_view_free(&in->view);
	radix_chain_free(&in->chain);
	radix_set_free(&in->failed);
	radix_set_free(&in->joined);
}

static int decode_round(struct reader *r, struct radix_inbox *in)
{
	struct radix_msg *m = &in->msg;
	uint32_t cap = in->view.cap;
	struct radix_view tmp;
	int err;

	m->floor = get64(r);
	err = get_view(r, &in->view);
	if (!err)
		err = get_set(r, &in->failed, cap);
	if (!err)
		err = get_set(r, &in->joined, cap);
	if (err)
		return err;
	if (radix_view_init(&tmp, cap))
		return -ENOMEM;
	err = get_chain(r, &in->chain, cap, &tmp);
	radix_view_free(&tmp);
	if (err)
		return err;
	m->view = &in->view;
	m->failed = &in->failed;
	m->joined = &in->joined;
	m->chain = &in->chain;
	m->seq = in->view.seq;
	if (m->floor > m->seq)
		return -EBADMSG;
	for (uint32_t i = 0; i < in->failed.n; i++) {
		const struct radix_member *f = &in->failed.v[i];
		bool member = radix_view_inc(&in->view, f->id) == f->inc;

		/* ROOT_DEAD routes over the dead; a change removed them. */
		if (m->type == RADIX_MSG_ROOT_DEAD ? !member : member)
			return -EBADMSG;
	}
	if (!joiners_in(&in->joined, &in->view) ||
	    (m->type == RADIX_MSG_NODE_JOIN && !in->joined.n) ||
	    ((m->type == RADIX_MSG_FAILED_NODE ||
	      m->type == RADIX_MSG_ROOT_DEAD) && in->joined.n))
		return -EBADMSG;
	if (in->chain.n &&
	    (m->type != RADIX_MSG_ROOT_AND_NODE_FAILURE ||
	     in->chain.v[in->chain.n - 1].seq + 1 != in->view.seq))
		return -EBADMSG;
	return 0;
}

int radix_msg_decode(const uint8_t *buf, size_t len, struct radix_inbox *in)
{
	struct radix_msg *m = &in->msg;
	struct reader r;
	uint32_t cap = in->view.cap;
	size_t total;
	int err;

	err = radix_msg_frame(buf, len, &total);
	if (err == -EAGAIN)
		return -EBADMSG;
	if (err)
		return err;
	if (total != len)
		return -EBADMSG;
	memset(m, 0, sizeof(*m));
	r = (struct reader){ buf + 8, buf + len, false };
	m->type = buf[3];
	m->group = get64(&r);
	m->from.id = get32(&r);
	m->from.inc = get32(&r);
	if (m->from.id >= cap || !m->from.inc)
		return -EBADMSG;
	if (has_member_body(m->type)) {
		m->who.id = get32(&r);
		m->who.inc = get32(&r);
		if (m->type == RADIX_MSG_JOIN_REDIRECT &&
		    m->who.id == RADIX_NONE)
			return m->who.inc ? -EBADMSG : 0;
		if (m->who.id >= cap || !m->who.inc)
			return -EBADMSG;
		return 0;
	}
	m->term = get64(&r);
	switch (m->type) {
	case RADIX_MSG_FAILED_NODE:
	case RADIX_MSG_NODE_JOIN:
	case RADIX_MSG_ROOT_AND_NODE_FAILURE:
	case RADIX_MSG_ROOT_DEAD:
		err = decode_round(&r, in);
		break;
	case RADIX_MSG_FAILURE_ACK:
	case RADIX_MSG_NODE_JOIN_ACK:
		m->seq = get64(&r);
		m->who = (struct radix_member){ (uint32_t)m->term,
						get32(&r) };
		break;
	case RADIX_MSG_ROOT_DEAD_ACK: {
		struct radix_view tmp;
		uint64_t top;

		m->seq = get64(&r);
		m->who = (struct radix_member){ (uint32_t)m->term,
						get32(&r) };
		m->min_seq = get64(&r);
		if (r.bad || radix_view_init(&tmp, cap))
			return r.bad ? -EBADMSG : -ENOMEM;
		err = get_chain(&r, &in->chain, cap, &tmp);
		radix_view_free(&tmp);
		if (err)
			return err;
		m->chain = &in->chain;
		top = m->seq;
		if (in->chain.n) {
			err = get_set(&r, &in->joined, cap);
			if (err)
				return err;
			m->joined = &in->joined;
			if (in->chain.v[in->chain.n - 1].seq > top)
				top = in->chain.v[in->chain.n - 1].seq;
			if (!joiners_in(&in->joined,
					&in->chain.v[in->chain.n - 1]))
				return -EBADMSG;
		}
		if (m->min_seq > top)
			return -EBADMSG;
		break;
	}
	case RADIX_MSG_JOIN_DET_ACK: {
		struct radix_view tmp;

		err = get_view(&r, &in->view);
		if (!err)
			err = get_set(&r, &in->joined, cap);
		if (!err && !joiners_in(&in->joined, &in->view))
			err = -EBADMSG;
		if (!err && radix_view_init(&tmp, cap))
			err = -ENOMEM;
		else if (!err) {
			err = get_chain(&r, &in->chain, cap, &tmp);
			radix_view_free(&tmp);
		}
		if (!err && in->chain.n &&
		    in->chain.v[in->chain.n - 1].seq + 1 != in->view.seq)
			err = -EBADMSG;
		m->view = &in->view;
		m->joined = &in->joined;
		m->chain = &in->chain;
		m->seq = in->view.seq;
		break;
	}
	}
	if (err)
		return err;
	if (r.bad || r.p != r.end)
		return -EBADMSG;
	return 0;
}
