/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftnl/group internals: the join protocol's messages and their codec
 * (pure: no I/O, no group state; join.c drives it, the fuzzer feeds it).
 * On the same transport as the engines' (the magic tells them apart).
 * Little-endian, self-delimiting:
 *
 *	off  size  field
 *	  0     2  magic "GJ"
 *	  2     1  version, 1
 *	  3     1  type: 1 JOIN, 2 WELCOME
 *	  4     4  length of the whole message
 *	  8     8  job
 *	 16     4  the sender's incarnation, >= 1
 *	-- JOIN ends here (length 20): the sender asks to join
 *	 20     4  WELCOME: the joiner's incarnation it answers, >= 1
 *	 24     8  the view id
 *	 32     4  members, 1..world size
 *	 36        members x {world rank(4), incarnation(4)}, ranks
 *		   increasing and below the world size, incarnations >= 1
 *
 * A member sends JOIN's answer, WELCOME, once a grow let the joiner in,
 * before any message of that view: on each connection from a member the
 * joiner reads the view before the view's agreement traffic. Another
 * joiner let in by the same grow may write first: a joiner keeps the
 * engine messages it gets before its welcome, and feeds those of its
 * first view to it.
 *
 * The decoder accepts exactly what the encoder writes.
 */
#ifndef FTNL_GROUP_JOINMSG_H
#define FTNL_GROUP_JOINMSG_H

#include <stddef.h>
#include <stdint.h>

#define GRP_JOIN_MAGIC0		'G'
#define GRP_JOIN_MAGIC1		'J'
#define GRP_JOIN_VERSION	1
#define GRP_JOIN_T_JOIN		1
#define GRP_JOIN_T_WELCOME	2
#define GRP_JOIN_LEN		20
#define GRP_WELCOME_HDR_LEN	36

/**
 * struct grp_join_msg - one message of the join protocol
 * @type: GRP_JOIN_T_JOIN or GRP_JOIN_T_WELCOME
 * @job: the job
 * @inc: the sender's incarnation
 * @joiner_inc: WELCOME: the incarnation of the joiner it lets in
 * @view_id: WELCOME: the new view's id
 * @count: WELCOME: its members
 * @members: WELCOME: their world ranks (decoding: room for the world)
 * @incs: WELCOME: their incarnations (decoding: room for the world)
 */
struct grp_join_msg {
	uint8_t type;
	uint64_t job;
	uint32_t inc;
	uint32_t joiner_inc;
	uint64_t view_id;
	uint32_t count;
	uint32_t *members;
	uint32_t *incs;
};

/*
 * From the first @avail bytes, the message's length (as era_msg_frame()).
 * Return: 0, -EAGAIN (need 8 bytes), -EBADMSG or -EPROTONOSUPPORT.
 */
int grp_join_msg_frame(const uint8_t *buf, size_t avail, size_t *len);

size_t grp_join_msg_size(const struct grp_join_msg *m);
/* Return: bytes written, 0 if @cap is short. */
size_t grp_join_msg_encode(const struct grp_join_msg *m, uint8_t *buf,
			   size_t cap);
/*
 * Decode exactly @len bytes; ranks are checked against @world, and
 * @m->members and @m->incs must have room for @world entries. Return: 0,
 * -EBADMSG or -EPROTONOSUPPORT.
 */
int grp_join_msg_decode(const uint8_t *buf, size_t len, uint32_t world,
			struct grp_join_msg *m);

#endif /* FTNL_GROUP_JOINMSG_H */
