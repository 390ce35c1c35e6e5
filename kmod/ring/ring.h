/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The observation ring at run time: hrtimers, the lock, sockets and
 * counters around the pure state machine of core.c (Algorithm 1 and the
 * node's membership state).
 */
#ifndef _FTNL_RING_H
#define _FTNL_RING_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/net.h>
#include <linux/spinlock.h>

#include "../bcast/bcast.h"
#include "core.h"
#include "../ftnl.h"
#include "../transport.h"
#include "../wire.h"

/* Counters are indexed by their enum ftnl_stats_attr value. */
#define FTNL_RING_NR_COUNTERS	__FTNL_A_STATS_MAX

/**
 * struct ftnl_ring - one running observation ring (one per configuration)
 * @fn: the netns state
 * @cluster: the configuration it runs (immutable)
 * @lock: protects the ring state below, taken in softirq (timers, receive)
 *	and, with BHs off, in process context
 * @core: Algorithm 1 and the membership state (emitter, observer, D,
 *	what is known of every peer), pure
 * @hb_timer: HB-TIMEOUT, task T1 (or, with @hb_hi, what schedules it)
 * @hb_tasklet: with @hb_hi, runs task T1 in the HI softirq
 * @hb_hi: the module's hb_hi_softirq when the ring was created
 * @susp_timer: SUSP-TIMEOUT, tasks T2/T3, set as @core asks
 * @stalled_until: end of the test stall (module parameter test_stall_ms)
 * @stall_hb_due: the heartbeat deadline the test stall held back, 0 if none
 * @stall_hb_from: 1 + position of the sender of the last heartbeat the
 *	test stall left unread, 0 if none (under @lock)
 * @life_start_real: when this node's life (its incarnation) started running
 *	a ring, on the wall clock: broadcasts started before it carry news
 *	older than this life (ftnl_ring_core_death_old(); under @lock)
 * @host_rx_drops: the host's input backlog drops at the last heartbeat
 *	tick (ftnl_host_rx_drops(); under @lock)
 * @netns_rx_drops: the input drops of the devices of this node's netns at
 *	the last heartbeat tick (ftnl_netns_rx_drops(); under @lock)
 * @host_rx_tails: per possible CPU, what its input backlog had queued at
 *	the last heartbeat tick (ftnl_host_rx_snapshot(), read by
 *	ftnl_host_rx_unread(); under @lock)
 * @xport: the transport: sockets, sequence numbers, replay windows, drops
 * @counters: indexed by enum ftnl_stats_attr (simple counters only)
 * @lateness: heartbeat emission lateness histogram (see uapi)
 * @lateness_max_ns: largest emission lateness
 * @hb_lock_wait: how long task T1 waited for @lock, histogram as @lateness
 * @hb_lock_wait_max_ns: the longest of those waits
 * @hb_start_late: how late task T1's timer began to run, as @lateness
 * @hb_start_late_max_ns: the latest of those starts
 * @bcast: the broadcast layer's state
 * @proc_deaths: process exits being handed to @bcast (under @lock, off
 *	the stack)
 * @rejoined_pos: positions of the nodes a welcome lists (under @lock, off
 *	the stack)
 * @rejoined_inc: their incarnations
 */
struct ftnl_ring {
	struct ftnl_net *fn;
	struct ftnl_cluster *cluster;
	spinlock_t lock; /* protects the ring state */
	struct ftnl_ring_core core;
	struct hrtimer hb_timer;
	struct tasklet_struct hb_tasklet;
	bool hb_hi;
	struct hrtimer susp_timer;
	ktime_t stalled_until;
	ktime_t stall_hb_due;
	u32 stall_hb_from;
	u64 life_start_real;
	u64 host_rx_drops;
	u64 netns_rx_drops;
	u32 *host_rx_tails;
	struct ftnl_transport xport;
	atomic64_t counters[FTNL_RING_NR_COUNTERS];
	atomic64_t lateness[FTNL_LATENESS_BUCKETS];
	u64 lateness_max_ns;
	atomic64_t hb_lock_wait[FTNL_LATENESS_BUCKETS];
	u64 hb_lock_wait_max_ns;
	atomic64_t hb_start_late[FTNL_LATENESS_BUCKETS];
	u64 hb_start_late_max_ns;
	struct ftnl_bcast bcast;
	struct ftnl_bcast_death proc_deaths[FTNL_BCAST_MAX_DEATHS];
	u32 rejoined_pos[FTNL_BCAST_MAX_DEATHS];
	u64 rejoined_inc[FTNL_BCAST_MAX_DEATHS];
};

int ftnl_ring_create(struct ftnl_net *fn, struct ftnl_cluster *cluster,
		     const struct ftnl_ring *prev);
void ftnl_ring_start(struct ftnl_ring *ring, struct ftnl_ring *prev);
void ftnl_ring_stop(struct ftnl_ring *ring);
void ftnl_ring_close_sockets(struct ftnl_ring *ring);
void ftnl_ring_destroy(struct ftnl_ring *ring);
void ftnl_ring_leave(struct ftnl_ring *ring);
int ftnl_ring_readmit(struct ftnl_ring *ring, u32 pos, const char **why);
void ftnl_ring_view(struct ftnl_ring *ring, u32 pos,
		    struct ftnl_node_view *view);
bool ftnl_ring_expelled(struct ftnl_ring *ring);
void ftnl_ring_fenced(struct ftnl_ring *ring);
u32 ftnl_ring_proc_exited(struct ftnl_ring *ring,
			  const struct ftnl_proc_exit *exits, u32 n);

static inline void ftnl_ring_count(struct ftnl_ring *ring, int counter)
{
	atomic64_inc(&ring->counters[counter]);
}

/**
 * struct ftnl_ring_stats - what a stats dump shows of a ring
 * @counters: by enum ftnl_stats_attr (the ring's and the broadcast's)
 * @drops: received datagrams dropped, by enum ftnl_drop_reason
 * @lateness: heartbeat emission lateness histogram (see uapi)
 * @lateness_max_ns: largest emission lateness
 * @hb_lock_wait: how long heartbeats waited for the ring's lock (as
 *	@lateness)
 * @hb_lock_wait_max_ns: the longest of those waits
 * @hb_start_late: how late heartbeat timers began to run (as @lateness)
 * @hb_start_late_max_ns: the latest of those starts
 * @bcast: delivery latencies
 */
struct ftnl_ring_stats {
	u64 counters[FTNL_RING_NR_COUNTERS];
	u64 drops[__FTNL_DROP_MAX];
	u64 lateness[FTNL_LATENESS_BUCKETS];
	u64 lateness_max_ns;
	u64 hb_lock_wait[FTNL_LATENESS_BUCKETS];
	u64 hb_lock_wait_max_ns;
	u64 hb_start_late[FTNL_LATENESS_BUCKETS];
	u64 hb_start_late_max_ns;
	struct ftnl_bcast_stats bcast;
};

void ftnl_ring_read_stats(struct ftnl_ring *ring, struct ftnl_ring_stats *st);

#endif /* _FTNL_RING_H */
