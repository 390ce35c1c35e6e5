// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-uring: the observation ring of Algorithm 1 run by an ordinary
 * process, the baseline the kernel ring is compared with (paper §5.1: a
 * library thread emitting heartbeats next to the application).
 *
 *   ftnl-uring --self ID --nodes N --net A.B.C --port P --hb-us H
 *              --timeout-us D [--cluster C] [--out FILE]
 *   SIGUSR1: start the measured window; SIGTERM: report and exit
 *
 * Node ids are 1..N, node ID listens on A.B.C.ID:P (UDP). It runs the very
 * same pure code as the module: Algorithm 1 and the membership state
 * (kmod/ring/core.c: the boot grace, the local health rule, NEW_OBSERVER
 * repeats, incarnations), the datagram header and the anti-replay window
 * (kmod/wire.c). Two threads at normal priority, both blocking, never
 * polling, and the core under a mutex:
 *
 *   heartbeat thread  T1: clock_nanosleep(TIMER_ABSTIME) to the next
 *                     multiple of h, ftnl_ring_core_tick(), record how
 *                     late it woke (same histogram as the kernel's)
 *   receive thread    epoll on the socket and a timerfd: datagrams (T2,
 *                     T4) and the suspicion timer (T3), which the core
 *                     sets as the kernel's hrtimer is set
 *
 * Timer slack is set to 1 ns (prctl), as a careful library would do.
 * Datagrams have the kernel ring's size and header; the 16-byte MAC is
 * sent as zeros and not checked (BLAKE2s of 36 bytes costs well under a
 * microsecond, nothing next to the scheduling delays measured here).
 *
 * SIGUSR1 starts the measured window: counters and histogram restart from
 * zero and the ring from its initial state (D empty, emitter and observer
 * the ring neighbors, the boot grace again until the emitter's first
 * heartbeat, as the kernel ring has when it is configured: the nodes get
 * the signal one after another), so that every node's start
 * (process creation, page faults) stays out of it; suspicions before it
 * are reported apart as warmup_suspicions.
 *
 * Runs until SIGTERM or SIGINT, then writes one line of counters
 * ("uring id=... hist=..."), parsed by ftnl-bench, and exits 0.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "../../kmod/ring/core.h"
#include "../../kmod/wire.h"
#include "hist.h"

#define DGRAM_LEN	(FTNL_WIRE_HDR_LEN + FTNL_WIRE_MAC_LEN)
#define SUSP_LOG_MAX	32

struct uring {
	/* configuration, read-only once threads run */
	u32 n;
	u32 self;			/* position: id - 1 */
	u32 cluster_id;
	uint64_t period_ns;		/* h */
	uint64_t timeout_ns;		/* d */
	uint64_t incarnation;
	struct sockaddr_in *addrs;	/* by position */
	int sock;
	int timerfd;
	int stopfd;			/* eventfd: wakes the receive thread to stop */
	int epfd;			/* socket, timerfd and stopfd */
	atomic_bool stop;
	atomic_bool restart_hist;	/* heartbeat thread: zero its figures */
	atomic_uint_fast64_t tx_seq;

	/* ring state, under @lock */
	pthread_mutex_t lock;
	struct ftnl_ring_core core;
	unsigned long *dead;		/* D, bitmap over positions */
	struct ftnl_ring_peer *peers;
	struct ftnl_replay *replay;	/* by position */

	uint64_t now;			/* of the core call in progress */

	/* counters, under @lock (the heartbeat thread's own are its alone) */
	uint64_t hb_recv, hb_from_emitter, suspicions, warmup_suspicions;
	uint64_t new_observer_sent, new_observer_recv, drops;
	uint64_t susp_time[SUSP_LOG_MAX];
	u32 susp_id[SUSP_LOG_MAX];
	atomic_uint_fast64_t hb_sent, tx_errors;

	/* heartbeat thread only */
	struct lat_hist hist;
	uint64_t fires, overruns;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static struct timespec ns_to_ts(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ULL),
		.tv_nsec = (long)(ns % 1000000000ULL),
	};

	return ts;
}

static void send_dgram(struct uring *r, u32 pos, u8 type)
{
	struct ftnl_wire_hdr hdr = {
		.magic = FTNL_WIRE_MAGIC,
		.version = FTNL_PROTO_VERSION,
		.type = type,
		.cluster_id = r->cluster_id,
		.sender_id = r->self + 1,
		.dest_id = pos + 1,
		.incarnation = r->incarnation,
		.first = r->incarnation,
	};
	u8 buf[DGRAM_LEN] = { 0 };

	if (pos == r->self)
		return;
	hdr.echo = r->core.peers[pos].heard;	/* under @lock, as every core call */
	hdr.seq = atomic_fetch_add(&r->tx_seq, 1) + 1;
	ftnl_wire_hdr_encode(buf, &hdr);
	if (sendto(r->sock, buf, sizeof(buf), 0,
		   (const struct sockaddr *)&r->addrs[pos],
		   sizeof(r->addrs[pos])) != (ssize_t)sizeof(buf))
		atomic_fetch_add(&r->tx_errors, 1);
	else if (type == FTNL_MSG_HEARTBEAT)
		atomic_fetch_add(&r->hb_sent, 1);
	else if (type == FTNL_MSG_NEW_OBSERVER)
		r->new_observer_sent++;	/* under @lock, as every core call */
}

/* The core's outputs (struct ftnl_ring_sink), under @lock. */
static void sink_send(void *ctx, u32 to, u8 type)
{
	send_dgram(ctx, to, type);
}

/* A failure entered D: log the ones this node observed (T3). */
static void sink_failed(void *ctx, u32 pos, bool originate)
{
	struct uring *r = ctx;

	(void)originate;
	if (r->peers[pos].cause != FTNL_CAUSE_OBSERVED)
		return;
	if (r->suspicions < SUSP_LOG_MAX) {
		r->susp_time[r->suspicions] = r->now;
		r->susp_id[r->suspicions] = pos + 1;
	}
	r->suspicions++;
}

static const struct ftnl_ring_sink *sink(struct uring *r, uint64_t now,
					 struct ftnl_ring_sink *out)
{
	r->now = now;
	*out = (struct ftnl_ring_sink){
		.send = sink_send,
		.failed = sink_failed,
		.ctx = r,
	};
	return out;
}

/* Set the timerfd where the core asks; @lock held. */
static void sync_timer(struct uring *r)
{
	struct itimerspec its = { 0 };
	u64 at;

	if (!ftnl_ring_core_take_timer(&r->core, &at))
		return;
	its.it_value = ns_to_ts(at);
	timerfd_settime(r->timerfd, TFD_TIMER_ABSTIME, &its, NULL);
}

/* Task T1, on the grid start + k * h, like the kernel's hrtimer_forward(). */
static void *heartbeat_thread(void *arg)
{
	struct uring *r = arg;
	uint64_t next = mono_ns(), now, skipped;
	struct ftnl_ring_sink out;
	struct timespec ts;

	while (!atomic_load(&r->stop)) {
		ts = ns_to_ts(next);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		now = mono_ns();
		if (atomic_exchange(&r->restart_hist, false)) {
			memset(&r->hist, 0, sizeof(r->hist));
			r->fires = r->overruns = 0;
		}
		lat_hist_add(&r->hist, (int64_t)(now - next));
		r->fires++;

		pthread_mutex_lock(&r->lock);
		/* The local health rule, fed as the module feeds it. */
		if (now > next)
			ftnl_ring_core_self_late(&r->core, now - next, now);
		ftnl_ring_core_tick(&r->core, now, sink(r, now, &out));
		pthread_mutex_unlock(&r->lock);

		/* The next grid point after now; missed ones are skipped. */
		skipped = (now - next) / r->period_ns;
		r->overruns += skipped;
		next += (skipped + 1) * r->period_ns;
	}
	return NULL;
}

/* SUSP-TIMEOUT: task T3 when due (the core decides). */
static void on_susp_timer(struct uring *r)
{
	struct ftnl_ring_sink out;
	uint64_t expirations, now;

	if (read(r->timerfd, &expirations, sizeof(expirations)) < 0)
		return;
	now = mono_ns();
	pthread_mutex_lock(&r->lock);
	ftnl_ring_core_expire(&r->core, now, sink(r, now, &out));
	sync_timer(r);
	pthread_mutex_unlock(&r->lock);
}

/* The kernel's checks but the MAC, then T2 or T4; @lock held. */
static void on_dgram(struct uring *r, const u8 *buf, ssize_t len, uint64_t now)
{
	struct ftnl_ring_sink out;
	struct ftnl_wire_hdr hdr;
	u32 pos;

	if (len != DGRAM_LEN)
		goto drop;
	ftnl_wire_hdr_decode(&hdr, buf);
	if (hdr.magic != FTNL_WIRE_MAGIC || hdr.version != FTNL_PROTO_VERSION ||
	    hdr.payload_len || hdr.cluster_id != r->cluster_id ||
	    hdr.sender_id < 1 || hdr.sender_id > r->n ||
	    hdr.sender_id == r->self + 1 || hdr.dest_id != r->self + 1)
		goto drop;
	pos = hdr.sender_id - 1;
	switch (ftnl_ring_core_admit(&r->core, pos, hdr.incarnation, hdr.first, hdr.echo,
				     now, sink(r, now, &out))) {
	case FTNL_RING_ACCEPT_NEW:
		r->replay[pos] = (struct ftnl_replay){ 0 };
		break;
	case FTNL_RING_ACCEPT:
		break;
	case FTNL_RING_UNPINNED:	/* acted on, no replay window yet */
		goto act;
	default:
		goto drop;
	}
	if (ftnl_replay_accept(&r->replay[pos], hdr.seq) != FTNL_REPLAY_NEW)
		goto drop;
act:
	switch (hdr.type) {
	case FTNL_MSG_HEARTBEAT:
		r->hb_recv++;
		if (ftnl_ring_core_heartbeat(&r->core, pos, now))
			r->hb_from_emitter++;
		return;
	case FTNL_MSG_NEW_OBSERVER:
		r->new_observer_recv++;
		ftnl_ring_core_new_observer(&r->core, pos, now, &out);
		return;
	case FTNL_MSG_HELLO:
		ftnl_ring_core_hello_rx(&r->core, pos, now, &out);
		return;
	case FTNL_MSG_HELLO_ACK:
		return;
	}
drop:
	r->drops++;
}

static void *receive_thread(void *arg)
{
	struct uring *r = arg;
	struct epoll_event ev[4];
	u8 buf[2048];
	ssize_t len;
	int i, n;

	for (;;) {
		n = epoll_wait(r->epfd, ev, 4, -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("ftnl-uring: epoll_wait");
			return NULL;
		}
		for (i = 0; i < n; i++) {
			if (ev[i].data.fd == r->stopfd)
				return NULL;
			if (ev[i].data.fd == r->timerfd) {
				on_susp_timer(r);
				continue;
			}
			while ((len = recv(r->sock, buf, sizeof(buf), MSG_DONTWAIT)) >= 0) {
				uint64_t now = mono_ns();

				pthread_mutex_lock(&r->lock);
				on_dgram(r, buf, len, now);
				sync_timer(r);
				pthread_mutex_unlock(&r->lock);
			}
		}
	}
}

/*
 * The ring from its initial state, as the kernel ring is when configured:
 * D empty, every peer alive (incarnations and replay windows are kept),
 * the ring neighbours, NEW_OBSERVER to the emitter, the boot grace.
 * @lock held.
 */
static void start_ring(struct uring *r)
{
	struct ftnl_ring_sink out;
	uint64_t now = mono_ns();
	u32 i;

	memset(r->dead, 0, ftnl_bitmap_longs(r->n) * sizeof(*r->dead));
	for (i = 0; i < r->n; i++) {
		r->peers[i].state = FTNL_NODE_STATE_ALIVE;
		r->peers[i].dead_incarnation = 0;
	}
	ftnl_ring_core_init(&r->core, r->n, r->self, r->period_ns,
			    r->timeout_ns, r->incarnation, r->dead, r->peers);
	ftnl_ring_core_start(&r->core, now, sink(r, now, &out));
	sync_timer(r);
}

/* SIGUSR1: the measured window starts now (see the top of the file). */
static void restart(struct uring *r)
{
	pthread_mutex_lock(&r->lock);
	r->warmup_suspicions += r->suspicions;
	r->hb_recv = r->hb_from_emitter = r->suspicions = 0;
	r->new_observer_sent = r->new_observer_recv = r->drops = 0;
	atomic_store(&r->hb_sent, 0);
	atomic_store(&r->tx_errors, 0);
	start_ring(r);
	pthread_mutex_unlock(&r->lock);
	atomic_store(&r->restart_hist, true);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ftnl-uring --self ID --nodes N --net A.B.C --port P "
		"--hb-us H --timeout-us D [--cluster C] [--out FILE]\n");
	exit(2);
}

static unsigned long parse_num(const char *text, unsigned long max)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno || end == text || *end || v > max)
		usage();
	return v;
}

static int report(struct uring *r, const char *path)
{
	char hist[LAT_BUCKETS * 21 + 1];
	FILE *f = stdout;
	uint64_t i;

	if (lat_hist_format(&r->hist, hist, sizeof(hist)))
		return -1;
	if (path) {
		f = fopen(path, "w");
		if (!f) {
			perror(path);
			return -1;
		}
	}
	fprintf(f, "uring id=%" PRIu32 " hb_sent=%" PRIu64 " hb_recv=%" PRIu64
		" hb_from_emitter=%" PRIu64 " suspicions=%" PRIu64
		" warmup_suspicions=%" PRIu64
		" new_observer_sent=%" PRIu64 " new_observer_recv=%" PRIu64
		" drops=%" PRIu64 " tx_errors=%" PRIu64 " fires=%" PRIu64
		" overruns=%" PRIu64 " max_ns=%" PRIu64 " hist=%s susp=",
		r->self + 1, (uint64_t)atomic_load(&r->hb_sent), r->hb_recv,
		r->hb_from_emitter, r->suspicions, r->warmup_suspicions,
		r->new_observer_sent,
		r->new_observer_recv, r->drops,
		(uint64_t)atomic_load(&r->tx_errors), r->fires, r->overruns,
		r->hist.max_ns, hist);
	for (i = 0; i < r->suspicions && i < SUSP_LOG_MAX; i++)
		fprintf(f, "%s%" PRIu64 ":%" PRIu32, i ? "," : "",
			r->susp_time[i], r->susp_id[i]);
	fprintf(f, "\n");
	if (path && fclose(f)) {
		perror(path);
		return -1;
	}
	return 0;
}

static int add_fd(int epfd, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "self", required_argument, NULL, 's' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "net", required_argument, NULL, 'a' },
		{ "port", required_argument, NULL, 'p' },
		{ "hb-us", required_argument, NULL, 'h' },
		{ "timeout-us", required_argument, NULL, 'd' },
		{ "cluster", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	struct uring r = { .sock = -1 };
	unsigned long self = 0, port = 0, hb_us = 0, timeout_us = 0;
	const char *net = NULL, *out = NULL;
	pthread_t hb_tid, rx_tid;
	struct sockaddr_in me;
	struct timespec ts;
	sigset_t sigs;
	int c, epfd, sig, err;
	u32 i;

	r.cluster_id = 0x75726e67;	/* "urng" */
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': self = parse_num(optarg, 250); break;
		case 'n': r.n = (u32)parse_num(optarg, 250); break;
		case 'a': net = optarg; break;
		case 'p': port = parse_num(optarg, 65535); break;
		case 'h': hb_us = parse_num(optarg, 60000000); break;
		case 'd': timeout_us = parse_num(optarg, 600000000); break;
		case 'c': r.cluster_id = (u32)parse_num(optarg, UINT32_MAX); break;
		case 'o': out = optarg; break;
		default: usage();
		}
	}
	if (optind != argc || !net || r.n < 2 || self < 1 || self > r.n ||
	    !port || !hb_us || timeout_us <= hb_us)
		usage();
	/* Timer slack is 50 us by default for a process; a careful heartbeat
	 * thread asks for none (no privilege needed), as kernel hrtimers have.
	 */
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL))
		perror("ftnl-uring: PR_SET_TIMERSLACK");
	r.self = (u32)self - 1;
	r.period_ns = hb_us * 1000ULL;
	r.timeout_ns = timeout_us * 1000ULL;
	clock_gettime(CLOCK_REALTIME, &ts);
	r.incarnation = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;

	r.addrs = calloc(r.n, sizeof(*r.addrs));
	r.peers = calloc(r.n, sizeof(*r.peers));
	r.replay = calloc(r.n, sizeof(*r.replay));
	r.dead = calloc(ftnl_bitmap_longs(r.n), sizeof(*r.dead));
	if (!r.addrs || !r.peers || !r.replay || !r.dead) {
		fprintf(stderr, "ftnl-uring: out of memory\n");
		return 1;
	}
	for (i = 0; i < r.n; i++) {
		char text[32];

		snprintf(text, sizeof(text), "%s.%" PRIu32, net, i + 1);
		r.addrs[i].sin_family = AF_INET;
		r.addrs[i].sin_port = htons((uint16_t)port);
		if (inet_pton(AF_INET, text, &r.addrs[i].sin_addr) != 1) {
			fprintf(stderr, "ftnl-uring: bad address %s\n", text);
			return 2;
		}
	}

	/* The signals that stop it are taken by sigwait() in main only. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);

	r.sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	me = r.addrs[r.self];
	if (r.sock < 0 || bind(r.sock, (struct sockaddr *)&me, sizeof(me))) {
		perror("ftnl-uring: socket");
		return 1;
	}
	r.timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	r.stopfd = eventfd(0, EFD_CLOEXEC);
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (r.timerfd < 0 || r.stopfd < 0 || epfd < 0 ||
	    add_fd(epfd, r.sock) || add_fd(epfd, r.timerfd) ||
	    add_fd(epfd, r.stopfd)) {
		perror("ftnl-uring: epoll");
		return 1;
	}
	r.epfd = epfd;

	pthread_mutex_init(&r.lock, NULL);
	pthread_mutex_lock(&r.lock);
	start_ring(&r);
	pthread_mutex_unlock(&r.lock);

	err = pthread_create(&rx_tid, NULL, receive_thread, &r);
	if (!err)
		err = pthread_create(&hb_tid, NULL, heartbeat_thread, &r);
	if (err) {
		fprintf(stderr, "ftnl-uring: pthread_create: %s\n", strerror(err));
		return 1;
	}

	for (;;) {
		if (sigwait(&sigs, &sig))
			continue;
		if (sig != SIGUSR1)
			break;
		restart(&r);
	}
	atomic_store(&r.stop, true);
	if (eventfd_write(r.stopfd, 1))
		perror("ftnl-uring: eventfd_write");
	pthread_join(rx_tid, NULL);
	pthread_join(hb_tid, NULL);
	return report(&r, out) ? 1 : 0;
}
