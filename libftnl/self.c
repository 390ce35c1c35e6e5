// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * "self auto": a node finds its own id in the node table by its addresses,
 * so that one configuration file serves every node of a cluster.
 *
 * ftnl_config_match_self() is the rule, pure (the local addresses are an
 * argument); ftnl_config_resolve_self() feeds it the addresses of the
 * calling thread's network namespace (getifaddrs()).
 */
#include <errno.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "internal.h"

/* How many addresses a refusal lists before "...". */
#define FTNL_SELF_LIST_MAX	8

static bool ftnl_same_addr(int family, const union ftnl_addr *a,
			   const union ftnl_addr *b)
{
	if (family == AF_INET)
		return a->v4.s_addr == b->v4.s_addr;
	return !memcmp(&a->v6, &b->v6, sizeof(a->v6));
}

static bool ftnl_is_local(const struct ftnl_node *node,
			  const struct ftnl_local_addr *local, size_t n_local)
{
	size_t i;

	if (node->family != AF_INET && node->family != AF_INET6)
		return false;
	for (i = 0; i < n_local; i++)
		if (local[i].family == node->family &&
		    ftnl_same_addr(node->family, &local[i].addr, &node->addr))
			return true;
	return false;
}

/* "a, b, c" of at most FTNL_SELF_LIST_MAX addresses, then ", ...". */
static void ftnl_list_local(const struct ftnl_local_addr *local,
			    size_t n_local, char *buf, size_t len)
{
	char addr[FTNL_ADDR_STRLEN];
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < n_local && used < len; i++) {
		if (i == FTNL_SELF_LIST_MAX) {
			snprintf(buf + used, len - used, ", ...");
			return;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? ", " : "",
					 ftnl_format_addr(local[i].family,
							  &local[i].addr, addr,
							  sizeof(addr)));
	}
}

FTNL_EXPORT int ftnl_config_match_self(const struct ftnl_cluster_config *config,
				       const struct ftnl_local_addr *local,
				       size_t n_local, uint32_t *self_id,
				       char *err, size_t errlen)
{
	char a1[FTNL_ADDR_STRLEN], a2[FTNL_ADDR_STRLEN], list[256];
	const struct ftnl_node *found = NULL;
	size_t i;

	for (i = 0; i < config->node_count; i++) {
		const struct ftnl_node *node = &config->nodes[i];

		if (!ftnl_is_local(node, local, n_local))
			continue;
		if (found) {
			ftnl_format_err(err, errlen,
					"self auto: nodes %u (%s) and %u (%s) both have an address of this host; give this node's id with \"self ID\"",
					found->id,
					ftnl_format_addr(found->family,
							 &found->addr, a1,
							 sizeof(a1)),
					node->id,
					ftnl_format_addr(node->family,
							 &node->addr, a2,
							 sizeof(a2)));
			return -EEXIST;
		}
		found = node;
	}
	if (!found) {
		if (!n_local) {
			ftnl_format_err(err, errlen,
					"self auto: this host has no IPv4 or IPv6 address; no node of the table can be it");
		} else {
			ftnl_list_local(local, n_local, list, sizeof(list));
			ftnl_format_err(err, errlen,
					"self auto: no node of the table has an address of this host (%s)",
					list);
		}
		return -ENOENT;
	}
	*self_id = found->id;
	return 0;
}

/* The addresses of the current network namespace's interfaces. */
static int ftnl_local_addrs(struct ftnl_local_addr **out, size_t *n_out)
{
	struct ifaddrs *ifa, *it;
	struct ftnl_local_addr *addrs;
	size_t n = 0;

	if (getifaddrs(&ifa))
		return -errno;
	for (it = ifa; it; it = it->ifa_next)
		if (it->ifa_addr && (it->ifa_addr->sa_family == AF_INET ||
				     it->ifa_addr->sa_family == AF_INET6))
			n++;
	addrs = calloc(n ? n : 1, sizeof(*addrs));
	if (!addrs) {
		freeifaddrs(ifa);
		return -ENOMEM;
	}
	n = 0;
	for (it = ifa; it; it = it->ifa_next) {
		if (!it->ifa_addr)
			continue;
		if (it->ifa_addr->sa_family == AF_INET) {
			const struct sockaddr_in *sin =
				(const struct sockaddr_in *)it->ifa_addr;

			addrs[n].family = AF_INET;
			addrs[n++].addr.v4 = sin->sin_addr;
		} else if (it->ifa_addr->sa_family == AF_INET6) {
			const struct sockaddr_in6 *sin6 =
				(const struct sockaddr_in6 *)it->ifa_addr;

			addrs[n].family = AF_INET6;
			addrs[n++].addr.v6 = sin6->sin6_addr;
		}
	}
	freeifaddrs(ifa);
	*out = addrs;
	*n_out = n;
	return 0;
}

FTNL_EXPORT int ftnl_config_resolve_self(struct ftnl_cluster_config *config,
					 char *err, size_t errlen)
{
	struct ftnl_local_addr *local = NULL;
	size_t n_local = 0;
	uint32_t self_id;
	int ret;

	if (!config->self_auto)
		return 0;
	ret = ftnl_local_addrs(&local, &n_local);
	if (ret) {
		ftnl_format_err(err, errlen,
				"self auto: cannot list this host's addresses: %s",
				strerror(-ret));
		return ret;
	}
	ret = ftnl_config_match_self(config, local, n_local, &self_id, err,
				     errlen);
	free(local);
	if (ret)
		return ret;
	config->self_id = self_id;
	config->self_auto = false;
	config->unset &= ~FTNL_CONFIG_SELF_ID;
	return 0;
}
