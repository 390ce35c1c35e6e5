// SPDX-License-Identifier: GPL-2.0
/* The backlog probe (backlog_probe.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

#include "bench.h"
#include "intervals.h"
#include "backlog_probe.h"

/* Room for an episode every 5 ms of a CPU over ten minutes, for two. */
#define EPISODE_MAX		(1U << 18)
#define MAX_CPUS		64

struct cpu_backlog {
	uint64_t dropped;	/* at the last reading */
	bool in_episode;
	uint64_t from, to;
};

static struct interval episode_slots[EPISODE_MAX];
static struct interval_log episodes = INTERVAL_LOG_INIT(episode_slots);
static struct cpu_backlog cpus[MAX_CPUS];
static atomic_bool probe_stop;
static pthread_t probe;
static bool running;
static uint64_t readings;

/*
 * Reads the drop counter of each CPU listed, in order, into @dropped;
 * returns how many, or -1.
 */
static int read_dropped(int fd, uint64_t *dropped)
{
	static char buf[MAX_CPUS * 160];
	unsigned int processed, drops;
	char *line, *end;
	ssize_t len;
	int n = 0;

	len = pread(fd, buf, sizeof(buf) - 1, 0);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	for (line = buf; *line && n < MAX_CPUS; line = end + 1) {
		end = line;
		while (*end && *end != '\n')
			end++;
		if (sscanf(line, "%x %x", &processed, &drops) == 2)
			dropped[n++] = drops;
		if (!*end)
			break;
	}
	return n;
}

static void close_episode(struct cpu_backlog *c)
{
	if (c->in_episode)
		interval_log_add(&episodes, c->from, c->to);
	c->in_episode = false;
}

static void *probe_main(void *arg)
{
	struct sched_param sp = { .sched_priority = 50 };
	uint64_t dropped[MAX_CPUS], now;
	int fd = (int)(intptr_t)arg, n, i;

	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	n = read_dropped(fd, dropped);
	for (i = 0; i < n; i++)
		cpus[i] = (struct cpu_backlog){ .dropped = dropped[i] };
	while (!atomic_load(&probe_stop)) {
		sleep_ns(BACKLOG_PROBE_NS);
		n = read_dropped(fd, dropped);
		now = mono_ns();
		readings++;
		for (i = 0; i < n; i++) {
			struct cpu_backlog *c = &cpus[i];

			if (dropped[i] == c->dropped) {
				close_episode(c);
				continue;
			}
			c->dropped = dropped[i];
			if (!c->in_episode) {
				c->in_episode = true;
				c->from = now;
			}
			c->to = now;
		}
	}
	for (i = 0; i < MAX_CPUS; i++)
		close_episode(&cpus[i]);
	close(fd);
	return NULL;
}

int backlog_probe_start(void)
{
	int fd, err;

	interval_log_reset(&episodes);
	readings = 0;
	atomic_store(&probe_stop, false);
	fd = open("/proc/net/softnet_stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = pthread_create(&probe, NULL, probe_main, (void *)(intptr_t)fd);
	if (err) {
		close(fd);
		return -err;
	}
	running = true;
	return 0;
}

void backlog_probe_stop(void)
{
	atomic_store(&probe_stop, true);
	if (running)
		pthread_join(probe, NULL);
	running = false;
}

bool backlog_probe_within(uint64_t from, uint64_t to, uint64_t len_ns)
{
	return interval_log_within(&episodes, from, to, len_ns);
}

void backlog_probe_summary(uint64_t long_ns, struct interval_summary *s,
			   uint64_t *n)
{
	interval_log_summary(&episodes, long_ns, s);
	*n = readings;
}
