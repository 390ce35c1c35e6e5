// SPDX-License-Identifier: GPL-2.0
/*
 * The host's input, as the local health rule needs it: datagrams dropped
 * before any protocol saw them because a CPU's input backlog
 * (net.core.netdev_max_backlog) was full - its receive softirq fell
 * behind - and input queued in a backlog and not read yet. A node whose
 * input was lost or still waits cannot take a silence for a failure.
 */

#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>

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
 * The second column of /proc/net/softnet_stat: the sum over the possible
 * CPUs of a counter that only grows (each CPU's wraps at 2^32: callers
 * compare two readings for inequality, and take a difference only when
 * the later one is larger). Every namespace's input: see
 * ftnl_netns_rx_drops() for whose. Any context.
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
 * ftnl_netns_rx_drops - input datagrams the devices of @net dropped
 * @net: this node's network namespace
 *
 * Each device's core rx_dropped count (what ``ip -s link`` adds to the
 * driver's own), summed over the devices of @net and the possible CPUs.
 * A full input backlog charges the device the datagram came in on, so
 * this tells this node's input from another namespace's (a netns node's
 * neighbours on one host, a bridge port going down). It also counts
 * frames dropped for having no protocol, which anyone on the link can
 * send: ring.c takes drops only when this and the host's backlog count
 * rose together. A device leaving @net takes its count with it: a
 * smaller sum is no drop. Any context.
 */
u64 ftnl_netns_rx_drops(struct net *net)
{
	struct net_device *dev;
	u64 sum = 0;
	int cpu;

	rcu_read_lock();
	for_each_netdev_rcu(net, dev) {
		struct net_device_core_stats __percpu *p;

		/* Allocated at a device's first drop: none yet, 0. */
		p = READ_ONCE(dev->core_stats);
		if (!p)
			continue;
		for_each_possible_cpu(cpu)
			sum += READ_ONCE(per_cpu_ptr(p, cpu)->rx_dropped);
	}
	rcu_read_unlock();
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
