/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftnl internals shared between its source files and its unit tests.
 * Nothing here is part of the API or exported from libftnl.so.
 */
#ifndef FTNL_INTERNAL_H
#define FTNL_INTERNAL_H

#include <stdarg.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <libmnl/libmnl.h>

#include <ftnl/ftnl.h>

#include "../kmod/config_rules.h"

/* Everything is built with -fvisibility=hidden; this marks the API. */
#define FTNL_EXPORT __attribute__((visibility("default")))

#define FTNL_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* A constant's value as a string literal, for messages naming a limit. */
#define FTNL_STR_(x) #x
#define FTNL_STR(x) FTNL_STR_(x)

/* Space a generic netlink message spends before its first attribute. */
#define FTNL_GENL_HDRLEN (MNL_NLMSG_HDRLEN + MNL_ALIGN(sizeof(struct genlmsghdr)))

/*
 * Start size of a receive buffer: the kernel sizes dump messages by the
 * reader's buffer (up to 32 KiB), so this is also the most efficient size.
 * Larger datagrams grow the buffer (see ftnl_recv_datagram()).
 */
#define FTNL_RX_INITIAL	32768

/* recvmsg(2), replaceable so that tests can inject errors such as ENOBUFS. */
typedef ssize_t (*ftnl_recvmsg_fn)(int fd, struct msghdr *msg, int flags);

/**
 * struct ftnl_rxbuf - a receive buffer that grows to fit a datagram
 * @data: the bytes
 * @cap: allocated size of @data
 */
struct ftnl_rxbuf {
	char *data;
	size_t cap;
};

/* netlink_io.c */
int ftnl_rxbuf_init(struct ftnl_rxbuf *rx);
void ftnl_rxbuf_free(struct ftnl_rxbuf *rx);
ssize_t ftnl_recv_datagram(int fd, struct ftnl_rxbuf *rx, int flags,
			   ftnl_recvmsg_fn recv_fn);

/**
 * struct ftnl_handle - a netlink socket bound to the ftnl family
 * @nl: the libmnl socket; NULL when the handle wraps a test socket
 * @fd: the socket descriptor
 * @portid: our netlink port id, expected in every reply
 * @seq: sequence number of the last request
 * @family_id: generic netlink id of the ftnl family
 * @family_version: its version, from nlctrl
 * @events_group: id of its "events" multicast group, 0 if it has none
 * @rx: receive buffer
 * @recv_fn: recvmsg(2) or a test's replacement
 * @last_err: result of the last request (0 or negative errno)
 * @errmsg: description of @last_err, empty after a success
 * @has_error_attr: @error_attr is valid
 * @error_attr: attribute blamed by the last rejection
 */
struct ftnl_handle {
	struct mnl_socket *nl;
	int fd;
	uint32_t portid;
	uint32_t seq;
	uint16_t family_id;
	uint32_t family_version;
	uint32_t events_group;
	struct ftnl_rxbuf rx;
	ftnl_recvmsg_fn recv_fn;
	int last_err;
	char errmsg[512];
	bool has_error_attr;
	struct ftnl_error_attr error_attr;
};

/* handle.c */
int ftnl_handle_wrap_fd(int fd, uint16_t family_id, uint32_t portid,
			struct ftnl_handle **handle);
int ftnl_resolve_family(struct ftnl_handle *h, const char *name,
			const char *group, uint16_t *family_id,
			uint32_t *version, uint32_t *group_id);

/**
 * typedef ftnl_reply_fn - consumer of the reply messages of one request
 * @nlh: a message of the request's family (not NLMSG_ERROR/DONE)
 * @arg: the consumer's state
 *
 * Return: 0 to go on, or a negative errno, which ends the delivery (the
 * rest of the reply is still read and dropped) and becomes the result of
 * ftnl_request() unless the kernel reported an error itself.
 */
typedef int (*ftnl_reply_fn)(const struct nlmsghdr *nlh, void *arg);

/* netlink_io.c */
int ftnl_request(struct ftnl_handle *h, struct nlmsghdr *req,
		 ftnl_reply_fn reply_fn, void *arg);
int ftnl_ensure_sndbuf(struct ftnl_handle *h, size_t len);
int ftnl_set_error(struct ftnl_handle *h, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ftnl_clear_error(struct ftnl_handle *h);

/**
 * struct ftnl_ack - what an NLMSG_ERROR or NLMSG_DONE message says
 * @error: 0 or the negative errno of the request
 * @msg: extack message (points into the parsed message), NULL if none
 * @offset: NLMSGERR_ATTR_OFFS, offending attribute's offset in the request
 * @has_offset: @offset is present
 * @miss_type: NLMSGERR_ATTR_MISS_TYPE, type of a missing attribute
 * @has_miss_type: @miss_type is present
 * @miss_nest: NLMSGERR_ATTR_MISS_NEST, offset of the nest missing it
 * @has_miss_nest: @miss_nest is present
 */
struct ftnl_ack {
	int error;
	const char *msg;
	uint32_t offset;
	bool has_offset;
	uint32_t miss_type;
	bool has_miss_type;
	uint32_t miss_nest;
	bool has_miss_nest;
};

/*
 * msg.c: building and parsing messages. Pure functions over buffers: no
 * socket, no handle, so that unit tests run them on crafted bytes.
 */
typedef int (*ftnl_attr_fn)(const struct nlattr *attr, void *arg);
int ftnl_attr_walk(const void *start, size_t len, ftnl_attr_fn fn, void *arg);
int ftnl_genl_walk(const struct nlmsghdr *nlh, ftnl_attr_fn fn, void *arg);
int ftnl_attr_u8(const struct nlattr *attr, uint8_t *value);
int ftnl_attr_u16(const struct nlattr *attr, uint16_t *value);
int ftnl_attr_u32(const struct nlattr *attr, uint32_t *value);
int ftnl_attr_u64(const struct nlattr *attr, uint64_t *value);
int ftnl_attr_node_name(const struct nlattr *attr, char *name);
int ftnl_attr_flag(const struct nlattr *attr);
const char *ftnl_attr_str(const struct nlattr *attr);

struct nlmsghdr *ftnl_msg_start(void *buf, uint16_t type, uint16_t flags,
				uint8_t cmd, uint8_t version);
size_t ftnl_msg_cluster_set_size(const struct ftnl_cluster_config *config);
struct nlmsghdr *ftnl_msg_cluster_set(void *buf, uint16_t family_id,
				      const struct ftnl_cluster_config *config);
int ftnl_msg_parse_family(const struct nlmsghdr *nlh, const char *group,
			  uint16_t *family_id, uint32_t *version,
			  uint32_t *group_id);
int ftnl_msg_parse_info(const struct nlmsghdr *nlh, struct ftnl_info *info);
int ftnl_msg_parse_cluster(const struct nlmsghdr *nlh,
			   struct ftnl_cluster_info *info);
int ftnl_msg_parse_node_nest(const struct nlattr *nest, struct ftnl_node *node);
int ftnl_msg_parse_node(const struct nlmsghdr *nlh, struct ftnl_node *node,
			uint32_t *cluster_id, uint32_t *generation);
int ftnl_msg_parse_event(const struct nlmsghdr *nlh, struct ftnl_event *event);
int ftnl_msg_parse_event_as(const struct nlmsghdr *nlh, uint8_t cmd,
			    struct ftnl_event *event);
int ftnl_msg_parse_stats(const struct nlmsghdr *nlh, struct ftnl_stats *stats);

/* error.c: acks and extack */
int ftnl_msg_parse_ack(const struct nlmsghdr *nlh, struct ftnl_ack *ack);
int ftnl_msg_parse_done(const struct nlmsghdr *nlh, struct ftnl_ack *ack);
int ftnl_locate_error(const struct nlmsghdr *req, const struct ftnl_ack *ack,
		      struct ftnl_error_attr *out);

/* cluster.c */
char *ftnl_bcast_algo_list(char *buf, size_t len);

/*
 * validate.c: checks shared by the validator and the config parser, over
 * the module's own rules (kmod/config_rules.c, compiled into libftnl).
 */
const char *ftnl_check_cluster_id(uint32_t cluster_id);
const char *ftnl_check_hb_period(uint32_t hb_period_us);
const char *ftnl_check_timeout(uint32_t timeout_us);
const char *ftnl_check_node_name(const char *name);
const char *ftnl_check_node_domain(const char *domain);
const char *ftnl_check_node(const struct ftnl_node *node);
const char *ftnl_check_fcg_f(uint32_t fcg_f);
const char *ftnl_check_gossip_t(uint32_t gossip_t_us);
const char *ftnl_check_flap_limit(uint32_t flap_limit, uint32_t flap_window_s);
bool ftnl_addr_is_unicast(int family, const union ftnl_addr *addr);

enum ftnl_dup_key {
	FTNL_DUP_ID,		/* same node id */
	FTNL_DUP_ENDPOINT,	/* same family, address and port */
	FTNL_DUP_NAME,		/* same name (nodes without one never are) */
};
int ftnl_find_duplicate(const struct ftnl_node *nodes, size_t count,
			enum ftnl_dup_key key, size_t *first, size_t *second);

/* config.c */
/*
 * Read all of @fd into a malloc()ed buffer with one spare byte (for a
 * terminating NUL). Return: 0; -EFBIG past @max bytes; -ENOMEM; -errno.
 */
int ftnl_read_all(int fd, size_t max, char **out, size_t *out_len);

/* values.c */
void ftnl_format_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ftnl_vformat_err(char *err, size_t errlen, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/*
 * The tokenizer of the line-oriented files (the cluster configuration,
 * a group's peers file): split @line, modified in place, into words
 * separated by blanks; a '#' ends the line. At most @max words are stored
 * in @words. Return: the number of words, or @max + 1 when the line has
 * more than @max (the caller says "too many values").
 */
int ftnl_split_words(char *line, char **words, int max);

/*
 * pairkey.c: a pairkeys file, "ID HEX [PUBLIC]" per line, and "sign SEED"
 * once: all its lines carry a public signing key, or none does.
 */
struct ftnl_pair_entry {
	uint32_t id;
	unsigned int line;
	uint8_t key[FTNL_KEY_LEN];
	bool has_public;
	uint8_t public_key[FTNL_SIGN_KEY_LEN];
};

struct ftnl_pair_keys {
	struct ftnl_pair_entry *entries;
	size_t count;
	bool has_seed;
	uint8_t seed[FTNL_SIGN_SEED_LEN];
};

/*
 * Read @path into @keys, sorted by node id (free with
 * ftnl_pair_keys_free(), which wipes them). Return: 0; -EINVAL with
 * "PATH:LINE: why" in @err; -E2BIG; -errno.
 */
int ftnl_read_pair_keys(const char *path, struct ftnl_pair_keys *keys,
			char *err, size_t errlen);
void ftnl_pair_keys_free(struct ftnl_pair_keys *keys);
/*
 * Each key of @keys to its node of @config's table (sorted here, so that
 * both walk once, whatever the size), and its signing seed to @config.
 * Return: 0; -ENOENT with *@missing the index of the first entry whose
 * node the table lacks; -ENOMEM.
 */
int ftnl_pair_keys_assign(struct ftnl_cluster_config *config,
			  const struct ftnl_pair_keys *keys, size_t *missing);

/* events.c */
struct ftnl_events;
int ftnl_events_wrap_fd(int fd, uint16_t family_id, ftnl_recvmsg_fn recv_fn,
			struct ftnl_events **events);

#endif /* FTNL_INTERNAL_H */
