// SPDX-License-Identifier: GPL-2.0
/*
 * Expulsion (Documentation/ring.rst, "Expulsion"): on a 5-node cluster
 * (st_vcluster.h, h = 100 ms, d = 1 s), node 3 is cut off both ways (its
 * bridge port down) for longer than d: the others declare it dead, while
 * its ftnl state keeps running. Its port comes back up (the partition
 * heals, the frozen machine resumes). Then:
 *
 *   - every other node declared node 3 dead exactly once, and says nothing
 *     more about anybody: nothing flaps, over 3d after the heal; node 3,
 *     cut off, accuses nobody: its probes of its silent emitter reach no
 *     helper (indirect probes, on in the module);
 *   - node 3 gets exactly one "expelled" event (FTNL_CMD_EXPELLED_NTF)
 *     naming its incarnation, and its own entry in its node dump says
 *     expelled. With probes it expels itself (reason deaf: no helper
 *     answered) about 2.5d after the cut, before the members would tell it
 *     (2d after its death, about 3d after the cut): the told path is the
 *     frozen node's (the ring DST's freeze mode, the cluster harness);
 *   - a process registered on node 3 is told: it receives the event, and
 *     the registration path refuses it with -ESTALE from then on (fence
 *     none: it is alive); with the fence policy kill it is SIGKILLed
 *     (maybe before it could read the event);
 *   - configured again (cluster set, the same configuration), node 3 is
 *     a new incarnation, which every other node readmits on its own
 *     (rejoin auto: one joined event each, naming it), and the ring is
 *     whole again.
 *
 * The members tell a node they hold dead only 2d after its death (a node
 * resuming from a freeze may accuse its emitter first, see core.h), so the
 * cut lasts until 2d after the first death event plus a margin. The node
 * has expelled itself by then: its probe of its emitter starts (d - h)/2
 * before the deadline, and the round closes 2d later with no helper
 * heard, 2.5d + h/2 after the emitter's last heartbeat (at most h before
 * the cut); the cut to the expulsion is logged and must lie within
 * (2d, 2.5d + MARGIN), the margin (0.5 s) covering h/2 (50 ms).
 * d = 1 s keeps machine stalls from causing failures that would muddle
 * the picture (see ring_leave.c). Having expelled itself, node 3 does not
 * come back by itself, even with rejoin auto (Documentation/ring.rst,
 * "Comeback"): 4d after its expulsion it is still expelled, no joined.
 *
 * Told by the cluster, with rejoin auto (the default), a node comes back
 * as a new incarnation once fenced and held 4d:
 *
 *   - frozen_then_comes_back: node 3's ring is frozen (the module's
 *     test-only test_stall_ms: its timers wait, what it receives is not
 *     read) for 3.5d: the others declare it dead, and when it resumes a
 *     member tells it (reason told or broadcast). It then comes back:
 *     every other node publishes exactly one joined for it (and nothing
 *     else but its one death), it is expelled once only, every node lists
 *     every node alive and node 3 with a larger incarnation, a new
 *     registration works there, and the ring closes around all five;
 *   - late_configured_node_joins: node 5 is configured after the others
 *     have declared it dead (d + the 30 s boot grace: nodes of a cluster
 *     booting minutes apart). The first member that hears it takes its
 *     incarnation for the dead one and tells it; it comes back and
 *     becomes a member, with the same checks.
 *
 * And one that must not be expelled at all:
 *
 *   - minority_first_waits: nodes 1 and 2 are configured, then nothing
 *     for longer than the boot grace and a probe's rounds (the quorum
 *     rule is on, the default from 3 nodes). A node still waiting for its
 *     first emitter hears its helpers, but no majority: the cluster is
 *     still forming, and it waits for it rather than resigning as on a
 *     minority side: node 1, whose emitter is node 5, counts each round
 *     it kept open (stats forming_waits), node 2 none. Then nodes 3 to 5
 *     are configured: the ring settles with every node a member, no
 *     event anywhere, and node 1 waits no more.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "st_vcluster.h"
#include "ksft.h"

#define N		5
#define CLUSTER		0x6578		/* "ex" */
#define H_US		100000u		/* h = 100 ms */
#define D_US		1000000u	/* d = 1 s */
#define D_NS		((uint64_t)D_US * 1000)
#define MARGIN_NS	500000000ull
#define VICTIM		3
#define JOB		77
/* FTNL_RING_BOOT_GRACE_NS (kmod/ring/core.h) */
#define BOOT_GRACE_NS	30000000000ull
#define STALL_PARAM	"/sys/module/ftnl/parameters/test_stall_ms"

/* What the registered process on the victim saw, through a pipe. */
struct expel_report {
	int registered;		/* its registration: 0 or -errno */
	int expelled;		/* it received FTNL_EVENT_EXPELLED */
	struct ftnl_event_expelled ev;
	int register_again;	/* a new registration after it: -ESTALE */
};

/*
 * The registered process: enter node @id's netns, register, subscribe,
 * report; wait (up to 60 s) for the expulsion; report what it saw and what
 * a new registration answers; then block until the test ends it.
 */
static pid_t start_registered(struct st_vc *vc, uint32_t id, int *report_fd)
{
	int rep[2], i;
	pid_t pid;

	if (pipe(rep))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		struct expel_report r = { 0 };
		struct ftnl_handle *h = NULL, *h2 = NULL;
		struct ftnl_events *ev = NULL;
		struct ftnl_event e;
		uint64_t end;

		close(rep[0]);
		if (setns(vc->node[id].ns, CLONE_NEWNET))
			_exit(2);
		r.registered = ftnl_open(&h);
		if (!r.registered)
			r.registered = ftnl_proc_register(h, JOB, 0);
		if (!r.registered)
			r.registered = ftnl_events_open(&ev);
		if (write(rep[1], &r, sizeof(r)) != sizeof(r) || r.registered)
			_exit(3);
		end = st_mono_ns() + 60000000000ull;
		while (!r.expelled && st_mono_ns() < end) {
			struct pollfd p = { .fd = ftnl_events_fd(ev),
					    .events = POLLIN };

			poll(&p, 1, 200);
			while (ftnl_events_read(ev, &e) > 0) {
				if (e.type != FTNL_EVENT_EXPELLED)
					continue;
				r.expelled = 1;
				r.ev = e.expelled;
			}
		}
		r.register_again = ftnl_open(&h2);
		if (!r.register_again)
			r.register_again = ftnl_proc_register(h2, JOB, 1);
		if (write(rep[1], &r, sizeof(r)) != sizeof(r))
			_exit(4);
		for (i = 0; i < 600; i++)
			pause();
		_exit(0);
	}
	close(rep[1]);
	*report_fd = rep[0];
	return pid;
}

static int read_report(int fd, struct expel_report *r, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, timeout_ms) != 1)
		return -ETIMEDOUT;
	return read(fd, r, sizeof(*r)) == sizeof(*r) ? 0 : -EIO;
}

FIXTURE(expel) {
	struct st_vc vc;
};

FIXTURE_SETUP(expel)
{
	ASSERT_EQ(0, st_vc_init(&self->vc, N, CLUSTER, H_US, D_US));
}

FIXTURE_TEARDOWN(expel)
{
	st_vc_fini(&self->vc);
}

static void run_expel(struct __test_metadata *_metadata, struct st_vc *vc,
		      bool kill_fence)
{
	bool live[ST_VC_MAX_NODES + 1] = { false };
	struct expel_report r = { 0 };
	struct ftnl_cluster_info ci;
	struct ftnl_node_table t;
	const struct ftnl_node *e;
	uint64_t cut, died = 0, healed, expelled_at, back, inc_new;
	char why[256] = "";
	int report_fd = -1, status = 0;
	uint32_t id;
	size_t i;
	pid_t pid;

	vc->cfg.has_fence = true;
	vc->cfg.fence = kill_fence ? FTNL_FENCE_KILL : FTNL_FENCE_NONE;
	ASSERT_EQ(0, st_vc_configure_all(vc));
	ASSERT_EQ(0, st_vc_wait_settled(vc, 20000, why, sizeof(why))) {
		TH_LOG("cluster did not settle: %s", why);
	}
	ASSERT_EQ(0, ftnl_cluster_get(vc->node[VICTIM].h, &ci));
	EXPECT_TRUE(ci.has_fence);
	EXPECT_EQ(vc->cfg.fence, ci.fence);
	ASSERT_LE(0, st_vc_poll_events(vc, 0));
	ASSERT_EQ(0u, vc->nevents);

	pid = start_registered(vc, VICTIM, &report_fd);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, read_report(report_fd, &r, 10000));
	ASSERT_EQ(0, r.registered);

	/* Cut off both ways until every other node holds it dead for 2d. */
	ASSERT_EQ(0, st_vc_silence(vc, VICTIM, &cut, NULL));
	for (id = 1; id <= N; id++) {
		const struct st_vc_event *ev;

		live[id] = id != VICTIM;
		if (!live[id])
			continue;
		ASSERT_EQ(0, st_vc_wait_event(vc, id, VICTIM, 1,
					      cut + 4 * D_NS + MARGIN_NS)) {
			TH_LOG("node %u never declared node %u dead", id, VICTIM);
		}
		ev = st_vc_find_event(vc, id, VICTIM);
		if (ev->f.time_mono_ns > died)
			died = ev->f.time_mono_ns;
	}
	while (st_mono_ns() < died + 2 * D_NS + MARGIN_NS)
		ASSERT_LE(0, st_vc_poll_events(vc, 50));
	ASSERT_EQ(0, st_vc_unsilence(vc, VICTIM));
	healed = st_mono_ns();
	TH_LOG("node %u cut off for %.2f s (declared dead %.2f s after the cut)",
	       VICTIM, (healed - cut) / 1e9, (died - cut) / 1e9);

	/* It knows: the node's subscription, and its registered process. */
	while (!vc->node[VICTIM].expelled && st_mono_ns() < healed + 30 * D_NS)
		ASSERT_LE(0, st_vc_poll_events(vc, 50));
	ASSERT_EQ(1u, vc->node[VICTIM].expelled) {
		TH_LOG("node %u was never expelled", VICTIM);
	}
	EXPECT_EQ(ci.incarnation, vc->node[VICTIM].expel.incarnation);
	EXPECT_EQ((uint32_t)VICTIM, vc->node[VICTIM].expel.node_id);
	EXPECT_EQ((uint32_t)VICTIM, vc->node[VICTIM].expel.by_id);
	EXPECT_EQ((uint32_t)FTNL_EXPEL_DEAF, vc->node[VICTIM].expel.reason) {
		TH_LOG("reason %s",
		       ftnl_expel_reason_name(vc->node[VICTIM].expel.reason));
	}
	expelled_at = vc->node[VICTIM].expel.time_mono_ns;
	if (!kill_fence) {
		ASSERT_EQ(0, read_report(report_fd, &r, 10000)) {
			TH_LOG("the registered process never heard of the expulsion");
		}
		EXPECT_TRUE(r.expelled);
		EXPECT_EQ(expelled_at, r.ev.time_mono_ns);
		EXPECT_EQ(-ESTALE, r.register_again);
	}
	/* Its emitter's last heartbeat: at most h before the cut. */
	EXPECT_LT(cut + 2 * D_NS, expelled_at);
	EXPECT_GT(cut + 5 * D_NS / 2 + MARGIN_NS, expelled_at);
	TH_LOG("cut to expelled: %.1f ms (by node %u, reason %s)",
	       ((double)expelled_at - (double)cut) / 1e6,
	       vc->node[VICTIM].expel.by_id,
	       ftnl_expel_reason_name(vc->node[VICTIM].expel.reason));

	ASSERT_EQ(0, st_vc_list(vc, VICTIM, &t));
	e = st_vc_entry(&t, VICTIM);
	ASSERT_NE(NULL, e);
	EXPECT_EQ((int)FTNL_NODE_STATE_EXPELLED, (int)e->state) {
		TH_LOG("node %u says it is %s", VICTIM,
		       ftnl_node_state_name(e->state));
	}
	ftnl_node_table_free(&t);

	/* Fenced as the policy says. */
	if (kill_fence) {
		EXPECT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
			TH_LOG("the registered process was not SIGKILLed: status %#x",
			       status);
		}
	} else {
		st_msleep(500);
		EXPECT_EQ(0, waitpid(pid, &status, WNOHANG)) {
			TH_LOG("fence none killed the registered process");
		}
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	close(report_fd);

	/* Nothing flaps: one death each, nothing else, for 3d. */
	while (st_mono_ns() < healed + 3 * D_NS)
		ASSERT_LE(0, st_vc_poll_events(vc, 50));
	for (i = 0; i < vc->nevents; i++) {
		const struct st_vc_event *ev = &vc->events[i];

		EXPECT_NE((uint32_t)VICTIM, ev->at) {
			TH_LOG("node %u, cut off, declared node %u dead (%s)",
			       VICTIM, ev->f.node_id,
			       ftnl_event_cause_name(ev->f.cause));
		}
		EXPECT_EQ((uint32_t)VICTIM, ev->f.node_id) {
			TH_LOG("node %u: event about node %u (%s)", ev->at,
			       ev->f.node_id, ftnl_event_cause_name(ev->f.cause));
			ST_VC_LOG_STALL(vc);
		}
	}
	for (id = 1; id <= N; id++) {
		if (live[id])
			EXPECT_EQ(1u, st_vc_count_events(vc, id, VICTIM, -1));
	}
	EXPECT_EQ(1u, vc->node[VICTIM].expelled);
	ASSERT_EQ(0, st_vc_wait_ring(vc, live, 0, why, sizeof(why))) {
		TH_LOG("ring without node %u: %s", VICTIM, why);
	}

	/* Expelled by its own rule: it does not come back by itself. */
	while (st_mono_ns() < expelled_at + 4 * D_NS + 2 * MARGIN_NS)
		ASSERT_LE(0, st_vc_poll_events(vc, 50));
	EXPECT_EQ(0u, st_vc_count_joins(vc, 0, VICTIM));
	ASSERT_EQ(0, st_vc_list(vc, VICTIM, &t));
	e = st_vc_entry(&t, VICTIM);
	ASSERT_NE(NULL, e);
	EXPECT_EQ((int)FTNL_NODE_STATE_EXPELLED, (int)e->state) {
		TH_LOG("node %u, expelled by its own rule, came back: %s",
		       VICTIM, ftnl_node_state_name(e->state));
	}
	ftnl_node_table_free(&t);

	/* Configured again: a new life, which rejoins (not expelled again). */
	back = st_mono_ns();
	ASSERT_EQ(0, st_vc_configure(vc, VICTIM));
	inc_new = st_vc_incarnation(vc, VICTIM);
	EXPECT_LT(ci.incarnation, inc_new) {
		TH_LOG("configured again, node %u kept incarnation %llu",
		       VICTIM, (unsigned long long)inc_new);
	}
	live[VICTIM] = true;
	for (id = 1; id <= N; id++) {
		if (id == VICTIM)
			continue;
		EXPECT_EQ(0, st_vc_wait_joins(vc, id, VICTIM, 1,
					      back + 2 * D_NS + 4 * MARGIN_NS)) {
			TH_LOG("node %u published no joined event for node %u",
			       id, VICTIM);
		}
	}
	for (i = 0; i < vc->njoins; i++)
		if (vc->joins[i].f.node_id == VICTIM)
			EXPECT_EQ(inc_new, vc->joins[i].f.incarnation);
	EXPECT_EQ(1u, vc->node[VICTIM].expelled);
	ASSERT_EQ(0, st_vc_wait_ring(vc, live, 0, why, sizeof(why))) {
		TH_LOG("ring with node %u back: %s", VICTIM, why);
	}
}

TEST_F_TIMEOUT(expel, cut_off_then_healed_fence_none, 120)
{
	run_expel(_metadata, &self->vc, false);
}

TEST_F_TIMEOUT(expel, cut_off_then_healed_fence_kill, 120)
{
	run_expel(_metadata, &self->vc, true);
}

/*
 * After its expulsion (at @since), @victim comes back as a new incarnation
 * (larger than @old_inc) and every other node readmits it: one joined
 * each, nothing else but its one death, no second expulsion, every node
 * alive everywhere, the ring closed around all of them, and a process
 * registers on @victim in its new life.
 */
static void check_comeback(struct __test_metadata *_metadata,
			   struct st_vc *vc, uint32_t victim, uint64_t old_inc,
			   uint64_t since)
{
	bool live[ST_VC_MAX_NODES + 1] = { false };
	struct ftnl_handle *h = NULL;
	struct ftnl_node_table t;
	const struct ftnl_node *e;
	uint64_t joined = 0, inc;
	char why[256] = "";
	uint32_t id, of;
	size_t i;

	for (id = 1; id <= vc->n; id++) {
		live[id] = true;
		if (id == victim)
			continue;
		ASSERT_EQ(0, st_vc_wait_joins(vc, id, victim, 1,
					      since + 12 * D_NS)) {
			TH_LOG("node %u never readmitted node %u", id, victim);
		}
	}
	for (i = 0; i < vc->njoins; i++)
		if (vc->joins[i].f.node_id == victim &&
		    vc->joins[i].f.time_mono_ns > joined)
			joined = vc->joins[i].f.time_mono_ns;
	TH_LOG("expelled to the last joined: %.1f ms (hold 4d = %.1f ms)",
	       ((double)joined - (double)since) / 1e6, 4 * D_NS / 1e6);
	EXPECT_LE(since + 4 * D_NS, joined);
	ASSERT_EQ(0, st_vc_wait_ring(vc, live, 10000, why, sizeof(why))) {
		TH_LOG("ring with node %u back: %s", victim, why);
	}
	/* Quiet for 3d: nothing flaps. */
	while (st_mono_ns() < joined + 3 * D_NS)
		ASSERT_LE(0, st_vc_poll_events(vc, 50));
	for (id = 1; id <= vc->n; id++) {
		if (id == victim)
			continue;
		EXPECT_EQ(1u, st_vc_count_events(vc, id, victim, -1));
		EXPECT_EQ(1u, st_vc_count_joins(vc, id, victim));
		EXPECT_EQ(1u, st_vc_count_joins(vc, id, 0));
	}
	for (i = 0; i < vc->nevents; i++) {
		const struct st_vc_event *ev = &vc->events[i];

		if (ev->at == victim)
			continue;
		EXPECT_EQ(victim, ev->f.node_id) {
			TH_LOG("node %u: event about node %u (%s)", ev->at,
			       ev->f.node_id, ftnl_event_cause_name(ev->f.cause));
			ST_VC_LOG_STALL(vc);
		}
	}
	EXPECT_EQ(1u, vc->node[victim].expelled);
	inc = st_vc_incarnation(vc, victim);
	EXPECT_LT(old_inc, inc);
	for (i = 0; i < vc->njoins; i++)
		if (vc->joins[i].f.node_id == victim)
			EXPECT_EQ(inc, vc->joins[i].f.incarnation);
	for (id = 1; id <= vc->n; id++) {
		ASSERT_EQ(0, st_vc_list(vc, id, &t));
		for (of = 1; of <= vc->n; of++) {
			e = st_vc_entry(&t, of);
			ASSERT_NE(NULL, e);
			EXPECT_EQ((int)FTNL_NODE_STATE_ALIVE, (int)e->state) {
				TH_LOG("node %u holds node %u %s", id, of,
				       ftnl_node_state_name(e->state));
			}
			if (of == victim)
				EXPECT_EQ(inc, e->incarnation);
		}
		ftnl_node_table_free(&t);
	}
	/* The new life takes registrations. */
	ASSERT_EQ(0, setns(vc->node[victim].ns, CLONE_NEWNET));
	ASSERT_EQ(0, ftnl_open(&h));
	EXPECT_EQ(0, ftnl_proc_register(h, JOB, 9));
	ftnl_close(h);
	ASSERT_EQ(0, setns(vc->root_ns, CLONE_NEWNET));
}

/* Freeze node @id's ring for @ms ms (the write acts in the writer's netns). */
static int stall(struct st_vc *vc, uint32_t id, unsigned int ms)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", ms), err = 0, fd;

	fd = open(STALL_PARAM, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (setns(vc->node[id].ns, CLONE_NEWNET))
		err = -errno;
	else if (pwrite(fd, buf, (size_t)len, 0) != len)
		err = -errno;
	if (setns(vc->root_ns, CLONE_NEWNET) && !err)
		err = -errno;
	close(fd);
	return err;
}

TEST_F_TIMEOUT(expel, frozen_then_comes_back, 120)
{
	struct st_vc *vc = &self->vc;
	struct ftnl_cluster_info ci;
	uint64_t frozen, resumed;
	char why[256] = "";
	uint32_t id;

	ASSERT_EQ(0, st_vc_configure_all(vc));
	ASSERT_EQ(0, st_vc_wait_settled(vc, 20000, why, sizeof(why))) {
		TH_LOG("cluster did not settle: %s", why);
	}
	ASSERT_EQ(0, ftnl_cluster_get(vc->node[VICTIM].h, &ci));
	frozen = st_mono_ns();
	ASSERT_EQ(0, stall(vc, VICTIM, 7 * D_US / 2000)) {
		TH_LOG("%s: a module without the test stall", STALL_PARAM);
	}
	resumed = frozen + 7 * D_NS / 2;
	for (id = 1; id <= N; id++)
		if (id != VICTIM)
			ASSERT_EQ(0, st_vc_wait_event(vc, id, VICTIM, 1,
						      resumed)) {
				TH_LOG("node %u never declared node %u dead",
				       id, VICTIM);
			}
	while (!vc->node[VICTIM].expelled && st_mono_ns() < resumed + 10 * D_NS)
		ASSERT_LE(0, st_vc_poll_events(vc, 50));
	ASSERT_EQ(1u, vc->node[VICTIM].expelled);
	EXPECT_EQ(ci.incarnation, vc->node[VICTIM].expel.incarnation);
	EXPECT_NE((uint32_t)VICTIM, vc->node[VICTIM].expel.by_id);
	EXPECT_TRUE(vc->node[VICTIM].expel.reason == FTNL_EXPEL_TOLD ||
		    vc->node[VICTIM].expel.reason == FTNL_EXPEL_BROADCAST) {
		TH_LOG("reason %s",
		       ftnl_expel_reason_name(vc->node[VICTIM].expel.reason));
	}
	TH_LOG("resumed to expelled: %.1f ms (by node %u, reason %s)",
	       ((double)vc->node[VICTIM].expel.time_mono_ns -
		(double)resumed) / 1e6, vc->node[VICTIM].expel.by_id,
	       ftnl_expel_reason_name(vc->node[VICTIM].expel.reason));
	check_comeback(_metadata, vc, VICTIM, ci.incarnation,
		       vc->node[VICTIM].expel.time_mono_ns);
}

/* A node configured after the others declared it dead (boot grace). */
TEST_F_TIMEOUT(expel, late_configured_node_joins, 150)
{
	struct st_vc *vc = &self->vc;
	uint64_t first, since;
	char why[256] = "";
	uint32_t id;

	for (id = 1; id < N; id++)
		ASSERT_EQ(0, st_vc_configure(vc, id));
	first = st_mono_ns();
	for (id = 1; id < N; id++)
		ASSERT_EQ(0, st_vc_wait_event(vc, id, N, 1,
					      first + BOOT_GRACE_NS +
					      4 * D_NS + 20 * MARGIN_NS)) {
			TH_LOG("node %u never declared the unconfigured node %u dead",
			       id, N);
		}
	ASSERT_EQ(0, st_vc_configure(vc, N));
	since = st_mono_ns();
	while (!vc->node[N].expelled && st_mono_ns() < since + 10 * D_NS)
		ASSERT_LE(0, st_vc_poll_events(vc, 50));
	TH_LOG("node %u, configured %.1f s after node 1, expelled: %u", N,
	       (since - first) / 1e9, vc->node[N].expelled);
	ASSERT_EQ(1u, vc->node[N].expelled) {
		TH_LOG("(%s)", st_vc_node_note(vc, N, why, sizeof(why)));
	}
	EXPECT_EQ((uint32_t)FTNL_EXPEL_TOLD, vc->node[N].expel.reason);
	check_comeback(_metadata, vc, N, vc->node[N].expel.incarnation,
		       vc->node[N].expel.time_mono_ns);
}

/* A minority configured first waits for the majority (boot grace). */
TEST_F_TIMEOUT(expel, minority_first_waits, 150)
{
	struct st_vc *vc = &self->vc;
	struct ftnl_stats s1, s2, formed;
	char why[256] = "";
	uint64_t first;
	uint32_t id;

	for (id = 1; id <= 2; id++)
		ASSERT_EQ(0, st_vc_configure(vc, id));
	first = st_mono_ns();
	/* The grace, the probe (d - h)/2 before its end, 2d: closed. */
	while (st_mono_ns() < first + BOOT_GRACE_NS + 3 * D_NS + 2 * MARGIN_NS)
		ASSERT_LE(0, st_vc_poll_events(vc, 100));
	for (id = 1; id <= 2; id++) {
		EXPECT_EQ(0u, vc->node[id].expelled) {
			TH_LOG("node %u expelled with 2 of %u configured: reason %s",
			       id, N,
			       ftnl_expel_reason_name(vc->node[id].expel.reason));
		}
	}
	ASSERT_EQ(0u, vc->node[1].expelled + vc->node[2].expelled);
	ASSERT_EQ(0u, vc->nevents);
	/*
	 * Node 1 waits for its emitter, node 5, and counts each round it
	 * kept open; node 2 heard its own, node 1, and waits for nothing.
	 */
	ASSERT_EQ(0, st_vc_stats(vc, 1, &s1));
	ASSERT_EQ(0, st_vc_stats(vc, 2, &s2));
	EXPECT_LE(1u, s1.forming_waits);
	EXPECT_EQ(0u, s2.forming_waits);
	TH_LOG("forming waits: node 1 %" PRIu64 ", node 2 %" PRIu64,
	       s1.forming_waits, s2.forming_waits);
	for (id = 3; id <= N; id++)
		ASSERT_EQ(0, st_vc_configure(vc, id));
	ASSERT_EQ(0, st_vc_wait_settled(vc, 20000, why, sizeof(why))) {
		TH_LOG("the cluster did not settle: %s", why);
	}
	/* Nothing happens after either: nobody accused, nobody resigned. */
	ASSERT_EQ(0, st_vc_stats(vc, 1, &formed));
	first = st_mono_ns();
	while (st_mono_ns() < first + 3 * D_NS)
		ASSERT_LE(0, st_vc_poll_events(vc, 100));
	/* The cluster formed: node 1 waits no more. */
	ASSERT_EQ(0, st_vc_stats(vc, 1, &s1));
	EXPECT_EQ(formed.forming_waits, s1.forming_waits);
	for (id = 1; id <= N; id++) {
		EXPECT_EQ(0u, vc->node[id].expelled) {
			TH_LOG("node %u expelled: %s", id,
			       ftnl_expel_reason_name(vc->node[id].expel.reason));
		}
	}
	EXPECT_EQ(0u, vc->nevents);
}

TEST_HARNESS_MAIN
