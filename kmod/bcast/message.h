/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The payload of a BCAST datagram (a failure notification), pure code:
 * shared with userspace tests and fuzzers.
 *
 *   offset  size  field
 *   0       1     overlay (enum ftnl_overlay)
 *   1       1     cube (hypercube: 0 or 1; else 0)
 *   2       1     number of deaths, 1..FTNL_BCAST_MAX_DEATHS
 *   3       1     D encoding: 0 ranges, 1 bitmap; flags FTNL_BCAST_D_INCS,
 *                 FTNL_BCAST_SIGNED, FTNL_BCAST_SIGNED_TWICE
 *   4       4     origin node id
 *   8       8     origin incarnation
 *   16      8     broadcast sequence number (per origin incarnation)
 *   24      8     origin CLOCK_REALTIME ns, for delivery latency
 *   32      4     cluster size (positions covered by D)
 *   36      4     length of the D encoding, bytes
 *   40      20*m  deaths: node id (4), observer id (4), incarnation (8),
 *                 cause (1), state (1), flags (1), zero (1); an entry
 *                 whose state is FTNL_BCAST_JOIN is a node that rejoined
 *                 with that incarnation, admitted by the observer (flags:
 *                 FTNL_BCAST_RENAMED, that life began under a smaller
 *                 incarnation: it was renewed; other entries: 0); an entry whose state is
 *                 FTNL_BCAST_PROC_EXIT is a registered process that exited
 *                 on the origin node (only a node broadcasts its own
 *                 processes' exits), with its owner's uid (4), rank (4)
 *                 and job id (8) in the node, observer and incarnation
 *                 slots
 *   40+20m  ...   D: ranges: pairs of be16 (first position, count - 1),
 *                 ascending and disjoint; or bitmap: ceil(size / 8) bytes,
 *                 bit i of byte i / 8 (LSB first) set when position i is
 *                 in D, unused high bits zero.
 *   ...     8*k   D's incarnations (when byte 3 has FTNL_BCAST_D_INCS):
 *                 for each of the k members of D, in ascending position
 *                 order, the incarnation that died (0 if never heard).
 *
 * The shorter D encoding is chosen: a few dead ranges cost 4 bytes each,
 * and 65,536 nodes never cost more than 8 KiB. D's incarnations are sent
 * whenever the payload then fits in FTNL_WIRE_MAX_PAYLOAD (about a
 * thousand dead nodes); a receiver uses them to ignore D's news about a
 * node's previous life, and without them it ignores D's entries about
 * nodes it has seen die and come back (see ftnl_ring_core_death_heard()).
 * Big endian throughout.
 */
#ifndef _FTNL_BCAST_MESSAGE_H
#define _FTNL_BCAST_MESSAGE_H

#include <linux/ftnl.h>

#include "../compat.h"
#include "gossip.h"

#define FTNL_BCAST_MAX_DEATHS	32
#define FTNL_BCAST_HDR_LEN	40
#define FTNL_BCAST_DEATH_LEN	20
#define FTNL_BCAST_MAX_POSITIONS FTNL_MAX_NODES

/*
 * Entry states beyond enum ftnl_node_state's dead (1) and left (2): a
 * process exit, and a JOIN (the node rejoined with the incarnation the
 * entry names, admitted by the member in the observer slot).
 */
#define FTNL_BCAST_PROC_EXIT	3
#define FTNL_BCAST_JOIN		4

/*
 * A JOIN entry's flag: the life it names was renewed (kmod/ring/core.c,
 * ftnl_ring_core_renew()): a member that pinned an earlier name of it asks
 * the node before it takes the JOIN for the end of that life.
 */
#define FTNL_BCAST_RENAMED	0x01

enum ftnl_bcast_dead_encoding {
	FTNL_BCAST_D_RANGES,
	FTNL_BCAST_D_BITMAP,
};

/* Byte 3's flag: D's incarnations follow D. */
#define FTNL_BCAST_D_INCS	0x2
/*
 * Byte 3's flags: the payload ends with its origin's signature, or with
 * two (during a rolling update of the keys, one by the origin's previous
 * key): signature.h. The decoder is never given them.
 */
#define FTNL_BCAST_SIGNED	0x4
#define FTNL_BCAST_SIGNED_TWICE	0x8
/* A GOSSIP payload's byte 62: the same. */
#define FTNL_GOSSIP_SIGNED	0x1
#define FTNL_GOSSIP_SIGNED_TWICE 0x2

/**
 * struct ftnl_bcast_dead_incs - where an encoder takes D's incarnations
 * @of: the incarnation of the node at @pos that is in D (0 if unknown);
 *	called once per member of D, in ascending position order
 * @ctx: passed to @of
 */
struct ftnl_bcast_dead_incs {
	u64 (*of)(void *ctx, u32 pos);
	void *ctx;
};

/**
 * struct ftnl_bcast_members - the node table a received payload is checked
 *	against: every node id it names must be a member
 * @is_member: whether @id is a node of this node's cluster
 * @ctx: passed to @is_member
 */
struct ftnl_bcast_members {
	bool (*is_member)(const void *ctx, u32 id);
	const void *ctx;
};

/*
 * A node death (state dead or left: node_id, observer_id, incarnation) or
 * a process exit (state FTNL_BCAST_PROC_EXIT: node_id, which decoding sets
 * to the origin's, owner_uid, rank, job).
 * The decoders accept only deaths whose node (and, for a node death, its
 * observer) are members, with a known cause and state.
 */
struct ftnl_bcast_death {
	u32 node_id;
	u32 observer_id;
	u64 incarnation;
	u32 owner_uid;
	u32 rank;
	u64 job;
	u8 cause;
	u8 state;
	u8 flags;
};

/*
 * A broadcast. Decoding also sets @ndead (members of D) and @dead_incs
 * (their incarnations, big endian in the payload decoded, or NULL when
 * the payload has none): ftnl_bcast_msg_dead_inc().
 */
struct ftnl_bcast_msg {
	u8 overlay;
	u8 cube;
	u32 origin_id;
	u64 origin_incarnation;
	u64 seq;
	u64 origin_time_ns;
	u32 npos;
	u32 ndeaths;
	struct ftnl_bcast_death deaths[FTNL_BCAST_MAX_DEATHS];
	u32 ndead;
	const u8 *dead_incs;
};

/*
 * The payload of a GOSSIP datagram (a corrected-gossip broadcast, FCG):
 *
 *   offset  size  field
 *   0       1     algorithm (enum ftnl_gossip_algo)
 *   1       1     f
 *   2       1     L / O, slots a message is in flight
 *   3       1     number of known ranks k (FCG side list)
 *   4       4     origin node id
 *   8       8     origin incarnation
 *   16      8     broadcast sequence number
 *   24      8     origin CLOCK_REALTIME ns
 *   32      4     T, end of the gossip phase (slots)
 *   36      4     cluster size
 *   40      20    the first death (as in a BCAST payload)
 *   60      1     gossip message type
 *   61      1     number of further deaths m, 0..FTNL_BCAST_MAX_DEATHS - 1
 *   62      1     flags: FTNL_GOSSIP_SIGNED, FTNL_GOSSIP_SIGNED_TWICE
 *   63      1     zero
 *   64      4     gossip message time (slots)
 *   68      4k    known ranks
 *   68+4k   20*m  the further deaths
 *
 * No D: the ring positions are the ranks, and dead ranks are members that
 * never answer, which corrected gossip tolerates. Like a BCAST message, one
 * broadcast carries up to FTNL_BCAST_MAX_DEATHS deaths, so that a burst of
 * deaths on a node is a few broadcasts, not one each.
 */
#define FTNL_GOSSIP_PAYLOAD_HDR	68
#define FTNL_GOSSIP_PAYLOAD_MAX	(FTNL_GOSSIP_PAYLOAD_HDR + \
				 4 * FTNL_GOSSIP_MAX_KNOWN + \
				 (FTNL_BCAST_MAX_DEATHS - 1) * FTNL_BCAST_DEATH_LEN)

/*
 * What a GOSSIP payload may claim: T at most what a cluster can be
 * configured with, a clock below half the u32 range (no real broadcast,
 * which takes milliseconds, comes near it; a clock near the top would
 * wrap, or sit at FTNL_GOSSIP_NO_WAKE and never wake).
 */
#define FTNL_GOSSIP_MAX_T	(FTNL_GOSSIP_T_MAX_US / FTNL_GOSSIP_SLOT_US)
#define FTNL_GOSSIP_MAX_TIME	(FTNL_GOSSIP_NO_WAKE / 2)

/**
 * struct ftnl_gossip_wire - a GOSSIP payload, decoded
 * @algo: enum ftnl_gossip_algo
 * @f: FCG's f
 * @lat: L / O
 * @origin_id: the broadcast's root
 * @origin_incarnation: its incarnation
 * @seq: its broadcast number
 * @origin_time_ns: when it started (root's wall clock)
 * @gossip_end: T
 * @npos: cluster size
 * @ndeaths: number of @deaths, 1..FTNL_BCAST_MAX_DEATHS
 * @deaths: what is broadcast
 */
struct ftnl_gossip_wire {
	u8 algo;
	u8 f;
	u8 lat;
	u32 origin_id;
	u64 origin_incarnation;
	u64 seq;
	u64 origin_time_ns;
	u32 gossip_end;
	u32 npos;
	u32 ndeaths;
	struct ftnl_bcast_death deaths[FTNL_BCAST_MAX_DEATHS];
};

u32 ftnl_gossip_payload_encode(u8 *buf, u32 cap,
			       const struct ftnl_gossip_wire *wire,
			       const struct ftnl_gossip_msg *msg);
int ftnl_gossip_payload_decode(struct ftnl_gossip_wire *wire,
			       struct ftnl_gossip_msg *msg, u32 npos,
			       const struct ftnl_bcast_members *members,
			       const u8 *buf, u32 len);

/**
 * struct ftnl_bcast_id - what names a broadcast, from a payload's fixed
 *	header alone (BCAST or GOSSIP: the same offsets)
 * @origin_id: its origin
 * @origin_incarnation: the origin's incarnation
 * @seq: its number
 * @cube: the copy's cube (BCAST; 0 for GOSSIP)
 */
struct ftnl_bcast_id {
	u32 origin_id;
	u64 origin_incarnation;
	u64 seq;
	u8 cube;
};

int ftnl_bcast_peek_id(struct ftnl_bcast_id *id, const u8 *buf, u32 len);

u32 ftnl_bcast_msg_max_len(u32 npos);
u32 ftnl_bcast_msg_encode(u8 *buf, u32 cap, const struct ftnl_bcast_msg *msg,
			  const unsigned long *dead,
			  const struct ftnl_bcast_dead_incs *incs);
u64 ftnl_bcast_msg_dead_inc(const struct ftnl_bcast_msg *msg, u32 k);

/*
 * A decoded message's D incarnations as an encoder's source (a forwarder
 * or a test re-encoding what it received): @msg and a zeroed @next.
 */
struct ftnl_bcast_incs_cursor {
	const struct ftnl_bcast_msg *msg;
	u32 next;
};

u64 ftnl_bcast_incs_cursor_next(void *cursor, u32 pos);
int ftnl_bcast_msg_decode(struct ftnl_bcast_msg *msg, unsigned long *dead,
			  u32 npos, const struct ftnl_bcast_members *members,
			  const u8 *buf, u32 len);
void ftnl_bcast_msg_set_cube(u8 *buf, u8 cube);

#endif /* _FTNL_BCAST_MESSAGE_H */
