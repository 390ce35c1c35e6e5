// SPDX-License-Identifier: LGPL-2.1-or-later
/* Validate-all wire format: see msg.h for the layout. */
#include <errno.h>
#include <stdbool.h>

#include "../bytes.h"
#include "era/bitmap.h"
#include "vall/msg.h"

#define VALL_MAGIC0 0x56
#define VALL_MAGIC1 0x41

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
		size += bytes_varint_size(count ? r - prev - 1 : r);
		prev = r;
		count++;
	}
	return bytes_varint_size(count) + size;
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
	bytes_put_le32(buf + 4, (uint32_t)len);
	bytes_put_le64(buf + 8, msg->group);
	bytes_put_le64(buf + 16, msg->id);
	bytes_put_le64(buf + 24, msg->bnum);
	if (vall_msg_is_bcast(msg->type)) {
		uint32_t r, count = 0, prev = 0;

		era_bitmap_for_each(r, msg->desc, nranks)
			count++;
		off += bytes_varint_put(buf + off, count);
		count = 0;
		era_bitmap_for_each(r, msg->desc, nranks) {
			off += bytes_varint_put(buf + off, count ? r - prev - 1 : r);
			prev = r;
			count++;
		}
	}
	if (vall_msg_has_gc(msg->type)) {
		bytes_put_le64(buf + off, msg->gc);
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
	total = bytes_get_le32(buf + 4);
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
	off = bytes_varint_get(buf, len, &count);
	if (!off || count > nranks)
		return 0;
	for (uint64_t i = 0; i < count; i++) {
		used = bytes_varint_get(buf + off, len - off, &gap);
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
		.group = bytes_get_le64(buf + 8),
		.id = bytes_get_le64(buf + 16),
		.bnum = bytes_get_le64(buf + 24),
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
		msg->gc = bytes_get_le64(buf + off);
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
