/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Datagrams between nodes: building and checking them (datagram.c) and the
 * per-netns kernel UDP sockets that carry them (socket.c).
 */
#ifndef _FTNL_TRANSPORT_H
#define _FTNL_TRANSPORT_H

#include <linux/net.h>
#include <linux/skbuff.h>

#include "ftnl.h"

struct ftnl_ring;

/* datagram.c */
void ftnl_dgram_rcv(struct ftnl_net *fn, struct sk_buff *skb);
int ftnl_dgram_send(struct ftnl_ring *ring, u32 pos, u8 type,
		    const u8 *payload, u32 len);

/* socket.c */
int ftnl_sock_open(struct ftnl_net *fn, int family, u16 port,
		   struct socket **sockp);
void ftnl_sock_close(struct socket *sock);
int ftnl_sock_xmit(struct ftnl_ring *ring, const struct ftnl_node *to,
		   struct sk_buff *skb);

#endif /* _FTNL_TRANSPORT_H */
