/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The ULFM agree value (ERA paper, section 1.1), three components:
 *
 * - an integer flag, combined with bitwise AND;
 * - the set of failed ranks, combined with union;
 * - the set of acknowledged ranks, combined with intersection (identity:
 *   every rank).
 *
 * A caller contributes its flag and the failures it has acknowledged
 * (era_ulfm_set_acked()); the engine adds, before the value goes up, every
 * rank its own detector has reported dead (op add_dead). The decided value
 * thus carries every failure any contributor knew of, and only real
 * failures, and the failures every contributor had acknowledged. ULFM's
 * "process failed" error is raised iff a failed rank is not in the
 * acknowledged intersection (era_ulfm_unacked_failure()): since the value
 * is agreed, every survivor raises it or none does.
 *
 * In memory a value is ERA_ULFM_VALUE_WORDS(nranks) 64-bit words: the
 * flag, the failed bitmap, then the acknowledged bitmap (bits beyond
 * nranks zero in both). On the wire, compact when few ranks failed:
 *
 *	flag	8 bytes little-endian
 *	failed	a LEB128 varint count, then the ranks in increasing
 *		order as varints of their gaps: the first rank as is,
 *		each next one as (rank - previous - 1)
 *	acked	a varint: 0 for "every rank" (also the identity),
 *		else the count + 1, then the ranks as gaps
 *
 * A set of every rank is always written as 0, so each value has exactly
 * one encoding; the decoder rejects any other (non-minimal varints, ranks
 * out of range or out of order, a full list, trailing bytes).
 */
#ifndef FTNL_ERA_ULFM_H
#define FTNL_ERA_ULFM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "op.h"

/* 64-bit words of a value for groups of @nranks ranks. */
#define ERA_ULFM_VALUE_WORDS(nranks) (1 + 2 * (((size_t)(nranks) + 63) / 64))

/**
 * struct era_ulfm - the op, for groups of @nranks ranks
 * @op: hand &ulfm->op to era_group_create()
 * @nranks: group size
 */
struct era_ulfm {
	struct era_op op;
	uint32_t nranks;
};

void era_ulfm_init(struct era_ulfm *ulfm, uint32_t nranks);

/*
 * A contribution: @flag, no failed rank, no acknowledged rank. @v holds
 * op.value_size bytes.
 */
void era_ulfm_value_init(const struct era_ulfm *ulfm, void *v, uint64_t flag);
void era_ulfm_set_failed(const struct era_ulfm *ulfm, void *v, uint32_t rank);
void era_ulfm_set_acked(const struct era_ulfm *ulfm, void *v, uint32_t rank);
uint64_t era_ulfm_flag(const void *v);
bool era_ulfm_failed(const struct era_ulfm *ulfm, const void *v,
		     uint32_t rank);
bool era_ulfm_acked(const struct era_ulfm *ulfm, const void *v,
		    uint32_t rank);
uint32_t era_ulfm_failed_count(const struct era_ulfm *ulfm, const void *v);

/* ULFM's error: a failed rank that not every contributor acknowledged. */
bool era_ulfm_unacked_failure(const struct era_ulfm *ulfm, const void *v);

#endif /* FTNL_ERA_ULFM_H */
