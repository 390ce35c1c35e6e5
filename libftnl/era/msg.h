/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ERA messages and their wire format (version 1).
 *
 * Every integer is little-endian. A message is self-delimiting so that it
 * can travel on a byte stream (TCP): the first 8 bytes give its length.
 *
 *	off  size  field
 *	  0     2  magic "ER" (0x45 0x52)
 *	  2     1  version, 1
 *	  3     1  type: 1 UP, 2 DOWN, 3 RESULT_REQUEST
 *	  4     4  length of the whole message, this header included
 *	  8     8  group id
 *	 16     8  agreement id, >= 1
 *	-- RESULT_REQUEST ends here: length is exactly 24
 *	 24     8  gc: UP: the lowest "returned up to" agreement id of the
 *		   contributions the value holds; DOWN: the agreed one
 *	 32     L  the value, as the group's era_op encodes it; L = length - 32
 *
 * The decoder accepts exactly what the encoder can produce: a bad magic,
 * an unknown version or type, a length out of bounds or different from
 * what the type and value need, an agreement id 0, or a value the op
 * rejects, all fail with -EBADMSG (-EPROTONOSUPPORT for the version).
 */
#ifndef FTNL_ERA_MSG_H
#define FTNL_ERA_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "op.h"

#define ERA_MSG_VERSION		1
#define ERA_MSG_PREFIX_LEN	8	/* enough to learn a message's length */
#define ERA_MSG_REQUEST_LEN	24
#define ERA_MSG_VALUE_OFF	32
#define ERA_MSG_MAX_LEN		(1u << 24)

enum era_msg_type {
	ERA_MSG_UP = 1,			/* a contribution, child to parent */
	ERA_MSG_DOWN = 2,		/* a decision, parent to child */
	ERA_MSG_RESULT_REQUEST = 3,	/* a new root asks for either */
};

/**
 * struct era_msg - one message, decoded
 * @type: enum era_msg_type
 * @group: group id; the engine drops messages of another group
 * @id: agreement id
 * @gc: see the format above (UP and DOWN only)
 * @value: UP and DOWN only: op->value_size bytes in memory form. For a
 *	message the engine emits, valid only during the send callback.
 */
struct era_msg {
	uint8_t type;
	uint64_t group;
	uint64_t id;
	uint64_t gc;
	const void *value;
};

const char *era_msg_type_name(unsigned int type);

/* Bytes era_msg_encode() writes for @msg. */
size_t era_msg_size(const struct era_op *op, const struct era_msg *msg);

/* Encode @msg into @buf. Return: the bytes written, 0 if @cap is short. */
size_t era_msg_encode(const struct era_op *op, const struct era_msg *msg,
		      uint8_t *buf, size_t cap);

/*
 * Stream framing: from the first @avail bytes of a message, its length.
 * Return: 0 and *@len; -EAGAIN if @avail < ERA_MSG_PREFIX_LEN; -EBADMSG or
 * -EPROTONOSUPPORT if these bytes cannot start a valid message (the
 * stream is then unusable and should be closed).
 */
int era_msg_frame(const uint8_t *buf, size_t avail, size_t *len);

/*
 * Decode the message of exactly @len bytes at @buf. @value must hold
 * op->value_size bytes; @msg->value points to it for UP and DOWN.
 * Return: 0, -EBADMSG or -EPROTONOSUPPORT.
 */
int era_msg_decode(const struct era_op *op, const uint8_t *buf, size_t len,
		   struct era_msg *msg, void *value);

#endif /* FTNL_ERA_MSG_H */
