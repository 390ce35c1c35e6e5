/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The value algebra ERA agrees over (ERA paper, section 2: "an associative
 * and commutative deterministic binary idempotent operation F, such that
 * C u {bottom} with F is a monoid of identity bottom").
 *
 * Values are fixed-size byte blocks of @value_size bytes in a canonical
 * in-memory form: two equal values have equal bytes (pad bits zero), so
 * the engine and its tests compare them with memcmp(). On the wire a value
 * is whatever encode() writes; decode() must reject anything encode() could
 * not have produced, since it reads bytes from a socket.
 */
#ifndef FTNL_ERA_OP_H
#define FTNL_ERA_OP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * struct era_op - the combine operation F and its value encoding
 * @value_size: bytes of one value in memory
 * @identity: store bottom, F's identity, in @v
 * @combine: @dst = F(@dst, @src); associative, commutative, idempotent
 * @wire_size: bytes encode() will write for @v
 * @encode: write @v's wire form to @buf (wire_size() bytes); return them
 * @decode: parse exactly @len bytes into @v; 0, or -EBADMSG if malformed
 * @add_dead: optional. Fold the local set of known-dead ranks (a bitmap of
 *	@nranks bits) into @v before it is sent up or decided, so that a
 *	decided value carries every failure a contributor knew of (ULFM
 *	agree: the group of failed processes is agreed upon too)
 * @is_dead: optional. Whether decided value @v lists @rank as failed; the
 *	engine then marks @rank dead (the failure is real: a contributor's
 *	detector saw it) and, with rebalancing, leaves it out of later trees
 * @priv: the op's own data (e.g. the group size)
 */
struct era_op {
	size_t value_size;
	void (*identity)(const struct era_op *op, void *v);
	void (*combine)(const struct era_op *op, void *dst, const void *src);
	size_t (*wire_size)(const struct era_op *op, const void *v);
	size_t (*encode)(const struct era_op *op, const void *v, uint8_t *buf);
	int (*decode)(const struct era_op *op, const uint8_t *buf, size_t len,
		      void *v);
	void (*add_dead)(const struct era_op *op, void *v, const uint64_t *dead,
			 uint32_t nranks);
	bool (*is_dead)(const struct era_op *op, const void *v, uint32_t rank);
	const void *priv;
};

#endif /* FTNL_ERA_OP_H */
