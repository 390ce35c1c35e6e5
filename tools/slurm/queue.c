// SPDX-License-Identifier: GPL-2.0
/*
 * queue.c - ftnl-slurm's pending Slurm updates (queue.h has the rules).
 * A linear scan of a fixed table: a cluster's failures are few, and the
 * table's size bounds the daemon's memory whatever the events.
 */
#include <errno.h>
#include <string.h>

#include "queue.h"

static struct fs_slot *fs_queue_find(struct fs_queue *q, const char *name,
				     enum fs_slot_state state)
{
	size_t i;

	for (i = 0; i < FS_QUEUE_MAX; i++) {
		struct fs_slot *s = &q->slots[i];

		if (s->state == state && strcmp(s->u.name, name) == 0)
			return s;
	}
	return NULL;
}

static struct fs_slot *fs_queue_free_slot(struct fs_queue *q)
{
	size_t i;

	for (i = 0; i < FS_QUEUE_MAX; i++)
		if (q->slots[i].state == FS_SLOT_FREE)
			return &q->slots[i];
	return NULL;
}

int fs_queue_put(struct fs_queue *q, const struct fs_update *u, uint64_t now_ms)
{
	struct fs_slot *s = fs_queue_find(q, u->name, FS_SLOT_WAITING);

	if (!s)
		s = fs_queue_free_slot(q);
	if (!s)
		return -ENOSPC;
	s->state = FS_SLOT_WAITING;
	s->due_ms = now_ms;
	s->u = *u;
	s->u.attempts = 0;
	return 0;
}

/* May @s be taken: waiting, and its node not being sent already? */
static bool fs_queue_ready(const struct fs_queue *q, const struct fs_slot *s)
{
	size_t i;

	if (s->state != FS_SLOT_WAITING)
		return false;
	if (q->sending == 0)
		return true;
	for (i = 0; i < FS_QUEUE_MAX; i++)
		if (q->slots[i].state == FS_SLOT_SENDING &&
		    strcmp(q->slots[i].u.name, s->u.name) == 0)
			return false;
	return true;
}

static struct fs_slot *fs_queue_earliest(const struct fs_queue *q)
{
	const struct fs_slot *best = NULL;
	size_t i;

	for (i = 0; i < FS_QUEUE_MAX; i++) {
		const struct fs_slot *s = &q->slots[i];

		if (s->state != FS_SLOT_WAITING || (best && s->due_ms >= best->due_ms))
			continue;
		if (fs_queue_ready(q, s))
			best = s;
	}
	return (struct fs_slot *)best;
}

bool fs_queue_take(struct fs_queue *q, uint64_t now_ms, struct fs_update *out)
{
	struct fs_slot *s = fs_queue_earliest(q);

	if (!s || s->due_ms > now_ms)
		return false;
	s->state = FS_SLOT_SENDING;
	q->sending++;
	*out = s->u;
	return true;
}

bool fs_queue_done(struct fs_queue *q, const char *name, uint64_t retry_at_ms)
{
	struct fs_slot *s = fs_queue_find(q, name, FS_SLOT_SENDING);

	if (!s)
		return false;
	q->sending--;
	if (retry_at_ms == 0 || fs_queue_find(q, name, FS_SLOT_WAITING)) {
		s->state = FS_SLOT_FREE;
		return false;
	}
	s->state = FS_SLOT_WAITING;
	s->due_ms = retry_at_ms;
	s->u.attempts++;
	return true;
}

bool fs_queue_next_due(const struct fs_queue *q, uint64_t *due_ms)
{
	const struct fs_slot *s = fs_queue_earliest(q);

	if (!s)
		return false;
	*due_ms = s->due_ms;
	return true;
}

size_t fs_queue_count(const struct fs_queue *q)
{
	size_t i, n = 0;

	for (i = 0; i < FS_QUEUE_MAX; i++)
		n += q->slots[i].state != FS_SLOT_FREE;
	return n;
}
