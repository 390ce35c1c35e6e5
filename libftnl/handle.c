// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The handle: opening the netlink socket, resolving the ftnl family and its
 * multicast group through nlctrl, checking the family version.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static struct ftnl_handle *ftnl_handle_alloc(void)
{
	struct ftnl_handle *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->fd = -1;
	h->recv_fn = recvmsg;
	/* Any start works; a time-based one makes traces easier to tell apart. */
	h->seq = (uint32_t)time(NULL);
	if (ftnl_rxbuf_init(&h->rx)) {
		free(h);
		return NULL;
	}
	return h;
}

FTNL_EXPORT void ftnl_close(struct ftnl_handle *h)
{
	if (!h)
		return;
	if (h->nl)
		mnl_socket_close(h->nl);
	ftnl_rxbuf_free(&h->rx);
	free(h);
}

/**
 * ftnl_handle_wrap_fd() - a handle over an already connected socket (tests)
 * @fd: a connected datagram socket standing in for the kernel; owned by
 *	the caller, not closed by ftnl_close()
 * @family_id: family id the "kernel" uses
 * @portid: port id the "kernel" puts in replies
 * @handle: set to the handle
 *
 * Return: 0 or -ENOMEM.
 */
int ftnl_handle_wrap_fd(int fd, uint16_t family_id, uint32_t portid,
			struct ftnl_handle **handle)
{
	struct ftnl_handle *h = ftnl_handle_alloc();

	if (!h)
		return -ENOMEM;
	h->fd = fd;
	h->family_id = family_id;
	h->family_version = FTNL_FAMILY_VERSION;
	h->portid = portid;
	*handle = h;
	return 0;
}

struct ftnl_family_reply {
	const char *group;
	uint16_t family_id;
	uint32_t version;
	uint32_t group_id;
	bool seen;
};

static int ftnl_family_reply(const struct nlmsghdr *nlh, void *arg)
{
	struct ftnl_family_reply *r = arg;
	int err;

	err = ftnl_msg_parse_family(nlh, r->group, &r->family_id, &r->version,
				    &r->group_id);
	if (!err)
		r->seen = true;
	return err;
}

/**
 * ftnl_resolve_family() - ask nlctrl for a family and one of its groups
 * @h: an open handle (its family need not be resolved yet)
 * @name: family name
 * @group: multicast group name, or NULL
 * @family_id: set to the family id
 * @version: set to the family version
 * @group_id: set to the group id, 0 if the family has no such group
 *
 * Return: 0; -ENOENT if no such family; other negative errno.
 */
int ftnl_resolve_family(struct ftnl_handle *h, const char *name,
			const char *group, uint16_t *family_id,
			uint32_t *version, uint32_t *group_id)
{
	char buf[256] __attribute__((aligned(4)));
	struct ftnl_family_reply r = { .group = group };
	struct nlmsghdr *req;
	int err;

	if (strlen(name) >= GENL_NAMSIZ)
		return ftnl_set_error(h, -EINVAL,
				      "family name \"%s\" is too long", name);
	req = ftnl_msg_start(buf, GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK,
			     CTRL_CMD_GETFAMILY, 1);
	mnl_attr_put_strz(req, CTRL_ATTR_FAMILY_NAME, name);

	err = ftnl_request(h, req, ftnl_family_reply, &r);
	if (err == -ENOENT)
		return ftnl_set_error(h, err,
				      "generic netlink family \"%s\" is not registered",
				      name);
	if (err)
		return err;
	if (!r.seen)
		return ftnl_set_error(h, -EBADMSG,
				      "nlctrl acknowledged without describing \"%s\"",
				      name);
	*family_id = r.family_id;
	*version = r.version;
	*group_id = r.group_id;
	return 0;
}

FTNL_EXPORT int ftnl_open(struct ftnl_handle **handle)
{
	struct ftnl_handle *h;
	int one = 1, err;

	h = ftnl_handle_alloc();
	if (!h)
		return -ENOMEM;
	h->nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!h->nl || mnl_socket_bind(h->nl, 0, MNL_SOCKET_AUTOPID) < 0)
		goto err_errno;
	h->fd = mnl_socket_get_fd(h->nl);
	h->portid = mnl_socket_get_portid(h->nl);

	/* Without CAP_ACK, rejecting a 2.6 MB request echoes it back whole. */
	if (mnl_socket_setsockopt(h->nl, NETLINK_CAP_ACK, &one, sizeof(one)))
		goto err_errno;
	/* Extack only adds words to errors: do without it on old kernels. */
	mnl_socket_setsockopt(h->nl, NETLINK_EXT_ACK, &one, sizeof(one));

	err = ftnl_resolve_family(h, FTNL_FAMILY_NAME, FTNL_MCGRP_EVENTS,
				  &h->family_id, &h->family_version,
				  &h->events_group);
	if (err)
		goto err_close;
	if (h->family_version < FTNL_FAMILY_VERSION) {
		err = -EPROTONOSUPPORT;
		goto err_close;
	}
	ftnl_clear_error(h);
	*handle = h;
	return 0;

err_errno:
	err = -errno;
err_close:
	ftnl_close(h);
	return err;
}
