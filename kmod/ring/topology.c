// SPDX-License-Identifier: GPL-2.0
/*
 * FindEmitter of Algorithm 1 (lines 37-42) of "A failure detector for HPC
 * platforms", and its mirror for the observer side. Pure code: no kernel
 * headers beyond compat.h.
 */

#include "topology.h"

/**
 * ftnl_ring_find_emitter - FindEmitter: closest predecessor not in D
 * @dead: the dead set D, a bitmap over ring positions
 * @n: number of positions
 * @self: this node's position, never in @dead
 * @from: where the backward walk starts (the old emitter in task T3; the
 *	position before @self to re-evaluate from scratch)
 *
 * Walks back from @from while the position is in D (line 39: "while k in
 * D_i do k <- (k - 1) mod N").
 *
 * Return: the new emitter, or @self when every other node is in D.
 */
u32 ftnl_ring_find_emitter(const unsigned long *dead, u32 n, u32 self,
			   u32 from)
{
	u32 pos = from, steps;

	for (steps = 0; steps < n; steps++) {
		if (pos == self || !ftnl_bit_test(dead, pos))
			return pos;
		pos = ftnl_ring_pred(pos, n);
	}
	return self;
}

/**
 * ftnl_ring_find_observer - closest successor of @self not in D
 * @dead: the dead set D
 * @n: number of positions
 * @self: this node's position
 *
 * Used when this node learns for sure that its observer is gone (it left
 * gracefully, or was readmitted behind it), instead of waiting for the
 * NEW_OBSERVER of task T4.
 *
 * Return: the observer, or @self when every other node is in D.
 */
u32 ftnl_ring_find_observer(const unsigned long *dead, u32 n, u32 self)
{
	u32 pos = ftnl_ring_succ(self, n), steps;

	for (steps = 0; steps < n; steps++) {
		if (pos == self || !ftnl_bit_test(dead, pos))
			return pos;
		pos = ftnl_ring_succ(pos, n);
	}
	return self;
}
