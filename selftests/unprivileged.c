// SPDX-License-Identifier: GPL-2.0
/*
 * Reading is open to everybody, changing needs CAP_NET_ADMIN over the netns
 * (GENL_UNS_ADMIN_PERM):
 *
 * - as uid 65534, INFO_GET, CLUSTER_GET and the node dump work and show the
 *   configuration root installed; CLUSTER_SET and CLUSTER_DEL fail with
 *   -EPERM (even a malformed CLUSTER_SET: permission comes first) and the
 *   state is unchanged;
 * - a socket root opened does not lend root's rights to a process that
 *   dropped them;
 * - an unprivileged subscriber receives the "events" group;
 * - an unprivileged user owning a user namespace may configure a netns that
 *   namespace owns, but not one owned by the initial user namespace.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "ftnl_selftest.h"
#include "ksft.h"

/* Exit status of a child that found user namespaces disabled. */
#define CHILD_SKIP 42

static void expect_same_as(struct __test_metadata *_metadata,
			   struct ftnl_handle *h, const struct st_state *before)
{
	struct st_state now;
	char why[256] = "";

	ASSERT_EQ(0, st_state_read(h, &now));
	EXPECT_TRUE(st_state_same(before, &now, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	st_state_free(&now);
}

/* Run @fn in a child process; return its exit status (-1: killed). */
static int in_child(struct __test_metadata *_metadata,
		    void (*fn)(struct __test_metadata *, void *), void *arg)
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		fn(_metadata, arg);
		fflush(stderr);
		_exit(_metadata->passed ? 0 : 1);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void unprivileged_body(struct __test_metadata *_metadata, void *arg)
{
	const struct st_state *before = arg;
	char buf[4096] __attribute__((aligned(4)));
	struct ftnl_cluster_config other;
	struct ftnl_cluster_info info;
	struct ftnl_node_table t;
	struct ftnl_handle *h;
	struct ftnl_info fi;
	struct nlmsghdr *nlh;
	struct st_ack ack;
	struct st_nl nl;
	size_t i;

	ASSERT_EQ(0, st_drop_privileges());
	ASSERT_EQ(65534u, getuid());
	ASSERT_EQ(65534u, geteuid());

	/* reading works */
	ASSERT_EQ(0, ftnl_open(&h));
	ASSERT_EQ(0, ftnl_info_get(h, &fi));
	EXPECT_TRUE(fi.configured);
	ASSERT_EQ(0, ftnl_cluster_get(h, &info));
	EXPECT_EQ(0, memcmp(&before->info, &info, sizeof(info)));
	ASSERT_EQ(0, ftnl_node_list(h, &t));
	ASSERT_EQ(before->table.count, t.count);
	for (i = 0; i < t.count; i++) {
		EXPECT_TRUE(st_node_same_endpoint(&before->table.nodes[i], &t.nodes[i]));
		EXPECT_EQ(before->table.nodes[i].self, t.nodes[i].self);
	}
	ftnl_node_table_free(&t);

	/* writing does not, whatever the request */
	ASSERT_EQ(0, st_config_small(&other, 99));
	EXPECT_EQ(-EPERM, ftnl_cluster_set(h, &other));
	EXPECT_EQ(-EPERM, ftnl_errno(h));
	EXPECT_EQ(-EPERM, ftnl_cluster_del(h));
	other.cluster_id = 0;
	EXPECT_EQ(-EPERM, ftnl_cluster_set(h, &other));
	other.cluster_id = 99;

	ASSERT_EQ(0, st_nl_open(&nl));
	nlh = st_msg_start(&nl, buf, sizeof(buf), NLM_F_ACK, FTNL_CMD_CLUSTER_SET);
	st_put_config(nlh, &other);
	EXPECT_EQ(-EPERM, st_nl_talk(&nl, nlh, NULL, NULL, &ack));
	EXPECT_FALSE(ack.local);
	nlh = st_msg_start(&nl, buf, sizeof(buf), NLM_F_ACK, FTNL_CMD_CLUSTER_DEL);
	EXPECT_EQ(-EPERM, st_nl_talk(&nl, nlh, NULL, NULL, &ack));
	EXPECT_FALSE(ack.local);
	/* and the raw dump still works */
	nlh = st_msg_start(&nl, buf, sizeof(buf), NLM_F_DUMP, FTNL_CMD_NODE_GET);
	EXPECT_EQ(0, st_nl_talk(&nl, nlh, NULL, NULL, &ack));
	EXPECT_EQ(before->table.count, ack.nmsgs);
	st_nl_close(&nl);

	expect_same_as(_metadata, h, before);
	st_config_free(&other);
	ftnl_close(h);
}

TEST(reads_allowed_writes_eperm)
{
	struct ftnl_cluster_config c;
	struct ftnl_handle *h;
	struct st_state before;

	ASSERT_EQ(0, st_netns_new());
	ASSERT_EQ(0, ftnl_open(&h));
	ASSERT_EQ(0, st_config_small(&c, 21));
	ASSERT_EQ(0, ftnl_cluster_set(h, &c));
	ASSERT_EQ(0, st_state_read(h, &before));
	ASSERT_EQ(3u, before.table.count);

	EXPECT_EQ(0, in_child(_metadata, unprivileged_body, &before));

	/* root still sees exactly what it configured */
	expect_same_as(_metadata, h, &before);
	st_state_free(&before);
	st_config_free(&c);
	ftnl_close(h);
}

struct root_socket {
	struct ftnl_handle *h;
	const struct st_state *before;
};

static void borrowed_socket_body(struct __test_metadata *_metadata, void *arg)
{
	struct root_socket *rs = arg;
	struct ftnl_cluster_config other;

	ASSERT_EQ(0, st_drop_privileges());
	ASSERT_EQ(0, st_config_small(&other, 98));
	EXPECT_EQ(-EPERM, ftnl_cluster_set(rs->h, &other));
	EXPECT_EQ(-EPERM, ftnl_cluster_del(rs->h));
	expect_same_as(_metadata, rs->h, rs->before);
	st_config_free(&other);
}

TEST(root_socket_after_setuid_eperm)
{
	struct ftnl_cluster_config c;
	struct st_state before;
	struct root_socket rs;

	ASSERT_EQ(0, st_netns_new());
	ASSERT_EQ(0, ftnl_open(&rs.h));
	ASSERT_EQ(0, st_config_small(&c, 22));
	ASSERT_EQ(0, ftnl_cluster_set(rs.h, &c));
	ASSERT_EQ(0, st_state_read(rs.h, &before));
	rs.before = &before;

	EXPECT_EQ(0, in_child(_metadata, borrowed_socket_body, &rs));
	expect_same_as(_metadata, rs.h, &before);
	st_state_free(&before);
	st_config_free(&c);
	ftnl_close(rs.h);
}

struct sub_arg {
	int ready[2];
};

static void subscriber_body(struct __test_metadata *_metadata, void *arg)
{
	struct sub_arg *sa = arg;
	struct ftnl_events *ev;
	struct ftnl_event e;
	int n;

	close(sa->ready[0]);
	ASSERT_EQ(0, st_drop_privileges());
	ASSERT_EQ(0, ftnl_events_open(&ev));
	ASSERT_EQ(1, write(sa->ready[1], "r", 1));
	close(sa->ready[1]);

	ASSERT_EQ(1, ftnl_events_wait(ev, ST_EVENT_TIMEOUT_MS));
	n = ftnl_events_read(ev, &e);
	ASSERT_EQ(1, n);
	EXPECT_EQ((uint32_t)FTNL_EVENT_CLUSTER, e.type);
	EXPECT_TRUE(e.cluster.configured);
	EXPECT_EQ(23u, e.cluster.cluster_id);
	EXPECT_EQ(1u, e.cluster.generation);
	ftnl_events_close(ev);
}

TEST(unprivileged_subscriber_receives_events)
{
	struct ftnl_cluster_config c;
	struct ftnl_handle *h;
	struct sub_arg sa;
	int status = -1;
	char r = 0;
	pid_t pid;

	ASSERT_EQ(0, st_netns_new());
	ASSERT_EQ(0, ftnl_open(&h));
	ASSERT_EQ(0, st_config_small(&c, 23));
	ASSERT_EQ(0, pipe(sa.ready));

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		subscriber_body(_metadata, &sa);
		_exit(_metadata->passed ? 0 : 1);
	}
	close(sa.ready[1]);
	ASSERT_EQ(1, read(sa.ready[0], &r, 1));
	close(sa.ready[0]);
	ASSERT_EQ(0, ftnl_cluster_set(h, &c));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		TH_LOG("subscriber status %#x", status);
	}
	st_config_free(&c);
	ftnl_close(h);
}

static void userns_owner_body(struct __test_metadata *_metadata, void *arg)
{
	struct ftnl_cluster_config c;
	struct ftnl_cluster_info info;
	struct ftnl_handle *h;

	(void)arg;
	ASSERT_EQ(0, st_drop_privileges());
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET)) {
		TH_LOG("unshare(CLONE_NEWUSER | CLONE_NEWNET): %s", strerror(errno));
		_exit(CHILD_SKIP);
	}
	ASSERT_EQ(0, ftnl_open(&h));
	ASSERT_EQ(0, st_config_small(&c, 24));
	ASSERT_EQ(0, ftnl_cluster_set(h, &c)) {
		TH_LOG("%s", ftnl_errmsg(h));
	}
	ASSERT_EQ(0, ftnl_cluster_get(h, &info));
	EXPECT_EQ(24u, info.cluster_id);
	EXPECT_EQ(0, ftnl_cluster_del(h));
	st_config_free(&c);
	ftnl_close(h);
}

TEST(userns_owner_may_configure_its_netns)
{
	int status = in_child(_metadata, userns_owner_body, NULL);

	if (status == CHILD_SKIP)
		SKIP(return, "user namespaces are not available to unprivileged users");
	EXPECT_EQ(0, status);
}

static void userns_foreign_body(struct __test_metadata *_metadata, void *arg)
{
	const struct st_state *before = arg;
	struct ftnl_cluster_config c;
	struct ftnl_handle *h;

	ASSERT_EQ(0, st_drop_privileges());
	if (unshare(CLONE_NEWUSER)) {
		TH_LOG("unshare(CLONE_NEWUSER): %s", strerror(errno));
		_exit(CHILD_SKIP);
	}
	/* all capabilities, but in a user namespace not owning this netns */
	ASSERT_EQ(0, ftnl_open(&h));
	ASSERT_EQ(0, st_config_small(&c, 25));
	EXPECT_EQ(-EPERM, ftnl_cluster_set(h, &c));
	EXPECT_EQ(-EPERM, ftnl_cluster_del(h));
	expect_same_as(_metadata, h, before);
	st_config_free(&c);
	ftnl_close(h);
}

TEST(userns_cannot_configure_foreign_netns)
{
	struct ftnl_cluster_config c;
	struct st_state before;
	struct ftnl_handle *h;
	int status;

	ASSERT_EQ(0, st_netns_new());
	ASSERT_EQ(0, ftnl_open(&h));
	ASSERT_EQ(0, st_config_small(&c, 26));
	ASSERT_EQ(0, ftnl_cluster_set(h, &c));
	ASSERT_EQ(0, st_state_read(h, &before));

	status = in_child(_metadata, userns_foreign_body, &before);
	if (status == CHILD_SKIP)
		SKIP(return, "user namespaces are not available to unprivileged users");
	EXPECT_EQ(0, status);
	expect_same_as(_metadata, h, &before);
	st_state_free(&before);
	st_config_free(&c);
	ftnl_close(h);
}

TEST_HARNESS_MAIN
