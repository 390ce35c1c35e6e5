// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the C selftests: see ftnl_selftest.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "ftnl_selftest.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif

/* ------------------------------------------------------------------------
 * Processes and network namespaces
 */

const char *st_ip(void)
{
	static const char *const places[] = {
		"/sbin/ip", "/usr/sbin/ip", "/bin/ip", "/usr/bin/ip",
	};
	const char *env = getenv("IP");
	size_t i;

	if (env && *env)
		return env;
	for (i = 0; i < sizeof(places) / sizeof(places[0]); i++)
		if (access(places[i], X_OK) == 0)
			return places[i];
	return "ip";
}

int st_sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;
	int status;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	/* Output of the command must not look like TAP: send it to stderr. */
	fflush(stdout);
	fflush(stderr);
	status = system(cmd);
	if (status == -1 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int st_netns_add(const char *name)
{
	return st_sh("%s netns add %s 1>&2", st_ip(), name) ? -EIO : 0;
}

int st_netns_del(const char *name)
{
	return st_sh("%s netns del %s 1>&2", st_ip(), name) ? -EIO : 0;
}

int st_setns(int fd)
{
	return setns(fd, CLONE_NEWNET) ? -errno : 0;
}

int st_netns_enter(const char *name)
{
	char path[256];
	int fd, err;

	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = st_setns(fd);
	close(fd);
	return err;
}

int st_netns_fd(void)
{
	int fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static int st_lo_up(void)
{
	struct ifreq ifr = { 0 };
	int fd, err = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
		err = -errno;
	} else {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
			err = -errno;
	}
	close(fd);
	return err;
}

int st_netns_new(void)
{
	if (unshare(CLONE_NEWNET))
		return -errno;
	return st_lo_up();
}

int st_drop_privileges(void)
{
	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534))
		return -errno;
	return 0;
}

int st_param_get(const char *name, unsigned int *v)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/module/ftnl/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	ok = fscanf(f, "%u", v) == 1;
	fclose(f);
	return ok ? 0 : -EIO;
}

int st_param_set(const char *name, unsigned int v)
{
	char path[128];
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "/sys/module/ftnl/parameters/%s", name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	if (fprintf(f, "%u\n", v) < 0)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/* ------------------------------------------------------------------------
 * Raw generic netlink client
 */

struct st_family_arg {
	struct st_nl *nl;
	const char *group;
};

static int st_parse_ops(const struct nlattr *ops, struct st_nl *nl)
{
	const struct nlattr *op, *a;

	mnl_attr_for_each_nested(op, ops) {
		uint32_t id = 0, flags = 0;
		bool has_id = false;

		mnl_attr_for_each_nested(a, op) {
			switch (mnl_attr_get_type(a)) {
			case CTRL_ATTR_OP_ID:
				id = mnl_attr_get_u32(a);
				has_id = true;
				break;
			case CTRL_ATTR_OP_FLAGS:
				flags = mnl_attr_get_u32(a);
				break;
			}
		}
		if (has_id && id < 256) {
			nl->op_present[id] = true;
			nl->op_flags[id] = flags;
		}
	}
	return 0;
}

static int st_family_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct st_family_arg *fa = arg;
	struct st_nl *nl = fa->nl;
	const struct nlattr *a, *grp, *ga;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case CTRL_ATTR_FAMILY_ID:
			nl->family_id = mnl_attr_get_u16(a);
			break;
		case CTRL_ATTR_VERSION:
			nl->family_version = mnl_attr_get_u32(a);
			break;
		case CTRL_ATTR_HDRSIZE:
			nl->family_hdrsize = mnl_attr_get_u32(a);
			break;
		case CTRL_ATTR_MAXATTR:
			nl->family_maxattr = mnl_attr_get_u32(a);
			break;
		case CTRL_ATTR_OPS:
			st_parse_ops(a, nl);
			break;
		case CTRL_ATTR_MCAST_GROUPS:
			mnl_attr_for_each_nested(grp, a) {
				const char *name = NULL;
				uint32_t id = 0;

				mnl_attr_for_each_nested(ga, grp) {
					if (mnl_attr_get_type(ga) == CTRL_ATTR_MCAST_GRP_NAME)
						name = mnl_attr_get_str(ga);
					else if (mnl_attr_get_type(ga) == CTRL_ATTR_MCAST_GRP_ID)
						id = mnl_attr_get_u32(ga);
				}
				if (name && !strcmp(name, fa->group))
					nl->events_group = id;
			}
			break;
		}
	}
	return 0;
}

int st_nl_open_family(struct st_nl *nl, const char *family)
{
	struct st_family_arg fa = { .nl = nl, .group = FTNL_MCGRP_EVENTS };
	char buf[256] __attribute__((aligned(4))) = { 0 };
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;
	struct st_ack ack;
	int one = 1, err;

	memset(nl, 0, sizeof(*nl));
	nl->rx = malloc(ST_RXBUF);
	if (!nl->rx)
		return -ENOMEM;
	nl->sk = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!nl->sk) {
		err = -errno;
		goto err_free;
	}
	if (mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto err_close;
	}
	nl->portid = mnl_socket_get_portid(nl->sk);
	mnl_socket_setsockopt(nl->sk, NETLINK_CAP_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	if (!family)
		return 0;

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, family);
	err = st_nl_talk(nl, nlh, st_family_cb, &fa, &ack);
	if (err)
		goto err_close;
	if (!nl->family_id) {
		err = -EBADMSG;
		goto err_close;
	}
	return 0;

err_close:
	mnl_socket_close(nl->sk);
err_free:
	free(nl->rx);
	memset(nl, 0, sizeof(*nl));
	return err;
}

void st_nl_close(struct st_nl *nl)
{
	if (nl->sk)
		mnl_socket_close(nl->sk);
	free(nl->rx);
	memset(nl, 0, sizeof(*nl));
}

int st_nl_sndbuf(struct st_nl *nl, size_t len)
{
	int fd = mnl_socket_get_fd(nl->sk);
	int size = (int)(len + 65536);

	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof(size)) &&
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size)))
		return -errno;
	return 0;
}

int st_nl_join_events(struct st_nl *nl)
{
	int grp = (int)nl->events_group;

	if (!grp)
		return -ENOENT;
	if (mnl_socket_setsockopt(nl->sk, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)))
		return -errno;
	return 0;
}

struct nlmsghdr *st_msg_start(const struct st_nl *nl, void *buf, size_t len,
			      uint16_t flags, uint8_t cmd)
{
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;

	(void)len; /* libmnl zeroes headers and attribute padding itself */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = nl->family_id;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = FTNL_FAMILY_VERSION;
	return nlh;
}

int st_nl_send(struct st_nl *nl, struct nlmsghdr *req)
{
	ssize_t n;

	req->nlmsg_seq = ++nl->seq;
	req->nlmsg_pid = 0;
	n = mnl_socket_sendto(nl->sk, req, req->nlmsg_len);
	if (n < 0)
		return -errno;
	if ((size_t)n != req->nlmsg_len)
		return -EMSGSIZE;
	return 0;
}

static void st_parse_ack_tlvs(const struct nlmsghdr *nlh, size_t off,
			      struct st_ack *ack)
{
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || off > nlh->nlmsg_len)
		return;
	for (a = (const struct nlattr *)((const char *)nlh + off);
	     mnl_attr_ok(a, (int)((const char *)nlh + nlh->nlmsg_len - (const char *)a));
	     a = mnl_attr_next(a)) {
		switch (mnl_attr_get_type(a)) {
		case NLMSGERR_ATTR_MSG:
			/* NUL-terminated by the kernel; bounded anyway */
			snprintf(ack->msg, sizeof(ack->msg), "%.*s",
				 (int)mnl_attr_get_payload_len(a),
				 (const char *)mnl_attr_get_payload(a));
			break;
		case NLMSGERR_ATTR_OFFS:
			ack->has_offs = true;
			ack->offs = mnl_attr_get_u32(a);
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			ack->has_miss_type = true;
			ack->miss_type = mnl_attr_get_u32(a);
			break;
		case NLMSGERR_ATTR_MISS_NEST:
			ack->has_miss_nest = true;
			ack->miss_nest = mnl_attr_get_u32(a);
			break;
		}
	}
}

int st_nl_read(struct st_nl *nl, st_msg_cb cb, void *arg, struct st_ack *ack,
	       bool *done)
{
	const struct nlmsghdr *nlh;
	ssize_t n;
	int len;

	*done = false;
	do {
		n = mnl_socket_recvfrom(nl->sk, nl->rx, ST_RXBUF);
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		ack->err = -errno;
		ack->local = true;
		*done = true;
		return ack->err;
	}
	ack->nrecv++;
	len = (int)n;
	for (nlh = (const struct nlmsghdr *)nl->rx; mnl_nlmsg_ok(nlh, len);
	     nlh = mnl_nlmsg_next(nlh, &len)) {
		if (nlh->nlmsg_seq != nl->seq || nlh->nlmsg_pid != nl->portid)
			continue; /* stale answer, or a notification */
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			ack->dump_intr = true;
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
			size_t off = MNL_NLMSG_HDRLEN + sizeof(*e);

			if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
				off += e->msg.nlmsg_len - MNL_NLMSG_HDRLEN;
			ack->err = e->error;
			st_parse_ack_tlvs(nlh, off, ack);
			*done = true;
			return 0;
		}
		if (nlh->nlmsg_type == NLMSG_DONE) {
			const int *e = mnl_nlmsg_get_payload(nlh);

			ack->done_intr = !!(nlh->nlmsg_flags & NLM_F_DUMP_INTR);
			if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int))
				ack->err = *e;
			st_parse_ack_tlvs(nlh, MNL_NLMSG_HDRLEN + sizeof(int), ack);
			*done = true;
			return 0;
		}
		if (nlh->nlmsg_type == NLMSG_NOOP || nlh->nlmsg_type == NLMSG_OVERRUN)
			continue;
		ack->nmsgs++;
		if (cb) {
			int r = cb(nlh, arg);

			if (r < 0 && !ack->cb_err)
				ack->cb_err = r;
		}
	}
	return 0;
}

int st_nl_talk(struct st_nl *nl, struct nlmsghdr *req, st_msg_cb cb,
	       void *arg, struct st_ack *ack)
{
	bool done = false;
	int err;

	memset(ack, 0, sizeof(*ack));
	err = st_nl_send(nl, req);
	if (err) {
		ack->err = err;
		ack->local = true;
		return err;
	}
	while (!done)
		st_nl_read(nl, cb, arg, ack, &done);
	return ack->err;
}

const struct nlattr *st_genl_attr(const struct nlmsghdr *nlh, uint16_t type)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == type)
			return a;
	return NULL;
}

struct nlattr *st_put_node(struct nlmsghdr *nlh, const struct ftnl_node *node)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, FTNL_A_NODE);

	mnl_attr_put_u32(nlh, FTNL_A_NODE_ID, node->id);
	if (node->family == AF_INET)
		mnl_attr_put(nlh, FTNL_A_NODE_ADDR4, 4, &node->addr.v4);
	else if (node->family == AF_INET6)
		mnl_attr_put(nlh, FTNL_A_NODE_ADDR6, 16, &node->addr.v6);
	mnl_attr_put_u16(nlh, FTNL_A_NODE_PORT, node->port);
	mnl_attr_nest_end(nlh, nest);
	return nest;
}

void st_put_config(struct nlmsghdr *nlh, const struct ftnl_cluster_config *c)
{
	size_t i;

	if (!(c->unset & FTNL_CONFIG_CLUSTER_ID))
		mnl_attr_put_u32(nlh, FTNL_A_CLUSTER_ID, c->cluster_id);
	if (!(c->unset & FTNL_CONFIG_SELF_ID))
		mnl_attr_put_u32(nlh, FTNL_A_SELF_ID, c->self_id);
	if (!(c->unset & FTNL_CONFIG_HB_PERIOD))
		mnl_attr_put_u32(nlh, FTNL_A_HB_PERIOD_US, c->hb_period_us);
	if (!(c->unset & FTNL_CONFIG_TIMEOUT))
		mnl_attr_put_u32(nlh, FTNL_A_TIMEOUT_US, c->timeout_us);
	if (!(c->unset & FTNL_CONFIG_KEY))
		mnl_attr_put(nlh, FTNL_A_KEY, FTNL_KEY_LEN, c->key);
	for (i = 0; i < c->node_count; i++)
		st_put_node(nlh, &c->nodes[i]);
}

size_t st_config_msg_size(const struct ftnl_cluster_config *c)
{
	/* headers + scalars + key + per node (nest, id, addr6, port) */
	return 4096 + c->node_count * (4 + 8 + 20 + 8 + 16);
}

/* ------------------------------------------------------------------------
 * Configurations
 */

static const uint8_t st_key[FTNL_KEY_LEN] = {
	0x66, 0x74, 0x6e, 0x6c, 0x2d, 0x73, 0x65, 0x6c,
	0x66, 0x74, 0x65, 0x73, 0x74, 0x2d, 0x6b, 0x65,
	0x79, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
	0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e,
};

int st_config_synthetic(struct ftnl_cluster_config *c, size_t n,
			uint32_t cluster_id, uint32_t self_id, uint16_t port)
{
	size_t i;

	memset(c, 0, sizeof(*c));
	c->nodes = calloc(n ? n : 1, sizeof(*c->nodes));
	if (!c->nodes)
		return -ENOMEM;
	c->node_count = n;
	c->cluster_id = cluster_id;
	c->self_id = self_id;
	/* Long enough that no node is ever suspected during a test: the ring
	 * runs as soon as a cluster is configured, and nobody heartbeats.
	 */
	c->hb_period_us = 1000000;
	c->timeout_us = FTNL_TIMEOUT_MAX_US;
	memcpy(c->key, st_key, sizeof(c->key));
	for (i = 0; i < n; i++) {
		/* Given in descending id order: the kernel must sort them. */
		uint32_t id = (uint32_t)(n - i);
		struct ftnl_node *node = &c->nodes[i];

		node->id = id;
		node->family = AF_INET;
		node->addr.v4.s_addr = htonl((10u << 24) | id);
		node->port = port;
	}
	return 0;
}

int st_config_small(struct ftnl_cluster_config *c, uint32_t cluster_id)
{
	int err = st_config_synthetic(c, 3, cluster_id, 2, 7000);

	if (err)
		return err;
	c->nodes[0].id = 1;
	inet_pton(AF_INET, "10.0.0.1", &c->nodes[0].addr.v4);
	c->nodes[1].id = 2;
	inet_pton(AF_INET, "10.0.0.2", &c->nodes[1].addr.v4);
	c->nodes[2].id = 3;
	c->nodes[2].family = AF_INET6;
	inet_pton(AF_INET6, "fd00::3", &c->nodes[2].addr.v6);
	return 0;
}

int st_config_copy(struct ftnl_cluster_config *dst,
		   const struct ftnl_cluster_config *src)
{
	*dst = *src;
	dst->nodes = calloc(src->node_count ? src->node_count : 1,
			    sizeof(*dst->nodes));
	if (!dst->nodes)
		return -ENOMEM;
	if (src->node_count)
		memcpy(dst->nodes, src->nodes,
		       src->node_count * sizeof(*dst->nodes));
	return 0;
}

void st_config_free(struct ftnl_cluster_config *c)
{
	free(c->nodes);
	memset(c, 0, sizeof(*c));
}

bool st_node_same_endpoint(const struct ftnl_node *n,
			   const struct ftnl_node *want)
{
	if (n->id != want->id || n->family != want->family ||
	    n->port != want->port)
		return false;
	if (n->family == AF_INET)
		return n->addr.v4.s_addr == want->addr.v4.s_addr;
	return !memcmp(&n->addr.v6, &want->addr.v6, sizeof(n->addr.v6));
}

/* ------------------------------------------------------------------------
 * State snapshots
 */

int st_state_read(struct ftnl_handle *h, struct st_state *s)
{
	struct ftnl_info info;
	int err;

	memset(s, 0, sizeof(*s));
	err = ftnl_info_get(h, &info);
	if (err)
		return err;
	s->configured = info.configured;
	s->get_err = ftnl_cluster_get(h, &s->info);
	if (s->get_err && s->get_err != -ENOENT)
		return s->get_err;
	s->list_err = ftnl_node_list(h, &s->table);
	return s->list_err;
}

void st_state_free(struct st_state *s)
{
	ftnl_node_table_free(&s->table);
	memset(s, 0, sizeof(*s));
}

bool st_state_same(const struct st_state *a, const struct st_state *b,
		   char *why, size_t len)
{
	size_t i;

	if (a->configured != b->configured) {
		snprintf(why, len, "configured %d -> %d", a->configured,
			 b->configured);
		return false;
	}
	if (a->get_err != b->get_err) {
		snprintf(why, len, "CLUSTER_GET error %d -> %d", a->get_err,
			 b->get_err);
		return false;
	}
	if (!a->get_err && memcmp(&a->info, &b->info, sizeof(a->info))) {
		snprintf(why, len,
			 "CLUSTER_GET id %u self %u h %u d %u count %u gen %u -> id %u self %u h %u d %u count %u gen %u",
			 a->info.cluster_id, a->info.self_id,
			 a->info.hb_period_us, a->info.timeout_us,
			 a->info.node_count, a->info.generation,
			 b->info.cluster_id, b->info.self_id,
			 b->info.hb_period_us, b->info.timeout_us,
			 b->info.node_count, b->info.generation);
		return false;
	}
	if (a->list_err != b->list_err) {
		snprintf(why, len, "node dump error %d -> %d", a->list_err,
			 b->list_err);
		return false;
	}
	if (a->table.count != b->table.count ||
	    a->table.cluster_id != b->table.cluster_id ||
	    a->table.generation != b->table.generation) {
		snprintf(why, len,
			 "node dump: %zu nodes, cluster %u, gen %u -> %zu nodes, cluster %u, gen %u",
			 a->table.count, a->table.cluster_id,
			 a->table.generation, b->table.count,
			 b->table.cluster_id, b->table.generation);
		return false;
	}
	for (i = 0; i < a->table.count; i++) {
		const struct ftnl_node *x = &a->table.nodes[i];
		const struct ftnl_node *y = &b->table.nodes[i];

		if (!st_node_same_endpoint(x, y) || x->state != y->state ||
		    x->self != y->self) {
			snprintf(why, len, "node dump differs at entry %zu (id %u -> %u)",
				 i, x->id, y->id);
			return false;
		}
	}
	return true;
}
