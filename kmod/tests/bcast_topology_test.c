// SPDX-License-Identifier: GPL-2.0
/*
 * Broadcast overlays (kmod/bcast/topology.c) in userspace, simulated in the
 * one-port model: every step, each node that has something to send sends
 * one message (FIFO), which arrives at the end of the step; a node
 * forwards on its first receipt (per hypercube), as the module does.
 *
 * Checked, for every n from 2 to FTNL_TEST_MAX_N (2048 by default) and at
 * least 100 random failure sets per n of size up to k - 1 (plus the worst
 * placements: the source's own cube neighbors), with failures striking
 * before the broadcast reaches them:
 *   - the dual hypercube reaches every surviving participant;
 *   - it takes at most 4k one-port steps (2k per hypercube, the two in
 *     sequence), the paper's 2 x 2k for the two HBAs;
 *   - BMG reaches every survivor with up to its tolerance,
 *     2 ceil(log2 n) - 1 failures... bounded here by its degree - 1.
 * Labels are relative to the source (label 0), so the source's position
 * does not change the flood; the position <-> label mapping is checked
 * separately for every source of random clusters.
 */
#include <stdlib.h>
#include <string.h>

#include "../../tools/testing/tap.h"
#include "../bcast/topology.h"

#ifndef FTNL_TEST_MAX_N
#define FTNL_TEST_MAX_N 2048
#endif

struct sim {
	u32 n;
	bool *failed;
	bool *got;		/* delivered (any cube) */
	bool *fwd[2];		/* forwarded in cube c */
	u32 *queue_to;		/* per node FIFO of (to, cube) */
	u8 *queue_cube;
	u32 *qhead, *qtail, qcap;
	u32 reached, steps;
	u64 sent;		/* copies sent, both cubes */
};

static void sim_init(struct sim *s, u32 n, u32 qcap)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->qcap = qcap;
	s->failed = calloc(n, sizeof(bool));
	s->got = calloc(n, sizeof(bool));
	s->fwd[0] = calloc(n, sizeof(bool));
	s->fwd[1] = calloc(n, sizeof(bool));
	s->queue_to = calloc((size_t)n * qcap, sizeof(u32));
	s->queue_cube = calloc((size_t)n * qcap, 1);
	s->qhead = calloc(n, sizeof(u32));
	s->qtail = calloc(n, sizeof(u32));
	if (!s->failed || !s->got || !s->fwd[0] || !s->fwd[1] ||
	    !s->queue_to || !s->queue_cube || !s->qhead || !s->qtail)
		abort();
}

/* Ready for another broadcast on the same n (queues need no clearing). */
static void sim_reset(struct sim *s)
{
	memset(s->failed, 0, s->n * sizeof(bool));
	memset(s->got, 0, s->n * sizeof(bool));
	memset(s->fwd[0], 0, s->n * sizeof(bool));
	memset(s->fwd[1], 0, s->n * sizeof(bool));
	memset(s->qhead, 0, s->n * sizeof(u32));
	memset(s->qtail, 0, s->n * sizeof(u32));
	s->reached = 0;
	s->steps = 0;
	s->sent = 0;
}

static void sim_free(struct sim *s)
{
	free(s->failed);
	free(s->got);
	free(s->fwd[0]);
	free(s->fwd[1]);
	free(s->queue_to);
	free(s->queue_cube);
	free(s->qhead);
	free(s->qtail);
}

static void sim_push(struct sim *s, u32 from, u32 to, u8 cube)
{
	u32 slot = s->qtail[from]++;

	if (slot >= s->qcap)
		abort();
	s->sent++;
	s->queue_to[(size_t)from * s->qcap + slot] = to;
	s->queue_cube[(size_t)from * s->qcap + slot] = cube;
}

/* Node @at receives in @cube from @from (== @at for the source). */
static void sim_receive(struct sim *s, int overlay, u32 at, u32 from, u8 cube)
{
	u32 to[FTNL_BCAST_MAX_FANOUT], count, i;

	if (s->failed[at])
		return;
	if (!s->got[at]) {
		s->got[at] = true;
		s->reached++;
	}
	if (overlay == FTNL_OVERLAY_BMG) {
		if (s->fwd[0][at])
			return;
		s->fwd[0][at] = true;
		count = ftnl_bmg_forward(s->n, at, to);
		for (i = 0; i < count; i++)
			sim_push(s, at, to[i], 0);
		return;
	}
	if (s->fwd[cube][at])
		return;
	s->fwd[cube][at] = true;
	count = ftnl_hcube_forward(s->n, cube, at, from, to);
	for (i = 0; i < count; i++)
		sim_push(s, at, to[i], cube);
}

/* Run a broadcast from label 0; sets steps to the last delivery's step. */
static void sim_run(struct sim *s, int overlay)
{
	u32 *arr_to = malloc(sizeof(u32) * s->n), *arr_from = malloc(sizeof(u32) * s->n);
	u32 *active = malloc(sizeof(u32) * s->n), *next = malloc(sizeof(u32) * s->n);
	bool *listed = calloc(s->n, sizeof(bool));
	u8 *arr_cube = malloc(s->n);
	u32 step = 0, last = 0, nactive = 0;

	if (!arr_to || !arr_from || !arr_cube || !active || !next || !listed)
		abort();
	sim_receive(s, overlay, 0, 0, 0);
	if (overlay == FTNL_OVERLAY_HYPERCUBE)
		sim_receive(s, overlay, 0, 0, 1);
	active[nactive++] = 0;
	listed[0] = true;
	/* Only nodes with queued sends are visited: a step costs its sends. */
	while (nactive) {
		u32 narr = 0, nnext = 0;

		step++;
		for (u32 i = 0; i < nactive; i++) {
			u32 v = active[i];
			size_t slot = (size_t)v * s->qcap + s->qhead[v]++;

			arr_to[narr] = s->queue_to[slot];
			arr_cube[narr] = s->queue_cube[slot];
			arr_from[narr++] = v;
		}
		for (u32 i = 0; i < narr; i++) {
			u32 before = s->reached;

			sim_receive(s, overlay, arr_to[i], arr_from[i], arr_cube[i]);
			if (s->reached != before)
				last = step;
		}
		/* Senders with more to send, then receivers that just queued. */
		for (u32 i = 0; i < nactive; i++) {
			u32 v = active[i];

			listed[v] = s->qhead[v] != s->qtail[v];
			if (listed[v])
				next[nnext++] = v;
		}
		for (u32 i = 0; i < narr; i++) {
			u32 v = arr_to[i];

			if (!listed[v] && !s->failed[v] && s->qhead[v] != s->qtail[v]) {
				listed[v] = true;
				next[nnext++] = v;
			}
		}
		memcpy(active, next, nnext * sizeof(u32));
		nactive = nnext;
	}
	s->steps = last;
	free(arr_to);
	free(arr_from);
	free(arr_cube);
	free(active);
	free(next);
	free(listed);
}

static void pick_failures(struct sim *s, u32 count, unsigned int *seed)
{
	while (count) {
		u32 v = 1 + rand_r(seed) % (s->n - 1);

		if (!s->failed[v]) {
			s->failed[v] = true;
			count--;
		}
	}
}

static void check_run(struct sim *s, int overlay, u32 nfail, u32 max_steps,
		      u32 n, unsigned int seed)
{
	u32 survivors = n - nfail;

	sim_run(s, overlay);
	if (s->reached != survivors || s->steps > max_steps) {
		tap_diag("n=%u failures=%u seed=%u: reached %u of %u survivors in %u steps (bound %u)",
			 n, nfail, seed, s->reached, survivors, s->steps, max_steps);
		TAP_CHECK(false);
	}
}

static void test_hypercube(const void *arg)
{
	(void)arg;
	for (u32 n = 2; n <= FTNL_TEST_MAX_N; n++) {
		u32 k = ftnl_hcube_dim(n);
		unsigned int seed = n;
		struct sim s;

		sim_init(&s, n, 2 * k + 2);
		for (int round = 0; round < 102; round++) {
			u32 nfail = k ? rand_r(&seed) % k : 0;	/* 0..k-1 */

			sim_reset(&s);
			if (round == 0) {
				nfail = 0;
			} else if (round == 1 && k >= 2) {
				/* Worst placement: k-1 of the source's cube-0 neighbors. */
				nfail = k - 1;
				for (u32 d = 0; d + 1 < k; d++)
					s.failed[1U << d] = true;
			} else {
				pick_failures(&s, nfail, &seed);
			}
			check_run(&s, FTNL_OVERLAY_HYPERCUBE, nfail, 4 * k, n, seed);
		}
		sim_free(&s);
	}
}

static void test_bmg(const void *arg)
{
	(void)arg;
	for (u32 n = 2; n <= FTNL_TEST_MAX_N; n++) {
		u32 deg = ftnl_bmg_degree(n);
		unsigned int seed = 7 * n;
		struct sim s;

		sim_init(&s, n, 2 * deg + 2);
		for (int round = 0; round < 100; round++) {
			/* BMG's degree is about 2 log2 n; tolerate log2 n - 1 here. */
			u32 nfail = deg ? rand_r(&seed) % deg : 0;

			if (nfail > n - 2)
				nfail = n - 2;
			sim_reset(&s);
			pick_failures(&s, nfail, &seed);
			check_run(&s, FTNL_OVERLAY_BMG, nfail, UINT32_MAX, n, seed);
		}
		sim_free(&s);
	}
}

/* Fault-free broadcasts: exact one-port step counts, recorded for docs. */
static void test_hypercube_steps(const void *arg)
{
	(void)arg;
	for (u32 n = 2; n <= FTNL_TEST_MAX_N; n *= 2) {
		u32 k = ftnl_hcube_dim(n);
		struct sim s;

		sim_init(&s, n, 2 * k + 2);
		sim_run(&s, FTNL_OVERLAY_HYPERCUBE);
		tap_diag("n=%u k=%u: fault-free dual hypercube in %u one-port steps (bound 4k = %u)",
			 n, k, s.steps, 4 * k);
		TAP_CHECK(s.steps <= 4 * k);
		TAP_CHECK_UINT(s.reached, n);
		sim_free(&s);
	}
}

/*
 * Fault-free cost: in each cube the source sends k copies and every other
 * member k - 1, so a broadcast costs 2 (k + (2^k - 1)(k - 1)) copies, a
 * step function of k = floor(log2 n): 98 copies for n = 16 to 31, 258
 * for n = 32 to 63 (Documentation/bench.rst, part 8: one member less
 * than 32 cuts the copies to 38 %).
 */
static void test_hypercube_copies(const void *arg)
{
	(void)arg;
	for (u32 n = 2; n <= FTNL_TEST_MAX_N; n++) {
		u32 k = ftnl_hcube_dim(n);
		u64 expect = 2 * (k + (u64)((1U << k) - 1) * (k - 1));
		struct sim s;

		sim_init(&s, n, 2 * k + 2);
		sim_run(&s, FTNL_OVERLAY_HYPERCUBE);
		if (s.sent != expect) {
			tap_diag("n=%u: %llu copies, expected %llu", n,
				 (unsigned long long)s.sent,
				 (unsigned long long)expect);
			TAP_CHECK(false);
		}
		if (n == 31 || n == 32 || n == 63 || n == 64)
			tap_diag("n=%u: a fault-free dual hypercube broadcast sends %llu copies",
				 n, (unsigned long long)s.sent);
		sim_free(&s);
	}
}

/* Cubes: membership, coverage of all labels, and neighbor symmetry. */
static void test_cubes_cover(const void *arg)
{
	(void)arg;
	for (u32 n = 1; n <= FTNL_TEST_MAX_N; n++) {
		u32 k = ftnl_hcube_dim(n), c;

		TAP_CHECK((1U << k) <= n && n < (2U << k));
		for (u32 label = 0; label < n; label++) {
			bool in0 = ftnl_hcube_coord(n, 0, label, &c);
			bool in1 = ftnl_hcube_coord(n, 1, label, &c);

			if (!(in0 || in1))
				TAP_CHECK(in0 || in1);
			if (in1 && ftnl_hcube_label(n, 1, c) != label)
				TAP_CHECK_UINT(ftnl_hcube_label(n, 1, c), label);
		}
	}
}

/* Position <-> label for every source of random clusters. */
static void test_view_mapping(const void *arg)
{
	unsigned int seed = 99;

	(void)arg;
	for (int round = 0; round < 40; round++) {
		u32 npos = 1 + rand_r(&seed) % 300;
		unsigned long *dead = calloc(ftnl_bitmap_longs(npos), sizeof(long));
		u32 alive = npos;

		if (!dead)
			abort();
		for (u32 p = 0; p < npos; p++)
			if (rand_r(&seed) % 3 == 0 && alive > 1) {
				ftnl_bit_set(dead, p);
				alive--;
			}
		for (u32 src = 0; src < npos; src++) {
			struct ftnl_bcast_view view;
			u32 expect = 0;

			if (ftnl_bit_test(dead, src))
				continue;
			ftnl_bcast_view_init(&view, dead, npos, src);
			TAP_CHECK_UINT(view.n, alive);
			TAP_CHECK_UINT(ftnl_bcast_label(&view, src), 0);
			/* Labels follow ring order from the source. */
			for (u32 i = 0, p = src; i < npos; i++, p = (p + 1) % npos) {
				if (ftnl_bit_test(dead, p))
					continue;
				if (ftnl_bcast_label(&view, p) != expect ||
				    ftnl_bcast_pos(&view, expect) != p)
					TAP_CHECK_UINT(ftnl_bcast_pos(&view, expect), p);
				expect++;
			}
		}
		free(dead);
	}
}

int main(void)
{
	tap_add(test_cubes_cover, NULL, "the two hypercubes cover every label, n <= %u",
		FTNL_TEST_MAX_N);
	tap_add(test_view_mapping, NULL, "labels are ring order from the source, for every source");
	tap_add(test_hypercube_steps, NULL, "fault-free dual hypercube within 4k one-port steps");
	tap_add(test_hypercube_copies, NULL,
		"fault-free dual hypercube sends 2 (k + (2^k - 1)(k - 1)) copies, every n <= %u",
		FTNL_TEST_MAX_N);
	tap_add(test_hypercube, NULL,
		"dual hypercube reaches every survivor within 4k steps, <= k-1 failures, every n <= %u, 100+ sets each",
		FTNL_TEST_MAX_N);
	tap_add(test_bmg, NULL, "BMG reaches every survivor, < ceil(log2 n) failures, every n <= %u",
		FTNL_TEST_MAX_N);
	return tap_run();
}
