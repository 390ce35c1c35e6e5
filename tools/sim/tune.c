// SPDX-License-Identifier: GPL-2.0
/* The corrected-gossip paper's analytic models (see tune.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "../../kmod/bcast/gossip.h"
#include "tune.h"

/**
 * tune_uncolored - expected uncolored live nodes at slot @t (Lemma 1)
 * @n: live nodes
 * @nodes: all nodes N (gossip targets are drawn among all of them)
 * @lat: L / O
 * @T: gossip sends end before T
 * @t: the slot
 *
 * In gossip.c's timing a node colored at slot s sends from the slot
 * starting at s, and a message sent in the slot starting at s arrives at
 * s + lat + 2; each of the c(s) senders hits a given node with
 * probability 1 / (N - 1). Tracking the uncolored count u = n - c rather
 * than c keeps its tail (10^-7 of a node) exact in double precision.
 */
double tune_uncolored(uint32_t n, uint32_t nodes, uint32_t lat, uint32_t T,
		      uint32_t t)
{
	double *u = malloc((t + 1) * sizeof(*u)), miss, res;
	uint32_t s;

	if (!u || nodes < 2)
		return NAN;
	miss = log1p(-1.0 / (nodes - 1));
	u[0] = n - 1.0;
	for (s = 1; s <= t; s++) {
		double senders = 0;

		if (s >= lat + 2 && s - lat - 1 < T)
			senders = n - u[s - lat - 2];
		u[s] = u[s - 1] * exp(senders * miss);
	}
	res = u[t];
	free(u);
	return res;
}

/*
 * Smallest K such that the longest run of uncolored nodes between two
 * g-nodes exceeds K with probability below @delta (Eq. 2 and Claim 2):
 * p(K) = c^2 (N - c)^K / N^(K+2), alpha_K = 1 - (1 - p(K))^N, and
 * P(max > K) = 1 - prod_{j > K} (1 - alpha_j).
 */
uint32_t tune_khat(uint32_t nodes, double colored, double delta)
{
	double lc = 2 * log(colored / nodes), lu = log1p(-colored / nodes);
	double *term = malloc((nodes + 2) * sizeof(*term)), tail = 0;
	uint32_t j, last = 0, k;

	if (!term)
		return nodes;
	for (j = 1; j <= nodes; j++) {
		double lp = lc + j * lu;

		term[j] = nodes * log1p(-exp(lp));
		last = j;
		if (lp < -80)
			break;	/* the rest adds nothing */
	}
	/* tail(K) = sum_{j > K} term[j]; find the smallest K below delta. */
	for (j = last; j >= 1; j--) {
		if (-expm1(tail + term[j]) >= delta)
			break;
		tail += term[j];
	}
	k = j;	/* P(max > k) = -expm1(tail) < delta */
	free(term);
	return k;
}

/*
 * Appendix B: smallest G such that a run of G consecutive nodes holding
 * exactly V g-nodes, g-nodes at both ends, is longer than G with
 * probability below @delta; q(G, V) = C(G-2, V-2) (c/N)^V ((N-c)/N)^(G-V).
 */
uint32_t tune_ghat(uint32_t nodes, double colored, uint32_t v, double delta)
{
	double lc = log(colored / nodes), lu = log1p(-colored / nodes);
	double *term = malloc((nodes + 2) * sizeof(*term)), tail = 0, prev = 0;
	uint32_t g, last = v, res;

	if (!term)
		return nodes;
	for (g = v; g <= nodes; g++) {
		double lq = lgamma(g - 1.0) - lgamma(v - 1.0) - lgamma(g - v + 1.0) +
			    v * lc + (g - v) * lu;

		term[g] = nodes * log1p(-exp(lq));
		last = g;
		if (lq < -80 && lq < prev)
			break;
		prev = lq;
	}
	for (g = last; g >= v; g--) {
		if (-expm1(tail + term[g]) >= delta)
			break;
		tail += term[g];
	}
	res = g < v ? v : g;
	free(term);
	return res;
}

/**
 * tune_pick - T (and C) the way the paper picks them
 * @algo: FTNL_GOSSIP_*
 * @n: live nodes
 * @nodes: all nodes N
 * @lat: L / O
 * @delta: accepted failure probability
 * @choice: filled in
 *
 * GOS: the smallest T leaving less than @delta uncolored nodes expected.
 * OCG: argmin T + 2L + (2 + K)O (Eq. 3), C = K O + L + O plus one O.
 * CCG: argmin T + 2L + (2 + 2K)O (Eq. 4).
 * FCG: argmin T + 4 G_5 O + L - 13 O (Eq. 5, derived for f = 1).
 * Ties go to the larger T (the paper: "the T that can withstand the
 * largest reduction in delta"), and T gets the paper's one O of margin.
 *
 * Return: 0 or -EINVAL.
 */
int tune_pick(int algo, uint32_t n, uint32_t nodes, uint32_t lat,
	      double delta, struct tune_choice *choice)
{
	uint32_t T, log2n = 0, tmax;
	double best = INFINITY;

	while ((1U << log2n) < nodes)
		log2n++;
	tmax = 8 * (lat + 2) * (log2n + 1) + 64;
	if (nodes < 2)
		return -EINVAL;
	for (T = 1; T <= tmax; T++) {
		double u, c, cost;
		uint32_t run = 0;

		if (algo == FTNL_GOSSIP_GOS) {
			u = tune_uncolored(n, nodes, lat, T, T + lat);
			if (u < delta) {
				choice->gossip_end = T;
				choice->corr_len = 0;
				choice->bound = T + lat;
				choice->run = 0;
				choice->colored = n - u;
				return 0;
			}
			continue;
		}
		u = tune_uncolored(n, nodes, lat, T, T + lat + 1);
		c = n - u;
		if (c < 1)
			continue;
		switch (algo) {
		case FTNL_GOSSIP_OCG:
			run = tune_khat(nodes, c, delta);
			cost = T + 2.0 * lat + 2 + run;
			break;
		case FTNL_GOSSIP_CCG:
			run = tune_khat(nodes, c, delta);
			cost = T + 2.0 * lat + 2 + 2.0 * run;
			break;
		case FTNL_GOSSIP_FCG:
			run = tune_ghat(nodes, c, 5, delta);
			cost = T + 4.0 * run + lat - 13;
			break;
		default:
			return -EINVAL;
		}
		if (cost <= best) {
			best = cost;
			choice->gossip_end = T + 1;
			choice->corr_len = algo == FTNL_GOSSIP_OCG ? run + lat + 2 : 0;
			choice->bound = cost + 1;
			choice->run = run;
			choice->colored = c;
		}
	}
	return best < INFINITY ? 0 : -EINVAL;
}

static double tune_log2(uint32_t nodes)
{
	return floor(log2(nodes));
}

/* Section IV.B.3: T_BIG = (2O + L) log2 P + O log2 P (no failure). */
double tune_big_latency(uint32_t nodes, double L, double O)
{
	return (2 * O + L) * tune_log2(nodes) + O * tune_log2(nodes);
}

/* Every node sends to its log2 P neighbors. */
double tune_big_work(uint32_t nodes)
{
	return nodes * tune_log2(nodes);
}

/*
 * Section IV.B.2: T_BFB = 2 (2O + L) log2 N without failure during the
 * operation (the tree down and the acknowledgments up). The paper does not
 * give the cost of a restart; here a failure during the operation is
 * noticed on average halfway through it, which is then restarted whole:
 * each restart adds half a round of time and of messages. (This reading
 * reproduces the paper's "FCG's latency is nearly 3 times less".)
 */
double tune_bfb_latency(uint32_t nodes, double L, double O, uint32_t restarts)
{
	return (1 + 0.5 * restarts) * 2 * (2 * O + L) * tune_log2(nodes);
}

/* One message down and one acknowledgment up per node and round. */
double tune_bfb_work(uint32_t nodes, uint32_t restarts)
{
	return (1 + 0.5 * restarts) * 2.0 * (nodes - 1);
}
