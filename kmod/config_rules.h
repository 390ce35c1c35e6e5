/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules a cluster configuration obeys, pure: one file compiled into
 * the module (which enforces them on FTNL_CMD_CLUSTER_SET) and into
 * libftnl (which checks configurations before sending them, and points at
 * the line of a configuration file that breaks one). Each check returns
 * NULL or the message the user sees, the same words on both sides.
 *
 * The limits are the uapi's (uapi/linux/ftnl.h).
 */
#ifndef _FTNL_CONFIG_RULES_H
#define _FTNL_CONFIG_RULES_H

#include <linux/ftnl.h>

#include "compat.h"

/**
 * struct ftnl_rules_node - one node of a table, as the rules see it
 * @id: node id
 * @port: UDP port, host order
 * @family: 4 or 6 (IPv4, IPv6), 0 when the node has no address
 * @addr: the address in network order; IPv4 in the first 4 bytes
 * @name: its name (FTNL_A_NODE_NAME), NULL or "" when it has none
 */
struct ftnl_rules_node {
	u32 id;
	u16 port;
	u8 family;
	u8 addr[16];
	const char *name;
};

/* What a message is about, so that the caller can point at it. */
enum ftnl_rules_field {
	FTNL_RULES_CLUSTER_ID,
	FTNL_RULES_SELF_ID,
	FTNL_RULES_HB_PERIOD,
	FTNL_RULES_TIMEOUT,
	FTNL_RULES_KEY,
	FTNL_RULES_NODES,
	FTNL_RULES_BCAST_ALGO,
	FTNL_RULES_FCG_F,
	FTNL_RULES_GOSSIP_T,
	FTNL_RULES_REJOIN,
	FTNL_RULES_FLAP_LIMIT,
	FTNL_RULES_FLAP_WINDOW,
	FTNL_RULES_TIMEOUT_MIN,
	FTNL_RULES_TIMEOUT_NINES,
	__FTNL_RULES_FIELD_MAX,
};

/* "missing cluster id", ... for the fields a configuration must give. */
const char *ftnl_rules_missing(enum ftnl_rules_field field);

/**
 * struct ftnl_rules_config - the scalar part of a configuration
 * @cluster_id: cluster id
 * @hb_period_us: heartbeat period h
 * @timeout_us: suspicion timeout d
 * @node_count: entries in the node table
 * @bcast_algo: enum ftnl_bcast_algo (FTNL_BCAST_HYPERCUBE when not given)
 * @fcg_f: FCG's f (FTNL_FCG_F_DEFAULT when not given)
 * @gossip_t_us: FCG's T (0 when not given)
 * @rejoin: enum ftnl_rejoin (FTNL_REJOIN_AUTO when not given)
 * @flap_limit: K (FTNL_REJOIN_FLAP_LIMIT_DEFAULT when not given)
 * @flap_window_s: W (FTNL_REJOIN_FLAP_WINDOW_DEFAULT_S when not given)
 * @timeout_min_us: d_min of adaptive timeouts, 0 for a fixed d
 * @timeout_nines: their target rate 10^-nines (FTNL_TIMEOUT_NINES_DEFAULT
 *	when not given), 0 when not given without @timeout_min_us
 */
struct ftnl_rules_config {
	u32 cluster_id;
	u32 hb_period_us;
	u32 timeout_us;
	u32 node_count;
	u32 bcast_algo;
	u32 fcg_f;
	u32 gossip_t_us;
	u32 rejoin;
	u32 flap_limit;
	u32 flap_window_s;
	u32 timeout_min_us;
	u32 timeout_nines;
};

const char *ftnl_rules_cluster_id(u32 cluster_id);
const char *ftnl_rules_hb_period(u32 hb_period_us);
const char *ftnl_rules_timeout(u32 timeout_us);
const char *ftnl_rules_timeout_vs_hb(u32 timeout_us, u32 hb_period_us);
const char *ftnl_rules_bcast_algo(u32 algo);
const char *ftnl_rules_fcg_f(u32 fcg_f);
const char *ftnl_rules_gossip_t(u32 gossip_t_us);
const char *ftnl_rules_rejoin(u32 rejoin);
const char *ftnl_rules_flap_limit(u32 flap_limit);
const char *ftnl_rules_flap_window(u32 flap_window_s);
const char *ftnl_rules_timeout_adaptive(u32 timeout_min_us, u32 timeout_us,
					u32 hb_period_us);
const char *ftnl_rules_timeout_nines(u32 nines, u32 timeout_min_us);
const char *ftnl_rules_node_count(u32 count);
const char *ftnl_rules_config(const struct ftnl_rules_config *config,
			      enum ftnl_rules_field *field);

bool ftnl_rules_addr4_unicast(const u8 addr[4]);
bool ftnl_rules_addr6_unicast(const u8 addr[16]);
const char *ftnl_rules_addr(u8 family, const u8 addr[16]);
const char *ftnl_rules_node(const struct ftnl_rules_node *node);
const char *ftnl_rules_node_name(const char *name);
const char *ftnl_rules_node_domain(const char *domain);
const char *ftnl_rules_keys(bool cluster_key, u32 keyed, bool self_keyed,
			    u32 unkeyed_others);
const char *ftnl_rules_sign_keys(bool seed, bool pair_keys, u32 signing,
				 bool self_signing, u32 unsigned_others);

enum ftnl_rules_dup_key {
	FTNL_RULES_DUP_ID,		/* same node id */
	FTNL_RULES_DUP_ENDPOINT,	/* same family, address and port */
	FTNL_RULES_DUP_NAME,		/* same name (nodes without one never are) */
};

bool ftnl_rules_find_duplicate(const struct ftnl_rules_node *nodes, u32 count,
			       enum ftnl_rules_dup_key key, u32 *order,
			       u32 *first, u32 *second);

/**
 * enum ftnl_rules_table_fault - what is wrong with a whole node table
 * @FTNL_RULES_TABLE_OK: nothing
 * @FTNL_RULES_TABLE_DUP_ID: two nodes share an id
 * @FTNL_RULES_TABLE_DUP_ENDPOINT: two nodes share an address and port
 * @FTNL_RULES_TABLE_NO_SELF: this node's id is not in the table
 */
enum ftnl_rules_table_fault {
	FTNL_RULES_TABLE_OK,
	FTNL_RULES_TABLE_DUP_ID,
	FTNL_RULES_TABLE_DUP_ENDPOINT,
	FTNL_RULES_TABLE_NO_SELF,
};

enum ftnl_rules_table_fault
ftnl_rules_table(const struct ftnl_rules_node *nodes, u32 count, u32 self_id,
		 u32 *order, u32 *first, u32 *second, const char **why);

#endif /* _FTNL_CONFIG_RULES_H */
