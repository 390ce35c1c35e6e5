// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-slurm's queue of Slurm updates (queue.c): one update per node
 * waiting and one being sent, a newer one replaces the waiting one and
 * never overtakes the one being sent, retries wait their backoff and give
 * way to anything newer, and a full queue refuses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "queue.h"
#include "tap.h"

static struct fs_update upd(const char *name, enum fs_op op, const char *reason)
{
	struct fs_update u = { .op = op };

	snprintf(u.name, sizeof(u.name), "%s", name);
	snprintf(u.reason, sizeof(u.reason), "%s", reason);
	return u;
}

static struct fs_queue *new_queue(void)
{
	struct fs_queue *q = calloc(1, sizeof(*q));

	if (!q)
		abort();
	return q;
}

static void test_fifo_by_due(const void *arg)
{
	struct fs_queue *q = new_queue();
	struct fs_update a = upd("cn1", FS_OP_DOWN, "r1"), b = upd("cn2", FS_OP_DRAIN, "r2");
	struct fs_update out;
	uint64_t due;

	(void)arg;
	TAP_CHECK(!fs_queue_next_due(q, &due));
	TAP_CHECK(!fs_queue_take(q, 100, &out));
	TAP_CHECK_INT(fs_queue_put(q, &a, 10), 0);
	TAP_CHECK_INT(fs_queue_put(q, &b, 20), 0);
	TAP_CHECK_UINT(fs_queue_count(q), 2);
	TAP_CHECK(fs_queue_next_due(q, &due));
	TAP_CHECK_UINT(due, 10);
	/* Not before it is due. */
	TAP_CHECK(!fs_queue_take(q, 9, &out));
	TAP_CHECK(fs_queue_take(q, 20, &out));
	TAP_CHECK_STR(out.name, "cn1");
	TAP_CHECK_STR(out.reason, "r1");
	TAP_CHECK(!fs_queue_done(q, "cn1", 0));
	TAP_CHECK(fs_queue_take(q, 20, &out));
	TAP_CHECK_STR(out.name, "cn2");
	TAP_CHECK_INT(out.op, FS_OP_DRAIN);
	TAP_CHECK(!fs_queue_done(q, "cn2", 0));
	TAP_CHECK_UINT(fs_queue_count(q), 0);
	TAP_CHECK(!fs_queue_next_due(q, &due));
	free(q);
}

/* Two events for one node before the sender ran: one update, the latest. */
static void test_coalesce_waiting(const void *arg)
{
	struct fs_queue *q = new_queue();
	struct fs_update a = upd("cn3", FS_OP_DRAIN, "left"), b = upd("cn3", FS_OP_DOWN, "dead");
	struct fs_update out;

	(void)arg;
	fs_queue_put(q, &a, 5);
	fs_queue_put(q, &b, 6);
	TAP_CHECK_UINT(fs_queue_count(q), 1);
	TAP_CHECK(fs_queue_take(q, 6, &out));
	TAP_CHECK_INT(out.op, FS_OP_DOWN);
	TAP_CHECK_STR(out.reason, "dead");
	fs_queue_done(q, "cn3", 0);
	TAP_CHECK(!fs_queue_take(q, 100, &out));
	free(q);
}

/* An update comes for a node whose previous one is being sent: it waits
 * behind it (Slurm must end with the newer), other nodes go on. */
static void test_no_overtaking(const void *arg)
{
	struct fs_queue *q = new_queue();
	struct fs_update a = upd("cn2", FS_OP_DOWN, "dead"), r = upd("cn2", FS_OP_RESUME, "");
	struct fs_update c = upd("cn4", FS_OP_DRAIN, "left"), out;
	uint64_t due;

	(void)arg;
	fs_queue_put(q, &a, 0);
	TAP_CHECK(fs_queue_take(q, 0, &out));
	TAP_CHECK_STR(out.name, "cn2");
	fs_queue_put(q, &r, 1);
	fs_queue_put(q, &c, 2);
	TAP_CHECK_UINT(fs_queue_count(q), 3);
	/* cn2's resume is not offered while cn2's DOWN is being sent. */
	TAP_CHECK(fs_queue_next_due(q, &due));
	TAP_CHECK_UINT(due, 2);
	/* (one sender: it takes nothing while sending; a second one would
	 * get cn4, never cn2) */
	TAP_CHECK(fs_queue_take(q, 5, &out));
	TAP_CHECK_STR(out.name, "cn4");
	fs_queue_done(q, "cn4", 0);
	TAP_CHECK(!fs_queue_take(q, 5, &out));
	/* The DOWN failed: the resume, newer, supersedes its retry. */
	TAP_CHECK(!fs_queue_done(q, "cn2", 1000));
	TAP_CHECK_UINT(fs_queue_count(q), 1);
	TAP_CHECK(fs_queue_take(q, 5, &out));
	TAP_CHECK_INT(out.op, FS_OP_RESUME);
	fs_queue_done(q, "cn2", 0);
	TAP_CHECK_UINT(fs_queue_count(q), 0);
	free(q);
}

static void test_retry(const void *arg)
{
	struct fs_queue *q = new_queue();
	struct fs_update a = upd("cn3", FS_OP_DOWN, "dead"), out;
	uint64_t due;

	(void)arg;
	a.learned_real_ns = 42;
	fs_queue_put(q, &a, 0);
	TAP_CHECK(fs_queue_take(q, 0, &out));
	TAP_CHECK_UINT(out.attempts, 0);
	TAP_CHECK(fs_queue_done(q, "cn3", 250));
	TAP_CHECK(fs_queue_next_due(q, &due));
	TAP_CHECK_UINT(due, 250);
	TAP_CHECK(!fs_queue_take(q, 249, &out));
	TAP_CHECK(fs_queue_take(q, 250, &out));
	TAP_CHECK_UINT(out.attempts, 1);
	TAP_CHECK_UINT(out.learned_real_ns, 42);
	TAP_CHECK(fs_queue_done(q, "cn3", 750));
	TAP_CHECK(fs_queue_take(q, 750, &out));
	TAP_CHECK_UINT(out.attempts, 2);
	TAP_CHECK(!fs_queue_done(q, "cn3", 0));
	/* Done with a node not being sent: nothing happens. */
	TAP_CHECK(!fs_queue_done(q, "cn3", 100));
	TAP_CHECK_UINT(fs_queue_count(q), 0);
	free(q);
}

/* A retry due later than a newer update for another node: the newer one
 * goes first (earliest due). */
static void test_retry_does_not_block(const void *arg)
{
	struct fs_queue *q = new_queue();
	struct fs_update a = upd("cn3", FS_OP_DOWN, "d3"), b = upd("cn5", FS_OP_DOWN, "d5"), out;

	(void)arg;
	fs_queue_put(q, &a, 0);
	TAP_CHECK(fs_queue_take(q, 0, &out));
	fs_queue_done(q, "cn3", 30000);
	fs_queue_put(q, &b, 10);
	TAP_CHECK(fs_queue_take(q, 10, &out));
	TAP_CHECK_STR(out.name, "cn5");
	free(q);
}

static void test_full(const void *arg)
{
	struct fs_queue *q = new_queue();
	struct fs_update u = upd("", FS_OP_DOWN, "dead"), out;
	size_t i;

	(void)arg;
	for (i = 0; i < FS_QUEUE_MAX; i++) {
		snprintf(u.name, sizeof(u.name), "cn%zu", i);
		if (fs_queue_put(q, &u, i))
			break;
	}
	TAP_CHECK_UINT(i, FS_QUEUE_MAX);
	TAP_CHECK_INT(fs_queue_put(q, &(struct fs_update){ .name = "extra" }, 0), -ENOSPC);
	/* A node already waiting is still replaced in a full queue. */
	snprintf(u.reason, sizeof(u.reason), "newer");
	TAP_CHECK_INT(fs_queue_put(q, &u, 0), 0);
	TAP_CHECK_UINT(fs_queue_count(q), FS_QUEUE_MAX);
	/* And a slot taken and done is free again. */
	TAP_CHECK(fs_queue_take(q, 0, &out));
	fs_queue_done(q, out.name, 0);
	TAP_CHECK_INT(fs_queue_put(q, &(struct fs_update){ .name = "extra" }, 0), 0);
	free(q);
}

int main(void)
{
	tap_add(test_fifo_by_due, NULL, "updates sent earliest due first, not before due");
	tap_add(test_coalesce_waiting, NULL, "a newer update for a node replaces the waiting one");
	tap_add(test_no_overtaking, NULL, "a node's update never overtakes the one being sent");
	tap_add(test_retry, NULL, "a failed send waits its backoff and keeps its times");
	tap_add(test_retry_does_not_block, NULL, "a retry does not hold back other nodes");
	tap_add(test_full, NULL, "a full queue refuses new nodes, still replaces");
	return tap_run();
}
