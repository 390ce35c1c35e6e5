// SPDX-License-Identifier: LGPL-2.1-or-later
/* The radix tree of a view: see tree.h. */
#include <stddef.h>
#include <stdlib.h>

#include "tree.h"

bool radix_fanout_ok(uint32_t a)
{
	return a >= 2 && a <= 1024 && !(a & (a - 1));
}

uint32_t radix_static_parent(uint32_t id, uint32_t a)
{
	return id ? (id - 1) / a : RADIX_NONE;
}

uint32_t radix_static_level(uint32_t id, uint32_t a)
{
	uint32_t level = 0;

	while (id) {
		id = (id - 1) / a;
		level++;
	}
	return level;
}

uint32_t radix_route(uint32_t id, uint32_t a, uint32_t *digits, uint32_t max)
{
	uint32_t level = radix_static_level(id, a), i = level;

	/* The child index of id under its parent is (id - 1) % a. */
	while (id) {
		if (--i < max)
			digits[i] = (id - 1) % a;
		id = (id - 1) / a;
	}
	return level;
}

uint32_t radix_parent(const struct radix_view *v, uint32_t a, uint32_t id)
{
	if (!radix_view_has(v, id) || id == v->root)
		return RADIX_NONE;
	for (uint32_t p = radix_static_parent(id, a); p != RADIX_NONE;
	     p = radix_static_parent(p, a))
		if (radix_view_has(v, p))
			return p;
	return v->root;
}

/*
 * Members below static position @pos reached through non-members only,
 * the root's subtree excluded when @skip_root (it hangs from the root).
 */
static uint32_t descend(const struct radix_view *v, uint32_t a, uint32_t pos,
			bool skip_root,
			void (*fn)(void *ctx, uint32_t child), void *ctx)
{
	uint32_t n = 0;
	uint64_t first = (uint64_t)pos * a + 1;

	for (uint64_t c = first; c < first + a && c < v->cap; c++) {
		uint32_t id = (uint32_t)c;

		if (skip_root && id == v->root)
			continue;
		if (radix_view_has(v, id)) {
			fn(ctx, id);
			n++;
		} else {
			n += descend(v, a, id, skip_root, fn, ctx);
		}
	}
	return n;
}

uint32_t radix_children(const struct radix_view *v, uint32_t a, uint32_t id,
			void (*fn)(void *ctx, uint32_t child), void *ctx)
{
	uint32_t n;

	if (!radix_view_has(v, id))
		return 0;
	n = descend(v, a, id, true, fn, ctx);
	if (id != v->root || id == 0)
		return n;
	/* The root adopts whoever has no member ancestor: from id 0 down. */
	if (radix_view_has(v, 0)) {
		fn(ctx, 0);
		return n + 1;
	}
	return n + descend(v, a, 0, true, fn, ctx);
}

struct bfs {
	uint32_t *queue;
	uint32_t *depth;
	uint32_t tail;
	uint32_t cur_depth;
};

static void bfs_push(void *ctx, uint32_t child)
{
	struct bfs *b = ctx;

	b->queue[b->tail] = child;
	b->depth[b->tail++] = b->cur_depth + 1;
}

uint32_t radix_height(const struct radix_view *v, uint32_t a)
{
	struct bfs b;
	uint32_t head = 0, height = 0;

	if (!v->count || !radix_view_has(v, v->root))
		return 0;
	b.queue = malloc(v->count * sizeof(*b.queue));
	b.depth = malloc(v->count * sizeof(*b.depth));
	if (!b.queue || !b.depth) {
		free(b.queue);
		free(b.depth);
		return 0;
	}
	b.queue[0] = v->root;
	b.depth[0] = 1;
	b.tail = 1;
	while (head < b.tail) {
		uint32_t id = b.queue[head];

		b.cur_depth = b.depth[head++];
		if (b.cur_depth > height)
			height = b.cur_depth;
		radix_children(v, a, id, bfs_push, &b);
	}
	free(b.queue);
	free(b.depth);
	return height;
}

uint32_t radix_model_height(uint64_t n, uint32_t a)
{
	uint64_t full = 0, level = 1;
	uint32_t h = 0;

	while (full < n) {
		full += level;
		level *= a;
		h++;
	}
	return h;
}

double radix_model_ts(uint64_t n, uint32_t a, double latency, double ocp)
{
	uint32_t h = radix_model_height(n, a);

	if (!h)
		return 0;
	return 2.0 * latency * (h - 1) + ocp * h;
}
