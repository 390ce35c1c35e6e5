/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fixed-size bit sets over ranks, 64 bits per word. Internal to libftnl/era.
 */
#ifndef FTNL_ERA_BITMAP_H
#define FTNL_ERA_BITMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline size_t era_bitmap_words(uint32_t nbits)
{
	return ((size_t)nbits + 63) / 64;
}

static inline bool era_bit_test(const uint64_t *map, uint32_t bit)
{
	return (map[bit / 64] >> (bit % 64)) & 1;
}

static inline void era_bit_set(uint64_t *map, uint32_t bit)
{
	map[bit / 64] |= (uint64_t)1 << (bit % 64);
}

static inline void era_bit_clear(uint64_t *map, uint32_t bit)
{
	map[bit / 64] &= ~((uint64_t)1 << (bit % 64));
}

static inline void era_bitmap_zero(uint64_t *map, uint32_t nbits)
{
	memset(map, 0, era_bitmap_words(nbits) * sizeof(*map));
}

static inline bool era_bitmap_equal(const uint64_t *a, const uint64_t *b,
				    uint32_t nbits)
{
	return !memcmp(a, b, era_bitmap_words(nbits) * sizeof(*a));
}

/* The first set bit at or after @from, or @nbits if there is none. */
static inline uint32_t era_bitmap_next(const uint64_t *map, uint32_t nbits,
				       uint32_t from)
{
	size_t w;
	uint64_t word;

	if (from >= nbits)
		return nbits;
	w = from / 64;
	word = map[w] & (~(uint64_t)0 << (from % 64));
	for (;;) {
		if (word) {
			uint64_t bit = w * 64 + (uint64_t)__builtin_ctzll(word);

			return bit < nbits ? (uint32_t)bit : nbits;
		}
		if (++w >= era_bitmap_words(nbits))
			return nbits;
		word = map[w];
	}
}

#define era_bitmap_for_each(bit, map, nbits)				\
	for ((bit) = era_bitmap_next((map), (nbits), 0); (bit) < (nbits); \
	     (bit) = era_bitmap_next((map), (nbits), (bit) + 1))

#endif /* FTNL_ERA_BITMAP_H */
