// SPDX-License-Identifier: GPL-2.0
/*
 * The "ftnl" generic netlink family: its operations, its "events"
 * multicast group and the notifications sent on it. The contract is
 * uapi/linux/ftnl.h; the requests are handled in nl_parse.c (policies and
 * validation), nl_cluster.c (the cluster's lifecycle), nl_query.c (state
 * replies and dumps) and nl_proc.c (process registration).
 */

#include <net/genetlink.h>

#include "ftnl.h"
#include "netlink.h"

enum ftnl_mcgrp {
	FTNL_MCGRP_EVENTS_IDX,
};

struct ftnl_cluster *ftnl_cluster_get_rcu(struct net *net)
{
	return rcu_dereference(ftnl_net(net)->cluster);
}

void *ftnl_reply_put(struct sk_buff *msg, struct genl_info *info)
{
	return genlmsg_put_reply(msg, info, &ftnl_genl_family, 0,
				 info->genlhdr->cmd);
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

/* The notification command of an event of @rec's kind. */
u8 ftnl_event_cmd(const struct ftnl_event_rec *rec)
{
	if (rec->expelled)
		return FTNL_CMD_EXPELLED_NTF;
	return rec->proc ? FTNL_CMD_PROC_EXIT_NTF :
	       rec->joined ? FTNL_CMD_JOINED_NTF : FTNL_CMD_FAILURE_NTF;
}

/* The attributes of @rec's notification, for it and for the history. */
int ftnl_put_event(struct sk_buff *msg, const struct ftnl_event_rec *rec)
{
	if (nla_put_u64_64bit(msg, FTNL_A_EVENT_SEQ, rec->seq, FTNL_A_PAD) ||
	    nla_put_u32(msg, FTNL_A_CLUSTER_ID, rec->cluster_id) ||
	    nla_put_u32(msg, FTNL_A_EVENT_NODE_ID, rec->node_id) ||
	    (rec->expelled ?
	     nla_put_u8(msg, FTNL_A_EXPEL_REASON, rec->expel_reason) :
	     nla_put_u8(msg, FTNL_A_EVENT_CAUSE, rec->cause)) ||
	    nla_put_u64_64bit(msg, FTNL_A_EVENT_TIME_MONO_NS, rec->mono_ns,
			      FTNL_A_PAD) ||
	    nla_put_u64_64bit(msg, FTNL_A_EVENT_TIME_REAL_NS, rec->real_ns,
			      FTNL_A_PAD) ||
	    (rec->node_name[0] &&
	     nla_put_string(msg, FTNL_A_EVENT_NODE_NAME, rec->node_name)))
		return -EMSGSIZE;
	if (rec->proc) {
		if (nla_put_u64_64bit(msg, FTNL_A_PROC_JOB, rec->job, FTNL_A_PAD) ||
		    nla_put_u32(msg, FTNL_A_PROC_RANK, rec->rank) ||
		    nla_put_u32(msg, FTNL_A_PROC_OWNER_UID, rec->owner_uid))
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
 *	FTNL_CMD_FAILURE_NTF for a node, FTNL_CMD_PROC_EXIT_NTF for a process,
 *	FTNL_CMD_JOINED_NTF for a node that rejoined,
 *	FTNL_CMD_EXPELLED_NTF for this node's expulsion
 * @net: the netns that learned it
 * @rec: the failure
 *
 * Process context (the events work). A notification that cannot be built
 * is counted; its event stays in the history.
 */
void ftnl_notify_event(struct net *net, const struct ftnl_event_rec *rec)
{
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&ftnl_genl_family, net, FTNL_MCGRP_EVENTS_IDX))
		return;
	if (ftnl_event_test_nomem())
		goto err_count;
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		goto err_count;
	hdr = genlmsg_put(msg, 0, 0, &ftnl_genl_family, 0, ftnl_event_cmd(rec));
	if (!hdr || ftnl_put_event(msg, rec)) {
		nlmsg_free(msg);
		goto err_count;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&ftnl_genl_family, net, msg, 0,
				FTNL_MCGRP_EVENTS_IDX, GFP_KERNEL);
	return;

err_count:
	atomic64_inc(&ftnl_net(net)->events_notify_failed);
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
	{
		.cmd = FTNL_CMD_EVENT_GET,
		.start = ftnl_nl_event_dump_start,
		.dumpit = ftnl_nl_event_dump,
		.policy = ftnl_event_get_policy,
		.maxattr = FTNL_A_MAX,
	},
};

static const struct genl_multicast_group ftnl_genl_mcgrps[] = {
	[FTNL_MCGRP_EVENTS_IDX] = { .name = FTNL_MCGRP_EVENTS },
};

struct genl_family ftnl_genl_family __ro_after_init = {
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
