// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl: failure detection, notification and agreement for HPC clusters.
 * Module entry points.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/rcupdate.h>
#include <net/genetlink.h>

#include "ftnl.h"
#include "version.h"

static int __init ftnl_init(void)
{
	int err;

	err = ftnl_ring_module_init();
	if (err)
		return err;
	/* Before any socket can exist: see udp_encap.c. */
	ftnl_udp_encap_hold();
	err = ftnl_netns_register();
	if (err)
		goto err_encap;
	err = ftnl_genl_register();
	if (err)
		goto err_netns;
	err = ftnl_proc_notifier_register();
	if (err)
		goto err_genl;
	pr_info("version " FTNL_MODULE_VERSION " loaded (protocol %u)\n",
		FTNL_PROTO_VERSION);
	return 0;

err_genl:
	ftnl_genl_unregister();
err_netns:
	ftnl_netns_unregister();
err_encap:
	ftnl_udp_encap_release();
	ftnl_ring_module_exit();
	return err;
}

static void __exit ftnl_exit(void)
{
	ftnl_proc_notifier_unregister();
	ftnl_genl_unregister();
	ftnl_netns_unregister();
	/* Every ftnl socket is closed: drop the module's own counts. */
	ftnl_udp_encap_release();
	/* Configurations retired by call_rcu() are freed by this module's code. */
	rcu_barrier();
	ftnl_ring_module_exit();
	ftnl_allocs_report();
}

module_init(ftnl_init);
module_exit(ftnl_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("ftnl: failure detection and notification for HPC clusters");
MODULE_VERSION(FTNL_MODULE_VERSION);
MODULE_ALIAS_GENL_FAMILY(FTNL_FAMILY_NAME);
