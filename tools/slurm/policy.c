// SPDX-License-Identifier: GPL-2.0
/*
 * policy.c - ftnl-slurm's rules: which state a failure calls for, which
 * node acts, the reason text, when an update is needed, what to retry.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ftnl.h>
#include <slurm/slurm_errno.h>

#include "policy.h"

enum fs_op fs_failure_op(const struct fs_policy *policy,
			 const struct fs_failure *failure)
{
	switch (failure->cause) {
	case FTNL_CAUSE_OBSERVED:
	case FTNL_CAUSE_BROADCAST:
	case FTNL_CAUSE_RESTARTED:
		return FS_OP_DOWN;
	case FTNL_CAUSE_LEAVE:
		switch (policy->on_leave) {
		case FS_LEAVE_DOWN:
			return FS_OP_DOWN;
		case FS_LEAVE_DRAIN:
			return FS_OP_DRAIN;
		case FS_LEAVE_IGNORE:
			return FS_OP_NONE;
		}
		return FS_OP_NONE;
	default:
		return FS_OP_NONE;
	}
}

bool fs_failure_reportable(const struct fs_failure *failure)
{
	return failure->cause == FTNL_CAUSE_LEAVE || failure->incarnation != 0;
}

bool fs_sees_minority(const struct fs_member *members, size_t count)
{
	size_t i, alive = 0;

	for (i = 0; i < count; i++)
		alive += members[i].alive;
	return 2 * alive < count;
}

uint32_t fs_designated(const struct fs_member *members, size_t count,
		       uint32_t skip)
{
	uint32_t best = 0;
	size_t i;

	for (i = 0; i < count; i++) {
		if (!members[i].alive || members[i].id == skip)
			continue;
		if (best == 0 || members[i].id < best)
			best = members[i].id;
	}
	return best;
}

bool fs_is_actor(const struct fs_policy *policy, uint32_t self_id,
		 const struct fs_failure *failure,
		 const struct fs_member *members, size_t count)
{
	if (self_id == 0 || self_id == failure->node_id)
		return false;
	if (policy->actor == FS_ACTOR_EVERY)
		return true;
	if (failure->observer_id != 0 && failure->observer_id != failure->node_id)
		return self_id == failure->observer_id;
	return self_id == fs_designated(members, count, failure->node_id);
}

void fs_reason(char *buf, size_t size, const struct fs_failure *failure,
	       const char *observer)
{
	switch (failure->cause) {
	case FTNL_CAUSE_LEAVE:
		snprintf(buf, size, FS_REASON_PREFIX " left the cluster (incarnation %" PRIu64 ")",
			 failure->incarnation);
		break;
	case FTNL_CAUSE_RESTARTED:
		snprintf(buf, size, FS_REASON_PREFIX " restarted, seen by %s (incarnation %" PRIu64 " ended)",
			 observer, failure->incarnation);
		break;
	default:
		if (failure->observer_id == 0) {
			/* Read back from ftnl's table (lost events, a restart of
			 * ftnl-slurm): who observed it is not known any more. */
			snprintf(buf, size, FS_REASON_PREFIX " dead in ftnl's table (incarnation %" PRIu64 ")",
				 failure->incarnation);
			break;
		}
		/* The actor is the observer: to it the cause is "observed". */
		snprintf(buf, size, FS_REASON_PREFIX " observed dead by %s (incarnation %" PRIu64 ")",
			 observer, failure->incarnation);
		break;
	}
}

static bool fs_reason_is_ours(const char *reason)
{
	return reason && strncmp(reason, FS_REASON_PREFIX, strlen(FS_REASON_PREFIX)) == 0;
}

/* The N of fs_reason()'s "(incarnation N" in @reason; false if none. */
static bool fs_reason_incarnation(const char *reason, uint64_t *incarnation)
{
	static const char tag[] = "(incarnation ";
	const char *p = reason ? strstr(reason, tag) : NULL;
	char *end;

	if (!p)
		return false;
	p += strlen(tag);
	if (*p < '0' || *p > '9')
		return false;
	errno = 0;
	*incarnation = strtoull(p, &end, 10);
	return errno == 0 && (*end == ')' || *end == ' ');
}

bool fs_needs_update(enum fs_op op, const struct fs_slurm_node *node)
{
	switch (op) {
	case FS_OP_DOWN:
		return !node->down;
	case FS_OP_DRAIN:
		return !node->down && !node->drain;
	case FS_OP_RESUME:
		return (node->down || node->drain) && fs_reason_is_ours(node->reason);
	case FS_OP_NONE:
		return false;
	}
	return false;
}

bool fs_resume_wanted(uint64_t heard_incarnation, const struct fs_slurm_node *node)
{
	uint64_t failed;

	if (!fs_needs_update(FS_OP_RESUME, node) || heard_incarnation == 0)
		return false;
	return !fs_reason_incarnation(node->reason, &failed) || failed != heard_incarnation;
}

enum fs_op fs_expel_op(const struct fs_policy *policy)
{
	switch (policy->on_expel) {
	case FS_EXPEL_DRAIN:
		return FS_OP_DRAIN;
	case FS_EXPEL_DOWN:
		return FS_OP_DOWN;
	case FS_EXPEL_IGNORE:
		return FS_OP_NONE;
	}
	return FS_OP_NONE;
}

void fs_expel_reason(char *buf, size_t size, const struct fs_expulsion *e, const char *by)
{
	if (!e->reason_known) {
		snprintf(buf, size, FS_EXPEL_REASON_PREFIX " (incarnation %" PRIu64 ")",
			 e->incarnation);
		return;
	}
	switch (e->reason) {
	case FTNL_EXPEL_TOLD:
		snprintf(buf, size, FS_EXPEL_REASON_PREFIX ", told dead by %s (incarnation %" PRIu64 ")",
			 by, e->incarnation);
		break;
	case FTNL_EXPEL_BROADCAST:
		snprintf(buf, size, FS_EXPEL_REASON_PREFIX ", its death broadcast (by %s) "
			 "(incarnation %" PRIu64 ")", by, e->incarnation);
		break;
	case FTNL_EXPEL_QUORUM:
		snprintf(buf, size, FS_EXPEL_REASON_PREFIX " itself, lost the quorum "
			 "(incarnation %" PRIu64 ")", e->incarnation);
		break;
	case FTNL_EXPEL_DEAF:
		snprintf(buf, size, FS_EXPEL_REASON_PREFIX " itself, hears no member "
			 "(incarnation %" PRIu64 ")", e->incarnation);
		break;
	default:
		snprintf(buf, size, FS_EXPEL_REASON_PREFIX " (incarnation %" PRIu64 ")",
			 e->incarnation);
		break;
	}
}

bool fs_expel_comes_back(const struct fs_expulsion *e, bool rejoin_auto)
{
	return rejoin_auto && e->reason_known &&
	       (e->reason == FTNL_EXPEL_TOLD || e->reason == FTNL_EXPEL_BROADCAST);
}

bool fs_expel_resume_wanted(uint64_t incarnation, const struct fs_slurm_node *node)
{
	uint64_t ended;

	if (incarnation == 0 || !(node->down || node->drain) || !node->reason ||
	    strncmp(node->reason, FS_EXPEL_REASON_PREFIX, strlen(FS_EXPEL_REASON_PREFIX)))
		return false;
	return fs_reason_incarnation(node->reason, &ended) && ended != incarnation;
}

bool fs_retry_dropped(enum fs_op op, unsigned int attempts, bool minority, bool about_self)
{
	return attempts > 0 && op == FS_OP_DOWN && minority && !about_self;
}

bool fs_read_first(const struct fs_policy *policy, enum fs_op op)
{
	return op != FS_OP_DOWN || policy->actor == FS_ACTOR_EVERY;
}

bool fs_error_is_transient(int err)
{
	switch (err) {
	case SLURM_COMMUNICATIONS_CONNECTION_ERROR:
	case SLURM_COMMUNICATIONS_SEND_ERROR:
	case SLURM_COMMUNICATIONS_RECEIVE_ERROR:
	case SLURM_COMMUNICATIONS_SHUTDOWN_ERROR:
	case SLURM_COMMUNICATIONS_MISSING_SOCKET_ERROR:
	case SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR:
	case SLURMCTLD_COMMUNICATIONS_SEND_ERROR:
	case SLURMCTLD_COMMUNICATIONS_RECEIVE_ERROR:
	case SLURMCTLD_COMMUNICATIONS_SHUTDOWN_ERROR:
	case SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT:
	case SLURM_PROTOCOL_SOCKET_ZERO_BYTES_SENT:
	case SLURM_PROTOCOL_AUTHENTICATION_ERROR: /* munged restarting */
	case ESLURM_IN_STANDBY_MODE:
	case ESLURM_IN_STANDBY_USE_BACKUP:
	case ECONNREFUSED:
	case ECONNRESET:
	case ETIMEDOUT:
	case EHOSTUNREACH:
	case ENETUNREACH:
	case EAGAIN:
	case EINTR:
		return true;
	default:
		return false;
	}
}

unsigned int fs_backoff_ms(unsigned int attempt)
{
	unsigned int ms = 250;

	while (attempt-- > 1 && ms < 30000)
		ms *= 2;
	return ms < 30000 ? ms : 30000;
}

const char *fs_op_name(enum fs_op op)
{
	switch (op) {
	case FS_OP_DOWN:
		return "DOWN";
	case FS_OP_DRAIN:
		return "DRAIN";
	case FS_OP_RESUME:
		return "RESUME";
	case FS_OP_NONE:
		break;
	}
	return "none";
}
