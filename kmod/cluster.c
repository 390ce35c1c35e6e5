// SPDX-License-Identifier: GPL-2.0
/*
 * The cluster configuration: node table allocation, validation, lookup and
 * replacement under RCU.
 */

#include <crypto/algapi.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "config_rules.h"
#include "ftnl.h"
#include "ring/order.h"
#include "ring/ring.h"

struct ftnl_cluster *ftnl_cluster_alloc(u32 node_count)
{
	struct ftnl_cluster *cluster;
	size_t size;

	size = size_add(struct_size(cluster, nodes, node_count),
			array_size(node_count, sizeof(u32)));
	cluster = ftnl_counted(kvzalloc(size, GFP_KERNEL_ACCOUNT));
	if (cluster) {
		cluster->node_count = node_count;
		cluster->by_id = (u32 *)&cluster->nodes[node_count];
	}
	return cluster;
}

/**
 * ftnl_cluster_free - free a configuration that no reader can see
 * @cluster: the configuration, or NULL; its ring, if any, stopped and
 *	without sockets
 */
void ftnl_cluster_free(struct ftnl_cluster *cluster)
{
	u32 i;

	if (cluster) {
		ftnl_ring_destroy(cluster->ring);
		for (i = 0; i < cluster->node_count; i++) {
			ftnl_uncount(cluster->nodes[i].name);
			kfree(cluster->nodes[i].name);
			ftnl_uncount(cluster->nodes[i].domain);
			kfree(cluster->nodes[i].domain);
			memzero_explicit(cluster->nodes[i].key,
					 sizeof(cluster->nodes[i].key));
		}
		memzero_explicit(cluster->key, sizeof(cluster->key));
		memzero_explicit(&cluster->sign_key, sizeof(cluster->sign_key));
		ftnl_uncount(cluster);
		kvfree(cluster);
	}
}

/* Positions compared by the id of the node at each (@priv: the nodes). */
static int ftnl_pos_cmp_id(const void *a, const void *b, const void *priv)
{
	const struct ftnl_node *nodes = priv;
	u32 x = nodes[*(const u32 *)a].id, y = nodes[*(const u32 *)b].id;

	if (x != y)
		return x < y ? -1 : 1;
	return 0;
}

/* Put the table in ring order (kmod/ring/order.c) and index it by id. */
static int ftnl_cluster_order(struct ftnl_cluster *cluster)
{
	u32 count = cluster->node_count, *ring, *scratch, i;
	struct ftnl_ring_member *members;
	struct ftnl_node *copy;
	int err = -ENOMEM;

	members = kvmalloc_array(count, sizeof(*members), GFP_KERNEL);
	ring = kvmalloc_array(count, sizeof(*ring), GFP_KERNEL);
	scratch = kvmalloc_array(count, sizeof(*scratch), GFP_KERNEL);
	copy = kvmalloc_array(count, sizeof(*copy), GFP_KERNEL);
	if (!members || !ring || !scratch || !copy)
		goto out;

	for (i = 0; i < count; i++)
		members[i] = (struct ftnl_ring_member){
			.id = cluster->nodes[i].id,
			.domain = cluster->nodes[i].domain,
		};
	ftnl_ring_order(members, count, ring, scratch);
	/* A permutation: each name and domain still has one owner. */
	memcpy(copy, cluster->nodes, array_size(count, sizeof(*copy)));
	for (i = 0; i < count; i++) {
		cluster->nodes[i] = copy[ring[i]];
		cluster->by_id[i] = i;
	}
	sort_r(cluster->by_id, count, sizeof(u32), ftnl_pos_cmp_id, NULL,
	       cluster->nodes);
	err = 0;
out:
	if (copy)	/* it holds the keys */
		kvfree_sensitive(copy, array_size(count, sizeof(*copy)));
	kvfree(scratch);
	kvfree(ring);
	kvfree(members);
	return err;
}

/* A node as the configuration rules (config_rules.c) see it. */
static void ftnl_node_to_rules(struct ftnl_rules_node *rules,
			       const struct ftnl_node *node)
{
	memset(rules, 0, sizeof(*rules));
	rules->id = node->id;
	rules->port = node->port;
	if (node->family == AF_INET) {
		rules->family = 4;
		memcpy(rules->addr, &node->addr4, sizeof(node->addr4));
	} else {
		rules->family = 6;
		memcpy(rules->addr, &node->addr6, sizeof(node->addr6));
	}
}

/**
 * ftnl_cluster_finalize - validate a filled-in configuration and index it
 * @cluster: configuration whose scalar fields and nodes are set, in the
 *	order the user gave them
 * @why: set to a message for the user on failure
 * @bad_index: set to the index (in user order) of the offending node on
 *	failure, or U32_MAX when no single node is at fault
 *
 * Checks what needs the whole table (unique ids, unique endpoints, self
 * present: ftnl_rules_table()), then puts the nodes in ring order and
 * indexes them by id.
 *
 * Return: 0, -EINVAL with @why set, or -ENOMEM.
 */
int ftnl_cluster_finalize(struct ftnl_cluster *cluster, const char **why,
			  u32 *bad_index)
{
	u32 count = cluster->node_count, *order, first, second, i;
	enum ftnl_rules_table_fault fault;
	struct ftnl_rules_node *rules;
	int err = -ENOMEM;

	*bad_index = U32_MAX;
	rules = kvmalloc_array(count, sizeof(*rules), GFP_KERNEL);
	order = kvmalloc_array(count, sizeof(*order), GFP_KERNEL);
	if (!rules || !order)
		goto out;
	for (i = 0; i < count; i++)
		ftnl_node_to_rules(&rules[i], &cluster->nodes[i]);
	fault = ftnl_rules_table(rules, count, cluster->self_id, order, &first,
				 &second, why);
	err = -EINVAL;
	if (fault == FTNL_RULES_TABLE_DUP_ID ||
	    fault == FTNL_RULES_TABLE_DUP_ENDPOINT)
		*bad_index = second;
	if (fault != FTNL_RULES_TABLE_OK)
		goto out;

	err = ftnl_cluster_order(cluster);
	if (err)
		goto out;
	cluster->self_index = ftnl_cluster_find(cluster, cluster->self_id) -
			      cluster->nodes;
	err = 0;
out:
	kvfree(order);
	kvfree(rules);
	return err;
}

/**
 * ftnl_cluster_find - look a node up by id in a finalized configuration
 * @cluster: the configuration
 * @id: node id
 *
 * Return: the node, or NULL if @id is not a member.
 */
const struct ftnl_node *ftnl_cluster_find(const struct ftnl_cluster *cluster,
					  u32 id)
{
	u32 lo = 0, hi = cluster->node_count;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		const struct ftnl_node *node = &cluster->nodes[cluster->by_id[mid]];

		if (node->id == id)
			return node;
		if (node->id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The key is wiped only once no reader can still be authenticating with it. */
static void ftnl_cluster_free_rcu(struct rcu_head *head)
{
	ftnl_cluster_free(container_of(head, struct ftnl_cluster, rcu));
}

struct ftnl_cluster *ftnl_cluster_current(struct ftnl_net *fn)
{
	return rcu_dereference_protected(fn->cluster,
					 lockdep_is_held(&fn->lock));
}

/**
 * ftnl_cluster_replace - install a new configuration (or none)
 * @fn: the netns state, with @fn->lock held
 * @cluster: the new configuration with its ring created, or NULL to
 *	unconfigure
 *
 * The old ring stops, hands its sockets over where the new one reuses them
 * and closes the others; the new ring starts. Readers under RCU keep the
 * old configuration until they finish; its memory is freed after a grace
 * period (module exit waits with rcu_barrier()). Process context.
 */
void ftnl_cluster_replace(struct ftnl_net *fn, struct ftnl_cluster *cluster)
{
	struct ftnl_cluster *old = ftnl_cluster_current(fn);

	if (old)
		ftnl_ring_stop(old->ring);
	WRITE_ONCE(fn->generation, fn->generation + 1);
	if (cluster)
		cluster->generation = fn->generation;
	rcu_assign_pointer(fn->cluster, cluster);
	if (cluster)
		ftnl_ring_start(cluster->ring, old ? old->ring : NULL);
	if (old) {
		ftnl_ring_close_sockets(old->ring);
		call_rcu(&old->rcu, ftnl_cluster_free_rcu);
	}
}

/*
 * Two members the same for the others: id, address, port, key, ring
 * position.
 */
static bool ftnl_node_same(const struct ftnl_node *a, const struct ftnl_node *b)
{
	if (a->id != b->id || a->family != b->family || a->port != b->port ||
	    crypto_memneq(a->key, b->key, sizeof(a->key)) ||
	    memcmp(a->sign_public, b->sign_public, sizeof(a->sign_public)))
		return false;
	if (a->family == AF_INET)
		return a->addr4 == b->addr4;
	return !memcmp(&a->addr6, &b->addr6, sizeof(a->addr6));
}

/*
 * What other nodes see of a configuration changed: the key, the timing,
 * the broadcast, the node table or its ring order. Local policies (fence,
 * quorum, rejoin, the update grace, node names) are not in it.
 */
static bool ftnl_cluster_wire_changed(const struct ftnl_cluster *old,
				      const struct ftnl_cluster *cluster)
{
	u32 i;

	if (old->cluster_id != cluster->cluster_id ||
	    old->self_id != cluster->self_id ||
	    old->hb_period_us != cluster->hb_period_us ||
	    old->timeout_us != cluster->timeout_us ||
	    old->timeout_min_us != cluster->timeout_min_us ||
	    old->timeout_nines != cluster->timeout_nines ||
	    old->bcast_algo != cluster->bcast_algo ||
	    old->fcg_f != cluster->fcg_f ||
	    old->gossip_end_us != cluster->gossip_end_us ||
	    old->node_count != cluster->node_count ||
	    old->pair_keys != cluster->pair_keys ||
	    old->signs != cluster->signs)
		return true;
	for (i = 0; i < cluster->node_count; i++)
		if (!ftnl_node_same(&old->nodes[i], &cluster->nodes[i]))
			return true;
	return false;
}

/**
 * ftnl_cluster_set_epoch - settle the epoch of a configuration to install
 * @cluster: the new configuration (@epoch_given says whether the request
 *	named its epoch)
 * @old: the running configuration, or NULL
 *
 * A configuration that changes what the other nodes see of it is a new
 * epoch: its datagrams say so, and the nodes updated and not yet updated
 * judge each other by it (Documentation/admin-guide.rst, "Rolling
 * updates"). Left out, the epoch is derived: the running one's, plus one
 * when something changed (0 for a first configuration). Under @fn->lock.
 *
 * Return: NULL, or why the given epoch is refused.
 */
const char *ftnl_cluster_set_epoch(struct ftnl_cluster *cluster,
				   const struct ftnl_cluster *old)
{
	bool changed;

	if (!old)
		return NULL;
	changed = ftnl_cluster_wire_changed(old, cluster);
	if (!cluster->epoch_given) {
		if (changed && old->epoch == U32_MAX)
			return "the epoch is at its last value: delete the cluster, then set it";
		cluster->epoch = old->epoch + changed;
		return NULL;
	}
	if (cluster->epoch < old->epoch)
		return "the epoch is below the running configuration's";
	if (changed && cluster->epoch == old->epoch)
		return "the configuration changed: raise the epoch above the running one";
	return NULL;
}
