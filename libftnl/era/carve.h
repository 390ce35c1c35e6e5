/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One-block allocation for the pure engines (ERA, validate-all): a layout
 * function is run twice over a carver, first with no base to add up the
 * size, then over the allocated block to hand out its pieces, so an engine
 * makes exactly one allocation however many arrays it has.
 */
#ifndef FTNL_ERA_CARVE_H
#define FTNL_ERA_CARVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

struct era_carver {
	uint8_t *base;		/* NULL: only measure */
	size_t off;
};

/* The next @size bytes, 16-byte aligned; NULL while measuring. */
static inline void *era_carve(struct era_carver *c, size_t size)
{
	size_t off = (c->off + 15) & ~(size_t)15;

	c->off = off + size;
	return c->base ? c->base + off : NULL;
}

/* The allocator an engine uses when its caller gives none. */
static inline void *era_default_alloc(void *ctx, size_t size)
{
	(void)ctx;
	return malloc(size);
}

static inline void era_default_free(void *ctx, void *ptr, size_t size)
{
	(void)ctx;
	(void)size;
	free(ptr);
}

#endif /* FTNL_ERA_CARVE_H */
