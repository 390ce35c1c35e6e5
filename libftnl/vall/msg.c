// SPDX-License-Identifier: LGPL-2.1-or-later
/* Validate-all wire format: see msg.h for the layout. */
#include <errno.h>
#include <stdbool.h>

#include "era/bitmap.h"
#include "vall/msg.h"

#define VALL_MAGIC0 0x56
#define VALL_MAGIC1 0x41
#define VARINT_MAX 10

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_le32(const uint8_t *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t get_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
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

/* A minimal varint of at most 64 bits. Return: bytes, 0 if malformed. */
static size_t varint_get(const uint8_t *p, size_t len, uint64_t *x)
{
	uint64_t v = 0;

	for (size_t i = 0; i < len && i < VARINT_MAX; i++) {
		uint64_t group = p[i] & 0x7f;

		if (i == VARINT_MAX - 1 && group > 1)
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

const char *vall_msg_type_name(unsigned int type)
{
	static const char *const names[] = {
		"?", "BALLOT_BCAST", "COMMIT_BCAST", "ALL_COMMIT_BCAST",
		"ACCEPT_ACK", "REJECT_ACK", "ACK", "NAK", "FORCED_NAK",
	};

	return type < VALL_MSG_NTYPES ? names[type] : "?";
}

int vall_msg_is_bcast(unsigned int type)
{
	return type >= VALL_MSG_BALLOT_BCAST &&
	       type <= VALL_MSG_ALL_COMMIT_BCAST;
}

int vall_msg_has_value(unsigned int type)
{
	return type == VALL_MSG_BALLOT_BCAST ||
	       type == VALL_MSG_COMMIT_BCAST ||
	       type == VALL_MSG_ACCEPT_ACK || type == VALL_MSG_FORCED_NAK;
}

int vall_msg_has_gc(unsigned int type)
{
	return type == VALL_MSG_COMMIT_BCAST || type == VALL_MSG_ACCEPT_ACK ||
	       type == VALL_MSG_FORCED_NAK;
}

static size_t desc_size(const uint64_t *desc, uint32_t nranks)
{
	uint32_t r, count = 0, prev = 0;
	size_t size = 0;

	era_bitmap_for_each(r, desc, nranks) {
		size += varint_size(count ? r - prev - 1 : r);
		prev = r;
		count++;
	}
	return varint_size(count) + size;
}

size_t vall_msg_size(const struct era_op *op, uint32_t nranks,
		     const struct vall_msg *msg)
{
	size_t len = VALL_MSG_HEADER_LEN;

	if (vall_msg_is_bcast(msg->type))
		len += desc_size(msg->desc, nranks);
	if (vall_msg_has_gc(msg->type))
		len += 8;
	if (vall_msg_has_value(msg->type))
		len += op->wire_size(op, msg->value);
	return len;
}

size_t vall_msg_encode(const struct era_op *op, uint32_t nranks,
		       const struct vall_msg *msg, uint8_t *buf, size_t cap)
{
	size_t len = vall_msg_size(op, nranks, msg), off = VALL_MSG_HEADER_LEN;

	if (len > cap || len > VALL_MSG_MAX_LEN || !msg->type ||
	    msg->type >= VALL_MSG_NTYPES)
		return 0;
	buf[0] = VALL_MAGIC0;
	buf[1] = VALL_MAGIC1;
	buf[2] = VALL_MSG_VERSION;
	buf[3] = msg->type;
	put_le32(buf + 4, (uint32_t)len);
	put_le64(buf + 8, msg->group);
	put_le64(buf + 16, msg->id);
	put_le64(buf + 24, msg->bnum);
	if (vall_msg_is_bcast(msg->type)) {
		uint32_t r, count = 0, prev = 0;

		era_bitmap_for_each(r, msg->desc, nranks)
			count++;
		off += varint_put(buf + off, count);
		count = 0;
		era_bitmap_for_each(r, msg->desc, nranks) {
			off += varint_put(buf + off, count ? r - prev - 1 : r);
			prev = r;
			count++;
		}
	}
	if (vall_msg_has_gc(msg->type)) {
		put_le64(buf + off, msg->gc);
		off += 8;
	}
	if (vall_msg_has_value(msg->type) &&
	    op->encode(op, msg->value, buf + off) != len - off)
		return 0;	/* an op whose sizes disagree */
	return len;
}

int vall_msg_frame(const uint8_t *buf, size_t avail, size_t *len)
{
	uint32_t total;

	if (avail < VALL_MSG_PREFIX_LEN)
		return -EAGAIN;
	if (buf[0] != VALL_MAGIC0 || buf[1] != VALL_MAGIC1)
		return -EBADMSG;
	if (buf[2] != VALL_MSG_VERSION)
		return -EPROTONOSUPPORT;
	if (!buf[3] || buf[3] >= VALL_MSG_NTYPES)
		return -EBADMSG;
	total = get_le32(buf + 4);
	if (vall_msg_is_bcast(buf[3]) || vall_msg_has_value(buf[3])) {
		if (total <= VALL_MSG_HEADER_LEN || total > VALL_MSG_MAX_LEN)
			return -EBADMSG;
	} else if (total != VALL_MSG_HEADER_LEN) {
		return -EBADMSG;
	}
	*len = total;
	return 0;
}

/* The descendant list at @buf into @desc. Return: bytes, 0 if malformed. */
static size_t desc_get(const uint8_t *buf, size_t len, uint32_t nranks,
		       uint64_t *desc)
{
	uint64_t count, gap, rank = 0;
	size_t off, used;

	era_bitmap_zero(desc, nranks);
	off = varint_get(buf, len, &count);
	if (!off || count > nranks)
		return 0;
	for (uint64_t i = 0; i < count; i++) {
		used = varint_get(buf + off, len - off, &gap);
		if (!used)
			return 0;
		off += used;
		rank = i ? rank + gap + 1 : gap;
		if (gap >= nranks || rank >= nranks)
			return 0;
		era_bit_set(desc, (uint32_t)rank);
	}
	return off;
}

int vall_msg_decode(const struct era_op *op, uint32_t nranks,
		    const uint8_t *buf, size_t len, struct vall_msg *msg,
		    uint64_t *desc, void *value)
{
	size_t total, off = VALL_MSG_HEADER_LEN, used;
	int err;

	err = vall_msg_frame(buf, len, &total);
	if (err == -EAGAIN)
		return -EBADMSG;
	if (err)
		return err;
	if (total != len)
		return -EBADMSG;
	*msg = (struct vall_msg){
		.type = buf[3],
		.group = get_le64(buf + 8),
		.id = get_le64(buf + 16),
		.bnum = get_le64(buf + 24),
	};
	if (!msg->id || !msg->bnum)
		return -EBADMSG;
	if (vall_msg_is_bcast(msg->type)) {
		used = desc_get(buf + off, len - off, nranks, desc);
		if (!used)
			return -EBADMSG;
		off += used;
		msg->desc = desc;
	}
	if (vall_msg_has_gc(msg->type)) {
		if (len - off < 8)
			return -EBADMSG;
		msg->gc = get_le64(buf + off);
		off += 8;
	}
	if (vall_msg_has_value(msg->type)) {
		if (off == len || op->decode(op, buf + off, len - off, value))
			return -EBADMSG;
		msg->value = value;
	} else if (off != len) {
		return -EBADMSG;
	}
	return 0;
}
