// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-radix-proc: stabilization time of the radix-tree membership
 * service (libftnl/radix) among real processes on loopback TCP, next to
 * the paper's model (section 4) with L measured here:
 *
 *	Ts = 2 * L * (H - 1) + Ocp * H
 *
 * For each n, the parent forks n processes (ids 0..n-1), each running the
 * real engine in an epoll loop (a listening socket the parent bound, one
 * outgoing TCP connection per peer opened before the measurement, as the
 * paper's model has no connection setup; messages through the real
 * codec), then measures three scenarios on fresh groups: one failure (the
 * highest id, a leaf), a root failure (id 0) and a join (a new process,
 * id n, forked after the group is up). The failure detector is the
 * parent: it SIGKILLs the victim, reaps it and only then tells every
 * survivor through its control pipe (perfect, as the protocol needs).
 *
 * Each process reports to the parent, with CLOCK_MONOTONIC times (one
 * clock for every process of the host): "I" when it issues a round as
 * the root, "S" when the root knows it stable. Stabilization is the time
 * from the first round issued after the event to the last one stable -
 * what the paper's Ts and the simulator's figure measure; "from the
 * event" adds the detection (the parent's notification). L is half the
 * mean round trip of a small message between two processes on loopback
 * TCP, measured before the runs; Ocp is the paper's 2 us. Figures only
 * (make bench), never pass/fail.
 *
 *	ftnl-radix-proc [--min N] [--max N] [--fanout A] [--reps R]
 *
 * (fan-outs 2 and 4 unless --fanout; n = 8, 16, 32, 64 by default)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "msg.h"
#include "tree.h"

#define MAXP		128
#define GROUP_ID	0x7261646978ull

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* ---- one process ---------------------------------------------------------- */

struct conn {
	int fd;
	uint8_t *buf;
	size_t len, cap;
};

/* Each id's port: the parent binds every listening socket before forking. */
static uint16_t ports[MAXP];
static int listen_fds[MAXP];

struct proc {
	uint32_t id, cap;
	int listen_fd, ctl_fd, report_fd, epfd;
	int out[MAXP];			/* outgoing connection per id, -1 */
	bool unreachable[MAXP];		/* to tell the engine after the call */
	struct conn in[2 * MAXP];
	struct radix_node *node;
	struct radix_inbox inbox;
	struct radix_sink sink;
	uint8_t tx[1 << 20];
};

static void report(struct proc *p, char what, const struct radix_msg *m)
{
	char line[96];
	int n = snprintf(line, sizeof(line), "%c %u %llu %u %llu\n", what,
			 p->id, (unsigned long long)m->view->seq,
			 m->view->count, (unsigned long long)now_ns());

	if (write(p->report_fd, line, (size_t)n) != n)
		die("report");
}

static int connect_to(uint32_t to)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(ports[to]) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0)
		die("socket");
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void sink_send(void *ctx, uint32_t to, const struct radix_msg *m)
{
	struct proc *p = ctx;
	size_t len = radix_msg_encode(m, p->tx, sizeof(p->tx)), off = 0;

	if (!len || to >= MAXP)
		die("encode");
	if (p->out[to] < 0)
		p->out[to] = connect_to(to);
	if (p->out[to] < 0) {
		p->unreachable[to] = true;	/* refused: nobody there */
		return;
	}
	while (off < len) {
		ssize_t n = send(p->out[to], p->tx + off, len - off,
				 MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* Died: the detector will say so. */
			close(p->out[to]);
			p->out[to] = -1;
			return;
		}
		off += (size_t)n;
	}
}

static void sink_view(void *ctx, const struct radix_view *v)
{
	(void)ctx;
	(void)v;
}

static void sink_round(void *ctx, const struct radix_msg *m, bool stable)
{
	report(ctx, stable ? 'S' : 'I', m);
}

static void tell_unreachable(struct proc *p)
{
	for (uint32_t id = 0; id < p->cap; id++) {
		if (!p->unreachable[id])
			continue;
		p->unreachable[id] = false;
		radix_on_unreachable(p->node, id, &p->sink);
	}
}

static void add_fd(struct proc *p, int fd, uint64_t tag)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = tag };

	if (epoll_ctl(p->epfd, EPOLL_CTL_ADD, fd, &ev))
		die("epoll_ctl");
}

/* Feed every whole message of @c to the engine; false on EOF or error. */
static bool conn_read(struct proc *p, struct conn *c)
{
	size_t off = 0, len;
	ssize_t n;

	if (c->cap - c->len < 65536) {
		c->cap = c->cap * 2 + 65536;
		c->buf = realloc(c->buf, c->cap);
		if (!c->buf)
			die("realloc");
	}
	n = recv(c->fd, c->buf + c->len, c->cap - c->len, 0);
	if (n <= 0)
		return false;
	c->len += (size_t)n;
	while (!radix_msg_frame(c->buf + off, c->len - off, &len) &&
	       c->len - off >= len) {
		if (radix_msg_decode(c->buf + off, len, &p->inbox))
			die("decode");
		if (radix_on_message(p->node, &p->inbox.msg, &p->sink))
			die("radix_on_message");
		tell_unreachable(p);
		off += len;
	}
	memmove(c->buf, c->buf + off, c->len - off);
	c->len -= off;
	return true;
}

/* The parent's control line: "dead ID INC". */
static void on_control(struct proc *p)
{
	char line[64];
	ssize_t n = read(p->ctl_fd, line, sizeof(line) - 1);
	unsigned int id, inc;

	if (n <= 0)
		exit(0);	/* the parent is done with us */
	line[n] = '\0';
	for (char *s = line; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : s)
		if (sscanf(s, "dead %u %u", &id, &inc) == 2) {
			if (p->out[id] >= 0) {
				close(p->out[id]);
				p->out[id] = -1;
			}
			radix_on_failure(p->node, id, inc, &p->sink);
			tell_unreachable(p);
		}
}

static void proc_main(uint32_t id, uint32_t cap, uint32_t initial,
		      uint32_t fanout, bool join, int ctl_fd, int report_fd,
		      int ready_fd)
{
	static struct proc p;
	struct radix_config rc = {
		.group = GROUP_ID, .cap = cap, .fanout = fanout, .self = id,
		.inc = 1, .initial = initial, .join = join,
	};

	memset(&p, 0, sizeof(p));
	p.id = id;
	p.cap = cap;
	p.ctl_fd = ctl_fd;
	p.report_fd = report_fd;
	for (uint32_t i = 0; i < MAXP; i++)
		p.out[i] = -1;
	for (uint32_t i = 0; i < 2 * MAXP; i++)
		p.in[i].fd = -1;
	p.listen_fd = listen_fds[id];
	for (uint32_t i = 0; i < cap; i++)
		if (i != id)
			close(listen_fds[i]);
	/* Every connection up before the measurement (none for a joiner). */
	for (uint32_t i = 0; i < initial && !join; i++)
		if (i != id && (p.out[i] = connect_to(i)) < 0)
			die("connect");
	p.epfd = epoll_create1(EPOLL_CLOEXEC);
	if (p.epfd < 0)
		die("epoll");
	add_fd(&p, p.listen_fd, UINT64_MAX);
	add_fd(&p, p.ctl_fd, UINT64_MAX - 1);
	if (radix_inbox_init(&p.inbox, cap) || radix_create(&rc, &p.node))
		die("radix_create");
	p.sink = (struct radix_sink){ .send = sink_send, .view = sink_view,
				      .round = sink_round, .ctx = &p };
	/* Listening: the parent may start the next one. */
	if (write(ready_fd, "r", 1) != 1)
		die("ready");
	close(ready_fd);
	if (radix_start(p.node, &p.sink))
		die("radix_start");
	tell_unreachable(&p);
	for (;;) {
		struct epoll_event ev;
		int n = epoll_wait(p.epfd, &ev, 1, -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			die("epoll_wait");
		if (ev.data.u64 == UINT64_MAX) {
			int fd = accept4(p.listen_fd, NULL, NULL, SOCK_CLOEXEC);
			uint32_t slot = 0;

			while (slot < 2 * MAXP && p.in[slot].fd >= 0)
				slot++;
			if (fd < 0 || slot == 2 * MAXP)
				die("accept");
			p.in[slot].fd = fd;
			add_fd(&p, fd, slot);
		} else if (ev.data.u64 == UINT64_MAX - 1) {
			on_control(&p);
		} else {
			struct conn *c = &p.in[ev.data.u64];

			if (!conn_read(&p, c)) {
				epoll_ctl(p.epfd, EPOLL_CTL_DEL, c->fd, NULL);
				close(c->fd);
				c->fd = -1;
				c->len = 0;
			}
		}
	}
}

/* ---- the parent ------------------------------------------------------------ */

struct child {
	pid_t pid;
	int ctl;	/* the parent's end of its control pipe */
};

static int report_rd;	/* every process writes its reports here */

static void spawn(struct child *c, uint32_t id, uint32_t cap, uint32_t initial,
		  uint32_t fanout, bool join, int report_wr)
{
	int ctl[2], ready[2];
	char r;

	if (pipe2(ctl, O_CLOEXEC) || pipe2(ready, O_CLOEXEC))
		die("pipe");
	c->pid = fork();
	if (c->pid < 0)
		die("fork");
	if (!c->pid) {
		close(ctl[1]);
		close(ready[0]);
		close(report_rd);
		proc_main(id, cap, initial, fanout, join, ctl[0], report_wr,
			  ready[1]);
		_exit(0);
	}
	close(ctl[0]);
	close(ready[1]);
	if (read(ready[0], &r, 1) != 1)
		die("child not ready");
	close(ready[0]);
	c->ctl = ctl[1];
}

/* Read reports until the root says a view of @count members is stable. */
struct timing {
	uint64_t first_issue, stable;
};

static int wait_stable(uint32_t count, uint64_t since, struct timing *t)
{
	static char buf[1 << 16];
	static size_t len;

	t->first_issue = 0;
	for (;;) {
		char *nl;
		ssize_t n;

		while ((nl = memchr(buf, '\n', len))) {
			char what;
			unsigned int id, cnt;
			unsigned long long seq, ts;

			*nl = '\0';
			if (sscanf(buf, "%c %u %llu %u %llu", &what, &id, &seq,
				   &cnt, &ts) == 5 && ts >= since) {
				if (what == 'I' && !t->first_issue)
					t->first_issue = ts;
				if (what == 'S' && cnt == count) {
					t->stable = ts;
					len -= (size_t)(nl + 1 - buf);
					memmove(buf, nl + 1, len);
					return 0;
				}
			}
			len -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, len);
		}
		{
			struct pollfd pfd = { .fd = report_rd, .events = POLLIN };

			if (poll(&pfd, 1, 20000) <= 0)
				return -1;	/* 20 s without news: stuck */
		}
		n = read(report_rd, buf + len, sizeof(buf) - len);
		if (n <= 0)
			return -1;
		len += (size_t)n;
	}
}

static void kill_and_tell(struct child *c, uint32_t n, uint32_t victim)
{
	char line[32];
	int len = snprintf(line, sizeof(line), "dead %u 1\n", victim);

	kill(c[victim].pid, SIGKILL);
	waitpid(c[victim].pid, NULL, 0);
	close(c[victim].ctl);
	c[victim].pid = 0;
	for (uint32_t i = 0; i < n; i++)
		if (c[i].pid && write(c[i].ctl, line, (size_t)len) != len)
			die("control");
}

static void stop_all(struct child *c, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (!c[i].pid)
			continue;
		kill(c[i].pid, SIGKILL);
		waitpid(c[i].pid, NULL, 0);
		close(c[i].ctl);
		c[i].pid = 0;
	}
}

enum scenario { ONE_FAILURE, ROOT_FAILURE, JOIN, SCENARIOS };

static const char *const names[] = { "one failure", "root failure", "join" };

/* One run of @s among @n processes; the times in us, -1 if it stalled. */
static int run(uint32_t n, uint32_t a, enum scenario s, int report_wr,
	       double *stab_us, double *event_us)
{
	struct child c[MAXP] = { 0 };
	struct timing t = { 0, 0 };
	uint64_t t0;
	uint32_t want;
	int err;

	for (uint32_t id = 0; id <= n; id++) {
		struct sockaddr_in sin = { .sin_family = AF_INET };
		socklen_t sl = sizeof(sin);

		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		listen_fds[id] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (listen_fds[id] < 0 ||
		    bind(listen_fds[id], (struct sockaddr *)&sin, sizeof(sin)) ||
		    listen(listen_fds[id], SOMAXCONN) ||
		    getsockname(listen_fds[id], (struct sockaddr *)&sin, &sl))
			die("listen");
		ports[id] = ntohs(sin.sin_port);
	}
	for (uint32_t id = 0; id < n; id++)
		spawn(&c[id], id, n + 1, n, a, false, report_wr);
	/* Nothing moves until the event: no message at initialization. */
	t0 = now_ns();
	if (s == JOIN) {
		spawn(&c[n], n, n + 1, n, a, true, report_wr);
		want = n + 1;
	} else {
		kill_and_tell(c, n, s == ROOT_FAILURE ? 0 : n - 1);
		want = n - 1;
	}
	err = wait_stable(want, t0, &t);
	stop_all(c, n + 1);
	for (uint32_t id = 0; id <= n; id++)
		close(listen_fds[id]);
	if (err || !t.first_issue)
		return -1;
	*stab_us = (double)(t.stable - t.first_issue) / 1e3;
	*event_us = (double)(t.stable - t0) / 1e3;
	return 0;
}

/* Half the mean round trip of a 64-byte message on loopback TCP. */
static double measure_latency_us(void)
{
	int sv[2], one = 1, lfd;
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t sl = sizeof(sin);
	char b[64] = { 0 };
	uint64_t t0;
	pid_t pid;
	const int rounds = 2000;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(lfd, 1) || getsockname(lfd, (struct sockaddr *)&sin, &sl))
		die("latency listen");
	pid = fork();
	if (!pid) {
		int fd = accept(lfd, NULL, NULL);

		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		for (int i = 0; i < rounds; i++)
			if (recv(fd, b, sizeof(b), MSG_WAITALL) != sizeof(b) ||
			    send(fd, b, sizeof(b), 0) != sizeof(b))
				_exit(1);
		_exit(0);
	}
	sv[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(sv[0], (struct sockaddr *)&sin, sizeof(sin)))
		die("latency connect");
	setsockopt(sv[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	t0 = now_ns();
	for (int i = 0; i < rounds; i++)
		if (send(sv[0], b, sizeof(b), 0) != sizeof(b) ||
		    recv(sv[0], b, sizeof(b), MSG_WAITALL) != sizeof(b))
			die("latency");
	sv[1] = (int)((now_ns() - t0) / 1000);
	close(sv[0]);
	close(lfd);
	waitpid(pid, NULL, 0);
	return (double)sv[1] / rounds / 2;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	uint32_t min = 8, max = 64, fanout = 0, reps = 5;
	int rep[2];
	double latency, ocp = 2;

	for (int i = 1; i + 1 < argc; i += 2) {
		uint32_t v = (uint32_t)strtoul(argv[i + 1], NULL, 0);

		if (!strcmp(argv[i], "--min"))
			min = v;
		else if (!strcmp(argv[i], "--max"))
			max = v;
		else if (!strcmp(argv[i], "--fanout"))
			fanout = v;
		else if (!strcmp(argv[i], "--reps"))
			reps = v;
		else
			return fprintf(stderr, "usage: see proc.c\n"), 2;
	}
	if (max + 1 > MAXP || min < 2 || (fanout && !radix_fanout_ok(fanout)) ||
	    !reps || reps > 64)
		return fprintf(stderr, "ftnl-radix-proc: n in 2..%d, fan-out a power of two, reps 1..64\n",
			       MAXP - 1), 2;
	signal(SIGPIPE, SIG_IGN);
	if (pipe2(rep, O_CLOEXEC))
		die("pipe");
	report_rd = rep[0];
	latency = measure_latency_us();
	printf("# radix-tree membership among real processes (loopback TCP), "
	       "median of %u runs\n", reps);
	printf("# L = %.1f us (half a measured round trip), Ocp = %.0f us; "
	       "model Ts = 2 L (H - 1) + Ocp H, H for n - 1 (failure) or "
	       "n + 1 (join)\n", latency, ocp);
	printf("# stab: first round issued to the last stable; from_event: "
	       "the parent's notification (or the joiner's start) to stable\n");
	printf("%-3s %4s %-13s %3s %9s %9s %11s\n", "a", "n", "scenario", "H",
	       "model_us", "stab_us", "from_event");
	for (uint32_t a = fanout ? fanout : 2; a <= (fanout ? fanout : 4);
	     a *= 2)
	for (uint32_t n = min; n <= max; n *= 2)
		for (int s = 0; s < SCENARIOS; s++) {
			double st[64], ev[64];
			uint32_t m = s == JOIN ? n + 1 : n - 1, ok = 0;

			for (uint32_t r = 0; r < reps; r++)
				if (!run(n, a, s, rep[1], &st[ok], &ev[ok]))
					ok++;
			if (!ok) {
				printf("%-3u %4u %-13s stalled\n", a, n,
				       names[s]);
				continue;
			}
			qsort(st, ok, sizeof(*st), cmp_double);
			qsort(ev, ok, sizeof(*ev), cmp_double);
			printf("%-3u %4u %-13s %3u %9.0f %9.0f %11.0f\n", a,
			       n, names[s], radix_model_height(m, a),
			       radix_model_ts(m, a, latency, ocp),
			       st[ok / 2], ev[ok / 2]);
			fflush(stdout);
		}
	return 0;
}
