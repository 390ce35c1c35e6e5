// SPDX-License-Identifier: GPL-2.0
/*
 * Building and checking ftnl datagrams (format: wire.h). A received
 * datagram is acted on only once every check passed; each failed check
 * drops it and counts the reason, and changes nothing else.
 */

#include <crypto/algapi.h>
#include <crypto/blake2s.h>
#include <linux/if_ether.h>
#include <linux/ipv6.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/overflow.h>
#include <linux/pkt_sched.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/udp.h>
#include <net/ipv6.h>

#include "bcast/signature.h"
#include "transport.h"
#include "wire.h"

static void ftnl_dgram_mac(u8 *mac, const u8 *data, size_t len,
			   const u8 *key)
{
	blake2s(mac, data, key, FTNL_WIRE_MAC_LEN, len, FTNL_KEY_LEN);
}

/* The previous key of the peer at @pos, if its grace runs at @now. */
static const u8 *ftnl_prev_pair_key(const struct ftnl_prev_key *pk, u32 pos,
				    u64 now)
{
	if (!pk || pos >= pk->count || now >= pk->pair[pos].until_ns)
		return NULL;
	return pk->pair[pos].key;
}

/*
 * This node's previous signing key, when the new configuration changed it
 * (or kept one still in its grace): the nodes not updated yet know only
 * its public key.
 */
static void ftnl_transport_keep_sign_key(struct ftnl_prev_key *pk,
					 const struct ftnl_transport *prev,
					 const struct ftnl_prev_key *was,
					 const struct ftnl_cluster *cluster,
					 u64 now, u64 grace_end)
{
	const struct ftnl_cluster *old = prev->cluster;

	if (old->signs && (!cluster->signs ||
			   memcmp(old->sign_key.public, cluster->sign_key.public,
				  FTNL_SIGN_KEY_LEN))) {
		pk->sign_key = old->sign_key;
		pk->sign_until_ns = grace_end;
	} else if (was && now < was->sign_until_ns) {
		pk->sign_key = was->sign_key;
		pk->sign_until_ns = was->sign_until_ns;
	}
	pk->until_ns = max(pk->until_ns, pk->sign_until_ns);
}

/**
 * ftnl_transport_keys_open - the previous keys of a new configuration
 * @t: the new transport, its cluster set
 * @prev: the transport it replaces, still running, or NULL
 *
 * Per peer: a key that changed (the cluster key, or the pair key) is kept
 * as its previous key for the update grace; an unchanged one keeps the
 * replaced transport's previous key for what is left of its grace. A node
 * that was no member has none. Process context.
 *
 * Return: 0 or -ENOMEM.
 */
int ftnl_transport_keys_open(struct ftnl_transport *t,
			     const struct ftnl_transport *prev)
{
	const struct ftnl_cluster *cluster = t->cluster;
	u64 now = ktime_get_ns(), grace_end;
	const struct ftnl_prev_key *was;
	const struct ftnl_node *old;
	struct ftnl_prev_pair *pair;
	struct ftnl_prev_key *pk;
	u32 pos, old_pos;
	const u8 *key;

	if (!prev)
		return 0;
	pk = ftnl_counted(kvzalloc(struct_size(pk, pair, cluster->node_count),
				   GFP_KERNEL_ACCOUNT));
	if (!pk)
		return -ENOMEM;
	pk->count = cluster->node_count;
	grace_end = now + (u64)cluster->update_grace_s * NSEC_PER_SEC;
	rcu_read_lock();
	was = rcu_dereference(prev->prev_key);
	for (pos = 0; pos < cluster->node_count; pos++) {
		old = ftnl_cluster_find(prev->cluster, cluster->nodes[pos].id);
		if (pos == cluster->self_index || !old)
			continue;
		pair = &pk->pair[pos];
		old_pos = old - prev->cluster->nodes;
		if (crypto_memneq(old->key, cluster->nodes[pos].key,
				  FTNL_KEY_LEN) ||
		    prev->cluster->signs != cluster->signs ||
		    memcmp(old->sign_public, cluster->nodes[pos].sign_public,
			   FTNL_SIGN_KEY_LEN)) {
			memcpy(pair->key, old->key, FTNL_KEY_LEN);
			pair->unsigned_before = !prev->cluster->signs;
			memcpy(pair->sign_public, old->sign_public,
			       FTNL_SIGN_KEY_LEN);
			pair->until_ns = grace_end;
		} else {
			key = ftnl_prev_pair_key(was, old_pos, now);
			if (!key)
				continue;
			*pair = was->pair[old_pos];
		}
		pk->until_ns = max(pk->until_ns, pair->until_ns);
	}
	ftnl_transport_keep_sign_key(pk, prev, was, cluster, now, grace_end);
	rcu_read_unlock();
	if (!pk->until_ns) {
		ftnl_uncount(pk);
		kvfree_sensitive(pk, struct_size(pk, pair, pk->count));
		return 0;
	}
	rcu_assign_pointer(t->prev_key, pk);
	return 0;
}

/* The keys, then the memory: no trace of them is left. */
static void ftnl_prev_key_wipe(struct ftnl_prev_key *pk)
{
	ftnl_uncount(pk);
	kvfree_sensitive(pk, struct_size(pk, pair, pk->count));
}

static void ftnl_prev_key_wipe_rcu(struct rcu_head *head)
{
	ftnl_prev_key_wipe(container_of(head, struct ftnl_prev_key, rcu));
}

/* The transport is unreachable (after an RCU grace period, or unused). */
void ftnl_transport_keys_free(struct ftnl_transport *t)
{
	struct ftnl_prev_key *pk = rcu_replace_pointer(t->prev_key, NULL, true);

	if (pk)
		ftnl_prev_key_wipe(pk);
}

/**
 * ftnl_transport_expire_key - end the previous key's grace when it is over
 * @t: the transport
 * @now: CLOCK_MONOTONIC
 *
 * The keys are wiped once the receive paths that may hold them are done,
 * after the last grace; none is accepted after its own (ftnl_dgram_rcv()).
 * Called from the ring's heartbeat timer, under the ring's lock: the only
 * writer.
 */
void ftnl_transport_expire_key(struct ftnl_transport *t, u64 now)
{
	struct ftnl_prev_key *pk = rcu_dereference_protected(t->prev_key, true);

	if (!pk || now < pk->until_ns)
		return;
	RCU_INIT_POINTER(t->prev_key, NULL);
	call_rcu(&pk->rcu, ftnl_prev_key_wipe_rcu);
}

/**
 * ftnl_transport_prev_unsigned - may the node at @pos originate unsigned
 *	broadcasts still?
 * @t: the transport, its configuration signing
 * @pos: the origin's position
 * @now: CLOCK_MONOTONIC
 *
 * Only during the update grace that began to sign, and until that node is
 * heard in this configuration's epoch with its current key (then it signs
 * too).
 *
 * Return: it may.
 */
bool ftnl_transport_prev_unsigned(struct ftnl_transport *t, u32 pos, u64 now)
{
	const struct ftnl_prev_key *pk;
	u64 seen = READ_ONCE(t->peer_seen[pos]);
	bool may;

	if ((seen & FTNL_PEER_KNOWN) && !(seen & FTNL_PEER_PREV) &&
	    (u32)seen == t->cluster->epoch)
		return false;
	rcu_read_lock();
	pk = rcu_dereference(t->prev_key);
	may = pk && pos < pk->count && now < pk->pair[pos].until_ns &&
	      pk->pair[pos].unsigned_before;
	rcu_read_unlock();
	return may;
}

/**
 * ftnl_transport_prev_sign_public - the previous public signing key of the
 *	node at @pos, during its update grace
 * @t: the transport
 * @pos: its position
 * @now: CLOCK_MONOTONIC
 * @public: set to it
 *
 * Return: there is one.
 */
bool ftnl_transport_prev_sign_public(struct ftnl_transport *t, u32 pos,
				     u64 now, u8 public[FTNL_SIGN_KEY_LEN])
{
	const struct ftnl_prev_key *pk;
	bool has;

	rcu_read_lock();
	pk = rcu_dereference(t->prev_key);
	has = pk && pos < pk->count && now < pk->pair[pos].until_ns &&
	      memchr_inv(pk->pair[pos].sign_public, 0, FTNL_SIGN_KEY_LEN);
	if (has)
		memcpy(public, pk->pair[pos].sign_public, FTNL_SIGN_KEY_LEN);
	rcu_read_unlock();
	return has;
}

/**
 * ftnl_transport_prev_signing - does this node sign with its previous key
 *	too, its update grace running?
 * @t: the transport
 * @now: CLOCK_MONOTONIC
 *
 * Return: it does (ftnl_transport_prev_sign()).
 */
bool ftnl_transport_prev_signing(struct ftnl_transport *t, u64 now)
{
	const struct ftnl_prev_key *pk;
	bool has;

	rcu_read_lock();
	pk = rcu_dereference(t->prev_key);
	has = pk && now < pk->sign_until_ns;
	rcu_read_unlock();
	return has;
}

/**
 * ftnl_transport_prev_sign - sign a broadcast with this node's previous key
 * @t: the transport; under the ring's lock, which alone ends the grace
 *	(ftnl_transport_expire_key())
 * @ctx: working memory
 * @now: CLOCK_MONOTONIC
 * @type: FTNL_MSG_BCAST or FTNL_MSG_GOSSIP
 * @payload: the payload, flagged as signed twice
 * @body_len: its length without the signatures
 * @sig: the second signature
 *
 * Return: 0, or -ENOKEY when ftnl_transport_prev_signing() would say no.
 */
int ftnl_transport_prev_sign(struct ftnl_transport *t,
			     struct ftnl_ed25519_ctx *ctx, u64 now, u8 type,
			     const u8 *payload, u32 body_len, u8 *sig)
{
	const struct ftnl_prev_key *pk;
	int err = -ENOKEY;

	rcu_read_lock();
	pk = rcu_dereference(t->prev_key);
	if (pk && now < pk->sign_until_ns) {
		ftnl_bcast_sig_make(ctx, type, payload, body_len,
				    &pk->sign_key, sig);
		err = 0;
	}
	rcu_read_unlock();
	return err;
}

/**
 * ftnl_transport_has_prev_key - is a previous key accepted?
 * @t: the transport
 * @now: CLOCK_MONOTONIC
 * @left_ns: set to how much longer, when it is
 *
 * Return: a previous key is accepted at @now.
 */
bool ftnl_transport_has_prev_key(struct ftnl_transport *t, u64 now,
				 u64 *left_ns)
{
	const struct ftnl_prev_key *pk;
	bool live;

	rcu_read_lock();
	pk = rcu_dereference(t->prev_key);
	live = pk && now < pk->until_ns;
	if (live)
		*left_ns = pk->until_ns - now;
	rcu_read_unlock();
	return live;
}

/* Queue one copy of the datagram @hdr, @payload describe, MACed with @key. */
static int ftnl_transport_queue(struct ftnl_transport *t, u32 pos,
				const struct ftnl_wire_hdr *hdr,
				const u8 *payload, const u8 *key)
{
	const unsigned int len = FTNL_WIRE_HDR_LEN + hdr->payload_len +
				 FTNL_WIRE_MAC_LEN;
	unsigned int headroom = LL_MAX_HEADER + sizeof(struct ipv6hdr) +
				sizeof(struct udphdr);
	bool ctrl = ftnl_wire_space(hdr->type) == FTNL_SPACE_RING;
	struct sk_buff *skb;
	u8 *buf;

	skb = alloc_skb(headroom + len, GFP_ATOMIC);
	if (!skb)
		return -ENOMEM;
	skb_reserve(skb, headroom);
	buf = skb_put(skb, len);
	ftnl_wire_hdr_encode(buf, hdr);
	if (hdr->payload_len)
		memcpy(buf + FTNL_WIRE_HDR_LEN, payload, hdr->payload_len);
	ftnl_dgram_mac(buf + FTNL_WIRE_HDR_LEN + hdr->payload_len, buf,
		       FTNL_WIRE_HDR_LEN + hdr->payload_len, key);
	*FTNL_TX_CB(skb) = (struct ftnl_tx_cb){
		.pos = pos,
		.tos = ctrl ? FTNL_TOS_CTRL : 0,
	};
	skb->priority = ctrl ? TC_PRIO_CONTROL : TC_PRIO_BESTEFFORT;
	skb_queue_tail(ctrl ? &t->txq_ctrl : &t->txq_bcast, skb);
	return 0;
}

/**
 * ftnl_transport_send - build a datagram to a ring member, for sending
 * @t: the sending transport
 * @pos: the destination's position
 * @type: enum ftnl_wire_type
 * @payload: its payload, or NULL
 * @payload_len: its length, at most FTNL_WIRE_MAX_PAYLOAD
 *
 * Atomic context: this runs from the timers and the receive path, under
 * the ring's lock. The datagram is only built (numbered, MACed) and
 * queued: the caller sends it with ftnl_transport_flush() once the lock is
 * released, so that no heartbeat waits for the transmission of others'
 * datagrams. It is numbered in its type's space (enum ftnl_wire_space),
 * whose datagrams leave in the order of their numbers (but for
 * concurrent flushes): ring datagrams go before the others and carry DSCP CS6
 * and priority TC_PRIO_CONTROL. During the update grace after a key change
 * the key is the one the destination can verify (ftnl_wire_sign()), or
 * both copies go.
 *
 * Return: 0 or a negative errno (nothing was queued).
 */
int ftnl_transport_send(struct ftnl_transport *t, u32 pos, u8 type,
			const u8 *payload, u32 payload_len)
{
	const struct ftnl_cluster *cluster = t->cluster;
	struct ftnl_wire_hdr hdr = {
		.magic = FTNL_WIRE_MAGIC,
		.version = FTNL_PROTO_VERSION,
		.type = type,
		.payload_len = payload_len,
		.cluster_id = cluster->cluster_id,
		.sender_id = cluster->self_id,
		.dest_id = cluster->nodes[pos].id,
		.incarnation = t->incarnation,
		.first = t->first,
		.echo = READ_ONCE(t->echo[pos]),
		.epoch = cluster->epoch,
		.timeout_us = cluster->timeout_us,
	};
	u64 peer = READ_ONCE(t->peer_seen[pos]);
	enum ftnl_wire_sign sign;
	atomic64_t *space;
	const u8 *prev;
	int err;

	if (payload_len > FTNL_WIRE_MAX_PAYLOAD)
		return -EMSGSIZE;
	space = &t->tx_seq[pos].space[ftnl_wire_space(type)];
	hdr.seq = atomic64_inc_return(space);
	rcu_read_lock();
	prev = ftnl_prev_pair_key(rcu_dereference(t->prev_key), pos,
				  ktime_get_ns());
	/* A change of signing keys alone keeps the pair key: no spare copy. */
	if (prev && !crypto_memneq(prev, cluster->nodes[pos].key, FTNL_KEY_LEN))
		prev = NULL;
	sign = ftnl_wire_sign(!!prev, cluster->epoch, peer & FTNL_PEER_KNOWN,
			      (u32)peer, peer & FTNL_PEER_PREV);
	err = ftnl_transport_queue(t, pos, &hdr, payload,
				   cluster->nodes[pos].key);
	/* The second copy is a spare: the first may well be verified. */
	if (!err && sign == FTNL_SIGN_BOTH)
		ftnl_transport_queue(t, pos, &hdr, payload, prev);
	rcu_read_unlock();
	return err;
}

/*
 * Send what @q holds, in order; a datagram the stack refuses is counted
 * as a tx error.
 */
static void ftnl_transport_flush_queue(struct ftnl_transport *t,
				       struct sk_buff_head *q)
{
	const struct ftnl_cluster *cluster = t->cluster;
	struct sk_buff *skb;
	u32 pos;
	u8 tos;

	while ((skb = skb_dequeue(q))) {
		pos = FTNL_TX_CB(skb)->pos;
		tos = FTNL_TX_CB(skb)->tos;
		if (ftnl_sock_xmit(t, &cluster->nodes[pos], skb, tos) &&
		    t->tx_errors)
			atomic64_inc(t->tx_errors);
	}
}

/**
 * ftnl_transport_flush - send the datagrams built under the ring's lock
 * @t: the transport
 *
 * Called without the ring's lock, from any context (BHs are disabled
 * around the transmission); several callers may flush at once. Ring
 * datagrams leave first.
 */
void ftnl_transport_flush(struct ftnl_transport *t)
{
	if (skb_queue_empty_lockless(&t->txq_ctrl) &&
	    skb_queue_empty_lockless(&t->txq_bcast))
		return;
	local_bh_disable();
	ftnl_transport_flush_queue(t, &t->txq_ctrl);
	ftnl_transport_flush_queue(t, &t->txq_bcast);
	local_bh_enable();
}

/**
 * ftnl_transport_replay_accept - anti-replay check of a datagram's number
 * @t: the transport
 * @pos: its sender
 * @hdr: its header: the sender incarnation it carries (the one the ring
 *	accepted), its type (which space it is numbered in) and number
 * @fresh: first datagram of the sender's incarnation: the windows start
 *	afresh
 *
 * The window of the datagram's space (enum ftnl_wire_space) decides. A
 * window starts at the first datagram of its space in the incarnation and
 * holds every number below it as seen (ftnl_replay_start()): the sender
 * used them before, for datagrams this node may have acted on already
 * (before the sender's life was pinned, ftnl_ring_core_admit()).
 *
 * Under the ring's lock (the ring decides which incarnation is current).
 *
 * Return: FTNL_REPLAY_NEW if the number was never seen and is not too old
 * (now recorded), else why not.
 */
enum ftnl_replay_verdict
ftnl_transport_replay_accept(struct ftnl_transport *t, u32 pos,
			     const struct ftnl_wire_hdr *hdr, bool fresh)
{
	struct ftnl_rx_window *rx = &t->replay[pos];
	struct ftnl_replay *win = &rx->win[ftnl_wire_space(hdr->type)];
	enum ftnl_replay_verdict v;

	write_seqcount_begin(&t->replay_seq);
	if (fresh || rx->incarnation != hdr->incarnation)
		*rx = (struct ftnl_rx_window){
			.incarnation = hdr->incarnation,
		};
	/* No datagram of this space accepted yet in this incarnation. */
	if (!win->top && !win->seen)
		ftnl_replay_start(win, hdr->seq);
	v = ftnl_replay_accept(win, hdr->seq);
	write_seqcount_end(&t->replay_seq);
	return v;
}

/**
 * ftnl_transport_replay_copy - carry a sender's window over a replacement
 * @t: the new transport, not running yet (under its ring's lock)
 * @pos: the sender's position in @t's configuration
 * @prev: the replaced transport, quiet
 * @prev_pos: the same sender's position in @prev's configuration
 *
 * An unchanged member keeps its windows, so that what it sent before the
 * replacement cannot be replayed after it, and what its last datagram said
 * of its epoch and key.
 */
void ftnl_transport_replay_copy(struct ftnl_transport *t, u32 pos,
				const struct ftnl_transport *prev, u32 prev_pos)
{
	u64 peer;

	write_seqcount_begin(&t->replay_seq);
	t->replay[pos] = prev->replay[prev_pos];
	write_seqcount_end(&t->replay_seq);
	WRITE_ONCE(t->echo[pos], READ_ONCE(prev->echo[prev_pos]));
	peer = READ_ONCE(prev->peer_seen[prev_pos]);
	/*
	 * After a key change, what the peer signed with @prev's current key
	 * is signed with @t's previous one; a key older than both is unknown.
	 */
	if (crypto_memneq(prev->cluster->nodes[prev_pos].key,
			  t->cluster->nodes[pos].key, FTNL_KEY_LEN))
		peer = peer & FTNL_PEER_PREV ? 0 : peer | FTNL_PEER_PREV;
	WRITE_ONCE(t->peer_seen[pos], peer);
}

/*
 * A replay of what the ring already accepted from @pos, or a number below
 * its window's start, told without the ring's lock (the lock still
 * decides for everything else). Return: the window's verdict,
 * FTNL_REPLAY_NEW if it has none for this incarnation.
 */
static enum ftnl_replay_verdict
ftnl_transport_replay_seen(struct ftnl_transport *t, u32 pos,
			   const struct ftnl_wire_hdr *hdr)
{
	const struct ftnl_rx_window *rx = &t->replay[pos];
	enum ftnl_replay_verdict v;
	unsigned int start;

	do {
		start = read_seqcount_begin(&t->replay_seq);
		v = FTNL_REPLAY_NEW;
		if (rx->incarnation && rx->incarnation == hdr->incarnation)
			v = ftnl_replay_check(&rx->win[ftnl_wire_space(hdr->type)],
					      hdr->seq);
	} while (read_seqcount_retry(&t->replay_seq, start));
	return v;
}

static bool ftnl_dgram_type_ok(const struct ftnl_wire_hdr *hdr)
{
	switch (hdr->type) {
	case FTNL_MSG_HEARTBEAT:
	case FTNL_MSG_NEW_OBSERVER:
	case FTNL_MSG_LEAVE:
	case FTNL_MSG_HELLO:
	case FTNL_MSG_HELLO_ACK:
		return hdr->payload_len == 0;
	case FTNL_MSG_BCAST:
	case FTNL_MSG_GOSSIP:
	case FTNL_MSG_JOIN:
		return hdr->payload_len > 0;
	case FTNL_MSG_EXPELLED:
		return hdr->payload_len == FTNL_WIRE_EXPELLED_LEN;
	case FTNL_MSG_PROBE_REQ:
	case FTNL_MSG_PROBE_ACK:
		return hdr->payload_len == FTNL_WIRE_PROBE_LEN;
	default:
		return false;
	}
}

/*
 * The datagram comes from the address and port the table gives @from. A
 * member of the other address family (a mixed cluster) has no address of
 * this family in the table: only its port is checked.
 */
static bool ftnl_dgram_source_ok(const struct ftnl_node *from,
				 const struct ftnl_source *src)
{
	if (src->port != from->port)
		return false;
	if (src->family != from->family)
		return true;
	if (src->family == AF_INET)
		return src->addr4 == from->addr4;
	return ipv6_addr_equal(&src->addr6, &from->addr6);
}

/*
 * Every check that needs only the header and where the datagram came from:
 * they run before the MAC, so that traffic that is not a member's costs a
 * few comparisons. Returns the sender's node, or NULL with the datagram
 * counted as dropped.
 */
static const struct ftnl_node *
ftnl_dgram_check_header(struct ftnl_transport *t,
			const struct ftnl_cluster *cluster,
			const struct ftnl_wire_hdr *hdr, unsigned int len,
			const struct ftnl_source *src)
{
	const struct ftnl_node *from;
	enum ftnl_drop_reason why;

	if (hdr->magic != FTNL_WIRE_MAGIC) {
		why = FTNL_DROP_MAGIC;
		goto drop;
	}
	if (hdr->version != FTNL_PROTO_VERSION) {
		why = FTNL_DROP_VERSION;
		goto drop;
	}
	if (FTNL_WIRE_HDR_LEN + hdr->payload_len + FTNL_WIRE_MAC_LEN != len) {
		why = FTNL_DROP_SIZE;
		goto drop;
	}
	if (hdr->cluster_id != cluster->cluster_id) {
		why = FTNL_DROP_CLUSTER;
		goto drop;
	}
	if (!ftnl_dgram_type_ok(hdr)) {
		why = FTNL_DROP_TYPE;
		goto drop;
	}
	from = ftnl_cluster_find(cluster, hdr->sender_id);
	if (!from || hdr->sender_id == cluster->self_id) {
		why = FTNL_DROP_UNKNOWN_SENDER;
		goto drop;
	}
	if (hdr->dest_id != cluster->self_id) {
		why = FTNL_DROP_NOT_FOR_US;
		goto drop;
	}
	if (!ftnl_dgram_source_ok(from, src)) {
		why = FTNL_DROP_SOURCE;
		goto drop;
	}
	return from;
drop:
	ftnl_transport_drop(t, why);
	return NULL;
}

/**
 * ftnl_dgram_rcv - check a datagram that arrived on an ftnl socket
 * @fn: the receiving netns's state
 * @skb: the datagram, data at the UDP header; the caller frees it
 * @src: its source address and port
 *
 * Softirq, under RCU. The header checks come first, then the MAC (with the
 * sender's key - the cluster key or the pair key - then its previous one
 * during its grace), then a replay of what the ring already accepted is
 * dropped; only then does the datagram reach the ring and its lock.
 */
void ftnl_dgram_rcv(struct ftnl_net *fn, struct sk_buff *skb,
		    const struct ftnl_source *src)
{
	u8 mac[FTNL_WIRE_MAC_LEN];
	struct ftnl_cluster *cluster;
	bool prev_key = false;
	const struct ftnl_node *from;
	struct ftnl_wire_hdr hdr;
	struct ftnl_transport *t;
	unsigned int len;
	const u8 *data, *prev;
	u32 pos;

	cluster = rcu_dereference(fn->cluster);
	if (!cluster)
		return;
	t = cluster->transport;

	len = skb->len - sizeof(struct udphdr);
	if (len < FTNL_WIRE_HDR_LEN + FTNL_WIRE_MAC_LEN ||
	    len > FTNL_WIRE_HDR_LEN + FTNL_WIRE_MAX_PAYLOAD + FTNL_WIRE_MAC_LEN ||
	    !pskb_may_pull(skb, sizeof(struct udphdr) + len)) {
		ftnl_transport_drop(t, FTNL_DROP_SIZE);
		return;
	}
	data = skb->data + sizeof(struct udphdr);
	ftnl_wire_hdr_decode(&hdr, data);
	from = ftnl_dgram_check_header(t, cluster, &hdr, len, src);
	if (!from)
		return;
	pos = from - cluster->nodes;
	ftnl_dgram_mac(mac, data, len - FTNL_WIRE_MAC_LEN, from->key);
	if (crypto_memneq(mac, data + len - FTNL_WIRE_MAC_LEN, sizeof(mac))) {
		/* During the update grace, the key it replaced. */
		prev = ftnl_prev_pair_key(rcu_dereference(t->prev_key), pos,
					  ktime_get_ns());
		if (prev) {
			ftnl_dgram_mac(mac, data, len - FTNL_WIRE_MAC_LEN,
				       prev);
			prev_key = !crypto_memneq(mac, data + len -
						  FTNL_WIRE_MAC_LEN,
						  sizeof(mac));
		}
		/* A rolling update's copy under a key not held here. */
		if (!prev_key) {
			ftnl_transport_drop(t, hdr.epoch != cluster->epoch ?
					    FTNL_DROP_OTHER_KEY : FTNL_DROP_MAC);
			return;
		}
	}
	switch (ftnl_transport_replay_seen(t, pos, &hdr)) {
	case FTNL_REPLAY_NEW:
		break;
	case FTNL_REPLAY_EARLY:
		ftnl_transport_drop(t, FTNL_DROP_UNPROVEN);
		return;
	case FTNL_REPLAY_SEEN:
		/* The spare copy of what the current key brought. */
		ftnl_transport_drop(t, prev_key && hdr.epoch == cluster->epoch ?
				    FTNL_DROP_OTHER_KEY : FTNL_DROP_REPLAY);
		return;
	}
	ftnl_ring_rx(cluster->ring, pos, &hdr, data + FTNL_WIRE_HDR_LEN,
		     prev_key);
}
