/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Membership views of the radix-tree membership service (Varma, Mueller,
 * Engelmann..., "Scalable, fault-tolerant membership for MPI tasks on HPC
 * systems"; ../shared/papers/scalable-membership-radix-tree.txt).
 *
 * A process is an id (a slot 0..cap-1, its place in the radix tree) and an
 * incarnation (1 for the first process of an id, +1 per restart: a
 * restarted process is never confused with the dead one). A view is the
 * set of member (id, incarnation) pairs, a sequence number, and the id of
 * the root that serializes its changes. Membership is a bitmap, so that a
 * node's "array of nodes" (paper section 3.1) answers in constant time;
 * incarnations other than 1, rare, are kept in a sorted set beside it.
 */
#ifndef FTNL_RADIX_VIEW_H
#define FTNL_RADIX_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#define RADIX_NONE	UINT32_MAX
#define RADIX_MAX_CAP	(1u << 20)

/* One process: an id and its incarnation (>= 1). */
struct radix_member {
	uint32_t id;
	uint32_t inc;
};

/* A set of processes, at most one per id, sorted by id. */
struct radix_set {
	struct radix_member *v;
	uint32_t n, cap;
};

/* Insert (id, inc), or replace the incarnation of id. Return: 0, -ENOMEM. */
int radix_set_put(struct radix_set *s, uint32_t id, uint32_t inc);
/* The incarnation held for @id, 0 if none. */
uint32_t radix_set_get(const struct radix_set *s, uint32_t id);
void radix_set_del(struct radix_set *s, uint32_t id);
void radix_set_clear(struct radix_set *s);
int radix_set_copy(struct radix_set *dst, const struct radix_set *src);
void radix_set_free(struct radix_set *s);

/**
 * struct radix_view - one membership view
 * @seq: 0 for the initial view, +1 per change
 * @root: the member that issues the next change (paper: the root)
 * @cap: ids 0..cap-1
 * @count: members
 * @bits: cap bits, bit i set iff id i is a member
 * @incs: members whose incarnation is not 1
 */
struct radix_view {
	uint64_t seq;
	uint32_t root;
	uint32_t cap;
	uint32_t count;
	uint64_t *bits;
	struct radix_set incs;
};

/* An empty view of @cap ids. Return: 0, -EINVAL, -ENOMEM. */
int radix_view_init(struct radix_view *v, uint32_t cap);
void radix_view_free(struct radix_view *v);
/* @dst must have been initialized with the same cap. */
int radix_view_copy(struct radix_view *dst, const struct radix_view *src);
void radix_view_clear(struct radix_view *v);

static inline bool radix_view_has(const struct radix_view *v, uint32_t id)
{
	return id < v->cap && ((v->bits[id / 64] >> (id % 64)) & 1);
}

/* Incarnation of member @id, 0 if not a member. */
uint32_t radix_view_inc(const struct radix_view *v, uint32_t id);
/* Add or re-incarnate member @id. Return: 0, -EINVAL, -ENOMEM. */
int radix_view_add(struct radix_view *v, uint32_t id, uint32_t inc);
void radix_view_del(struct radix_view *v, uint32_t id);
/* Add ids @first .. @first + @count - 1 at incarnation 1 (not members). */
void radix_view_add_run(struct radix_view *v, uint32_t first,
			uint32_t count);
/* The first member id >= @from, RADIX_NONE if none. */
uint32_t radix_view_next(const struct radix_view *v, uint32_t from);
/* The first id >= @from that is not a member, @v->cap if none. */
uint32_t radix_view_next_gap(const struct radix_view *v, uint32_t from);
/* Same members, incarnations, seq and root. */
bool radix_view_equal(const struct radix_view *a, const struct radix_view *b);

/*
 * Consecutive views, by increasing seq: what a member that missed some
 * needs to install them all, in order. Views are kept allocated for reuse.
 */
struct radix_chain {
	struct radix_view *v;
	uint32_t n, cap;
};

/* Append a copy of @v. Return: 0, -EINVAL (not the next seq), -ENOMEM. */
int radix_chain_push(struct radix_chain *c, const struct radix_view *v);
/* Drop the views whose seq is <= @seq. */
void radix_chain_drop_upto(struct radix_chain *c, uint64_t seq);
void radix_chain_clear(struct radix_chain *c);
/* @dst = the views of @src whose seq is > @seq. */
int radix_chain_copy_above(struct radix_chain *dst,
			   const struct radix_chain *src, uint64_t seq);
void radix_chain_free(struct radix_chain *c);

#endif /* FTNL_RADIX_VIEW_H */
