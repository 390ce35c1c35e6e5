// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The ULFM agree value: flag AND, failed-set union, acknowledged-set
 * intersection (see ulfm.h).
 */
#include <errno.h>
#include <string.h>

#include "../bytes.h"
#include "bitmap.h"
#include "ulfm.h"

static const struct era_ulfm *to_ulfm(const struct era_op *op)
{
	return op->priv;
}

static size_t map_words(const struct era_ulfm *u)
{
	return era_bitmap_words(u->nranks);
}

static uint64_t *failed_map(void *v)
{
	return (uint64_t *)v + 1;
}

static const uint64_t *failed_map_c(const void *v)
{
	return (const uint64_t *)v + 1;
}

static uint64_t *acked_map(const struct era_ulfm *u, void *v)
{
	return (uint64_t *)v + 1 + map_words(u);
}

static const uint64_t *acked_map_c(const struct era_ulfm *u, const void *v)
{
	return (const uint64_t *)v + 1 + map_words(u);
}

static uint32_t map_count(const uint64_t *map, size_t words)
{
	uint32_t count = 0;

	for (size_t i = 0; i < words; i++)
		count += (uint32_t)__builtin_popcountll(map[i]);
	return count;
}

/* Every one of the @n ranks, bits beyond @n clear (canonical form). */
static void map_fill(uint64_t *map, uint32_t n)
{
	size_t words = era_bitmap_words(n);

	memset(map, 0xff, words * sizeof(*map));
	if (n % 64)
		map[words - 1] = ((uint64_t)1 << (n % 64)) - 1;
}

/* Bytes of a rank set's gap list (not its count). */
static size_t ranks_size(const uint64_t *map, uint32_t n)
{
	uint32_t r, prev = 0;
	size_t size = 0;
	bool first = true;

	era_bitmap_for_each(r, map, n) {
		size += bytes_varint_size(first ? r : r - prev - 1);
		prev = r;
		first = false;
	}
	return size;
}

static size_t ranks_put(const uint64_t *map, uint32_t n, uint8_t *buf)
{
	uint32_t r, prev = 0;
	size_t off = 0;
	bool first = true;

	era_bitmap_for_each(r, map, n) {
		off += bytes_varint_put(buf + off, first ? r : r - prev - 1);
		prev = r;
		first = false;
	}
	return off;
}

/*
 * Parse @count ranks as gaps into @map. Return: bytes used, 0 if
 * malformed (a rank >= @n; increasing order is implied by the gaps).
 */
static size_t ranks_get(const uint8_t *buf, size_t len, uint64_t count,
			uint32_t n, uint64_t *map)
{
	uint64_t gap, rank = 0;
	size_t off = 0, used;

	for (uint64_t i = 0; i < count; i++) {
		used = bytes_varint_get(buf + off, len - off, &gap);
		if (!used)
			return 0;
		off += used;
		rank = i ? rank + gap + 1 : gap;
		if (gap >= n || rank >= n)	/* also stops overflow */
			return 0;
		era_bit_set(map, (uint32_t)rank);
	}
	return off;
}

static void ulfm_identity(const struct era_op *op, void *v)
{
	const struct era_ulfm *u = to_ulfm(op);

	memset(v, 0, op->value_size);
	*(uint64_t *)v = ~(uint64_t)0;		/* AND's identity */
	map_fill(acked_map(u, v), u->nranks);	/* intersection's */
}

static void ulfm_combine(const struct era_op *op, void *dst, const void *src)
{
	const struct era_ulfm *u = to_ulfm(op);
	size_t words = map_words(u);
	uint64_t *df = failed_map(dst), *da = acked_map(u, dst);
	const uint64_t *sf = failed_map_c(src), *sa = acked_map_c(u, src);

	*(uint64_t *)dst &= *(const uint64_t *)src;
	for (size_t i = 0; i < words; i++) {
		df[i] |= sf[i];
		da[i] &= sa[i];
	}
}

static bool acked_all(const struct era_ulfm *u, const void *v)
{
	return map_count(acked_map_c(u, v), map_words(u)) == u->nranks;
}

static size_t ulfm_wire_size(const struct era_op *op, const void *v)
{
	const struct era_ulfm *u = to_ulfm(op);
	uint32_t n = u->nranks;
	const uint64_t *failed = failed_map_c(v), *acked = acked_map_c(u, v);
	size_t size = 8;

	size += bytes_varint_size(map_count(failed, map_words(u)));
	size += ranks_size(failed, n);
	if (acked_all(u, v))
		return size + 1;
	size += bytes_varint_size((uint64_t)map_count(acked, map_words(u)) + 1);
	return size + ranks_size(acked, n);
}

static size_t ulfm_encode(const struct era_op *op, const void *v, uint8_t *buf)
{
	const struct era_ulfm *u = to_ulfm(op);
	uint32_t n = u->nranks;
	const uint64_t *failed = failed_map_c(v), *acked = acked_map_c(u, v);
	uint64_t flag = *(const uint64_t *)v;
	size_t off = 8;

	for (int i = 0; i < 8; i++)
		buf[i] = (uint8_t)(flag >> (8 * i));
	off += bytes_varint_put(buf + off, map_count(failed, map_words(u)));
	off += ranks_put(failed, n, buf + off);
	if (acked_all(u, v)) {
		buf[off++] = 0;
		return off;
	}
	off += bytes_varint_put(buf + off,
				(uint64_t)map_count(acked, map_words(u)) + 1);
	return off + ranks_put(acked, n, buf + off);
}

static int ulfm_decode(const struct era_op *op, const uint8_t *buf, size_t len,
		       void *v)
{
	const struct era_ulfm *u = to_ulfm(op);
	uint32_t n = u->nranks;
	uint64_t flag = 0, count;
	size_t off = 8, used;

	if (len < 10)
		return -EBADMSG;
	for (int i = 7; i >= 0; i--)
		flag = flag << 8 | buf[i];
	memset(v, 0, op->value_size);
	*(uint64_t *)v = flag;

	used = bytes_varint_get(buf + off, len - off, &count);
	if (!used || count > n)
		return -EBADMSG;
	off += used;
	used = ranks_get(buf + off, len - off, count, n, failed_map(v));
	if (count && !used)
		return -EBADMSG;
	off += used;

	used = bytes_varint_get(buf + off, len - off, &count);
	if (!used)
		return -EBADMSG;
	off += used;
	if (!count) {
		map_fill(acked_map(u, v), n);
	} else {
		/* A full list is written as 0: reject it for canonicity. */
		if (--count >= n)
			return -EBADMSG;
		used = ranks_get(buf + off, len - off, count, n,
				 acked_map(u, v));
		if (count && !used)
			return -EBADMSG;
		off += used;
	}
	return off == len ? 0 : -EBADMSG;
}

static void ulfm_add_dead(const struct era_op *op, void *v,
			  const uint64_t *dead, uint32_t nranks)
{
	uint64_t *map = failed_map(v);

	(void)op;
	for (size_t i = 0; i < era_bitmap_words(nranks); i++)
		map[i] |= dead[i];
}

static bool ulfm_is_dead(const struct era_op *op, const void *v, uint32_t rank)
{
	return rank < to_ulfm(op)->nranks &&
	       era_bit_test(failed_map_c(v), rank);
}

void era_ulfm_init(struct era_ulfm *ulfm, uint32_t nranks)
{
	ulfm->nranks = nranks;
	ulfm->op = (struct era_op){
		.value_size = ERA_ULFM_VALUE_WORDS(nranks) * sizeof(uint64_t),
		.identity = ulfm_identity,
		.combine = ulfm_combine,
		.wire_size = ulfm_wire_size,
		.encode = ulfm_encode,
		.decode = ulfm_decode,
		.add_dead = ulfm_add_dead,
		.is_dead = ulfm_is_dead,
		.priv = ulfm,
	};
}

void era_ulfm_value_init(const struct era_ulfm *ulfm, void *v, uint64_t flag)
{
	memset(v, 0, ulfm->op.value_size);
	*(uint64_t *)v = flag;
}

void era_ulfm_set_failed(const struct era_ulfm *ulfm, void *v, uint32_t rank)
{
	if (rank < ulfm->nranks)
		era_bit_set(failed_map(v), rank);
}

void era_ulfm_set_acked(const struct era_ulfm *ulfm, void *v, uint32_t rank)
{
	if (rank < ulfm->nranks)
		era_bit_set(acked_map(ulfm, v), rank);
}

uint64_t era_ulfm_flag(const void *v)
{
	return *(const uint64_t *)v;
}

bool era_ulfm_failed(const struct era_ulfm *ulfm, const void *v, uint32_t rank)
{
	return ulfm_is_dead(&ulfm->op, v, rank);
}

bool era_ulfm_acked(const struct era_ulfm *ulfm, const void *v, uint32_t rank)
{
	return rank < ulfm->nranks && era_bit_test(acked_map_c(ulfm, v), rank);
}

uint32_t era_ulfm_failed_count(const struct era_ulfm *ulfm, const void *v)
{
	return map_count(failed_map_c(v), map_words(ulfm));
}

bool era_ulfm_unacked_failure(const struct era_ulfm *ulfm, const void *v)
{
	const uint64_t *failed = failed_map_c(v), *acked = acked_map_c(ulfm, v);

	for (size_t i = 0; i < map_words(ulfm); i++)
		if (failed[i] & ~acked[i])
			return true;
	return false;
}
