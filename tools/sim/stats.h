/* SPDX-License-Identifier: GPL-2.0 */
/* Running mean, standard deviation, min and max of a sample (Welford). */
#ifndef FTNL_SIM_STATS_H
#define FTNL_SIM_STATS_H

#include <math.h>
#include <stdint.h>

struct sim_stat {
	uint64_t count;
	double mean;
	double m2;
	double min;
	double max;
};

static inline void sim_stat_add(struct sim_stat *s, double x)
{
	double delta = x - s->mean;

	if (!s->count || x < s->min)
		s->min = x;
	if (!s->count || x > s->max)
		s->max = x;
	s->count++;
	s->mean += delta / s->count;
	s->m2 += delta * (x - s->mean);
}

static inline double sim_stat_sd(const struct sim_stat *s)
{
	return s->count > 1 ? sqrt(s->m2 / (s->count - 1)) : 0;
}

/* Half-width of a 95% confidence interval of the mean. */
static inline double sim_stat_ci95(const struct sim_stat *s)
{
	return s->count > 1 ? 1.96 * sim_stat_sd(s) / sqrt(s->count) : 0;
}

#endif /* FTNL_SIM_STATS_H */
