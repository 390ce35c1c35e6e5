// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The TCP transport of a process group (see transport.h for the model and
 * Documentation/libftnl-group-internals.rst for the wire format).
 *
 * Per destination rank a struct grp_peer, allocated on first use, holds
 * the outgoing connection and its FIFO of whole frames. Accepted
 * connections are struct grp_conn. Both embed the struct grp_source the
 * group's epoll loop hands back.
 *
 * Lifetime rule: the loop dispatches a batch of epoll events, and handling
 * one event may close another connection whose event is still in the
 * batch. So a source is never freed while the transport lives unless it
 * is handling its own event: peers are kept (a dead peer keeps an empty
 * struct), and an accepted connection closed from elsewhere (its rank
 * died) becomes a small zombie with fd -1, freed at close. A stale event
 * finds fd -1 and is ignored.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "era/msg.h"
#include "group/loop.h"
#include "group/transport.h"
#include "group/hello.h"

#define GRP_RETRY_MIN_NS	(10ull * 1000 * 1000)	/* first retry delay */
#define GRP_RETRY_MAX_NS	(1000ull * 1000 * 1000)	/* delay cap */
/* accept() out of descriptors: stop listening this long, not spin. */
#define GRP_LISTEN_PAUSE_NS	(100ull * 1000 * 1000)
#define GRP_RX_CHUNK		65536	/* default input buffer */
#define GRP_RX_READS		16	/* reads per event, for fairness */
#define GRP_TX_IOV		64	/* frames per sendmsg() */
#define GRP_ACCEPTS		64	/* accepts per event, for fairness */

struct grp_frame {
	struct grp_frame *next;
	size_t len;
	uint8_t data[];
};

enum grp_out_state {
	GRP_OUT_IDLE,		/* no connection, nothing to send */
	GRP_OUT_CONNECTING,	/* connect() in progress */
	GRP_OUT_CONNECTED,
	GRP_OUT_BACKOFF,	/* waiting for the retry timer */
	GRP_OUT_DEAD,		/* the rank is dead: nothing, ever */
};

struct grp_conn;

/**
 * struct grp_peer - one destination rank
 * @src: the outgoing connection's epoll source
 * @t: the transport
 * @rank: world rank
 * @fd: outgoing socket, -1 when none
 * @state: enum grp_out_state
 * @events: epoll events @fd is registered with
 * @hello_off: bytes of the hello written on this connection
 * @head: oldest queued frame; @head_off of its bytes are written
 * @tail: newest queued frame
 * @head_off: see @head
 * @retry_delay_ns: the next backoff delay
 * @retry_at_ns: CLOCK_MONOTONIC deadline in GRP_OUT_BACKOFF
 * @connected_at_ns: when the current connection was established
 * @backoff_prev: in the transport's backoff list
 * @backoff_next: in the transport's backoff list
 * @incoming: accepted connections whose hello named this rank
 */
struct grp_peer {
	struct grp_source src;
	struct grp_transport *t;
	uint32_t rank;
	int fd;
	enum grp_out_state state;
	uint32_t events;
	size_t hello_off;
	struct grp_frame *head, *tail;
	size_t head_off;
	uint64_t retry_delay_ns;
	uint64_t retry_at_ns;
	uint64_t connected_at_ns;
	struct grp_peer *backoff_prev, *backoff_next;
	struct grp_conn *incoming;
};

/**
 * struct grp_conn - an accepted connection
 * @src: its epoll source
 * @t: the transport
 * @fd: the socket, -1 once closed
 * @rank: sender rank from the hello, GRP_NO_RANK before
 * @in_dispatch: a frame of @buf is being handed to on_frame
 * @buf: input bytes, @len of @cap used
 * @len: see @buf
 * @cap: see @buf
 * @need: length of the frame being assembled, once known
 * @prev: in the transport's list of open connections
 * @next: in that list, or in the zombie list once closed from outside
 * @peer_next: in the sender's &grp_peer.incoming
 */
struct grp_conn {
	struct grp_source src;
	struct grp_transport *t;
	int fd;
	uint32_t rank;
	bool in_dispatch;
	uint8_t *buf;
	size_t len, cap, need;
	struct grp_conn *prev, *next;
	struct grp_conn *peer_next;
};

#define GRP_NO_RANK UINT32_MAX

struct grp_transport {
	const struct ftnl_group_spec *spec;
	int epfd;
	int listen_fd;
	int timer_fd;
	struct grp_source listen_src;
	struct grp_source timer_src;
	grp_frame_fn on_frame;
	void *ctx;
	struct grp_peer **peers;	/* spec->size, allocated lazily */
	uint8_t *dead;			/* bitmap of ranks declared dead */
	struct grp_peer *backoff;	/* peers waiting for the timer */
	struct grp_conn *conns;		/* open accepted connections */
	struct grp_conn *zombies;	/* closed from outside their event */
	uint8_t hello[GRP_HELLO_LEN];	/* all but the receiver rank */
	bool listen_paused;
	uint64_t listen_resume_ns;
	uint64_t timer_at_ns;		/* armed deadline, 0: disarmed */
	struct grp_transport_stats stats;
};

static uint64_t grp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool grp_is_dead(const struct grp_transport *t, uint32_t rank)
{
	return t->dead[rank / 8] & (1u << (rank % 8));
}

static socklen_t grp_sockaddr(const struct ftnl_group_peer *peer,
			      struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (peer->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		sin->sin_port = htons(peer->port);
		sin->sin_addr = peer->addr.v4;
		return sizeof(*sin);
	}
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons(peer->port);
	sin6->sin6_addr = peer->addr.v6;
	return sizeof(*sin6);
}

/* ---- the retry timer ------------------------------------------------- */

static void grp_timer_arm(struct grp_transport *t, uint64_t at_ns)
{
	struct itimerspec its = { 0 };

	if (at_ns) {
		its.it_value.tv_sec = (time_t)(at_ns / 1000000000ull);
		its.it_value.tv_nsec = (long)(at_ns % 1000000000ull);
	}
	/* Cannot fail with valid arguments; a deadline in the past fires. */
	timerfd_settime(t->timer_fd, TFD_TIMER_ABSTIME, &its, NULL);
	t->timer_at_ns = at_ns;
}

/* A new deadline: the timer only ever needs moving earlier here. */
static void grp_timer_need(struct grp_transport *t, uint64_t at_ns)
{
	if (!t->timer_at_ns || at_ns < t->timer_at_ns)
		grp_timer_arm(t, at_ns);
}

static void grp_backoff_unlink(struct grp_peer *p)
{
	struct grp_transport *t = p->t;

	if (p->backoff_prev)
		p->backoff_prev->backoff_next = p->backoff_next;
	else if (t->backoff == p)
		t->backoff = p->backoff_next;
	if (p->backoff_next)
		p->backoff_next->backoff_prev = p->backoff_prev;
	p->backoff_prev = p->backoff_next = NULL;
}

/* ---- outgoing connections -------------------------------------------- */

static void grp_out_flush(struct grp_peer *p);

static void grp_out_set_events(struct grp_peer *p, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = &p->src };

	if (p->events == events)
		return;
	/* MOD of a registered socket only fails on a bug: nothing to undo. */
	epoll_ctl(p->t->epfd, EPOLL_CTL_MOD, p->fd, &ev);
	p->events = events;
}

static void grp_out_close_socket(struct grp_peer *p)
{
	if (p->fd < 0)
		return;
	epoll_ctl(p->t->epfd, EPOLL_CTL_DEL, p->fd, NULL);
	close(p->fd);
	p->fd = -1;
	p->events = 0;
}

/*
 * The connection failed or broke: retry later if something is queued.
 * The frame being written restarts from its beginning on the next
 * connection (the receiver discards a partial frame), so none is torn
 * or duplicated.
 */
static void grp_out_retry_later(struct grp_peer *p, bool attempt_failed)
{
	struct grp_transport *t = p->t;
	uint64_t now = grp_now_ns();

	if (p->state == GRP_OUT_CONNECTED &&
	    now - p->connected_at_ns >= GRP_RETRY_MAX_NS)
		p->retry_delay_ns = GRP_RETRY_MIN_NS;	/* it had worked */
	grp_out_close_socket(p);
	p->head_off = 0;
	p->hello_off = 0;
	if (!p->head) {
		p->state = GRP_OUT_IDLE;	/* reconnect on the next send */
		return;
	}
	if (attempt_failed)
		t->stats.connect_retries++;
	p->state = GRP_OUT_BACKOFF;
	p->retry_at_ns = now + p->retry_delay_ns;
	p->retry_delay_ns *= 2;
	if (p->retry_delay_ns > GRP_RETRY_MAX_NS)
		p->retry_delay_ns = GRP_RETRY_MAX_NS;
	p->backoff_prev = NULL;
	p->backoff_next = t->backoff;
	if (t->backoff)
		t->backoff->backoff_prev = p;
	t->backoff = p;
	grp_timer_need(t, p->retry_at_ns);
}

static void grp_out_connect(struct grp_peer *p)
{
	struct grp_transport *t = p->t;
	const struct ftnl_group_peer *dst = &t->spec->peers[p->rank];
	struct epoll_event ev = {
		.events = EPOLLIN | EPOLLRDHUP | EPOLLOUT,
		.data.ptr = &p->src,
	};
	struct sockaddr_storage ss;
	socklen_t sslen = grp_sockaddr(dst, &ss);
	int one = 1;

	p->state = GRP_OUT_CONNECTING;
	p->fd = socket(dst->family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		       0);
	if (p->fd < 0)
		goto failed;
	/* Agreement latency is a chain of small messages: no Nagle delay. */
	setsockopt(p->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(p->fd, (struct sockaddr *)&ss, sslen) && errno != EINPROGRESS)
		goto failed_close;
	/* Writable once connected (or failed): EPOLLOUT tells either way. */
	if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, p->fd, &ev))
		goto failed_close;
	p->events = ev.events;
	return;

failed_close:
	close(p->fd);
	p->fd = -1;
failed:
	grp_out_retry_later(p, true);
}

static void grp_out_established(struct grp_peer *p)
{
	p->state = GRP_OUT_CONNECTED;
	p->connected_at_ns = grp_now_ns();
	p->hello_off = 0;
	p->head_off = 0;
	p->t->stats.connects++;
	grp_out_flush(p);
}

/* Write the hello, then whole queued frames, as far as the socket takes. */
static void grp_out_flush(struct grp_peer *p)
{
	struct grp_transport *t = p->t;
	uint8_t hello[GRP_HELLO_LEN];

	memcpy(hello, t->hello, sizeof(hello));
	grp_wire_put_le32(hello + GRP_HELLO_TO_OFF, p->rank);
	while (p->hello_off < GRP_HELLO_LEN || p->head) {
		struct iovec iov[GRP_TX_IOV];
		struct msghdr msg = { .msg_iov = iov };
		struct grp_frame *f = p->head;
		size_t n = 0, off = p->head_off;
		ssize_t sent;

		if (p->hello_off < GRP_HELLO_LEN) {
			iov[n].iov_base = hello + p->hello_off;
			iov[n++].iov_len = GRP_HELLO_LEN - p->hello_off;
		}
		for (; f && n < GRP_TX_IOV; f = f->next, off = 0) {
			iov[n].iov_base = f->data + off;
			iov[n++].iov_len = f->len - off;
		}
		msg.msg_iovlen = n;
		sent = sendmsg(p->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (sent < 0 && errno == EINTR)
			continue;
		if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			grp_out_set_events(p, EPOLLIN | EPOLLRDHUP | EPOLLOUT);
			return;
		}
		if (sent < 0) {
			grp_out_retry_later(p, false);
			return;
		}
		t->stats.bytes_sent += (uint64_t)sent;
		if (p->hello_off < GRP_HELLO_LEN) {
			size_t h = GRP_HELLO_LEN - p->hello_off;

			h = (size_t)sent < h ? (size_t)sent : h;
			p->hello_off += h;
			sent -= (ssize_t)h;
		}
		while (sent > 0) {
			size_t left = p->head->len - p->head_off;

			if ((size_t)sent < left) {
				p->head_off += (size_t)sent;
				break;
			}
			sent -= (ssize_t)left;
			f = p->head;
			p->head = f->next;
			if (!p->head)
				p->tail = NULL;
			p->head_off = 0;
			free(f);
			t->stats.frames_sent++;
		}
	}
	grp_out_set_events(p, EPOLLIN | EPOLLRDHUP);
}

/* Is a connect() that EPOLLOUT woke up for done, failed, or still going? */
static int grp_out_connect_result(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(int);
	int err = 0;

	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
		return -errno;
	if (err)
		return -err;
	len = sizeof(ss);
	if (getpeername(fd, (struct sockaddr *)&ss, &len))
		return errno == ENOTCONN ? -EINPROGRESS : -errno;
	return 0;
}

static void grp_out_ready(struct grp_source *src, uint32_t events)
{
	struct grp_peer *p = (struct grp_peer *)src;
	uint8_t junk[64];
	ssize_t n;
	int err;

	if (p->fd < 0)
		return;		/* closed while its event was pending */
	if (p->state == GRP_OUT_CONNECTING) {
		err = grp_out_connect_result(p->fd);
		if (err == -EINPROGRESS)
			return;
		if (err)
			grp_out_retry_later(p, true);
		else
			grp_out_established(p);
		return;
	}
	if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
		/* The peer never writes here: EOF, an error, or a violation. */
		n = recv(p->fd, junk, sizeof(junk), MSG_DONTWAIT);
		if (n > 0)
			p->t->stats.dropped++;
		if (n >= 0 || (errno != EAGAIN && errno != EINTR)) {
			grp_out_retry_later(p, false);
			return;
		}
	}
	if (events & EPOLLOUT)
		grp_out_flush(p);
}

static struct grp_peer *grp_peer_get(struct grp_transport *t, uint32_t rank)
{
	struct grp_peer *p = t->peers[rank];

	if (p)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->src.ready = grp_out_ready;
	p->t = t;
	p->rank = rank;
	p->fd = -1;
	p->retry_delay_ns = GRP_RETRY_MIN_NS;
	t->peers[rank] = p;
	return p;
}

static void grp_peer_drop_queue(struct grp_peer *p)
{
	while (p->head) {
		struct grp_frame *f = p->head;

		p->head = f->next;
		free(f);
	}
	p->tail = NULL;
	p->head_off = 0;
}

/* ---- accepted connections -------------------------------------------- */

static void grp_conn_unlink(struct grp_conn *c)
{
	struct grp_transport *t = c->t;

	if (c->prev)
		c->prev->next = c->next;
	else
		t->conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	c->prev = c->next = NULL;
	if (c->rank != GRP_NO_RANK && t->peers[c->rank]) {
		struct grp_conn **pp = &t->peers[c->rank]->incoming;

		while (*pp && *pp != c)
			pp = &(*pp)->peer_next;
		if (*pp)
			*pp = c->peer_next;
	}
	c->peer_next = NULL;
}

static void grp_conn_close_socket(struct grp_conn *c)
{
	epoll_ctl(c->t->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
}

/* From the connection's own event only: nothing else can refer to it. */
static void grp_conn_free(struct grp_conn *c)
{
	grp_conn_close_socket(c);
	grp_conn_unlink(c);
	free(c->buf);
	free(c);
}

/* From elsewhere: the struct stays, as a zombie, until the transport goes. */
static void grp_conn_kill(struct grp_conn *c)
{
	struct grp_transport *t = c->t;

	grp_conn_close_socket(c);
	grp_conn_unlink(c);
	if (!c->in_dispatch) {
		free(c->buf);
		c->buf = NULL;
		c->len = c->cap = 0;
	}
	c->next = t->zombies;
	t->zombies = c;
}

static bool grp_hello_ok(struct grp_transport *t, const uint8_t *h,
			 uint32_t *rank)
{
	uint32_t from = grp_wire_get_le32(h + GRP_HELLO_FROM_OFF);

	if (memcmp(h, GRP_HELLO_MAGIC, 4) ||
	    grp_wire_get_le16(h + GRP_HELLO_VERSION_OFF) != GRP_HELLO_VERSION ||
	    grp_wire_get_le16(h + GRP_HELLO_FLAGS_OFF) != 0 ||
	    grp_wire_get_le64(h + GRP_HELLO_JOB_OFF) != t->spec->job ||
	    grp_wire_get_le32(h + GRP_HELLO_TO_OFF) != t->spec->rank ||
	    from >= t->spec->size || from == t->spec->rank ||
	    grp_is_dead(t, from))
		return false;
	*rank = from;
	return true;
}

/*
 * Hand every whole frame in the buffer to on_frame. Return: false if the
 * connection is gone (closed for a violation, or killed by a callback).
 */
static bool grp_conn_deliver(struct grp_conn *c)
{
	struct grp_transport *t = c->t;
	size_t off = 0, flen;
	int err;

	if (c->rank == GRP_NO_RANK) {
		struct grp_peer *p;

		if (c->len < GRP_HELLO_LEN)
			return true;
		if (!grp_hello_ok(t, c->buf, &c->rank))
			goto violation;
		p = grp_peer_get(t, c->rank);
		if (!p) {
			c->rank = GRP_NO_RANK;
			grp_conn_free(c);	/* out of memory: refuse */
			return false;
		}
		c->peer_next = p->incoming;
		p->incoming = c;
		off = GRP_HELLO_LEN;
	}
	c->need = 0;
	for (;;) {
		err = era_msg_frame(c->buf + off, c->len - off, &flen);
		if (err == -EAGAIN)
			break;
		if (err)
			goto violation;
		if (c->len - off < flen) {
			c->need = flen;
			break;
		}
		c->in_dispatch = true;
		t->on_frame(t->ctx, c->rank, c->buf + off, flen);
		c->in_dispatch = false;
		t->stats.frames_received++;
		if (c->fd < 0) {	/* the callback declared the sender dead */
			free(c->buf);
			c->buf = NULL;
			c->len = c->cap = 0;
			return false;
		}
		off += flen;
	}
	memmove(c->buf, c->buf + off, c->len - off);
	c->len -= off;
	if (!c->len && c->cap > GRP_RX_CHUNK) {
		free(c->buf);	/* give back what a huge frame took */
		c->buf = NULL;
		c->cap = 0;
	}
	return true;

violation:
	t->stats.dropped++;
	grp_conn_free(c);
	return false;
}

static void grp_conn_ready(struct grp_source *src, uint32_t events)
{
	struct grp_conn *c = (struct grp_conn *)src;
	int reads;

	(void)events;
	if (c->fd < 0)
		return;		/* killed while its event was pending */
	for (reads = 0; reads < GRP_RX_READS; reads++) {
		size_t want = c->need > GRP_RX_CHUNK ? c->need : GRP_RX_CHUNK;
		ssize_t n;

		if (want <= c->len)	/* never recv() into no room: EOF */
			want = c->len + GRP_RX_CHUNK;

		if (c->cap < want) {
			uint8_t *bigger = realloc(c->buf, want);

			if (!bigger) {
				grp_conn_free(c);	/* cannot receive it */
				return;
			}
			c->buf = bigger;
			c->cap = want;
		}
		n = recv(c->fd, c->buf + c->len, c->cap - c->len, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			/* EOF or reset: a partial frame here is discarded. */
			grp_conn_free(c);
			return;
		}
		c->len += (size_t)n;
		if (!grp_conn_deliver(c))
			return;
	}
}

/* ---- listening and the timer ------------------------------------------ */

static void grp_listen_pause(struct grp_transport *t)
{
	struct epoll_event ev = { .events = 0, .data.ptr = &t->listen_src };

	epoll_ctl(t->epfd, EPOLL_CTL_MOD, t->listen_fd, &ev);
	t->listen_paused = true;
	t->listen_resume_ns = grp_now_ns() + GRP_LISTEN_PAUSE_NS;
	grp_timer_need(t, t->listen_resume_ns);
}

static void grp_listen_resume(struct grp_transport *t)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &t->listen_src };

	epoll_ctl(t->epfd, EPOLL_CTL_MOD, t->listen_fd, &ev);
	t->listen_paused = false;
}

static void grp_accept_one(struct grp_transport *t, int fd)
{
	struct grp_conn *c = calloc(1, sizeof(*c));
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP };

	if (!c) {
		close(fd);
		return;
	}
	c->src.ready = grp_conn_ready;
	c->t = t;
	c->fd = fd;
	c->rank = GRP_NO_RANK;
	ev.data.ptr = &c->src;
	if (epoll_ctl(t->epfd, EPOLL_CTL_ADD, fd, &ev)) {
		close(fd);
		free(c);
		return;
	}
	c->next = t->conns;
	if (t->conns)
		t->conns->prev = c;
	t->conns = c;
}

static void grp_listen_ready(struct grp_source *src, uint32_t events)
{
	struct grp_transport *t = (struct grp_transport *)
		((char *)src - offsetof(struct grp_transport, listen_src));
	int i;

	(void)events;
	for (i = 0; i < GRP_ACCEPTS; i++) {
		int fd = accept4(t->listen_fd, NULL, NULL,
				 SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd >= 0) {
			grp_accept_one(t, fd);
			continue;
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return;
		/* That connection's own trouble: go on with the next. */
		if (errno == EINTR || errno == ECONNABORTED || errno == EPROTO ||
		    errno == EPERM)
			continue;
		/* Out of descriptors or memory: retrying now would spin. */
		grp_listen_pause(t);
		return;
	}
}

static void grp_timer_ready(struct grp_source *src, uint32_t events)
{
	struct grp_transport *t = (struct grp_transport *)
		((char *)src - offsetof(struct grp_transport, timer_src));
	struct grp_peer *p, *next, *due = NULL;
	uint64_t expirations, now = grp_now_ns(), earliest = 0;

	(void)events;
	if (read(t->timer_fd, &expirations, sizeof(expirations)) < 0 &&
	    errno != EAGAIN)
		return;
	t->timer_at_ns = 0;
	if (t->listen_paused) {
		if (t->listen_resume_ns <= now)
			grp_listen_resume(t);
		else
			earliest = t->listen_resume_ns;
	}
	/* Collect the due peers first: connecting may re-enter the list. */
	for (p = t->backoff; p; p = next) {
		next = p->backoff_next;
		if (p->retry_at_ns > now) {
			if (!earliest || p->retry_at_ns < earliest)
				earliest = p->retry_at_ns;
			continue;
		}
		grp_backoff_unlink(p);
		p->backoff_next = due;
		due = p;
	}
	if (earliest)
		grp_timer_need(t, earliest);
	for (p = due; p; p = next) {
		next = p->backoff_next;
		p->backoff_next = NULL;
		grp_out_connect(p);
	}
}

/* ---- the API ------------------------------------------------------------ */

int grp_transport_open(const struct ftnl_group_spec *spec, int epfd,
		       grp_frame_fn on_frame, void *ctx,
		       struct grp_transport **out)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct grp_transport *t;
	struct sockaddr_storage ss;
	socklen_t sslen;
	int one = 1, err;

	if (!spec || !spec->peers || !spec->size || spec->rank >= spec->size ||
	    spec->size > FTNL_GROUP_MAX_SIZE || !on_frame)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->spec = spec;
	t->epfd = epfd;
	t->listen_fd = t->timer_fd = -1;
	t->on_frame = on_frame;
	t->ctx = ctx;
	t->listen_src.ready = grp_listen_ready;
	t->timer_src.ready = grp_timer_ready;
	t->peers = calloc(spec->size, sizeof(*t->peers));
	t->dead = calloc((spec->size + 7) / 8, 1);
	if (!t->peers || !t->dead) {
		err = -ENOMEM;
		goto fail;
	}
	grp_wire_hello(t->hello, spec->job, spec->rank, 0);

	sslen = grp_sockaddr(&spec->peers[spec->rank], &ss);
	t->listen_fd = socket(ss.ss_family,
			      SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (t->listen_fd < 0 ||
	    setsockopt(t->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one,
		       sizeof(one)) ||
	    bind(t->listen_fd, (struct sockaddr *)&ss, sslen) ||
	    listen(t->listen_fd, SOMAXCONN)) {
		err = -errno;
		goto fail;
	}
	t->timer_fd = timerfd_create(CLOCK_MONOTONIC,
				     TFD_NONBLOCK | TFD_CLOEXEC);
	if (t->timer_fd < 0) {
		err = -errno;
		goto fail;
	}
	ev.data.ptr = &t->listen_src;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, t->listen_fd, &ev)) {
		err = -errno;
		goto fail;
	}
	ev.data.ptr = &t->timer_src;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, t->timer_fd, &ev)) {
		err = -errno;
		epoll_ctl(epfd, EPOLL_CTL_DEL, t->listen_fd, NULL);
		goto fail;
	}
	*out = t;
	return 0;

fail:
	if (t->listen_fd >= 0)
		close(t->listen_fd);
	if (t->timer_fd >= 0)
		close(t->timer_fd);
	free(t->peers);
	free(t->dead);
	free(t);
	return err;
}

void grp_transport_close(struct grp_transport *t)
{
	uint32_t r;

	if (!t)
		return;
	while (t->conns)
		grp_conn_free(t->conns);
	while (t->zombies) {
		struct grp_conn *z = t->zombies;

		t->zombies = z->next;
		free(z->buf);
		free(z);
	}
	for (r = 0; r < t->spec->size; r++) {
		struct grp_peer *p = t->peers[r];

		if (!p)
			continue;
		grp_out_close_socket(p);
		grp_peer_drop_queue(p);
		free(p);
	}
	epoll_ctl(t->epfd, EPOLL_CTL_DEL, t->listen_fd, NULL);
	epoll_ctl(t->epfd, EPOLL_CTL_DEL, t->timer_fd, NULL);
	close(t->listen_fd);
	close(t->timer_fd);
	free(t->peers);
	free(t->dead);
	free(t);
}

int grp_transport_send(struct grp_transport *t, uint32_t to,
		       const uint8_t *buf, size_t len)
{
	struct grp_frame *f;
	struct grp_peer *p;
	size_t flen;
	bool was_empty;

	if (to >= t->spec->size || to == t->spec->rank)
		return -EINVAL;
	/* Only whole, well-framed messages: the receiver would drop others. */
	if (era_msg_frame(buf, len, &flen) || flen != len)
		return -EINVAL;
	if (grp_is_dead(t, to))
		return 0;
	p = grp_peer_get(t, to);
	if (!p)
		return -ENOMEM;
	f = malloc(sizeof(*f) + len);
	if (!f)
		return -ENOMEM;
	f->next = NULL;
	f->len = len;
	memcpy(f->data, buf, len);
	was_empty = !p->head;
	if (p->tail)
		p->tail->next = f;
	else
		p->head = f;
	p->tail = f;

	switch (p->state) {
	case GRP_OUT_IDLE:
		grp_out_connect(p);
		break;
	case GRP_OUT_CONNECTED:
		if (was_empty)	/* else EPOLLOUT is already awaited */
			grp_out_flush(p);
		break;
	default:
		break;		/* the connect or the timer will send it */
	}
	return 0;
}

void grp_transport_peer_dead(struct grp_transport *t, uint32_t rank)
{
	struct grp_peer *p;

	if (rank >= t->spec->size || rank == t->spec->rank)
		return;
	t->dead[rank / 8] |= (uint8_t)(1u << (rank % 8));
	p = t->peers[rank];
	if (!p)
		return;
	grp_out_close_socket(p);
	grp_backoff_unlink(p);	/* a stale timer wake-up is harmless */
	grp_peer_drop_queue(p);
	p->state = GRP_OUT_DEAD;
	while (p->incoming)
		grp_conn_kill(p->incoming);
}

void grp_transport_get_stats(const struct grp_transport *t,
			     struct grp_transport_stats *stats)
{
	*stats = t->stats;
}
