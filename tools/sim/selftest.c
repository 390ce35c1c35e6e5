// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-sim selftest: fast deterministic checks of the simulator and of the
 * properties it exists to show, in TAP (built sanitized as
 * build/tests/sim-selftest for make check):
 *   - the event queue pops in (time, insertion) order;
 *   - the indexed label <-> position mapping equals the module's;
 *   - a run is a function of its seed;
 *   - the ring: every survivor learns every failure, the ring ends
 *     reconnected, detection is never earlier than d - h after a death and
 *     stabilization stays under Theorem 1's bound, with ftnl's and with
 *     Algorithm 1's T5, hypercube and BMG, burst and MTBF failures;
 *   - corrected gossip: CCG and FCG reach every live node without online
 *     failures; FCG is all-or-none with up to f online failures striking
 *     nodes in the middle of the broadcast (SOS included); nobody delivers
 *     twice and every colored live node exits.
 */
#include <stdlib.h>
#include <string.h>

#include "../../kmod/bcast/topology.h"
#include "../testing/tap.h"
#include "adapt.h"
#include "heap.h"
#include "rng.h"
#include "sim.h"
#include "tune.h"
#include "view.h"

static void test_heap_order(const void *arg)
{
	struct sim_heap heap;
	struct sim_event ev;
	struct sim_rng rng;
	int64_t last_time = -1;
	uint32_t last_node = 0, i;

	(void)arg;
	sim_rng_seed(&rng, 3);
	if (!TAP_CHECK(!sim_heap_init(&heap, 4)))
		return;
	/* Node numbers record insertion order; times collide a lot. */
	for (i = 0; i < 5000; i++)
		TAP_CHECK(!sim_heap_push(&heap, (int64_t)sim_rng_below(&rng, 50), 0, i, 0, 0));
	for (i = 0; sim_heap_pop(&heap, &ev); i++) {
		if (ev.time < last_time ||
		    (ev.time == last_time && ev.node < last_node)) {
			TAP_CHECK(false);
			break;
		}
		last_time = ev.time;
		last_node = ev.node;
	}
	TAP_CHECK_UINT(i, 5000);
	sim_heap_free(&heap);
}

static void test_view_index(const void *arg)
{
	struct sim_rng rng;

	(void)arg;
	sim_rng_seed(&rng, 11);
	for (int round = 0; round < 30; round++) {
		uint32_t npos = 2 + (uint32_t)sim_rng_below(&rng, 3000);
		unsigned long *dead = calloc(ftnl_bitmap_longs(npos), sizeof(long));
		/* Sparse (the ring) and dense (many failures) dead sets. */
		uint32_t every = round % 2 ? 3 : 200, alive = npos;

		if (!TAP_CHECK(dead))
			return;
		for (uint32_t p = 0; p < npos; p++)
			if (sim_rng_below(&rng, every) == 0 && alive > 1) {
				ftnl_bit_set(dead, p);
				alive--;
			}
		for (int s = 0; s < 3; s++) {
			uint32_t src, label;
			struct sim_view sv;

			do {
				src = (uint32_t)sim_rng_below(&rng, npos);
			} while (ftnl_bit_test(dead, src));
			if (!TAP_CHECK(!sim_view_init(&sv, dead, npos, src)))
				break;
			TAP_CHECK_UINT(sv.view.n, alive);
			for (label = 0; label < alive; label++) {
				u32 pos = ftnl_bcast_pos(&sv.view, label);

				if (sim_view_pos(&sv, label) != pos ||
				    sim_view_label(&sv, pos) != label) {
					TAP_CHECK_UINT(sim_view_pos(&sv, label), pos);
					break;
				}
			}
			sim_view_free(&sv);
		}
		free(dead);
	}
}

static struct ring_cfg ring_cfg_small(uint32_t n, int mode, uint64_t seed)
{
	const struct ring_scenario *sc = ring_scenario_find("lowlat");
	struct ring_cfg cfg = {
		.n = n, .h_ns = (int64_t)(sc->h_s * 1e9),
		.d_ns = (int64_t)(sc->d_s * 1e9), .t_ns = (int64_t)(sc->t_s * 1e9),
		.overlay = FTNL_OVERLAY_HYPERCUBE, .mode = mode, .seed = seed,
		.mtbf_node_s = 3600.0 * 24, .window_ns = (int64_t)(sc->d_s * 1e9),
	};
	uint32_t k = 0;

	while ((2U << k) <= n)
		k++;
	cfg.nfail = k - 1;
	return cfg;
}

static void test_ring_deterministic(const void *arg)
{
	struct ring_cfg cfg = ring_cfg_small(2048, RING_BURST, 42);
	struct ring_result a, b;

	(void)arg;
	TAP_CHECK(!ring_run(&cfg, &a));
	TAP_CHECK(!ring_run(&cfg, &b));
	TAP_CHECK_INT(a.t_first_ns, b.t_first_ns);
	TAP_CHECK_INT(a.t_all_ns, b.t_all_ns);
	TAP_CHECK_UINT(a.bcast_msgs, b.bcast_msgs);
	TAP_CHECK_UINT(a.events, b.events);
	cfg.seed = 43;
	TAP_CHECK(!ring_run(&cfg, &b));
	TAP_CHECK(a.t_all_ns != b.t_all_ns || a.bcast_msgs != b.bcast_msgs);
}

/* Theorem 1: T(f) <= f(f+1) d + f t + f(f+1)/2 * 8 t log2 n. */
static double theorem1_bound(double f, double d, double t, double n)
{
	return f * (f + 1) * d + f * t + f * (f + 1) / 2 * 8 * t * log2(n);
}

struct ring_case {
	uint32_t n;
	int mode;
	int overlay;
	bool paper_t5;
	const char *name;
};

static const struct ring_case ring_cases[] = {
	{ 1024, RING_BURST, FTNL_OVERLAY_HYPERCUBE, false, "burst, hypercube" },
	{ 1000, RING_BURST, FTNL_OVERLAY_HYPERCUBE, true, "burst, hypercube, Algorithm 1's T5" },
	{ 777, RING_BURST, FTNL_OVERLAY_BMG, false, "burst, BMG" },
	{ 512, RING_MTBF, FTNL_OVERLAY_HYPERCUBE, false, "MTBF, hypercube" },
	{ 300, RING_MTBF, FTNL_OVERLAY_BMG, true, "MTBF, BMG, Algorithm 1's T5" },
};

static void test_ring_case(const void *arg)
{
	const struct ring_case *rc = arg;

	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct ring_cfg cfg = ring_cfg_small(rc->n, rc->mode, seed);
		struct ring_result res;
		double bound;

		cfg.overlay = rc->overlay;
		cfg.paper_t5 = rc->paper_t5;
		if (!TAP_CHECK(!ring_run(&cfg, &res)))
			return;
		bound = (rc->mode == RING_BURST ? cfg.window_ns * 1e-9 : 0) +
			theorem1_bound(res.failures, cfg.d_ns * 1e-9,
				       cfg.t_ns * 1e-9, rc->n);
		if (!res.stable || !res.reconnected ||
		    res.t_first_ns < cfg.d_ns - cfg.h_ns ||
		    res.t_all_ns * 1e-9 > bound || !res.failures) {
			tap_diag("seed %llu: stable %d reconnected %d first %.4f s all %.4f s (bound %.3f s) failures %u",
				 (unsigned long long)seed, res.stable, res.reconnected,
				 res.t_first_ns * 1e-9, res.t_all_ns * 1e-9, bound,
				 res.failures);
			TAP_CHECK(false);
		}
	}
}

/*
 * A whole failure domain (a rack of 16 at n = 1024) fails at once. In id
 * order it is a run of 16 consecutive dead nodes: one observer walks it,
 * d + 2d per further node, so all know all no sooner than d(2f - 1) - h.
 * With the ring interleaving domains every dead node has a live observer:
 * all know all within d + h (a heartbeat period of phase, message times).
 */
static void test_ring_rack(const void *arg)
{
	(void)arg;
	for (uint64_t seed = 1; seed <= 6; seed++) {
		for (int domains = 0; domains < 2; domains++) {
			struct ring_cfg cfg = ring_cfg_small(1024, RING_RACK, seed);
			struct ring_result res;
			bool ok;

			cfg.rack = 16;
			cfg.nfail = 16;
			cfg.domains = domains;
			if (!TAP_CHECK(!ring_run(&cfg, &res)))
				return;
			ok = res.stable && res.reconnected && res.failures == 16;
			if (domains)
				ok = ok && res.t_all_ns <= cfg.d_ns + cfg.h_ns;
			else
				ok = ok && res.t_all_ns >= 31 * cfg.d_ns - cfg.h_ns;
			if (!ok) {
				tap_diag("seed %llu domains %d: stable %d reconnected %d failures %u all %.4f s",
					 (unsigned long long)seed, domains,
					 res.stable, res.reconnected,
					 res.failures, res.t_all_ns * 1e-9);
				TAP_CHECK(false);
			}
		}
	}
}

static struct gsim_cfg gossip_cfg(int algo, uint32_t n, uint64_t seed)
{
	struct gsim_cfg cfg = { .n = n, .algo = algo, .lat = 2, .f = 1,
				.seed = seed };
	struct tune_choice tc;

	if (algo <= GSIM_FCG && !tune_pick(algo, n, n, cfg.lat, TUNE_DELTA, &tc)) {
		cfg.gossip_end = tc.gossip_end;
		cfg.corr_len = tc.corr_len;
	}
	return cfg;
}

static void test_gossip_deterministic(const void *arg)
{
	struct gsim_cfg cfg = gossip_cfg(GSIM_FCG, 1000, 5);
	struct gsim_result a, b;

	(void)arg;
	TAP_CHECK(!gsim_run(&cfg, &a));
	TAP_CHECK(!gsim_run(&cfg, &b));
	TAP_CHECK_UINT(a.messages, b.messages);
	TAP_CHECK_UINT(a.done, b.done);
	TAP_CHECK_UINT(a.gnodes, b.gnodes);
}

/* Without online failures every algorithm but GOS/OCG must reach all. */
static void test_gossip_reach(const void *arg)
{
	(void)arg;
	for (int algo = 0; algo < __GSIM_ALGO_MAX; algo++) {
		for (uint64_t seed = 1; seed <= 20; seed++) {
			uint32_t n = 2 + (uint32_t)(seed * 37 % 700);
			struct gsim_cfg cfg = gossip_cfg(algo, n, seed);
			struct gsim_result res;

			/* Sparse g-nodes too: T cut down to a third. */
			if (seed % 2)
				cfg.gossip_end /= 3;
			cfg.pre_failed = (uint32_t)(seed % 5 < n - 1 ? seed % 5 : 0);
			if (!TAP_CHECK(!gsim_run(&cfg, &res)))
				return;
			if (res.dup || res.unfinished ||
			    (algo != GSIM_GOS && algo != GSIM_OCG &&
			     res.reached != res.live)) {
				tap_diag("%s n=%u seed=%llu T=%u: reached %u of %u, dup %u, unfinished %u",
					 gsim_algo_name(algo), n,
					 (unsigned long long)seed, cfg.gossip_end,
					 res.reached, res.live, res.dup, res.unfinished);
				TAP_CHECK(false);
			}
		}
	}
}

/* Claim 4: all or none with up to f failures during the broadcast. */
static void test_fcg_all_or_none(const void *arg)
{
	uint32_t sos = 0, runs = 0, none = 0;

	(void)arg;
	for (uint8_t f = 1; f <= 3; f++) {
		for (uint64_t seed = 1; seed <= 60; seed++) {
			uint32_t n = 8 + (uint32_t)(seed * 53 % 400);
			struct gsim_cfg cfg = gossip_cfg(GSIM_FCG, n, seed * 7 + f);
			struct gsim_result res;

			cfg.f = f;
			cfg.gossip_end = 1 + (uint32_t)(seed % 4) * cfg.gossip_end / 4;
			cfg.pre_failed = (uint32_t)(seed % 3);
			cfg.online = f;
			cfg.online_active = true;
			cfg.online_window = cfg.gossip_end + 4 * n / 3 + 10;
			if (!TAP_CHECK(!gsim_run(&cfg, &res)))
				return;
			runs++;
			sos += res.sos > 0;
			none += res.reached == 0;
			if (!res.all_or_none || res.dup || res.unfinished) {
				tap_diag("f=%u n=%u seed=%llu T=%u: reached %u of %u live, dup %u, unfinished %u",
					 f, n, (unsigned long long)cfg.seed,
					 cfg.gossip_end, res.reached, res.live,
					 res.dup, res.unfinished);
				TAP_CHECK(false);
			}
		}
	}
	tap_diag("%u runs, %u with SOS, %u where no live node delivered", runs, sos, none);
	/* The schedules must exercise SOS, or this proves less than it says. */
	TAP_CHECK(sos > 0);
}

static void test_tune_model(const void *arg)
{
	double prev = 1e30;

	(void)arg;
	for (uint32_t T = 1; T < 60; T += 3) {
		double u = tune_uncolored(4096, 4096, 2, T, T + 3);

		TAP_CHECK(u <= prev && u >= 0);
		prev = u;
	}
	TAP_CHECK(tune_khat(4096, 4000, TUNE_DELTA) <= tune_khat(4096, 3000, TUNE_DELTA));
	TAP_CHECK(tune_ghat(4096, 4000, 5, TUNE_DELTA) >= 5);
}

/*
 * The fixed-vs-adaptive link model: on a quiet link the adaptive
 * detector suspects a crash sooner than d and is never wrong; with 1%
 * loss and d_min below 2h it suspects far more often than the fixed d (a
 * single lost heartbeat outlasts its timeout), and a d_min above 2h
 * brings that back near the fixed d's; same seed, same figures.
 */
static void test_adapt_model(const void *arg)
{
	struct adapt_cfg cfg = {
		.h_ns = 10000000, .d_ns = 30000000, .dmin_ns = 12000000,
		.dmin2_ns = 21000000, .nines = 9, .base_ns = 100000,
		.jitter_ns = 100000, .beats = 100000, .seed = 7,
	};
	struct adapt_result quiet, lossy, again;

	(void)arg;
	if (!TAP_CHECK_INT(adapt_run(&cfg, &quiet), 0))
		return;
	TAP_CHECK_UINT(quiet.side[0].false_suspicions, 0);
	TAP_CHECK_UINT(quiet.side[1].false_suspicions, 0);
	TAP_CHECK(quiet.side[1].detect_mean_ns < quiet.side[0].detect_mean_ns / 2);
	TAP_CHECK(quiet.side[2].detect_mean_ns < quiet.side[0].detect_mean_ns);
	cfg.loss = 0.01;
	if (!TAP_CHECK_INT(adapt_run(&cfg, &lossy), 0))
		return;
	TAP_CHECK(lossy.side[1].false_suspicions >
		  10 * (lossy.side[0].false_suspicions + 1));
	TAP_CHECK(lossy.side[2].false_suspicions <
		  lossy.side[1].false_suspicions / 10);
	TAP_CHECK_INT(adapt_run(&cfg, &again), 0);
	TAP_CHECK(!memcmp(&lossy, &again, sizeof(lossy)));
	cfg.dmin_ns = cfg.h_ns;	/* refused, as the module refuses it */
	TAP_CHECK_INT(adapt_run(&cfg, &again), -EINVAL);
}

int sim_selftest(void)
{
	tap_add(test_heap_order, NULL, "event queue pops in (time, insertion) order");
	tap_add(test_view_index, NULL, "indexed label <-> position equals ftnl_bcast_pos/label");
	tap_add(test_ring_deterministic, NULL, "ring: same seed, same run");
	for (size_t i = 0; i < sizeof(ring_cases) / sizeof(ring_cases[0]); i++)
		tap_add(test_ring_case, &ring_cases[i],
			"ring n=%u, %s: all learn all, reconnected, d - h <= detection, Theorem 1",
			ring_cases[i].n, ring_cases[i].name);
	tap_add(test_ring_rack, NULL,
		"ring n=1024, a rack of 16 fails at once: id order walks d(2f - 1), interleaved domains within d + h");
	tap_add(test_gossip_deterministic, NULL, "gossip: same seed, same broadcast");
	tap_add(test_gossip_reach, NULL,
		"CCG, FCG and floods reach every live node, no duplicate, everyone exits");
	tap_add(test_fcg_all_or_none, NULL,
		"FCG all-or-none with f = 1..3 online failures of active nodes");
	tap_add(test_adapt_model, NULL,
		"adapt: quiet link, adaptive sooner and never wrong; 1%% loss under 2h, wrong far more often");
	tap_add(test_tune_model, NULL, "analytic model: u(T) decreasing, K and G_5 sane");
	return tap_run();
}
