/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftnl/group internals: the join protocol's messages (join.c), on the
 * same transport as the engines' (the magic tells them apart).
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
 *		   increasing, incarnations >= 1
 *
 * A member sends JOIN's answer, WELCOME, once a grow let the joiner in,
 * before any message of that view: on each connection from a member the
 * joiner reads the view before the view's agreement traffic. Another
 * joiner let in by the same grow may write first: a joiner keeps the
 * engine messages it gets before its welcome, and feeds those of its
 * first view to it.
 */
#ifndef FTNL_GROUP_JOIN_H
#define FTNL_GROUP_JOIN_H

#include <stddef.h>
#include <stdint.h>

#define GRP_JOIN_MAGIC0		'G'
#define GRP_JOIN_MAGIC1		'J'
#define GRP_JOIN_VERSION	1
#define GRP_JOIN_T_JOIN		1
#define GRP_JOIN_T_WELCOME	2
#define GRP_JOIN_LEN		20
#define GRP_WELCOME_HDR_LEN	36

/*
 * From the first @avail bytes, the message's length (as era_msg_frame()).
 * Return: 0, -EAGAIN (need 8 bytes), -EBADMSG or -EPROTONOSUPPORT.
 */
int grp_join_msg_frame(const uint8_t *buf, size_t avail, size_t *len);

#endif /* FTNL_GROUP_JOIN_H */
