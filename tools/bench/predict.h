/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The broadcast benchmark's predictions (predict.c): kept apart from
 * bench.c, which includes libftnl's headers and not the module's pure code.
 */
#ifndef FTNL_BENCH_PREDICT_H
#define FTNL_BENCH_PREDICT_H

/**
 * struct bench_prediction - the simulator's figures for one notification
 * @messages: mean messages of one broadcast (datagrams sent by all nodes)
 * @runs: broadcasts simulated (1 for the deterministic floods)
 * @incomplete: runs in which some live node did not deliver (must be 0)
 * @sos_runs: FCG runs that needed SOS
 * @gossip_t_slots: FCG's T in slots of 20 us (0 for the floods)
 */
struct bench_prediction {
	double messages;
	unsigned int runs;
	unsigned int incomplete;
	unsigned int sos_runs;
	unsigned int gossip_t_slots;
};

/**
 * bench_predict() - messages of one notification in an n-node cluster
 * @algo: enum ftnl_bcast_algo
 * @n: cluster size, one node of which is dead (n >= 3)
 * @f: FCG's f
 * @gossip_t_us: FCG's T as configured (0: the module's choice from n)
 * @runs: FCG broadcasts to average (random gossip targets and dead node)
 * @out: filled in
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int bench_predict(unsigned int algo, unsigned int n, unsigned int f,
		  unsigned int gossip_t_us, unsigned int runs,
		  struct bench_prediction *out);

#endif /* FTNL_BENCH_PREDICT_H */
