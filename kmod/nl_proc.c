// SPDX-License-Identifier: GPL-2.0
/*
 * Process registration over netlink: PROC_REGISTER and PROC_UNREGISTER
 * for the calling socket, and the PROC_GET dump. The registry itself is
 * process_registry.c.
 */

#include <net/genetlink.h>
#include <net/sock.h>

#include "ftnl.h"
#include "netlink.h"
#include "ring/ring.h"

int ftnl_nl_proc_register(struct sk_buff *skb, struct genl_info *info)
{
	struct ftnl_net *fn = ftnl_net(genl_info_net(info));
	struct ftnl_cluster *cluster;
	const char *why = NULL;
	bool expelled = false;
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
	cluster = ftnl_cluster_get_rcu(genl_info_net(info));
	err = cluster ? 0 : -ENOENT;
	if (cluster)
		expelled = ftnl_ring_expelled(cluster->ring);
	rcu_read_unlock();
	if (err) {
		GENL_SET_ERR_MSG(info, "no cluster is configured in this network namespace");
		return err;
	}
	if (expelled) {
		GENL_SET_ERR_MSG(info, "this node was expelled: the cluster holds it dead");
		return -ESTALE;
	}
	/* The owner is the sender's uid as its netlink credentials carry it. */
	err = ftnl_proc_register(fn, info->snd_portid, NETLINK_CB(skb).creds.uid,
				 nla_get_u64(info->attrs[FTNL_A_PROC_JOB]),
				 nla_get_u32(info->attrs[FTNL_A_PROC_RANK]), &why);
	if (err)
		ftnl_set_err(info->extack, NULL, why);
	return err;
}

int ftnl_nl_proc_unregister(struct sk_buff *skb, struct genl_info *info)
{
	struct ftnl_net *fn = ftnl_net(genl_info_net(info));

	if (ftnl_proc_unregister(fn, info->snd_portid)) {
		GENL_SET_ERR_MSG(info, "this socket has no registered process");
		return -ENOENT;
	}
	return 0;
}

/*
 * cb->args[0]: index of the next registration to emit; cb->args[1]: 1 when
 * the reader may see every registration (CAP_NET_ADMIN over the netns), 2
 * when only its own uid's; 0 before the first part.
 */
int ftnl_nl_proc_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct ftnl_net *fn = ftnl_net(sock_net(skb->sk));
	kuid_t reader = NETLINK_CB(cb->skb).creds.uid;
	u32 index = cb->args[0];
	struct ftnl_proc_info info;
	void *hdr;

	if (!cb->args[1])
		cb->args[1] = netlink_net_capable(cb->skb, CAP_NET_ADMIN) ? 1 : 2;
	for (; !ftnl_proc_snapshot(fn, index, cb->args[1] == 1 ? NULL : &reader,
				   &info); index++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &ftnl_genl_family,
				  NLM_F_MULTI, FTNL_CMD_PROC_GET);
		if (!hdr)
			break;
		if (nla_put_u64_64bit(skb, FTNL_A_PROC_JOB, info.job, FTNL_A_PAD) ||
		    nla_put_u32(skb, FTNL_A_PROC_RANK, info.rank) ||
		    nla_put_u32(skb, FTNL_A_PROC_PORTID, info.portid) ||
		    nla_put_u32(skb, FTNL_A_PROC_OWNER_UID,
				from_kuid_munged(&init_user_ns, info.owner))) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[0] = index;
	return skb->len;
}
