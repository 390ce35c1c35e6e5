// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Moving messages: sending a request (however large), receiving datagrams
 * (however large), and the request/reply loop that matches replies to the
 * request, follows multi-part dumps to their end and collects errors.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

int ftnl_rxbuf_init(struct ftnl_rxbuf *rx)
{
	rx->data = malloc(FTNL_RX_INITIAL);
	if (!rx->data)
		return -ENOMEM;
	rx->cap = FTNL_RX_INITIAL;
	return 0;
}

void ftnl_rxbuf_free(struct ftnl_rxbuf *rx)
{
	free(rx->data);
	rx->data = NULL;
	rx->cap = 0;
}

static ssize_t ftnl_recvmsg_retry(ftnl_recvmsg_fn recv_fn, int fd,
				  struct msghdr *msg, int flags)
{
	ssize_t n;

	do {
		n = recv_fn(fd, msg, flags);
	} while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

/**
 * ftnl_recv_datagram() - receive one datagram whole
 * @fd: the socket
 * @rx: buffer, grown to fit the datagram
 * @flags: extra recvmsg flags (MSG_DONTWAIT)
 * @recv_fn: recvmsg(2) or a replacement
 *
 * Peeks at the datagram's real size first (MSG_PEEK | MSG_TRUNC), so that
 * nothing is ever truncated. Datagrams from a netlink sender other than the
 * kernel (port id 0) are dropped: userspace must not be able to forge
 * replies or events.
 *
 * Return: the datagram's length (0 for a dropped one: read again); a
 * negative errno (-EAGAIN when nothing is pending on a non-blocking call,
 * -ENOBUFS after the kernel dropped messages for this socket).
 */
ssize_t ftnl_recv_datagram(int fd, struct ftnl_rxbuf *rx, int flags,
			   ftnl_recvmsg_fn recv_fn)
{
	struct sockaddr_nl from;
	struct iovec iov = { .iov_base = rx->data, .iov_len = 0 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	n = ftnl_recvmsg_retry(recv_fn, fd, &msg, flags | MSG_PEEK | MSG_TRUNC);
	if (n < 0)
		return n;
	if ((size_t)n > rx->cap) {
		size_t cap = rx->cap;
		char *data;

		while (cap < (size_t)n)
			cap *= 2;
		data = realloc(rx->data, cap);
		if (!data)
			return -ENOMEM;
		rx->data = data;
		rx->cap = cap;
	}

	memset(&from, 0, sizeof(from));
	iov.iov_base = rx->data;
	iov.iov_len = rx->cap;
	msg.msg_name = &from;
	msg.msg_namelen = sizeof(from);
	n = ftnl_recvmsg_retry(recv_fn, fd, &msg, flags | MSG_TRUNC);
	if (n < 0)
		return n;
	if ((size_t)n > rx->cap)	/* grew between peek and read: cannot */
		return -EMSGSIZE;
	if (msg.msg_namelen == sizeof(from) && from.nl_family == AF_NETLINK &&
	    from.nl_pid != 0)
		return 0;
	return n;
}

/**
 * ftnl_ensure_sndbuf() - make the socket's send buffer hold @len bytes
 * @h: the handle
 * @len: size of the request about to be sent
 *
 * Netlink refuses a message larger than the send buffer (minus a little).
 * SO_SNDBUFFORCE passes net.core.wmem_max with CAP_NET_ADMIN; SO_SNDBUF is
 * the unprivileged fallback, capped by wmem_max.
 *
 * Return: 0, or -EMSGSIZE (with the error message set).
 */
int ftnl_ensure_sndbuf(struct ftnl_handle *h, size_t len)
{
	size_t need = len + 4096;	/* the kernel keeps some for itself */
	socklen_t optlen = sizeof(int);
	int have = 0, want;

	if (getsockopt(h->fd, SOL_SOCKET, SO_SNDBUF, &have, &optlen) < 0)
		return ftnl_set_error(h, -errno, "cannot read SO_SNDBUF: %s",
				      strerror(errno));
	if (have > 0 && (size_t)have >= need)
		return 0;
	if (need > INT_MAX)
		goto too_big;

	/* The kernel doubles what it is given; ask for the full size anyway. */
	want = (int)need;
	if (setsockopt(h->fd, SOL_SOCKET, SO_SNDBUFFORCE, &want, sizeof(want)))
		setsockopt(h->fd, SOL_SOCKET, SO_SNDBUF, &want, sizeof(want));
	optlen = sizeof(int);
	if (getsockopt(h->fd, SOL_SOCKET, SO_SNDBUF, &have, &optlen) < 0)
		return ftnl_set_error(h, -errno, "cannot read SO_SNDBUF: %s",
				      strerror(errno));
	if (have > 0 && (size_t)have >= need)
		return 0;
too_big:
	return ftnl_set_error(h, -EMSGSIZE,
			      "request of %zu bytes does not fit the socket send buffer (%d bytes); raise net.core.wmem_max or run with CAP_NET_ADMIN",
			      len, have);
}

static int ftnl_send(struct ftnl_handle *h, const struct nlmsghdr *req)
{
	ssize_t n;

	if (h->nl)
		n = mnl_socket_sendto(h->nl, req, req->nlmsg_len);
	else
		n = send(h->fd, req, req->nlmsg_len, 0);
	if (n < 0)
		return ftnl_set_error(h, -errno, "cannot send the request: %s",
				      strerror(errno));
	if ((size_t)n != req->nlmsg_len)
		return ftnl_set_error(h, -EIO, "request sent partially");
	return 0;
}

/* State of one request while its replies arrive. */
struct ftnl_exchange {
	struct ftnl_handle *h;
	const struct nlmsghdr *req;
	ftnl_reply_fn reply_fn;
	void *arg;
	bool dump;
	bool done;
	bool interrupted;	/* NLM_F_DUMP_INTR seen */
	int kernel_err;		/* from NLMSG_ERROR / NLMSG_DONE */
	int reply_err;		/* first error of @reply_fn */
};

static void ftnl_exchange_ack(struct ftnl_exchange *x, const struct ftnl_ack *ack)
{
	struct ftnl_handle *h = x->h;

	x->done = true;
	if (!ack->error)
		return;
	x->kernel_err = ack->error;
	if (ack->msg && ack->msg[0])
		ftnl_set_error(h, ack->error, "%s", ack->msg);
	else
		ftnl_set_error(h, ack->error, NULL);
	if (!ftnl_locate_error(x->req, ack, &h->error_attr))
		h->has_error_attr = true;
}

/* Handle one message of a datagram. */
static void ftnl_exchange_msg(struct ftnl_exchange *x, const struct nlmsghdr *nlh)
{
	struct ftnl_handle *h = x->h;
	struct ftnl_ack ack;
	int err;

	/* Leftovers of an earlier request (never expected, but harmless). */
	if (nlh->nlmsg_seq != x->req->nlmsg_seq ||
	    (nlh->nlmsg_pid && nlh->nlmsg_pid != h->portid))
		return;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		x->interrupted = true;

	switch (nlh->nlmsg_type) {
	case NLMSG_NOOP:
		return;
	case NLMSG_ERROR:
		if (ftnl_msg_parse_ack(nlh, &ack)) {
			x->done = true;
			x->kernel_err = ftnl_set_error(h, -EBADMSG,
						       "malformed acknowledgement from the kernel");
			return;
		}
		/* A dump ends with NLMSG_DONE; an ack only ends it on error. */
		if (!ack.error && x->dump)
			return;
		ftnl_exchange_ack(x, &ack);
		return;
	case NLMSG_DONE:
		if (!x->dump)
			return;
		if (ftnl_msg_parse_done(nlh, &ack)) {
			x->done = true;
			x->kernel_err = ftnl_set_error(h, -EBADMSG,
						       "malformed end of dump from the kernel");
			return;
		}
		ftnl_exchange_ack(x, &ack);
		return;
	case NLMSG_OVERRUN:
		x->done = true;
		x->kernel_err = ftnl_set_error(h, -EIO, "netlink overrun");
		return;
	}

	if (nlh->nlmsg_type != x->req->nlmsg_type || x->reply_err)
		return;
	err = x->reply_fn ? x->reply_fn(nlh, x->arg) : 0;
	if (err) {
		x->reply_err = err;
		if (!h->errmsg[0] && err == -EBADMSG)
			ftnl_set_error(h, err, "malformed reply from the kernel");
	}
}

/**
 * ftnl_request() - send a request and consume its whole reply
 * @h: the handle
 * @req: the request: nlmsg_type is the family, nlmsg_flags say do
 *	(NLM_F_ACK, which must be set) or dump (NLM_F_DUMP); the sequence
 *	number is assigned here
 * @reply_fn: called for each reply message of @req's family, or NULL
 * @arg: passed to @reply_fn
 *
 * Blocks until the kernel's ack (for a do) or NLMSG_DONE (for a dump), so
 * that the socket holds nothing of this request afterwards, even when
 * @reply_fn or the kernel failed half-way.
 *
 * Return: 0; the kernel's error; else the first error of @reply_fn; else
 * -EINTR if the dump was flagged interrupted; a socket error. The handle's
 * error message and blamed attribute are updated accordingly.
 */
int ftnl_request(struct ftnl_handle *h, struct nlmsghdr *req,
		 ftnl_reply_fn reply_fn, void *arg)
{
	struct ftnl_exchange x = {
		.h = h,
		.req = req,
		.reply_fn = reply_fn,
		.arg = arg,
		.dump = (req->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP,
	};
	int err;

	ftnl_clear_error(h);
	req->nlmsg_seq = ++h->seq;
	req->nlmsg_pid = 0;
	err = ftnl_send(h, req);
	if (err)
		return err;

	while (!x.done) {
		const struct nlmsghdr *nlh;
		ssize_t n;
		int left;

		n = ftnl_recv_datagram(h->fd, &h->rx, 0, h->recv_fn);
		if (n < 0)
			return ftnl_set_error(h, (int)n,
					      "cannot receive the reply: %s",
					      strerror((int)-n));
		left = (int)n;
		for (nlh = (const struct nlmsghdr *)h->rx.data;
		     mnl_nlmsg_ok(nlh, left) && !x.done;
		     nlh = mnl_nlmsg_next(nlh, &left))
			ftnl_exchange_msg(&x, nlh);
	}

	if (x.kernel_err)
		return x.kernel_err;
	if (x.reply_err) {
		if (!h->errmsg[0])
			ftnl_set_error(h, x.reply_err, NULL);
		h->last_err = x.reply_err;
		return x.reply_err;
	}
	if (x.interrupted)
		return ftnl_set_error(h, -EINTR,
				      "dump interrupted by a concurrent configuration change");
	return 0;
}
