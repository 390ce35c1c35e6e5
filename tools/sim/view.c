// SPDX-License-Identifier: GPL-2.0
/* Indexed label <-> position mapping of a broadcast view (see view.h). */
#include <errno.h>
#include <stdlib.h>

#include "view.h"

int sim_view_init(struct sim_view *sv, const unsigned long *dead, u32 npos,
		  u32 src_pos)
{
	u32 w, alive = 0;

	sv->words = ftnl_bitmap_longs(npos);
	sv->prefix = malloc((sv->words + 1) * sizeof(*sv->prefix));
	if (!sv->prefix)
		return -ENOMEM;
	for (w = 0; w < sv->words; w++) {
		u32 bits = w + 1 < sv->words || !(npos % BITS_PER_LONG) ?
			   BITS_PER_LONG : npos % BITS_PER_LONG;

		sv->prefix[w] = alive;
		alive += bits - ftnl_popcount_long(dead[w]);
	}
	sv->prefix[sv->words] = alive;
	ftnl_bcast_view_init(&sv->view, dead, npos, src_pos);
	return 0;
}

void sim_view_free(struct sim_view *sv)
{
	free(sv->prefix);
	sv->prefix = NULL;
}

/* Rank of live position @pos among live positions. */
static u32 sim_view_rank(const struct sim_view *sv, u32 pos)
{
	u32 w = pos / BITS_PER_LONG, bit = pos % BITS_PER_LONG;
	unsigned long below = bit ? (1UL << bit) - 1 : 0;

	return sv->prefix[w] + ftnl_popcount_long(~sv->view.dead[w] & below);
}

u32 sim_view_label(const struct sim_view *sv, u32 pos)
{
	u32 n = sv->view.n;

	return (sim_view_rank(sv, pos) + n - sv->view.src_rank) % n;
}

u32 sim_view_pos(const struct sim_view *sv, u32 label)
{
	u32 rank = (label + sv->view.src_rank) % sv->view.n;
	u32 w = rank / BITS_PER_LONG, lo, hi, steps;
	unsigned long live;

	/*
	 * The word holding it is the last one whose prefix is <= rank. Since
	 * prefix[w] <= w * BITS_PER_LONG, it is at or after rank / BITS_PER_LONG,
	 * and only as many words after as D has full words' worth of dead
	 * positions before it: walk a few, then bisect.
	 */
	for (steps = 0; steps < 8 && w + 1 < sv->words &&
	     sv->prefix[w + 1] <= rank; steps++)
		w++;
	if (steps == 8) {
		lo = w;
		hi = sv->words;
		while (hi - lo > 1) {
			u32 mid = lo + (hi - lo) / 2;

			if (sv->prefix[mid] <= rank)
				lo = mid;
			else
				hi = mid;
		}
		w = lo;
	}
	rank -= sv->prefix[w];
	if (!sv->view.dead[w])
		return w * BITS_PER_LONG + rank;
	live = ~sv->view.dead[w];
	/* Select the rank-th set bit of live. */
	while (rank--)
		live &= live - 1;
	return w * BITS_PER_LONG + __builtin_ctzl(live);
}
