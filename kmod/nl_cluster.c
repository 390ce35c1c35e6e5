// SPDX-License-Identifier: GPL-2.0
/*
 * The cluster's lifecycle over netlink: CLUSTER_SET installs a
 * configuration (and its ring), CLUSTER_DEL and CLUSTER_LEAVE end it,
 * NODE_READMIT lets a node declared dead back in. All under the netns
 * lock, so that configuration changes and their notifications are ordered.
 */

#include <net/genetlink.h>

#include "ftnl.h"
#include "netlink.h"
#include "ring/ring.h"

/* A new life for this node, above @floor: the transport and ring take it. */
static void ftnl_new_life(struct ftnl_net *fn, u64 floor)
{
	u64 inc = ftnl_new_incarnation(max_t(u64, fn->incarnation, floor));

	WRITE_ONCE(fn->incarnation, inc);
	WRITE_ONCE(fn->first, inc);
}

/*
 * FTNL_A_INCARNATION_FLOOR: the largest life this node had in an earlier
 * boot. A node that runs no cluster (or an expelled one, which is to end)
 * lives above it; a running life is never replaced by a floor: the floor
 * the running life was given (a reload) is no news, one above it is
 * refused. Return: a message for the user, or NULL.
 */
static const char *ftnl_floor_check(const struct ftnl_net *fn,
				    const struct ftnl_cluster *old, u64 floor)
{
	if (!floor || floor > FTNL_INCARNATION_FLOOR_MAX)
		return "incarnation floor out of range (1 to 2^63 - 1)";
	if (old && !ftnl_ring_expelled(old->ring) && floor > fn->incarnation)
		return "incarnation floor above the running incarnation (a restart to the cluster)";
	return NULL;
}

int ftnl_nl_cluster_set(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct nlattr *floor_attr = info->attrs[FTNL_A_INCARNATION_FLOOR];
	struct ftnl_net *fn = ftnl_net(net);
	struct ftnl_cluster *cluster;
	u64 floor = floor_attr ? nla_get_u64(floor_attr) : 0;
	struct ftnl_cluster *old;
	const char *why;
	u64 incarnation, first;
	int err;

	cluster = ftnl_cluster_from_request(info);
	if (IS_ERR(cluster))
		return PTR_ERR(cluster);

	if (ftnl_events_prepare(fn)) {
		GENL_SET_ERR_MSG(info, "out of memory for the event history");
		ftnl_cluster_free(cluster);
		return -ENOMEM;
	}

	mutex_lock(&fn->lock);
	old = ftnl_cluster_current(fn);
	why = ftnl_cluster_set_epoch(cluster, old);
	if (why) {
		mutex_unlock(&fn->lock);
		ftnl_set_err(info->extack, info->attrs[FTNL_A_EPOCH], why);
		ftnl_cluster_free(cluster);
		return -EINVAL;
	}
	why = floor_attr ? ftnl_floor_check(fn, old, floor) : NULL;
	if (why) {
		mutex_unlock(&fn->lock);
		ftnl_set_err(info->extack, floor_attr, why);
		ftnl_cluster_free(cluster);
		return -EINVAL;
	}
	incarnation = fn->incarnation;
	first = fn->first;
	/*
	 * The cluster holds this incarnation dead: configured again, the node
	 * comes back as a new one (which rejoins), never as the dead one.
	 */
	if (old && ftnl_ring_expelled(old->ring))
		ftnl_new_life(fn, floor);
	else if (!old && floor >= incarnation)
		ftnl_new_life(fn, floor);
	err = ftnl_ring_create(fn, cluster, old ? old->ring : NULL);
	if (err) {
		WRITE_ONCE(fn->incarnation, incarnation);
		WRITE_ONCE(fn->first, first);
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
	ftnl_new_life(fn, 0);
	ftnl_notify_cluster_change(net);
out:
	mutex_unlock(&fn->lock);
	return err;
}

int ftnl_nl_cluster_del(struct sk_buff *skb, struct genl_info *info)
{
	return ftnl_cluster_end(info, false);
}

int ftnl_nl_cluster_leave(struct sk_buff *skb, struct genl_info *info)
{
	return ftnl_cluster_end(info, true);
}

int ftnl_nl_node_readmit(struct sk_buff *skb, struct genl_info *info)
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
