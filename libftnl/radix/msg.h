/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Radix membership messages (paper figure 3 and sections 3.4-3.7) and
 * their wire format, version 1. Every integer is little-endian; a message
 * is self-delimiting (its length is in the first 8 bytes) so that it can
 * travel on a byte stream.
 *
 *	off size field
 *	  0    2 magic "RX"
 *	  2    1 version, 1
 *	  3    1 type (enum radix_msg_type)
 *	  4    4 length of the whole message, header included
 *	  8    8 group id
 *	 16    4 sender id
 *	 20    4 sender incarnation, >= 1
 *	 24      body:
 *
 *	NODE_FAILURE, ROOT_FAILURE, FAILURE_DET_ACK, NEW_NODE, NODE_ALIVE:
 *		id(4) inc(4)		the failed, or the joiner; inc >= 1
 *	JOIN_REDIRECT:
 *		id(4) inc(4)		the root to ask, or RADIX_NONE and 0
 *	FAILED_NODE, NODE_JOIN, ROOT_AND_NODE_FAILURE, ROOT_DEAD:
 *		term(8) floor(8) view failed joined chain
 *	FAILURE_ACK, NODE_JOIN_ACK:
 *		term(8) seq(8) root_inc(4)
 *	(root_inc: the incarnation of the term's root, 0 if the sender does
 *	not know it; an acknowledgment whose seq is all ones refuses a round
 *	of an older term than its own: the sender learns of the newer term
 *	and which process's it is)
 *	ROOT_DEAD_ACK:
 *		term(8) seq(8) root_inc(4) min_seq(8) chain [joined, if the chain is not
 *		empty: the joiners of its last view]
 *	JOIN_DET_ACK:
 *		term(8) view joined chain
 *
 *	view:	seq(8) root(4) runs(4) runs x {first(4) count(4)}
 *		incs(4) incs x {id(4) inc(4)}
 *	set:	n(4) n x {id(4) inc(4)}
 *	chain:	n(4) n x view, of consecutive seqs
 *
 * A view's members are its runs of consecutive ids, in increasing order,
 * separated by at least one id; incs lists the members whose incarnation
 * is not 1, by increasing id. The root is a member.
 *
 * The decoder accepts exactly what the encoder produces: besides the
 * header checks, an id out of the group's capacity, an incarnation 0, a
 * run or set out of order, a run empty or touching the previous one, an
 * incarnation of 1 in incs, a root that is no member, a failed process
 * that is a member of a change's view (or, for ROOT_DEAD, one that is
 * not), a joiner that is not a member with that incarnation, joiners in a
 * FAILED_NODE or ROOT_DEAD or none in a NODE_JOIN, a chain outside
 * ROOT_AND_NODE_FAILURE and JOIN_DET_ACK or not ending right before its
 * view, a
 * ROOT_DEAD_ACK whose min_seq is above both seq and its chain, a
 * floor above the view's seq, and trailing
 * or missing bytes all fail with -EBADMSG (-EPROTONOSUPPORT for another
 * version).
 */
#ifndef FTNL_RADIX_MSG_H
#define FTNL_RADIX_MSG_H

#include <stddef.h>
#include <stdint.h>

#include "view.h"

#define RADIX_MSG_VERSION	1
#define RADIX_MSG_HEADER_LEN	24
#define RADIX_MSG_PREFIX_LEN	8
#define RADIX_MSG_MAX_LEN	(1u << 26)
/* An acknowledgment with this seq refuses a round: its term is newer. */
#define RADIX_SEQ_REFUSED	UINT64_MAX

enum radix_msg_type {
	/* a detector tells the root (paper 3.4) */
	RADIX_MSG_NODE_FAILURE = 1,
	/* a detector tells the next root that the root died (3.6) */
	RADIX_MSG_ROOT_FAILURE = 2,
	/* the root acknowledges either */
	RADIX_MSG_FAILURE_DET_ACK = 3,
	/* view changes down the tree: failures only (3.4, 3.5) */
	RADIX_MSG_FAILED_NODE = 4,
	/* ... with joins, and failures if any (3.7) */
	RADIX_MSG_NODE_JOIN = 5,
	/* ... the first change of a new root (3.6) */
	RADIX_MSG_ROOT_AND_NODE_FAILURE = 6,
	/* a new root announces itself and collects the latest view (3.6) */
	RADIX_MSG_ROOT_DEAD = 7,
	/* stabilization acknowledgments, up the tree */
	RADIX_MSG_FAILURE_ACK = 8,
	RADIX_MSG_NODE_JOIN_ACK = 9,
	RADIX_MSG_ROOT_DEAD_ACK = 10,
	/* a process joins: a new one, or a failed one recovered (3.7) */
	RADIX_MSG_NEW_NODE = 11,
	RADIX_MSG_NODE_ALIVE = 12,
	/* the root welcomes it once its view is stable */
	RADIX_MSG_JOIN_DET_ACK = 13,
	/* a member that is not the root names it to a joiner */
	RADIX_MSG_JOIN_REDIRECT = 14,
	RADIX_MSG_TYPE_MAX = 14,
};

/**
 * struct radix_msg - one message, decoded or to encode
 * @type: enum radix_msg_type
 * @group: group id
 * @from: sender
 * @who: the failed process, the joiner, or the root named by a redirect;
 *	acknowledgments: the term's root (id from @term, incarnation or 0)
 * @term: round messages and acks: the root's term
 * @seq: acks: the acknowledged view's seq
 * @min_seq: ROOT_DEAD_ACK: the lowest view seq in the subtree
 * @floor: round messages: every live member holds this view or a later
 *	one (the root knows it stable): older views may be forgotten
 * @view: round messages, JOIN_DET_ACK
 * @failed: round messages: the processes removed (ROOT_DEAD: the dead)
 * @joined: round messages: those added; JOIN_DET_ACK: the joiners of
 *	@view; ROOT_DEAD_ACK: those of the chain's last view
 * @chain: ROOT_AND_NODE_FAILURE: the views before @view that some member
 *	missed (may be NULL or empty); ROOT_DEAD_ACK: the views the subtree
 *	holds after the new root's floor; JOIN_DET_ACK: the views before
 *	@view since the sender's floor (the joiner keeps them for members
 *	behind)
 */
struct radix_msg {
	uint8_t type;
	uint64_t group;
	struct radix_member from;
	struct radix_member who;
	uint64_t term;
	uint64_t seq;
	uint64_t min_seq;
	uint64_t floor;
	const struct radix_view *view;
	const struct radix_set *failed;
	const struct radix_set *joined;
	const struct radix_chain *chain;
};

const char *radix_msg_type_name(unsigned int type);
bool radix_msg_is_round(unsigned int type);
/* The acknowledgment a round message asks for. */
unsigned int radix_msg_ack_type(unsigned int round_type);

/* Bytes radix_msg_encode() writes. */
size_t radix_msg_size(const struct radix_msg *m);
/* Return: bytes written, 0 if @cap is short or @m is not encodable. */
size_t radix_msg_encode(const struct radix_msg *m, uint8_t *buf, size_t cap);

/*
 * Stream framing, as era_msg_frame(): 0 and *@len, -EAGAIN (fewer than
 * RADIX_MSG_PREFIX_LEN bytes), -EBADMSG or -EPROTONOSUPPORT.
 */
int radix_msg_frame(const uint8_t *buf, size_t avail, size_t *len);

/* Where decoded views and sets live; reused from message to message. */
struct radix_inbox {
	struct radix_msg msg;
	struct radix_view view;
	struct radix_chain chain;
	struct radix_set failed, joined;
};

int radix_inbox_init(struct radix_inbox *in, uint32_t cap);
void radix_inbox_free(struct radix_inbox *in);

/*
 * Decode exactly @len bytes into @in->msg, ids checked against the
 * inbox's cap. Return: 0, -EBADMSG, -EPROTONOSUPPORT or -ENOMEM.
 */
int radix_msg_decode(const uint8_t *buf, size_t len, struct radix_inbox *in);

#endif /* FTNL_RADIX_MSG_H */
