// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * ftnl_config_validate(): every rule, at its boundaries, with the message
 * a user sees.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"
#include "tap.h"

#define NODES 4

struct fixture {
	struct ftnl_node nodes[NODES];
	struct ftnl_cluster_config config;
};

static void fixture_init(struct fixture *f)
{
	static const char *const addrs[NODES] = {
		"10.0.0.1", "10.0.0.2", "fd00::3", "fd00::4",
	};
	int i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < NODES; i++) {
		f->nodes[i].id = (uint32_t)(i + 1) * 10;
		f->nodes[i].port = 7400;
		if (ftnl_parse_addr(addrs[i], &f->nodes[i].family,
				    &f->nodes[i].addr))
			abort();
	}
	f->config.cluster_id = 42;
	f->config.self_id = 20;
	f->config.hb_period_us = 100000;
	f->config.timeout_us = 300000;
	f->config.nodes = f->nodes;
	f->config.node_count = NODES;
}

struct rule_case {
	const char *name;
	void (*mutate)(struct fixture *f);
	int err;
	const char *msg;	/* whole message; NULL when valid */
};

static void m_none(struct fixture *f) { (void)f; }
static void m_unset_cluster(struct fixture *f) { f->config.unset = FTNL_CONFIG_CLUSTER_ID; }
static void m_unset_self(struct fixture *f) { f->config.unset = FTNL_CONFIG_SELF_ID; }
static void m_unset_hb(struct fixture *f) { f->config.unset = FTNL_CONFIG_HB_PERIOD; }
static void m_unset_timeout(struct fixture *f) { f->config.unset = FTNL_CONFIG_TIMEOUT; }
static void m_unset_key(struct fixture *f) { f->config.unset = FTNL_CONFIG_KEY; }
static void m_cluster_zero(struct fixture *f) { f->config.cluster_id = 0; }
static void m_cluster_max(struct fixture *f) { f->config.cluster_id = UINT32_MAX; }
static void m_hb_min(struct fixture *f) { f->config.hb_period_us = FTNL_HB_PERIOD_MIN_US; f->config.timeout_us = FTNL_HB_PERIOD_MIN_US + 1; }
static void m_hb_below(struct fixture *f) { f->config.hb_period_us = FTNL_HB_PERIOD_MIN_US - 1; }
static void m_hb_max(struct fixture *f) { f->config.hb_period_us = FTNL_HB_PERIOD_MAX_US; f->config.timeout_us = FTNL_HB_PERIOD_MAX_US + 1; }
static void m_hb_above(struct fixture *f) { f->config.hb_period_us = FTNL_HB_PERIOD_MAX_US + 1; f->config.timeout_us = FTNL_TIMEOUT_MAX_US; }
static void m_timeout_eq(struct fixture *f) { f->config.timeout_us = f->config.hb_period_us; }
static void m_timeout_below(struct fixture *f) { f->config.timeout_us = f->config.hb_period_us - 1; }
static void m_timeout_max(struct fixture *f) { f->config.timeout_us = FTNL_TIMEOUT_MAX_US; }
static void m_timeout_above(struct fixture *f) { f->config.timeout_us = FTNL_TIMEOUT_MAX_US + 1; }
static void m_no_nodes(struct fixture *f) { f->config.node_count = 0; }
static void m_family(struct fixture *f) { f->nodes[2].family = AF_UNSPEC; }
static void m_port_zero(struct fixture *f) { f->nodes[1].port = 0; }
static void m_port_max(struct fixture *f) { f->nodes[1].port = 65535; }
static void m_v4_zeronet(struct fixture *f) { ftnl_parse_addr("0.1.2.3", &f->nodes[0].family, &f->nodes[0].addr); }
static void m_v4_multicast(struct fixture *f) { ftnl_parse_addr("239.1.1.1", &f->nodes[0].family, &f->nodes[0].addr); }
static void m_v4_broadcast(struct fixture *f) { ftnl_parse_addr("255.255.255.255", &f->nodes[0].family, &f->nodes[0].addr); }
static void m_v4_loopback(struct fixture *f) { ftnl_parse_addr("127.0.0.1", &f->nodes[0].family, &f->nodes[0].addr); }
static void m_v6_any(struct fixture *f) { ftnl_parse_addr("::", &f->nodes[3].family, &f->nodes[3].addr); }
static void m_v6_multicast(struct fixture *f) { ftnl_parse_addr("ff02::1", &f->nodes[3].family, &f->nodes[3].addr); }
static void m_v6_mapped(struct fixture *f) { ftnl_parse_addr("::ffff:10.0.0.9", &f->nodes[3].family, &f->nodes[3].addr); }
static void m_v6_linklocal(struct fixture *f) { ftnl_parse_addr("fe80::1", &f->nodes[3].family, &f->nodes[3].addr); }
static void m_dup_id(struct fixture *f) { f->nodes[3].id = f->nodes[1].id; }
static void m_dup_endpoint(struct fixture *f) { f->nodes[3] = f->nodes[2]; f->nodes[3].id = 99; }
static void m_same_addr_other_port(struct fixture *f) { f->nodes[3] = f->nodes[2]; f->nodes[3].id = 99; f->nodes[3].port = 7401; }
static void m_name_ok(struct fixture *f) { strcpy(f->nodes[0].name, "cn-01.rack_2"); }
static void m_name_bad(struct fixture *f) { strcpy(f->nodes[1].name, "cn 2"); }
static void m_name_unterminated(struct fixture *f) { memset(f->nodes[1].name, 'a', sizeof(f->nodes[1].name)); }
static void m_name_dup(struct fixture *f) { strcpy(f->nodes[0].name, "cn1"); strcpy(f->nodes[3].name, "cn1"); }
/* Domains are shared by design: the same one on several nodes is valid. */
static void m_domain_ok(struct fixture *f) { strcpy(f->nodes[0].domain, "rack-1.a_b"); strcpy(f->nodes[3].domain, "rack-1.a_b"); }
static void m_domain_bad(struct fixture *f) { strcpy(f->nodes[1].domain, "rack/2"); }
static void m_domain_unterminated(struct fixture *f) { memset(f->nodes[1].domain, 'r', sizeof(f->nodes[1].domain)); }
static void m_self_missing(struct fixture *f) { f->config.self_id = 21; }
static void m_bcast_hypercube(struct fixture *f) { f->config.has_bcast_algo = true; f->config.bcast_algo = FTNL_BCAST_HYPERCUBE; }
static void m_bcast_bmg(struct fixture *f) { f->config.has_bcast_algo = true; f->config.bcast_algo = FTNL_BCAST_BMG; }
static void m_bcast_unknown(struct fixture *f) { f->config.has_bcast_algo = true; f->config.bcast_algo = FTNL_BCAST_MAX + 1; }
static void m_bcast_255(struct fixture *f) { f->config.has_bcast_algo = true; f->config.bcast_algo = 255; }
static void m_bcast_not_sent(struct fixture *f) { f->config.has_bcast_algo = false; f->config.bcast_algo = 200; }
static void m_bcast_fcg(struct fixture *f) { f->config.has_bcast_algo = true; f->config.bcast_algo = FTNL_BCAST_FCG; }
static void m_fcg_f_min(struct fixture *f) { m_bcast_fcg(f); f->config.has_fcg_f = true; f->config.fcg_f = 1; }
static void m_fcg_f_max(struct fixture *f) { m_bcast_fcg(f); f->config.has_fcg_f = true; f->config.fcg_f = 7; }
static void m_fcg_f_zero(struct fixture *f) { m_bcast_fcg(f); f->config.has_fcg_f = true; f->config.fcg_f = 0; }
static void m_fcg_f_above(struct fixture *f) { m_bcast_fcg(f); f->config.has_fcg_f = true; f->config.fcg_f = 8; }
static void m_fcg_f_not_sent(struct fixture *f) { f->config.has_fcg_f = false; f->config.fcg_f = 0; }
static void m_gossip_zero(struct fixture *f) { f->config.has_gossip_t = true; f->config.gossip_t_us = 0; }
static void m_gossip_max(struct fixture *f) { f->config.has_gossip_t = true; f->config.gossip_t_us = 10000000; }
static void m_gossip_above(struct fixture *f) { f->config.has_gossip_t = true; f->config.gossip_t_us = 10000001; }
static void m_gossip_not_sent(struct fixture *f) { f->config.has_gossip_t = false; f->config.gossip_t_us = UINT32_MAX; }

static const struct rule_case rule_cases[] = {
	{ "valid configuration", m_none, 0, NULL },
	{ "cluster id unset", m_unset_cluster, -EINVAL, "missing cluster id" },
	{ "self unset", m_unset_self, -EINVAL, "missing this node's id (self)" },
	{ "heartbeat unset", m_unset_hb, -EINVAL, "missing heartbeat period" },
	{ "timeout unset", m_unset_timeout, -EINVAL, "missing timeout" },
	{ "key unset", m_unset_key, -EINVAL, "missing cluster key" },
	{ "cluster id 0", m_cluster_zero, -EINVAL, "cluster id must be nonzero" },
	{ "cluster id 2^32-1", m_cluster_max, 0, NULL },
	{ "heartbeat at the minimum, timeout just above", m_hb_min, 0, NULL },
	{ "heartbeat below the minimum", m_hb_below, -EINVAL,
	  "heartbeat period must be between 1ms and 60s" },
	{ "heartbeat at the maximum", m_hb_max, 0, NULL },
	{ "heartbeat above the maximum", m_hb_above, -EINVAL,
	  "heartbeat period must be between 1ms and 60s" },
	{ "timeout equal to the heartbeat", m_timeout_eq, -EINVAL,
	  "timeout must be greater than the heartbeat period" },
	{ "timeout below the heartbeat", m_timeout_below, -EINVAL,
	  "timeout must be greater than the heartbeat period" },
	{ "timeout at the maximum", m_timeout_max, 0, NULL },
	{ "timeout above the maximum", m_timeout_above, -EINVAL,
	  "timeout must be above 1ms and at most 600s" },
	{ "empty node table", m_no_nodes, -EINVAL, "the node table is empty" },
	{ "node without an address family", m_family, -EINVAL,
	  "node 30 (#3): node needs exactly one address, IPv4 or IPv6" },
	{ "port 0", m_port_zero, -EINVAL, "node 20 (#2): node port must be nonzero" },
	{ "port 65535", m_port_max, 0, NULL },
	{ "IPv4 0.0.0.0/8", m_v4_zeronet, -EINVAL,
	  "node 10 (#1): node address must be unicast" },
	{ "IPv4 multicast", m_v4_multicast, -EINVAL,
	  "node 10 (#1): node address must be unicast" },
	{ "IPv4 broadcast", m_v4_broadcast, -EINVAL,
	  "node 10 (#1): node address must be unicast" },
	{ "IPv4 loopback is fine", m_v4_loopback, 0, NULL },
	{ "IPv6 unspecified", m_v6_any, -EINVAL,
	  "node 40 (#4): node address must be unicast (and not v4-mapped)" },
	{ "IPv6 multicast", m_v6_multicast, -EINVAL,
	  "node 40 (#4): node address must be unicast (and not v4-mapped)" },
	{ "IPv6 v4-mapped", m_v6_mapped, -EINVAL,
	  "node 40 (#4): node address must be unicast (and not v4-mapped)" },
	{ "IPv6 link-local is fine", m_v6_linklocal, 0, NULL },
	{ "duplicate id", m_dup_id, -EINVAL, "duplicate node id 20 (nodes #2 and #4)" },
	{ "duplicate address and port", m_dup_endpoint, -EINVAL,
	  "duplicate node address and port fd00::3 7400 (nodes 30 and 99)" },
	{ "same address, other port", m_same_addr_other_port, 0, NULL },
	{ "node name of letters, digits, . - _", m_name_ok, 0, NULL },
	{ "node name with a blank", m_name_bad, -EINVAL,
	  "node 20 (#2): node name must be letters, digits, '.', '-' or '_'" },
	{ "node name without its NUL", m_name_unterminated, -EINVAL,
	  "node 20 (#2): node name must be 1 to 63 characters" },
	{ "duplicate node name", m_name_dup, -EINVAL,
	  "duplicate node name cn1 (nodes 10 and 40)" },
	{ "one failure domain on two nodes", m_domain_ok, 0, NULL },
	{ "failure domain with a slash", m_domain_bad, -EINVAL,
	  "node 20 (#2): failure domain must be letters, digits, '.', '-' or '_'" },
	{ "failure domain without its NUL", m_domain_unterminated, -EINVAL,
	  "node 20 (#2): failure domain must be 1 to 31 characters" },
	{ "self not in the table", m_self_missing, -EINVAL,
	  "this node's id (self 21) is not in the node table" },
	{ "bcast hypercube", m_bcast_hypercube, 0, NULL },
	{ "bcast bmg", m_bcast_bmg, 0, NULL },
	{ "bcast fcg", m_bcast_fcg, 0, NULL },
	{ "bcast algorithm above the last", m_bcast_unknown, -EINVAL,
	  "unknown broadcast algorithm 3 (expected hypercube, bmg or fcg)" },
	{ "bcast algorithm 255", m_bcast_255, -EINVAL,
	  "unknown broadcast algorithm 255 (expected hypercube, bmg or fcg)" },
	{ "bcast algorithm not sent: its value does not matter",
	  m_bcast_not_sent, 0, NULL },
	{ "FCG f 1", m_fcg_f_min, 0, NULL },
	{ "FCG f 7", m_fcg_f_max, 0, NULL },
	{ "FCG f 0", m_fcg_f_zero, -EINVAL, "FCG's f must be between 1 and 7" },
	{ "FCG f 8", m_fcg_f_above, -EINVAL, "FCG's f must be between 1 and 7" },
	{ "FCG f not sent: its value does not matter", m_fcg_f_not_sent, 0, NULL },
	{ "gossip time 0 (chosen from n)", m_gossip_zero, 0, NULL },
	{ "gossip time 10s", m_gossip_max, 0, NULL },
	{ "gossip time above 10s", m_gossip_above, -EINVAL,
	  "FCG's gossip time must be at most 10s" },
	{ "gossip time not sent: its value does not matter", m_gossip_not_sent,
	  0, NULL },
};

static void test_rule(const void *arg)
{
	const struct rule_case *c = arg;
	struct fixture f;
	char err[256] = "";

	fixture_init(&f);
	c->mutate(&f);
	TAP_CHECK_INT(ftnl_config_validate(&f.config, err, sizeof(err)), c->err);
	if (c->msg)
		TAP_CHECK_STR(err, c->msg);
	else
		TAP_CHECK_STR(err, "");
}

static struct ftnl_node *many_nodes(size_t count)
{
	struct ftnl_node *nodes = calloc(count, sizeof(*nodes));
	size_t i;

	if (!nodes)
		return NULL;
	for (i = 0; i < count; i++) {
		nodes[i].id = (uint32_t)(count - i);	/* descending */
		nodes[i].family = AF_INET;
		nodes[i].addr.v4.s_addr = htonl(0x0a000000u + (uint32_t)i);
		nodes[i].port = 7400;
	}
	return nodes;
}

static void test_table_size(const void *arg)
{
	struct fixture f;
	struct ftnl_node *nodes = many_nodes(FTNL_MAX_NODES + 1);
	char err[256] = "";

	(void)arg;
	if (!TAP_CHECK(nodes))
		return;
	fixture_init(&f);
	f.config.self_id = 1;
	f.config.nodes = nodes + 1;	/* ids FTNL_MAX_NODES..1 */
	f.config.node_count = FTNL_MAX_NODES;
	TAP_CHECK_INT(ftnl_config_validate(&f.config, err, sizeof(err)), 0);
	f.config.nodes = nodes;
	f.config.node_count = FTNL_MAX_NODES + 1;
	TAP_CHECK_INT(ftnl_config_validate(&f.config, err, sizeof(err)), -E2BIG);
	TAP_CHECK_STR(err, "too many nodes: 65537 (at most 65536)");

	/* A duplicate at the far end of a full table is still found. */
	f.config.nodes = nodes + 1;
	f.config.node_count = FTNL_MAX_NODES;
	nodes[FTNL_MAX_NODES].id = nodes[1].id;
	TAP_CHECK_INT(ftnl_config_validate(&f.config, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "duplicate node id 65536 (nodes #1 and #65536)");
	free(nodes);
}

static void test_find_duplicate(const void *arg)
{
	struct ftnl_node nodes[6];
	static const uint32_t ids[6] = { 5, 7, 9, 7, 5, 9 };
	size_t first = 99, second = 99, i;

	(void)arg;
	memset(nodes, 0, sizeof(nodes));
	for (i = 0; i < 6; i++)
		nodes[i].id = ids[i];
	/* 7 repeats at index 3, before 5 (index 4) and 9 (index 5). */
	TAP_CHECK_INT(ftnl_find_duplicate(nodes, 6, FTNL_DUP_ID, &first,
					  &second), 1);
	TAP_CHECK_UINT(first, 1);
	TAP_CHECK_UINT(second, 3);
	TAP_CHECK_INT(ftnl_find_duplicate(nodes, 3, FTNL_DUP_ID, &first,
					  &second), 0);
	TAP_CHECK_INT(ftnl_find_duplicate(nodes, 1, FTNL_DUP_ID, &first,
					  &second), 0);
	TAP_CHECK_INT(ftnl_find_duplicate(nodes, 0, FTNL_DUP_ID, &first,
					  &second), 0);
}

static void test_null_err(const void *arg)
{
	struct fixture f;

	(void)arg;
	fixture_init(&f);
	f.config.cluster_id = 0;
	TAP_CHECK_INT(ftnl_config_validate(&f.config, NULL, 0), -EINVAL);
}

/*
 * The messages name the limits in words ("between 1ms and 60s"): the
 * words must be the uapi constants', so that changing a limit without its
 * message fails here.
 */
static void test_messages_name_the_limits(const void *arg)
{
	char a[16], b[16];
	char want[96];

	(void)arg;
	snprintf(want, sizeof(want), "between %s and %s",
		 ftnl_format_duration(FTNL_HB_PERIOD_MIN_US, a, sizeof(a)),
		 ftnl_format_duration(FTNL_HB_PERIOD_MAX_US, b, sizeof(b)));
	TAP_CHECK_CONTAINS(ftnl_check_hb_period(FTNL_HB_PERIOD_MIN_US - 1), want);
	TAP_CHECK(!ftnl_check_hb_period(FTNL_HB_PERIOD_MIN_US));
	TAP_CHECK(!ftnl_check_hb_period(FTNL_HB_PERIOD_MAX_US));

	snprintf(want, sizeof(want), "above %s and at most %s",
		 ftnl_format_duration(FTNL_HB_PERIOD_MIN_US, a, sizeof(a)),
		 ftnl_format_duration(FTNL_TIMEOUT_MAX_US, b, sizeof(b)));
	TAP_CHECK_CONTAINS(ftnl_check_timeout(FTNL_TIMEOUT_MAX_US + 1), want);
	TAP_CHECK(!ftnl_check_timeout(FTNL_HB_PERIOD_MIN_US + 1));
	TAP_CHECK(!ftnl_check_timeout(FTNL_TIMEOUT_MAX_US));

	snprintf(want, sizeof(want), "between %d and %d", FTNL_FCG_F_MIN,
		 FTNL_FCG_F_MAX);
	TAP_CHECK_CONTAINS(ftnl_check_fcg_f(FTNL_FCG_F_MAX + 1), want);
	TAP_CHECK_CONTAINS(ftnl_check_fcg_f(FTNL_FCG_F_MIN - 1), want);
	TAP_CHECK(!ftnl_check_fcg_f(FTNL_FCG_F_MIN));
	TAP_CHECK(!ftnl_check_fcg_f(FTNL_FCG_F_MAX));
	TAP_CHECK(!ftnl_check_fcg_f(FTNL_FCG_F_DEFAULT));

	snprintf(want, sizeof(want), "at most %s",
		 ftnl_format_duration(FTNL_GOSSIP_T_MAX_US, a, sizeof(a)));
	TAP_CHECK_CONTAINS(ftnl_check_gossip_t(FTNL_GOSSIP_T_MAX_US + 1), want);
	snprintf(want, sizeof(want), "at least %s",
		 ftnl_format_duration(FTNL_GOSSIP_SLOT_US, a, sizeof(a)));
	TAP_CHECK_CONTAINS(ftnl_check_gossip_t(FTNL_GOSSIP_SLOT_US - 1), want);
	TAP_CHECK(!ftnl_check_gossip_t(FTNL_GOSSIP_SLOT_US));
	TAP_CHECK(!ftnl_check_gossip_t(FTNL_GOSSIP_T_MAX_US));
}

int main(void)
{
	size_t i;

	for (i = 0; i < FTNL_ARRAY_SIZE(rule_cases); i++)
		tap_add(test_rule, &rule_cases[i], "validate: %s", rule_cases[i].name);
	tap_add(test_table_size, NULL, "65536 nodes valid, 65537 too many, far duplicate found");
	tap_add(test_find_duplicate, NULL, "the earliest repetition is reported");
	tap_add(test_null_err, NULL, "a NULL error buffer is allowed");
	tap_add(test_messages_name_the_limits, NULL,
		"messages name the limits of the uapi constants");
	return tap_run();
}
