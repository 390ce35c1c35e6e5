// SPDX-License-Identifier: GPL-2.0
/*
 * Per network namespace state. Every netns is one ftnl node, so that one
 * kernel can host a whole test cluster.
 */

#include <linux/module.h>
#include <linux/timekeeping.h>
#include <net/netns/generic.h>

#include "ftnl.h"

static unsigned int ftnl_net_id __read_mostly;
/* The largest incarnation this module gave, to any netns. */
static atomic64_t ftnl_last_incarnation = ATOMIC64_INIT(0);
/* Every netns has its ftnl_net: set and cleared under kernel_param_lock. */
static bool ftnl_netns_up;

struct ftnl_net *ftnl_net(const struct net *net)
{
	return net_generic(net, ftnl_net_id);
}

/**
 * ftnl_new_incarnation - a new life for this node
 * @previous: the incarnation it ends, or a floor it must exceed (0: none)
 *
 * The wall clock in nanoseconds, but never below @previous + 1 nor below
 * any incarnation this module gave before, plus one: within one load of
 * the module a clock set back (NTP, an admin) gives no smaller life.
 * Across a reboot the wall clock alone may: the floor a node keeps on
 * disk (FTNL_A_INCARNATION_FLOOR) bounds it, and on a node without one
 * the ring renews a life found below one the members knew, as the same
 * life under a new name (ftnl_ring_core_renew()).
 */
u64 ftnl_new_incarnation(u64 previous)
{
	u64 last = atomic64_read(&ftnl_last_incarnation);
	u64 inc;

	for (;;) {
		u64 was;

		inc = max3(ktime_get_real_ns(), previous + 1, last + 1);
		was = atomic64_cmpxchg(&ftnl_last_incarnation, last, inc);
		if (was == last)
			return inc;
		last = was;
	}
}

static int __net_init ftnl_net_init(struct net *net)
{
	struct ftnl_net *fn = ftnl_net(net);

	write_pnet(&fn->net, net);
	mutex_init(&fn->lock);
	RCU_INIT_POINTER(fn->cluster, NULL);
	fn->generation = 0;
	fn->incarnation = ftnl_new_incarnation(0);
	fn->first = fn->incarnation;
	ftnl_events_init(fn);
	ftnl_procs_init(fn);
	return 0;
}

static void __net_exit ftnl_net_exit(struct net *net)
{
	struct ftnl_net *fn = ftnl_net(net);

	mutex_lock(&fn->lock);
	ftnl_cluster_replace(fn, NULL);
	mutex_unlock(&fn->lock);
	ftnl_events_flush(fn);
	ftnl_procs_flush(fn);
	mutex_destroy(&fn->lock);
}

static struct pernet_operations ftnl_net_ops = {
	.init = ftnl_net_init,
	.exit = ftnl_net_exit,
	.id = &ftnl_net_id,
	.size = sizeof(struct ftnl_net),
};

int ftnl_netns_register(void)
{
	int err = register_pernet_subsys(&ftnl_net_ops);

	if (!err) {
		kernel_param_lock(THIS_MODULE);
		ftnl_netns_up = true;
		kernel_param_unlock(THIS_MODULE);
	}
	return err;
}

void ftnl_netns_unregister(void)
{
	kernel_param_lock(THIS_MODULE);
	ftnl_netns_up = false;
	kernel_param_unlock(THIS_MODULE);
	unregister_pernet_subsys(&ftnl_net_ops);
}

/**
 * ftnl_netns_ready - may a module parameter's handler use ftnl_net()?
 *
 * A parameter given to insmod is set before the module's init registers
 * the per-netns state, and one written in sysfs may race the module's
 * exit: ftnl_net() is valid only between the two. The caller holds
 * kernel_param_lock (every kernel_param_ops.set runs under it once the
 * module is live; at load time this returns false).
 *
 * Return: true if ftnl_net() may be called.
 */
bool ftnl_netns_ready(void)
{
	return ftnl_netns_up;
}
