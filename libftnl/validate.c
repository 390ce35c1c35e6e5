// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Checking a configuration the way the kernel does (kmod/nl_parse.c and
 * kmod/cluster.c are authoritative; the messages here use their words), so
 * that tools catch mistakes before sending anything.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *ftnl_check_cluster_id(uint32_t cluster_id)
{
	return cluster_id ? NULL : "cluster id must be nonzero";
}

const char *ftnl_check_hb_period(uint32_t hb_period_us)
{
	if (hb_period_us < FTNL_HB_PERIOD_MIN_US ||
	    hb_period_us > FTNL_HB_PERIOD_MAX_US)
		return "heartbeat period must be between 1ms and 60s";
	return NULL;
}

/* The range alone; d > h is checked where both are known. */
const char *ftnl_check_timeout(uint32_t timeout_us)
{
	if (timeout_us <= FTNL_HB_PERIOD_MIN_US ||
	    timeout_us > FTNL_TIMEOUT_MAX_US)
		return "timeout must be above 1ms and at most 600s";
	return NULL;
}

bool ftnl_addr_is_unicast(int family, const union ftnl_addr *addr)
{
	if (family == AF_INET) {
		uint32_t a = ntohl(addr->v4.s_addr);

		return (a >> 24) != 0 &&		/* 0.0.0.0/8 */
		       (a >> 28) != 0xe &&		/* 224.0.0.0/4 */
		       a != 0xffffffffu;		/* broadcast */
	}
	if (family == AF_INET6)
		return !IN6_IS_ADDR_UNSPECIFIED(&addr->v6) &&
		       !IN6_IS_ADDR_MULTICAST(&addr->v6) &&
		       !IN6_IS_ADDR_V4MAPPED(&addr->v6);
	return false;
}

/* FCG's parameters, as kmod/nl_parse.c's policy bounds them. */
const char *ftnl_check_fcg_f(uint32_t fcg_f)
{
	if (fcg_f < FTNL_FCG_F_MIN || fcg_f > FTNL_FCG_F_MAX)
		return "FCG's f must be between " FTNL_STR(FTNL_FCG_F_MIN)
		       " and " FTNL_STR(FTNL_FCG_F_MAX);
	return NULL;
}

/*
 * Stricter than the kernel below one slot: the module counts T in slots of
 * FTNL_GOSSIP_SLOT_US and takes a T of no whole slot for 0, its own
 * choice, which is not what anyone asking for 10us meant. The messages name
 * the limits in words; tests/validate.c holds them to the constants.
 */
const char *ftnl_check_gossip_t(uint32_t gossip_t_us)
{
	if (gossip_t_us > FTNL_GOSSIP_T_MAX_US)
		return "FCG's gossip time must be at most 10s";
	if (gossip_t_us && gossip_t_us < FTNL_GOSSIP_SLOT_US)
		return "FCG's gossip time must be 0 (the module's choice) or at least 20us";
	return NULL;
}

/* A node name: what kmod/nl_parse.c accepts, or why not. */
const char *ftnl_check_node_name(const char *name)
{
	size_t len = strnlen(name, FTNL_NODE_NAME_MAX + 1), i;

	if (!len || len > FTNL_NODE_NAME_MAX)
		return "node name must be 1 to " FTNL_STR(FTNL_NODE_NAME_MAX)
		       " characters";
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
		    !(c >= '0' && c <= '9') && c != '.' && c != '-' && c != '_')
			return "node name must be letters, digits, '.', '-' or '_'";
	}
	return NULL;
}

/* What is wrong with one node on its own, or NULL. */
const char *ftnl_check_node(const struct ftnl_node *node)
{
	if (node->family != AF_INET && node->family != AF_INET6)
		return "node needs exactly one address, IPv4 or IPv6";
	if (!ftnl_addr_is_unicast(node->family, &node->addr))
		return node->family == AF_INET ?
			"node address must be unicast" :
			"node address must be unicast (and not v4-mapped)";
	if (!node->port)
		return "node port must be nonzero";
	if (node->name[0] ||
	    strnlen(node->name, sizeof(node->name)) == sizeof(node->name))
		return ftnl_check_node_name(node->name);
	return NULL;
}

static int ftnl_cmp_u32(uint32_t a, uint32_t b)
{
	return a < b ? -1 : a > b;
}

static int ftnl_node_cmp_endpoint(const struct ftnl_node *a,
				  const struct ftnl_node *b)
{
	int r = ftnl_cmp_u32((uint32_t)a->family, (uint32_t)b->family);

	if (r)
		return r;
	if (a->family == AF_INET)
		r = memcmp(&a->addr.v4, &b->addr.v4, sizeof(a->addr.v4));
	else if (a->family == AF_INET6)
		r = memcmp(&a->addr.v6, &b->addr.v6, sizeof(a->addr.v6));
	return r ? r : ftnl_cmp_u32(a->port, b->port);
}

/* qsort has no context argument: sort indices bundled with their node. */
struct ftnl_sort_entry {
	const struct ftnl_node *node;
	size_t index;
};

static int ftnl_sort_cmp_id(const void *pa, const void *pb)
{
	const struct ftnl_sort_entry *a = pa, *b = pb;
	int r = ftnl_cmp_u32(a->node->id, b->node->id);

	return r ? r : (a->index > b->index) - (a->index < b->index);
}

static int ftnl_sort_cmp_endpoint(const void *pa, const void *pb)
{
	const struct ftnl_sort_entry *a = pa, *b = pb;
	int r = ftnl_node_cmp_endpoint(a->node, b->node);

	return r ? r : (a->index > b->index) - (a->index < b->index);
}

static int ftnl_sort_cmp_name(const void *pa, const void *pb)
{
	const struct ftnl_sort_entry *a = pa, *b = pb;
	int r = strncmp(a->node->name, b->node->name, sizeof(a->node->name));

	return r ? r : (a->index > b->index) - (a->index < b->index);
}

static bool ftnl_same(enum ftnl_dup_key key, const struct ftnl_sort_entry *a,
		      const struct ftnl_sort_entry *b)
{
	if (key == FTNL_DUP_ID)
		return a->node->id == b->node->id;
	if (key == FTNL_DUP_NAME)
		return a->node->name[0] &&
		       !strncmp(a->node->name, b->node->name,
				sizeof(a->node->name));
	return !ftnl_node_cmp_endpoint(a->node, b->node);
}

/**
 * ftnl_find_duplicate() - find the earliest node repeating an earlier one
 * @nodes: the table
 * @count: its size
 * @key: what makes two nodes equal
 * @first: set to the index of the earlier node of the pair
 * @second: set to the smallest index whose node equals an earlier node
 *
 * O(n log n), fine for FTNL_MAX_NODES.
 *
 * Return: 1 if a duplicate was found, 0 if none, -ENOMEM.
 */
int ftnl_find_duplicate(const struct ftnl_node *nodes, size_t count,
			enum ftnl_dup_key key, size_t *first, size_t *second)
{
	struct ftnl_sort_entry *order;
	bool found = false;
	size_t i;

	if (count < 2)
		return 0;
	order = malloc(count * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		order[i].node = &nodes[i];
		order[i].index = i;
	}
	qsort(order, count, sizeof(*order),
	      key == FTNL_DUP_ID ? ftnl_sort_cmp_id :
	      key == FTNL_DUP_NAME ? ftnl_sort_cmp_name :
	      ftnl_sort_cmp_endpoint);

	/*
	 * Equal nodes end up adjacent, in index order: the second entry of
	 * each run of equal nodes is a candidate; keep the smallest.
	 */
	for (i = 1; i < count; i++) {
		if (!ftnl_same(key, &order[i - 1], &order[i]) ||
		    (i >= 2 && ftnl_same(key, &order[i - 2], &order[i - 1])))
			continue;
		if (!found || order[i].index < *second) {
			*first = order[i - 1].index;
			*second = order[i].index;
			found = true;
		}
	}
	free(order);
	return found;
}

static const struct {
	unsigned int field;
	const char *missing;
} ftnl_required_fields[] = {
	{ FTNL_CONFIG_CLUSTER_ID, "missing cluster id" },
	{ FTNL_CONFIG_SELF_ID, "missing this node's id (self)" },
	{ FTNL_CONFIG_HB_PERIOD, "missing heartbeat period" },
	{ FTNL_CONFIG_TIMEOUT, "missing timeout" },
	{ FTNL_CONFIG_KEY, "missing cluster key" },
};

FTNL_EXPORT int ftnl_config_validate(const struct ftnl_cluster_config *config,
				     char *err, size_t errlen)
{
	char addr[FTNL_ADDR_STRLEN];
	size_t i, first, second;
	const char *why;
	bool self_found = false;
	int dup;

	if ((config->unset & FTNL_CONFIG_SELF_ID) && config->self_auto) {
		ftnl_format_err(err, errlen,
				"self auto is not resolved yet (ftnl_config_resolve_self())");
		return -EINVAL;
	}
	for (i = 0; i < FTNL_ARRAY_SIZE(ftnl_required_fields); i++) {
		if (config->unset & ftnl_required_fields[i].field) {
			ftnl_format_err(err, errlen, "%s",
					ftnl_required_fields[i].missing);
			return -EINVAL;
		}
	}
	why = ftnl_check_cluster_id(config->cluster_id);
	if (!why)
		why = ftnl_check_hb_period(config->hb_period_us);
	if (!why)
		why = ftnl_check_timeout(config->timeout_us);
	if (!why && config->timeout_us <= config->hb_period_us)
		why = "timeout must be greater than the heartbeat period";
	if (!why && !config->node_count)
		why = "the node table is empty";
	if (why) {
		ftnl_format_err(err, errlen, "%s", why);
		return -EINVAL;
	}
	if (config->has_bcast_algo && config->bcast_algo > FTNL_BCAST_MAX) {
		char names[128];

		ftnl_format_err(err, errlen,
				"unknown broadcast algorithm %u (expected %s)",
				config->bcast_algo,
				ftnl_bcast_algo_list(names, sizeof(names)));
		return -EINVAL;
	}
	why = config->has_fcg_f ? ftnl_check_fcg_f(config->fcg_f) : NULL;
	if (!why && config->has_gossip_t)
		why = ftnl_check_gossip_t(config->gossip_t_us);
	if (why) {
		ftnl_format_err(err, errlen, "%s", why);
		return -EINVAL;
	}
	if (config->node_count > FTNL_MAX_NODES) {
		ftnl_format_err(err, errlen, "too many nodes: %zu (at most %d)",
				config->node_count, FTNL_MAX_NODES);
		return -E2BIG;
	}

	for (i = 0; i < config->node_count; i++) {
		const struct ftnl_node *node = &config->nodes[i];

		why = ftnl_check_node(node);
		if (why) {
			ftnl_format_err(err, errlen, "node %u (#%zu): %s",
					node->id, i + 1, why);
			return -EINVAL;
		}
		if (node->id == config->self_id)
			self_found = true;
	}

	dup = ftnl_find_duplicate(config->nodes, config->node_count,
				  FTNL_DUP_ID, &first, &second);
	if (dup < 0) {
		ftnl_format_err(err, errlen, "out of memory");
		return dup;
	}
	if (dup) {
		ftnl_format_err(err, errlen,
				"duplicate node id %u (nodes #%zu and #%zu)",
				config->nodes[second].id, first + 1, second + 1);
		return -EINVAL;
	}
	dup = ftnl_find_duplicate(config->nodes, config->node_count,
				  FTNL_DUP_ENDPOINT, &first, &second);
	if (dup < 0) {
		ftnl_format_err(err, errlen, "out of memory");
		return dup;
	}
	if (dup) {
		const struct ftnl_node *node = &config->nodes[second];

		ftnl_format_err(err, errlen,
				"duplicate node address and port %s %u (nodes %u and %u)",
				ftnl_format_addr(node->family, &node->addr,
						 addr, sizeof(addr)),
				node->port, config->nodes[first].id, node->id);
		return -EINVAL;
	}
	dup = ftnl_find_duplicate(config->nodes, config->node_count,
				  FTNL_DUP_NAME, &first, &second);
	if (dup < 0) {
		ftnl_format_err(err, errlen, "out of memory");
		return dup;
	}
	if (dup) {
		ftnl_format_err(err, errlen,
				"duplicate node name %s (nodes %u and %u)",
				config->nodes[second].name,
				config->nodes[first].id, config->nodes[second].id);
		return -EINVAL;
	}
	if (!self_found) {
		ftnl_format_err(err, errlen,
				"this node's id (self %u) is not in the node table",
				config->self_id);
		return -EINVAL;
	}
	return 0;
}
