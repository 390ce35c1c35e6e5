// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-bench-hog: the user workload of the "loaded" benchmark runs, at
 * normal priority (SCHED_OTHER, nice 0) until SIGTERM.
 *
 *   ftnl-bench-hog cpu        spin on the CPU, never sleeping (a
 *                             compute-only rank that does not call into any
 *                             library between its kernels)
 *   ftnl-bench-hog mem MIB    copy MIB MiB back and forth, forever: memory
 *                             bandwidth and cache pressure
 *
 * The cpu hog doubles as a probe of the virtual CPU it runs on: between
 * short bursts of spinning it reads CLOCK_MONOTONIC, and a gap of 1 ms or
 * more is time it did not run. If the guest scheduler switched it out
 * meanwhile (its context switch count moved), the gap is a guest
 * preemption; if not, the whole virtual CPU stopped (long interrupt work in
 * the guest, or the host not running the vCPU thread: steal time, which a
 * TCG guest cannot see otherwise). On SIGTERM it prints one line:
 *
 *   RESULT test=hog stalls=N stall_max_us=X stall_total_us=Y
 *          preemptions=M preempt_max_us=Z run_s=S
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define GAP_NS		1000000ULL	/* 1 ms */
#define BURST		256		/* spins between clock reads */

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(void)
{
	fprintf(stderr, "usage: ftnl-bench-hog cpu | mem MIB\n");
	exit(2);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static long switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return -1;
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

static void spin(void)
{
	uint64_t start = mono_ns(), prev = start, now, gap;
	uint64_t stalls = 0, stall_max = 0, stall_total = 0;
	uint64_t preempts = 0, preempt_max = 0;
	volatile uint64_t x = 0;
	long csw = switches(), c;
	int i;

	while (!stop) {
		for (i = 0; i < BURST; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		now = mono_ns();
		gap = now - prev;
		prev = now;
		if (gap < GAP_NS)
			continue;
		c = switches();
		if (c != csw) {
			preempts++;
			if (gap > preempt_max)
				preempt_max = gap;
		} else {
			stalls++;
			stall_total += gap;
			if (gap > stall_max)
				stall_max = gap;
		}
		csw = c;
		prev = mono_ns();	/* getrusage() is not part of the gap */
	}
	printf("RESULT test=hog stalls=%" PRIu64 " stall_max_us=%" PRIu64
	       " stall_total_us=%" PRIu64 " preemptions=%" PRIu64
	       " preempt_max_us=%" PRIu64 " run_s=%.1f\n", stalls,
	       stall_max / 1000, stall_total / 1000, preempts,
	       preempt_max / 1000, (double)(mono_ns() - start) / 1e9);
	fflush(stdout);
	exit(0);
}

static void copy_forever(size_t mib)
{
	size_t half = mib * 1024 * 1024 / 2;
	char *buf = malloc(2 * half);

	if (!buf) {
		fprintf(stderr, "ftnl-bench-hog: cannot allocate %zu MiB\n", mib);
		exit(1);
	}
	memset(buf, 0x5a, 2 * half);
	while (!stop) {
		memcpy(buf + half, buf, half);
		memcpy(buf, buf + half, half);
		/* Keep the compiler from proving the copies useless. */
		__asm__ volatile("" : : "r"(buf) : "memory");
	}
	free(buf);
	exit(0);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	unsigned long mib;
	char *end;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	if (argc == 2 && !strcmp(argv[1], "cpu"))
		spin();
	if (argc != 3 || strcmp(argv[1], "mem"))
		usage();
	errno = 0;
	mib = strtoul(argv[2], &end, 10);
	if (errno || end == argv[2] || *end || mib < 2 || mib > 4096)
		usage();
	copy_forever(mib);
	return 0;
}
