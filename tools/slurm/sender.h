/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sender.h - ftnl-slurm's second thread: it sends the queued Slurm
 * updates (queue.h) to slurmctld, one RPC at a time, and retries those
 * slurmctld did not take. An RPC can wait for slurmctld for seconds
 * (MessageTimeout, a restart): meanwhile the main thread goes on reading
 * ftnl's events and queueing updates. Every libslurm call is made here.
 */
#ifndef FTNL_SLURM_SENDER_H
#define FTNL_SLURM_SENDER_H

#include <pthread.h>
#include <stdbool.h>

#include "policy.h"
#include "queue.h"

/* A node ftnl sees alive, and the incarnation this node heard from it. */
struct fs_alive {
	char name[FS_NAME_MAX];
	uint64_t incarnation;
};

struct fs_sender {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;	/* on CLOCK_MONOTONIC */
	/* under lock: */
	struct fs_queue queue;
	bool stop;
	bool minority;		/* this node sees fewer than half alive */
	bool resync_pending;
	uint64_t resync_due_ms;
	struct fs_alive *resync_alive;	/* ftnl's live nodes */
	size_t resync_count;
	/* set before the thread starts: */
	struct fs_policy policy;
	bool dry_run;
	int verbose;
};

/**
 * fs_sender_start() - start the sending thread
 * @s: zeroed, with policy, dry_run and verbose set
 * Return: 0 or a positive error number.
 */
int fs_sender_start(struct fs_sender *s);

/* Stops it: an RPC in progress is finished first. */
void fs_sender_stop(struct fs_sender *s);

/* Queues @u (queue.h's rules: it replaces the update waiting for its node). */
void fs_sender_put(struct fs_sender *s, const struct fs_update *u);

/* What the main thread's view says, for the next retry of a DOWN. */
void fs_sender_set_minority(struct fs_sender *s, bool minority);

/**
 * fs_sender_resync() - return to service what ftnl sees alive again
 * @s: the sender
 * @alive: the nodes ftnl sees alive (malloc'd, taken over)
 * @count: entries
 *
 * One request reads every node's Slurm state; each node of @alive that
 * fs_resume_wanted() (DOWN or draining with ftnl-slurm's reason, heard
 * in a new life) gets a RESUME queued. Replaces a resync not yet done.
 */
void fs_sender_resync(struct fs_sender *s, struct fs_alive *alive, size_t count);

#endif
