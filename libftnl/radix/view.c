// SPDX-License-Identifier: LGPL-2.1-or-later
/* Views and process sets: see view.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

/* Index of @id in @s, or where it would go. */
static uint32_t set_find(const struct radix_set *s, uint32_t id, bool *found)
{
	uint32_t lo = 0, hi = s->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < s->n && s->v[lo].id == id;
	return lo;
}

int radix_set_put(struct radix_set *s, uint32_t id, uint32_t inc)
{
	bool found;
	uint32_t i = set_find(s, id, &found);

	if (found) {
		s->v[i].inc = inc;
		return 0;
	}
	if (s->n == s->cap) {
		uint32_t cap = s->cap ? 2 * s->cap : 8;
		struct radix_member *p = realloc(s->v, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->v = p;
		s->cap = cap;
	}
	memmove(s->v + i + 1, s->v + i, (s->n - i) * sizeof(*s->v));
	s->v[i] = (struct radix_member){ id, inc };
	s->n++;
	return 0;
}

uint32_t radix_set_get(const struct radix_set *s, uint32_t id)
{
	bool found;
	uint32_t i = set_find(s, id, &found);

	return found ? s->v[i].inc : 0;
}

void radix_set_del(struct radix_set *s, uint32_t id)
{
	bool found;
	uint32_t i = set_find(s, id, &found);

	if (!found)
		return;
	memmove(s->v + i, s->v + i + 1, (s->n - i - 1) * sizeof(*s->v));
	s->n--;
}

void radix_set_clear(struct radix_set *s)
{
	s->n = 0;
}

int radix_set_copy(struct radix_set *dst, const struct radix_set *src)
{
	if (dst->cap < src->n) {
		struct radix_member *p = realloc(dst->v, src->n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		dst->v = p;
		dst->cap = src->n;
	}
	if (src->n)
		memcpy(dst->v, src->v, src->n * sizeof(*dst->v));
	dst->n = src->n;
	return 0;
}

void radix_set_free(struct radix_set *s)
{
	free(s->v);
	*s = (struct radix_set){ 0 };
}

static size_t words(uint32_t cap)
{
	return ((size_t)cap + 63) / 64;
}

int radix_view_init(struct radix_view *v, uint32_t cap)
{
	memset(v, 0, sizeof(*v));
	if (!cap || cap > RADIX_MAX_CAP)
		return -EINVAL;
	v->bits = calloc(words(cap), sizeof(*v->bits));
	if (!v->bits)
		return -ENOMEM;
	v->cap = cap;
	v->root = RADIX_NONE;
	return 0;
}

void radix_view_free(struct radix_view *v)
{
	free(v->bits);
	radix_set_free(&v->incs);
	memset(v, 0, sizeof(*v));
}

int radix_view_copy(struct radix_view *dst, const struct radix_view *src)
{
	if (dst->cap != src->cap)
		return -EINVAL;
	if (radix_set_copy(&dst->incs, &src->incs))
		return -ENOMEM;
	memcpy(dst->bits, src->bits, words(src->cap) * sizeof(*dst->bits));
	dst->seq = src->seq;
	dst->root = src->root;
	dst->count = src->count;
	return 0;
}

void radix_view_clear(struct radix_view *v)
{
	memset(v->bits, 0, words(v->cap) * sizeof(*v->bits));
	radix_set_clear(&v->incs);
	v->count = 0;
	v->seq = 0;
	v->root = RADIX_NONE;
}

uint32_t radix_view_inc(const struct radix_view *v, uint32_t id)
{
	uint32_t inc;

	if (!radix_view_has(v, id))
		return 0;
	inc = radix_set_get(&v->incs, id);
	return inc ? inc : 1;
}

int radix_view_add(struct radix_view *v, uint32_t id, uint32_t inc)
{
	if (id >= v->cap || !inc)
		return -EINVAL;
	if (inc == 1)
		radix_set_del(&v->incs, id);
	else if (radix_set_put(&v->incs, id, inc))
		return -ENOMEM;
	if (!radix_view_has(v, id)) {
		v->bits[id / 64] |= 1ull << (id % 64);
		v->count++;
	}
	return 0;
}

void radix_view_del(struct radix_view *v, uint32_t id)
{
	if (!radix_view_has(v, id))
		return;
	v->bits[id / 64] &= ~(1ull << (id % 64));
	v->count--;
	radix_set_del(&v->incs, id);
}

uint32_t radix_view_next(const struct radix_view *v, uint32_t from)
{
	size_t w;
	uint64_t word;

	if (from >= v->cap)
		return RADIX_NONE;
	w = from / 64;
	word = v->bits[w] & (~0ull << (from % 64));
	for (;;) {
		if (word) {
			uint32_t id = (uint32_t)(w * 64) +
				      (uint32_t)__builtin_ctzll(word);

			return id < v->cap ? id : RADIX_NONE;
		}
		if (++w >= words(v->cap))
			return RADIX_NONE;
		word = v->bits[w];
	}
}

uint32_t radix_view_next_gap(const struct radix_view *v, uint32_t from)
{
	size_t w;
	uint64_t word;

	if (from >= v->cap)
		return v->cap;
	w = from / 64;
	word = ~v->bits[w] & (~0ull << (from % 64));
	for (;;) {
		if (word) {
			uint32_t id = (uint32_t)(w * 64) +
				      (uint32_t)__builtin_ctzll(word);

			return id < v->cap ? id : v->cap;
		}
		if (++w >= words(v->cap))
			return v->cap;
		word = ~v->bits[w];
	}
}

void radix_view_add_run(struct radix_view *v, uint32_t first, uint32_t count)
{
	uint32_t id = first, end = first + count;

	while (id < end) {
		if (id % 64 == 0 && end - id >= 64) {
			v->bits[id / 64] = ~0ull;
			id += 64;
		} else {
			v->bits[id / 64] |= 1ull << (id % 64);
			id++;
		}
	}
	v->count += count;
}

bool radix_view_equal(const struct radix_view *a, const struct radix_view *b)
{
	if (a->cap != b->cap || a->seq != b->seq || a->root != b->root ||
	    a->count != b->count || a->incs.n != b->incs.n)
		return false;
	if (memcmp(a->bits, b->bits, words(a->cap) * sizeof(*a->bits)))
		return false;
	return !a->incs.n || !memcmp(a->incs.v, b->incs.v,
				     a->incs.n * sizeof(*a->incs.v));
}

int radix_chain_push(struct radix_chain *c, const struct radix_view *v)
{
	if (c->n && c->v[c->n - 1].seq + 1 != v->seq)
		return -EINVAL;
	if (c->n == c->cap) {
		uint32_t cap = c->cap ? 2 * c->cap : 4;
		struct radix_view *p = realloc(c->v, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		memset(p + c->cap, 0, (cap - c->cap) * sizeof(*p));
		c->v = p;
		c->cap = cap;
	}
	if (c->v[c->n].cap != v->cap) {
		int err;

		radix_view_free(&c->v[c->n]);
		err = radix_view_init(&c->v[c->n], v->cap);
		if (err)
			return err;
	}
	if (radix_view_copy(&c->v[c->n], v))
		return -ENOMEM;
	c->n++;
	return 0;
}

void radix_chain_drop_upto(struct radix_chain *c, uint64_t seq)
{
	uint32_t drop = 0;

	while (drop < c->n && c->v[drop].seq <= seq)
		drop++;
	/* Rotate the dropped views to the end, for reuse. */
	for (uint32_t k = 0; k < drop; k++) {
		struct radix_view first = c->v[0];

		memmove(c->v, c->v + 1, (c->cap - 1) * sizeof(*c->v));
		c->v[c->cap - 1] = first;
	}
	c->n -= drop;
}

void radix_chain_clear(struct radix_chain *c)
{
	c->n = 0;
}

int radix_chain_copy_above(struct radix_chain *dst,
			   const struct radix_chain *src, uint64_t seq)
{
	radix_chain_clear(dst);
	for (uint32_t i = 0; i < src->n; i++) {
		int err;

		if (src->v[i].seq <= seq)
			continue;
		err = radix_chain_push(dst, &src->v[i]);
		if (err)
			return err;
	}
	return 0;
}

void radix_chain_free(struct radix_chain *c)
{
	for (uint32_t i = 0; i < c->cap; i++)
		radix_view_free(&c->v[i]);
	free(c->v);
	memset(c, 0, sizeof(*c));
}
