// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * radix-tree: the radix tree of a view, the paper's local recalculation
 * and the readings of its model's formulas.
 */
#include <stdlib.h>
#include <string.h>

#include "../tree.h"
#include "tap.h"

static uint64_t rng = 42;

static uint32_t rnd(uint32_t bound)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)((rng >> 33) % bound);
}

static void test_fanout(const void *arg)
{
	(void)arg;
	TAP_CHECK(radix_fanout_ok(2));
	TAP_CHECK(radix_fanout_ok(4));
	TAP_CHECK(radix_fanout_ok(1024));
	TAP_CHECK(!radix_fanout_ok(0));
	TAP_CHECK(!radix_fanout_ok(1));
	TAP_CHECK(!radix_fanout_ok(3));
	TAP_CHECK(!radix_fanout_ok(6));
	TAP_CHECK(!radix_fanout_ok(2048));
}

/* Ids encode routing: a's base-a digits lead from the root to the id. */
static void test_route(const void *arg)
{
	(void)arg;
	for (uint32_t a = 2; a <= 64; a *= 2)
		for (uint32_t id = 0; id < 5000; id++) {
			uint32_t digits[32], pos = 0;
			uint32_t level = radix_route(id, a, digits, 32);

			TAP_CHECK_UINT(level, radix_static_level(id, a));
			for (uint32_t l = 0; l < level; l++) {
				if (!TAP_CHECK(digits[l] < a))
					return;
				pos = pos * a + 1 + digits[l];
			}
			if (!TAP_CHECK_UINT(pos, id))
				return;
			if (id)
				TAP_CHECK_UINT(radix_static_parent(id, a),
					       (id - 1) / a);
		}
}

/*
 * The model's H: the tree's height steps up above 1 + a + ... nodes: for
 * a = 4 above 5 and 21 (the paper's figure 8), for a = 2 at 2^h - 1
 * (figure 6's footnote). And Ts = Ocm + Ocp * H with Ocm = 2 L (H - 1):
 * the extracted "T s = Ocm + Ocp � H" and "Ocm = 2 � L � (H � 1)" read
 * with products and a minus (H - 1 levels of communication, each crossed
 * twice).
 */
static void test_model(const void *arg)
{
	(void)arg;
	TAP_CHECK_UINT(radix_model_height(1, 4), 1);
	TAP_CHECK_UINT(radix_model_height(5, 4), 2);
	TAP_CHECK_UINT(radix_model_height(6, 4), 3);
	TAP_CHECK_UINT(radix_model_height(21, 4), 3);
	TAP_CHECK_UINT(radix_model_height(22, 4), 4);
	TAP_CHECK_UINT(radix_model_height(3, 2), 2);
	TAP_CHECK_UINT(radix_model_height(4, 2), 3);
	TAP_CHECK_UINT(radix_model_height(7, 2), 3);
	TAP_CHECK_UINT(radix_model_height(8, 2), 4);
	TAP_CHECK_UINT(radix_model_height(1023, 2), 10);
	TAP_CHECK_UINT(radix_model_height(65536, 4), 9);
	/* a = 4, 21 nodes, TCP figures: L = 118 us, Ocp = 2 us. */
	TAP_CHECK(radix_model_ts(21, 4, 118, 2) == 2 * 118 * 2 + 2 * 3);
	TAP_CHECK(radix_model_ts(1, 4, 118, 2) == 2);
	/* The complete tree of n members has the model's height. */
	for (uint32_t a = 2; a <= 16; a *= 2)
		for (uint32_t n = 1; n <= 600; n++) {
			struct radix_view v;

			radix_view_init(&v, n);
			for (uint32_t id = 0; id < n; id++)
				radix_view_add(&v, id, 1);
			v.root = 0;
			if (!TAP_CHECK_UINT(radix_height(&v, a),
					    radix_model_height(n, a)))
				n = 601;
			radix_view_free(&v);
		}
}

struct kids {
	uint32_t n;
	uint32_t id[512];
};

static void collect(void *ctx, uint32_t child)
{
	struct kids *k = ctx;

	k->id[k->n++] = child;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

#define CAP 300

static void random_view(struct radix_view *v, uint32_t cap, uint32_t pct)
{
	radix_view_clear(v);
	for (uint32_t id = 0; id < cap; id++)
		if (rnd(100) < pct)
			radix_view_add(v, id, 1 + rnd(3));
	if (!v->count)
		radix_view_add(v, rnd(cap), 1);
	/* The root: usually the lowest member, sometimes any. */
	v->root = radix_view_next(v, 0);
	if (!rnd(4))
		for (uint32_t k = rnd(v->count), id = v->root; ; k--) {
			if (!k) {
				v->root = id;
				break;
			}
			id = radix_view_next(v, id + 1);
		}
}

/*
 * Every member but the root has one parent, is among its children, and is
 * reached from the root: the tree every node computes is a tree.
 */
static void test_tree_shape(const void *arg)
{
	struct radix_view v;

	(void)arg;
	radix_view_init(&v, CAP);
	for (int round = 0; round < 3000; round++) {
		uint32_t a = 2u << rnd(4), cap = 1 + rnd(CAP), seen = 0;
		uint32_t parent[CAP];

		v.cap = cap;
		random_view(&v, cap, 1 + rnd(100));
		for (uint32_t id = 0; id < cap; id++)
			parent[id] = RADIX_NONE;
		for (uint32_t id = radix_view_next(&v, 0); id != RADIX_NONE;
		     id = radix_view_next(&v, id + 1)) {
			struct kids k = { 0 };

			radix_children(&v, a, id, collect, &k);
			for (uint32_t i = 0; i < k.n; i++) {
				if (!TAP_CHECK(radix_view_has(&v, k.id[i])) ||
				    !TAP_CHECK_UINT(parent[k.id[i]],
						    RADIX_NONE))
					goto out;
				parent[k.id[i]] = id;
				seen++;
			}
		}
		TAP_CHECK_UINT(seen + 1, v.count);
		for (uint32_t id = radix_view_next(&v, 0); id != RADIX_NONE;
		     id = radix_view_next(&v, id + 1))
			if (!TAP_CHECK_UINT(radix_parent(&v, a, id),
					    id == v.root ? RADIX_NONE :
					    parent[id]))
				goto out;
	}
out:
	v.cap = CAP;
	radix_view_free(&v);
}

/*
 * Paper 3.4: with D failed, (1) C(D)'s parent becomes P(D), (2) D leaves
 * P(D)'s children, (3) C(D) merges into them, (4) D's list empties. Done on
 * the tree before, it gives the tree every node computes from the view
 * without D.
 */
static void test_recalculation(const void *arg)
{
	struct radix_view v;

	(void)arg;
	radix_view_init(&v, CAP);
	for (int round = 0; round < 3000; round++) {
		uint32_t a = 2u << rnd(4), cap = 2 + rnd(CAP - 1);
		uint32_t parent[CAP], d, pd, k;
		struct kids before[CAP], *after = malloc(sizeof(*after));

		v.cap = cap;
		do {
			random_view(&v, cap, 1 + rnd(100));
		} while (v.count < 2);
		/* D: any member but the root. */
		k = 1 + rnd(v.count - 1);
		d = v.root == radix_view_next(&v, 0) ?
		    radix_view_next(&v, v.root + 1) : radix_view_next(&v, 0);
		for (uint32_t id = d; k > 1; k--) {
			id = radix_view_next(&v, id + 1);
			if (id == v.root)
				id = radix_view_next(&v, id + 1);
			if (id == RADIX_NONE)
				break;
			d = id;
		}
		for (uint32_t id = 0; id < cap; id++) {
			before[id].n = 0;
			parent[id] = radix_parent(&v, a, id);
			if (radix_view_has(&v, id))
				radix_children(&v, a, id, collect,
					       &before[id]);
		}
		pd = parent[d];
		/* (1) - (4) */
		for (uint32_t i = 0; i < before[d].n; i++)
			parent[before[d].id[i]] = pd;
		for (uint32_t i = 0, j = 0; i < before[pd].n; i++)
			if (before[pd].id[i] != d)
				before[pd].id[j++] = before[pd].id[i];
		before[pd].n--;
		for (uint32_t i = 0; i < before[d].n; i++)
			before[pd].id[before[pd].n++] = before[d].id[i];
		before[d].n = 0;
		radix_view_del(&v, d);
		for (uint32_t id = radix_view_next(&v, 0); id != RADIX_NONE;
		     id = radix_view_next(&v, id + 1)) {
			after->n = 0;
			radix_children(&v, a, id, collect, after);
			qsort(after->id, after->n, sizeof(uint32_t), cmp_u32);
			qsort(before[id].id, before[id].n, sizeof(uint32_t),
			      cmp_u32);
			if (!TAP_CHECK_UINT(radix_parent(&v, a, id),
					    parent[id]) ||
			    !TAP_CHECK_UINT(after->n, before[id].n) ||
			    !TAP_CHECK_MEM(after->id, before[id].id,
					   after->n * sizeof(uint32_t))) {
				tap_diag("a=%u cap=%u D=%u member %u", a, cap,
					 d, id);
				round = 3000;
				break;
			}
		}
		free(after);
	}
	v.cap = CAP;
	radix_view_free(&v);
}

/* The root's own ancestors and members without a member ancestor hang
 * from the root (root 5 of ids 0..12, a = 2, 0 and 2 gone). */
static void test_orphans(const void *arg)
{
	struct radix_view v;
	struct kids k = { 0 };

	(void)arg;
	radix_view_init(&v, 13);
	for (uint32_t id = 0; id < 13; id++)
		if (id != 0 && id != 2)
			radix_view_add(&v, id, 1);
	v.root = 5;
	radix_children(&v, 2, 5, collect, &k);
	qsort(k.id, k.n, sizeof(uint32_t), cmp_u32);
	/* 11, 12: its static children; 1: no member ancestor; 6: under the
	 * dead 2. 1's subtree keeps 3, 4 but not 5, the root. */
	TAP_CHECK_UINT(k.n, 4);
	TAP_CHECK_UINT(k.id[0], 1);
	TAP_CHECK_UINT(k.id[1], 6);
	TAP_CHECK_UINT(k.id[2], 11);
	TAP_CHECK_UINT(k.id[3], 12);
	TAP_CHECK_UINT(radix_parent(&v, 2, 1), 5);
	TAP_CHECK_UINT(radix_parent(&v, 2, 6), 5);
	TAP_CHECK_UINT(radix_parent(&v, 2, 4), 1);
	TAP_CHECK_UINT(radix_parent(&v, 2, 5), RADIX_NONE);
	TAP_CHECK_UINT(radix_height(&v, 2), 4);	/* 5 - 1 - 3 - 7 */
	radix_view_free(&v);
}

int main(void)
{
	tap_add(test_fanout, NULL, "fan-out: powers of two only");
	tap_add(test_route, NULL, "ids encode the route from the root");
	tap_add(test_model, NULL, "the model's height and Ts (formula "
		"reading pinned)");
	tap_add(test_tree_shape, NULL, "the tree of any view is a tree");
	tap_add(test_recalculation, NULL, "the paper's local recalculation "
		"equals the tree of the view without D");
	tap_add(test_orphans, NULL, "orphans and the root's ancestors hang "
		"from the root");
	return tap_run();
}
