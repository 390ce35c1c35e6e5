// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The request/reply machinery against a fake kernel: a thread at the other
 * end of a socketpair that answers requests with crafted replies. Covers
 * acks, extack propagation, multi-part dumps of 65,536 nodes, interrupted
 * dumps, stale and foreign messages, malformed replies, big requests. The
 * last cases use the host's real generic netlink (nlctrl), which needs no
 * module.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

#define FAMILY		0x1d
#define PORTID		4242
#define DATAGRAM_MAX	32768

struct fake;
typedef void (*fake_serve_fn)(struct fake *f, const struct nlmsghdr *req,
			      int index);

/**
 * struct fake - the fake kernel
 * @user_fd: libftnl's end
 * @kernel_fd: the fake's end
 * @serve: answers one request; @index counts requests from 0
 * @requests: requests served so far
 * @nodes: node table size for dumps
 * @interrupt_mask: bit i set: flag request i's dump NLM_F_DUMP_INTR
 * @regenerate_mask: bit i set: change the generation mid-dump of request i
 * @seen_nodes: FTNL_A_NODE count of the last CLUSTER_SET
 * @seen_cluster_id: its cluster id
 * @seen_bcast_algo: its FTNL_A_BCAST_ALGO, -1 if it had none
 * @problem: set by the thread when a request was not what the test wanted
 */
struct fake {
	int user_fd;
	int kernel_fd;
	pthread_t thread;
	fake_serve_fn serve;
	int requests;
	size_t nodes;
	unsigned int interrupt_mask;
	unsigned int regenerate_mask;
	size_t seen_nodes;
	uint32_t seen_cluster_id;
	int seen_bcast_algo;
	const char *problem;
	/* datagram being assembled */
	char out[DATAGRAM_MAX] __attribute__((aligned(8)));
	size_t out_len;
};

static void fake_flush(struct fake *f)
{
	if (f->out_len && send(f->kernel_fd, f->out, f->out_len, 0) < 0)
		f->problem = "send failed";
	f->out_len = 0;
}

/* Queue @nlh in the current datagram, starting a new one when full. */
static void fake_queue(struct fake *f, const struct nlmsghdr *nlh)
{
	size_t len = MNL_ALIGN(nlh->nlmsg_len);

	if (f->out_len + len > sizeof(f->out))
		fake_flush(f);
	memcpy(f->out + f->out_len, nlh, nlh->nlmsg_len);
	f->out_len += len;
}

static struct nlmsghdr *fake_reply(void *buf, const struct nlmsghdr *req,
				   uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = ftnl_msg_start(buf, req->nlmsg_type, flags, cmd, 1);

	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_pid = PORTID;
	return nlh;
}

/* NLMSG_ERROR (capped), with extack message and offset when given. */
static void fake_ack(struct fake *f, const struct nlmsghdr *req, int error,
		     const char *msg, int64_t offset)
{
	char buf[1024] __attribute__((aligned(8))) = { 0 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *err;

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_CAPPED;
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_pid = PORTID;
	err = mnl_nlmsg_put_extra_header(nlh, sizeof(*err));
	err->error = error;
	err->msg = *req;
	if (msg || offset >= 0)
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
	if (msg)
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, msg);
	if (offset >= 0)
		mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, (uint32_t)offset);
	fake_queue(f, nlh);
	fake_flush(f);
}

static void fake_done(struct fake *f, const struct nlmsghdr *req, int error,
		      const char *msg)
{
	char buf[512] __attribute__((aligned(8))) = { 0 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_pid = PORTID;
	memcpy(mnl_nlmsg_put_extra_header(nlh, sizeof(int)), &error, sizeof(int));
	if (msg) {
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, msg);
	}
	fake_queue(f, nlh);
	fake_flush(f);
}

static uint8_t req_cmd(const struct nlmsghdr *req)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(req);

	return genl->cmd;
}

static void *fake_main(void *arg)
{
	struct fake *f = arg;
	struct ftnl_rxbuf rx;

	if (ftnl_rxbuf_init(&rx))
		return NULL;
	for (;;) {
		ssize_t n = ftnl_recv_datagram(f->kernel_fd, &rx, 0, recvmsg);

		if (n <= 0)
			break;	/* libftnl's end was shut down */
		if ((size_t)n < FTNL_GENL_HDRLEN ||
		    ((struct nlmsghdr *)rx.data)->nlmsg_len != (size_t)n) {
			f->problem = "request of the wrong size";
			continue;
		}
		f->serve(f, (struct nlmsghdr *)rx.data, f->requests++);
	}
	ftnl_rxbuf_free(&rx);
	return NULL;
}

static struct ftnl_handle *fake_start(struct fake *f, fake_serve_fn serve)
{
	struct ftnl_handle *h;
	int fds[2];

	memset(f, 0, sizeof(*f));
	f->serve = serve;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, fds))
		return NULL;
	f->user_fd = fds[0];
	f->kernel_fd = fds[1];
	if (ftnl_handle_wrap_fd(f->user_fd, FAMILY, PORTID, &h))
		return NULL;
	if (pthread_create(&f->thread, NULL, fake_main, f))
		return NULL;
	return h;
}

static void fake_stop(struct fake *f, struct ftnl_handle *h)
{
	shutdown(f->user_fd, SHUT_RDWR);
	pthread_join(f->thread, NULL);
	ftnl_close(h);
	close(f->user_fd);
	close(f->kernel_fd);
	if (f->problem)
		tap_diag("fake kernel: %s", f->problem);
	TAP_CHECK(!f->problem);
}

/* ---- do commands ------------------------------------------------------- */

static void put_info(struct fake *f, const struct nlmsghdr *req,
		     uint32_t seq_delta, uint32_t pid, const char *version)
{
	char buf[512] __attribute__((aligned(8))) = { 0 };
	struct nlmsghdr *nlh = fake_reply(buf, req, FTNL_CMD_INFO_GET, 0);

	nlh->nlmsg_seq -= seq_delta;
	nlh->nlmsg_pid = pid;
	mnl_attr_put_strz(nlh, FTNL_A_MODULE_VERSION, version);
	mnl_attr_put_u32(nlh, FTNL_A_PROTO_VERSION, 1);
	mnl_attr_put_u64(nlh, FTNL_A_FEATURES, 7);
	mnl_attr_put_u32(nlh, FTNL_A_MAX_NODES, 65536);
	fake_queue(f, nlh);
}

static void serve_info(struct fake *f, const struct nlmsghdr *req, int index)
{
	(void)index;
	if (req_cmd(req) != FTNL_CMD_INFO_GET ||
	    req->nlmsg_flags != (NLM_F_REQUEST | NLM_F_ACK) ||
	    req->nlmsg_type != FAMILY)
		f->problem = "not an INFO_GET do request";
	/* A stale reply and one for another port come first: both ignored. */
	put_info(f, req, 1, PORTID, "stale");
	put_info(f, req, 0, PORTID + 1, "foreign");
	fake_flush(f);
	put_info(f, req, 0, PORTID, "0.1.0");
	fake_ack(f, req, 0, NULL, -1);
}

static void test_info(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_info);
	struct ftnl_info info;

	(void)arg;
	if (!TAP_CHECK(h))
		return;
	TAP_CHECK_INT(ftnl_info_get(h, &info), 0);
	TAP_CHECK_STR(info.module_version, "0.1.0");
	TAP_CHECK_UINT(info.family_version, FTNL_FAMILY_VERSION);
	TAP_CHECK_UINT(info.features, 7);
	TAP_CHECK_UINT(info.max_nodes, 65536);
	TAP_CHECK(!info.configured);
	TAP_CHECK_STR(ftnl_errmsg(h), "");
	TAP_CHECK_INT(ftnl_errno(h), 0);
	/* Twice: the handle is reusable and sequence numbers advance. */
	TAP_CHECK_INT(ftnl_info_get(h, &info), 0);
	fake_stop(&f, h);
	TAP_CHECK_INT(f.requests, 2);
}

static void serve_enoent(struct fake *f, const struct nlmsghdr *req, int index)
{
	(void)index;
	if (req_cmd(req) != FTNL_CMD_CLUSTER_GET)
		f->problem = "not a CLUSTER_GET";
	fake_ack(f, req, -ENOENT,
		 "no cluster is configured in this network namespace", -1);
}

static void test_extack_propagates(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_enoent);
	struct ftnl_cluster_info info;
	struct ftnl_error_attr where;

	(void)arg;
	if (!TAP_CHECK(h))
		return;
	TAP_CHECK_INT(ftnl_cluster_get(h, &info), -ENOENT);
	TAP_CHECK_STR(ftnl_errmsg(h),
		      "no cluster is configured in this network namespace");
	TAP_CHECK_INT(ftnl_errno(h), -ENOENT);
	TAP_CHECK_INT(ftnl_error_attr(h, &where), -ENOENT);
	fake_stop(&f, h);
}

static void serve_eperm(struct fake *f, const struct nlmsghdr *req, int index)
{
	if (index == 0)
		fake_ack(f, req, -EPERM, NULL, -1);
	else
		fake_ack(f, req, 0, NULL, -1);
}

static void test_error_without_extack(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_eperm);

	(void)arg;
	if (!TAP_CHECK(h))
		return;
	TAP_CHECK_INT(ftnl_cluster_del(h), -EPERM);
	TAP_CHECK_STR(ftnl_errmsg(h), "Operation not permitted");
	/* A later success clears the error. */
	TAP_CHECK_INT(ftnl_cluster_del(h), 0);
	TAP_CHECK_STR(ftnl_errmsg(h), "");
	TAP_CHECK_INT(ftnl_errno(h), 0);
	fake_stop(&f, h);
}

/* Count a CLUSTER_SET's nodes; reject it pointing at node @bad (or ack). */
static void serve_cluster_set(struct fake *f, const struct nlmsghdr *req,
			      int bad)
{
	const struct nlattr *attr;
	int64_t offset = -1;
	size_t index = 0;

	if (req_cmd(req) != FTNL_CMD_CLUSTER_SET)
		f->problem = "not a CLUSTER_SET";
	mnl_attr_for_each(attr, req, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == FTNL_A_CLUSTER_ID)
			f->seen_cluster_id = mnl_attr_get_u32(attr);
		if (mnl_attr_get_type(attr) != FTNL_A_NODE)
			continue;
		if (bad >= 0 && index == (size_t)bad)
			offset = (const char *)attr - (const char *)req;
		index++;
	}
	f->seen_nodes = index;
	if (offset >= 0)
		fake_ack(f, req, -EINVAL, "duplicate node address and port",
			 offset);
	else
		fake_ack(f, req, 0, NULL, -1);
}

static void serve_reject_node1(struct fake *f, const struct nlmsghdr *req,
			       int index)
{
	(void)index;
	serve_cluster_set(f, req, 1);
}

static void serve_accept(struct fake *f, const struct nlmsghdr *req, int index)
{
	(void)index;
	serve_cluster_set(f, req, -1);
}

static struct ftnl_node *make_nodes(size_t count)
{
	struct ftnl_node *nodes = calloc(count, sizeof(*nodes));
	size_t i;

	if (!nodes)
		return NULL;
	for (i = 0; i < count; i++) {
		nodes[i].id = (uint32_t)i + 1;
		nodes[i].family = AF_INET6;
		nodes[i].addr.v6.s6_addr[0] = 0xfd;
		nodes[i].addr.v6.s6_addr[14] = (uint8_t)(i >> 8);
		nodes[i].addr.v6.s6_addr[15] = (uint8_t)i;
		nodes[i].port = 7400;
	}
	return nodes;
}

static void test_rejection_located(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_reject_node1);
	struct ftnl_node *nodes = make_nodes(3);
	struct ftnl_cluster_config c = {
		.cluster_id = 9, .self_id = 1, .hb_period_us = 1000,
		.timeout_us = 3000, .nodes = nodes, .node_count = 3,
	};
	struct ftnl_error_attr where;

	(void)arg;
	if (!TAP_CHECK(h && nodes))
		return;
	nodes[1].id = 77;
	TAP_CHECK_INT(ftnl_cluster_set(h, &c), -EINVAL);
	TAP_CHECK_STR(ftnl_errmsg(h), "duplicate node address and port");
	if (TAP_CHECK_INT(ftnl_error_attr(h, &where), 0)) {
		TAP_CHECK_UINT(where.attr, FTNL_A_NODE);
		TAP_CHECK_INT(where.node_index, 1);
		TAP_CHECK(where.has_node_id);
		TAP_CHECK_UINT(where.node_id, 77);
		TAP_CHECK(!where.missing);
	}
	fake_stop(&f, h);
	TAP_CHECK_UINT(f.seen_nodes, 3);
	TAP_CHECK_UINT(f.seen_cluster_id, 9);
	free(nodes);
}

static void test_big_request(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_accept);
	struct ftnl_node *nodes = make_nodes(FTNL_MAX_NODES);
	struct ftnl_cluster_config c = {
		.cluster_id = 5, .self_id = 1, .hb_period_us = 1000,
		.timeout_us = 3000, .nodes = nodes,
		.node_count = FTNL_MAX_NODES,
	};
	int err;

	(void)arg;
	if (!TAP_CHECK(h && nodes))
		return;
	err = ftnl_cluster_set(h, &c);
	if (err == -EMSGSIZE && geteuid() != 0) {
		/* Without CAP_NET_ADMIN the send buffer may stay small. */
		TAP_SKIP("send buffer cannot grow: %s", ftnl_errmsg(h));
	} else {
		TAP_CHECK_INT(err, 0);
		if (err)
			tap_diag("%s", ftnl_errmsg(h));
	}
	fake_stop(&f, h);
	if (!err)
		TAP_CHECK_UINT(f.seen_nodes, FTNL_MAX_NODES);
	free(nodes);
}

/* ---- dumps ------------------------------------------------------------------ */

static void put_node(struct fake *f, const struct nlmsghdr *req, uint32_t id,
		     uint32_t generation, uint16_t flags)
{
	char buf[256] __attribute__((aligned(8))) = { 0 };
	struct nlmsghdr *nlh = fake_reply(buf, req, FTNL_CMD_NODE_GET,
					  NLM_F_MULTI | flags);
	struct nlattr *nest;
	uint32_t addr = htonl(0x0a000000u + id);

	mnl_attr_put_u32(nlh, FTNL_A_CLUSTER_ID, 42);
	mnl_attr_put_u32(nlh, FTNL_A_GENERATION, generation);
	nest = mnl_attr_nest_start(nlh, FTNL_A_NODE);
	mnl_attr_put_u32(nlh, FTNL_A_NODE_ID, id);
	mnl_attr_put_u16(nlh, FTNL_A_NODE_PORT, 7400);
	mnl_attr_put_u8(nlh, FTNL_A_NODE_STATE, FTNL_NODE_STATE_ALIVE);
	mnl_attr_put(nlh, FTNL_A_NODE_ADDR4, 4, &addr);
	if (id == 3)
		mnl_attr_put(nlh, FTNL_A_NODE_SELF, 0, NULL);
	mnl_attr_nest_end(nlh, nest);
	fake_queue(f, nlh);
}

static void serve_dump(struct fake *f, const struct nlmsghdr *req, int index)
{
	bool interrupt = index < 32 && (f->interrupt_mask & (1u << index));
	bool regenerate = index < 32 && (f->regenerate_mask & (1u << index));
	size_t i;

	if (req_cmd(req) != FTNL_CMD_NODE_GET) {
		/* Anything else after a dump: acknowledge. */
		fake_ack(f, req, 0, NULL, -1);
		return;
	}
	if (req->nlmsg_flags != (NLM_F_REQUEST | NLM_F_DUMP))
		f->problem = "not a dump request";
	for (i = 0; i < f->nodes; i++) {
		uint16_t flags = interrupt && i >= f->nodes / 2 ?
				 NLM_F_DUMP_INTR : 0;
		uint32_t generation = regenerate && i >= f->nodes / 2 ? 8 : 7;

		put_node(f, req, (uint32_t)i + 1, generation, flags);
	}
	fake_flush(f);
	fake_done(f, req, 0, NULL);
}

static void test_dump_big(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_dump);
	struct ftnl_node_table t;
	size_t i, wrong = 0;

	(void)arg;
	if (!TAP_CHECK(h))
		return;
	f.nodes = FTNL_MAX_NODES;
	if (TAP_CHECK_INT(ftnl_node_list(h, &t), 0)) {
		TAP_CHECK_UINT(t.count, FTNL_MAX_NODES);
		TAP_CHECK_UINT(t.cluster_id, 42);
		TAP_CHECK_UINT(t.generation, 7);
		for (i = 0; i < t.count; i++)
			if (t.nodes[i].id != i + 1 ||
			    t.nodes[i].self != (i + 1 == 3) ||
			    ntohl(t.nodes[i].addr.v4.s_addr) != 0x0a000001u + i)
				wrong++;
		TAP_CHECK_UINT(wrong, 0);
		ftnl_node_table_free(&t);
	}
	fake_stop(&f, h);
	TAP_CHECK_INT(f.requests, 1);
}

static void test_dump_empty(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_dump);
	struct ftnl_node_table t;

	(void)arg;
	if (!TAP_CHECK(h))
		return;
	f.nodes = 0;
	TAP_CHECK_INT(ftnl_node_list(h, &t), 0);
	TAP_CHECK_UINT(t.count, 0);
	TAP_CHECK_UINT(t.cluster_id, 0);
	ftnl_node_table_free(&t);
	fake_stop(&f, h);
}

struct counter {
	size_t calls;
	size_t abort_at;	/* 0: never */
};

static int count_node(const struct ftnl_node *node, void *arg)
{
	struct counter *c = arg;

	(void)node;
	if (++c->calls == c->abort_at)
		return -ECANCELED;
	return 0;
}

static void test_dump_interrupted(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_dump);
	struct counter c = { 0 };
	struct ftnl_node_table t;

	(void)arg;
	if (!TAP_CHECK(h))
		return;
	f.nodes = 5000;
	f.interrupt_mask = 1u << 0 | 1u << 1;	/* dumps 0 and 1 */
	/* The callback form reports the interruption. */
	TAP_CHECK_INT(ftnl_node_dump(h, count_node, &c), -EINTR);
	TAP_CHECK_CONTAINS(ftnl_errmsg(h), "interrupted");
	TAP_CHECK_UINT(c.calls, 5000);
	/* The list form retries: dump 1 is interrupted too, dump 2 is clean. */
	if (TAP_CHECK_INT(ftnl_node_list(h, &t), 0)) {
		TAP_CHECK_UINT(t.count, 5000);
		ftnl_node_table_free(&t);
	}
	TAP_CHECK_INT(f.requests, 3);
	fake_stop(&f, h);
}

static void test_dump_generation_change(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_dump);
	struct counter c = { 0 };

	(void)arg;
	if (!TAP_CHECK(h))
		return;
	f.nodes = 100;
	f.regenerate_mask = 1u << 0;
	TAP_CHECK_INT(ftnl_node_dump(h, count_node, &c), -EINTR);
	/* Delivery stops at the first node of the new generation. */
	TAP_CHECK_UINT(c.calls, 50);
	fake_stop(&f, h);
}

static void test_dump_gives_up(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_dump);
	struct ftnl_node_table t = { .count = 99 };

	(void)arg;
	if (!TAP_CHECK(h))
		return;
	f.nodes = 40;
	f.interrupt_mask = ~0u;
	TAP_CHECK_INT(ftnl_node_list(h, &t), -EINTR);
	TAP_CHECK_UINT(t.count, 0);
	TAP_CHECK(!t.nodes);
	TAP_CHECK_INT(f.requests, FTNL_NODE_LIST_ATTEMPTS);
	fake_stop(&f, h);
}

static void test_dump_callback_abort(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_dump);
	struct counter c = { .abort_at = 3 };

	(void)arg;
	if (!TAP_CHECK(h))
		return;
	f.nodes = 3000;
	TAP_CHECK_INT(ftnl_node_dump(h, count_node, &c), -ECANCELED);
	TAP_CHECK_UINT(c.calls, 3);
	/* The rest of the dump was drained: the next request works. */
	TAP_CHECK_INT(ftnl_cluster_del(h), 0);
	fake_stop(&f, h);
}

static void serve_dump_error(struct fake *f, const struct nlmsghdr *req,
			     int index)
{
	(void)index;
	put_node(f, req, 1, 7, 0);
	fake_flush(f);
	fake_done(f, req, -EMSGSIZE, "node does not fit the dump message");
}

static void test_dump_done_error(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_dump_error);
	struct counter c = { 0 };

	(void)arg;
	if (!TAP_CHECK(h))
		return;
	TAP_CHECK_INT(ftnl_node_dump(h, count_node, &c), -EMSGSIZE);
	TAP_CHECK_STR(ftnl_errmsg(h), "node does not fit the dump message");
	TAP_CHECK_UINT(c.calls, 1);
	fake_stop(&f, h);
}

/* ---- the event history ---------------------------------------------------- */

#define HISTORY_NEWEST	10

/* Find FTNL_A_EVENT_AFTER_SEQ in the request, 0 if absent. */
static uint64_t req_after_seq(const struct nlmsghdr *req)
{
	const struct nlattr *attr;

	mnl_attr_for_each(attr, req, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(attr) == FTNL_A_EVENT_AFTER_SEQ)
			return mnl_attr_get_u64(attr);
	return 0;
}

/*
 * Events 1..HISTORY_NEWEST, odd ones node failures (node = seq), even ones
 * process exits (rank = seq); the history holds only those from 3 on.
 */
static void serve_history(struct fake *f, const struct nlmsghdr *req,
			  int index)
{
	uint64_t after = req_after_seq(req), seq;

	(void)index;
	if (req_cmd(req) != FTNL_CMD_EVENT_GET ||
	    !(req->nlmsg_flags & NLM_F_DUMP)) {
		f->problem = "not an EVENT_GET dump";
		fake_ack(f, req, -EINVAL, NULL, -1);
		return;
	}
	if (after > HISTORY_NEWEST) {
		fake_ack(f, req, -EINVAL, "no event has this sequence number yet", -1);
		return;
	}
	for (seq = after + 1 < 3 ? 3 : after + 1; seq <= HISTORY_NEWEST; seq++) {
		char buf[512] __attribute__((aligned(8))) = { 0 };
		struct nlmsghdr *nlh = fake_reply(buf, req, FTNL_CMD_EVENT_GET,
						  NLM_F_MULTI);

		mnl_attr_put_u64(nlh, FTNL_A_EVENT_SEQ, seq);
		mnl_attr_put_u32(nlh, FTNL_A_CLUSTER_ID, 7);
		mnl_attr_put_u8(nlh, FTNL_A_EVENT_CAUSE, FTNL_CAUSE_BROADCAST);
		if (seq % 2) {
			mnl_attr_put_u8(nlh, FTNL_A_EVENT_NTF_CMD,
					FTNL_CMD_FAILURE_NTF);
			mnl_attr_put_u32(nlh, FTNL_A_EVENT_NODE_ID, (uint32_t)seq);
		} else {
			mnl_attr_put_u8(nlh, FTNL_A_EVENT_NTF_CMD,
					FTNL_CMD_PROC_EXIT_NTF);
			mnl_attr_put_u32(nlh, FTNL_A_EVENT_NODE_ID, 1);
			mnl_attr_put_u64(nlh, FTNL_A_PROC_JOB, 99);
			mnl_attr_put_u32(nlh, FTNL_A_PROC_RANK, (uint32_t)seq);
			mnl_attr_put_u32(nlh, FTNL_A_PROC_OWNER_UID, 1000);
		}
		fake_queue(f, nlh);
	}
	fake_flush(f);
	fake_done(f, req, 0, NULL);
}

struct history_seen {
	uint64_t seqs[HISTORY_NEWEST + 1];
	unsigned int count;
	bool kinds_right;
	unsigned int stop_after;	/* 0: never */
};

static int collect_event(const struct ftnl_event *ev, void *arg)
{
	struct history_seen *h = arg;

	if (h->count <= HISTORY_NEWEST)
		h->seqs[h->count] = ev->seq;
	h->count++;
	if (ev->seq % 2)
		h->kinds_right &= ev->type == FTNL_EVENT_FAILURE &&
				  ev->failure.node_id == ev->seq &&
				  ev->failure.cluster_id == 7;
	else
		h->kinds_right &= ev->type == FTNL_EVENT_PROC_EXIT &&
				  ev->proc_exit.rank == ev->seq &&
				  ev->proc_exit.job == 99 &&
				  ev->proc_exit.has_owner &&
				  ev->proc_exit.owner_uid == 1000;
	if (h->stop_after && h->count == h->stop_after)
		return -ECANCELED;
	return 0;
}

static void test_history(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_history);
	struct history_seen all = { .kinds_right = true };
	struct history_seen since = { .kinds_right = true };
	struct history_seen stop = { .kinds_right = true, .stop_after = 2 };
	struct history_seen none = { .kinds_right = true };
	unsigned int i;

	(void)arg;
	if (!TAP_CHECK(h))
		return;
	/* All it holds: 3..10, each read as the notification it was. */
	TAP_CHECK_INT(ftnl_event_history(h, 0, collect_event, &all), 0);
	TAP_CHECK_UINT(all.count, HISTORY_NEWEST - 2);
	for (i = 0; i < all.count && i <= HISTORY_NEWEST; i++)
		TAP_CHECK_UINT(all.seqs[i], i + 3);
	TAP_CHECK(all.kinds_right);
	/* Only those after 6. */
	TAP_CHECK_INT(ftnl_event_history(h, 6, collect_event, &since), 0);
	TAP_CHECK_UINT(since.count, 4);
	TAP_CHECK_UINT(since.seqs[0], 7);
	TAP_CHECK(since.kinds_right);
	/* A callback's stop value comes back; the dump is drained. */
	TAP_CHECK_INT(ftnl_event_history(h, 0, collect_event, &stop), -ECANCELED);
	TAP_CHECK_UINT(stop.count, 2);
	/* Nothing after the newest. */
	TAP_CHECK_INT(ftnl_event_history(h, HISTORY_NEWEST, collect_event,
					 &none), 0);
	TAP_CHECK_UINT(none.count, 0);
	/* A number from a previous life of the node. */
	TAP_CHECK_INT(ftnl_event_history(h, HISTORY_NEWEST + 1, collect_event,
					 &none), -ESTALE);
	TAP_CHECK_CONTAINS(ftnl_errmsg(h), "sequence number");
	TAP_CHECK_UINT(none.count, 0);
	TAP_CHECK(!f.problem);
	fake_stop(&f, h);
}

/* ---- leave, readmit ------------------------------------------------------- */

static void serve_ring_ops(struct fake *f, const struct nlmsghdr *req, int index)
{
	const struct nlattr *attr;
	uint32_t peer = 0;
	int peers = 0;

	mnl_attr_for_each(attr, req, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == FTNL_A_PEER_ID &&
		    mnl_attr_get_payload_len(attr) == 4) {
			peer = mnl_attr_get_u32(attr);
			peers++;
		}
	}
	if (index == 0 && (req_cmd(req) != FTNL_CMD_CLUSTER_LEAVE || peers))
		f->problem = "not a bare CLUSTER_LEAVE";
	if (index == 1 && (req_cmd(req) != FTNL_CMD_NODE_READMIT || peers != 1))
		f->problem = "not a NODE_READMIT with one peer id";
	if (index == 1 && peer != 12)
		f->problem = "wrong peer id";
	if (index == 1)
		fake_ack(f, req, -EINVAL, "the node is alive",
			 FTNL_GENL_HDRLEN);
	else
		fake_ack(f, req, 0, NULL, -1);
}

static void test_leave_readmit(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_ring_ops);
	struct ftnl_error_attr where;

	(void)arg;
	if (!TAP_CHECK(h))
		return;
	TAP_CHECK_INT(ftnl_cluster_leave(h), 0);
	TAP_CHECK_INT(ftnl_node_readmit(h, 12), -EINVAL);
	TAP_CHECK_STR(ftnl_errmsg(h), "the node is alive");
	if (TAP_CHECK_INT(ftnl_error_attr(h, &where), 0))
		TAP_CHECK_UINT(where.attr, FTNL_A_PEER_ID);
	fake_stop(&f, h);
	TAP_CHECK_INT(f.requests, 2);
}

/* ---- broadcast: the algorithm and the counters through the API ------------- */

/*
 * CLUSTER_SET: record bcast-algo; reject an unknown one the way the
 * kernel's policy does (NLA_POLICY_MAX), pointing at it. CLUSTER_GET and
 * STATS_GET: replies laid out as kmod/nl_query.c writes them.
 */
static void serve_bcast(struct fake *f, const struct nlmsghdr *req, int index)
{
	char buf[1024] __attribute__((aligned(8))) = { 0 };
	const struct nlattr *attr;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	int64_t offset = -1;
	int i;

	(void)index;
	switch (req_cmd(req)) {
	case FTNL_CMD_CLUSTER_SET:
		f->seen_bcast_algo = -1;
		mnl_attr_for_each(attr, req, sizeof(struct genlmsghdr)) {
			if (mnl_attr_get_type(attr) != FTNL_A_BCAST_ALGO)
				continue;
			if (mnl_attr_get_payload_len(attr) != 1)
				f->problem = "bcast-algo is not a u8";
			f->seen_bcast_algo = mnl_attr_get_u8(attr);
			if (f->seen_bcast_algo > FTNL_BCAST_MAX)
				offset = (const char *)attr - (const char *)req;
		}
		if (offset >= 0)
			fake_ack(f, req, -ERANGE, "integer out of range", offset);
		else
			fake_ack(f, req, 0, NULL, -1);
		return;
	case FTNL_CMD_CLUSTER_GET:
		nlh = fake_reply(buf, req, FTNL_CMD_CLUSTER_GET, 0);
		mnl_attr_put(nlh, FTNL_A_CONFIGURED, 0, NULL);
		mnl_attr_put_u32(nlh, FTNL_A_CLUSTER_ID, 42);
		mnl_attr_put_u32(nlh, FTNL_A_SELF_ID, 2);
		mnl_attr_put_u32(nlh, FTNL_A_NODE_COUNT, 4);
		mnl_attr_put_u32(nlh, FTNL_A_HB_PERIOD_US, 10000);
		mnl_attr_put_u32(nlh, FTNL_A_TIMEOUT_US, 30000);
		mnl_attr_put_u32(nlh, FTNL_A_GENERATION, 3);
		mnl_attr_put_u64(nlh, FTNL_A_INCARNATION, 77);
		mnl_attr_put_u8(nlh, FTNL_A_BCAST_ALGO, FTNL_BCAST_BMG);
		mnl_attr_put_u8(nlh, FTNL_A_BCAST_FCG_F, 1);
		mnl_attr_put_u32(nlh, FTNL_A_BCAST_GOSSIP_T_US, 0);
		break;
	case FTNL_CMD_STATS_GET:
		nlh = fake_reply(buf, req, FTNL_CMD_STATS_GET, 0);
		nest = mnl_attr_nest_start(nlh, FTNL_A_STATS);
		for (i = FTNL_A_STATS_HB_SENT; i <= FTNL_A_STATS_EVENTS_LOST; i++)
			mnl_attr_put_u64(nlh, (uint16_t)i, 1);
		for (i = FTNL_A_STATS_BCAST_ORIGINATED;
		     i <= FTNL_A_STATS_BCAST_LATENCY_SUM_NS; i++)
			mnl_attr_put_u64(nlh, (uint16_t)i, (uint64_t)i * 10);
		mnl_attr_nest_end(nlh, nest);
		break;
	default:
		f->problem = "unexpected command";
		fake_ack(f, req, -EOPNOTSUPP, NULL, -1);
		return;
	}
	fake_queue(f, nlh);
	fake_ack(f, req, 0, NULL, -1);
}

static void test_bcast(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_bcast);
	struct ftnl_node *nodes = make_nodes(4);
	struct ftnl_cluster_config c = {
		.cluster_id = 42, .self_id = 2, .hb_period_us = 10000,
		.timeout_us = 30000, .nodes = nodes, .node_count = 4,
	};
	struct ftnl_cluster_info info;
	struct ftnl_error_attr where;
	struct ftnl_stats st;

	(void)arg;
	if (!TAP_CHECK(h && nodes))
		goto out;
	/* Not set: not sent. */
	TAP_CHECK_INT(ftnl_cluster_set(h, &c), 0);
	TAP_CHECK_INT(f.seen_bcast_algo, -1);
	c.has_bcast_algo = true;
	c.bcast_algo = FTNL_BCAST_BMG;
	TAP_CHECK_INT(ftnl_cluster_set(h, &c), 0);
	TAP_CHECK_INT(f.seen_bcast_algo, FTNL_BCAST_BMG);
	c.bcast_algo = FTNL_BCAST_HYPERCUBE;
	TAP_CHECK_INT(ftnl_cluster_set(h, &c), 0);
	TAP_CHECK_INT(f.seen_bcast_algo, FTNL_BCAST_HYPERCUBE);
	/* An unknown one is sent as is; the rejection names the attribute. */
	c.bcast_algo = 5;
	TAP_CHECK_INT(ftnl_cluster_set(h, &c), -ERANGE);
	TAP_CHECK_INT(f.seen_bcast_algo, 5);
	TAP_CHECK_STR(ftnl_errmsg(h), "integer out of range");
	if (TAP_CHECK_INT(ftnl_error_attr(h, &where), 0)) {
		TAP_CHECK_UINT(where.attr, FTNL_A_BCAST_ALGO);
		TAP_CHECK_INT(where.node_index, -1);
		TAP_CHECK_STR(ftnl_attr_name(where.attr), "bcast-algo");
	}

	TAP_CHECK_INT(ftnl_cluster_get(h, &info), 0);
	TAP_CHECK(info.has_bcast_algo);
	TAP_CHECK_UINT(info.bcast_algo, FTNL_BCAST_BMG);
	TAP_CHECK_UINT(info.incarnation, 77);
	TAP_CHECK(info.has_fcg_f && info.has_gossip_t);
	TAP_CHECK_UINT(info.fcg_f, 1);
	TAP_CHECK_UINT(info.gossip_t_us, 0);

	TAP_CHECK_INT(ftnl_stats_get(h, &st), 0);
	TAP_CHECK_UINT(st.hb_sent, 1);
	TAP_CHECK_UINT(st.bcast_originated, FTNL_A_STATS_BCAST_ORIGINATED * 10);
	TAP_CHECK_UINT(st.bcast_duplicates, FTNL_A_STATS_BCAST_DUPLICATES * 10);
	TAP_CHECK_UINT(st.bcast_latency_sum_ns,
		       FTNL_A_STATS_BCAST_LATENCY_SUM_NS * 10);
	TAP_CHECK_UINT(ftnl_stats_bcast_latency_mean_ns(&st),
		       FTNL_A_STATS_BCAST_LATENCY_SUM_NS /
		       FTNL_A_STATS_BCAST_DELIVERED);
	fake_stop(&f, h);
	TAP_CHECK_INT(f.requests, 6);
out:
	free(nodes);
}

/* ---- malformed replies ------------------------------------------------------ */

static void serve_malformed(struct fake *f, const struct nlmsghdr *req,
			    int index)
{
	char buf[256] __attribute__((aligned(8))) = { 0 };
	struct nlmsghdr *nlh;

	if (index == 0) {
		/* Truncated attribute. */
		nlh = fake_reply(buf, req, FTNL_CMD_INFO_GET, 0);
		mnl_attr_put_u32(nlh, FTNL_A_MAX_NODES, 1);
		nlh->nlmsg_len -= 2;
		fake_queue(f, nlh);
	}
	/* index 1: no reply at all, just the ack. */
	fake_ack(f, req, 0, NULL, -1);
}

static void test_malformed_reply(const void *arg)
{
	struct fake f;
	struct ftnl_handle *h = fake_start(&f, serve_malformed);
	struct ftnl_info info;

	(void)arg;
	if (!TAP_CHECK(h))
		return;
	TAP_CHECK_INT(ftnl_info_get(h, &info), -EBADMSG);
	TAP_CHECK_STR(ftnl_errmsg(h), "malformed reply from the kernel");
	TAP_CHECK_INT(ftnl_info_get(h, &info), -EBADMSG);
	TAP_CHECK_STR(ftnl_errmsg(h), "the kernel acknowledged without replying");
	fake_stop(&f, h);
}

/* ---- the real kernel (nlctrl), no module needed ----------------------------- */

static struct mnl_socket *real_socket(void)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_GENERIC);

	if (nl && mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		mnl_socket_close(nl);
		return NULL;
	}
	return nl;
}

static void test_real_nlctrl(const void *arg)
{
	struct mnl_socket *nl = real_socket();
	struct ftnl_handle *h;
	uint16_t id = 0;
	uint32_t version = 0, group = 0;

	(void)arg;
	if (!nl) {
		TAP_SKIP("no generic netlink here: %s", strerror(errno));
		return;
	}
	if (!TAP_CHECK_INT(ftnl_handle_wrap_fd(mnl_socket_get_fd(nl), 0,
					       mnl_socket_get_portid(nl), &h), 0))
		return;
	TAP_CHECK_INT(ftnl_resolve_family(h, "nlctrl", "notify", &id, &version,
					  &group), 0);
	TAP_CHECK_UINT(id, GENL_ID_CTRL);
	TAP_CHECK(version >= 1);
	TAP_CHECK(group != 0);
	TAP_CHECK_INT(ftnl_resolve_family(h, "ftnl-nosuch", NULL, &id,
					  &version, &group), -ENOENT);
	TAP_CHECK_STR(ftnl_errmsg(h),
		      "generic netlink family \"ftnl-nosuch\" is not registered");
	TAP_CHECK_INT(ftnl_resolve_family(h, "a-name-longer-than-16", NULL, &id,
					  &version, &group), -EINVAL);
	ftnl_close(h);
	mnl_socket_close(nl);
}

static void test_real_open(const void *arg)
{
	struct ftnl_handle *h = NULL;
	struct ftnl_info info;
	int err = ftnl_open(&h);

	(void)arg;
	if (err == 0) {
		/* The module is loaded here (inside a VM): talk to it. */
		TAP_CHECK_INT(ftnl_info_get(h, &info), 0);
		TAP_CHECK_UINT(info.max_nodes, FTNL_MAX_NODES);
		ftnl_close(h);
	} else if (err == -EAFNOSUPPORT || err == -EPROTONOSUPPORT ||
		   err == -EPERM) {
		TAP_SKIP("no generic netlink here: %s", strerror(-err));
	} else {
		TAP_CHECK_INT(err, -ENOENT);
	}
}

static void test_real_sndbuf(const void *arg)
{
	struct mnl_socket *nl = real_socket();
	struct ftnl_handle *h;
	size_t want = 3u << 20;
	socklen_t len = sizeof(int);
	int have = 0, err;

	(void)arg;
	if (!nl) {
		TAP_SKIP("no generic netlink here: %s", strerror(errno));
		return;
	}
	if (!TAP_CHECK_INT(ftnl_handle_wrap_fd(mnl_socket_get_fd(nl), 0,
					       mnl_socket_get_portid(nl), &h), 0))
		return;
	err = ftnl_ensure_sndbuf(h, want);
	getsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_SNDBUF, &have, &len);
	if (err) {
		TAP_CHECK_INT(err, -EMSGSIZE);
		TAP_CHECK_CONTAINS(ftnl_errmsg(h), "net.core.wmem_max");
		if (geteuid() != 0)
			TAP_SKIP("not root: SO_SNDBUFFORCE refused");
		else
			TAP_CHECK_INT(err, 0);
	} else {
		TAP_CHECK((size_t)have >= want);
	}
	ftnl_close(h);
	mnl_socket_close(nl);
}

int main(void)
{
	tap_add(test_info, NULL, "info: reply and ack; stale and foreign messages skipped");
	tap_add(test_extack_propagates, NULL, "kernel extack message becomes ftnl_errmsg()");
	tap_add(test_error_without_extack, NULL, "error without extack falls back to strerror");
	tap_add(test_rejection_located, NULL, "rejected node located by index and id");
	tap_add(test_big_request, NULL, "cluster_set of 65536 nodes in one request");
	tap_add(test_dump_big, NULL, "dump of 65536 nodes over many datagrams");
	tap_add(test_dump_empty, NULL, "empty dump gives an empty table");
	tap_add(test_dump_interrupted, NULL, "NLM_F_DUMP_INTR: -EINTR, then list retries");
	tap_add(test_dump_generation_change, NULL, "generation change mid-dump is an interruption");
	tap_add(test_dump_gives_up, NULL, "list gives up after FTNL_NODE_LIST_ATTEMPTS");
	tap_add(test_dump_callback_abort, NULL, "callback abort drains the dump");
	tap_add(test_dump_done_error, NULL, "error in NLMSG_DONE with extack");
	tap_add(test_history, NULL,
		"event history: after_seq sent, kinds parsed, stop, -ESTALE");
	tap_add(test_leave_readmit, NULL, "leave and readmit requests; peer id blamed");
	tap_add(test_bcast, NULL,
		"bcast: algorithm sent only when set, rejection located, get and stats");
	tap_add(test_malformed_reply, NULL, "malformed and missing replies are -EBADMSG");
	tap_add(test_real_nlctrl, NULL, "real nlctrl: resolve a family and a group");
	tap_add(test_real_open, NULL, "ftnl_open on this kernel: -ENOENT without the module");
	tap_add(test_real_sndbuf, NULL, "send buffer grows for a 3 MiB request");
	return tap_run();
}
