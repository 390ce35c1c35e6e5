/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the C selftests of ftnl (not by libnl_client.c, which
 * must stay independent of everything but uapi/linux/ftnl.h).
 *
 * - Network namespaces: named ones through iproute2 ("ip netns add"), or
 *   anonymous ones with unshare(2) (each kselftest_harness test runs in its
 *   own forked child, so unsharing there never leaks into another test).
 * - A raw generic netlink client on libmnl (struct st_nl) that can send
 *   requests libftnl would never build (malformed, unknown attributes) and
 *   reports everything the kernel answered: errno, extack message, offset
 *   of the offending attribute, missing attribute, NLM_F_DUMP_INTR.
 * - Cluster configurations in libftnl's struct ftnl_cluster_config, small
 *   ones and synthetic ones of any size, and a snapshot of the state of a
 *   netns (CLUSTER_GET + node dump) to prove a rejection changed nothing.
 *
 * Functions return 0 or a negative errno and never print (but for the
 * output of the commands st_sh() runs, sent to stderr), so that tests decide
 * what is a failure.
 */
#ifndef FTNL_SELFTEST_H
#define FTNL_SELFTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <libmnl/libmnl.h>

#include <linux/ftnl.h>
#include <ftnl/ftnl.h>

/* Event waits: generous, the VM is emulated (TCG). */
#define ST_EVENT_TIMEOUT_MS	5000

/* Receive buffer of the raw client: more than any dump part (32 KiB). */
#define ST_RXBUF		(128 * 1024)

/* ------------------------------------------------------------------------
 * Processes and network namespaces
 */

/* Path of iproute2's ip: $IP, else the first of the usual places. */
const char *st_ip(void);

/* Run a shell command line built from @fmt; return its exit status, or -1
 * if it could not run or was killed. Its output goes to stderr.
 */
int st_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "ip netns add/del NAME". */
int st_netns_add(const char *name);
int st_netns_del(const char *name);

/* Move the calling thread into the named netns (/run/netns/NAME). */
int st_netns_enter(const char *name);

/* Move the calling thread into a new anonymous netns with lo up. */
int st_netns_new(void);

/* Open /proc/self/ns/net: a handle on the current netns for st_setns(). */
int st_netns_fd(void);
int st_setns(int fd);

/* Drop to uid/gid 65534 (nobody), no supplementary groups. */
int st_drop_privileges(void);

/*
 * The module's parameter @name (/sys/module/ftnl/parameters), read or
 * written as an unsigned number. Return: 0 or a negative errno.
 */
int st_param_get(const char *name, unsigned int *v);
int st_param_set(const char *name, unsigned int v);

/* ------------------------------------------------------------------------
 * Raw generic netlink client
 */

/**
 * struct st_nl - a NETLINK_GENERIC socket with the ftnl family resolved
 * @sk: libmnl socket
 * @portid: our port id
 * @seq: sequence number of the last request
 * @family_id: id of the ftnl family (0 if not resolved)
 * @family_version: CTRL_ATTR_VERSION
 * @family_hdrsize: CTRL_ATTR_HDRSIZE
 * @family_maxattr: CTRL_ATTR_MAXATTR
 * @events_group: id of the "events" multicast group, 0 if absent
 * @op_flags: CTRL_ATTR_OP_FLAGS of each command (GENL_CMD_CAP_*, GENL_*_PERM)
 * @op_present: the command is listed in CTRL_ATTR_OPS
 * @rx: receive buffer, ST_RXBUF bytes
 */
struct st_nl {
	struct mnl_socket *sk;
	uint32_t portid;
	uint32_t seq;
	uint16_t family_id;
	uint32_t family_version;
	uint32_t family_hdrsize;
	uint32_t family_maxattr;
	uint32_t events_group;
	uint32_t op_flags[256];
	bool op_present[256];
	char *rx;
};

/**
 * struct st_ack - everything the kernel said about one request
 * @err: 0 or the negative errno of the request (or of a local failure)
 * @local: @err comes from a local socket call, not from the kernel
 * @msg: extack message, empty if none
 * @has_offs: @offs is valid
 * @offs: NLMSGERR_ATTR_OFFS, offset of the offending attribute from the
 *	start of the request's nlmsghdr
 * @has_miss_type: @miss_type is valid
 * @miss_type: NLMSGERR_ATTR_MISS_TYPE
 * @has_miss_nest: @miss_nest is valid
 * @miss_nest: NLMSGERR_ATTR_MISS_NEST, offset of the nest lacking it
 * @dump_intr: some message of the answer carried NLM_F_DUMP_INTR
 * @done_intr: the final NLMSG_DONE carried NLM_F_DUMP_INTR
 * @nmsgs: data messages received (not NLMSG_ERROR/DONE)
 * @nrecv: recv() calls it took
 * @cb_err: first negative value the callback returned, 0 if none
 */
struct st_ack {
	int err;
	bool local;
	char msg[256];
	bool has_offs;
	uint32_t offs;
	bool has_miss_type;
	uint32_t miss_type;
	bool has_miss_nest;
	uint32_t miss_nest;
	bool dump_intr;
	bool done_intr;
	unsigned int nmsgs;
	unsigned int nrecv;
	int cb_err;
};

typedef int (*st_msg_cb)(const struct nlmsghdr *nlh, void *arg);

/* Open a socket in the current netns (CAP_ACK and EXT_ACK enabled) and
 * resolve @family through nlctrl (NULL: only open). 0 or negative errno
 * (-ENOENT: no such family).
 */
int st_nl_open_family(struct st_nl *nl, const char *family);
static inline int st_nl_open(struct st_nl *nl)
{
	return st_nl_open_family(nl, FTNL_FAMILY_NAME);
}
void st_nl_close(struct st_nl *nl);

/* Make the socket able to send a request of @len bytes. */
int st_nl_sndbuf(struct st_nl *nl, size_t len);

/* Join the "events" group of the family. */
int st_nl_join_events(struct st_nl *nl);

/* Start a request in @buf (@len bytes, the caller makes sure everything it
 * puts fits): nlmsghdr with the family id and NLM_F_REQUEST | @flags,
 * genlmsghdr with @cmd and FTNL_FAMILY_VERSION.
 */
struct nlmsghdr *st_msg_start(const struct st_nl *nl, void *buf, size_t len,
			      uint16_t flags, uint8_t cmd);

/* Send @req (sequence number set here), read the answer up to its ack,
 * NLMSG_DONE or error, hand each data message to @cb. Returns ack->err.
 */
int st_nl_talk(struct st_nl *nl, struct nlmsghdr *req, st_msg_cb cb,
	       void *arg, struct st_ack *ack);

/* Send only; read with st_nl_read(). */
int st_nl_send(struct st_nl *nl, struct nlmsghdr *req);

/* Read one datagram of the answer to the last request sent; @done is set
 * when the answer is complete. Returns 0 or a negative local errno.
 */
int st_nl_read(struct st_nl *nl, st_msg_cb cb, void *arg, struct st_ack *ack,
	       bool *done);

/* Offset of @attr from the start of @nlh (for comparing with acks). */
static inline uint32_t st_offset(const struct nlmsghdr *nlh, const void *attr)
{
	return (uint32_t)((const char *)attr - (const char *)nlh);
}

/* Attribute @type of a genetlink message, NULL if absent. */
const struct nlattr *st_genl_attr(const struct nlmsghdr *nlh, uint16_t type);

/* Put a node nest (id, address by family, port) as libftnl would. */
struct nlattr *st_put_node(struct nlmsghdr *nlh, const struct ftnl_node *node);

/* Put the scalar attributes of @c (those not in @c->unset) and every node. */
void st_put_config(struct nlmsghdr *nlh, const struct ftnl_cluster_config *c);

/* Bytes a CLUSTER_SET of @c takes, with margin for extra attributes. */
size_t st_config_msg_size(const struct ftnl_cluster_config *c);

/* ------------------------------------------------------------------------
 * Configurations
 */

/* Fill @c with a valid configuration of @n nodes: ids n..1 in that
 * (descending) order, IPv4
 * addresses 10.x.y.z derived from the id, port @port, self @self_id,
 * h 1 s, d 600 s (no suspicion can happen during a test), a fixed key. @c->nodes is malloc'ed (free with
 * st_config_free()). 0 or -ENOMEM.
 */
int st_config_synthetic(struct ftnl_cluster_config *c, size_t n,
			uint32_t cluster_id, uint32_t self_id, uint16_t port);

/* The small mixed configuration most tests use: cluster @cluster_id,
 * self 2, nodes 1 (10.0.0.1:7000), 2 (10.0.0.2:7000), 3 ([fd00::3]:7000).
 */
int st_config_small(struct ftnl_cluster_config *c, uint32_t cluster_id);

/* Deep copy of @src into @dst (nodes duplicated). */
int st_config_copy(struct ftnl_cluster_config *dst,
		   const struct ftnl_cluster_config *src);

void st_config_free(struct ftnl_cluster_config *c);

/* Does @n describe the same node as @want (id, family, address, port)? */
bool st_node_same_endpoint(const struct ftnl_node *n,
			   const struct ftnl_node *want);

/* ------------------------------------------------------------------------
 * State snapshots
 */

/**
 * struct st_state - what a netns shows of its configuration
 * @get_err: result of CLUSTER_GET (0 or -ENOENT)
 * @info: its reply when @get_err is 0
 * @list_err: result of the node dump
 * @table: the dump
 * @configured: FTNL_A_CONFIGURED of INFO_GET
 */
struct st_state {
	int get_err;
	struct ftnl_cluster_info info;
	int list_err;
	struct ftnl_node_table table;
	bool configured;
};

int st_state_read(struct ftnl_handle *h, struct st_state *s);
void st_state_free(struct st_state *s);

/* Compare two snapshots; on a difference, describe it in @why. */
bool st_state_same(const struct st_state *a, const struct st_state *b,
		   char *why, size_t len);

#endif /* FTNL_SELFTEST_H */
