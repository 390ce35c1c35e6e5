// SPDX-License-Identifier: LGPL-2.1-or-later
/* ERA wire format: see msg.h for the layout. */
#include <errno.h>

#include "../bytes.h"
#include "msg.h"

#define ERA_MAGIC0 0x45
#define ERA_MAGIC1 0x52

static int type_has_value(unsigned int type)
{
	return type == ERA_MSG_UP || type == ERA_MSG_DOWN;
}

const char *era_msg_type_name(unsigned int type)
{
	switch (type) {
	case ERA_MSG_UP:
		return "UP";
	case ERA_MSG_DOWN:
		return "DOWN";
	case ERA_MSG_RESULT_REQUEST:
		return "RESULT_REQUEST";
	default:
		return "?";
	}
}

size_t era_msg_size(const struct era_op *op, const struct era_msg *msg)
{
	if (!type_has_value(msg->type))
		return ERA_MSG_REQUEST_LEN;
	return ERA_MSG_VALUE_OFF + op->wire_size(op, msg->value);
}

size_t era_msg_encode(const struct era_op *op, const struct era_msg *msg,
		      uint8_t *buf, size_t cap)
{
	size_t len = era_msg_size(op, msg);

	if (len > cap || len > ERA_MSG_MAX_LEN)
		return 0;
	buf[0] = ERA_MAGIC0;
	buf[1] = ERA_MAGIC1;
	buf[2] = ERA_MSG_VERSION;
	buf[3] = msg->type;
	bytes_put_le32(buf + 4, (uint32_t)len);
	bytes_put_le64(buf + 8, msg->group);
	bytes_put_le64(buf + 16, msg->id);
	if (type_has_value(msg->type)) {
		bytes_put_le64(buf + 24, msg->gc);
		if (op->encode(op, msg->value, buf + ERA_MSG_VALUE_OFF) !=
		    len - ERA_MSG_VALUE_OFF)
			return 0;	/* an op whose sizes disagree */
	}
	return len;
}

int era_msg_frame(const uint8_t *buf, size_t avail, size_t *len)
{
	uint32_t total;

	if (avail < ERA_MSG_PREFIX_LEN)
		return -EAGAIN;
	if (buf[0] != ERA_MAGIC0 || buf[1] != ERA_MAGIC1)
		return -EBADMSG;
	if (buf[2] != ERA_MSG_VERSION)
		return -EPROTONOSUPPORT;
	total = bytes_get_le32(buf + 4);
	switch (buf[3]) {
	case ERA_MSG_UP:
	case ERA_MSG_DOWN:
		if (total < ERA_MSG_VALUE_OFF || total > ERA_MSG_MAX_LEN)
			return -EBADMSG;
		break;
	case ERA_MSG_RESULT_REQUEST:
		if (total != ERA_MSG_REQUEST_LEN)
			return -EBADMSG;
		break;
	default:
		return -EBADMSG;
	}
	*len = total;
	return 0;
}

int era_msg_decode(const struct era_op *op, const uint8_t *buf, size_t len,
		   struct era_msg *msg, void *value)
{
	size_t total;
	int err;

	err = era_msg_frame(buf, len, &total);
	if (err == -EAGAIN)
		return -EBADMSG;	/* shorter than any message */
	if (err)
		return err;
	if (total != len)
		return -EBADMSG;
	msg->type = buf[3];
	msg->group = bytes_get_le64(buf + 8);
	msg->id = bytes_get_le64(buf + 16);
	msg->gc = 0;
	msg->value = NULL;
	if (!msg->id)
		return -EBADMSG;
	if (type_has_value(msg->type)) {
		msg->gc = bytes_get_le64(buf + 24);
		if (op->decode(op, buf + ERA_MSG_VALUE_OFF,
			       len - ERA_MSG_VALUE_OFF, value))
			return -EBADMSG;
		msg->value = value;
	}
	return 0;
}
