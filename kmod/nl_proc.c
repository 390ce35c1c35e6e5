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

int ftnl_nl_proc_register(struct sk_buff *skb, struct genl_info *info)
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

int ftnl_nl_proc_unregister(struct sk_buff *skb, struct genl_info *info)
{
	struct ftnl_net *fn = ftnl_net(genl_info_net(info));

	if (ftnl_proc_unregister(fn, info->snd_portid)) {
		GENL_SET_ERR_MSG(info, "this socket has no registered process");
		return -ENOENT;
	}
	return 0;
}

/* cb->args[0]: index of the next registration to emit. */
int ftnl_nl_proc_dump(struct sk_buff *skb, struct netlink_callback *cb)
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
