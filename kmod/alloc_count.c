// SPDX-License-Identifier: GPL-2.0
/*
 * The module's own leak check. Every allocation that ftnl keeps (cluster
 * configurations, rings, transports, broadcast state, process records,
 * event histories, the previous key) is counted when made and
 * uncounted when freed; unloading the module reports the balance. Debian's
 * kernels have no kmemleak, and an admin reloading the module on a compute
 * node, like the cluster harness's module-reload scenario, should see in
 * the kernel log that nothing was left behind. Socket buffers are not
 * counted: they belong to the network stack once sent.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/printk.h>

#include "ftnl.h"

static atomic_long_t ftnl_allocs_live = ATOMIC_LONG_INIT(0);
static atomic64_t ftnl_allocs_made = ATOMIC64_INIT(0);

void *ftnl_counted(void *obj)
{
	if (obj) {
		atomic_long_inc(&ftnl_allocs_live);
		atomic64_inc(&ftnl_allocs_made);
	}
	return obj;
}

void ftnl_uncount(const void *obj)
{
	if (obj)
		atomic_long_dec(&ftnl_allocs_live);
}

void ftnl_allocs_report(void)
{
	long live = atomic_long_read(&ftnl_allocs_live);
	u64 made = atomic64_read(&ftnl_allocs_made);

	if (live)
		pr_err("unloaded, %ld of %llu allocations leaked\n", live, made);
	else
		pr_info("unloaded, all %llu allocations freed\n", made);
}
