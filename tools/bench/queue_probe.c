// SPDX-License-Identifier: GPL-2.0
/* The queue probe (queue_probe.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "intervals.h"
#include "queue_probe.h"

/* Room for an episode every 5 ms of each CPU's ten minutes. */
#define EPISODE_MAX		(1U << 18)
#define MAX_PROBES		64
/* Datagrams in flight per probe; one sent this long ago is lost. */
#define IN_FLIGHT		256
#define GIVE_UP_NS		(IN_FLIGHT / 2 * QUEUE_PROBE_NS)

struct probe {
	pthread_t thread;
	int fd;
	uint64_t sent_at[IN_FLIGHT];
	uint64_t next_seq, resolved;	/* sent; judged: lost or arrived */
	bool in_episode;
	uint64_t episode_from, episode_to;
	struct queue_probe_totals totals;
};

static struct interval episode_slots[EPISODE_MAX];
static struct interval_log episodes = INTERVAL_LOG_INIT(episode_slots);
static atomic_bool probe_stop;
static uint64_t late_ns;
static struct probe probes[MAX_PROBES];
static long nprobes, nrunning;	/* set up; threads not joined yet */

/* Datagram @seq judged: late or lost (@bad) up to @seen, or on time. */
static void judge(struct probe *p, uint64_t seq, bool bad, uint64_t seen)
{
	uint64_t sent = p->sent_at[seq % IN_FLIGHT];

	p->resolved = seq + 1;
	if (!bad) {
		if (p->in_episode)
			interval_log_add(&episodes, p->episode_from,
					 p->episode_to);
		p->in_episode = false;
		return;
	}
	if (!p->in_episode) {
		p->in_episode = true;
		p->episode_from = sent;
		p->episode_to = seen;
	} else if (seen > p->episode_to) {
		p->episode_to = seen;
	}
}

static void lost(struct probe *p, uint64_t seq)
{
	p->totals.lost++;
	/* Only that the queue was full when it was sent is known. */
	judge(p, seq, true, p->sent_at[seq % IN_FLIGHT]);
}

static void arrived(struct probe *p, uint64_t seq, uint64_t now)
{
	uint64_t delay = now - p->sent_at[seq % IN_FLIGHT];

	/* One CPU's backlog is FIFO: what was sent before and is missing
	 * was dropped. */
	while (p->resolved < seq)
		lost(p, p->resolved);
	if (delay > p->totals.max_delay_ns)
		p->totals.max_delay_ns = delay;
	p->totals.late += delay >= late_ns;
	judge(p, seq, delay >= late_ns, now);
}

static void receive(struct probe *p)
{
	uint64_t seq, now;

	while (recv(p->fd, &seq, sizeof(seq), MSG_DONTWAIT) == sizeof(seq)) {
		now = mono_ns();
		/* Older than what was judged: one given up on. */
		if (seq >= p->resolved && seq < p->next_seq)
			arrived(p, seq, now);
	}
}

static void send_one(struct probe *p, uint64_t now)
{
	uint64_t seq = p->next_seq;

	if (seq - p->resolved >= IN_FLIGHT)
		lost(p, p->resolved);
	p->sent_at[seq % IN_FLIGHT] = now;
	p->next_seq++;
	p->totals.sent++;
	/* A send refused (no buffer) is a datagram the queue did not take. */
	if (send(p->fd, &seq, sizeof(seq), 0) != sizeof(seq))
		lost(p, seq);
}

static void *probe_main(void *arg)
{
	struct probe *p = arg;
	struct sched_param sp = { .sched_priority = 50 };
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
	uint64_t next = mono_ns(), now, wait;
	struct timespec ts;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((int)(p - probes), &set);
	/* Pinned, so that its datagrams take this CPU's queue, in order. */
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		return NULL;
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	while (!atomic_load(&probe_stop)) {
		now = mono_ns();
		if (now >= next) {
			send_one(p, now);
			next += QUEUE_PROBE_NS;
			if (next <= now)
				next = now + QUEUE_PROBE_NS;
		}
		while (p->resolved < p->next_seq &&
		       now - p->sent_at[p->resolved % IN_FLIGHT] > GIVE_UP_NS)
			lost(p, p->resolved);
		wait = next > now ? next - now : 0;
		ts.tv_sec = (time_t)(wait / 1000000000ULL);
		ts.tv_nsec = (long)(wait % 1000000000ULL);
		if (ppoll(&pfd, 1, &ts, NULL) > 0)
			receive(p);
	}
	if (p->in_episode)
		interval_log_add(&episodes, p->episode_from, p->episode_to);
	return NULL;
}

/* A UDP socket on loopback that sends to itself. */
static int self_socket(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(fd, (struct sockaddr *)&a, &len) ||
	    connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

int queue_probe_start(uint64_t late)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int err;

	late_ns = late;
	interval_log_reset(&episodes);
	atomic_store(&probe_stop, false);
	nrunning = 0;
	for (nprobes = 0; nprobes < MAX_PROBES && nprobes < online; nprobes++) {
		struct probe *p = &probes[nprobes];

		*p = (struct probe){ .fd = self_socket() };
		err = p->fd < 0 ? -p->fd :
		      pthread_create(&p->thread, NULL, probe_main, p);
		if (err) {
			if (p->fd >= 0)
				close(p->fd);
			queue_probe_stop();
			return -err;
		}
		nrunning = nprobes + 1;
	}
	return 0;
}

void queue_probe_stop(void)
{
	long i;

	atomic_store(&probe_stop, true);
	for (i = 0; i < nrunning; i++) {
		pthread_join(probes[i].thread, NULL);
		close(probes[i].fd);
	}
	/* nprobes stays: the totals stay readable. */
	nrunning = 0;
}

bool queue_probe_within(uint64_t from, uint64_t to, uint64_t len_ns)
{
	return interval_log_within(&episodes, from, to, len_ns);
}

void queue_probe_summary(uint64_t long_ns, struct interval_summary *s,
			 struct queue_probe_totals *t)
{
	long i;

	interval_log_summary(&episodes, long_ns, s);
	*t = (struct queue_probe_totals){ 0 };
	for (i = 0; i < nprobes; i++) {
		const struct queue_probe_totals *pt = &probes[i].totals;

		t->sent += pt->sent;
		t->late += pt->late;
		t->lost += pt->lost;
		if (pt->max_delay_ns > t->max_delay_ns)
			t->max_delay_ns = pt->max_delay_ns;
	}
}
