// SPDX-License-Identifier: GPL-2.0
/*
 * The ftnl family is visible in every network namespace: in several netns
 * made with "ip netns add", nlctrl resolves "ftnl" to the same family (same
 * id, version, "events" group, commands with the right permissions), and
 * INFO_GET answers the module's version, protocol version, features, the
 * 65,536-node limit, and "not configured". Configuring one netns is seen in
 * that netns only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ftnl_selftest.h"
#include "ksft.h"

#define NS_COUNT 4

FIXTURE(family) {
	char names[NS_COUNT][64];
	int added;
	int root_fd;
};

FIXTURE_SETUP(family)
{
	int i;

	self->root_fd = st_netns_fd();
	ASSERT_LE(0, self->root_fd);
	for (i = 0; i < NS_COUNT; i++) {
		snprintf(self->names[i], sizeof(self->names[i]),
			 "ftnl-st-fam-%d-%d", (int)getpid(), i);
		ASSERT_EQ(0, st_netns_add(self->names[i])) {
			TH_LOG("%s netns add %s failed", st_ip(), self->names[i]);
		}
		self->added++;
	}
}

FIXTURE_TEARDOWN(family)
{
	int i;

	if (self->root_fd >= 0) {
		st_setns(self->root_fd);
		close(self->root_fd);
	}
	for (i = 0; i < self->added; i++)
		st_netns_del(self->names[i]);
}

/* What INFO_GET says on the wire. */
struct info_reply {
	char version[64];
	bool has_version;
	uint32_t proto;
	bool has_proto;
	uint64_t features;
	bool has_features;
	uint32_t max_nodes;
	bool has_max_nodes;
	bool configured;
	unsigned int count;
};

static int info_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	struct info_reply *r = arg;
	const struct nlattr *a;

	r->count++;
	if (genl->cmd != FTNL_CMD_INFO_GET)
		return -EBADMSG;
	mnl_attr_for_each(a, nlh, sizeof(*genl)) {
		switch (mnl_attr_get_type(a)) {
		case FTNL_A_MODULE_VERSION:
			snprintf(r->version, sizeof(r->version), "%s",
				 mnl_attr_get_str(a));
			r->has_version = true;
			break;
		case FTNL_A_PROTO_VERSION:
			r->proto = mnl_attr_get_u32(a);
			r->has_proto = true;
			break;
		case FTNL_A_FEATURES:
			r->features = mnl_attr_get_u64(a);
			r->has_features = true;
			break;
		case FTNL_A_MAX_NODES:
			r->max_nodes = mnl_attr_get_u32(a);
			r->has_max_nodes = true;
			break;
		case FTNL_A_CONFIGURED:
			r->configured = true;
			break;
		}
	}
	return 0;
}

static void sysfs_module_version(char *buf, size_t len)
{
	FILE *f = fopen("/sys/module/ftnl/version", "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

static void check_family_here(struct __test_metadata *_metadata,
			      const char *where, uint16_t want_id,
			      uint32_t want_group, bool want_configured)
{
	char buf[256] __attribute__((aligned(4)));
	struct info_reply r = { 0 };
	struct ftnl_handle *h;
	char sysver[64];
	struct ftnl_info info;
	struct nlmsghdr *nlh;
	struct st_nl nl;
	struct st_ack ack;
	uint64_t must = FTNL_FEATURE_CLUSTER | FTNL_FEATURE_EVENTS;

	TH_LOG("checking the family in %s", where);
	ASSERT_EQ(0, st_nl_open(&nl));
	EXPECT_EQ(want_id, nl.family_id);
	EXPECT_EQ((uint32_t)FTNL_FAMILY_VERSION, nl.family_version);
	EXPECT_EQ(0u, nl.family_hdrsize);
	EXPECT_NE(0u, nl.events_group);
	EXPECT_EQ(want_group, nl.events_group);

	/* the commands and who may use them */
	EXPECT_TRUE(nl.op_present[FTNL_CMD_INFO_GET]);
	EXPECT_TRUE(!!(nl.op_flags[FTNL_CMD_INFO_GET] & GENL_CMD_CAP_DO));
	EXPECT_FALSE(!!(nl.op_flags[FTNL_CMD_INFO_GET] & GENL_CMD_CAP_DUMP));
	EXPECT_FALSE(!!(nl.op_flags[FTNL_CMD_INFO_GET] & (GENL_ADMIN_PERM | GENL_UNS_ADMIN_PERM)));
	EXPECT_TRUE(!!(nl.op_flags[FTNL_CMD_INFO_GET] & GENL_CMD_CAP_HASPOL));

	EXPECT_TRUE(nl.op_present[FTNL_CMD_CLUSTER_SET]);
	EXPECT_TRUE(!!(nl.op_flags[FTNL_CMD_CLUSTER_SET] & GENL_CMD_CAP_DO));
	EXPECT_TRUE(!!(nl.op_flags[FTNL_CMD_CLUSTER_SET] & GENL_UNS_ADMIN_PERM));
	EXPECT_TRUE(!!(nl.op_flags[FTNL_CMD_CLUSTER_SET] & GENL_CMD_CAP_HASPOL));

	EXPECT_TRUE(nl.op_present[FTNL_CMD_CLUSTER_GET]);
	EXPECT_TRUE(!!(nl.op_flags[FTNL_CMD_CLUSTER_GET] & GENL_CMD_CAP_DO));
	EXPECT_FALSE(!!(nl.op_flags[FTNL_CMD_CLUSTER_GET] & (GENL_ADMIN_PERM | GENL_UNS_ADMIN_PERM)));

	EXPECT_TRUE(nl.op_present[FTNL_CMD_CLUSTER_DEL]);
	EXPECT_TRUE(!!(nl.op_flags[FTNL_CMD_CLUSTER_DEL] & GENL_CMD_CAP_DO));
	EXPECT_TRUE(!!(nl.op_flags[FTNL_CMD_CLUSTER_DEL] & GENL_UNS_ADMIN_PERM));

	EXPECT_TRUE(nl.op_present[FTNL_CMD_NODE_GET]);
	EXPECT_TRUE(!!(nl.op_flags[FTNL_CMD_NODE_GET] & GENL_CMD_CAP_DUMP));
	EXPECT_FALSE(!!(nl.op_flags[FTNL_CMD_NODE_GET] & GENL_CMD_CAP_DO));
	EXPECT_FALSE(!!(nl.op_flags[FTNL_CMD_NODE_GET] & (GENL_ADMIN_PERM | GENL_UNS_ADMIN_PERM)));

	/* a notification is not a command */
	EXPECT_FALSE(nl.op_present[FTNL_CMD_CLUSTER_NTF]);

	/* INFO_GET on the wire */
	nlh = st_msg_start(&nl, buf, sizeof(buf), NLM_F_ACK, FTNL_CMD_INFO_GET);
	ASSERT_EQ(0, st_nl_talk(&nl, nlh, info_cb, &r, &ack));
	EXPECT_EQ(0, ack.cb_err);
	EXPECT_EQ(1u, r.count);
	EXPECT_TRUE(r.has_version);
	EXPECT_TRUE(r.has_proto);
	EXPECT_TRUE(r.has_features);
	EXPECT_TRUE(r.has_max_nodes);
	EXPECT_EQ((uint32_t)FTNL_PROTO_VERSION, r.proto);
	EXPECT_EQ(must, r.features & must);
	if (access("/proc/sys/net/ipv6", F_OK) == 0)
		EXPECT_TRUE(!!(r.features & FTNL_FEATURE_IPV6));
	EXPECT_EQ((uint32_t)FTNL_MAX_NODES, r.max_nodes);
	EXPECT_EQ(65536u, r.max_nodes);
	EXPECT_EQ(want_configured, r.configured);
	sysfs_module_version(sysver, sizeof(sysver));
	EXPECT_NE(0u, strlen(r.version));
	EXPECT_STREQ(sysver, r.version);
	st_nl_close(&nl);

	/* the same through libftnl */
	ASSERT_EQ(0, ftnl_open(&h));
	ASSERT_EQ(0, ftnl_info_get(h, &info));
	EXPECT_STREQ(r.version, info.module_version);
	EXPECT_EQ((uint32_t)FTNL_FAMILY_VERSION, info.family_version);
	EXPECT_EQ(r.proto, info.proto_version);
	EXPECT_EQ(r.features, info.features);
	EXPECT_EQ(r.max_nodes, info.max_nodes);
	EXPECT_EQ(want_configured, info.configured);
	ftnl_close(h);
}

TEST_F(family, visible_in_every_netns)
{
	struct st_nl nl;
	uint16_t id;
	uint32_t grp;
	char where[96];
	int i;

	/* the root netns first: the reference */
	ASSERT_EQ(0, st_nl_open(&nl));
	id = nl.family_id;
	grp = nl.events_group;
	st_nl_close(&nl);
	ASSERT_NE(0, id);

	for (i = 0; i < NS_COUNT; i++) {
		ASSERT_EQ(0, st_netns_enter(self->names[i]));
		snprintf(where, sizeof(where), "netns %s", self->names[i]);
		check_family_here(_metadata, where, id, grp, false);
	}
	/* and a netns made after the module was loaded and the others used */
	ASSERT_EQ(0, st_netns_new());
	check_family_here(_metadata, "an anonymous netns", id, grp, false);
}

TEST_F(family, configuration_is_per_netns)
{
	struct ftnl_handle *h[NS_COUNT], *root;
	struct ftnl_cluster_config c[2];
	struct ftnl_cluster_info info;
	struct st_state before, after;
	char why[256] = "";
	struct ftnl_info fi;
	int i;

	ASSERT_EQ(0, ftnl_open(&root));
	ASSERT_EQ(0, st_state_read(root, &before));
	for (i = 0; i < NS_COUNT; i++) {
		ASSERT_EQ(0, st_netns_enter(self->names[i]));
		ASSERT_EQ(0, ftnl_open(&h[i]));
	}

	ASSERT_EQ(0, st_config_small(&c[0], 11));
	ASSERT_EQ(0, st_config_small(&c[1], 12));
	c[1].self_id = 3;
	ASSERT_EQ(0, ftnl_cluster_set(h[0], &c[0]));
	ASSERT_EQ(0, ftnl_cluster_set(h[1], &c[1]));
	ASSERT_EQ(0, ftnl_cluster_set(h[1], &c[1]));

	for (i = 0; i < NS_COUNT; i++) {
		ASSERT_EQ(0, ftnl_info_get(h[i], &fi));
		EXPECT_EQ(i < 2, fi.configured);
		if (i < 2) {
			ASSERT_EQ(0, ftnl_cluster_get(h[i], &info));
			EXPECT_EQ(c[i].cluster_id, info.cluster_id);
			EXPECT_EQ(c[i].self_id, info.self_id);
			EXPECT_EQ(3u, info.node_count);
			/* generations count per netns */
			EXPECT_EQ((uint32_t)(i + 1), info.generation);
		} else {
			EXPECT_EQ(-ENOENT, ftnl_cluster_get(h[i], &info));
		}
	}

	/* the root netns saw none of it */
	ASSERT_EQ(0, st_state_read(root, &after));
	EXPECT_TRUE(st_state_same(&before, &after, why, sizeof(why))) {
		TH_LOG("root netns changed: %s", why);
	}
	st_state_free(&after);

	/* deleting in one netns leaves the other configured */
	ASSERT_EQ(0, ftnl_cluster_del(h[0]));
	EXPECT_EQ(-ENOENT, ftnl_cluster_get(h[0], &info));
	ASSERT_EQ(0, ftnl_cluster_get(h[1], &info));
	EXPECT_EQ(12u, info.cluster_id);
	EXPECT_EQ(2u, info.generation);

	for (i = 0; i < NS_COUNT; i++)
		ftnl_close(h[i]);
	ftnl_close(root);
	st_state_free(&before);
	st_config_free(&c[0]);
	st_config_free(&c[1]);
}

TEST_HARNESS_MAIN
