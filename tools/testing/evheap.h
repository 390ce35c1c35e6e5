/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * evheap.h: the time-ordered event queue of the protocol simulators
 * (libftnl/{era,vall,radix}/tests/sim.c). A binary min-heap of fixed-size
 * events whose first two members are uint64_t time and seq
 * (EVHEAP_CHECK()): ordered by time, ties in the order pushed (seq is set
 * by evheap_push()), so that a simulation is a function of its seed.
 * Header only, like tap.h.
 */
#ifndef FTNL_TESTING_EVHEAP_H
#define FTNL_TESTING_EVHEAP_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The event type @type starts with uint64_t time, then uint64_t seq. */
#define EVHEAP_CHECK(type)						\
	_Static_assert(offsetof(type, time) == 0 &&			\
		       offsetof(type, seq) == sizeof(uint64_t),	\
		       #type " must start with uint64_t time, seq")

struct evheap {
	unsigned char *ev;	/* len events of size bytes */
	size_t size, len, cap;
	uint64_t seq;		/* the next event's */
};

static inline void evheap_init(struct evheap *h, size_t size)
{
	*h = (struct evheap){ .size = size };
}

static inline void evheap_free(struct evheap *h)
{
	free(h->ev);
	h->ev = NULL;
	h->len = h->cap = 0;
}

static inline unsigned char *evheap_at(const struct evheap *h, size_t i)
{
	return h->ev + i * h->size;
}

/* Does the event at @a come before the one at @b? */
static inline bool evheap_before(const unsigned char *a, const unsigned char *b)
{
	uint64_t ka[2], kb[2];

	memcpy(ka, a, sizeof(ka));
	memcpy(kb, b, sizeof(kb));
	return ka[0] < kb[0] || (ka[0] == kb[0] && ka[1] < kb[1]);
}

/*
 * One more slot than the heap holds: room for the event moving down or
 * up, so that nothing of the event's size lives on the stack.
 */
static inline int evheap_reserve(struct evheap *h)
{
	size_t cap;
	unsigned char *p;

	if (h->len + 1 < h->cap)
		return 0;
	cap = h->cap ? 2 * h->cap : 256;
	p = realloc(h->ev, cap * h->size);
	if (!p)
		return -ENOMEM;
	h->ev = p;
	h->cap = cap;
	return 0;
}

/* Queue a copy of @event, its seq set here. Return: 0 or -ENOMEM. */
static inline int evheap_push(struct evheap *h, const void *event)
{
	unsigned char *e;
	uint64_t seq;
	size_t i;

	if (evheap_reserve(h))
		return -ENOMEM;
	e = evheap_at(h, h->cap - 1);	/* the spare slot */
	memcpy(e, event, h->size);
	seq = h->seq++;
	memcpy(e + sizeof(uint64_t), &seq, sizeof(seq));
	for (i = h->len++; i > 0; i = (i - 1) / 2) {
		if (!evheap_before(e, evheap_at(h, (i - 1) / 2)))
			break;
		memcpy(evheap_at(h, i), evheap_at(h, (i - 1) / 2), h->size);
	}
	memcpy(evheap_at(h, i), e, h->size);
	return 0;
}

/* Take the earliest event into @out. Return: false if there was none. */
static inline bool evheap_pop(struct evheap *h, void *out)
{
	unsigned char *last;
	size_t i = 0;

	if (!h->len)
		return false;
	memcpy(out, evheap_at(h, 0), h->size);
	last = evheap_at(h, --h->len);
	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->len)
			break;
		if (c + 1 < h->len &&
		    evheap_before(evheap_at(h, c + 1), evheap_at(h, c)))
			c++;
		if (!evheap_before(evheap_at(h, c), last))
			break;
		memcpy(evheap_at(h, i), evheap_at(h, c), h->size);
		i = c;
	}
	if (h->len)
		memcpy(evheap_at(h, i), last, h->size);
	return true;
}

#endif /* FTNL_TESTING_EVHEAP_H */
