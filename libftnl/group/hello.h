/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftnl/group internals: the hello frame that opens every transport
 * connection (Documentation/libftnl-group-internals.rst). Little-endian:
 *
 *	off  size  field
 *	  0     4  magic "FTGH"
 *	  4     2  version, 3
 *	  6     2  flags: GRP_HELLO_F_AUTH with a job key, else 0
 *	  8     8  job
 *	 16     4  sender's world rank
 *	 20     4  receiver's world rank (catches peers files that disagree)
 *	 24     4  sender's incarnation, >= 1 (a restarted rank's is higher)
 *
 * With a job key, the challenge-response of group/auth.h follows it.
 * Then the stream carries ERA messages (era/msg.h), back to back, and the
 * accepting side writes ack records back:
 *
 *	off  size  field
 *	  0     4  magic "FTGA"
 *	  4     4  the acceptor's incarnation, >= 1
 *	  8     8  frames of this direction delivered so far (cumulative)
 *
 * The first one, sent as soon as the connection is accepted (and
 * authenticated), tells the sender where to resume. A higher incarnation
 * than the one a side talked to (in a hello, or an ack) means that rank
 * restarted: what was queued for, or delivered from, the old process is
 * dropped and both directions count from zero again.
 * Shared by the transport and its tests.
 */
#ifndef FTNL_GROUP_HELLO_H
#define FTNL_GROUP_HELLO_H

#include <stdint.h>
#include <string.h>

#include "../bytes.h"

#define GRP_HELLO_MAGIC		"FTGH"
#define GRP_HELLO_VERSION	3
#define GRP_HELLO_LEN		28
#define GRP_HELLO_VERSION_OFF	4
#define GRP_HELLO_FLAGS_OFF	6
#define GRP_HELLO_JOB_OFF	8
#define GRP_HELLO_FROM_OFF	16
#define GRP_HELLO_TO_OFF	20
#define GRP_HELLO_INC_OFF	24

/* The connection authenticates with the job key (group/auth.h). */
#define GRP_HELLO_F_AUTH	0x0001

#define GRP_ACK_MAGIC		"FTGA"
#define GRP_ACK_LEN		16
#define GRP_ACK_INC_OFF		4
#define GRP_ACK_SEQ_OFF		8

/* An ack record of @seq from incarnation @inc. */
static inline void grp_wire_ack(uint8_t ack[GRP_ACK_LEN], uint64_t seq,
				uint32_t inc)
{
	memcpy(ack, GRP_ACK_MAGIC, 4);
	bytes_put_le32(ack + GRP_ACK_INC_OFF, inc);
	bytes_put_le64(ack + GRP_ACK_SEQ_OFF, seq);
}

/* The hello @from (incarnation 1: bytes_put_le32() another at
 * GRP_HELLO_INC_OFF) sends to @to in job @job. */
static inline void grp_wire_hello(uint8_t hello[GRP_HELLO_LEN], uint64_t job,
				  uint32_t from, uint32_t to)
{
	memcpy(hello, GRP_HELLO_MAGIC, 4);
	bytes_put_le16(hello + GRP_HELLO_VERSION_OFF, GRP_HELLO_VERSION);
	bytes_put_le16(hello + GRP_HELLO_FLAGS_OFF, 0);
	bytes_put_le64(hello + GRP_HELLO_JOB_OFF, job);
	bytes_put_le32(hello + GRP_HELLO_FROM_OFF, from);
	bytes_put_le32(hello + GRP_HELLO_TO_OFF, to);
	bytes_put_le32(hello + GRP_HELLO_INC_OFF, 1);
}

#endif /* FTNL_GROUP_HELLO_H */
