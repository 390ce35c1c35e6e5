// SPDX-License-Identifier: GPL-2.0
/*
 * Failure events: learned in softirq (timers, receive), multicast on the
 * "events" group from a work item, where allocating with GFP_KERNEL and
 * taking netlink locks is allowed. The heartbeat path never waits for it.
 */

#include <linux/slab.h>

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
