/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ftnl datagram format, one for every datagram between nodes. Pure:
 * shared with userspace tests and fuzzers.
 *
 *   0               1               2               3
 *   +---------------+---------------+---------------+---------------+
 *   |                         magic "FTNL"                          |
 *   +---------------+---------------+---------------+---------------+
 *   |    version    |     type      |        payload length         |
 *   +---------------+---------------+---------------+---------------+
 *   |                          cluster id                           |
 *   +---------------+---------------+---------------+---------------+
 *   |                        sender node id                         |
 *   +---------------+---------------+---------------+---------------+
 *   |                      destination node id                      |
 *   +---------------+---------------+---------------+---------------+
 *   |                 sender incarnation (64 bits)                  |
 *   +---------------+---------------+---------------+---------------+
 *   |                  sequence number (64 bits)                    |
 *   +---------------+---------------+---------------+---------------+
 *   |                 payload (payload length bytes)                |
 *   +---------------+---------------+---------------+---------------+
 *   |        MAC: keyed BLAKE2s-128 of everything above (16)        |
 *   +---------------+---------------+---------------+---------------+
 *
 * All fields big endian. The MAC key is the cluster key.
 */
#ifndef _FTNL_WIRE_H
#define _FTNL_WIRE_H

#include "compat.h"

#define FTNL_WIRE_MAGIC		0x46544e4cU	/* "FTNL" */
#define FTNL_WIRE_MAC_LEN	16
#define FTNL_WIRE_MAX_PAYLOAD	1024

enum ftnl_wire_type {
	FTNL_MSG_HEARTBEAT = 1,		/* task T1 -> T2 */
	FTNL_MSG_NEW_OBSERVER = 2,	/* task T3 -> T4 */
	FTNL_MSG_LEAVE = 3,		/* graceful leave, to observer and emitter */
};

struct ftnl_wire_hdr {
	u32 magic;
	u8 version;
	u8 type;
	u16 payload_len;
	u32 cluster_id;
	u32 sender_id;
	u32 dest_id;
	u64 incarnation;
	u64 seq;
};

#define FTNL_WIRE_HDR_LEN	36

/* Encode @hdr into @buf (FTNL_WIRE_HDR_LEN bytes), big endian. */
void ftnl_wire_hdr_encode(u8 *buf, const struct ftnl_wire_hdr *hdr);
/* Decode FTNL_WIRE_HDR_LEN bytes of @buf into @hdr; no validation. */
void ftnl_wire_hdr_decode(struct ftnl_wire_hdr *hdr, const u8 *buf);

/**
 * struct ftnl_replay - anti-replay window over one sender incarnation's
 *	sequence numbers (sequence numbers start at 1)
 * @top: highest sequence number accepted, 0 if none
 * @seen: bit i set when sequence number top - i was accepted
 */
struct ftnl_replay {
	u64 top;
	u64 seen;
};

#define FTNL_REPLAY_WINDOW	64

bool ftnl_replay_accept(struct ftnl_replay *win, u64 seq);

#endif /* _FTNL_WIRE_H */
