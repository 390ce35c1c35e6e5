/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The radix tree (paper sections 3.1-3.2 and the local recalculation of
 * 3.4), computed by every node from its view alone: no message at
 * initialization.
 *
 * The static tree over the ids 0..cap-1 is the complete tree of fan-out
 * a = 2^k laid out level by level: the children of id i are a*i+1 ..
 * a*i+a. Id i sits at level L with index k in that level, where
 * i = (a^L - 1)/(a - 1) + k, and the base-a digits of k (k bits each) are
 * the route from the root: ids encode routing. Its height steps up above
 * 1, 1+a, 1+a+a^2... ids: for a = 4 above 5 and 21 nodes, for a = 2 at
 * 2^h - 1 (the steps of the paper's figures 6 and 8).
 *
 * The tree of a view is that static tree contracted onto the members: a
 * member's parent is its nearest member ancestor; a member without one,
 * and the root's own static ancestors, hang from the view's root. Removing
 * a member D this way is exactly the paper's recalculation: the children
 * C(D) get P(D) as parent, D leaves P(D)'s children, C(D) merges into
 * them, D's list empties (tests/tree.c checks this equivalence).
 */
#ifndef FTNL_RADIX_TREE_H
#define FTNL_RADIX_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "view.h"

/* A fan-out the protocol accepts: a power of two, 2 .. 1024. */
bool radix_fanout_ok(uint32_t a);

/* Static tree: parent of @id (RADIX_NONE for 0) and level of @id. */
uint32_t radix_static_parent(uint32_t id, uint32_t a);
uint32_t radix_static_level(uint32_t id, uint32_t a);
/*
 * The route from the root to @id: @digits[0..L-1] (L = its level), each
 * in 0..a-1, the child to follow at each level. Return: L.
 */
uint32_t radix_route(uint32_t id, uint32_t a, uint32_t *digits, uint32_t max);

/*
 * Parent of member @id in the tree of @v: RADIX_NONE for the root or a
 * non-member.
 */
uint32_t radix_parent(const struct radix_view *v, uint32_t a, uint32_t id);

/*
 * Children of member @id in the tree of @v, each passed to @fn, in
 * increasing static position. Return: how many.
 */
uint32_t radix_children(const struct radix_view *v, uint32_t a, uint32_t id,
			void (*fn)(void *ctx, uint32_t child), void *ctx);

/* Levels of the tree of @v (1 for a lone root, 0 for an empty view). */
uint32_t radix_height(const struct radix_view *v, uint32_t a);

/*
 * The paper's model (section 4): H, the height of the complete tree of n
 * nodes, and Ts = Ocm + Ocp * H with Ocm = 2 * L * (H - 1) (equations 1
 * and 2; the extracted text lost the multiplication signs).
 */
uint32_t radix_model_height(uint64_t n, uint32_t a);
double radix_model_ts(uint64_t n, uint32_t a, double latency, double ocp);

#endif /* FTNL_RADIX_TREE_H */
