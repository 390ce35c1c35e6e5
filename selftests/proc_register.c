// SPDX-License-Identifier: GPL-2.0
/*
 * Registered processes (FTNL_CMD_PROC_*, libftnl's ftnl_proc_register()) on
 * an 8-node virtual cluster (st_vcluster.h, h = 100 ms, d = 1 s). Each
 * registering process is a child forked by the test, that enters one
 * node's netns, opens a libftnl handle of its own, registers, reports what
 * happened through a pipe and then waits (blocked in read(2)) to be told to
 * unregister and exit, to exit without unregistering, or to be killed:
 *
 *   - register_list: PROC_GET on the process's node lists it, job, rank and
 *     the netlink port id of its socket (found by the child itself in
 *     /proc/self/net/netlink); PROC_GET on another node does not; a second
 *     register on the same handle fails with -EEXIST and the kernel's
 *     reason; two processes are listed in registration order; a dump
 *     callback's positive value stops the dump without an error;
 *   - clean_exit_is_silent: unregister (a second one: -ENOENT), then exit:
 *     it is no longer listed at once, and no FTNL_EVENT_PROC_EXIT arrives
 *     anywhere within QUIET_MS. Then a control process is killed on the
 *     same cluster: its exit does arrive at every node, so the subscriptions
 *     were listening all along and the silence meant something;
 *   - killed_is_broadcast: one process SIGKILLed, another calling _exit()
 *     without unregistering, on different nodes: every node's subscription
 *     gets exactly one FTNL_EVENT_PROC_EXIT for each, with its job, rank and
 *     node, cause observed on its node and broadcast everywhere else, the
 *     cluster id, and kernel times; neither is listed any more; and no node
 *     failure is reported (a process exit is not a node failure);
 *   - unprivileged: a process that dropped to uid 65534 registers itself,
 *     is listed, and its exit is broadcast like root's;
 *   - unconfigured: in a netns without a cluster, register fails with
 *     -ENOENT and the kernel's reason, and nothing is listed.
 *
 * Times: every event of a process exit must reach all nodes within
 * ST_EVENT_TIMEOUT_MS (5 s; it takes tens of ms under TCG: one datagram
 * broadcast over 8 nodes, then the event work); after the last expected
 * event, the subscriptions are read DUP_MS more to catch a duplicate. The
 * silence after a clean exit is watched for QUIET_MS = 3 s, over 10 times
 * what the killed processes' exits take to be everywhere (their slowest
 * delivery is logged), and d = 1 s keeps machine stalls from causing node
 * failures that would muddle the picture.
 */
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ftnl/group.h>

#include "ftnl_selftest.h"
#include "st_vcluster.h"
#include "ksft.h"

#define N		8
#define CLUSTER		0x7072		/* "pr" */
#define H_US		100000u		/* h = 100 ms */
#define D_US		1000000u	/* d = 1 s: see above */
#define DUP_MS		1000
#define QUIET_MS	3000
#define JOB		0x1234567890abcdefull

/* ------------------------------------------------------------------------
 * Events: the failure events of st_vc_poll_events() are not enough here
 * (it keeps node failures only), so the subscriptions are read directly.
 */

#define MAX_PE		1024

struct pe {
	uint32_t at;
	struct ftnl_event_proc_exit e;
};

struct collected {
	struct pe pe[MAX_PE];
	size_t npe;
	size_t dropped;		/* more than MAX_PE */
	size_t failures;	/* FTNL_EVENT_FAILURE */
	size_t overruns;
	uint64_t first_ns;	/* st_mono_ns() of the last wait's start */
};

/* Read everything pending on every node, waiting up to @timeout_ms first. */
static int collect(struct st_vc *vc, struct collected *c, int timeout_ms)
{
	struct pollfd pfd[N];
	struct ftnl_event ev;
	uint32_t id;
	int r;

	for (id = 1; id <= N; id++)
		pfd[id - 1] = (struct pollfd){
			.fd = ftnl_events_fd(vc->node[id].ev), .events = POLLIN,
		};
	if (timeout_ms > 0 && poll(pfd, N, timeout_ms) < 0 && errno != EINTR)
		return -errno;
	for (id = 1; id <= N; id++) {
		while ((r = ftnl_events_read(vc->node[id].ev, &ev)) == 1) {
			switch (ev.type) {
			case FTNL_EVENT_PROC_EXIT:
				if (c->npe == MAX_PE) {
					c->dropped++;
					break;
				}
				c->pe[c->npe].at = id;
				c->pe[c->npe++].e = ev.proc_exit;
				break;
			case FTNL_EVENT_FAILURE:
				c->failures++;
				break;
			case FTNL_EVENT_OVERRUN:
				c->overruns++;
				break;
			default:
				break;
			}
		}
		if (r < 0)
			return r;
	}
	return 0;
}

/* Events at @at (0: any) about (@job, @rank). */
static size_t count_pe(const struct collected *c, uint32_t at, uint64_t job,
		       uint32_t rank)
{
	size_t i, n = 0;

	for (i = 0; i < c->npe; i++)
		if ((!at || c->pe[i].at == at) && c->pe[i].e.job == job &&
		    c->pe[i].e.rank == rank)
			n++;
	return n;
}

static const struct pe *find_pe(const struct collected *c, uint32_t at,
				uint64_t job, uint32_t rank)
{
	size_t i;

	for (i = 0; i < c->npe; i++)
		if (c->pe[i].at == at && c->pe[i].e.job == job &&
		    c->pe[i].e.rank == rank)
			return &c->pe[i];
	return NULL;
}

/* Collect until every node has an event about (@job, @rank), or @ms. */
static int wait_everywhere(struct st_vc *vc, struct collected *c, uint64_t job,
			   uint32_t rank, unsigned int ms)
{
	uint64_t deadline = st_mono_ns() + (uint64_t)ms * 1000000;
	uint32_t id;
	int r;

	for (;;) {
		for (id = 1; id <= N; id++)
			if (!count_pe(c, id, job, rank))
				break;
		if (id > N)
			return 0;
		if (st_mono_ns() >= deadline)
			return -ETIMEDOUT;
		r = collect(vc, c, (int)((deadline - st_mono_ns()) / 1000000) + 1);
		if (r)
			return r;
	}
}

/* Keep reading for @ms (catching duplicates or unexpected events). */
static int collect_for(struct st_vc *vc, struct collected *c, unsigned int ms)
{
	uint64_t end = st_mono_ns() + (uint64_t)ms * 1000000, now;
	int r;

	while ((now = st_mono_ns()) < end) {
		r = collect(vc, c, (int)((end - now) / 1000000) + 1);
		if (r)
			return r;
	}
	return collect(vc, c, 0);
}

static void log_pe(struct __test_metadata *_metadata, const struct collected *c)
{
	size_t i;

	for (i = 0; i < c->npe && i < 40; i++)
		TH_LOG("  at node %u: job %#" PRIx64 " rank %u node %u cause %s cluster %#x",
		       c->pe[i].at, c->pe[i].e.job, c->pe[i].e.rank,
		       c->pe[i].e.node_id,
		       ftnl_event_cause_name(c->pe[i].e.cause),
		       c->pe[i].e.cluster_id);
}

/*
 * Every node got exactly one event about (@job, @rank), which ran on
 * @node: the fields are checked, and the slowest arrival after @since
 * (st_mono_ns(), the moment the process died) is returned in @slowest.
 */
static void expect_once_everywhere(struct __test_metadata *_metadata,
				   const struct collected *c, uint64_t job,
				   uint32_t rank, uint32_t node,
				   uint64_t since, uint64_t *slowest)
{
	uint32_t id;

	for (id = 1; id <= N; id++) {
		const struct pe *p = find_pe(c, id, job, rank);

		EXPECT_EQ(1u, count_pe(c, id, job, rank)) {
			TH_LOG("node %u: %zu events about rank %u", id,
			       count_pe(c, id, job, rank), rank);
			log_pe(_metadata, c);
		}
		if (!p)
			continue;
		EXPECT_EQ(node, p->e.node_id);
		EXPECT_EQ((uint32_t)CLUSTER, p->e.cluster_id);
		EXPECT_EQ(id == node ? (uint32_t)FTNL_CAUSE_OBSERVED :
				       (uint32_t)FTNL_CAUSE_BROADCAST,
			  p->e.cause) {
			TH_LOG("node %u: cause %s for a process of node %u", id,
			       ftnl_event_cause_name(p->e.cause), node);
		}
		EXPECT_LE(since, p->e.time_mono_ns);
		EXPECT_NE(0u, p->e.time_real_ns);
		if (p->e.time_mono_ns > since && slowest &&
		    p->e.time_mono_ns - since > *slowest)
			*slowest = p->e.time_mono_ns - since;
	}
}

/* ------------------------------------------------------------------------
 * Registering children
 */

/* What a child reports once it registered. */
struct report {
	int open_err;		/* ftnl_open() */
	int reg_err;		/* the first ftnl_proc_register() */
	int again_err;		/* the second, on the same handle */
	char again_msg[160];	/* ftnl_errmsg() after it */
	uint32_t portid;	/* of the registering socket, 0 if not found */
	uid_t uid;
	int dump_err;		/* its own PROC_GET, after registering */
	unsigned int own_listed;	/* entries of its uid in it */
	unsigned int foreign_listed;	/* entries of other uids */
};

/* What the parent tells a child to do next. */
#define DO_UNREGISTER_EXIT	'u'	/* unregister (twice), report, exit */
#define DO_EXIT			'x'	/* _exit(0) without unregistering */

/* What a child says after DO_UNREGISTER_EXIT. */
struct unreg_report {
	int first;
	int second;
};

struct child {
	pid_t pid;
	int cmd_fd;	/* parent writes commands */
	int rep_fd;	/* parent reads reports */
	struct report rep;
};

/* Inodes of the sockets among this process's descriptors. */
static size_t socket_inodes(unsigned long *ino, size_t max)
{
	char path[300], link[64];
	struct dirent *d;
	size_t n = 0;
	DIR *dir = opendir("/proc/self/fd");
	ssize_t len;

	if (!dir)
		return 0;
	while ((d = readdir(dir)) && n < max) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", d->d_name);
		len = readlink(path, link, sizeof(link) - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (sscanf(link, "socket:[%lu]", &ino[n]) == 1)
			n++;
	}
	closedir(dir);
	return n;
}

static bool in_set(unsigned long v, const unsigned long *set, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (set[i] == v)
			return true;
	return false;
}

/*
 * The port id of the one generic netlink socket of this process, in its
 * current netns, that is not among @before: /proc/self/net/netlink lists
 * "sk Eth Pid Groups Rmem Wmem Dump Locks Drops Inode".
 */
static uint32_t new_genl_portid(const unsigned long *before, size_t nbefore)
{
	unsigned long now[256], ino;
	size_t nnow = socket_inodes(now, 256);
	unsigned int eth, pid;
	uint32_t found = 0;
	char line[256];
	FILE *f = fopen("/proc/self/net/netlink", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %u %u %*s %*s %*s %*s %*s %*s %lu", &eth,
			   &pid, &ino) != 3 || eth != NETLINK_GENERIC)
			continue;
		if (in_set(ino, now, nnow) && !in_set(ino, before, nbefore))
			found = found ? 0xffffffffu : pid;	/* two: unknown */
	}
	fclose(f);
	return found == 0xffffffffu ? 0 : found;
}

struct own_view {
	uid_t uid;
	unsigned int own, foreign;
};

static int own_view_cb(const struct ftnl_proc *proc, void *arg)
{
	struct own_view *v = arg;

	if (proc->owner_uid == v->uid)
		v->own++;
	else
		v->foreign++;
	return 0;
}

static void child_main(int ns, bool drop, uint64_t job, uint32_t rank,
		       int cmd_fd, int rep_fd)
{
	struct own_view view = { 0 };
	struct report rep = { 0 };
	struct unreg_report ur;
	unsigned long before[256];
	struct ftnl_handle *h = NULL;
	size_t nbefore;
	char cmd = 0;

	if (st_setns(ns))
		_exit(10);
	if (drop) {
		if (st_drop_privileges())
			_exit(11);
		/* setuid made it undumpable: /proc/self/fd would be root's */
		prctl(PR_SET_DUMPABLE, 1);
	}
	rep.uid = getuid();
	nbefore = socket_inodes(before, 256);
	rep.open_err = ftnl_open(&h);
	if (!rep.open_err) {
		rep.reg_err = ftnl_proc_register(h, job, rank);
		rep.again_err = ftnl_proc_register(h, job, rank + 1000);
		snprintf(rep.again_msg, sizeof(rep.again_msg), "%s",
			 ftnl_errmsg(h));
		rep.portid = new_genl_portid(before, nbefore);
		view.uid = rep.uid;
		rep.dump_err = ftnl_proc_dump(h, own_view_cb, &view);
		rep.own_listed = view.own;
		rep.foreign_listed = view.foreign;
	}
	if (write(rep_fd, &rep, sizeof(rep)) != sizeof(rep))
		_exit(12);
	/* Blocked until told; EOF (the test died) ends it like DO_EXIT. */
	if (read(cmd_fd, &cmd, 1) == 1 && cmd == DO_UNREGISTER_EXIT && h) {
		ur.first = ftnl_proc_unregister(h);
		ur.second = ftnl_proc_unregister(h);
		if (write(rep_fd, &ur, sizeof(ur)) != sizeof(ur))
			_exit(13);
		ftnl_close(h);
	}
	_exit(0);
}

/* Fork a child that registers (@job, @rank) in node @id's netns. */
static int child_start(struct st_vc *vc, uint32_t id, bool drop, uint64_t job,
		       uint32_t rank, struct child *c)
{
	int cmd[2], rep[2];

	if (pipe2(cmd, O_CLOEXEC) || pipe2(rep, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (c->pid == 0) {
		close(cmd[1]);
		close(rep[0]);
		child_main(vc->node[id].ns, drop, job, rank, cmd[0], rep[1]);
	}
	close(cmd[0]);
	close(rep[1]);
	c->cmd_fd = cmd[1];
	c->rep_fd = rep[0];
	if (read(c->rep_fd, &c->rep, sizeof(c->rep)) != sizeof(c->rep))
		return -EIO;
	return 0;
}

static int child_send(struct child *c, char what)
{
	return write(c->cmd_fd, &what, 1) == 1 ? 0 : -errno;
}

/* Reap @c, SIGKILLed or exited; its exit status, -SIGNAL if killed. */
static int child_reap(struct child *c)
{
	int status;

	close(c->cmd_fd);
	close(c->rep_fd);
	if (waitpid(c->pid, &status, 0) != c->pid)
		return -1000;
	if (WIFSIGNALED(status))
		return -WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* Tell @c to unregister and exit, read its report, reap it: its status. */
static int child_end_clean(struct child *c)
{
	struct unreg_report ur;

	if (child_send(c, DO_UNREGISTER_EXIT) ||
	    read(c->rep_fd, &ur, sizeof(ur)) != sizeof(ur))
		return -2000;
	return child_reap(c);
}

/* ------------------------------------------------------------------------
 * Dumps
 */

#define MAX_LISTED	16

struct listed {
	struct ftnl_proc p[MAX_LISTED];
	size_t n;
	size_t calls;
	int stop_at;	/* return 7 at this call (1-based), 0: never */
};

static int list_cb(const struct ftnl_proc *proc, void *arg)
{
	struct listed *l = arg;

	l->calls++;
	if (l->n < MAX_LISTED)
		l->p[l->n++] = *proc;
	return l->stop_at && (int)l->calls == l->stop_at ? 7 : 0;
}

static int list_node(struct st_vc *vc, uint32_t id, struct listed *l)
{
	memset(l, 0, sizeof(*l));
	return ftnl_proc_dump(vc->node[id].h, list_cb, l);
}

/* ------------------------------------------------------------------------
 * Tests
 */

FIXTURE(proc) {
	struct st_vc vc;
	struct collected ev;
};

FIXTURE_SETUP(proc)
{
	char why[256] = "";
	uint32_t id;

	ASSERT_EQ(0, st_vc_init(&self->vc, N, CLUSTER, H_US, D_US));
	ASSERT_EQ(0, st_vc_configure_all(&self->vc));
	ASSERT_EQ(0, st_vc_wait_settled(&self->vc, 10000, why, sizeof(why))) {
		TH_LOG("cluster did not settle: %s", why);
	}
	/* The configuration's events are not this test's business. */
	memset(&self->ev, 0, sizeof(self->ev));
	ASSERT_EQ(0, collect(&self->vc, &self->ev, 0));
	ASSERT_EQ(0u, self->ev.npe);
	for (id = 1; id <= N; id++) {
		struct listed l;

		ASSERT_EQ(0, list_node(&self->vc, id, &l));
		ASSERT_EQ(0u, l.n);
	}
}

FIXTURE_TEARDOWN(proc)
{
	st_vc_fini(&self->vc);
}

/* The common end of every test on the cluster: nothing else happened. */
static void expect_no_node_failure(struct __test_metadata *_metadata,
				   struct st_vc *vc, const struct collected *c)
{
	EXPECT_EQ(0u, c->failures) {
		TH_LOG("a node failure was reported during the test");
		ST_VC_LOG_STALL(vc);
	}
	EXPECT_EQ(0u, c->overruns);
	EXPECT_EQ(0u, c->dropped);
}

TEST_F_TIMEOUT(proc, register_list, 60)
{
	struct child a, b;
	struct listed l;
	uint32_t id;

	ASSERT_EQ(0, child_start(&self->vc, 3, false, JOB, 5, &a));
	ASSERT_EQ(0, a.rep.open_err);
	ASSERT_EQ(0, a.rep.reg_err);
	/* One registration per socket, and the kernel says why. */
	EXPECT_EQ(-EEXIST, a.rep.again_err);
	EXPECT_STREQ("this socket already registered a process", a.rep.again_msg);
	EXPECT_NE(0u, a.rep.portid) {
		TH_LOG("the child did not find its socket in /proc/self/net/netlink");
	}

	/* Listed on its node, with its socket's port; nowhere else. */
	ASSERT_EQ(0, list_node(&self->vc, 3, &l));
	ASSERT_EQ(1u, l.n);
	EXPECT_EQ(JOB, l.p[0].job);
	EXPECT_EQ(5u, l.p[0].rank);	/* not 1005: the second was refused */
	EXPECT_EQ(a.rep.portid, l.p[0].portid);
	for (id = 1; id <= N; id++) {
		if (id == 3)
			continue;
		ASSERT_EQ(0, list_node(&self->vc, id, &l));
		EXPECT_EQ(0u, l.n) {
			TH_LOG("node %u lists a process of node 3", id);
		}
	}

	/* A second process on the same node: both, in registration order. */
	ASSERT_EQ(0, child_start(&self->vc, 3, false, JOB, 6, &b));
	ASSERT_EQ(0, b.rep.reg_err);
	ASSERT_EQ(0, list_node(&self->vc, 3, &l));
	ASSERT_EQ(2u, l.n);
	EXPECT_EQ(5u, l.p[0].rank);
	EXPECT_EQ(6u, l.p[1].rank);
	EXPECT_EQ(a.rep.portid, l.p[0].portid);
	EXPECT_EQ(b.rep.portid, l.p[1].portid);
	EXPECT_NE(l.p[0].portid, l.p[1].portid);

	/* A positive stop is returned, is no error, and leaves the handle fine. */
	memset(&l, 0, sizeof(l));
	l.stop_at = 1;
	EXPECT_EQ(7, ftnl_proc_dump(self->vc.node[3].h, list_cb, &l));
	EXPECT_EQ(1u, l.calls);
	EXPECT_EQ(0, ftnl_errno(self->vc.node[3].h));
	EXPECT_STREQ("", ftnl_errmsg(self->vc.node[3].h));
	ASSERT_EQ(0, list_node(&self->vc, 3, &l));
	EXPECT_EQ(2u, l.n);

	/* Both end cleanly: nothing is listed any more. */
	EXPECT_EQ(0, child_end_clean(&a));
	EXPECT_EQ(0, child_end_clean(&b));
	ASSERT_EQ(0, list_node(&self->vc, 3, &l));
	EXPECT_EQ(0u, l.n);
	ASSERT_EQ(0, collect(&self->vc, &self->ev, 0));
	expect_no_node_failure(_metadata, &self->vc, &self->ev);
}

TEST_F_TIMEOUT(proc, clean_exit_is_silent, 60)
{
	struct unreg_report ur;
	uint64_t died, slowest = 0;
	struct child a, ctl;
	struct listed l;

	ASSERT_EQ(0, child_start(&self->vc, 2, false, JOB, 1, &a));
	ASSERT_EQ(0, a.rep.reg_err);
	ASSERT_EQ(0, child_send(&a, DO_UNREGISTER_EXIT));
	ASSERT_EQ(sizeof(ur), (size_t)read(a.rep_fd, &ur, sizeof(ur)));
	EXPECT_EQ(0, ur.first);
	EXPECT_EQ(-ENOENT, ur.second);	/* nothing left to unregister */
	EXPECT_EQ(0, child_reap(&a));
	ASSERT_EQ(0, list_node(&self->vc, 2, &l));
	EXPECT_EQ(0u, l.n);

	/* No exit event anywhere, for QUIET_MS (see the top of the file). */
	ASSERT_EQ(0, collect_for(&self->vc, &self->ev, QUIET_MS));
	EXPECT_EQ(0u, self->ev.npe) {
		TH_LOG("a cleanly exited process was declared dead:");
		log_pe(_metadata, &self->ev);
	}

	/* Control: a killed process on the same node is seen everywhere. */
	ASSERT_EQ(0, child_start(&self->vc, 2, false, JOB, 2, &ctl));
	ASSERT_EQ(0, ctl.rep.reg_err);
	died = st_mono_ns();
	ASSERT_EQ(0, kill(ctl.pid, SIGKILL));
	EXPECT_EQ(-SIGKILL, child_reap(&ctl));
	ASSERT_EQ(0, wait_everywhere(&self->vc, &self->ev, JOB, 2,
				     ST_EVENT_TIMEOUT_MS)) {
		log_pe(_metadata, &self->ev);
	}
	ASSERT_EQ(0, collect_for(&self->vc, &self->ev, DUP_MS));
	expect_once_everywhere(_metadata, &self->ev, JOB, 2, 2, died, &slowest);
	EXPECT_EQ(0u, count_pe(&self->ev, 0, JOB, 1));
	EXPECT_EQ((size_t)N, self->ev.npe);
	TH_LOG("the control's exit reached every node within %.1f ms",
	       slowest / 1e6);
	expect_no_node_failure(_metadata, &self->vc, &self->ev);
}

TEST_F_TIMEOUT(proc, killed_is_broadcast, 60)
{
	uint64_t killed, exited, slowest = 0;
	struct child k, x;
	struct listed l;

	ASSERT_EQ(0, child_start(&self->vc, 4, false, JOB, 40, &k));
	ASSERT_EQ(0, k.rep.reg_err);
	ASSERT_EQ(0, child_start(&self->vc, 7, false, JOB + 1, 70, &x));
	ASSERT_EQ(0, x.rep.reg_err);
	ASSERT_EQ(0, list_node(&self->vc, 4, &l));
	ASSERT_EQ(1u, l.n);
	ASSERT_EQ(0, list_node(&self->vc, 7, &l));
	ASSERT_EQ(1u, l.n);

	/* SIGKILL: the kernel releases the socket, nobody unregisters. */
	killed = st_mono_ns();
	ASSERT_EQ(0, kill(k.pid, SIGKILL));
	EXPECT_EQ(-SIGKILL, child_reap(&k));
	/* _exit() without unregistering. */
	exited = st_mono_ns();
	ASSERT_EQ(0, child_send(&x, DO_EXIT));
	EXPECT_EQ(0, child_reap(&x));

	ASSERT_EQ(0, wait_everywhere(&self->vc, &self->ev, JOB, 40,
				     ST_EVENT_TIMEOUT_MS)) {
		log_pe(_metadata, &self->ev);
	}
	ASSERT_EQ(0, wait_everywhere(&self->vc, &self->ev, JOB + 1, 70,
				     ST_EVENT_TIMEOUT_MS)) {
		log_pe(_metadata, &self->ev);
	}
	ASSERT_EQ(0, collect_for(&self->vc, &self->ev, DUP_MS));
	expect_once_everywhere(_metadata, &self->ev, JOB, 40, 4, killed,
			       &slowest);
	expect_once_everywhere(_metadata, &self->ev, JOB + 1, 70, 7, exited,
			       &slowest);
	EXPECT_EQ((size_t)2 * N, self->ev.npe) {
		log_pe(_metadata, &self->ev);
	}
	TH_LOG("process exits reached every node within %.1f ms",
	       slowest / 1e6);

	ASSERT_EQ(0, list_node(&self->vc, 4, &l));
	EXPECT_EQ(0u, l.n);
	ASSERT_EQ(0, list_node(&self->vc, 7, &l));
	EXPECT_EQ(0u, l.n);
	expect_no_node_failure(_metadata, &self->vc, &self->ev);
}

/*
 * An unprivileged process registers itself, under its own uid: root's
 * list shows both owners; its own dump shows only its registration (not
 * root's on the same node, nor its port id); its exit reaches every node
 * with its owner.
 */
TEST_F_TIMEOUT(proc, unprivileged, 60)
{
	struct child r, u;
	struct listed l;
	uint64_t exited;
	uint32_t id;
	size_t i;

	ASSERT_EQ(0, child_start(&self->vc, 5, false, JOB, 8, &r));
	ASSERT_EQ(0, r.rep.reg_err);
	ASSERT_EQ(0, child_start(&self->vc, 5, true, JOB, 9, &u));
	ASSERT_EQ(65534u, u.rep.uid);
	ASSERT_EQ(0, u.rep.open_err);
	EXPECT_EQ(0, u.rep.reg_err) {
		TH_LOG("an unprivileged process cannot register itself");
	}
	EXPECT_EQ(-EEXIST, u.rep.again_err);
	/* Its own dump: its registration only. */
	EXPECT_EQ(0, u.rep.dump_err);
	EXPECT_EQ(1u, u.rep.own_listed);
	EXPECT_EQ(0u, u.rep.foreign_listed) {
		TH_LOG("an unprivileged user sees another user's registrations");
	}
	/* Root's: both, with their owners. */
	ASSERT_EQ(0, list_node(&self->vc, 5, &l));
	ASSERT_EQ(2u, l.n);
	EXPECT_EQ(8u, l.p[0].rank);
	EXPECT_EQ(0u, l.p[0].owner_uid);
	EXPECT_EQ(JOB, l.p[1].job);
	EXPECT_EQ(9u, l.p[1].rank);
	EXPECT_EQ(65534u, l.p[1].owner_uid);
	if (u.rep.portid)
		EXPECT_EQ(u.rep.portid, l.p[1].portid);

	exited = st_mono_ns();
	ASSERT_EQ(0, child_send(&u, DO_EXIT));
	EXPECT_EQ(0, child_reap(&u));
	ASSERT_EQ(0, wait_everywhere(&self->vc, &self->ev, JOB, 9,
				     ST_EVENT_TIMEOUT_MS)) {
		log_pe(_metadata, &self->ev);
	}
	ASSERT_EQ(0, collect_for(&self->vc, &self->ev, DUP_MS));
	expect_once_everywhere(_metadata, &self->ev, JOB, 9, 5, exited, NULL);
	for (id = 1; id <= N; id++) {
		const struct pe *p = find_pe(&self->ev, id, JOB, 9);

		if (!p)
			continue;
		EXPECT_TRUE(p->e.has_owner);
		EXPECT_EQ(65534u, p->e.owner_uid);
	}
	ASSERT_EQ(0, list_node(&self->vc, 5, &l));
	ASSERT_EQ(1u, l.n);
	EXPECT_EQ(8u, l.p[0].rank);
	EXPECT_EQ(0, child_end_clean(&r));
	for (i = 0; i < self->ev.npe; i++)
		EXPECT_NE(8u, self->ev.pe[i].e.rank);
	expect_no_node_failure(_metadata, &self->vc, &self->ev);
}

/*
 * One live registration of a (job, rank) per owner on a node: the same
 * user's second one is refused with the reason; another user's is its own
 * (nobody can block a job by registering its numbers first), and so is the
 * same user's on another node.
 */
TEST_F_TIMEOUT(proc, duplicate_refused, 60)
{
	struct child a, b, c, d;
	struct listed l;

	ASSERT_EQ(0, child_start(&self->vc, 2, false, JOB, 3, &a));
	ASSERT_EQ(0, a.rep.reg_err);
	ASSERT_EQ(0, child_start(&self->vc, 2, false, JOB, 3, &b));
	EXPECT_EQ(-EEXIST, b.rep.reg_err) {
		TH_LOG("a second live registration of (job, rank) by the same user was taken");
	}
	ASSERT_EQ(0, child_start(&self->vc, 2, true, JOB, 3, &c));
	EXPECT_EQ(0, c.rep.reg_err);
	ASSERT_EQ(0, child_start(&self->vc, 3, false, JOB, 3, &d));
	EXPECT_EQ(0, d.rep.reg_err);
	/* a, c, and b's second try (rank 1003 on the same socket) */
	ASSERT_EQ(0, list_node(&self->vc, 2, &l));
	EXPECT_EQ(3u, l.n);
	ASSERT_EQ(0, list_node(&self->vc, 3, &l));
	EXPECT_EQ(1u, l.n);

	/* Once the first is gone (cleanly), the rank may register again. */
	EXPECT_EQ(0, child_end_clean(&a));
	EXPECT_EQ(0, child_end_clean(&b));
	ASSERT_EQ(0, child_start(&self->vc, 2, false, JOB, 3, &b));
	EXPECT_EQ(0, b.rep.reg_err);
	EXPECT_EQ(0, child_end_clean(&b));
	EXPECT_EQ(0, child_end_clean(&c));
	EXPECT_EQ(0, child_end_clean(&d));
	ASSERT_EQ(0, collect(&self->vc, &self->ev, 0));
	EXPECT_EQ(0u, self->ev.npe);
	expect_no_node_failure(_metadata, &self->vc, &self->ev);
}

/*
 * max_procs_per_user: a user's registrations beyond it are refused with
 * -EDQUOT and the reason; another user is not affected.
 */
TEST_F_TIMEOUT(proc, quota, 60)
{
	struct child u[4], r;
	unsigned int saved;
	int i;

	ASSERT_EQ(0, st_param_get("max_procs_per_user", &saved)) {
		TH_LOG("no max_procs_per_user parameter");
	}
	ASSERT_EQ(0, st_param_set("max_procs_per_user", 3));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, child_start(&self->vc, 6, true, JOB, 20 + i, &u[i]));
	ASSERT_EQ(0, child_start(&self->vc, 6, false, JOB, 20, &r));
	st_param_set("max_procs_per_user", saved);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, u[i].rep.reg_err);
	EXPECT_EQ(-EDQUOT, u[3].rep.reg_err) {
		TH_LOG("a fourth registration of one user was taken with a quota of 3");
	}
	EXPECT_EQ(0, r.rep.reg_err);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0, child_end_clean(&u[i]));
	EXPECT_EQ(0, child_end_clean(&r));
	ASSERT_EQ(0, collect(&self->vc, &self->ev, 0));
	EXPECT_EQ(0u, self->ev.npe);
	expect_no_node_failure(_metadata, &self->vc, &self->ev);
}

/* ------------------------------------------------------------------------
 * A process group (libftnl) against an impostor
 */

#define GRP_JOB		0x6a6f62ull
#define GRP_PORT	7710

/* A 2-rank world: rank 0 on node 1, rank 1 on node 2, owner the caller. */
static void grp_spec(struct ftnl_group_spec *spec,
		     struct ftnl_group_peer peers[2], uint32_t rank)
{
	uint32_t r;

	memset(peers, 0, 2 * sizeof(*peers));
	for (r = 0; r < 2; r++) {
		peers[r].family = AF_INET;
		peers[r].addr.v4.s_addr = htonl(ST_VC_NET | (r + 1));
		peers[r].port = GRP_PORT + r;
		peers[r].host = r;
		peers[r].node_id = r + 1;
	}
	*spec = (struct ftnl_group_spec){
		.job = GRP_JOB, .size = 2, .rank = rank, .peers = peers,
		.module = FTNL_GROUP_MODULE_ON,
	};
}

/* Rank 1, in node 2: opens its group (registering), reports, waits. */
static pid_t grp_rank1_start(struct st_vc *vc, int *rep_fd)
{
	struct ftnl_group_peer peers[2];
	struct ftnl_group_spec spec;
	struct ftnl_group *g;
	int fds[2], err;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid)
		close(fds[1]);
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(fds[0]);
		if (st_setns(vc->node[2].ns))
			_exit(10);
		grp_spec(&spec, peers, 1);
		err = ftnl_group_open(&spec, NULL, &g);
		if (write(fds[1], &err, sizeof(err)) != sizeof(err))
			_exit(11);
		for (;;)
			pause();
	}
	*rep_fd = fds[0];
	return pid;
}

/* Progress @g for @ms; the number of ranks it knows dead then. */
static int grp_run(struct ftnl_group *g, unsigned int ms)
{
	uint64_t end = st_mono_ns() + (uint64_t)ms * 1000000, now;
	struct pollfd pfd = { .fd = ftnl_group_fd(g), .events = POLLIN };
	int err;

	while ((now = st_mono_ns()) < end) {
		poll(&pfd, 1, (int)((end - now) / 1000000) + 1);
		err = ftnl_group_progress(g);
		if (err)
			return err;
	}
	return ftnl_group_failed(g, NULL, 0);
}

/*
 * Another user registers a live rank's (job, rank) on that rank's own
 * node and exits: every node publishes the exit (with the impostor's uid),
 * and rank 0's group does not take it as rank 1's death. Control: rank 1
 * is then killed, and rank 0's group learns it.
 */
TEST_F_TIMEOUT(proc, impostor_exit_kills_no_rank, 90)
{
	struct ftnl_group_peer peers[2];
	struct ftnl_group_spec spec;
	struct ftnl_group *g0 = NULL;
	struct child imp;
	uint32_t failed[2];
	volatile int rep_fd = -1;
	int err = -1, root, fd = -1;
	pid_t rank1;
	uint32_t id;

	/* rank 0: this process, in node 1 */
	root = st_netns_fd();
	ASSERT_LE(0, root);
	ASSERT_EQ(0, st_setns(self->vc.node[1].ns));
	grp_spec(&spec, peers, 0);
	err = ftnl_group_open(&spec, NULL, &g0);
	st_setns(root);
	close(root);
	ASSERT_EQ(0, err);
	rank1 = grp_rank1_start(&self->vc, &fd);
	rep_fd = fd;
	ASSERT_LT(0, rank1);
	ASSERT_EQ(sizeof(err), (size_t)read(rep_fd, &err, sizeof(err)));
	ASSERT_EQ(0, err);
	EXPECT_EQ(0, grp_run(g0, 500));

	/* The impostor: uid 65534, rank 1 of the job, on rank 1's node. */
	ASSERT_EQ(0, child_start(&self->vc, 2, true, GRP_JOB, 1, &imp));
	ASSERT_EQ(0, imp.rep.reg_err);
	ASSERT_EQ(0, child_send(&imp, DO_EXIT));
	EXPECT_EQ(0, child_reap(&imp));
	ASSERT_EQ(0, wait_everywhere(&self->vc, &self->ev, GRP_JOB, 1,
				     ST_EVENT_TIMEOUT_MS));
	for (id = 1; id <= N; id++) {
		const struct pe *p = find_pe(&self->ev, id, GRP_JOB, 1);

		EXPECT_EQ(65534u, p->e.owner_uid);
		EXPECT_EQ(2u, p->e.node_id);
	}
	/* rank 0's own subscription had as long again to deliver it */
	EXPECT_EQ(0, grp_run(g0, 1500)) {
		TH_LOG("rank 0 declared the live rank 1 dead on an impostor's exit");
	}

	/* Control: the real rank 1 dies; rank 0 learns it. */
	kill(rank1, SIGKILL);
	waitpid(rank1, NULL, 0);
	close(rep_fd);
	err = 0;
	for (id = 0; id < 50 && err == 0; id++)
		err = grp_run(g0, 100);
	EXPECT_EQ(1, err);
	EXPECT_EQ(1, ftnl_group_failed(g0, failed, 2));
	EXPECT_EQ(1u, failed[0]);
	ftnl_group_close(g0);
	ASSERT_EQ(0, collect(&self->vc, &self->ev, 0));
	expect_no_node_failure(_metadata, &self->vc, &self->ev);
}

/* ------------------------------------------------------------------------
 * A storm of exits
 */

#define STORM_N		96
#define STORM_NODE	4
#define STORM_JOB	0x73746f726dull
#define STORM_BURST	2
#define STORM_RATE	2

/* Registers STORM_N ranks on as many handles, reports, exits when told. */
static pid_t storm_start(struct st_vc *vc, int *cmd_fd, int *rep_fd)
{
	struct ftnl_handle *h[STORM_N];
	int cmd[2], rep[2], ok = 0, r;
	char c;
	pid_t pid;

	if (pipe2(cmd, O_CLOEXEC) || pipe2(rep, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(cmd[1]);
		close(rep[0]);
		if (st_setns(vc->node[STORM_NODE].ns))
			_exit(10);
		for (r = 0; r < STORM_N; r++)
			ok += !ftnl_open(&h[r]) &&
			      !ftnl_proc_register(h[r], STORM_JOB, (uint32_t)r);
		if (write(rep[1], &ok, sizeof(ok)) != sizeof(ok))
			_exit(11);
		if (read(cmd[0], &c, 1) < 0)
			_exit(12);
		_exit(0);	/* every socket released: STORM_N deaths */
	}
	close(cmd[0]);
	close(rep[1]);
	*cmd_fd = cmd[1];
	*rep_fd = rep[0];
	return pid;
}

/*
 * STORM_N registered processes of one node die at once: every node gets
 * each death exactly once, and the node starts at most STORM_BURST +
 * ceil(STORM_N / 32) + 1 broadcasts (proc_exit_burst = 2, proc_exit_rate
 * = 2/s here), not one per death.
 */
TEST_F_TIMEOUT(proc, exit_storm, 120)
{
	unsigned int saved_burst, saved_rate;
	struct ftnl_stats before, after;
	uint64_t originated, bound;
	volatile int cmd_fd = -1, rep_fd = -1;
	int ok = 0, fds[2] = { -1, -1 };
	bool all, have_params;
	uint32_t id, r;
	pid_t pid;

	/* A module without them fails the bound below, not here. */
	have_params = !st_param_get("proc_exit_burst", &saved_burst) &&
		      !st_param_get("proc_exit_rate", &saved_rate);
	EXPECT_TRUE(have_params);
	if (have_params) {
		ASSERT_EQ(0, st_param_set("proc_exit_burst", STORM_BURST));
		ASSERT_EQ(0, st_param_set("proc_exit_rate", STORM_RATE));
	}
	pid = storm_start(&self->vc, &fds[0], &fds[1]);
	cmd_fd = fds[0];
	rep_fd = fds[1];
	ASSERT_LT(0, pid);
	ASSERT_EQ(sizeof(ok), (size_t)read(rep_fd, &ok, sizeof(ok)));
	ASSERT_EQ(STORM_N, ok);
	ASSERT_EQ(0, st_vc_stats(&self->vc, STORM_NODE, &before));

	ASSERT_EQ(1, (int)write(cmd_fd, "x", 1));
	waitpid(pid, NULL, 0);
	close(cmd_fd);
	close(rep_fd);
	for (r = 0, all = true; r < STORM_N && all; r++)
		all = !wait_everywhere(&self->vc, &self->ev, STORM_JOB, r,
				       30000);
	ASSERT_EQ(0, collect_for(&self->vc, &self->ev, DUP_MS));
	ASSERT_EQ(0, st_vc_stats(&self->vc, STORM_NODE, &after));
	if (have_params) {
		st_param_set("proc_exit_burst", saved_burst);
		st_param_set("proc_exit_rate", saved_rate);
	}

	EXPECT_TRUE(all) {
		TH_LOG("rank %u's death did not reach every node", r - 1);
	}
	for (id = 1; id <= N; id++)
		for (r = 0; r < STORM_N; r++)
			EXPECT_EQ(1u, count_pe(&self->ev, id, STORM_JOB, r)) {
				TH_LOG("node %u: rank %u's death %zu times", id,
				       r, count_pe(&self->ev, id, STORM_JOB, r));
			}
	EXPECT_EQ((size_t)N * STORM_N, self->ev.npe);
	originated = after.bcast_originated - before.bcast_originated;
	bound = STORM_BURST + (STORM_N + 31) / 32 + 1;
	TH_LOG("%d deaths on node %u: %" PRIu64 " broadcasts (bound %" PRIu64 ")",
	       STORM_N, STORM_NODE, originated, bound);
	EXPECT_LE(originated, bound);
	EXPECT_LE(1u, originated);
	expect_no_node_failure(_metadata, &self->vc, &self->ev);
}

/* No cluster: an anonymous netns of the harness's child, nothing configured. */
TEST(unconfigured)
{
	struct ftnl_handle *h;
	struct listed l = { 0 };

	ASSERT_EQ(0, st_netns_new());
	ASSERT_EQ(0, ftnl_open(&h));
	EXPECT_EQ(-ENOENT, ftnl_proc_register(h, JOB, 0));
	EXPECT_EQ(-ENOENT, ftnl_errno(h));
	EXPECT_STREQ("no cluster is configured in this network namespace",
		     ftnl_errmsg(h));
	EXPECT_EQ(0, ftnl_proc_dump(h, list_cb, &l));
	EXPECT_EQ(0u, l.n);
	/* Nothing was registered, so nothing to unregister. */
	EXPECT_EQ(-ENOENT, ftnl_proc_unregister(h));
	EXPECT_STREQ("this socket has no registered process", ftnl_errmsg(h));
	ftnl_close(h);
}

TEST_HARNESS_MAIN
