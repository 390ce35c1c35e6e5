// SPDX-License-Identifier: GPL-2.0
/* A timer ticking on one CPU (ticker.h). */
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ticker.h"

int ticker_start(int cpu, uint64_t period_ns)
{
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	/* cpu-clock counts nanoseconds: its hrtimer fires every period. */
	attr.sample_period = period_ns;
	/* No ring buffer: each sample is dropped, the interrupt is the point. */
	fd = syscall(SYS_perf_event_open, &attr, -1, cpu, -1,
		     PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

void ticker_stop(int fd)
{
	if (fd >= 0)
		close(fd);
}
