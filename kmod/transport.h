/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Datagrams between nodes: building and checking them (datagram.c) and the
 * per-netns kernel UDP sockets that carry them (socket.c). The transport
 * owns the sockets and every sequence number (datagrams sent, broadcasts
 * started, the anti-replay windows of what arrives); the ring and the
 * broadcast layer only name a destination position and a type.
 */
#ifndef _FTNL_TRANSPORT_H
#define _FTNL_TRANSPORT_H

#include <linux/atomic.h>
#include <linux/net.h>
#include <linux/seqlock.h>
#include <linux/skbuff.h>

#include "ftnl.h"
#include "wire.h"

struct ftnl_ring;

/**
 * struct ftnl_prev_pair - the keys a configuration change replaced for one
 *	peer
 * @until_ns: CLOCK_MONOTONIC end of its update grace, 0 if none
 * @key: the key
 * @unsigned_before: the peer's broadcasts were not signed before (the
 *	previous configuration did not sign): one it originates may come
 *	unsigned until it is heard in the new epoch
 * @sign_public: its previous public signing key, zero if none
 */
struct ftnl_prev_pair {
	u64 until_ns;
	u8 key[FTNL_KEY_LEN];
	bool unsigned_before;
	u8 sign_public[FTNL_SIGN_KEY_LEN];
};

/**
 * struct ftnl_prev_key - the keys a configuration change replaced
 * @rcu: freed (wiped) after the receive paths that may use it
 * @until_ns: the latest of the @pair grace ends
 * @sign_until_ns: end of the grace of @sign_key, 0 if none
 * @sign_key: this node's previous signing key: until @sign_until_ns its
 *	broadcasts carry a second signature by it, for the nodes not
 *	updated yet (kmod/bcast/signature.h)
 * @count: entries in @pair
 * @pair: per position in the new configuration, the key its datagrams
 *	were authenticated with before (the cluster key, or the pair key)
 */
struct ftnl_prev_key {
	struct rcu_head rcu;
	u64 until_ns;
	u64 sign_until_ns;
	struct ftnl_ed25519_key sign_key;
	u32 count;
	struct ftnl_prev_pair pair[];
};

/**
 * struct ftnl_rx_window - the anti-replay windows of one sender
 * @incarnation: the sender incarnation @win counts, 0 before the first
 * @win: its sequence numbers, per enum ftnl_wire_space; all zero until
 *	the first datagram of that space in @incarnation
 */
struct ftnl_rx_window {
	u64 incarnation;
	struct ftnl_replay win[FTNL_WIRE_SPACES];
};

/**
 * struct ftnl_tx_seq - what this node sent to one destination
 * @space: per enum ftnl_wire_space, the last sequence number used
 */
struct ftnl_tx_seq {
	atomic64_t space[FTNL_WIRE_SPACES];
};

/**
 * struct ftnl_transport - one configuration's datagram endpoint
 * @fn: the netns state
 * @cluster: the configuration (addresses, key)
 * @sock4: UDP socket for IPv4 members, NULL if none
 * @sock6: UDP socket for IPv6 members, NULL if none
 * @reuse4: @sock4 is the previous transport's, handed over when started
 * @reuse6: @sock6 likewise
 * @incarnation: this node's incarnation, stamped on every datagram
 * @first: the incarnation this node's life began with (the ring's
 *	@core.first), stamped on every datagram; written with @incarnation
 *	under the ring's lock
 * @tx_seq: per destination position, the last datagram sequence number
 *	sent to it in each space: a receiver's replay window then measures
 *	reordering among what this node sends to it alone (with one counter
 *	for all destinations, a burst of sends to others spread a receiver's
 *	numbers apart, and datagrams reordered across CPUs fell out of its
 *	window), and each space goes out through one queue, in its order
 *	(with one space, a broadcast could leave after a later ring datagram)
 * @bcast_seq: number of the last broadcast this node started (under the
 *	ring's lock)
 * @replay: per position, the anti-replay windows over the sender's
 *	incarnation the ring accepted, one per space (written under the
 *	ring's lock)
 * @replay_seq: lets the receive path read @replay without the ring's lock
 * @echo: per position, the incarnation of that node to echo in datagrams to
 *	it (the ring's peers[].heard, written under the ring's lock, read
 *	by any sender)
 * @peer_seen: per position, what that node's last datagram accepted here
 *	said: its configuration epoch, FTNL_PEER_KNOWN, and FTNL_PEER_PREV
 *	when it was authenticated with @prev_key; 0 if none (written under
 *	the ring's lock, read by any sender): which key it can verify
 * @prev_key: the previous configuration's keys, each accepted and used
 *	until its @until_ns (CLOCK_MONOTONIC) after a key change, NULL if
 *	none; wiped once all are over (ftnl_transport_expire_key())
 * @drops: received datagrams dropped, by enum ftnl_drop_reason
 * @txq_ctrl: ring datagrams (FTNL_SPACE_RING: heartbeats, NEW_OBSERVER,
 *	LEAVE, HELLO, HELLO_ACK) built under the ring's lock, to be sent once
 *	it is released
 * @txq_bcast: the others (FTNL_SPACE_BCAST: broadcasts, welcomes,
 *	EXPELLED, probes) likewise, sent after @txq_ctrl's
 * @tx_errors: where datagrams that could not be sent are counted (the
 *	ring's FTNL_A_STATS_TX_ERRORS counter)
 */
struct ftnl_transport {
	struct ftnl_net *fn;
	const struct ftnl_cluster *cluster;
	struct socket *sock4;
	struct socket *sock6;
	bool reuse4;
	bool reuse6;
	u64 incarnation;
	u64 first;
	struct ftnl_tx_seq *tx_seq;
	u64 bcast_seq;
	struct ftnl_rx_window *replay;
	seqcount_t replay_seq;
	u64 *echo;
	u64 *peer_seen;
	struct ftnl_prev_key __rcu *prev_key;
	atomic64_t drops[__FTNL_DROP_MAX];
	struct sk_buff_head txq_ctrl;
	struct sk_buff_head txq_bcast;
	atomic64_t *tx_errors;
};

/* struct ftnl_transport's @peer_seen: the epoch in the low 32 bits. */
#define FTNL_PEER_KNOWN		BIT_ULL(32)
#define FTNL_PEER_PREV		BIT_ULL(33)

/*
 * What a queued datagram carries to the transmit step (skb->cb), and the
 * DSCP ring datagrams are marked with: CS6 (network control), so that a
 * switch that honours DSCP forwards heartbeats ahead of bulk traffic.
 */
struct ftnl_tx_cb {
	u32 pos;
	u8 tos;
};

#define FTNL_TX_CB(skb)		((struct ftnl_tx_cb *)(skb)->cb)
#define FTNL_TOS_CTRL		0xc0	/* DSCP CS6 << 2 */

static inline void ftnl_transport_drop(struct ftnl_transport *t,
				       enum ftnl_drop_reason reason)
{
	atomic64_inc(&t->drops[reason]);
}

/* Copy @t's drop counters into @out (__FTNL_DROP_MAX of them). */
static inline void ftnl_transport_read_drops(const struct ftnl_transport *t,
					     u64 *out)
{
	int i;

	for (i = 0; i < __FTNL_DROP_MAX; i++)
		out[i] = atomic64_read(&t->drops[i]);
}

/**
 * struct ftnl_source - where a datagram came from, for the header checks
 * @family: AF_INET or AF_INET6
 * @port: UDP source port, host order
 * @addr4: IPv4 source address (@family AF_INET)
 * @addr6: IPv6 source address (@family AF_INET6)
 */
struct ftnl_source {
	u8 family;
	u16 port;
	union {
		__be32 addr4;
		struct in6_addr addr6;
	};
};

/* socket.c */
int ftnl_transport_open(struct ftnl_transport *t, struct ftnl_net *fn,
			const struct ftnl_cluster *cluster,
			const struct ftnl_transport *prev);
void ftnl_transport_start(struct ftnl_transport *t,
			  struct ftnl_transport *prev);
void ftnl_transport_close(struct ftnl_transport *t);
void ftnl_transport_free(struct ftnl_transport *t);
int ftnl_sock_open(struct ftnl_net *fn, int family, u16 port,
		   struct socket **sockp);
void ftnl_sock_close(struct socket *sock);
int ftnl_sock_xmit(struct ftnl_transport *t, const struct ftnl_node *to,
		   struct sk_buff *skb, u8 tos);

/* datagram.c */
int ftnl_transport_send(struct ftnl_transport *t, u32 pos, u8 type,
			const u8 *payload, u32 len);
void ftnl_transport_flush(struct ftnl_transport *t);
enum ftnl_replay_verdict
ftnl_transport_replay_accept(struct ftnl_transport *t, u32 pos,
			     const struct ftnl_wire_hdr *hdr, bool fresh);
void ftnl_transport_replay_copy(struct ftnl_transport *t, u32 pos,
				const struct ftnl_transport *prev, u32 prev_pos);
void ftnl_dgram_rcv(struct ftnl_net *fn, struct sk_buff *skb,
		    const struct ftnl_source *src);
int ftnl_transport_keys_open(struct ftnl_transport *t,
			     const struct ftnl_transport *prev);
void ftnl_transport_keys_free(struct ftnl_transport *t);
void ftnl_transport_expire_key(struct ftnl_transport *t, u64 now);
bool ftnl_transport_prev_unsigned(struct ftnl_transport *t, u32 pos, u64 now);
bool ftnl_transport_prev_sign_public(struct ftnl_transport *t, u32 pos,
				     u64 now, u8 public[FTNL_SIGN_KEY_LEN]);
bool ftnl_transport_prev_signing(struct ftnl_transport *t, u64 now);
int ftnl_transport_prev_sign(struct ftnl_transport *t,
			     struct ftnl_ed25519_ctx *ctx, u64 now, u8 type,
			     const u8 *payload, u32 body_len, u8 *sig);
bool ftnl_transport_has_prev_key(struct ftnl_transport *t, u64 now,
				 u64 *left_ns);

/* Where an authentic datagram goes up (kmod/ring/ring.c). */
void ftnl_ring_rx(struct ftnl_ring *ring, u32 pos,
		  const struct ftnl_wire_hdr *hdr, const u8 *payload,
		  bool prev_key);

#endif /* _FTNL_TRANSPORT_H */
