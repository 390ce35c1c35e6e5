/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bytes.h: the field encodings libftnl's wire formats share (ERA's and
 * validate-all's messages, the ULFM values they carry, the group's join
 * operation, view messages and connection handshake): little-endian
 * integers at any alignment,
 * and LEB128 varints, read back only in their minimal form so that one
 * value has one encoding. Header only; no I/O.
 */
#ifndef FTNL_BYTES_H
#define FTNL_BYTES_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of a 64-bit LEB128 varint at most. */
#define BYTES_VARINT_MAX 10

static inline void bytes_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void bytes_put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void bytes_put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t bytes_get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t bytes_get_le32(const uint8_t *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static inline uint64_t bytes_get_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static inline size_t bytes_varint_size(uint64_t x)
{
	size_t n = 1;

	while (x >= 0x80) {
		x >>= 7;
		n++;
	}
	return n;
}

/* Write @x at @p (room for bytes_varint_size(@x)). Return: bytes written. */
static inline size_t bytes_varint_put(uint8_t *p, uint64_t x)
{
	size_t n = 0;

	while (x >= 0x80) {
		p[n++] = (uint8_t)(x | 0x80);
		x >>= 7;
	}
	p[n++] = (uint8_t)x;
	return n;
}

/*
 * Read a minimal varint of at most 64 bits from the @len bytes at @p.
 * Return: bytes read, 0 if it is cut short, longer than 64 bits, or
 * carries a redundant zero group.
 */
static inline size_t bytes_varint_get(const uint8_t *p, size_t len,
				      uint64_t *x)
{
	uint64_t v = 0;

	for (size_t i = 0; i < len && i < BYTES_VARINT_MAX; i++) {
		uint64_t group = p[i] & 0x7f;

		if (i == BYTES_VARINT_MAX - 1 && group > 1)
			return 0;
		v |= group << (7 * i);
		if (!(p[i] & 0x80)) {
			if (i > 0 && !group)
				return 0;
			*x = v;
			return i + 1;
		}
	}
	return 0;
}

#endif /* FTNL_BYTES_H */
