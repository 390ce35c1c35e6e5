// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-sim: discrete-event simulator of ftnl's observation ring and
 * broadcasts, driving the module's pure code. See
 * Documentation/simulator.rst.
 *
 *   ftnl-sim ring     one ring configuration, many seeds
 *   ftnl-sim gossip   one broadcast configuration, many seeds
 *   ftnl-sim tune     the paper's analytic T (and C) for each algorithm
 *   ftnl-sim compare  the tables of Documentation/simulator.rst
 *   ftnl-sim selftest fast deterministic checks, TAP
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kmod/bcast/topology.h"
#include "adapt.h"
#include "sim.h"
#include "tune.h"

static void usage(FILE *f)
{
	fputs("usage: ftnl-sim COMMAND [OPTIONS]\n"
	      "\n"
	      "  ring     [--n N] [--scenario lownoise|lowlat] [--mode burst|mtbf|segment|rack]\n"
	      "           [--rack SIZE] [--domains]\n"
	      "           [--runs R] [--seed S] [--overlay hcube|bmg] [--paper-t5]\n"
	      "           [--nfail K] [--window SEC] [--mtbf-years Y]\n"
	      "           [--h SEC] [--d SEC] [--t SEC]\n"
	      "  gossip   [--n N] [--algo gos|ocg|ccg|fcg|big|hcube|bmg] [--L US] [--O US]\n"
	      "           [--T SLOTS] [--C SLOTS] [--f F] [--pre K] [--online K]\n"
	      "           [--window SLOTS] [--online-active] [--runs R] [--seed S]\n"
	      "  tune     [--n N] [--L US] [--O US] [--pre K]\n"
	      "  adapt    [--beats N] [--seed S]  fixed vs adaptive timeouts, one link\n"
	      "  compare  [--quick] [--seed S]\n"
	      "  selftest\n", f);
}

static int parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(s, &end, 0);
	if (errno || end == s || *end || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static int parse_double(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || !(*v >= 0) ? -1 : 0;
}

static int bad_option(const char *cmd, const char *opt)
{
	fprintf(stderr, "ftnl-sim %s: invalid value for --%s\n", cmd, opt);
	return 2;
}

static uint32_t ilog2_floor(uint32_t n)
{
	uint32_t k = 0;

	while ((2ULL << k) <= n)
		k++;
	return k;
}

static int cmd_ring(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "n", required_argument, NULL, 'n' },
		{ "scenario", required_argument, NULL, 's' },
		{ "mode", required_argument, NULL, 'm' },
		{ "runs", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 'S' },
		{ "overlay", required_argument, NULL, 'o' },
		{ "paper-t5", no_argument, NULL, 'p' },
		{ "nfail", required_argument, NULL, 'k' },
		{ "window", required_argument, NULL, 'w' },
		{ "mtbf-years", required_argument, NULL, 'y' },
		{ "h", required_argument, NULL, 'h' },
		{ "d", required_argument, NULL, 'd' },
		{ "t", required_argument, NULL, 't' },
		{ "rack", required_argument, NULL, 'R' },
		{ "domains", no_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	const struct ring_scenario *sc = ring_scenario_find("lowlat");
	double h = NAN, d = NAN, t = NAN, window = NAN, years = 1.0;
	struct ring_cfg cfg = { .n = 65536, .mode = RING_BURST, .seed = 1,
				.overlay = FTNL_OVERLAY_HYPERCUBE, .rack = 16 };
	uint32_t runs = 10, nfail = 0, seed32;
	struct ring_batch b;
	int c, err;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_u32(optarg, &cfg.n) || cfg.n < 2)
				return bad_option("ring", "n");
			break;
		case 's':
			sc = ring_scenario_find(optarg);
			if (!sc)
				return bad_option("ring", "scenario");
			break;
		case 'm':
			if (!strcmp(optarg, "burst"))
				cfg.mode = RING_BURST;
			else if (!strcmp(optarg, "mtbf"))
				cfg.mode = RING_MTBF;
			else if (!strcmp(optarg, "segment"))
				cfg.mode = RING_SEGMENT;
			else if (!strcmp(optarg, "rack"))
				cfg.mode = RING_RACK;
			else
				return bad_option("ring", "mode");
			break;
		case 'r':
			if (parse_u32(optarg, &runs) || !runs)
				return bad_option("ring", "runs");
			break;
		case 'S':
			if (parse_u32(optarg, &seed32))
				return bad_option("ring", "seed");
			cfg.seed = seed32;
			break;
		case 'o':
			if (!strcmp(optarg, "hcube"))
				cfg.overlay = FTNL_OVERLAY_HYPERCUBE;
			else if (!strcmp(optarg, "bmg"))
				cfg.overlay = FTNL_OVERLAY_BMG;
			else
				return bad_option("ring", "overlay");
			break;
		case 'p':
			cfg.paper_t5 = true;
			break;
		case 'R':
			if (parse_u32(optarg, &cfg.rack) || !cfg.rack)
				return bad_option("ring", "rack");
			break;
		case 'D':
			cfg.domains = true;
			break;
		case 'k':
			if (parse_u32(optarg, &nfail) || !nfail)
				return bad_option("ring", "nfail");
			break;
		case 'w':
			if (parse_double(optarg, &window))
				return bad_option("ring", "window");
			break;
		case 'y':
			if (parse_double(optarg, &years) || !years)
				return bad_option("ring", "mtbf-years");
			break;
		case 'h':
			if (parse_double(optarg, &h))
				return bad_option("ring", "h");
			break;
		case 'd':
			if (parse_double(optarg, &d))
				return bad_option("ring", "d");
			break;
		case 't':
			if (parse_double(optarg, &t))
				return bad_option("ring", "t");
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	cfg.h_ns = (int64_t)((isnan(h) ? sc->h_s : h) * 1e9);
	cfg.d_ns = (int64_t)((isnan(d) ? sc->d_s : d) * 1e9);
	cfg.t_ns = (int64_t)((isnan(t) ? sc->t_s : t) * 1e9);
	cfg.nfail = nfail ? nfail : ilog2_floor(cfg.n) - 1;
	if (cfg.mode == RING_RACK)
		cfg.nfail = cfg.rack;
	cfg.window_ns = isnan(window) ? cfg.d_ns : (int64_t)(window * 1e9);
	if (cfg.window_ns < 1)
		cfg.window_ns = 1;
	cfg.mtbf_node_s = years * 365.25 * 86400;

	printf("ring: n=%u h=%g s d=%g s t=%g ms, %s, overlay %s%s, %u runs from seed %llu\n",
	       cfg.n, cfg.h_ns * 1e-9, cfg.d_ns * 1e-9, cfg.t_ns * 1e-6,
	       cfg.mode == RING_BURST ? "burst" : cfg.mode == RING_MTBF ? "mtbf" :
	       cfg.mode == RING_RACK ? "rack" : "segment",
	       cfg.overlay == FTNL_OVERLAY_BMG ? "bmg" : "hcube",
	       cfg.paper_t5 ? ", Algorithm 1's T5 (no reconnect on broadcast)" : "",
	       runs, (unsigned long long)cfg.seed);
	if (cfg.mode == RING_RACK)
		printf("  one failure domain of %u nodes (ids / %u) fails at 0; ring order %s\n",
		       cfg.rack, cfg.rack, cfg.domains ?
		       "interleaving the domains" : "by id (a domain is a run)");
	else if (cfg.mode != RING_MTBF)
		printf("  %u failures%s: the first at 0, the others uniform in [0, %g s)\n",
		       cfg.nfail, cfg.mode == RING_SEGMENT ? " of consecutive nodes, each the predecessor of the last" : "",
		       cfg.window_ns * 1e-9);
	else
		printf("  failures exponential, node MTBF %g years (platform %.1f s)\n",
		       years, cfg.mtbf_node_s / cfg.n);
	err = ring_batch_run(&cfg, runs, &b);
	if (err) {
		fprintf(stderr, "ftnl-sim ring: %s\n", strerror(-err));
		return 1;
	}
	printf("  all know the first failure  %10.4f s  (sd %.4f, min %.4f, max %.4f)\n",
	       b.t_first.mean, sim_stat_sd(&b.t_first), b.t_first.min, b.t_first.max);
	printf("  all know all failures       %10.4f s  (sd %.4f, min %.4f, max %.4f)\n",
	       b.t_all.mean, sim_stat_sd(&b.t_all), b.t_all.min, b.t_all.max);
	printf("  failures before stable      %10.2f    (max %.0f)\n",
	       b.failures.mean, b.failures.max);
	printf("  broadcasts per run          %10.2f\n", b.broadcasts.mean);
	printf("  broadcast messages per run  %10.0f\n", b.msgs.mean);
	printf("  unstable runs %u, runs not reconnected %u, wall %.2f s\n",
	       b.unstable, b.unreconnected, b.wall_s);
	return b.unstable || b.unreconnected ? 1 : 0;
}

static int cmd_gossip(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "n", required_argument, NULL, 'n' },
		{ "algo", required_argument, NULL, 'a' },
		{ "L", required_argument, NULL, 'L' },
		{ "O", required_argument, NULL, 'O' },
		{ "T", required_argument, NULL, 'T' },
		{ "C", required_argument, NULL, 'C' },
		{ "f", required_argument, NULL, 'f' },
		{ "pre", required_argument, NULL, 'p' },
		{ "online", required_argument, NULL, 'o' },
		{ "window", required_argument, NULL, 'w' },
		{ "online-active", no_argument, NULL, 'A' },
		{ "runs", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	struct gsim_cfg cfg = { .n = 4096, .algo = GSIM_FCG, .f = 1, .seed = 1 };
	uint32_t runs = 100, T = 0, C = 0, f = 1, seed32, window = 0;
	double L = 2, O = 1;
	struct tune_choice tc;
	struct gsim_batch b;
	int c, err;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_u32(optarg, &cfg.n) || cfg.n < 2)
				return bad_option("gossip", "n");
			break;
		case 'a':
			cfg.algo = gsim_algo_parse(optarg);
			if (cfg.algo < 0)
				return bad_option("gossip", "algo");
			break;
		case 'L':
			if (parse_double(optarg, &L))
				return bad_option("gossip", "L");
			break;
		case 'O':
			if (parse_double(optarg, &O) || !O)
				return bad_option("gossip", "O");
			break;
		case 'T':
			if (parse_u32(optarg, &T))
				return bad_option("gossip", "T");
			break;
		case 'C':
			if (parse_u32(optarg, &C))
				return bad_option("gossip", "C");
			break;
		case 'f':
			if (parse_u32(optarg, &f) || f > FTNL_GOSSIP_MAX_F)
				return bad_option("gossip", "f");
			break;
		case 'p':
			if (parse_u32(optarg, &cfg.pre_failed))
				return bad_option("gossip", "pre");
			break;
		case 'o':
			if (parse_u32(optarg, &cfg.online))
				return bad_option("gossip", "online");
			break;
		case 'w':
			if (parse_u32(optarg, &window))
				return bad_option("gossip", "window");
			break;
		case 'A':
			cfg.online_active = true;
			break;
		case 'r':
			if (parse_u32(optarg, &runs) || !runs)
				return bad_option("gossip", "runs");
			break;
		case 'S':
			if (parse_u32(optarg, &seed32))
				return bad_option("gossip", "seed");
			cfg.seed = seed32;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	cfg.f = (uint8_t)f;
	cfg.lat = (uint32_t)ceil(L / O);
	if (cfg.algo <= GSIM_FCG && !T) {
		if (tune_pick(cfg.algo, cfg.n - cfg.pre_failed, cfg.n, cfg.lat,
			      TUNE_DELTA, &tc)) {
			fprintf(stderr, "ftnl-sim gossip: no T found\n");
			return 1;
		}
		T = tc.gossip_end;
		if (!C)
			C = tc.corr_len;
	}
	cfg.gossip_end = T;
	cfg.corr_len = C;
	cfg.online_window = window ? window : 2 * T + 8 * cfg.lat + 32;

	printf("gossip: n=%u algo=%s L=%g us O=%g us (lat %u slots)", cfg.n,
	       gsim_algo_name(cfg.algo), L, O, cfg.lat);
	if (cfg.algo <= GSIM_FCG)
		printf(" T=%u", T);
	if (cfg.algo == GSIM_OCG)
		printf(" C-T-L/O-1=%u", C);
	if (cfg.algo == GSIM_FCG)
		printf(" f=%u", f);
	printf(", %u failed before, %u during (%s, slots [0, %u)), %u runs from seed %llu\n",
	       cfg.pre_failed, cfg.online, cfg.online_active ? "active nodes" : "any node",
	       cfg.online_window, runs, (unsigned long long)cfg.seed);
	err = gsim_batch_run(&cfg, runs, &b);
	if (err) {
		fprintf(stderr, "ftnl-sim gossip: %s\n", strerror(-err));
		return 1;
	}
	printf("  latency (last live node done) %9.2f us  (sd %.2f, max %.0f)\n",
	       b.done.mean * O, sim_stat_sd(&b.done) * O, b.done.max * O);
	printf("  last delivery                 %9.2f us  (max %.0f)\n",
	       b.reach.mean * O, b.reach.max * O);
	printf("  work                          %9.0f messages (%.2f per node)\n",
	       b.messages.mean, b.messages.mean / cfg.n);
	if (cfg.algo <= GSIM_FCG)
		printf("    gossip %.0f, correction %.0f, SOS %.0f\n", b.gossip_msgs.mean,
		       b.messages.mean - b.gossip_msgs.mean - b.sos_msgs.mean,
		       b.sos_msgs.mean);
	printf("  g-nodes                       %9.1f\n", b.gnodes.mean);
	printf("  live nodes reached            %12.7f%%  (min %.4f%%; runs where any was)\n",
	       100 * b.reached.mean, 100 * b.reached.min);
	printf("  runs: all live nodes delivered %u, none %u, some but not all %u; with SOS %u\n",
	       b.runs - b.incomplete, b.none, b.inconsistent, b.sos_runs);
	printf("  duplicate deliveries %llu, unfinished nodes %llu, wall %.2f s\n",
	       (unsigned long long)b.dup, (unsigned long long)b.unfinished, b.wall_s);
	return b.dup || b.unfinished ? 1 : 0;
}

static int cmd_tune(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "n", required_argument, NULL, 'n' },
		{ "L", required_argument, NULL, 'L' },
		{ "O", required_argument, NULL, 'O' },
		{ "pre", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	uint32_t n = 4096, pre = 0, lat;
	double L = 2, O = 1;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_u32(optarg, &n) || n < 2)
				return bad_option("tune", "n");
			break;
		case 'L':
			if (parse_double(optarg, &L))
				return bad_option("tune", "L");
			break;
		case 'O':
			if (parse_double(optarg, &O) || !O)
				return bad_option("tune", "O");
			break;
		case 'p':
			if (parse_u32(optarg, &pre) || pre >= n)
				return bad_option("tune", "pre");
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	lat = (uint32_t)ceil(L / O);
	printf("tune: N=%u (%u live) L=%g O=%g, delta=%g\n", n, n - pre, L, O, TUNE_DELTA);
	printf("  %-4s %6s %8s %10s %8s %10s %18s\n", "algo", "T", "C-Tc", "K or G5",
	       "g-nodes", "bound us", "pure default T");
	for (int a = FTNL_GOSSIP_GOS; a <= FTNL_GOSSIP_FCG; a++) {
		struct tune_choice tc;

		if (tune_pick(a, n - pre, n, lat, TUNE_DELTA, &tc)) {
			printf("  %-4s (none)\n", gsim_algo_name(a));
			continue;
		}
		printf("  %-4s %6u %8u %10u %8.0f %10.1f %18u\n", gsim_algo_name(a),
		       tc.gossip_end, tc.corr_len, tc.run, tc.colored,
		       tc.bound * O, ftnl_gossip_default_gossip_end(a, n, lat));
	}
	return 0;
}

/*
 * Built with -DSIM_SELFTEST_MAIN (build/tests/sim-selftest), no command
 * means "selftest", so that make check's runner needs no arguments.
 */
#ifdef SIM_SELFTEST_MAIN
#define SIM_DEFAULT_COMMAND "selftest"
#else
#define SIM_DEFAULT_COMMAND ""
#endif

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : SIM_DEFAULT_COMMAND;

	/* getopt sees the command's own arguments. */
	if (!strcmp(cmd, "ring"))
		return cmd_ring(argc - 1, argv + 1);
	if (!strcmp(cmd, "gossip"))
		return cmd_gossip(argc - 1, argv + 1);
	if (!strcmp(cmd, "tune"))
		return cmd_tune(argc - 1, argv + 1);
	if (!strcmp(cmd, "adapt"))
		return cmd_adapt(argc - 1, argv + 1);
	if (!strcmp(cmd, "compare"))
		return sim_compare(argc - 1, argv + 1);
	if (!strcmp(cmd, "selftest"))
		return sim_selftest();
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	usage(stderr);
	return 2;
}
