// SPDX-License-Identifier: GPL-2.0
/*
 * Registered processes: a process (an MPI rank, say) registers over its
 * netlink socket; when that socket is released without unregistering
 * (the process exited or crashed), the process is dead: the local event is
 * published and the death is broadcast like a node's. The kernel sees the
 * release, so no live process is ever suspected (ERA needs a perfect
 * detector).
 */

#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/slab.h>

#include "ftnl.h"
#include "ring/ring.h"

/**
 * struct ftnl_proc - a process registered on this node
 * @list: in ftnl_net.procs
 * @portid: its netlink socket
 * @job: its job id
 * @rank: its rank
 */
struct ftnl_proc {
	struct list_head list;
	u32 portid;
	u64 job;
	u32 rank;
};

void ftnl_procs_init(struct ftnl_net *fn)
{
	spin_lock_init(&fn->procs_lock);
	INIT_LIST_HEAD(&fn->procs);
	fn->nprocs = 0;
}

/* The netns is going away: its sockets, hence its processes, are gone. */
void ftnl_procs_flush(struct ftnl_net *fn)
{
	struct ftnl_proc *proc, *tmp;

	spin_lock_bh(&fn->procs_lock);
	list_for_each_entry_safe(proc, tmp, &fn->procs, list) {
		list_del(&proc->list);
		kfree(proc);
	}
	fn->nprocs = 0;
	spin_unlock_bh(&fn->procs_lock);
}

static struct ftnl_proc *ftnl_proc_find(struct ftnl_net *fn, u32 portid)
{
	struct ftnl_proc *proc;

	lockdep_assert_held(&fn->procs_lock);
	list_for_each_entry(proc, &fn->procs, list)
		if (proc->portid == portid)
			return proc;
	return NULL;
}

/**
 * ftnl_proc_register - register the process behind netlink port @portid
 * @fn: the node
 * @portid: the registering socket
 * @job: job id
 * @rank: rank in the job
 *
 * Return: 0, -EEXIST (this socket is registered), -ENOSPC (FTNL_MAX_PROCS
 * reached) or -ENOMEM.
 */
int ftnl_proc_register(struct ftnl_net *fn, u32 portid, u64 job, u32 rank)
{
	struct ftnl_proc *proc;
	int err = 0;

	proc = kzalloc(sizeof(*proc), GFP_KERNEL_ACCOUNT);
	if (!proc)
		return -ENOMEM;
	proc->portid = portid;
	proc->job = job;
	proc->rank = rank;

	spin_lock_bh(&fn->procs_lock);
	if (ftnl_proc_find(fn, portid))
		err = -EEXIST;
	else if (fn->nprocs >= FTNL_MAX_PROCS)
		err = -ENOSPC;
	if (!err) {
		list_add_tail(&proc->list, &fn->procs);
		fn->nprocs++;
	}
	spin_unlock_bh(&fn->procs_lock);
	if (err)
		kfree(proc);
	return err;
}

static struct ftnl_proc *ftnl_proc_take(struct ftnl_net *fn, u32 portid)
{
	struct ftnl_proc *proc;

	spin_lock_bh(&fn->procs_lock);
	proc = ftnl_proc_find(fn, portid);
	if (proc) {
		list_del(&proc->list);
		fn->nprocs--;
	}
	spin_unlock_bh(&fn->procs_lock);
	return proc;
}

/* A clean exit: the registration ends without a death. */
int ftnl_proc_unregister(struct ftnl_net *fn, u32 portid)
{
	struct ftnl_proc *proc = ftnl_proc_take(fn, portid);

	if (!proc)
		return -ENOENT;
	kfree(proc);
	return 0;
}

/**
 * ftnl_proc_snapshot - the @index-th registered process, for dumps
 * @fn: the node
 * @index: position in registration order
 * @job: set to its job
 * @rank: set to its rank
 * @portid: set to its socket's port
 *
 * Return: 0, or -ENOENT past the last one.
 */
int ftnl_proc_snapshot(struct ftnl_net *fn, u32 index, u64 *job, u32 *rank,
		       u32 *portid)
{
	struct ftnl_proc *proc;
	int err = -ENOENT;

	spin_lock_bh(&fn->procs_lock);
	list_for_each_entry(proc, &fn->procs, list) {
		if (index--)
			continue;
		*job = proc->job;
		*rank = proc->rank;
		*portid = proc->portid;
		err = 0;
		break;
	}
	spin_unlock_bh(&fn->procs_lock);
	return err;
}

static void ftnl_proc_died(struct ftnl_net *fn, const struct ftnl_proc *proc)
{
	struct ftnl_cluster *cluster;
	struct ftnl_event_rec *rec;
	u32 self_id;

	rcu_read_lock();
	cluster = rcu_dereference(fn->cluster);
	self_id = cluster ? cluster->self_id : 0;
	rec = ftnl_event_new(cluster, FTNL_CAUSE_OBSERVED, self_id, self_id);
	if (rec) {
		rec->proc = true;
		rec->job = proc->job;
		rec->rank = proc->rank;
		ftnl_event_queue(fn, rec);
	}
	if (cluster)
		ftnl_ring_proc_exited(cluster->ring, proc->job, proc->rank,
				      !rec);
	rcu_read_unlock();
}

static int ftnl_proc_netlink_event(struct notifier_block *nb,
				   unsigned long event, void *ptr)
{
	struct netlink_notify *notify = ptr;
	struct ftnl_proc *proc;

	if (event != NETLINK_URELEASE || notify->protocol != NETLINK_GENERIC ||
	    !notify->portid)
		return NOTIFY_DONE;
	proc = ftnl_proc_take(ftnl_net(notify->net), notify->portid);
	if (proc) {
		ftnl_proc_died(ftnl_net(notify->net), proc);
		kfree(proc);
	}
	return NOTIFY_DONE;
}

static struct notifier_block ftnl_proc_notifier = {
	.notifier_call = ftnl_proc_netlink_event,
};

int ftnl_proc_notifier_register(void)
{
	return netlink_register_notifier(&ftnl_proc_notifier);
}

void ftnl_proc_notifier_unregister(void)
{
	netlink_unregister_notifier(&ftnl_proc_notifier);
}
