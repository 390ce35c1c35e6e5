/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring order, pure: which node table entry sits at which ring
 * position, from the node ids and their failure domains. Every node
 * computes it from the same table, so every node must get the same order:
 * the function depends on the table's contents only, never on the order
 * the entries were given in.
 */
#ifndef _FTNL_RING_ORDER_H
#define _FTNL_RING_ORDER_H

#include "../compat.h"

/**
 * struct ftnl_ring_member - what the ring order needs of a table entry
 * @id: node id, unique in the table
 * @domain: failure domain name, NUL-terminated; NULL or "" for none (the
 *	node is then a domain of its own)
 */
struct ftnl_ring_member {
	u32 id;
	const char *domain;
};

bool ftnl_ring_order_has_domains(const struct ftnl_ring_member *members,
				 u32 n);
void ftnl_ring_order(const struct ftnl_ring_member *members, u32 n,
		     u32 *ring, u32 *scratch);
u32 ftnl_ring_order_max_domain(const struct ftnl_ring_member *members,
			       const u32 *sorted, u32 n);

#endif /* _FTNL_RING_ORDER_H */
