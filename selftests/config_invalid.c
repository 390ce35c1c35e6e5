// SPDX-License-Identifier: GPL-2.0
/*
 * Invalid requests are rejected with the right errno and the exact extack
 * message (the module's own, from kmod/nl_parse.c, or the netlink core's for
 * policy failures), blame the right attribute, and change nothing: CLUSTER_GET
 * (values and generation) and the node dump are identical before and after,
 * whether a cluster was configured or not.
 *
 * Requests libftnl can express go through libftnl (which sends what it is
 * given, unvalidated); malformed ones are crafted with libmnl.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "ftnl_selftest.h"
#include "ksft.h"

#define MSG_NO_CLUSTER	"no cluster is configured in this network namespace"
#define MSG_RANGE	"integer out of range"
#define MSG_BIN_RANGE	"binary attribute size out of range"
#define MSG_ONE_ADDR	"node needs exactly one address, IPv4 or IPv6"
#define MSG_UNICAST4	"node address must be unicast"
#define MSG_UNICAST6	"node address must be unicast (and not v4-mapped)"
#define MSG_UNKNOWN	"Unknown attribute type"
#define MSG_UNSUPPORTED	"Unsupported attribute"

/* An attribute type no version of the family will ever define. */
#define ST_UNKNOWN_ATTR	1000

/* What a raw request expects the ack to point at. */
struct expect {
	uint32_t offs;		/* 0: no NLMSGERR_ATTR_OFFS allowed */
	uint32_t miss_type;	/* 0: no NLMSGERR_ATTR_MISS_TYPE allowed */
	uint32_t miss_nest;	/* 0: no NLMSGERR_ATTR_MISS_NEST allowed */
};

typedef struct nlmsghdr *(*raw_build_fn)(struct st_nl *nl, void *buf,
					 size_t len,
					 const struct ftnl_cluster_config *base,
					 struct expect *x);

FIXTURE(invalid) {
	struct ftnl_handle *h;
	struct st_nl nl;
	struct ftnl_cluster_config base;
	void *buf;
	size_t buflen;
};

/*
 * One invalid request. Either @mutate breaks a copy of the base
 * configuration, sent by ftnl_cluster_set(), or @build crafts a raw request.
 */
FIXTURE_VARIANT(invalid) {
	void (*mutate)(struct ftnl_cluster_config *c);
	raw_build_fn build;
	int err;
	const char *msg;
	/* libftnl cases: what ftnl_error_attr() must say (attr 0: nothing) */
	uint16_t attr;
	uint16_t node_attr;
	int64_t node_index;
	bool missing;
};

FIXTURE_SETUP(invalid)
{
	ASSERT_EQ(0, st_netns_new());
	ASSERT_EQ(0, ftnl_open(&self->h));
	ASSERT_EQ(0, st_nl_open(&self->nl));
	ASSERT_EQ(0, st_config_small(&self->base, 7));
	self->buflen = 1 << 16;
	self->buf = calloc(1, self->buflen);
	ASSERT_NE(NULL, self->buf);
}

FIXTURE_TEARDOWN(invalid)
{
	free(self->buf);
	st_config_free(&self->base);
	st_nl_close(&self->nl);
	ftnl_close(self->h);
}

static void send_invalid(struct __test_metadata *_metadata,
			 FIXTURE_DATA(invalid) *self,
			 const FIXTURE_VARIANT(invalid) *variant)
{
	if (variant->mutate) {
		struct ftnl_cluster_config c;
		struct ftnl_error_attr ea;
		int err;

		ASSERT_EQ(0, st_config_copy(&c, &self->base));
		variant->mutate(&c);
		err = ftnl_cluster_set(self->h, &c);
		st_config_free(&c);
		EXPECT_EQ(variant->err, err);
		EXPECT_EQ(variant->err, ftnl_errno(self->h));
		EXPECT_STREQ(variant->msg, ftnl_errmsg(self->h));
		if (!variant->attr) {
			EXPECT_EQ(-ENOENT, ftnl_error_attr(self->h, &ea));
			return;
		}
		ASSERT_EQ(0, ftnl_error_attr(self->h, &ea));
		EXPECT_EQ(variant->attr, ea.attr);
		EXPECT_EQ(variant->node_attr, ea.node_attr);
		EXPECT_EQ(variant->node_index, ea.node_index);
		EXPECT_EQ(variant->missing, ea.missing);
	} else {
		struct expect x = { 0 };
		struct nlmsghdr *nlh;
		struct st_ack ack;

		nlh = variant->build(&self->nl, self->buf, self->buflen,
				     &self->base, &x);
		ASSERT_NE(NULL, nlh);
		ASSERT_LE(nlh->nlmsg_len, self->buflen);
		st_nl_talk(&self->nl, nlh, NULL, NULL, &ack);
		EXPECT_FALSE(ack.local);
		EXPECT_EQ(variant->err, ack.err);
		EXPECT_STREQ(variant->msg, ack.msg);
		EXPECT_EQ(0u, ack.nmsgs);
		EXPECT_EQ(!!x.offs, ack.has_offs);
		if (x.offs && ack.has_offs)
			EXPECT_EQ(x.offs, ack.offs);
		EXPECT_EQ(!!x.miss_type, ack.has_miss_type);
		if (x.miss_type && ack.has_miss_type)
			EXPECT_EQ(x.miss_type, ack.miss_type);
		EXPECT_EQ(!!x.miss_nest, ack.has_miss_nest);
		if (x.miss_nest && ack.has_miss_nest)
			EXPECT_EQ(x.miss_nest, ack.miss_nest);
	}
}

static void check_unchanged(struct __test_metadata *_metadata,
			    struct ftnl_handle *h, const struct st_state *before)
{
	struct st_state after;
	char why[256] = "";
	bool same;

	ASSERT_EQ(0, st_state_read(h, &after));
	same = st_state_same(before, &after, why, sizeof(why));
	st_state_free(&after);
	if (!same)
		TH_LOG("state changed by a rejected request: %s", why);
	EXPECT_TRUE(same);
}

/* Nothing configured: the request is rejected, nothing appears. */
TEST_F(invalid, rejected_unconfigured)
{
	struct st_state before;

	ASSERT_EQ(0, st_state_read(self->h, &before));
	ASSERT_EQ(-ENOENT, before.get_err);
	ASSERT_FALSE(before.configured);
	ASSERT_EQ(0u, before.table.count);

	send_invalid(_metadata, self, variant);
	check_unchanged(_metadata, self->h, &before);
	st_state_free(&before);
}

/* A cluster configured: the request is rejected, it stays as it was. */
TEST_F(invalid, rejected_configured)
{
	struct st_state before;

	ASSERT_EQ(0, ftnl_cluster_set(self->h, &self->base));
	ASSERT_EQ(0, st_state_read(self->h, &before));
	ASSERT_TRUE(before.configured);
	ASSERT_EQ(0, before.get_err);
	ASSERT_EQ(3u, before.table.count);
	ASSERT_EQ(1u, before.info.generation);

	send_invalid(_metadata, self, variant);
	check_unchanged(_metadata, self->h, &before);
	st_state_free(&before);
}

/* --- requests libftnl can express -------------------------------------- */

static void unset_cluster_id(struct ftnl_cluster_config *c)
{
	c->unset |= FTNL_CONFIG_CLUSTER_ID;
}

static void unset_self_id(struct ftnl_cluster_config *c)
{
	c->unset |= FTNL_CONFIG_SELF_ID;
}

static void unset_hb(struct ftnl_cluster_config *c)
{
	c->unset |= FTNL_CONFIG_HB_PERIOD;
}

static void unset_timeout(struct ftnl_cluster_config *c)
{
	c->unset |= FTNL_CONFIG_TIMEOUT;
}

static void unset_key(struct ftnl_cluster_config *c)
{
	c->unset |= FTNL_CONFIG_KEY;
}

static void cluster_id_zero(struct ftnl_cluster_config *c)
{
	c->cluster_id = 0;
}

static void hb_below_min(struct ftnl_cluster_config *c)
{
	c->hb_period_us = FTNL_HB_PERIOD_MIN_US - 1;
}


static void hb_above_max(struct ftnl_cluster_config *c)
{
	c->hb_period_us = FTNL_HB_PERIOD_MAX_US + 1;
	c->timeout_us = FTNL_TIMEOUT_MAX_US;
}

static void timeout_equal_hb(struct ftnl_cluster_config *c)
{
	c->hb_period_us = 100000;
	c->timeout_us = 100000;
}

static void timeout_below_hb(struct ftnl_cluster_config *c)
{
	c->hb_period_us = 200000;
	c->timeout_us = 150000;
}

static void timeout_above_max(struct ftnl_cluster_config *c)
{
	c->timeout_us = FTNL_TIMEOUT_MAX_US + 1;
}

static void timeout_zero(struct ftnl_cluster_config *c)
{
	c->timeout_us = 0;
}

static void node_no_address(struct ftnl_cluster_config *c)
{
	c->nodes[1].family = AF_UNSPEC;
}

static void node_port_zero(struct ftnl_cluster_config *c)
{
	c->nodes[0].port = 0;
}


static void set4(struct ftnl_node *n, const char *addr)
{
	n->family = AF_INET;
	inet_pton(AF_INET, addr, &n->addr.v4);
}

static void set6(struct ftnl_node *n, const char *addr)
{
	n->family = AF_INET6;
	inet_pton(AF_INET6, addr, &n->addr.v6);
}

static void addr4_multicast(struct ftnl_cluster_config *c)
{
	set4(&c->nodes[1], "224.0.0.1");
}

static void addr4_zero(struct ftnl_cluster_config *c)
{
	set4(&c->nodes[1], "0.0.0.0");
}

static void addr4_zeronet(struct ftnl_cluster_config *c)
{
	set4(&c->nodes[1], "0.1.2.3");
}

static void addr4_broadcast(struct ftnl_cluster_config *c)
{
	set4(&c->nodes[1], "255.255.255.255");
}

static void addr6_multicast(struct ftnl_cluster_config *c)
{
	set6(&c->nodes[2], "ff02::1");
}

static void addr6_any(struct ftnl_cluster_config *c)
{
	set6(&c->nodes[2], "::");
}

static void addr6_v4mapped(struct ftnl_cluster_config *c)
{
	set6(&c->nodes[2], "::ffff:10.0.0.9");
}


/* ids 3, 2, 3: the kernel blames the entry given second, index 2 */
static void duplicate_id(struct ftnl_cluster_config *c)
{
	c->nodes[0].id = 3;
}


/* node 2 takes node 1's address and port */
static void duplicate_endpoint(struct ftnl_cluster_config *c)
{
	set4(&c->nodes[1], "10.0.0.1");
}


static void duplicate_endpoint6(struct ftnl_cluster_config *c)
{
	set6(&c->nodes[0], "fd00::3");
}

static void self_not_in_table(struct ftnl_cluster_config *c)
{
	c->self_id = 9;
}

static void empty_table(struct ftnl_cluster_config *c)
{
	c->node_count = 0;
}


static void too_many_nodes(struct ftnl_cluster_config *c)
{
	struct ftnl_cluster_config big;

	if (st_config_synthetic(&big, FTNL_MAX_NODES + 1, c->cluster_id,
				c->self_id, 7000))
		abort();
	free(c->nodes);
	*c = big;
}

/* Adaptive timeouts: d_min within (h, d], d at most 60 s, a rate 1..9. */
static void adaptive_min_equal_hb(struct ftnl_cluster_config *c)
{
	c->hb_period_us = 100000;
	c->timeout_us = 300000;
	c->has_timeout_min = true;
	c->timeout_min_us = 100000;
}

static void adaptive_min_above_timeout(struct ftnl_cluster_config *c)
{
	c->hb_period_us = 100000;
	c->timeout_us = 300000;
	c->has_timeout_min = true;
	c->timeout_min_us = 300001;
}

static void adaptive_timeout_above_60s(struct ftnl_cluster_config *c)
{
	c->hb_period_us = 100000;
	c->timeout_us = 61000000;
	c->has_timeout_min = true;
	c->timeout_min_us = 150000;
}

static void adaptive_nines_ten(struct ftnl_cluster_config *c)
{
	c->hb_period_us = 100000;
	c->timeout_us = 300000;
	c->has_timeout_min = true;
	c->timeout_min_us = 150000;
	c->has_timeout_nines = true;
	c->timeout_nines = 10;
}

static void adaptive_nines_zero(struct ftnl_cluster_config *c)
{
	adaptive_nines_ten(c);
	c->timeout_nines = 0;
}

static void nines_without_adaptive(struct ftnl_cluster_config *c)
{
	c->has_timeout_nines = true;
	c->timeout_nines = 6;
}

/* A name the kernel refuses: a '/' is no host-name character. */
static void node_name_bad(struct ftnl_cluster_config *c)
{
	strcpy(c->nodes[0].name, "cn0");
	strcpy(c->nodes[1].name, "cn/1");
}

#define LIB_CASE(_name, _mutate, _err, _msg, _attr, _node_attr, _index, _missing) \
	FIXTURE_VARIANT_ADD(invalid, _name) {				\
		.mutate = _mutate, .err = _err, .msg = _msg,		\
		.attr = _attr, .node_attr = _node_attr,			\
		.node_index = _index, .missing = _missing,		\
	}

LIB_CASE(missing_cluster_id, unset_cluster_id, -EINVAL, "missing cluster id",
	 FTNL_A_CLUSTER_ID, 0, -1, true);
LIB_CASE(missing_self_id, unset_self_id, -EINVAL, "missing this node's id (self)",
	 FTNL_A_SELF_ID, 0, -1, true);
LIB_CASE(missing_hb_period, unset_hb, -EINVAL, "missing heartbeat period",
	 FTNL_A_HB_PERIOD_US, 0, -1, true);
LIB_CASE(missing_timeout, unset_timeout, -EINVAL, "missing timeout",
	 FTNL_A_TIMEOUT_US, 0, -1, true);
LIB_CASE(missing_key, unset_key, -EINVAL, "missing cluster key",
	 FTNL_A_KEY, 0, -1, true);
LIB_CASE(cluster_id_zero, cluster_id_zero, -ERANGE, MSG_RANGE,
	 FTNL_A_CLUSTER_ID, 0, -1, false);
LIB_CASE(hb_below_1ms, hb_below_min, -ERANGE, MSG_RANGE,
	 FTNL_A_HB_PERIOD_US, 0, -1, false);
LIB_CASE(hb_above_60s, hb_above_max, -ERANGE, MSG_RANGE,
	 FTNL_A_HB_PERIOD_US, 0, -1, false);
LIB_CASE(timeout_equal_hb, timeout_equal_hb, -EINVAL,
	 "timeout must be greater than the heartbeat period",
	 FTNL_A_TIMEOUT_US, 0, -1, false);
LIB_CASE(timeout_below_hb, timeout_below_hb, -EINVAL,
	 "timeout must be greater than the heartbeat period",
	 FTNL_A_TIMEOUT_US, 0, -1, false);
LIB_CASE(timeout_above_600s, timeout_above_max, -ERANGE, MSG_RANGE,
	 FTNL_A_TIMEOUT_US, 0, -1, false);
LIB_CASE(timeout_zero, timeout_zero, -ERANGE, MSG_RANGE,
	 FTNL_A_TIMEOUT_US, 0, -1, false);
LIB_CASE(adaptive_min_equal_hb, adaptive_min_equal_hb, -EINVAL,
	 "the adaptive minimum timeout must be greater than the heartbeat period",
	 FTNL_A_TIMEOUT_MIN_US, 0, -1, false);
LIB_CASE(adaptive_min_above_timeout, adaptive_min_above_timeout, -EINVAL,
	 "the adaptive minimum timeout must not exceed the timeout (its maximum)",
	 FTNL_A_TIMEOUT_MIN_US, 0, -1, false);
LIB_CASE(adaptive_timeout_above_60s, adaptive_timeout_above_60s, -EINVAL,
	 "with adaptive timeouts the timeout (their maximum) must be at most 60 s",
	 FTNL_A_TIMEOUT_MIN_US, 0, -1, false);
LIB_CASE(adaptive_nines_ten, adaptive_nines_ten, -EINVAL,
	 "the target false-suspicion rate must be 10^-1 to 10^-9",
	 FTNL_A_TIMEOUT_TARGET_NINES, 0, -1, false);
LIB_CASE(adaptive_nines_zero, adaptive_nines_zero, -EINVAL,
	 "the target false-suspicion rate must be 10^-1 to 10^-9",
	 FTNL_A_TIMEOUT_TARGET_NINES, 0, -1, false);
LIB_CASE(nines_without_adaptive, nines_without_adaptive, -EINVAL,
	 "a target false-suspicion rate needs adaptive timeouts (a minimum timeout)",
	 FTNL_A_TIMEOUT_TARGET_NINES, 0, -1, false);
LIB_CASE(node_without_address, node_no_address, -EINVAL, MSG_ONE_ADDR,
	 FTNL_A_NODE, 0, 1, false);
LIB_CASE(node_port_zero, node_port_zero, -ERANGE, MSG_RANGE,
	 FTNL_A_NODE, FTNL_A_NODE_PORT, 0, false);
LIB_CASE(addr4_multicast, addr4_multicast, -EINVAL, MSG_UNICAST4,
	 FTNL_A_NODE, FTNL_A_NODE_ADDR4, 1, false);
LIB_CASE(addr4_zero, addr4_zero, -EINVAL, MSG_UNICAST4,
	 FTNL_A_NODE, FTNL_A_NODE_ADDR4, 1, false);
LIB_CASE(addr4_zeronet, addr4_zeronet, -EINVAL, MSG_UNICAST4,
	 FTNL_A_NODE, FTNL_A_NODE_ADDR4, 1, false);
LIB_CASE(addr4_broadcast, addr4_broadcast, -EINVAL, MSG_UNICAST4,
	 FTNL_A_NODE, FTNL_A_NODE_ADDR4, 1, false);
LIB_CASE(addr6_multicast, addr6_multicast, -EINVAL, MSG_UNICAST6,
	 FTNL_A_NODE, FTNL_A_NODE_ADDR6, 2, false);
LIB_CASE(addr6_any, addr6_any, -EINVAL, MSG_UNICAST6,
	 FTNL_A_NODE, FTNL_A_NODE_ADDR6, 2, false);
LIB_CASE(addr6_v4mapped, addr6_v4mapped, -EINVAL, MSG_UNICAST6,
	 FTNL_A_NODE, FTNL_A_NODE_ADDR6, 2, false);
LIB_CASE(duplicate_id, duplicate_id, -EINVAL, "duplicate node id",
	 FTNL_A_NODE, 0, 2, false);
LIB_CASE(duplicate_addr_port, duplicate_endpoint, -EINVAL,
	 "duplicate node address and port", FTNL_A_NODE, 0, 1, false);
LIB_CASE(duplicate_addr6_port, duplicate_endpoint6, -EINVAL,
	 "duplicate node address and port", FTNL_A_NODE, 0, 2, false);
LIB_CASE(self_not_in_table, self_not_in_table, -EINVAL,
	 "this node's id is not in the node table", FTNL_A_SELF_ID, 0, -1, false);
LIB_CASE(empty_table, empty_table, -EINVAL, "the node table is empty",
	 FTNL_A_NODE, 0, -1, true);
LIB_CASE(node_name_bad, node_name_bad, -EINVAL,
	 "node name must be letters, digits, '.', '-' or '_'",
	 FTNL_A_NODE, FTNL_A_NODE_NAME, 1, false);
LIB_CASE(too_many_nodes, too_many_nodes, -E2BIG, "too many nodes (at most 65536)",
	 FTNL_A_NODE, 0, FTNL_MAX_NODES, false);

/* --- malformed requests, crafted with libmnl -------------------------- */

static struct nlmsghdr *set_start(struct st_nl *nl, void *buf, size_t len,
				  const struct ftnl_cluster_config *base)
{
	struct nlmsghdr *nlh = st_msg_start(nl, buf, len, NLM_F_ACK,
					    FTNL_CMD_CLUSTER_SET);
	struct ftnl_cluster_config scalars = *base;

	scalars.node_count = 0;
	st_put_config(nlh, &scalars);
	return nlh;
}

/* The base's nodes but the one at @skip, which the caller puts itself. */
static void put_nodes_but(struct nlmsghdr *nlh,
			  const struct ftnl_cluster_config *base, size_t skip)
{
	size_t i;

	for (i = 0; i < base->node_count; i++)
		if (i != skip)
			st_put_node(nlh, &base->nodes[i]);
}

static struct nlmsghdr *raw_node_without_id(struct st_nl *nl, void *buf, size_t len,
					    const struct ftnl_cluster_config *base,
					    struct expect *x)
{
	struct nlmsghdr *nlh = set_start(nl, buf, len, base);
	struct nlattr *nest;

	put_nodes_but(nlh, base, 0);
	nest = mnl_attr_nest_start(nlh, FTNL_A_NODE);
	mnl_attr_put(nlh, FTNL_A_NODE_ADDR4, 4, &base->nodes[0].addr.v4);
	mnl_attr_put_u16(nlh, FTNL_A_NODE_PORT, 7000);
	mnl_attr_nest_end(nlh, nest);
	x->offs = st_offset(nlh, nest);
	x->miss_type = FTNL_A_NODE_ID;
	x->miss_nest = st_offset(nlh, nest);
	return nlh;
}

static struct nlmsghdr *raw_node_without_port(struct st_nl *nl, void *buf, size_t len,
					      const struct ftnl_cluster_config *base,
					      struct expect *x)
{
	struct nlmsghdr *nlh = set_start(nl, buf, len, base);
	struct nlattr *nest;

	put_nodes_but(nlh, base, 0);
	nest = mnl_attr_nest_start(nlh, FTNL_A_NODE);
	mnl_attr_put_u32(nlh, FTNL_A_NODE_ID, 1);
	mnl_attr_put(nlh, FTNL_A_NODE_ADDR4, 4, &base->nodes[0].addr.v4);
	mnl_attr_nest_end(nlh, nest);
	x->offs = st_offset(nlh, nest);
	x->miss_type = FTNL_A_NODE_PORT;
	x->miss_nest = st_offset(nlh, nest);
	return nlh;
}

static struct nlmsghdr *raw_node_both_addresses(struct st_nl *nl, void *buf, size_t len,
						const struct ftnl_cluster_config *base,
						struct expect *x)
{
	struct nlmsghdr *nlh = set_start(nl, buf, len, base);
	struct in6_addr a6;
	struct nlattr *nest;

	inet_pton(AF_INET6, "fd00::1", &a6);
	put_nodes_but(nlh, base, 0);
	nest = mnl_attr_nest_start(nlh, FTNL_A_NODE);
	mnl_attr_put_u32(nlh, FTNL_A_NODE_ID, 1);
	mnl_attr_put(nlh, FTNL_A_NODE_ADDR4, 4, &base->nodes[0].addr.v4);
	mnl_attr_put(nlh, FTNL_A_NODE_ADDR6, 16, &a6);
	mnl_attr_put_u16(nlh, FTNL_A_NODE_PORT, 7000);
	mnl_attr_nest_end(nlh, nest);
	x->offs = st_offset(nlh, nest);
	return nlh;
}

/* A node attribute the kernel must refuse: type @type, @alen bytes @data. */
static struct nlmsghdr *node_with_data(struct st_nl *nl, void *buf, size_t len,
				       const struct ftnl_cluster_config *base,
				       struct expect *x, uint16_t type,
				       const void *data, size_t alen)
{
	struct nlmsghdr *nlh = set_start(nl, buf, len, base);
	struct nlattr *nest, *bad;

	put_nodes_but(nlh, base, 1);
	nest = mnl_attr_nest_start(nlh, FTNL_A_NODE);
	mnl_attr_put_u32(nlh, FTNL_A_NODE_ID, 2);
	mnl_attr_put(nlh, FTNL_A_NODE_ADDR4, 4, &base->nodes[1].addr.v4);
	mnl_attr_put_u16(nlh, FTNL_A_NODE_PORT, 7000);
	bad = (struct nlattr *)mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put(nlh, type, alen, data);
	mnl_attr_nest_end(nlh, nest);
	x->offs = st_offset(nlh, bad);
	return nlh;
}

/* A node attribute the kernel must refuse: type @type, @len zero bytes. */
static struct nlmsghdr *node_with(struct st_nl *nl, void *buf, size_t len,
				  const struct ftnl_cluster_config *base,
				  struct expect *x, uint16_t type, size_t alen)
{
	struct nlmsghdr *nlh = set_start(nl, buf, len, base);
	static const uint8_t zero[8];
	struct nlattr *nest, *bad;

	put_nodes_but(nlh, base, 1);
	nest = mnl_attr_nest_start(nlh, FTNL_A_NODE);
	mnl_attr_put_u32(nlh, FTNL_A_NODE_ID, 2);
	mnl_attr_put(nlh, FTNL_A_NODE_ADDR4, 4, &base->nodes[1].addr.v4);
	mnl_attr_put_u16(nlh, FTNL_A_NODE_PORT, 7000);
	bad = (struct nlattr *)mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put(nlh, type, alen, zero);
	mnl_attr_nest_end(nlh, nest);
	x->offs = st_offset(nlh, bad);
	return nlh;
}

static struct nlmsghdr *raw_node_state_set(struct st_nl *nl, void *buf, size_t len,
					   const struct ftnl_cluster_config *base,
					   struct expect *x)
{
	return node_with(nl, buf, len, base, x, FTNL_A_NODE_STATE, 1);
}

/* A failure domain of "" (just the NUL): refused, not taken for none. */
static struct nlmsghdr *raw_node_domain_empty(struct st_nl *nl, void *buf, size_t len,
					      const struct ftnl_cluster_config *base,
					      struct expect *x)
{
	return node_with_data(nl, buf, len, base, x, FTNL_A_NODE_DOMAIN, "", 1);
}

/* A character a host name would not have. */
static struct nlmsghdr *raw_node_domain_slash(struct st_nl *nl, void *buf, size_t len,
					      const struct ftnl_cluster_config *base,
					      struct expect *x)
{
	return node_with_data(nl, buf, len, base, x, FTNL_A_NODE_DOMAIN,
			      "rack/1", 7);
}

/* FTNL_NODE_DOMAIN_MAX + 1 characters and the NUL: one too many. */
static struct nlmsghdr *raw_node_domain_too_long(struct st_nl *nl, void *buf, size_t len,
						 const struct ftnl_cluster_config *base,
						 struct expect *x)
{
	char name[FTNL_NODE_DOMAIN_MAX + 2];

	memset(name, 'r', FTNL_NODE_DOMAIN_MAX + 1);
	name[FTNL_NODE_DOMAIN_MAX + 1] = '\0';
	return node_with_data(nl, buf, len, base, x, FTNL_A_NODE_DOMAIN, name,
			      sizeof(name));
}

/* A domain without its NUL. */
static struct nlmsghdr *raw_node_domain_no_nul(struct st_nl *nl, void *buf, size_t len,
					       const struct ftnl_cluster_config *base,
					       struct expect *x)
{
	return node_with_data(nl, buf, len, base, x, FTNL_A_NODE_DOMAIN, "rack", 4);
}

static struct nlmsghdr *raw_node_self_set(struct st_nl *nl, void *buf, size_t len,
					  const struct ftnl_cluster_config *base,
					  struct expect *x)
{
	return node_with(nl, buf, len, base, x, FTNL_A_NODE_SELF, 0);
}

static struct nlmsghdr *raw_node_unknown_attr(struct st_nl *nl, void *buf, size_t len,
					      const struct ftnl_cluster_config *base,
					      struct expect *x)
{
	return node_with(nl, buf, len, base, x, ST_UNKNOWN_ATTR, 4);
}

static struct nlmsghdr *raw_node_port_wrong_length(struct st_nl *nl, void *buf,
						   size_t len,
						   const struct ftnl_cluster_config *base,
						   struct expect *x)
{
	struct nlmsghdr *nlh = set_start(nl, buf, len, base);
	struct nlattr *nest, *bad;

	put_nodes_but(nlh, base, 1);
	nest = mnl_attr_nest_start(nlh, FTNL_A_NODE);
	mnl_attr_put_u32(nlh, FTNL_A_NODE_ID, 2);
	mnl_attr_put(nlh, FTNL_A_NODE_ADDR4, 4, &base->nodes[1].addr.v4);
	bad = (struct nlattr *)mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, FTNL_A_NODE_PORT, 7000); /* u16 expected */
	mnl_attr_nest_end(nlh, nest);
	x->offs = st_offset(nlh, bad);
	return nlh;
}

static struct nlmsghdr *raw_addr4_wrong_length(struct st_nl *nl, void *buf,
					       size_t len,
					       const struct ftnl_cluster_config *base,
					       struct expect *x)
{
	struct nlmsghdr *nlh = set_start(nl, buf, len, base);
	static const uint8_t addr[5] = { 10, 0, 0, 2, 0 };
	struct nlattr *nest, *bad;

	put_nodes_but(nlh, base, 1);
	nest = mnl_attr_nest_start(nlh, FTNL_A_NODE);
	mnl_attr_put_u32(nlh, FTNL_A_NODE_ID, 2);
	bad = (struct nlattr *)mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put(nlh, FTNL_A_NODE_ADDR4, sizeof(addr), addr);
	mnl_attr_put_u16(nlh, FTNL_A_NODE_PORT, 7000);
	mnl_attr_nest_end(nlh, nest);
	x->offs = st_offset(nlh, bad);
	return nlh;
}

static struct nlmsghdr *key_of(struct st_nl *nl, void *buf, size_t len,
			       const struct ftnl_cluster_config *base,
			       struct expect *x, size_t keylen)
{
	struct nlmsghdr *nlh = st_msg_start(nl, buf, len, NLM_F_ACK,
					    FTNL_CMD_CLUSTER_SET);
	struct ftnl_cluster_config c = *base;
	uint8_t key[FTNL_KEY_LEN + 1] = { 1 };
	struct nlattr *bad;

	c.unset |= FTNL_CONFIG_KEY;
	st_put_config(nlh, &c);
	bad = (struct nlattr *)mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put(nlh, FTNL_A_KEY, keylen, key);
	x->offs = st_offset(nlh, bad);
	return nlh;
}

static struct nlmsghdr *raw_key_31(struct st_nl *nl, void *buf, size_t len,
				   const struct ftnl_cluster_config *base,
				   struct expect *x)
{
	return key_of(nl, buf, len, base, x, FTNL_KEY_LEN - 1);
}

static struct nlmsghdr *raw_key_33(struct st_nl *nl, void *buf, size_t len,
				   const struct ftnl_cluster_config *base,
				   struct expect *x)
{
	return key_of(nl, buf, len, base, x, FTNL_KEY_LEN + 1);
}

/* A complete valid CLUSTER_SET plus one top-level attribute. */
static struct nlmsghdr *set_plus(struct st_nl *nl, void *buf, size_t len,
				 const struct ftnl_cluster_config *base,
				 struct expect *x, uint16_t type, size_t alen)
{
	struct nlmsghdr *nlh = st_msg_start(nl, buf, len, NLM_F_ACK,
					    FTNL_CMD_CLUSTER_SET);
	static const uint8_t zero[8];
	struct nlattr *bad;

	st_put_config(nlh, base);
	bad = (struct nlattr *)mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put(nlh, type, alen, zero);
	x->offs = st_offset(nlh, bad);
	return nlh;
}

static struct nlmsghdr *raw_unknown_attr(struct st_nl *nl, void *buf, size_t len,
					 const struct ftnl_cluster_config *base,
					 struct expect *x)
{
	return set_plus(nl, buf, len, base, x, ST_UNKNOWN_ATTR, 4);
}

/* FTNL_A_GENERATION is known to the family but not accepted in a request. */
static struct nlmsghdr *raw_reply_only_attr(struct st_nl *nl, void *buf, size_t len,
					    const struct ftnl_cluster_config *base,
					    struct expect *x)
{
	return set_plus(nl, buf, len, base, x, FTNL_A_GENERATION, 4);
}

static struct nlmsghdr *raw_configured_flag(struct st_nl *nl, void *buf, size_t len,
					    const struct ftnl_cluster_config *base,
					    struct expect *x)
{
	return set_plus(nl, buf, len, base, x, FTNL_A_CONFIGURED, 0);
}

static struct nlmsghdr *raw_cluster_id_short(struct st_nl *nl, void *buf, size_t len,
					     const struct ftnl_cluster_config *base,
					     struct expect *x)
{
	struct nlmsghdr *nlh = st_msg_start(nl, buf, len, NLM_F_ACK,
					    FTNL_CMD_CLUSTER_SET);
	struct ftnl_cluster_config c = *base;
	struct nlattr *bad;

	c.unset |= FTNL_CONFIG_CLUSTER_ID;
	st_put_config(nlh, &c);
	bad = (struct nlattr *)mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u16(nlh, FTNL_A_CLUSTER_ID, 7);
	x->offs = st_offset(nlh, bad);
	return nlh;
}

static struct nlmsghdr *raw_node_not_nested(struct st_nl *nl, void *buf, size_t len,
					    const struct ftnl_cluster_config *base,
					    struct expect *x)
{
	struct nlmsghdr *nlh = set_start(nl, buf, len, base);
	struct nlattr *nest;

	put_nodes_but(nlh, base, 0);
	nest = st_put_node(nlh, &base->nodes[0]);
	nest->nla_type &= ~NLA_F_NESTED;
	x->offs = st_offset(nlh, nest);
	return nlh;
}

static struct nlmsghdr *raw_genl_reserved(struct st_nl *nl, void *buf, size_t len,
					  const struct ftnl_cluster_config *base,
					  struct expect *x)
{
	struct nlmsghdr *nlh = st_msg_start(nl, buf, len, NLM_F_ACK,
					    FTNL_CMD_CLUSTER_SET);
	struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);

	(void)x;
	genl->reserved = 1;
	st_put_config(nlh, base);
	return nlh;
}

/* NLM_F_CREATE has no meaning for a genetlink family validating headers. */
static struct nlmsghdr *raw_nlmsg_flags(struct st_nl *nl, void *buf, size_t len,
					const struct ftnl_cluster_config *base,
					struct expect *x)
{
	struct nlmsghdr *nlh = st_msg_start(nl, buf, len,
					    NLM_F_ACK | NLM_F_CREATE,
					    FTNL_CMD_CLUSTER_SET);

	(void)x;
	st_put_config(nlh, base);
	return nlh;
}

/* A read-only request carrying an attribute it does not take. */
static struct nlmsghdr *cmd_plus(struct st_nl *nl, void *buf, size_t len,
				 struct expect *x, uint8_t cmd, uint16_t flags,
				 uint16_t type)
{
	struct nlmsghdr *nlh = st_msg_start(nl, buf, len, flags, cmd);
	struct nlattr *bad = (struct nlattr *)mnl_nlmsg_get_payload_tail(nlh);

	mnl_attr_put_u32(nlh, type, 7);
	x->offs = st_offset(nlh, bad);
	return nlh;
}

static struct nlmsghdr *raw_info_get_attr(struct st_nl *nl, void *buf, size_t len,
					  const struct ftnl_cluster_config *base,
					  struct expect *x)
{
	(void)base;
	return cmd_plus(nl, buf, len, x, FTNL_CMD_INFO_GET, NLM_F_ACK,
			FTNL_A_CLUSTER_ID);
}

static struct nlmsghdr *raw_info_get_unknown(struct st_nl *nl, void *buf, size_t len,
					     const struct ftnl_cluster_config *base,
					     struct expect *x)
{
	(void)base;
	return cmd_plus(nl, buf, len, x, FTNL_CMD_INFO_GET, NLM_F_ACK,
			ST_UNKNOWN_ATTR);
}

static struct nlmsghdr *raw_cluster_get_attr(struct st_nl *nl, void *buf, size_t len,
					     const struct ftnl_cluster_config *base,
					     struct expect *x)
{
	(void)base;
	return cmd_plus(nl, buf, len, x, FTNL_CMD_CLUSTER_GET, NLM_F_ACK,
			FTNL_A_CLUSTER_ID);
}

static struct nlmsghdr *raw_cluster_del_attr(struct st_nl *nl, void *buf, size_t len,
					     const struct ftnl_cluster_config *base,
					     struct expect *x)
{
	(void)base;
	return cmd_plus(nl, buf, len, x, FTNL_CMD_CLUSTER_DEL, NLM_F_ACK,
			FTNL_A_CLUSTER_ID);
}

static struct nlmsghdr *raw_node_dump_attr(struct st_nl *nl, void *buf, size_t len,
					   const struct ftnl_cluster_config *base,
					   struct expect *x)
{
	(void)base;
	return cmd_plus(nl, buf, len, x, FTNL_CMD_NODE_GET, NLM_F_DUMP,
			FTNL_A_CLUSTER_ID);
}

static struct nlmsghdr *bare_cmd(struct st_nl *nl, void *buf, size_t len,
				 uint8_t cmd, uint16_t flags)
{
	return st_msg_start(nl, buf, len, flags, cmd);
}

static struct nlmsghdr *raw_unknown_cmd(struct st_nl *nl, void *buf, size_t len,
					const struct ftnl_cluster_config *base,
					struct expect *x)
{
	(void)base;
	(void)x;
	return bare_cmd(nl, buf, len, 200, NLM_F_ACK);
}

static struct nlmsghdr *raw_ntf_cmd(struct st_nl *nl, void *buf, size_t len,
				    const struct ftnl_cluster_config *base,
				    struct expect *x)
{
	(void)base;
	(void)x;
	return bare_cmd(nl, buf, len, FTNL_CMD_CLUSTER_NTF, NLM_F_ACK);
}

static struct nlmsghdr *raw_node_get_do(struct st_nl *nl, void *buf, size_t len,
					const struct ftnl_cluster_config *base,
					struct expect *x)
{
	(void)base;
	(void)x;
	return bare_cmd(nl, buf, len, FTNL_CMD_NODE_GET, NLM_F_ACK);
}

static struct nlmsghdr *raw_info_get_dump(struct st_nl *nl, void *buf, size_t len,
					  const struct ftnl_cluster_config *base,
					  struct expect *x)
{
	(void)base;
	(void)x;
	return bare_cmd(nl, buf, len, FTNL_CMD_INFO_GET, NLM_F_DUMP);
}

#define RAW_CASE(_name, _build, _err, _msg)				\
	FIXTURE_VARIANT_ADD(invalid, _name) {				\
		.build = _build, .err = _err, .msg = _msg,		\
	}

RAW_CASE(node_without_id, raw_node_without_id, -EINVAL, "node without an id");
RAW_CASE(node_without_port, raw_node_without_port, -EINVAL, "node without a port");
RAW_CASE(node_both_addresses, raw_node_both_addresses, -EINVAL, MSG_ONE_ADDR);
RAW_CASE(node_state_set, raw_node_state_set, -EINVAL,
	 "node state is reported, it cannot be set");
RAW_CASE(node_self_set, raw_node_self_set, -EINVAL,
	 "the local node is chosen with the self id");
RAW_CASE(node_unknown_attr, raw_node_unknown_attr, -EINVAL, MSG_UNKNOWN);
RAW_CASE(node_domain_empty, raw_node_domain_empty, -EINVAL,
	 "failure domain must be 1 to 31 characters");
RAW_CASE(node_domain_slash, raw_node_domain_slash, -EINVAL,
	 "failure domain must be letters, digits, '.', '-' or '_'");
RAW_CASE(node_domain_32_bytes, raw_node_domain_too_long, -EINVAL,
	 "Attribute failed policy validation");
RAW_CASE(node_domain_without_nul, raw_node_domain_no_nul, -EINVAL,
	 "Attribute failed policy validation");
RAW_CASE(node_port_u32, raw_node_port_wrong_length, -EINVAL,
	 "invalid attribute length");
RAW_CASE(node_addr4_5_bytes, raw_addr4_wrong_length, -ERANGE, MSG_BIN_RANGE);
RAW_CASE(node_not_nla_f_nested, raw_node_not_nested, -EINVAL,
	 "NLA_F_NESTED is missing");
RAW_CASE(key_31_bytes, raw_key_31, -ERANGE, MSG_BIN_RANGE);
RAW_CASE(key_33_bytes, raw_key_33, -ERANGE, MSG_BIN_RANGE);
RAW_CASE(cluster_id_u16, raw_cluster_id_short, -EINVAL, "invalid attribute length");
RAW_CASE(unknown_attribute, raw_unknown_attr, -EINVAL, MSG_UNKNOWN);
RAW_CASE(reply_only_attribute, raw_reply_only_attr, -EINVAL, MSG_UNSUPPORTED);
RAW_CASE(configured_flag_in_set, raw_configured_flag, -EINVAL, MSG_UNSUPPORTED);
RAW_CASE(genl_reserved_nonzero, raw_genl_reserved, -EINVAL,
	 "genlmsghdr.reserved field is not 0");
RAW_CASE(nlmsg_flags_reserved, raw_nlmsg_flags, -EINVAL,
	 "ambiguous or reserved bits set in nlmsg_flags");
RAW_CASE(info_get_with_attribute, raw_info_get_attr, -EINVAL, MSG_UNSUPPORTED);
RAW_CASE(info_get_with_unknown_attribute, raw_info_get_unknown, -EINVAL, MSG_UNKNOWN);
RAW_CASE(cluster_get_with_attribute, raw_cluster_get_attr, -EINVAL, MSG_UNSUPPORTED);
RAW_CASE(cluster_del_with_attribute, raw_cluster_del_attr, -EINVAL, MSG_UNSUPPORTED);
RAW_CASE(node_dump_with_attribute, raw_node_dump_attr, -EINVAL, MSG_UNSUPPORTED);
RAW_CASE(unknown_command, raw_unknown_cmd, -EOPNOTSUPP, "");
RAW_CASE(notification_as_request, raw_ntf_cmd, -EOPNOTSUPP, "");
RAW_CASE(node_get_as_do, raw_node_get_do, -EOPNOTSUPP, "");
RAW_CASE(info_get_as_dump, raw_info_get_dump, -EOPNOTSUPP, "");

/* --- what must not be rejected, and the unconfigured netns ------------- */

FIXTURE(netns) {
	struct ftnl_handle *h;
	struct st_nl nl;
};

FIXTURE_SETUP(netns)
{
	ASSERT_EQ(0, st_netns_new());
	ASSERT_EQ(0, ftnl_open(&self->h));
	ASSERT_EQ(0, st_nl_open(&self->nl));
}

FIXTURE_TEARDOWN(netns)
{
	st_nl_close(&self->nl);
	ftnl_close(self->h);
}

static void raw_expect(struct __test_metadata *_metadata, struct st_nl *nl,
		       uint8_t cmd, uint16_t flags, int err, const char *msg)
{
	char buf[256] __attribute__((aligned(4)));
	struct nlmsghdr *nlh = st_msg_start(nl, buf, sizeof(buf), flags, cmd);
	struct st_ack ack;

	st_nl_talk(nl, nlh, NULL, NULL, &ack);
	EXPECT_EQ(err, ack.err);
	EXPECT_STREQ(msg, ack.msg);
}

TEST_F(netns, cluster_del_unconfigured_enoent)
{
	struct ftnl_cluster_config c;

	EXPECT_EQ(-ENOENT, ftnl_cluster_del(self->h));
	EXPECT_STREQ(MSG_NO_CLUSTER, ftnl_errmsg(self->h));
	raw_expect(_metadata, &self->nl, FTNL_CMD_CLUSTER_DEL, NLM_F_ACK,
		   -ENOENT, MSG_NO_CLUSTER);

	/* configured then deleted: unconfigured again */
	ASSERT_EQ(0, st_config_small(&c, 7));
	ASSERT_EQ(0, ftnl_cluster_set(self->h, &c));
	EXPECT_EQ(0, ftnl_cluster_del(self->h));
	EXPECT_STREQ("", ftnl_errmsg(self->h));
	EXPECT_EQ(-ENOENT, ftnl_cluster_del(self->h));
	EXPECT_STREQ(MSG_NO_CLUSTER, ftnl_errmsg(self->h));
	st_config_free(&c);
}

TEST_F(netns, cluster_get_unconfigured_enoent)
{
	struct ftnl_cluster_info info;
	struct ftnl_cluster_config c;

	EXPECT_EQ(-ENOENT, ftnl_cluster_get(self->h, &info));
	EXPECT_STREQ(MSG_NO_CLUSTER, ftnl_errmsg(self->h));
	raw_expect(_metadata, &self->nl, FTNL_CMD_CLUSTER_GET, NLM_F_ACK,
		   -ENOENT, MSG_NO_CLUSTER);

	ASSERT_EQ(0, st_config_small(&c, 7));
	ASSERT_EQ(0, ftnl_cluster_set(self->h, &c));
	ASSERT_EQ(0, ftnl_cluster_del(self->h));
	EXPECT_EQ(-ENOENT, ftnl_cluster_get(self->h, &info));
	st_config_free(&c);
}

TEST_F(netns, node_dump_unconfigured_empty)
{
	struct ftnl_node_table t;
	struct st_ack ack;
	char buf[256] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;

	ASSERT_EQ(0, ftnl_node_list(self->h, &t));
	EXPECT_EQ(0u, t.count);
	ftnl_node_table_free(&t);

	nlh = st_msg_start(&self->nl, buf, sizeof(buf), NLM_F_DUMP,
			   FTNL_CMD_NODE_GET);
	EXPECT_EQ(0, st_nl_talk(&self->nl, nlh, NULL, NULL, &ack));
	EXPECT_EQ(0u, ack.nmsgs);
	EXPECT_FALSE(ack.dump_intr);
}

/* The limits themselves are accepted, exactly as the contract words them. */
TEST_F(netns, boundaries_accepted)
{
	static const struct {
		uint32_t h, d;
	} times[] = {
		{ FTNL_HB_PERIOD_MIN_US, FTNL_HB_PERIOD_MIN_US + 1 },
		{ FTNL_HB_PERIOD_MAX_US, FTNL_TIMEOUT_MAX_US },
		{ FTNL_HB_PERIOD_MIN_US, FTNL_TIMEOUT_MAX_US },
	};
	struct ftnl_cluster_config c;
	struct ftnl_cluster_info info;
	struct ftnl_node_table t;
	uint32_t gen = 0;
	size_t i;

	ASSERT_EQ(0, st_config_small(&c, 7));
	for (i = 0; i < ARRAY_SIZE(times); i++) {
		c.hb_period_us = times[i].h;
		c.timeout_us = times[i].d;
		ASSERT_EQ(0, ftnl_cluster_set(self->h, &c)) {
			TH_LOG("h %u d %u: %s", times[i].h, times[i].d,
			       ftnl_errmsg(self->h));
		}
		ASSERT_EQ(0, ftnl_cluster_get(self->h, &info));
		EXPECT_EQ(times[i].h, info.hb_period_us);
		EXPECT_EQ(times[i].d, info.timeout_us);
		EXPECT_EQ(++gen, info.generation);
	}

	/* largest cluster id, extreme node ids and port, same address on
	 * two ports, a single-node table
	 */
	c.cluster_id = UINT32_MAX;
	c.nodes[0].id = 0;
	c.nodes[1].id = UINT32_MAX;
	c.nodes[1].port = 65535;
	c.nodes[2].family = AF_INET;
	c.nodes[2].addr = c.nodes[1].addr;
	c.nodes[2].port = 1;
	c.self_id = UINT32_MAX;
	ASSERT_EQ(0, ftnl_cluster_set(self->h, &c)) {
		TH_LOG("%s", ftnl_errmsg(self->h));
	}
	ASSERT_EQ(0, ftnl_cluster_get(self->h, &info));
	EXPECT_EQ(UINT32_MAX, info.cluster_id);
	EXPECT_EQ(UINT32_MAX, info.self_id);
	EXPECT_EQ(3u, info.node_count);
	ASSERT_EQ(0, ftnl_node_list(self->h, &t));
	ASSERT_EQ(3u, t.count);
	EXPECT_EQ(0u, t.nodes[0].id);
	EXPECT_EQ(3u, t.nodes[1].id);
	EXPECT_EQ(UINT32_MAX, t.nodes[2].id);
	EXPECT_TRUE(t.nodes[2].self);
	EXPECT_EQ(65535, t.nodes[2].port);
	ftnl_node_table_free(&t);

	c.node_count = 1;
	c.self_id = 0;
	ASSERT_EQ(0, ftnl_cluster_set(self->h, &c)) {
		TH_LOG("%s", ftnl_errmsg(self->h));
	}
	ASSERT_EQ(0, ftnl_cluster_get(self->h, &info));
	EXPECT_EQ(1u, info.node_count);
	EXPECT_EQ(gen + 2, info.generation);
	st_config_free(&c);
}

TEST_HARNESS_MAIN
