/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The quiet runs' attribution of false suspicions (quiet.c): kept apart
 * from the lateness part that drives them (bench.c, --attribute).
 */
#ifndef FTNL_BENCH_QUIET_H
#define FTNL_BENCH_QUIET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ksoftirqd.h"

struct cluster;
struct suspicion;

struct quiet {
	struct cluster *c;
	uint64_t h_ns, d_ns;
	bool probing;
	bool backlog_probed;	/* the backlog probe ran in this window */
	struct suspicion *own;	/* the nodes' own suspicions */
	/* Each node's counters as quiet_inspect() read them, before the
	 * ring was deleted (NULL: no memory; not shown then). */
	struct ftnl_stats *stats;
	bool *stats_read;
	size_t count, cap;
	uint64_t failures;	/* failure events, whatever their cause */
	uint64_t learned;	/* events of cause broadcast */
	uint64_t expelled;	/* expulsion events, self-inflicted or told */
	uint64_t lost;		/* suspicions not recorded (no memory) */
	uint64_t overruns;	/* event queues that overran */
	uint64_t backlog_drops;	/* softnet_stat drops: at start, then in the run */
	unsigned int end_not_member;	/* nodes not alive in their own view */
	unsigned int end_held_dead;	/* (node, peer) pairs not alive at the end */
	uint64_t events_unpublished;	/* events_lost + queue overflow + notify failed */
	uint64_t expelled_recv;	/* EXPELLED datagrams taken */
	/* Datagrams the nodes sent: heartbeats and NEW_OBSERVER/LEAVE, probes
	 * and their answers, broadcasts and EXPELLED. */
	uint64_t sent_ring, sent_probe, sent_other;
	/* Ticks that found input queued a tick earlier still unread, all
	 * nodes (stats host_rx_unread). */
	uint64_t rx_unread;
	/* Probes put off for input held or dropped, all nodes (stats
	 * probes_deferred). */
	uint64_t probes_deferred;
	/* Requests to helpers held back for the same reason, all nodes
	 * (stats probe_asks_held). */
	uint64_t asks_held;
	/* /proc/stat's "cpu" line (all CPUs), in ticks: at start, then the
	 * run's: user (and nice), system, irq, softirq, idle (and iowait),
	 * steal, and their sum. */
	uint64_t cpu[7];
	/* The softirq threads: at start, then the run's. */
	struct ksoftirqd_times ksirqd;
};

/* Starts the stall probe and, if asked, the backlog probe; 0 or -errno. */
int quiet_init(struct quiet *q, struct cluster *c, uint64_t h_ns,
	       uint64_t d_ns, bool backlog_probe);
/* Records every node's failure events until @until (CLOCK_MONOTONIC). */
int quiet_pump(struct quiet *q, uint64_t until);
/* Records the events still queued. */
void quiet_drain(struct quiet *q);
/* Reads every node's end state and event counters (ring still set). */
void quiet_inspect(struct quiet *q);
/* Stops the probe, attributes, prints one RESULT test=quiet line. */
void quiet_finish(struct quiet *q, const char *label, unsigned int n);
/* Stops the probe if it runs, frees what was recorded. */
void quiet_release(struct quiet *q);

#endif
