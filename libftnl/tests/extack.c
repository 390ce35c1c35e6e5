// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Acks and extended acks: crafted NLMSG_ERROR and NLMSG_DONE messages, and
 * mapping the offending-attribute offset back to the request.
 */
#include <errno.h>
#include <stdlib.h>

#include "internal.h"
#include "tap.h"

#define BUFSZ 4096

enum {
	TLV_MSG = 1 << 0,
	TLV_OFFS = 1 << 1,
	TLV_MISS = 1 << 2,
	TLV_MISS_NEST = 1 << 3,
	TLV_BAD_MSG = 1 << 4,	/* message string without its NUL */
};

struct tlvs {
	unsigned int which;
	const char *msg;
	uint32_t offs;
	uint32_t miss_type;
	uint32_t miss_nest;
};

/* A request to be rejected: CLUSTER_SET with three nodes (and bcast-algo). */
static struct nlmsghdr *build_request(void *buf)
{
	static const char *const addrs[] = { "10.0.0.1", "10.0.0.2", "fd00::3" };
	struct ftnl_node nodes[3];
	struct ftnl_cluster_config c = {
		.cluster_id = 1, .self_id = 1, .hb_period_us = 1000,
		.timeout_us = 500,	/* the "mistake" */
		.nodes = nodes, .node_count = 3,
		.has_bcast_algo = true, .bcast_algo = 7,	/* another one */
	};
	int i;

	memset(nodes, 0, sizeof(nodes));
	for (i = 0; i < 3; i++) {
		nodes[i].id = (uint32_t)i + 1;
		nodes[i].port = 7400;
		ftnl_parse_addr(addrs[i], &nodes[i].family, &nodes[i].addr);
	}
	if (ftnl_msg_cluster_set_size(&c) > BUFSZ)
		abort();
	return ftnl_msg_cluster_set(buf, 0x20, &c);
}

/* Offset in @req of its top-level attribute @type (the @nth one). */
static uint32_t offset_of(const struct nlmsghdr *req, uint16_t type, int nth)
{
	const struct nlattr *attr;

	mnl_attr_for_each(attr, req, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == type && !nth--)
			return (uint32_t)((const char *)attr - (const char *)req);
	}
	abort();
}

/* Offset in @req of attribute @type inside the @nth FTNL_A_NODE. */
static uint32_t nested_offset_of(const struct nlmsghdr *req, int nth,
				 uint16_t type)
{
	const struct nlattr *nest = (const struct nlattr *)
		((const char *)req + offset_of(req, FTNL_A_NODE, nth));
	const struct nlattr *attr;

	mnl_attr_for_each_nested(attr, nest) {
		if (mnl_attr_get_type(attr) == type)
			return (uint32_t)((const char *)attr - (const char *)req);
	}
	abort();
}

static struct nlmsghdr *error_msg(void *buf, const struct nlmsghdr *req,
				  int error, bool capped, const struct tlvs *t)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *err;

	nlh->nlmsg_type = NLMSG_ERROR;
	err = mnl_nlmsg_put_extra_header(nlh, sizeof(*err));
	err->error = error;
	err->msg = *req;
	if (capped) {
		nlh->nlmsg_flags |= NLM_F_CAPPED;
	} else {
		size_t rest = req->nlmsg_len - sizeof(*req);

		memcpy((char *)nlh + nlh->nlmsg_len, req + 1, rest);
		nlh->nlmsg_len += MNL_ALIGN(rest);
	}
	if (!t)
		return nlh;
	nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
	if (t->which & TLV_MSG)
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, t->msg);
	if (t->which & TLV_BAD_MSG)
		mnl_attr_put(nlh, NLMSGERR_ATTR_MSG, strlen(t->msg), t->msg);
	if (t->which & TLV_OFFS)
		mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, t->offs);
	if (t->which & TLV_MISS)
		mnl_attr_put_u32(nlh, NLMSGERR_ATTR_MISS_TYPE, t->miss_type);
	if (t->which & TLV_MISS_NEST)
		mnl_attr_put_u32(nlh, NLMSGERR_ATTR_MISS_NEST, t->miss_nest);
	return nlh;
}

static void test_ack_capped(const void *arg)
{
	char req_buf[BUFSZ] __attribute__((aligned(8))) = { 0 };
	char buf[BUFSZ] __attribute__((aligned(8))) = { 0 };
	struct nlmsghdr *req = build_request(req_buf);
	struct tlvs t = {
		.which = TLV_MSG | TLV_OFFS,
		.msg = "timeout must be greater than the heartbeat period",
		.offs = 44,
	};
	struct ftnl_ack ack;

	(void)arg;
	TAP_CHECK_INT(ftnl_msg_parse_ack(error_msg(buf, req, -EINVAL, true, &t),
					 &ack), 0);
	TAP_CHECK_INT(ack.error, -EINVAL);
	TAP_CHECK_STR(ack.msg, t.msg);
	TAP_CHECK(ack.has_offset);
	TAP_CHECK_UINT(ack.offset, 44);
	TAP_CHECK(!ack.has_miss_type);
}

static void test_ack_uncapped(const void *arg)
{
	char req_buf[BUFSZ] __attribute__((aligned(8))) = { 0 };
	char buf[2 * BUFSZ] __attribute__((aligned(8))) = { 0 };
	struct nlmsghdr *req = build_request(req_buf);
	struct tlvs t = { .which = TLV_MSG, .msg = "duplicate node id" };
	struct ftnl_ack ack;

	(void)arg;
	/* The whole request is echoed before the TLVs. */
	TAP_CHECK_INT(ftnl_msg_parse_ack(error_msg(buf, req, -EINVAL, false, &t),
					 &ack), 0);
	TAP_CHECK_INT(ack.error, -EINVAL);
	TAP_CHECK_STR(ack.msg, "duplicate node id");
}

static void test_ack_plain(const void *arg)
{
	char req_buf[BUFSZ] __attribute__((aligned(8))) = { 0 };
	char buf[BUFSZ] __attribute__((aligned(8))) = { 0 };
	struct nlmsghdr *req = build_request(req_buf);
	struct ftnl_ack ack;

	(void)arg;
	/* An error without extack. */
	TAP_CHECK_INT(ftnl_msg_parse_ack(error_msg(buf, req, -EPERM, true, NULL),
					 &ack), 0);
	TAP_CHECK_INT(ack.error, -EPERM);
	TAP_CHECK(!ack.msg);
	TAP_CHECK(!ack.has_offset);
	/* A success. */
	memset(buf, 0, sizeof(buf));
	TAP_CHECK_INT(ftnl_msg_parse_ack(error_msg(buf, req, 0, true, NULL),
					 &ack), 0);
	TAP_CHECK_INT(ack.error, 0);
}

static void test_ack_malformed(const void *arg)
{
	char req_buf[BUFSZ] __attribute__((aligned(8))) = { 0 };
	char buf[2 * BUFSZ] __attribute__((aligned(8))) = { 0 };
	struct nlmsghdr *req = build_request(req_buf);
	struct tlvs bad_msg = { .which = TLV_BAD_MSG, .msg = "no terminator" };
	struct nlmsghdr *nlh;
	struct nlmsgerr *err;
	struct ftnl_ack ack;

	(void)arg;
	/* Shorter than struct nlmsgerr. */
	nlh = error_msg(buf, req, -EINVAL, true, NULL);
	nlh->nlmsg_len = MNL_NLMSG_HDRLEN + 8;
	TAP_CHECK_INT(ftnl_msg_parse_ack(nlh, &ack), -EBADMSG);

	/* Echoed request longer than the message. */
	memset(buf, 0, sizeof(buf));
	nlh = error_msg(buf, req, -EINVAL, false, NULL);
	err = mnl_nlmsg_get_payload(nlh);
	err->msg.nlmsg_len += 64;
	TAP_CHECK_INT(ftnl_msg_parse_ack(nlh, &ack), -EBADMSG);

	/* Extack string without a NUL. */
	memset(buf, 0, sizeof(buf));
	nlh = error_msg(buf, req, -EINVAL, true, &bad_msg);
	TAP_CHECK_INT(ftnl_msg_parse_ack(nlh, &ack), -EBADMSG);

	/* A positive error code. */
	memset(buf, 0, sizeof(buf));
	nlh = error_msg(buf, req, EINVAL, true, NULL);
	TAP_CHECK_INT(ftnl_msg_parse_ack(nlh, &ack), -EBADMSG);

	/* TLV flag set, but the TLV region is cut inside an attribute. */
	memset(buf, 0, sizeof(buf));
	nlh = error_msg(buf, req, -EINVAL, true,
			&(struct tlvs){ .which = TLV_MSG, .msg = "cut" });
	nlh->nlmsg_len -= 2;
	TAP_CHECK_INT(ftnl_msg_parse_ack(nlh, &ack), -EBADMSG);
}

static struct nlmsghdr *done_msg(void *buf, int error, bool with_error,
				 const char *msg)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	if (with_error)
		memcpy(mnl_nlmsg_put_extra_header(nlh, sizeof(int)), &error,
		       sizeof(int));
	if (msg) {
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, msg);
	}
	return nlh;
}

static void test_done(const void *arg)
{
	char buf[256] __attribute__((aligned(8))) = { 0 };
	struct ftnl_ack ack;

	(void)arg;
	TAP_CHECK_INT(ftnl_msg_parse_done(done_msg(buf, 0, true, NULL), &ack), 0);
	TAP_CHECK_INT(ack.error, 0);
	memset(buf, 0, sizeof(buf));
	TAP_CHECK_INT(ftnl_msg_parse_done(done_msg(buf, 0, false, NULL), &ack), 0);
	TAP_CHECK_INT(ack.error, 0);
	memset(buf, 0, sizeof(buf));
	TAP_CHECK_INT(ftnl_msg_parse_done(done_msg(buf, -ENOBUFS, true,
						   "dump failed"), &ack), 0);
	TAP_CHECK_INT(ack.error, -ENOBUFS);
	TAP_CHECK_STR(ack.msg, "dump failed");
}

struct locate_case {
	const char *name;
	struct tlvs tlvs;	/* offsets filled in by the test */
	int offs_attr;		/* top-level attribute to point OFFS at, 0: none */
	int offs_node;		/* ...inside this node (if offs_nested) */
	int offs_nested;	/* nested attribute type, 0: the nest itself */
	int nest_node;		/* node whose nest MISS_NEST names, -1: none */
	int err;
	struct ftnl_error_attr want;
};

static const struct locate_case locate_cases[] = {
	{
		.name = "offset of a top-level attribute",
		.tlvs = { .which = TLV_OFFS },
		.offs_attr = FTNL_A_TIMEOUT_US, .nest_node = -1,
		.want = { .attr = FTNL_A_TIMEOUT_US, .node_index = -1 },
	},
	{
		.name = "offset of the port inside the second node",
		.tlvs = { .which = TLV_OFFS },
		.offs_attr = FTNL_A_NODE, .offs_node = 1,
		.offs_nested = FTNL_A_NODE_PORT, .nest_node = -1,
		.want = { .attr = FTNL_A_NODE, .node_attr = FTNL_A_NODE_PORT,
			  .node_index = 1, .node_id = 2, .has_node_id = true },
	},
	{
		.name = "offset of the third node's nest",
		.tlvs = { .which = TLV_OFFS },
		.offs_attr = FTNL_A_NODE, .offs_node = 2, .nest_node = -1,
		.want = { .attr = FTNL_A_NODE, .node_index = 2, .node_id = 3,
			  .has_node_id = true },
	},
	{
		.name = "offset of bcast-algo (an unknown algorithm)",
		.tlvs = { .which = TLV_OFFS | TLV_MSG,
			  .msg = "integer out of range" },
		.offs_attr = FTNL_A_BCAST_ALGO, .nest_node = -1,
		.want = { .attr = FTNL_A_BCAST_ALGO, .node_index = -1 },
	},
	{
		.name = "missing top-level attribute",
		.tlvs = { .which = TLV_MISS, .miss_type = FTNL_A_KEY },
		.nest_node = -1,
		.want = { .attr = FTNL_A_KEY, .node_index = -1, .missing = true },
	},
	{
		.name = "missing attribute inside the first node",
		.tlvs = { .which = TLV_MISS | TLV_MISS_NEST | TLV_OFFS,
			  .miss_type = FTNL_A_NODE_PORT },
		.offs_attr = FTNL_A_CLUSTER_ID, .nest_node = 0,
		.want = { .attr = FTNL_A_NODE, .node_attr = FTNL_A_NODE_PORT,
			  .node_index = 0, .node_id = 1, .has_node_id = true,
			  .missing = true },
	},
	{
		.name = "offset outside the request",
		.tlvs = { .which = TLV_OFFS, .offs = 100000 },
		.nest_node = -1, .err = -ENOENT,
	},
	{
		.name = "offset inside the headers",
		.tlvs = { .which = TLV_OFFS, .offs = 4 },
		.nest_node = -1, .err = -ENOENT,
	},
	{
		.name = "no attribute named",
		.tlvs = { .which = TLV_MSG, .msg = "nope" },
		.nest_node = -1, .err = -ENOENT,
	},
};

static void test_locate(const void *arg)
{
	const struct locate_case *c = arg;
	char req_buf[BUFSZ] __attribute__((aligned(8))) = { 0 };
	char buf[BUFSZ] __attribute__((aligned(8))) = { 0 };
	struct nlmsghdr *req = build_request(req_buf);
	struct tlvs t = c->tlvs;
	struct ftnl_error_attr got;
	struct ftnl_ack ack;

	if (c->offs_attr == FTNL_A_NODE && c->offs_nested)
		t.offs = nested_offset_of(req, c->offs_node,
					  (uint16_t)c->offs_nested);
	else if (c->offs_attr)
		t.offs = offset_of(req, (uint16_t)c->offs_attr, c->offs_node);
	if (c->nest_node >= 0)
		t.miss_nest = offset_of(req, FTNL_A_NODE, c->nest_node);

	if (!TAP_CHECK_INT(ftnl_msg_parse_ack(error_msg(buf, req, -EINVAL, true,
							 &t), &ack), 0))
		return;
	TAP_CHECK_INT(ftnl_locate_error(req, &ack, &got), c->err);
	if (c->err)
		return;
	TAP_CHECK_UINT(got.attr, c->want.attr);
	TAP_CHECK_UINT(got.node_attr, c->want.node_attr);
	TAP_CHECK_INT(got.node_index, c->want.node_index);
	TAP_CHECK_INT(got.has_node_id, c->want.has_node_id);
	TAP_CHECK_UINT(got.node_id, c->want.node_id);
	TAP_CHECK_INT(got.missing, c->want.missing);
}

static void test_attr_names(const void *arg)
{
	(void)arg;
	TAP_CHECK_STR(ftnl_attr_name(FTNL_A_HB_PERIOD_US), "hb-period-us");
	TAP_CHECK_STR(ftnl_attr_name(FTNL_A_NODE), "node");
	TAP_CHECK_STR(ftnl_attr_name(0), "unknown");
	TAP_CHECK_STR(ftnl_attr_name(1000), "unknown");
	TAP_CHECK_STR(ftnl_node_attr_name(FTNL_A_NODE_PORT), "port");
	TAP_CHECK_STR(ftnl_node_attr_name(FTNL_A_NODE_ADDR6), "addr6");
	TAP_CHECK_STR(ftnl_node_attr_name(99), "unknown");
	TAP_CHECK_STR(ftnl_node_state_name(FTNL_NODE_STATE_LEFT), "left");
	TAP_CHECK_STR(ftnl_node_state_name(FTNL_NODE_STATE_EXPELLED), "expelled");
	TAP_CHECK_STR(ftnl_node_state_name((enum ftnl_node_state)77), "unknown");
	TAP_CHECK_STR(ftnl_feature_name(FTNL_FEATURE_IPV6), "ipv6");
	TAP_CHECK(!ftnl_feature_name(1u << 20));
	TAP_CHECK_STR(ftnl_feature_name(FTNL_FEATURE_BCAST), "bcast");
	TAP_CHECK_STR(ftnl_attr_name(FTNL_A_BCAST_ALGO), "bcast-algo");
	TAP_CHECK_STR(ftnl_attr_name(FTNL_A_BCAST_FCG_F), "bcast-fcg-f");
	TAP_CHECK_STR(ftnl_feature_name(FTNL_FEATURE_PROC), "proc");
}

int main(void)
{
	size_t i;

	tap_add(test_ack_capped, NULL, "capped error with extack message and offset");
	tap_add(test_ack_uncapped, NULL, "uncapped error: TLVs after the echoed request");
	tap_add(test_ack_plain, NULL, "error without extack, and a plain ack");
	tap_add(test_ack_malformed, NULL, "malformed error messages rejected");
	tap_add(test_done, NULL, "NLMSG_DONE with and without error and extack");
	for (i = 0; i < FTNL_ARRAY_SIZE(locate_cases); i++)
		tap_add(test_locate, &locate_cases[i], "locate: %s",
			locate_cases[i].name);
	tap_add(test_attr_names, NULL, "attribute, state and feature names");
	return tap_run();
}
