// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ERA trees: the paper's Figure 1, the Anc formula, the hierarchical X/Y
 * layout, and, exhaustively for small trees and every set of dead ranks,
 * Parent and Children against their definitions (ERA paper, section 2).
 */
#include <string.h>

#include "../bitmap.h"
#include "../tree.h"
#include "tap.h"

#define N 64

struct tree {
	struct era_view v;
	uint32_t order[N], pos_of[N], parent[N], first_child[N];
	uint32_t next_sibling[N];
	uint64_t excluded[1];
	uint32_t scratch[ERA_TREE_SCRATCH_WORDS(N)];
	uint32_t host_of[N];
	uint32_t out[N], stack[N];
};

static void build(struct tree *t, enum era_topology topo,
		  enum era_topology inter, enum era_topology intra,
		  uint32_t n, const uint64_t *excluded)
{
	struct era_tree_shape s = {
		.topo = topo, .inter = inter, .intra = intra,
		.host_of = t->host_of, .nranks = n,
	};

	t->v = (struct era_view){
		.order = t->order, .pos_of = t->pos_of, .parent = t->parent,
		.first_child = t->first_child,
		.next_sibling = t->next_sibling, .excluded = t->excluded,
	};
	era_view_build(&t->v, &s, excluded, t->scratch);
}

/* Parent(S, p) and Children(S, p) as ranks. */
static uint32_t parent_of(struct tree *t, const uint64_t *dead, uint32_t r)
{
	uint32_t p = era_view_parent(&t->v, dead, t->pos_of[r]);

	return p == ERA_NO_POS ? ERA_NO_POS : t->order[p];
}

static uint64_t children_of(struct tree *t, const uint64_t *dead, uint32_t r)
{
	uint32_t k = era_view_children(&t->v, dead, t->pos_of[r], t->out,
				       t->stack);
	uint64_t set = 0;

	for (uint32_t i = 0; i < k; i++)
		set |= 1ull << t->order[t->out[i]];
	return set;
}

/* Figure 1b: binary tree 0; 1 2; 3 4 5 6, with 1 dead. */
static void test_figure_1b(const void *arg)
{
	struct tree t;
	uint64_t dead = 1u << 1;

	(void)arg;
	build(&t, ERA_TOPO_BINARY, 0, 0, 7, NULL);
	TAP_CHECK_UINT(parent_of(&t, &dead, 3), 0);
	TAP_CHECK_UINT(parent_of(&t, &dead, 4), 0);
	TAP_CHECK_UINT(parent_of(&t, &dead, 5), 2);
	TAP_CHECK_UINT(children_of(&t, &dead, 0), 1u << 2 | 1u << 3 | 1u << 4);
	TAP_CHECK_UINT(parent_of(&t, &dead, 0), ERA_NO_POS);
	TAP_CHECK_UINT(era_view_depth(&t.v), 2);
}

/* Figure 1a: a star; its root dead, the lowest live rank takes over. */
static void test_figure_1a(const void *arg)
{
	struct tree t;
	uint64_t dead = 1u << 1;

	(void)arg;
	build(&t, ERA_TOPO_STAR, 0, 0, 5, NULL);
	TAP_CHECK_UINT(parent_of(&t, &dead, 3), 0);
	TAP_CHECK_UINT(children_of(&t, &dead, 0), 0x1c);
	dead = 1u << 0;
	TAP_CHECK_UINT(parent_of(&t, &dead, 1), ERA_NO_POS);
	TAP_CHECK_UINT(parent_of(&t, &dead, 4), 1);
	TAP_CHECK_UINT(children_of(&t, &dead, 1), 0x1c);
	TAP_CHECK_UINT(children_of(&t, &dead, 2), 0);
	TAP_CHECK_UINT(era_view_depth(&t.v), 1);
}

/* Anc(S, p) = { floor((p + 1) / 2^i) - 1, i >= 1 } (0-based Figure 1b). */
static void test_anc_formula(const void *arg)
{
	struct tree t;

	(void)arg;
	build(&t, ERA_TOPO_BINARY, 0, 0, N, NULL);
	for (uint32_t p = 1; p < N; p++) {
		uint32_t a = t.parent[p];

		for (uint32_t i = 1; (p + 1) >> i; i++) {
			TAP_CHECK_UINT(a, ((p + 1) >> i) - 1);
			a = ((p + 1) >> i) - 1 ? t.parent[a] : ERA_NO_POS;
		}
	}
	TAP_CHECK_UINT(era_view_depth(&t.v), 6);
}

/* bin/bin over 4 hosts of 4: representatives 0, 4, 8, 12 first. */
static void test_hier_layout(const void *arg)
{
	static const uint32_t parents[16] = {
		/* rank: 0   1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 */
		ERA_NO_POS, 0, 0, 1, 0, 4, 4, 5, 0, 8, 8, 9, 4, 12, 12, 13,
	};
	struct tree t;
	uint64_t none = 0, excluded = 1u << 4 | 1u << 0;

	(void)arg;
	for (uint32_t r = 0; r < 16; r++)
		t.host_of[r] = r / 4;
	build(&t, ERA_TOPO_HIER, ERA_TOPO_BINARY, ERA_TOPO_BINARY, 16, NULL);
	TAP_CHECK_UINT(t.v.npos, 16);
	for (uint32_t r = 0; r < 16; r++)
		TAP_CHECK_UINT(parent_of(&t, &none, r), parents[r]);
	TAP_CHECK_UINT(t.order[1], 4);
	TAP_CHECK_UINT(t.order[3], 12);
	/* A dead representative: its locals go up to its X parent. */
	none = 1u << 4;
	TAP_CHECK_UINT(parent_of(&t, &none, 5), 0);
	TAP_CHECK_UINT(parent_of(&t, &none, 12), 0);

	/* Rebalanced without 0 and 4: new representatives 1 and 5. */
	none = 0;
	build(&t, ERA_TOPO_HIER, ERA_TOPO_BINARY, ERA_TOPO_STAR, 16,
	      &excluded);
	TAP_CHECK_UINT(t.v.npos, 14);
	TAP_CHECK_UINT(t.pos_of[0], ERA_NO_POS);
	TAP_CHECK_UINT(t.order[0], 1);
	TAP_CHECK_UINT(t.order[1], 5);
	TAP_CHECK_UINT(parent_of(&t, &none, 5), 1);
	TAP_CHECK_UINT(parent_of(&t, &none, 7), 5);	/* star inside */
	TAP_CHECK_UINT(parent_of(&t, &none, 3), 1);
}

struct shape_case {
	const char *name;
	enum era_topology topo, inter, intra;
	uint32_t per_host;
	uint32_t n;
};

/* Parent by its definition: max Anc, else min Eld, over positions. */
static uint32_t parent_by_definition(const struct tree *t, uint64_t dead,
				     uint32_t pos)
{
	for (uint32_t a = t->parent[pos]; a != ERA_NO_POS; a = t->parent[a])
		if (!((dead >> t->order[a]) & 1))
			return a;
	for (uint32_t q = 0; q < pos; q++)
		if (!((dead >> t->order[q]) & 1))
			return q;
	return ERA_NO_POS;
}

static void test_exhaustive(const void *arg)
{
	const struct shape_case *c = arg;
	struct tree t;
	unsigned long checks = 0;

	for (uint32_t r = 0; r < c->n; r++)
		t.host_of[r] = (r * 7 + 3) % c->n / c->per_host;
	build(&t, c->topo, c->inter, c->intra, c->n, NULL);
	for (uint64_t dead = 0; dead < (1ull << c->n) - 1; dead++) {
		uint32_t roots = 0, root_pos = ERA_NO_POS;

		/* Views keep a monotone cursor: fresh view per dead set. */
		t.v.first_alive = 0;
		for (uint32_t pos = 0; pos < c->n; pos++) {
			uint32_t r = t.order[pos], p;
			uint64_t want = 0;

			if ((dead >> r) & 1)
				continue;
			p = era_view_parent(&t.v, &dead, pos);
			if (!TAP_CHECK_UINT(p, parent_by_definition(&t, dead,
								    pos)))
				return;
			if (p == ERA_NO_POS) {
				roots++;
				root_pos = pos;
			} else if (!TAP_CHECK(p < pos)) {
				return;
			}
			for (uint32_t q = 0; q < c->n; q++)
				if (!((dead >> t.order[q]) & 1) && q != pos &&
				    era_view_parent(&t.v, &dead, q) == pos)
					want |= 1ull << t.order[q];
			if (!TAP_CHECK_UINT(children_of(&t, &dead, r), want))
				return;
			checks++;
		}
		/* One root: the lowest live position. */
		TAP_CHECK_UINT(roots, 1);
		if (roots == 1)
			for (uint32_t q = 0; q < root_pos; q++)
				TAP_CHECK((dead >> t.order[q]) & 1);
	}
	tap_diag("%lu (dead set, process) pairs", checks);
}

static const struct shape_case shapes[] = {
	{ "binary", ERA_TOPO_BINARY, 0, 0, 1, 11 },
	{ "star", ERA_TOPO_STAR, 0, 0, 1, 10 },
	{ "string", ERA_TOPO_STRING, 0, 0, 1, 10 },
	{ "bin/bin, 3 per host", ERA_TOPO_HIER, ERA_TOPO_BINARY,
	  ERA_TOPO_BINARY, 3, 11 },
	{ "star/string, 2 per host", ERA_TOPO_HIER, ERA_TOPO_STAR,
	  ERA_TOPO_STRING, 2, 10 },
	{ "string/star, 4 per host", ERA_TOPO_HIER, ERA_TOPO_STRING,
	  ERA_TOPO_STAR, 4, 10 },
};

int main(void)
{
	tap_add(test_figure_1b, NULL, "Figure 1b: binary tree, 1 dead");
	tap_add(test_figure_1a, NULL, "Figure 1a: star, 1 dead, then 0");
	tap_add(test_anc_formula, NULL, "binary Anc formula");
	tap_add(test_hier_layout, NULL, "hierarchical X/Y layout");
	for (size_t i = 0; i < sizeof(shapes) / sizeof(*shapes); i++)
		tap_add(test_exhaustive, &shapes[i],
			"%s, n = %u: Parent and Children, every dead set",
			shapes[i].name, shapes[i].n);
	return tap_run();
}
