// SPDX-License-Identifier: GPL-2.0
/* The stall probe (stall.h). */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

#include "bench.h"
#include "stall.h"

#define STALL_MAX		8192
#define PROBE_NS		1000000ULL
#define MAX_PROBES		64

struct stall {
	uint64_t from, to;
};

static struct stall stalls[STALL_MAX];
static atomic_uint stall_count;
static atomic_bool probe_stop;
static pthread_t probes[MAX_PROBES];
static long nprobes;

static void *probe_main(void *arg)
{
	long cpu = (long)arg;
	struct sched_param sp = { .sched_priority = 50 };
	cpu_set_t set;
	uint64_t prev = mono_ns(), now;
	unsigned int k;

	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	/* Best effort: without them the probe still sees whole-VM stalls. */
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	while (!atomic_load(&probe_stop)) {
		sleep_ns(PROBE_NS);
		now = mono_ns();
		if (now - prev > PROBE_NS + STALL_MIN_NS) {
			k = atomic_fetch_add(&stall_count, 1);
			if (k < STALL_MAX) {
				stalls[k].from = prev + PROBE_NS;
				stalls[k].to = now;
			}
		}
		prev = now;
	}
	return NULL;
}

int stall_probe_start(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int err;

	atomic_store(&stall_count, 0);
	atomic_store(&probe_stop, false);
	for (nprobes = 0; nprobes < MAX_PROBES && nprobes < online; nprobes++) {
		err = pthread_create(&probes[nprobes], NULL, probe_main,
				     (void *)nprobes);
		if (err) {
			stall_probe_stop();
			return -err;
		}
	}
	return 0;
}

void stall_probe_stop(void)
{
	long p;

	atomic_store(&probe_stop, true);
	for (p = 0; p < nprobes; p++)
		pthread_join(probes[p], NULL);
	nprobes = 0;
}

bool stall_within(uint64_t from, uint64_t to, uint64_t len_ns)
{
	unsigned int i, n = atomic_load(&stall_count);

	for (i = 0; i < n && i < STALL_MAX; i++) {
		if (stalls[i].to - stalls[i].from >= len_ns &&
		    stalls[i].to >= from && stalls[i].from <= to)
			return true;
	}
	return false;
}

void stall_summary(uint64_t long_ns, struct stall_summary *s)
{
	unsigned int i, n = atomic_load(&stall_count);
	uint64_t len;

	s->count = n;
	s->long_count = 0;
	s->max_ns = 0;
	s->total_ns = 0;
	for (i = 0; i < n && i < STALL_MAX; i++) {
		len = stalls[i].to - stalls[i].from;
		if (len > s->max_ns)
			s->max_ns = len;
		s->total_ns += len;
		s->long_count += len >= long_ns;
	}
}
