// SPDX-License-Identifier: GPL-2.0
/*
 * Requests of the "ftnl" family, parsed and validated: the attribute
 * policies of every operation, and CLUSTER_SET's attributes turned into a
 * struct ftnl_cluster, with an extack message for whatever is refused.
 * Nothing here changes any state.
 */

#include <linux/bitmap.h>
#include <net/genetlink.h>

#include "config_rules.h"
#include "ftnl.h"
#include "netlink.h"

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

/* The rejoin flap limit K and window W. */
static struct netlink_range_validation ftnl_flap_limit_range = {
	.min = FTNL_REJOIN_FLAP_LIMIT_MIN,
	.max = FTNL_REJOIN_FLAP_LIMIT_MAX,
};

static struct netlink_range_validation ftnl_flap_window_range = {
	.min = FTNL_REJOIN_FLAP_WINDOW_MIN_S,
	.max = FTNL_REJOIN_FLAP_WINDOW_MAX_S,
};

static struct netlink_range_validation ftnl_update_grace_range = {
	.min = FTNL_UPDATE_GRACE_MIN_S,
	.max = FTNL_UPDATE_GRACE_MAX_S,
};

/* FCG's gossip time: 0 (the paper's choice) up to FTNL_GOSSIP_T_MAX_US. */
static struct netlink_range_validation ftnl_gossip_t_range = {
	.min = 0,
	.max = FTNL_GOSSIP_T_MAX_US,
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
	[FTNL_A_NODE_NAME] = { .type = NLA_NUL_STRING,
			       .len = FTNL_NODE_NAME_MAX },
	[FTNL_A_NODE_DOMAIN] = { .type = NLA_NUL_STRING,
				 .len = FTNL_NODE_DOMAIN_MAX },
	[FTNL_A_NODE_KEY] = NLA_POLICY_EXACT_LEN(FTNL_KEY_LEN),
	[FTNL_A_NODE_SIGN_KEY] = NLA_POLICY_EXACT_LEN(FTNL_SIGN_KEY_LEN),
};

const struct nla_policy ftnl_cluster_set_policy[FTNL_A_MAX + 1] = {
	[FTNL_A_CLUSTER_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[FTNL_A_SELF_ID] = { .type = NLA_U32 },
	[FTNL_A_HB_PERIOD_US] = NLA_POLICY_FULL_RANGE(NLA_U32,
						      &ftnl_hb_period_range),
	[FTNL_A_TIMEOUT_US] = NLA_POLICY_FULL_RANGE(NLA_U32,
						    &ftnl_timeout_range),
	[FTNL_A_KEY] = NLA_POLICY_EXACT_LEN(FTNL_KEY_LEN),
	[FTNL_A_NODE] = NLA_POLICY_NESTED(ftnl_node_policy),
	[FTNL_A_BCAST_ALGO] = NLA_POLICY_MAX(NLA_U8, FTNL_BCAST_MAX),
	[FTNL_A_BCAST_FCG_F] = NLA_POLICY_RANGE(NLA_U8, FTNL_FCG_F_MIN,
						 FTNL_FCG_F_MAX),
	[FTNL_A_BCAST_GOSSIP_T_US] = NLA_POLICY_FULL_RANGE(NLA_U32,
							   &ftnl_gossip_t_range),
	[FTNL_A_REJOIN] = NLA_POLICY_MAX(NLA_U8, FTNL_REJOIN_MAX),
	[FTNL_A_REJOIN_FLAP_LIMIT] = NLA_POLICY_FULL_RANGE(NLA_U32,
							   &ftnl_flap_limit_range),
	[FTNL_A_REJOIN_FLAP_WINDOW_S] =
		NLA_POLICY_FULL_RANGE(NLA_U32, &ftnl_flap_window_range),
	[FTNL_A_FENCE] = NLA_POLICY_MAX(NLA_U8, FTNL_FENCE_MAX),
	[FTNL_A_QUORUM] = NLA_POLICY_MAX(NLA_U8, FTNL_QUORUM_ON),
	/* ranges, and their relation to h and d: ftnl_rules_config() */
	[FTNL_A_TIMEOUT_MIN_US] = { .type = NLA_U32 },
	[FTNL_A_TIMEOUT_TARGET_NINES] = { .type = NLA_U8 },
	[FTNL_A_EPOCH] = { .type = NLA_U32 },
	[FTNL_A_UPDATE_GRACE_S] = NLA_POLICY_FULL_RANGE(NLA_U32,
							&ftnl_update_grace_range),
	/* its range and its relation to the running life: nl_cluster.c */
	[FTNL_A_INCARNATION_FLOOR] = { .type = NLA_U64 },
	[FTNL_A_PREV_KEY_LEFT_MS] = {
		.type = NLA_REJECT,
		.reject_message = "the previous key's grace is reported, it cannot be set",
	},
	[FTNL_A_PAIR_KEYS] = {
		.type = NLA_REJECT,
		.reject_message = "pair keys are given on the nodes (FTNL_A_NODE_KEY)",
	},
	[FTNL_A_SIGN_SEED] = NLA_POLICY_EXACT_LEN(FTNL_SIGN_SEED_LEN),
	[FTNL_A_SIGNED] = {
		.type = NLA_REJECT,
		.reject_message = "signing is asked for with FTNL_A_SIGN_SEED",
	},
};

const struct nla_policy ftnl_readmit_policy[FTNL_A_MAX + 1] = {
	[FTNL_A_PEER_ID] = { .type = NLA_U32 },
};

const struct nla_policy ftnl_proc_register_policy[FTNL_A_MAX + 1] = {
	[FTNL_A_PROC_JOB] = { .type = NLA_U64 },
	[FTNL_A_PROC_RANK] = { .type = NLA_U32 },
};

const struct nla_policy ftnl_event_get_policy[FTNL_A_MAX + 1] = {
	[FTNL_A_EVENT_AFTER_SEQ] = { .type = NLA_U64 },
};

/* Requests that take no attributes: strict validation rejects any. */
const struct nla_policy ftnl_no_attr_policy[FTNL_A_MAX + 1] = {};

/* Attributes the request must carry, and the rule naming each. */
static const struct {
	int type;
	enum ftnl_rules_field field;
} ftnl_cluster_set_required[] = {
	{ FTNL_A_CLUSTER_ID, FTNL_RULES_CLUSTER_ID },
	{ FTNL_A_SELF_ID, FTNL_RULES_SELF_ID },
	{ FTNL_A_HB_PERIOD_US, FTNL_RULES_HB_PERIOD },
	{ FTNL_A_TIMEOUT_US, FTNL_RULES_TIMEOUT },
};

/* The attribute each scalar rule is about. */
static const int ftnl_rules_attr[__FTNL_RULES_FIELD_MAX] = {
	[FTNL_RULES_CLUSTER_ID] = FTNL_A_CLUSTER_ID,
	[FTNL_RULES_SELF_ID] = FTNL_A_SELF_ID,
	[FTNL_RULES_HB_PERIOD] = FTNL_A_HB_PERIOD_US,
	[FTNL_RULES_TIMEOUT] = FTNL_A_TIMEOUT_US,
	[FTNL_RULES_KEY] = FTNL_A_KEY,
	[FTNL_RULES_NODES] = FTNL_A_NODE,
	[FTNL_RULES_BCAST_ALGO] = FTNL_A_BCAST_ALGO,
	[FTNL_RULES_FCG_F] = FTNL_A_BCAST_FCG_F,
	[FTNL_RULES_GOSSIP_T] = FTNL_A_BCAST_GOSSIP_T_US,
	[FTNL_RULES_REJOIN] = FTNL_A_REJOIN,
	[FTNL_RULES_FLAP_LIMIT] = FTNL_A_REJOIN_FLAP_LIMIT,
	[FTNL_RULES_FLAP_WINDOW] = FTNL_A_REJOIN_FLAP_WINDOW_S,
	[FTNL_RULES_TIMEOUT_MIN] = FTNL_A_TIMEOUT_MIN_US,
	[FTNL_RULES_TIMEOUT_NINES] = FTNL_A_TIMEOUT_TARGET_NINES,
};

/*
 * NL_SET_ERR_MSG_ATTR() only takes literals; this takes any message with
 * static storage (every caller passes a literal through a variable).
 */
void ftnl_set_err(struct netlink_ext_ack *extack,
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

/*
 * @keyed: set when the node carries a pair key (copied to @node->key);
 * @signing: when it carries a public signing key (to @node->sign_public).
 */
static int ftnl_node_parse(struct nlattr *attr, struct ftnl_node *node,
			   bool *keyed, bool *signing,
			   struct ftnl_ed25519_ctx *ctx,
			   struct netlink_ext_ack *extack)
{
	struct nlattr *tb[FTNL_A_NODE_MAX + 1];
	struct ftnl_rules_node rules = {};
	const char *why;
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
	/* Neither or both: family 0, which the rules refuse. */
	if (tb[FTNL_A_NODE_ADDR4] && !tb[FTNL_A_NODE_ADDR6]) {
		rules.family = 4;
		nla_memcpy(rules.addr, tb[FTNL_A_NODE_ADDR4], 4);
	} else if (tb[FTNL_A_NODE_ADDR6] && !tb[FTNL_A_NODE_ADDR4]) {
		rules.family = 6;
		nla_memcpy(rules.addr, tb[FTNL_A_NODE_ADDR6], 16);
	}
	why = ftnl_rules_addr(rules.family, rules.addr);
	if (why) {
		ftnl_set_err(extack, !rules.family ? attr :
			     rules.family == 4 ? tb[FTNL_A_NODE_ADDR4] :
			     tb[FTNL_A_NODE_ADDR6], why);
		return -EINVAL;
	}

	node->id = nla_get_u32(tb[FTNL_A_NODE_ID]);
	node->port = nla_get_u16(tb[FTNL_A_NODE_PORT]);
	if (rules.family == 4) {
		node->family = AF_INET;
		node->addr4 = nla_get_in_addr(tb[FTNL_A_NODE_ADDR4]);
	} else {
		if (!IS_ENABLED(CONFIG_IPV6)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FTNL_A_NODE_ADDR6],
					    "IPv6 is not enabled in this kernel");
			return -EAFNOSUPPORT;
		}
		node->family = AF_INET6;
		node->addr6 = nla_get_in6_addr(tb[FTNL_A_NODE_ADDR6]);
	}
	if (tb[FTNL_A_NODE_NAME]) {
		why = ftnl_rules_node_name(nla_data(tb[FTNL_A_NODE_NAME]));
		if (why) {
			ftnl_set_err(extack, tb[FTNL_A_NODE_NAME], why);
			return -EINVAL;
		}
		node->name = ftnl_counted(nla_strdup(tb[FTNL_A_NODE_NAME],
						     GFP_KERNEL_ACCOUNT));
		if (!node->name) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FTNL_A_NODE_NAME],
					    "out of memory for the node name");
			return -ENOMEM;
		}
	}
	if (tb[FTNL_A_NODE_DOMAIN]) {
		why = ftnl_rules_node_domain(nla_data(tb[FTNL_A_NODE_DOMAIN]));
		if (why) {
			ftnl_set_err(extack, tb[FTNL_A_NODE_DOMAIN], why);
			return -EINVAL;
		}
		node->domain = ftnl_counted(nla_strdup(tb[FTNL_A_NODE_DOMAIN],
						       GFP_KERNEL_ACCOUNT));
		if (!node->domain) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FTNL_A_NODE_DOMAIN],
					    "out of memory for the failure domain");
			return -ENOMEM;
		}
	}
	*keyed = tb[FTNL_A_NODE_KEY];
	if (*keyed)
		nla_memcpy(node->key, tb[FTNL_A_NODE_KEY], sizeof(node->key));
	*signing = tb[FTNL_A_NODE_SIGN_KEY];
	if (*signing) {
		nla_memcpy(node->sign_public, tb[FTNL_A_NODE_SIGN_KEY],
			   sizeof(node->sign_public));
		if (!ftnl_ed25519_public_ok(ctx, node->sign_public)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[FTNL_A_NODE_SIGN_KEY],
					    "not an Ed25519 public key (no point of the curve)");
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Signed broadcasts (ftnl_rules_sign_keys()): this node's seed, expanded
 * into its key, and a public key on every other node. @signing flags, in
 * request order, the nodes that carried one.
 */
static int ftnl_cluster_sign_keys(struct ftnl_cluster *cluster,
				  const unsigned long *signing,
				  struct ftnl_ed25519_ctx *ctx,
				  struct genl_info *info)
{
	struct nlattr *seed = info->attrs[FTNL_A_SIGN_SEED];
	u32 count = cluster->node_count, i, nsigning, unsigned_others = 0;
	u32 bad = U32_MAX, self = U32_MAX;
	u8 seed_bytes[FTNL_SIGN_SEED_LEN];
	const char *why;

	nsigning = bitmap_weight(signing, count);
	for (i = 0; i < count; i++) {
		if (cluster->nodes[i].id == cluster->self_id)
			self = i;
		else if (!test_bit(i, signing) && !unsigned_others++)
			bad = i;
	}
	if (self != U32_MAX && test_bit(self, signing))
		bad = self;
	why = ftnl_rules_sign_keys(seed, cluster->pair_keys, nsigning,
				   self != U32_MAX && test_bit(self, signing),
				   unsigned_others);
	if (why) {
		if (!seed || !cluster->pair_keys || bad == U32_MAX)
			ftnl_set_err(info->extack, seed, why);
		else
			ftnl_set_err(info->extack, ftnl_nth_node_attr(info, bad),
				     why);
		return -EINVAL;
	}
	if (!seed || self == U32_MAX)
		return 0;	/* an unknown self id is refused later */
	nla_memcpy(seed_bytes, seed, sizeof(seed_bytes));
	ftnl_ed25519_key_from_seed(ctx, &cluster->sign_key, seed_bytes);
	memzero_explicit(seed_bytes, sizeof(seed_bytes));
	memcpy(cluster->nodes[self].sign_public, cluster->sign_key.public,
	       sizeof(cluster->nodes[self].sign_public));
	cluster->signs = true;
	return 0;
}

/*
 * One cluster key, or a pair key on every node but this one
 * (ftnl_rules_keys()); the cluster key is then copied to every node, so
 * that datagrams always take their peer's key. @keyed flags, in request
 * order, the nodes that carried one.
 */
static int ftnl_cluster_keys(struct ftnl_cluster *cluster,
			     const unsigned long *keyed, struct genl_info *info)
{
	struct nlattr *key = info->attrs[FTNL_A_KEY];
	u32 count = cluster->node_count, nkeyed, unkeyed = 0, i, bad = U32_MAX;
	bool self_keyed = false;
	const char *why;

	nkeyed = bitmap_weight(keyed, count);
	for (i = 0; i < count; i++) {
		bool self = cluster->nodes[i].id == cluster->self_id;

		if (self && test_bit(i, keyed)) {
			self_keyed = true;
			bad = i;
		} else if (!self && !test_bit(i, keyed) && !unkeyed++ &&
			   bad == U32_MAX) {
			bad = i;
		}
	}
	why = ftnl_rules_keys(key, nkeyed, self_keyed, unkeyed);
	if (why) {
		if (key && nkeyed)
			ftnl_set_err(info->extack, key, why);
		else if (!nkeyed)
			ftnl_set_err(info->extack, NULL, why);
		else
			ftnl_set_err(info->extack, ftnl_nth_node_attr(info, bad),
				     why);
		if (!key && !nkeyed)
			NL_SET_ERR_ATTR_MISS(info->extack, NULL, FTNL_A_KEY);
		return -EINVAL;
	}
	cluster->pair_keys = !key;
	if (key) {
		nla_memcpy(cluster->key, key, sizeof(cluster->key));
		for (i = 0; i < count; i++)
			memcpy(cluster->nodes[i].key, cluster->key,
			       sizeof(cluster->key));
	}
	return 0;
}

/* The request's scalar values, with the defaults of what it leaves out. */
static void ftnl_rules_config_from(struct ftnl_rules_config *config,
				   struct nlattr **attrs, u32 node_count)
{
	*config = (struct ftnl_rules_config){
		.cluster_id = nla_get_u32(attrs[FTNL_A_CLUSTER_ID]),
		.hb_period_us = nla_get_u32(attrs[FTNL_A_HB_PERIOD_US]),
		.timeout_us = nla_get_u32(attrs[FTNL_A_TIMEOUT_US]),
		.node_count = node_count,
		.bcast_algo = attrs[FTNL_A_BCAST_ALGO] ?
			      nla_get_u8(attrs[FTNL_A_BCAST_ALGO]) :
			      FTNL_BCAST_HYPERCUBE,
		.fcg_f = attrs[FTNL_A_BCAST_FCG_F] ?
			 nla_get_u8(attrs[FTNL_A_BCAST_FCG_F]) :
			 FTNL_FCG_F_DEFAULT,
		.gossip_t_us = attrs[FTNL_A_BCAST_GOSSIP_T_US] ?
			       nla_get_u32(attrs[FTNL_A_BCAST_GOSSIP_T_US]) : 0,
		.rejoin = attrs[FTNL_A_REJOIN] ?
			  nla_get_u8(attrs[FTNL_A_REJOIN]) : FTNL_REJOIN_AUTO,
		.flap_limit = attrs[FTNL_A_REJOIN_FLAP_LIMIT] ?
			      nla_get_u32(attrs[FTNL_A_REJOIN_FLAP_LIMIT]) :
			      FTNL_REJOIN_FLAP_LIMIT_DEFAULT,
		.flap_window_s = attrs[FTNL_A_REJOIN_FLAP_WINDOW_S] ?
				 nla_get_u32(attrs[FTNL_A_REJOIN_FLAP_WINDOW_S]) :
				 FTNL_REJOIN_FLAP_WINDOW_DEFAULT_S,
		.timeout_min_us = attrs[FTNL_A_TIMEOUT_MIN_US] ?
				  nla_get_u32(attrs[FTNL_A_TIMEOUT_MIN_US]) : 0,
		.timeout_nines = attrs[FTNL_A_TIMEOUT_TARGET_NINES] ?
				 nla_get_u8(attrs[FTNL_A_TIMEOUT_TARGET_NINES]) : 0,
	};
	/* A nines of 0 is refused as out of range, not taken as unset. */
	if (attrs[FTNL_A_TIMEOUT_TARGET_NINES] && !config->timeout_nines)
		config->timeout_nines = FTNL_TIMEOUT_NINES_MAX + 1;
}

/* Build a configuration from a validated request; nothing is installed. */
struct ftnl_cluster *ftnl_cluster_from_request(struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **attrs = info->attrs;
	struct nlattr *attr, *extra_node = NULL;
	struct ftnl_rules_config rules;
	enum ftnl_rules_field field;
	struct ftnl_cluster *cluster;
	u32 count = 0, index = 0, bad;
	unsigned long *keyed = NULL, *signing = NULL;
	struct ftnl_ed25519_ctx *ctx = NULL;
	bool has_key, has_sign;
	const char *why;
	unsigned int i;
	int rem, err;

	for (i = 0; i < ARRAY_SIZE(ftnl_cluster_set_required); i++) {
		if (GENL_REQ_ATTR_CHECK(info, ftnl_cluster_set_required[i].type)) {
			ftnl_set_err(extack, NULL,
				     ftnl_rules_missing(ftnl_cluster_set_required[i].field));
			return ERR_PTR(-EINVAL);
		}
	}

	/* Count up to one past the limit, which the rules then refuse. */
	nla_for_each_attr(attr, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		if (nla_type(attr) != FTNL_A_NODE)
			continue;
		if (++count > FTNL_MAX_NODES) {
			extra_node = attr;
			break;
		}
	}
	ftnl_rules_config_from(&rules, attrs, count);
	why = ftnl_rules_config(&rules, &field);
	if (why) {
		if (field == FTNL_RULES_NODES && !count) {
			ftnl_set_err(extack, NULL, why);
			NL_SET_ERR_ATTR_MISS(extack, NULL, FTNL_A_NODE);
			return ERR_PTR(-EINVAL);
		}
		ftnl_set_err(extack, field == FTNL_RULES_NODES ? extra_node :
			     attrs[ftnl_rules_attr[field]], why);
		return ERR_PTR(field == FTNL_RULES_NODES ? -E2BIG : -EINVAL);
	}

	cluster = ftnl_cluster_alloc(count);
	if (!cluster) {
		NL_SET_ERR_MSG(extack, "out of memory for the node table");
		return ERR_PTR(-ENOMEM);
	}
	cluster->cluster_id = rules.cluster_id;
	cluster->self_id = nla_get_u32(attrs[FTNL_A_SELF_ID]);
	cluster->hb_period_us = rules.hb_period_us;
	cluster->timeout_us = rules.timeout_us;
	/* The epoch is settled against the running one (ftnl_cluster_set_epoch()). */
	cluster->epoch_given = attrs[FTNL_A_EPOCH];
	if (cluster->epoch_given)
		cluster->epoch = nla_get_u32(attrs[FTNL_A_EPOCH]);
	cluster->update_grace_s = attrs[FTNL_A_UPDATE_GRACE_S] ?
				  nla_get_u32(attrs[FTNL_A_UPDATE_GRACE_S]) :
				  FTNL_UPDATE_GRACE_DEFAULT_S;
	cluster->bcast_algo = rules.bcast_algo;
	cluster->fcg_f = rules.fcg_f;
	cluster->gossip_end_us = rules.gossip_t_us;
	cluster->rejoin = rules.rejoin;
	cluster->flap_limit = rules.flap_limit;
	cluster->flap_window_s = rules.flap_window_s;
	cluster->timeout_min_us = rules.timeout_min_us;
	cluster->timeout_nines = !rules.timeout_min_us ? 0 :
				 rules.timeout_nines ? rules.timeout_nines :
				 FTNL_TIMEOUT_NINES_DEFAULT;
	cluster->fence = attrs[FTNL_A_FENCE] ? nla_get_u8(attrs[FTNL_A_FENCE]) :
					       FTNL_FENCE_NONE;
	/* A majority of 2 is both: quorum would stop the survivor of any death. */
	if (attrs[FTNL_A_QUORUM])
		cluster->quorum = nla_get_u8(attrs[FTNL_A_QUORUM]);
	else
		cluster->quorum = count >= 3 ? FTNL_QUORUM_ON : FTNL_QUORUM_OFF;

	keyed = bitmap_zalloc(count, GFP_KERNEL);
	signing = bitmap_zalloc(count, GFP_KERNEL);
	ctx = kmalloc(sizeof(*ctx), GFP_KERNEL);
	if (!keyed || !signing || !ctx) {
		NL_SET_ERR_MSG(extack, "out of memory for the node table");
		err = -ENOMEM;
		goto err_free;
	}
	nla_for_each_attr(attr, genlmsg_data(info->genlhdr),
			  genlmsg_len(info->genlhdr), rem) {
		if (nla_type(attr) != FTNL_A_NODE)
			continue;
		err = ftnl_node_parse(attr, &cluster->nodes[index], &has_key,
				      &has_sign, ctx, extack);
		if (err)
			goto err_free;
		if (has_key)
			__set_bit(index, keyed);
		if (has_sign)
			__set_bit(index, signing);
		index++;
	}
	err = ftnl_cluster_keys(cluster, keyed, info);
	if (!err)
		err = ftnl_cluster_sign_keys(cluster, signing, ctx, info);
	if (err)
		goto err_free;

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
	bitmap_free(keyed);
	bitmap_free(signing);
	kfree_sensitive(ctx);
	return cluster;

err_free:
	bitmap_free(keyed);
	bitmap_free(signing);
	kfree_sensitive(ctx);
	ftnl_cluster_free(cluster);
	return ERR_PTR(err);
}
