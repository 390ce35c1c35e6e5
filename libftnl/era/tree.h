/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ERA trees (ERA paper, section 2, "Parent(S, p)" and "Children(S, p)", and
 * section 4, "Topologies"). Internal to libftnl/era.
 *
 * A view numbers the members of a tree with positions 0..npos-1 such that
 * every node's parent has a smaller position (heap order) and the root is
 * position 0. The paper's functions, over positions, with S the local
 * array of dead ranks:
 *
 *	Anc(S, p)    = the ancestors of p in the original tree not dead in S
 *	Eld(S, p)    = { q < p : q not dead in S }
 *	Parent(S, p) = max Anc(S, p)	(the nearest live ancestor) if any,
 *		       else min Eld(S, p) if any, else none (p is root)
 *	Children(S, p) = { q : Parent(S, q) = p }
 *
 * The binary tree is the one of the paper's Figure 1b (0; 1 2; 3 4 5 6):
 * the parent of position i is (i - 1) / 2, and Anc(p) is { floor((p + 1) /
 * 2^i) - 1, i >= 1 } - the extracted text's "floor(p / 2^i)" is the 1-based
 * heap formula, and does not draw Figure 1b. The star's parent is 0, the
 * string's is i - 1. A hierarchical X/Y tree puts one representative per
 * host (its lowest member rank) first, joined by the X shape, and each
 * host's other members after them, joined to their representative by the
 * Y shape: ancestry runs through the representative into the X tree, so a
 * tree mended around a failed representative keeps the paper's rule that
 * "a process can only become the child of a node in its initial ancestry,
 * or a child of the current root".
 */
#ifndef FTNL_ERA_TREE_H
#define FTNL_ERA_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"

#define ERA_NO_POS UINT32_MAX

/**
 * struct era_view - one tree over the members of a group
 * @refs: agreements using it (plus one while it is the group's latest)
 * @npos: members in the tree
 * @first_alive: no position below it is alive (monotonic: S only grows)
 * @order: position -> rank
 * @pos_of: rank -> position, ERA_NO_POS if the rank is not a member
 * @parent: position -> parent position in the original tree (root: NO_POS)
 * @first_child: position -> its first child (NO_POS: a leaf)
 * @next_sibling: position -> next child of the same parent
 * @excluded: bitmap of the ranks left out (rebalancing), nranks bits
 */
struct era_view {
	uint32_t refs;
	uint32_t npos;
	uint32_t first_alive;
	uint32_t *order;
	uint32_t *pos_of;
	uint32_t *parent;
	uint32_t *first_child;
	uint32_t *next_sibling;
	uint64_t *excluded;
};

/**
 * struct era_tree_shape - how to draw a view
 * @topo: a flat shape, or ERA_TOPO_HIER
 * @inter: ERA_TOPO_HIER: the X shape, between the hosts' representatives
 * @intra: ERA_TOPO_HIER: the Y shape, inside a host
 * @host_of: host of each rank, < nranks (ERA_TOPO_HIER)
 * @nranks: group size
 */
struct era_tree_shape {
	enum era_topology topo;
	enum era_topology inter;
	enum era_topology intra;
	const uint32_t *host_of;
	uint32_t nranks;
};

/* Scratch the builder needs: 4 * nranks words. */
#define ERA_TREE_SCRATCH_WORDS(nranks) (4 * (size_t)(nranks))

/*
 * Draw @view over every rank not in @excluded (NULL: every rank); the
 * view's arrays are preallocated for shape->nranks entries.
 */
void era_view_build(struct era_view *view, const struct era_tree_shape *shape,
		    const uint64_t *excluded, uint32_t *scratch);

/* Parent(S, pos) as a position, or ERA_NO_POS if pos is root. */
uint32_t era_view_parent(struct era_view *view, const uint64_t *dead,
			 uint32_t pos);

/*
 * Children(S, pos): write their positions to @out (room for npos entries,
 * as @stack) and return how many. Unordered.
 */
uint32_t era_view_children(struct era_view *view, const uint64_t *dead,
			   uint32_t pos, uint32_t *out, uint32_t *stack);

/* Depth of the original tree (longest root-to-leaf path, in edges). */
uint32_t era_view_depth(const struct era_view *view);

#endif /* FTNL_ERA_TREE_H */
