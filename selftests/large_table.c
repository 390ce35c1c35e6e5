// SPDX-License-Identifier: GPL-2.0
/*
 * The largest table: a 65,536-node configuration (synthetic addresses,
 * given in descending id order) is accepted; the node dump returns exactly
 * 65,536 distinct nodes in ascending id order, each as configured, one of
 * them marked self, all with the same generation, and it is not flagged
 * interrupted. A dump during which the configuration is replaced or
 * deleted is flagged NLM_F_DUMP_INTR on the wire, and libftnl reports it as
 * -EINTR from ftnl_node_dump().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "ftnl_selftest.h"
#include "ksft.h"

#define N FTNL_MAX_NODES
#define SELF_ID (N / 2)

/* Under TCG a 2.6 MB request and a 5 MB dump take seconds, not minutes. */
#define LARGE_TIMEOUT 300

FIXTURE(large) {
	struct ftnl_handle *h, *h2;
	struct st_nl nl;
	struct ftnl_cluster_config c;
};

FIXTURE_SETUP(large)
{
	ASSERT_EQ(0, st_netns_new());
	ASSERT_EQ(0, ftnl_open(&self->h));
	ASSERT_EQ(0, ftnl_open(&self->h2));
	ASSERT_EQ(0, st_nl_open(&self->nl));
	ASSERT_EQ(0, st_config_synthetic(&self->c, N, 5, SELF_ID, 7000));
}

FIXTURE_TEARDOWN(large)
{
	st_config_free(&self->c);
	st_nl_close(&self->nl);
	ftnl_close(self->h2);
	ftnl_close(self->h);
}

/* What a raw dump saw. */
struct dump_seen {
	uint32_t count;
	uint32_t last_id;
	uint32_t self_count;
	uint32_t gen_first, gen_last;
	uint32_t gen_changes;
	uint16_t port;
	unsigned int bad;	/* messages that did not look as configured */
	char why[160];
};

static void bad(struct dump_seen *s, const char *why, uint32_t id)
{
	if (!s->bad++)
		snprintf(s->why, sizeof(s->why), "%s (node %u)", why, id);
}

static int dump_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	struct dump_seen *s = arg;
	const struct nlattr *a, *n;
	uint32_t id = 0, cluster = 0, gen = 0, addr = 0;
	bool has_id = false, is_self = false, has_state = false;
	uint16_t port = 0;
	uint8_t state = 0xff;
	unsigned int nodes = 0;

	if (genl->cmd != FTNL_CMD_NODE_GET)
		bad(s, "wrong command", 0);
	mnl_attr_for_each(a, nlh, sizeof(*genl)) {
		switch (mnl_attr_get_type(a)) {
		case FTNL_A_CLUSTER_ID:
			cluster = mnl_attr_get_u32(a);
			break;
		case FTNL_A_GENERATION:
			gen = mnl_attr_get_u32(a);
			break;
		case FTNL_A_NODE:
			nodes++;
			mnl_attr_for_each_nested(n, a) {
				switch (mnl_attr_get_type(n)) {
				case FTNL_A_NODE_ID:
					id = mnl_attr_get_u32(n);
					has_id = true;
					break;
				case FTNL_A_NODE_ADDR4:
					memcpy(&addr, mnl_attr_get_payload(n), 4);
					break;
				case FTNL_A_NODE_PORT:
					port = mnl_attr_get_u16(n);
					break;
				case FTNL_A_NODE_STATE:
					state = mnl_attr_get_u8(n);
					has_state = true;
					break;
				case FTNL_A_NODE_SELF:
					is_self = true;
					break;
				}
			}
			break;
		}
	}
	if (nodes != 1 || !has_id)
		bad(s, "not exactly one node with an id", id);
	if (cluster != 5)
		bad(s, "wrong cluster id", id);
	if (s->count && id <= s->last_id)
		bad(s, "ids not strictly ascending", id);
	if (ntohl(addr) != ((10u << 24) | id))
		bad(s, "address not as configured", id);
	if (port != s->port)
		bad(s, "port not as configured", id);
	if (!has_state || state != FTNL_NODE_STATE_ALIVE)
		bad(s, "state not alive", id);
	if (is_self != (id == SELF_ID))
		bad(s, "self flag on the wrong node", id);
	if (!s->count)
		s->gen_first = gen;
	else if (gen != s->gen_last)
		s->gen_changes++;
	s->gen_last = gen;
	s->self_count += is_self;
	s->last_id = id;
	s->count++;
	return 0;
}

static struct nlmsghdr *dump_req(struct st_nl *nl, void *buf, size_t len)
{
	return st_msg_start(nl, buf, len, NLM_F_DUMP, FTNL_CMD_NODE_GET);
}

TEST_F_TIMEOUT(large, table_65536_accepted_and_dumped, LARGE_TIMEOUT)
{
	char buf[256] __attribute__((aligned(4)));
	struct dump_seen seen = { .port = 7000 };
	struct ftnl_cluster_info info;
	struct ftnl_node_table t;
	char err[256] = "";
	struct st_ack ack;
	size_t i;

	ASSERT_EQ(0, ftnl_config_validate(&self->c, err, sizeof(err))) {
		TH_LOG("%s", err);
	}
	ASSERT_EQ(0, ftnl_cluster_set(self->h, &self->c)) {
		TH_LOG("%s", ftnl_errmsg(self->h));
	}
	ASSERT_EQ(0, ftnl_cluster_get(self->h, &info));
	EXPECT_EQ((uint32_t)N, info.node_count);
	EXPECT_EQ(5u, info.cluster_id);
	EXPECT_EQ((uint32_t)SELF_ID, info.self_id);
	EXPECT_EQ(1u, info.generation);

	/* on the wire */
	ASSERT_EQ(0, st_nl_talk(&self->nl, dump_req(&self->nl, buf, sizeof(buf)),
				dump_cb, &seen, &ack));
	EXPECT_FALSE(ack.dump_intr);
	EXPECT_EQ((uint32_t)N, seen.count);
	EXPECT_EQ((uint32_t)N, seen.last_id);
	EXPECT_EQ(1u, seen.self_count);
	EXPECT_EQ(1u, seen.gen_first);
	EXPECT_EQ(0u, seen.gen_changes);
	EXPECT_EQ(0u, seen.bad) {
		TH_LOG("%u bad messages, first: %s", seen.bad, seen.why);
	}
	TH_LOG("dump: %u nodes in %u datagrams", seen.count, ack.nrecv);
	EXPECT_LT(1u, ack.nrecv);

	/* through libftnl */
	ASSERT_EQ(0, ftnl_node_list(self->h, &t));
	EXPECT_EQ((size_t)N, t.count);
	EXPECT_EQ(5u, t.cluster_id);
	EXPECT_EQ(1u, t.generation);
	for (i = 0; i < t.count; i++) {
		if (t.nodes[i].id != i + 1 || t.nodes[i].self != (i + 1 == SELF_ID) ||
		    t.nodes[i].port != 7000) {
			EXPECT_EQ(i + 1, t.nodes[i].id);
			break;
		}
	}
	ftnl_node_table_free(&t);

	/* nothing changed the generation */
	ASSERT_EQ(0, ftnl_cluster_get(self->h, &info));
	EXPECT_EQ(1u, info.generation);
}

/* Read the first part of a raw dump, run @change, read the rest. */
static void interrupted_raw_dump(struct __test_metadata *_metadata,
				 FIXTURE_DATA(large) *self,
				 int (*change)(FIXTURE_DATA(large) *self),
				 struct dump_seen *seen, struct st_ack *ack)
{
	char buf[256] __attribute__((aligned(4)));
	bool done = false;

	memset(ack, 0, sizeof(*ack));
	ASSERT_EQ(0, st_nl_send(&self->nl, dump_req(&self->nl, buf, sizeof(buf))));
	ASSERT_EQ(0, st_nl_read(&self->nl, dump_cb, seen, ack, &done));
	ASSERT_FALSE(done);
	ASSERT_LT(0u, seen->count);
	ASSERT_GT((uint32_t)N, seen->count);
	ASSERT_EQ(0, change(self));
	while (!done)
		ASSERT_EQ(0, st_nl_read(&self->nl, dump_cb, seen, ack, &done));
	EXPECT_EQ(0, ack->err);
}

static int replace_port(FIXTURE_DATA(large) *self)
{
	size_t i;

	for (i = 0; i < self->c.node_count; i++)
		self->c.nodes[i].port = 7001;
	return ftnl_cluster_set(self->h2, &self->c);
}

static int delete_cluster(FIXTURE_DATA(large) *self)
{
	return ftnl_cluster_del(self->h2);
}

TEST_F_TIMEOUT(large, dump_interrupted_by_replace_flagged, LARGE_TIMEOUT)
{
	struct dump_seen seen = { .port = 7000 };
	struct st_ack ack;

	ASSERT_EQ(0, ftnl_cluster_set(self->h, &self->c));
	interrupted_raw_dump(_metadata, self, replace_port, &seen, &ack);
	EXPECT_TRUE(ack.dump_intr);
	/* the dump went on in the new configuration: generation changed */
	EXPECT_EQ(1u, seen.gen_first);
	EXPECT_EQ(2u, seen.gen_last);
	TH_LOG("interrupted dump: %u nodes, NLM_F_DUMP_INTR %s", seen.count,
	       ack.dump_intr ? "set" : "missing");
}

TEST_F_TIMEOUT(large, dump_interrupted_by_delete_flagged, LARGE_TIMEOUT)
{
	struct dump_seen seen = { .port = 7000 };
	struct st_ack ack;

	ASSERT_EQ(0, ftnl_cluster_set(self->h, &self->c));
	interrupted_raw_dump(_metadata, self, delete_cluster, &seen, &ack);
	/* the dump ended early: the reader must be told it is incomplete */
	EXPECT_GT((uint32_t)N, seen.count);
	EXPECT_TRUE(ack.dump_intr) {
		TH_LOG("dump cut short by CLUSTER_DEL after %u of %u nodes, not flagged NLM_F_DUMP_INTR",
		       seen.count, N);
	}
}

/* libftnl: ftnl_node_dump() returns -EINTR, ftnl_node_list() retries. */
struct lib_dump {
	FIXTURE_DATA(large) *self;
	int (*change)(FIXTURE_DATA(large) *self);
	size_t seen;
	int change_err;
};

static int lib_dump_cb(const struct ftnl_node *node, void *arg)
{
	struct lib_dump *d = arg;

	(void)node;
	if (d->seen++ == 100)
		d->change_err = d->change(d->self);
	return 0;
}

TEST_F_TIMEOUT(large, libftnl_reports_interrupted_dump, LARGE_TIMEOUT)
{
	struct lib_dump d = { .self = self, .change = replace_port };
	struct ftnl_node_table t;

	ASSERT_EQ(0, ftnl_cluster_set(self->h, &self->c));

	EXPECT_EQ(-EINTR, ftnl_node_dump(self->h, lib_dump_cb, &d));
	EXPECT_EQ(0, d.change_err);
	EXPECT_LT(100u, d.seen);
	TH_LOG("replace: %zu nodes seen", d.seen);

	/* a deletion during the dump is an interruption too */
	d.change = delete_cluster;
	d.seen = 0;
	EXPECT_EQ(-EINTR, ftnl_node_dump(self->h, lib_dump_cb, &d)) {
		TH_LOG("delete: %zu nodes seen, no error reported", d.seen);
	}
	EXPECT_EQ(0, d.change_err);

	/* a stable table lists whole */
	ASSERT_EQ(0, ftnl_cluster_set(self->h, &self->c));
	ASSERT_EQ(0, ftnl_node_list(self->h, &t));
	EXPECT_EQ((size_t)N, t.count);
	EXPECT_EQ(4u, t.generation);
	if (t.count)
		EXPECT_EQ(7001, t.nodes[0].port);
	ftnl_node_table_free(&t);
}

TEST_HARNESS_MAIN
