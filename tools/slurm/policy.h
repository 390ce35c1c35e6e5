/* SPDX-License-Identifier: GPL-2.0 */
/*
 * policy.h - what ftnl-slurm does about an ftnl event, as pure functions:
 * no I/O, no libslurm, so that every rule is unit-tested.
 */
#ifndef FTNL_SLURM_POLICY_H
#define FTNL_SLURM_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every reason ftnl-slurm writes starts with this; it only ever resumes
 * nodes whose reason does, so an admin's own DOWN or DRAIN is left alone. */
#define FS_REASON_PREFIX "ftnl:"
/* ... and an expelled node's reason for itself with this: the only one
 * that node undoes when it is a member again. */
#define FS_EXPEL_REASON_PREFIX FS_REASON_PREFIX " expelled"

/* Room for a Slurm node name (ftnl's names are at most 63 characters). */
#define FS_NAME_MAX 64
#define FS_REASON_MAX 192

enum fs_op {
	FS_OP_NONE,
	FS_OP_DOWN,	/* state=DOWN: Slurm kills or requeues the node's jobs */
	FS_OP_DRAIN,	/* state=DRAIN: running jobs finish, no new ones */
	FS_OP_RESUME,	/* state=RESUME: back to service */
};

/* What to do with a node that left gracefully (ftnl-cli cluster leave,
 * systemctl stop ftnl). */
enum fs_on_leave {
	FS_LEAVE_DRAIN,
	FS_LEAVE_DOWN,
	FS_LEAVE_IGNORE,
};

/* What an expelled node does to its own Slurm state. */
enum fs_on_expel {
	FS_EXPEL_DRAIN,		/* no new jobs; running ones go on (default) */
	FS_EXPEL_DOWN,		/* Slurm kills or requeues its jobs */
	FS_EXPEL_IGNORE,
};

/* Who acts on a failure every node hears of. */
enum fs_actor {
	FS_ACTOR_OBSERVER,	/* the node that detected it (default) */
	FS_ACTOR_EVERY,		/* every node (idempotent, more RPCs) */
};

struct fs_policy {
	enum fs_on_leave on_leave;
	enum fs_actor actor;
	bool resume_alive;	/* RESUME nodes ftnl downed once ftnl sees them alive */
	enum fs_on_expel on_expel;
};

/* A failure as ftnl reported it (struct ftnl_event_failure's fields). */
struct fs_failure {
	uint32_t node_id;
	uint32_t observer_id;
	uint32_t cause;		/* enum ftnl_event_cause */
	uint64_t incarnation;
};

/* A node of ftnl's table, as far as the policy needs it. */
struct fs_member {
	uint32_t id;
	bool alive;
};

/**
 * fs_failure_op() - the Slurm state a failure calls for
 * @policy: the admin's policy
 * @failure: the failure
 *
 * Return: FS_OP_DOWN for a crash (observed, broadcast or restarted),
 * the on-leave choice for a leave, FS_OP_NONE for an unknown cause.
 */
enum fs_op fs_failure_op(const struct fs_policy *policy,
			 const struct fs_failure *failure);

/**
 * fs_failure_reportable() - may this failure be told to Slurm at all?
 * @failure: the failure
 *
 * A node that never spoke to this one since it was configured
 * (incarnation 0) may be dead, or this node may be the one that cannot
 * hear (just configured, or cut off): ftnl's verdict is then no ground to
 * take the node from Slurm, which still notices a dead one after
 * SlurmdTimeout. A leave is always reportable (the node said so itself).
 *
 * Return: true if it may be reported.
 */
bool fs_failure_reportable(const struct fs_failure *failure);

/**
 * fs_is_actor() - does this node update Slurm for that failure?
 * @policy: the admin's policy
 * @self_id: this node's ftnl id
 * @failure: the failure
 * @members: this node's view of the table (after the failure)
 * @count: entries in @members
 *
 * Every survivor hears of every failure; one of them acts. The node that
 * detected the failure (the event's observer) does, since it is alive by
 * definition and every survivor's event names the same observer. A leave
 * names the leaving node itself as its observer: then the live member
 * with the lowest id acts (survivors' views agree on it once the leave is
 * known everywhere; if two nodes' views differ for a moment, both act,
 * and the second update finds the node already in that state).
 *
 * Return: true if this node acts.
 */
bool fs_is_actor(const struct fs_policy *policy, uint32_t self_id,
		 const struct fs_failure *failure,
		 const struct fs_member *members, size_t count);

/**
 * fs_sees_minority() - does this node see fewer than half the table alive?
 * @members: its view (itself included)
 * @count: entries
 *
 * A node cut off from the others sees them die one after the other, and
 * cannot reach slurmctld either, but would once its link comes back: an
 * update that waits for slurmctld is dropped when its node sees fewer
 * than half the cluster alive (it is likely the one cut off). Legitimate
 * cascades (half the cluster dead, slurmctld reachable) are not affected:
 * the guard applies to retries only.
 *
 * Return: true if fewer than half of @members are alive.
 */
bool fs_sees_minority(const struct fs_member *members, size_t count);

/**
 * fs_designated() - the live member with the lowest id
 * @members: the table
 * @count: its entries
 * @skip: an id not to choose (the failed node), or 0
 *
 * Return: its id, or 0 when no member is alive.
 */
uint32_t fs_designated(const struct fs_member *members, size_t count,
		       uint32_t skip);

/**
 * fs_reason() - the Slurm reason for a failure
 * @buf: output
 * @size: its size
 * @failure: the failure
 * @observer: the observer's name (its ftnl node name, or "node N")
 *
 * "ftnl: observed dead by cn001 (incarnation 12)", "ftnl: left the
 * cluster (incarnation 12)", "ftnl: dead in ftnl's table (incarnation
 * 12)" when @failure->observer_id is 0 (read back from the table, the
 * observer unknown); always starting with FS_REASON_PREFIX.
 */
void fs_reason(char *buf, size_t size, const struct fs_failure *failure,
	       const char *observer);

/* Slurm's view of a node, as far as the policy needs it. */
struct fs_slurm_node {
	bool down;		/* base state DOWN */
	bool drain;		/* DRAIN flag (draining or drained) */
	const char *reason;	/* NULL or "" when none */
};

/**
 * fs_needs_update() - does @op change anything for a node in state @node?
 * @op: the wanted operation
 * @node: Slurm's current view
 *
 * DOWN and DRAIN are skipped when the node already is DOWN (any reason:
 * Slurm or an admin got there first, and their reason is kept), DRAIN
 * also when it is draining. RESUME is done only for a node that is DOWN
 * or draining with a reason ftnl-slurm wrote: an admin's own is never
 * undone.
 *
 * Return: true if the update is to be sent.
 */
bool fs_needs_update(enum fs_op op, const struct fs_slurm_node *node);

/**
 * fs_resume_wanted() - return a node ftnl sees alive to service?
 * @heard_incarnation: the incarnation this node's ftnl last heard from
 *	it (struct ftnl_node's), 0 if it never heard it
 * @node: Slurm's view of the node
 *
 * Only a node ftnl-slurm took out (fs_needs_update(FS_OP_RESUME)), and
 * only once this node has heard it in another life than the one the
 * reason names ("(incarnation N)"): a node just configured lists every
 * member alive before it heard any of them, and must not resume the
 * dead ones.
 *
 * Return: true if a RESUME is to be sent.
 */
bool fs_resume_wanted(uint64_t heard_incarnation, const struct fs_slurm_node *node);

/**
 * fs_read_first() - read the node's Slurm state before sending @op?
 * @policy: the admin's policy
 * @op: the operation
 *
 * A DOWN from the one actor (the observer) is sent at once: one RPC, the
 * shortest way to Slurm (were the node DOWN already, its reason becomes
 * ftnl's). A drain and a resume read first (an admin's own DOWN, DRAIN or
 * reason is kept), and so does every update with FS_ACTOR_EVERY, where
 * the other actors' updates must change nothing.
 *
 * Return: true if fs_needs_update() is to be asked first.
 */
bool fs_read_first(const struct fs_policy *policy, enum fs_op op);

/**
 * fs_error_is_transient() - is a libslurm error worth retrying?
 * @err: slurm_get_errno()'s value (or an errno)
 *
 * Return: true for failures to reach or hear slurmctld (it is restarting,
 * or its host is down); false for the rest (an unknown node name, a
 * permission refused), which retrying would not fix.
 */
bool fs_error_is_transient(int err);

/**
 * fs_backoff_ms() - the delay before retry @attempt (1, 2, ...)
 *
 * Return: 250 ms doubling up to 30 s.
 */
unsigned int fs_backoff_ms(unsigned int attempt);

/* This node's expulsion, as ftnl reported it (struct ftnl_event_expelled),
 * or as read back from its own entry (by_id 0, reason unknown). */
struct fs_expulsion {
	uint32_t by_id;		/* the member that told it; itself for quorum, deaf */
	uint32_t reason;	/* enum ftnl_expel_reason */
	bool reason_known;	/* false: read back from the table */
	uint64_t incarnation;	/* the life that is over */
};

/**
 * fs_expel_op() - the Slurm state an expelled node gives itself
 * @policy: the admin's policy (--on-expel)
 *
 * The cluster holds the node dead while it runs; ftnl's groups refuse it
 * (-ESTALE) until it is a member again. Its observer told Slurm DOWN
 * already when it could (then fs_needs_update() finds nothing to do);
 * when it could not (the node never spoke before it was declared dead:
 * fs_failure_reportable(); or slurmctld was not reachable from the
 * others), the node itself makes sure Slurm sends it no job meanwhile.
 *
 * Return: FS_OP_DRAIN (default), FS_OP_DOWN, or FS_OP_NONE.
 */
enum fs_op fs_expel_op(const struct fs_policy *policy);

/**
 * fs_expel_reason() - the Slurm reason of an expelled node for itself
 * @buf: output
 * @size: its size
 * @e: the expulsion
 * @by: the name of the member that told it (its ftnl node name, or "node N")
 *
 * "ftnl: expelled, told dead by cn003 (incarnation 12)", "ftnl: expelled,
 * its death broadcast (by cn003) (incarnation 12)", "ftnl: expelled itself,
 * lost the quorum (incarnation 12)", "ftnl: expelled itself, hears no
 * member (incarnation 12)", "ftnl: expelled (incarnation 12)" when read
 * back from the table; always starting with FS_EXPEL_REASON_PREFIX.
 */
void fs_expel_reason(char *buf, size_t size, const struct fs_expulsion *e, const char *by);

/**
 * fs_expel_comes_back() - does ftnl bring this node back by itself?
 * @e: the expulsion
 * @rejoin_auto: the cluster's rejoin policy is auto
 *
 * A node told it is dead (told, broadcast) comes back as a new
 * incarnation about 4d after its fence with rejoin auto; one that
 * expelled itself (quorum, deaf), or under rejoin manual, only once an
 * admin configures it again (a configuration event).
 *
 * Return: true if it comes back by itself.
 */
bool fs_expel_comes_back(const struct fs_expulsion *e, bool rejoin_auto);

/**
 * fs_expel_resume_wanted() - return this node to service, a member again?
 * @incarnation: this node's incarnation now (ftnl_cluster_info's), 0 if
 *	not configured
 * @node: Slurm's view of this node
 *
 * Only what this node did itself when it was expelled: DOWN or draining
 * with a reason starting with FS_EXPEL_REASON_PREFIX that names another
 * incarnation than the current one. An observer's DOWN ("ftnl: observed
 * dead") is --resume's business, an admin's reason is never undone.
 *
 * Return: true if a RESUME is to be sent.
 */
bool fs_expel_resume_wanted(uint64_t incarnation, const struct fs_slurm_node *node);

/**
 * fs_retry_dropped() - drop an update slurmctld did not take?
 * @op: the update
 * @attempts: the sends of it that failed so far
 * @minority: this node sees fewer than half the table alive
 * @about_self: the update is about this node itself (its expulsion)
 *
 * A DOWN of another node, retried while this node sees a minority alive,
 * is likely this node's own isolation speaking (fs_sees_minority()). An
 * update about itself is true whatever it sees: it is kept.
 *
 * Return: true if the update is dropped.
 */
bool fs_retry_dropped(enum fs_op op, unsigned int attempts, bool minority, bool about_self);

const char *fs_op_name(enum fs_op op);

#endif
