// SPDX-License-Identifier: GPL-2.0
/*
 * tsc-khz: print this host's TSC rate in kHz, measured against
 * CLOCK_MONOTONIC_RAW, or nothing and exit 1 if the measurements disagree.
 *
 * A guest's TSC counts at the host's rate (TCG reads the host's TSC, KVM
 * without TSC scaling too). tools/vm/host-tsc-khz hands this figure to the
 * guest kernel as tsc_early_khz= so that it does not calibrate its TSC
 * against an emulated PIT, which a busy host can make many times wrong.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>

#define SAMPLES 5

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* TSC cycles per millisecond over a 40 ms nap. */
static double sample_khz(void)
{
	const struct timespec nap = { 0, 40 * 1000 * 1000 };
	uint64_t c0, c1;
	int64_t t0, t1;

	c0 = __rdtsc();
	t0 = now_ns();
	nanosleep(&nap, NULL);
	c1 = __rdtsc();
	t1 = now_ns();
	return (double)(c1 - c0) * 1e6 / (double)(t1 - t0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	double khz[SAMPLES];
	int i;

	for (i = 0; i < SAMPLES; i++)
		khz[i] = sample_khz();
	qsort(khz, SAMPLES, sizeof(khz[0]), cmp_double);
	/*
	 * A preemption between a TSC read and its clock read skews one sample;
	 * the middle three must agree within 0.1 % or the figure is not given.
	 */
	if (khz[1] <= 0 || (khz[SAMPLES - 2] - khz[1]) > khz[1] / 1000)
		return 1;
	printf("%.0f\n", khz[SAMPLES / 2]);
	return 0;
}
#else
int main(void)
{
	return 1;
}
#endif
