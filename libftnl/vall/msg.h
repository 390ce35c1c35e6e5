/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Validate-all messages and their wire format (version 1): the message
 * types of Buntinas, "Scalable Distributed Consensus to Support MPI Fault
 * Tolerance", section 4 (Figure 1's BCAST, ACK and NAK, specialized).
 *
 * Every integer is little-endian. The first 8 bytes frame the message on
 * a byte stream, laid out like ERA's (libftnl/era/msg.h) so that one
 * transport carries both; the magic tells them apart.
 *
 *	off  size  field
 *	  0     2  magic "VA" (0x56 0x41)
 *	  2     1  version, 1
 *	  3     1  type (enum vall_msg_type)
 *	  4     4  length of the whole message, this header included
 *	  8     8  group id
 *	 16     8  operation id, >= 1 (the n-th validate-all of the group)
 *	 24     8  broadcast number, >= 1
 *	-- ACK, REJECT_ACK and NAK end here: length is exactly 32
 *	 32     D  *_BCAST: the receiver's descendant set: a LEB128 varint
 *		   count, then the ranks in increasing order as varints of
 *		   their gaps (the first as is, each next as rank - prev - 1)
 *	  +     8  COMMIT_BCAST, ACCEPT_ACK, FORCED_NAK: gc, every live
 *		   member has returned every operation <= gc (the lowest
 *		   "returned up to" among the voters of the ballot)
 *	  +     L  BALLOT_BCAST, COMMIT_BCAST, ACCEPT_ACK, FORCED_NAK: the
 *		   value as the group's era_op encodes it, to the end
 *
 * The decoder accepts exactly what the encoder can produce: a bad magic,
 * an unknown version or type, a length out of bounds or not the type's,
 * an operation id or broadcast number 0, a non-minimal varint, a rank out
 * of range, or a value the op rejects all fail with -EBADMSG
 * (-EPROTONOSUPPORT for the version).
 */
#ifndef FTNL_VALL_MSG_H
#define FTNL_VALL_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "era/op.h"

#define VALL_MSG_VERSION	1
#define VALL_MSG_PREFIX_LEN	8	/* enough to learn a message's length */
#define VALL_MSG_HEADER_LEN	32
#define VALL_MSG_MAX_LEN	(1u << 24)
#define VALL_MSG_NTYPES		9	/* types are 1..8 */

enum vall_msg_type {
	VALL_MSG_BALLOT_BCAST = 1,	/* root's ballot, down the tree */
	VALL_MSG_COMMIT_BCAST = 2,	/* the committed ballot, down */
	VALL_MSG_ALL_COMMIT_BCAST = 3,	/* everyone committed: return */
	VALL_MSG_ACCEPT_ACK = 4,	/* subtree accepts; F of its votes */
	VALL_MSG_REJECT_ACK = 5,	/* someone in the subtree rejects */
	VALL_MSG_ACK = 6,		/* COMMIT and ALL_COMMIT received */
	VALL_MSG_NAK = 7,		/* the broadcast failed below */
	VALL_MSG_FORCED_NAK = 8,	/* a committed process's ballot */
};

/**
 * struct vall_msg - one message, decoded
 * @type: enum vall_msg_type
 * @group: group id; the engine drops messages of another group
 * @id: operation id
 * @bnum: broadcast number (Figure 1's bcast_num)
 * @gc: COMMIT_BCAST, ACCEPT_ACK, FORCED_NAK: see the format above
 * @desc: *_BCAST: the descendant set, a bitmap of the group's ranks
 * @value: BALLOT_BCAST, COMMIT_BCAST, ACCEPT_ACK, FORCED_NAK:
 *	op->value_size bytes in memory form. For a message the engine
 *	emits, @desc and @value are valid only during the send callback.
 */
struct vall_msg {
	uint8_t type;
	uint64_t group;
	uint64_t id;
	uint64_t bnum;
	uint64_t gc;
	const uint64_t *desc;
	const void *value;
};

const char *vall_msg_type_name(unsigned int type);
int vall_msg_is_bcast(unsigned int type);
int vall_msg_has_value(unsigned int type);
int vall_msg_has_gc(unsigned int type);

/* Bytes vall_msg_encode() writes for @msg in a group of @nranks. */
size_t vall_msg_size(const struct era_op *op, uint32_t nranks,
		     const struct vall_msg *msg);

/* Encode @msg into @buf. Return: the bytes written, 0 if @cap is short. */
size_t vall_msg_encode(const struct era_op *op, uint32_t nranks,
		       const struct vall_msg *msg, uint8_t *buf, size_t cap);

/*
 * Stream framing: from the first @avail bytes of a message, its length.
 * Return: 0 and *@len; -EAGAIN if @avail < VALL_MSG_PREFIX_LEN; -EBADMSG
 * or -EPROTONOSUPPORT if these bytes cannot start a valid message.
 */
int vall_msg_frame(const uint8_t *buf, size_t avail, size_t *len);

/*
 * Decode the message of exactly @len bytes at @buf for a group of
 * @nranks. @desc must hold (nranks + 63) / 64 words and @value
 * op->value_size bytes; @msg points to them where the type has them.
 * Return: 0, -EBADMSG or -EPROTONOSUPPORT.
 */
int vall_msg_decode(const struct era_op *op, uint32_t nranks,
		    const uint8_t *buf, size_t len, struct vall_msg *msg,
		    uint64_t *desc, void *value);

#endif /* FTNL_VALL_MSG_H */
