// SPDX-License-Identifier: GPL-2.0
/*
 * The softirq threads' share of the window (ksoftirqd.h), from
 * /proc/PID/schedstat: time on a CPU, time runnable but waiting (the
 * scheduler's run delay) and how many times each ran. With /proc/stat's
 * softirq time, which counts softirq work wherever it ran, it tells how
 * much of that work ran in ksoftirqd, and what the wait for ksoftirqd
 * cost.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ksoftirqd.h"

/* Whether process @pid is a ksoftirqd thread. */
static int is_ksoftirqd(const char *pid)
{
	char path[300], comm[32];
	FILE *f;
	int yes = 0;

	snprintf(path, sizeof(path), "/proc/%s/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(comm, sizeof(comm), f))
		yes = !strncmp(comm, "ksoftirqd/", 10);
	fclose(f);
	return yes;
}

void ksoftirqd_read(struct ksoftirqd_times *t)
{
	struct dirent *e;
	DIR *dir;

	memset(t, 0, sizeof(*t));
	dir = opendir("/proc");
	if (!dir)
		return;
	while ((e = readdir(dir))) {
		unsigned long long run, wait, runs;
		char path[300];
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9' ||
		    !is_ksoftirqd(e->d_name))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/schedstat", e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llu %llu %llu", &run, &wait, &runs) == 3) {
			t->run_ns += run;
			t->wait_ns += wait;
			t->runs += runs;
			t->threads++;
		}
		fclose(f);
	}
	closedir(dir);
}

void ksoftirqd_since(struct ksoftirqd_times *d,
		     const struct ksoftirqd_times *start,
		     const struct ksoftirqd_times *end)
{
	d->run_ns = end->run_ns - start->run_ns;
	d->wait_ns = end->wait_ns - start->wait_ns;
	d->runs = end->runs - start->runs;
	d->threads = end->threads;
}
