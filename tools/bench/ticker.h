/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A timer ticking on one CPU in hard interrupt context, for a trace of that
 * CPU (hbtrace.c): perf's cpu-clock software event, whose hrtimer re-arms
 * itself in its interrupt, so that the CPU takes a timer interrupt every
 * period whatever runs there - a softirq handler included, where the stall
 * probe's thread cannot re-arm its own timer. A gap between those
 * interrupts longer than the period is a stall: the vCPU did not run, or
 * had interrupts off. Used with --own-cpu.
 */
#ifndef FTNL_BENCH_TICKER_H
#define FTNL_BENCH_TICKER_H

#include <stdint.h>

/* Starts it on @cpu every @period_ns; an fd for ticker_stop(), or -errno. */
int ticker_start(int cpu, uint64_t period_ns);
void ticker_stop(int fd);

#endif
