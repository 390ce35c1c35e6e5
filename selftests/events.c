// SPDX-License-Identifier: GPL-2.0
/*
 * Events plumbing: a libftnl subscription (poll on its fd, with a timeout,
 * never a busy loop) receives one FTNL_CMD_CLUSTER_NTF per configuration
 * change of its own netns (set, replace, delete) with the right generation,
 * configured flag, cluster id, self id and node count; nothing for rejected
 * requests; nothing from another netns; an overrun is reported as such.
 * The notification is also checked on the wire with a raw socket.
 * Events are numbered: every process exit carries the next sequence
 * number, the ones the queue could not hold (event_queue_len 0) are
 * counted and show up as a gap, and the history dump returns them all;
 * a number from the future is refused with an extack message. Events
 * whose notifications could not be allocated are counted, numbered and
 * kept the same way.
 *
 * Ordering argument used instead of sleeping: a notification is queued on
 * the subscriber's socket before the request that caused it is acked. So
 * if something unwanted (another netns's change, a rejected request) were
 * notified, it would be read before the notification of a later wanted
 * change made after it.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ftnl_selftest.h"
#include "ksft.h"

FIXTURE(events) {
	int root_fd, a_fd, b_fd;
	struct ftnl_handle *ha, *hb;
	struct ftnl_events *ev;		/* subscribed in netns A */
	struct ftnl_cluster_config ca, cb;
};

FIXTURE_SETUP(events)
{
	self->root_fd = self->a_fd = self->b_fd = -1;
	self->root_fd = st_netns_fd();
	ASSERT_LE(0, self->root_fd);

	ASSERT_EQ(0, st_netns_new());
	self->a_fd = st_netns_fd();
	ASSERT_LE(0, self->a_fd);
	ASSERT_EQ(0, ftnl_open(&self->ha));
	ASSERT_EQ(0, ftnl_events_open(&self->ev));

	ASSERT_EQ(0, st_netns_new());
	self->b_fd = st_netns_fd();
	ASSERT_LE(0, self->b_fd);
	ASSERT_EQ(0, ftnl_open(&self->hb));

	ASSERT_EQ(0, st_setns(self->a_fd));
	ASSERT_EQ(0, st_config_small(&self->ca, 111));
	ASSERT_EQ(0, st_config_small(&self->cb, 222));
	self->cb.self_id = 3;
}

FIXTURE_TEARDOWN(events)
{
	ftnl_events_close(self->ev);
	ftnl_close(self->ha);
	ftnl_close(self->hb);
	st_config_free(&self->ca);
	st_config_free(&self->cb);
	if (self->root_fd >= 0)
		close(self->root_fd);
	if (self->a_fd >= 0)
		close(self->a_fd);
	if (self->b_fd >= 0)
		close(self->b_fd);
}

/* Wait (poll, generous timeout) for the next event and read it. */
static int next_event(struct ftnl_events *ev, struct ftnl_event *e)
{
	struct pollfd pfd = { .fd = ftnl_events_fd(ev), .events = POLLIN };
	int n;

	for (;;) {
		n = ftnl_events_read(ev, e);
		if (n)
			return n;
		n = poll(&pfd, 1, ST_EVENT_TIMEOUT_MS);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ETIMEDOUT;
	}
}

/* Nothing pending right now: the fd is not readable, read returns 0. */
static void expect_quiet(struct __test_metadata *_metadata,
			 struct ftnl_events *ev)
{
	struct pollfd pfd = { .fd = ftnl_events_fd(ev), .events = POLLIN };
	struct ftnl_event e;
	int n;

	EXPECT_EQ(0, poll(&pfd, 1, 0));
	n = ftnl_events_read(ev, &e);
	EXPECT_EQ(0, n) {
		TH_LOG("unexpected event type %u cluster %u gen %u",
		       e.type, e.cluster.cluster_id, e.cluster.generation);
	}
}

static void expect_cluster_event(struct __test_metadata *_metadata,
				 struct ftnl_events *ev, uint32_t generation,
				 const struct ftnl_cluster_config *c)
{
	struct ftnl_event e;

	memset(&e, 0xa5, sizeof(e));
	ASSERT_EQ(1, next_event(ev, &e)) {
		TH_LOG("no event within %d ms (want generation %u)",
		       ST_EVENT_TIMEOUT_MS, generation);
	}
	ASSERT_EQ((uint32_t)FTNL_EVENT_CLUSTER, e.type);
	EXPECT_EQ(0u, e.reserved);
	EXPECT_NE(0u, e.received_ns);
	EXPECT_EQ(generation, e.cluster.generation);
	if (c) {
		EXPECT_TRUE(e.cluster.configured);
		EXPECT_EQ(c->cluster_id, e.cluster.cluster_id);
		EXPECT_EQ(c->self_id, e.cluster.self_id);
		EXPECT_EQ(c->node_count, e.cluster.node_count);
	} else {
		EXPECT_FALSE(e.cluster.configured);
		EXPECT_EQ(0u, e.cluster.cluster_id);
		EXPECT_EQ(0u, e.cluster.self_id);
		EXPECT_EQ(0u, e.cluster.node_count);
	}
}

TEST_F(events, set_replace_del_notify)
{
	struct ftnl_cluster_config five;
	struct ftnl_cluster_info info;

	expect_quiet(_metadata, self->ev);

	ASSERT_EQ(0, ftnl_cluster_set(self->ha, &self->ca));
	ASSERT_EQ(0, ftnl_cluster_get(self->ha, &info));
	ASSERT_EQ(1u, info.generation);
	expect_cluster_event(_metadata, self->ev, 1, &self->ca);
	expect_quiet(_metadata, self->ev);

	/* replace */
	ASSERT_EQ(0, st_config_synthetic(&five, 5, 112, 4, 7100));
	ASSERT_EQ(0, ftnl_cluster_set(self->ha, &five));
	expect_cluster_event(_metadata, self->ev, 2, &five);
	expect_quiet(_metadata, self->ev);

	/* delete */
	ASSERT_EQ(0, ftnl_cluster_del(self->ha));
	expect_cluster_event(_metadata, self->ev, 3, NULL);
	expect_quiet(_metadata, self->ev);

	/* rejected requests notify nothing: the next event is the next change */
	EXPECT_EQ(-ENOENT, ftnl_cluster_del(self->ha));
	five.cluster_id = 0;
	EXPECT_EQ(-ERANGE, ftnl_cluster_set(self->ha, &five));
	five.cluster_id = 113;
	ASSERT_EQ(0, ftnl_cluster_set(self->ha, &five));
	expect_cluster_event(_metadata, self->ev, 4, &five);
	expect_quiet(_metadata, self->ev);
	st_config_free(&five);
}

TEST_F(events, other_netns_not_received)
{
	struct ftnl_events *evb;

	/* B subscribes too */
	ASSERT_EQ(0, st_setns(self->b_fd));
	ASSERT_EQ(0, ftnl_events_open(&evb));
	ASSERT_EQ(0, st_setns(self->a_fd));

	/* three changes in B, then one in A: A hears only its own */
	ASSERT_EQ(0, ftnl_cluster_set(self->hb, &self->cb));
	ASSERT_EQ(0, ftnl_cluster_del(self->hb));
	ASSERT_EQ(0, ftnl_cluster_set(self->hb, &self->cb));
	ASSERT_EQ(0, ftnl_cluster_set(self->ha, &self->ca));
	expect_cluster_event(_metadata, self->ev, 1, &self->ca);
	expect_quiet(_metadata, self->ev);

	/* and B only its own three */
	expect_cluster_event(_metadata, evb, 1, &self->cb);
	expect_cluster_event(_metadata, evb, 2, NULL);
	expect_cluster_event(_metadata, evb, 3, &self->cb);
	expect_quiet(_metadata, evb);

	/* the other way round */
	ASSERT_EQ(0, ftnl_cluster_del(self->ha));
	ASSERT_EQ(0, ftnl_cluster_del(self->hb));
	expect_cluster_event(_metadata, evb, 4, NULL);
	expect_quiet(_metadata, evb);
	expect_cluster_event(_metadata, self->ev, 2, NULL);
	expect_quiet(_metadata, self->ev);
	ftnl_events_close(evb);
}

TEST_F(events, idle_fd_blocks)
{
	struct pollfd pfd = { .fd = ftnl_events_fd(self->ev), .events = POLLIN };
	struct timespec t0, t1;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT_EQ(0, poll(&pfd, 1, 300));
	EXPECT_EQ(0, ftnl_events_wait(self->ev, 300));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	/* both waits really waited: nothing made the fd readable */
	EXPECT_LE(590, ms);

	/* and ftnl_events_wait() wakes up for an event */
	ASSERT_EQ(0, ftnl_cluster_set(self->ha, &self->ca));
	EXPECT_EQ(1, ftnl_events_wait(self->ev, ST_EVENT_TIMEOUT_MS));
	expect_cluster_event(_metadata, self->ev, 1, &self->ca);
}

/* A subscriber that does not read loses events: it is told so, and the
 * subscription keeps working.
 */
TEST_F(events, overrun_reported)
{
	int rcvbuf = 1, i, n, overruns = 0, got = 0;
	uint32_t last_gen = 0;
	struct ftnl_event e;

	/* the smallest receive buffer the kernel allows: a few events */
	ASSERT_EQ(0, setsockopt(ftnl_events_fd(self->ev), SOL_SOCKET,
				SO_RCVBUF, &rcvbuf, sizeof(rcvbuf)));
	for (i = 0; i < 200; i++)
		ASSERT_EQ(0, ftnl_cluster_set(self->ha, &self->ca));

	/* Every notification was queued (or dropped) before its request was
	 * acked: the backlog is complete, read it without waiting.
	 */
	for (;;) {
		n = ftnl_events_read(self->ev, &e);
		if (n == 0) {
			if (ftnl_events_wait(self->ev, 0) == 1)
				continue;
			break;
		}
		ASSERT_EQ(1, n);
		if (e.type == FTNL_EVENT_OVERRUN) {
			overruns++;
			continue;
		}
		ASSERT_EQ((uint32_t)FTNL_EVENT_CLUSTER, e.type);
		EXPECT_LT(last_gen, e.cluster.generation);
		last_gen = e.cluster.generation;
		got++;
	}
	EXPECT_LE(1, overruns);
	EXPECT_GT(200, got);
	TH_LOG("%d events read, %d overrun reports", got, overruns);
	expect_quiet(_metadata, self->ev);

	/* still subscribed */
	ASSERT_EQ(0, ftnl_cluster_set(self->ha, &self->ca));
	expect_cluster_event(_metadata, self->ev, 201, &self->ca);
}

#define QUEUE_LEN_PARAM	"/sys/module/ftnl/parameters/event_queue_len"
#define SEQ_JOB		4242
#define SEQ_RANKS	6

static int set_queue_len(unsigned int n)
{
	return st_sh("echo %u > " QUEUE_LEN_PARAM, n);
}

/* The next event, which must be the exit of @rank with sequence @seq. */
static void expect_exit(struct __test_metadata *_metadata,
			struct ftnl_events *ev, uint32_t rank, uint64_t seq)
{
	struct ftnl_event e;

	ASSERT_EQ(1, next_event(ev, &e)) {
		TH_LOG("no event within %d ms (want rank %u)",
		       ST_EVENT_TIMEOUT_MS, rank);
	}
	ASSERT_EQ((uint32_t)FTNL_EVENT_PROC_EXIT, e.type);
	EXPECT_EQ((uint64_t)SEQ_JOB, e.proc_exit.job);
	EXPECT_EQ(rank, e.proc_exit.rank);
	EXPECT_EQ(seq, e.seq);
}

struct history {
	uint64_t seqs[64];
	uint32_t ranks[64];
	unsigned int n;
};

static int collect(const struct ftnl_event *e, void *arg)
{
	struct history *h = arg;

	if (h->n < 64) {
		h->seqs[h->n] = e->seq;
		h->ranks[h->n] = e->type == FTNL_EVENT_PROC_EXIT ?
				 e->proc_exit.rank : UINT32_MAX;
	}
	h->n++;
	return 0;
}

/*
 * Six ranks of SEQ_JOB registered in netns A, its cluster configured;
 * ranks 0 and 1 die and are multicast. @st0: the counters before.
 */
static void start_ranks(struct __test_metadata *_metadata,
			FIXTURE_DATA(events) *self,
			struct ftnl_handle *procs[SEQ_RANKS],
			struct ftnl_stats *st0)
{
	unsigned int i;

	ASSERT_EQ(0, ftnl_cluster_set(self->ha, &self->ca));
	expect_cluster_event(_metadata, self->ev, 1, &self->ca);
	for (i = 0; i < SEQ_RANKS; i++) {
		ASSERT_EQ(0, ftnl_open(&procs[i]));
		ASSERT_EQ(0, ftnl_proc_register(procs[i], SEQ_JOB, i));
	}
	ASSERT_EQ(0, ftnl_stats_get(self->ha, st0));
	ftnl_close(procs[0]);
	ftnl_close(procs[1]);
	expect_exit(_metadata, self->ev, 0, st0->event_seq + 1);
	expect_exit(_metadata, self->ev, 1, st0->event_seq + 2);
}

/*
 * Ranks 2..4 died unseen: rank 5's exit, multicast, shows the gap in its
 * number, and the history has all six from @s0 on, in order, each once.
 */
static void end_ranks(struct __test_metadata *_metadata,
		      FIXTURE_DATA(events) *self,
		      struct ftnl_handle *procs[SEQ_RANKS], uint64_t s0)
{
	struct history hist = { 0 };
	unsigned int i;

	ftnl_close(procs[5]);
	expect_exit(_metadata, self->ev, 5, s0 + 6);
	ASSERT_EQ(0, ftnl_event_history(self->ha, s0, collect, &hist));
	ASSERT_EQ((unsigned int)SEQ_RANKS, hist.n);
	for (i = 0; i < SEQ_RANKS; i++) {
		EXPECT_EQ(s0 + 1 + i, hist.seqs[i]);
		EXPECT_EQ(i, hist.ranks[i]);
	}
}

/*
 * Six ranks die: 0 and 1 with the queue open, 2..4 with it closed
 * (event_queue_len 0: never multicast, counted), 5 with it open again.
 */
TEST_F(events, sequence_numbers_and_history)
{
	struct ftnl_handle *procs[SEQ_RANKS] = { 0 };
	struct ftnl_stats st0, st1;
	struct history hist = { 0 };
	uint64_t s0;
	unsigned int i;

	start_ranks(_metadata, self, procs, &st0);
	s0 = st0.event_seq;

	ASSERT_EQ(0, set_queue_len(0));
	for (i = 2; i <= 4; i++)
		ftnl_close(procs[i]);
	ASSERT_EQ(0, ftnl_stats_get(self->ha, &st1));
	ASSERT_EQ(0, set_queue_len(FTNL_EVENT_HISTORY_LEN));
	EXPECT_EQ(s0 + 5, st1.event_seq);
	EXPECT_EQ(st0.events_queue_overflow + 3, st1.events_queue_overflow);
	EXPECT_EQ(st0.events_notify_failed, st1.events_notify_failed);
	expect_quiet(_metadata, self->ev);

	end_ranks(_metadata, self, procs, s0);
	/* From the start: the same six at the end. */
	hist.n = 0;
	ASSERT_EQ(0, ftnl_event_history(self->ha, 0, collect, &hist));
	EXPECT_EQ(s0 + SEQ_RANKS, hist.n);

	/* A number not issued yet: refused, with the kernel's reason. */
	hist.n = 0;
	EXPECT_EQ(-ESTALE, ftnl_event_history(self->ha, s0 + SEQ_RANKS + 1,
					      collect, &hist));
	EXPECT_NE(NULL, strstr(ftnl_errmsg(self->ha), "sequence number"));
	EXPECT_EQ(0u, hist.n);
	/* ... but the newest itself is fine: nothing after it. */
	EXPECT_EQ(0, ftnl_event_history(self->ha, s0 + SEQ_RANKS, collect,
					&hist));
	EXPECT_EQ(0u, hist.n);

	/* Another netns has its own numbering and history. */
	ASSERT_EQ(0, st_setns(self->b_fd));
	hist.n = 0;
	EXPECT_EQ(0, ftnl_event_history(self->hb, 0, collect, &hist));
	EXPECT_EQ(0u, hist.n);
	ASSERT_EQ(0, st_setns(self->a_fd));
}

#define ALLOC_FAIL_PARAM "/sys/module/ftnl/parameters/test_event_nomem"

/*
 * Six ranks die: 2..4 while every allocation on the event path fails, as
 * under memory pressure (test_event_nomem). Their notifications are
 * lost, and counted, but not the events: numbered, in the history, and
 * the gap shows in the next notification. Before events were written
 * straight into the history (8c4f3ce), the same failures lost the events
 * themselves: never numbered, so no subscriber could find them.
 */
TEST_F(events, allocation_failures_lose_no_event)
{
	struct ftnl_handle *procs[SEQ_RANKS] = { 0 };
	struct ftnl_stats st0, st1;
	unsigned int i, waited;
	uint64_t s0;

	start_ranks(_metadata, self, procs, &st0);
	s0 = st0.event_seq;

	ASSERT_EQ(0, st_sh("echo 3 > " ALLOC_FAIL_PARAM));
	for (i = 2; i <= 4; i++)
		ftnl_close(procs[i]);
	/* The notifications are built by a work item: wait for its three. */
	for (waited = 0; waited < ST_EVENT_TIMEOUT_MS; waited += 10) {
		ASSERT_EQ(0, ftnl_stats_get(self->ha, &st1));
		if (st1.events_notify_failed >= st0.events_notify_failed + 3)
			break;
		usleep(10000);
	}
	st_sh("echo 0 > " ALLOC_FAIL_PARAM);
	EXPECT_EQ(s0 + 5, st1.event_seq);
	EXPECT_EQ(st0.events_notify_failed + 3, st1.events_notify_failed);
	EXPECT_EQ(st0.events_queue_overflow, st1.events_queue_overflow);
	expect_quiet(_metadata, self->ev);

	end_ranks(_metadata, self, procs, s0);
}

/* The notification on the wire, as the uapi header describes it. */
struct ntf {
	uint8_t cmd, version;
	uint32_t pid, seq;
	bool has_gen, configured, has_cluster, has_self, has_count;
	uint32_t gen, cluster, self_id, count;
	unsigned int nattrs;
};

static int read_ntf(struct st_nl *nl, uint16_t family, struct ntf *n)
{
	struct pollfd pfd = { .fd = mnl_socket_get_fd(nl->sk), .events = POLLIN };
	const struct nlmsghdr *nlh;
	const struct genlmsghdr *genl;
	const struct nlattr *a;
	ssize_t len;

	memset(n, 0, sizeof(*n));
	if (poll(&pfd, 1, ST_EVENT_TIMEOUT_MS) != 1)
		return -ETIMEDOUT;
	len = recv(pfd.fd, nl->rx, ST_RXBUF, 0);
	if (len < 0)
		return -errno;
	nlh = (const struct nlmsghdr *)nl->rx;
	if (!mnl_nlmsg_ok(nlh, (int)len) || nlh->nlmsg_type != family)
		return -EBADMSG;
	if (mnl_nlmsg_next(nlh, (int *)&len) && len > 0)
		return -E2BIG; /* one notification per datagram */
	genl = mnl_nlmsg_get_payload(nlh);
	n->cmd = genl->cmd;
	n->version = genl->version;
	n->pid = nlh->nlmsg_pid;
	n->seq = nlh->nlmsg_seq;
	mnl_attr_for_each(a, nlh, sizeof(*genl)) {
		n->nattrs++;
		switch (mnl_attr_get_type(a)) {
		case FTNL_A_GENERATION:
			n->has_gen = true;
			n->gen = mnl_attr_get_u32(a);
			break;
		case FTNL_A_CONFIGURED:
			n->configured = true;
			break;
		case FTNL_A_CLUSTER_ID:
			n->has_cluster = true;
			n->cluster = mnl_attr_get_u32(a);
			break;
		case FTNL_A_SELF_ID:
			n->has_self = true;
			n->self_id = mnl_attr_get_u32(a);
			break;
		case FTNL_A_NODE_COUNT:
			n->has_count = true;
			n->count = mnl_attr_get_u32(a);
			break;
		}
	}
	return 0;
}

TEST_F(events, wire_format)
{
	struct st_nl nl;
	struct ntf n;

	ASSERT_EQ(0, st_nl_open(&nl));
	ASSERT_EQ(0, st_nl_join_events(&nl));

	ASSERT_EQ(0, ftnl_cluster_set(self->ha, &self->ca));
	ASSERT_EQ(0, read_ntf(&nl, nl.family_id, &n));
	EXPECT_EQ(FTNL_CMD_CLUSTER_NTF, n.cmd);
	EXPECT_EQ(FTNL_FAMILY_VERSION, n.version);
	EXPECT_EQ(0u, n.pid);
	EXPECT_EQ(0u, n.seq);
	EXPECT_TRUE(n.has_gen);
	EXPECT_EQ(1u, n.gen);
	EXPECT_TRUE(n.configured);
	EXPECT_TRUE(n.has_cluster);
	EXPECT_EQ(111u, n.cluster);
	EXPECT_TRUE(n.has_self);
	EXPECT_EQ(2u, n.self_id);
	EXPECT_TRUE(n.has_count);
	EXPECT_EQ(3u, n.count);

	ASSERT_EQ(0, ftnl_cluster_del(self->ha));
	ASSERT_EQ(0, read_ntf(&nl, nl.family_id, &n));
	EXPECT_EQ(FTNL_CMD_CLUSTER_NTF, n.cmd);
	EXPECT_TRUE(n.has_gen);
	EXPECT_EQ(2u, n.gen);
	EXPECT_FALSE(n.configured);
	EXPECT_FALSE(n.has_cluster);
	EXPECT_FALSE(n.has_self);
	EXPECT_FALSE(n.has_count);
	EXPECT_EQ(1u, n.nattrs);
	st_nl_close(&nl);
}

TEST_HARNESS_MAIN
