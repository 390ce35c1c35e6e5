/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ftnl: fault-tolerance substrate for HPC clusters.
 *
 * The generic netlink contract between the ftnl kernel module and its
 * userspace clients (libftnl, ftnl-cli, or any genetlink client). This header
 * is shared verbatim by the kernel and userspace; it is described in YNL
 * form by Documentation/netlink/specs/ftnl.yaml, which must agree with it.
 *
 * Conventions
 *
 * - All attributes of every command live in one attribute space, enum
 *   ftnl_attr. Per-node attributes live in a nested space, enum
 *   ftnl_node_attr, carried in FTNL_A_NODE.
 * - FTNL_A_NODE is a multi-attribute: a message carries one FTNL_A_NODE
 *   nest per node, directly at the top level. (A single enclosing nest
 *   could not hold 65,536 nodes: an attribute length is 16 bits.)
 * - Integers are in host byte order except where noted; addresses are in
 *   network byte order, exactly as in struct in_addr / struct in6_addr.
 * - Commands that change state require CAP_NET_ADMIN in the user namespace
 *   owning the network namespace, but for a process's own registration;
 *   reading is open to everybody, but for the process list, where a user
 *   without CAP_NET_ADMIN sees only its own registrations. Events (node
 *   failures, process exits with job, rank, node and owner uid) go to
 *   every subscriber.
 * - Every rejection carries an extack message naming what was wrong, and
 *   leaves the existing state untouched.
 * - All state is per network namespace: one netns is one node.
 */
#ifndef _UAPI_LINUX_FTNL_H
#define _UAPI_LINUX_FTNL_H

#include <linux/types.h>

#define FTNL_FAMILY_NAME	"ftnl"
#define FTNL_FAMILY_VERSION	1

/*
 * Version of the on-the-wire protocol between nodes (datagrams). 4:
 * indirect probes, and the header echoes the destination's incarnation;
 * 5: a probe's answers carry its identifier; 6: the header carries the
 * sender's configuration epoch and d (kmod/wire.h); 7: the header carries
 * the incarnation the sender's life began with (a renewed life's first);
 * 8: ring datagrams and the others are numbered in two sequence number
 * spaces (enum ftnl_wire_space).
 */
#define FTNL_PROTO_VERSION	8

/* Multicast group: failure events and cluster configuration changes. */
#define FTNL_MCGRP_EVENTS	"events"

/* Limits enforced by the module (and by libftnl before sending). */
#define FTNL_MAX_NODES		65536
#define FTNL_KEY_LEN		32	/* keyed BLAKE2s-256 key, bytes */
#define FTNL_SIGN_SEED_LEN	32	/* Ed25519 secret seed, bytes */
#define FTNL_SIGN_KEY_LEN	32	/* Ed25519 public key, bytes */
/*
 * Largest FTNL_A_INCARNATION_FLOOR accepted: incarnations are nanoseconds
 * of the wall clock (about 2^60.6 in 2026), and a floor never leaves
 * fewer than 2^63 lives above it.
 */
#define FTNL_INCARNATION_FLOOR_MAX	((1ULL << 63) - 1)
/* Longest node name (FTNL_A_NODE_NAME), bytes, without the NUL. */
#define FTNL_NODE_NAME_MAX	63
/* Longest failure domain name (FTNL_A_NODE_DOMAIN), bytes, without the NUL. */
#define FTNL_NODE_DOMAIN_MAX	31
#define FTNL_HB_PERIOD_MIN_US	1000U		/* 1 ms */
#define FTNL_HB_PERIOD_MAX_US	60000000U	/* 60 s */
#define FTNL_TIMEOUT_MAX_US	600000000U	/* 600 s */
/*
 * Adaptive timeouts (FTNL_A_TIMEOUT_MIN_US given): each observer sets its
 * timeout from its emitter's heartbeat inter-arrival times, between d_min
 * (FTNL_A_TIMEOUT_MIN_US, above h) and d_max (FTNL_A_TIMEOUT_US, then at
 * most FTNL_TIMEOUT_ADAPTIVE_MAX_US), for a target false-suspicion rate
 * of 10^-nines per heartbeat (FTNL_A_TIMEOUT_TARGET_NINES).
 */
#define FTNL_TIMEOUT_ADAPTIVE_MAX_US	60000000U	/* 60 s */
#define FTNL_TIMEOUT_NINES_MIN		1
#define FTNL_TIMEOUT_NINES_MAX		9
#define FTNL_TIMEOUT_NINES_DEFAULT	6
#define FTNL_MAX_PROCS		4096	/* registered processes per node */
/*
 * Events a node keeps in its history (FTNL_CMD_EVENT_GET): the newest
 * ones, by sequence number; also the most that wait to be multicast.
 */
#define FTNL_EVENT_HISTORY_LEN	1024

/*
 * FTNL_BCAST_FCG's parameters: f, the failures during one broadcast it
 * withstands, and its gossip time T. The module counts T in slots of
 * FTNL_GOSSIP_SLOT_US; T = 0, or a T shorter than one slot, asks for the
 * paper's choice from the cluster size.
 */
#define FTNL_FCG_F_MIN		1
#define FTNL_FCG_F_MAX		7
#define FTNL_FCG_F_DEFAULT	1
#define FTNL_GOSSIP_SLOT_US	20U
#define FTNL_GOSSIP_T_MAX_US	10000000U	/* 10 s */

/*
 * Rejoin (FTNL_A_REJOIN): a node coming back with a new incarnation is
 * readmitted cluster-wide unless it rejoined more than K times
 * (FTNL_A_REJOIN_FLAP_LIMIT) within W seconds (FTNL_A_REJOIN_FLAP_WINDOW_S);
 * then it is held out (FTNL_NODE_STATE_HELD_OUT) until that window ends.
 */
#define FTNL_REJOIN_FLAP_LIMIT_MIN	1
#define FTNL_REJOIN_FLAP_LIMIT_MAX	1000
#define FTNL_REJOIN_FLAP_LIMIT_DEFAULT	3
#define FTNL_REJOIN_FLAP_WINDOW_MIN_S	1
#define FTNL_REJOIN_FLAP_WINDOW_MAX_S	86400
#define FTNL_REJOIN_FLAP_WINDOW_DEFAULT_S	600

/*
 * Rolling updates (FTNL_A_EPOCH, FTNL_A_UPDATE_GRACE_S): for the update
 * grace after a configuration of a new epoch replaced the running one, the
 * previous key is accepted too and neighbours that changed are given time
 * to be updated as well (Documentation/admin-guide.rst, "Rolling updates").
 */
#define FTNL_UPDATE_GRACE_MIN_S		1
#define FTNL_UPDATE_GRACE_MAX_S		86400
#define FTNL_UPDATE_GRACE_DEFAULT_S	300

/**
 * enum ftnl_feature - bits of FTNL_A_FEATURES, what this module implements
 * @FTNL_FEATURE_CLUSTER: cluster set/get/del and node dump
 * @FTNL_FEATURE_IPV6: nodes may have IPv6 addresses
 * @FTNL_FEATURE_EVENTS: the "events" multicast group carries notifications
 * @FTNL_FEATURE_RING: heartbeats and timeout observation on the ring,
 *	failure events, leave, readmit, stats
 * @FTNL_FEATURE_BCAST: failures are broadcast to every survivor
 * @FTNL_FEATURE_PROC: processes can register; their deaths are broadcast
 * @FTNL_FEATURE_NODE_NAME: nodes may carry a name (FTNL_A_NODE_NAME), shown
 *	in dumps and events
 * @FTNL_FEATURE_DOMAINS: nodes may name a failure domain
 *	(FTNL_A_NODE_DOMAIN); the ring order keeps each domain's nodes apart
 * @FTNL_FEATURE_PAIR_KEYS: each pair of nodes may have its own key
 *	(FTNL_A_NODE_KEY), so that a member cannot speak for another
 * @FTNL_FEATURE_SIGNED: with pair keys, broadcasts may carry their
 *	origin's Ed25519 signature (FTNL_A_SIGN_SEED, FTNL_A_NODE_SIGN_KEY),
 *	so that a member cannot broadcast in another's name
 */
enum ftnl_feature {
	FTNL_FEATURE_CLUSTER	= 1 << 0,
	FTNL_FEATURE_IPV6	= 1 << 1,
	FTNL_FEATURE_EVENTS	= 1 << 2,
	FTNL_FEATURE_RING	= 1 << 3,
	FTNL_FEATURE_BCAST	= 1 << 4,
	FTNL_FEATURE_PROC	= 1 << 5,
	FTNL_FEATURE_NODE_NAME	= 1 << 6,
	FTNL_FEATURE_DOMAINS	= 1 << 7,
	FTNL_FEATURE_PAIR_KEYS	= 1 << 8,
	FTNL_FEATURE_SIGNED	= 1 << 9,
};

/**
 * enum ftnl_bcast_algo - how a detected failure reaches every survivor
 * @FTNL_BCAST_HYPERCUBE: dual hypercube broadcast of the ring paper
 *	(section 2): reaches every survivor despite up to floor(log2 n) - 1
 *	further failures during the broadcast, in O(log n) steps (default)
 * @FTNL_BCAST_BMG: binomial graph flood (p +/- 2^j), as ULFM does
 * @FTNL_BCAST_FCG: Failure-proof Corrected Gossip (Hoefler et al.,
 *	Algorithm 3): gossip, then a checked correction along the ring; every
 *	live node delivers or none does despite up to f failures during the
 *	broadcast (FTNL_A_BCAST_FCG_F, FTNL_A_BCAST_GOSSIP_T_US)
 */
enum ftnl_bcast_algo {
	FTNL_BCAST_HYPERCUBE,
	FTNL_BCAST_BMG,
	FTNL_BCAST_FCG,

	__FTNL_BCAST_MAX,
	FTNL_BCAST_MAX = __FTNL_BCAST_MAX - 1
};

/**
 * enum ftnl_node_state - life of a node as this node knows it
 * @FTNL_NODE_STATE_ALIVE: member, not known to have failed
 * @FTNL_NODE_STATE_DEAD: declared dead (observed or learned by broadcast)
 * @FTNL_NODE_STATE_LEFT: left the cluster gracefully
 * @FTNL_NODE_STATE_EXPELLED: this node's own entry only: the cluster
 *	declared its current incarnation dead (or it expelled itself); it no
 *	longer acts as a member (FTNL_CMD_EXPELLED_NTF)
 * @FTNL_NODE_STATE_HELD_OUT: dead, and came back too often: this node
 *	refused its last rejoin (more than FTNL_A_REJOIN_FLAP_LIMIT within
 *	FTNL_A_REJOIN_FLAP_WINDOW_S) and holds it out until the window ends
 *	or an admin readmits it
 */
enum ftnl_node_state {
	FTNL_NODE_STATE_ALIVE,
	FTNL_NODE_STATE_DEAD,
	FTNL_NODE_STATE_LEFT,
	FTNL_NODE_STATE_EXPELLED,
	FTNL_NODE_STATE_HELD_OUT,

	__FTNL_NODE_STATE_MAX,
	FTNL_NODE_STATE_MAX = __FTNL_NODE_STATE_MAX - 1
};

/**
 * enum ftnl_event_cause - how this node learned of a failure
 * @FTNL_CAUSE_OBSERVED: this node observed it: its emitter fell silent for
 *	the timeout (task T3 of the ring)
 * @FTNL_CAUSE_BROADCAST: learned from another node's broadcast
 * @FTNL_CAUSE_LEAVE: the node left gracefully (ftnl-cli cluster leave)
 * @FTNL_CAUSE_RESTARTED: the node came back with a new incarnation before
 *	its death was detected; its previous incarnation is dead
 */
enum ftnl_event_cause {
	FTNL_CAUSE_OBSERVED,
	FTNL_CAUSE_BROADCAST,
	FTNL_CAUSE_LEAVE,
	FTNL_CAUSE_RESTARTED,

	__FTNL_CAUSE_MAX,
	FTNL_CAUSE_MAX = __FTNL_CAUSE_MAX - 1
};

/**
 * enum ftnl_expel_reason - why this node was expelled (FTNL_A_EXPEL_REASON)
 * @FTNL_EXPEL_TOLD: a member it talked to holds it dead and said so (an
 *	EXPELLED datagram naming its current incarnation)
 * @FTNL_EXPEL_BROADCAST: a broadcast announced its own death in its
 *	current incarnation
 * @FTNL_EXPEL_QUORUM: it expelled itself: it lost the majority of the
 *	cluster
 * @FTNL_EXPEL_DEAF: it expelled itself: it cannot hear the others
 */
enum ftnl_expel_reason {
	FTNL_EXPEL_TOLD,
	FTNL_EXPEL_BROADCAST,
	FTNL_EXPEL_QUORUM,
	FTNL_EXPEL_DEAF,

	__FTNL_EXPEL_MAX,
	FTNL_EXPEL_MAX = __FTNL_EXPEL_MAX - 1
};

/**
 * enum ftnl_fence - what the module does to the registered processes of a
 *	node that is expelled (FTNL_A_FENCE)
 * @FTNL_FENCE_NONE: nothing but telling them (FTNL_CMD_EXPELLED_NTF):
 *	their groups fail with -ESTALE (default)
 * @FTNL_FENCE_KILL: SIGKILL every registered process of the node, so that
 *	a node the cluster declared dead has no live process left
 */
enum ftnl_fence {
	FTNL_FENCE_NONE,
	FTNL_FENCE_KILL,

	__FTNL_FENCE_MAX,
	FTNL_FENCE_MAX = __FTNL_FENCE_MAX - 1
};

/**
 * enum ftnl_rejoin - what happens when a dead node comes back with a new
 *	incarnation (rebooted, module loaded again, or restarted after it was
 *	expelled)
 * @FTNL_REJOIN_AUTO: the first member that hears it readmits it and
 *	broadcasts its JOIN: every member readmits it, the ring re-forms
 *	around it, every member publishes FTNL_CMD_JOINED_NTF (default)
 * @FTNL_REJOIN_MANUAL: it stays dead until an admin runs NODE_READMIT on
 *	every other member
 */
enum ftnl_rejoin {
	FTNL_REJOIN_AUTO,
	FTNL_REJOIN_MANUAL,

	__FTNL_REJOIN_MAX,
	FTNL_REJOIN_MAX = __FTNL_REJOIN_MAX - 1
};

/**
 * enum ftnl_drop_reason - why a received datagram was dropped; every
 *	dropped datagram is counted under exactly one reason and changes
 *	nothing else
 * @FTNL_DROP_SIZE: shorter than the header, or length field inconsistent
 * @FTNL_DROP_MAGIC: not an ftnl datagram
 * @FTNL_DROP_VERSION: unsupported protocol version
 * @FTNL_DROP_CLUSTER: another cluster's id, or no cluster configured
 * @FTNL_DROP_UNKNOWN_SENDER: sender id not in the node table, or this
 *	node's own id
 * @FTNL_DROP_MAC: authentication failed (wrong key or altered)
 * @FTNL_DROP_STALE_INCARNATION: older incarnation than the one known
 * @FTNL_DROP_REPLAY: sequence number already accepted from that sender
 *	incarnation, or more than 64 behind the highest accepted
 * @FTNL_DROP_DEAD_SENDER: sender is dead or left for this incarnation
 * @FTNL_DROP_NOT_FOR_US: addressed to another node id
 * @FTNL_DROP_TYPE: unknown datagram type or malformed payload
 * @FTNL_DROP_SOURCE: the source address or port is not the one the node
 *	table gives the sender (checked, like every header field, before
 *	the MAC)
 * @FTNL_DROP_UNPROVEN: a LEAVE at first contact with the sender (this node
 *	just started, or readmitted it) that does not echo this node's
 *	incarnation: it may be a previous life's (other such datagrams are
 *	acted on, pin nothing, and are answered with a HELLO so that a live
 *	sender echoes this node's incarnation next time); or a datagram
 *	numbered just below the first one its replay window counted (sent
 *	before it, perhaps before the sender heard this node: usually one
 *	reordered around first contact, a few while a cluster forms)
 * @FTNL_DROP_OTHER_KEY: during a rolling update, a copy signed with the key
 *	of another configuration: no key held here verifies it and it names
 *	another epoch, or it is the previous key's spare copy of a datagram
 *	the current key brought already (Documentation/ring.rst, "Rolling
 *	updates"); expected while nodes are updated
 * @FTNL_DROP_SIGNATURE: a broadcast (BCAST, GOSSIP) whose origin's
 *	signature does not verify, or that carries none in a cluster whose
 *	broadcasts are signed (FTNL_A_SIGNED): forged or altered by a member
 *	on its way, never acted on or forwarded
 */
enum ftnl_drop_reason {
	FTNL_DROP_SIZE,
	FTNL_DROP_MAGIC,
	FTNL_DROP_VERSION,
	FTNL_DROP_CLUSTER,
	FTNL_DROP_UNKNOWN_SENDER,
	FTNL_DROP_MAC,
	FTNL_DROP_STALE_INCARNATION,
	FTNL_DROP_REPLAY,
	FTNL_DROP_DEAD_SENDER,
	FTNL_DROP_NOT_FOR_US,
	FTNL_DROP_TYPE,
	FTNL_DROP_SOURCE,
	FTNL_DROP_UNPROVEN,
	FTNL_DROP_OTHER_KEY,
	FTNL_DROP_SIGNATURE,

	__FTNL_DROP_MAX,
	FTNL_DROP_MAX = __FTNL_DROP_MAX - 1
};

/**
 * enum ftnl_quorum - the quorum policy of a cluster (FTNL_A_QUORUM)
 * @FTNL_QUORUM_OFF: Algorithm 1 alone: every side of a partition goes on
 * @FTNL_QUORUM_ON: a node that would hold half the cluster or more dead
 *	expels itself instead (FTNL_EXPEL_QUORUM): at most one side of any
 *	partition remains a cluster
 */
enum ftnl_quorum {
	FTNL_QUORUM_OFF,
	FTNL_QUORUM_ON,
};

/* Buckets of the heartbeat emission lateness histogram: bucket 0 counts
 * heartbeats that left less than 1 us after their deadline, bucket i
 * (1 <= i < FTNL_LATENESS_BUCKETS - 1) those late by [2^(i-1), 2^i) us,
 * the last bucket everything later.
 */
#define FTNL_LATENESS_BUCKETS	24

/**
 * enum ftnl_cmd - generic netlink commands of the ftnl family
 * @FTNL_CMD_UNSPEC: never used
 * @FTNL_CMD_INFO_GET: do; reply carries FTNL_A_MODULE_VERSION,
 *	FTNL_A_PROTO_VERSION, FTNL_A_FEATURES, FTNL_A_MAX_NODES and
 *	FTNL_A_CONFIGURED if a cluster is configured in this netns.
 * @FTNL_CMD_CLUSTER_SET: do, admin; configure (or replace) this node's
 *	cluster. Requires FTNL_A_CLUSTER_ID, FTNL_A_SELF_ID,
 *	FTNL_A_HB_PERIOD_US, FTNL_A_TIMEOUT_US, FTNL_A_KEY and one FTNL_A_NODE
 *	per member (each with FTNL_A_NODE_ID, exactly one of
 *	FTNL_A_NODE_ADDR4/FTNL_A_NODE_ADDR6, and FTNL_A_NODE_PORT;
 *	FTNL_A_NODE_NAME and FTNL_A_NODE_DOMAIN are optional);
 *	FTNL_A_BCAST_ALGO is optional. FTNL_A_INCARNATION_FLOOR (optional)
 *	makes a node without a running cluster take an incarnation above it
 *	(read it back with FTNL_CMD_INFO_GET). The
 *	request is checked whole before anything changes. On success a
 *	FTNL_CMD_CLUSTER_NTF is multicast on "events".
 * @FTNL_CMD_CLUSTER_GET: do; reply carries FTNL_A_CLUSTER_ID,
 *	FTNL_A_SELF_ID, FTNL_A_HB_PERIOD_US, FTNL_A_TIMEOUT_US,
 *	FTNL_A_NODE_COUNT, FTNL_A_GENERATION, FTNL_A_INCARNATION and
 *	FTNL_A_BCAST_ALGO. The key is never returned. -ENOENT if no cluster is
 *	configured.
 * @FTNL_CMD_CLUSTER_DEL: do, admin; forget the cluster configuration of
 *	this netns. -ENOENT if none. Multicasts FTNL_CMD_CLUSTER_NTF with
 *	FTNL_A_CONFIGURED absent.
 * @FTNL_CMD_NODE_GET: dump; one message per node, each with
 *	FTNL_A_CLUSTER_ID, FTNL_A_GENERATION and one FTNL_A_NODE nest (id,
 *	address, port, state, name and domain if any, FTNL_A_NODE_SELF on
 *	this node's own entry), in ring order. An empty dump if no cluster is configured.
 * @FTNL_CMD_CLUSTER_NTF: notification on "events" after the cluster
 *	configuration of the netns changed: FTNL_A_GENERATION, and when a
 *	cluster is configured FTNL_A_CONFIGURED, FTNL_A_CLUSTER_ID,
 *	FTNL_A_SELF_ID, FTNL_A_NODE_COUNT.
 * @FTNL_CMD_CLUSTER_LEAVE: do, admin; leave the cluster gracefully: tell
 *	this node's observer and emitter, who announce it as a leave (cause
 *	FTNL_CAUSE_LEAVE), then forget the configuration as CLUSTER_DEL does.
 *	-ENOENT if no cluster is configured.
 * @FTNL_CMD_NODE_READMIT: do, admin; take back a node that is dead or left
 *	(FTNL_A_PEER_ID), once it restarted with a new
 *	incarnation: its datagrams are accepted again if their incarnation
 *	is newer than the dead one, and the ring is re-evaluated. -ENOENT for
 *	an unknown id, -EINVAL if the node is alive or is this node.
 * @FTNL_CMD_STATS_GET: do; counters of this node: FTNL_A_STATS nest.
 *	-ENOENT if no cluster is configured.
 * @FTNL_CMD_PROC_REGISTER: do; register the calling process under
 *	FTNL_A_PROC_JOB and FTNL_A_PROC_RANK. The registration lives as long
 *	as the netlink socket that made it: when the socket is released (the
 *	process exits or crashes, or closes it) without FTNL_CMD_PROC_UNREGISTER,
 *	the process is declared dead and broadcast to every node like a node
 *	death (FTNL_CMD_PROC_EXIT_NTF). Allowed to any user: a process
 *	registers itself, and the registration belongs to its owner, the uid
 *	of the sender's netlink credentials (FTNL_A_PROC_OWNER_UID in every
 *	event about it). One registration per socket, one live registration
 *	of a (job, rank) per owner on a node (-EEXIST; another user's
 *	registration of the same numbers is another registration, which a
 *	consumer checking the owner ignores), at most the module parameter
 *	max_procs_per_user per owner (-EDQUOT) and FTNL_MAX_PROCS per netns
 *	(-ENOSPC), deaths not yet broadcast included; -ENOENT if no cluster
 *	is configured. Deaths are broadcast in batches, at a rate the module
 *	parameters proc_exit_burst and proc_exit_rate bound. A
 *	registration belongs to the node, not to one configuration: it
 *	survives FTNL_CMD_CLUSTER_SET and FTNL_CMD_CLUSTER_DEL; a death while
 *	no cluster is configured is published on this node only (cluster
 *	id 0), since there is no one to broadcast it to.
 * @FTNL_CMD_PROC_UNREGISTER: do; end the calling socket's registration
 *	without a death (a clean exit). -ENOENT if it has none.
 * @FTNL_CMD_PROC_GET: dump; the processes registered on this node, one
 *	message each: FTNL_A_PROC_JOB, FTNL_A_PROC_RANK, FTNL_A_PROC_PORTID,
 *	FTNL_A_PROC_OWNER_UID. A reader with CAP_NET_ADMIN over the netns
 *	sees every registration, any other reader only its own uid's.
 * @FTNL_CMD_PROC_EXIT_NTF: notification on "events", once per registered
 *	process death this node learns: FTNL_A_PROC_JOB, FTNL_A_PROC_RANK,
 *	FTNL_A_PROC_OWNER_UID, FTNL_A_EVENT_NODE_ID (its node: the node that
 *	broadcast it, which only broadcasts its own), FTNL_A_EVENT_CAUSE
 *	(FTNL_CAUSE_OBSERVED on its own node, FTNL_CAUSE_BROADCAST elsewhere),
 *	FTNL_A_EVENT_TIME_MONO_NS, FTNL_A_EVENT_TIME_REAL_NS, FTNL_A_CLUSTER_ID.
 * @FTNL_CMD_FAILURE_NTF: notification on "events", once per failure this
 *	node learns: FTNL_A_EVENT_NODE_ID, FTNL_A_EVENT_INCARNATION,
 *	FTNL_A_EVENT_CAUSE, FTNL_A_EVENT_OBSERVER_ID (the node that observed
 *	it, this node for FTNL_CAUSE_OBSERVED; for a death learned only from
 *	another node's D, which names no observer - the D carried by a
 *	broadcast, or a welcome on first contact - that node),
 *	FTNL_A_EVENT_TIME_MONO_NS and
 *	FTNL_A_EVENT_TIME_REAL_NS (when this node learned it), FTNL_A_CLUSTER_ID,
 *	FTNL_A_GENERATION.
 * @FTNL_CMD_EVENT_GET: dump; the events this node keeps in its history
 *	(the last FTNL_EVENT_HISTORY_LEN, whatever their kind), oldest first,
 *	each with the attributes of its notification, FTNL_A_EVENT_SEQ and
 *	FTNL_A_EVENT_NTF_CMD (the notification it was multicast as). With
 *	FTNL_A_EVENT_AFTER_SEQ, only the events numbered after it. A reader
 *	that missed events (an overrun, or a gap in the sequence numbers)
 *	dumps those after the last one it saw; if the first one returned is
 *	not the next number, the history no longer holds the ones between.
 *	-EINVAL (with extack) for an FTNL_A_EVENT_AFTER_SEQ newer than the
 *	newest event: a reader from before the netns (or module) was
 *	recreated.
 *
 * Every event notification (FAILURE_NTF, PROC_EXIT_NTF and the kinds added
 * after them; not CLUSTER_NTF, which FTNL_A_GENERATION numbers) carries
 * FTNL_A_EVENT_SEQ, the netns's sequence number of events: 1 for its
 * first, each event one more. A subscriber that sees a number skipped
 * missed that event (the node's queue overflowed or a notification could
 * not be built: FTNL_A_STATS_EVENTS_QUEUE_OVERFLOW,
 * FTNL_A_STATS_EVENTS_NOTIFY_FAILED) and finds it in FTNL_CMD_EVENT_GET.
 * @FTNL_CMD_EXPELLED_NTF: notification on "events", once, when this node
 *	is expelled: the cluster declared its current incarnation dead (or
 *	it expelled itself), and it no longer acts as a member (no
 *	heartbeat, no observation, no broadcast) until it comes back as a
 *	new incarnation. FTNL_A_EVENT_NODE_ID (this node), its
 *	FTNL_A_EVENT_INCARNATION, FTNL_A_EXPEL_REASON,
 *	FTNL_A_EVENT_OBSERVER_ID (the member that said so; this node when it
 *	expelled itself), FTNL_A_EVENT_TIME_MONO_NS, FTNL_A_EVENT_TIME_REAL_NS,
 *	FTNL_A_CLUSTER_ID, FTNL_A_GENERATION. Registered processes are fenced
 *	as FTNL_A_FENCE says.
 * @FTNL_CMD_JOINED_NTF: notification on "events", once per rejoin this
 *	node learns (FTNL_REJOIN_AUTO): a dead node came back with a new
 *	incarnation and is a member again. The attributes of FAILURE_NTF:
 *	FTNL_A_EVENT_NODE_ID, FTNL_A_EVENT_INCARNATION (the new one),
 *	FTNL_A_EVENT_CAUSE (FTNL_CAUSE_OBSERVED when this node admitted it,
 *	FTNL_CAUSE_BROADCAST when it learned the JOIN),
 *	FTNL_A_EVENT_OBSERVER_ID (the member that admitted it), the times,
 *	FTNL_A_CLUSTER_ID, FTNL_A_GENERATION.
 */
enum ftnl_cmd {
	FTNL_CMD_UNSPEC,
	FTNL_CMD_INFO_GET,
	FTNL_CMD_CLUSTER_SET,
	FTNL_CMD_CLUSTER_GET,
	FTNL_CMD_CLUSTER_DEL,
	FTNL_CMD_NODE_GET,
	FTNL_CMD_CLUSTER_NTF,
	FTNL_CMD_CLUSTER_LEAVE,
	FTNL_CMD_NODE_READMIT,
	FTNL_CMD_STATS_GET,
	FTNL_CMD_FAILURE_NTF,
	FTNL_CMD_PROC_REGISTER,
	FTNL_CMD_PROC_UNREGISTER,
	FTNL_CMD_PROC_GET,
	FTNL_CMD_PROC_EXIT_NTF,
	FTNL_CMD_EVENT_GET,
	FTNL_CMD_EXPELLED_NTF,
	FTNL_CMD_JOINED_NTF,

	__FTNL_CMD_MAX,
	FTNL_CMD_MAX = __FTNL_CMD_MAX - 1
};

/**
 * enum ftnl_attr - top-level attributes
 * @FTNL_A_UNSPEC: never used
 * @FTNL_A_MODULE_VERSION: string, version of the loaded module
 * @FTNL_A_PROTO_VERSION: u32, FTNL_PROTO_VERSION spoken on the wire
 * @FTNL_A_FEATURES: u64, bitmask of enum ftnl_feature
 * @FTNL_A_MAX_NODES: u32, largest node table accepted (FTNL_MAX_NODES)
 * @FTNL_A_CONFIGURED: flag, present when a cluster is configured
 * @FTNL_A_CLUSTER_ID: u32, cluster identifier, nonzero; datagrams of other
 *	clusters are dropped
 * @FTNL_A_SELF_ID: u32, this node's id; must appear in the node table
 * @FTNL_A_HB_PERIOD_US: u32, heartbeat period h in microseconds,
 *	FTNL_HB_PERIOD_MIN_US..FTNL_HB_PERIOD_MAX_US
 * @FTNL_A_TIMEOUT_US: u32, suspicion timeout d in microseconds; must be
 *	greater than h and at most FTNL_TIMEOUT_MAX_US
 * @FTNL_A_KEY: binary, exactly FTNL_KEY_LEN bytes, the cluster secret
 *	authenticating datagrams; write-only. Cluster set: required, unless
 *	the nodes carry pair keys (FTNL_A_NODE_KEY), and refused then
 * @FTNL_A_NODE: nest of enum ftnl_node_attr; multi-attribute (one per node)
 * @FTNL_A_NODE_COUNT: u32, number of nodes in the table
 * @FTNL_A_GENERATION: u32, incremented by every successful configuration
 *	change in this netns; lets a dump reader detect a concurrent change
 * @FTNL_A_PAD: padding for 64-bit attributes
 * @FTNL_A_INCARNATION: u64, this node's incarnation (info and cluster get):
 *	chosen when the netns's ftnl state is created, larger after every
 *	restart of the node
 * @FTNL_A_PEER_ID: u32, the node a command is about (NODE_READMIT)
 * @FTNL_A_STATS: nest of enum ftnl_stats_attr
 * @FTNL_A_EVENT_NODE_ID: u32, the failed node
 * @FTNL_A_EVENT_INCARNATION: u64, its incarnation (0 if it never spoke)
 * @FTNL_A_EVENT_CAUSE: u8, enum ftnl_event_cause
 * @FTNL_A_EVENT_OBSERVER_ID: u32, the node that detected the failure
 * @FTNL_A_EVENT_TIME_MONO_NS: u64, CLOCK_MONOTONIC when this node learned
 * @FTNL_A_EVENT_TIME_REAL_NS: u64, CLOCK_REALTIME when this node learned
 * @FTNL_A_BCAST_ALGO: u8, enum ftnl_bcast_algo (cluster set, optional,
 *	default FTNL_BCAST_HYPERCUBE; cluster get)
 * @FTNL_A_PROC_JOB: u64, job or process group id of a registered process
 * @FTNL_A_PROC_RANK: u32, its rank in the job
 * @FTNL_A_PROC_PORTID: u32, netlink port id of its registering socket
 * @FTNL_A_BCAST_FCG_F: u8, FCG's f, FTNL_FCG_F_MIN..FTNL_FCG_F_MAX
 *	(cluster set, optional, default FTNL_FCG_F_DEFAULT; cluster get)
 * @FTNL_A_BCAST_GOSSIP_T_US: u32, FCG's gossip time T in microseconds, at
 *	most FTNL_GOSSIP_T_MAX_US, 0 for the paper's choice from n (cluster
 *	set, optional; cluster get)
 * @FTNL_A_EVENT_NODE_NAME: string, the failed node's FTNL_A_NODE_NAME, when
 *	the configuration gave it one (FAILURE_NTF, PROC_EXIT_NTF)
 * @FTNL_A_PROC_OWNER_UID: u32, the owner of a registered process: the uid
 *	of the process that registered it, in the initial user namespace
 *	(PROC_GET, PROC_EXIT_NTF; never taken from a request)
 * @FTNL_A_EVENT_SEQ: u64, the event's sequence number in this netns (every
 *	event notification, EVENT_GET)
 * @FTNL_A_EVENT_NTF_CMD: u8, the notification command an event of the
 *	history was multicast as, e.g. FTNL_CMD_FAILURE_NTF (EVENT_GET)
 * @FTNL_A_EVENT_AFTER_SEQ: u64, EVENT_GET returns only the events numbered
 *	after it (request, optional; 0 for all)
 * @FTNL_A_FENCE: u8, enum ftnl_fence (cluster set, optional, default
 *	FTNL_FENCE_NONE; cluster get)
 * @FTNL_A_EXPEL_REASON: u8, enum ftnl_expel_reason (EXPELLED_NTF)
 * @FTNL_A_REJOIN: u8, enum ftnl_rejoin (cluster set, optional, default
 *	FTNL_REJOIN_AUTO; cluster get)
 * @FTNL_A_REJOIN_FLAP_LIMIT: u32, K: rejoins of one node admitted within the
 *	flap window, FTNL_REJOIN_FLAP_LIMIT_MIN..FTNL_REJOIN_FLAP_LIMIT_MAX
 *	(cluster set, optional, default FTNL_REJOIN_FLAP_LIMIT_DEFAULT; cluster
 *	get)
 * @FTNL_A_REJOIN_FLAP_WINDOW_S: u32, W in seconds,
 *	FTNL_REJOIN_FLAP_WINDOW_MIN_S..FTNL_REJOIN_FLAP_WINDOW_MAX_S (cluster
 *	set, optional, default FTNL_REJOIN_FLAP_WINDOW_DEFAULT_S; cluster get)
 * @FTNL_A_QUORUM: u8, enum ftnl_quorum (cluster set, optional, default
 *	FTNL_QUORUM_ON for 3 nodes or more, FTNL_QUORUM_OFF below; cluster
 *	get): a node never publishes a death that would leave its live set
 *	without a strict majority of the cluster, it expels itself instead
 *	(FTNL_EXPEL_QUORUM)
 * @FTNL_A_TIMEOUT_MIN_US: u32, d_min: given, timeouts adapt between it and
 *	FTNL_A_TIMEOUT_US; more than h, at most d (cluster set, optional;
 *	cluster get, adaptive mode only)
 * @FTNL_A_TIMEOUT_TARGET_NINES: u8, the target false-suspicion rate per
 *	heartbeat is 10^-it, FTNL_TIMEOUT_NINES_MIN..FTNL_TIMEOUT_NINES_MAX
 *	(cluster set, only with FTNL_A_TIMEOUT_MIN_US, default
 *	FTNL_TIMEOUT_NINES_DEFAULT; cluster get, adaptive mode only)
 * @FTNL_A_EPOCH: u32, the configuration's epoch, carried by every datagram
 *	(cluster set, optional; cluster get). A configuration that replaces
 *	a running one and changes what other nodes see of it (key, h, d,
 *	adaptive timeouts, node table) must raise it; left out, it is the
 *	running one's plus one in that case, the running one's otherwise
 *	(0 for a first configuration). A given epoch below the running one,
 *	or equal to it with such a change, is refused.
 * @FTNL_A_UPDATE_GRACE_S: u32, the update grace in seconds,
 *	FTNL_UPDATE_GRACE_MIN_S..FTNL_UPDATE_GRACE_MAX_S (cluster set,
 *	optional, default FTNL_UPDATE_GRACE_DEFAULT_S; cluster get): how long
 *	after a replacement of another epoch the previous key is accepted and
 *	changed neighbours are waited for
 * @FTNL_A_PREV_KEY_LEFT_MS: u64, how long the previous key is still
 *	accepted, in milliseconds (cluster get; absent when there is none)
 * @FTNL_A_INCARNATION_FLOOR: u64, cluster set, optional: the largest
 *	incarnation this node had in an earlier boot (kept on disk by
 *	ftnl-cli cluster apply --state). A node that runs no cluster yet
 *	takes a new incarnation above it (and above every one the module
 *	gave this boot), so that a wall clock behind after a reboot cannot
 *	give it a smaller life than one the members knew. 1 to
 *	FTNL_INCARNATION_FLOOR_MAX; on a node whose cluster runs, at most
 *	the running incarnation (a running life is never replaced by a
 *	floor; a reload gives the one it wrote back).
 * @FTNL_A_PAIR_KEYS: flag, cluster get: datagrams are authenticated with
 *	one key per pair of nodes (FTNL_A_NODE_KEY), not the cluster key
 * @FTNL_A_SIGN_SEED: binary, exactly FTNL_SIGN_SEED_LEN bytes, cluster set
 *	only, write-only: this node's secret Ed25519 seed, with which it
 *	signs the broadcasts it originates. Needs pair keys, and a public
 *	key (FTNL_A_NODE_SIGN_KEY) on every other node; ftnl_sign_seed() in
 *	libftnl derives it
 * @FTNL_A_SIGNED: flag, cluster get: broadcasts are signed by their origin
 *	and only those whose signature verifies are acted on
 */
enum ftnl_attr {
	FTNL_A_UNSPEC,
	FTNL_A_MODULE_VERSION,
	FTNL_A_PROTO_VERSION,
	FTNL_A_FEATURES,
	FTNL_A_MAX_NODES,
	FTNL_A_CONFIGURED,
	FTNL_A_CLUSTER_ID,
	FTNL_A_SELF_ID,
	FTNL_A_HB_PERIOD_US,
	FTNL_A_TIMEOUT_US,
	FTNL_A_KEY,
	FTNL_A_NODE,
	FTNL_A_NODE_COUNT,
	FTNL_A_GENERATION,
	FTNL_A_PAD,
	FTNL_A_INCARNATION,
	FTNL_A_PEER_ID,
	FTNL_A_STATS,
	FTNL_A_EVENT_NODE_ID,
	FTNL_A_EVENT_INCARNATION,
	FTNL_A_EVENT_CAUSE,
	FTNL_A_EVENT_OBSERVER_ID,
	FTNL_A_EVENT_TIME_MONO_NS,
	FTNL_A_EVENT_TIME_REAL_NS,
	FTNL_A_BCAST_ALGO,
	FTNL_A_PROC_JOB,
	FTNL_A_PROC_RANK,
	FTNL_A_PROC_PORTID,
	FTNL_A_BCAST_FCG_F,
	FTNL_A_BCAST_GOSSIP_T_US,
	FTNL_A_EVENT_NODE_NAME,
	FTNL_A_PROC_OWNER_UID,
	FTNL_A_EVENT_SEQ,
	FTNL_A_EVENT_NTF_CMD,
	FTNL_A_EVENT_AFTER_SEQ,
	FTNL_A_FENCE,
	FTNL_A_EXPEL_REASON,
	FTNL_A_REJOIN,
	FTNL_A_REJOIN_FLAP_LIMIT,
	FTNL_A_REJOIN_FLAP_WINDOW_S,
	FTNL_A_QUORUM,
	FTNL_A_TIMEOUT_MIN_US,
	FTNL_A_TIMEOUT_TARGET_NINES,
	FTNL_A_EPOCH,
	FTNL_A_UPDATE_GRACE_S,
	FTNL_A_PREV_KEY_LEFT_MS,
	FTNL_A_INCARNATION_FLOOR,
	FTNL_A_PAIR_KEYS,
	FTNL_A_SIGN_SEED,
	FTNL_A_SIGNED,

	__FTNL_A_MAX,
	FTNL_A_MAX = __FTNL_A_MAX - 1
};

/**
 * enum ftnl_node_attr - attributes nested in FTNL_A_NODE
 * @FTNL_A_NODE_UNSPEC: never used
 * @FTNL_A_NODE_ID: u32, node id, unique in the cluster
 * @FTNL_A_NODE_ADDR4: binary, 4 bytes, IPv4 address (network order)
 * @FTNL_A_NODE_ADDR6: binary, 16 bytes, IPv6 address (network order)
 * @FTNL_A_NODE_PORT: u16, UDP port (host order), nonzero; the address and
 *	port pair is unique in the cluster
 * @FTNL_A_NODE_STATE: u8, enum ftnl_node_state (dump only)
 * @FTNL_A_NODE_SELF: flag, this entry is the local node (dump only)
 * @FTNL_A_NODE_INCARNATION: u64, last incarnation heard from the node, 0 if
 *	never (dump only)
 * @FTNL_A_NODE_EMITTER: flag, this node observes that node: it is this
 *	node's emitter on the ring (dump only)
 * @FTNL_A_NODE_OBSERVER: flag, that node observes this node: this node
 *	heartbeats it (dump only)
 * @FTNL_A_NODE_HB_AGE_US: u64, on the emitter's entry: microseconds since
 *	its last heartbeat arrived (absent if none arrived yet) (dump only)
 * @FTNL_A_NODE_PAD: padding for 64-bit attributes
 * @FTNL_A_NODE_NAME: string, optional, a name for people (a host name such
 *	as cn012): 1 to FTNL_NODE_NAME_MAX letters, digits, '.', '-' or '_';
 *	shown in dumps and carried in the node's events, never used to
 *	address it
 * @FTNL_A_NODE_DOMAIN: string, optional, the node's failure domain (a
 *	rack, a power feed): 1 to FTNL_NODE_DOMAIN_MAX letters, digits, '.',
 *	'-' or '_'. The ring order keeps the nodes of one domain apart
 *	(absent: a domain of its own)
 * @FTNL_A_NODE_KEY: binary, exactly FTNL_KEY_LEN bytes, cluster set only,
 *	write-only: the key of the pair (this node, that node), which
 *	authenticates every datagram between the two. Either every node but
 *	this one carries one and FTNL_A_KEY is left out, or none does. A
 *	member then holds only the keys of its own pairs and cannot forge
 *	another member's datagrams (Documentation/admin-guide.rst,
 *	"Security model"); ftnl_pair_key() in libftnl derives them
 * @FTNL_A_NODE_SIGN_KEY: binary, exactly FTNL_SIGN_KEY_LEN bytes, cluster
 *	set only: that node's Ed25519 public key, which checks the
 *	broadcasts it originates. On every node but this one when
 *	FTNL_A_SIGN_SEED is given, on none otherwise
 */
enum ftnl_node_attr {
	FTNL_A_NODE_UNSPEC,
	FTNL_A_NODE_ID,
	FTNL_A_NODE_ADDR4,
	FTNL_A_NODE_ADDR6,
	FTNL_A_NODE_PORT,
	FTNL_A_NODE_STATE,
	FTNL_A_NODE_SELF,
	FTNL_A_NODE_INCARNATION,
	FTNL_A_NODE_EMITTER,
	FTNL_A_NODE_OBSERVER,
	FTNL_A_NODE_HB_AGE_US,
	FTNL_A_NODE_PAD,
	FTNL_A_NODE_NAME,
	FTNL_A_NODE_DOMAIN,
	FTNL_A_NODE_KEY,
	FTNL_A_NODE_SIGN_KEY,

	__FTNL_A_NODE_MAX,
	FTNL_A_NODE_MAX = __FTNL_A_NODE_MAX - 1
};

/**
 * enum ftnl_stats_attr - counters nested in FTNL_A_STATS, all u64 since the
 *	cluster was configured
 * @FTNL_A_STATS_UNSPEC: never used
 * @FTNL_A_STATS_HB_SENT: heartbeats sent to the observer
 * @FTNL_A_STATS_HB_RECV: heartbeats accepted (from any member)
 * @FTNL_A_STATS_HB_FROM_EMITTER: heartbeats from the current emitter, the
 *	ones that re-arm the suspicion timer
 * @FTNL_A_STATS_SUSPICIONS: emitters declared dead by this node (task T3)
 * @FTNL_A_STATS_NEW_OBSERVER_SENT: NEW_OBSERVER datagrams sent
 * @FTNL_A_STATS_NEW_OBSERVER_RECV: NEW_OBSERVER datagrams accepted
 * @FTNL_A_STATS_LEAVE_SENT: LEAVE datagrams sent
 * @FTNL_A_STATS_LEAVE_RECV: LEAVE datagrams accepted
 * @FTNL_A_STATS_TX_ERRORS: datagrams that could not be sent (no route,
 *	no memory)
 * @FTNL_A_STATS_EVENTS_LOST: broadcasts FCG took no part in, having no
 *	slot for another concurrent one (recording an event never
 *	allocates, so no event is lost for want of memory)
 * @FTNL_A_STATS_DROP: nest, one u64 per enum ftnl_drop_reason, attribute
 *	type = reason + 1 (type FTNL_DROP_MAX + 2 is padding)
 * @FTNL_A_STATS_LATENESS: nest, FTNL_LATENESS_BUCKETS u64 counts of the
 *	heartbeat emission lateness histogram, attribute type = bucket + 1
 *	(type FTNL_LATENESS_BUCKETS + 1 is padding)
 * @FTNL_A_STATS_LATENESS_MAX_NS: u64, largest emission lateness seen
 * @FTNL_A_STATS_PAD: padding for 64-bit attributes
 * @FTNL_A_STATS_BCAST_ORIGINATED: broadcasts this node started (one per
 *	failure it detected)
 * @FTNL_A_STATS_BCAST_FORWARDED: broadcast datagrams sent as a forwarder
 * @FTNL_A_STATS_BCAST_SENT: broadcast datagrams (BCAST, GOSSIP) sent in
 *	all (work); the welcome sent to a node heard first or rejoined
 *	(FTNL_MSG_JOIN) is not one
 * @FTNL_A_STATS_BCAST_DELIVERED: broadcasts of others received a first time
 * @FTNL_A_STATS_BCAST_DUPLICATES: further copies of broadcasts already
 *	received, ignored
 * @FTNL_A_STATS_BCAST_LATENCY_LAST_NS: origin-to-delivery time of the last
 *	broadcast delivered (origin and receiver wall clocks; meaningful when
 *	they are synchronized, e.g. on one machine)
 * @FTNL_A_STATS_BCAST_LATENCY_MAX_NS: largest such time
 * @FTNL_A_STATS_BCAST_LATENCY_SUM_NS: sum over delivered broadcasts
 * @FTNL_A_STATS_HB_SKIPPED: heartbeat periods that passed without a
 *	heartbeat because the timer ran more than h late
 * @FTNL_A_STATS_EVENT_SEQ: sequence number of this netns's newest event
 *	(this and the next two count since the netns's ftnl state was
 *	created, not since the configuration)
 * @FTNL_A_STATS_EVENTS_QUEUE_OVERFLOW: events not multicast because more
 *	than the module parameter event_queue_len were waiting; they are in
 *	the history (FTNL_CMD_EVENT_GET)
 * @FTNL_A_STATS_EVENTS_NOTIFY_FAILED: event notifications that could not
 *	be built (no memory); the events are in the history
 * @FTNL_A_STATS_EXPELLED_SENT: EXPELLED datagrams sent to nodes this node
 *	holds dead that were still talking (at most one per node per h)
 * @FTNL_A_STATS_EXPELLED_RECV: EXPELLED datagrams received
 * @FTNL_A_STATS_STALL_WAITS: judgements put off by the local health rule:
 *	this node's own timers ran more than h late, or its host dropped
 *	received datagrams (FTNL_A_STATS_HOST_RX_DROPS), while it waited for the
 *	emitter, so it waited h more before judging it (2d more for a new
 *	emitter), or while its probe round was open, so the round was
 *	extended by 2d instead of this node resigning
 *	(Documentation/ring.rst, "Local health")
 * @FTNL_A_STATS_PROBE_REQ_SENT: PROBE_REQ datagrams sent (as the observer
 *	asking helpers, or as a helper forwarding to the suspect)
 * @FTNL_A_STATS_PROBE_REQ_RECV: PROBE_REQ datagrams accepted
 * @FTNL_A_STATS_PROBE_ACK_SENT: PROBE_ACK datagrams sent (answers and
 *	relays)
 * @FTNL_A_STATS_PROBE_ACK_RECV: PROBE_ACK datagrams accepted
 * @FTNL_A_STATS_SUSPICIONS_REFUTED: suspicions of the emitter withheld
 *	because it answered a helper's probe
 * @FTNL_A_STATS_PROBES_THROTTLED: probe requests and relays refused over
 *	the per-period budget
 * @FTNL_A_STATS_NEWS_HELD: death news held because it may predate this
 *	node's life: received in its first 2d in a datagram not proven fresh,
 *	about a node whose life it did not know (Documentation/ring.rst,
 *	"News older than this life"); or because it names no life, about a
 *	node whose life this node just pinned ("News that names no life")
 * @FTNL_A_STATS_NEWS_STALE: held news dropped: its node proved a newer life,
 *	or a JOIN named the life pinned
 * @FTNL_A_STATS_PREV_KEY_RECV: datagrams authenticated with the previous
 *	key (the update grace after a key change)
 * @FTNL_A_STATS_SUSPICIONS_VERIFIED: suspicions of the emitter verified
 *	before an accusation: once its silence was established, the suspect
 *	and the helpers were asked again, and only answers received after
 *	that count (so an observer gone deaf cannot accuse; see
 *	"Verification: dead means dead" in Documentation/ring.rst)
 * @FTNL_A_STATS_FORMING_WAITS: probe rounds this node kept open, instead
 *	of resigning, while it waited for its first emitter and fewer than a
 *	majority answered: the cluster was still forming around it (quorum
 *	rule; "Boot grace" in Documentation/ring.rst)
 * @FTNL_A_STATS_HOST_RX_DROPS: datagrams of this node's input dropped
 *	at a full input backlog before any protocol saw them, while this
 *	ring ran: counted when the host's backlog drops (as in
 *	/proc/net/softnet_stat) and the input drops of the devices of this
 *	node's network namespace rose in the same heartbeat period (the
 *	smaller rise); each period that saw some is input to the local
 *	health rule
 *	(FTNL_A_STATS_STALL_WAITS; Documentation/ring.rst, "Local health")
 * @FTNL_A_STATS_HB_LOCK_WAIT: nest, FTNL_LATENESS_BUCKETS u64 counts, as
 *	FTNL_A_STATS_LATENESS: how long each heartbeat's timer waited for the
 *	ring's lock, which other contexts (received datagrams, probes,
 *	broadcasts) held; part of its emission lateness
 * @FTNL_A_STATS_HB_LOCK_WAIT_MAX_NS: u64, the longest of those waits
 * @FTNL_A_STATS_HB_START_LATE: nest, FTNL_LATENESS_BUCKETS u64 counts, as
 *	FTNL_A_STATS_LATENESS: how late each heartbeat's timer began to run,
 *	from its deadline to the first instruction of its handler (interrupt
 *	and softirq delivery, before the lock wait and the send); part of its
 *	emission lateness
 * @FTNL_A_STATS_HB_START_LATE_MAX_NS: u64, the latest of those starts
 * @FTNL_A_STATS_HOST_RX_UNREAD: heartbeat ticks and judgements that found
 *	a datagram the host had queued for input before the last tick still
 *	unread (a CPU's input backlog, as veth, loopback and RPS use: its
 *	receive softirq behind); each is input to the local health rule, as
 *	drops are (Documentation/ring.rst, "Local health"). 0 on a kernel
 *	built without CONFIG_RPS
 * @FTNL_A_STATS_PROBES_DEFERRED: indirect probes of the emitter put off,
 *	when due, because the host had just dropped or held input: the late
 *	heartbeat may still wait in the backlog (Documentation/ring.rst,
 *	"Local health")
 * @FTNL_A_STATS_PROBE_ASKS_HELD: requests of this node's probes to helpers
 *	not sent because the host had just dropped or held input: their
 *	answers would meet the same backlog; each is sent at a later retry
 *	(Documentation/ring.rst, "Local health")
 */
enum ftnl_stats_attr {
	FTNL_A_STATS_UNSPEC,
	FTNL_A_STATS_HB_SENT,
	FTNL_A_STATS_HB_RECV,
	FTNL_A_STATS_HB_FROM_EMITTER,
	FTNL_A_STATS_SUSPICIONS,
	FTNL_A_STATS_NEW_OBSERVER_SENT,
	FTNL_A_STATS_NEW_OBSERVER_RECV,
	FTNL_A_STATS_LEAVE_SENT,
	FTNL_A_STATS_LEAVE_RECV,
	FTNL_A_STATS_TX_ERRORS,
	FTNL_A_STATS_EVENTS_LOST,
	FTNL_A_STATS_DROP,
	FTNL_A_STATS_LATENESS,
	FTNL_A_STATS_LATENESS_MAX_NS,
	FTNL_A_STATS_PAD,
	FTNL_A_STATS_BCAST_ORIGINATED,
	FTNL_A_STATS_BCAST_FORWARDED,
	FTNL_A_STATS_BCAST_SENT,
	FTNL_A_STATS_BCAST_DELIVERED,
	FTNL_A_STATS_BCAST_DUPLICATES,
	FTNL_A_STATS_BCAST_LATENCY_LAST_NS,
	FTNL_A_STATS_BCAST_LATENCY_MAX_NS,
	FTNL_A_STATS_BCAST_LATENCY_SUM_NS,
	FTNL_A_STATS_HB_SKIPPED,
	FTNL_A_STATS_EVENT_SEQ,
	FTNL_A_STATS_EVENTS_QUEUE_OVERFLOW,
	FTNL_A_STATS_EVENTS_NOTIFY_FAILED,
	FTNL_A_STATS_EXPELLED_SENT,
	FTNL_A_STATS_EXPELLED_RECV,
	FTNL_A_STATS_STALL_WAITS,
	FTNL_A_STATS_PROBE_REQ_SENT,
	FTNL_A_STATS_PROBE_REQ_RECV,
	FTNL_A_STATS_PROBE_ACK_SENT,
	FTNL_A_STATS_PROBE_ACK_RECV,
	FTNL_A_STATS_SUSPICIONS_REFUTED,
	FTNL_A_STATS_PROBES_THROTTLED,
	FTNL_A_STATS_NEWS_HELD,
	FTNL_A_STATS_NEWS_STALE,
	FTNL_A_STATS_PREV_KEY_RECV,
	FTNL_A_STATS_SUSPICIONS_VERIFIED,
	FTNL_A_STATS_FORMING_WAITS,
	FTNL_A_STATS_HOST_RX_DROPS,
	FTNL_A_STATS_HB_LOCK_WAIT,
	FTNL_A_STATS_HB_LOCK_WAIT_MAX_NS,
	FTNL_A_STATS_HB_START_LATE,
	FTNL_A_STATS_HB_START_LATE_MAX_NS,
	FTNL_A_STATS_HOST_RX_UNREAD,
	FTNL_A_STATS_PROBES_DEFERRED,
	FTNL_A_STATS_PROBE_ASKS_HELD,

	__FTNL_A_STATS_MAX,
	FTNL_A_STATS_MAX = __FTNL_A_STATS_MAX - 1
};

#endif /* _UAPI_LINUX_FTNL_H */
