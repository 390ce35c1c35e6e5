/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Broadcast overlays, pure: who forwards a failure notification to whom.
 *
 * A broadcast runs over the alive set A of its message (all positions not
 * in the message's D) and never over a node's own, possibly newer, view:
 * the ring paper (section 2) stresses that one D serves the whole broadcast.
 * A's members are labeled 0..n-1 in ring order starting at the source.
 */
#ifndef _FTNL_BCAST_TOPOLOGY_H
#define _FTNL_BCAST_TOPOLOGY_H

#include "../compat.h"

/* The largest fan-out of any overlay here, for callers' arrays. */
#define FTNL_BCAST_MAX_FANOUT	64

enum ftnl_overlay {
	FTNL_OVERLAY_HYPERCUBE,	/* dual hypercube (ring paper, section 2) */
	FTNL_OVERLAY_BMG,	/* binomial graph, p +/- 2^j (ULFM) */
};

/**
 * struct ftnl_bcast_view - one broadcast's participants
 * @dead: the message's D, a bitmap over @npos ring positions
 * @npos: number of positions (the cluster size)
 * @n: |A|, the number of participants
 * @src_rank: the source's rank among A (its index in ring order)
 */
struct ftnl_bcast_view {
	const unsigned long *dead;
	u32 npos;
	u32 n;
	u32 src_rank;
};

void ftnl_bcast_view_init(struct ftnl_bcast_view *view,
			  const unsigned long *dead, u32 npos, u32 src_pos);
u32 ftnl_bcast_label(const struct ftnl_bcast_view *view, u32 pos);
u32 ftnl_bcast_pos(const struct ftnl_bcast_view *view, u32 label);

u32 ftnl_hcube_dim(u32 n);
bool ftnl_hcube_coord(u32 n, u32 cube, u32 label, u32 *coord);
u32 ftnl_hcube_label(u32 n, u32 cube, u32 coord);
u32 ftnl_hcube_forward(u32 n, u32 cube, u32 label, u32 from_label,
		       u32 *to_labels);

u32 ftnl_bmg_degree(u32 n);
u32 ftnl_bmg_forward(u32 n, u32 label, u32 *to_labels);

#endif /* _FTNL_BCAST_TOPOLOGY_H */
