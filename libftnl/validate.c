// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Checking a configuration the way the kernel does, so that tools catch
 * mistakes before sending anything. The rules themselves, and most of
 * their words, are the module's own pure file (kmod/config_rules.c),
 * compiled into libftnl; this file adapts libftnl's types to it and adds
 * the details a person needs (which node, which line).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *ftnl_check_cluster_id(uint32_t cluster_id)
{
	return ftnl_rules_cluster_id(cluster_id);
}

const char *ftnl_check_hb_period(uint32_t hb_period_us)
{
	return ftnl_rules_hb_period(hb_period_us);
}

/* The range alone; d > h is checked where both are known. */
const char *ftnl_check_timeout(uint32_t timeout_us)
{
	return ftnl_rules_timeout(timeout_us);
}

const char *ftnl_check_fcg_f(uint32_t fcg_f)
{
	return ftnl_rules_fcg_f(fcg_f);
}

/*
 * Stricter than the kernel below one slot: the module counts T in slots of
 * FTNL_GOSSIP_SLOT_US and takes a T of no whole slot for 0, its own
 * choice, which is not what anyone asking for 10us meant. The messages name
 * the limits in words; tests/validate.c holds them to the constants.
 */
/* The flap limit K and window W (seconds), as the module checks them. */
const char *ftnl_check_flap_limit(uint32_t flap_limit, uint32_t flap_window_s)
{
	const char *why = ftnl_rules_flap_limit(flap_limit);

	return why ? why : ftnl_rules_flap_window(flap_window_s);
}

const char *ftnl_check_gossip_t(uint32_t gossip_t_us)
{
	const char *why = ftnl_rules_gossip_t(gossip_t_us);

	if (!why && gossip_t_us && gossip_t_us < FTNL_GOSSIP_SLOT_US)
		why = "FCG's gossip time must be 0 (the module's choice) or at least 20us";
	return why;
}

/* libftnl's node as the rules see it. */
static void ftnl_node_to_rules(struct ftnl_rules_node *rules,
			       const struct ftnl_node *node)
{
	memset(rules, 0, sizeof(*rules));
	rules->id = node->id;
	rules->port = node->port;
	rules->name = node->name;
	if (node->family == AF_INET) {
		rules->family = 4;
		memcpy(rules->addr, &node->addr.v4, sizeof(node->addr.v4));
	} else if (node->family == AF_INET6) {
		rules->family = 6;
		memcpy(rules->addr, &node->addr.v6, sizeof(node->addr.v6));
	}
}

bool ftnl_addr_is_unicast(int family, const union ftnl_addr *addr)
{
	struct ftnl_node node = { .family = family, .addr = *addr };
	struct ftnl_rules_node rules;

	ftnl_node_to_rules(&rules, &node);
	return rules.family && !ftnl_rules_addr(rules.family, rules.addr);
}

/* A node name: what kmod/nl_parse.c accepts, or why not. */
const char *ftnl_check_node_name(const char *name)
{
	return ftnl_rules_node_name(name);
}

/* A failure domain: what kmod/nl_parse.c accepts, or why not. */
const char *ftnl_check_node_domain(const char *domain)
{
	return ftnl_rules_node_domain(domain);
}

/* What is wrong with one node on its own, or NULL. */
const char *ftnl_check_node(const struct ftnl_node *node)
{
	struct ftnl_rules_node rules;
	const char *why;

	ftnl_node_to_rules(&rules, node);
	why = ftnl_rules_node(&rules);
	/* No name, or one that fills the array without its terminator. */
	if (!why && (node->name[0] ||
		     strnlen(node->name, sizeof(node->name)) == sizeof(node->name)))
		why = ftnl_rules_node_name(node->name);
	if (!why && node->domain[0])
		why = ftnl_rules_node_domain(node->domain);
	return why;
}

/* @nodes as the rules see them, with a scratch order; NULL without memory. */
static struct ftnl_rules_node *ftnl_rules_nodes(const struct ftnl_node *nodes,
						size_t count, uint32_t **order)
{
	struct ftnl_rules_node *rules = malloc(count * sizeof(*rules) + 1);
	size_t i;

	*order = malloc(count * sizeof(**order) + 1);
	if (!rules || !*order) {
		free(rules);
		free(*order);
		return NULL;
	}
	for (i = 0; i < count; i++)
		ftnl_node_to_rules(&rules[i], &nodes[i]);
	return rules;
}

/**
 * ftnl_find_duplicate() - find the earliest node repeating an earlier one
 * @nodes: the table, at most FTNL_MAX_NODES + 1 entries
 * @count: its size
 * @key: what makes two nodes equal
 * @first: set to the index of the earlier node of the pair
 * @second: set to the smallest index whose node equals an earlier node
 *
 * Return: 1 if a duplicate was found, 0 if none, -ENOMEM.
 */
int ftnl_find_duplicate(const struct ftnl_node *nodes, size_t count,
			enum ftnl_dup_key key, size_t *first, size_t *second)
{
	struct ftnl_rules_node *rules;
	uint32_t *order, f, s;
	bool found;

	if (count < 2)
		return 0;
	rules = ftnl_rules_nodes(nodes, count, &order);
	if (!rules)
		return -ENOMEM;
	found = ftnl_rules_find_duplicate(rules, (uint32_t)count,
					  key == FTNL_DUP_ID ? FTNL_RULES_DUP_ID :
					  key == FTNL_DUP_NAME ? FTNL_RULES_DUP_NAME :
					  FTNL_RULES_DUP_ENDPOINT,
					  order, &f, &s);
	free(order);
	free(rules);
	if (found) {
		*first = f;
		*second = s;
	}
	return found;
}

static const enum ftnl_rules_field ftnl_required_fields[] = {
	FTNL_RULES_CLUSTER_ID, FTNL_RULES_SELF_ID, FTNL_RULES_HB_PERIOD,
	FTNL_RULES_TIMEOUT,
};

static const unsigned int ftnl_required_bits[] = {
	FTNL_CONFIG_CLUSTER_ID, FTNL_CONFIG_SELF_ID, FTNL_CONFIG_HB_PERIOD,
	FTNL_CONFIG_TIMEOUT,
};

/* The scalar rules, in the words a person needs. */
static int ftnl_validate_scalars(const struct ftnl_cluster_config *config,
				 char *err, size_t errlen)
{
	struct ftnl_rules_config rules = {
		.cluster_id = config->cluster_id,
		.hb_period_us = config->hb_period_us,
		.timeout_us = config->timeout_us,
		.node_count = config->node_count > FTNL_MAX_NODES ?
			      FTNL_MAX_NODES + 1 : (uint32_t)config->node_count,
		.bcast_algo = config->has_bcast_algo ? config->bcast_algo :
			      FTNL_BCAST_HYPERCUBE,
		.fcg_f = config->has_fcg_f ? config->fcg_f : FTNL_FCG_F_DEFAULT,
		.gossip_t_us = config->has_gossip_t ? config->gossip_t_us : 0,
		.rejoin = config->has_rejoin ? config->rejoin : FTNL_REJOIN_AUTO,
		.flap_limit = config->has_flap_limit ? config->flap_limit :
			      FTNL_REJOIN_FLAP_LIMIT_DEFAULT,
		.flap_window_s = config->has_flap_window ?
				 config->flap_window_s :
				 FTNL_REJOIN_FLAP_WINDOW_DEFAULT_S,
		.timeout_min_us = config->has_timeout_min ?
				  config->timeout_min_us : 0,
		/* 0 given is out of range, not "not given" */
		.timeout_nines = !config->has_timeout_nines ? 0 :
				 config->timeout_nines ? config->timeout_nines :
				 FTNL_TIMEOUT_NINES_MAX + 1,
	};
	enum ftnl_rules_field field;
	const char *why;
	char names[128];

	why = ftnl_rules_config(&rules, &field);
	if (!why && config->has_gossip_t) {
		field = FTNL_RULES_GOSSIP_T;
		why = ftnl_check_gossip_t(config->gossip_t_us);
	}
	if (!why && config->has_fence && config->fence > FTNL_FENCE_MAX) {
		ftnl_format_err(err, errlen,
				"unknown fence policy %u (expected none or kill)",
				config->fence);
		return -EINVAL;
	}
	if (!why && config->has_incarnation_floor &&
	    (!config->incarnation_floor ||
	     config->incarnation_floor > FTNL_INCARNATION_FLOOR_MAX)) {
		ftnl_format_err(err, errlen,
				"incarnation floor %llu out of range (1 to 2^63 - 1)",
				(unsigned long long)config->incarnation_floor);
		return -EINVAL;
	}
	if (!why && config->has_update_grace &&
	    (config->update_grace_s < FTNL_UPDATE_GRACE_MIN_S ||
	     config->update_grace_s > FTNL_UPDATE_GRACE_MAX_S)) {
		ftnl_format_err(err, errlen,
				"update grace %u s out of range (%u to %u s)",
				config->update_grace_s, FTNL_UPDATE_GRACE_MIN_S,
				FTNL_UPDATE_GRACE_MAX_S);
		return -EINVAL;
	}
	if (!why && config->has_quorum && config->quorum > FTNL_QUORUM_ON) {
		ftnl_format_err(err, errlen,
				"unknown quorum policy %u (expected 0 off or 1 on)",
				config->quorum);
		return -EINVAL;
	}
	if (!why)
		return 0;
	if (field == FTNL_RULES_BCAST_ALGO) {
		ftnl_format_err(err, errlen,
				"unknown broadcast algorithm %u (expected %s)",
				config->bcast_algo,
				ftnl_bcast_algo_list(names, sizeof(names)));
		return -EINVAL;
	}
	if (field == FTNL_RULES_NODES && config->node_count) {
		ftnl_format_err(err, errlen, "too many nodes: %zu (at most %d)",
				config->node_count, FTNL_MAX_NODES);
		return -E2BIG;
	}
	ftnl_format_err(err, errlen, "%s", why);
	return -EINVAL;
}

/* One cluster key, or a pair key on every node but this one. */
static int ftnl_validate_keys(const struct ftnl_cluster_config *config,
			      char *err, size_t errlen)
{
	const struct ftnl_node *bad = NULL;
	uint32_t keyed = 0, unkeyed = 0;
	bool self_keyed = false;
	const char *why;
	size_t i;

	for (i = 0; i < config->node_count; i++) {
		const struct ftnl_node *node = &config->nodes[i];
		bool self = node->id == config->self_id;

		keyed += node->has_key;
		if (self && node->has_key) {
			self_keyed = true;
			bad = node;
		} else if (!self && !node->has_key && !unkeyed++ && !bad) {
			bad = node;
		}
	}
	why = ftnl_rules_keys(!(config->unset & FTNL_CONFIG_KEY), keyed,
			      self_keyed, unkeyed);
	if (!why)
		return 0;
	if (keyed && (config->unset & FTNL_CONFIG_KEY) && bad)
		ftnl_format_err(err, errlen, "%s (node %u)", why, bad->id);
	else
		ftnl_format_err(err, errlen, "%s", why);
	return -EINVAL;
}

/* Signed broadcasts: a seed, pair keys, a public key on every other node. */
static int ftnl_validate_sign_keys(const struct ftnl_cluster_config *config,
				   char *err, size_t errlen)
{
	const struct ftnl_node *bad = NULL;
	uint32_t signing = 0, unsigned_others = 0;
	bool self_signing = false;
	const char *why;
	size_t i;

	for (i = 0; i < config->node_count; i++) {
		const struct ftnl_node *node = &config->nodes[i];
		bool self = node->id == config->self_id;

		signing += node->has_sign_key;
		if (self && node->has_sign_key) {
			self_signing = true;
			bad = node;
		} else if (!self && !node->has_sign_key && !unsigned_others++ &&
			   !bad) {
			bad = node;
		}
	}
	why = ftnl_rules_sign_keys(config->has_sign_seed,
				   config->unset & FTNL_CONFIG_KEY, signing,
				   self_signing, unsigned_others);
	if (!why)
		return 0;
	if (config->has_sign_seed && (config->unset & FTNL_CONFIG_KEY) && bad)
		ftnl_format_err(err, errlen, "%s (node %u)", why, bad->id);
	else
		ftnl_format_err(err, errlen, "%s", why);
	return -EINVAL;
}

FTNL_EXPORT int ftnl_config_validate(const struct ftnl_cluster_config *config,
				     char *err, size_t errlen)
{
	char addr[FTNL_ADDR_STRLEN];
	enum ftnl_rules_table_fault fault;
	struct ftnl_rules_node *rules;
	uint32_t *order, first, second;
	const struct ftnl_node *node;
	const char *why;
	size_t i;
	int ret;

	if ((config->unset & FTNL_CONFIG_SELF_ID) && config->self_auto) {
		ftnl_format_err(err, errlen,
				"self auto is not resolved yet (ftnl_config_resolve_self())");
		return -EINVAL;
	}
	for (i = 0; i < FTNL_ARRAY_SIZE(ftnl_required_fields); i++) {
		if (config->unset & ftnl_required_bits[i]) {
			ftnl_format_err(err, errlen, "%s",
					ftnl_rules_missing(ftnl_required_fields[i]));
			return -EINVAL;
		}
	}
	ret = ftnl_validate_scalars(config, err, errlen);
	if (!ret)
		ret = ftnl_validate_keys(config, err, errlen);
	if (!ret)
		ret = ftnl_validate_sign_keys(config, err, errlen);
	if (ret)
		return ret;

	for (i = 0; i < config->node_count; i++) {
		node = &config->nodes[i];
		why = ftnl_check_node(node);
		if (why) {
			ftnl_format_err(err, errlen, "node %u (#%zu): %s",
					node->id, i + 1, why);
			return -EINVAL;
		}
	}

	rules = ftnl_rules_nodes(config->nodes, config->node_count, &order);
	if (!rules) {
		ftnl_format_err(err, errlen, "out of memory");
		return -ENOMEM;
	}
	fault = ftnl_rules_table(rules, (uint32_t)config->node_count,
				 config->self_id, order, &first, &second, &why);
	/* libftnl also refuses two nodes of one name, before a missing self. */
	if ((fault == FTNL_RULES_TABLE_OK || fault == FTNL_RULES_TABLE_NO_SELF) &&
	    ftnl_rules_find_duplicate(rules, (uint32_t)config->node_count,
				      FTNL_RULES_DUP_NAME, order, &first,
				      &second)) {
		free(order);
		free(rules);
		ftnl_format_err(err, errlen,
				"duplicate node name %s (nodes %u and %u)",
				config->nodes[second].name,
				config->nodes[first].id, config->nodes[second].id);
		return -EINVAL;
	}
	free(order);
	free(rules);
	switch (fault) {
	case FTNL_RULES_TABLE_OK:
		return 0;
	case FTNL_RULES_TABLE_DUP_ID:
		node = &config->nodes[second];
		ftnl_format_err(err, errlen, "%s %u (nodes #%u and #%u)", why,
				node->id, first + 1, second + 1);
		break;
	case FTNL_RULES_TABLE_DUP_ENDPOINT:
		node = &config->nodes[second];
		ftnl_format_err(err, errlen, "%s %s %u (nodes %u and %u)", why,
				ftnl_format_addr(node->family, &node->addr,
						 addr, sizeof(addr)),
				node->port, config->nodes[first].id, node->id);
		break;
	case FTNL_RULES_TABLE_NO_SELF:
		ftnl_format_err(err, errlen,
				"this node's id (self %u) is not in the node table",
				config->self_id);
		break;
	}
	return -EINVAL;
}
