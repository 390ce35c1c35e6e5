// SPDX-License-Identifier: GPL-2.0
/*
 * The rules of a cluster configuration (config_rules.h). Pure code: the
 * module and libftnl compile this very file.
 */

#include "config_rules.h"

#define FTNL_RULES_STR_(x) #x
#define FTNL_RULES_STR(x) FTNL_RULES_STR_(x)

const char *ftnl_rules_missing(enum ftnl_rules_field field)
{
	switch (field) {
	case FTNL_RULES_CLUSTER_ID:
		return "missing cluster id";
	case FTNL_RULES_SELF_ID:
		return "missing this node's id (self)";
	case FTNL_RULES_HB_PERIOD:
		return "missing heartbeat period";
	case FTNL_RULES_TIMEOUT:
		return "missing timeout";
	case FTNL_RULES_KEY:
		return "missing cluster key";
	case FTNL_RULES_NODES:
		return "the node table is empty";
	default:
		return NULL;	/* optional */
	}
}

const char *ftnl_rules_cluster_id(u32 cluster_id)
{
	return cluster_id ? NULL : "cluster id must be nonzero";
}

/*
 * Messages that name durations say them in words; libftnl's unit tests
 * hold the words to the constants.
 */
const char *ftnl_rules_hb_period(u32 hb_period_us)
{
	if (hb_period_us < FTNL_HB_PERIOD_MIN_US ||
	    hb_period_us > FTNL_HB_PERIOD_MAX_US)
		return "heartbeat period must be between 1ms and 60s";
	return NULL;
}

/* The range alone; d > h is ftnl_rules_timeout_vs_hb(). */
const char *ftnl_rules_timeout(u32 timeout_us)
{
	if (timeout_us <= FTNL_HB_PERIOD_MIN_US ||
	    timeout_us > FTNL_TIMEOUT_MAX_US)
		return "timeout must be above 1ms and at most 600s";
	return NULL;
}

const char *ftnl_rules_timeout_vs_hb(u32 timeout_us, u32 hb_period_us)
{
	if (timeout_us <= hb_period_us)
		return "timeout must be greater than the heartbeat period";
	return NULL;
}

const char *ftnl_rules_bcast_algo(u32 algo)
{
	return algo > FTNL_BCAST_MAX ? "unknown broadcast algorithm" : NULL;
}

const char *ftnl_rules_fcg_f(u32 fcg_f)
{
	if (fcg_f < FTNL_FCG_F_MIN || fcg_f > FTNL_FCG_F_MAX)
		return "FCG's f must be between " FTNL_RULES_STR(FTNL_FCG_F_MIN)
		       " and " FTNL_RULES_STR(FTNL_FCG_F_MAX);
	return NULL;
}

const char *ftnl_rules_gossip_t(u32 gossip_t_us)
{
	if (gossip_t_us > FTNL_GOSSIP_T_MAX_US)
		return "FCG's gossip time must be at most 10s";
	return NULL;
}

const char *ftnl_rules_rejoin(u32 rejoin)
{
	return rejoin > FTNL_REJOIN_MAX ?
	       "unknown rejoin policy (auto or manual)" : NULL;
}

const char *ftnl_rules_flap_limit(u32 flap_limit)
{
	if (flap_limit < FTNL_REJOIN_FLAP_LIMIT_MIN ||
	    flap_limit > FTNL_REJOIN_FLAP_LIMIT_MAX)
		return "the flap limit must be between "
		       FTNL_RULES_STR(FTNL_REJOIN_FLAP_LIMIT_MIN) " and "
		       FTNL_RULES_STR(FTNL_REJOIN_FLAP_LIMIT_MAX) " rejoins";
	return NULL;
}

const char *ftnl_rules_flap_window(u32 flap_window_s)
{
	if (flap_window_s < FTNL_REJOIN_FLAP_WINDOW_MIN_S ||
	    flap_window_s > FTNL_REJOIN_FLAP_WINDOW_MAX_S)
		return "the flap window must be between "
		       FTNL_RULES_STR(FTNL_REJOIN_FLAP_WINDOW_MIN_S) " and "
		       FTNL_RULES_STR(FTNL_REJOIN_FLAP_WINDOW_MAX_S) " seconds";
	return NULL;
}

/* d_min of adaptive timeouts (0: a fixed d): h < d_min <= d <= 60 s. */
const char *ftnl_rules_timeout_adaptive(u32 timeout_min_us, u32 timeout_us,
					u32 hb_period_us)
{
	if (!timeout_min_us)
		return NULL;
	if (timeout_min_us <= hb_period_us)
		return "the adaptive minimum timeout must be greater than the heartbeat period";
	if (timeout_min_us > timeout_us)
		return "the adaptive minimum timeout must not exceed the timeout (its maximum)";
	if (timeout_us > FTNL_TIMEOUT_ADAPTIVE_MAX_US)
		return "with adaptive timeouts the timeout (their maximum) must be at most 60 s";
	return NULL;
}

/* The target rate 10^-nines: only for adaptive timeouts. */
const char *ftnl_rules_timeout_nines(u32 nines, u32 timeout_min_us)
{
	if (!nines)
		return NULL;
	if (!timeout_min_us)
		return "a target false-suspicion rate needs adaptive timeouts (a minimum timeout)";
	if (nines < FTNL_TIMEOUT_NINES_MIN || nines > FTNL_TIMEOUT_NINES_MAX)
		return "the target false-suspicion rate must be 10^-"
		       FTNL_RULES_STR(FTNL_TIMEOUT_NINES_MIN) " to 10^-"
		       FTNL_RULES_STR(FTNL_TIMEOUT_NINES_MAX);
	return NULL;
}

const char *ftnl_rules_node_count(u32 count)
{
	if (!count)
		return "the node table is empty";
	if (count > FTNL_MAX_NODES)
		return "too many nodes (at most " FTNL_RULES_STR(FTNL_MAX_NODES) ")";
	return NULL;
}

/**
 * ftnl_rules_config - check the scalar part of a configuration
 * @config: the values (defaults for what was not given)
 * @field: set to what the message is about
 *
 * In this order: cluster id, h, d, d > h, an empty table, the broadcast
 * algorithm, FCG's f and T, the rejoin policy and its flap limit and
 * window, the adaptive timeouts' minimum and target rate, a table too
 * large.
 *
 * Return: NULL, or the first rule broken.
 */
const char *ftnl_rules_config(const struct ftnl_rules_config *config,
			      enum ftnl_rules_field *field)
{
	const char *why;

	*field = FTNL_RULES_CLUSTER_ID;
	why = ftnl_rules_cluster_id(config->cluster_id);
	if (why)
		return why;
	*field = FTNL_RULES_HB_PERIOD;
	why = ftnl_rules_hb_period(config->hb_period_us);
	if (why)
		return why;
	*field = FTNL_RULES_TIMEOUT;
	why = ftnl_rules_timeout(config->timeout_us);
	if (!why)
		why = ftnl_rules_timeout_vs_hb(config->timeout_us,
					       config->hb_period_us);
	if (why)
		return why;
	*field = FTNL_RULES_NODES;
	if (!config->node_count)
		return ftnl_rules_node_count(0);
	*field = FTNL_RULES_BCAST_ALGO;
	why = ftnl_rules_bcast_algo(config->bcast_algo);
	if (why)
		return why;
	*field = FTNL_RULES_FCG_F;
	why = ftnl_rules_fcg_f(config->fcg_f);
	if (why)
		return why;
	*field = FTNL_RULES_GOSSIP_T;
	why = ftnl_rules_gossip_t(config->gossip_t_us);
	if (why)
		return why;
	*field = FTNL_RULES_REJOIN;
	why = ftnl_rules_rejoin(config->rejoin);
	if (why)
		return why;
	*field = FTNL_RULES_FLAP_LIMIT;
	why = ftnl_rules_flap_limit(config->flap_limit);
	if (why)
		return why;
	*field = FTNL_RULES_FLAP_WINDOW;
	why = ftnl_rules_flap_window(config->flap_window_s);
	if (why)
		return why;
	*field = FTNL_RULES_TIMEOUT_MIN;
	why = ftnl_rules_timeout_adaptive(config->timeout_min_us,
					  config->timeout_us,
					  config->hb_period_us);
	if (why)
		return why;
	*field = FTNL_RULES_TIMEOUT_NINES;
	why = ftnl_rules_timeout_nines(config->timeout_nines,
				       config->timeout_min_us);
	if (why)
		return why;
	*field = FTNL_RULES_NODES;
	return ftnl_rules_node_count(config->node_count);
}

/* Not 0.0.0.0/8 ("this network"), 224.0.0.0/4 or 255.255.255.255. */
bool ftnl_rules_addr4_unicast(const u8 addr[4])
{
	return addr[0] != 0 && (addr[0] >> 4) != 0xe &&
	       !(addr[0] == 0xff && addr[1] == 0xff && addr[2] == 0xff &&
		 addr[3] == 0xff);
}

/* Not ::, not ff00::/8, not a v4-mapped ::ffff:a.b.c.d. */
bool ftnl_rules_addr6_unicast(const u8 addr[16])
{
	bool any = true, mapped = addr[10] == 0xff && addr[11] == 0xff;
	int i;

	for (i = 0; i < 16; i++) {
		if (addr[i])
			any = false;
		if (i < 10 && addr[i])
			mapped = false;
	}
	return !any && addr[0] != 0xff && !mapped;
}

const char *ftnl_rules_addr(u8 family, const u8 addr[16])
{
	if (family == 4)
		return ftnl_rules_addr4_unicast(addr) ? NULL :
		       "node address must be unicast";
	if (family == 6)
		return ftnl_rules_addr6_unicast(addr) ? NULL :
		       "node address must be unicast (and not v4-mapped)";
	return "node needs exactly one address, IPv4 or IPv6";
}

/* What is wrong with one node on its own, or NULL. */
const char *ftnl_rules_node(const struct ftnl_rules_node *node)
{
	const char *why = ftnl_rules_addr(node->family, node->addr);

	if (why)
		return why;
	return node->port ? NULL : "node port must be nonzero";
}

/*
 * A node name (FTNL_A_NODE_NAME): shown to people and put in logs, so
 * host-name characters only. Reads at most FTNL_NODE_NAME_MAX + 1 bytes.
 */
const char *ftnl_rules_node_name(const char *name)
{
	u32 len, i;

	for (len = 0; len <= FTNL_NODE_NAME_MAX && name[len]; len++)
		;
	if (!len || len > FTNL_NODE_NAME_MAX)
		return "node name must be 1 to " FTNL_RULES_STR(FTNL_NODE_NAME_MAX)
		       " characters";
	for (i = 0; i < len; i++) {
		char c = name[i];

		if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
		    !(c >= '0' && c <= '9') && c != '.' && c != '-' && c != '_')
			return "node name must be letters, digits, '.', '-' or '_'";
	}
	return NULL;
}

/**
 * ftnl_rules_node_domain - is @domain a valid failure domain name
 * @domain: NUL-terminated
 *
 * The same characters as a node name (it is shown and logged the same
 * way), 1 to FTNL_NODE_DOMAIN_MAX of them.
 *
 * Return: NULL, or why not.
 */
const char *ftnl_rules_node_domain(const char *domain)
{
	u32 len, i;

	for (len = 0; len <= FTNL_NODE_DOMAIN_MAX && domain[len]; len++)
		;
	if (!len || len > FTNL_NODE_DOMAIN_MAX)
		return "failure domain must be 1 to "
		       FTNL_RULES_STR(FTNL_NODE_DOMAIN_MAX) " characters";
	for (i = 0; i < len; i++) {
		char c = domain[i];

		if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') &&
		    !(c >= '0' && c <= '9') && c != '.' && c != '-' && c != '_')
			return "failure domain must be letters, digits, '.', '-' or '_'";
	}
	return NULL;
}

static int ftnl_rules_cmp_u32(u32 a, u32 b)
{
	return a < b ? -1 : a > b;
}

/* Names compare as strings of at most FTNL_NODE_NAME_MAX + 1 bytes. */
static int ftnl_rules_cmp_name(const char *x, const char *y)
{
	int i;

	x = x ? x : "";
	y = y ? y : "";
	for (i = 0; i <= FTNL_NODE_NAME_MAX; i++) {
		if (x[i] != y[i])
			return (unsigned char)x[i] < (unsigned char)y[i] ? -1 : 1;
		if (!x[i])
			return 0;
	}
	return 0;
}

/**
 * ftnl_rules_keys - are the keys of a configuration complete
 * @cluster_key: it gives a cluster key
 * @keyed: how many nodes carry a pair key
 * @self_keyed: this node's own entry carries one
 * @unkeyed_others: how many other nodes carry none
 *
 * One cluster key, or one pair key on every node but this one: never both,
 * never a mix.
 *
 * Return: NULL, or what is wrong.
 */
const char *ftnl_rules_keys(bool cluster_key, u32 keyed, bool self_keyed,
			    u32 unkeyed_others)
{
	if (cluster_key)
		return keyed ? "pair keys and a cluster key: give one or the other" :
			       NULL;
	if (!keyed)
		return ftnl_rules_missing(FTNL_RULES_KEY);
	if (self_keyed)
		return "this node's own entry takes no pair key";
	if (unkeyed_others)
		return "with pair keys, every node but this one needs its pair key";
	return NULL;
}

/**
 * ftnl_rules_sign_keys - are the signing keys of a configuration complete
 * @seed: it gives this node's signing seed
 * @pair_keys: its datagrams are authenticated with pair keys
 * @signing: how many nodes carry a public signing key
 * @self_signing: this node's own entry carries one
 * @unsigned_others: how many other nodes carry none
 *
 * Signed broadcasts need pair keys (under one cluster key any member can
 * forge anything else anyway), this node's seed, and the public key of
 * every other node; none of it otherwise.
 *
 * Return: NULL, or what is wrong.
 */
const char *ftnl_rules_sign_keys(bool seed, bool pair_keys, u32 signing,
				 bool self_signing, u32 unsigned_others)
{
	if (!seed)
		return signing ? "public signing keys without this node's signing seed" :
				 NULL;
	if (!pair_keys)
		return "signed broadcasts need pair keys";
	if (self_signing)
		return "this node's own entry takes no public signing key (its seed gives it)";
	if (unsigned_others)
		return "with signed broadcasts, every node but this one needs its signing key";
	return NULL;
}

/* Compare two nodes by @key alone. */
static int ftnl_rules_cmp_key(const struct ftnl_rules_node *nodes,
			      enum ftnl_rules_dup_key key, u32 a, u32 b)
{
	const struct ftnl_rules_node *x = &nodes[a], *y = &nodes[b];
	int r, i;

	if (key == FTNL_RULES_DUP_ID)
		return ftnl_rules_cmp_u32(x->id, y->id);
	if (key == FTNL_RULES_DUP_NAME)
		return ftnl_rules_cmp_name(x->name, y->name);
	r = ftnl_rules_cmp_u32(x->family, y->family);
	for (i = 0; !r && i < (x->family == 4 ? 4 : 16); i++)
		r = ftnl_rules_cmp_u32(x->addr[i], y->addr[i]);
	return r ? r : ftnl_rules_cmp_u32(x->port, y->port);
}

/* By @key, then by index, so that equal nodes sort by position. */
static int ftnl_rules_cmp(const struct ftnl_rules_node *nodes,
			  enum ftnl_rules_dup_key key, u32 a, u32 b)
{
	int r = ftnl_rules_cmp_key(nodes, key, a, b);

	return r ? r : ftnl_rules_cmp_u32(a, b);
}

static void ftnl_rules_sift(const struct ftnl_rules_node *nodes,
			    enum ftnl_rules_dup_key key, u32 *order, u32 root,
			    u32 end)
{
	for (;;) {
		u32 child = 2 * root + 1, tmp;

		if (child >= end)
			return;
		if (child + 1 < end &&
		    ftnl_rules_cmp(nodes, key, order[child], order[child + 1]) < 0)
			child++;
		if (ftnl_rules_cmp(nodes, key, order[root], order[child]) >= 0)
			return;
		tmp = order[root];
		order[root] = order[child];
		order[child] = tmp;
		root = child;
	}
}

/* Heapsort: O(n log n), no recursion, no allocation. */
static void ftnl_rules_sort(const struct ftnl_rules_node *nodes, u32 count,
			    enum ftnl_rules_dup_key key, u32 *order)
{
	u32 i, tmp;

	for (i = 0; i < count; i++)
		order[i] = i;
	for (i = count / 2; i-- > 0;)
		ftnl_rules_sift(nodes, key, order, i, count);
	for (i = count; i-- > 1;) {
		tmp = order[0];
		order[0] = order[i];
		order[i] = tmp;
		ftnl_rules_sift(nodes, key, order, 0, i);
	}
}

static bool ftnl_rules_same(const struct ftnl_rules_node *nodes,
			    enum ftnl_rules_dup_key key, u32 a, u32 b)
{
	if (key == FTNL_RULES_DUP_NAME && (!nodes[a].name || !nodes[a].name[0]))
		return false;
	return !ftnl_rules_cmp_key(nodes, key, a, b);
}

/**
 * ftnl_rules_find_duplicate - find the earliest node repeating an earlier one
 * @nodes: the table
 * @count: its size
 * @key: what makes two nodes equal
 * @order: scratch of @count entries
 * @first: set to the index of the earlier node of the pair
 * @second: set to the smallest index whose node equals an earlier node
 *
 * O(n log n), fine for FTNL_MAX_NODES.
 *
 * Return: whether there is a duplicate.
 */
bool ftnl_rules_find_duplicate(const struct ftnl_rules_node *nodes, u32 count,
			       enum ftnl_rules_dup_key key, u32 *order,
			       u32 *first, u32 *second)
{
	bool found = false;
	u32 i;

	if (count < 2)
		return false;
	ftnl_rules_sort(nodes, count, key, order);
	/*
	 * Equal nodes end up adjacent, in index order: the second entry of
	 * each run of equal nodes is a candidate; keep the smallest.
	 */
	for (i = 1; i < count; i++) {
		if (!ftnl_rules_same(nodes, key, order[i - 1], order[i]) ||
		    (i >= 2 && ftnl_rules_same(nodes, key, order[i - 2],
					       order[i - 1])))
			continue;
		if (!found || order[i] < *second) {
			*first = order[i - 1];
			*second = order[i];
			found = true;
		}
	}
	return found;
}

/**
 * ftnl_rules_table - check what needs the whole node table
 * @nodes: the table, each node valid on its own (ftnl_rules_node())
 * @count: its size
 * @self_id: this node's id
 * @order: scratch of @count entries
 * @first: set to the earlier node of a duplicate pair
 * @second: set to the node repeating it (the one to point at)
 * @why: set to the message, NULL when the table is fine
 *
 * Unique ids, then unique endpoints, then this node present.
 *
 * Return: what is wrong, FTNL_RULES_TABLE_OK if nothing.
 */
enum ftnl_rules_table_fault
ftnl_rules_table(const struct ftnl_rules_node *nodes, u32 count, u32 self_id,
		 u32 *order, u32 *first, u32 *second, const char **why)
{
	u32 i;

	*why = "duplicate node id";
	if (ftnl_rules_find_duplicate(nodes, count, FTNL_RULES_DUP_ID, order,
				      first, second))
		return FTNL_RULES_TABLE_DUP_ID;
	*why = "duplicate node address and port";
	if (ftnl_rules_find_duplicate(nodes, count, FTNL_RULES_DUP_ENDPOINT,
				      order, first, second))
		return FTNL_RULES_TABLE_DUP_ENDPOINT;
	for (i = 0; i < count; i++) {
		if (nodes[i].id == self_id) {
			*why = NULL;
			return FTNL_RULES_TABLE_OK;
		}
	}
	*why = "this node's id is not in the node table";
	return FTNL_RULES_TABLE_NO_SELF;
}
