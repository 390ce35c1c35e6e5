/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reliable broadcast of failure notifications: kernel glue around the pure
 * overlays (topology.c) and message codec (message.c).
 */
#ifndef _FTNL_BCAST_H
#define _FTNL_BCAST_H

#include "../compat.h"
#include "../wire.h"

struct ftnl_ring;

/* Broadcasts remembered for deduplication, most recent first out. */
#define FTNL_BCAST_SEEN		256

/**
 * struct ftnl_bcast_seen - a broadcast this node has taken part in
 * @origin_id: its source
 * @origin_incarnation: the source's incarnation
 * @seq: the source's broadcast number
 * @forwarded: bit c set once forwarded in cube c
 * @used: the slot holds a broadcast
 */
struct ftnl_bcast_seen {
	u32 origin_id;
	u64 origin_incarnation;
	u64 seq;
	u8 forwarded;
	bool used;
};

/**
 * struct ftnl_bcast - a ring's broadcast state, under the ring's lock
 * @algo: enum ftnl_bcast_algo of broadcasts this node starts
 * @seq: number of the last broadcast this node started
 * @seen: recent broadcasts, for deduplication
 * @seen_next: next slot of @seen to reuse
 * @scratch: a message's D while it is handled
 * @txbuf: payload being sent
 * @txbuf_len: size of @txbuf
 * @latency_last_ns: origin-to-delivery time of the last delivery
 * @latency_max_ns: largest such time
 * @latency_sum_ns: sum of such times
 */
struct ftnl_bcast {
	u8 algo;
	u64 seq;
	struct ftnl_bcast_seen seen[FTNL_BCAST_SEEN];
	u32 seen_next;
	unsigned long *scratch;
	u8 *txbuf;
	u32 txbuf_len;
	u64 latency_last_ns;
	u64 latency_max_ns;
	u64 latency_sum_ns;
};

int ftnl_bcast_init(struct ftnl_bcast *bcast, u32 npos, u8 algo);
void ftnl_bcast_free(struct ftnl_bcast *bcast);
void ftnl_bcast_originate(struct ftnl_ring *ring, u32 pos);
void ftnl_bcast_originate_proc(struct ftnl_ring *ring, u64 job, u32 rank);
int ftnl_bcast_rx(struct ftnl_ring *ring, u32 from, const u8 *payload,
		  u32 len);

#endif /* _FTNL_BCAST_H */
