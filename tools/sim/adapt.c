// SPDX-License-Identifier: GPL-2.0
/*
 * Fixed against adaptive timeouts on one link (see adapt.h).
 *
 *   ftnl-sim adapt [--beats N] [--seed S]
 *
 * prints one row per pattern: h = 10 ms, d = d_max = 30 ms, d_min = 12 ms,
 * 10^-9; delays 0.1 ms + jitter, losses and rare spikes as named.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kmod/ring/adaptive.h"
#include "adapt.h"
#include "rng.h"

#define MS	1000000LL

/* Detection times are kept in a histogram of 10 us buckets up to 2 d. */
#define BUCKET_NS	10000LL

struct side_acc {
	uint64_t false_suspicions;
	double sum_ns;
	uint64_t count;
	int64_t max_ns;
	uint64_t *hist;
	uint64_t nbuckets;
};

static void side_add(struct side_acc *a, int64_t ns)
{
	uint64_t b = ns < 0 ? 0 : (uint64_t)(ns / BUCKET_NS);

	if (b >= a->nbuckets)
		b = a->nbuckets - 1;
	a->hist[b]++;
	a->sum_ns += (double)ns;
	a->count++;
	if (ns > a->max_ns)
		a->max_ns = ns;
}

/* Upper bound of the bucket holding the @want-th smallest time. */
static int64_t side_rank(const struct side_acc *a, uint64_t want)
{
	uint64_t seen = 0, b;

	for (b = 0; b < a->nbuckets; b++) {
		seen += a->hist[b];
		if (seen >= want && seen)
			return (int64_t)(b + 1) * BUCKET_NS;
	}
	return 0;
}

static void side_done(const struct side_acc *a, struct adapt_side *out)
{
	out->false_suspicions = a->false_suspicions;
	out->detect_mean_ns = a->count ? a->sum_ns / (double)a->count : 0;
	out->detect_max_ns = a->max_ns;
	out->detect_p50_ns = side_rank(a, (a->count + 1) / 2);
	out->detect_p99_ns = side_rank(a, a->count - a->count / 100);
}

int adapt_run(const struct adapt_cfg *cfg, struct adapt_result *res)
{
	const int64_t dmin[2] = { cfg->dmin_ns, cfg->dmin2_ns };
	struct side_acc acc[3] = { { 0 } };
	struct ftnl_adapt est[2];
	int64_t timeout[3] = { 0 };
	struct sim_rng rng;
	int64_t last = -1;
	uint64_t k;
	int err = 0, j;

	for (j = 0; j < 2; j++)
		if (ftnl_adapt_invalid((uint64_t)cfg->h_ns, (uint64_t)dmin[j],
				       (uint64_t)cfg->d_ns, cfg->nines))
			return -EINVAL;
	for (j = 0; j < 3; j++) {
		acc[j].nbuckets = (uint64_t)(4 * cfg->d_ns / BUCKET_NS) + 1;
		acc[j].hist = calloc(acc[j].nbuckets, sizeof(*acc[j].hist));
		if (!acc[j].hist)
			err = -ENOMEM;
	}
	if (err)
		goto out;
	sim_rng_seed(&rng, cfg->seed);
	for (j = 0; j < 2; j++)
		ftnl_adapt_init(&est[j], (uint64_t)cfg->h_ns, (uint64_t)dmin[j],
				(uint64_t)cfg->d_ns, cfg->nines);
	for (k = 0; k < cfg->beats; k++) {
		int64_t sent = (int64_t)k * cfg->h_ns, at;
		bool warm = k > 2 * FTNL_ADAPT_WINDOW;

		if (sim_rng_unit(&rng) > cfg->loss) {
			at = sent + cfg->base_ns +
			     (int64_t)sim_rng_below(&rng, (uint64_t)cfg->jitter_ns + 1);
			if (cfg->spike > 0 && sim_rng_unit(&rng) <= cfg->spike)
				at += (int64_t)sim_rng_below(&rng,
							     (uint64_t)cfg->spike_ns + 1);
			if (at < last)
				at = last;	/* the link keeps order */
			for (j = 0; j < 3 && warm && last >= 0; j++)
				acc[j].false_suspicions += at - last > timeout[j];
			last = at;
			timeout[0] = cfg->d_ns;
			for (j = 0; j < 2; j++)
				timeout[j + 1] = (int64_t)ftnl_adapt_arrival(&est[j],
									     (uint64_t)at);
		}
		/*
		 * A crash in the middle of this period, after this heartbeat
		 * left (it still arrives): who waits how long.
		 */
		for (j = 0; j < 3 && warm && last >= 0; j++)
			side_add(&acc[j], last + timeout[j] - (sent + cfg->h_ns / 2));
	}
	for (j = 0; j < 3; j++)
		side_done(&acc[j], &res->side[j]);
out:
	for (j = 0; j < 3; j++)
		free(acc[j].hist);
	return err;
}

int cmd_adapt(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "beats", required_argument, NULL, 'b' },
		{ "seed", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	struct adapt_cfg patterns[] = {
		{ .name = "quiet", .jitter_ns = MS / 10 },
		{ .name = "jitter 0..5ms", .jitter_ns = 5 * MS },
		{ .name = "loss 1%", .jitter_ns = MS / 10, .loss = 0.01 },
		{ .name = "loss 5%", .jitter_ns = MS / 10, .loss = 0.05 },
		{ .name = "jitter 2ms, loss 1%", .jitter_ns = 2 * MS, .loss = 0.01 },
		{ .name = "spikes 0.1% to 25ms", .jitter_ns = MS / 10,
		  .spike = 0.001, .spike_ns = 25 * MS },
	};
	uint64_t beats = 1000000, seed = 1;
	size_t i;
	int c, j;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		char *end;

		errno = 0;
		switch (c) {
		case 'b':
			beats = strtoull(optarg, &end, 0);
			if (errno || *end || beats < 1000) {
				fprintf(stderr, "ftnl-sim adapt: --beats must be at least 1000\n");
				return 2;
			}
			break;
		case 'S':
			seed = strtoull(optarg, &end, 0);
			if (errno || *end) {
				fprintf(stderr, "ftnl-sim adapt: invalid --seed\n");
				return 2;
			}
			break;
		default:
			return 2;
		}
	}
	printf("# one link, h 10 ms; fixed d 30 ms; adaptive at 10^-9 in [12 ms, 30 ms]\n"
	       "# and in [21 ms, 30 ms] (above 2h: one loss never suspected);\n"
	       "# %llu heartbeats per pattern, seed %llu; false suspicions, and the\n"
	       "# time from a crash (mid-period) to the suspicion: mean / p99\n",
	       (unsigned long long)beats, (unsigned long long)seed);
	printf("%-22s %24s %24s %24s\n", "pattern", "fixed 30", "adaptive 12..30",
	       "adaptive 21..30");
	for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		struct adapt_cfg *p = &patterns[i];
		struct adapt_result r;

		p->h_ns = 10 * MS;
		p->d_ns = 30 * MS;
		p->dmin_ns = 12 * MS;
		p->dmin2_ns = 21 * MS;
		p->nines = 9;
		p->base_ns = MS / 10;
		p->beats = beats;
		p->seed = seed + i;
		if (adapt_run(p, &r)) {
			fprintf(stderr, "ftnl-sim adapt: out of memory\n");
			return 1;
		}
		printf("%-22s", p->name);
		for (j = 0; j < 3; j++)
			printf(" %6llu fs %5.1f/%5.1f ms",
			       (unsigned long long)r.side[j].false_suspicions,
			       r.side[j].detect_mean_ns / 1e6,
			       r.side[j].detect_p99_ns / 1e6);
		printf("\n");
	}
	return 0;
}
