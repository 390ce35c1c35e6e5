// SPDX-License-Identifier: LGPL-2.1-or-later
/* ERA trees: views, Parent(S, p) and Children(S, p) (see tree.h). */
#include "bitmap.h"
#include "tree.h"

/* Parent index of @i >= 1 in a flat shape over indexes 0..m-1. */
static uint32_t shape_parent(enum era_topology topo, uint32_t i)
{
	switch (topo) {
	case ERA_TOPO_STAR:
		return 0;
	case ERA_TOPO_STRING:
		return i - 1;
	case ERA_TOPO_BINARY:
	default:
		return (i - 1) / 2;
	}
}

static bool is_member(const uint64_t *excluded, uint32_t rank)
{
	return !excluded || !era_bit_test(excluded, rank);
}

static void build_flat(struct era_view *v, const struct era_tree_shape *s,
		       const uint64_t *excluded)
{
	uint32_t pos = 0;

	for (uint32_t r = 0; r < s->nranks; r++)
		if (is_member(excluded, r))
			v->order[pos++] = r;
	v->npos = pos;
	for (uint32_t i = 0; i < pos; i++)
		v->parent[i] = i ? shape_parent(s->topo, i) : ERA_NO_POS;
}

/*
 * Representatives (each host's lowest member) take positions 0..H-1 in the
 * order of their ranks, then every host's other members in rank order,
 * host after host; see tree.h.
 */
static void build_hier(struct era_view *v, const struct era_tree_shape *s,
		       const uint64_t *excluded, uint32_t *scratch)
{
	uint32_t *hidx = scratch;			/* host -> index */
	uint32_t *count = scratch + s->nranks;		/* index -> members */
	uint32_t *base = scratch + 2 * (size_t)s->nranks; /* -> 1st local */
	uint32_t *next = scratch + 3 * (size_t)s->nranks; /* index -> fill */
	uint32_t hosts = 0, pos;

	for (uint32_t h = 0; h < s->nranks; h++)
		hidx[h] = ERA_NO_POS;
	for (uint32_t r = 0; r < s->nranks; r++) {
		uint32_t h = s->host_of[r];

		if (!is_member(excluded, r))
			continue;
		if (hidx[h] == ERA_NO_POS) {
			hidx[h] = hosts;
			count[hosts] = 0;
			v->order[hosts] = r;	/* the representative */
			hosts++;
		}
		count[hidx[h]]++;
	}
	pos = hosts;
	for (uint32_t k = 0; k < hosts; k++) {
		base[k] = pos;
		next[k] = pos;
		pos += count[k] - 1;
	}
	v->npos = pos;
	for (uint32_t r = 0; r < s->nranks; r++) {
		uint32_t k;

		if (!is_member(excluded, r))
			continue;
		k = hidx[s->host_of[r]];
		if (v->order[k] != r)
			v->order[next[k]++] = r;
	}
	for (uint32_t k = 0; k < hosts; k++) {
		v->parent[k] = k ? shape_parent(s->inter, k) : ERA_NO_POS;
		/* Local index j >= 1 of host k sits at base[k] + j - 1. */
		for (uint32_t j = 1; j < count[k]; j++) {
			uint32_t y = shape_parent(s->intra, j);

			v->parent[base[k] + j - 1] = y ? base[k] + y - 1 : k;
		}
	}
}

void era_view_build(struct era_view *v, const struct era_tree_shape *s,
		    const uint64_t *excluded, uint32_t *scratch)
{
	if (s->topo == ERA_TOPO_HIER)
		build_hier(v, s, excluded, scratch);
	else
		build_flat(v, s, excluded);
	for (uint32_t r = 0; r < s->nranks; r++)
		v->pos_of[r] = ERA_NO_POS;
	for (uint32_t i = 0; i < v->npos; i++) {
		v->pos_of[v->order[i]] = i;
		v->first_child[i] = ERA_NO_POS;
		v->next_sibling[i] = ERA_NO_POS;
	}
	/* Backwards, so that children lists come out in increasing order. */
	for (uint32_t i = v->npos; i-- > 1;) {
		uint32_t p = v->parent[i];

		v->next_sibling[i] = v->first_child[p];
		v->first_child[p] = i;
	}
	if (excluded)
		for (size_t w = 0; w < era_bitmap_words(s->nranks); w++)
			v->excluded[w] = excluded[w];
	else
		era_bitmap_zero(v->excluded, s->nranks);
	v->first_alive = 0;
}

static bool pos_dead(const struct era_view *v, const uint64_t *dead,
		     uint32_t pos)
{
	return era_bit_test(dead, v->order[pos]);
}

/* min Eld over the whole tree: the lowest live position. */
static uint32_t first_alive(struct era_view *v, const uint64_t *dead)
{
	while (v->first_alive < v->npos && pos_dead(v, dead, v->first_alive))
		v->first_alive++;
	return v->first_alive;
}

uint32_t era_view_parent(struct era_view *v, const uint64_t *dead,
			 uint32_t pos)
{
	uint32_t a, eld;

	for (a = v->parent[pos]; a != ERA_NO_POS; a = v->parent[a])
		if (!pos_dead(v, dead, a))
			return a;		/* max Anc(S, p) */
	eld = first_alive(v, dead);
	return eld < pos ? eld : ERA_NO_POS;	/* min Eld(S, p), or root */
}

/*
 * Push the original children of @pos; pop: a live node is a child, a dead
 * one is replaced by its own original children (they are mended onto the
 * nearest live ancestor).
 */
static uint32_t expand(const struct era_view *v, const uint64_t *dead,
		       uint32_t pos, uint32_t skip, uint32_t *out, uint32_t n,
		       uint32_t *stack)
{
	uint32_t top = 0;

	stack[top++] = pos;
	while (top) {
		uint32_t c = stack[--top];

		if (c != pos && !pos_dead(v, dead, c)) {
			if (c != skip)
				out[n++] = c;
			continue;
		}
		for (c = v->first_child[c]; c != ERA_NO_POS;
		     c = v->next_sibling[c])
			stack[top++] = c;
	}
	return n;
}

uint32_t era_view_children(struct era_view *v, const uint64_t *dead,
			   uint32_t pos, uint32_t *out, uint32_t *stack)
{
	uint32_t n = expand(v, dead, pos, ERA_NO_POS, out, 0, stack);

	/*
	 * The root also adopts, through Eld, every live node whose ancestors
	 * are all dead: the live frontier below a dead position 0.
	 */
	if (pos != 0 && first_alive(v, dead) == pos)
		n = expand(v, dead, 0, pos, out, n, stack);
	return n;
}

uint32_t era_view_depth(const struct era_view *v)
{
	uint32_t depth = 0;

	for (uint32_t i = 1; i < v->npos; i++) {
		uint32_t d = 0;

		for (uint32_t a = i; a != 0; a = v->parent[a])
			d++;
		if (d > depth)
			depth = d;
	}
	return depth;
}
