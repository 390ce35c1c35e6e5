/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink family's files among themselves: netlink.c (the
 * family, its operations and notifications), nl_parse.c (policies and
 * request validation), nl_cluster.c (the cluster's lifecycle), nl_query.c
 * (state replies and dumps), nl_proc.c (process registration). The rest
 * of the module sees only the functions ftnl.h declares for netlink.c.
 */
#ifndef _FTNL_NETLINK_H
#define _FTNL_NETLINK_H

#include <net/genetlink.h>

#include "ftnl.h"

/* netlink.c */
extern struct genl_family ftnl_genl_family;
struct ftnl_cluster *ftnl_cluster_get_rcu(struct net *net);
void *ftnl_reply_put(struct sk_buff *msg, struct genl_info *info);
u8 ftnl_event_cmd(const struct ftnl_event_rec *rec);
int ftnl_put_event(struct sk_buff *msg, const struct ftnl_event_rec *rec);

/* nl_parse.c */
extern const struct nla_policy ftnl_cluster_set_policy[FTNL_A_MAX + 1];
extern const struct nla_policy ftnl_readmit_policy[FTNL_A_MAX + 1];
extern const struct nla_policy ftnl_proc_register_policy[FTNL_A_MAX + 1];
extern const struct nla_policy ftnl_no_attr_policy[FTNL_A_MAX + 1];
extern const struct nla_policy ftnl_event_get_policy[FTNL_A_MAX + 1];
void ftnl_set_err(struct netlink_ext_ack *extack, const struct nlattr *attr,
		  const char *msg);
struct ftnl_cluster *ftnl_cluster_from_request(struct genl_info *info);

/* nl_cluster.c */
int ftnl_nl_cluster_set(struct sk_buff *skb, struct genl_info *info);
int ftnl_nl_cluster_del(struct sk_buff *skb, struct genl_info *info);
int ftnl_nl_cluster_leave(struct sk_buff *skb, struct genl_info *info);
int ftnl_nl_node_readmit(struct sk_buff *skb, struct genl_info *info);

/* nl_query.c */
int ftnl_nl_info_get(struct sk_buff *skb, struct genl_info *info);
int ftnl_nl_cluster_get(struct sk_buff *skb, struct genl_info *info);
int ftnl_nl_stats_get(struct sk_buff *skb, struct genl_info *info);
int ftnl_nl_node_dump(struct sk_buff *skb, struct netlink_callback *cb);
int ftnl_nl_event_dump_start(struct netlink_callback *cb);
int ftnl_nl_event_dump(struct sk_buff *skb, struct netlink_callback *cb);
int ftnl_put_cluster_summary(struct sk_buff *msg,
			     const struct ftnl_cluster *cluster);

/* nl_proc.c */
int ftnl_nl_proc_register(struct sk_buff *skb, struct genl_info *info);
int ftnl_nl_proc_unregister(struct sk_buff *skb, struct genl_info *info);
int ftnl_nl_proc_dump(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _FTNL_NETLINK_H */
