// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel UDP sockets carrying ftnl datagrams, the udp_tunnel way: datagrams
 * are taken in softirq by an encap_rcv hook, never queued for a task, and
 * sent with udp_tunnel_xmit_skb() from whatever atomic context produced
 * them.
 */

#include <linux/in.h>
#include <linux/in6.h>
#include <linux/mm.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/ipv6_stubs.h>
#include <net/route.h>
#include <net/udp_tunnel.h>

#include "transport.h"

static int ftnl_udp_encap_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct ftnl_net *fn = rcu_dereference_sk_user_data(sk);
	struct ftnl_source src = {};

	if (fn && skb->len >= sizeof(struct udphdr)) {
		src.port = ntohs(udp_hdr(skb)->source);
		if (ip_hdr(skb)->version == 4) {
			src.family = AF_INET;
			src.addr4 = ip_hdr(skb)->saddr;
		} else {
			src.family = AF_INET6;
			src.addr6 = ipv6_hdr(skb)->saddr;
		}
		ftnl_dgram_rcv(fn, skb, &src);
	}
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
			   const struct ftnl_node *self,
			   const struct ftnl_node *to, __be16 sport,
			   struct sk_buff *skb, u8 tos)
{
	struct flowi4 fl4 = {
		.daddr = to->addr4,
		.saddr = self->family == AF_INET ? self->addr4 : 0,
		.flowi4_proto = IPPROTO_UDP,
		.flowi4_tos = RT_TOS(tos),
		.fl4_sport = sport,
		.fl4_dport = htons(to->port),
	};
	struct rtable *rt;

	rt = ip_route_output_key(net, &fl4);
	if (IS_ERR(rt)) {
		kfree_skb(skb);
		return PTR_ERR(rt);
	}
	udp_tunnel_xmit_skb(rt, sock->sk, skb, fl4.saddr, fl4.daddr, tos,
			    ip4_dst_hoplimit(&rt->dst), 0, sport,
			    htons(to->port), false, false);
	return 0;
}

#if IS_ENABLED(CONFIG_IPV6)
static int ftnl_sock_xmit6(struct net *net, struct socket *sock,
			   const struct ftnl_node *self,
			   const struct ftnl_node *to, __be16 sport,
			   struct sk_buff *skb, u8 tos)
{
	struct flowi6 fl6 = {
		.daddr = to->addr6,
		.flowi6_proto = IPPROTO_UDP,
		.fl6_sport = sport,
		.fl6_dport = htons(to->port),
	};
	struct dst_entry *dst;

	if (self->family == AF_INET6)
		fl6.saddr = self->addr6;
	dst = ipv6_stub->ipv6_dst_lookup_flow(net, sock->sk, &fl6, NULL);
	if (IS_ERR(dst)) {
		kfree_skb(skb);
		return PTR_ERR(dst);
	}
	udp_tunnel6_xmit_skb(dst, sock->sk, skb, dst->dev, &fl6.saddr,
			     &fl6.daddr, tos, ip6_dst_hoplimit(dst), 0, sport,
			     htons(to->port), false);
	return 0;
}
#endif

/**
 * ftnl_sock_xmit - send @skb (an ftnl datagram, data at its first byte)
 * @t: the sending transport, owner of the sockets
 * @to: destination
 * @skb: consumed in every case
 * @tos: IPv4 TOS / IPv6 traffic class (DSCP << 2)
 *
 * Atomic context, BHs off.
 *
 * Return: 0 or a negative errno.
 */
int ftnl_sock_xmit(struct ftnl_transport *t, const struct ftnl_node *to,
		   struct sk_buff *skb, u8 tos)
{
	const struct ftnl_cluster *cluster = t->cluster;
	const struct ftnl_node *self = &cluster->nodes[cluster->self_index];
	__be16 sport = htons(self->port);
	struct net *net = read_pnet(&t->fn->net);

	/*
	 * From this node's own address in the table when the families
	 * match: receivers check the source of every datagram against it
	 * (on a host with several addresses, routing alone could pick
	 * another).
	 */
	if (to->family == AF_INET && t->sock4)
		return ftnl_sock_xmit4(net, t->sock4, self, to, sport, skb,
				       tos);
#if IS_ENABLED(CONFIG_IPV6)
	if (to->family == AF_INET6 && t->sock6)
		return ftnl_sock_xmit6(net, t->sock6, self, to, sport, skb,
				       tos);
#endif
	kfree_skb(skb);
	return -EAFNOSUPPORT;
}

/* The per-peer tables; may run in softirq (kvfree() defers vfree). */
static void ftnl_transport_tables_free(struct ftnl_transport *t)
{
	ftnl_uncount(t->replay);
	kvfree(t->replay);
	t->replay = NULL;
	ftnl_uncount(t->tx_seq);
	kvfree(t->tx_seq);
	t->tx_seq = NULL;
	ftnl_uncount(t->echo);
	kvfree(t->echo);
	t->echo = NULL;
	ftnl_uncount(t->peer_seen);
	kvfree(t->peer_seen);
	t->peer_seen = NULL;
}

/**
 * ftnl_transport_open - the transport of a new configuration
 * @t: zeroed
 * @fn: the netns state
 * @cluster: the configuration
 * @prev: the running transport it replaces, or NULL
 *
 * Opens the UDP sockets the members' address families need on this node's
 * port, unless @prev has them on the same port: those are handed over by
 * ftnl_transport_start(), so that replacing a configuration never needs
 * the port free. Process context.
 *
 * Return: 0, or a negative errno (nothing left open or allocated).
 */
int ftnl_transport_open(struct ftnl_transport *t, struct ftnl_net *fn,
			const struct ftnl_cluster *cluster,
			const struct ftnl_transport *prev)
{
	u16 port = cluster->nodes[cluster->self_index].port;
	bool need4 = false, need6 = false;
	u32 i, n = cluster->node_count;
	int err;

	t->fn = fn;
	t->cluster = cluster;
	t->incarnation = fn->incarnation;
	t->first = READ_ONCE(fn->first);
	if (!t->first || t->first > t->incarnation)
		t->first = t->incarnation;
	skb_queue_head_init(&t->txq_ctrl);
	skb_queue_head_init(&t->txq_bcast);
	t->replay = ftnl_counted(kvcalloc(n, sizeof(*t->replay),
					  GFP_KERNEL_ACCOUNT));
	t->tx_seq = ftnl_counted(kvcalloc(n, sizeof(*t->tx_seq),
					  GFP_KERNEL_ACCOUNT));
	t->echo = ftnl_counted(kvcalloc(n, sizeof(*t->echo),
					GFP_KERNEL_ACCOUNT));
	t->peer_seen = ftnl_counted(kvcalloc(n, sizeof(*t->peer_seen),
					     GFP_KERNEL_ACCOUNT));
	if (!t->replay || !t->tx_seq || !t->echo || !t->peer_seen) {
		err = -ENOMEM;
		goto err_free;
	}
	err = ftnl_transport_keys_open(t, prev);
	if (err)
		goto err_free;
	seqcount_init(&t->replay_seq);
	for (i = 0; i < n; i++) {
		if (cluster->nodes[i].family == AF_INET)
			need4 = true;
		else
			need6 = true;
	}
	if (prev && prev->cluster->nodes[prev->cluster->self_index].port == port) {
		t->reuse4 = need4 && prev->sock4;
		t->reuse6 = need6 && prev->sock6;
	}
	if (need4 && !t->reuse4) {
		err = ftnl_sock_open(fn, AF_INET, port, &t->sock4);
		if (err)
			goto err_free;
	}
	if (need6 && !t->reuse6) {
		err = ftnl_sock_open(fn, AF_INET6, port, &t->sock6);
		if (err)
			goto err_close;
	}
	return 0;

err_close:
	ftnl_sock_close(t->sock4);
	t->sock4 = NULL;
err_free:
	ftnl_transport_keys_free(t);
	ftnl_transport_tables_free(t);
	return err;
}

/**
 * ftnl_transport_start - take over from the transport it replaces
 * @t: from ftnl_transport_open()
 * @prev: the replaced transport, already quiet (its ring stopped), or NULL
 *
 * Same node, same incarnation: its sequence numbers go on, in each space,
 * or the others' replay windows would drop the new datagrams; likewise its
 * broadcast numbers, which receivers remember. Positions may differ
 * between the two tables, so every destination starts above the highest
 * number of the space @prev sent to anyone. Sockets promised by
 * ftnl_transport_open() move over. Process context.
 */
void ftnl_transport_start(struct ftnl_transport *t,
			  struct ftnl_transport *prev)
{
	u64 last[FTNL_WIRE_SPACES] = { 0 };
	u32 i, sp;

	if (!prev)
		return;
	for (i = 0; i < prev->cluster->node_count; i++)
		for (sp = 0; sp < FTNL_WIRE_SPACES; sp++)
			last[sp] = max_t(u64, last[sp],
					 atomic64_read(&prev->tx_seq[i].space[sp]));
	for (i = 0; i < t->cluster->node_count; i++)
		for (sp = 0; sp < FTNL_WIRE_SPACES; sp++)
			atomic64_set(&t->tx_seq[i].space[sp], last[sp]);
	t->bcast_seq = prev->bcast_seq;
	if (t->reuse4) {
		t->sock4 = prev->sock4;
		prev->sock4 = NULL;
	}
	if (t->reuse6) {
		t->sock6 = prev->sock6;
		prev->sock6 = NULL;
	}
}

/*
 * Close the sockets a quiet transport still owns (not those handed over).
 * Process context: closing waits for receive paths in flight.
 */
void ftnl_transport_close(struct ftnl_transport *t)
{
	skb_queue_purge(&t->txq_ctrl);
	skb_queue_purge(&t->txq_bcast);
	ftnl_sock_close(t->sock4);
	t->sock4 = NULL;
	ftnl_sock_close(t->sock6);
	t->sock6 = NULL;
}

/* Free a closed transport; may run in softirq (an RCU callback). */
void ftnl_transport_free(struct ftnl_transport *t)
{
	WARN_ON_ONCE(t->sock4 || t->sock6);
	skb_queue_purge(&t->txq_ctrl);
	skb_queue_purge(&t->txq_bcast);
	ftnl_transport_tables_free(t);
	ftnl_transport_keys_free(t);
}
