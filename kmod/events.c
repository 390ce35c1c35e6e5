// SPDX-License-Identifier: GPL-2.0
/*
 * Failure events: learned in softirq (timers, receive), multicast on the
 * "events" group from a work item, where allocating with GFP_KERNEL and
 * taking netlink locks is allowed. The heartbeat path never waits for it.
 *
 * Every event gets the netns's next sequence number and a slot in the
 * event history, a ring of the last FTNL_EVENT_HISTORY_LEN events that
 * FTNL_CMD_EVENT_GET dumps. The history is also the pending queue: the
 * work multicasts the events between the last one it sent and the newest,
 * so queueing never allocates. At most event_queue_len events wait; older
 * ones are skipped (counted as queue overflow) and stay in the history,
 * where a subscriber that sees the gap in the sequence numbers finds them.
 */

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>

#include "ftnl.h"

static unsigned int event_queue_len = FTNL_EVENT_HISTORY_LEN;

static int event_queue_len_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err;

	err = kstrtouint(val, 0, &n);
	if (err)
		return err;
	if (n > FTNL_EVENT_HISTORY_LEN)
		return -ERANGE;
	WRITE_ONCE(event_queue_len, n);
	return 0;
}

static const struct kernel_param_ops event_queue_len_ops = {
	.set = event_queue_len_set,
	.get = param_get_uint,
};

module_param_cb(event_queue_len, &event_queue_len_ops, &event_queue_len, 0644);
MODULE_PARM_DESC(event_queue_len,
		 "events waiting to be multicast, at most; older ones are skipped (counted, kept in the history). 0 to FTNL_EVENT_HISTORY_LEN (default), 0 multicasts nothing");

/*
 * Test only: the next N allocations on the event path fail, as they would
 * under memory pressure, so that a test can show that such a failure loses
 * no event (selftests/events.c). The path allocates only the notification
 * now; before events were written straight into the history it also
 * allocated each event's record.
 */
static atomic_t test_event_nomem = ATOMIC_INIT(0);

static int test_event_nomem_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err;

	err = kstrtouint(val, 0, &n);
	if (err)
		return err;
	if (n > 1000)
		return -ERANGE;
	atomic_set(&test_event_nomem, n);
	return 0;
}

static int test_event_nomem_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&test_event_nomem));
}

static const struct kernel_param_ops test_event_nomem_ops = {
	.set = test_event_nomem_set,
	.get = test_event_nomem_get,
};

module_param_cb(test_event_nomem, &test_event_nomem_ops, NULL, 0600);
MODULE_PARM_DESC(test_event_nomem,
		 "test only: the next N allocations on the event path (the notifications) fail as if out of memory (0 to 1000)");

/* Whether the test wants this allocation on the event path to fail. */
bool ftnl_event_test_nomem(void)
{
	return atomic_add_unless(&test_event_nomem, -1, 0);
}

/* The history slot of sequence number @seq. */
static struct ftnl_event_rec *ftnl_event_slot(struct ftnl_net *fn, u64 seq)
{
	return &fn->history[seq % FTNL_EVENT_HISTORY_LEN];
}

/* Oldest sequence number the history still holds, 1 when it holds all. */
static u64 ftnl_event_oldest(const struct ftnl_net *fn)
{
	lockdep_assert_held(&fn->events_lock);
	if (fn->event_seq < FTNL_EVENT_HISTORY_LEN)
		return 1;
	return fn->event_seq - FTNL_EVENT_HISTORY_LEN + 1;
}

static void ftnl_events_work(struct work_struct *work)
{
	struct ftnl_net *fn = container_of(work, struct ftnl_net, events_work);
	struct ftnl_event_rec rec;

	for (;;) {
		spin_lock_bh(&fn->events_lock);
		if (fn->notified_seq == fn->event_seq) {
			spin_unlock_bh(&fn->events_lock);
			return;
		}
		rec = *ftnl_event_slot(fn, ++fn->notified_seq);
		spin_unlock_bh(&fn->events_lock);
		ftnl_notify_event(read_pnet(&fn->net), &rec);
		cond_resched();
	}
}

/**
 * ftnl_event_publish - number a failure, keep it in the history and
 *	publish it on "events", soon
 * @fn: the netns that learned it
 * @cluster: the configuration it was learned in, or NULL when none is
 *	configured (a process death published on this node only: cluster
 *	id 0)
 * @cause: enum ftnl_event_cause
 * @node_id: the failed node, or the node of the exited process
 * @observer_id: the node that detected it
 * @what: what only the caller knows (the kind of event, an incarnation,
 *	a process's job and rank)
 *
 * The event is written straight into its history slot, stamped now.
 * Softirq or process context. Never allocates, so no event is lost for
 * want of memory.
 */
void ftnl_event_publish(struct ftnl_net *fn, const struct ftnl_cluster *cluster,
			u8 cause, u32 node_id, u32 observer_id,
			const struct ftnl_event_what *what)
{
	const struct ftnl_node *node = cluster ?
		ftnl_cluster_find(cluster, node_id) : NULL;
	u32 queue_len = READ_ONCE(event_queue_len);
	u64 mono_ns = ktime_get_ns();
	u64 real_ns = ktime_get_real_ns();
	struct ftnl_event_rec *rec;
	bool kick;

	spin_lock_bh(&fn->events_lock);
	if (likely(fn->history)) {
		rec = ftnl_event_slot(fn, ++fn->event_seq);
		memset(rec, 0, sizeof(*rec));
		rec->seq = fn->event_seq;
		rec->proc = what->proc;
		rec->joined = what->joined;
		rec->expelled = what->expelled;
		rec->expel_reason = what->expel_reason;
		if (cluster) {
			rec->cluster_id = cluster->cluster_id;
			rec->generation = cluster->generation;
		}
		rec->node_id = node_id;
		rec->incarnation = what->incarnation;
		rec->cause = cause;
		rec->observer_id = observer_id;
		rec->mono_ns = mono_ns;
		rec->real_ns = real_ns;
		rec->job = what->job;
		rec->rank = what->rank;
		if (node && node->name)
			strscpy(rec->node_name, node->name,
				sizeof(rec->node_name));
		rec->owner_uid = what->owner_uid;
		if (fn->event_seq - fn->notified_seq > queue_len) {
			atomic64_add(fn->event_seq - fn->notified_seq - queue_len,
				     &fn->events_queue_overflow);
			fn->notified_seq = fn->event_seq - queue_len;
		}
	} else {
		/* No configuration ever prepared it: cannot happen. */
		WARN_ON_ONCE(1);
		atomic64_inc(&fn->events_queue_overflow);
	}
	kick = fn->notified_seq != fn->event_seq;
	spin_unlock_bh(&fn->events_lock);
	if (kick)
		schedule_work(&fn->events_work);
}

/**
 * ftnl_events_prepare - allocate the event history, once per netns
 * @fn: the netns, about to take part (before its first configuration)
 *
 * Process context, may sleep.
 *
 * Return: 0 or -ENOMEM.
 */
int ftnl_events_prepare(struct ftnl_net *fn)
{
	struct ftnl_event_rec *history;

	if (READ_ONCE(fn->history))
		return 0;
	history = ftnl_counted(kvcalloc(FTNL_EVENT_HISTORY_LEN,
					sizeof(*history), GFP_KERNEL_ACCOUNT));
	if (!history)
		return -ENOMEM;
	spin_lock_bh(&fn->events_lock);
	if (!fn->history) {
		fn->history = history;
		history = NULL;
	}
	spin_unlock_bh(&fn->events_lock);
	ftnl_uncount(history);
	kvfree(history);
	return 0;
}

/**
 * ftnl_event_history_get - copy the event after @after from the history
 * @fn: the netns
 * @after: a sequence number; the event copied is the first one held that
 *	is newer
 * @rec: set to the event
 *
 * Return: 0, or -ENOENT when no newer event is held.
 */
int ftnl_event_history_get(struct ftnl_net *fn, u64 after,
			   struct ftnl_event_rec *rec)
{
	int err = -ENOENT;

	spin_lock_bh(&fn->events_lock);
	if (fn->history && after < fn->event_seq) {
		*rec = *ftnl_event_slot(fn, max(after + 1,
						 ftnl_event_oldest(fn)));
		err = 0;
	}
	spin_unlock_bh(&fn->events_lock);
	return err;
}

/* The last sequence number given to an event of @fn, 0 if none. */
u64 ftnl_event_last_seq(struct ftnl_net *fn)
{
	u64 seq;

	spin_lock_bh(&fn->events_lock);
	seq = fn->event_seq;
	spin_unlock_bh(&fn->events_lock);
	return seq;
}

void ftnl_events_init(struct ftnl_net *fn)
{
	spin_lock_init(&fn->events_lock);
	fn->history = NULL;
	fn->event_seq = 0;
	fn->notified_seq = 0;
	atomic64_set(&fn->events_queue_overflow, 0);
	atomic64_set(&fn->events_notify_failed, 0);
	INIT_WORK(&fn->events_work, ftnl_events_work);
}

/**
 * ftnl_events_flush - drop pending events and the history, wait for the
 *	work to finish
 * @fn: the netns state, whose ring is stopped (no new events)
 */
void ftnl_events_flush(struct ftnl_net *fn)
{
	cancel_work_sync(&fn->events_work);
	ftnl_uncount(fn->history);
	kvfree(fn->history);
	fn->history = NULL;
}
