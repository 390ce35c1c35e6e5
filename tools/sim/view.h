/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A broadcast's participants with O(log n) label <-> position mapping.
 *
 * kmod/bcast/topology.c maps labels by counting live positions word by
 * word, O(n / BITS_PER_LONG) per call: right for a kernel node that maps a
 * few dozen neighbors, too slow for a simulator that maps every message of
 * a 262,144-node flood. This index gives the same answers (checked against
 * ftnl_bcast_label()/ftnl_bcast_pos() by "ftnl-sim selftest") from a
 * per-word prefix count built once per broadcast. n and the source's rank
 * come from the pure ftnl_bcast_view_init().
 */
#ifndef FTNL_SIM_VIEW_H
#define FTNL_SIM_VIEW_H

#include "../../kmod/bcast/topology.h"

struct sim_view {
	struct ftnl_bcast_view view;
	u32 *prefix;	/* live positions before each word */
	u32 words;
};

int sim_view_init(struct sim_view *sv, const unsigned long *dead, u32 npos,
		  u32 src_pos);
void sim_view_free(struct sim_view *sv);
u32 sim_view_label(const struct sim_view *sv, u32 pos);
u32 sim_view_pos(const struct sim_view *sv, u32 label);

#endif /* FTNL_SIM_VIEW_H */
