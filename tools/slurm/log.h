/* SPDX-License-Identifier: GPL-2.0 */
/*
 * log.h - ftnl-slurm's messages, on stderr (the journal under systemd):
 * one write per line, so that its two threads' lines never mix.
 */
#ifndef FTNL_SLURM_LOG_H
#define FTNL_SLURM_LOG_H

#include <stdint.h>

void fs_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* CLOCK_MONOTONIC in ms (deadlines), CLOCK_REALTIME in ns (ftnl's event
 * times, and the times the logs give, comparable with other programs'). */
uint64_t fs_now_ms(void);
uint64_t fs_real_ns(void);

#endif
