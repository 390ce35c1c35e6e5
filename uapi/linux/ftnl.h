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
 *   owning the network namespace; reading is open to everybody.
 * - Every rejection carries an extack message naming what was wrong, and
 *   leaves the existing state untouched.
 * - All state is per network namespace: one netns is one node.
 */
#ifndef _UAPI_LINUX_FTNL_H
#define _UAPI_LINUX_FTNL_H

#include <linux/types.h>

#define FTNL_FAMILY_NAME	"ftnl"
#define FTNL_FAMILY_VERSION	1

/* Version of the on-the-wire protocol between nodes (datagrams). */
#define FTNL_PROTO_VERSION	1

/* Multicast group: failure events and cluster configuration changes. */
#define FTNL_MCGRP_EVENTS	"events"

/* Limits enforced by the module (and by libftnl before sending). */
#define FTNL_MAX_NODES		65536
#define FTNL_KEY_LEN		32	/* keyed BLAKE2s-256 key, bytes */
#define FTNL_HB_PERIOD_MIN_US	1000U		/* 1 ms */
#define FTNL_HB_PERIOD_MAX_US	60000000U	/* 60 s */
#define FTNL_TIMEOUT_MAX_US	600000000U	/* 600 s */

/**
 * enum ftnl_feature - bits of FTNL_A_FEATURES, what this module implements
 * @FTNL_FEATURE_CLUSTER: cluster set/get/del and node dump
 * @FTNL_FEATURE_IPV6: nodes may have IPv6 addresses
 * @FTNL_FEATURE_EVENTS: the "events" multicast group carries notifications
 */
enum ftnl_feature {
	FTNL_FEATURE_CLUSTER	= 1 << 0,
	FTNL_FEATURE_IPV6	= 1 << 1,
	FTNL_FEATURE_EVENTS	= 1 << 2,
};

/**
 * enum ftnl_node_state - life of a node as this node knows it
 * @FTNL_NODE_STATE_ALIVE: member, not known to have failed
 * @FTNL_NODE_STATE_DEAD: declared dead (observed or learned by broadcast)
 * @FTNL_NODE_STATE_LEFT: left the cluster gracefully
 */
enum ftnl_node_state {
	FTNL_NODE_STATE_ALIVE,
	FTNL_NODE_STATE_DEAD,
	FTNL_NODE_STATE_LEFT,

	__FTNL_NODE_STATE_MAX,
	FTNL_NODE_STATE_MAX = __FTNL_NODE_STATE_MAX - 1
};

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
 *	FTNL_A_NODE_ADDR4/FTNL_A_NODE_ADDR6, and FTNL_A_NODE_PORT). The
 *	request is checked whole before anything changes. On success a
 *	FTNL_CMD_CLUSTER_NTF is multicast on "events".
 * @FTNL_CMD_CLUSTER_GET: do; reply carries FTNL_A_CLUSTER_ID,
 *	FTNL_A_SELF_ID, FTNL_A_HB_PERIOD_US, FTNL_A_TIMEOUT_US,
 *	FTNL_A_NODE_COUNT and FTNL_A_GENERATION. The key is never returned.
 *	-ENOENT if no cluster is configured.
 * @FTNL_CMD_CLUSTER_DEL: do, admin; forget the cluster configuration of
 *	this netns. -ENOENT if none. Multicasts FTNL_CMD_CLUSTER_NTF with
 *	FTNL_A_CONFIGURED absent.
 * @FTNL_CMD_NODE_GET: dump; one message per node, each with
 *	FTNL_A_CLUSTER_ID, FTNL_A_GENERATION and one FTNL_A_NODE nest (id,
 *	address, port, state, FTNL_A_NODE_SELF on this node's own entry).
 *	An empty dump if no cluster is configured.
 * @FTNL_CMD_CLUSTER_NTF: notification on "events" after the cluster
 *	configuration of the netns changed: FTNL_A_GENERATION, and when a
 *	cluster is configured FTNL_A_CONFIGURED, FTNL_A_CLUSTER_ID,
 *	FTNL_A_SELF_ID, FTNL_A_NODE_COUNT.
 */
enum ftnl_cmd {
	FTNL_CMD_UNSPEC,
	FTNL_CMD_INFO_GET,
	FTNL_CMD_CLUSTER_SET,
	FTNL_CMD_CLUSTER_GET,
	FTNL_CMD_CLUSTER_DEL,
	FTNL_CMD_NODE_GET,
	FTNL_CMD_CLUSTER_NTF,

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
 *	authenticating datagrams; write-only
 * @FTNL_A_NODE: nest of enum ftnl_node_attr; multi-attribute (one per node)
 * @FTNL_A_NODE_COUNT: u32, number of nodes in the table
 * @FTNL_A_GENERATION: u32, incremented by every successful configuration
 *	change in this netns; lets a dump reader detect a concurrent change
 * @FTNL_A_PAD: padding for 64-bit attributes
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
 */
enum ftnl_node_attr {
	FTNL_A_NODE_UNSPEC,
	FTNL_A_NODE_ID,
	FTNL_A_NODE_ADDR4,
	FTNL_A_NODE_ADDR6,
	FTNL_A_NODE_PORT,
	FTNL_A_NODE_STATE,
	FTNL_A_NODE_SELF,

	__FTNL_A_NODE_MAX,
	FTNL_A_NODE_MAX = __FTNL_A_NODE_MAX - 1
};

#endif /* _UAPI_LINUX_FTNL_H */
