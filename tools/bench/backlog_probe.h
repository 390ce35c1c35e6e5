/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The backlog probe: one real-time thread reads /proc/net/softnet_stat
 * every BACKLOG_PROBE_NS and records, per CPU, the episodes in which that
 * CPU's input backlog dropped datagrams for being full
 * (net.core.netdev_max_backlog): a run of readings each showing more
 * drops than the one before, lasting from the first such reading to the
 * last, so never longer than drops were seen. In a one-kernel cluster
 * that backlog is where every node's heartbeats, probes and broadcast
 * copies queue, and its softirq work may run in ksoftirqd, which the
 * stall probe's real-time threads never wait for. It only reads, as a
 * first probe that sent itself datagrams did not; yet with either probe
 * the ring ran clean in windows that without them did not
 * (Documentation/bench.rst, "Quiet runs"), so the quiet runs start it
 * only when asked (--backlog-probe).
 */
#ifndef FTNL_BENCH_BACKLOG_PROBE_H
#define FTNL_BENCH_BACKLOG_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#define BACKLOG_PROBE_NS	1000000ULL

struct interval_summary;

/* Starts the probe; 0 or -errno. */
int backlog_probe_start(void);
/* Stops it if it runs; what it recorded stays readable. */
void backlog_probe_stop(void);
/* Was there an episode of @len_ns or more overlapping [@from, @to]? */
bool backlog_probe_within(uint64_t from, uint64_t to, uint64_t len_ns);
/* The episodes, how many last @long_ns or more; readings taken. */
void backlog_probe_summary(uint64_t long_ns, struct interval_summary *s,
			   uint64_t *readings);

#endif
