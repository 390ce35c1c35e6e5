// SPDX-License-Identifier: GPL-2.0
/*
 * An independent second client: the contract in uapi/linux/ftnl.h is
 * enough to talk to the module with libnl-genl, without libftnl or libmnl.
 * INFO_GET, CLUSTER_SET of a small cluster (IPv4 and IPv6 nodes),
 * CLUSTER_GET, the node dump, CLUSTER_DEL, and rejections with their errno
 * and extack message (libnl 3.7 has no extack API: the TLVs after the
 * struct nlmsgerr its error callback receives are parsed with libnl's
 * nla_parse()).
 *
 * Deliberately includes nothing from libftnl nor the other selftests.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include <linux/ftnl.h>
#include "ksft.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif

/* One node of the test cluster. */
struct node {
	uint32_t id;
	const char *addr;
	uint16_t port;
};

static const struct node nodes[] = {
	{ 4, "192.168.7.4", 7400 },
	{ 1, "192.168.7.1", 7400 },
	{ 3, "fd00:7::3", 7400 },
	{ 2, "192.168.7.2", 7401 },
};

#define SELF 3
#define CLUSTER 4242
/* no node can be suspected during the test: states stay alive */
#define HB 500000
#define TIMEOUT 600000000

/* The answer to one request. */
struct result {
	bool done;
	int err;		/* 0, or the kernel's negative errno */
	char extack[256];	/* NLMSGERR_ATTR_MSG */
	int nmsgs;

	/* INFO_GET / CLUSTER_GET */
	char version[64];
	uint32_t proto, max_nodes, cluster, self_id, hb, timeout, count, gen;
	uint64_t features;
	bool configured, has_proto, has_features, has_max_nodes;
	bool has_cluster, has_self, has_hb, has_timeout, has_count, has_gen;
	bool has_key;

	/* node dump */
	struct {
		uint32_t id, gen, cluster;
		int family;
		uint8_t addr[16];
		uint16_t port;
		uint8_t state;
		bool self;
	} dumped[8];
};

FIXTURE(libnl) {
	struct nl_sock *sk;
	int family;
};

FIXTURE_SETUP(libnl)
{
	int one = 1;

	/* a netns of our own: nothing else configures it */
	ASSERT_EQ(0, unshare(CLONE_NEWNET));
	self->sk = nl_socket_alloc();
	ASSERT_NE(NULL, self->sk);
	ASSERT_EQ(0, genl_connect(self->sk));
	ASSERT_EQ(0, setsockopt(nl_socket_get_fd(self->sk), SOL_NETLINK,
				NETLINK_EXT_ACK, &one, sizeof(one)));
	ASSERT_EQ(0, setsockopt(nl_socket_get_fd(self->sk), SOL_NETLINK,
				NETLINK_CAP_ACK, &one, sizeof(one)));
	self->family = genl_ctrl_resolve(self->sk, FTNL_FAMILY_NAME);
	ASSERT_LT(0, self->family) {
		TH_LOG("genl_ctrl_resolve(\"%s\"): %s", FTNL_FAMILY_NAME,
		       nl_geterror(self->family));
	}
	/* from here on each request says itself whether it wants an ack */
	nl_socket_disable_auto_ack(self->sk);
}

FIXTURE_TEARDOWN(libnl)
{
	nl_socket_free(self->sk);
}

static int err_cb(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	struct result *r = arg;
	size_t off = sizeof(*e);
	char *tlvs;
	int len;

	(void)nla;
	r->err = e->error;
	r->done = true;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	tlvs = (char *)e + off;
	len = (int)nlh->nlmsg_len - (int)(NLMSG_HDRLEN + off);
	if (len > 0 && !nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)tlvs,
				  len, NULL) && tb[NLMSGERR_ATTR_MSG])
		snprintf(r->extack, sizeof(r->extack), "%s",
			 nla_get_string(tb[NLMSGERR_ATTR_MSG]));
	return NL_STOP;
}

static int ack_cb(struct nl_msg *msg, void *arg)
{
	struct result *r = arg;

	(void)msg;
	r->err = 0;
	r->done = true;
	return NL_STOP;
}

static int valid_cb(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *genl = nlmsg_data(nlmsg_hdr(msg));
	struct result *r = arg;
	struct nlattr *a, *n;
	int rem, nrem, i;

	i = r->nmsgs++;
	nla_for_each_attr(a, genlmsg_attrdata(genl, 0), genlmsg_attrlen(genl, 0), rem) {
		switch (nla_type(a)) {
		case FTNL_A_MODULE_VERSION:
			snprintf(r->version, sizeof(r->version), "%s", nla_get_string(a));
			break;
		case FTNL_A_PROTO_VERSION:
			r->proto = nla_get_u32(a);
			r->has_proto = true;
			break;
		case FTNL_A_FEATURES:
			r->features = nla_get_u64(a);
			r->has_features = true;
			break;
		case FTNL_A_MAX_NODES:
			r->max_nodes = nla_get_u32(a);
			r->has_max_nodes = true;
			break;
		case FTNL_A_CONFIGURED:
			r->configured = true;
			break;
		case FTNL_A_CLUSTER_ID:
			r->cluster = nla_get_u32(a);
			r->has_cluster = true;
			if (i < 8)
				r->dumped[i].cluster = r->cluster;
			break;
		case FTNL_A_SELF_ID:
			r->self_id = nla_get_u32(a);
			r->has_self = true;
			break;
		case FTNL_A_HB_PERIOD_US:
			r->hb = nla_get_u32(a);
			r->has_hb = true;
			break;
		case FTNL_A_TIMEOUT_US:
			r->timeout = nla_get_u32(a);
			r->has_timeout = true;
			break;
		case FTNL_A_NODE_COUNT:
			r->count = nla_get_u32(a);
			r->has_count = true;
			break;
		case FTNL_A_GENERATION:
			r->gen = nla_get_u32(a);
			r->has_gen = true;
			if (i < 8)
				r->dumped[i].gen = r->gen;
			break;
		case FTNL_A_KEY:
			r->has_key = true;
			break;
		case FTNL_A_NODE:
			if (i >= 8)
				break;
			nla_for_each_nested(n, a, nrem) {
				switch (nla_type(n)) {
				case FTNL_A_NODE_ID:
					r->dumped[i].id = nla_get_u32(n);
					break;
				case FTNL_A_NODE_ADDR4:
					r->dumped[i].family = AF_INET;
					nla_memcpy(r->dumped[i].addr, n, 4);
					break;
				case FTNL_A_NODE_ADDR6:
					r->dumped[i].family = AF_INET6;
					nla_memcpy(r->dumped[i].addr, n, 16);
					break;
				case FTNL_A_NODE_PORT:
					r->dumped[i].port = nla_get_u16(n);
					break;
				case FTNL_A_NODE_STATE:
					r->dumped[i].state = nla_get_u8(n);
					break;
				case FTNL_A_NODE_SELF:
					r->dumped[i].self = true;
					break;
				}
			}
			break;
		}
	}
	return NL_OK;
}

static int finish_cb(struct nl_msg *msg, void *arg)
{
	struct result *r = arg;
	int *err = nlmsg_data(nlmsg_hdr(msg));

	r->err = *err;
	r->done = true;
	return NL_STOP;
}

/* Send @msg (consumed) and collect the answer in @r. */
static int talk(struct nl_sock *sk, struct nl_msg *msg, struct result *r)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_CUSTOM);
	int err;

	memset(r, 0, sizeof(*r));
	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, valid_cb, r);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, ack_cb, r);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, finish_cb, r);
	nl_cb_err(cb, NL_CB_CUSTOM, err_cb, r);
	err = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	while (err >= 0 && !r->done)
		err = nl_recvmsgs(sk, cb);
	nl_cb_put(cb);
	/* after an error ack libnl returns its own code: the ack is in @r */
	return r->done ? 0 : err;
}

static struct nl_msg *request(int family, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				flags, cmd, FTNL_FAMILY_VERSION)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

static int put_node(struct nl_msg *msg, const struct node *n)
{
	struct nlattr *nest = nla_nest_start(msg, FTNL_A_NODE | NLA_F_NESTED);
	uint8_t addr[16];

	if (!nest || nla_put_u32(msg, FTNL_A_NODE_ID, n->id))
		return -1;
	if (inet_pton(AF_INET, n->addr, addr) == 1) {
		if (nla_put(msg, FTNL_A_NODE_ADDR4, 4, addr))
			return -1;
	} else if (inet_pton(AF_INET6, n->addr, addr) != 1 ||
		   nla_put(msg, FTNL_A_NODE_ADDR6, 16, addr)) {
		return -1;
	}
	if (nla_put_u16(msg, FTNL_A_NODE_PORT, n->port))
		return -1;
	return nla_nest_end(msg, nest);
}

/* CLUSTER_SET of the test cluster, @hb/@timeout and node ids overridable. */
static struct nl_msg *cluster_set(int family, uint32_t hb, uint32_t timeout,
				  uint32_t dup_id)
{
	struct nl_msg *msg = request(family, FTNL_CMD_CLUSTER_SET, NLM_F_ACK);
	uint8_t key[FTNL_KEY_LEN];
	size_t i;

	if (!msg)
		return NULL;
	memset(key, 0x5a, sizeof(key));
	if (nla_put_u32(msg, FTNL_A_CLUSTER_ID, CLUSTER) ||
	    nla_put_u32(msg, FTNL_A_SELF_ID, SELF) ||
	    nla_put_u32(msg, FTNL_A_HB_PERIOD_US, hb) ||
	    nla_put_u32(msg, FTNL_A_TIMEOUT_US, timeout) ||
	    nla_put(msg, FTNL_A_KEY, sizeof(key), key))
		goto err;
	for (i = 0; i < sizeof(nodes) / sizeof(nodes[0]); i++) {
		struct node n = nodes[i];

		if (dup_id && i == 3)
			n.id = dup_id;
		if (put_node(msg, &n))
			goto err;
	}
	return msg;
err:
	nlmsg_free(msg);
	return NULL;
}

static void check_info(struct __test_metadata *_metadata, struct nl_sock *sk,
		       int family, bool configured)
{
	struct result r;

	ASSERT_EQ(0, talk(sk, request(family, FTNL_CMD_INFO_GET, NLM_F_ACK), &r));
	ASSERT_EQ(0, r.err);
	ASSERT_EQ(1, r.nmsgs);
	EXPECT_NE(0u, strlen(r.version));
	EXPECT_TRUE(r.has_proto);
	EXPECT_EQ((uint32_t)FTNL_PROTO_VERSION, r.proto);
	EXPECT_TRUE(r.has_features);
	EXPECT_TRUE(!!(r.features & FTNL_FEATURE_CLUSTER));
	EXPECT_TRUE(r.has_max_nodes);
	EXPECT_EQ(65536u, r.max_nodes);
	EXPECT_EQ(configured, r.configured);
}

static void check_cluster(struct __test_metadata *_metadata, struct nl_sock *sk,
			  int family, uint32_t gen)
{
	struct result r;

	ASSERT_EQ(0, talk(sk, request(family, FTNL_CMD_CLUSTER_GET, NLM_F_ACK), &r));
	ASSERT_EQ(0, r.err);
	ASSERT_EQ(1, r.nmsgs);
	EXPECT_TRUE(r.configured);
	EXPECT_TRUE(r.has_cluster && r.has_self && r.has_hb && r.has_timeout &&
		    r.has_count && r.has_gen);
	EXPECT_EQ((uint32_t)CLUSTER, r.cluster);
	EXPECT_EQ((uint32_t)SELF, r.self_id);
	EXPECT_EQ((uint32_t)HB, r.hb);
	EXPECT_EQ((uint32_t)TIMEOUT, r.timeout);
	EXPECT_EQ(4u, r.count);
	EXPECT_EQ(gen, r.gen);
	EXPECT_FALSE(r.has_key); /* write-only */
}

TEST_F(libnl, info_get)
{
	check_info(_metadata, self->sk, self->family, false);
}

TEST_F(libnl, set_get_dump_del)
{
	struct result r;
	int i;

	ASSERT_EQ(0, talk(self->sk, cluster_set(self->family, HB, TIMEOUT, 0), &r));
	ASSERT_EQ(0, r.err) {
		TH_LOG("CLUSTER_SET: %s (%s)", strerror(-r.err), r.extack);
	}
	check_info(_metadata, self->sk, self->family, true);
	check_cluster(_metadata, self->sk, self->family, 1);

	/* the dump: one message per node, ascending ids, as configured */
	ASSERT_EQ(0, talk(self->sk, request(self->family, FTNL_CMD_NODE_GET,
					    NLM_F_DUMP), &r));
	ASSERT_EQ(0, r.err);
	ASSERT_EQ(4, r.nmsgs);
	for (i = 0; i < 4; i++) {
		const struct node *want = NULL;
		uint8_t addr[16] = { 0 };
		size_t k;

		for (k = 0; k < sizeof(nodes) / sizeof(nodes[0]); k++)
			if (nodes[k].id == (uint32_t)i + 1)
				want = &nodes[k];
		ASSERT_NE(NULL, want);
		EXPECT_EQ((uint32_t)i + 1, r.dumped[i].id);
		EXPECT_EQ((uint32_t)CLUSTER, r.dumped[i].cluster);
		EXPECT_EQ(1u, r.dumped[i].gen);
		EXPECT_EQ(want->port, r.dumped[i].port);
		EXPECT_EQ(FTNL_NODE_STATE_ALIVE, r.dumped[i].state);
		EXPECT_EQ(want->id == SELF, r.dumped[i].self);
		if (strchr(want->addr, ':')) {
			EXPECT_EQ(AF_INET6, r.dumped[i].family);
			inet_pton(AF_INET6, want->addr, addr);
			EXPECT_EQ(0, memcmp(addr, r.dumped[i].addr, 16));
		} else {
			EXPECT_EQ(AF_INET, r.dumped[i].family);
			inet_pton(AF_INET, want->addr, addr);
			EXPECT_EQ(0, memcmp(addr, r.dumped[i].addr, 4));
		}
	}

	/* delete: gone, and CLUSTER_GET says why */
	ASSERT_EQ(0, talk(self->sk, request(self->family, FTNL_CMD_CLUSTER_DEL,
					    NLM_F_ACK), &r));
	EXPECT_EQ(0, r.err);
	ASSERT_EQ(0, talk(self->sk, request(self->family, FTNL_CMD_CLUSTER_GET,
					    NLM_F_ACK), &r));
	EXPECT_EQ(-ENOENT, r.err);
	EXPECT_STREQ("no cluster is configured in this network namespace", r.extack);
	check_info(_metadata, self->sk, self->family, false);
}

TEST_F(libnl, rejections)
{
	struct result r;

	ASSERT_EQ(0, talk(self->sk, cluster_set(self->family, HB, TIMEOUT, 0), &r));
	ASSERT_EQ(0, r.err);

	/* d <= h */
	ASSERT_EQ(0, talk(self->sk, cluster_set(self->family, HB, HB, 0), &r));
	EXPECT_EQ(-EINVAL, r.err);
	EXPECT_STREQ("timeout must be greater than the heartbeat period", r.extack);

	/* a duplicate id */
	ASSERT_EQ(0, talk(self->sk, cluster_set(self->family, HB, TIMEOUT, 1), &r));
	EXPECT_EQ(-EINVAL, r.err);
	EXPECT_STREQ("duplicate node id", r.extack);

	/* h out of range: the netlink core's policy message */
	ASSERT_EQ(0, talk(self->sk, cluster_set(self->family, 999, TIMEOUT, 0), &r));
	EXPECT_EQ(-ERANGE, r.err);
	EXPECT_STREQ("integer out of range", r.extack);

	/* the first configuration is still there, unchanged */
	check_cluster(_metadata, self->sk, self->family, 1);
}

TEST_HARNESS_MAIN
