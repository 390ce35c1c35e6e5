// SPDX-License-Identifier: GPL-2.0
/*
 * The host's input backlog drops: datagrams the network stack received
 * and threw away before any protocol saw them, because a CPU's backlog
 * (net.core.netdev_max_backlog) was full - its receive softirq fell
 * behind. The same count /proc/net/softnet_stat shows in its second
 * column. The local health rule reads it: a node whose host lost input
 * cannot take a silence for a failure.
 */

#include <linux/netdevice.h>
#include <linux/percpu.h>

#include "ftnl.h"

/*
 * 6.10 made the counter an atomic_t (bumped without the queue lock); it
 * was an unsigned int before. Both are one 32-bit word, read as such
 * (atomic_read() is that READ_ONCE()), so one build reads either.
 */
static unsigned int ftnl_cpu_rx_drops(int cpu)
{
	struct softnet_data *sd = &per_cpu(softnet_data, cpu);

	BUILD_BUG_ON(sizeof(sd->dropped) != sizeof(unsigned int));
	return READ_ONCE(*(unsigned int *)&sd->dropped);
}

/**
 * ftnl_host_rx_drops - datagrams the host's input backlogs dropped
 *
 * Sum over the possible CPUs of a counter that only grows (each CPU's
 * wraps at 2^32: callers compare two readings for inequality, and take
 * a difference only when the later one is larger). Any context.
 */
u64 ftnl_host_rx_drops(void)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += ftnl_cpu_rx_drops(cpu);
	return sum;
}
