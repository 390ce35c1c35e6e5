// SPDX-License-Identifier: GPL-2.0
/*
 * The local health rule (Documentation/ring.rst, "Local health"): a node
 * whose own timers ran late is no judge of its emitter's silence.
 *
 * A 5-node cluster (st_vcluster.h), h = 50 ms, d = 400 ms: node 3 observes
 * node 2 and is observed by node 4. The module's test-only parameter
 * test_stall_ms makes one node's ring run as if its CPU stalled: its
 * timers wait for the end of the stall (and then run late), the datagrams
 * it receives meanwhile are not read, and the last heartbeat among them
 * is read only after its suspicion timer ran - the order of a CPU whose
 * receive softirq waits behind ksoftirqd. Each round, the two neighbours
 * stall one after the other, each within the detector's bound:
 *
 *   t = 0      node 2 stalls for 300 ms (< d - h: node 3, its observer,
 *              would not suspect it for that alone);
 *   t = 250    node 3 stalls until D + h/2, D being its deadline for node
 *              2 (node 2's last heartbeat read before the round, from
 *              node 3's dump, + d): 125 to 175 ms, so its own heartbeats
 *              reach node 4 within h + 175 ms < d, and its heartbeat
 *              timer runs more than h late.
 *
 * Node 2's first heartbeat after its stall arrives while node 3 is
 * stalled. When node 3 resumes, its suspicion timer runs h/2 past the
 * deadline: too little for the old guard (more than h), so without the
 * local health rule node 3 declares node 2 dead before it reads that
 * heartbeat. With the rule, its late heartbeat timer makes it wait h; it
 * reads the heartbeat and nobody dies. Over ROUNDS rounds 2 s apart (a
 * round that the host delayed past its timing is not run, and tried
 * again, MAX_TRIES in all):
 *
 *   - no failure event at any node (node 3 declares no one dead, and
 *     neither stall is long enough for anyone to declare node 2 or 3
 *     dead);
 *   - node 3's stall_waits counter rose (at least once per round but
 *     those whose timing a loaded host moved out of the window: logged),
 *     and its suspicions did not;
 *   - the ring is intact at the end.
 *
 * Measured on 6.1 with the rule removed from kmod/ring/core.c: node 3
 * declared node 2 dead in the first round.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "st_vcluster.h"
#include "ksft.h"

#define N		5
#define CLUSTER		0x6c68		/* "lh" */
#define SCALE		st_time_scale()
#define H_MS		(50u * SCALE)
#define D_MS		(400u * SCALE)
#define EMITTER		2
#define ACCUSER		3
#define W_STALL_MS	(300u * SCALE)
#define X_START_MS	(250u * SCALE)
#define ROUNDS		5
#define MAX_TRIES	10
#define PARAM		"/sys/module/ftnl/parameters/test_stall_ms"

FIXTURE(health) {
	struct st_vc vc;
	int param;
};

FIXTURE_SETUP(health)
{
	char why[512] = "";

	self->param = open(PARAM, O_WRONLY);
	ASSERT_LE(0, self->param) {
		TH_LOG("%s: %s (a module without the test stall)", PARAM,
		       strerror(errno));
	}
	ASSERT_EQ(0, st_vc_start(&self->vc, N, CLUSTER, H_MS * 1000, D_MS * 1000,
				 10000, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
}

FIXTURE_TEARDOWN(health)
{
	if (self->param >= 0)
		close(self->param);
	st_vc_fini(&self->vc);
}

/* Stall node @id's ring for @ms ms: the write acts in the writer's netns. */
static int stall(struct st_vc *vc, int param, uint32_t id, unsigned int ms)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", ms), err = 0;

	if (setns(vc->node[id].ns, CLONE_NEWNET))
		return -errno;
	if (pwrite(param, buf, (size_t)len, 0) != len)
		err = -errno;
	if (setns(vc->root_ns, CLONE_NEWNET) && !err)
		err = -errno;
	return err;
}

/* When node @at last read a heartbeat of its emitter @of (st_mono_ns()). */
static int last_heartbeat(struct st_vc *vc, uint32_t at, uint32_t of,
			  uint64_t *when)
{
	struct ftnl_node_table t;
	const struct ftnl_node *e;
	uint64_t now = st_mono_ns();
	int err = st_vc_list(vc, at, &t);

	if (err)
		return err;
	e = st_vc_entry(&t, of);
	if (!e || !e->emitter || !e->has_hb_age)
		err = -ENOENT;
	else
		*when = now - e->hb_age_us * 1000;
	ftnl_node_table_free(&t);
	return err;
}

TEST_F_TIMEOUT(health, starved_accuser_waits, 120)
{
	const uint64_t ms = 1000000;
	bool live[ST_VC_MAX_NODES + 1] = { false };
	struct ftnl_stats before, after;
	unsigned int r, tries, waited = 0;
	char why[256] = "";
	uint32_t id;

	ASSERT_EQ(0, st_vc_stats(&self->vc, ACCUSER, &before));
	for (r = 1, tries = 0; r <= ROUNDS && tries < MAX_TRIES; tries++) {
		uint64_t last = 0, t0, deadline, end, now;
		struct ftnl_stats s0, s1;

		ASSERT_EQ(0, st_vc_stats(&self->vc, ACCUSER, &s0));
		ASSERT_EQ(0, last_heartbeat(&self->vc, ACCUSER, EMITTER, &last));
		ASSERT_EQ(0, stall(&self->vc, self->param, EMITTER, W_STALL_MS));
		t0 = st_mono_ns();
		deadline = last + (uint64_t)D_MS * ms;
		end = deadline + (uint64_t)H_MS * ms / 2;
		st_msleep(X_START_MS);
		now = st_mono_ns();
		/*
		 * Node 2's heartbeats resume at t0 + 300 ms: node 3 must be
		 * stalled by then, and for more than h. A host that delayed
		 * this process past that spoils the round: try again.
		 */
		if (now + 10 * ms > t0 + (uint64_t)W_STALL_MS * ms ||
		    end < now + (uint64_t)H_MS * ms) {
			TH_LOG("try %u: woke %.1f ms after node 2's stall began: round not run",
			       tries + 1, (now - t0) / 1e6);
			st_msleep(2000);
			continue;
		}
		ASSERT_EQ(0, stall(&self->vc, self->param, ACCUSER,
				   (unsigned int)((end - now) / ms)));
		/* Both stalls, the rule's h, and room. */
		st_msleep(2000);
		ASSERT_LE(0, st_vc_poll_events(&self->vc, 0));
		ASSERT_EQ(0, st_vc_stats(&self->vc, ACCUSER, &s1));
		TH_LOG("round %u: node 3 last heard node 2 %.1f ms before node 2's stall, stalled %.1f ms after it for %.1f ms; stall waits +%" PRIu64 ", suspicions +%" PRIu64,
		       r, (t0 - last) / 1e6, (now - t0) / 1e6,
		       (end - now) / 1e6, s1.stall_waits - s0.stall_waits,
		       s1.suspicions - s0.suspicions);
		if (s1.stall_waits > s0.stall_waits)
			waited++;
		ASSERT_EQ(0u, self->vc.nevents) {
			const struct st_vc_event *e = &self->vc.events[0];

			TH_LOG("round %u: node %u published node %u dead (cause %s, observer %u)",
			       r, e->at, e->f.node_id,
			       ftnl_event_cause_name(e->f.cause),
			       e->f.observer_id);
			ST_VC_LOG_STALL(&self->vc);
		}
		r++;
	}
	ASSERT_EQ(0, st_vc_stats(&self->vc, ACCUSER, &after));
	TH_LOG("node 3: stall waits %" PRIu64 " -> %" PRIu64 " (%u of %u rounds run, %u tries), suspicions %" PRIu64 " -> %" PRIu64,
	       before.stall_waits, after.stall_waits, waited, r - 1, tries,
	       before.suspicions, after.suspicions);
	EXPECT_EQ(before.suspicions, after.suspicions);
	ASSERT_LT(1u, r) {
		TH_LOG("no round could run in %u tries: the host delayed every one",
		       tries);
	}
	EXPECT_LE(1u, waited);
	for (id = 1; id <= N; id++)
		live[id] = true;
	EXPECT_TRUE(st_vc_ring_check(&self->vc, live, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
}

TEST_HARNESS_MAIN
