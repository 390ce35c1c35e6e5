// SPDX-License-Identifier: GPL-2.0
/*
 * Failure events: learned in softirq (timers, receive), multicast on the
 * "events" group from a work item, where allocating with GFP_KERNEL and
 * taking netlink locks is allowed. The heartbeat path never waits for it.
 */

#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "ftnl.h"

static void ftnl_events_work(struct work_struct *work)
{
	struct ftnl_net *fn = container_of(work, struct ftnl_net, events_work);
	struct ftnl_event_rec *rec, *tmp;
	LIST_HEAD(batch);

	spin_lock_bh(&fn->events_lock);
	list_splice_init(&fn->events, &batch);
	spin_unlock_bh(&fn->events_lock);

	list_for_each_entry_safe(rec, tmp, &batch, list) {
		ftnl_notify_event(read_pnet(&fn->net), rec);
		list_del(&rec->list);
		kfree(rec);
	}
}

/**
 * ftnl_event_new - the one constructor of a failure event, stamped now
 * @cluster: the configuration it was learned in, or NULL when none is
 *	configured (a process death published on this node only: cluster
 *	id 0)
 * @cause: enum ftnl_event_cause
 * @node_id: the failed node, or the node of the exited process
 * @observer_id: the node that detected it
 *
 * The caller fills in what only it knows (the incarnation of a node, or
 * the job and rank of a process) and hands the record to
 * ftnl_event_queue(). Any context: allocates with GFP_ATOMIC.
 *
 * Return: the record, or NULL without memory (the caller counts the lost
 * event).
 */
struct ftnl_event_rec *ftnl_event_new(const struct ftnl_cluster *cluster,
				      u8 cause, u32 node_id, u32 observer_id)
{
	const struct ftnl_node *node;
	struct ftnl_event_rec *rec;

	rec = kzalloc(sizeof(*rec), GFP_ATOMIC);
	if (!rec)
		return NULL;
	if (cluster) {
		rec->cluster_id = cluster->cluster_id;
		rec->generation = cluster->generation;
		node = ftnl_cluster_find(cluster, node_id);
		if (node && node->name)
			strscpy(rec->node_name, node->name,
				sizeof(rec->node_name));
	}
	rec->node_id = node_id;
	rec->cause = cause;
	rec->observer_id = observer_id;
	rec->mono_ns = ktime_get_ns();
	rec->real_ns = ktime_get_real_ns();
	return rec;
}

/**
 * ftnl_event_queue - publish a failure on "events", soon
 * @fn: the netns that learned it
 * @rec: the event, kmalloc'ed; ownership passes here
 *
 * Softirq or process context.
 */
void ftnl_event_queue(struct ftnl_net *fn, struct ftnl_event_rec *rec)
{
	spin_lock_bh(&fn->events_lock);
	list_add_tail(&rec->list, &fn->events);
	spin_unlock_bh(&fn->events_lock);
	schedule_work(&fn->events_work);
}

void ftnl_events_init(struct ftnl_net *fn)
{
	spin_lock_init(&fn->events_lock);
	INIT_LIST_HEAD(&fn->events);
	INIT_WORK(&fn->events_work, ftnl_events_work);
}

/**
 * ftnl_events_flush - drop pending events, wait for the work to finish
 * @fn: the netns state, whose ring is stopped (no new events)
 */
void ftnl_events_flush(struct ftnl_net *fn)
{
	struct ftnl_event_rec *rec, *tmp;

	cancel_work_sync(&fn->events_work);
	list_for_each_entry_safe(rec, tmp, &fn->events, list) {
		list_del(&rec->list);
		kfree(rec);
	}
}
