// SPDX-License-Identifier: GPL-2.0
/*
 * era-bench-mpi: the reference next to ftnl_group_agree(): the same loop
 * with MPI_Allreduce(MPI_BAND) on one 64-bit flag, which is what a
 * failure-free agreement computes. Run under mpirun; tools/bench/era/run.sh
 * chooses the MPI and its settings (Documentation/bench.rst).
 *
 *   era-bench-mpi WARMUP ITERS OUT
 *
 * Every rank times each call; rank 0 appends one line to OUT:
 *   n=N r0_med_us=.. r0_p90_us=.. max_med_us=.. max_p90_us=..
 * (rank 0's median and 90th percentile per call, and the largest median
 * and 90th percentile over the ranks).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "stats.h"

int main(int argc, char **argv)
{
	uint64_t *samples, med, p90, mine[2], *all = NULL;
	long warmup = 0, iters = 0;
	int rank, size;

	MPI_Init(&argc, &argv);
	if (argc != 4 || (warmup = atol(argv[1])) < 0 ||
	    (iters = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: %s WARMUP ITERS OUT\n", argv[0]);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	samples = calloc((size_t)iters, sizeof(*samples));
	if (!samples)
		MPI_Abort(MPI_COMM_WORLD, 1);

	for (long i = 0; i < warmup + iters; i++) {
		uint64_t flag = ~(uint64_t)0 ^ ((uint64_t)1 << (rank % 64));
		uint64_t t0 = bench_now_ns();

		MPI_Allreduce(MPI_IN_PLACE, &flag, 1, MPI_UINT64_T, MPI_BAND,
			      MPI_COMM_WORLD);
		if (i >= warmup)
			samples[i - warmup] = bench_now_ns() - t0;
	}
	med = bench_quantile(samples, (size_t)iters, 0.5);
	p90 = bench_quantile(samples, (size_t)iters, 0.9);
	mine[0] = med;
	mine[1] = p90;
	if (rank == 0) {
		all = calloc((size_t)size * 2, sizeof(*all));
		if (!all)
			MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Gather(mine, 2, MPI_UINT64_T, all, 2, MPI_UINT64_T, 0,
		   MPI_COMM_WORLD);
	if (rank == 0) {
		uint64_t max_med = 0, max_p90 = 0;
		FILE *out;

		for (int r = 0; r < size; r++) {
			if (all[2 * r] > max_med)
				max_med = all[2 * r];
			if (all[2 * r + 1] > max_p90)
				max_p90 = all[2 * r + 1];
		}
		out = fopen(argv[3], "a");
		if (!out) {
			perror(argv[3]);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
		fprintf(out,
			"n=%d r0_med_us=%.1f r0_p90_us=%.1f max_med_us=%.1f max_p90_us=%.1f\n",
			size, med / 1e3, p90 / 1e3, max_med / 1e3,
			max_p90 / 1e3);
		fclose(out);
		free(all);
	}
	free(samples);
	MPI_Finalize();
	return 0;
}
