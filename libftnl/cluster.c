// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The "do" commands: module information and the cluster configuration.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A reply that is one message, parsed by @parse into @out. */
struct ftnl_single_reply {
	int (*parse)(const struct nlmsghdr *nlh, void *out);
	void *out;
	bool seen;
};

static int ftnl_single_reply(const struct nlmsghdr *nlh, void *arg)
{
	struct ftnl_single_reply *r = arg;
	int err;

	if (r->seen)
		return -EBADMSG;
	err = r->parse(nlh, r->out);
	if (!err)
		r->seen = true;
	return err;
}

static int ftnl_do(struct ftnl_handle *h, uint8_t cmd,
		   int (*parse)(const struct nlmsghdr *, void *), void *out)
{
	char buf[FTNL_GENL_HDRLEN] __attribute__((aligned(4)));
	struct ftnl_single_reply r = { .parse = parse, .out = out };
	struct nlmsghdr *req;
	int err;

	req = ftnl_msg_start(buf, h->family_id, NLM_F_REQUEST | NLM_F_ACK, cmd,
			     FTNL_FAMILY_VERSION);
	err = ftnl_request(h, req, parse ? ftnl_single_reply : NULL, &r);
	if (err)
		return err;
	if (parse && !r.seen)
		return ftnl_set_error(h, -EBADMSG,
				      "the kernel acknowledged without replying");
	return 0;
}

static int ftnl_parse_info(const struct nlmsghdr *nlh, void *out)
{
	return ftnl_msg_parse_info(nlh, out);
}

FTNL_EXPORT int ftnl_info_get(struct ftnl_handle *h, struct ftnl_info *info)
{
	struct ftnl_info tmp = { .family_version = h->family_version };
	int err;

	err = ftnl_do(h, FTNL_CMD_INFO_GET, ftnl_parse_info, &tmp);
	if (!err)
		*info = tmp;
	return err;
}

FTNL_EXPORT const char *ftnl_feature_name(uint64_t feature)
{
	switch (feature) {
	case FTNL_FEATURE_CLUSTER:
		return "cluster";
	case FTNL_FEATURE_IPV6:
		return "ipv6";
	case FTNL_FEATURE_EVENTS:
		return "events";
	case FTNL_FEATURE_RING:
		return "ring";
	case FTNL_FEATURE_BCAST:
		return "bcast";
	case FTNL_FEATURE_PROC:
		return "proc";
	case FTNL_FEATURE_NODE_NAME:
		return "node-name";
	case FTNL_FEATURE_DOMAINS:
		return "domains";
	case FTNL_FEATURE_PAIR_KEYS:
		return "pair-keys";
	case FTNL_FEATURE_SIGNED:
		return "signed";
	}
	return NULL;
}

/* The YNL names of enum ftnl_bcast_algo; an algorithm without one is unknown. */
static const char *const ftnl_bcast_algo_names[] = {
	[FTNL_BCAST_HYPERCUBE] = "hypercube",
	[FTNL_BCAST_BMG] = "bmg",
	[FTNL_BCAST_FCG] = "fcg",
};

FTNL_EXPORT const char *ftnl_bcast_algo_name(unsigned int algo)
{
	if (algo < FTNL_ARRAY_SIZE(ftnl_bcast_algo_names) &&
	    ftnl_bcast_algo_names[algo])
		return ftnl_bcast_algo_names[algo];
	return "unknown";
}

/* "hypercube, bmg or fcg": every algorithm this library names, for messages. */
char *ftnl_bcast_algo_list(char *buf, size_t len)
{
	size_t used = 0, i, known = 0, n = 0;

	for (i = 0; i < FTNL_ARRAY_SIZE(ftnl_bcast_algo_names); i++)
		known += ftnl_bcast_algo_names[i] != NULL;
	buf[0] = '\0';
	for (i = 0; i < FTNL_ARRAY_SIZE(ftnl_bcast_algo_names) && used < len; i++) {
		if (!ftnl_bcast_algo_names[i])
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 !n ? "" : n + 1 == known ? " or " : ", ",
					 ftnl_bcast_algo_names[i]);
		n++;
	}
	return buf;
}

FTNL_EXPORT const char *ftnl_fence_name(unsigned int fence)
{
	switch (fence) {
	case FTNL_FENCE_NONE:
		return "none";
	case FTNL_FENCE_KILL:
		return "kill";
	}
	return "unknown";
}

FTNL_EXPORT int ftnl_parse_fence(const char *text, uint8_t *fence)
{
	if (!strcmp(text, "none"))
		*fence = FTNL_FENCE_NONE;
	else if (!strcmp(text, "kill"))
		*fence = FTNL_FENCE_KILL;
	else
		return -EINVAL;
	return 0;
}

FTNL_EXPORT int ftnl_parse_bcast_algo(const char *text, uint8_t *algo)
{
	size_t i;

	for (i = 0; i < FTNL_ARRAY_SIZE(ftnl_bcast_algo_names); i++) {
		if (ftnl_bcast_algo_names[i] &&
		    !strcmp(text, ftnl_bcast_algo_names[i])) {
			*algo = (uint8_t)i;
			return 0;
		}
	}
	return -EINVAL;
}

static int ftnl_parse_cluster(const struct nlmsghdr *nlh, void *out)
{
	return ftnl_msg_parse_cluster(nlh, out);
}

FTNL_EXPORT int ftnl_cluster_get(struct ftnl_handle *h,
				 struct ftnl_cluster_info *info)
{
	struct ftnl_cluster_info tmp;
	int err;

	err = ftnl_do(h, FTNL_CMD_CLUSTER_GET, ftnl_parse_cluster, &tmp);
	if (!err)
		*info = tmp;
	return err;
}

FTNL_EXPORT int ftnl_cluster_del(struct ftnl_handle *h)
{
	return ftnl_do(h, FTNL_CMD_CLUSTER_DEL, NULL, NULL);
}

FTNL_EXPORT int ftnl_cluster_leave(struct ftnl_handle *h)
{
	return ftnl_do(h, FTNL_CMD_CLUSTER_LEAVE, NULL, NULL);
}

FTNL_EXPORT int ftnl_node_readmit(struct ftnl_handle *h, uint32_t node_id)
{
	char buf[FTNL_GENL_HDRLEN + MNL_ATTR_HDRLEN + sizeof(uint32_t)]
		__attribute__((aligned(4)));
	struct nlmsghdr *req;

	req = ftnl_msg_start(buf, h->family_id, NLM_F_REQUEST | NLM_F_ACK,
			     FTNL_CMD_NODE_READMIT, FTNL_FAMILY_VERSION);
	mnl_attr_put_u32(req, FTNL_A_PEER_ID, node_id);
	return ftnl_request(h, req, NULL, NULL);
}

static int ftnl_parse_stats(const struct nlmsghdr *nlh, void *out)
{
	return ftnl_msg_parse_stats(nlh, out);
}

FTNL_EXPORT int ftnl_stats_get(struct ftnl_handle *h, struct ftnl_stats *stats)
{
	struct ftnl_stats tmp;
	int err;

	err = ftnl_do(h, FTNL_CMD_STATS_GET, ftnl_parse_stats, &tmp);
	if (!err)
		*stats = tmp;
	return err;
}

FTNL_EXPORT uint64_t
ftnl_stats_bcast_latency_mean_ns(const struct ftnl_stats *stats)
{
	if (!stats->bcast_delivered)
		return 0;
	return stats->bcast_latency_sum_ns / stats->bcast_delivered;
}

FTNL_EXPORT const char *ftnl_drop_reason_name(unsigned int reason)
{
	static const char *const names[] = {
		[FTNL_DROP_SIZE] = "size",
		[FTNL_DROP_MAGIC] = "magic",
		[FTNL_DROP_VERSION] = "version",
		[FTNL_DROP_CLUSTER] = "cluster",
		[FTNL_DROP_UNKNOWN_SENDER] = "unknown-sender",
		[FTNL_DROP_MAC] = "mac",
		[FTNL_DROP_STALE_INCARNATION] = "stale-incarnation",
		[FTNL_DROP_REPLAY] = "replay",
		[FTNL_DROP_DEAD_SENDER] = "dead-sender",
		[FTNL_DROP_NOT_FOR_US] = "not-for-us",
		[FTNL_DROP_TYPE] = "type",
		[FTNL_DROP_SOURCE] = "source",
		[FTNL_DROP_UNPROVEN] = "unproven",
		[FTNL_DROP_OTHER_KEY] = "other-key",
		[FTNL_DROP_SIGNATURE] = "signature",
	};

	if (reason < FTNL_ARRAY_SIZE(names) && names[reason])
		return names[reason];
	return "unknown";
}

FTNL_EXPORT int ftnl_cluster_set(struct ftnl_handle *h,
				 const struct ftnl_cluster_config *config)
{
	size_t size = ftnl_msg_cluster_set_size(config);
	struct nlmsghdr *req;
	void *buf;
	int err;

	ftnl_clear_error(h);
	if (size == SIZE_MAX)
		return ftnl_set_error(h, -EMSGSIZE,
				      "%zu nodes do not fit in a netlink message",
				      config->node_count);
	buf = malloc(size);	/* malloc's alignment suits nlmsghdr */
	if (!buf)
		return ftnl_set_error(h, -ENOMEM, NULL);
	req = ftnl_msg_cluster_set(buf, h->family_id, config);

	err = ftnl_ensure_sndbuf(h, req->nlmsg_len);
	if (!err)
		err = ftnl_request(h, req, NULL, NULL);
	/* The request holds the cluster secret. */
	explicit_bzero(buf, size);
	free(buf);
	return err;
}
