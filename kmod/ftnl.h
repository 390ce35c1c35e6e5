/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftnl module internals shared between the core files.
 */
#ifndef _FTNL_H
#define _FTNL_H

#include <linux/in6.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <net/net_namespace.h>
#include <linux/ftnl.h>

/**
 * struct ftnl_node - one member of the cluster's node table
 * @id: node id, unique in the cluster
 * @family: AF_INET or AF_INET6
 * @state: enum ftnl_node_state
 * @port: UDP port, host order
 * @addr4: IPv4 address when @family is AF_INET
 * @addr6: IPv6 address when @family is AF_INET6
 */
struct ftnl_node {
	u32 id;
	u8 family;
	u8 state;
	u16 port;
	union {
		__be32 addr4;
		struct in6_addr addr6;
	};
};

/**
 * struct ftnl_cluster - an immutable cluster configuration
 * @rcu: frees the configuration after readers are done
 * @cluster_id: cluster identifier
 * @self_id: this node's id
 * @self_index: index of this node in @nodes
 * @hb_period_us: heartbeat period h
 * @timeout_us: suspicion timeout d
 * @generation: the netns generation this configuration was installed at
 * @key: cluster secret authenticating datagrams
 * @node_count: number of entries in @nodes
 * @nodes: node table, sorted by ascending id
 *
 * A configuration is never changed in place: a new one replaces it under
 * RCU, so that readers (dumps now, the datagram path later) never see a
 * half-written table.
 */
struct ftnl_cluster {
	struct rcu_head rcu;
	u32 cluster_id;
	u32 self_id;
	u32 self_index;
	u32 hb_period_us;
	u32 timeout_us;
	u32 generation;
	u8 key[FTNL_KEY_LEN];
	u32 node_count;
	struct ftnl_node nodes[];
};

/**
 * struct ftnl_net - per network namespace state: one netns is one node
 * @lock: serializes configuration changes
 * @cluster: current configuration, NULL when unconfigured
 * @generation: incremented on every configuration change
 */
struct ftnl_net {
	struct mutex lock; /* serializes configuration changes */
	struct ftnl_cluster __rcu *cluster;
	u32 generation;
};

/* netns.c */
struct ftnl_net *ftnl_net(const struct net *net);
int ftnl_netns_register(void);
void ftnl_netns_unregister(void);

/* cluster.c */
struct ftnl_cluster *ftnl_cluster_alloc(u32 node_count);
void ftnl_cluster_free(struct ftnl_cluster *cluster);
int ftnl_cluster_finalize(struct ftnl_cluster *cluster, const char **why,
			  u32 *bad_index);
const struct ftnl_node *ftnl_cluster_find(const struct ftnl_cluster *cluster,
					  u32 id);
void ftnl_cluster_replace(struct ftnl_net *fn, struct ftnl_cluster *cluster);

/* netlink.c */
int ftnl_genl_register(void);
void ftnl_genl_unregister(void);
void ftnl_notify_cluster_change(struct net *net);

#endif /* _FTNL_H */
