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
 *   |     echo: the destination's incarnation, as last heard (64)   |
 *   +---------------+---------------+---------------+---------------+
 *   |                  sequence number (64 bits)                    |
 *   +---------------+---------------+---------------+---------------+
 *   |                 sender's configuration epoch                  |
 *   +---------------+---------------+---------------+---------------+
 *   |         sender's suspicion timeout d, microseconds            |
 *   +---------------+---------------+---------------+---------------+
 *   |   first: the incarnation the sender's life began with (64)    |
 *   +---------------+---------------+---------------+---------------+
 *   |                 payload (payload length bytes)                |
 *   +---------------+---------------+---------------+---------------+
 *   |        MAC: keyed BLAKE2s-128 of everything above (16)        |
 *   +---------------+---------------+---------------+---------------+
 *
 * All fields big endian. The MAC key is the key of the sender and
 * destination's pair: the cluster key, or their pair key (FTNL_A_NODE_KEY);
 * during the update grace after a key change, possibly the previous one
 * (kmod/datagram.c).
 * Epoch and d let a receiver judge a sender whose configuration is not
 * its own yet (a rolling update, kmod/ring/core.h). The echo (0 when
 * the sender has not heard the destination yet) proves a datagram fresh to
 * a receiver that just started: it names an incarnation that did not exist
 * before (ftnl_ring_core_admit()). First is the sender incarnation
 * unless the sender's life was renewed above a later one a member knew
 * (its clock stepped back across a restart): a receiver that pinned a
 * name of that life then takes the new one as the same life renamed,
 * not as a restart (ftnl_ring_core_renew()).
 */
#ifndef _FTNL_WIRE_H
#define _FTNL_WIRE_H

#include "compat.h"

#define FTNL_WIRE_MAGIC		0x46544e4cU	/* "FTNL" */
#define FTNL_WIRE_MAC_LEN	16
/* A broadcast carrying D as a bitmap of 65,536 nodes is the largest. */
#define FTNL_WIRE_MAX_PAYLOAD	9216

enum ftnl_wire_type {
	FTNL_MSG_HEARTBEAT = 1,		/* task T1 -> T2 */
	FTNL_MSG_NEW_OBSERVER = 2,	/* task T3 -> T4 */
	FTNL_MSG_LEAVE = 3,		/* graceful leave, to observer and emitter */
	FTNL_MSG_BCAST = 4,		/* failure notification (kmod/bcast) */
	FTNL_MSG_GOSSIP = 5,		/* failure notification by FCG */
	FTNL_MSG_EXPELLED = 6,		/* "you are dead in incarnation I" */
	FTNL_MSG_PROBE_REQ = 7,		/* indirect probe: reach a suspect */
	FTNL_MSG_PROBE_ACK = 8,		/* its answer, or a helper's */
	FTNL_MSG_JOIN = 9,		/* welcome: a rejoined node's D (kmod/bcast) */
	FTNL_MSG_HELLO = 10,		/* "not proven to me: prove yourself" */
	FTNL_MSG_HELLO_ACK = 11,	/* HELLO's answer, its echo the proof */
};

/*
 * Sequence number spaces (protocol version 8). A sender numbers what it
 * sends to each destination in two spaces, each from 1: ring datagrams
 * (those without a payload, which leave first: kmod/datagram.c) and the
 * others (broadcasts, gossip, welcomes, EXPELLED, probes), and a receiver
 * keeps an anti-replay window per sender and space. The space follows
 * from the type, which the MAC covers with the number: a datagram cannot
 * pass as one of the other space. With one space, a broadcast numbered k
 * could leave after a ring datagram numbered k + 1, and a receiver whose
 * window began at k + 1 (first contact) dropped it as a replay.
 */
enum ftnl_wire_space {
	FTNL_SPACE_RING,
	FTNL_SPACE_BCAST,
	FTNL_WIRE_SPACES,
};

static inline enum ftnl_wire_space ftnl_wire_space(u8 type)
{
	switch (type) {
	case FTNL_MSG_BCAST:
	case FTNL_MSG_GOSSIP:
	case FTNL_MSG_EXPELLED:
	case FTNL_MSG_PROBE_REQ:
	case FTNL_MSG_PROBE_ACK:
	case FTNL_MSG_JOIN:
		return FTNL_SPACE_BCAST;
	default:
		return FTNL_SPACE_RING;
	}
}

/* EXPELLED's payload: the incarnation the sender holds dead, big endian. */
#define FTNL_WIRE_EXPELLED_LEN	8

/*
 * PROBE_REQ and PROBE_ACK payload: the suspect's node id, the id of the
 * observer that suspects it, flags (FTNL_PROBE_ALIVE: the suspect itself
 * answered; no other bit is valid), the observer's identifier of the
 * probe, which every answer echoes (protocol version 5).
 */
#define FTNL_WIRE_PROBE_LEN	13
#define FTNL_PROBE_ALIVE	0x01

struct ftnl_wire_probe {
	u32 target_id;
	u32 origin_id;
	u8 flags;
	u32 probe_id;
};

void ftnl_wire_probe_encode(u8 *buf, const struct ftnl_wire_probe *probe);
/* Return: 0, or -EINVAL for a wrong length or unknown flags. */
int ftnl_wire_probe_decode(struct ftnl_wire_probe *probe, const u8 *buf,
			   u32 len);

static inline void ftnl_put_be16(u8 *p, u16 v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void ftnl_put_be32(u8 *p, u32 v)
{
	ftnl_put_be16(p, v >> 16);
	ftnl_put_be16(p + 2, v);
}

static inline void ftnl_put_be64(u8 *p, u64 v)
{
	ftnl_put_be32(p, v >> 32);
	ftnl_put_be32(p + 4, v);
}

static inline u16 ftnl_get_be16(const u8 *p)
{
	return (u16)(p[0] << 8 | p[1]);
}

static inline u32 ftnl_get_be32(const u8 *p)
{
	return (u32)ftnl_get_be16(p) << 16 | ftnl_get_be16(p + 2);
}

static inline u64 ftnl_get_be64(const u8 *p)
{
	return (u64)ftnl_get_be32(p) << 32 | ftnl_get_be32(p + 4);
}

struct ftnl_wire_hdr {
	u32 magic;
	u8 version;
	u8 type;
	u16 payload_len;
	u32 cluster_id;
	u32 sender_id;
	u32 dest_id;
	u64 incarnation;
	u64 echo;
	u64 seq;
	u32 epoch;
	u32 timeout_us;
	u64 first;
};

#define FTNL_WIRE_HDR_LEN	60

/* Encode @hdr into @buf (FTNL_WIRE_HDR_LEN bytes), big endian. */
void ftnl_wire_hdr_encode(u8 *buf, const struct ftnl_wire_hdr *hdr);
/* Decode FTNL_WIRE_HDR_LEN bytes of @buf into @hdr; no validation. */
void ftnl_wire_hdr_decode(struct ftnl_wire_hdr *hdr, const u8 *buf);

/**
 * struct ftnl_replay - anti-replay window over one sender incarnation's
 *	sequence numbers of one space (they start at 1)
 * @top: highest sequence number accepted; before any, @floor
 * @seen: bit i set when sequence number top - i was accepted, or is at
 *	or below @floor
 * @floor: numbers up to it predate the window (ftnl_replay_start()):
 *	never accepted in it, refused all the same
 */
struct ftnl_replay {
	u64 top;
	u64 seen;
	u64 floor;
};

#define FTNL_REPLAY_WINDOW	64

/* What a window says of a sequence number (ftnl_replay_check()). */
enum ftnl_replay_verdict {
	FTNL_REPLAY_NEW,	/* never accepted: to accept */
	FTNL_REPLAY_SEEN,	/* accepted already, 0, or too old */
	FTNL_REPLAY_EARLY,	/* within reach but not above the floor */
};

void ftnl_replay_start(struct ftnl_replay *win, u64 seq);
enum ftnl_replay_verdict ftnl_replay_check(const struct ftnl_replay *win,
					   u64 seq);
enum ftnl_replay_verdict ftnl_replay_accept(struct ftnl_replay *win, u64 seq);

/*
 * During the update grace after a key change a node holds its current key
 * and the previous one. A peer known to hold the current key gets what is
 * sent to it signed with that key: it was heard in this node's epoch or a
 * later one (@peer_epoch), or its last datagram was authenticated with the
 * current key (@peer_prev false: a node that started afresh from the new
 * configuration). Any other peer may hold either key only - a node not
 * updated yet the previous one, a node whose own grace is over the current
 * one - and what this node knows of it may be older than its update: it
 * gets two copies under one sequence number, the current key's first. A
 * receiver drops the copy it cannot verify, or the second as a replay
 * (both counted as FTNL_DROP_OTHER_KEY, kmod/datagram.c).
 */
enum ftnl_wire_sign {
	FTNL_SIGN_CURRENT,
	FTNL_SIGN_BOTH,
};

static inline enum ftnl_wire_sign
ftnl_wire_sign(bool have_prev, u32 epoch, bool peer_known, u32 peer_epoch,
	       bool peer_prev)
{
	if (!have_prev || (peer_known && (peer_epoch >= epoch || !peer_prev)))
		return FTNL_SIGN_CURRENT;
	return FTNL_SIGN_BOTH;
}

#endif /* _FTNL_WIRE_H */
