/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftnl/group internals: the value a view's agreements decide, the ULFM
 * value (era/ulfm.h: flag, failed, acknowledged) plus the joiners a grow
 * lets in, so that the joins are decided by the agreement itself.
 *
 * Joiners are world ranks with an incarnation, at most GRP_JOIN_SLOTS,
 * combined by union (the highest incarnation of a rank wins: a later
 * incarnation proves the earlier dead) keeping the GRP_JOIN_SLOTS lowest
 * ranks - still associative, commutative and idempotent: a rank cut from
 * a partial union has that many lower ranks in every union above it.
 *
 * In memory: the ULFM value first (so that every era_ulfm_*() accessor
 * works on the whole value), then a 64-bit count and GRP_JOIN_SLOTS
 * {rank, inc} pairs sorted by rank, unused pairs zero. On the wire:
 *
 *	count	1 byte, <= GRP_JOIN_SLOTS
 *	joiners	count x {rank(4) inc(4)} little-endian, ranks increasing,
 *		each < the world size, incarnations >= 1
 *	ulfm	the ULFM value's encoding (era/ulfm.h), to the end
 *
 * The decoder takes exactly what the encoder writes.
 */
#ifndef FTNL_GROUP_JOINOP_H
#define FTNL_GROUP_JOINOP_H

#include <stdint.h>

#include <ftnl/group.h>

#include "era/op.h"
#include "era/ulfm.h"

#define GRP_JOIN_SLOTS	FTNL_GROUP_MAX_JOINS

struct grp_joiner {
	uint32_t rank;
	uint32_t inc;
};

/**
 * struct grp_join_op - the op of one view
 * @op: hand &jop->op to the engine
 * @ulfm: the ULFM part's op (the view's size)
 * @world: world size (ranks of joiners are below it)
 */
struct grp_join_op {
	struct era_op op;
	struct era_ulfm ulfm;
	uint32_t world;
};

void grp_join_op_init(struct grp_join_op *jop, uint32_t nranks,
		      uint32_t world);

/* The joiners of value @v: their count, and @v's array of them. */
uint32_t grp_join_count(const struct grp_join_op *jop, const void *v);
const struct grp_joiner *grp_join_list(const struct grp_join_op *jop,
				       const void *v);
/* Add joiner (@rank, @inc) to contribution @v (same rules as combine). */
void grp_join_add(const struct grp_join_op *jop, void *v, uint32_t rank,
		  uint32_t inc);

#endif /* FTNL_GROUP_JOINOP_H */
