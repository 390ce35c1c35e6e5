// SPDX-License-Identifier: GPL-2.0
/*
 * What "bcast show" and the broadcast part of "stats" print, as text and
 * JSON, from crafted counters: the exact output, every shape (configured,
 * not configured, module without broadcast, nothing delivered yet).
 */
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "cli.h"
#include "tap.h"

/* ---- durations -------------------------------------------------------------- */

struct ns_case {
	uint64_t ns;
	const char *text;
};

static const struct ns_case ns_cases[] = {
	{ 0, "0ns" },
	{ 1, "1ns" },
	{ 999, "999ns" },
	{ 1000, "1.0us" },
	{ 1099, "1.0us" },		/* cut, not rounded */
	{ 12345, "12.3us" },
	{ 999999, "999.9us" },
	{ 1000000, "1.00ms" },
	{ 1204999, "1.20ms" },
	{ 40050000, "40.05ms" },
	{ 999999999, "999.99ms" },
	{ 1000000000, "1.000s" },
	{ 2345678901, "2.345s" },
	{ 18446744073709551615ull, "18446744073.709s" },
};

static void test_format_ns(const void *arg)
{
	const struct ns_case *c = arg;
	char buf[24];

	TAP_CHECK_STR(cli_format_ns(c->ns, buf, sizeof(buf)), c->text);
}

/* ---- fixtures --------------------------------------------------------------- */

static const struct ftnl_cluster_info info_bmg = {
	.cluster_id = 42, .self_id = 2, .node_count = 8,
	.has_bcast_algo = true, .bcast_algo = FTNL_BCAST_BMG,
};

static const struct ftnl_cluster_info info_hypercube = {
	.cluster_id = 42, .self_id = 2, .node_count = 8,
	.has_bcast_algo = true, .bcast_algo = FTNL_BCAST_HYPERCUBE,
};

/* A module with FCG reports its parameters, whatever the algorithm. */
static const struct ftnl_cluster_info info_bmg_fcg_params = {
	.cluster_id = 42, .self_id = 2, .node_count = 8,
	.has_bcast_algo = true, .bcast_algo = FTNL_BCAST_BMG,
	.has_fcg_f = true, .fcg_f = 1, .has_gossip_t = true, .gossip_t_us = 0,
};

static const struct ftnl_cluster_info info_fcg = {
	.cluster_id = 42, .self_id = 2, .node_count = 8,
	.has_bcast_algo = true, .bcast_algo = FTNL_BCAST_FCG,
	.has_fcg_f = true, .fcg_f = 2, .has_gossip_t = true, .gossip_t_us = 5000,
};

static const struct ftnl_cluster_info info_fcg_auto = {
	.cluster_id = 42, .self_id = 2, .node_count = 8,
	.has_bcast_algo = true, .bcast_algo = FTNL_BCAST_FCG,
	.has_fcg_f = true, .fcg_f = 7, .has_gossip_t = true, .gossip_t_us = 0,
};

/* A module without FTNL_FEATURE_BCAST: no algorithm in its reply. */
static const struct ftnl_cluster_info info_old = {
	.cluster_id = 42, .self_id = 2, .node_count = 8,
};

/* A newer module's algorithm. */
static const struct ftnl_cluster_info info_newer = {
	.cluster_id = 42, .self_id = 2, .node_count = 8,
	.has_bcast_algo = true, .bcast_algo = 9,
};

static const struct ftnl_stats stats_busy = {
	.hb_sent = 100,
	.bcast_originated = 1,
	.bcast_forwarded = 4,
	.bcast_sent = 7,
	.bcast_delivered = 3,
	.bcast_duplicates = 2,
	.bcast_latency_last_ns = 1204999,
	.bcast_latency_max_ns = 2345678901,
	.bcast_latency_sum_ns = 3000000001,	/* mean 1000000000 */
};

static const struct ftnl_stats stats_idle = { .hb_sent = 100 };

/* ---- JSON --------------------------------------------------------------------- */

struct json_case {
	const char *name;
	const struct ftnl_cluster_info *info;
	const struct ftnl_stats *st;
	bool pretty;
	const char *want;
};

static const struct json_case json_cases[] = {
	{ "bmg, busy", &info_bmg, &stats_busy, false,
	  "{\"configured\":true,\"algorithm\":\"bmg\",\"originated\":1,"
	  "\"forwarded\":4,\"sent\":7,\"delivered\":3,\"duplicates\":2,"
	  "\"latency_last_ns\":1204999,\"latency_mean_ns\":1000000000,"
	  "\"latency_max_ns\":2345678901,\"latency_sum_ns\":3000000001}\n" },
	{ "hypercube, nothing yet", &info_hypercube, &stats_idle, false,
	  "{\"configured\":true,\"algorithm\":\"hypercube\",\"originated\":0,"
	  "\"forwarded\":0,\"sent\":0,\"delivered\":0,\"duplicates\":0,"
	  "\"latency_last_ns\":0,\"latency_mean_ns\":0,\"latency_max_ns\":0,"
	  "\"latency_sum_ns\":0}\n" },
	{ "module without broadcast: no algorithm", &info_old, &stats_idle, false,
	  "{\"configured\":true,\"originated\":0,"
	  "\"forwarded\":0,\"sent\":0,\"delivered\":0,\"duplicates\":0,"
	  "\"latency_last_ns\":0,\"latency_mean_ns\":0,\"latency_max_ns\":0,"
	  "\"latency_sum_ns\":0}\n" },
	{ "newer module's algorithm", &info_newer, &stats_idle, false,
	  "{\"configured\":true,\"algorithm\":\"unknown\",\"originated\":0,"
	  "\"forwarded\":0,\"sent\":0,\"delivered\":0,\"duplicates\":0,"
	  "\"latency_last_ns\":0,\"latency_mean_ns\":0,\"latency_max_ns\":0,"
	  "\"latency_sum_ns\":0}\n" },
	{ "bmg with FCG's parameters reported", &info_bmg_fcg_params, &stats_idle,
	  false,
	  "{\"configured\":true,\"algorithm\":\"bmg\",\"fcg_f\":1,"
	  "\"gossip_t_us\":0,\"originated\":0,"
	  "\"forwarded\":0,\"sent\":0,\"delivered\":0,\"duplicates\":0,"
	  "\"latency_last_ns\":0,\"latency_mean_ns\":0,\"latency_max_ns\":0,"
	  "\"latency_sum_ns\":0}\n" },
	{ "fcg", &info_fcg, &stats_idle, false,
	  "{\"configured\":true,\"algorithm\":\"fcg\",\"fcg_f\":2,"
	  "\"gossip_t_us\":5000,\"originated\":0,"
	  "\"forwarded\":0,\"sent\":0,\"delivered\":0,\"duplicates\":0,"
	  "\"latency_last_ns\":0,\"latency_mean_ns\":0,\"latency_max_ns\":0,"
	  "\"latency_sum_ns\":0}\n" },
	{ "no cluster", NULL, &stats_busy, false, "{\"configured\":false}\n" },
	{ "no cluster, pretty", NULL, &stats_busy, true,
	  "{\n  \"configured\": false\n}\n" },
	{ "bmg, busy, pretty", &info_bmg, &stats_busy, true,
	  "{\n"
	  "  \"configured\": true,\n"
	  "  \"algorithm\": \"bmg\",\n"
	  "  \"originated\": 1,\n"
	  "  \"forwarded\": 4,\n"
	  "  \"sent\": 7,\n"
	  "  \"delivered\": 3,\n"
	  "  \"duplicates\": 2,\n"
	  "  \"latency_last_ns\": 1204999,\n"
	  "  \"latency_mean_ns\": 1000000000,\n"
	  "  \"latency_max_ns\": 2345678901,\n"
	  "  \"latency_sum_ns\": 3000000001\n"
	  "}\n" },
};

static void test_json(const void *arg)
{
	const struct json_case *c = arg;
	struct capture cap;

	if (!TAP_CHECK(capture_start(&cap)))
		return;
	cli_bcast_print_json(cap.out, c->pretty, c->info, c->st);
	TAP_CHECK_STR(capture_end(&cap), c->want);
	free(cap.text);
}

static void test_json_counters_nested(const void *arg)
{
	struct capture cap;
	struct json j;

	(void)arg;
	/* As "stats -j" nests them: the same members in a "bcast" object. */
	if (!TAP_CHECK(capture_start(&cap)))
		return;
	json_init(&j, cap.out, false);
	json_object_begin(&j);
	json_kv_uint(&j, "lateness_max_ns", 5);
	json_key(&j, "bcast");
	json_object_begin(&j);
	cli_bcast_json_counters(&j, &stats_busy);
	json_object_end(&j);
	json_object_end(&j);
	json_end(&j);
	TAP_CHECK_STR(capture_end(&cap),
		      "{\"lateness_max_ns\":5,\"bcast\":{\"originated\":1,"
		      "\"forwarded\":4,\"sent\":7,\"delivered\":3,\"duplicates\":2,"
		      "\"latency_last_ns\":1204999,\"latency_mean_ns\":1000000000,"
		      "\"latency_max_ns\":2345678901,\"latency_sum_ns\":3000000001}}\n");
	free(cap.text);
}

/* ---- text ------------------------------------------------------------------------ */

struct text_case {
	const char *name;
	const struct ftnl_cluster_info *info;
	const struct ftnl_stats *st;
	const char *want;
};

static const struct text_case text_cases[] = {
	{ "bmg, busy", &info_bmg, &stats_busy,
	  "algorithm      bmg\n"
	  "originated     1\n"
	  "forwarded      4\n"
	  "sent           7\n"
	  "delivered      3\n"
	  "duplicates     2\n"
	  "latency last   1.20ms\n"
	  "latency mean   1.000s\n"
	  "latency max    2.345s\n" },
	{ "hypercube, nothing delivered yet", &info_hypercube, &stats_idle,
	  "algorithm      hypercube\n"
	  "originated     0\n"
	  "forwarded      0\n"
	  "sent           0\n"
	  "delivered      0\n"
	  "duplicates     0\n"
	  "latency        none (no broadcast delivered here yet)\n" },
	{ "fcg with its parameters", &info_fcg, &stats_idle,
	  "algorithm      fcg gossip-faults 2 gossip-time 5ms\n"
	  "originated     0\n"
	  "forwarded      0\n"
	  "sent           0\n"
	  "delivered      0\n"
	  "duplicates     0\n"
	  "latency        none (no broadcast delivered here yet)\n" },
	{ "module without broadcast", &info_old, &stats_idle,
	  "algorithm      none (this module does not broadcast failures)\n"
	  "originated     0\n"
	  "forwarded      0\n"
	  "sent           0\n"
	  "delivered      0\n"
	  "duplicates     0\n"
	  "latency        none (no broadcast delivered here yet)\n" },
	{ "newer module's algorithm", &info_newer, &stats_idle,
	  "algorithm      unknown (9)\n"
	  "originated     0\n"
	  "forwarded      0\n"
	  "sent           0\n"
	  "delivered      0\n"
	  "duplicates     0\n"
	  "latency        none (no broadcast delivered here yet)\n" },
};

struct describe_case {
	const struct ftnl_cluster_info *info;
	const char *text;
};

static const struct describe_case describe_cases[] = {
	{ &info_hypercube, "hypercube" },
	{ &info_bmg, "bmg" },
	/* FCG's parameters only with FCG. */
	{ &info_bmg_fcg_params, "bmg" },
	{ &info_fcg, "fcg gossip-faults 2 gossip-time 5ms" },
	{ &info_fcg_auto, "fcg gossip-faults 7 gossip-time auto" },
	{ &info_newer, "unknown (9)" },
};

static void test_describe(const void *arg)
{
	const struct describe_case *c = arg;
	char buf[64];

	TAP_CHECK_STR(cli_bcast_describe(c->info, buf, sizeof(buf)), c->text);
}

static void test_text(const void *arg)
{
	const struct text_case *c = arg;
	struct capture cap;

	if (!TAP_CHECK(capture_start(&cap)))
		return;
	cli_bcast_print_text(cap.out, c->info, c->st);
	TAP_CHECK_STR(capture_end(&cap), c->want);
	free(cap.text);
}

static void test_stats_lines(const void *arg)
{
	struct capture cap;

	(void)arg;
	if (!TAP_CHECK(capture_start(&cap)))
		return;
	cli_stats_print_bcast(cap.out, &stats_busy);
	TAP_CHECK_STR(capture_end(&cap),
		      "bcast          originated 1 forwarded 4 sent 7 delivered 3 duplicates 2\n"
		      "bcast latency  last 1.20ms mean 1.000s max 2.345s\n");
	free(cap.text);

	/* Nothing delivered: no latency line. */
	if (!TAP_CHECK(capture_start(&cap)))
		return;
	cli_stats_print_bcast(cap.out, &stats_idle);
	TAP_CHECK_STR(capture_end(&cap),
		      "bcast          originated 0 forwarded 0 sent 0 delivered 0 duplicates 0\n");
	free(cap.text);
}

int main(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ns_cases); i++)
		tap_add(test_format_ns, &ns_cases[i], "format_ns(%llu) is %s",
			(unsigned long long)ns_cases[i].ns, ns_cases[i].text);
	for (i = 0; i < ARRAY_SIZE(json_cases); i++)
		tap_add(test_json, &json_cases[i], "bcast show -j: %s",
			json_cases[i].name);
	tap_add(test_json_counters_nested, NULL,
		"stats -j: the same counters in a \"bcast\" object");
	for (i = 0; i < ARRAY_SIZE(describe_cases); i++)
		tap_add(test_describe, &describe_cases[i], "algorithm described as \"%s\"",
			describe_cases[i].text);
	for (i = 0; i < ARRAY_SIZE(text_cases); i++)
		tap_add(test_text, &text_cases[i], "bcast show: %s",
			text_cases[i].name);
	tap_add(test_stats_lines, NULL, "stats: broadcast lines");
	return tap_run();
}
