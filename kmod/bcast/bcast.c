// SPDX-License-Identifier: GPL-2.0
/*
 * Reliable broadcast of failure notifications (ring paper, section 2; task
 * T5 of Algorithm 1). The observer that detects a failure starts a
 * broadcast BCASTMSG(dead, i, D) over the alive set A = complement of its D;
 * every receiver forwards it, on its first receipt in each hypercube, to
 * Neighbors(s, D) computed from the message's D, which stays the same for
 * the whole broadcast. On its first receipt of a broadcast a node unions the
 * message's D into its own, publishes an event for each death it did not
 * know (cause "broadcast") and lets the ring re-evaluate its emitter. D
 * carries the incarnation each of its members died in, so that news about
 * a node's previous life never kills the life it came back with.
 * Receipts are told apart by a window of broadcast numbers per origin
 * (window.h), looked up from the payload's fixed header before anything
 * costing O(n) is decoded.
 *
 * Everything here but init, stop and the signing and sending of the
 * broadcasts this node starts (ftnl_bcast_flush()) runs under the ring's
 * lock (env->lock), in softirq or with BHs off.
 */

#include <linux/delay.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "fcg.h"
#include "topology.h"
#include "../transport.h"

/**
 * ftnl_bcast_init - a ring's broadcast state
 * @bcast: zeroed
 * @env: the node as the broadcast layer sees it (copied)
 *
 * Process context. Return: 0 or -ENOMEM (nothing left allocated).
 */
int ftnl_bcast_init(struct ftnl_bcast *bcast, const struct ftnl_bcast_env *env)
{
	const struct ftnl_cluster *cluster = env->cluster;
	u32 npos = cluster->node_count;

	bcast->env = *env;
	bcast->algo = cluster->bcast_algo;
	init_llist_head(&bcast->unsigned_q);
	bcast->txbuf_len = max_t(u32, ftnl_bcast_msg_max_len(npos),
				 FTNL_GOSSIP_PAYLOAD_MAX) +
			   FTNL_BCAST_MAX_SIGS * FTNL_BCAST_SIG_LEN;
	bcast->txbuf = ftnl_counted(kmalloc(bcast->txbuf_len,
					    GFP_KERNEL_ACCOUNT));
	bcast->scratch = ftnl_counted(bitmap_zalloc(npos, GFP_KERNEL_ACCOUNT));
	bcast->windows = ftnl_counted(kvcalloc(npos, sizeof(*bcast->windows),
					       GFP_KERNEL_ACCOUNT));
	if (!bcast->txbuf || !bcast->scratch || !bcast->windows ||
	    ftnl_fcg_init(&bcast->fcg, cluster->fcg_f,
			  cluster->gossip_end_us)) {
		ftnl_bcast_free(bcast);
		return -ENOMEM;
	}
	return 0;
}

/**
 * ftnl_bcast_new_life - this node came back as @incarnation
 * @bcast: the broadcast state (the ring's lock held)
 * @incarnation: the new one
 *
 * Its broadcasts start with the new incarnation; those of the ended life
 * still in progress or waiting (corrected gossip) are dropped: the cluster
 * held that life dead, and what it accused must not come back stamped
 * with the new one.
 */
void ftnl_bcast_new_life(struct ftnl_bcast *bcast, u64 incarnation)
{
	lockdep_assert_held(bcast->env.lock);
	bcast->env.incarnation = incarnation;
	if (bcast->fcg.active)
		memset(bcast->fcg.active, 0,
		       FTNL_FCG_ACTIVE * sizeof(*bcast->fcg.active));
	bcast->fcg.own = 0;
	bcast->fcg.queue_len = 0;
}

/* No timer of @bcast runs after this returns. Process context. */
void ftnl_bcast_stop(struct ftnl_bcast *bcast)
{
	ftnl_fcg_stop(&bcast->fcg);
}

/* May run in softirq (an RCU callback): kvfree() defers what must wait. */
void ftnl_bcast_free(struct ftnl_bcast *bcast)
{
	struct ftnl_bcast_unsigned *u, *next;

	llist_for_each_entry_safe(u, next, llist_del_all(&bcast->unsigned_q),
				  node) {
		ftnl_uncount(u);
		kfree(u);
	}
	ftnl_uncount(bcast->txbuf);
	kfree(bcast->txbuf);
	bcast->txbuf = NULL;
	ftnl_uncount(bcast->scratch);
	bitmap_free(bcast->scratch);
	bcast->scratch = NULL;
	ftnl_uncount(bcast->windows);
	kvfree(bcast->windows);
	bcast->windows = NULL;
	ftnl_fcg_free(&bcast->fcg);
}

/* The window of the origin @origin_id, NULL if it is not a member. */
struct ftnl_bcast_window *ftnl_bcast_window_of(struct ftnl_bcast *bcast,
					       u32 origin_id)
{
	const struct ftnl_cluster *cluster = bcast->env.cluster;
	const struct ftnl_node *origin = ftnl_cluster_find(cluster, origin_id);

	return origin ? &bcast->windows[origin - cluster->nodes] : NULL;
}

void ftnl_bcast_note_latency(struct ftnl_bcast *bcast, u64 origin_time_ns)
{
	struct ftnl_bcast_stats *st = &bcast->stats;
	s64 latency = ktime_get_real_ns() - origin_time_ns;

	if (latency < 0)
		return;
	st->latency_last_ns = latency;
	st->latency_sum_ns += latency;
	st->latency_max_ns = max_t(u64, st->latency_max_ns, latency);
}

/* Stats of the node's deliveries; under the ring's lock. */
void ftnl_bcast_get_stats(struct ftnl_bcast *bcast,
			  struct ftnl_bcast_stats *stats)
{
	lockdep_assert_held(bcast->env.lock);
	*stats = bcast->stats;
}

/**
 * ftnl_bcast_add_counters - add the layer's counters to a stats dump's
 * @bcast: the broadcast layer
 * @sums: FTNL_BCAST_NR_COUNTERS sums, by enum ftnl_stats_attr
 *
 * Any context; counters are read one by one, not as a snapshot.
 */
void ftnl_bcast_add_counters(const struct ftnl_bcast *bcast, u64 *sums)
{
	int i;

	for (i = 0; i < FTNL_BCAST_NR_COUNTERS; i++)
		sums[i] += atomic64_read(&bcast->counters[i]);
}

/*
 * Neighbors(s, D) of the node labeled @label, which got the broadcast from
 * @from_label (@label itself at the source), in @cube: their positions go
 * to @pos (room for FTNL_BCAST_MAX_FANOUT), this node and @from_label
 * left out. Return: how many.
 */
static u32 ftnl_bcast_neighbors(struct ftnl_bcast *bcast,
				const struct ftnl_bcast_view *view, u8 algo,
				u8 cube, u32 label, u32 from_label, u32 *pos)
{
	u32 *to = bcast->to, count, i, n = 0;

	if (algo == FTNL_BCAST_BMG)
		count = ftnl_bmg_forward(view->n, label, to);
	else
		count = ftnl_hcube_forward(view->n, cube, label, from_label, to);
	for (i = 0; i < count; i++) {
		u32 p = ftnl_bcast_pos(view, to[i]);

		if (p != bcast->env.self && to[i] != from_label)
			pos[n++] = p;
	}
	return n;
}

/* Send a copy of a BCAST payload to the node at @pos; any context. */
static void ftnl_bcast_send_to(struct ftnl_bcast *bcast, u32 pos,
			       const u8 *payload, u32 len, int counter)
{
	if (ftnl_transport_send(bcast->env.transport, pos, FTNL_MSG_BCAST,
				payload, len)) {
		ftnl_bcast_count(bcast, FTNL_A_STATS_TX_ERRORS);
		return;
	}
	ftnl_bcast_count(bcast, FTNL_A_STATS_BCAST_SENT);
	if (counter)
		ftnl_bcast_count(bcast, counter);
}

/*
 * Send @payload to Neighbors(s, D) of the node labeled @label, which got
 * it from @from_label (@label itself at the source), in @cube.
 */
static void ftnl_bcast_send_neighbors(struct ftnl_bcast *bcast,
				      const struct ftnl_bcast_view *view,
				      u8 algo, u8 cube, u32 label,
				      u32 from_label, const u8 *payload,
				      u32 len, int counter)
{
	u32 *pos = bcast->to_pos, count, i;

	count = ftnl_bcast_neighbors(bcast, view, algo, cube, label,
				     from_label, pos);
	for (i = 0; i < count; i++)
		ftnl_bcast_send_to(bcast, pos[i], payload, len, counter);
}

static unsigned int test_sign_delay_ms;
module_param(test_sign_delay_ms, uint, 0600);
MODULE_PARM_DESC(test_sign_delay_ms,
		 "test only: signing a broadcast this node starts takes N ms more (0 to 1000; busy-waits)");

/* How many signatures a broadcast this node starts at @now carries. */
static u32 ftnl_bcast_sigs_due(const struct ftnl_bcast *bcast, u64 now)
{
	const struct ftnl_bcast_env *env = &bcast->env;

	return (env->cluster->signs ? 1 : 0) +
	       (ftnl_transport_prev_signing(env->transport, now) ? 1 : 0);
}

/*
 * Sign @buf, @len bytes, flagged here, with @n signatures at @sigs: by
 * this node's key when its cluster signs, and during a key change's grace
 * by its previous key as well (for the nodes not updated yet). Without the
 * ring's lock that grace may have ended since @n was counted (the ring's
 * timer ends it): then the payload carries one fewer. Return: how many.
 */
static u32 ftnl_bcast_sign_with(struct ftnl_bcast *bcast,
				struct ftnl_ed25519_ctx *ctx, u8 type, u8 *buf,
				u32 len, u8 *sigs, u32 n)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	const struct ftnl_cluster *cluster = env->cluster;
	unsigned int delay = READ_ONCE(test_sign_delay_ms);

	if (!n)
		return 0;
	ftnl_bcast_sig_flag(type, buf, n);
	if (n > (cluster->signs ? 1U : 0U) &&
	    ftnl_transport_prev_sign(env->transport, ctx, ktime_get_ns(), type,
				     buf, len,
				     sigs + (n - 1) * FTNL_BCAST_SIG_LEN)) {
		n--;
		ftnl_bcast_sig_flag(type, buf, n);
	}
	if (cluster->signs)
		ftnl_bcast_sig_make(ctx, type, buf, len, &cluster->sign_key,
				    sigs);
	if (unlikely(delay))
		mdelay(min(delay, 1000U));
	return n;
}

/**
 * ftnl_bcast_sign - the origin's signatures of a payload this node wrote,
 *	under the ring's lock
 * @bcast: the broadcast state, the ring locked
 * @type: FTNL_MSG_BCAST or FTNL_MSG_GOSSIP
 * @buf: the payload, flagged here as signed
 * @len: its length
 * @sigs: where the signatures go, room for FTNL_BCAST_MAX_SIGS (a BCAST's
 *	right after the payload)
 *
 * For a broadcast that had no memory to be signed after the lock
 * (ftnl_bcast_originate(), ftnl_bcast_defer_gossip()): corrected
 * gossip's root signs at its first message.
 *
 * Return: how many, 0 when the cluster does not sign.
 */
u32 ftnl_bcast_sign(struct ftnl_bcast *bcast, u8 type, u8 *buf, u32 len,
		    u8 *sigs)
{
	lockdep_assert_held(bcast->env.lock);
	return ftnl_bcast_sign_with(bcast, &bcast->sig_ctx, type, buf, len,
				    sigs,
				    ftnl_bcast_sigs_due(bcast, ktime_get_ns()));
}

/**
 * ftnl_bcast_verify_origin - is a received broadcast its origin's?
 * @cluster: the receiving node's configuration
 * @t: its transport (an update's previous keys)
 * @ctx: working memory, the caller's alone
 * @type: FTNL_MSG_BCAST or FTNL_MSG_GOSSIP
 * @payload: the payload
 * @len: its length
 *
 * A cluster that signs acts only on a broadcast one of whose signatures
 * verifies under the origin's public key (or, during a key change's
 * grace, its previous one); an unsigned one only from an origin that did
 * not sign before a change to signing and is not heard updated yet. A
 * cluster that does not sign takes signatures off unchecked.
 *
 * Without the ring's lock (under RCU, which keeps @cluster): a
 * verification costs a fraction of a millisecond, milliseconds in an
 * emulated guest, and the heartbeat timer takes that lock
 * (ftnl_bcast_check_origin() sends the datagram here).
 *
 * Return: 0, -EINVAL if malformed, or -EKEYREJECTED (drop it).
 */
int ftnl_bcast_verify_origin(const struct ftnl_cluster *cluster,
			     struct ftnl_transport *t,
			     struct ftnl_ed25519_ctx *ctx, u8 type,
			     const u8 *payload, u32 len)
{
	u8 prev_public[FTNL_SIGN_KEY_LEN];
	const struct ftnl_node *origin;
	u64 now = ktime_get_ns();
	struct ftnl_bcast_id id;
	const u8 *sig;
	bool has_prev;
	u32 body_len;
	int n, i;

	if (ftnl_bcast_peek_id(&id, payload, len))
		return -EINVAL;
	origin = ftnl_cluster_find(cluster, id.origin_id);
	n = ftnl_bcast_sig_find(type, payload, len, &body_len);
	if (n < 0 || !origin)
		return -EINVAL;
	if (!cluster->signs)
		return 0;
	if (!n)
		return ftnl_transport_prev_unsigned(t, origin - cluster->nodes,
						    now) ? 0 : -EKEYREJECTED;
	has_prev = ftnl_transport_prev_sign_public(t, origin - cluster->nodes,
						   now, prev_public);
	for (i = 0; i < n; i++) {
		sig = payload + body_len + i * FTNL_BCAST_SIG_LEN;
		if (ftnl_bcast_sig_ok(ctx, type, payload, body_len, sig,
				      origin->sign_public) ||
		    (has_prev && ftnl_bcast_sig_ok(ctx, type, payload,
						   body_len, sig,
						   prev_public)))
			return 0;
	}
	return -EKEYREJECTED;
}

/*
 * ftnl_bcast_check_origin - may a received broadcast be acted on now?
 * @bcast: the broadcast state, the ring locked
 * @type: FTNL_MSG_BCAST or FTNL_MSG_GOSSIP
 * @origin_id: the origin the payload names
 * @payload: the payload
 * @len: its length
 * @body_len: set to its length without signatures
 * @verified: ftnl_bcast_verify_origin() took it, unlocked
 *
 * Under the ring's lock only what costs nothing: a signed broadcast not
 * verified yet goes back to the caller, which verifies it after releasing
 * the lock and hands it in again.
 *
 * Return: 0, -EINVAL if malformed, -EKEYREJECTED (drop it), or -EAGAIN
 * (verify it first); nothing was changed then.
 */
int ftnl_bcast_check_origin(struct ftnl_bcast *bcast, u8 type, u32 origin_id,
			    const u8 *payload, u32 len, u32 *body_len,
			    bool verified)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	const struct ftnl_cluster *cluster = env->cluster;
	const struct ftnl_node *origin = ftnl_cluster_find(cluster, origin_id);
	int n;

	n = ftnl_bcast_sig_find(type, payload, len, body_len);
	if (n < 0 || !origin)
		return -EINVAL;
	if (!cluster->signs || verified)
		return 0;
	if (!n)
		return ftnl_transport_prev_unsigned(env->transport,
						    origin - cluster->nodes,
						    ktime_get_ns()) ?
		       0 : -EKEYREJECTED;
	return -EAGAIN;
}

/*
 * An entry of @bcast->unsigned_q for the @len bytes of @bcast->txbuf, with
 * room for @nsigs signatures; NULL if there is no memory for it.
 */
static struct ftnl_bcast_unsigned *
ftnl_bcast_unsigned_new(struct ftnl_bcast *bcast, u8 type, u64 incarnation,
			u64 seq, u32 len, u32 nsigs)
{
	struct ftnl_bcast_unsigned *u;

	u = ftnl_counted(kmalloc(struct_size(u, payload, len +
					     nsigs * FTNL_BCAST_SIG_LEN),
				 GFP_ATOMIC));
	if (!u)
		return NULL;
	u->type = type;
	u->incarnation = incarnation;
	u->seq = seq;
	u->len = len;
	u->nsigs = nsigs;
	u->ncopies = 0;
	u->cube1 = 0;
	memcpy(u->payload, bcast->txbuf, len);
	return u;
}

/*
 * Queue the broadcast in @bcast->txbuf, @len bytes, for its @nsigs
 * signatures and its sending once the ring's lock is released: its
 * destinations are the source's Neighbors(s, D) of this moment. Return:
 * false when there was no memory for it (the caller signs it now).
 */
static bool ftnl_bcast_defer(struct ftnl_bcast *bcast,
			     const struct ftnl_bcast_view *view, u32 len,
			     u32 nsigs)
{
	struct ftnl_bcast_unsigned *u;

	u = ftnl_bcast_unsigned_new(bcast, FTNL_MSG_BCAST,
				    bcast->env.transport->incarnation, 0, len,
				    nsigs);
	if (!u)
		return false;
	u->ncopies = ftnl_bcast_neighbors(bcast, view, bcast->algo, 0, 0, 0,
					  u->to);
	u->cube1 = u->ncopies;
	if (bcast->algo == FTNL_BCAST_HYPERCUBE)
		u->ncopies += ftnl_bcast_neighbors(bcast, view, bcast->algo,
						   1, 0, 0, u->to + u->cube1);
	llist_add(&u->node, &bcast->unsigned_q);
	return true;
}

/**
 * ftnl_bcast_defer_gossip - have a corrected gossip this node starts
 *	signed once the ring's lock is released
 * @bcast: the broadcast state, the ring locked
 * @wire: the broadcast (what its origin writes in every message)
 *
 * Its slot waits, sending nothing, until ftnl_fcg_signed() hands it the
 * signatures and starts it.
 *
 * Return: it will be (false: the cluster does not sign, or there was no
 * memory for it; the caller starts it and signs at its first message).
 */
bool ftnl_bcast_defer_gossip(struct ftnl_bcast *bcast,
			     const struct ftnl_gossip_wire *wire)
{
	static const struct ftnl_gossip_msg first;
	struct ftnl_bcast_unsigned *u;
	u32 nsigs, len;

	lockdep_assert_held(bcast->env.lock);
	nsigs = ftnl_bcast_sigs_due(bcast, ktime_get_ns());
	if (!nsigs)
		return false;
	/* The forwarder's part is not signed: any message will do. */
	len = ftnl_gossip_payload_encode(bcast->txbuf, bcast->txbuf_len -
					 FTNL_BCAST_MAX_SIGS *
					 FTNL_BCAST_SIG_LEN, wire, &first);
	if (WARN_ON_ONCE(!len))
		return false;
	u = ftnl_bcast_unsigned_new(bcast, FTNL_MSG_GOSSIP,
				    wire->origin_incarnation, wire->seq, len,
				    nsigs);
	if (!u)
		return false;
	llist_add(&u->node, &bcast->unsigned_q);
	return true;
}

/* Sign and send, or hand to its slot, what @bcast->unsigned_q holds. */
static void ftnl_bcast_sign_queued(struct ftnl_bcast *bcast,
				   struct ftnl_ed25519_ctx *ctx)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	struct ftnl_bcast_unsigned *u, *next;
	struct llist_node *list;
	u32 n, i;

	list = llist_reverse_order(llist_del_all(&bcast->unsigned_q));
	llist_for_each_entry_safe(u, next, list, node) {
		n = ftnl_bcast_sign_with(bcast, ctx, u->type, u->payload,
					 u->len, u->payload + u->len,
					 u->nsigs);
		if (u->type == FTNL_MSG_GOSSIP) {
			spin_lock(env->lock);
			ftnl_fcg_signed(bcast, u->incarnation, u->seq,
					u->payload + u->len, n);
			spin_unlock(env->lock);
		} else if (u->incarnation ==
			   READ_ONCE(env->transport->incarnation)) {
			for (i = 0; i < u->ncopies; i++) {
				if (i == u->cube1)
					ftnl_bcast_msg_set_cube(u->payload, 1);
				ftnl_bcast_send_to(bcast, u->to[i], u->payload,
						   u->len + n *
						   FTNL_BCAST_SIG_LEN, 0);
			}
		}
		ftnl_uncount(u);
		kfree(u);
	}
}

/**
 * ftnl_bcast_flush - send what a section of the ring's lock built
 * @bcast: the broadcast layer; the lock released
 *
 * What the section built leaves first (a heartbeat before all); then the
 * broadcasts it started are signed, in this CPU's working memory with BHs
 * disabled, and sent (a hypercube's or BMG's copies) or started (a
 * corrected gossip, under the lock again). A broadcast started in a life
 * this node has since left is not sent: the cluster held that life dead.
 * Any context; several callers may flush at once, each taking its own
 * entries.
 */
void ftnl_bcast_flush(struct ftnl_bcast *bcast)
{
	struct ftnl_transport *t = bcast->env.transport;

	ftnl_transport_flush(t);
	if (llist_empty(&bcast->unsigned_q))
		return;
	local_bh_disable();
	ftnl_bcast_sign_queued(bcast, this_cpu_ptr(bcast->env.cpu_ctx));
	local_bh_enable();
	ftnl_transport_flush(t);
}

/**
 * ftnl_bcast_originate - start a broadcast of @deaths over this node's D
 * @bcast: the broadcast state, the ring locked
 * @deaths: a node's failure this node found (task T3, line 24; the node
 *	is in D already), or registered processes' exits
 * @n: their number, 1..FTNL_BCAST_MAX_DEATHS; one broadcast carries them
 *	all (FCG: they join the queue of deaths waiting for a broadcast,
 *	which starts as soon as this node runs fewer than
 *	FTNL_FCG_OWN_ACTIVE, with every death waiting, up to
 *	FTNL_BCAST_MAX_DEATHS)
 *
 * Return: the number of broadcasts started.
 */
u32 ftnl_bcast_originate(struct ftnl_bcast *bcast,
			 const struct ftnl_bcast_death *deaths, u32 n)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	const struct ftnl_cluster *cluster = env->cluster;
	const struct ftnl_bcast_dead_incs incs = {
		.of = env->ops->dead_incarnation,
		.ctx = env->ctx,
	};
	struct ftnl_bcast_msg *msg = &bcast->tx_msg;
	struct ftnl_bcast_window *own;
	struct ftnl_bcast_view view;
	u32 len, nsigs;

	lockdep_assert_held(env->lock);
	if (WARN_ON_ONCE(!n || n > FTNL_BCAST_MAX_DEATHS))
		return 0;
	if (bcast->algo == FTNL_BCAST_FCG)
		return ftnl_fcg_originate(bcast, deaths, n);
	/* Field by field: no temporary of the message's size on the stack. */
	msg->overlay = bcast->algo;
	msg->cube = 0;
	msg->origin_id = cluster->self_id;
	msg->origin_incarnation = env->incarnation;
	msg->seq = ++env->transport->bcast_seq;
	msg->origin_time_ns = ktime_get_real_ns();
	msg->npos = cluster->node_count;
	msg->ndeaths = n;
	memcpy(msg->deaths, deaths, n * sizeof(*deaths));
	len = ftnl_bcast_msg_encode(bcast->txbuf, bcast->txbuf_len -
				    FTNL_BCAST_MAX_SIGS * FTNL_BCAST_SIG_LEN,
				    msg, env->dead, &incs);
	if (WARN_ON_ONCE(!len))
		return 0;
	ftnl_bcast_count(bcast, FTNL_A_STATS_BCAST_ORIGINATED);
	/* Copies coming back are duplicates, never forwarded again. */
	own = &bcast->windows[env->self];
	ftnl_bcast_window_mark(own, msg->origin_incarnation, msg->seq);
	ftnl_bcast_window_forward_once(own, msg->origin_incarnation, msg->seq, 0);
	ftnl_bcast_window_forward_once(own, msg->origin_incarnation, msg->seq, 1);

	ftnl_bcast_view_init(&view, env->dead, cluster->node_count, env->self);
	if (view.n < 2)
		return 1;
	nsigs = ftnl_bcast_sigs_due(bcast, ktime_get_ns());
	if (nsigs && ftnl_bcast_defer(bcast, &view, len, nsigs))
		return 1;
	len += ftnl_bcast_sign_with(bcast, &bcast->sig_ctx, FTNL_MSG_BCAST,
				    bcast->txbuf, len, bcast->txbuf + len,
				    nsigs) * FTNL_BCAST_SIG_LEN;
	ftnl_bcast_send_neighbors(bcast, &view, bcast->algo, 0, 0, 0,
				  bcast->txbuf, len, 0);
	if (bcast->algo == FTNL_BCAST_HYPERCUBE) {
		ftnl_bcast_msg_set_cube(bcast->txbuf, 1);
		ftnl_bcast_send_neighbors(bcast, &view, bcast->algo, 1, 0, 0,
					  bcast->txbuf, len, 0);
	}
	return 1;
}

/**
 * ftnl_bcast_welcome - tell a node this one just admitted what it missed
 * @bcast: the broadcast state, the ring locked
 * @to: its position
 * @join: its JOIN (the node, its new incarnation, this node as observer)
 *
 * A node that comes back knows nothing of D. A FTNL_MSG_JOIN datagram
 * carries its JOIN, the JOINs of up to 31 live nodes known here to have
 * come back, and this node's D with incarnations, in the BCAST payload
 * format; it is never forwarded.
 *
 * Return: 0, or a negative errno (the datagram was not sent).
 */
int ftnl_bcast_welcome(struct ftnl_bcast *bcast, u32 to,
		       const struct ftnl_bcast_death *join)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	const struct ftnl_cluster *cluster = env->cluster;
	const struct ftnl_bcast_dead_incs incs = {
		.of = env->ops->dead_incarnation,
		.ctx = env->ctx,
	};
	struct ftnl_bcast_msg *msg = &bcast->tx_msg;
	u32 len;
	int err;

	lockdep_assert_held(env->lock);
	/* Field by field, in the ring's memory: nothing large on the stack. */
	memset(msg, 0, sizeof(*msg));
	msg->overlay = FTNL_BCAST_HYPERCUBE;
	msg->origin_id = cluster->self_id;
	msg->origin_incarnation = env->incarnation;
	msg->origin_time_ns = ktime_get_real_ns();
	msg->npos = cluster->node_count;
	msg->ndeaths = 1;
	msg->deaths[0] = *join;
	msg->ndeaths += env->ops->rejoined(env->ctx, &msg->deaths[1],
					   FTNL_BCAST_MAX_DEATHS - 1);
	len = ftnl_bcast_msg_encode(bcast->txbuf, bcast->txbuf_len, msg,
				    env->dead, &incs);
	if (WARN_ON_ONCE(!len))
		return -EINVAL;
	err = ftnl_transport_send(env->transport, to, FTNL_MSG_JOIN,
				  bcast->txbuf, len);
	/*
	 * A welcome is no broadcast datagram: BCAST_SENT counts only those
	 * (BCAST, GOSSIP), which a capture of the broadcast can account for.
	 */
	if (err)
		ftnl_bcast_count(bcast, FTNL_A_STATS_TX_ERRORS);
	return err;
}

/*
 * A welcome from the node at @from: its JOIN names this node's own
 * incarnation (an earlier life's is a replay) and it comes from the member
 * that admitted it (or first heard it). Learn the nodes it knows came
 * back (this node may have missed their JOIN, and learned a late death of
 * their previous life instead), then its D.
 */
static int ftnl_bcast_rx_welcome(struct ftnl_bcast *bcast, u32 from,
				 const u8 *payload, u32 len)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	const struct ftnl_cluster *cluster = env->cluster;
	struct ftnl_bcast_members members = ftnl_bcast_members(cluster);
	const struct ftnl_bcast_death *join;
	ktime_t now = ktime_get();
	struct ftnl_bcast_msg *msg = &bcast->msg;	/* off the stack */
	u32 pos, k;

	if (ftnl_bcast_msg_decode(msg, bcast->scratch, cluster->node_count,
				  &members, payload, len) ||
	    msg->deaths[0].state != FTNL_BCAST_JOIN)
		return -EINVAL;
	for (k = 1; k < msg->ndeaths; k++)
		if (msg->deaths[k].state != FTNL_BCAST_JOIN ||
		    msg->deaths[k].node_id == cluster->self_id)
			return -EINVAL;
	join = &msg->deaths[0];
	if (join->node_id != cluster->self_id ||
	    msg->origin_id != cluster->nodes[from].id ||
	    join->observer_id != msg->origin_id ||
	    ftnl_bit_test(bcast->scratch, env->self))
		return -EINVAL;
	if (!env->ops->welcome(env->ctx, join->incarnation, now))
		return 0;
	for (k = 1; k < msg->ndeaths; k++) {
		pos = ftnl_cluster_find(cluster, msg->deaths[k].node_id) -
		      cluster->nodes;
		env->ops->join_learned(env->ctx, pos, msg->deaths[k].incarnation,
				       msg->deaths[k].flags & FTNL_BCAST_RENAMED,
				       msg->origin_id, now);
	}
	for (pos = 0, k = 0; pos < cluster->node_count; pos++)
		if (ftnl_bit_test(bcast->scratch, pos))
			env->ops->failure_learned(env->ctx, pos,
						  FTNL_NODE_STATE_DEAD,
						  ftnl_bcast_msg_dead_inc(msg, k++),
						  msg->origin_id,
						  msg->origin_time_ns, now);
	return 0;
}

static bool ftnl_bcast_is_member(const void *cluster, u32 id)
{
	return ftnl_cluster_find(cluster, id);
}

/* The table received payloads are decoded against (message.h). */
struct ftnl_bcast_members ftnl_bcast_members(const struct ftnl_cluster *cluster)
{
	return (struct ftnl_bcast_members){
		.is_member = ftnl_bcast_is_member,
		.ctx = cluster,
	};
}

/*
 * The decoder checked the ids and deaths; an origin that D itself counts
 * dead takes no part in a broadcast.
 */
static bool ftnl_bcast_msg_valid(struct ftnl_bcast *bcast,
				 const struct ftnl_bcast_msg *msg,
				 u32 *origin_pos)
{
	const struct ftnl_cluster *cluster = bcast->env.cluster;

	*origin_pos = ftnl_cluster_find(cluster, msg->origin_id) - cluster->nodes;
	return !ftnl_bit_test(bcast->scratch, *origin_pos);
}

void ftnl_bcast_publish_proc(struct ftnl_bcast *bcast,
			     const struct ftnl_bcast_death *death)
{
	const struct ftnl_event_what what = {
		.proc = true,
		.job = death->job,
		.rank = death->rank,
		.owner_uid = death->owner_uid,
	};

	ftnl_event_publish(bcast->env.fn, bcast->env.cluster,
			   FTNL_CAUSE_BROADCAST, death->node_id, death->node_id,
			   &what);
}

/* One entry of a broadcast, checked by the decoder: act on it. */
void ftnl_bcast_deliver_entry(struct ftnl_bcast *bcast,
			      const struct ftnl_bcast_death *death,
			      u64 origin_ns, ktime_t now)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	const struct ftnl_cluster *cluster = env->cluster;
	u32 pos;

	if (death->state == FTNL_BCAST_PROC_EXIT) {
		ftnl_bcast_publish_proc(bcast, death);
		return;
	}
	pos = ftnl_cluster_find(cluster, death->node_id) - cluster->nodes;
	if (death->state == FTNL_BCAST_JOIN)
		env->ops->join_learned(env->ctx, pos, death->incarnation,
				       death->flags & FTNL_BCAST_RENAMED,
				       death->observer_id, now);
	else
		env->ops->failure_learned(env->ctx, pos, death->state,
					  death->incarnation,
					  death->observer_id, origin_ns, now);
}

/* First receipt: learn the deaths and the message's D (task T5, line 33). */
static void ftnl_bcast_deliver(struct ftnl_bcast *bcast,
			       const struct ftnl_bcast_msg *msg, ktime_t now)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	const struct ftnl_cluster *cluster = env->cluster;
	u32 i, pos, k;

	ftnl_bcast_count(bcast, FTNL_A_STATS_BCAST_DELIVERED);
	ftnl_bcast_note_latency(bcast, msg->origin_time_ns);

	for (i = 0; i < msg->ndeaths; i++)
		ftnl_bcast_deliver_entry(bcast, &msg->deaths[i],
					 msg->origin_time_ns, now);
	/* D, with the incarnation each member died in when the message says. */
	for (pos = 0, k = 0; pos < cluster->node_count; pos++)
		if (ftnl_bit_test(bcast->scratch, pos))
			env->ops->failure_learned(env->ctx, pos,
						  FTNL_NODE_STATE_DEAD,
						  ftnl_bcast_msg_dead_inc(msg, k++),
						  msg->origin_id,
						  msg->origin_time_ns, now);
}

/*
 * A BCAST payload (hypercube or BMG). A copy of a broadcast already
 * delivered and forwarded in its cube, or older than its origin's window,
 * is dropped from the fixed header alone: a burst of copies costs O(1)
 * each, not the O(n) of decoding D.
 */
static int ftnl_bcast_rx_msg(struct ftnl_bcast *bcast, u32 from,
			     const u8 *payload, u32 len, bool verified)
{
	const struct ftnl_bcast_env *env = &bcast->env;
	const struct ftnl_cluster *cluster = env->cluster;
	struct ftnl_bcast_members members = ftnl_bcast_members(cluster);
	struct ftnl_bcast_msg *msg = &bcast->msg;
	enum ftnl_bcast_window_verdict verdict;
	u32 origin_pos, label, from_label;
	struct ftnl_bcast_window *w;
	struct ftnl_bcast_view view;
	struct ftnl_bcast_id id;
	ktime_t now = ktime_get();
	u32 body_len;
	int err;

	if (ftnl_bcast_peek_id(&id, payload, len))
		return -EINVAL;
	w = ftnl_bcast_window_of(bcast, id.origin_id);
	if (!w)
		return -EINVAL;
	verdict = ftnl_bcast_window_check(w, id.origin_incarnation, id.seq);
	if (verdict == FTNL_WINDOW_OLD ||
	    (verdict == FTNL_WINDOW_SEEN &&
	     ftnl_bcast_window_forwarded(w, id.origin_incarnation, id.seq,
					 id.cube))) {
		ftnl_bcast_count(bcast, FTNL_A_STATS_BCAST_DUPLICATES);
		return 0;
	}

	/* The origin's, before D is decoded. */
	err = ftnl_bcast_check_origin(bcast, FTNL_MSG_BCAST, id.origin_id,
				      payload, len, &body_len, verified);
	if (err)
		return err;
	if (ftnl_bcast_msg_decode(msg, bcast->scratch, cluster->node_count,
				  &members, payload, body_len) ||
	    !ftnl_bcast_msg_valid(bcast, msg, &origin_pos))
		return -EINVAL;

	if (verdict == FTNL_WINDOW_NEW) {
		ftnl_bcast_window_mark(w, msg->origin_incarnation, msg->seq);
		ftnl_bcast_deliver(bcast, msg, now);
	} else {
		ftnl_bcast_count(bcast, FTNL_A_STATS_BCAST_DUPLICATES);
	}

	/* Forward once per cube; a node in the message's D takes no part. */
	if (!ftnl_bcast_window_forward_once(w, msg->origin_incarnation,
					    msg->seq, msg->cube))
		return 0;
	if (ftnl_bit_test(bcast->scratch, env->self))
		return 0;
	ftnl_bcast_view_init(&view, bcast->scratch, cluster->node_count,
			     origin_pos);
	label = ftnl_bcast_label(&view, env->self);
	from_label = ftnl_bit_test(bcast->scratch, from) ? label :
			ftnl_bcast_label(&view, from);
	ftnl_bcast_send_neighbors(bcast, &view, msg->overlay, msg->cube, label,
				  from_label, payload, len,
				  FTNL_A_STATS_BCAST_FORWARDED);
	return 0;
}

/**
 * ftnl_bcast_rx - a broadcast datagram from the node at @from, authentic
 * @bcast: the broadcast state, the ring locked
 * @from: the sender's position (the forwarder, not the origin)
 * @type: FTNL_MSG_BCAST, FTNL_MSG_GOSSIP (corrected gossip) or
 *	FTNL_MSG_JOIN (a welcome, ftnl_bcast_welcome())
 * @payload: the broadcast payload
 * @len: its length
 * @verified: ftnl_bcast_verify_origin() took it (without the lock)
 *
 * Return: 0, -EINVAL if the payload is malformed or inconsistent with
 * this node's table, -EKEYREJECTED if it is not its origin's, or -EAGAIN
 * if it is a signed broadcast to act on, not @verified: the caller
 * verifies it with ftnl_bcast_verify_origin() once it released the lock,
 * and hands it in again (ftnl_bcast_check_origin()); nothing was changed
 * then.
 */
int ftnl_bcast_rx(struct ftnl_bcast *bcast, u32 from, u8 type,
		  const u8 *payload, u32 len, bool verified)
{
	lockdep_assert_held(bcast->env.lock);
	if (type == FTNL_MSG_GOSSIP)
		return ftnl_fcg_rx(bcast, from, payload, len, verified);
	if (type == FTNL_MSG_JOIN)
		return ftnl_bcast_rx_welcome(bcast, from, payload, len);
	return ftnl_bcast_rx_msg(bcast, from, payload, len, verified);
}
