// SPDX-License-Identifier: GPL-2.0
/*
 * What "proc list" and "monitor" print, as text and JSON, from crafted
 * registrations and events: the exact output of every event type, the
 * process exits among the others.
 */
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "cli.h"
#include "tap.h"

/* 2024-05-01T12:00:00.123456789Z */
#define T_RECV	1714564800123456789ull
/* 2024-05-01T11:59:59.999999999Z */
#define T_REAL	1714564799999999999ull

/* ---- proc list ---------------------------------------------------------------- */

static const struct ftnl_proc procs[] = {
	{ .job = 7, .rank = 0, .portid = 312, .owner_uid = 1000 },
	{ .job = 18446744073709551615ull, .rank = 4294967295u,
	  .portid = 2147483648u, .owner_uid = 4294967294u },
	{ .job = 7, .rank = 12, .portid = 4001, .owner_uid = 0 },
};

struct list_case {
	const char *name;
	size_t count;
	bool json;
	bool pretty;
	const char *want;
};

static const struct list_case list_cases[] = {
	{ "text, none", 0, false, false, "no process registered\n" },
	{ "text, one: the header sets the minimum widths", 1, false, false,
	  "JOB  RANK  OWNER  PORTID\n"
	  "  7     0   1000  312\n" },
	{ "text, columns as wide as the widest value", 3, false, false,
	  "                 JOB        RANK       OWNER  PORTID\n"
	  "                   7           0        1000  312\n"
	  "18446744073709551615  4294967295  4294967294  2147483648\n"
	  "                   7          12           0  4001\n" },
	{ "json, none", 0, true, false, "[]\n" },
	{ "json, three", 3, true, false,
	  "[{\"job\":7,\"rank\":0,\"owner_uid\":1000,\"portid\":312},"
	  "{\"job\":18446744073709551615,\"rank\":4294967295,\"owner_uid\":4294967294,\"portid\":2147483648},"
	  "{\"job\":7,\"rank\":12,\"owner_uid\":0,\"portid\":4001}]\n" },
	{ "json pretty, one", 1, true, true,
	  "[\n"
	  "  {\n"
	  "    \"job\": 7,\n"
	  "    \"rank\": 0,\n"
	  "    \"owner_uid\": 1000,\n"
	  "    \"portid\": 312\n"
	  "  }\n"
	  "]\n" },
};

static void test_list(const void *arg)
{
	const struct list_case *c = arg;
	struct capture cap;

	if (!TAP_CHECK(capture_start(&cap)))
		return;
	if (c->json)
		cli_proc_print_json(cap.out, c->pretty, procs, c->count);
	else
		cli_proc_print_text(cap.out, procs, c->count);
	TAP_CHECK_STR(capture_end(&cap), c->want);
	free(cap.text);
}

/* ---- monitor ------------------------------------------------------------------- */

static const struct ftnl_event ev_proc_observed = {
	.type = FTNL_EVENT_PROC_EXIT,
	.received_ns = T_RECV,
	.proc_exit = {
		.job = 42, .rank = 3, .node_id = 5,
		.cause = FTNL_CAUSE_OBSERVED, .cluster_id = 9,
		.time_mono_ns = 123456789, .time_real_ns = T_REAL,
		.owner_uid = 1000, .has_owner = true,
	},
};

static const struct ftnl_event ev_proc_broadcast = {
	.type = FTNL_EVENT_PROC_EXIT,
	.received_ns = T_RECV,
	.proc_exit = {
		.job = 18446744073709551615ull, .rank = 4294967295u,
		.node_id = 16, .cause = FTNL_CAUSE_BROADCAST, .cluster_id = 9,
		.time_mono_ns = 1, .time_real_ns = T_REAL,
	},
};

static const struct ftnl_event ev_failure = {
	.type = FTNL_EVENT_FAILURE,
	.received_ns = T_RECV,
	.failure = {
		.node_id = 4, .observer_id = 5, .incarnation = 77,
		.cause = FTNL_CAUSE_OBSERVED, .cluster_id = 9, .generation = 2,
		.time_mono_ns = 10, .time_real_ns = T_REAL,
	},
};

static const struct ftnl_event ev_failure_named = {
	.type = FTNL_EVENT_FAILURE,
	.received_ns = T_RECV,
	.failure = {
		.node_id = 12, .observer_id = 5, .incarnation = 77,
		.cause = FTNL_CAUSE_LEAVE, .cluster_id = 9, .generation = 2,
		.time_mono_ns = 10, .time_real_ns = T_REAL,
		.node_name = "cn012",
	},
};

static const struct ftnl_event ev_proc_named = {
	.type = FTNL_EVENT_PROC_EXIT,
	.received_ns = T_RECV,
	.proc_exit = {
		.job = 42, .rank = 3, .node_id = 12,
		.cause = FTNL_CAUSE_BROADCAST, .cluster_id = 9,
		.time_mono_ns = 1, .time_real_ns = T_REAL,
		.node_name = "cn012",
	},
};

/* Numbered events: the sequence number comes last. */
static const struct ftnl_event ev_failure_seq = {
	.type = FTNL_EVENT_FAILURE,
	.received_ns = T_RECV,
	.failure = {
		.node_id = 12, .observer_id = 5, .incarnation = 77,
		.cause = FTNL_CAUSE_LEAVE, .cluster_id = 9, .generation = 2,
		.time_mono_ns = 10, .time_real_ns = T_REAL,
		.node_name = "cn012",
	},
	.seq = 18446744073709551615ull,
};

static const struct ftnl_event ev_proc_seq = {
	.type = FTNL_EVENT_PROC_EXIT,
	.received_ns = T_RECV,
	.proc_exit = {
		.job = 42, .rank = 3, .node_id = 5, .owner_uid = 1000,
		.has_owner = true, .cause = FTNL_CAUSE_OBSERVED,
		.cluster_id = 9, .time_mono_ns = 1, .time_real_ns = T_REAL,
	},
	.seq = 7,
};

static const struct ftnl_event ev_cluster = {
	.type = FTNL_EVENT_CLUSTER,
	.received_ns = T_RECV,
	.cluster = {
		.generation = 2, .configured = true, .cluster_id = 9,
		.self_id = 5, .node_count = 16,
	},
};

static const struct ftnl_event ev_deleted = {
	.type = FTNL_EVENT_CLUSTER,
	.received_ns = T_RECV,
	.cluster = { .generation = 3 },
};

static const struct ftnl_event ev_overrun = {
	.type = FTNL_EVENT_OVERRUN,
	.received_ns = T_RECV,
};

static const struct ftnl_event ev_unknown = {
	.type = FTNL_EVENT_UNKNOWN,
	.received_ns = T_RECV,
	.unknown = { .cmd = 99 },
};

static const struct ftnl_event ev_newer_type = {
	.type = 77,
	.received_ns = T_RECV,
};

struct event_case {
	const char *name;
	const struct ftnl_event *ev;
	const char *text;
	const char *json;
};

static const struct event_case event_cases[] = {
	{ "process exit, observed", &ev_proc_observed,
	  "2024-05-01T12:00:00.123456Z proc_exit job 42 rank 3 node 5 owner 1000 cause observed cluster 9 learned 2024-05-01T11:59:59.999999Z\n",
	  "{\"time\":\"2024-05-01T12:00:00.123456Z\",\"event\":\"proc_exit\","
	  "\"job\":42,\"rank\":3,\"node_id\":5,\"owner_uid\":1000,\"cause\":\"observed\","
	  "\"cluster_id\":9,\"time_real_ns\":1714564799999999999,"
	  "\"time_mono_ns\":123456789}\n" },
	{ "process exit, broadcast, largest job and rank, no owner (older module)", &ev_proc_broadcast,
	  "2024-05-01T12:00:00.123456Z proc_exit job 18446744073709551615 rank 4294967295 node 16 cause broadcast cluster 9 learned 2024-05-01T11:59:59.999999Z\n",
	  "{\"time\":\"2024-05-01T12:00:00.123456Z\",\"event\":\"proc_exit\","
	  "\"job\":18446744073709551615,\"rank\":4294967295,\"node_id\":16,"
	  "\"cause\":\"broadcast\",\"cluster_id\":9,"
	  "\"time_real_ns\":1714564799999999999,\"time_mono_ns\":1}\n" },
	{ "node failure", &ev_failure,
	  "2024-05-01T12:00:00.123456Z failure node 4 incarnation 77 cause observed observer 5 cluster 9 generation 2 learned 2024-05-01T11:59:59.999999Z\n",
	  "{\"time\":\"2024-05-01T12:00:00.123456Z\",\"event\":\"failure\","
	  "\"node_id\":4,\"incarnation\":77,\"cause\":\"observed\","
	  "\"observer_id\":5,\"cluster_id\":9,\"generation\":2,"
	  "\"time_real_ns\":1714564799999999999,\"time_mono_ns\":10}\n" },
	{ "node failure of a named node: the name last", &ev_failure_named,
	  "2024-05-01T12:00:00.123456Z failure node 12 incarnation 77 cause leave observer 5 cluster 9 generation 2 learned 2024-05-01T11:59:59.999999Z name cn012\n",
	  "{\"time\":\"2024-05-01T12:00:00.123456Z\",\"event\":\"failure\","
	  "\"node_id\":12,\"incarnation\":77,\"cause\":\"leave\","
	  "\"observer_id\":5,\"cluster_id\":9,\"generation\":2,"
	  "\"time_real_ns\":1714564799999999999,\"time_mono_ns\":10,"
	  "\"node_name\":\"cn012\"}\n" },
	{ "process exit on a named node", &ev_proc_named,
	  "2024-05-01T12:00:00.123456Z proc_exit job 42 rank 3 node 12 cause broadcast cluster 9 learned 2024-05-01T11:59:59.999999Z node_name cn012\n",
	  "{\"time\":\"2024-05-01T12:00:00.123456Z\",\"event\":\"proc_exit\","
	  "\"job\":42,\"rank\":3,\"node_id\":12,\"cause\":\"broadcast\","
	  "\"cluster_id\":9,\"time_real_ns\":1714564799999999999,"
	  "\"time_mono_ns\":1,\"node_name\":\"cn012\"}\n" },
	{ "numbered node failure: seq after the name", &ev_failure_seq,
	  "2024-05-01T12:00:00.123456Z failure node 12 incarnation 77 cause leave observer 5 cluster 9 generation 2 learned 2024-05-01T11:59:59.999999Z name cn012 seq 18446744073709551615\n",
	  "{\"time\":\"2024-05-01T12:00:00.123456Z\",\"event\":\"failure\","
	  "\"node_id\":12,\"incarnation\":77,\"cause\":\"leave\","
	  "\"observer_id\":5,\"cluster_id\":9,\"generation\":2,"
	  "\"time_real_ns\":1714564799999999999,\"time_mono_ns\":10,"
	  "\"node_name\":\"cn012\",\"seq\":18446744073709551615}\n" },
	{ "numbered process exit", &ev_proc_seq,
	  "2024-05-01T12:00:00.123456Z proc_exit job 42 rank 3 node 5 owner 1000 cause observed cluster 9 learned 2024-05-01T11:59:59.999999Z seq 7\n",
	  "{\"time\":\"2024-05-01T12:00:00.123456Z\",\"event\":\"proc_exit\","
	  "\"job\":42,\"rank\":3,\"node_id\":5,\"owner_uid\":1000,\"cause\":\"observed\","
	  "\"cluster_id\":9,\"time_real_ns\":1714564799999999999,"
	  "\"time_mono_ns\":1,\"seq\":7}\n" },
	{ "cluster configured", &ev_cluster,
	  "2024-05-01T12:00:00.123456Z cluster generation 2 cluster 9 self 5 nodes 16\n",
	  "{\"time\":\"2024-05-01T12:00:00.123456Z\",\"event\":\"cluster\","
	  "\"generation\":2,\"configured\":true,\"cluster_id\":9,"
	  "\"self_id\":5,\"node_count\":16}\n" },
	{ "cluster deleted", &ev_deleted,
	  "2024-05-01T12:00:00.123456Z cluster generation 3 deleted\n",
	  "{\"time\":\"2024-05-01T12:00:00.123456Z\",\"event\":\"cluster\","
	  "\"generation\":3,\"configured\":false}\n" },
	{ "overrun", &ev_overrun,
	  "2024-05-01T12:00:00.123456Z overrun: events were lost, re-read the state\n",
	  "{\"time\":\"2024-05-01T12:00:00.123456Z\",\"event\":\"overrun\"}\n" },
	{ "unknown notification", &ev_unknown,
	  "2024-05-01T12:00:00.123456Z unknown event (command 99)\n",
	  "{\"time\":\"2024-05-01T12:00:00.123456Z\",\"event\":\"unknown\","
	  "\"cmd\":99}\n" },
	{ "type of a newer library", &ev_newer_type,
	  "2024-05-01T12:00:00.123456Z event of type 77\n",
	  "{\"time\":\"2024-05-01T12:00:00.123456Z\",\"event\":\"unknown\","
	  "\"type\":77}\n" },
};

static void test_event_text(const void *arg)
{
	const struct event_case *c = arg;
	struct capture cap;

	if (!TAP_CHECK(capture_start(&cap)))
		return;
	cli_event_print_text(cap.out, c->ev);
	TAP_CHECK_STR(capture_end(&cap), c->text);
	free(cap.text);
}

static void test_event_json(const void *arg)
{
	const struct event_case *c = arg;
	struct capture cap;

	if (!TAP_CHECK(capture_start(&cap)))
		return;
	cli_event_print_json(cap.out, false, c->ev);
	TAP_CHECK_STR(capture_end(&cap), c->json);
	free(cap.text);
}

static void test_event_pretty(const void *arg)
{
	struct capture cap;

	(void)arg;
	if (!TAP_CHECK(capture_start(&cap)))
		return;
	cli_event_print_json(cap.out, true, &ev_proc_observed);
	TAP_CHECK_STR(capture_end(&cap),
		      "{\n"
		      "  \"time\": \"2024-05-01T12:00:00.123456Z\",\n"
		      "  \"event\": \"proc_exit\",\n"
		      "  \"job\": 42,\n"
		      "  \"rank\": 3,\n"
		      "  \"node_id\": 5,\n"
		      "  \"owner_uid\": 1000,\n"
		      "  \"cause\": \"observed\",\n"
		      "  \"cluster_id\": 9,\n"
		      "  \"time_real_ns\": 1714564799999999999,\n"
		      "  \"time_mono_ns\": 123456789\n"
		      "}\n");
	free(cap.text);
}

static void test_format_time(const void *arg)
{
	char buf[40];

	(void)arg;
	TAP_CHECK_STR(cli_format_time(0, buf, sizeof(buf)),
		      "1970-01-01T00:00:00.000000Z");
	/* Microseconds are cut, not rounded. */
	TAP_CHECK_STR(cli_format_time(T_REAL, buf, sizeof(buf)),
		      "2024-05-01T11:59:59.999999Z");
}

int main(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(list_cases); i++)
		tap_add(test_list, &list_cases[i], "proc list: %s",
			list_cases[i].name);
	for (i = 0; i < ARRAY_SIZE(event_cases); i++) {
		tap_add(test_event_text, &event_cases[i], "monitor: %s",
			event_cases[i].name);
		tap_add(test_event_json, &event_cases[i], "monitor -j: %s",
			event_cases[i].name);
	}
	tap_add(test_event_pretty, NULL, "monitor -jp: process exit, indented");
	tap_add(test_format_time, NULL, "event times: RFC 3339, UTC, microseconds");
	return tap_run();
}
