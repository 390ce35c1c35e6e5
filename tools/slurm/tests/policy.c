// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-slurm's rules (policy.c): the state each cause calls for, which
 * node acts so that one update goes to slurmctld per failure, the reason
 * text, when an update is skipped, which errors are retried.
 */
#include <string.h>

#include <linux/ftnl.h>
#include <slurm/slurm_errno.h>

#include "policy.h"
#include "tap.h"

static const struct fs_policy defaults = {
	.on_leave = FS_LEAVE_DRAIN, .actor = FS_ACTOR_OBSERVER,
};

static void test_ops(const void *arg)
{
	struct fs_policy p = defaults;
	struct fs_failure f = { .node_id = 2, .observer_id = 1 };

	(void)arg;
	f.cause = FTNL_CAUSE_OBSERVED;
	TAP_CHECK_INT(fs_failure_op(&p, &f), FS_OP_DOWN);
	f.cause = FTNL_CAUSE_BROADCAST;
	TAP_CHECK_INT(fs_failure_op(&p, &f), FS_OP_DOWN);
	f.cause = FTNL_CAUSE_RESTARTED;
	TAP_CHECK_INT(fs_failure_op(&p, &f), FS_OP_DOWN);
	f.cause = FTNL_CAUSE_LEAVE;
	TAP_CHECK_INT(fs_failure_op(&p, &f), FS_OP_DRAIN);
	p.on_leave = FS_LEAVE_DOWN;
	TAP_CHECK_INT(fs_failure_op(&p, &f), FS_OP_DOWN);
	p.on_leave = FS_LEAVE_IGNORE;
	TAP_CHECK_INT(fs_failure_op(&p, &f), FS_OP_NONE);
	f.cause = 99;
	TAP_CHECK_INT(fs_failure_op(&p, &f), FS_OP_NONE);
}

/* Node 3 of 1..5 dies, observed by 4: every survivor hears it (cause
 * observed at 4, broadcast elsewhere, same observer): exactly node 4 acts. */
static void test_one_actor(const void *arg)
{
	struct fs_member m[5] = { { 1, true }, { 2, true }, { 3, false }, { 4, true }, { 5, true } };
	struct fs_failure f = { .node_id = 3, .observer_id = 4, .cause = FTNL_CAUSE_BROADCAST };
	struct fs_policy every = defaults;
	unsigned int self, actors = 0;

	(void)arg;
	for (self = 1; self <= 5; self++) {
		f.cause = self == 4 ? FTNL_CAUSE_OBSERVED : FTNL_CAUSE_BROADCAST;
		if (fs_is_actor(&defaults, self, &f, m, 5)) {
			actors++;
			TAP_CHECK_INT(self, 4);
		}
	}
	TAP_CHECK_INT(actors, 1);
	/* --actor every: every survivor, never the dead node itself. */
	every.actor = FS_ACTOR_EVERY;
	actors = 0;
	for (self = 1; self <= 5; self++)
		actors += fs_is_actor(&every, self, &f, m, 5);
	TAP_CHECK_INT(actors, 4);
	/* Not configured (self 0): never. */
	TAP_CHECK(!fs_is_actor(&defaults, 0, &f, m, 5));
}

/* A leave names the leaver as observer: the lowest live id acts, and when
 * that is the leaver, the next one. */
static void test_leave_actor(const void *arg)
{
	struct fs_member m[4] = { { 1, false }, { 2, true }, { 3, true }, { 4, true } };
	struct fs_failure f = { .node_id = 1, .observer_id = 1, .cause = FTNL_CAUSE_LEAVE };
	unsigned int self, actors = 0;

	(void)arg;
	for (self = 1; self <= 4; self++) {
		if (fs_is_actor(&defaults, self, &f, m, 4)) {
			actors++;
			TAP_CHECK_INT(self, 2);
		}
	}
	TAP_CHECK_INT(actors, 1);
	f.node_id = 3;
	f.observer_id = 3;
	m[0].alive = true;
	m[2].alive = false;
	TAP_CHECK(fs_is_actor(&defaults, 1, &f, m, 4));
	TAP_CHECK(!fs_is_actor(&defaults, 2, &f, m, 4));
	TAP_CHECK_INT(fs_designated(m, 4, 1), 2);
	m[0].alive = m[1].alive = m[3].alive = false;
	TAP_CHECK_INT(fs_designated(m, 4, 0), 0);
}

static void test_reportable(const void *arg)
{
	struct fs_failure f = { .node_id = 2, .observer_id = 1, .cause = FTNL_CAUSE_OBSERVED,
				.incarnation = 5 };

	(void)arg;
	TAP_CHECK(fs_failure_reportable(&f));
	f.incarnation = 0;
	TAP_CHECK(!fs_failure_reportable(&f));
	f.cause = FTNL_CAUSE_BROADCAST;
	TAP_CHECK(!fs_failure_reportable(&f));
	f.cause = FTNL_CAUSE_LEAVE;
	TAP_CHECK(fs_failure_reportable(&f));
}

static void test_minority(const void *arg)
{
	struct fs_member m[4] = { { 1, true }, { 2, true }, { 3, true }, { 4, false } };

	(void)arg;
	TAP_CHECK(!fs_sees_minority(m, 4));
	m[1].alive = false;
	TAP_CHECK(!fs_sees_minority(m, 4)); /* 2 of 4: half, a cascade */
	m[2].alive = false;
	TAP_CHECK(fs_sees_minority(m, 4)); /* 1 of 4: likely cut off */
	TAP_CHECK(!fs_sees_minority(m, 1));
	TAP_CHECK(!fs_sees_minority(m, 0));
}

static void test_reason(const void *arg)
{
	struct fs_failure f = { .node_id = 2, .observer_id = 1, .cause = FTNL_CAUSE_OBSERVED,
				.incarnation = 77 };
	char buf[FS_REASON_MAX];

	(void)arg;
	fs_reason(buf, sizeof(buf), &f, "cn001");
	TAP_CHECK_STR(buf, "ftnl: observed dead by cn001 (incarnation 77)");
	f.cause = FTNL_CAUSE_LEAVE;
	fs_reason(buf, sizeof(buf), &f, "cn002");
	TAP_CHECK_STR(buf, "ftnl: left the cluster (incarnation 77)");
	f.cause = FTNL_CAUSE_RESTARTED;
	fs_reason(buf, sizeof(buf), &f, "node 9");
	TAP_CHECK_STR(buf, "ftnl: restarted, seen by node 9 (incarnation 77 ended)");
	f.cause = FTNL_CAUSE_OBSERVED;
	f.observer_id = 0;
	fs_reason(buf, sizeof(buf), &f, "node 0");
	TAP_CHECK_STR(buf, "ftnl: dead in ftnl's table (incarnation 77)");
	f.cause = FTNL_CAUSE_RESTARTED;
	/* Truncated, never overrun, still ours. */
	fs_reason(buf, 8, &f, "cn001");
	TAP_CHECK_STR(buf, "ftnl: r");
}

static void test_needs_update(const void *arg)
{
	struct fs_slurm_node idle = { 0 }, down_ours = { .down = true, .reason = "ftnl: x" };
	struct fs_slurm_node down_admin = { .down = true, .reason = "bad DIMM" };
	struct fs_slurm_node drain_ours = { .drain = true, .reason = "ftnl: left" };
	struct fs_slurm_node drain_admin = { .drain = true, .reason = "maintenance" };
	struct fs_slurm_node down_none = { .down = true };

	(void)arg;
	TAP_CHECK(fs_needs_update(FS_OP_DOWN, &idle));
	TAP_CHECK(fs_needs_update(FS_OP_DOWN, &drain_admin));
	TAP_CHECK(!fs_needs_update(FS_OP_DOWN, &down_ours));
	TAP_CHECK(!fs_needs_update(FS_OP_DOWN, &down_admin));
	TAP_CHECK(fs_needs_update(FS_OP_DRAIN, &idle));
	TAP_CHECK(!fs_needs_update(FS_OP_DRAIN, &drain_admin));
	TAP_CHECK(!fs_needs_update(FS_OP_DRAIN, &down_admin));
	TAP_CHECK(fs_needs_update(FS_OP_RESUME, &down_ours));
	TAP_CHECK(fs_needs_update(FS_OP_RESUME, &drain_ours));
	TAP_CHECK(!fs_needs_update(FS_OP_RESUME, &down_admin));
	TAP_CHECK(!fs_needs_update(FS_OP_RESUME, &drain_admin));
	TAP_CHECK(!fs_needs_update(FS_OP_RESUME, &down_none));
	TAP_CHECK(!fs_needs_update(FS_OP_RESUME, &idle));
	TAP_CHECK(!fs_needs_update(FS_OP_NONE, &idle));
}

/* Resume: ours only, and only a node heard in a new life. */
static void test_resume_wanted(const void *arg)
{
	struct fs_slurm_node dead12 = { .down = true,
		.reason = "ftnl: observed dead by cn3 (incarnation 12)" };
	struct fs_slurm_node restarted12 = { .down = true,
		.reason = "ftnl: restarted, seen by cn3 (incarnation 12 ended)" };
	struct fs_slurm_node left12 = { .drain = true,
		.reason = "ftnl: left the cluster (incarnation 12)" };
	struct fs_slurm_node no_inc = { .down = true, .reason = "ftnl: x" };
	struct fs_slurm_node bad_inc = { .down = true, .reason = "ftnl: (incarnation 12x)" };
	struct fs_slurm_node admin = { .down = true, .reason = "bad DIMM (incarnation 1)" };
	struct fs_slurm_node idle = { 0 };

	(void)arg;
	TAP_CHECK(fs_resume_wanted(13, &dead12));
	TAP_CHECK(fs_resume_wanted(13, &restarted12));
	TAP_CHECK(fs_resume_wanted(13, &left12));
	/* The life that failed, seen alive by a table not updated yet. */
	TAP_CHECK(!fs_resume_wanted(12, &dead12));
	TAP_CHECK(!fs_resume_wanted(12, &restarted12));
	TAP_CHECK(!fs_resume_wanted(12, &left12));
	/* Never heard: a node just configured lists every member alive. */
	TAP_CHECK(!fs_resume_wanted(0, &dead12));
	TAP_CHECK(!fs_resume_wanted(0, &no_inc));
	/* Ours without an incarnation (truncated): heard is enough. */
	TAP_CHECK(fs_resume_wanted(5, &no_inc));
	TAP_CHECK(fs_resume_wanted(12, &bad_inc));
	TAP_CHECK(!fs_resume_wanted(13, &admin));
	TAP_CHECK(!fs_resume_wanted(13, &idle));
}

static void test_expel_op(const void *arg)
{
	struct fs_policy p = defaults;

	(void)arg;
	TAP_CHECK_INT(fs_expel_op(&p), FS_OP_DRAIN); /* the default: jobs go on */
	p.on_expel = FS_EXPEL_DOWN;
	TAP_CHECK_INT(fs_expel_op(&p), FS_OP_DOWN);
	p.on_expel = FS_EXPEL_IGNORE;
	TAP_CHECK_INT(fs_expel_op(&p), FS_OP_NONE);
}

/* The expelled node's reason: ftnl, the expulsion, who and why, the life
 * that ended (the resume rules read it back). */
static void test_expel_reason(const void *arg)
{
	struct fs_expulsion e = { .by_id = 3, .reason = FTNL_EXPEL_TOLD, .reason_known = true,
				  .incarnation = 41 };
	struct fs_slurm_node node = { .drain = true };
	char buf[FS_REASON_MAX];

	(void)arg;
	fs_expel_reason(buf, sizeof(buf), &e, "cn003");
	TAP_CHECK_STR(buf, "ftnl: expelled, told dead by cn003 (incarnation 41)");
	node.reason = buf;
	TAP_CHECK(fs_expel_resume_wanted(42, &node));
	TAP_CHECK(fs_resume_wanted(42, &node)); /* --resume alive's rule reads it too */
	e.reason = FTNL_EXPEL_BROADCAST;
	fs_expel_reason(buf, sizeof(buf), &e, "node 3");
	TAP_CHECK_STR(buf, "ftnl: expelled, its death broadcast (by node 3) (incarnation 41)");
	TAP_CHECK(fs_expel_resume_wanted(42, &node));
	e.reason = FTNL_EXPEL_QUORUM;
	fs_expel_reason(buf, sizeof(buf), &e, "cn001");
	TAP_CHECK_STR(buf, "ftnl: expelled itself, lost the quorum (incarnation 41)");
	TAP_CHECK(fs_expel_resume_wanted(42, &node));
	e.reason = FTNL_EXPEL_DEAF;
	fs_expel_reason(buf, sizeof(buf), &e, "cn001");
	TAP_CHECK_STR(buf, "ftnl: expelled itself, hears no member (incarnation 41)");
	e.reason = 99;
	fs_expel_reason(buf, sizeof(buf), &e, "cn001");
	TAP_CHECK_STR(buf, "ftnl: expelled (incarnation 41)");
	e.reason = FTNL_EXPEL_TOLD;
	e.reason_known = false;
	fs_expel_reason(buf, sizeof(buf), &e, "node 0");
	TAP_CHECK_STR(buf, "ftnl: expelled (incarnation 41)");
	TAP_CHECK(fs_expel_resume_wanted(42, &node));
	/* Truncated, never overrun. */
	fs_expel_reason(buf, 12, &e, "cn001");
	TAP_CHECK_STR(buf, "ftnl: expel");
}

/* Back by itself: told or broadcast, under rejoin auto only. */
static void test_expel_comes_back(const void *arg)
{
	struct fs_expulsion e = { .by_id = 3, .reason = FTNL_EXPEL_TOLD, .reason_known = true };

	(void)arg;
	TAP_CHECK(fs_expel_comes_back(&e, true));
	TAP_CHECK(!fs_expel_comes_back(&e, false));
	e.reason = FTNL_EXPEL_BROADCAST;
	TAP_CHECK(fs_expel_comes_back(&e, true));
	e.reason = FTNL_EXPEL_QUORUM;
	TAP_CHECK(!fs_expel_comes_back(&e, true));
	e.reason = FTNL_EXPEL_DEAF;
	TAP_CHECK(!fs_expel_comes_back(&e, true));
	e.reason = FTNL_EXPEL_TOLD;
	e.reason_known = false;
	TAP_CHECK(!fs_expel_comes_back(&e, true));
}

/* A member again: only its own expulsion's DRAIN or DOWN of another life
 * is undone; an observer's DOWN and an admin's reason are kept. */
static void test_expel_resume(const void *arg)
{
	struct fs_slurm_node drained = { .drain = true,
		.reason = "ftnl: expelled, told dead by cn3 (incarnation 41)" };
	struct fs_slurm_node downed = { .down = true,
		.reason = "ftnl: expelled itself, lost the quorum (incarnation 41)" };
	struct fs_slurm_node observed = { .down = true,
		.reason = "ftnl: observed dead by cn3 (incarnation 41)" };
	struct fs_slurm_node admin = { .drain = true,
		.reason = "expelled by the admin (incarnation 41)" };
	struct fs_slurm_node no_inc = { .drain = true, .reason = "ftnl: expelled" };
	struct fs_slurm_node idle = { .reason = "ftnl: expelled (incarnation 41)" };

	(void)arg;
	TAP_CHECK(fs_expel_resume_wanted(42, &drained));
	TAP_CHECK(fs_expel_resume_wanted(42, &downed));
	/* Still the life that was expelled, or not configured. */
	TAP_CHECK(!fs_expel_resume_wanted(41, &drained));
	TAP_CHECK(!fs_expel_resume_wanted(0, &drained));
	TAP_CHECK(!fs_expel_resume_wanted(42, &observed));
	TAP_CHECK(!fs_expel_resume_wanted(42, &admin));
	/* No life named (truncated): which one it was is not known. */
	TAP_CHECK(!fs_expel_resume_wanted(42, &no_inc));
	TAP_CHECK(!fs_expel_resume_wanted(42, &idle));
}

/* The minority guard drops a retried DOWN of another node, never an
 * update about this node itself, never a first attempt. */
static void test_retry_dropped(const void *arg)
{
	(void)arg;
	TAP_CHECK(fs_retry_dropped(FS_OP_DOWN, 1, true, false));
	TAP_CHECK(!fs_retry_dropped(FS_OP_DOWN, 0, true, false));
	TAP_CHECK(!fs_retry_dropped(FS_OP_DOWN, 1, false, false));
	TAP_CHECK(!fs_retry_dropped(FS_OP_DOWN, 3, true, true));
	TAP_CHECK(!fs_retry_dropped(FS_OP_DRAIN, 3, true, false));
	TAP_CHECK(!fs_retry_dropped(FS_OP_DRAIN, 3, true, true));
	TAP_CHECK(!fs_retry_dropped(FS_OP_RESUME, 3, true, false));
}

static void test_read_first(const void *arg)
{
	struct fs_policy every = defaults;

	(void)arg;
	TAP_CHECK(!fs_read_first(&defaults, FS_OP_DOWN));
	TAP_CHECK(fs_read_first(&defaults, FS_OP_DRAIN));
	TAP_CHECK(fs_read_first(&defaults, FS_OP_RESUME));
	every.actor = FS_ACTOR_EVERY;
	TAP_CHECK(fs_read_first(&every, FS_OP_DOWN));
}

static void test_errors(const void *arg)
{
	(void)arg;
	TAP_CHECK(fs_error_is_transient(SLURM_COMMUNICATIONS_CONNECTION_ERROR));
	TAP_CHECK(fs_error_is_transient(SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR));
	TAP_CHECK(fs_error_is_transient(SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT));
	TAP_CHECK(fs_error_is_transient(ECONNREFUSED));
	TAP_CHECK(!fs_error_is_transient(ESLURM_INVALID_NODE_NAME));
	TAP_CHECK(!fs_error_is_transient(ESLURM_ACCESS_DENIED));
	TAP_CHECK(!fs_error_is_transient(SLURM_ERROR));
	TAP_CHECK_INT(fs_backoff_ms(1), 250);
	TAP_CHECK_INT(fs_backoff_ms(2), 500);
	TAP_CHECK_INT(fs_backoff_ms(7), 16000);
	TAP_CHECK_INT(fs_backoff_ms(8), 30000);
	TAP_CHECK_INT(fs_backoff_ms(1000), 30000);
}

int main(void)
{
	tap_add(test_ops, NULL, "the Slurm state each cause calls for");
	tap_add(test_one_actor, NULL, "one actor per failure: its observer");
	tap_add(test_leave_actor, NULL, "a leave: the lowest live id acts");
	tap_add(test_reportable, NULL, "a node that never spoke is not reported");
	tap_add(test_minority, NULL, "a node seeing a minority alive drops its retries");
	tap_add(test_reason, NULL, "the reason names ftnl, the cause, the observer");
	tap_add(test_needs_update, NULL, "updates skipped when Slurm has it; admins' kept");
	tap_add(test_resume_wanted, NULL, "resume only ours, heard in a new life");
	tap_add(test_expel_op, NULL, "an expelled node drains itself by default");
	tap_add(test_expel_reason, NULL, "the expelled node's reason names ftnl, why, the life");
	tap_add(test_expel_comes_back, NULL, "told or broadcast, rejoin auto: back by itself");
	tap_add(test_expel_resume, NULL, "a member again: only its own expulsion undone");
	tap_add(test_retry_dropped, NULL, "the minority guard keeps updates about itself");
	tap_add(test_read_first, NULL, "the observer's DOWN is one RPC; the rest read first");
	tap_add(test_errors, NULL, "transient errors retried with a backoff");
	return tap_run();
}
