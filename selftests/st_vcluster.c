// SPDX-License-Identifier: GPL-2.0
/*
 * The virtual cluster of the ring selftests: see st_vcluster.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "st_vcluster.h"

uint64_t st_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void st_msleep(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static const uint8_t st_vc_key_bytes[FTNL_KEY_LEN] = {
	0x72, 0x69, 0x6e, 0x67, 0x2d, 0x73, 0x65, 0x6c,	/* "ring-sel" */
	0x66, 0x74, 0x65, 0x73, 0x74, 0x73, 0x2d, 0x6b,	/* "ftests-k" */
	0x9e, 0x37, 0x79, 0xb9, 0x7f, 0x4a, 0x7c, 0x15,
	0xf3, 0x9c, 0xc0, 0x60, 0x5c, 0xed, 0xc8, 0x34,
};

const uint8_t *st_vc_key(void)
{
	return st_vc_key_bytes;
}

const char *st_vc_addr(uint32_t host, char *buf, size_t len)
{
	struct in_addr a = { .s_addr = htonl(ST_VC_NET | host) };

	return inet_ntop(AF_INET, &a, buf, (socklen_t)len);
}

const char *st_vc_port_if(uint32_t id, char *buf, size_t len)
{
	snprintf(buf, len, "v%u", id);
	return buf;
}

/* ------------------------------------------------------------------------
 * Namespaces, interfaces
 */

static int ns_open_self(void)
{
	int fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static int ns_enter(int fd)
{
	return setns(fd, CLONE_NEWNET) ? -errno : 0;
}

static int if_flags(int sock, const char *name, short set, short clear)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(sock, SIOCGIFFLAGS, &ifr) < 0)
		return -errno;
	ifr.ifr_flags = (short)((ifr.ifr_flags | set) & ~clear);
	if (ioctl(sock, SIOCSIFFLAGS, &ifr) < 0)
		return -errno;
	return 0;
}

static int if_addr4(int sock, const char *name, uint32_t addr, uint32_t mask)
{
	struct sockaddr_in *sin;
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	sin = (struct sockaddr_in *)&ifr.ifr_addr;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(addr);
	if (ioctl(sock, SIOCSIFADDR, &ifr) < 0)
		return -errno;
	sin = (struct sockaddr_in *)&ifr.ifr_netmask;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(mask);
	if (ioctl(sock, SIOCSIFNETMASK, &ifr) < 0)
		return -errno;
	return 0;
}

/*
 * Wait until @name is operational (IFF_RUNNING: linkwatch has processed its
 * carrier and attached its qdisc). Until then the device drops what it is
 * given: a node configured at once would lose its first datagrams.
 */
static int if_wait_running(int sock, const char *name, unsigned int timeout_ms)
{
	uint64_t deadline = st_mono_ns() + (uint64_t)timeout_ms * 1000000ull;
	struct ifreq ifr;

	for (;;) {
		memset(&ifr, 0, sizeof(ifr));
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
		if (ioctl(sock, SIOCGIFFLAGS, &ifr) < 0)
			return -errno;
		if (ifr.ifr_flags & IFF_RUNNING)
			return 0;
		if (st_mono_ns() > deadline)
			return -ETIMEDOUT;
		st_msleep(5);
	}
}

/* if_nametoindex() through @sock, whatever netns the caller is in. */
static int if_nametoindex_in(int sock, const char *name)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (ioctl(sock, SIOCGIFINDEX, &ifr) < 0)
		return -errno;
	return ifr.ifr_ifindex;
}

static uint32_t rtnl_seq;

/* Send one rtnetlink request and read its ack. */
static int rtnl_talk(struct mnl_socket *nl, struct nlmsghdr *nlh)
{
	char buf[8192] __attribute__((aligned(4)));
	const struct nlmsgerr *e;
	const struct nlmsghdr *r;
	ssize_t n;
	int len;

	nlh->nlmsg_seq = ++rtnl_seq;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		len = (int)n;
		for (r = (const struct nlmsghdr *)buf; mnl_nlmsg_ok(r, len);
		     r = mnl_nlmsg_next(r, &len)) {
			if (r->nlmsg_seq != nlh->nlmsg_seq)
				continue;
			if (r->nlmsg_type == NLMSG_ERROR) {
				e = mnl_nlmsg_get_payload(r);
				return e->error;
			}
		}
	}
}

static struct nlmsghdr *rtnl_link_msg(void *buf, uint16_t type,
				      uint16_t flags, const char *name)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifm;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return nlh;
}

static int rtnl_bridge_add(struct mnl_socket *nl, const char *name)
{
	char buf[1024] __attribute__((aligned(4))) = { 0 };
	struct nlmsghdr *nlh;
	struct nlattr *li;

	nlh = rtnl_link_msg(buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, name);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bridge");
	mnl_attr_nest_end(nlh, li);
	return rtnl_talk(nl, nlh);
}

/*
 * veth @name (here, enslaved to @master) with its peer @peer in @peer_ns,
 * whose MAC address is @peer_mac.
 */
static int rtnl_veth_add(struct mnl_socket *nl, const char *name,
			 int master, const char *peer, int peer_ns,
			 const uint8_t peer_mac[6])
{
	char buf[1024] __attribute__((aligned(4))) = { 0 };
	struct nlattr *li, *data, *pi;
	struct ifinfomsg *pifm;
	struct nlmsghdr *nlh;

	nlh = rtnl_link_msg(buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, name);
	mnl_attr_put_u32(nlh, IFLA_MASTER, (uint32_t)master);
	mnl_attr_put_u32(nlh, IFLA_GROUP, ST_VC_LINK_GROUP);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	pi = mnl_attr_nest_start(nlh, VETH_INFO_PEER);
	pifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*pifm));
	pifm->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, peer);
	mnl_attr_put(nlh, IFLA_ADDRESS, 6, peer_mac);
	mnl_attr_put_u32(nlh, IFLA_NET_NS_FD, (uint32_t)peer_ns);
	mnl_attr_nest_end(nlh, pi);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, li);
	return rtnl_talk(nl, nlh);
}

static int rtnl_link_del(struct mnl_socket *nl, const char *name)
{
	char buf[256] __attribute__((aligned(4))) = { 0 };

	return rtnl_talk(nl, rtnl_link_msg(buf, RTM_DELLINK, 0, name));
}

struct brport_arg {
	int ifindex;
	int state;
};

static int brport_attr_cb(const struct nlattr *attr, void *data)
{
	struct brport_arg *arg = data;

	if (mnl_attr_get_type(attr) == IFLA_BRPORT_STATE)
		arg->state = mnl_attr_get_u8(attr);
	return MNL_CB_OK;
}

static int brport_link_cb(const struct nlattr *attr, void *data)
{
	if (mnl_attr_get_type(attr) == IFLA_PROTINFO)
		mnl_attr_parse_nested(attr, brport_attr_cb, data);
	return MNL_CB_OK;
}

static int brport_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct ifinfomsg *ifm = mnl_nlmsg_get_payload(nlh);
	struct brport_arg *arg = data;

	if (ifm->ifi_index == arg->ifindex)
		mnl_attr_parse(nlh, sizeof(*ifm), brport_link_cb, data);
	return MNL_CB_OK;
}

/* STP state of bridge port @ifindex (BR_STATE_*), or a negative errno. */
static int rtnl_brport_state(struct mnl_socket *nl, int ifindex)
{
	char buf[16384] __attribute__((aligned(4)));
	struct brport_arg arg = { .ifindex = ifindex, .state = -ENOENT };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifm;
	uint32_t seq = ++rtnl_seq;
	ssize_t n;
	int r;

	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	memset(ifm, 0, sizeof(*ifm));
	ifm->ifi_family = AF_BRIDGE;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return -errno;
		r = mnl_cb_run(buf, (size_t)n, seq, mnl_socket_get_portid(nl),
			       brport_msg_cb, &arg);
	} while (r > MNL_CB_STOP);
	if (r < 0)
		return -errno;
	return arg.state;
}

/* Delete every link of group @group at once (one unregistration batch). */
static int rtnl_group_del(struct mnl_socket *nl, uint32_t group)
{
	char buf[256] __attribute__((aligned(4))) = { 0 };
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifm;

	nlh->nlmsg_type = RTM_DELLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	mnl_attr_put_u32(nlh, IFLA_GROUP, group);
	return rtnl_talk(nl, nlh);
}

/*
 * Wait until the bridge forwards on port @pif. The port is enabled only
 * when the bridge sees the carrier change, a little after IFF_RUNNING, and
 * a frame in between is dropped.
 */
static int brport_wait_forwarding(struct st_vc *vc, const char *pif,
				  unsigned int timeout_ms)
{
	uint64_t deadline = st_mono_ns() + (uint64_t)timeout_ms * 1000000ull;
	int ifindex, state;

	ifindex = (int)if_nametoindex_in(vc->br_ioctl, pif);
	if (ifindex <= 0)
		return ifindex ? ifindex : -ENODEV;
	for (;;) {
		state = rtnl_brport_state(vc->br_rtnl, ifindex);
		if (state == BR_STATE_FORWARDING)
			return 0;
		if (st_mono_ns() > deadline)
			return -ETIMEDOUT;
		st_msleep(5);
	}
}

/*
 * A new netns with lo up, joined to the bridge through veth "v<host>" /
 * "eth0" with address 10.99.0.<host>/24. Returns its fd and, in @ioctl_fd,
 * an AF_INET socket in it. The caller is back in its own netns after.
 */
static int vc_netns_on_bridge(struct st_vc *vc, uint32_t host, int *ioctl_fd)
{
	uint8_t mac[6] = { 0x02, 0x66, 0x74, 0x00, 0x00, 0x00 };
	char pif[IFNAMSIZ];
	int ns = -1, sock = -1, err;

	st_vc_port_if(host, pif, sizeof(pif));
	if (unshare(CLONE_NEWNET)) {
		err = -errno;
		goto err_back;
	}
	ns = ns_open_self();
	if (ns < 0) {
		err = ns;
		goto err_back;
	}
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sock < 0) {
		err = -errno;
		goto err_back;
	}
	err = if_flags(sock, "lo", IFF_UP, 0);
	if (err)
		goto err_back;

	/* The veth is made in the bridge's netns (that is where the rtnl
	 * socket lives: sockets keep the netns they were created in).
	 */
	/* A node keeps its MAC address across a restart (02:66:74:00:00:id),
	 * as a real host would: nobody's ARP cache goes stale.
	 */
	mac[5] = (uint8_t)host;
	err = rtnl_veth_add(vc->br_rtnl, pif, vc->br_ifindex, "eth0", ns, mac);
	if (err)
		goto err_back;
	err = if_flags(vc->br_ioctl, pif, IFF_UP, 0);
	if (err)
		goto err_del;
	err = if_addr4(sock, "eth0", ST_VC_NET | host, 0xffffff00u);
	if (!err)
		err = if_flags(sock, "eth0", IFF_UP, 0);
	if (!err)
		err = if_wait_running(sock, "eth0", 5000);
	if (!err)
		err = if_wait_running(vc->br_ioctl, pif, 5000);
	if (!err)
		err = brport_wait_forwarding(vc, pif, 5000);
	if (err)
		goto err_del;
	err = ns_enter(vc->root_ns);
	if (err)
		goto err_del;
	*ioctl_fd = sock;
	return ns;

err_del:
	rtnl_link_del(vc->br_rtnl, pif);
err_back:
	ns_enter(vc->root_ns);
	if (sock >= 0)
		close(sock);
	if (ns >= 0)
		close(ns);
	return err;
}

/* Node @id's netns, with its libftnl handle and subscription. */
static int vc_node_build(struct st_vc *vc, uint32_t id)
{
	struct st_vc_node *nd = &vc->node[id];
	int ns, sock = -1, err;

	ns = vc_netns_on_bridge(vc, id, &sock);
	if (ns < 0)
		return ns;
	nd->ns = ns;
	nd->ioctl_fd = sock;
	nd->configured = false;
	nd->silenced = false;
	err = ns_enter(ns);
	if (err)
		return err;
	/* Both bind to the netns they are opened in, for good. */
	err = ftnl_open(&nd->h);
	if (!err)
		err = ftnl_events_open(&nd->ev);
	ns_enter(vc->root_ns);
	return err;
}

static void vc_node_release(struct st_vc_node *nd)
{
	ftnl_events_close(nd->ev);
	nd->ev = NULL;
	ftnl_close(nd->h);
	nd->h = NULL;
	if (nd->ioctl_fd >= 0)
		close(nd->ioctl_fd);
	nd->ioctl_fd = -1;
	if (nd->ns >= 0)
		close(nd->ns);
	nd->ns = -1;
	nd->configured = false;
}

int st_vc_init(struct st_vc *vc, size_t n, uint32_t cluster_id,
	       uint32_t h_us, uint32_t d_us)
{
	struct ftnl_cluster_config *c = &vc->cfg;
	uint32_t id;
	int err;

	memset(vc, 0, sizeof(*vc));
	vc->root_ns = vc->br_ns = vc->br_ioctl = vc->outsider_ns = -1;
	for (id = 0; id <= ST_VC_MAX_NODES; id++)
		vc->node[id].ns = vc->node[id].ioctl_fd = -1;
	if (n < 2 || n > ST_VC_MAX_NODES)
		return -EINVAL;
	vc->n = n;
	for (id = 1; id <= n; id++) {
		vc->ring[id - 1] = (uint32_t)id;
		vc->pos[id] = (uint32_t)id - 1;
	}

	c->cluster_id = cluster_id;
	c->hb_period_us = h_us;
	c->timeout_us = d_us;
	memcpy(c->key, st_vc_key_bytes, sizeof(c->key));
	c->node_count = n;
	c->nodes = calloc(n, sizeof(*c->nodes));
	if (!c->nodes)
		return -ENOMEM;
	for (id = 1; id <= n; id++) {
		struct ftnl_node *node = &c->nodes[id - 1];

		node->id = id;
		node->family = AF_INET;
		node->addr.v4.s_addr = htonl(ST_VC_NET | id);
		node->port = ST_VC_PORT;
	}

	vc->root_ns = ns_open_self();
	if (vc->root_ns < 0) {
		err = vc->root_ns;
		goto err;
	}
	if (unshare(CLONE_NEWNET)) {
		err = -errno;
		goto err;
	}
	vc->br_ns = ns_open_self();
	if (vc->br_ns < 0) {
		err = vc->br_ns;
		goto err;
	}
	vc->br_ioctl = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	vc->br_rtnl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (vc->br_ioctl < 0 || !vc->br_rtnl ||
	    mnl_socket_bind(vc->br_rtnl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		goto err;
	}
	err = if_flags(vc->br_ioctl, "lo", IFF_UP, 0);
	if (!err)
		err = rtnl_bridge_add(vc->br_rtnl, "br0");
	if (!err)
		err = if_flags(vc->br_ioctl, "br0", IFF_UP, 0);
	if (err)
		goto err;
	vc->br_ifindex = (int)if_nametoindex("br0");
	if (!vc->br_ifindex) {
		err = -errno;
		goto err;
	}
	err = ns_enter(vc->root_ns);
	if (err)
		goto err;

	for (id = 1; id <= n; id++) {
		err = vc_node_build(vc, id);
		if (err)
			goto err;
	}
	return 0;

err:
	st_vc_fini(vc);
	return err;
}

void st_vc_fini(struct st_vc *vc)
{
	uint32_t id;

	/*
	 * Tear down what is costly synchronously, here, rather than leave it
	 * to the kernel's deferred namespace cleanup, which would then run
	 * during the next test: stop every ring, and unregister every veth
	 * in one batch. What the kernel still does in the background (the
	 * empty namespaces) is light.
	 */
	for (id = 1; id <= ST_VC_MAX_NODES; id++)
		if (vc->node[id].h && vc->node[id].configured)
			ftnl_cluster_del(vc->node[id].h);
	if (vc->br_rtnl)
		rtnl_group_del(vc->br_rtnl, ST_VC_LINK_GROUP);
	for (id = 1; id <= ST_VC_MAX_NODES; id++)
		vc_node_release(&vc->node[id]);
	if (vc->root_ns >= 0)
		ns_enter(vc->root_ns);
	if (vc->br_rtnl)
		mnl_socket_close(vc->br_rtnl);
	vc->br_rtnl = NULL;
	if (vc->br_ioctl >= 0)
		close(vc->br_ioctl);
	if (vc->br_ns >= 0)
		close(vc->br_ns);
	if (vc->outsider_ns >= 0)
		close(vc->outsider_ns);
	if (vc->root_ns >= 0)
		close(vc->root_ns);
	vc->br_ioctl = vc->br_ns = vc->outsider_ns = vc->root_ns = -1;
	free(vc->cfg.nodes);
	vc->cfg.nodes = NULL;
	free(vc->joins);
	vc->joins = NULL;
	vc->njoins = 0;
	free(vc->events);
	vc->events = NULL;
	vc->nevents = 0;
}

int st_vc_add_outsider(struct st_vc *vc)
{
	int sock = -1, ns;

	if (vc->outsider_ns >= 0)
		return -EEXIST;
	ns = vc_netns_on_bridge(vc, ST_VC_OUTSIDER_HOST, &sock);
	if (ns < 0)
		return ns;
	close(sock);
	vc->outsider_ns = ns;
	return 0;
}

/* ------------------------------------------------------------------------
 * Configuration, dumps
 */

/* The secret pair and signing keys derive from: st_vc_key(), rotated. */
static const uint8_t *st_vc_secret(const struct st_vc *vc, uint8_t *buf)
{
	memcpy(buf, st_vc_key(), FTNL_KEY_LEN);
	buf[0] ^= vc->secret_gen;
	return buf;
}

const char *st_vc_pair_key(const struct st_vc *vc, uint32_t a, uint32_t b,
			   char *hex)
{
	uint8_t key[FTNL_KEY_LEN];
	int i;

	uint8_t secret[FTNL_KEY_LEN];

	ftnl_pair_key(st_vc_secret(vc, secret), vc->cfg.cluster_id, a, b, key);
	for (i = 0; i < FTNL_KEY_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", key[i]);
	return hex;
}

void st_vc_sign_seed(const struct st_vc *vc, uint32_t id,
		     uint8_t seed[FTNL_SIGN_SEED_LEN])
{
	uint8_t secret[FTNL_KEY_LEN];

	ftnl_sign_seed(st_vc_secret(vc, secret), vc->cfg.cluster_id, id, seed);
}

/* @id's keys: its pair keys (and signing keys), or the cluster key. */
static void st_vc_keys_of(struct st_vc *vc, uint32_t id)
{
	struct ftnl_cluster_config *c = &vc->cfg;
	uint8_t seed[FTNL_SIGN_SEED_LEN], secret[FTNL_KEY_LEN];
	size_t i;

	for (i = 0; i < c->node_count; i++) {
		struct ftnl_node *node = &c->nodes[i];

		node->has_key = vc->pair_keys && node->id != id;
		if (node->has_key)
			ftnl_pair_key(st_vc_secret(vc, secret), c->cluster_id,
				      id, node->id,
				      node->key);
		node->has_sign_key = node->has_key && vc->signs;
		if (node->has_sign_key) {
			st_vc_sign_seed(vc, node->id, seed);
			ftnl_sign_public(seed, node->sign_key);
		}
	}
	c->has_sign_seed = vc->pair_keys && vc->signs;
	if (c->has_sign_seed)
		st_vc_sign_seed(vc, id, c->sign_seed);
	if (vc->pair_keys)
		c->unset |= FTNL_CONFIG_KEY;
	else
		c->unset &= ~FTNL_CONFIG_KEY;
}

int st_vc_configure(struct st_vc *vc, uint32_t id)
{
	struct st_vc_node *nd;
	int err;

	if (id < 1 || id > vc->n || !vc->node[id].h)
		return -EINVAL;
	nd = &vc->node[id];
	vc->cfg.self_id = id;
	st_vc_keys_of(vc, id);
	err = ftnl_cluster_set(nd->h, &vc->cfg);
	if (!err)
		nd->configured = true;
	return err;
}

int st_vc_configure_all(struct st_vc *vc)
{
	uint32_t id;
	int err;

	for (id = 1; id <= vc->n; id++) {
		err = st_vc_configure(vc, id);
		if (err)
			return err;
	}
	return 0;
}

int st_vc_list(struct st_vc *vc, uint32_t id, struct ftnl_node_table *t)
{
	memset(t, 0, sizeof(*t));
	if (id < 1 || id > vc->n || !vc->node[id].h)
		return -EINVAL;
	return ftnl_node_list(vc->node[id].h, t);
}

int st_vc_stats(struct st_vc *vc, uint32_t id, struct ftnl_stats *s)
{
	memset(s, 0, sizeof(*s));
	if (id < 1 || id > vc->n || !vc->node[id].h)
		return -EINVAL;
	return ftnl_stats_get(vc->node[id].h, s);
}

const struct ftnl_node *st_vc_entry(const struct ftnl_node_table *t,
				    uint32_t of)
{
	size_t i;

	for (i = 0; i < t->count; i++)
		if (t->nodes[i].id == of)
			return &t->nodes[i];
	return NULL;
}

/*
 * The paper's definition of a reconnected ring (section 3.1.3), written
 * here independently of kmod/ring/core.c on purpose: an oracle that
 * called the module's FindEmitter could not catch it.
 */
static uint32_t ring_pred(const struct st_vc *vc, const bool *live, uint32_t id)
{
	uint32_t p = vc->pos[id], n = (uint32_t)vc->n;
	size_t steps;

	for (steps = 0; steps < vc->n; steps++) {
		p = p ? p - 1 : n - 1;
		if (live[vc->ring[p]])
			return vc->ring[p];
	}
	return id;
}

static uint32_t ring_succ(const struct st_vc *vc, const bool *live, uint32_t id)
{
	uint32_t p = vc->pos[id], n = (uint32_t)vc->n;
	size_t steps;

	for (steps = 0; steps < vc->n; steps++) {
		p = p + 1 < n ? p + 1 : 0;
		if (live[vc->ring[p]])
			return vc->ring[p];
	}
	return id;
}

int st_vc_learn_ring(struct st_vc *vc, uint32_t id)
{
	bool seen[ST_VC_MAX_NODES + 1] = { false };
	struct ftnl_node_table t;
	size_t i;
	int err;

	err = st_vc_list(vc, id, &t);
	if (err)
		return err;
	if (t.count != vc->n)
		err = -EPROTO;
	for (i = 0; !err && i < t.count; i++) {
		uint32_t x = t.nodes[i].id;

		if (x < 1 || x > vc->n || seen[x]) {
			err = -EPROTO;
			break;
		}
		seen[x] = true;
		vc->ring[i] = x;
		vc->pos[x] = (uint32_t)i;
	}
	ftnl_node_table_free(&t);
	return err;
}

bool st_vc_ring_check(struct st_vc *vc, const bool *live, char *why,
		      size_t len)
{
	unsigned int observed_by[ST_VC_MAX_NODES + 1] = { 0 };
	uint64_t d_us = vc->cfg.timeout_us;
	struct ftnl_node_table t;
	uint32_t s, k;
	bool ok = true;
	size_t i;

	for (s = 1; s <= vc->n && ok; s++) {
		uint32_t want_e, want_o, got_e = 0, got_o = 0;
		unsigned int ne = 0, no = 0;
		const struct ftnl_node *e = NULL;
		int err;

		if (!live[s])
			continue;
		err = st_vc_list(vc, s, &t);
		if (err) {
			snprintf(why, len, "node %u: dump failed: %s", s,
				 strerror(-err));
			return false;
		}
		want_e = ring_pred(vc, live, s);
		want_o = ring_succ(vc, live, s);
		for (i = 0; i < t.count; i++) {
			const struct ftnl_node *x = &t.nodes[i];

			if (x->emitter) {
				ne++;
				got_e = x->id;
				e = x;
			}
			if (x->observer) {
				no++;
				got_o = x->id;
			}
			if (x->id <= vc->n && live[x->id] &&
			    x->state != FTNL_NODE_STATE_ALIVE && ok) {
				snprintf(why, len, "node %u sees live node %u %s",
					 s, x->id, ftnl_node_state_name(x->state));
				ok = false;
			}
		}
		if (!ok) {
		} else if (want_e == s) {
			if (ne || no) {
				snprintf(why, len,
					 "node %u is the only live node but has emitter %u observer %u",
					 s, got_e, got_o);
				ok = false;
			}
		} else if (ne != 1 || got_e != want_e) {
			snprintf(why, len,
				 "node %u: %u emitter flags (emitter %u), want emitter %u",
				 s, ne, got_e, want_e);
			ok = false;
		} else if (no != 1 || got_o != want_o) {
			snprintf(why, len,
				 "node %u: %u observer flags (observer %u), want observer %u",
				 s, no, got_o, want_o);
			ok = false;
		} else if (!e->has_hb_age || e->hb_age_us >= d_us) {
			snprintf(why, len,
				 "node %u: no heartbeat from its emitter %u for %s%llu us (d = %llu us)",
				 s, got_e, e->has_hb_age ? "" : "ever, ",
				 (unsigned long long)e->hb_age_us,
				 (unsigned long long)d_us);
			ok = false;
		} else {
			observed_by[got_e]++;
		}
		ftnl_node_table_free(&t);
	}
	if (!ok)
		return false;
	/* The emitter relation is a permutation of the live nodes. */
	for (k = 1; k <= vc->n; k++) {
		unsigned int want = live[k] && ring_pred(vc, live, k) != k;

		if (live[k] && observed_by[k] != want) {
			snprintf(why, len, "live node %u is the emitter of %u live nodes",
				 k, observed_by[k]);
			return false;
		}
	}
	return true;
}

int st_vc_wait_ring(struct st_vc *vc, const bool *live,
		    unsigned int timeout_ms, char *why, size_t len)
{
	uint64_t deadline = st_mono_ns() + (uint64_t)timeout_ms * 1000000ull;

	for (;;) {
		if (st_vc_ring_check(vc, live, why, len))
			return 0;
		if (st_mono_ns() > deadline)
			return -ETIMEDOUT;
		st_msleep(20);
	}
}

int st_vc_wait_settled(struct st_vc *vc, unsigned int timeout_ms,
		       char *why, size_t len)
{
	uint64_t deadline = st_mono_ns() + (uint64_t)timeout_ms * 1000000ull;
	bool live[ST_VC_MAX_NODES + 1] = { false };
	uint32_t id;

	for (id = 1; id <= vc->n; id++)
		live[id] = vc->node[id].configured && !vc->node[id].silenced;
	for (;;) {
		/* st_vc_ring_check() requires a heartbeat age on every
		 * emitter: every node has heard its first emitter.
		 */
		if (st_vc_ring_check(vc, live, why, len))
			return 0;
		if (st_mono_ns() > deadline)
			return -ETIMEDOUT;
		st_msleep(20);
	}
}

int st_vc_start(struct st_vc *vc, size_t n, uint32_t cluster_id,
		uint32_t h_us, uint32_t d_us, unsigned int settle_ms,
		char *why, size_t len)
{
	const struct st_vc_event *e;
	char ring[256] = "", note[320];
	int err;

	err = st_vc_init(vc, n, cluster_id, h_us, d_us);
	if (err) {
		snprintf(why, len, "cluster not built: %s", strerror(-err));
		return err;
	}
	err = st_vc_configure_all(vc);
	if (err) {
		snprintf(why, len, "cluster not configured: %s", strerror(-err));
		return err;
	}
	err = st_vc_wait_settled(vc, settle_ms, ring, sizeof(ring));
	if (err) {
		snprintf(why, len, "cluster did not settle: %s", ring);
		return err;
	}
	err = st_vc_poll_events(vc, 0);
	if (err < 0) {
		snprintf(why, len, "events not read: %s", strerror(-err));
		return err;
	}
	if (vc->nevents) {
		e = &vc->events[0];
		snprintf(why, len,
			 "failure event while the cluster settled: node %u about %u (%s); %s",
			 e->at, e->f.node_id, ftnl_event_cause_name(e->f.cause),
			 st_vc_stall_note(vc, note, sizeof(note)));
		return -EPROTO;
	}
	return 0;
}

uint64_t st_vc_max_lateness(struct st_vc *vc, uint32_t *worst)
{
	uint64_t max = 0;
	struct ftnl_stats s;
	uint32_t id;

	if (worst)
		*worst = 0;
	for (id = 1; id <= vc->n; id++) {
		if (!vc->node[id].configured || st_vc_stats(vc, id, &s))
			continue;
		if (s.lateness_max_ns > max) {
			max = s.lateness_max_ns;
			if (worst)
				*worst = id;
		}
	}
	return max;
}

const char *st_vc_stall_note(struct st_vc *vc, char *buf, size_t len)
{
	uint64_t slack = (uint64_t)(vc->cfg.timeout_us - vc->cfg.hb_period_us) * 1000;
	uint32_t worst;
	uint64_t max = st_vc_max_lateness(vc, &worst);

	snprintf(buf, len,
		 "largest heartbeat emission lateness %.1f ms (node %u), d - h = %.1f ms%s",
		 max / 1e6, worst, slack / 1e6,
		 max + 50000000ull >= slack ?
		 ": the VM stalled about as long as d - h, the detector's assumption (heartbeats arrive within d) did not hold" :
		 "");
	return buf;
}

uint64_t st_vc_incarnation(struct st_vc *vc, uint32_t id)
{
	struct ftnl_cluster_info ci;

	return ftnl_cluster_get(vc->node[id].h, &ci) ? 0 : ci.incarnation;
}

int st_vc_state_at(struct st_vc *vc, uint32_t at, uint32_t of,
		   uint64_t *incarnation)
{
	const struct ftnl_node *e;
	struct ftnl_node_table t;
	int state = -1;

	if (st_vc_list(vc, at, &t))
		return -1;
	e = st_vc_entry(&t, of);
	if (e) {
		state = (int)e->state;
		if (incarnation)
			*incarnation = e->incarnation;
	}
	ftnl_node_table_free(&t);
	return state;
}

const char *st_vc_node_note(struct st_vc *vc, uint32_t id, char *buf,
			    size_t len)
{
	struct ftnl_stats st;
	size_t off;
	unsigned int r;

	if (st_vc_stats(vc, id, &st)) {
		snprintf(buf, len, "node %u: no stats", id);
		return buf;
	}
	off = (size_t)snprintf(buf, len,
			       "node %u: suspicions %" PRIu64 ", tx errors %" PRIu64
			       ", events lost %" PRIu64 ", bcast originated %" PRIu64
			       " sent %" PRIu64 " delivered %" PRIu64
			       " duplicates %" PRIu64 ", drops:",
			       id, st.suspicions, st.tx_errors, st.events_lost,
			       st.bcast_originated, st.bcast_sent,
			       st.bcast_delivered, st.bcast_duplicates);
	for (r = 0; r <= FTNL_DROP_MAX && off < len; r++)
		if (st.drops[r])
			off += (size_t)snprintf(buf + off, len - off, " %s %" PRIu64,
						ftnl_drop_reason_name(r),
						st.drops[r]);
	return buf;
}

/* ------------------------------------------------------------------------
 * Failure injection
 */

int st_vc_silence(struct st_vc *vc, uint32_t id, uint64_t *before,
		  uint64_t *after)
{
	char pif[IFNAMSIZ];
	uint64_t t0, t1;
	int err;

	st_vc_port_if(id, pif, sizeof(pif));
	t0 = st_mono_ns();
	err = if_flags(vc->br_ioctl, pif, 0, IFF_UP);
	t1 = st_mono_ns();
	if (err)
		return err;
	vc->node[id].silenced = true;
	if (before)
		*before = t0;
	if (after)
		*after = t1;
	return 0;
}

int st_vc_unsilence(struct st_vc *vc, uint32_t id)
{
	char pif[IFNAMSIZ];
	int err;

	err = if_flags(vc->br_ioctl, st_vc_port_if(id, pif, sizeof(pif)),
		       IFF_UP, 0);
	if (!err)
		vc->node[id].silenced = false;
	return err;
}

int st_vc_kill(struct st_vc *vc, uint32_t id, uint64_t *when)
{
	char pif[IFNAMSIZ];
	int err;

	if (id < 1 || id > vc->n || vc->node[id].ns < 0)
		return -EINVAL;
	err = rtnl_link_del(vc->br_rtnl, st_vc_port_if(id, pif, sizeof(pif)));
	if (when)
		*when = st_mono_ns();
	vc_node_release(&vc->node[id]);
	vc->node[id].silenced = false;
	return err;
}

int st_vc_revive(struct st_vc *vc, uint32_t id)
{
	if (id < 1 || id > vc->n || vc->node[id].ns >= 0)
		return -EINVAL;
	return vc_node_build(vc, id);
}

/* ------------------------------------------------------------------------
 * Events
 */

static int vc_drain(struct st_vc *vc, uint32_t id)
{
	struct st_vc_event *grown;
	struct ftnl_event e;
	int added = 0, r;

	for (;;) {
		r = ftnl_events_read(vc->node[id].ev, &e);
		if (r <= 0)
			return r < 0 ? r : added;
		if (e.type == FTNL_EVENT_OVERRUN) {
			vc->overruns++;
			continue;
		}
		if (e.type == FTNL_EVENT_JOINED) {
			grown = realloc(vc->joins,
					(vc->njoins + 1) * sizeof(*grown));
			if (!grown)
				return -ENOMEM;
			vc->joins = grown;
			vc->joins[vc->njoins].at = id;
			vc->joins[vc->njoins].f = e.joined;
			vc->njoins++;
			added++;
			continue;
		}
		if (e.type == FTNL_EVENT_EXPELLED) {
			vc->node[id].expelled++;
			vc->node[id].expel = e.expelled;
			continue;
		}
		if (e.type != FTNL_EVENT_FAILURE)
			continue;
		grown = realloc(vc->events, (vc->nevents + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		vc->events = grown;
		vc->events[vc->nevents].at = id;
		vc->events[vc->nevents].f = e.failure;
		vc->nevents++;
		added++;
	}
}

int st_vc_poll_events(struct st_vc *vc, int timeout_ms)
{
	struct pollfd pfd[ST_VC_MAX_NODES];
	uint32_t ids[ST_VC_MAX_NODES];
	int added = 0, r;
	nfds_t nfd = 0, i;

	for (i = 1; i <= vc->n; i++) {
		if (!vc->node[i].ev)
			continue;
		pfd[nfd].fd = ftnl_events_fd(vc->node[i].ev);
		pfd[nfd].events = POLLIN;
		ids[nfd++] = (uint32_t)i;
	}
	if (timeout_ms > 0) {
		r = poll(pfd, nfd, timeout_ms);
		if (r < 0 && errno != EINTR)
			return -errno;
	}
	/* Read every subscription: poll() may not report all of them. */
	for (i = 0; i < nfd; i++) {
		r = vc_drain(vc, ids[i]);
		if (r < 0)
			return r;
		added += r;
	}
	return added;
}

size_t st_vc_count_events(const struct st_vc *vc, uint32_t at,
			  uint32_t node_id, int cause)
{
	size_t i, n = 0;

	for (i = 0; i < vc->nevents; i++) {
		const struct st_vc_event *e = &vc->events[i];

		if ((!at || e->at == at) && (!node_id || e->f.node_id == node_id) &&
		    (cause < 0 || e->f.cause == (uint32_t)cause))
			n++;
	}
	return n;
}

size_t st_vc_count_joins(const struct st_vc *vc, uint32_t at,
			 uint32_t node_id)
{
	size_t i, n = 0;

	for (i = 0; i < vc->njoins; i++)
		if ((!at || vc->joins[i].at == at) &&
		    (!node_id || vc->joins[i].f.node_id == node_id))
			n++;
	return n;
}

/* Poll events until @count (of events at @at about @node_id) reaches
 * @want: 0, or -ETIMEDOUT at @deadline_ns, or st_vc_poll_events()' error.
 */
static int wait_count(struct st_vc *vc,
		      size_t (*count)(const struct st_vc *vc, uint32_t at,
				      uint32_t node_id),
		      uint32_t at, uint32_t node_id, size_t want,
		      uint64_t deadline_ns)
{
	int r;

	for (;;) {
		uint64_t now = st_mono_ns();

		if (count(vc, at, node_id) >= want)
			return 0;
		if (now >= deadline_ns)
			return -ETIMEDOUT;
		r = st_vc_poll_events(vc, (int)((deadline_ns - now) / 1000000) + 1);
		if (r < 0)
			return r;
	}
}

int st_vc_wait_joins(struct st_vc *vc, uint32_t at, uint32_t node_id,
		     size_t want, uint64_t deadline_ns)
{
	return wait_count(vc, st_vc_count_joins, at, node_id, want,
			  deadline_ns);
}

const struct st_vc_event *st_vc_find_event(const struct st_vc *vc,
					   uint32_t at, uint32_t node_id)
{
	size_t i;

	for (i = 0; i < vc->nevents; i++)
		if (vc->events[i].at == at && vc->events[i].f.node_id == node_id)
			return &vc->events[i];
	return NULL;
}

/* Failure events of any cause, for wait_count(). */
static size_t count_failures(const struct st_vc *vc, uint32_t at,
			     uint32_t node_id)
{
	return st_vc_count_events(vc, at, node_id, -1);
}

int st_vc_wait_event(struct st_vc *vc, uint32_t at, uint32_t node_id,
		     size_t want, uint64_t deadline_ns)
{
	return wait_count(vc, count_failures, at, node_id, want, deadline_ns);
}

/* ------------------------------------------------------------------------
 * Processes
 */

static int vc_ns_of(const struct st_vc *vc, uint32_t id)
{
	if (id == 0)
		return vc->br_ns;
	if (id == ST_VC_OUTSIDER_HOST)
		return vc->outsider_ns;
	if (id <= vc->n)
		return vc->node[id].ns;
	return -1;
}

pid_t st_vc_spawn(struct st_vc *vc, uint32_t id, char *const argv[])
{
	int ns = vc_ns_of(vc, id);
	pid_t pid;

	if (ns < 0)
		return -EINVAL;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* Output must not look like TAP. */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		if (ns_enter(ns))
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

int st_wait_pid(pid_t pid, unsigned int timeout_ms)
{
	uint64_t deadline = st_mono_ns() + (uint64_t)timeout_ms * 1000000ull;
	int status;
	pid_t r;

	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -errno;
		if (st_mono_ns() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -ETIMEDOUT;
		}
		st_msleep(10);
	}
	if (!WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int st_vc_sh(struct st_vc *vc, uint32_t id, const char *fmt, ...)
{
	char cmd[2048];
	char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	va_list ap;
	pid_t pid;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	pid = st_vc_spawn(vc, id, argv);
	if (pid < 0)
		return -1;
	/* Generous: TCG, and a 2-core host shared with compilers. */
	return st_wait_pid(pid, 60000);
}

static char *forge_path(void)
{
	static char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/ftnl_forge", st_self_dir());
	return path;
}

int st_vc_forge(struct st_vc *vc, uint32_t where, const char *const *args)
{
	char *argv[48];
	size_t i = 0;
	pid_t pid;

	argv[i++] = forge_path();
	while (*args && i < 47)
		argv[i++] = (char *)*args++;
	argv[i] = NULL;
	pid = st_vc_spawn(vc, where, argv);
	if (pid < 0)
		return pid;
	return st_wait_pid(pid, 30000);
}

/*
 * Start ftnl_forge's capture @argv (in the bridge's netns) writing @file,
 * and wait up to 10 s for its FILE.ready: listening from then on. The
 * capture's pid, or a negative errno (nothing left running).
 */
static pid_t spawn_capture(struct st_vc *vc, const char *file, char **argv)
{
	uint64_t deadline = st_mono_ns() + 10000000000ull;
	char ready[PATH_MAX];
	pid_t pid;

	snprintf(ready, sizeof(ready), "%s.ready", file);
	unlink(ready);
	pid = st_vc_spawn(vc, 0, argv);
	if (pid < 0)
		return pid;
	while (access(ready, F_OK) && st_mono_ns() < deadline)
		st_msleep(10);
	if (access(ready, F_OK)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -ETIMEDOUT;
	}
	return pid;
}

pid_t st_vc_capture(struct st_vc *vc, const char *file, uint32_t node,
		    unsigned int type, uint32_t dest, uint32_t sender,
		    unsigned int count)
{
	char ifname[IFNAMSIZ], t[12], d[12], s[12], c[12];
	char *argv[] = {
		forge_path(), "capture", ifname, "7600", (char *)file,
		"--type", t, "--dest", d, "--sender", s, "--count", c,
		"--timeout", "10000", NULL,
	};

	st_vc_port_if(node, ifname, sizeof(ifname));
	snprintf(t, sizeof(t), "%u", type);
	snprintf(d, sizeof(d), "%u", dest);
	snprintf(s, sizeof(s), "%u", sender);
	snprintf(c, sizeof(c), "%u", count);
	return spawn_capture(vc, file, argv);
}

pid_t st_vc_capture_bridge(struct st_vc *vc, const char *file,
			   unsigned int type, unsigned int idle_ms,
			   unsigned int timeout_ms)
{
	char t[12], idle[12], tmo[12];
	char *argv[] = {
		forge_path(), "capture", "any", "7600", (char *)file,
		"--type", t, "--outgoing", "--count", "1000000", "--idle", idle,
		"--timeout", tmo, NULL,
	};

	snprintf(t, sizeof(t), "%u", type);
	snprintf(idle, sizeof(idle), "%u", idle_ms);
	snprintf(tmo, sizeof(tmo), "%u", timeout_ms);
	return spawn_capture(vc, file, argv);
}

int st_wait_quiet_machine(unsigned int quiet_ms, unsigned int max_ms,
			  uint64_t *waited_ns)
{
	uint64_t start = st_mono_ns(), calm_since = start, prev = start, now;

	for (;;) {
		st_msleep(10);
		now = st_mono_ns();
		/* a 10 ms sleep that took over 30 ms: the machine is busy */
		if (now - prev > 30000000ull)
			calm_since = now;
		prev = now;
		if (now - calm_since >= (uint64_t)quiet_ms * 1000000ull)
			break;
		if (now - start >= (uint64_t)max_ms * 1000000ull) {
			if (waited_ns)
				*waited_ns = now - start;
			return -ETIMEDOUT;
		}
	}
	if (waited_ns)
		*waited_ns = now - start;
	return 0;
}

const char *st_self_dir(void)
{
	static char dir[PATH_MAX];
	char exe[PATH_MAX];
	ssize_t n;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return ".";
	exe[n] = '\0';
	snprintf(dir, sizeof(dir), "%s", dirname(exe));
	return dir;
}
