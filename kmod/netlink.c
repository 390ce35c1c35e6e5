// SPDX-License-Identifier: GPL-2.0
/*
 * The "ftnl" generic netlink family: configuration, introspection and the
 * "events" multicast group. The contract is uapi/linux/ftnl.h.
 */

#include <linux/ipv6.h>
#include <linux/stringify.h>
#include <linux/mm.h>
#include <net/genetlink.h>
#include <net/ipv6.h>

#include "ftnl.h"
#include "ring/ring.h"
#include "version.h"

enum ftnl_mcgrp {
	FTNL_MCGRP_EVENTS_IDX,
};

/* Not const: 6.1's nla_policy points to a mutable range (6.12's is const). */
static struct netlink_range_validation ftnl_hb_period_range = {
	.min = FTNL_HB_PERIOD_MIN_US,
	.max = FTNL_HB_PERIOD_MAX_US,
};

/* d > h is checked against the request's h; this is the absolute range. */
static struct netlink_range_validation ftnl_timeout_range = {
	.min = FTNL_HB_PERIOD_MIN_US + 1,
	.max = FTNL_TIMEOUT_MAX_US,
};

/* FCG's gossip time: 0 (the paper's choice) up to 10 s. */
static struct netlink_range_validation ftnl_gossip_t_range = {
	.min = 0,
	.max = 10 * USEC_PER_SEC,
};

static const struct nla_policy ftnl_node_policy[FTNL_A_NODE_MAX + 1] = {
	[FTNL_A_NODE_ID] = { .type = NLA_U32 },
	[FTNL_A_NODE_ADDR4] = NLA_POLICY_EXACT_LEN(sizeof(struct in_addr)),
	[FTNL_A_NODE_ADDR6] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[FTNL_A_NODE_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[FTNL_A_NODE_STATE] = {
		.type = NLA_REJECT,
		.reject_message = "node state is reported, it cannot be set",
	},
	[FTNL_A_NODE_SELF] = {
		.type = NLA_REJECT,
		.reject_message = "the local node is chosen with the self id",
	},
};

static const struct nla_policy ftnl_cluster_set_policy[FTNL_A_MAX + 1] = {
	[FTNL_A_CLUSTER_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[FTNL_A_SELF_ID] = { .type = NLA_U32 },
	[FTNL_A_HB_PERIOD_US] = NLA_POLICY_FULL_RANGE(NLA_U32,
						      &ftnl_hb_period_range),
	[FTNL_A_TIMEOUT_US] = NLA_POLICY_FULL_RANGE(NLA_U32,
						    &ftnl_timeout_range),
	[FTNL_A_KEY] = NLA_POLICY_EXACT_LEN(FTNL_KEY_LEN),
	[FTNL_A_NODE] = NLA_POLICY_NESTED(ftnl_node_policy),
	[FTNL_A_BCAST_ALGO] = NLA_POLICY_MAX(NLA_U8, FTNL_BCAST_MAX),
	[FTNL_A_BCAST_FCG_F] = NLA_POLICY_RANGE(NLA_U8, 1, 7),
	[FTNL_A_BCAST_GOSSIP_T_US] = NLA_POLICY_FULL_RANGE(NLA_U32,
							   &ftnl_gossip_t_range),
};

static const struct nla_policy ftnl_readmit_policy[FTNL_A_MAX + 1] = {
	[FTNL_A_PEER_ID] = { .type = NLA_U32 },
};

static const struct nla_policy ftnl_proc_register_policy[FTNL_A_MAX + 1] = {
	[FTNL_A_PROC_JOB] = { .type = NLA_U64 },
	[FTNL_A_PROC_RANK] = { .type = NLA_U32 },
};

/* Requests that take no attributes: strict validation rejects any. */
static const struct nla_policy ftnl_no_attr_policy[FTNL_A_MAX + 1] = {};

static struct genl_family ftnl_genl_family;

static struct ftnl_cluster *ftnl_cluster_get_rcu(struct net *net)
{
	return rcu_dereference(ftnl_net(net)->cluster);
}

static void *ftnl_reply_put(struct sk_buff *msg, struct genl_info *info)
{
	return genlmsg_put_reply(msg, info, &ftnl_genl_family, 0,
				 info->genlhdr->cmd);
}

static int ftnl_nl_info_get(struct sk_buff *skb, struct genl_info *info)
{
	u64 features = FTNL_FEATURE_CLUSTER | FTNL_FEATURE_EVENTS |
		       FTNL_FEATURE_RING | FTNL_FEATURE_BCAST | FTNL_FEATURE_PROC;
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

/* Attributes the request must carry, each with the message naming it. */
static const struct {
	int type;
	const char *missing;
} ftnl_cluster_set_required[] = {
	{ FTNL_A_CLUSTER_ID, "missing cluster id" },
	{ FTNL_A_SELF_ID, "missing this node's id (self)" },
	{ FTNL_A_HB_PERIOD_US, "missing heartbeat period" },
	{ FTNL_A_TIMEOUT_US, "missing timeout" },
	{ FTNL_A_KEY, "missing cluster key" },
};

/*
 * NL_SET_ERR_MSG_ATTR() only takes literals; this takes any message with
 * static storage (every caller passes a literal through a variable).
 */
static void ftnl_set_err(struct netlink_ext_ack *extack,
			 const struct nlattr *attr, const char *msg)
{
	if (extack) {
		extack->_msg = msg;
		extack->bad_attr = attr;
	}
}

static struct nlattr *ftnl_nth_node_attr(struct genl_info *info, u32 index)
{
	struct nlattr *attr;
	int rem;

	nla_for_each_attr(attr, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		if (nla_type(attr) != FTNL_A_NODE)
			continue;
		if (!index--)
			return attr;
	}
	return NULL;
}

/* IPV6_ADDR_ANY is 0 in ipv6_addr_type()'s bits: test :: on its own. */
static bool ftnl_addr6_is_unicast(const struct in6_addr *addr)
{
	return !ipv6_addr_any(addr) &&
	       !(ipv6_addr_type(addr) & IPV6_ADDR_MULTICAST) &&
	       !ipv6_addr_v4mapped(addr);
}

/* "This network" 0.0.0.0/8 (ipv4_is_zeronet() only tests 0.0.0.0 now). */
static bool ftnl_addr4_is_unicast(__be32 addr)
{
	return (addr & htonl(0xff000000)) && !ipv4_is_multicast(addr) &&
	       !ipv4_is_lbcast(addr);
}

static int ftnl_node_parse(struct nlattr *attr, struct ftnl_node *node,
			   struct netlink_ext_ack *extack)
{
	struct nlattr *tb[FTNL_A_NODE_MAX + 1];
	int err;

	err = nla_parse_nested(tb, FTNL_A_NODE_MAX, attr, ftnl_node_policy,
			       extack);
	if (err)
		return err;

	if (!tb[FTNL_A_NODE_ID]) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "node without an id");
		NL_SET_ERR_ATTR_MISS(extack, attr, FTNL_A_NODE_ID);
		return -EINVAL;
	}
	if (!tb[FTNL_A_NODE_PORT]) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "node without a port");
		NL_SET_ERR_ATTR_MISS(extack, attr, FTNL_A_NODE_PORT);
		return -EINVAL;
	}
	if (!!tb[FTNL_A_NODE_ADDR4] == !!tb[FTNL_A_NODE_ADDR6]) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "node needs exactly one address, IPv4 or IPv6");
		return -EINVAL;
	}

	node->id = nla_get_u32(tb[FTNL_A_NODE_ID]);
	node->port = nla_get_u16(tb[FTNL_A_NODE_PORT]);
	if (tb[FTNL_A_NODE_ADDR4]) {
		node->family = AF_INET;
		node->addr4 = nla_get_in_addr(tb[FTNL_A_NODE_ADDR4]);
		if (!ftnl_addr4_is_unicast(node->addr4)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FTNL_A_NODE_ADDR4],
					    "node address must be unicast");
			return -EINVAL;
		}
	} else {
		if (!IS_ENABLED(CONFIG_IPV6)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FTNL_A_NODE_ADDR6],
					    "IPv6 is not enabled in this kernel");
			return -EAFNOSUPPORT;
		}
		node->family = AF_INET6;
		node->addr6 = nla_get_in6_addr(tb[FTNL_A_NODE_ADDR6]);
		if (!ftnl_addr6_is_unicast(&node->addr6)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FTNL_A_NODE_ADDR6],
					    "node address must be unicast (and not v4-mapped)");
			return -EINVAL;
		}
	}
	return 0;
}

/* Build a configuration from a validated request; nothing is installed. */
static struct ftnl_cluster *ftnl_cluster_from_request(struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	struct ftnl_cluster *cluster;
	u32 count = 0, index = 0, bad;
	struct nlattr *attr;
	const char *why;
	unsigned int i;
	int rem, err;

	for (i = 0; i < ARRAY_SIZE(ftnl_cluster_set_required); i++) {
		if (GENL_REQ_ATTR_CHECK(info, ftnl_cluster_set_required[i].type)) {
			ftnl_set_err(extack, NULL,
				     ftnl_cluster_set_required[i].missing);
			return ERR_PTR(-EINVAL);
		}
	}
	if (nla_get_u32(attrs[FTNL_A_TIMEOUT_US]) <=
	    nla_get_u32(attrs[FTNL_A_HB_PERIOD_US])) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[FTNL_A_TIMEOUT_US],
				    "timeout must be greater than the heartbeat period");
		return ERR_PTR(-EINVAL);
	}

	nla_for_each_attr(attr, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		if (nla_type(attr) != FTNL_A_NODE)
			continue;
		if (++count > FTNL_MAX_NODES) {
			NL_SET_ERR_MSG_ATTR(extack, attr, "too many nodes (at most "
					    __stringify(FTNL_MAX_NODES) ")");
			return ERR_PTR(-E2BIG);
		}
	}
	if (!count) {
		NL_SET_ERR_MSG(extack, "the node table is empty");
		NL_SET_ERR_ATTR_MISS(extack, NULL, FTNL_A_NODE);
		return ERR_PTR(-EINVAL);
	}

	cluster = ftnl_cluster_alloc(count);
	if (!cluster) {
		NL_SET_ERR_MSG(extack, "out of memory for the node table");
		return ERR_PTR(-ENOMEM);
	}
	cluster->cluster_id = nla_get_u32(attrs[FTNL_A_CLUSTER_ID]);
	cluster->self_id = nla_get_u32(attrs[FTNL_A_SELF_ID]);
	cluster->hb_period_us = nla_get_u32(attrs[FTNL_A_HB_PERIOD_US]);
	cluster->timeout_us = nla_get_u32(attrs[FTNL_A_TIMEOUT_US]);
	nla_memcpy(cluster->key, attrs[FTNL_A_KEY], sizeof(cluster->key));
	cluster->bcast_algo = attrs[FTNL_A_BCAST_ALGO] ?
			      nla_get_u8(attrs[FTNL_A_BCAST_ALGO]) :
			      FTNL_BCAST_HYPERCUBE;
	cluster->fcg_f = attrs[FTNL_A_BCAST_FCG_F] ?
			 nla_get_u8(attrs[FTNL_A_BCAST_FCG_F]) : 1;
	cluster->gossip_end_us = attrs[FTNL_A_BCAST_GOSSIP_T_US] ?
				 nla_get_u32(attrs[FTNL_A_BCAST_GOSSIP_T_US]) : 0;

	nla_for_each_attr(attr, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		if (nla_type(attr) != FTNL_A_NODE)
			continue;
		err = ftnl_node_parse(attr, &cluster->nodes[index++], extack);
		if (err)
			goto err_free;
	}

	err = ftnl_cluster_finalize(cluster, &why, &bad);
	if (err == -ENOMEM) {
		NL_SET_ERR_MSG(extack, "out of memory validating the node table");
		goto err_free;
	}
	if (err) {
		if (bad == U32_MAX)
			ftnl_set_err(extack, attrs[FTNL_A_SELF_ID], why);
		else
			ftnl_set_err(extack, ftnl_nth_node_attr(info, bad), why);
		goto err_free;
	}
	return cluster;

err_free:
	ftnl_cluster_free(cluster);
	return ERR_PTR(err);
}

static int ftnl_nl_cluster_set(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct ftnl_net *fn = ftnl_net(net);
	struct ftnl_cluster *cluster;

	struct ftnl_cluster *old;
	int err;

	cluster = ftnl_cluster_from_request(info);
	if (IS_ERR(cluster))
		return PTR_ERR(cluster);

	mutex_lock(&fn->lock);
	old = ftnl_cluster_current(fn);
	err = ftnl_ring_create(fn, cluster, old ? old->ring : NULL);
	if (err) {
		mutex_unlock(&fn->lock);
		if (err == -EADDRINUSE)
			GENL_SET_ERR_MSG(info, "this node's UDP port is already in use");
		else
			GENL_SET_ERR_MSG(info, "cannot open this node's UDP socket");
		ftnl_cluster_free(cluster);
		return err;
	}
	ftnl_cluster_replace(fn, cluster);
	ftnl_notify_cluster_change(net);
	mutex_unlock(&fn->lock);
	return 0;
}

/*
 * Forget this node's cluster (CLUSTER_DEL), after telling its observer and
 * emitter when it leaves (CLUSTER_LEAVE).
 */
static int ftnl_cluster_end(struct genl_info *info, bool leave)
{
	struct net *net = genl_info_net(info);
	struct ftnl_net *fn = ftnl_net(net);
	struct ftnl_cluster *cluster;
	int err = 0;

	mutex_lock(&fn->lock);
	cluster = ftnl_cluster_current(fn);
	if (!cluster) {
		GENL_SET_ERR_MSG(info, "no cluster is configured in this network namespace");
		err = -ENOENT;
		goto out;
	}
	if (leave)
		ftnl_ring_leave(cluster->ring);
	ftnl_cluster_replace(fn, NULL);
	/* Whatever this node does next, it is a new life for the others. */
	WRITE_ONCE(fn->incarnation, ftnl_new_incarnation(fn->incarnation));
	ftnl_notify_cluster_change(net);
out:
	mutex_unlock(&fn->lock);
	return err;
}

static int ftnl_nl_cluster_del(struct sk_buff *skb, struct genl_info *info)
{
	return ftnl_cluster_end(info, false);
}

static int ftnl_nl_cluster_leave(struct sk_buff *skb, struct genl_info *info)
{
	return ftnl_cluster_end(info, true);
}

static int ftnl_nl_node_readmit(struct sk_buff *skb, struct genl_info *info)
{
	struct ftnl_net *fn = ftnl_net(genl_info_net(info));
	const struct ftnl_node *node;
	struct ftnl_cluster *cluster;
	const char *why = NULL;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, FTNL_A_PEER_ID)) {
		GENL_SET_ERR_MSG(info, "missing the id of the node to readmit");
		return -EINVAL;
	}

	mutex_lock(&fn->lock);
	cluster = ftnl_cluster_current(fn);
	if (!cluster) {
		GENL_SET_ERR_MSG(info, "no cluster is configured in this network namespace");
		err = -ENOENT;
		goto out;
	}
	node = ftnl_cluster_find(cluster, nla_get_u32(info->attrs[FTNL_A_PEER_ID]));
	if (!node) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[FTNL_A_PEER_ID],
				    "no node with this id in the cluster");
		err = -ENOENT;
		goto out;
	}
	err = ftnl_ring_readmit(cluster->ring, node - cluster->nodes, &why);
	if (err)
		ftnl_set_err(info->extack, info->attrs[FTNL_A_PEER_ID], why);
out:
	mutex_unlock(&fn->lock);
	return err;
}

static int ftnl_put_cluster_summary(struct sk_buff *msg,
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
						const struct ftnl_cluster *cluster))
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
	err = fill(msg, cluster);
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
				   const struct ftnl_cluster *cluster)
{
	if (ftnl_put_cluster_summary(msg, cluster) ||
	    nla_put_u32(msg, FTNL_A_HB_PERIOD_US, cluster->hb_period_us) ||
	    nla_put_u32(msg, FTNL_A_TIMEOUT_US, cluster->timeout_us) ||
	    nla_put_u32(msg, FTNL_A_GENERATION, cluster->generation) ||
	    nla_put_u64_64bit(msg, FTNL_A_INCARNATION, cluster->ring->incarnation,
			      FTNL_A_PAD) ||
	    nla_put_u8(msg, FTNL_A_BCAST_ALGO, cluster->bcast_algo) ||
	    nla_put_u8(msg, FTNL_A_BCAST_FCG_F, cluster->fcg_f) ||
	    nla_put_u32(msg, FTNL_A_BCAST_GOSSIP_T_US, cluster->gossip_end_us))
		return -EMSGSIZE;
	return 0;
}

static int ftnl_nl_cluster_get(struct sk_buff *skb, struct genl_info *info)
{
	return ftnl_reply_about_cluster(info, ftnl_put_cluster_config);
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
	nla_nest_end(msg, nest);
	return 0;

cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

/* cb->args[0]: index of the next node to emit. */
static int ftnl_nl_node_dump(struct sk_buff *skb, struct netlink_callback *cb)
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
 * ftnl_notify_cluster_change - multicast FTNL_CMD_CLUSTER_NTF on "events"
 * @net: the netns whose configuration changed, with its lock held so that
 *	notifications leave in generation order
 */
void ftnl_notify_cluster_change(struct net *net)
{
	struct ftnl_net *fn = ftnl_net(net);
	const struct ftnl_cluster *cluster;
	struct sk_buff *msg;
	void *hdr;

	lockdep_assert_held(&fn->lock);
	if (!genl_has_listeners(&ftnl_genl_family, net, FTNL_MCGRP_EVENTS_IDX))
		return;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &ftnl_genl_family, 0, FTNL_CMD_CLUSTER_NTF);
	if (!hdr)
		goto err_free;

	cluster = rcu_dereference_protected(fn->cluster,
					    lockdep_is_held(&fn->lock));
	if (nla_put_u32(msg, FTNL_A_GENERATION, fn->generation) ||
	    (cluster && ftnl_put_cluster_summary(msg, cluster)))
		goto err_free;

	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&ftnl_genl_family, net, msg, 0,
				FTNL_MCGRP_EVENTS_IDX, GFP_KERNEL);
	return;

err_free:
	nlmsg_free(msg);
}

static int ftnl_put_counter_nest(struct sk_buff *msg, int type,
				 atomic64_t *counters, int count, int pad)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(msg, type);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < count; i++)
		if (nla_put_u64_64bit(msg, i + 1, atomic64_read(&counters[i]), pad))
			return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/* The broadcast latencies change under the ring lock. */
static int ftnl_put_bcast_latency(struct sk_buff *msg, struct ftnl_ring *ring)
{
	u64 last, max, sum;

	spin_lock_bh(&ring->lock);
	last = ring->bcast.latency_last_ns;
	max = ring->bcast.latency_max_ns;
	sum = ring->bcast.latency_sum_ns;
	spin_unlock_bh(&ring->lock);
	if (nla_put_u64_64bit(msg, FTNL_A_STATS_BCAST_LATENCY_LAST_NS, last,
			      FTNL_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_BCAST_LATENCY_MAX_NS, max,
			      FTNL_A_STATS_PAD) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_BCAST_LATENCY_SUM_NS, sum,
			      FTNL_A_STATS_PAD))
		return -EMSGSIZE;
	return 0;
}

static int ftnl_put_stats(struct sk_buff *msg, struct ftnl_ring *ring)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(msg, FTNL_A_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = FTNL_A_STATS_HB_SENT; i <= FTNL_A_STATS_EVENTS_LOST; i++)
		if (nla_put_u64_64bit(msg, i, atomic64_read(&ring->counters[i]),
				      FTNL_A_STATS_PAD))
			return -EMSGSIZE;
	for (i = FTNL_A_STATS_BCAST_ORIGINATED; i <= FTNL_A_STATS_BCAST_DUPLICATES; i++)
		if (nla_put_u64_64bit(msg, i, atomic64_read(&ring->counters[i]),
				      FTNL_A_STATS_PAD))
			return -EMSGSIZE;
	if (ftnl_put_bcast_latency(msg, ring) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_HB_SKIPPED,
			      atomic64_read(&ring->counters[FTNL_A_STATS_HB_SKIPPED]),
			      FTNL_A_STATS_PAD))
		return -EMSGSIZE;
	/* Reasons and buckets are numbered from 0, attribute types from 1. */
	if (ftnl_put_counter_nest(msg, FTNL_A_STATS_DROP, ring->drops,
				  __FTNL_DROP_MAX, FTNL_DROP_MAX + 2) ||
	    ftnl_put_counter_nest(msg, FTNL_A_STATS_LATENESS, ring->lateness,
				  FTNL_LATENESS_BUCKETS, FTNL_LATENESS_BUCKETS + 1) ||
	    nla_put_u64_64bit(msg, FTNL_A_STATS_LATENESS_MAX_NS,
			      READ_ONCE(ring->lateness_max_ns), FTNL_A_STATS_PAD))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int ftnl_put_cluster_stats(struct sk_buff *msg,
				  const struct ftnl_cluster *cluster)
{
	return ftnl_put_stats(msg, cluster->ring);
}

static int ftnl_nl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	return ftnl_reply_about_cluster(info, ftnl_put_cluster_stats);
}

static int ftnl_nl_proc_register(struct sk_buff *skb, struct genl_info *info)
{
	struct ftnl_net *fn = ftnl_net(genl_info_net(info));
	int err;

	if (GENL_REQ_ATTR_CHECK(info, FTNL_A_PROC_JOB)) {
		GENL_SET_ERR_MSG(info, "missing the process's job id");
		return -EINVAL;
	}
	if (GENL_REQ_ATTR_CHECK(info, FTNL_A_PROC_RANK)) {
		GENL_SET_ERR_MSG(info, "missing the process's rank");
		return -EINVAL;
	}
	rcu_read_lock();
	err = ftnl_cluster_get_rcu(genl_info_net(info)) ? 0 : -ENOENT;
	rcu_read_unlock();
	if (err) {
		GENL_SET_ERR_MSG(info, "no cluster is configured in this network namespace");
		return err;
	}
	err = ftnl_proc_register(fn, info->snd_portid,
				 nla_get_u64(info->attrs[FTNL_A_PROC_JOB]),
				 nla_get_u32(info->attrs[FTNL_A_PROC_RANK]));
	if (err == -EEXIST)
		GENL_SET_ERR_MSG(info, "this socket already registered a process");
	else if (err == -ENOSPC)
		GENL_SET_ERR_MSG(info, "too many registered processes on this node");
	else if (err)
		GENL_SET_ERR_MSG(info, "out of memory for the registration");
	return err;
}

static int ftnl_nl_proc_unregister(struct sk_buff *skb, struct genl_info *info)
{
	struct ftnl_net *fn = ftnl_net(genl_info_net(info));

	if (ftnl_proc_unregister(fn, info->snd_portid)) {
		GENL_SET_ERR_MSG(info, "this socket has no registered process");
		return -ENOENT;
	}
	return 0;
}

/* cb->args[0]: index of the next registration to emit. */
static int ftnl_nl_proc_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ftnl_net *fn = ftnl_net(sock_net(skb->sk));
	u32 index = cb->args[0], rank, portid;
	void *hdr;
	u64 job;

	for (; !ftnl_proc_snapshot(fn, index, &job, &rank, &portid); index++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &ftnl_genl_family,
				  NLM_F_MULTI, FTNL_CMD_PROC_GET);
		if (!hdr)
			break;
		if (nla_put_u64_64bit(skb, FTNL_A_PROC_JOB, job, FTNL_A_PAD) ||
		    nla_put_u32(skb, FTNL_A_PROC_RANK, rank) ||
		    nla_put_u32(skb, FTNL_A_PROC_PORTID, portid)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = index;
	return skb->len;
}

static int ftnl_put_event(struct sk_buff *msg, const struct ftnl_event_rec *rec)
{
	if (nla_put_u32(msg, FTNL_A_CLUSTER_ID, rec->cluster_id) ||
	    nla_put_u32(msg, FTNL_A_EVENT_NODE_ID, rec->node_id) ||
	    nla_put_u8(msg, FTNL_A_EVENT_CAUSE, rec->cause) ||
	    nla_put_u64_64bit(msg, FTNL_A_EVENT_TIME_MONO_NS, rec->mono_ns,
			      FTNL_A_PAD) ||
	    nla_put_u64_64bit(msg, FTNL_A_EVENT_TIME_REAL_NS, rec->real_ns,
			      FTNL_A_PAD))
		return -EMSGSIZE;
	if (rec->proc) {
		if (nla_put_u64_64bit(msg, FTNL_A_PROC_JOB, rec->job, FTNL_A_PAD) ||
		    nla_put_u32(msg, FTNL_A_PROC_RANK, rec->rank))
			return -EMSGSIZE;
		return 0;
	}
	if (nla_put_u32(msg, FTNL_A_GENERATION, rec->generation) ||
	    nla_put_u64_64bit(msg, FTNL_A_EVENT_INCARNATION, rec->incarnation,
			      FTNL_A_PAD) ||
	    nla_put_u32(msg, FTNL_A_EVENT_OBSERVER_ID, rec->observer_id))
		return -EMSGSIZE;
	return 0;
}

/**
 * ftnl_notify_event - multicast a learned failure on "events":
 *	FTNL_CMD_FAILURE_NTF for a node, FTNL_CMD_PROC_EXIT_NTF for a process
 * @net: the netns that learned it
 * @rec: the failure
 *
 * Process context (the events work).
 */
void ftnl_notify_event(struct net *net, const struct ftnl_event_rec *rec)
{
	u8 cmd = rec->proc ? FTNL_CMD_PROC_EXIT_NTF : FTNL_CMD_FAILURE_NTF;
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&ftnl_genl_family, net, FTNL_MCGRP_EVENTS_IDX))
		return;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &ftnl_genl_family, 0, cmd);
	if (!hdr || ftnl_put_event(msg, rec)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&ftnl_genl_family, net, msg, 0,
				FTNL_MCGRP_EVENTS_IDX, GFP_KERNEL);
}

static const struct genl_ops ftnl_genl_ops[] = {
	{
		.cmd = FTNL_CMD_INFO_GET,
		.doit = ftnl_nl_info_get,
		.policy = ftnl_no_attr_policy,
		.maxattr = FTNL_A_MAX,
	},
	{
		.cmd = FTNL_CMD_CLUSTER_SET,
		.doit = ftnl_nl_cluster_set,
		.policy = ftnl_cluster_set_policy,
		.maxattr = FTNL_A_MAX,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTNL_CMD_CLUSTER_GET,
		.doit = ftnl_nl_cluster_get,
		.policy = ftnl_no_attr_policy,
		.maxattr = FTNL_A_MAX,
	},
	{
		.cmd = FTNL_CMD_CLUSTER_DEL,
		.doit = ftnl_nl_cluster_del,
		.policy = ftnl_no_attr_policy,
		.maxattr = FTNL_A_MAX,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTNL_CMD_NODE_GET,
		.dumpit = ftnl_nl_node_dump,
		.policy = ftnl_no_attr_policy,
		.maxattr = FTNL_A_MAX,
	},
	{
		.cmd = FTNL_CMD_CLUSTER_LEAVE,
		.doit = ftnl_nl_cluster_leave,
		.policy = ftnl_no_attr_policy,
		.maxattr = FTNL_A_MAX,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTNL_CMD_NODE_READMIT,
		.doit = ftnl_nl_node_readmit,
		.policy = ftnl_readmit_policy,
		.maxattr = FTNL_A_MAX,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = FTNL_CMD_STATS_GET,
		.doit = ftnl_nl_stats_get,
		.policy = ftnl_no_attr_policy,
		.maxattr = FTNL_A_MAX,
	},
	{
		/* Any user: a process registers itself, bounded per node. */
		.cmd = FTNL_CMD_PROC_REGISTER,
		.doit = ftnl_nl_proc_register,
		.policy = ftnl_proc_register_policy,
		.maxattr = FTNL_A_MAX,
	},
	{
		.cmd = FTNL_CMD_PROC_UNREGISTER,
		.doit = ftnl_nl_proc_unregister,
		.policy = ftnl_no_attr_policy,
		.maxattr = FTNL_A_MAX,
	},
	{
		.cmd = FTNL_CMD_PROC_GET,
		.dumpit = ftnl_nl_proc_dump,
		.policy = ftnl_no_attr_policy,
		.maxattr = FTNL_A_MAX,
	},
};

static const struct genl_multicast_group ftnl_genl_mcgrps[] = {
	[FTNL_MCGRP_EVENTS_IDX] = { .name = FTNL_MCGRP_EVENTS },
};

static struct genl_family ftnl_genl_family __ro_after_init = {
	.name = FTNL_FAMILY_NAME,
	.version = FTNL_FAMILY_VERSION,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = ftnl_genl_ops,
	.n_ops = ARRAY_SIZE(ftnl_genl_ops),
	/* Validate reserved header fields and require a policy on every op. */
	.resv_start_op = 0,
	.mcgrps = ftnl_genl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(ftnl_genl_mcgrps),
};

int __init ftnl_genl_register(void)
{
	return genl_register_family(&ftnl_genl_family);
}

void ftnl_genl_unregister(void)
{
	genl_unregister_family(&ftnl_genl_family);
}
