/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The ULFM agree value (ERA paper, section 1.1): an integer flag combined
 * with bitwise AND, and the set of failed ranks combined with union.
 *
 * A caller contributes its flag and the failures it has acknowledged; the
 * engine adds, before the value goes up, every rank its own detector has
 * reported dead (op add_dead). The decided value thus carries every
 * failure any contributor knew of, and only real failures. Whether to raise
 * a "process failed" error (a failure in the set that the caller had not
 * acknowledged before the call) is the caller's decision: it compares the
 * set with its own acknowledgements.
 *
 * In memory a value is 1 + ceil(nranks / 64) 64-bit words: the flag, then
 * the failed bitmap (bits beyond nranks zero). On the wire, compact when
 * few ranks failed: the flag as 8 bytes little-endian, the number of failed
 * ranks as a LEB128 varint, then the failed ranks in increasing order as
 * varints of their gaps: the first rank as is, each next one as
 * (rank - previous - 1).
 */
#ifndef FTNL_ERA_ULFM_H
#define FTNL_ERA_ULFM_H

#include <stdbool.h>
#include <stdint.h>

#include "op.h"

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

/* A contribution: @flag and no failed rank. @v holds op.value_size bytes. */
void era_ulfm_value_init(const struct era_ulfm *ulfm, void *v, uint64_t flag);
void era_ulfm_set_failed(const struct era_ulfm *ulfm, void *v, uint32_t rank);
uint64_t era_ulfm_flag(const void *v);
bool era_ulfm_failed(const struct era_ulfm *ulfm, const void *v,
		     uint32_t rank);
uint32_t era_ulfm_failed_count(const struct era_ulfm *ulfm, const void *v);

#endif /* FTNL_ERA_ULFM_H */
