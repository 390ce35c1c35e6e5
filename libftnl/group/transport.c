// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The TCP transport of a process group (see transport.h for the model and
 * Documentation/libftnl-group-internals.rst for the wire format).
 *
 * Per destination rank a struct grp_peer, allocated on first use, holds
 * the outgoing connection and its FIFO of whole frames, kept until the
 * receiver acknowledges them, and, as a receiver, how many frames that
 * rank's connections delivered (the acks, hello.h). Accepted
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
#include "vall/msg.h"
#include "group/auth.h"
#include "group/loop.h"
#include "group/transport.h"
#include "group/hello.h"
#include "group/joinmsg.h"

#define GRP_RETRY_MIN_NS	(10ull * 1000 * 1000)	/* first retry delay */
#define GRP_RETRY_MAX_NS	(1000ull * 1000 * 1000)	/* delay cap */
/* accept() out of descriptors: stop listening this long, not spin. */
#define GRP_LISTEN_PAUSE_NS	(100ull * 1000 * 1000)
#define GRP_RX_CHUNK		65536	/* default input buffer */
#define GRP_RX_READS		16	/* reads per event, for fairness */
#define GRP_TX_IOV		64	/* frames per sendmsg() */
#define GRP_ACCEPTS		64	/* accepts per event, for fairness */
/* A receiver acks after this many frames, or this long after the first. */
#define GRP_ACK_EVERY		64
#define GRP_ACK_DELAY_NS	(10ull * 1000 * 1000)

/* @seq: number in its direction, from 1; @written: fully written once */
struct grp_frame {
	struct grp_frame *next;
	uint64_t seq;
	bool written;
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
 * @pre: what goes before the frames: the hello (and, with a key, the
 *	connector's nonce), later the connector's MAC
 * @pre_len: bytes in @pre
 * @pre_off: bytes of @pre written on this connection
 * @authed: frames may go (no key, or the acceptor proved the key)
 * @nonce_c: this connection's nonce, with a key
 * @reply: bytes from the acceptor as they arrive (its nonce and MAC,
 *	then ack records), @reply_len of them
 * @reply_len: see @reply
 * @synced: frames may go: nothing was in doubt when the connection was
 *	made, or the acceptor's first ack record said where to resume
 * @head: oldest frame not yet acknowledged
 * @tail: newest queued frame
 * @unsent: first frame not fully written on this connection (NULL: all
 *	are); @unsent_off of its bytes are
 * @unsent_off: see @unsent
 * @last_seq: the number of the newest frame queued (0: none yet)
 * @delivered: as a receiver, frames from this rank delivered so far
 * @retry_delay_ns: the next backoff delay
 * @retry_at_ns: CLOCK_MONOTONIC deadline in GRP_OUT_BACKOFF
 * @connected_at_ns: when the current connection was established
 * @backoff_prev: in the transport's backoff list
 * @backoff_next: in the transport's backoff list
 * @incoming: accepted connections whose hello named this rank
 * @inc: the incarnation of the rank's process these queues and counts
 *	are for (1 until a restarted process shows up)
 */
struct grp_peer {
	struct grp_source src;
	struct grp_transport *t;
	uint32_t rank;
	int fd;
	enum grp_out_state state;
	uint32_t events;
	uint8_t pre[GRP_HELLO_LEN + GRP_AUTH_NONCE_LEN];
	size_t pre_len, pre_off;
	bool authed;
	uint8_t nonce_c[GRP_AUTH_NONCE_LEN];
	uint8_t reply[GRP_AUTH_NONCE_LEN + GRP_AUTH_MAC_LEN];
	size_t reply_len;
	bool synced;
	struct grp_frame *head, *tail;
	struct grp_frame *unsent;
	size_t unsent_off;
	uint64_t last_seq;
	uint64_t delivered;
	uint64_t retry_delay_ns;
	uint64_t retry_at_ns;
	uint64_t connected_at_ns;
	struct grp_peer *backoff_prev, *backoff_next;
	struct grp_conn *incoming;
	uint32_t inc;
};

/**
 * struct grp_conn - an accepted connection
 * @src: its epoll source
 * @t: the transport
 * @fd: the socket, -1 once closed
 * @rank: sender rank from the hello, GRP_NO_RANK before
 * @in_dispatch: a frame of @buf is being handed to on_frame
 * @authed: with a key, the connector proved it; frames may be delivered
 * @hello: with a key, the hello received, for the MACs
 * @nonce_c: with a key, the connector's nonce
 * @nonce_a: with a key, this side's nonce
 * @buf: input bytes, @len of @cap used
 * @len: see @buf
 * @cap: see @buf
 * @need: length of the frame being assembled, once known
 * @prev: in the transport's list of open connections
 * @next: in that list, or in the zombie list once closed from outside
 * @peer_next: in the sender's &grp_peer.incoming
 * @next_seq: the number the next frame on this connection has
 * @unacked: frames delivered from this connection since its last ack
 * @ack_due_ns: when the pending ack goes, if @ack_queued
 * @ack_queued: in the transport's list of pending acks
 * @ack_prev: in that list
 * @ack_next: in that list
 */
struct grp_conn {
	struct grp_source src;
	struct grp_transport *t;
	int fd;
	uint32_t rank;
	bool in_dispatch;
	bool authed;
	uint8_t hello[GRP_HELLO_LEN];
	uint8_t nonce_c[GRP_AUTH_NONCE_LEN];
	uint8_t nonce_a[GRP_AUTH_NONCE_LEN];
	uint8_t *buf;
	size_t len, cap, need;
	struct grp_conn *prev, *next;
	struct grp_conn *peer_next;
	uint64_t next_seq;
	uint32_t unacked;
	uint64_t ack_due_ns;
	bool ack_queued;
	struct grp_conn *ack_prev, *ack_next;
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
	struct grp_conn *acks;		/* connections with an ack pending */
	uint8_t hello[GRP_HELLO_LEN];	/* all but the receiver rank */
	uint32_t inc;			/* this process's incarnation */
	bool listen_paused;
	uint64_t listen_resume_ns;
	uint64_t timer_at_ns;		/* armed deadline, 0: disarmed */
	struct grp_transport_stats stats;
};

/*
 * One message of either engine (ERA's or validate-all's): both begin
 * with a magic, a version, a type and the length.
 */
int grp_msg_frame(const uint8_t *buf, size_t avail, size_t *len)
{
	if (avail && buf[0] == 'V')		/* vall/msg.h: "VA" */
		return vall_msg_frame(buf, avail, len);
	if (avail && buf[0] == GRP_JOIN_MAGIC0)	/* joinmsg.h: "GJ" */
		return grp_join_msg_frame(buf, avail, len);
	return era_msg_frame(buf, avail, len);
}

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
 * The connection failed or broke: retry later if something is queued
 * (unacknowledged frames included). Frames restart from the oldest not
 * acknowledged, whole (the receiver discards a partial frame and drops
 * what it already delivered), so none is torn, lost or duplicated.
 */
static void grp_out_retry_later(struct grp_peer *p, bool attempt_failed)
{
	struct grp_transport *t = p->t;
	uint64_t now = grp_now_ns();

	if (p->state == GRP_OUT_CONNECTED &&
	    now - p->connected_at_ns >= GRP_RETRY_MAX_NS)
		p->retry_delay_ns = GRP_RETRY_MIN_NS;	/* it had worked */
	grp_out_close_socket(p);
	p->unsent = NULL;
	p->unsent_off = 0;
	p->synced = false;
	p->pre_off = p->pre_len = 0;
	p->authed = false;
	p->reply_len = 0;
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
	struct grp_transport *t = p->t;

	p->state = GRP_OUT_CONNECTED;
	p->connected_at_ns = grp_now_ns();
	/*
	 * Frames written before but not acknowledged: wait for the
	 * acceptor's first ack to resend exactly the missing ones. Else
	 * nothing is in doubt: send at once, from the oldest.
	 */
	p->synced = !(p->head && p->head->written);
	p->unsent = p->head;
	p->unsent_off = 0;
	p->pre_off = 0;
	p->reply_len = 0;
	memcpy(p->pre, t->hello, GRP_HELLO_LEN);
	bytes_put_le32(p->pre + GRP_HELLO_TO_OFF, p->rank);
	p->pre_len = GRP_HELLO_LEN;
	p->authed = !t->spec->has_key;
	if (t->spec->has_key) {
		/* The challenge for the acceptor; frames wait for its answer. */
		if (grp_auth_nonce(p->nonce_c)) {
			grp_out_retry_later(p, true);
			return;
		}
		memcpy(p->pre + GRP_HELLO_LEN, p->nonce_c, GRP_AUTH_NONCE_LEN);
		p->pre_len += GRP_AUTH_NONCE_LEN;
	}
	t->stats.connects++;
	grp_out_flush(p);
}

/*
 * Write the preamble (hello, nonce or MAC), then, once authenticated (and,
 * when resuming, once the acceptor said where it is), whole frames from
 * @unsent on, as far as the socket takes.
 * Written frames stay queued until acknowledged.
 */
static void grp_out_flush(struct grp_peer *p)
{
	struct grp_transport *t = p->t;

	while (p->pre_off < p->pre_len ||
	       (p->authed && p->synced && p->unsent)) {
		struct iovec iov[GRP_TX_IOV];
		struct msghdr msg = { .msg_iov = iov };
		struct grp_frame *f = p->authed && p->synced ? p->unsent : NULL;
		size_t n = 0, off = p->unsent_off;
		ssize_t sent;

		if (p->pre_off < p->pre_len) {
			iov[n].iov_base = p->pre + p->pre_off;
			iov[n++].iov_len = p->pre_len - p->pre_off;
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
		if (p->pre_off < p->pre_len) {
			size_t h = p->pre_len - p->pre_off;

			h = (size_t)sent < h ? (size_t)sent : h;
			p->pre_off += h;
			sent -= (ssize_t)h;
		}
		while (sent > 0) {
			size_t left = p->unsent->len - p->unsent_off;

			if ((size_t)sent < left) {
				p->unsent_off += (size_t)sent;
				break;
			}
			sent -= (ssize_t)left;
			f = p->unsent;
			if (!f->written) {
				f->written = true;
				t->stats.frames_sent++;
			}
			p->unsent = f->next;
			p->unsent_off = 0;
		}
	}
	grp_out_set_events(p, EPOLLIN | EPOLLRDHUP);
}

static void grp_out_pop(struct grp_peer *p)
{
	struct grp_frame *f = p->head;

	p->head = f->next;
	if (!p->head)
		p->tail = NULL;
	free(f);
}

static void grp_peer_new_incarnation(struct grp_peer *p, uint32_t inc,
				     struct grp_conn *keep);

/*
 * An ack record from the acceptor. The first on a connection says how
 * many frames it has: drop those, resend from the next one. Later ones
 * free what they cover (never the frame being written). Return: false
 * for a record that makes no sense.
 */
static bool grp_out_ack(struct grp_peer *p)
{
	uint64_t seq = bytes_get_le64(p->reply + GRP_ACK_SEQ_OFF);
	uint32_t inc = bytes_get_le32(p->reply + GRP_ACK_INC_OFF);

	if (memcmp(p->reply, GRP_ACK_MAGIC, 4) || inc < p->inc)
		return false;
	if (inc > p->inc) {
		/*
		 * A restarted process listens where the dead one did: all
		 * that was queued was for the dead one. Start over.
		 */
		grp_peer_new_incarnation(p, inc, NULL);
		return true;
	}
	if (seq > p->last_seq)
		return false;
	if (p->synced) {
		while (p->head && p->head != p->unsent && p->head->seq <= seq)
			grp_out_pop(p);
		return true;
	}
	while (p->head && p->head->seq <= seq)
		grp_out_pop(p);
	/* It must have every frame we no longer hold. */
	if ((p->head ? p->head->seq - 1 : p->last_seq) != seq)
		return false;
	p->unsent = p->head;
	p->unsent_off = 0;
	p->synced = true;
	grp_out_flush(p);
	return true;
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

/*
 * Read what the acceptor writes: with a key first its nonce and MAC (once
 * right, answer with ours), then ack records. Return: false if the
 * connection was given up (EOF, error, wrong MAC or record: retried).
 */
static bool grp_out_read(struct grp_peer *p)
{
	struct grp_transport *t = p->t;
	uint8_t mac[GRP_AUTH_MAC_LEN];

	for (;;) {
		size_t want = p->authed ? GRP_ACK_LEN : sizeof(p->reply);
		ssize_t n = recv(p->fd, p->reply + p->reply_len,
				 want - p->reply_len, MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return true;
		if (n <= 0) {
			/* Refused (the acceptor's key differs?) or broken. */
			grp_out_retry_later(p, !p->synced);
			return false;
		}
		p->reply_len += (size_t)n;
		if (p->reply_len < want)
			continue;
		p->reply_len = 0;
		if (p->authed) {
			if (!grp_out_ack(p))
				goto refuse;
			if (p->fd < 0)
				return false;
			continue;
		}
		/* An answer before our whole challenge went out is forged. */
		if (p->pre_off < p->pre_len)
			goto refuse;
		grp_auth_mac(t->spec->key, GRP_AUTH_ROLE_ACCEPTOR, p->pre,
			     p->nonce_c, p->reply, mac);
		if (!grp_auth_equal(mac, p->reply + GRP_AUTH_NONCE_LEN,
				    sizeof(mac)))
			goto refuse;
		grp_auth_mac(t->spec->key, GRP_AUTH_ROLE_CONNECTOR, p->pre,
			     p->nonce_c, p->reply, mac);
		memcpy(p->pre, mac, sizeof(mac));
		p->pre_len = sizeof(mac);
		p->pre_off = 0;
		p->authed = true;
		explicit_bzero(mac, sizeof(mac));
		grp_out_flush(p);
		if (p->fd < 0)
			return false;
	}

refuse:
	t->stats.dropped++;
	grp_out_retry_later(p, true);
	return false;
}

static void grp_out_ready(struct grp_source *src, uint32_t events)
{
	struct grp_peer *p = (struct grp_peer *)src;
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
		if (!grp_out_read(p))
			return;
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
	p->inc = 1;
	t->peers[rank] = p;
	return p;
}

static void grp_peer_drop_queue(struct grp_peer *p)
{
	while (p->head)
		grp_out_pop(p);
	p->unsent = NULL;
	p->unsent_off = 0;
}

static void grp_conn_kill(struct grp_conn *c);

/*
 * Rank @p restarted: incarnation @inc replaces the one @p served. What was
 * queued for the old process, and the counts of both directions, go; the
 * old process's connections close (@keep, the new one's, stays); the rank
 * is alive again. The next frame for it opens a new connection.
 */
static void grp_peer_new_incarnation(struct grp_peer *p, uint32_t inc,
				     struct grp_conn *keep)
{
	struct grp_transport *t = p->t;
	struct grp_conn **pp = &p->incoming;

	grp_out_close_socket(p);
	grp_backoff_unlink(p);
	grp_peer_drop_queue(p);
	p->state = GRP_OUT_IDLE;
	p->last_seq = 0;
	p->delivered = 0;
	p->retry_delay_ns = GRP_RETRY_MIN_NS;
	p->inc = inc;
	t->dead[p->rank / 8] &= (uint8_t)~(1u << (p->rank % 8));
	while (*pp) {
		if (*pp == keep) {
			pp = &(*pp)->peer_next;
			continue;
		}
		grp_conn_kill(*pp);	/* unlinks it from the list */
	}
}

/* ---- accepted connections -------------------------------------------- */

static void grp_conn_ack_unlink(struct grp_conn *c)
{
	if (!c->ack_queued)
		return;
	if (c->ack_prev)
		c->ack_prev->ack_next = c->ack_next;
	else
		c->t->acks = c->ack_next;
	if (c->ack_next)
		c->ack_next->ack_prev = c->ack_prev;
	c->ack_prev = c->ack_next = NULL;
	c->ack_queued = false;
}

/* Write an ack record of @seq. Return: whether it went whole. */
static bool grp_conn_send_ack(struct grp_conn *c, uint64_t seq)
{
	uint8_t rec[GRP_ACK_LEN];
	ssize_t n;

	grp_wire_ack(rec, seq, c->t->inc);
	do {
		n = send(c->fd, rec, sizeof(rec), MSG_NOSIGNAL | MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(rec);
}

/*
 * Acknowledge what this connection's sender has delivered. A sender that
 * lets its acks pile up unread (the socket is full) is cut off: the
 * shutdown wakes the connection's own event, which frees it; the sender
 * reconnects and resumes from the first ack of the new connection.
 */
static void grp_conn_ack_now(struct grp_conn *c)
{
	grp_conn_ack_unlink(c);
	c->unacked = 0;
	if (!grp_conn_send_ack(c, c->t->peers[c->rank]->delivered))
		shutdown(c->fd, SHUT_RDWR);
}

static void grp_conn_ack_later(struct grp_conn *c)
{
	struct grp_transport *t = c->t;

	if (c->ack_queued)
		return;
	c->ack_due_ns = grp_now_ns() + GRP_ACK_DELAY_NS;
	c->ack_prev = NULL;
	c->ack_next = t->acks;
	if (t->acks)
		t->acks->ack_prev = c;
	t->acks = c;
	c->ack_queued = true;
	grp_timer_need(t, c->ack_due_ns);
}

/* The sender is known (and authenticated): tell it where to resume. */
static bool grp_conn_sync(struct grp_conn *c)
{
	uint64_t delivered = c->t->peers[c->rank]->delivered;

	c->next_seq = delivered + 1;
	return grp_conn_send_ack(c, delivered);
}

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
	grp_conn_ack_unlink(c);
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
			 uint32_t *rank, uint32_t *inc)
{
	uint32_t from = bytes_get_le32(h + GRP_HELLO_FROM_OFF);
	const struct grp_peer *p;

	*inc = bytes_get_le32(h + GRP_HELLO_INC_OFF);
	if (memcmp(h, GRP_HELLO_MAGIC, 4) || !*inc ||
	    bytes_get_le16(h + GRP_HELLO_VERSION_OFF) != GRP_HELLO_VERSION ||
	    bytes_get_le16(h + GRP_HELLO_FLAGS_OFF) !=
	    (t->spec->has_key ? GRP_HELLO_F_AUTH : 0) ||
	    bytes_get_le64(h + GRP_HELLO_JOB_OFF) != t->spec->job ||
	    bytes_get_le32(h + GRP_HELLO_TO_OFF) != t->spec->rank ||
	    from >= t->spec->size || from == t->spec->rank)
		return false;
	/* The dead, or an older process than the one known: never again. */
	p = t->peers[from];
	if (*inc < (p ? p->inc : 1) ||
	    (grp_is_dead(t, from) && *inc <= (p ? p->inc : 1)))
		return false;
	*rank = from;
	return true;
}

/*
 * With a key, the hello and the connector's nonce are in: answer with our
 * nonce and our MAC. Return: false if that failed (close, not counted).
 */
static bool grp_conn_challenge(struct grp_conn *c)
{
	struct grp_transport *t = c->t;
	uint8_t out[GRP_AUTH_NONCE_LEN + GRP_AUTH_MAC_LEN];
	ssize_t n;

	memcpy(c->hello, c->buf, GRP_HELLO_LEN);
	memcpy(c->nonce_c, c->buf + GRP_HELLO_LEN, GRP_AUTH_NONCE_LEN);
	if (grp_auth_nonce(c->nonce_a))
		return false;
	memcpy(out, c->nonce_a, GRP_AUTH_NONCE_LEN);
	grp_auth_mac(t->spec->key, GRP_AUTH_ROLE_ACCEPTOR, c->hello, c->nonce_c,
		     c->nonce_a, out + GRP_AUTH_NONCE_LEN);
	/* The first bytes on a fresh socket: its buffer takes them whole. */
	do {
		n = send(c->fd, out, sizeof(out), MSG_NOSIGNAL | MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	return n == (ssize_t)sizeof(out);
}

/*
 * Hand every whole frame in the buffer to on_frame. Return: false if the
 * connection is gone (closed for a violation, or killed by a callback).
 */
static bool grp_conn_deliver(struct grp_conn *c)
{
	struct grp_transport *t = c->t;
	struct grp_peer *p;
	size_t off = 0, flen;
	int err;

	if (c->rank == GRP_NO_RANK) {
		uint32_t rank, inc;

		if (c->len < GRP_HELLO_LEN)
			return true;
		if (!grp_hello_ok(t, c->buf, &rank, &inc))
			goto violation;
		off = GRP_HELLO_LEN;
		if (t->spec->has_key) {
			if (c->len < GRP_HELLO_LEN + GRP_AUTH_NONCE_LEN)
				return true;
			if (!grp_conn_challenge(c)) {
				grp_conn_free(c);
				return false;
			}
			off += GRP_AUTH_NONCE_LEN;
		}
		p = grp_peer_get(t, rank);
		if (!p) {
			grp_conn_free(c);	/* out of memory: refuse */
			return false;
		}
		if (inc > p->inc)
			grp_peer_new_incarnation(p, inc, NULL);
		c->rank = rank;
		c->peer_next = p->incoming;
		p->incoming = c;
		if (c->authed && !grp_conn_sync(c)) {
			grp_conn_free(c);
			return false;
		}
	}
	if (!c->authed) {
		uint8_t mac[GRP_AUTH_MAC_LEN];
		bool ok;

		if (c->len - off < GRP_AUTH_MAC_LEN)
			goto keep;
		grp_auth_mac(t->spec->key, GRP_AUTH_ROLE_CONNECTOR, c->hello,
			     c->nonce_c, c->nonce_a, mac);
		ok = grp_auth_equal(mac, c->buf + off, sizeof(mac));
		explicit_bzero(mac, sizeof(mac));
		if (!ok)
			goto violation;	/* wrong key: nothing delivered */
		c->authed = true;
		off += GRP_AUTH_MAC_LEN;
		if (!grp_conn_sync(c)) {
			grp_conn_free(c);
			return false;
		}
	}
	c->need = 0;
	p = t->peers[c->rank];
	for (;;) {
		uint64_t seq;

		err = grp_msg_frame(c->buf + off, c->len - off, &flen);
		if (err == -EAGAIN)
			break;
		if (err)
			goto violation;
		if (c->len - off < flen) {
			c->need = flen;
			break;
		}
		seq = c->next_seq++;
		if (seq > p->delivered + 1)
			goto violation;		/* cannot happen */
		if (seq <= p->delivered) {
			/* Already delivered from an older connection. */
			off += flen;
			continue;
		}
		p->delivered = seq;
		c->unacked++;
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
		if (c->unacked >= GRP_ACK_EVERY)
			grp_conn_ack_now(c);
		else
			grp_conn_ack_later(c);
		off += flen;
	}
keep:
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
	c->authed = !t->spec->has_key;
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
	struct grp_conn *c, *cnext;
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
	for (c = t->acks; c; c = cnext) {
		cnext = c->ack_next;
		if (c->ack_due_ns <= now)
			grp_conn_ack_now(c);
		else if (!earliest || c->ack_due_ns < earliest)
			earliest = c->ack_due_ns;
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
	t->inc = spec->incarnation ? spec->incarnation : 1;
	grp_wire_hello(t->hello, spec->job, spec->rank, 0);
	bytes_put_le32(t->hello + GRP_HELLO_INC_OFF, t->inc);
	if (spec->has_key)
		bytes_put_le16(t->hello + GRP_HELLO_FLAGS_OFF,
			       GRP_HELLO_F_AUTH);

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

	if (to >= t->spec->size || to == t->spec->rank)
		return -EINVAL;
	/* Only whole, well-framed messages: the receiver would drop others. */
	if (grp_msg_frame(buf, len, &flen) || flen != len)
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
	f->seq = ++p->last_seq;
	f->written = false;
	f->len = len;
	memcpy(f->data, buf, len);
	if (p->tail)
		p->tail->next = f;
	else
		p->head = f;
	p->tail = f;
	if (!p->unsent) {
		p->unsent = f;
		p->unsent_off = 0;
	}

	switch (p->state) {
	case GRP_OUT_IDLE:
		grp_out_connect(p);
		break;
	case GRP_OUT_CONNECTED:
		/* Else EPOLLOUT, or the acceptor's answer, is awaited. */
		if (p->authed && p->synced && p->unsent == f)
			grp_out_flush(p);
		break;
	default:
		break;		/* the connect or the timer will send it */
	}
	return 0;
}

void grp_transport_peer_dead(struct grp_transport *t, uint32_t rank,
			     uint32_t inc)
{
	struct grp_peer *p;

	if (rank >= t->spec->size || rank == t->spec->rank)
		return;
	p = t->peers[rank];
	if (inc < (p ? p->inc : 1))
		return;		/* a restarted process took its place */
	t->dead[rank / 8] |= (uint8_t)(1u << (rank % 8));
	if (!p)
		return;
	grp_out_close_socket(p);
	grp_backoff_unlink(p);	/* a stale timer wake-up is harmless */
	grp_peer_drop_queue(p);
	p->state = GRP_OUT_DEAD;
	while (p->incoming)
		grp_conn_kill(p->incoming);
}

int grp_transport_peer_new(struct grp_transport *t, uint32_t rank,
			   uint32_t inc)
{
	struct grp_peer *p;

	if (rank >= t->spec->size || rank == t->spec->rank)
		return 0;
	p = grp_peer_get(t, rank);
	if (!p)
		return -ENOMEM;
	if (inc > p->inc)
		grp_peer_new_incarnation(p, inc, NULL);
	return 0;
}

void grp_transport_get_stats(const struct grp_transport *t,
			     struct grp_transport_stats *stats)
{
	*stats = t->stats;
}
