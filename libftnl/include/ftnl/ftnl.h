/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftnl: userspace client of the ftnl generic netlink family.
 *
 * Conventions of the whole API:
 *
 * - Functions returning int return 0 (or a documented positive value) on
 *   success and a negative errno value on failure. They never print.
 * - A struct ftnl_handle is one netlink socket. It is not thread-safe: use
 *   it from one thread at a time (or one handle per thread).
 * - After a failed request, ftnl_errmsg() tells why in words, quoting the
 *   kernel's extended ack when it sent one.
 * - Nothing here validates before sending: ftnl_cluster_set() sends what it
 *   is given, so that tests can prove the kernel rejects bad input. Call
 *   ftnl_config_validate() first to catch mistakes without a round trip.
 *
 * The netlink contract is <linux/ftnl.h> (uapi/linux/ftnl.h in the source
 * tree); its constants (FTNL_KEY_LEN, FTNL_MAX_NODES, enum ftnl_node_state,
 * enum ftnl_feature, the limits) are used here unchanged.
 */
#ifndef FTNL_FTNL_H
#define FTNL_FTNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>
#include <linux/ftnl.h>

#ifdef __cplusplus
extern "C" {
#endif

/* libftnl's own version, as in its soname (libftnl.so.1) and pkg-config. */
#define FTNL_LIB_VERSION	"1.0.0"

/* ------------------------------------------------------------------------
 * Handle
 */

struct ftnl_handle;

/**
 * ftnl_open() - open a handle on the ftnl family of the current netns
 * @handle: set to the new handle on success
 *
 * Opens a NETLINK_GENERIC socket, enables NETLINK_CAP_ACK (acks never echo a
 * request back, which matters for multi-megabyte cluster_set requests) and
 * NETLINK_EXT_ACK (the kernel explains its rejections), then asks nlctrl for
 * the id and version of the family FTNL_FAMILY_NAME and for the id of its
 * "events" multicast group.
 *
 * The handle talks to the network namespace the calling thread is in at the
 * time of the call.
 *
 * Return: 0; -ENOENT if the family is not registered (ftnl.ko not loaded);
 * -EPROTONOSUPPORT if the kernel's family version is older than
 * FTNL_FAMILY_VERSION (a newer one is accepted: genetlink families only
 * grow); -ENOMEM; or the errno of a failed socket call.
 */
int ftnl_open(struct ftnl_handle **handle);

/**
 * ftnl_close() - close a handle and free everything it holds
 * @handle: handle from ftnl_open(), or NULL
 */
void ftnl_close(struct ftnl_handle *handle);

/**
 * ftnl_errmsg() - why the last request on @handle failed
 * @handle: the handle
 *
 * Return: the kernel's extack message of the last failed request if it
 * sent one, else a description of the failure (strerror() of the error, or
 * what libftnl found wrong with a reply). The empty string if the last
 * request succeeded. Valid until the next call on @handle.
 */
const char *ftnl_errmsg(const struct ftnl_handle *handle);

/**
 * ftnl_errno() - error of the last request on @handle
 * @handle: the handle
 *
 * Return: 0 if the last request succeeded, else its negative errno (the
 * same value the failing function returned).
 */
int ftnl_errno(const struct ftnl_handle *handle);

/**
 * struct ftnl_error_attr - the attribute the kernel blamed for a rejection
 * @attr: enum ftnl_attr of the top-level attribute at fault, 0 if unknown
 * @node_attr: enum ftnl_node_attr inside that FTNL_A_NODE, 0 when the
 *	whole node (or no node) is at fault
 * @node_index: which FTNL_A_NODE of the request (0-based, in the order of
 *	&ftnl_cluster_config.nodes), -1 when the fault is not in a node
 * @node_id: the FTNL_A_NODE_ID of that node, valid if @has_node_id
 * @has_node_id: the offending node carried an id
 * @missing: the kernel reported @attr (or @node_attr) as a required
 *	attribute that is absent, rather than as a bad one
 */
struct ftnl_error_attr {
	uint16_t attr;
	uint16_t node_attr;
	int64_t node_index;
	uint32_t node_id;
	bool has_node_id;
	bool missing;
};

/**
 * ftnl_error_attr() - locate the offending attribute of the last rejection
 * @handle: the handle
 * @out: filled in on success
 *
 * Maps the extack offset (NLMSGERR_ATTR_OFFS) or missing-attribute report
 * (NLMSGERR_ATTR_MISS_TYPE/MISS_NEST) of the last failed request back to
 * the request that was sent.
 *
 * Return: 0, or -ENOENT if the last failure named no attribute.
 */
int ftnl_error_attr(const struct ftnl_handle *handle,
		    struct ftnl_error_attr *out);

/**
 * ftnl_attr_name() - name of a top-level attribute, as in the YNL spec
 * @type: enum ftnl_attr value
 *
 * Return: e.g. "hb-period-us"; "unknown" for values this library does not
 * know.
 */
const char *ftnl_attr_name(unsigned int type);

/**
 * ftnl_node_attr_name() - name of a node attribute, as in the YNL spec
 * @type: enum ftnl_node_attr value
 *
 * Return: e.g. "port"; "unknown" for values this library does not know.
 */
const char *ftnl_node_attr_name(unsigned int type);

/* ------------------------------------------------------------------------
 * Module information
 */

/**
 * struct ftnl_info - what the loaded module is and can do
 * @module_version: version string of ftnl.ko (NUL-terminated, truncated
 *	if longer than the array)
 * @family_version: genetlink family version, from nlctrl
 * @proto_version: node-to-node datagram protocol version (FTNL_PROTO_VERSION)
 * @features: bitmask of enum ftnl_feature
 * @max_nodes: largest node table the module accepts
 * @configured: a cluster is configured in this netns
 * @incarnation: this node's incarnation (0 from a module without the ring)
 */
struct ftnl_info {
	char module_version[64];
	uint32_t family_version;
	uint32_t proto_version;
	uint64_t features;
	uint32_t max_nodes;
	bool configured;
	uint64_t incarnation;
};

/**
 * ftnl_info_get() - query the module (FTNL_CMD_INFO_GET)
 * @handle: the handle
 * @info: filled in on success
 *
 * Return: 0 or negative errno.
 */
int ftnl_info_get(struct ftnl_handle *handle, struct ftnl_info *info);

/**
 * ftnl_feature_name() - short name of one feature bit
 * @feature: one bit of enum ftnl_feature
 *
 * Return: "cluster", "ipv6", "events", "ring", "bcast", "proc", or NULL for
 * a bit this library does not know.
 */
const char *ftnl_feature_name(uint64_t feature);

/* ------------------------------------------------------------------------
 * Broadcast algorithms
 */

/**
 * ftnl_bcast_algo_name() - name of a broadcast algorithm, as in the YNL spec
 * @algo: enum ftnl_bcast_algo
 *
 * Return: "hypercube", "bmg", "fcg", or "unknown" for values this library
 * does not know.
 */
const char *ftnl_bcast_algo_name(unsigned int algo);

/**
 * ftnl_parse_bcast_algo() - parse the name of a broadcast algorithm
 * @text: "hypercube", "bmg" or "fcg", exactly (lower case, no
 *	abbreviation)
 * @algo: set to the enum ftnl_bcast_algo value on success
 *
 * Return: 0 or -EINVAL.
 */
int ftnl_parse_bcast_algo(const char *text, uint8_t *algo);

/* ------------------------------------------------------------------------
 * Nodes and cluster configuration
 */

/**
 * union ftnl_addr - an IPv4 or IPv6 address, network byte order
 * @v4: IPv4 address when the family is AF_INET
 * @v6: IPv6 address when the family is AF_INET6
 */
union ftnl_addr {
	struct in_addr v4;
	struct in6_addr v6;
};

/**
 * struct ftnl_node - one member of the cluster
 * @id: node id, unique in the cluster
 * @family: AF_INET or AF_INET6; any other value makes ftnl_cluster_set()
 *	send the node without an address (for testing the kernel's checks)
 * @port: UDP port, host byte order
 * @addr: address, network byte order, interpreted according to @family
 * @state: what this node knows of that member
 * @self: this entry is the local node (ftnl_cluster_set() uses
 *	&ftnl_cluster_config.self_id instead)
 * @emitter: this node observes that member: it is this node's emitter on
 *	the ring
 * @observer: that member observes this node: this node heartbeats it
 * @has_hb_age: @hb_age_us is valid (the emitter's entry, once a heartbeat
 *	arrived)
 * @incarnation: last incarnation heard from that member, 0 if never
 * @hb_age_us: microseconds since the emitter's last heartbeat arrived
 * @name: a name for people (FTNL_A_NODE_NAME), "" for none: 1 to
 *	FTNL_NODE_NAME_MAX letters, digits, '.', '-' or '_'; sent by
 *	ftnl_cluster_set() (modules with FTNL_FEATURE_NODE_NAME), shown by
 *	dumps and carried in the node's events
 * @domain: its failure domain (FTNL_A_NODE_DOMAIN), "" for none: 1 to
 *	FTNL_NODE_DOMAIN_MAX letters, digits, '.', '-' or '_'; sent by
 *	ftnl_cluster_set() (modules with FTNL_FEATURE_DOMAINS): the ring
 *	order keeps the nodes of one domain apart
 * @has_key: @key is set (ftnl_cluster_set() sends it, modules with
 *	FTNL_FEATURE_PAIR_KEYS); never set by dumps
 * @key: the pair key of this node and that one (FTNL_A_NODE_KEY): with
 *	pair keys, every node but the local one has one and
 *	&ftnl_cluster_config.key is unset. ftnl_pair_key() derives them;
 *	the config parser reads them from a pairkeys file
 * @has_sign_key: @sign_key is set (ftnl_cluster_set() sends it, modules
 *	with FTNL_FEATURE_SIGNED); never set by dumps
 * @sign_key: that node's Ed25519 public key (FTNL_A_NODE_SIGN_KEY), which
 *	checks the broadcasts it originates: with signed broadcasts
 *	(&ftnl_cluster_config.has_sign_seed) every node but the local one
 *	has one. ftnl_sign_public() computes it; the config parser reads it
 *	from a pairkeys file
 *
 * The fields after @port and @addr but @name, @domain and the key are
 * filled in by dumps and ignored by ftnl_cluster_set(). Dumps list the
 * nodes in ring order.
 */
struct ftnl_node {
	uint32_t id;
	int family;
	uint16_t port;
	union ftnl_addr addr;
	enum ftnl_node_state state;
	bool self;
	bool emitter;
	bool observer;
	bool has_hb_age;
	uint64_t incarnation;
	uint64_t hb_age_us;
	char name[FTNL_NODE_NAME_MAX + 1];
	char domain[FTNL_NODE_DOMAIN_MAX + 1];
	bool has_key;
	uint8_t key[FTNL_KEY_LEN];
	bool has_sign_key;
	uint8_t sign_key[FTNL_SIGN_KEY_LEN];
};

/**
 * enum ftnl_config_field - the scalar fields of struct ftnl_cluster_config
 * @FTNL_CONFIG_CLUSTER_ID: &ftnl_cluster_config.cluster_id
 * @FTNL_CONFIG_SELF_ID: &ftnl_cluster_config.self_id
 * @FTNL_CONFIG_HB_PERIOD: &ftnl_cluster_config.hb_period_us
 * @FTNL_CONFIG_TIMEOUT: &ftnl_cluster_config.timeout_us
 * @FTNL_CONFIG_KEY: &ftnl_cluster_config.key
 * @FTNL_CONFIG_ALL: all of the above
 */
enum ftnl_config_field {
	FTNL_CONFIG_CLUSTER_ID	= 1 << 0,
	FTNL_CONFIG_SELF_ID	= 1 << 1,
	FTNL_CONFIG_HB_PERIOD	= 1 << 2,
	FTNL_CONFIG_TIMEOUT	= 1 << 3,
	FTNL_CONFIG_KEY		= 1 << 4,
	FTNL_CONFIG_ALL		= (1 << 5) - 1,
};

/**
 * struct ftnl_cluster_config - a cluster configuration to install
 * @cluster_id: cluster identifier, nonzero
 * @self_id: this node's id; must be the id of one of @nodes
 * @hb_period_us: heartbeat period h, FTNL_HB_PERIOD_MIN_US..MAX_US
 * @timeout_us: suspicion timeout d, h < d <= FTNL_TIMEOUT_MAX_US
 * @key: cluster secret authenticating datagrams; unset (FTNL_CONFIG_KEY in
 *	@unset) when the nodes carry pair keys (&ftnl_node.key)
 * @unset: bitmask of enum ftnl_config_field holding no value. Zero when
 *	you fill the structure yourself. The config parser sets the bits of
 *	the keywords a file lacks. ftnl_config_validate() reports unset
 *	fields as missing; ftnl_cluster_set() leaves their attribute out of
 *	the request.
 * @nodes: node table, @node_count entries, in any order
 * @node_count: number of entries in @nodes, 1..FTNL_MAX_NODES
 * @has_bcast_algo: send @bcast_algo. When false (as in a zero-filled
 *	structure, or a file without the bcast keyword) FTNL_A_BCAST_ALGO is
 *	left out of the request and the module uses its default,
 *	FTNL_BCAST_HYPERCUBE; modules older than FTNL_FEATURE_BCAST accept
 *	only such requests.
 * @bcast_algo: enum ftnl_bcast_algo with which this node broadcasts the
 *	failures it detects; sent as is (ftnl_config_validate() rejects
 *	values above FTNL_BCAST_MAX, the kernel does too)
 * @has_fcg_f: send @fcg_f (FTNL_A_BCAST_FCG_F); when false the module
 *	uses f = 1
 * @fcg_f: FTNL_BCAST_FCG's f, 1..7: how many failures during one
 *	broadcast it withstands; sent as is, used by FCG broadcasts only
 * @has_gossip_t: send @gossip_t_us (FTNL_A_BCAST_GOSSIP_T_US); when false
 *	the module uses 0
 * @gossip_t_us: FTNL_BCAST_FCG's gossip time T in microseconds, at most
 *	10 s; 0 lets the module choose it from the number of nodes, as the
 *	paper does; sent as is, used by FCG broadcasts only. The module
 *	counts it in slots of 20 us (rounding down); ftnl_config_validate()
 *	refuses 1..19 us
 * @self_auto: "self auto": @self_id is still to be found by
 *	ftnl_config_resolve_self() (FTNL_CONFIG_SELF_ID stays in @unset
 *	until then)
 * @has_rejoin: send @rejoin (FTNL_A_REJOIN); when false the module uses
 *	FTNL_REJOIN_AUTO
 * @rejoin: enum ftnl_rejoin: a dead node that comes back with a new
 *	incarnation is readmitted cluster-wide (auto) or only by an admin
 * @has_flap_limit: send @flap_limit (FTNL_A_REJOIN_FLAP_LIMIT)
 * @flap_limit: K, rejoins of one node admitted within the flap window,
 *	FTNL_REJOIN_FLAP_LIMIT_MIN..FTNL_REJOIN_FLAP_LIMIT_MAX
 * @has_flap_window: send @flap_window_s (FTNL_A_REJOIN_FLAP_WINDOW_S)
 * @flap_window_s: W in seconds,
 *	FTNL_REJOIN_FLAP_WINDOW_MIN_S..FTNL_REJOIN_FLAP_WINDOW_MAX_S
 * @has_fence: send @fence (FTNL_A_FENCE); when false the module uses
 *	FTNL_FENCE_NONE
 * @fence: enum ftnl_fence, what the module does to this node's registered
 *	processes when the node is expelled (ftnl_fence_name() names it)
 * @has_quorum: send @quorum (FTNL_A_QUORUM); when false the module turns
 *	the quorum rule on for 3 nodes or more
 * @quorum: enum ftnl_quorum: FTNL_QUORUM_ON, a node never publishes a
 *	death that would leave it without a strict majority of the cluster
 *	(it expels itself instead, so at most one side of a partition goes
 *	on);
 *	sent as is
 * @has_timeout_min: send @timeout_min_us (FTNL_A_TIMEOUT_MIN_US): timeouts
 *	adapt between it and @timeout_us
 * @timeout_min_us: d_min in microseconds, greater than h, at most d
 * @has_timeout_nines: send @timeout_nines (FTNL_A_TIMEOUT_TARGET_NINES);
 *	only with @has_timeout_min, else FTNL_TIMEOUT_NINES_DEFAULT
 * @timeout_nines: target false-suspicion rate per heartbeat 10^-it,
 *	FTNL_TIMEOUT_NINES_MIN..FTNL_TIMEOUT_NINES_MAX
 * @has_epoch: send @epoch (FTNL_A_EPOCH); when false the module derives
 *	it from the running configuration (its epoch, plus one when the key,
 *	h, d, broadcast or node table changed)
 * @epoch: the configuration's epoch; a replacement that changes any of
 *	those must raise it (the module refuses it otherwise)
 * @has_update_grace: send @update_grace_s (FTNL_A_UPDATE_GRACE_S); when
 *	false the module uses FTNL_UPDATE_GRACE_DEFAULT_S
 * @update_grace_s: seconds the previous key is accepted and changed
 *	neighbours waited for after a replacement of another epoch,
 *	FTNL_UPDATE_GRACE_MIN_S..FTNL_UPDATE_GRACE_MAX_S
 * @has_incarnation_floor: send @incarnation_floor
 *	(FTNL_A_INCARNATION_FLOOR); never set by the file parser (the floor
 *	is state, not configuration: ftnl-cli's "state FILE")
 * @incarnation_floor: the largest incarnation this node had in an earlier
 *	boot: a node that runs no cluster yet takes a new one above it;
 *	1..FTNL_INCARNATION_FLOOR_MAX, and below the running incarnation on
 *	a node whose cluster runs
 * @has_sign_seed: send @sign_seed (FTNL_A_SIGN_SEED): this node signs the
 *	broadcasts it originates, and acts only on broadcasts signed by
 *	theirs (needs pair keys, and &ftnl_node.sign_key on every other node)
 * @sign_seed: this node's secret Ed25519 seed (ftnl_sign_seed()); the
 *	config parser reads it from the pairkeys file's "sign" line
 *
 * When the parser filled the structure, @nodes is heap memory released by
 * ftnl_config_free().
 */
struct ftnl_cluster_config {
	uint32_t cluster_id;
	uint32_t self_id;
	uint32_t hb_period_us;
	uint32_t timeout_us;
	uint8_t key[FTNL_KEY_LEN];
	unsigned int unset;
	struct ftnl_node *nodes;
	size_t node_count;
	bool has_bcast_algo;
	uint8_t bcast_algo;
	bool has_fcg_f;
	uint8_t fcg_f;
	bool has_gossip_t;
	uint32_t gossip_t_us;
	bool self_auto;
	bool has_rejoin;
	uint8_t rejoin;
	bool has_flap_limit;
	uint32_t flap_limit;
	bool has_flap_window;
	uint32_t flap_window_s;
	bool has_fence;
	uint8_t fence;
	bool has_quorum;
	uint8_t quorum;
	bool has_timeout_min;
	uint32_t timeout_min_us;
	bool has_timeout_nines;
	uint8_t timeout_nines;
	bool has_epoch;
	uint32_t epoch;
	bool has_update_grace;
	uint32_t update_grace_s;
	bool has_incarnation_floor;
	uint64_t incarnation_floor;
	bool has_sign_seed;
	uint8_t sign_seed[FTNL_SIGN_SEED_LEN];
};

/**
 * ftnl_cluster_set() - configure or replace this node's cluster
 *	(FTNL_CMD_CLUSTER_SET)
 * @handle: the handle
 * @config: the configuration, sent as is (no validation, see
 *	ftnl_config_validate())
 *
 * Builds one request holding every node (about 40 bytes per node, 76 with
 * a pair key: 2.6 MB, or 5 MB, for FTNL_MAX_NODES) and raises the socket's send buffer to fit it, with
 * SO_SNDBUFFORCE when permitted and SO_SNDBUF otherwise. Needs
 * CAP_NET_ADMIN over the netns.
 *
 * Return: 0; the kernel's negative errno (see ftnl_errmsg() and
 * ftnl_error_attr()); -EMSGSIZE if the request cannot fit the socket's send
 * buffer (raise net.core.wmem_max or run with CAP_NET_ADMIN); -ENOMEM.
 */
int ftnl_cluster_set(struct ftnl_handle *handle,
		     const struct ftnl_cluster_config *config);

/**
 * struct ftnl_cluster_info - the installed configuration, without the key
 * @cluster_id: cluster identifier
 * @self_id: this node's id
 * @hb_period_us: heartbeat period h in microseconds
 * @timeout_us: suspicion timeout d in microseconds
 * @node_count: number of nodes in the table
 * @generation: configuration generation of the netns
 * @incarnation: this node's incarnation in the cluster (0 from a module
 *	without the ring)
 * @has_bcast_algo: the module reported @bcast_algo (every module with
 *	FTNL_FEATURE_BCAST does; older ones do not broadcast failures)
 * @bcast_algo: enum ftnl_bcast_algo this node broadcasts failures with
 *	(ftnl_bcast_algo_name() names it)
 * @has_fcg_f: the module reported @fcg_f (modules with FTNL_BCAST_FCG do)
 * @fcg_f: FCG's f, the failures during one broadcast it withstands
 * @has_gossip_t: the module reported @gossip_t_us
 * @gossip_t_us: FCG's gossip time T in microseconds, 0 when chosen from
 *	the number of nodes
 * @has_rejoin: the module reported @rejoin, @flap_limit, @flap_window_s
 * @rejoin: enum ftnl_rejoin
 * @flap_limit: K, rejoins of one node admitted within the flap window
 * @flap_window_s: W in seconds
 * @has_fence: the module reported @fence (modules that expel do)
 * @fence: enum ftnl_fence of the cluster
 * @has_quorum: the module reported @quorum
 * @quorum: enum ftnl_quorum in force
 * @has_timeout_min: timeouts adapt: the module reported @timeout_min_us and
 *	@timeout_nines (@timeout_us is then their maximum)
 * @timeout_min_us: d_min in microseconds
 * @timeout_nines: target false-suspicion rate per heartbeat, 10^-it
 * @has_epoch: the module reported @epoch and @update_grace_s
 * @epoch: the configuration's epoch
 * @update_grace_s: the update grace in seconds
 * @has_prev_key: a previous key is still accepted, for @prev_key_left_ms
 * @prev_key_left_ms: milliseconds left of the previous keys' grace
 * @pair_keys: datagrams are authenticated with one key per pair of nodes
 *	(FTNL_A_PAIR_KEYS), not the cluster key
 * @signs: broadcasts are signed by their origin, and only those whose
 *	signature verifies are acted on (FTNL_A_SIGNED)
 */
struct ftnl_cluster_info {
	uint32_t cluster_id;
	uint32_t self_id;
	uint32_t hb_period_us;
	uint32_t timeout_us;
	uint32_t node_count;
	uint32_t generation;
	uint64_t incarnation;
	bool has_bcast_algo;
	uint8_t bcast_algo;
	bool has_fcg_f;
	uint8_t fcg_f;
	bool has_gossip_t;
	uint32_t gossip_t_us;
	bool has_rejoin;
	uint8_t rejoin;
	uint32_t flap_limit;
	uint32_t flap_window_s;
	bool has_fence;
	uint8_t fence;
	bool has_quorum;
	uint8_t quorum;
	bool has_timeout_min;
	uint32_t timeout_min_us;
	uint8_t timeout_nines;
	bool has_epoch;
	uint32_t epoch;
	uint32_t update_grace_s;
	bool has_prev_key;
	uint64_t prev_key_left_ms;
	bool pair_keys;
	bool signs;
};

/**
 * ftnl_fence_name() - name of a fence policy, as in the YNL spec
 * @fence: enum ftnl_fence
 *
 * Return: "none", "kill", or "unknown".
 */
const char *ftnl_fence_name(unsigned int fence);

/**
 * ftnl_parse_fence() - parse the name of a fence policy
 * @text: "none" or "kill"
 * @fence: set to the enum ftnl_fence value on success
 *
 * Return: 0, or -EINVAL for any other text.
 */
int ftnl_parse_fence(const char *text, uint8_t *fence);

/**
 * ftnl_cluster_get() - read the installed configuration (FTNL_CMD_CLUSTER_GET)
 * @handle: the handle
 * @info: filled in on success
 *
 * Return: 0; -ENOENT if no cluster is configured; -EBADMSG if the reply
 * lacks an attribute the contract promises; other negative errno.
 */
int ftnl_cluster_get(struct ftnl_handle *handle,
		     struct ftnl_cluster_info *info);

/**
 * ftnl_cluster_del() - forget the configuration (FTNL_CMD_CLUSTER_DEL)
 * @handle: the handle
 *
 * Return: 0; -ENOENT if no cluster is configured; other negative errno.
 */
int ftnl_cluster_del(struct ftnl_handle *handle);

/**
 * ftnl_cluster_leave() - leave the cluster gracefully
 *	(FTNL_CMD_CLUSTER_LEAVE)
 * @handle: the handle
 *
 * The module tells this node's observer and emitter, who announce the
 * departure to the cluster (cause FTNL_CAUSE_LEAVE), then forgets the
 * configuration as ftnl_cluster_del() does. Needs CAP_NET_ADMIN.
 *
 * Return: 0; -ENOENT if no cluster is configured; other negative errno.
 */
int ftnl_cluster_leave(struct ftnl_handle *handle);

/**
 * ftnl_node_readmit() - take back a node that died or left
 *	(FTNL_CMD_NODE_READMIT)
 * @handle: the handle
 * @node_id: the node, restarted with a new incarnation
 *
 * Its datagrams are accepted again when their incarnation is newer than the
 * dead one. Needs CAP_NET_ADMIN.
 *
 * Return: 0; -ENOENT if no cluster is configured or no such node; -EINVAL
 * if the node is alive or is this node; other negative errno.
 */
int ftnl_node_readmit(struct ftnl_handle *handle, uint32_t node_id);

/**
 * struct ftnl_stats - counters of this node since its cluster was configured
 * @hb_sent: heartbeats sent to the observer
 * @hb_recv: heartbeats accepted, from any member
 * @hb_from_emitter: heartbeats from the current emitter (those re-arming
 *	the suspicion timer)
 * @suspicions: emitters this node declared dead
 * @new_observer_sent: NEW_OBSERVER datagrams sent
 * @new_observer_recv: NEW_OBSERVER datagrams accepted
 * @leave_sent: LEAVE datagrams sent
 * @leave_recv: LEAVE datagrams accepted
 * @tx_errors: datagrams that could not be sent
 * @events_lost: failure events the module could not multicast
 * @drops: dropped datagrams, indexed by enum ftnl_drop_reason
 * @lateness: heartbeat emission lateness histogram: bucket 0 counts
 *	heartbeats less than 1 us late, bucket i (0 < i < last) those late by
 *	[2^(i-1), 2^i) us, the last one everything later
 * @lateness_max_ns: largest emission lateness seen
 * @bcast_originated: broadcasts this node started, one per failure it
 *	detected
 * @bcast_forwarded: broadcast datagrams this node sent as a forwarder of
 *	another node's broadcast
 * @bcast_sent: broadcast datagrams sent in all, originated or forwarded
 *	(the work the algorithm costs this node)
 * @bcast_delivered: broadcasts of other nodes received a first time
 * @bcast_duplicates: further copies of broadcasts already received, ignored
 * @bcast_latency_last_ns: time from the origin starting the broadcast to
 *	its delivery here, for the last broadcast delivered. Measured between
 *	the origin's and this node's CLOCK_REALTIME: meaningful only when the
 *	clocks are synchronized (nodes on one machine, or PTP)
 * @bcast_latency_max_ns: largest such time
 * @bcast_latency_sum_ns: sum of such times over the deliveries; the mean is
 *	ftnl_stats_bcast_latency_mean_ns()
 * @event_seq: sequence number of this node's newest event (&ftnl_event.seq);
 *	this and the next two count since the netns's ftnl state was
 *	created, not since the configuration
 * @events_queue_overflow: events not multicast because more than the
 *	module's event_queue_len were waiting; they are in the history
 *	(ftnl_event_history())
 * @events_notify_failed: event notifications the module could not build
 *	(no memory); the events are in the history
 * @expelled_sent: EXPELLED datagrams this node sent to nodes it holds dead
 *	that still talked to it
 * @expelled_recv: EXPELLED datagrams this node received
 * @stall_waits: judgements this node put off because its own timers ran
 *	more than h late, or its host dropped received datagrams
 *	(@host_rx_drops) or held them unread (@host_rx_unread), meanwhile
 *	(local health): an accusation of its
 *	emitter (by h), or its own resignation at a probe round's close (the
 *	round extended by 2d)
 * @probe_req_sent: PROBE_REQ sent: this node asking helpers to reach its
 *	silent emitter, or forwarding another observer's request
 * @probe_req_recv: PROBE_REQ accepted
 * @probe_ack_sent: PROBE_ACK sent (answers and relays)
 * @probe_ack_recv: PROBE_ACK accepted
 * @suspicions_refuted: suspicions of the emitter withheld because it
 *	answered a helper (only its heartbeats to this node are lost)
 * @probes_throttled: probe requests and relays refused over the budget
 *	per heartbeat period
 * @news_held: death news held because it may predate this node's life
 *	(received in its first 2d, in a datagram not proven fresh, about a
 *	node whose life it did not know), or because it names no life, about
 *	a node whose life this node just pinned
 * @news_stale: held news dropped because its node proved a newer life, or
 *	a JOIN named the life pinned
 * @prev_key_recv: datagrams authenticated with the previous key (the
 *	update grace after a key change)
 * @suspicions_verified: suspicions of the emitter verified before an
 *	accusation: once its silence was established, the emitter and the
 *	helpers were asked again, and only answers received after that
 *	counted (proof that this node still heard). Every accusation made
 *	with helpers to ask was verified first; a verification may also end
 *	in a refutation, or in this node's resignation (it went deaf)
 * @forming_waits: probe rounds this node kept open, instead of resigning,
 *	while it waited for its first emitter and fewer than a majority of
 *	the cluster answered: the cluster was still forming around it (the
 *	quorum rule; the others not configured yet). It waits so until a
 *	majority answers or its emitter is heard
 * @host_rx_drops: datagrams of this node's input dropped at a full input
 *	backlog before any protocol saw them, while this ring ran: counted
 *	when the host's backlog drops (/proc/net/softnet_stat) and the input
 *	drops of the devices of this node's network namespace rose in the
 *	same heartbeat period (the smaller rise); each period that saw some
 *	is input to the local health rule. 0 from a module that does not
 *	report it
 * @hb_lock_wait: how long each heartbeat's timer waited for the ring's
 *	lock, which received datagrams, probes and broadcasts take too
 *	(buckets as @lateness; a part of each heartbeat's lateness). All 0
 *	from a module that does not report it
 * @hb_lock_wait_max_ns: the longest of those waits
 * @hb_start_late: how late each heartbeat's timer began to run, from its
 *	deadline to its handler's first instruction: the interrupt's and the
 *	softirq's delivery, before the lock wait and the send (buckets as
 *	@lateness; a part of each heartbeat's lateness). All 0 from a module
 *	that does not report it
 * @hb_start_late_max_ns: the latest of those starts
 * @host_rx_unread: heartbeat ticks and judgements that found a datagram
 *	the host had queued for input before the last tick still unread (a
 *	CPU's input backlog, which veth, loopback and RPS use: its receive
 *	softirq behind). Each is input to the local health rule, as drops
 *	are: what the emitter or the helpers sent may be waiting there. 0
 *	from a module that does not report it, or on a kernel without
 *	CONFIG_RPS
 * @probes_deferred: indirect probes of the emitter put off, when due,
 *	because the host had just dropped or held input (the local health
 *	rule: the late heartbeat may still wait in the backlog, and a probe
 *	would only add to it); 0 from a module that does not report it
 * @probe_asks_held: requests of this node's probes to helpers not sent
 *	because the host had just dropped or held input (their answers would
 *	meet the same backlog); each is sent at a later retry. 0 from a
 *	module that does not report it
 */
struct ftnl_stats {
	uint64_t hb_sent;
	uint64_t hb_recv;
	uint64_t hb_from_emitter;
	uint64_t suspicions;
	uint64_t new_observer_sent;
	uint64_t new_observer_recv;
	uint64_t leave_sent;
	uint64_t leave_recv;
	uint64_t tx_errors;
	uint64_t events_lost;
	uint64_t drops[FTNL_DROP_MAX + 1];
	uint64_t lateness[FTNL_LATENESS_BUCKETS];
	uint64_t lateness_max_ns;
	uint64_t bcast_originated;
	uint64_t bcast_forwarded;
	uint64_t bcast_sent;
	uint64_t bcast_delivered;
	uint64_t bcast_duplicates;
	uint64_t bcast_latency_last_ns;
	uint64_t bcast_latency_max_ns;
	uint64_t bcast_latency_sum_ns;
	uint64_t event_seq;
	uint64_t events_queue_overflow;
	uint64_t events_notify_failed;
	uint64_t expelled_sent;
	uint64_t expelled_recv;
	uint64_t stall_waits;
	uint64_t probe_req_sent;
	uint64_t probe_req_recv;
	uint64_t probe_ack_sent;
	uint64_t probe_ack_recv;
	uint64_t suspicions_refuted;
	uint64_t probes_throttled;
	uint64_t news_held;
	uint64_t news_stale;
	uint64_t prev_key_recv;
	uint64_t suspicions_verified;
	uint64_t forming_waits;
	uint64_t host_rx_drops;
	uint64_t hb_lock_wait[FTNL_LATENESS_BUCKETS];
	uint64_t hb_lock_wait_max_ns;
	uint64_t hb_start_late[FTNL_LATENESS_BUCKETS];
	uint64_t hb_start_late_max_ns;
	uint64_t host_rx_unread;
	uint64_t probes_deferred;
	uint64_t probe_asks_held;
};

/**
 * ftnl_stats_get() - read this node's counters (FTNL_CMD_STATS_GET)
 * @handle: the handle
 * @stats: filled in on success; counters the module did not send are 0
 *
 * Return: 0; -ENOENT if no cluster is configured; -EBADMSG if the reply
 * has no FTNL_A_STATS; other negative errno.
 */
int ftnl_stats_get(struct ftnl_handle *handle, struct ftnl_stats *stats);

/**
 * ftnl_stats_bcast_latency_mean_ns() - mean origin-to-delivery time
 * @stats: counters from ftnl_stats_get()
 *
 * The kernel leaves out of the sum a latency that came out negative (the
 * origin's clock ahead of this node's) but still counts the delivery, so
 * with unsynchronized clocks the mean is an underestimate.
 *
 * Return: @stats->bcast_latency_sum_ns / @stats->bcast_delivered, rounded
 * down; 0 when nothing was delivered.
 */
uint64_t ftnl_stats_bcast_latency_mean_ns(const struct ftnl_stats *stats);

/**
 * ftnl_drop_reason_name() - name of a drop reason, as in the YNL spec
 * @reason: enum ftnl_drop_reason
 *
 * Return: e.g. "mac", "stale-incarnation"; "unknown" otherwise.
 */
const char *ftnl_drop_reason_name(unsigned int reason);


/* ------------------------------------------------------------------------
 * Node table dump
 */

/**
 * typedef ftnl_node_cb - called by ftnl_node_dump() for each node
 * @node: the node, valid during the call only
 * @arg: the caller's pointer
 *
 * Must not use the handle the dump runs on.
 *
 * Return: 0 to go on; a negative errno to stop delivering nodes. The dump
 * is still read to its end (so the handle stays usable) and
 * ftnl_node_dump() returns that value.
 */
typedef int (*ftnl_node_cb)(const struct ftnl_node *node, void *arg);

/**
 * ftnl_node_dump() - walk the node table (FTNL_CMD_NODE_GET dump)
 * @handle: the handle
 * @cb: called once per node, in the kernel's order (ascending id)
 * @arg: passed to @cb
 *
 * Reads the multi-part dump, however many messages it takes.
 *
 * A configuration change while the dump runs makes the kernel flag the
 * dump interrupted (NLM_F_DUMP_INTR), and libftnl also treats a change of
 * FTNL_A_GENERATION between messages that way. The dump is then read to its
 * end and -EINTR is returned: @cb may have seen a mix of two
 * configurations and the caller should start over. ftnl_node_list() does
 * that by itself.
 *
 * Return: 0 (also for the empty dump of an unconfigured netns); -EINTR as
 * above; the first negative value @cb returned; other negative errno.
 */
int ftnl_node_dump(struct ftnl_handle *handle, ftnl_node_cb cb, void *arg);

/**
 * struct ftnl_node_table - a consistent copy of the node table
 * @cluster_id: cluster id the table belongs to (0 if none configured)
 * @generation: configuration generation the table was read at
 * @count: number of entries in @nodes
 * @nodes: the nodes in the kernel's order (ascending id); heap memory
 */
struct ftnl_node_table {
	uint32_t cluster_id;
	uint32_t generation;
	size_t count;
	struct ftnl_node *nodes;
};

/* How many times ftnl_node_list() restarts an interrupted dump. */
#define FTNL_NODE_LIST_ATTEMPTS	8

/**
 * ftnl_node_list() - read the whole node table into memory
 * @handle: the handle
 * @table: filled in on success; release it with ftnl_node_table_free()
 *
 * Like ftnl_node_dump(), restarting an interrupted dump up to
 * FTNL_NODE_LIST_ATTEMPTS times, so the table is one configuration.
 *
 * Return: 0 (@table->count is 0 if no cluster is configured); -EINTR if
 * the configuration kept changing; other negative errno. On failure
 * @table holds nothing to free.
 */
int ftnl_node_list(struct ftnl_handle *handle, struct ftnl_node_table *table);

/**
 * ftnl_node_table_free() - release a table filled by ftnl_node_list()
 * @table: the table; left empty, may be freed again
 */
void ftnl_node_table_free(struct ftnl_node_table *table);

/**
 * ftnl_node_state_name() - lower-case name of a node state
 * @state: the state
 *
 * Return: "alive", "dead", "left", or "unknown".
 */
const char *ftnl_node_state_name(enum ftnl_node_state state);

/* ------------------------------------------------------------------------
 * Events
 */

struct ftnl_events;

/**
 * enum ftnl_event_type - what a struct ftnl_event carries
 * @FTNL_EVENT_NONE: nothing (never returned by ftnl_events_read())
 * @FTNL_EVENT_CLUSTER: the cluster configuration of the netns changed
 *	(FTNL_CMD_CLUSTER_NTF); see &ftnl_event.cluster
 * @FTNL_EVENT_OVERRUN: the kernel dropped events because the socket's
 *	receive buffer was full (ENOBUFS). Some events were missed: fetch
 *	the events after the last &ftnl_event.seq seen with
 *	ftnl_event_history(), and re-read the configuration
 *	(ftnl_cluster_get(), ftnl_node_list()).
 * @FTNL_EVENT_UNKNOWN: a notification this library version does not know,
 *	from a newer module; see &ftnl_event.unknown
 * @FTNL_EVENT_FAILURE: this node learned that a node failed or left
 *	(FTNL_CMD_FAILURE_NTF); see &ftnl_event.failure
 * @FTNL_EVENT_PROC_EXIT: this node learned that a registered process died
 *	(FTNL_CMD_PROC_EXIT_NTF); see &ftnl_event.proc_exit
 * @FTNL_EVENT_JOINED: a dead node came back with a new incarnation and is
 *	a member again (FTNL_CMD_JOINED_NTF, rejoin auto); see
 *	&ftnl_event.joined: node_id, incarnation (the new one), observer_id
 *	(the member that admitted it), cause (FTNL_CAUSE_OBSERVED when this
 *	node admitted it, FTNL_CAUSE_BROADCAST otherwise)
 * @FTNL_EVENT_EXPELLED: this node was expelled: the cluster declared its
 *	current incarnation dead, or it expelled itself (FTNL_CMD_EXPELLED_NTF);
 *	see &ftnl_event.expelled
 *
 * New types are added at the end; handle unknown values by ignoring them.
 */
enum ftnl_event_type {
	FTNL_EVENT_NONE,
	FTNL_EVENT_CLUSTER,
	FTNL_EVENT_OVERRUN,
	FTNL_EVENT_UNKNOWN,
	FTNL_EVENT_FAILURE,
	FTNL_EVENT_PROC_EXIT,
	FTNL_EVENT_JOINED,
	FTNL_EVENT_EXPELLED,
};

/**
 * struct ftnl_event_cluster - payload of FTNL_EVENT_CLUSTER
 * @generation: configuration generation after the change
 * @configured: a cluster is configured (false after a delete); the fields
 *	below are zero when it is not
 * @cluster_id: cluster identifier
 * @self_id: this node's id
 * @node_count: number of nodes in the table
 */
struct ftnl_event_cluster {
	uint32_t generation;
	bool configured;
	uint32_t cluster_id;
	uint32_t self_id;
	uint32_t node_count;
};

/**
 * struct ftnl_event_failure - payload of FTNL_EVENT_FAILURE
 * @node_id: the node that failed (or left)
 * @observer_id: the node that detected it (this node when @cause is
 *	FTNL_CAUSE_OBSERVED); for a death learned only from another node's
 *	D, which names no observer (a broadcast's D, a welcome on first
 *	contact), that node
 * @incarnation: the failed incarnation of @node_id (0 if it never spoke)
 * @cause: enum ftnl_event_cause, how this node learned it
 * @cluster_id: the cluster
 * @generation: configuration generation the failure belongs to
 * @time_mono_ns: CLOCK_MONOTONIC when this node learned it
 * @time_real_ns: CLOCK_REALTIME when this node learned it
 * @node_name: @node_id's name, "" when the configuration gave it none
 */
struct ftnl_event_failure {
	uint32_t node_id;
	uint32_t observer_id;
	uint64_t incarnation;
	uint32_t cause;
	uint32_t cluster_id;
	uint32_t generation;
	uint64_t time_mono_ns;
	uint64_t time_real_ns;
	char node_name[FTNL_NODE_NAME_MAX + 1];
};

/**
 * ftnl_event_cause_name() - name of a failure cause, as in the YNL spec
 * @cause: enum ftnl_event_cause
 *
 * Return: "observed", "broadcast", "leave", "restarted", or "unknown".
 */
const char *ftnl_event_cause_name(unsigned int cause);

/**
 * struct ftnl_event_proc_exit - payload of FTNL_EVENT_PROC_EXIT
 * @job: job (group) id the process registered under
 * @rank: its rank in the job
 * @node_id: the node it ran on
 * @cause: FTNL_CAUSE_OBSERVED on its own node (which saw its socket
 *	released), FTNL_CAUSE_BROADCAST elsewhere
 * @cluster_id: the cluster
 * @time_mono_ns: CLOCK_MONOTONIC when this node learned it
 * @time_real_ns: CLOCK_REALTIME when this node learned it
 * @node_name: @node_id's name, "" when the configuration gave it none
 * @owner_uid: the registration's owner, the uid of the process that
 *	registered (in the initial user namespace); valid if @has_owner
 * @has_owner: the module sent the owner (every module since protocol 2)
 *
 * A consumer of a job's deaths takes one only from the owner and node it
 * expects (libftnl's groups do): any user may register any (job, rank)
 * under its own uid. Each node publishes a process's death once. A clean exit
 * (ftnl_proc_unregister() first) publishes nothing. The node's own
 * failure is not a process exit: its processes die with it, and only
 * FTNL_EVENT_FAILURE of the node is published.
 */
struct ftnl_event_proc_exit {
	uint64_t job;
	uint32_t rank;
	uint32_t node_id;
	uint32_t cause;
	uint32_t cluster_id;
	uint64_t time_mono_ns;
	uint64_t time_real_ns;
	char node_name[FTNL_NODE_NAME_MAX + 1];
	uint32_t owner_uid;
	bool has_owner;
};

/**
 * struct ftnl_event_expelled - payload of FTNL_EVENT_EXPELLED
 * @node_id: this node
 * @by_id: the member that told it it is dead (this node when it expelled
 *	itself)
 * @incarnation: the incarnation that is over
 * @reason: enum ftnl_expel_reason (ftnl_expel_reason_name() names it)
 * @cluster_id: the cluster
 * @generation: configuration generation it was expelled in
 * @time_mono_ns: CLOCK_MONOTONIC when it learned it
 * @time_real_ns: CLOCK_REALTIME when it learned it
 *
 * The node no longer acts as a member (no heartbeat, no observation, no
 * broadcast) until it comes back as a new incarnation; its registered
 * processes are told by this event (libftnl's groups fail with -ESTALE)
 * and, with the fence policy FTNL_FENCE_KILL, SIGKILLed by the module.
 */
struct ftnl_event_expelled {
	uint32_t node_id;
	uint32_t by_id;
	uint64_t incarnation;
	uint32_t reason;
	uint32_t cluster_id;
	uint32_t generation;
	uint64_t time_mono_ns;
	uint64_t time_real_ns;
};

/**
 * ftnl_expel_reason_name() - name of an expulsion reason, as in the YNL spec
 * @reason: enum ftnl_expel_reason
 *
 * Return: "told", "broadcast", "quorum", "deaf", or "unknown".
 */
const char *ftnl_expel_reason_name(unsigned int reason);

/**
 * struct ftnl_event_unknown - payload of FTNL_EVENT_UNKNOWN
 * @cmd: generic netlink command of the notification
 */
struct ftnl_event_unknown {
	uint8_t cmd;
};

/* Bytes reserved for the payload union of struct ftnl_event. */
#define FTNL_EVENT_PAYLOAD_SIZE	232

/**
 * struct ftnl_event - one event, a tagged union
 * @type: enum ftnl_event_type, says which member of the union is valid
 * @reserved: zero
 * @received_ns: CLOCK_REALTIME when libftnl read the event, in nanoseconds
 * @cluster: payload of FTNL_EVENT_CLUSTER
 * @failure: payload of FTNL_EVENT_FAILURE
 * @unknown: payload of FTNL_EVENT_UNKNOWN
 * @proc_exit: payload of FTNL_EVENT_PROC_EXIT
 * @joined: payload of FTNL_EVENT_JOINED (the fields of a failure)
 * @expelled: payload of FTNL_EVENT_EXPELLED
 * @payload: reserves FTNL_EVENT_PAYLOAD_SIZE bytes, so that event types
 *	added later fit without changing the size of the structure (256
 *	bytes) or the place of any member: binaries built against an older
 *	libftnl.so.1 keep working, and see new types as values to ignore
 * @seq: the node's sequence number of the event (FTNL_A_EVENT_SEQ): 1 for
 *	its first event, each event one more, whatever its type; 0 for
 *	FTNL_EVENT_CLUSTER and FTNL_EVENT_OVERRUN, which are not numbered,
 *	and from a module without sequence numbers. A number skipped is an
 *	event missed: ftnl_event_history() returns it. (The last 8 bytes of
 *	what was the payload reserve, never written by older libraries.)
 */
struct ftnl_event {
	uint32_t type;
	uint32_t reserved;
	uint64_t received_ns;
	union {
		struct ftnl_event_cluster cluster;
		struct ftnl_event_failure failure;
		struct ftnl_event_unknown unknown;
		struct ftnl_event_proc_exit proc_exit;
		struct ftnl_event_failure joined;
		struct ftnl_event_expelled expelled;
		uint64_t payload[FTNL_EVENT_PAYLOAD_SIZE / sizeof(uint64_t)];
	};
	uint64_t seq;
};

/**
 * ftnl_events_open() - subscribe to the "events" multicast group
 * @events: set to the new subscription on success
 *
 * Opens its own non-blocking netlink socket (separate from any handle, so
 * that notifications never interleave with replies), resolves the family
 * and joins its FTNL_MCGRP_EVENTS group in the current netns: cluster
 * configuration changes, node failures and registered process exits. The
 * receive
 * buffer is enlarged (SO_RCVBUFFORCE when permitted) to make overruns rare.
 *
 * Return: 0; -ENOENT if the family is not registered; -EOPNOTSUPP if it has
 * no "events" group; other negative errno.
 */
int ftnl_events_open(struct ftnl_events **events);

/**
 * ftnl_events_fd() - file descriptor to wait on
 * @events: the subscription
 *
 * The descriptor becomes readable (POLLIN/EPOLLIN) when events are
 * pending; then call ftnl_events_read() until it returns 0. Do not read
 * from it yourself.
 *
 * Return: the descriptor.
 */
int ftnl_events_fd(const struct ftnl_events *events);

/**
 * ftnl_events_read() - take the next pending event, without blocking
 * @events: the subscription
 * @event: filled in when 1 is returned (the whole structure is written)
 *
 * Never blocks and never spins: when nothing is pending it returns 0 at
 * once; wait on ftnl_events_fd() (or ftnl_events_wait()) before trying
 * again. Messages of other families and malformed notifications are
 * skipped; notifications this library does not know give
 * FTNL_EVENT_UNKNOWN.
 *
 * Return: 1 with an event in @event (FTNL_EVENT_OVERRUN when events were
 * lost); 0 if none is pending (never -EAGAIN); a negative errno on a
 * socket error.
 */
int ftnl_events_read(struct ftnl_events *events, struct ftnl_event *event);

/**
 * ftnl_events_wait() - block until an event may be pending
 * @events: the subscription
 * @timeout_ms: poll(2) timeout: -1 waits forever, 0 does not wait
 *
 * A convenience around poll(2) for programs without an event loop. A signal
 * that interrupts the wait is not retried: -EINTR lets the caller look at
 * its flags (e.g. a SIGTERM handler's) before waiting again.
 *
 * Return: 1 if ftnl_events_read() has something to read (it may still
 * return 0 if what arrived was skipped); 0 on timeout; -EINTR; other
 * negative errno.
 */
int ftnl_events_wait(struct ftnl_events *events, int timeout_ms);

/**
 * typedef ftnl_event_cb - called by ftnl_event_history() for each event
 * @event: the event, valid during the call only; received_ns is when the
 *	dump was read
 * @arg: the caller's pointer
 *
 * Must not use the handle the dump runs on.
 *
 * Return: 0 to go on; a negative errno to stop delivering events (the dump
 * is still read to its end, and ftnl_event_history() returns that value).
 */
typedef int (*ftnl_event_cb)(const struct ftnl_event *event, void *arg);

/**
 * ftnl_event_history() - the events this node still holds
 *	(FTNL_CMD_EVENT_GET)
 * @handle: a handle (not a subscription)
 * @after_seq: deliver only the events numbered after it; 0 for all
 * @cb: called for each event, oldest first
 * @arg: passed to @cb
 *
 * The module keeps its last FTNL_EVENT_HISTORY_LEN events (node failures,
 * process exits and any later kind, as FTNL_EVENT_FAILURE,
 * FTNL_EVENT_PROC_EXIT, ...), each with its &ftnl_event.seq. A subscriber
 * that missed events (FTNL_EVENT_OVERRUN, or a seq skipped) calls this
 * with the last seq it saw, and applies what it gets. If the first event
 * delivered is not @after_seq + 1, the events between were pushed out of
 * the history: they are lost to this node.
 *
 * Return: 0; -ESTALE when @after_seq is newer than the node's newest
 * event (the netns or the module was recreated since, and numbering
 * started again from 1: call again with 0); -EBADMSG for a malformed
 * reply; @cb's negative value; other negative errno.
 */
int ftnl_event_history(struct ftnl_handle *handle, uint64_t after_seq,
		       ftnl_event_cb cb, void *arg);

/**
 * ftnl_events_close() - leave the group and free the subscription
 * @events: the subscription, or NULL
 */
void ftnl_events_close(struct ftnl_events *events);

/* ------------------------------------------------------------------------
 * Registered processes
 */

/**
 * ftnl_proc_register() - register the calling process with its node
 * @handle: a handle the process keeps open for as long as it lives: the
 *	registration belongs to the handle's netlink socket, not to the
 *	process id. Use a handle of its own (a forked child must not share
 *	its parent's, whose socket outlives the child's exit), opened in the
 *	network namespace of the node the process runs on.
 * @job: job (group) id, chosen by the caller (an MPI job id, say)
 * @rank: the process's rank in the job
 *
 * When the handle's socket is released without ftnl_proc_unregister() (the
 * process exits, crashes, is killed, or closes the handle with ftnl_close()),
 * the kernel declares the process dead: its node publishes
 * FTNL_EVENT_PROC_EXIT with cause FTNL_CAUSE_OBSERVED and broadcasts it, so
 * that every other node of the cluster publishes it with cause
 * FTNL_CAUSE_BROADCAST, once. The kernel sees the release itself, so a live
 * process is never declared dead, however busy it is. Allowed to any user.
 * The same (@job, @rank) may be registered by several handles: the kernel
 * does not check uniqueness, that is the job launcher's business.
 *
 * Return: 0; -EEXIST (this handle is registered already); -ENOSPC
 * (FTNL_MAX_PROCS registrations on this node); -ENOENT (no cluster is
 * configured in the netns); other negative errno. ftnl_errmsg() says why.
 */
int ftnl_proc_register(struct ftnl_handle *handle, uint64_t job,
		       uint32_t rank);

/**
 * ftnl_proc_unregister() - end the handle's registration without a death
 * @handle: the handle that registered
 *
 * For a clean exit: after it, closing the handle or exiting publishes
 * nothing. The handle may register again afterwards.
 *
 * Return: 0; -ENOENT if the handle has no registration; other negative
 * errno.
 */
int ftnl_proc_unregister(struct ftnl_handle *handle);

/**
 * struct ftnl_proc - a process registered on this node
 * @job: its job id
 * @rank: its rank
 * @portid: netlink port id of its registering socket (for a process,
 *	usually its pid for its first netlink socket; not to be relied on)
 * @owner_uid: the uid that registered it (initial user namespace)
 *
 * A caller without CAP_NET_ADMIN over the netns sees only its own uid's
 * registrations.
 */
struct ftnl_proc {
	uint64_t job;
	uint32_t rank;
	uint32_t portid;
	uint32_t owner_uid;
};

/**
 * typedef ftnl_proc_cb - called by ftnl_proc_dump() for each process
 * @proc: the registration, valid during the call only
 * @arg: the caller's pointer
 *
 * Must not use the handle the dump runs on.
 *
 * Return: 0 to go on; any other value stops the delivery (the dump is
 * still read to its end, so the handle stays usable) and ftnl_proc_dump()
 * returns it. A positive value is not an error: ftnl_errno() is then 0.
 */
typedef int (*ftnl_proc_cb)(const struct ftnl_proc *proc, void *arg);

/**
 * ftnl_proc_dump() - the processes registered on this node
 * @handle: a handle in the node's netns
 * @cb: called for each registration, in registration order
 * @arg: passed to @cb
 *
 * FTNL_CMD_PROC_GET. Open to any user. Registrations made or ended during
 * the dump may or may not be seen.
 *
 * Return: 0 (also when none is registered, or no cluster is configured);
 * the first nonzero value @cb returned; -EBADMSG for a malformed reply;
 * other negative errno.
 */
int ftnl_proc_dump(struct ftnl_handle *handle, ftnl_proc_cb cb, void *arg);

/* ------------------------------------------------------------------------
 * Configuration files and validation
 */

/**
 * enum ftnl_config_parse_flags - options of the config parsers
 * @FTNL_CONFIG_PARSE_RAW: check syntax only. Values must still be numbers,
 *	addresses and durations that fit their field, but the rules of
 *	ftnl_config_validate() (nonzero cluster id and port, heartbeat and
 *	timeout ranges, unique ids and endpoints, table size) are not
 *	applied, so that invalid configurations can be loaded on purpose.
 * @FTNL_CONFIG_PARSE_NO_KEYS: leave the keys out: key, keyfile and
 *	pairkeys lines are parsed but no key is read or kept (FTNL_CONFIG_KEY
 *	stays in &ftnl_cluster_config.unset, no node has a key), for tools
 *	that need the node table on a host without the node's keys (ftnl-cli
 *	cluster pairkeys)
 */
enum ftnl_config_parse_flags {
	FTNL_CONFIG_PARSE_RAW		= 1 << 0,
	FTNL_CONFIG_PARSE_NO_KEYS	= 1 << 1,
};

/**
 * ftnl_config_parse_file() - read a cluster configuration file
 * @path: the file
 * @flags: enum ftnl_config_parse_flags
 * @config: filled in on success (free with ftnl_config_free()); on failure
 *	it holds nothing to free
 * @err: receives "PATH:LINE: what is wrong" on failure (may be NULL)
 * @errlen: size of @err
 *
 * The format is line-oriented; '#' starts a comment; blank lines are
 * ignored; keywords are:
 *
 *	cluster ID                 cluster id (u32, nonzero)
 *	self ID|auto               optional: this node's id, or auto: the
 *	                           node whose address this host has (sets
 *	                           &ftnl_cluster_config.self_auto; see
 *	                           ftnl_config_resolve_self())
 *	heartbeat DURATION         h, e.g. 100ms (units us, ms, s)
 *	timeout DURATION           d, e.g. 300ms
 *	key HEX                    64 hex digits, or:
 *	keyfile PATH               32 raw bytes or 64 hex digits; a relative
 *	                           PATH is relative to the file's directory;
 *	                           or:
 *	pairkeys PATH              this node's pair keys instead of a cluster
 *	                           key: lines "ID HEX [PUBLIC]", the key of
 *	                           the pair (this node, node ID) and that
 *	                           node's public signing key, and a line
 *	                           "sign SEED", this node's signing seed, as
 *	                           ftnl-cli pairkeys writes them
 *	                           (ftnl_pair_key(), ftnl_sign_seed()); every
 *	                           node but this one needs its key; with the
 *	                           sign line, its public key too
 *	node ID ADDRESS PORT [name NAME] [domain DOMAIN]
 *	                           one per member; IPv4 or IPv6 address;
 *	                           optionally a name for people and a
 *	                           failure domain (a rack), in either order
 *	bcast ALGORITHM            optional: hypercube, bmg or fcg (sets
 *	                           &ftnl_cluster_config.has_bcast_algo)
 *	gossip-faults N            optional: FCG's f, 1..7 (sets @has_fcg_f)
 *	quorum on|off              optional: the quorum policy (sets
 *	                           @has_quorum)
 *	gossip-time DURATION|auto  optional: FCG's T, 20us..10s, or auto (0:
 *	                           the module's choice; sets @has_gossip_t)
 *
 * Each keyword but node appears at most once. gossip-faults and
 * gossip-time are refused next to a bcast line naming another algorithm
 * than fcg; without a bcast line they parse (the algorithm may be added
 * later, as ftnl-cli's arguments do). A missing keyword leaves its
 * bit in &ftnl_cluster_config.unset (self may then come from elsewhere);
 * ftnl_config_validate() reports what is still missing.
 *
 * Return: 0; -EINVAL for a syntax or range error; -ENOENT, -EACCES... if
 * the file (or the keyfile) cannot be read; -EFBIG for a file over 64 MiB;
 * -ENOMEM.
 */
int ftnl_config_parse_file(const char *path, unsigned int flags,
			   struct ftnl_cluster_config *config,
			   char *err, size_t errlen);

/**
 * ftnl_config_parse_string() - parse a configuration held in memory
 * @text: NUL-terminated configuration text, same format as files
 * @name: name used in error messages in place of a path (NULL: "<string>")
 * @flags: enum ftnl_config_parse_flags
 * @config: as for ftnl_config_parse_file()
 * @err: receives "NAME:LINE: what is wrong" on failure (may be NULL)
 * @errlen: size of @err
 *
 * A relative keyfile path is relative to the current directory.
 *
 * Return: as ftnl_config_parse_file().
 */
int ftnl_config_parse_string(const char *text, const char *name,
			     unsigned int flags,
			     struct ftnl_cluster_config *config,
			     char *err, size_t errlen);

/**
 * ftnl_config_free() - release what the parser allocated
 * @config: the configuration; left empty (all fields unset), may be freed
 *	again
 *
 * Also wipes the keys from memory.
 */
void ftnl_config_free(struct ftnl_cluster_config *config);

/**
 * ftnl_config_validate() - check a configuration the way the kernel will
 * @config: the configuration
 * @err: receives the first problem, worded like the kernel's extack
 *	messages, naming the node (position and id) at fault (may be NULL)
 * @errlen: size of @err
 *
 * Checks: no field unset; nonzero cluster id; h within
 * FTNL_HB_PERIOD_MIN_US..FTNL_HB_PERIOD_MAX_US; h < d <=
 * FTNL_TIMEOUT_MAX_US; 1..FTNL_MAX_NODES nodes; each node AF_INET or
 * AF_INET6 with a unicast address (not 0.0.0.0/8, multicast, broadcast;
 * not ::, multicast or v4-mapped) and a nonzero port; unique ids; unique
 * address and port pairs; self id in the table; a known broadcast
 * algorithm, FCG's f in 1..7 and its gossip time at most 10 s, for those
 * given. The kernel is
 * authoritative: it checks all of this again. One check is stricter than
 * the kernel's: a gossip time of 1 to 19 us is refused, since the module
 * counts T in slots of 20 us and would take it for 0 (its own choice).
 *
 * Return: 0 if valid; -EINVAL (-E2BIG for too many nodes) with @err set.
 */
int ftnl_config_validate(const struct ftnl_cluster_config *config,
			 char *err, size_t errlen);

/**
 * struct ftnl_local_addr - an address of this host
 * @family: AF_INET or AF_INET6
 * @addr: the address, network byte order
 */
struct ftnl_local_addr {
	int family;
	union ftnl_addr addr;
};

/**
 * ftnl_config_match_self() - which node of the table is this host
 * @config: the configuration; only its node table is read
 * @local: this host's addresses
 * @n_local: entries in @local
 * @self_id: receives the id of the one node whose address is in @local
 * @err: receives the reason of a refusal (may be NULL)
 * @errlen: size of @err
 *
 * The rule of "self auto", pure: exactly one node of the table must have
 * one of @local's addresses (ports do not matter).
 *
 * Return: 0; -ENOENT when no node matches (@err lists @local's first
 * addresses); -EEXIST when several do (@err names two of them).
 */
int ftnl_config_match_self(const struct ftnl_cluster_config *config,
			   const struct ftnl_local_addr *local, size_t n_local,
			   uint32_t *self_id, char *err, size_t errlen);

/**
 * ftnl_config_resolve_self() - carry out "self auto"
 * @config: the configuration; nothing happens unless
 *	&ftnl_cluster_config.self_auto is set
 * @err: receives the reason of a refusal (may be NULL)
 * @errlen: size of @err
 *
 * Matches the addresses of the interfaces of the calling thread's network
 * namespace against the node table (ftnl_config_match_self()). On success
 * sets @self_id, clears @self_auto and FTNL_CONFIG_SELF_ID in @unset; on
 * failure changes nothing.
 *
 * Return: 0; -ENOENT, -EEXIST as ftnl_config_match_self(); -ENOMEM or
 * getifaddrs()'s error.
 */
int ftnl_config_resolve_self(struct ftnl_cluster_config *config,
			     char *err, size_t errlen);

/**
 * ftnl_config_set_pair_keys() - authenticate with pair keys from a file
 * @config: the configuration, its node table complete
 * @path: this node's pairkeys file: lines "ID HEX [PUBLIC]", the key of
 *	the pair (this node, node ID) and that node's public signing key,
 *	and "sign SEED", as ftnl-cli cluster pairkeys writes them
 * @err: receives the reason of a refusal (may be NULL)
 * @errlen: size of @err
 *
 * What "pairkeys PATH" does in a configuration file, for a table built
 * otherwise (ftnl-cli's "cluster set ... pairkeys PATH"): every node of
 * the table loses the pair key and public signing key it had; each key of
 * the file goes to its node (&ftnl_node.key, &ftnl_node.sign_key); the
 * file's signing seed, if any, replaces @config's (&has_sign_seed); the
 * cluster key is wiped and FTNL_CONFIG_KEY set in @unset. A key for a
 * node the table lacks is refused (a file for another cluster, or a stale
 * one): the table is then left with no pair key and the cluster key as it
 * was. ftnl_config_validate() checks that every node but this one has its
 * key (and, with a seed, its public key).
 *
 * Return: 0; -ENOENT (a node not in the table); ftnl_read_pair_keys()'s
 * errors: -EINVAL (a bad line), -E2BIG, -errno; -ENOMEM.
 */
int ftnl_config_set_pair_keys(struct ftnl_cluster_config *config,
			      const char *path, char *err, size_t errlen);

/**
 * ftnl_config_set_cluster_key() - authenticate with one cluster key
 * @config: the configuration
 * @key: the key every node shares (ftnl_parse_key(), ftnl_read_key_file())
 *
 * The opposite of ftnl_config_set_pair_keys(), what "key" or "keyfile" in
 * a configuration file does, for a configuration that had pair keys
 * (ftnl-cli's "cluster set ... key HEX" over a pairkeys cluster): @key
 * becomes the cluster key (FTNL_CONFIG_KEY cleared from @unset); every
 * node loses its pair key and public signing key, and the signing seed is
 * wiped, since a cluster key authenticates no node on its own and so
 * cannot carry signatures (ftnl_config_validate() refuses signing keys
 * without pair keys).
 */
void ftnl_config_set_cluster_key(struct ftnl_cluster_config *config,
				 const uint8_t key[FTNL_KEY_LEN]);

/* ------------------------------------------------------------------------
 * Value helpers (shared with ftnl-cli, usable by any tool)
 */

/**
 * ftnl_parse_u32() - parse a decimal unsigned 32-bit number
 * @text: digits only: no sign, no blanks, no base prefix
 * @value: set on success
 *
 * Return: 0; -EINVAL if @text is not a decimal number; -ERANGE if it does
 * not fit 32 bits.
 */
int ftnl_parse_u32(const char *text, uint32_t *value);

/**
 * ftnl_parse_port() - parse a UDP port number
 * @text: decimal number 0..65535 (0 parses; ftnl_config_validate() rejects
 *	it)
 * @port: set on success
 *
 * Return: 0; -EINVAL; -ERANGE above 65535.
 */
int ftnl_parse_port(const char *text, uint16_t *port);

/**
 * ftnl_parse_duration_us() - parse a duration into microseconds
 * @text: a decimal number with an optional fraction and a mandatory unit,
 *	"us", "ms" or "s": "250us", "100ms", "1.5s"
 * @us: set on success
 *
 * Return: 0; -EINVAL for bad syntax, a missing or unknown unit, or a
 * fraction finer than a microsecond; -ERANGE if it does not fit 32 bits of
 * microseconds (about 71 minutes).
 */
int ftnl_parse_duration_us(const char *text, uint32_t *us);

/**
 * ftnl_format_duration() - format microseconds with the largest exact unit
 * @us: the duration
 * @buf: receives e.g. "100ms", "1500ms", "2s", "250us"
 * @len: size of @buf (16 is always enough)
 *
 * Return: @buf.
 */
char *ftnl_format_duration(uint32_t us, char *buf, size_t len);

/**
 * ftnl_parse_key() - parse a key written as hex digits
 * @text: exactly 2 * FTNL_KEY_LEN hex digits, either case
 * @key: receives FTNL_KEY_LEN bytes on success
 *
 * Return: 0 or -EINVAL.
 */
int ftnl_parse_key(const char *text, uint8_t key[FTNL_KEY_LEN]);

/**
 * ftnl_read_key_file() - read a key from a file
 * @path: file holding exactly FTNL_KEY_LEN raw bytes, or 2 * FTNL_KEY_LEN
 *	hex digits optionally surrounded by white space
 * @key: receives the key on success
 * @err: receives what is wrong on failure (may be NULL)
 * @errlen: size of @err
 *
 * Return: 0; -EINVAL if the content is neither form; the errno of open or
 * read.
 */
int ftnl_read_key_file(const char *path, uint8_t key[FTNL_KEY_LEN],
		       char *err, size_t errlen);

/**
 * ftnl_pair_key() - derive the key of a pair of nodes from a cluster secret
 * @secret: the cluster secret, kept on the admin's host
 * @cluster_id: the cluster's id
 * @a: one node's id
 * @b: the other's (the order does not matter)
 * @key: receives the pair key
 *
 * keyed BLAKE2s-256 under @secret of "ftnl pair key", @cluster_id and the
 * smaller then the larger id, each big endian. Give each node only the
 * keys of its own pairs (a pairkeys file, FTNL_A_NODE_KEY): it can then
 * authenticate as itself only, and @secret never leaves the admin's host.
 * Documentation/admin-guide.rst, "Security model".
 */
void ftnl_pair_key(const uint8_t secret[FTNL_KEY_LEN], uint32_t cluster_id,
		   uint32_t a, uint32_t b, uint8_t key[FTNL_KEY_LEN]);

/**
 * ftnl_sign_seed() - derive a node's signing seed from a cluster secret
 * @secret: the cluster secret, kept on the admin's host
 * @cluster_id: the cluster's id
 * @node_id: the node's id
 * @seed: receives its secret Ed25519 seed
 *
 * keyed BLAKE2s-256 under @secret of "ftnl sign key", @cluster_id and
 * @node_id, each big endian. Only that node gets it (the "sign" line of
 * its pairkeys file, FTNL_A_SIGN_SEED); the others get its public key
 * (ftnl_sign_public()). Documentation/admin-guide.rst, "Security model".
 */
void ftnl_sign_seed(const uint8_t secret[FTNL_KEY_LEN], uint32_t cluster_id,
		    uint32_t node_id, uint8_t seed[FTNL_SIGN_SEED_LEN]);

/**
 * ftnl_sign_public() - the Ed25519 public key of a signing seed
 * @seed: the seed
 * @public_key: receives the public key (RFC 8032, 5.1.5)
 */
void ftnl_sign_public(const uint8_t seed[FTNL_SIGN_SEED_LEN],
		      uint8_t public_key[FTNL_SIGN_KEY_LEN]);

/**
 * ftnl_parse_addr() - parse an IPv4 or IPv6 address
 * @text: dotted quad or IPv6 text form; "[v6]" brackets are accepted; no
 *	scope id, no host names (nothing is resolved)
 * @family: set to AF_INET or AF_INET6
 * @addr: set on success
 *
 * Return: 0 or -EINVAL.
 */
int ftnl_parse_addr(const char *text, int *family, union ftnl_addr *addr);

/* Longest text ftnl_format_addr() writes, with its NUL. */
#define FTNL_ADDR_STRLEN	INET6_ADDRSTRLEN

/**
 * ftnl_format_addr() - format an address
 * @family: AF_INET or AF_INET6
 * @addr: the address
 * @buf: receives the text; FTNL_ADDR_STRLEN bytes are always enough
 * @len: size of @buf
 *
 * Return: @buf; "?" in @buf for another family.
 */
char *ftnl_format_addr(int family, const union ftnl_addr *addr,
		       char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* FTNL_FTNL_H */
