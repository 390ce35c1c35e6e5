// SPDX-License-Identifier: GPL-2.0
/*
 * log.c - ftnl-slurm's messages and clocks (log.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "log.h"

void fs_log(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int len;

	len = snprintf(line, sizeof(line), "ftnl-slurm: ");
	va_start(ap, fmt);
	vsnprintf(line + len, sizeof(line) - len, fmt, ap);
	va_end(ap);
	/* One fprintf holds stderr's lock for the whole line. */
	fprintf(stderr, "%s\n", line);
}

uint64_t fs_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

uint64_t fs_real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
