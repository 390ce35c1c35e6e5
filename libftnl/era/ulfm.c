// SPDX-License-Identifier: LGPL-2.1-or-later
/* The ULFM agree value: flag AND, failed-set union (see ulfm.h). */
#include <errno.h>
#include <string.h>

#include "bitmap.h"
#include "ulfm.h"

#define VARINT_MAX 10	/* bytes of a 64-bit LEB128 varint */

static const struct era_ulfm *to_ulfm(const struct era_op *op)
{
	return op->priv;
}

static uint64_t *failed_map(void *v)
{
	return (uint64_t *)v + 1;
}

static const uint64_t *failed_map_c(const void *v)
{
	return (const uint64_t *)v + 1;
}

static size_t varint_size(uint64_t x)
{
	size_t n = 1;

	while (x >= 0x80) {
		x >>= 7;
		n++;
	}
	return n;
}

static size_t varint_put(uint8_t *p, uint64_t x)
{
	size_t n = 0;

	while (x >= 0x80) {
		p[n++] = (uint8_t)(x | 0x80);
		x >>= 7;
	}
	p[n++] = (uint8_t)x;
	return n;
}

/* Read a minimal varint (no redundant zero groups). Return: bytes, 0 if bad. */
static size_t varint_get(const uint8_t *p, size_t len, uint64_t *x)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < len && i < VARINT_MAX; i++) {
		uint64_t group = p[i] & 0x7f;

		if (i == VARINT_MAX - 1 && group > 1)
			return 0;	/* more than 64 bits */
		v |= group << (7 * i);
		if (!(p[i] & 0x80)) {
			if (i > 0 && !group)
				return 0;	/* not minimal */
			*x = v;
			return i + 1;
		}
	}
	return 0;
}

static void ulfm_identity(const struct era_op *op, void *v)
{
	memset(v, 0, op->value_size);
	*(uint64_t *)v = ~(uint64_t)0;	/* AND's identity */
}

static void ulfm_combine(const struct era_op *op, void *dst, const void *src)
{
	uint64_t *d = dst;
	const uint64_t *s = src;
	size_t words = op->value_size / sizeof(uint64_t);

	d[0] &= s[0];
	for (size_t i = 1; i < words; i++)
		d[i] |= s[i];
}

static size_t ulfm_wire_size(const struct era_op *op, const void *v)
{
	uint32_t n = to_ulfm(op)->nranks, r, prev = 0, count = 0;
	size_t size = 8;
	bool first = true;

	era_bitmap_for_each(r, failed_map_c(v), n) {
		size += varint_size(first ? r : r - prev - 1);
		prev = r;
		first = false;
		count++;
	}
	return size + varint_size(count);
}

static size_t ulfm_encode(const struct era_op *op, const void *v, uint8_t *buf)
{
	uint32_t n = to_ulfm(op)->nranks, r, prev = 0, count = 0;
	uint64_t flag = *(const uint64_t *)v;
	size_t off = 8;
	bool first = true;

	for (int i = 0; i < 8; i++)
		buf[i] = (uint8_t)(flag >> (8 * i));
	era_bitmap_for_each(r, failed_map_c(v), n)
		count++;
	off += varint_put(buf + off, count);
	era_bitmap_for_each(r, failed_map_c(v), n) {
		off += varint_put(buf + off, first ? r : r - prev - 1);
		prev = r;
		first = false;
	}
	return off;
}

static int ulfm_decode(const struct era_op *op, const uint8_t *buf, size_t len,
		       void *v)
{
	uint32_t n = to_ulfm(op)->nranks;
	uint64_t flag = 0, count, gap, rank = 0;
	size_t off = 8, used;

	if (len < 9)
		return -EBADMSG;
	for (int i = 7; i >= 0; i--)
		flag = flag << 8 | buf[i];
	memset(v, 0, op->value_size);
	*(uint64_t *)v = flag;
	used = varint_get(buf + off, len - off, &count);
	if (!used || count > n)
		return -EBADMSG;
	off += used;
	for (uint64_t i = 0; i < count; i++) {
		used = varint_get(buf + off, len - off, &gap);
		if (!used)
			return -EBADMSG;
		off += used;
		rank = i ? rank + gap + 1 : gap;
		if (gap >= n || rank >= n)	/* also stops overflow */
			return -EBADMSG;
		era_bit_set(failed_map(v), (uint32_t)rank);
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
		.value_size = (1 + era_bitmap_words(nranks)) * sizeof(uint64_t),
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

uint64_t era_ulfm_flag(const void *v)
{
	return *(const uint64_t *)v;
}

bool era_ulfm_failed(const struct era_ulfm *ulfm, const void *v, uint32_t rank)
{
	return ulfm_is_dead(&ulfm->op, v, rank);
}

uint32_t era_ulfm_failed_count(const struct era_ulfm *ulfm, const void *v)
{
	uint32_t count = 0;

	for (size_t i = 0; i < era_bitmap_words(ulfm->nranks); i++)
		count += (uint32_t)__builtin_popcountll(failed_map_c(v)[i]);
	return count;
}
