/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The observation ring's topology, pure: emitter and observer choice over
 * ring positions. A position is an index 0..n-1 into the id-sorted node
 * table; the ring runs in ascending index order, wrapping around.
 */
#ifndef _FTNL_RING_TOPOLOGY_H
#define _FTNL_RING_TOPOLOGY_H

#include "../compat.h"

static inline u32 ftnl_ring_pred(u32 pos, u32 n)
{
	return pos ? pos - 1 : n - 1;
}

static inline u32 ftnl_ring_succ(u32 pos, u32 n)
{
	return pos + 1 < n ? pos + 1 : 0;
}

u32 ftnl_ring_find_emitter(const unsigned long *dead, u32 n, u32 self,
			   u32 from);
u32 ftnl_ring_find_observer(const unsigned long *dead, u32 n, u32 self);

#endif /* _FTNL_RING_TOPOLOGY_H */
