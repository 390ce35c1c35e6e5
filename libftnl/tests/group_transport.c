// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The group TCP transport: several transports in this process on
 * 127.0.0.1, one epoll set, driven by a loop that waits with a timeout.
 * Ordered delivery of frames of many sizes (over 1 MiB too), a listener
 * that starts late, a peer declared dead, connections refused for bad
 * hellos and bad frames, partial frames discarded, a connection reset in
 * the middle of a frame; with a job key, the challenge-response: peers
 * with the same key talk, a wrong key or a forged answer is refused with
 * nothing delivered.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "era/msg.h"
#include "group/auth.h"
#include "group/loop.h"
#include "group/transport.h"
#include "group/hello.h"
#include "tap.h"

#define MAX_RANKS	4
#define JOB		0x1234567890ull

/* ---- frames: sizes and contents derived from a sequence number -------- */

static size_t frame_size(uint32_t seq)
{
	if (seq == 100)
		return (3u << 20) / 2;		/* 1.5 MiB */
	if (seq == 333)
		return (4u << 20) + 3;
	if (seq % 5 == 0)
		return ERA_MSG_VALUE_OFF;	/* no value at all */
	return ERA_MSG_VALUE_OFF + (seq * 7919u) % 70000;
}

/* 1 MiB and more each: far more than socket buffers hold. */
static size_t big_frame_size(uint32_t seq)
{
	return (1u << 20) + seq;
}

/* The sizes on_frame() expects. */
static size_t (*expected_size)(uint32_t seq) = frame_size;

static uint8_t frame_byte(uint32_t seq, size_t i)
{
	return (uint8_t)(seq * 31u + i * 7u);
}

static uint8_t *make_frame(uint32_t seq, size_t len)
{
	uint8_t *f = malloc(len);
	size_t i;

	if (!f) {
		printf("Bail out! out of memory\n");
		exit(2);
	}
	f[0] = 'E';
	f[1] = 'R';
	f[2] = ERA_MSG_VERSION;
	f[3] = ERA_MSG_UP;
	bytes_put_le32(f + 4, (uint32_t)len);
	bytes_put_le64(f + 8, JOB);
	bytes_put_le64(f + 16, (uint64_t)seq + 1);
	for (i = 24; i < len; i++)
		f[i] = frame_byte(seq, i);
	return f;
}

/* ---- a world of transports ------------------------------------------- */

struct rx {
	uint32_t count[MAX_RANKS];	/* frames received from each rank */
	uint32_t next[MAX_RANKS];	/* next sequence expected */
	uint32_t bad;			/* torn, reordered or duplicated */
	bool skip_allowed;		/* a reset may lose written frames */
};

struct world {
	uint32_t size;
	struct ftnl_group_peer peers[MAX_RANKS];
	struct ftnl_group_spec spec[MAX_RANKS];
	struct grp_transport *t[MAX_RANKS];
	struct rx rx[MAX_RANKS];
};

static int epfd = -1;
static unsigned long dispatched;	/* events handled by the loop */
static uint16_t next_port;

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * Run the loop until @done says so or @timeout_ms passes; sleeps in
 * epoll_wait() meanwhile. Return: whether @done held (true at the end of
 * the time without @done).
 */
static bool run_until(bool (*done)(const void *), const void *arg,
		      int timeout_ms)
{
	uint64_t end = now_ms() + (uint64_t)timeout_ms;

	for (;;) {
		struct epoll_event evs[64];
		uint64_t now = now_ms();
		int n, i;

		if (done && done(arg))
			return true;
		if (now >= end)
			return !done;
		n = epoll_wait(epfd, evs, 64, (int)(end - now));
		for (i = 0; i < n; i++) {
			struct grp_source *src = evs[i].data.ptr;

			src->ready(src, evs[i].events);
			dispatched++;
		}
	}
}

static void on_frame(void *ctx, uint32_t from, const uint8_t *buf, size_t len)
{
	struct rx *rx = ctx;
	uint32_t seq = (uint32_t)bytes_get_le64(buf + 16) - 1;
	size_t i;

	if (from >= MAX_RANKS) {
		rx->bad++;
		return;
	}
	rx->count[from]++;
	if (seq != rx->next[from] && !(rx->skip_allowed && seq > rx->next[from])) {
		tap_diag("from %u: got frame %u, expected %u", from, seq,
			 rx->next[from]);
		rx->bad++;
	}
	rx->next[from] = seq + 1;
	if (len != expected_size(seq)) {
		tap_diag("frame %u: %zu bytes, expected %zu", seq, len,
			 expected_size(seq));
		rx->bad++;
		return;
	}
	for (i = 24; i < len; i++)
		if (buf[i] != frame_byte(seq, i)) {
			tap_diag("frame %u torn at byte %zu", seq, i);
			rx->bad++;
			return;
		}
}

/* Ports of one test: a fresh block, clear of the ephemeral range. */
static void world_init(struct world *w, uint32_t size)
{
	uint32_t r;

	memset(w, 0, sizeof(*w));
	w->size = size;
	for (r = 0; r < size; r++) {
		w->peers[r].family = AF_INET;
		inet_pton(AF_INET, "127.0.0.1", &w->peers[r].addr.v4);
		w->peers[r].port = next_port++;
		w->peers[r].host = 0;
		w->peers[r].node_id = FTNL_GROUP_NODE_ANY;
	}
	for (r = 0; r < size; r++)
		w->spec[r] = (struct ftnl_group_spec){
			.job = JOB, .size = size, .rank = r, .peers = w->peers,
		};
}

/*
 * Open @rank's transport. A port someone else holds: take the next one
 * (peers read the shared table when they connect, so they follow).
 */
static bool world_open(struct world *w, uint32_t rank)
{
	int attempt, err = 0;

	for (attempt = 0; attempt < 8; attempt++) {
		err = grp_transport_open(&w->spec[rank], epfd, on_frame,
					 &w->rx[rank], &w->t[rank]);
		if (err != -EADDRINUSE)
			break;
		w->peers[rank].port = next_port++;
	}
	if (err)
		tap_diag("opening rank %u (port %u): %s", rank,
			 w->peers[rank].port, strerror(-err));
	return !err;
}

static void world_close(struct world *w)
{
	uint32_t r;

	for (r = 0; r < w->size; r++) {
		grp_transport_close(w->t[r]);
		w->t[r] = NULL;
	}
}

static struct grp_transport_stats stats_of(struct grp_transport *t)
{
	struct grp_transport_stats s;

	grp_transport_get_stats(t, &s);
	return s;
}

/* Send frames first..first+count-1 from @from to @to. */
static bool send_frames(struct world *w, uint32_t from, uint32_t to,
			uint32_t first, uint32_t count, uint64_t *bytes)
{
	uint32_t seq;

	for (seq = first; seq < first + count; seq++) {
		size_t len = frame_size(seq);
		uint8_t *f = make_frame(seq, len);
		int err = grp_transport_send(w->t[from], to, f, len);

		free(f);
		if (!TAP_CHECK_INT(err, 0))
			return false;
		if (bytes)
			*bytes += len;
	}
	return true;
}

struct want {
	const struct rx *rx;
	uint32_t from;
	uint32_t count;
};

static bool got_count(const void *arg)
{
	const struct want *w = arg;

	return w->rx->count[w->from] >= w->count;
}

/* ---- cases -------------------------------------------------------------- */

#define ORDER_FRAMES 600

static bool all_delivered(const void *arg)
{
	const struct world *w = arg;

	return w->rx[1].count[0] == ORDER_FRAMES &&
	       w->rx[2].count[0] == ORDER_FRAMES &&
	       w->rx[0].count[1] == ORDER_FRAMES;
}

static void test_ordered(const void *arg)
{
	struct world w;
	uint64_t bytes0 = 0, bytes1 = 0;
	unsigned long before;
	uint32_t r;

	(void)arg;
	world_init(&w, 3);
	for (r = 0; r < 3; r++)
		if (!TAP_CHECK(world_open(&w, r)))
			goto out;
	/* interleaved: 0 -> 1, 0 -> 2, 1 -> 0, in chunks */
	for (r = 0; r < ORDER_FRAMES; r += 50) {
		if (!send_frames(&w, 0, 1, r, 50, &bytes0) ||
		    !send_frames(&w, 0, 2, r, 50, &bytes0) ||
		    !send_frames(&w, 1, 0, r, 50, &bytes1))
			goto out;
		run_until(NULL, NULL, 1);
	}
	TAP_CHECK(run_until(all_delivered, &w, 20000));
	for (r = 0; r < 3; r++)
		TAP_CHECK_UINT(w.rx[r].bad, 0);
	TAP_CHECK_UINT(stats_of(w.t[0]).frames_sent, 2 * ORDER_FRAMES);
	TAP_CHECK_UINT(stats_of(w.t[0]).connects, 2);
	TAP_CHECK_UINT(stats_of(w.t[0]).connect_retries, 0);
	TAP_CHECK_UINT(stats_of(w.t[0]).bytes_sent, bytes0 + 2 * GRP_HELLO_LEN);
	TAP_CHECK_UINT(stats_of(w.t[1]).bytes_sent, bytes1 + GRP_HELLO_LEN);
	TAP_CHECK_UINT(stats_of(w.t[0]).frames_received, ORDER_FRAMES);
	TAP_CHECK_UINT(stats_of(w.t[1]).frames_received, ORDER_FRAMES);
	TAP_CHECK_UINT(stats_of(w.t[0]).dropped, 0);
	TAP_CHECK_UINT(stats_of(w.t[1]).dropped, 0);

	/*
	 * Idle, once the last acks (due 10 ms after the last frames) are
	 * through: nothing to write or ack, so no wake-ups at all.
	 */
	run_until(NULL, NULL, 50);
	before = dispatched;
	run_until(NULL, NULL, 100);
	TAP_CHECK_UINT(dispatched - before, 0);
out:
	world_close(&w);
}

static void test_ipv6(const void *arg)
{
	struct world w;
	struct want want = { .from = 1, .count = 20 };
	uint32_t r;

	(void)arg;
	world_init(&w, 2);
	for (r = 0; r < 2; r++) {
		w.peers[r].family = AF_INET6;
		inet_pton(AF_INET6, "::1", &w.peers[r].addr.v6);
	}
	if (grp_transport_open(&w.spec[0], epfd, on_frame, &w.rx[0],
			       &w.t[0]) == -EADDRNOTAVAIL) {
		TAP_SKIP("no IPv6 loopback here");
		return;
	}
	if (!w.t[0] && !TAP_CHECK(world_open(&w, 0)))
		goto out;
	if (!TAP_CHECK(world_open(&w, 1)))
		goto out;
	want.rx = &w.rx[0];
	TAP_CHECK(send_frames(&w, 1, 0, 0, 20, NULL));
	TAP_CHECK(run_until(got_count, &want, 5000));
	TAP_CHECK_UINT(w.rx[0].bad, 0);
out:
	world_close(&w);
}

static void test_send_checks(const void *arg)
{
	struct world w;
	uint8_t *f;

	(void)arg;
	world_init(&w, 2);
	if (!TAP_CHECK(world_open(&w, 0)))
		goto out;
	f = make_frame(1, 100);
	TAP_CHECK_INT(grp_transport_send(w.t[0], 0, f, 100), -EINVAL); /* self */
	TAP_CHECK_INT(grp_transport_send(w.t[0], 2, f, 100), -EINVAL);
	TAP_CHECK_INT(grp_transport_send(w.t[0], 1, f, 99), -EINVAL); /* cut */
	TAP_CHECK_INT(grp_transport_send(w.t[0], 1, f, 7), -EINVAL);
	f[0] = 'X';
	TAP_CHECK_INT(grp_transport_send(w.t[0], 1, f, 100), -EINVAL);
	free(f);
	/* the same port twice */
	{
		struct grp_transport *again = NULL;

		TAP_CHECK_INT(grp_transport_open(&w.spec[0], epfd, on_frame,
						 &w.rx[0], &again),
			      -EADDRINUSE);
		TAP_CHECK(!again);
	}
out:
	world_close(&w);
}

static void test_late_listener(const void *arg)
{
	struct world w;
	struct want want = { .from = 0, .count = 40 };

	(void)arg;
	world_init(&w, 2);
	if (!TAP_CHECK(world_open(&w, 0)))
		goto out;
	if (!send_frames(&w, 0, 1, 0, 40, NULL))
		goto out;
	run_until(NULL, NULL, 150);	/* refused, retried with backoff */
	TAP_CHECK(stats_of(w.t[0]).connect_retries >= 2);
	/* 10, 20, 40, 80 ms...: a handful in 150 ms, not a spin */
	TAP_CHECK(stats_of(w.t[0]).connect_retries <= 6);
	TAP_CHECK_UINT(stats_of(w.t[0]).connects, 0);
	if (!TAP_CHECK(world_open(&w, 1)))
		goto out;
	want.rx = &w.rx[1];
	TAP_CHECK(run_until(got_count, &want, 5000));
	run_until(NULL, NULL, 50);	/* and nothing more */
	TAP_CHECK_UINT(w.rx[1].count[0], 40);
	TAP_CHECK_UINT(w.rx[1].bad, 0);
	TAP_CHECK_UINT(stats_of(w.t[0]).connects, 1);
	TAP_CHECK_UINT(stats_of(w.t[0]).frames_sent, 40);
out:
	world_close(&w);
}

static void test_peer_dead(const void *arg)
{
	struct grp_transport_stats s;
	struct world w;
	uint64_t retries;

	(void)arg;
	world_init(&w, 3);
	if (!TAP_CHECK(world_open(&w, 0)))
		goto out;
	if (!send_frames(&w, 0, 1, 0, 10, NULL))
		goto out;
	run_until(NULL, NULL, 50);
	TAP_CHECK(stats_of(w.t[0]).connect_retries >= 1);

	grp_transport_peer_dead(w.t[0], 1, 1);
	retries = stats_of(w.t[0]).connect_retries;
	TAP_CHECK(send_frames(&w, 0, 1, 10, 5, NULL));	/* accepted, dropped */
	run_until(NULL, NULL, 300);
	TAP_CHECK_UINT(stats_of(w.t[0]).connect_retries, retries);

	/* Rank 1 listens at last: nothing of the dropped queue arrives. */
	if (!TAP_CHECK(world_open(&w, 1)))
		goto out;
	run_until(NULL, NULL, 100);
	TAP_CHECK_UINT(w.rx[1].count[0], 0);

	/* And its hellos are refused: it is dead to rank 0. */
	TAP_CHECK(send_frames(&w, 1, 0, 0, 3, NULL));
	run_until(NULL, NULL, 100);
	TAP_CHECK_UINT(w.rx[0].count[1], 0);
	TAP_CHECK(stats_of(w.t[0]).dropped >= 1);

	/* Rank 2, alive, is unaffected. */
	if (!TAP_CHECK(world_open(&w, 2)))
		goto out;
	TAP_CHECK(send_frames(&w, 0, 2, 0, 3, NULL));
	TAP_CHECK(run_until(got_count, &(struct want){ &w.rx[2], 0, 3 }, 5000));
	s = stats_of(w.t[0]);
	TAP_CHECK_UINT(s.frames_sent, 3);
	TAP_CHECK_UINT(w.rx[2].bad, 0);
out:
	world_close(&w);
}

/* An established connection rank 2 keeps to rank 0, then rank 2 dies. */
static void test_dead_closes_incoming(const void *arg)
{
	struct world w;
	struct want want = { .from = 2, .count = 5 };
	uint32_t r;

	(void)arg;
	world_init(&w, 3);
	for (r = 0; r < 3; r++)
		if (!TAP_CHECK(world_open(&w, r)))
			goto out;
	want.rx = &w.rx[0];
	TAP_CHECK(send_frames(&w, 2, 0, 0, 5, NULL));
	TAP_CHECK(run_until(got_count, &want, 5000));
	grp_transport_peer_dead(w.t[0], 2, 1);
	TAP_CHECK(send_frames(&w, 2, 0, 5, 5, NULL));
	run_until(NULL, NULL, 100);
	TAP_CHECK_UINT(w.rx[0].count[2], 5);
	TAP_CHECK_UINT(w.rx[0].bad, 0);
out:
	world_close(&w);
}

/* ---- raw sockets speaking to rank 0 -------------------------------------- */

static int raw_connect(const struct world *w, uint32_t to);
static bool raw_send(int fd, const void *buf, size_t len);
static bool raw_closed(int fd);

/*
 * Rank 1 dies and restarts as incarnation 2: each direction starts over
 * (what was queued for the dead process is not delivered to the new one),
 * and the dead incarnation's hellos stay refused.
 */
static void test_restart(const void *arg)
{
	struct world w;
	uint8_t hello[GRP_HELLO_LEN];
	uint8_t *f = make_frame(0, 64);
	int fd = -1;

	(void)arg;
	world_init(&w, 2);
	if (!TAP_CHECK(world_open(&w, 0)) || !TAP_CHECK(world_open(&w, 1)))
		goto out;
	TAP_CHECK(send_frames(&w, 0, 1, 0, 5, NULL));
	TAP_CHECK(send_frames(&w, 1, 0, 0, 5, NULL));
	TAP_CHECK(run_until(got_count, &(struct want){ &w.rx[1], 0, 5 }, 5000));
	TAP_CHECK(run_until(got_count, &(struct want){ &w.rx[0], 1, 5 }, 5000));

	/* Rank 1 dies; rank 0 still queues for it, then hears of it. */
	grp_transport_close(w.t[1]);
	w.t[1] = NULL;
	TAP_CHECK(send_frames(&w, 0, 1, 5, 3, NULL));
	run_until(NULL, NULL, 50);
	grp_transport_peer_dead(w.t[0], 1, 1);

	/* Incarnation 2 of rank 1: a new process, counting from zero. */
	memset(&w.rx[1], 0, sizeof(w.rx[1]));
	w.rx[0].next[1] = 0;
	w.spec[1].incarnation = 2;
	if (!TAP_CHECK(world_open(&w, 1)))
		goto out;
	TAP_CHECK(send_frames(&w, 1, 0, 0, 4, NULL));
	TAP_CHECK(run_until(got_count, &(struct want){ &w.rx[0], 1, 9 }, 5000));
	/* A late death report of incarnation 1 does not kill it. */
	grp_transport_peer_dead(w.t[0], 1, 1);
	TAP_CHECK(send_frames(&w, 0, 1, 0, 6, NULL));
	TAP_CHECK(run_until(got_count, &(struct want){ &w.rx[1], 0, 6 }, 5000));
	run_until(NULL, NULL, 50);
	TAP_CHECK_UINT(w.rx[1].count[0], 6);	/* none of the dead one's 3 */
	TAP_CHECK_UINT(w.rx[0].bad, 0);
	TAP_CHECK_UINT(w.rx[1].bad, 0);

	/* The dead incarnation's hello: refused. */
	fd = raw_connect(&w, 0);
	if (!TAP_CHECK(fd >= 0))
		goto out;
	grp_wire_hello(hello, JOB, 1, 0);	/* incarnation 1 */
	TAP_CHECK(raw_send(fd, hello, sizeof(hello)));
	TAP_CHECK(raw_send(fd, f, 64));
	run_until(NULL, NULL, 100);
	TAP_CHECK(raw_closed(fd));
	TAP_CHECK_UINT(w.rx[0].count[1], 9);
out:
	free(f);
	if (fd >= 0)
		close(fd);
	world_close(&w);
}

static int raw_connect(const struct world *w, uint32_t to)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(w->peers[to].port),
		.sin_addr = w->peers[to].addr.v4,
	};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd >= 0 && connect(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static bool raw_send(int fd, const void *buf, size_t len)
{
	return send(fd, buf, len, MSG_NOSIGNAL) == (ssize_t)len;
}

/*
 * Whether the transport closed @fd's connection (EOF or reset), past the
 * ack records it may have written.
 */
static bool raw_closed(int fd)
{
	char c[256];
	ssize_t n;

	do
		n = recv(fd, c, sizeof(c), MSG_DONTWAIT);
	while (n > 0);
	return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

struct bad_hello {
	const char *name;
	uint64_t job;
	uint32_t from;
	uint32_t to;
	uint16_t version;
	bool garbage;
};

static const struct bad_hello bad_hellos[] = {
	{ "garbage", JOB, 1, 0, 3, true },
	{ "wrong job", JOB + 1, 1, 0, 3, false },
	{ "from itself", JOB, 0, 0, 3, false },
	{ "from out of range", JOB, 3, 0, 3, false },
	{ "to another rank", JOB, 1, 2, 3, false },
	{ "unknown version", JOB, 1, 0, 4, false },
	{ "old version", JOB, 1, 0, 2, false },
};

static void test_bad_hello(const void *arg)
{
	const struct bad_hello *b = arg;
	struct world w;
	uint8_t hello[GRP_HELLO_LEN];
	uint8_t *f = make_frame(0, 64);
	int fd = -1;
	uint64_t end;

	world_init(&w, 3);
	if (!TAP_CHECK(world_open(&w, 0)))
		goto out;
	fd = raw_connect(&w, 0);
	if (!TAP_CHECK(fd >= 0))
		goto out;
	grp_wire_hello(hello, b->job, b->from, b->to);
	bytes_put_le16(hello + GRP_HELLO_VERSION_OFF, b->version);
	if (b->garbage)
		memcpy(hello, "GET / HTTP/1.0\r\nHost: x\r\n\r\n", GRP_HELLO_LEN);
	TAP_CHECK(raw_send(fd, hello, sizeof(hello)));
	TAP_CHECK(raw_send(fd, f, 64));
	end = now_ms() + 5000;
	while (stats_of(w.t[0]).dropped < 1 && now_ms() < end)
		run_until(NULL, NULL, 10);
	TAP_CHECK_UINT(stats_of(w.t[0]).dropped, 1);
	TAP_CHECK(raw_closed(fd));
	TAP_CHECK_UINT(stats_of(w.t[0]).frames_received, 0);
out:
	free(f);
	if (fd >= 0)
		close(fd);
	world_close(&w);
}

/* Wait, sleeping in the loop, until rank 0 counts @n received frames. */
static bool wait_received(struct world *w, uint64_t n)
{
	uint64_t end = now_ms() + 5000;

	while (stats_of(w->t[0]).frames_received < n && now_ms() < end)
		run_until(NULL, NULL, 10);
	return stats_of(w->t[0]).frames_received == n;
}

static void test_bad_frame(const void *arg)
{
	struct world w;
	uint8_t hello[GRP_HELLO_LEN];
	size_t len = frame_size(1);
	uint8_t *f = make_frame(1, len);
	int fd = -1;
	uint64_t end;

	(void)arg;
	world_init(&w, 2);
	if (!TAP_CHECK(world_open(&w, 0)))
		goto out;
	fd = raw_connect(&w, 0);
	if (!TAP_CHECK(fd >= 0))
		goto out;
	grp_wire_hello(hello, JOB, 1, 0);
	TAP_CHECK(raw_send(fd, hello, sizeof(hello)));
	w.rx[0].next[1] = 1;
	TAP_CHECK(raw_send(fd, f, len));	/* good */
	TAP_CHECK(wait_received(&w, 1));
	bytes_put_le32(f + 4, ERA_MSG_MAX_LEN + 1);	/* too long */
	TAP_CHECK(raw_send(fd, f, len));
	end = now_ms() + 5000;
	while (stats_of(w.t[0]).dropped < 1 && now_ms() < end)
		run_until(NULL, NULL, 10);
	TAP_CHECK_UINT(stats_of(w.t[0]).dropped, 1);
	TAP_CHECK(raw_closed(fd));
	TAP_CHECK_UINT(w.rx[0].count[1], 1);
	TAP_CHECK_UINT(w.rx[0].bad, 0);
out:
	free(f);
	if (fd >= 0)
		close(fd);
	world_close(&w);
}

static void test_partial_frame(const void *arg)
{
	struct world w;
	uint8_t hello[GRP_HELLO_LEN];
	size_t len1 = frame_size(1);
	uint8_t *f0 = make_frame(0, frame_size(0)), *f1 = make_frame(1, len1);
	int fd;

	(void)arg;
	world_init(&w, 2);
	if (!TAP_CHECK(world_open(&w, 0)))
		goto out;
	grp_wire_hello(hello, JOB, 1, 0);

	fd = raw_connect(&w, 0);
	if (!TAP_CHECK(fd >= 0))
		goto out;
	TAP_CHECK(raw_send(fd, hello, sizeof(hello)));
	TAP_CHECK(raw_send(fd, f0, frame_size(0)));
	TAP_CHECK(raw_send(fd, f1, len1 / 2));	/* then the sender goes */
	TAP_CHECK(wait_received(&w, 1));
	close(fd);
	run_until(NULL, NULL, 100);
	TAP_CHECK_UINT(stats_of(w.t[0]).frames_received, 1);
	TAP_CHECK_UINT(stats_of(w.t[0]).dropped, 0);	/* not malformed */

	/* The sender reconnects and sends the frame whole: delivered once. */
	fd = raw_connect(&w, 0);
	if (!TAP_CHECK(fd >= 0))
		goto out;
	TAP_CHECK(raw_send(fd, hello, sizeof(hello)));
	TAP_CHECK(raw_send(fd, f1, len1));
	TAP_CHECK(wait_received(&w, 2));
	close(fd);
	TAP_CHECK_UINT(w.rx[0].count[1], 2);
	TAP_CHECK_UINT(w.rx[0].bad, 0);
out:
	free(f0);
	free(f1);
	world_close(&w);
}

/*
 * A fake rank 1 accepts, says it has nothing yet (an ack record of 0),
 * reads part of a big frame and resets the connection; then the real
 * rank 1 listens. The frames the fake took were never acknowledged: the
 * sender resends them all, so every frame arrives, in order, whole, once.
 */
struct fake_listener {
	struct grp_source src;
	int listen_fd;
	int conn_fd;
	size_t got;
	bool reset;
};

static void fake_ready(struct grp_source *src, uint32_t events)
{
	struct fake_listener *fl = (struct fake_listener *)src;
	static char buf[65536];
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	ssize_t n;

	(void)events;
	if (fl->conn_fd < 0) {
		struct epoll_event ev = { .events = EPOLLIN, .data.ptr = src };

		uint8_t ack[GRP_ACK_LEN];

		fl->conn_fd = accept4(fl->listen_fd, NULL, NULL, SOCK_NONBLOCK);
		epoll_ctl(epfd, EPOLL_CTL_DEL, fl->listen_fd, NULL);
		if (fl->conn_fd >= 0) {
			epoll_ctl(epfd, EPOLL_CTL_ADD, fl->conn_fd, &ev);
			grp_wire_ack(ack, 0, 1);
			send(fl->conn_fd, ack, sizeof(ack), MSG_NOSIGNAL);
		}
		return;
	}
	n = recv(fl->conn_fd, buf, sizeof(buf), 0);
	if (n > 0)
		fl->got += (size_t)n;
	if (fl->got > (1u << 20) + 12345) {
		setsockopt(fl->conn_fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		epoll_ctl(epfd, EPOLL_CTL_DEL, fl->conn_fd, NULL);
		close(fl->conn_fd);	/* RST: the sender's write fails */
		fl->conn_fd = -1;
		fl->reset = true;
	}
}

static bool fake_was_reset(const void *arg)
{
	return ((const struct fake_listener *)arg)->reset;
}

#define RESET_FRAMES 12

static void test_reset_mid_frame(const void *arg)
{
	struct fake_listener fl = { .src.ready = fake_ready, .conn_fd = -1 };
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = &fl.src };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct world w;
	int one = 1;
	uint32_t seq;

	(void)arg;
	world_init(&w, 2);
	sin.sin_port = htons(w.peers[1].port);
	sin.sin_addr = w.peers[1].addr.v4;
	fl.listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	setsockopt(fl.listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (!TAP_CHECK(!bind(fl.listen_fd, (struct sockaddr *)&sin, sizeof(sin))) ||
	    !TAP_CHECK(!listen(fl.listen_fd, 4)) ||
	    !TAP_CHECK(!epoll_ctl(epfd, EPOLL_CTL_ADD, fl.listen_fd, &ev)))
		goto out;
	if (!TAP_CHECK(world_open(&w, 0)))
		goto out;
	expected_size = big_frame_size;
	for (seq = 0; seq < RESET_FRAMES; seq++) {
		size_t len = big_frame_size(seq);
		uint8_t *f = make_frame(seq, len);

		TAP_CHECK_INT(grp_transport_send(w.t[0], 1, f, len), 0);
		free(f);
	}
	TAP_CHECK(run_until(fake_was_reset, &fl, 5000));
	close(fl.listen_fd);
	fl.listen_fd = -1;
	if (!TAP_CHECK(world_open(&w, 1)))
		goto out;
	TAP_CHECK(run_until(got_count, &(struct want){ &w.rx[1], 0, 1 }, 5000));
	{
		uint64_t end = now_ms() + 10000;

		while (w.rx[1].next[0] < RESET_FRAMES && now_ms() < end)
			run_until(NULL, NULL, 10);
	}
	TAP_CHECK_UINT(w.rx[1].next[0], RESET_FRAMES);
	TAP_CHECK_UINT(w.rx[1].count[0], RESET_FRAMES);	/* none lost */
	TAP_CHECK_UINT(w.rx[1].bad, 0);
	TAP_CHECK_UINT(stats_of(w.t[0]).connects, 2);
	TAP_CHECK_UINT(stats_of(w.t[0]).frames_sent, RESET_FRAMES);
out:
	expected_size = frame_size;
	if (fl.listen_fd >= 0)
		close(fl.listen_fd);
	world_close(&w);
}

/* Read ack records from a raw connection for a while; the last one. */
static bool raw_last_ack(int fd, uint64_t *seq)
{
	uint8_t rec[GRP_ACK_LEN];
	size_t got = 0;
	bool any = false;
	uint64_t end = now_ms() + 200;

	while (now_ms() < end) {
		ssize_t n;

		run_until(NULL, NULL, 10);
		while ((n = recv(fd, rec + got, sizeof(rec) - got,
				 MSG_DONTWAIT)) > 0) {
			got += (size_t)n;
			if (got < sizeof(rec))
				continue;
			got = 0;
			if (memcmp(rec, GRP_ACK_MAGIC, 4))
				return false;
			*seq = bytes_get_le64(rec + GRP_ACK_SEQ_OFF);
			any = true;
		}
	}
	return any && !got;
}

/*
 * Rank 1 (raw) opens two connections; each is told 0 frames delivered.
 * Frame 0 on the first, then frames 0 and 1 on the second: the second's
 * frame 0 is a duplicate, dropped; frame 1 is delivered. Both are acked.
 */
static void test_duplicates(const void *arg)
{
	struct world w;
	uint8_t hello[GRP_HELLO_LEN];
	size_t len0 = frame_size(0), len1 = frame_size(1);
	uint8_t *f0 = make_frame(0, len0), *f1 = make_frame(1, len1);
	uint64_t seq = 99;
	int a = -1, b = -1;

	(void)arg;
	world_init(&w, 2);
	if (!TAP_CHECK(world_open(&w, 0)))
		goto out;
	grp_wire_hello(hello, JOB, 1, 0);
	a = raw_connect(&w, 0);
	b = raw_connect(&w, 0);
	if (!TAP_CHECK(a >= 0 && b >= 0))
		goto out;
	TAP_CHECK(raw_send(a, hello, sizeof(hello)));
	TAP_CHECK(raw_send(b, hello, sizeof(hello)));
	TAP_CHECK(raw_last_ack(a, &seq));
	TAP_CHECK_UINT(seq, 0);
	TAP_CHECK(raw_last_ack(b, &seq));
	TAP_CHECK_UINT(seq, 0);
	TAP_CHECK(raw_send(a, f0, len0));
	TAP_CHECK(wait_received(&w, 1));
	TAP_CHECK(raw_send(b, f0, len0));
	TAP_CHECK(raw_send(b, f1, len1));
	TAP_CHECK(wait_received(&w, 2));
	run_until(NULL, NULL, 50);
	TAP_CHECK_UINT(w.rx[0].count[1], 2);
	TAP_CHECK_UINT(w.rx[0].bad, 0);
	TAP_CHECK_UINT(stats_of(w.t[0]).dropped, 0);
	TAP_CHECK(raw_last_ack(b, &seq));	/* after the delay: coalesced */
	TAP_CHECK_UINT(seq, 2);
	TAP_CHECK(raw_last_ack(a, &seq));
	TAP_CHECK_UINT(seq, 1);
	TAP_CHECK(!raw_closed(a) && !raw_closed(b));
out:
	free(f0);
	free(f1);
	if (a >= 0)
		close(a);
	if (b >= 0)
		close(b);
	world_close(&w);
}

#define ACK_FRAMES 1000

static size_t tiny_size(uint32_t seq)
{
	(void)seq;
	return ERA_MSG_VALUE_OFF;
}

/* Many small frames, one per receiver event: few ack records. */
static void test_acks(const void *arg)
{
	struct world w;
	uint8_t hello[GRP_HELLO_LEN], rec[GRP_ACK_LEN];
	uint8_t *f = make_frame(0, ERA_MSG_VALUE_OFF);
	unsigned int acks = 0;
	uint64_t seq = 0, end;
	uint32_t i;
	size_t got = 0;
	int fd = -1;

	(void)arg;
	world_init(&w, 2);
	if (!TAP_CHECK(world_open(&w, 0)))
		goto out;
	fd = raw_connect(&w, 0);
	if (!TAP_CHECK(fd >= 0))
		goto out;
	grp_wire_hello(hello, JOB, 1, 0);
	TAP_CHECK(raw_send(fd, hello, sizeof(hello)));
	expected_size = tiny_size;
	for (i = 0; i < ACK_FRAMES; i++) {
		uint8_t *g = make_frame(i, ERA_MSG_VALUE_OFF);

		/* One frame per event: the receiver must still coalesce. */
		TAP_CHECK(raw_send(fd, g, ERA_MSG_VALUE_OFF));
		free(g);
		if (i % 5)
			continue;
		run_until(NULL, NULL, 0);
	}
	end = now_ms() + 5000;
	while (seq < ACK_FRAMES && now_ms() < end) {
		ssize_t n;

		run_until(NULL, NULL, 10);
		while ((n = recv(fd, rec + got, sizeof(rec) - got,
				 MSG_DONTWAIT)) > 0) {
			got += (size_t)n;
			if (got < sizeof(rec))
				continue;
			got = 0;
			acks++;
			seq = bytes_get_le64(rec + GRP_ACK_SEQ_OFF);
		}
	}
	TAP_CHECK_UINT(seq, ACK_FRAMES);
	tap_diag("%u ack records for %u frames", acks, ACK_FRAMES);
	TAP_CHECK(acks >= 2 && acks <= 1 + ACK_FRAMES / 16);
	TAP_CHECK_UINT(w.rx[0].count[1], ACK_FRAMES);
	TAP_CHECK_UINT(w.rx[0].bad, 0);
out:
	expected_size = frame_size;
	free(f);
	if (fd >= 0)
		close(fd);
	world_close(&w);
}

/* ---- the job key ------------------------------------------------------- */

static void world_key(struct world *w, uint32_t rank, uint8_t fill)
{
	w->spec[rank].has_key = true;
	memset(w->spec[rank].key, fill, sizeof(w->spec[rank].key));
}

#define KEY_FRAMES 60

static bool key_delivered(const void *arg)
{
	const struct world *w = arg;

	return w->rx[1].count[0] == KEY_FRAMES &&
	       w->rx[0].count[1] == KEY_FRAMES;
}

static void test_key_ok(const void *arg)
{
	struct world w;

	(void)arg;
	world_init(&w, 2);
	world_key(&w, 0, 0x5a);
	world_key(&w, 1, 0x5a);
	if (!TAP_CHECK(world_open(&w, 0)) || !TAP_CHECK(world_open(&w, 1)))
		goto out;
	/* Queued before connecting, and sent while connected. */
	send_frames(&w, 0, 1, 0, KEY_FRAMES / 2, NULL);
	send_frames(&w, 1, 0, 0, KEY_FRAMES, NULL);
	run_until(NULL, NULL, 50);
	send_frames(&w, 0, 1, KEY_FRAMES / 2, KEY_FRAMES / 2, NULL);
	TAP_CHECK(run_until(key_delivered, &w, 10000));
	TAP_CHECK_UINT(w.rx[0].bad + w.rx[1].bad, 0);
	TAP_CHECK_UINT(stats_of(w.t[0]).dropped, 0);
	TAP_CHECK_UINT(stats_of(w.t[1]).dropped, 0);
	TAP_CHECK_UINT(stats_of(w.t[0]).connects, 1);
	TAP_CHECK_UINT(stats_of(w.t[1]).frames_sent, KEY_FRAMES);
out:
	world_close(&w);
}

/* Rank 1 has another key (or none): refused, nothing delivered. */
static void test_key_wrong(const void *arg)
{
	bool keyless = arg != NULL;
	struct world w;
	uint64_t end;

	world_init(&w, 2);
	world_key(&w, 0, 0x5a);
	if (!keyless)
		world_key(&w, 1, 0xa5);
	if (!TAP_CHECK(world_open(&w, 0)) || !TAP_CHECK(world_open(&w, 1)))
		goto out;
	send_frames(&w, 1, 0, 0, 5, NULL);
	/* Wait for a refusal, then for retries to be refused too. */
	end = now_ms() + 5000;
	while (stats_of(w.t[keyless ? 0 : 1]).dropped < 1 && now_ms() < end)
		run_until(NULL, NULL, 10);
	run_until(NULL, NULL, 300);
	TAP_CHECK_UINT(stats_of(w.t[0]).frames_received, 0);
	TAP_CHECK_UINT(w.rx[0].count[1], 0);
	if (keyless) {
		/* It wrote its frames blindly; rank 0 refused the hello. */
		TAP_CHECK(stats_of(w.t[0]).dropped >= 1);
		goto out;
	}
	/* Rank 1 refuses rank 0's answer, keeps its queue, retries. */
	TAP_CHECK(stats_of(w.t[1]).dropped >= 2);
	TAP_CHECK(stats_of(w.t[1]).connects >= 2);
	TAP_CHECK_UINT(stats_of(w.t[1]).frames_sent, 0);
out:
	world_close(&w);
}

/*
 * A raw connector with a key speaks to rank 0: it checks rank 0's answer
 * and sends its own MAC, made with @arg's key (the right one or not).
 */
static void test_key_raw(const void *arg)
{
	bool right = arg != NULL;
	struct world w;
	uint8_t key[GRP_AUTH_KEY_LEN], first[GRP_HELLO_LEN + GRP_AUTH_NONCE_LEN];
	uint8_t reply[GRP_AUTH_NONCE_LEN + GRP_AUTH_MAC_LEN];
	uint8_t mac[GRP_AUTH_MAC_LEN];
	size_t got = 0, len = frame_size(0);
	uint8_t *f = make_frame(0, len);
	uint64_t end;
	int fd = -1;

	world_init(&w, 2);
	world_key(&w, 0, 0x5a);
	if (!TAP_CHECK(world_open(&w, 0)))
		goto out;
	fd = raw_connect(&w, 0);
	if (!TAP_CHECK(fd >= 0))
		goto out;
	grp_wire_hello(first, JOB, 1, 0);
	bytes_put_le16(first + GRP_HELLO_FLAGS_OFF, GRP_HELLO_F_AUTH);
	TAP_CHECK_INT(grp_auth_nonce(first + GRP_HELLO_LEN), 0);
	TAP_CHECK(raw_send(fd, first, sizeof(first)));
	end = now_ms() + 5000;
	while (got < sizeof(reply) && now_ms() < end) {
		ssize_t n;

		run_until(NULL, NULL, 10);
		n = recv(fd, reply + got, sizeof(reply) - got, MSG_DONTWAIT);
		if (n > 0)
			got += (size_t)n;
	}
	if (!TAP_CHECK_UINT(got, sizeof(reply)))
		goto out;
	/* Rank 0 proved the key. */
	memset(key, 0x5a, sizeof(key));
	grp_auth_mac(key, GRP_AUTH_ROLE_ACCEPTOR, first, first + GRP_HELLO_LEN,
		     reply, mac);
	TAP_CHECK_MEM(reply + GRP_AUTH_NONCE_LEN, mac, sizeof(mac));
	if (!right)
		key[0] ^= 1;
	grp_auth_mac(key, GRP_AUTH_ROLE_CONNECTOR, first, first + GRP_HELLO_LEN,
		     reply, mac);
	TAP_CHECK(raw_send(fd, mac, sizeof(mac)));
	TAP_CHECK(raw_send(fd, f, len));
	end = now_ms() + 5000;
	while (stats_of(w.t[0]).dropped + stats_of(w.t[0]).frames_received < 1 &&
	       now_ms() < end)
		run_until(NULL, NULL, 10);
	run_until(NULL, NULL, 50);
	TAP_CHECK_UINT(stats_of(w.t[0]).dropped, right ? 0 : 1);
	TAP_CHECK_UINT(stats_of(w.t[0]).frames_received, right ? 1 : 0);
	TAP_CHECK_UINT(w.rx[0].count[1], right ? 1 : 0);
	TAP_CHECK(raw_closed(fd) == !right);
out:
	free(f);
	if (fd >= 0)
		close(fd);
	world_close(&w);
}

/* A keyed rank refuses a hello without the key flag: the old protocol. */
static void test_key_plain_hello(const void *arg)
{
	struct world w;
	uint8_t hello[GRP_HELLO_LEN];
	uint8_t *f = make_frame(0, frame_size(0));
	uint64_t end;
	int fd = -1;

	(void)arg;
	world_init(&w, 2);
	world_key(&w, 0, 0x5a);
	if (!TAP_CHECK(world_open(&w, 0)))
		goto out;
	fd = raw_connect(&w, 0);
	if (!TAP_CHECK(fd >= 0))
		goto out;
	grp_wire_hello(hello, JOB, 1, 0);
	TAP_CHECK(raw_send(fd, hello, sizeof(hello)));
	TAP_CHECK(raw_send(fd, f, frame_size(0)));
	end = now_ms() + 5000;
	while (stats_of(w.t[0]).dropped < 1 && now_ms() < end)
		run_until(NULL, NULL, 10);
	TAP_CHECK_UINT(stats_of(w.t[0]).dropped, 1);
	TAP_CHECK(raw_closed(fd));
	TAP_CHECK_UINT(stats_of(w.t[0]).frames_received, 0);
out:
	free(f);
	if (fd >= 0)
		close(fd);
	world_close(&w);
}

int main(void)
{
	size_t i;
	int ret;

	/* A block of ports of its own per run: 20000..31999, by pid. */
	next_port = (uint16_t)(20000 + (getpid() % 120) * 100);
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0) {
		printf("Bail out! epoll_create1: %s\n", strerror(errno));
		return 2;
	}
	tap_add(test_ordered, NULL, "ordered delivery, many sizes, > 1 MiB");
	tap_add(test_ipv6, NULL, "IPv6");
	tap_add(test_send_checks, NULL, "send checks; port in use");
	tap_add(test_late_listener, NULL, "late listener: retried, nothing lost");
	tap_add(test_peer_dead, NULL, "dead peer: queue dropped, no retries");
	tap_add(test_restart, NULL,
		"a restarted rank (incarnation 2): both directions start over");
	tap_add(test_dead_closes_incoming, NULL,
		"dead peer: its connections closed");
	for (i = 0; i < sizeof(bad_hellos) / sizeof(bad_hellos[0]); i++)
		tap_add(test_bad_hello, &bad_hellos[i], "hello refused: %s",
			bad_hellos[i].name);
	tap_add(test_bad_frame, NULL, "bad frame closes the connection");
	tap_add(test_partial_frame, NULL, "partial frame then close: discarded");
	tap_add(test_reset_mid_frame, NULL,
		"reset mid-frame: unacknowledged frames resent, none lost");
	tap_add(test_duplicates, NULL,
		"two connections from one sender: duplicates dropped");
	tap_add(test_acks, NULL, "acks coalesced, the sender's queue freed");
	tap_add(test_key_ok, NULL, "key: same key both ways, all delivered");
	tap_add(test_key_wrong, NULL, "key: wrong key refused, nothing delivered");
	tap_add(test_key_wrong, "", "key: keyless peer refused, nothing delivered");
	tap_add(test_key_raw, "", "key: acceptor proves the key, right MAC accepted");
	tap_add(test_key_raw, NULL, "key: forged MAC refused, nothing delivered");
	tap_add(test_key_plain_hello, NULL, "key: hello without the key refused");
	ret = tap_run();
	close(epfd);
	return ret;
}
