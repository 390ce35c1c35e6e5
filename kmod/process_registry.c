// SPDX-License-Identifier: GPL-2.0
/*
 * Registered processes: a process (an MPI rank, say) registers over its
 * netlink socket; when that socket is released without unregistering
 * (the process exited or crashed), the process is dead: the local event is
 * published and the death is broadcast like a node's. The kernel sees the
 * release, so no live process is ever suspected (ERA needs a perfect
 * detector).
 *
 * A registration belongs to its owner, the uid of the process that made it
 * (its netlink credentials): the owner travels with the death to every
 * node, so that a consumer takes a death only from the owner and node it
 * expects. One live registration per (owner, job, rank) on a node; at most
 * max_procs_per_user per owner and FTNL_MAX_PROCS in all, deaths waiting
 * for their broadcast included. Deaths are broadcast in batches (up to
 * FTNL_BCAST_MAX_DEATHS per broadcast), at most proc_exit_burst at once and
 * proc_exit_rate per second after that, so that a storm of exits is not a
 * storm of broadcasts.
 *
 * A node the cluster expelled (declared dead while it still ran) fences
 * its registered processes as the cluster's fence policy says: with
 * FTNL_FENCE_KILL, a work item SIGKILLs every one of them, so that a node
 * the others hold dead has no live process left (ULFM's "dead").
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uidgid.h>

#include "ftnl.h"
#include "ring/ring.h"

static unsigned int max_procs_per_user = 1024;
module_param(max_procs_per_user, uint, 0644);
MODULE_PARM_DESC(max_procs_per_user,
		 "registered processes one user may have on a node, deaths not yet broadcast included (default 1024)");

static unsigned int proc_exit_burst = 8;
module_param(proc_exit_burst, uint, 0644);
MODULE_PARM_DESC(proc_exit_burst,
		 "process-exit broadcasts a node may start at once (default 8)");

static unsigned int proc_exit_rate = 20;
module_param(proc_exit_rate, uint, 0644);
MODULE_PARM_DESC(proc_exit_rate,
		 "process-exit broadcasts per second a node starts after a burst (default 20); each carries up to 32 deaths");

/**
 * struct ftnl_proc - a process registered on this node, or its death
 *	waiting to be broadcast
 * @list: in ftnl_net.procs (alive) or ftnl_net.exits (dead)
 * @portid: its netlink socket
 * @owner: the uid that registered it
 * @job: its job id
 * @rank: its rank
 * @pid: the registering process (its thread group), for fencing
 */
struct ftnl_proc {
	struct list_head list;
	struct pid *pid;
	u32 portid;
	kuid_t owner;
	u64 job;
	u32 rank;
};

static void ftnl_exits_work(struct work_struct *work);
static void ftnl_fence_work(struct work_struct *work);

static void ftnl_proc_free(struct ftnl_proc *proc)
{
	put_pid(proc->pid);
	ftnl_uncount(proc);
	kfree(proc);
}

void ftnl_procs_init(struct ftnl_net *fn)
{
	spin_lock_init(&fn->procs_lock);
	INIT_LIST_HEAD(&fn->procs);
	INIT_LIST_HEAD(&fn->exits);
	fn->nprocs = 0;
	fn->nexits = 0;
	memset(&fn->exit_bucket, 0, sizeof(fn->exit_bucket));
	INIT_DELAYED_WORK(&fn->exits_work, ftnl_exits_work);
	INIT_WORK(&fn->fence_work, ftnl_fence_work);
}

static void ftnl_procs_free_list(struct list_head *head)
{
	struct ftnl_proc *proc, *tmp;

	list_for_each_entry_safe(proc, tmp, head, list) {
		list_del(&proc->list);
		ftnl_proc_free(proc);
	}
}

/* Every registration and every death not yet broadcast, dropped. */
static void ftnl_procs_clear(struct ftnl_net *fn)
{
	spin_lock_bh(&fn->procs_lock);
	ftnl_procs_free_list(&fn->procs);
	ftnl_procs_free_list(&fn->exits);
	fn->nprocs = 0;
	fn->nexits = 0;
	spin_unlock_bh(&fn->procs_lock);
}

/*
 * The netns is going away: its sockets, hence its processes, are gone, and
 * so is its cluster (no broadcast to make).
 */
void ftnl_procs_flush(struct ftnl_net *fn)
{
	cancel_delayed_work_sync(&fn->exits_work);
	cancel_work_sync(&fn->fence_work);
	ftnl_procs_clear(fn);
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

/* Registrations of @owner, alive or dead and not yet broadcast. */
static u32 ftnl_proc_count_owner(struct ftnl_net *fn, kuid_t owner)
{
	struct ftnl_proc *proc;
	u32 n = 0;

	lockdep_assert_held(&fn->procs_lock);
	list_for_each_entry(proc, &fn->procs, list)
		n += uid_eq(proc->owner, owner);
	list_for_each_entry(proc, &fn->exits, list)
		n += uid_eq(proc->owner, owner);
	return n;
}

static bool ftnl_proc_live(struct ftnl_net *fn, kuid_t owner, u64 job,
			   u32 rank)
{
	struct ftnl_proc *proc;

	lockdep_assert_held(&fn->procs_lock);
	list_for_each_entry(proc, &fn->procs, list)
		if (uid_eq(proc->owner, owner) && proc->job == job &&
		    proc->rank == rank)
			return true;
	return false;
}

/**
 * ftnl_proc_register - register the process behind netlink port @portid
 * @fn: the node
 * @portid: the registering socket
 * @owner: the registering process's uid
 * @job: job id
 * @rank: rank in the job
 * @why: set to the reason of a refusal
 *
 * Return: 0, -EEXIST (this socket is registered, or @owner has a live
 * registration of (@job, @rank) here), -ENOSPC (FTNL_MAX_PROCS reached),
 * -EDQUOT (@owner has max_procs_per_user) or -ENOMEM.
 */
int ftnl_proc_register(struct ftnl_net *fn, u32 portid, kuid_t owner,
		       u64 job, u32 rank, const char **why)
{
	struct ftnl_proc *proc;
	int err = 0;

	proc = ftnl_counted(kzalloc(sizeof(*proc), GFP_KERNEL_ACCOUNT));
	if (!proc) {
		*why = "out of memory for the registration";
		return -ENOMEM;
	}
	proc->portid = portid;
	proc->owner = owner;
	proc->job = job;
	proc->rank = rank;
	/* Process context: the registering process is current. */
	proc->pid = get_task_pid(current, PIDTYPE_TGID);

	spin_lock_bh(&fn->procs_lock);
	if (ftnl_proc_find(fn, portid)) {
		*why = "this socket already registered a process";
		err = -EEXIST;
	} else if (ftnl_proc_live(fn, owner, job, rank)) {
		*why = "this rank of this job is already registered by this user on this node";
		err = -EEXIST;
	} else if (fn->nprocs + fn->nexits >= FTNL_MAX_PROCS) {
		*why = "too many registered processes on this node";
		err = -ENOSPC;
	} else if (ftnl_proc_count_owner(fn, owner) >=
		   READ_ONCE(max_procs_per_user)) {
		*why = "this user has max_procs_per_user registered processes on this node";
		err = -EDQUOT;
	}
	if (!err) {
		list_add_tail(&proc->list, &fn->procs);
		fn->nprocs++;
	}
	spin_unlock_bh(&fn->procs_lock);
	if (err)
		ftnl_proc_free(proc);
	return err;
}

/* A clean exit: the registration ends without a death. */
int ftnl_proc_unregister(struct ftnl_net *fn, u32 portid)
{
	struct ftnl_proc *proc;

	spin_lock_bh(&fn->procs_lock);
	proc = ftnl_proc_find(fn, portid);
	if (proc) {
		list_del(&proc->list);
		fn->nprocs--;
	}
	spin_unlock_bh(&fn->procs_lock);
	if (!proc)
		return -ENOENT;
	ftnl_proc_free(proc);
	return 0;
}

/**
 * ftnl_proc_snapshot - the @index-th registered process @only may see, for
 *	dumps
 * @fn: the node
 * @index: position in registration order among those visible
 * @only: the owner whose registrations are visible, NULL for all
 * @info: set to the registration
 *
 * Return: 0, or -ENOENT past the last one.
 */
int ftnl_proc_snapshot(struct ftnl_net *fn, u32 index, const kuid_t *only,
		       struct ftnl_proc_info *info)
{
	struct ftnl_proc *proc;
	int err = -ENOENT;

	spin_lock_bh(&fn->procs_lock);
	list_for_each_entry(proc, &fn->procs, list) {
		if (only && !uid_eq(proc->owner, *only))
			continue;
		if (index--)
			continue;
		info->job = proc->job;
		info->rank = proc->rank;
		info->portid = proc->portid;
		info->owner = proc->owner;
		err = 0;
		break;
	}
	spin_unlock_bh(&fn->procs_lock);
	return err;
}

/*
 * Broadcast waiting deaths, as the token bucket allows: each token starts
 * one broadcast of up to FTNL_BCAST_MAX_DEATHS deaths, whatever the
 * algorithm. Runs again when the next token is due.
 */
static void ftnl_exits_work(struct work_struct *work)
{
	struct ftnl_net *fn = container_of(to_delayed_work(work),
					   struct ftnl_net, exits_work);
	struct ftnl_proc_exit *batch = fn->exit_batch;
	struct ftnl_cluster *cluster;
	struct ftnl_proc *proc, *tmp;
	u32 n;
	u64 wait;

	BUILD_BUG_ON(FTNL_PROC_EXIT_BATCH != FTNL_BCAST_MAX_DEATHS);
	for (;;) {
		rcu_read_lock();
		cluster = rcu_dereference(fn->cluster);
		spin_lock_bh(&fn->procs_lock);
		if (!cluster) {
			/* Nobody to tell: their local events are out. */
			ftnl_procs_free_list(&fn->exits);
			fn->nexits = 0;
		}
		if (list_empty(&fn->exits)) {
			spin_unlock_bh(&fn->procs_lock);
			rcu_read_unlock();
			return;
		}
		if (!ftnl_tbucket_take(&fn->exit_bucket, ktime_get_ns(),
				       READ_ONCE(proc_exit_burst),
				       READ_ONCE(proc_exit_rate))) {
			wait = ftnl_tbucket_wait_ns(&fn->exit_bucket,
						    ktime_get_ns(),
						    READ_ONCE(proc_exit_burst),
						    READ_ONCE(proc_exit_rate));
			spin_unlock_bh(&fn->procs_lock);
			rcu_read_unlock();
			schedule_delayed_work(&fn->exits_work,
					      nsecs_to_jiffies(wait) + 1);
			return;
		}
		n = 0;
		list_for_each_entry_safe(proc, tmp, &fn->exits, list) {
			if (n == FTNL_BCAST_MAX_DEATHS)
				break;
			batch[n].job = proc->job;
			batch[n].rank = proc->rank;
			batch[n].owner_uid = from_kuid_munged(&init_user_ns,
							      proc->owner);
			n++;
			list_del(&proc->list);
			fn->nexits--;
			ftnl_proc_free(proc);
		}
		spin_unlock_bh(&fn->procs_lock);
		ftnl_ring_proc_exited(cluster->ring, batch, n);
		rcu_read_unlock();
		cond_resched();
	}
}

/*
 * A node that comes back as a new incarnation: the registrations of the
 * ended life end with it, without a broadcast (the cluster holds every
 * process of that life dead with the node) - also deaths still waiting
 * for theirs. Their processes stay fenced: told (libftnl's groups answer
 * -ESTALE), or killed; they register anew in the new life.
 */
static void ftnl_procs_forget(struct ftnl_net *fn)
{
	struct ftnl_cluster *cluster;

	ftnl_procs_clear(fn);
	rcu_read_lock();
	cluster = rcu_dereference(fn->cluster);
	if (cluster)
		ftnl_ring_fenced(cluster->ring);
	rcu_read_unlock();
}

static void ftnl_fence_work(struct work_struct *work)
{
	struct ftnl_net *fn = container_of(work, struct ftnl_net, fence_work);
	struct ftnl_proc *proc;
	u32 killed = 0;

	if (READ_ONCE(fn->fence_kill)) {
		spin_lock_bh(&fn->procs_lock);
		list_for_each_entry(proc, &fn->procs, list)
			if (proc->pid && !kill_pid(proc->pid, SIGKILL, 1))
				killed++;
		spin_unlock_bh(&fn->procs_lock);
		pr_notice("expelled: fence kill: %u registered processes killed\n",
			  killed);
	}
	if (READ_ONCE(fn->fence_comeback))
		ftnl_procs_forget(fn);
}

/**
 * ftnl_procs_expelled - this node was expelled: fence its processes
 * @fn: the node
 * @kill: the fence policy is FTNL_FENCE_KILL
 * @comeback: the node comes back as a new incarnation once fenced
 *
 * They learn it from FTNL_CMD_EXPELLED_NTF (libftnl's groups then fail
 * with -ESTALE); with @kill they are also SIGKILLed, from a work item
 * (process context), which also forgets them and tells the ring when the
 * node is to come back (ftnl_ring_fenced()). Any context.
 */
void ftnl_procs_expelled(struct ftnl_net *fn, bool kill, bool comeback)
{
	WRITE_ONCE(fn->fence_kill, kill);
	WRITE_ONCE(fn->fence_comeback, comeback);
	if (kill || comeback)
		schedule_work(&fn->fence_work);
}

/* Publish @proc's death here; its broadcast is queued (it is on exits). */
static void ftnl_proc_died(struct ftnl_net *fn, u64 job, u32 rank,
			   kuid_t owner)
{
	const struct ftnl_event_what what = {
		.proc = true,
		.job = job,
		.rank = rank,
		.owner_uid = from_kuid_munged(&init_user_ns, owner),
	};
	struct ftnl_cluster *cluster;
	u32 self_id;

	rcu_read_lock();
	cluster = rcu_dereference(fn->cluster);
	self_id = cluster ? cluster->self_id : 0;
	ftnl_event_publish(fn, cluster, FTNL_CAUSE_OBSERVED, self_id, self_id,
			   &what);
	rcu_read_unlock();
	schedule_delayed_work(&fn->exits_work, 0);
}

static int ftnl_proc_netlink_event(struct notifier_block *nb,
				   unsigned long event, void *ptr)
{
	struct netlink_notify *notify = ptr;
	struct ftnl_net *fn;
	struct ftnl_proc *proc;
	kuid_t owner;
	u64 job;
	u32 rank;

	if (event != NETLINK_URELEASE || notify->protocol != NETLINK_GENERIC ||
	    !notify->portid)
		return NOTIFY_DONE;
	fn = ftnl_net(notify->net);
	spin_lock_bh(&fn->procs_lock);
	proc = ftnl_proc_find(fn, notify->portid);
	if (proc) {
		/* Its registration slot is held until the broadcast. */
		list_move_tail(&proc->list, &fn->exits);
		fn->nprocs--;
		fn->nexits++;
		job = proc->job;
		rank = proc->rank;
		owner = proc->owner;
	}
	spin_unlock_bh(&fn->procs_lock);
	if (proc)
		ftnl_proc_died(fn, job, rank, owner);
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
