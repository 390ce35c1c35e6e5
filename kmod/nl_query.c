// SPDX-License-Identifier: GPL-2.0
/*
 * Read-only requests of the "ftnl" family: INFO_GET, CLUSTER_GET,
 * STATS_GET and the NODE_GET and EVENT_GET dumps. They read the
 * configuration under RCU, the ring's live state through its accessors and
 * the event history through events.c.
 */

#include <linux/build_bug.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include "ftnl.h"
#include "netlink.h"
#include "ring/ring.h"
#include "transport.h"
#include "version.h"

int ftnl_nl_info_get(struct sk_buff *skb, struct genl_info *info)
{
	u64 features = FTNL_FEATURE_CLUSTER | FTNL_FEATURE_EVENTS |
		       FTNL_FEATURE_RING | FTNL_FEATURE_BCAST | FTNL_FEATURE_PROC |
		       FTNL_FEATURE_NODE_NAME | FTNL_FEATURE_DOMAINS |
		       FTNL_FEATURE_PAIR_KEYS | FTNL_FEATURE_SIGNED;
	struct ftnl_net *fn = ftnl_net(genl_info_net(info));
	struct sk_buff *msg;
	bool configured;
	void *hdr;

	if (IS_ENABLED(CONFIG_IPV6))
		features |= FTNL_FEATURE_IPV6;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		GENL_SET_ERR_MSG(info, "out of memory for the reply");
		return -ENOMEM;
	}
	hdr = ftnl_reply_put(msg, info);
	if (!hdr)
		goto nospace;

	rcu_read_lock();
	configured = !!ftnl_cluster_get_rcu(genl_info_net(info));
	rcu_read_unlock();

	if (nla_put_u64_64bit(msg, FTNL_A_INCARNATION, READ_ONCE(fn->incarnation),
			      FTNL_A_PAD) ||
	    nla_put_string(msg, FTNL_A_MODULE_VERSION, FTNL_MODULE_VERSION) ||
	    nla_put_u32(msg, FTNL_A_PROTO_VERSION, FTNL_PROTO_VERSION) ||
	    nla_put_u64_64bit(msg, FTNL_A_FEATURES, features, FTNL_A_PAD) ||
	    nla_put_u32(msg, FTNL_A_MAX_NODES, FTNL_MAX_NODES) ||
	    (configured && nla_put_flag(msg, FTNL_A_CONFIGURED)))
		goto nospace;

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

nospace:
	nlmsg_free(msg);
	GENL_SET_ERR_MSG(info, "reply does not fit in a message");
	return -EMSGSIZE;
}

int ftnl_put_cluster_summary(struct sk_buff *msg,
			     const struct ftnl_cluster *cluster)
{
	if (nla_put_flag(msg, FTNL_A_CONFIGURED) ||
	    nla_put_u32(msg, FTNL_A_CLUSTER_ID, cluster->cluster_id) ||
	    nla_put_u32(msg, FTNL_A_SELF_ID, cluster->self_id) ||
	    nla_put_u32(msg, FTNL_A_NODE_COUNT, cluster->node_count))
		return -EMSGSIZE;
	return 0;
}

/*
 * Reply to a request about the configured cluster: @fill puts its
 * attributes, under RCU. -ENOENT when no cluster is configured.
 */
static int ftnl_reply_about_cluster(struct genl_info *info,
				    int (*fill)(struct sk_buff *msg,
						const struct ftnl_cluster *cluster,
						void *arg),
				    void *arg)
{
	const struct ftnl_cluster *cluster;
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg) {
		GENL_SET_ERR_MSG(info, "out of memory for the reply");
		return -ENOMEM;
	}
	hdr = ftnl_reply_put(msg, info);
	if (!hdr) {
		err = -EMSGSIZE;
		goto err_free;
	}

	rcu_read_lock();
	cluster = ftnl_cluster_get_rcu(genl_info_net(info));
	if (!cluster) {
		rcu_read_unlock();
		GENL_SET_ERR_MSG(info, "no cluster is configured in this network namespace");
		err = -ENOENT;
		goto err_free;
	}
	err = fill(msg, cluster, arg);
	rcu_read_unlock();
	if (err) {
		GENL_SET_ERR_MSG(info, "reply does not fit in a message");
		goto err_free;
	}

	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

err_free:
	nlmsg_free(msg);
	return err;
}

static int ftnl_put_cluster_config(struct sk_buff *msg,
				   const struct ftnl_cluster *cluster,
				   void *unused)
{
	u64 left_ns;

	if (ftnl_put_cluster_summary(msg, cluster) ||
	    nla_put_u32(msg, FTNL_A_HB_PERIOD_US, cluster->hb_period_us) ||
	    nla_put_u32(msg, FTNL_A_TIMEOUT_US, cluster->timeout_us) ||
	    nla_put_u32(msg, FTNL_A_GENERATION, cluster->generation) ||
	    nla_put_u64_64bit(msg, FTNL_A_INCARNATION,
			      READ_ONCE(cluster->transport->incarnation), FTNL_A_PAD) ||
	    nla_put_u8(msg, FTNL_A_BCAST_ALGO, cluster->bcast_algo) ||
	    nla_put_u8(msg, FTNL_A_BCAST_FCG_F, cluster->fcg_f) ||
	    nla_put_u32(msg, FTNL_A_BCAST_GOSSIP_T_US, cluster->gossip_end_us) ||
	    nla_put_u8(msg, FTNL_A_REJOIN, cluster->rejoin) ||
	    nla_put_u32(msg, FTNL_A_REJOIN_FLAP_LIMIT, cluster->flap_limit) ||
	    nla_put_u32(msg, FTNL_A_REJOIN_FLAP_WINDOW_S, cluster->flap_window_s) ||
	    nla_put_u8(msg, FTNL_A_FENCE, cluster->fence) ||
	    nla_put_u8(msg, FTNL_A_QUORUM, cluster->quorum))
		return -EMSGSIZE;
	if (nla_put_u32(msg, FTNL_A_EPOCH, cluster->epoch) ||
	    nla_put_u32(msg, FTNL_A_UPDATE_GRACE_S, cluster->update_grace_s) ||
	    (cluster->pair_keys && nla_put_flag(msg, FTNL_A_PAIR_KEYS)) ||
	    (cluster->signs && nla_put_flag(msg, FTNL_A_SIGNED)))
		return -EMSGSIZE;
	if (ftnl_transport_has_prev_key(cluster->transport, ktime_get_ns(),
					&left_ns) &&
	    nla_put_u64_64bit(msg, FTNL_A_PREV_KEY_LEFT_MS,
			      div_u64(left_ns, NSEC_PER_MSEC), FTNL_A_PAD))
		return -EMSGSIZE;
	if (cluster->timeout_min_us &&
	    (nla_put_u32(msg, FTNL_A_TIMEOUT_MIN_US, cluster->timeout_min_us) ||
	     nla_put_u8(msg, FTNL_A_TIMEOUT_TARGET_NINES,
			cluster->timeout_nines)))
		return -EMSGSIZE;
	return 0;
}

int ftnl_nl_cluster_get(struct sk_buff *skb, struct genl_info *info)
{
	return ftnl_reply_about_cluster(info, ftnl_put_cluster_config, NULL);
}

static int ftnl_put_node(struct sk_buff *msg, const struct ftnl_cluster *cluster,
			 u32 pos)
{
	const struct ftnl_node *node = &cluster->nodes[pos];
	struct ftnl_node_view view;
	struct nlattr *nest;

	ftnl_ring_view(cluster->ring, pos, &view);
	nest = nla_nest_start(msg, FTNL_A_NODE);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, FTNL_A_NODE_ID, node->id) ||
	    nla_put_u16(msg, FTNL_A_NODE_PORT, node->port) ||
	    nla_put_u8(msg, FTNL_A_NODE_STATE, view.state) ||
	    nla_put_u64_64bit(msg, FTNL_A_NODE_INCARNATION, view.incarnation,
			      FTNL_A_NODE_PAD) ||
	    (view.emitter && nla_put_flag(msg, FTNL_A_NODE_EMITTER)) ||
	    (view.observer && nla_put_flag(msg, FTNL_A_NODE_OBSERVER)) ||
	    (view.has_hb_age &&
	     nla_put_u64_64bit(msg, FTNL_A_NODE_HB_AGE_US,
			       div_u64(view.hb_age_ns, NSEC_PER_USEC),
			       FTNL_A_NODE_PAD)))
		goto cancel;
	if (node->family == AF_INET) {
		if (nla_put_in_addr(msg, FTNL_A_NODE_ADDR4, node->addr4))
			goto cancel;
	} else if (nla_put_in6_addr(msg, FTNL_A_NODE_ADDR6, &node->addr6)) {
		goto cancel;
	}
	if (node->id == cluster->self_id &&
	    nla_put_flag(msg, FTNL_A_NODE_SELF))
		goto cancel;
	if (node->name && nla_put_string(msg, FTNL_A_NODE_NAME, node->name))
		goto cancel;
	if (node->domain &&
	    nla_put_string(msg, FTNL_A_NODE_DOMAIN, node->domain))
		goto cancel;
	nla_nest_end(msg, nest);
	return 0;

cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

/* cb->args[0]: index of the next node to emit. */
int ftnl_nl_node_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ftnl_net *fn = ftnl_net(sock_net(skb->sk));
	const struct ftnl_cluster *cluster;
	u32 index = cb->args[0];
	void *hdr;

	rcu_read_lock();
	cluster = ftnl_cluster_get_rcu(sock_net(skb->sk));
	/*
	 * A configuration change between two parts marks the dump interrupted,
	 * including a delete that leaves nothing to dump.
	 */
	cb->seq = cluster ? cluster->generation : READ_ONCE(fn->generation);
	if (!cluster)
		goto out;

	for (; index < cluster->node_count; index++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &ftnl_genl_family,
				  NLM_F_MULTI, FTNL_CMD_NODE_GET);
		if (!hdr)
			break;
		genl_dump_check_consistent(cb, hdr);
		if (nla_put_u32(skb, FTNL_A_CLUSTER_ID, cluster->cluster_id) ||
		    nla_put_u32(skb, FTNL_A_GENERATION, cluster->generation) ||
		    ftnl_put_node(skb, cluster, index)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
out:
	rcu_read_unlock();
	cb->args[0] = index;
	return skb->len;
}

/**
 * struct ftnl_event_dump_ctx - where an EVENT_GET dump is, in cb->ctx
 * @after: the sequence number of the last event emitted (or the
 *	request's FTNL_A_EVENT_AFTER_SEQ)
 * @checked: @after was checked against the newest event (in the first
 *	part, whose error reaches the reader with its extack message on
 *	every kernel; 6.1 gives .start no extack)
 */
struct ftnl_event_dump_ctx {
	u64 after;
	bool checked;
};

static_assert(sizeof(struct ftnl_event_dump_ctx) <=
	      sizeof_field(struct netlink_callback, ctx));

/* The family's policy was applied already (with extack) by genetlink. */
int ftnl_nl_event_dump_start(struct netlink_callback *cb)
{
	struct ftnl_event_dump_ctx *ctx = (void *)cb->ctx;
	struct nlattr **tb;
	int err;

	/* FTNL_A_MAX + 1 pointers: too many for a stack frame (checkstack). */
	tb = kcalloc(FTNL_A_MAX + 1, sizeof(*tb), GFP_KERNEL);
	if (!tb) {
		NL_SET_ERR_MSG(cb->extack, "out of memory for the request");
		return -ENOMEM;
	}
	err = nlmsg_parse(cb->nlh, GENL_HDRLEN, tb, FTNL_A_MAX,
			  ftnl_event_get_policy, cb->extack);
	if (!err) {
		ctx->after = tb[FTNL_A_EVENT_AFTER_SEQ] ?
			     nla_get_u64(tb[FTNL_A_EVENT_AFTER_SEQ]) : 0;
		ctx->checked = false;
	}
	kfree(tb);
	return err;
}

/* The history, oldest first, from the event after ctx->after on. */
int ftnl_nl_event_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ftnl_event_dump_ctx *ctx = (void *)cb->ctx;
	struct ftnl_net *fn = ftnl_net(sock_net(skb->sk));
	struct ftnl_event_rec rec;
	void *hdr;

	if (!ctx->checked) {
		ctx->checked = true;
		if (ctx->after > ftnl_event_last_seq(fn)) {
			NL_SET_ERR_MSG(cb->extack,
				       "no event has this sequence number yet: the events were renumbered from 1 since (netns or module recreated)");
			return -EINVAL;
		}
	}

	while (!ftnl_event_history_get(fn, ctx->after, &rec)) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &ftnl_genl_family,
				  NLM_F_MULTI, FTNL_CMD_EVENT_GET);
		if (!hdr)
			break;
		if (nla_put_u8(skb, FTNL_A_EVENT_NTF_CMD, ftnl_event_cmd(&rec)) ||
		    ftnl_put_event(skb, &rec)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		ctx->after = rec.seq;
	}
	return skb->len;
}

static int ftnl_put_counter_nest(struct sk_buff *msg, int type,
				 const u64 *counters, int count, int pad)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(msg, type);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < count; i++)
		if (nla_put_u64_64bit(msg, i + 1, counters[i], pad))
			return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int ftnl_put_bcast_latency(struct sk_buff *msg,
				  const struct ftnl_bcast_stats *st)
{
	if (nla_put_u64_64bit(msg, FTNL_A_STATS_BCAST_LATENCY_LAST_NS,
			      st->latency_last_ns, FTNL_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_BCAST_LATENCY_MAX_NS,
			      st->latency_max_ns, FTNL_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_BCAST_LATENCY_SUM_NS,
			      st->latency_sum_ns, FTNL_A_STATS_PAD))
		return -EMSGSIZE;
	return 0;
}

/* The netns's event counters, which outlive configurations. */
static int ftnl_put_event_stats(struct sk_buff *msg, struct ftnl_net *fn)
{
	if (nla_put_u64_64bit(msg, FTNL_A_STATS_EVENT_SEQ,
			      ftnl_event_last_seq(fn), FTNL_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_EVENTS_QUEUE_OVERFLOW,
			      atomic64_read(&fn->events_queue_overflow),
			      FTNL_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_EVENTS_NOTIFY_FAILED,
			      atomic64_read(&fn->events_notify_failed),
			      FTNL_A_STATS_PAD))
		return -EMSGSIZE;
	return 0;
}

static int ftnl_put_stats(struct sk_buff *msg, const struct ftnl_ring_stats *st,
			  struct ftnl_net *fn)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(msg, FTNL_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = FTNL_A_STATS_HB_SENT; i <= FTNL_A_STATS_EVENTS_LOST; i++)
		if (nla_put_u64_64bit(msg, i, st->counters[i], FTNL_A_STATS_PAD))
			return -EMSGSIZE;
	for (i = FTNL_A_STATS_BCAST_ORIGINATED; i <= FTNL_A_STATS_BCAST_DUPLICATES; i++)
		if (nla_put_u64_64bit(msg, i, st->counters[i], FTNL_A_STATS_PAD))
			return -EMSGSIZE;
	if (ftnl_put_bcast_latency(msg, &st->bcast) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_HB_SKIPPED,
			      st->counters[FTNL_A_STATS_HB_SKIPPED],
			      FTNL_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_EXPELLED_SENT,
			      st->counters[FTNL_A_STATS_EXPELLED_SENT],
			      FTNL_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_EXPELLED_RECV,
			      st->counters[FTNL_A_STATS_EXPELLED_RECV],
			      FTNL_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_STALL_WAITS,
			      st->counters[FTNL_A_STATS_STALL_WAITS],
			      FTNL_A_STATS_PAD))
		return -EMSGSIZE;
	/* From here on every counter is a plain u64, up to the lock waits. */
	for (i = FTNL_A_STATS_PROBE_REQ_SENT; i <= FTNL_A_STATS_HOST_RX_DROPS;
	     i++)
		if (nla_put_u64_64bit(msg, i, st->counters[i], FTNL_A_STATS_PAD))
			return -EMSGSIZE;
	/* Reasons and buckets are numbered from 0, attribute types from 1. */
	if (ftnl_put_counter_nest(msg, FTNL_A_STATS_DROP, st->drops,
				  __FTNL_DROP_MAX, FTNL_DROP_MAX + 2) ||
	    ftnl_put_counter_nest(msg, FTNL_A_STATS_LATENESS, st->lateness,
				  FTNL_LATENESS_BUCKETS, FTNL_LATENESS_BUCKETS + 1) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_LATENESS_MAX_NS,
			      st->lateness_max_ns, FTNL_A_STATS_PAD) ||
	    ftnl_put_counter_nest(msg, FTNL_A_STATS_HB_LOCK_WAIT,
				  st->hb_lock_wait, FTNL_LATENESS_BUCKETS,
				  FTNL_LATENESS_BUCKETS + 1) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_HB_LOCK_WAIT_MAX_NS,
			      st->hb_lock_wait_max_ns, FTNL_A_STATS_PAD) ||
	    ftnl_put_counter_nest(msg, FTNL_A_STATS_HB_START_LATE,
				  st->hb_start_late, FTNL_LATENESS_BUCKETS,
				  FTNL_LATENESS_BUCKETS + 1) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_HB_START_LATE_MAX_NS,
			      st->hb_start_late_max_ns, FTNL_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_HOST_RX_UNREAD,
			      st->counters[FTNL_A_STATS_HOST_RX_UNREAD],
			      FTNL_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_PROBES_DEFERRED,
			      st->counters[FTNL_A_STATS_PROBES_DEFERRED],
			      FTNL_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_PROBE_ASKS_HELD,
			      st->counters[FTNL_A_STATS_PROBE_ASKS_HELD],
			      FTNL_A_STATS_PAD) ||
	    ftnl_put_event_stats(msg, fn))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/* @st is scratch memory: the copy is too large for the stack. */
/**
 * struct ftnl_stats_ctx - what STATS_GET reads
 * @ring: a copy of the ring's counters
 * @fn: the netns, whose event counters outlive configurations
 */
struct ftnl_stats_ctx {
	struct ftnl_ring_stats ring;
	struct ftnl_net *fn;
};

static int ftnl_put_cluster_stats(struct sk_buff *msg,
				  const struct ftnl_cluster *cluster, void *arg)
{
	struct ftnl_stats_ctx *ctx = arg;

	ftnl_ring_read_stats(cluster->ring, &ctx->ring);
	return ftnl_put_stats(msg, &ctx->ring, ctx->fn);
}

int ftnl_nl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	struct ftnl_stats_ctx *ctx;
	int err;

	ctx = kmalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx) {
		GENL_SET_ERR_MSG(info, "out of memory for the statistics");
		return -ENOMEM;
	}
	ctx->fn = ftnl_net(genl_info_net(info));
	err = ftnl_reply_about_cluster(info, ftnl_put_cluster_stats, ctx);
	kfree(ctx);
	return err;
}
