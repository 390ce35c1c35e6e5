// SPDX-License-Identifier: GPL-2.0
/*
 * The configuration rules (kmod/config_rules.c) on their own: addresses
 * byte by byte, the scalar rules at their limits, and the duplicate
 * finder against a brute-force model on random tables (the module and
 * libftnl both point at the node it returns).
 */
#include <stdlib.h>
#include <string.h>

#include "../../tools/testing/tap.h"
#include "../config_rules.h"

static void test_addresses(const void *arg)
{
	static const struct {
		u8 family;
		u8 addr[16];
		bool ok;
	} cases[] = {
		{ 4, { 10, 0, 0, 1 }, true },
		{ 4, { 127, 0, 0, 1 }, true },
		{ 4, { 0, 1, 2, 3 }, false },		/* 0.0.0.0/8 */
		{ 4, { 224, 0, 0, 1 }, false },
		{ 4, { 239, 255, 255, 255 }, false },
		{ 4, { 240, 0, 0, 1 }, true },
		{ 4, { 255, 255, 255, 255 }, false },
		{ 4, { 255, 255, 255, 254 }, true },
		{ 6, { 0xfd, 0, [15] = 1 }, true },
		{ 6, { 0xfe, 0x80, [15] = 1 }, true },
		{ 6, { 0 }, false },			/* :: */
		{ 6, { [15] = 1 }, true },		/* ::1 */
		{ 6, { 0xff, 0x02, [15] = 1 }, false },
		{ 6, { [10] = 0xff, [11] = 0xff, 10, 0, 0, 9 }, false },
		{ 6, { [9] = 1, [10] = 0xff, [11] = 0xff, 10, 0, 0, 9 }, true },
		{ 0, { 10, 0, 0, 1 }, false },
		{ 5, { 10, 0, 0, 1 }, false },
	};
	size_t i;

	(void)arg;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *why = ftnl_rules_addr(cases[i].family, cases[i].addr);

		if (!!why == cases[i].ok) {
			tap_diag("case %zu: %s", i, why ? why : "accepted");
			TAP_CHECK(false);
		}
	}
}

static void test_scalars(const void *arg)
{
	struct ftnl_rules_config c = {
		.cluster_id = 1, .hb_period_us = FTNL_HB_PERIOD_MIN_US,
		.timeout_us = FTNL_HB_PERIOD_MIN_US + 1, .node_count = 1,
		.bcast_algo = FTNL_BCAST_MAX, .fcg_f = FTNL_FCG_F_MAX,
		.gossip_t_us = FTNL_GOSSIP_T_MAX_US,
		.rejoin = FTNL_REJOIN_MAX,
		.flap_limit = FTNL_REJOIN_FLAP_LIMIT_MAX,
		.flap_window_s = FTNL_REJOIN_FLAP_WINDOW_MAX_S,
	};
	enum ftnl_rules_field field;

	(void)arg;
	TAP_CHECK(!ftnl_rules_config(&c, &field));
	/* The rejoin policy, its flap limit and window, each at its limits. */
	c.rejoin++;
	TAP_CHECK(ftnl_rules_config(&c, &field) && field == FTNL_RULES_REJOIN);
	c.rejoin--;
	c.flap_limit++;
	TAP_CHECK_STR(ftnl_rules_config(&c, &field),
		      "the flap limit must be between 1 and 1000 rejoins");
	TAP_CHECK_INT(field, FTNL_RULES_FLAP_LIMIT);
	c.flap_limit = FTNL_REJOIN_FLAP_LIMIT_MIN - 1;
	TAP_CHECK(ftnl_rules_config(&c, &field) && field == FTNL_RULES_FLAP_LIMIT);
	c.flap_limit = FTNL_REJOIN_FLAP_LIMIT_MIN;
	c.flap_window_s++;
	TAP_CHECK_STR(ftnl_rules_config(&c, &field),
		      "the flap window must be between 1 and 86400 seconds");
	TAP_CHECK_INT(field, FTNL_RULES_FLAP_WINDOW);
	c.flap_window_s = FTNL_REJOIN_FLAP_WINDOW_MIN_S - 1;
	TAP_CHECK(ftnl_rules_config(&c, &field) && field == FTNL_RULES_FLAP_WINDOW);
	c.flap_window_s = FTNL_REJOIN_FLAP_WINDOW_MIN_S;
	TAP_CHECK(!ftnl_rules_config(&c, &field));
	c.node_count = FTNL_MAX_NODES;
	TAP_CHECK(!ftnl_rules_config(&c, &field));
	c.node_count++;
	TAP_CHECK_STR(ftnl_rules_config(&c, &field), "too many nodes (at most 65536)");
	TAP_CHECK_INT(field, FTNL_RULES_NODES);
	c.node_count = 0;
	TAP_CHECK_STR(ftnl_rules_config(&c, &field), "the node table is empty");
	c.node_count = 1;
	c.gossip_t_us++;
	TAP_CHECK(ftnl_rules_config(&c, &field) && field == FTNL_RULES_GOSSIP_T);
	c.gossip_t_us--;
	c.fcg_f = FTNL_FCG_F_MIN - 1;
	TAP_CHECK_STR(ftnl_rules_config(&c, &field), "FCG's f must be between 1 and 7");
	TAP_CHECK_INT(field, FTNL_RULES_FCG_F);
	c.fcg_f = FTNL_FCG_F_MIN;
	c.bcast_algo++;
	TAP_CHECK(ftnl_rules_config(&c, &field) && field == FTNL_RULES_BCAST_ALGO);
	c.bcast_algo = 0;
	c.timeout_us = c.hb_period_us;	/* 1 ms: out of range, and not > h */
	TAP_CHECK_STR(ftnl_rules_config(&c, &field),
		      "timeout must be above 1ms and at most 600s");
	TAP_CHECK_INT(field, FTNL_RULES_TIMEOUT);
	c.hb_period_us = 100000;
	c.timeout_us = 100000;
	TAP_CHECK_STR(ftnl_rules_config(&c, &field),
		      "timeout must be greater than the heartbeat period");
	c.timeout_us = FTNL_TIMEOUT_MAX_US + 1;
	TAP_CHECK_STR(ftnl_rules_config(&c, &field),
		      "timeout must be above 1ms and at most 600s");
	c.timeout_us = 300000;
	c.hb_period_us = FTNL_HB_PERIOD_MAX_US + 1;
	TAP_CHECK_INT(!!ftnl_rules_config(&c, &field), 1);
	TAP_CHECK_INT(field, FTNL_RULES_HB_PERIOD);
	c.cluster_id = 0;
	TAP_CHECK_STR(ftnl_rules_config(&c, &field), "cluster id must be nonzero");
	TAP_CHECK_INT(field, FTNL_RULES_CLUSTER_ID);
}

static bool same(const struct ftnl_rules_node *a, const struct ftnl_rules_node *b,
		 enum ftnl_rules_dup_key key)
{
	if (key == FTNL_RULES_DUP_ID)
		return a->id == b->id;
	return a->family == b->family && a->port == b->port &&
	       !memcmp(a->addr, b->addr, 16);
}

/* Random tables drawn from few values, so that duplicates are common. */
static void test_duplicates(const void *arg)
{
	static struct ftnl_rules_node nodes[300];
	static u32 order[300];
	unsigned int seed = 7;
	int round;

	(void)arg;
	for (round = 0; round < 3000; round++) {
		u32 n = rand_r(&seed) % 300, span = 1 + rand_r(&seed) % 600;
		u32 i, j, first = 0, second = 0, want_first = 0, want_second = 0;
		enum ftnl_rules_dup_key key = rand_r(&seed) % 2;
		bool want = false, got;

		memset(nodes, 0, sizeof(nodes));
		for (i = 0; i < n; i++) {
			nodes[i].id = rand_r(&seed) % span;
			nodes[i].family = rand_r(&seed) % 2 ? 4 : 6;
			nodes[i].addr[0] = 10;
			nodes[i].addr[3] = rand_r(&seed) % span;
			nodes[i].port = 7400 + rand_r(&seed) % 2;
		}
		for (j = 1; j < n && !want; j++)
			for (i = 0; i < j && !want; i++)
				if (same(&nodes[i], &nodes[j], key)) {
					want = true;
					want_first = i;
					want_second = j;
				}
		got = ftnl_rules_find_duplicate(nodes, n, key, order, &first,
						&second);
		if (!TAP_CHECK_INT(got, want))
			return;
		if (want && (!TAP_CHECK_UINT(second, want_second) ||
			     !TAP_CHECK_UINT(first, want_first)))
			return;
	}
}

static void test_table(const void *arg)
{
	struct ftnl_rules_node nodes[3] = {
		{ .id = 5, .port = 1, .family = 4, .addr = { 10, 0, 0, 1 } },
		{ .id = 6, .port = 1, .family = 4, .addr = { 10, 0, 0, 2 } },
		{ .id = 7, .port = 1, .family = 6, .addr = { 10, 0, 0, 1 } },
	};
	u32 order[3], first, second;
	const char *why;

	(void)arg;
	TAP_CHECK_INT(ftnl_rules_table(nodes, 3, 6, order, &first, &second, &why),
		      FTNL_RULES_TABLE_OK);
	TAP_CHECK(!why);
	TAP_CHECK_INT(ftnl_rules_table(nodes, 3, 8, order, &first, &second, &why),
		      FTNL_RULES_TABLE_NO_SELF);
	TAP_CHECK_STR(why, "this node's id is not in the node table");
	nodes[2].family = 4;	/* same endpoint as the first */
	TAP_CHECK_INT(ftnl_rules_table(nodes, 3, 6, order, &first, &second, &why),
		      FTNL_RULES_TABLE_DUP_ENDPOINT);
	TAP_CHECK_STR(why, "duplicate node address and port");
	TAP_CHECK_UINT(first, 0);
	TAP_CHECK_UINT(second, 2);
	nodes[1].id = 7;	/* ids come first */
	TAP_CHECK_INT(ftnl_rules_table(nodes, 3, 6, order, &first, &second, &why),
		      FTNL_RULES_TABLE_DUP_ID);
	TAP_CHECK_STR(why, "duplicate node id");
	TAP_CHECK_UINT(first, 1);
	TAP_CHECK_UINT(second, 2);
}

static void test_names(const void *arg)
{
	struct ftnl_rules_node nodes[4] = {
		{ .id = 1, .name = "cn1" }, { .id = 2, .name = "" },
		{ .id = 3, .name = NULL }, { .id = 4, .name = "cn1" },
	};
	char long_name[FTNL_NODE_NAME_MAX + 2];
	u32 order[4], first, second;

	(void)arg;
	TAP_CHECK(ftnl_rules_find_duplicate(nodes, 4, FTNL_RULES_DUP_NAME,
					    order, &first, &second));
	TAP_CHECK_UINT(first, 0);
	TAP_CHECK_UINT(second, 3);
	nodes[3].name = "cn2";	/* no name twice is not a duplicate */
	TAP_CHECK(!ftnl_rules_find_duplicate(nodes, 4, FTNL_RULES_DUP_NAME,
					     order, &first, &second));
	TAP_CHECK(!ftnl_rules_node_name("cn-01.rack_2"));
	TAP_CHECK_STR(ftnl_rules_node_name("cn 2"),
		      "node name must be letters, digits, '.', '-' or '_'");
	TAP_CHECK_STR(ftnl_rules_node_name(""), "node name must be 1 to 63 characters");
	memset(long_name, 'a', sizeof(long_name));
	long_name[FTNL_NODE_NAME_MAX] = '\0';
	TAP_CHECK(!ftnl_rules_node_name(long_name));
	long_name[FTNL_NODE_NAME_MAX] = 'a';	/* 64 bytes, no end read */
	TAP_CHECK_STR(ftnl_rules_node_name(long_name),
		      "node name must be 1 to 63 characters");

	/* Failure domains: the same characters, 1 to 31 of them. */
	TAP_CHECK(!ftnl_rules_node_domain("rack-01.row_2"));
	TAP_CHECK_STR(ftnl_rules_node_domain("rack 2"),
		      "failure domain must be letters, digits, '.', '-' or '_'");
	TAP_CHECK_STR(ftnl_rules_node_domain(""),
		      "failure domain must be 1 to 31 characters");
	long_name[FTNL_NODE_DOMAIN_MAX] = '\0';
	TAP_CHECK(!ftnl_rules_node_domain(long_name));
	long_name[FTNL_NODE_DOMAIN_MAX] = 'a';	/* 32 bytes, no NUL within */
	TAP_CHECK_STR(ftnl_rules_node_domain(long_name),
		      "failure domain must be 1 to 31 characters");
}

/* One cluster key, or a pair key on every node but this one. */
static void test_keys(const void *arg)
{
	(void)arg;
	TAP_CHECK(!ftnl_rules_keys(true, 0, false, 4));
	TAP_CHECK(!ftnl_rules_keys(false, 4, false, 0));
	TAP_CHECK_STR(ftnl_rules_keys(true, 1, false, 3),
		      "pair keys and a cluster key: give one or the other");
	TAP_CHECK_STR(ftnl_rules_keys(false, 0, false, 4),
		      "missing cluster key");
	TAP_CHECK_STR(ftnl_rules_keys(false, 5, true, 0),
		      "this node's own entry takes no pair key");
	TAP_CHECK_STR(ftnl_rules_keys(false, 3, false, 1),
		      "with pair keys, every node but this one needs its pair key");
	/* a one-node table on pair keys has no pair: no key, so none given */
	TAP_CHECK_STR(ftnl_rules_keys(false, 0, false, 0),
		      "missing cluster key");
}

int main(void)
{
	tap_add(test_addresses, NULL, "unicast IPv4 and IPv6 addresses, byte by byte");
	tap_add(test_scalars, NULL, "scalar rules at their uapi limits, in order");
	tap_add(test_duplicates, NULL, "3000 random tables: the earliest repeat, as a brute force finds it");
	tap_add(test_table, NULL, "ids, then endpoints, then self");
	tap_add(test_names, NULL, "node names: characters, length, duplicates");
	tap_add(test_keys, NULL, "keys: a cluster key or every other node's pair key");
	return tap_run();
}
