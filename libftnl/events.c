// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Events: a non-blocking socket subscribed to the "events" multicast group,
 * read one event at a time. Readiness is the caller's business (poll,
 * epoll, or ftnl_events_wait()); nothing here ever waits or spins.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

_Static_assert(sizeof(struct ftnl_event) == 256,
	       "struct ftnl_event is ABI: its size must not change");

/* Receive buffer to ask for: room for bursts of notifications. */
#define FTNL_EVENTS_RCVBUF	(1 << 20)

/**
 * struct ftnl_events - a subscription to the "events" group
 * @nl: the libmnl socket; NULL when wrapping a test socket
 * @fd: the socket descriptor, non-blocking
 * @family_id: messages of other types are skipped
 * @rx: the last datagram received
 * @rx_len: its length
 * @rx_off: offset of its next unread message
 * @recv_fn: recvmsg(2) or a test's replacement
 */
struct ftnl_events {
	struct mnl_socket *nl;
	int fd;
	uint16_t family_id;
	struct ftnl_rxbuf rx;
	size_t rx_len;
	size_t rx_off;
	ftnl_recvmsg_fn recv_fn;
};

static struct ftnl_events *ftnl_events_alloc(void)
{
	struct ftnl_events *ev = calloc(1, sizeof(*ev));

	if (!ev)
		return NULL;
	ev->fd = -1;
	ev->recv_fn = recvmsg;
	if (ftnl_rxbuf_init(&ev->rx)) {
		free(ev);
		return NULL;
	}
	return ev;
}

FTNL_EXPORT void ftnl_events_close(struct ftnl_events *ev)
{
	if (!ev)
		return;
	if (ev->nl)
		mnl_socket_close(ev->nl);
	ftnl_rxbuf_free(&ev->rx);
	free(ev);
}

/**
 * ftnl_events_wrap_fd() - a subscription over a test socket
 * @fd: a datagram socket the test writes notifications to; not closed by
 *	ftnl_events_close()
 * @family_id: family id of the notifications
 * @recv_fn: recvmsg replacement, or NULL for recvmsg(2)
 * @events: set to the subscription
 *
 * Return: 0 or -ENOMEM.
 */
int ftnl_events_wrap_fd(int fd, uint16_t family_id, ftnl_recvmsg_fn recv_fn,
			struct ftnl_events **events)
{
	struct ftnl_events *ev = ftnl_events_alloc();

	if (!ev)
		return -ENOMEM;
	ev->fd = fd;
	ev->family_id = family_id;
	if (recv_fn)
		ev->recv_fn = recv_fn;
	*events = ev;
	return 0;
}

FTNL_EXPORT int ftnl_events_open(struct ftnl_events **events)
{
	struct ftnl_handle *h;
	struct ftnl_events *ev;
	uint32_t group;
	int size = FTNL_EVENTS_RCVBUF;
	int err;

	/* A short-lived handle resolves the family and group ids. */
	err = ftnl_open(&h);
	if (err)
		return err;
	group = h->events_group;
	ev = ftnl_events_alloc();
	if (!ev) {
		ftnl_close(h);
		return -ENOMEM;
	}
	ev->family_id = h->family_id;
	ftnl_close(h);
	if (!group) {
		err = -EOPNOTSUPP;
		goto err_free;
	}

	ev->nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (!ev->nl || mnl_socket_bind(ev->nl, 0, MNL_SOCKET_AUTOPID) < 0)
		goto err_errno;
	ev->fd = mnl_socket_get_fd(ev->nl);
	if (setsockopt(ev->fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(ev->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (mnl_socket_setsockopt(ev->nl, NETLINK_ADD_MEMBERSHIP, &group,
				  sizeof(group)))
		goto err_errno;
	*events = ev;
	return 0;

err_errno:
	err = -errno;
err_free:
	ftnl_events_close(ev);
	return err;
}

FTNL_EXPORT const char *ftnl_event_cause_name(unsigned int cause)
{
	switch (cause) {
	case FTNL_CAUSE_OBSERVED:
		return "observed";
	case FTNL_CAUSE_BROADCAST:
		return "broadcast";
	case FTNL_CAUSE_LEAVE:
		return "leave";
	case FTNL_CAUSE_RESTARTED:
		return "restarted";
	}
	return "unknown";
}

FTNL_EXPORT const char *ftnl_expel_reason_name(unsigned int reason)
{
	switch (reason) {
	case FTNL_EXPEL_TOLD:
		return "told";
	case FTNL_EXPEL_BROADCAST:
		return "broadcast";
	case FTNL_EXPEL_QUORUM:
		return "quorum";
	case FTNL_EXPEL_DEAF:
		return "deaf";
	}
	return "unknown";
}

FTNL_EXPORT int ftnl_events_fd(const struct ftnl_events *ev)
{
	return ev->fd;
}

static uint64_t ftnl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Attributes of FTNL_CMD_PROC_EXIT_NTF, and the required ones seen. */
struct ftnl_proc_exit_parse {
	struct ftnl_event_proc_exit *pe;
	uint64_t *seq;
	bool has_job;
	bool has_rank;
	bool has_node_id;
};

static int ftnl_proc_exit_attr(const struct nlattr *attr, void *arg)
{
	struct ftnl_proc_exit_parse *p = arg;
	struct ftnl_event_proc_exit *pe = p->pe;
	uint8_t cause = 0;
	int err;

	switch (mnl_attr_get_type(attr)) {
	case FTNL_A_PROC_JOB:
		p->has_job = true;
		return ftnl_attr_u64(attr, &pe->job);
	case FTNL_A_PROC_RANK:
		p->has_rank = true;
		return ftnl_attr_u32(attr, &pe->rank);
	case FTNL_A_EVENT_NODE_ID:
		p->has_node_id = true;
		return ftnl_attr_u32(attr, &pe->node_id);
	case FTNL_A_EVENT_CAUSE:
		err = ftnl_attr_u8(attr, &cause);
		pe->cause = cause;
		return err;
	case FTNL_A_CLUSTER_ID:
		return ftnl_attr_u32(attr, &pe->cluster_id);
	case FTNL_A_EVENT_TIME_MONO_NS:
		return ftnl_attr_u64(attr, &pe->time_mono_ns);
	case FTNL_A_EVENT_TIME_REAL_NS:
		return ftnl_attr_u64(attr, &pe->time_real_ns);
	case FTNL_A_EVENT_NODE_NAME:
		return ftnl_attr_node_name(attr, pe->node_name);
	case FTNL_A_PROC_OWNER_UID:
		pe->has_owner = true;
		return ftnl_attr_u32(attr, &pe->owner_uid);
	case FTNL_A_EVENT_SEQ:
		return ftnl_attr_u64(attr, p->seq);
	}
	return 0;	/* padding, or a newer module's attribute */
}

/*
 * A message read as notification @cmd into @event: FTNL_CMD_PROC_EXIT_NTF
 * here, the others by ftnl_msg_parse_event_as(). Return: 0, or -EBADMSG if
 * malformed (a process exit without its job, rank or node, or an
 * attribute of the wrong size).
 */
static int ftnl_events_parse_as(const struct nlmsghdr *nlh, uint8_t cmd,
				struct ftnl_event *event)
{
	struct ftnl_proc_exit_parse p;
	int err;

	if (cmd != FTNL_CMD_PROC_EXIT_NTF)
		return ftnl_msg_parse_event_as(nlh, cmd, event);

	memset(event, 0, sizeof(*event));
	if (nlh->nlmsg_len < FTNL_GENL_HDRLEN)
		return -EBADMSG;
	event->type = FTNL_EVENT_PROC_EXIT;
	p = (struct ftnl_proc_exit_parse){ .pe = &event->proc_exit,
					   .seq = &event->seq };
	err = ftnl_genl_walk(nlh, ftnl_proc_exit_attr, &p);
	if (err)
		return err;
	return p.has_job && p.has_rank && p.has_node_id ? 0 : -EBADMSG;
}

/* A notification into @event. */
static int ftnl_events_parse(const struct nlmsghdr *nlh,
			     struct ftnl_event *event)
{
	const struct genlmsghdr *genl;

	if (nlh->nlmsg_len < FTNL_GENL_HDRLEN)
		return -EBADMSG;
	genl = mnl_nlmsg_get_payload(nlh);
	return ftnl_events_parse_as(nlh, genl->cmd, event);
}

/* Next message of the current datagram, or NULL when it is used up. */
static const struct nlmsghdr *ftnl_events_next_msg(struct ftnl_events *ev)
{
	const struct nlmsghdr *nlh;
	size_t left = ev->rx_len - ev->rx_off;

	if (!left)
		return NULL;
	nlh = (const struct nlmsghdr *)(ev->rx.data + ev->rx_off);
	if (!mnl_nlmsg_ok(nlh, (int)left)) {
		ev->rx_off = ev->rx_len;	/* garbage: drop the rest */
		return NULL;
	}
	ev->rx_off += MNL_ALIGN(nlh->nlmsg_len);
	if (ev->rx_off > ev->rx_len)
		ev->rx_off = ev->rx_len;
	return nlh;
}

FTNL_EXPORT int ftnl_events_read(struct ftnl_events *ev,
				 struct ftnl_event *event)
{
	for (;;) {
		const struct nlmsghdr *nlh;
		ssize_t n;

		while ((nlh = ftnl_events_next_msg(ev))) {
			/* Skip what is not ours, and malformed messages. */
			if (nlh->nlmsg_type != ev->family_id ||
			    ftnl_events_parse(nlh, event))
				continue;
			event->received_ns = ftnl_now_ns();
			return 1;
		}

		n = ftnl_recv_datagram(ev->fd, &ev->rx, MSG_DONTWAIT,
				       ev->recv_fn);
		if (n == -EAGAIN)
			return 0;
		if (n == -ENOBUFS) {
			memset(event, 0, sizeof(*event));
			event->type = FTNL_EVENT_OVERRUN;
			event->received_ns = ftnl_now_ns();
			return 1;
		}
		if (n < 0)
			return (int)n;
		ev->rx_len = (size_t)n;
		ev->rx_off = 0;
	}
}

FTNL_EXPORT int ftnl_events_wait(struct ftnl_events *ev, int timeout_ms)
{
	struct pollfd pfd = { .fd = ev->fd, .events = POLLIN };
	int n;

	/* Messages already read from the socket are pending too. */
	if (ev->rx_off < ev->rx_len)
		return 1;
	n = poll(&pfd, 1, timeout_ms);
	if (n < 0)
		return -errno;
	return n > 0 ? 1 : 0;
}

/* ---- the history (FTNL_CMD_EVENT_GET) ------------------------------------ */

struct ftnl_history_state {
	ftnl_event_cb cb;
	void *arg;
	int cb_err;		/* the callback's stop value */
};

static int ftnl_history_ntf_cmd(const struct nlattr *attr, void *arg)
{
	if (mnl_attr_get_type(attr) != FTNL_A_EVENT_NTF_CMD)
		return 0;
	return ftnl_attr_u8(attr, arg);
}

/* One event of the dump: read as the notification it was multicast as. */
static int ftnl_history_reply(const struct nlmsghdr *nlh, void *arg)
{
	struct ftnl_history_state *s = arg;
	struct ftnl_event event;
	uint8_t cmd = 0;
	int err;

	err = ftnl_genl_walk(nlh, ftnl_history_ntf_cmd, &cmd);
	if (err)
		return err;
	if (!cmd)
		return -EBADMSG;
	err = ftnl_events_parse_as(nlh, cmd, &event);
	if (err)
		return err;
	if (!event.seq)
		return -EBADMSG;
	if (s->cb_err)
		return 0;	/* read on, deliver no more */
	event.received_ns = ftnl_now_ns();
	s->cb_err = s->cb(&event, s->arg);
	return 0;
}

FTNL_EXPORT int ftnl_event_history(struct ftnl_handle *h, uint64_t after_seq,
				   ftnl_event_cb cb, void *arg)
{
	char buf[FTNL_GENL_HDRLEN + MNL_ALIGN(sizeof(struct nlattr)) +
		 MNL_ALIGN(sizeof(uint64_t))] __attribute__((aligned(4)));
	struct ftnl_history_state s = { .cb = cb, .arg = arg };
	struct nlmsghdr *req;
	int err;

	req = ftnl_msg_start(buf, h->family_id, NLM_F_REQUEST | NLM_F_DUMP,
			     FTNL_CMD_EVENT_GET, FTNL_FAMILY_VERSION);
	if (after_seq)
		mnl_attr_put_u64(req, FTNL_A_EVENT_AFTER_SEQ, after_seq);
	err = ftnl_request(h, req, ftnl_history_reply, &s);
	/* The kernel's extack message stays: it says what happened. */
	if (err == -EINVAL && after_seq)
		return -ESTALE;
	if (err)
		return err;
	return s.cb_err;
}
