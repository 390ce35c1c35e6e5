/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftnl/group internals: the TCP transport between the ranks of a world.
 *
 * Each rank listens on its spec address and port. Rank p's messages to q
 * travel on a connection p opens to q (lazily, non-blocking, on the first
 * send); connections q opens to p only carry q's messages to p. So no
 * pair ever has to settle which of two connections to keep. A connection
 * starts with a hello frame (magic, version, job, sender rank) that the
 * accepting side checks, then, with a job key, a mutual challenge-response
 * (auth.h); after it, the stream carries ERA messages framed by
 * grp_msg_frame(), and the acceptor writes cumulative ack records back.
 * A message stays queued until acknowledged, and is resent on a new
 * connection if the old one broke first (hello.h). Anything malformed
 * closes that connection and is counted; nothing from the network can do
 * more.
 *
 * A connect that fails (the peer is not listening yet, or is dead) is
 * retried with a backoff timer until the peer is known dead; queued
 * messages wait meanwhile. A connection that breaks is not a failure:
 * only the group's detector declares deaths (grp_transport_peer_dead()).
 */
#ifndef FTNL_GROUP_TRANSPORT_H
#define FTNL_GROUP_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include <ftnl/group.h>

struct grp_transport;

/*
 * Stream framing of either engine's messages (era_msg_frame(),
 * vall_msg_frame()): from the first @avail bytes, the message's length.
 * Return: 0, -EAGAIN (need 8 bytes), -EBADMSG or -EPROTONOSUPPORT.
 */
int grp_msg_frame(const uint8_t *buf, size_t avail, size_t *len);

/*
 * A whole engine message of @len bytes from world rank @from (grp_msg_frame()
 * accepted its length; decoding is the caller's). Valid during the call.
 * It may call grp_transport_send() and grp_transport_peer_dead() (even for
 * @from), never grp_transport_close().
 */
typedef void (*grp_frame_fn)(void *ctx, uint32_t from, const uint8_t *buf,
			     size_t len);

/**
 * struct grp_transport_stats - counters (see struct ftnl_group_stats)
 */
struct grp_transport_stats {
	uint64_t frames_sent;
	uint64_t frames_received;
	uint64_t bytes_sent;
	uint64_t connects;
	uint64_t connect_retries;
	uint64_t dropped;
};

/*
 * Listen on @spec's address and port for spec->rank and add the listening
 * socket and the retry timer to @epfd. @spec must outlive the transport.
 * Return: 0, -EADDRINUSE, -ENOMEM or another negative errno.
 */
int grp_transport_open(const struct ftnl_group_spec *spec, int epfd,
		       grp_frame_fn on_frame, void *ctx,
		       struct grp_transport **out);

/* Close every socket and free; NULL is fine. */
void grp_transport_close(struct grp_transport *t);

/*
 * Queue @len bytes (one whole ERA message, copied) for world rank @to and
 * write as much as the socket takes now. Messages to one peer arrive in
 * order. A message to a rank known dead is dropped. Return: 0, -EINVAL
 * (bad rank, or self, or @buf not exactly one grp_msg_frame() frame),
 * -ENOMEM.
 */
int grp_transport_send(struct grp_transport *t, uint32_t to,
		       const uint8_t *buf, size_t len);

/*
 * Incarnation @inc of @rank is dead: unless a later incarnation already
 * connected, drop its queue, close its connections, stop retrying. A
 * later incarnation's hello (or ack) brings the rank back (hello.h).
 */
void grp_transport_peer_dead(struct grp_transport *t, uint32_t rank,
			     uint32_t inc);

/*
 * Incarnation @inc of @rank is the one to talk to from now on (the group
 * learned it from a join): as if its hello had come (hello.h), unless it
 * did already. Return: 0, -ENOMEM.
 */
int grp_transport_peer_new(struct grp_transport *t, uint32_t rank,
			   uint32_t inc);

void grp_transport_get_stats(const struct grp_transport *t,
			     struct grp_transport_stats *stats);

#endif /* FTNL_GROUP_TRANSPORT_H */
