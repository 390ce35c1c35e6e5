/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel definitions the pure algorithm files use, so that the very
 * same files compile into the module and into userspace tests, fuzzers and
 * the simulator.
 */
#ifndef _FTNL_COMPAT_H
#define _FTNL_COMPAT_H

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include <errno.h>
#include <limits.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

#ifndef BITS_PER_LONG
#define BITS_PER_LONG (CHAR_BIT * (int)sizeof(long))
#endif

/*
 * The kernel's keeps a large frame out of its caller's (kmod/sign); only
 * the module's softirq stack cares.
 */
#ifndef noinline
#define noinline
#endif
#endif

/* A bitmap of node indices, as the kernel lays out unsigned long bitmaps. */
static inline bool ftnl_bit_test(const unsigned long *map, u32 bit)
{
	return (map[bit / BITS_PER_LONG] >> (bit % BITS_PER_LONG)) & 1UL;
}

static inline void ftnl_bit_set(unsigned long *map, u32 bit)
{
	map[bit / BITS_PER_LONG] |= 1UL << (bit % BITS_PER_LONG);
}

static inline void ftnl_bit_clear(unsigned long *map, u32 bit)
{
	map[bit / BITS_PER_LONG] &= ~(1UL << (bit % BITS_PER_LONG));
}

static inline u32 ftnl_popcount_long(unsigned long word)
{
#ifdef __KERNEL__
	return hweight_long(word);
#else
	return __builtin_popcountl(word);
#endif
}

static inline size_t ftnl_bitmap_longs(u32 bits)
{
	return (bits + BITS_PER_LONG - 1) / BITS_PER_LONG;
}

#endif /* _FTNL_COMPAT_H */
