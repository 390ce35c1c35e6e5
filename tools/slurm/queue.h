/* SPDX-License-Identifier: GPL-2.0 */
/*
 * queue.h - the Slurm updates ftnl-slurm has yet to send, as pure data:
 * no I/O, no clock, no lock (the caller holds one), so that its rules
 * are unit-tested.
 *
 * One thread reads ftnl's events and puts updates in; another sends them
 * to slurmctld, one at a time, and reports each one done or to retry.
 * Per node, at most one update is being sent and at most one waits: a
 * newer update for a node replaces the one waiting (the latest ftnl
 * knows is what Slurm must end with), and never overtakes the one being
 * sent. A failed send goes back to wait, unless something newer came
 * for that node meanwhile.
 */
#ifndef FTNL_SLURM_QUEUE_H
#define FTNL_SLURM_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy.h"

/* Nodes with an update pending at once; beyond, new ones are refused. */
#define FS_QUEUE_MAX 4096

/* One update, as queued and as handed to the sender (a copy). */
struct fs_update {
	enum fs_op op;
	char name[FS_NAME_MAX];
	char reason[FS_REASON_MAX];
	bool verify;		  /* read Slurm's state first, whatever the op */
	/* About this node itself: its expulsion (DRAIN or DOWN, kept
	 * whatever this node sees alive), or its return from one (RESUME,
	 * only if fs_expel_resume_wanted(incarnation)). */
	bool about_self;
	uint64_t incarnation;	  /* about_self: this node's incarnation now */
	uint64_t learned_real_ns; /* when ftnl learned it, 0 for a resync */
	uint64_t read_real_ns;	  /* when ftnl-slurm read ftnl's event */
	uint64_t queued_real_ns;  /* when it was queued */
	unsigned int attempts;	  /* sends that failed so far */
};

enum fs_slot_state {
	FS_SLOT_FREE,
	FS_SLOT_WAITING,	/* due at due_ms */
	FS_SLOT_SENDING,	/* handed to the sender */
};

struct fs_slot {
	enum fs_slot_state state;
	uint64_t due_ms;
	struct fs_update u;
};

struct fs_queue {
	struct fs_slot slots[FS_QUEUE_MAX];
	size_t sending;		/* slots being sent (one per sender) */
};

/**
 * fs_queue_put() - queue @u for its node, due at @now_ms
 * @q: the queue
 * @u: the update (copied); its attempts are reset
 * @now_ms: the monotonic time now
 *
 * Replaces the update waiting for that node, if any.
 * Return: 0; -ENOSPC when FS_QUEUE_MAX updates wait already.
 */
int fs_queue_put(struct fs_queue *q, const struct fs_update *u, uint64_t now_ms);

/**
 * fs_queue_take() - the next update to send, now
 * @q: the queue
 * @now_ms: the monotonic time now
 * @out: a copy of it
 *
 * The earliest due update, among those due by @now_ms whose node has no
 * update being sent; it is then being sent until fs_queue_done().
 * Return: true if one was taken.
 */
bool fs_queue_take(struct fs_queue *q, uint64_t now_ms, struct fs_update *out);

/**
 * fs_queue_done() - the sender is done with the update it took for @name
 * @q: the queue
 * @name: its node
 * @retry_at_ms: 0 when it is done with (sent, or given up); else when to
 *	send it again (it is dropped if a newer update for @name waits)
 *
 * Return: true if it was requeued for a retry.
 */
bool fs_queue_done(struct fs_queue *q, const char *name, uint64_t retry_at_ms);

/**
 * fs_queue_next_due() - when the sender has something to take
 * @q: the queue
 * @due_ms: set to the earliest due time of an update it could take
 *
 * Return: false when nothing waits (or only behind updates being sent).
 */
bool fs_queue_next_due(const struct fs_queue *q, uint64_t *due_ms);

/* Updates waiting or being sent. */
size_t fs_queue_count(const struct fs_queue *q);

#endif
