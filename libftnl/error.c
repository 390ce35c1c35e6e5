// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Errors: parsing acks and extended acks (extack), remembering why the last
 * request failed, and pointing at the attribute the kernel blamed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* ---- the error state of a handle ----------------------------------------- */

void ftnl_clear_error(struct ftnl_handle *h)
{
	h->last_err = 0;
	h->errmsg[0] = '\0';
	h->has_error_attr = false;
}

/**
 * ftnl_set_error() - record why the current request failed
 * @h: the handle
 * @err: negative errno
 * @fmt: description (printf format), or NULL for strerror(-@err)
 *
 * Return: @err, so that callers can "return ftnl_set_error(...)".
 */
int ftnl_set_error(struct ftnl_handle *h, int err, const char *fmt, ...)
{
	va_list ap;

	h->last_err = err;
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(h->errmsg, sizeof(h->errmsg), fmt, ap);
		va_end(ap);
	} else {
		snprintf(h->errmsg, sizeof(h->errmsg), "%s", strerror(-err));
	}
	return err;
}

FTNL_EXPORT const char *ftnl_errmsg(const struct ftnl_handle *h)
{
	return h->errmsg;
}

FTNL_EXPORT int ftnl_errno(const struct ftnl_handle *h)
{
	return h->last_err;
}

FTNL_EXPORT int ftnl_error_attr(const struct ftnl_handle *h,
				struct ftnl_error_attr *out)
{
	if (!h->last_err || !h->has_error_attr)
		return -ENOENT;
	*out = h->error_attr;
	return 0;
}

/* ---- attribute names (as in Documentation/netlink/specs/ftnl.yaml) ------- */

static const char *const ftnl_attr_names[] = {
	[FTNL_A_MODULE_VERSION] = "module-version",
	[FTNL_A_PROTO_VERSION] = "proto-version",
	[FTNL_A_FEATURES] = "features",
	[FTNL_A_MAX_NODES] = "max-nodes",
	[FTNL_A_CONFIGURED] = "configured",
	[FTNL_A_CLUSTER_ID] = "cluster-id",
	[FTNL_A_SELF_ID] = "self-id",
	[FTNL_A_HB_PERIOD_US] = "hb-period-us",
	[FTNL_A_TIMEOUT_US] = "timeout-us",
	[FTNL_A_KEY] = "key",
	[FTNL_A_NODE] = "node",
	[FTNL_A_NODE_COUNT] = "node-count",
	[FTNL_A_GENERATION] = "generation",
	[FTNL_A_PAD] = "pad",
	[FTNL_A_INCARNATION] = "incarnation",
	[FTNL_A_PEER_ID] = "peer-id",
	[FTNL_A_STATS] = "stats",
	[FTNL_A_EVENT_NODE_ID] = "event-node-id",
	[FTNL_A_EVENT_INCARNATION] = "event-incarnation",
	[FTNL_A_EVENT_CAUSE] = "event-cause",
	[FTNL_A_EVENT_OBSERVER_ID] = "event-observer-id",
	[FTNL_A_EVENT_TIME_MONO_NS] = "event-time-mono-ns",
	[FTNL_A_EVENT_TIME_REAL_NS] = "event-time-real-ns",
	[FTNL_A_BCAST_ALGO] = "bcast-algo",
	[FTNL_A_PROC_JOB] = "proc-job",
	[FTNL_A_PROC_RANK] = "proc-rank",
	[FTNL_A_PROC_PORTID] = "proc-portid",
	[FTNL_A_BCAST_FCG_F] = "bcast-fcg-f",
	[FTNL_A_BCAST_GOSSIP_T_US] = "bcast-gossip-t-us",
	[FTNL_A_EVENT_NODE_NAME] = "event-node-name",
	[FTNL_A_PROC_OWNER_UID] = "proc-owner-uid",
	[FTNL_A_EVENT_SEQ] = "event-seq",
	[FTNL_A_EVENT_NTF_CMD] = "event-ntf-cmd",
	[FTNL_A_EVENT_AFTER_SEQ] = "event-after-seq",
	[FTNL_A_FENCE] = "fence",
	[FTNL_A_EXPEL_REASON] = "expel-reason",
	[FTNL_A_REJOIN] = "rejoin",
	[FTNL_A_REJOIN_FLAP_LIMIT] = "rejoin-flap-limit",
	[FTNL_A_REJOIN_FLAP_WINDOW_S] = "rejoin-flap-window-s",
	[FTNL_A_QUORUM] = "quorum",
	[FTNL_A_TIMEOUT_MIN_US] = "timeout-min-us",
	[FTNL_A_TIMEOUT_TARGET_NINES] = "timeout-target-nines",
	[FTNL_A_EPOCH] = "epoch",
	[FTNL_A_UPDATE_GRACE_S] = "update-grace-s",
	[FTNL_A_PREV_KEY_LEFT_MS] = "prev-key-left-ms",
	[FTNL_A_INCARNATION_FLOOR] = "incarnation-floor",
	[FTNL_A_PAIR_KEYS] = "pair-keys",
	[FTNL_A_SIGN_SEED] = "sign-seed",
	[FTNL_A_SIGNED] = "signed",
};

static const char *const ftnl_node_attr_names[] = {
	[FTNL_A_NODE_ID] = "id",
	[FTNL_A_NODE_ADDR4] = "addr4",
	[FTNL_A_NODE_ADDR6] = "addr6",
	[FTNL_A_NODE_PORT] = "port",
	[FTNL_A_NODE_STATE] = "state",
	[FTNL_A_NODE_SELF] = "self",
	[FTNL_A_NODE_INCARNATION] = "incarnation",
	[FTNL_A_NODE_EMITTER] = "emitter",
	[FTNL_A_NODE_OBSERVER] = "observer",
	[FTNL_A_NODE_HB_AGE_US] = "hb-age-us",
	[FTNL_A_NODE_PAD] = "pad",
	[FTNL_A_NODE_NAME] = "name",
	[FTNL_A_NODE_DOMAIN] = "domain",
	[FTNL_A_NODE_KEY] = "key",
	[FTNL_A_NODE_SIGN_KEY] = "sign-key",
};

FTNL_EXPORT const char *ftnl_attr_name(unsigned int type)
{
	if (type < FTNL_ARRAY_SIZE(ftnl_attr_names) && ftnl_attr_names[type])
		return ftnl_attr_names[type];
	return "unknown";
}

FTNL_EXPORT const char *ftnl_node_attr_name(unsigned int type)
{
	if (type < FTNL_ARRAY_SIZE(ftnl_node_attr_names) &&
	    ftnl_node_attr_names[type])
		return ftnl_node_attr_names[type];
	return "unknown";
}

/* ---- NLMSG_ERROR and NLMSG_DONE ------------------------------------------ */

static int ftnl_extack_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_ack *ack = arg;

	switch (mnl_attr_get_type(attr)) {
	case NLMSGERR_ATTR_MSG:
		ack->msg = ftnl_attr_str(attr);
		return ack->msg ? 0 : -EBADMSG;
	case NLMSGERR_ATTR_OFFS:
		ack->has_offset = true;
		return ftnl_attr_u32(attr, &ack->offset);
	case NLMSGERR_ATTR_MISS_TYPE:
		ack->has_miss_type = true;
		return ftnl_attr_u32(attr, &ack->miss_type);
	case NLMSGERR_ATTR_MISS_NEST:
		ack->has_miss_nest = true;
		return ftnl_attr_u32(attr, &ack->miss_nest);
	}
	return 0;	/* cookie, policy: not used */
}

/* Parse the extack TLVs that start @hlen bytes into the payload of @nlh. */
static int ftnl_parse_extack(const struct nlmsghdr *nlh, size_t hlen,
			     struct ftnl_ack *ack)
{
	size_t payload_len = mnl_nlmsg_get_payload_len(nlh);

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	hlen = MNL_ALIGN(hlen);
	if (hlen > payload_len)
		return -EBADMSG;
	return ftnl_attr_walk((const char *)mnl_nlmsg_get_payload(nlh) + hlen,
			      payload_len - hlen, ftnl_extack_attr, ack);
}

/**
 * ftnl_msg_parse_ack() - parse an NLMSG_ERROR message (error or ack)
 * @nlh: the message
 * @ack: filled in; @ack->msg points into @nlh
 *
 * Handles both an echoed request (the default) and a capped one
 * (NETLINK_CAP_ACK, flagged NLM_F_CAPPED), then the extack TLVs if
 * NLM_F_ACK_TLVS says there are some.
 *
 * Return: 0, or -EBADMSG if malformed.
 */
int ftnl_msg_parse_ack(const struct nlmsghdr *nlh, struct ftnl_ack *ack)
{
	size_t payload_len = mnl_nlmsg_get_payload_len(nlh);
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	size_t hlen = sizeof(*err);

	memset(ack, 0, sizeof(*ack));
	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN || payload_len < sizeof(*err))
		return -EBADMSG;
	if (err->error > 0 || err->error < -4095)
		return -EBADMSG;
	ack->error = err->error;

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		/* The whole request follows the error code. */
		if (err->msg.nlmsg_len < sizeof(err->msg) ||
		    err->msg.nlmsg_len > payload_len - sizeof(err->error))
			return -EBADMSG;
		hlen = sizeof(err->error) + err->msg.nlmsg_len;
	}
	return ftnl_parse_extack(nlh, hlen, ack);
}

/**
 * ftnl_msg_parse_done() - parse the NLMSG_DONE message ending a dump
 * @nlh: the message
 * @ack: filled in: the dump's error code (0 if the message has none) and
 *	the extack, if any
 *
 * Return: 0, or -EBADMSG if malformed.
 */
int ftnl_msg_parse_done(const struct nlmsghdr *nlh, struct ftnl_ack *ack)
{
	size_t payload_len = mnl_nlmsg_get_payload_len(nlh);
	int error;

	memset(ack, 0, sizeof(*ack));
	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN)
		return -EBADMSG;
	if (payload_len < sizeof(error))
		return 0;
	memcpy(&error, mnl_nlmsg_get_payload(nlh), sizeof(error));
	if (error > 0 || error < -4095)
		return -EBADMSG;
	ack->error = error;
	return ftnl_parse_extack(nlh, sizeof(error), ack);
}

/* ---- mapping an extack offset back to the request ------------------------ */

struct ftnl_locate {
	const char *base;		/* the request */
	uint32_t target;		/* offset to find */
	int64_t node_index;		/* FTNL_A_NODE nests seen so far */
	const struct nlattr *node;	/* the nest containing @target */
	uint16_t node_attr;
	uint16_t attr;
	bool found;
};

static uint32_t ftnl_offset_of(const struct ftnl_locate *loc,
			       const struct nlattr *attr)
{
	return (const char *)attr - loc->base;
}

static int ftnl_locate_nested(const struct nlattr *attr, void *arg)
{
	struct ftnl_locate *loc = arg;

	if (ftnl_offset_of(loc, attr) == loc->target) {
		loc->node_attr = mnl_attr_get_type(attr);
		return 1;
	}
	return 0;
}

static int ftnl_locate_top(const struct nlattr *attr, void *arg)
{
	struct ftnl_locate *loc = arg;
	uint32_t start = ftnl_offset_of(loc, attr);
	uint16_t type = mnl_attr_get_type(attr);

	if (type == FTNL_A_NODE)
		loc->node_index++;
	if (loc->target < start || loc->target >= start + attr->nla_len)
		return 0;

	loc->found = true;
	loc->attr = type;
	if (type != FTNL_A_NODE) {
		loc->node_index = -1;
		return 1;
	}
	loc->node = attr;
	if (loc->target != start)
		ftnl_attr_walk(mnl_attr_get_payload(attr),
			       mnl_attr_get_payload_len(attr),
			       ftnl_locate_nested, loc);
	return 1;
}

static int ftnl_node_id_attr(const struct nlattr *attr, void *arg)
{
	if (mnl_attr_get_type(attr) == FTNL_A_NODE_ID &&
	    !ftnl_attr_u32(attr, arg))
		return 1;
	return 0;
}

/* Find the attribute at @offset in @req. Return: true if found. */
static bool ftnl_locate_offset(const struct nlmsghdr *req, uint32_t offset,
			       struct ftnl_error_attr *out)
{
	struct ftnl_locate loc = {
		.base = (const char *)req,
		.target = offset,
		.node_index = -1,
	};

	ftnl_genl_walk(req, ftnl_locate_top, &loc);
	if (!loc.found)
		return false;
	out->attr = loc.attr;
	out->node_attr = loc.node_attr;
	out->node_index = loc.node_index;
	if (loc.node &&
	    ftnl_attr_walk(mnl_attr_get_payload(loc.node),
			   mnl_attr_get_payload_len(loc.node),
			   ftnl_node_id_attr, &out->node_id) == 1)
		out->has_node_id = true;
	return true;
}

/**
 * ftnl_locate_error() - which attribute of @req an extack blames
 * @req: the request that was rejected
 * @ack: its parsed NLMSG_ERROR
 * @out: filled in on success
 *
 * A missing-attribute report (MISS_TYPE, with MISS_NEST when the
 * attribute is missing inside a nest) takes precedence over the offset
 * of a bad attribute.
 *
 * Return: 0, or -ENOENT if the extack names no attribute of @req.
 */
int ftnl_locate_error(const struct nlmsghdr *req, const struct ftnl_ack *ack,
		      struct ftnl_error_attr *out)
{
	memset(out, 0, sizeof(*out));
	out->node_index = -1;

	if (ack->has_miss_type) {
		out->missing = true;
		if (!ack->has_miss_nest) {
			out->attr = ack->miss_type;
			return 0;
		}
		if (!ftnl_locate_offset(req, ack->miss_nest, out))
			return -ENOENT;
		/* The nest itself was found; the missing one is inside it. */
		out->node_attr = ack->miss_type;
		return 0;
	}
	if (ack->has_offset && ftnl_locate_offset(req, ack->offset, out))
		return 0;
	return -ENOENT;
}
