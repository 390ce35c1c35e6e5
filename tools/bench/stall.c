// SPDX-License-Identifier: GPL-2.0
/* The stall probe (stall.h). */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

#include "bench.h"
#include "intervals.h"
#include "stall.h"

/*
 * Room for 218 stalls a second over ten minutes: a busy host gave 37 a
 * second, and the 8,192 kept before filled within four minutes.
 */
#define STALL_MAX		(1U << 17)
#define PROBE_NS		1000000ULL
#define MAX_PROBES		64

static struct interval stall_slots[STALL_MAX];
static struct interval_log stalls = INTERVAL_LOG_INIT(stall_slots);
static atomic_bool probe_stop;
static pthread_t probes[MAX_PROBES];
static long nprobes;
static uint64_t stall_min_ns = STALL_MIN_NS;

static void *probe_main(void *arg)
{
	long cpu = (long)arg;
	struct sched_param sp = { .sched_priority = 50 };
	cpu_set_t set;
	uint64_t prev = mono_ns(), now;

	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	/* Best effort: without them the probe still sees whole-VM stalls. */
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	while (!atomic_load(&probe_stop)) {
		sleep_ns(PROBE_NS);
		now = mono_ns();
		if (now - prev > PROBE_NS + stall_min_ns)
			interval_log_add(&stalls, prev + PROBE_NS, now);
		prev = now;
	}
	return NULL;
}

static int probe_start(long first, long count, uint64_t min_ns)
{
	int err;

	interval_log_reset(&stalls);
	stall_min_ns = min_ns;
	atomic_store(&probe_stop, false);
	for (nprobes = 0; nprobes < MAX_PROBES && nprobes < count; nprobes++) {
		err = pthread_create(&probes[nprobes], NULL, probe_main,
				     (void *)(first + nprobes));
		if (err) {
			stall_probe_stop();
			return -err;
		}
	}
	return 0;
}

int stall_probe_start(void)
{
	return probe_start(0, sysconf(_SC_NPROCESSORS_ONLN), STALL_MIN_NS);
}

int stall_probe_start_on(int cpu, uint64_t min_ns)
{
	return probe_start(cpu, 1, min_ns);
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
	return interval_log_within(&stalls, from, to, len_ns);
}

void stall_summary(uint64_t long_ns, struct interval_summary *s)
{
	interval_log_summary(&stalls, long_ns, s);
}
