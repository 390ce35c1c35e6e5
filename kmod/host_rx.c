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

/**
 * ftnl_host_rx_unread - whether input queued before a snapshot still waits
 * @tails: one per possible CPU, what each CPU's input backlog had queued
 *	when ftnl_host_rx_snapshot() last ran (its tail count)
 *
 * A CPU's input backlog (netif_rx(): veth, loopback, tunnels, RPS)
 * counts what it queued (tail) and what its receive softirq took out
 * (head). A head short of the tail of the snapshot means a datagram
 * queued before then still waits: that CPU's receive softirq is behind
 * by at least the time since, and what the ring's peers sent may wait
 * with it. A NIC's own receive ring, polled without RPS, is not seen.
 * The counts exist only with CONFIG_RPS; without it this says no. Any
 * context.
 *
 * Return: true if some CPU still holds input queued before the snapshot.
 */
bool ftnl_host_rx_unread(const u32 *tails)
{
#ifdef CONFIG_RPS
	int cpu;

	for_each_possible_cpu(cpu) {
		const struct softnet_data *sd = &per_cpu(softnet_data, cpu);

		/* Both counts wrap: compare by difference. */
		if ((s32)(READ_ONCE(sd->input_queue_head) - tails[cpu]) < 0)
			return true;
	}
#endif
	return false;
}

/**
 * ftnl_host_rx_snapshot - note what every CPU's input backlog has queued
 * @tails: one per possible CPU, written
 *
 * For ftnl_host_rx_unread(). Any context; the caller serializes the
 * writers of @tails.
 */
void ftnl_host_rx_snapshot(u32 *tails)
{
#ifdef CONFIG_RPS
	int cpu;

	for_each_possible_cpu(cpu)
		tails[cpu] = READ_ONCE(per_cpu(softnet_data, cpu).input_queue_tail);
#endif
}
