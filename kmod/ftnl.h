/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftnl module internals shared between the core files.
 */
#ifndef _FTNL_H
#define _FTNL_H

#include <linux/atomic.h>
#include <linux/in6.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <linux/ftnl.h>

#include "sign/ed25519.h"
#include "tbucket.h"

struct ftnl_ring;
struct ftnl_transport;

/**
 * struct ftnl_node - one member of the cluster's node table
 * @id: node id, unique in the cluster
 * @family: AF_INET or AF_INET6
 * @port: UDP port, host order
 * @addr4: IPv4 address when @family is AF_INET
 * @addr6: IPv6 address when @family is AF_INET6
 * @name: FTNL_A_NODE_NAME, kmalloc'ed, or NULL; freed with the configuration
 * @domain: FTNL_A_NODE_DOMAIN, kmalloc'ed, or NULL (none); freed with the
 *	configuration
 * @key: the key of every datagram between this node and that one: its
 *	pair key (FTNL_A_NODE_KEY), or a copy of the cluster key; wiped with
 *	the configuration. Unused on this node's own entry
 * @sign_public: its Ed25519 public key (FTNL_A_NODE_SIGN_KEY; on this
 *	node's own entry, derived from FTNL_A_SIGN_SEED), which checks the
 *	broadcasts it originates; zero if the cluster does not sign
 */
struct ftnl_node {
	u32 id;
	u8 family;
	u16 port;
	union {
		__be32 addr4;
		struct in6_addr addr6;
	};
	const char *name;
	const char *domain;
	u8 key[FTNL_KEY_LEN];
	u8 sign_public[FTNL_SIGN_KEY_LEN];
};

/**
 * struct ftnl_cluster - an immutable cluster configuration
 * @rcu: frees the configuration after readers are done
 * @cluster_id: cluster identifier
 * @self_id: this node's id
 * @self_index: index of this node in @nodes
 * @hb_period_us: heartbeat period h
 * @timeout_us: suspicion timeout d
 * @generation: the netns generation this configuration was installed at
 * @bcast_algo: enum ftnl_bcast_algo
 * @fcg_f: FCG's f
 * @gossip_end_us: FCG's T, 0 for the default
 * @rejoin: enum ftnl_rejoin
 * @flap_limit: K, rejoins of a node admitted within @flap_window_s
 * @flap_window_s: W
 * @timeout_min_us: d_min of adaptive timeouts (@timeout_us is d_max), 0
 *	for a fixed d
 * @timeout_nines: adaptive timeouts' target rate 10^-nines, 0 if fixed
 * @fence: enum ftnl_fence: what is done to the registered processes when
 *	this node is expelled
 * @quorum: enum ftnl_quorum
 * @key: cluster secret, copied into each node's @key; zero with
 *	@pair_keys
 * @pair_keys: the nodes' keys are pair keys (FTNL_A_NODE_KEY)
 * @signs: broadcasts carry their origin's signature, and only those whose
 *	signature verifies are acted on (FTNL_A_SIGN_SEED)
 * @sign_key: this node's signing key, expanded from FTNL_A_SIGN_SEED;
 *	wiped with the configuration
 * @epoch: the configuration's epoch (FTNL_A_EPOCH), on every datagram
 * @epoch_given: the request named @epoch (else ftnl_cluster_set_epoch()
 *	derives it from the running configuration)
 * @update_grace_s: FTNL_A_UPDATE_GRACE_S
 * @ring: the observation ring running this configuration (its mutable
 *	state lives there)
 * @transport: the ring's datagram endpoint (sockets, sequence numbers,
 *	drop counters), for the receive path
 * @by_id: positions in ascending id order, for lookups (points into the
 *	same allocation, after @nodes)
 * @node_count: number of entries in @nodes
 * @nodes: node table in ring order (kmod/ring/order.c: ascending id unless
 *	failure domains are named); a node's index is its position on the
 *	ring
 *
 * A configuration is never changed in place: a new one replaces it under
 * RCU, so that readers (dumps, the datagram path) never see a half-written
 * table.
 */
struct ftnl_cluster {
	struct rcu_head rcu;
	u32 cluster_id;
	u32 self_id;
	u32 self_index;
	u32 hb_period_us;
	u32 timeout_us;
	u32 generation;
	u8 bcast_algo;
	u8 fcg_f;
	u32 gossip_end_us;
	u8 rejoin;
	u32 flap_limit;
	u32 flap_window_s;
	u32 timeout_min_us;
	u8 timeout_nines;
	u8 fence;
	u8 quorum;
	u8 key[FTNL_KEY_LEN];
	bool pair_keys;
	bool signs;
	struct ftnl_ed25519_key sign_key;
	u32 epoch;
	bool epoch_given;
	u32 update_grace_s;
	struct ftnl_ring *ring;
	struct ftnl_transport *transport;
	u32 *by_id;
	u32 node_count;
	struct ftnl_node nodes[];
};

/**
 * struct ftnl_event_what - what an event says beyond who failed, who saw
 *	it and when (struct ftnl_event_rec has the meaning of each field)
 * @proc: a process exit
 * @joined: a rejoin
 * @expelled: this node's expulsion
 * @expel_reason: enum ftnl_expel_reason (@expelled)
 * @incarnation: the node's incarnation
 * @job: the process's job (@proc)
 * @rank: the process's rank (@proc)
 * @owner_uid: the process's owner (@proc)
 */
struct ftnl_event_what {
	bool proc;
	bool joined;
	bool expelled;
	u8 expel_reason;
	u64 incarnation;
	u64 job;
	u32 rank;
	u32 owner_uid;
};

/**
 * struct ftnl_event_rec - a failure this node learned: written by
 *	ftnl_event_publish() into the netns's event history, multicast from
 *	process context
 * @seq: its sequence number in the netns
 * @proc: a registered process exited (@job, @rank on node @node_id), not
 *	a node death
 * @joined: node @node_id rejoined with incarnation @incarnation (admitted
 *	by @observer_id), not a death
 * @expelled: this node (@node_id) was expelled in @incarnation, for
 *	@expel_reason, as @observer_id said (FTNL_CMD_EXPELLED_NTF)
 * @expel_reason: enum ftnl_expel_reason (@expelled)
 * @cluster_id: cluster of the failed node
 * @generation: configuration generation it was learned in
 * @node_id: the failed node
 * @incarnation: its incarnation, 0 if never heard
 * @cause: enum ftnl_event_cause
 * @observer_id: the node that detected it
 * @mono_ns: CLOCK_MONOTONIC when learned
 * @real_ns: CLOCK_REALTIME when learned
 * @job: the process's job (@proc)
 * @rank: the process's rank (@proc)
 * @node_name: the failed node's name, "" when it has none
 * @owner_uid: the uid that registered it, in the initial user namespace
 *	(@proc)
 */
struct ftnl_event_rec {
	u64 seq;
	bool proc;
	bool joined;
	bool expelled;
	u8 expel_reason;
	u32 cluster_id;
	u32 generation;
	u32 node_id;
	u64 incarnation;
	u8 cause;
	u32 observer_id;
	u64 mono_ns;
	u64 real_ns;
	u64 job;
	u32 rank;
	char node_name[FTNL_NODE_NAME_MAX + 1];
	u32 owner_uid;
};

/**
 * struct ftnl_proc_exit - a registered process's death, to broadcast
 * @job: its job
 * @rank: its rank
 * @owner_uid: its owner's uid in the initial user namespace
 */
struct ftnl_proc_exit {
	u64 job;
	u32 rank;
	u32 owner_uid;
};

/* Exits per broadcast: FTNL_BCAST_MAX_DEATHS (checked where both are seen). */
#define FTNL_PROC_EXIT_BATCH	32

/**
 * struct ftnl_net - per network namespace state: one netns is one node
 * @net: the namespace
 * @lock: serializes configuration changes
 * @cluster: current configuration, NULL when unconfigured
 * @generation: incremented on every configuration change
 * @incarnation: this node's current life; renewed when it leaves or its
 *	cluster is deleted, so that a later comeback is a new incarnation
 * @first: the incarnation the current life began with: @incarnation,
 *	unless the ring renewed it above a later one a member knew (the
 *	same life under a new name, kmod/ring/core.c)
 * @events_lock: protects @history, @event_seq, @notified_seq
 * @history: the last FTNL_EVENT_HISTORY_LEN events, by sequence number
 *	modulo the length; allocated with the first configuration
 * @event_seq: sequence number of the newest event, 0 before the first
 * @notified_seq: the newest event @events_work multicast (or skipped)
 * @events_work: multicasts the events after @notified_seq with
 *	GFP_KERNEL, off the datagram path
 * @events_queue_overflow: events never multicast because more than
 *	event_queue_len were waiting (still in @history)
 * @events_notify_failed: notifications that could not be built (no
 *	memory for the message)
 * @procs_lock: protects @procs, @nprocs, @exits, @nexits, @exit_bucket
 * @procs: processes registered on this node (struct ftnl_proc)
 * @nprocs: their number
 * @exits: registered processes that died, waiting for their broadcast
 * @nexits: their number
 * @exit_bucket: rate limit of the broadcasts of @exits
 * @exits_work: broadcasts @exits in batches, as @exit_bucket allows
 * @exit_batch: the batch @exits_work is handing over (the work never runs
 *	twice at once; off its stack)
 * @fence_kill: the fence work SIGKILLs the registered processes
 * @fence_work: fences the registered processes of an expelled node
 * @fence_comeback: the expelled node comes back: the fence work forgets
 *	the registrations of the ended life, then tells the ring
 */
struct ftnl_net {
	possible_net_t net;
	struct mutex lock; /* serializes configuration changes */
	struct ftnl_cluster __rcu *cluster;
	u32 generation;
	u64 incarnation;
	u64 first;
	spinlock_t events_lock; /* protects history and its two cursors */
	struct ftnl_event_rec *history;
	u64 event_seq;
	u64 notified_seq;
	struct work_struct events_work;
	atomic64_t events_queue_overflow;
	atomic64_t events_notify_failed;
	spinlock_t procs_lock; /* protects procs, exits, their counts, bucket */
	struct list_head procs;
	u32 nprocs;
	struct list_head exits;
	u32 nexits;
	struct ftnl_tbucket exit_bucket;
	struct delayed_work exits_work;
	struct ftnl_proc_exit exit_batch[FTNL_PROC_EXIT_BATCH];
	bool fence_kill;
	bool fence_comeback;
	struct work_struct fence_work;
};

/**
 * struct ftnl_proc_info - what a dump shows of a registration
 * @job: its job
 * @rank: its rank
 * @portid: its netlink socket
 * @owner: the uid that registered it
 */
struct ftnl_proc_info {
	u64 job;
	u32 rank;
	u32 portid;
	kuid_t owner;
};

/* netns.c */
struct ftnl_net *ftnl_net(const struct net *net);
bool ftnl_netns_ready(void);
u64 ftnl_new_incarnation(u64 previous);
int ftnl_netns_register(void);
void ftnl_netns_unregister(void);

/*
 * alloc_count.c: ftnl_counted() counts an allocation it returns unchanged
 * (NULL is not counted); ftnl_uncount() before freeing it (NULL ignored).
 * ftnl_allocs_report() logs the balance at unload.
 */
void *ftnl_counted(void *obj);
void ftnl_uncount(const void *obj);
void ftnl_allocs_report(void);

/* host_rx.c */
u64 ftnl_host_rx_drops(void);
u64 ftnl_netns_rx_drops(struct net *net);
bool ftnl_host_rx_unread(const u32 *tails);
void ftnl_host_rx_snapshot(u32 *tails);

/* ring/ring.c: what every ring shares (the per-CPU verification memory) */
int ftnl_ring_module_init(void);
void ftnl_ring_module_exit(void);

/* udp_encap.c */
void ftnl_udp_encap_hold(void);
void ftnl_udp_encap_release(void);

/* events.c */
void ftnl_event_publish(struct ftnl_net *fn, const struct ftnl_cluster *cluster,
			u8 cause, u32 node_id, u32 observer_id,
			const struct ftnl_event_what *what);
int ftnl_events_prepare(struct ftnl_net *fn);
int ftnl_event_history_get(struct ftnl_net *fn, u64 after,
			   struct ftnl_event_rec *rec);
u64 ftnl_event_last_seq(struct ftnl_net *fn);
void ftnl_events_init(struct ftnl_net *fn);
void ftnl_events_flush(struct ftnl_net *fn);
bool ftnl_event_test_nomem(void);

/* process_registry.c */
void ftnl_procs_init(struct ftnl_net *fn);
void ftnl_procs_flush(struct ftnl_net *fn);
int ftnl_proc_register(struct ftnl_net *fn, u32 portid, kuid_t owner,
		       u64 job, u32 rank, const char **why);
int ftnl_proc_unregister(struct ftnl_net *fn, u32 portid);
int ftnl_proc_snapshot(struct ftnl_net *fn, u32 index, const kuid_t *only,
		       struct ftnl_proc_info *info);
void ftnl_procs_expelled(struct ftnl_net *fn, bool kill, bool comeback);
int ftnl_proc_notifier_register(void);
void ftnl_proc_notifier_unregister(void);

/* cluster.c */
struct ftnl_cluster *ftnl_cluster_alloc(u32 node_count);
void ftnl_cluster_free(struct ftnl_cluster *cluster);
int ftnl_cluster_finalize(struct ftnl_cluster *cluster, const char **why,
			  u32 *bad_index);
const struct ftnl_node *ftnl_cluster_find(const struct ftnl_cluster *cluster,
					  u32 id);
void ftnl_cluster_replace(struct ftnl_net *fn, struct ftnl_cluster *cluster);
struct ftnl_cluster *ftnl_cluster_current(struct ftnl_net *fn);
const char *ftnl_cluster_set_epoch(struct ftnl_cluster *cluster,
				   const struct ftnl_cluster *old);

/* netlink.c */
int ftnl_genl_register(void);
void ftnl_genl_unregister(void);
void ftnl_notify_cluster_change(struct net *net);
void ftnl_notify_event(struct net *net, const struct ftnl_event_rec *rec);

#endif /* _FTNL_H */
