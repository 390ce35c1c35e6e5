/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The queue probe: one real-time thread per CPU sends itself a datagram
 * over loopback every QUEUE_PROBE_NS and times its arrival. A datagram
 * sent on a CPU waits in that CPU's input backlog (netif_rx) behind every
 * other one queued there, and is dropped when the backlog is full
 * (net.core.netdev_max_backlog): in a one-kernel cluster, the queue that
 * every node's heartbeats, probes and broadcast copies share, whose
 * softirq work may run in ksoftirqd, a thread the stall probe's
 * real-time threads do not wait for. An episode is a run of datagrams
 * each late by the length asked at start (d - h for the quiet runs) or
 * more, or lost: it lasts from the first one's send to the last one's
 * arrival (a lost one's send), so an episode is never longer than the
 * queue was seen that late or full. Used by the quiet runs (quiet.h).
 */
#ifndef FTNL_BENCH_QUEUE_PROBE_H
#define FTNL_BENCH_QUEUE_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#define QUEUE_PROBE_NS		(2 * 1000000ULL)

struct interval_summary;

struct queue_probe_totals {
	uint64_t sent, late, lost;	/* late: by @late_ns or more */
	uint64_t max_delay_ns;	/* of those that arrived */
};

/*
 * Starts one probe per online CPU (64 at most), datagrams @late_ns late
 * or more making episodes; 0 or -errno.
 */
int queue_probe_start(uint64_t late_ns);
/* Stops them; what they recorded stays readable. */
void queue_probe_stop(void);
/* Was there an episode of @len_ns or more overlapping [@from, @to]? */
bool queue_probe_within(uint64_t from, uint64_t to, uint64_t len_ns);
/* The episodes, how many last @long_ns or more; and the datagrams. */
void queue_probe_summary(uint64_t long_ns, struct interval_summary *s,
			 struct queue_probe_totals *t);

#endif
