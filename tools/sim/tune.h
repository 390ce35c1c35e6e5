/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The corrected-gossip paper's analytic models, in floating point (this is
 * userspace): the expected number of g-nodes (Lemma 1), the longest
 * uncolored run K (Eq. 2), the longest run of V consecutive g-nodes G_V
 * (Appendix B), and from them the gossip time T and correction length C
 * each algorithm uses (Eq. 3, 4, 5); and the closed forms the paper gives
 * for BIG and BFB. Time is in slots of O, lat = L / O.
 */
#ifndef FTNL_SIM_TUNE_H
#define FTNL_SIM_TUNE_H

#include <stdint.h>

/* The paper's delta: a 50% chance that 10^6 broadcasts all succeed. */
#define TUNE_DELTA	6.9315e-7

/**
 * struct tune_choice - parameters picked for one algorithm
 * @gossip_end: T (slots)
 * @corr_len: OCG: C - (T + lat + 1) (slots)
 * @bound: the model's latency bound at that T (slots)
 * @run: K (OCG, CCG) or G_5 (FCG) at that T
 * @colored: expected g-nodes when the correction starts
 */
struct tune_choice {
	uint32_t gossip_end;
	uint32_t corr_len;
	double bound;
	uint32_t run;
	double colored;
};

double tune_uncolored(uint32_t n, uint32_t nodes, uint32_t lat, uint32_t T,
		      uint32_t t);
uint32_t tune_khat(uint32_t nodes, double colored, double delta);
uint32_t tune_ghat(uint32_t nodes, double colored, uint32_t v, double delta);
int tune_pick(int algo, uint32_t n, uint32_t nodes, uint32_t lat,
	      double delta, struct tune_choice *choice);

double tune_big_latency(uint32_t nodes, double L, double O);
double tune_big_work(uint32_t nodes);
double tune_bfb_latency(uint32_t nodes, double L, double O, uint32_t restarts);
double tune_bfb_work(uint32_t nodes, uint32_t restarts);

#endif /* FTNL_SIM_TUNE_H */
