// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel UDP sockets carrying ftnl datagrams, the udp_tunnel way: datagrams
 * are taken in softirq by an encap_rcv hook, never queued for a task, and
 * sent with udp_tunnel_xmit_skb() from whatever atomic context produced
 * them.
 */

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>
#include <net/udp_tunnel.h>

#include "ring/ring.h"
#include "transport.h"

static int ftnl_udp_encap_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct ftnl_net *fn = rcu_dereference_sk_user_data(sk);

	if (fn && skb->len >= sizeof(struct udphdr))
		ftnl_dgram_rcv(fn, skb);
	consume_skb(skb);
	return 0;
}

/**
 * ftnl_sock_open - open this node's UDP socket for one address family
 * @fn: the netns state, where datagrams are delivered
 * @family: AF_INET or AF_INET6 (IPv6-only)
 * @port: local port, host order; bound on the wildcard address
 * @sockp: set to the socket
 *
 * Return: 0 or a negative errno.
 */
int ftnl_sock_open(struct ftnl_net *fn, int family, u16 port,
		   struct socket **sockp)
{
	struct udp_tunnel_sock_cfg tunnel_cfg = {
		.sk_user_data = fn,
		.encap_type = 1,
		.encap_rcv = ftnl_udp_encap_rcv,
	};
	struct udp_port_cfg port_cfg = {
		.family = family,
		.local_udp_port = htons(port),
	};
	struct net *net = read_pnet(&fn->net);
	struct socket *sock;
	int err;

	if (family == AF_INET) {
		port_cfg.local_ip.s_addr = htonl(INADDR_ANY);
	} else {
		if (!IS_ENABLED(CONFIG_IPV6))
			return -EAFNOSUPPORT;
		port_cfg.local_ip6 = in6addr_any;
		port_cfg.ipv6_v6only = 1;
	}
	err = udp_sock_create(net, &port_cfg, &sock);
	if (err)
		return err;
	setup_udp_tunnel_sock(net, sock, &tunnel_cfg);
	*sockp = sock;
	return 0;
}

void ftnl_sock_close(struct socket *sock)
{
	if (sock)
		udp_tunnel_sock_release(sock);
}

static int ftnl_sock_xmit4(struct net *net, struct socket *sock,
			   const struct ftnl_node *to, __be16 sport,
			   struct sk_buff *skb)
{
	struct flowi4 fl4 = {
		.daddr = to->addr4,
		.flowi4_proto = IPPROTO_UDP,
		.fl4_sport = sport,
		.fl4_dport = htons(to->port),
	};
	struct rtable *rt;

	rt = ip_route_output_key(net, &fl4);
	if (IS_ERR(rt)) {
		kfree_skb(skb);
		return PTR_ERR(rt);
	}
	udp_tunnel_xmit_skb(rt, sock->sk, skb, fl4.saddr, fl4.daddr, 0,
			    ip4_dst_hoplimit(&rt->dst), 0, sport,
			    htons(to->port), false, false);
	return 0;
}

#if IS_ENABLED(CONFIG_IPV6)
static int ftnl_sock_xmit6(struct net *net, struct socket *sock,
			   const struct ftnl_node *to, __be16 sport,
			   struct sk_buff *skb)
{
	struct flowi6 fl6 = {
		.daddr = to->addr6,
		.flowi6_proto = IPPROTO_UDP,
		.fl6_sport = sport,
		.fl6_dport = htons(to->port),
	};
	struct dst_entry *dst;

	dst = ipv6_stub->ipv6_dst_lookup_flow(net, sock->sk, &fl6, NULL);
	if (IS_ERR(dst)) {
		kfree_skb(skb);
		return PTR_ERR(dst);
	}
	udp_tunnel6_xmit_skb(dst, sock->sk, skb, dst->dev, &fl6.saddr,
			     &fl6.daddr, 0, ip6_dst_hoplimit(dst), 0, sport,
			     htons(to->port), false);
	return 0;
}
#endif

/**
 * ftnl_sock_xmit - send @skb (an ftnl datagram, data at its first byte)
 * @ring: the sending ring, owner of the sockets
 * @to: destination
 * @skb: consumed in every case
 *
 * Atomic context, BHs off.
 *
 * Return: 0 or a negative errno.
 */
int ftnl_sock_xmit(struct ftnl_ring *ring, const struct ftnl_node *to,
		   struct sk_buff *skb)
{
	const struct ftnl_cluster *cluster = ring->cluster;
	__be16 sport = htons(cluster->nodes[cluster->self_index].port);
	struct net *net = read_pnet(&ring->fn->net);

	if (to->family == AF_INET && ring->sock4)
		return ftnl_sock_xmit4(net, ring->sock4, to, sport, skb);
#if IS_ENABLED(CONFIG_IPV6)
	if (to->family == AF_INET6 && ring->sock6)
		return ftnl_sock_xmit6(net, ring->sock6, to, sport, skb);
#endif
	kfree_skb(skb);
	return -EAFNOSUPPORT;
}
