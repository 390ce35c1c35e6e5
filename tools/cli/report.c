// SPDX-License-Identifier: GPL-2.0
/*
 * How the broadcast figures look, for "bcast show" and "stats": text for
 * people, JSON for programs. Pure functions of the structures libftnl
 * fills, writing to any FILE, so that tests/report.c checks the exact
 * output without a kernel.
 */
#include <inttypes.h>

#include "cli.h"

/**
 * cli_format_ns() - a time for people: 850ns, 12.3us, 1.20ms, 2.345s
 * @ns: the time in nanoseconds
 * @buf: receives the text (24 bytes are always enough)
 * @len: size of @buf
 *
 * Digits beyond those shown are cut, not rounded.
 *
 * Return: @buf.
 */
char *cli_format_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 "ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64 "us", ns / 1000,
			 ns % 1000 / 100);
	else if (ns < 1000000000)
		snprintf(buf, len, "%" PRIu64 ".%02" PRIu64 "ms", ns / 1000000,
			 ns % 1000000 / 10000);
	else
		snprintf(buf, len, "%" PRIu64 ".%03" PRIu64 "s", ns / 1000000000,
			 ns % 1000000000 / 1000000);
	return buf;
}

/**
 * cli_bcast_describe() - the broadcast algorithm in words
 * @info: the configuration, with an algorithm (has_bcast_algo)
 * @buf: receives "hypercube", "bmg", "fcg f 2 gossip 5ms" (FCG with its
 *	parameters; "gossip auto" when T is chosen from the number of nodes),
 *	or "unknown (9)" for an algorithm this tool does not know
 * @len: size of @buf (64 is always enough)
 *
 * Return: @buf.
 */
char *cli_bcast_describe(const struct ftnl_cluster_info *info, char *buf,
			 size_t len)
{
	char f[16] = "", t[32] = "", d[16];

	if (info->bcast_algo > FTNL_BCAST_MAX) {
		snprintf(buf, len, "unknown (%u)", info->bcast_algo);
		return buf;
	}
	if (info->bcast_algo == FTNL_BCAST_FCG && info->has_fcg_f)
		snprintf(f, sizeof(f), " f %u", info->fcg_f);
	if (info->bcast_algo == FTNL_BCAST_FCG && info->has_gossip_t)
		snprintf(t, sizeof(t), " gossip %s", info->gossip_t_us ?
			 ftnl_format_duration(info->gossip_t_us, d, sizeof(d)) :
			 "auto");
	snprintf(buf, len, "%s%s%s", ftnl_bcast_algo_name(info->bcast_algo),
		 f, t);
	return buf;
}

/**
 * cli_bcast_json_counters() - the broadcast counters as JSON members
 * @j: a writer inside an object
 * @st: the counters
 *
 * The same members in "bcast show" and in the "bcast" object of "stats".
 */
void cli_bcast_json_counters(struct json *j, const struct ftnl_stats *st)
{
	json_kv_uint(j, "originated", st->bcast_originated);
	json_kv_uint(j, "forwarded", st->bcast_forwarded);
	json_kv_uint(j, "sent", st->bcast_sent);
	json_kv_uint(j, "delivered", st->bcast_delivered);
	json_kv_uint(j, "duplicates", st->bcast_duplicates);
	json_kv_uint(j, "latency_last_ns", st->bcast_latency_last_ns);
	json_kv_uint(j, "latency_mean_ns", ftnl_stats_bcast_latency_mean_ns(st));
	json_kv_uint(j, "latency_max_ns", st->bcast_latency_max_ns);
	json_kv_uint(j, "latency_sum_ns", st->bcast_latency_sum_ns);
}

/**
 * cli_bcast_print_json() - "ftnl-cli -j bcast show"
 * @out: where to write
 * @pretty: indented
 * @info: the configuration, NULL when no cluster is configured
 * @st: the counters (unused when @info is NULL)
 *
 * {"configured":false} without a cluster. "algorithm" is left out when
 * the module did not report one (a module without FTNL_FEATURE_BCAST),
 * "fcg_f" and "gossip_t_us" when it did not report them (a module without
 * FTNL_BCAST_FCG); they are given for every algorithm when reported.
 */
void cli_bcast_print_json(FILE *out, bool pretty,
			  const struct ftnl_cluster_info *info,
			  const struct ftnl_stats *st)
{
	struct json j;

	json_init(&j, out, pretty);
	json_object_begin(&j);
	json_kv_bool(&j, "configured", info != NULL);
	if (info) {
		if (info->has_bcast_algo)
			json_kv_string(&j, "algorithm",
				       ftnl_bcast_algo_name(info->bcast_algo));
		if (info->has_fcg_f)
			json_kv_uint(&j, "fcg_f", info->fcg_f);
		if (info->has_gossip_t)
			json_kv_uint(&j, "gossip_t_us", info->gossip_t_us);
		cli_bcast_json_counters(&j, st);
	}
	json_object_end(&j);
	json_end(&j);
}

/* "latency ..." lines of "bcast show", or one line saying there is none. */
static void print_latency(FILE *out, const struct ftnl_stats *st)
{
	char buf[24];

	if (!st->bcast_delivered) {
		fprintf(out, "latency        none (no broadcast delivered here yet)\n");
		return;
	}
	fprintf(out, "latency last   %s\n",
		cli_format_ns(st->bcast_latency_last_ns, buf, sizeof(buf)));
	fprintf(out, "latency mean   %s\n",
		cli_format_ns(ftnl_stats_bcast_latency_mean_ns(st), buf,
			      sizeof(buf)));
	fprintf(out, "latency max    %s\n",
		cli_format_ns(st->bcast_latency_max_ns, buf, sizeof(buf)));
}

/**
 * cli_bcast_print_text() - "ftnl-cli bcast show"
 * @out: where to write
 * @info: the configuration (a cluster is configured)
 * @st: the counters
 */
void cli_bcast_print_text(FILE *out, const struct ftnl_cluster_info *info,
			  const struct ftnl_stats *st)
{
	char algo[64];

	if (!info->has_bcast_algo)
		fprintf(out, "algorithm      none (this module does not broadcast failures)\n");
	else
		fprintf(out, "algorithm      %s\n",
			cli_bcast_describe(info, algo, sizeof(algo)));
	fprintf(out, "originated     %" PRIu64 "\n", st->bcast_originated);
	fprintf(out, "forwarded      %" PRIu64 "\n", st->bcast_forwarded);
	fprintf(out, "sent           %" PRIu64 "\n", st->bcast_sent);
	fprintf(out, "delivered      %" PRIu64 "\n", st->bcast_delivered);
	fprintf(out, "duplicates     %" PRIu64 "\n", st->bcast_duplicates);
	print_latency(out, st);
}

/**
 * cli_stats_print_bcast() - the broadcast lines of "ftnl-cli stats"
 * @out: where to write
 * @st: the counters
 */
void cli_stats_print_bcast(FILE *out, const struct ftnl_stats *st)
{
	char last[24], mean[24], max[24];

	fprintf(out, "bcast          originated %" PRIu64 " forwarded %" PRIu64
		" sent %" PRIu64 " delivered %" PRIu64 " duplicates %" PRIu64
		"\n", st->bcast_originated, st->bcast_forwarded, st->bcast_sent,
		st->bcast_delivered, st->bcast_duplicates);
	if (!st->bcast_delivered)
		return;
	fprintf(out, "bcast latency  last %s mean %s max %s\n",
		cli_format_ns(st->bcast_latency_last_ns, last, sizeof(last)),
		cli_format_ns(ftnl_stats_bcast_latency_mean_ns(st), mean,
			      sizeof(mean)),
		cli_format_ns(st->bcast_latency_max_ns, max, sizeof(max)));
}
