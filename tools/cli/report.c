// SPDX-License-Identifier: GPL-2.0
/*
 * How the broadcast figures ("bcast show", "stats"), the registered
 * processes ("proc list") and the events ("monitor") look: text for
 * people, JSON for programs. Pure functions of the structures libftnl
 * fills, writing to any FILE, so that tests/report.c and tests/proc.c
 * check the exact output without a kernel.
 */
#include <inttypes.h>
#include <time.h>

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
 * @buf: receives "hypercube", "bmg", "fcg gossip-faults 2 gossip-time 5ms"
 *	(FCG with its parameters, in the words "cluster set" takes, so that
 *	the line can be pasted back; "gossip-time auto" when T is chosen from
 *	the number of nodes),
 *	or "unknown (9)" for an algorithm this tool does not know
 * @len: size of @buf (64 is always enough)
 *
 * Return: @buf.
 */
char *cli_bcast_describe(const struct ftnl_cluster_info *info, char *buf,
			 size_t len)
{
	char f[32] = "", t[40] = "", d[16];

	if (info->bcast_algo > FTNL_BCAST_MAX) {
		snprintf(buf, len, "unknown (%u)", info->bcast_algo);
		return buf;
	}
	if (info->bcast_algo == FTNL_BCAST_FCG && info->has_fcg_f)
		snprintf(f, sizeof(f), " gossip-faults %u", info->fcg_f);
	if (info->bcast_algo == FTNL_BCAST_FCG && info->has_gossip_t)
		snprintf(t, sizeof(t), " gossip-time %s", info->gossip_t_us ?
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

/* ---- proc list ------------------------------------------------------------ */

static int digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/**
 * cli_proc_print_text() - "ftnl-cli proc list"
 * @out: where to write
 * @procs: the registrations, in the kernel's order
 * @count: entries in @procs
 *
 * A table with a header line, columns as wide as their widest value;
 * "no process registered" when @count is 0.
 */
void cli_proc_print_text(FILE *out, const struct ftnl_proc *procs,
			 size_t count)
{
	int job_width = 3, rank_width = 4, owner_width = 5;
	size_t i;

	if (!count) {
		fprintf(out, "no process registered\n");
		return;
	}
	for (i = 0; i < count; i++) {
		if (digits(procs[i].job) > job_width)
			job_width = digits(procs[i].job);
		if (digits(procs[i].rank) > rank_width)
			rank_width = digits(procs[i].rank);
		if (digits(procs[i].owner_uid) > owner_width)
			owner_width = digits(procs[i].owner_uid);
	}
	fprintf(out, "%*s  %*s  %*s  %s\n", job_width, "JOB", rank_width,
		"RANK", owner_width, "OWNER", "PORTID");
	for (i = 0; i < count; i++)
		fprintf(out, "%*" PRIu64 "  %*" PRIu32 "  %*" PRIu32 "  %" PRIu32 "\n",
			job_width, procs[i].job, rank_width, procs[i].rank,
			owner_width, procs[i].owner_uid, procs[i].portid);
}

/**
 * cli_proc_print_json() - "ftnl-cli -j proc list"
 * @out: where to write
 * @pretty: indented
 * @procs: the registrations
 * @count: entries in @procs
 *
 * An array of {"job", "rank", "owner_uid", "portid"} objects, [] when
 * none.
 */
void cli_proc_print_json(FILE *out, bool pretty,
			 const struct ftnl_proc *procs, size_t count)
{
	struct json j;
	size_t i;

	json_init(&j, out, pretty);
	json_array_begin(&j);
	for (i = 0; i < count; i++) {
		json_object_begin(&j);
		json_kv_uint(&j, "job", procs[i].job);
		json_kv_uint(&j, "rank", procs[i].rank);
		json_kv_uint(&j, "owner_uid", procs[i].owner_uid);
		json_kv_uint(&j, "portid", procs[i].portid);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_end(&j);
}

/* ---- monitor --------------------------------------------------------------- */

/**
 * cli_format_time() - RFC 3339 UTC time with microseconds
 * @ns: CLOCK_REALTIME in nanoseconds
 * @buf: receives 2024-05-01T12:00:00.123456Z (40 bytes are enough)
 * @len: size of @buf
 *
 * Return: @buf.
 */
char *cli_format_time(uint64_t ns, char *buf, size_t len)
{
	time_t sec = (time_t)(ns / 1000000000u);
	struct tm tm;
	size_t n;

	gmtime_r(&sec, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%06uZ",
		 (unsigned int)(ns % 1000000000u / 1000u));
	return buf;
}

/* End an event's line with its sequence number, when it has one. */
static void cli_print_seq(FILE *out, const struct ftnl_event *ev)
{
	if (ev->seq)
		fprintf(out, " seq %" PRIu64, ev->seq);
	fputc('\n', out);
}

/**
 * cli_event_print_text() - one event of "ftnl-cli monitor", one line
 * @out: where to write
 * @ev: the event, as ftnl_events_read() gave it
 *
 * The line starts with the time the event was received, then its kind
 * (cluster, failure, proc_exit, overrun, unknown) and its fields as
 * "name value" pairs; "learned" is when the kernel learned it, "seq" (last)
 * the node's sequence number of the event.
 */
void cli_event_print_text(FILE *out, const struct ftnl_event *ev)
{
	char when[40], learned[40];

	cli_format_time(ev->received_ns, when, sizeof(when));
	switch (ev->type) {
	case FTNL_EVENT_CLUSTER:
		if (ev->cluster.configured)
			fprintf(out, "%s cluster generation %" PRIu32
				" cluster %" PRIu32 " self %" PRIu32
				" nodes %" PRIu32 "\n", when,
				ev->cluster.generation, ev->cluster.cluster_id,
				ev->cluster.self_id, ev->cluster.node_count);
		else
			fprintf(out, "%s cluster generation %" PRIu32
				" deleted\n", when, ev->cluster.generation);
		break;
	case FTNL_EVENT_FAILURE:
		cli_format_time(ev->failure.time_real_ns, learned,
				sizeof(learned));
		/* The name last: scripts matching the older fields keep working. */
		fprintf(out, "%s failure node %" PRIu32 " incarnation %" PRIu64
			" cause %s observer %" PRIu32 " cluster %" PRIu32
			" generation %" PRIu32 " learned %s%s%.*s", when,
			ev->failure.node_id, ev->failure.incarnation,
			ftnl_event_cause_name(ev->failure.cause),
			ev->failure.observer_id, ev->failure.cluster_id,
			ev->failure.generation, learned,
			ev->failure.node_name[0] ? " name " : "",
			FTNL_NODE_NAME_MAX, ev->failure.node_name);
		cli_print_seq(out, ev);
		break;
	case FTNL_EVENT_JOINED:
		cli_format_time(ev->joined.time_real_ns, learned,
				sizeof(learned));
		fprintf(out, "%s joined node %" PRIu32 " incarnation %" PRIu64
			" cause %s observer %" PRIu32 " cluster %" PRIu32
			" generation %" PRIu32 " learned %s%s%.*s", when,
			ev->joined.node_id, ev->joined.incarnation,
			ftnl_event_cause_name(ev->joined.cause),
			ev->joined.observer_id, ev->joined.cluster_id,
			ev->joined.generation, learned,
			ev->joined.node_name[0] ? " name " : "",
			FTNL_NODE_NAME_MAX, ev->joined.node_name);
		cli_print_seq(out, ev);
		break;
	case FTNL_EVENT_PROC_EXIT:
		cli_format_time(ev->proc_exit.time_real_ns, learned,
				sizeof(learned));
		fprintf(out, "%s proc_exit job %" PRIu64 " rank %" PRIu32
			" node %" PRIu32, when, ev->proc_exit.job,
			ev->proc_exit.rank, ev->proc_exit.node_id);
		if (ev->proc_exit.has_owner)
			fprintf(out, " owner %" PRIu32, ev->proc_exit.owner_uid);
		fprintf(out, " cause %s cluster %" PRIu32 " learned %s%s%.*s",
			ftnl_event_cause_name(ev->proc_exit.cause),
			ev->proc_exit.cluster_id, learned,
			ev->proc_exit.node_name[0] ? " node_name " : "",
			FTNL_NODE_NAME_MAX, ev->proc_exit.node_name);
		cli_print_seq(out, ev);
		break;
	case FTNL_EVENT_EXPELLED:
		cli_format_time(ev->expelled.time_real_ns, learned,
				sizeof(learned));
		fprintf(out, "%s expelled node %" PRIu32 " incarnation %" PRIu64
			" reason %s by %" PRIu32 " cluster %" PRIu32
			" generation %" PRIu32 " learned %s", when,
			ev->expelled.node_id, ev->expelled.incarnation,
			ftnl_expel_reason_name(ev->expelled.reason),
			ev->expelled.by_id, ev->expelled.cluster_id,
			ev->expelled.generation, learned);
		cli_print_seq(out, ev);
		break;
	case FTNL_EVENT_OVERRUN:
		fprintf(out, "%s overrun: events were lost, re-read the state\n",
			when);
		break;
	case FTNL_EVENT_UNKNOWN:
		fprintf(out, "%s unknown event (command %u)\n", when,
			ev->unknown.cmd);
		break;
	default:
		fprintf(out, "%s event of type %" PRIu32 "\n", when, ev->type);
	}
}

/**
 * cli_event_print_json() - one event of "ftnl-cli -j monitor"
 * @out: where to write
 * @pretty: indented (otherwise one object per line)
 * @ev: the event
 *
 * {"time": received, "event": kind, then the fields of the event, and
 * "seq", the node's sequence number of the event, when it has one}.
 */
void cli_event_print_json(FILE *out, bool pretty, const struct ftnl_event *ev)
{
	char when[40];
	struct json j;

	cli_format_time(ev->received_ns, when, sizeof(when));
	json_init(&j, out, pretty);
	json_object_begin(&j);
	json_kv_string(&j, "time", when);
	switch (ev->type) {
	case FTNL_EVENT_CLUSTER:
		json_kv_string(&j, "event", "cluster");
		json_kv_uint(&j, "generation", ev->cluster.generation);
		json_kv_bool(&j, "configured", ev->cluster.configured);
		if (ev->cluster.configured) {
			json_kv_uint(&j, "cluster_id", ev->cluster.cluster_id);
			json_kv_uint(&j, "self_id", ev->cluster.self_id);
			json_kv_uint(&j, "node_count", ev->cluster.node_count);
		}
		break;
	case FTNL_EVENT_FAILURE:
		json_kv_string(&j, "event", "failure");
		json_kv_uint(&j, "node_id", ev->failure.node_id);
		json_kv_uint(&j, "incarnation", ev->failure.incarnation);
		json_kv_string(&j, "cause",
			       ftnl_event_cause_name(ev->failure.cause));
		json_kv_uint(&j, "observer_id", ev->failure.observer_id);
		json_kv_uint(&j, "cluster_id", ev->failure.cluster_id);
		json_kv_uint(&j, "generation", ev->failure.generation);
		json_kv_uint(&j, "time_real_ns", ev->failure.time_real_ns);
		json_kv_uint(&j, "time_mono_ns", ev->failure.time_mono_ns);
		if (ev->failure.node_name[0])
			json_kv_string(&j, "node_name", ev->failure.node_name);
		break;
	case FTNL_EVENT_JOINED:
		json_kv_string(&j, "event", "joined");
		json_kv_uint(&j, "node_id", ev->joined.node_id);
		json_kv_uint(&j, "incarnation", ev->joined.incarnation);
		json_kv_string(&j, "cause",
			       ftnl_event_cause_name(ev->joined.cause));
		json_kv_uint(&j, "observer_id", ev->joined.observer_id);
		json_kv_uint(&j, "cluster_id", ev->joined.cluster_id);
		json_kv_uint(&j, "generation", ev->joined.generation);
		json_kv_uint(&j, "time_real_ns", ev->joined.time_real_ns);
		json_kv_uint(&j, "time_mono_ns", ev->joined.time_mono_ns);
		if (ev->joined.node_name[0])
			json_kv_string(&j, "node_name", ev->joined.node_name);
		break;
	case FTNL_EVENT_PROC_EXIT:
		json_kv_string(&j, "event", "proc_exit");
		json_kv_uint(&j, "job", ev->proc_exit.job);
		json_kv_uint(&j, "rank", ev->proc_exit.rank);
		json_kv_uint(&j, "node_id", ev->proc_exit.node_id);
		if (ev->proc_exit.has_owner)
			json_kv_uint(&j, "owner_uid", ev->proc_exit.owner_uid);
		json_kv_string(&j, "cause",
			       ftnl_event_cause_name(ev->proc_exit.cause));
		json_kv_uint(&j, "cluster_id", ev->proc_exit.cluster_id);
		json_kv_uint(&j, "time_real_ns", ev->proc_exit.time_real_ns);
		json_kv_uint(&j, "time_mono_ns", ev->proc_exit.time_mono_ns);
		if (ev->proc_exit.node_name[0])
			json_kv_string(&j, "node_name", ev->proc_exit.node_name);
		break;
	case FTNL_EVENT_EXPELLED:
		json_kv_string(&j, "event", "expelled");
		json_kv_uint(&j, "node_id", ev->expelled.node_id);
		json_kv_uint(&j, "incarnation", ev->expelled.incarnation);
		json_kv_string(&j, "reason",
			       ftnl_expel_reason_name(ev->expelled.reason));
		json_kv_uint(&j, "by_id", ev->expelled.by_id);
		json_kv_uint(&j, "cluster_id", ev->expelled.cluster_id);
		json_kv_uint(&j, "generation", ev->expelled.generation);
		json_kv_uint(&j, "time_real_ns", ev->expelled.time_real_ns);
		json_kv_uint(&j, "time_mono_ns", ev->expelled.time_mono_ns);
		break;
	case FTNL_EVENT_OVERRUN:
		json_kv_string(&j, "event", "overrun");
		break;
	case FTNL_EVENT_UNKNOWN:
		json_kv_string(&j, "event", "unknown");
		json_kv_uint(&j, "cmd", ev->unknown.cmd);
		break;
	default:
		json_kv_string(&j, "event", "unknown");
		json_kv_uint(&j, "type", ev->type);
	}
	if (ev->seq)
		json_kv_uint(&j, "seq", ev->seq);
	json_object_end(&j);
	json_end(&j);
}
