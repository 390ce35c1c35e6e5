// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-cli stats: this node's counters, drops by reason, the heartbeat
 * emission lateness histogram with its timer starts and lock waits, and
 * the broadcast counters (report.c).
 */
#include <errno.h>
#include <inttypes.h>

#include "cli.h"

/* Lower bound of lateness bucket @i in microseconds (see struct ftnl_stats). */
static uint64_t bucket_low_us(int i)
{
	return i ? (uint64_t)1 << (i - 1) : 0;
}

/* A histogram's 24 bucket counts as the array @key (see struct ftnl_stats). */
static void json_histogram(struct json *j, const char *key,
			   const uint64_t *hist)
{
	int i;

	json_key(j, key);
	json_array_begin(j);
	for (i = 0; i < FTNL_LATENESS_BUCKETS; i++)
		json_uint(j, hist[i]);
	json_array_end(j);
}

static void print_json(const struct cli_command *cmd,
		       const struct ftnl_stats *st)
{
	struct json j;
	int i;

	json_init(&j, stdout, cmd->opt.pretty);
	json_object_begin(&j);
	json_kv_bool(&j, "configured", true);
	json_kv_uint(&j, "hb_sent", st->hb_sent);
	json_kv_uint(&j, "hb_recv", st->hb_recv);
	json_kv_uint(&j, "hb_from_emitter", st->hb_from_emitter);
	json_kv_uint(&j, "suspicions", st->suspicions);
	json_kv_uint(&j, "new_observer_sent", st->new_observer_sent);
	json_kv_uint(&j, "new_observer_recv", st->new_observer_recv);
	json_kv_uint(&j, "leave_sent", st->leave_sent);
	json_kv_uint(&j, "leave_recv", st->leave_recv);
	json_kv_uint(&j, "tx_errors", st->tx_errors);
	json_kv_uint(&j, "events_lost", st->events_lost);
	json_kv_uint(&j, "event_seq", st->event_seq);
	json_kv_uint(&j, "events_queue_overflow", st->events_queue_overflow);
	json_kv_uint(&j, "events_notify_failed", st->events_notify_failed);
	json_kv_uint(&j, "expelled_sent", st->expelled_sent);
	json_kv_uint(&j, "expelled_recv", st->expelled_recv);
	json_kv_uint(&j, "stall_waits", st->stall_waits);
	json_key(&j, "drops");
	json_object_begin(&j);
	for (i = 0; i <= FTNL_DROP_MAX; i++)
		json_kv_uint(&j, ftnl_drop_reason_name((unsigned int)i),
			     st->drops[i]);
	json_object_end(&j);
	json_histogram(&j, "lateness", st->lateness);
	json_kv_uint(&j, "lateness_max_ns", st->lateness_max_ns);
	json_kv_uint(&j, "probe_req_sent", st->probe_req_sent);
	json_kv_uint(&j, "probe_req_recv", st->probe_req_recv);
	json_kv_uint(&j, "probe_ack_sent", st->probe_ack_sent);
	json_kv_uint(&j, "probe_ack_recv", st->probe_ack_recv);
	json_kv_uint(&j, "suspicions_refuted", st->suspicions_refuted);
	json_kv_uint(&j, "probes_throttled", st->probes_throttled);
	json_kv_uint(&j, "probes_deferred", st->probes_deferred);
	json_kv_uint(&j, "probe_asks_held", st->probe_asks_held);
	json_kv_uint(&j, "news_held", st->news_held);
	json_kv_uint(&j, "news_stale", st->news_stale);
	json_kv_uint(&j, "prev_key_recv", st->prev_key_recv);
	json_kv_uint(&j, "suspicions_verified", st->suspicions_verified);
	json_kv_uint(&j, "forming_waits", st->forming_waits);
	json_kv_uint(&j, "host_rx_drops", st->host_rx_drops);
	json_kv_uint(&j, "host_rx_unread", st->host_rx_unread);
	json_histogram(&j, "hb_lock_wait", st->hb_lock_wait);
	json_kv_uint(&j, "hb_lock_wait_max_ns", st->hb_lock_wait_max_ns);
	json_histogram(&j, "hb_start_late", st->hb_start_late);
	json_kv_uint(&j, "hb_start_late_max_ns", st->hb_start_late_max_ns);
	json_key(&j, "bcast");
	json_object_begin(&j);
	cli_bcast_json_counters(&j, st);
	json_object_end(&j);
	json_object_end(&j);
	json_end(&j);
}

static uint64_t histogram_total(const uint64_t *hist)
{
	uint64_t total = 0;
	int i;

	for (i = 0; i < FTNL_LATENESS_BUCKETS; i++)
		total += hist[i];
	return total;
}

/*
 * A histogram of heartbeats: its @label line with the maximum and the
 * count, then its non-empty buckets, a line each (see struct ftnl_stats).
 */
static void print_histogram(const char *label, const uint64_t *hist,
			    uint64_t max_ns)
{
	int i;

	printf("%-15smax %" PRIu64 "ns over %" PRIu64 " heartbeats\n", label,
	       max_ns, histogram_total(hist));
	for (i = 0; i < FTNL_LATENESS_BUCKETS; i++) {
		if (!hist[i])
			continue;
		if (i == FTNL_LATENESS_BUCKETS - 1)
			printf("  >= %" PRIu64 "us: %" PRIu64 "\n",
			       bucket_low_us(i), hist[i]);
		else
			printf("  %" PRIu64 "..%" PRIu64 "us: %" PRIu64 "\n",
			       bucket_low_us(i), bucket_low_us(i + 1), hist[i]);
	}
}

static void print_text(const struct ftnl_stats *st)
{
	uint64_t dropped = 0;
	int i;

	printf("heartbeats     sent %" PRIu64 " received %" PRIu64
	       " from emitter %" PRIu64 "\n",
	       st->hb_sent, st->hb_recv, st->hb_from_emitter);
	printf("suspicions     %" PRIu64 " refuted by a probe %" PRIu64
	       " verified %" PRIu64 "\n", st->suspicions,
	       st->suspicions_refuted, st->suspicions_verified);
	printf("probe requests sent %" PRIu64 " received %" PRIu64
	       " throttled %" PRIu64 " deferred %" PRIu64 " held %" PRIu64
	       "\n", st->probe_req_sent, st->probe_req_recv,
	       st->probes_throttled, st->probes_deferred, st->probe_asks_held);
	printf("probe answers  sent %" PRIu64 " received %" PRIu64 "\n",
	       st->probe_ack_sent, st->probe_ack_recv);
	printf("new observer   sent %" PRIu64 " received %" PRIu64 "\n",
	       st->new_observer_sent, st->new_observer_recv);
	printf("leave          sent %" PRIu64 " received %" PRIu64 "\n",
	       st->leave_sent, st->leave_recv);
	printf("tx errors      %" PRIu64 "\n", st->tx_errors);
	printf("events lost    %" PRIu64 "\n", st->events_lost);
	printf("events         last seq %" PRIu64 " queue overflow %" PRIu64
	       " notify failed %" PRIu64 "\n", st->event_seq,
	       st->events_queue_overflow, st->events_notify_failed);
	printf("expelled       sent %" PRIu64 " received %" PRIu64 "\n",
	       st->expelled_sent, st->expelled_recv);
	printf("stall waits    %" PRIu64 "\n", st->stall_waits);
	printf("forming waits  %" PRIu64 "\n", st->forming_waits);
	printf("host rx drops  %" PRIu64 "\n", st->host_rx_drops);
	printf("host rx unread %" PRIu64 "\n", st->host_rx_unread);
	printf("news held      %" PRIu64 " stale %" PRIu64 "\n",
	       st->news_held, st->news_stale);
	printf("previous key   %" PRIu64 " datagrams accepted\n",
	       st->prev_key_recv);
	cli_stats_print_bcast(stdout, st);

	for (i = 0; i <= FTNL_DROP_MAX; i++)
		dropped += st->drops[i];
	printf("drops          %" PRIu64, dropped);
	for (i = 0; i <= FTNL_DROP_MAX; i++)
		if (st->drops[i])
			printf(" %s %" PRIu64, ftnl_drop_reason_name((unsigned int)i),
			       st->drops[i]);
	putchar('\n');

	print_histogram("lateness", st->lateness, st->lateness_max_ns);
	/* Absent from a module that does not report them: no line then. */
	if (histogram_total(st->hb_start_late))
		print_histogram("timer start", st->hb_start_late,
				st->hb_start_late_max_ns);
	if (histogram_total(st->hb_lock_wait))
		print_histogram("lock wait", st->hb_lock_wait,
				st->hb_lock_wait_max_ns);
}

int cmd_stats(const struct cli_command *cmd)
{
	struct ftnl_handle *h;
	struct ftnl_stats st;
	int status, err;

	status = cli_open(&h);
	if (status)
		return status;
	err = ftnl_stats_get(h, &st);
	if (err && err != -ENOENT) {
		status = cli_request_failed(h, "stats", err);
		ftnl_close(h);
		return status;
	}
	ftnl_close(h);

	/* Without a cluster there are no counters: an answer, not a failure. */
	if (err && cmd->opt.json)
		printf("{\"configured\":false}\n");
	else if (err)
		printf("no cluster configured\n");
	else if (cmd->opt.json)
		print_json(cmd, &st);
	else
		print_text(&st);
	return CLI_EXIT_OK;
}
