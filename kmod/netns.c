// SPDX-License-Identifier: GPL-2.0
/*
 * Per network namespace state. Every netns is one ftnl node, so that one
 * kernel can host a whole test cluster.
 */

#include <linux/module.h>
#include <net/netns/generic.h>

#include "ftnl.h"

static unsigned int ftnl_net_id __read_mostly;

struct ftnl_net *ftnl_net(const struct net *net)
{
	return net_generic(net, ftnl_net_id);
}

static int __net_init ftnl_net_init(struct net *net)
{
	struct ftnl_net *fn = ftnl_net(net);

	mutex_init(&fn->lock);
	RCU_INIT_POINTER(fn->cluster, NULL);
	fn->generation = 0;
	return 0;
}

static void __net_exit ftnl_net_exit(struct net *net)
{
	struct ftnl_net *fn = ftnl_net(net);

	mutex_lock(&fn->lock);
	ftnl_cluster_replace(fn, NULL);
	mutex_unlock(&fn->lock);
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
	return register_pernet_subsys(&ftnl_net_ops);
}

void ftnl_netns_unregister(void)
{
	unregister_pernet_subsys(&ftnl_net_ops);
}
