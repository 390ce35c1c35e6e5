// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-cli health: one line and a Nagios exit status (0 OK, 1 WARNING,
 * 2 CRITICAL, 3 UNKNOWN) for NHC, Nagios/Icinga or Slurm's
 * HealthCheckProgram.
 *
 * cli_health_assess() decides, pure: it reads what cmd_health() gathered
 * (module, configuration, this node's emitter, two samples of the counters
 * a window apart) and writes the verdict. cmd_health() only gathers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const char *const status_names[] = {
	[CLI_HEALTH_OK] = "OK",
	[CLI_HEALTH_WARNING] = "WARNING",
	[CLI_HEALTH_CRITICAL] = "CRITICAL",
	[CLI_HEALTH_UNKNOWN] = "UNKNOWN",
};

/* The problems found so far: the worst status, their texts in order. */
struct verdict {
	enum cli_health_status status;
	char text[512];
	size_t used;
};

static void __attribute__((format(printf, 3, 4)))
problem(struct verdict *v, enum cli_health_status status, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (status > v->status)
		v->status = status;
	if (v->used >= sizeof(v->text))
		return;
	if (v->used) {
		n = snprintf(v->text + v->used, sizeof(v->text) - v->used,
			     "; ");
		v->used += n > 0 ? (size_t)n : 0;
		if (v->used >= sizeof(v->text))
			return;
	}
	va_start(ap, fmt);
	n = vsnprintf(v->text + v->used, sizeof(v->text) - v->used, fmt, ap);
	va_end(ap);
	v->used += n > 0 ? (size_t)n : 0;
}

/* Into @buf: "cn012" -> " (cn012)", NULL or "" -> "". */
static void paren_name(const char *name, char *buf, size_t len)
{
	if (!name || !name[0])
		buf[0] = '\0';
	else
		snprintf(buf, len, " (%.*s)", FTNL_NODE_NAME_MAX, name);
}

static uint64_t delta(uint64_t last, uint64_t first)
{
	return last >= first ? last - first : last;
}

/* Lower bound, in us, of lateness bucket @i (see struct ftnl_stats). */
static uint64_t bucket_low_us(int i)
{
	return i ? (uint64_t)1 << (i - 1) : 0;
}

/*
 * How late the latest heartbeats left, in us: over the window, the lower
 * bound of the highest histogram bucket that grew; without a window, the
 * largest lateness since the configuration.
 */
static uint64_t lateness_us(const struct cli_health_input *in)
{
	int i;

	if (!in->first)
		return in->last->lateness_max_ns / 1000;
	for (i = FTNL_LATENESS_BUCKETS - 1; i > 0; i--)
		if (delta(in->last->lateness[i], in->first->lateness[i]))
			return bucket_low_us(i);
	return 0;
}

static void check_emitter(const struct cli_health_input *in,
			  struct verdict *v)
{
	const struct ftnl_node *em = in->emitter;
	char name[FTNL_NODE_NAME_MAX + 8], age[16], d[16];
	uint64_t warn_us;

	if (in->node_count < 2)
		return;
	if (!em) {
		problem(v, CLI_HEALTH_WARNING,
			"no node to observe: every other node is dead or left");
		return;
	}
	paren_name(em->name, name, sizeof(name));
	if (!em->has_hb_age) {
		problem(v, CLI_HEALTH_WARNING,
			"emitter %" PRIu32 "%s silent: no heartbeat heard yet",
			em->id, name);
		return;
	}
	ftnl_format_duration((uint32_t)(em->hb_age_us > UINT32_MAX ?
					UINT32_MAX : em->hb_age_us),
			     age, sizeof(age));
	ftnl_format_duration(in->timeout_us, d, sizeof(d));
	if (em->hb_age_us > in->timeout_us) {
		problem(v, CLI_HEALTH_CRITICAL,
			"emitter %" PRIu32 "%s silent for %s (timeout %s)",
			em->id, name, age, d);
		return;
	}
	/* Half the timeout, but never less than two periods. */
	warn_us = in->timeout_us / 2;
	if (warn_us < 2ull * in->hb_period_us)
		warn_us = 2ull * in->hb_period_us;
	if (em->hb_age_us > warn_us)
		problem(v, CLI_HEALTH_WARNING,
			"emitter %" PRIu32 "%s late: last heartbeat %s ago (timeout %s)",
			em->id, name, age, d);
}

static void check_counters(const struct cli_health_input *in,
			   const struct cli_health_limits *lim,
			   struct verdict *v)
{
	static const struct ftnl_stats zero;
	const struct ftnl_stats *first = in->first ? in->first : &zero;
	const struct ftnl_stats *last = in->last;
	char reasons[160] = "", span[32] = "";
	uint64_t drops = 0, n, late, warn_us, crit_us;
	size_t used = 0;
	int i;

	if (in->first)
		snprintf(span, sizeof(span), " in %" PRIu64 "ms",
			 in->window_us / 1000);
	else
		snprintf(span, sizeof(span), " since configured");

	for (i = 0; i <= FTNL_DROP_MAX; i++) {
		n = delta(last->drops[i], first->drops[i]);
		/* A rolling update's spare copies: expected, not a fault. */
		if (!n || i == FTNL_DROP_OTHER_KEY)
			continue;
		drops += n;
		if (used < sizeof(reasons)) {
			int w = snprintf(reasons + used, sizeof(reasons) - used,
					 "%s%s %" PRIu64, used ? ", " : "",
					 ftnl_drop_reason_name((unsigned int)i),
					 n);

			used += w > 0 ? (size_t)w : 0;
		}
	}
	if (drops)
		problem(v, CLI_HEALTH_WARNING,
			"dropping datagrams: %" PRIu64 "%s (%s)", drops, span,
			reasons);
	n = delta(last->tx_errors, first->tx_errors);
	if (n)
		problem(v, CLI_HEALTH_WARNING, "%" PRIu64 " send errors%s", n,
			span);
	n = delta(last->events_lost, first->events_lost);
	if (n)
		problem(v, CLI_HEALTH_WARNING, "%" PRIu64 " events lost%s", n,
			span);
	/* Not lost (the history holds them), but subscribers had to recover. */
	n = delta(last->events_queue_overflow, first->events_queue_overflow);
	if (n)
		problem(v, CLI_HEALTH_WARNING,
			"%" PRIu64 " events not multicast (queue full)%s", n,
			span);
	n = delta(last->events_notify_failed, first->events_notify_failed);
	if (n)
		problem(v, CLI_HEALTH_WARNING,
			"%" PRIu64 " event notifications failed (no memory)%s",
			n, span);

	/*
	 * This node's heartbeats leaving late: past d - h its observer may
	 * take it for dead. Defaults: warn at h / 2, critical at (d - h) / 2.
	 */
	warn_us = lim->late_warn_us ? lim->late_warn_us : in->hb_period_us / 2;
	crit_us = lim->late_crit_us ? lim->late_crit_us :
		  (in->timeout_us - in->hb_period_us) / 2;
	late = lateness_us(in);
	if (late >= crit_us)
		problem(v, CLI_HEALTH_CRITICAL,
			"heartbeats leaving %" PRIu64 "us late or more%s (critical at %" PRIu64 "us)",
			late, span, crit_us);
	else if (late >= warn_us)
		problem(v, CLI_HEALTH_WARNING,
			"heartbeats leaving %" PRIu64 "us late or more%s (warning at %" PRIu64 "us)",
			late, span, warn_us);
}

/**
 * cli_health_assess() - the health verdict, from what was gathered
 * @in: the node's state (see struct cli_health_input)
 * @lim: thresholds; zero fields take the defaults
 * @line: receives one line, without a newline: "ftnl STATUS: what"
 * @len: size of @line
 *
 * Pure: no I/O. The status is the worst of the problems found; the line
 * names each of them, worst first when there is one, else what is fine.
 *
 * Return: the status, which is the exit status of "ftnl-cli health".
 */
enum cli_health_status cli_health_assess(const struct cli_health_input *in,
					 const struct cli_health_limits *lim,
					 char *line, size_t len)
{
	struct verdict v = { .status = CLI_HEALTH_OK };
	char self[FTNL_NODE_NAME_MAX + 8], em[FTNL_NODE_NAME_MAX + 8];
	char age[16];

	switch (in->module) {
	case CLI_HEALTH_MODULE_ABSENT:
		snprintf(line, len, "ftnl CRITICAL: module not loaded (no \"%s\" generic netlink family)",
			 FTNL_FAMILY_NAME);
		return CLI_HEALTH_CRITICAL;
	case CLI_HEALTH_MODULE_ERROR:
		snprintf(line, len, "ftnl UNKNOWN: %s",
			 in->error ? in->error : "cannot query the module");
		return CLI_HEALTH_UNKNOWN;
	default:
		break;
	}
	if (!in->configured) {
		snprintf(line, len, "ftnl CRITICAL: not configured (no cluster in this network namespace)");
		return CLI_HEALTH_CRITICAL;
	}
	/* No longer a member: nothing else it measures means anything. */
	if (in->expelled) {
		snprintf(line, len, "ftnl CRITICAL: node %" PRIu32 " expelled from cluster %" PRIu32 ": the others hold its incarnation dead (cluster set again to rejoin as a new one)",
			 in->self_id, in->cluster_id);
		return CLI_HEALTH_CRITICAL;
	}

	check_emitter(in, &v);
	check_counters(in, lim, &v);
	if (v.status != CLI_HEALTH_OK) {
		snprintf(line, len, "ftnl %s: %s", status_names[v.status],
			 v.text);
		return v.status;
	}

	paren_name(in->self_name, self, sizeof(self));
	if (in->node_count < 2) {
		snprintf(line, len, "ftnl OK: cluster %" PRIu32 " node %" PRIu32 "%s, alone in its cluster",
			 in->cluster_id, in->self_id, self);
		return CLI_HEALTH_OK;
	}
	paren_name(in->emitter->name, em, sizeof(em));
	ftnl_format_duration((uint32_t)in->emitter->hb_age_us, age,
			     sizeof(age));
	snprintf(line, len, "ftnl OK: cluster %" PRIu32 " node %" PRIu32 "%s observing node %" PRIu32 "%s (heartbeat %s ago), %" PRIu32 " of %" PRIu32 " nodes alive",
		 in->cluster_id, in->self_id, self, in->emitter->id, em, age,
		 in->alive_count, in->node_count);
	return CLI_HEALTH_OK;
}

/* ---- gathering ------------------------------------------------------------ */

static void sleep_us(uint64_t us)
{
	struct timespec ts = {
		.tv_sec = (time_t)(us / 1000000),
		.tv_nsec = (long)(us % 1000000) * 1000,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int report(enum cli_health_status status, const char *line)
{
	printf("%s\n", line);
	return (int)status;
}

static int unknown(const char *what, int err)
{
	char line[256];

	snprintf(line, sizeof(line), "ftnl UNKNOWN: %s: %s", what,
		 strerror(-err));
	return report(CLI_HEALTH_UNKNOWN, line);
}

int cmd_health(const struct cli_command *cmd)
{
	struct cli_health_input in = { .module = CLI_HEALTH_MODULE_PRESENT };
	struct ftnl_stats first, last;
	struct ftnl_cluster_info info;
	struct ftnl_node_table table = { 0 };
	struct ftnl_handle *h;
	enum cli_health_status status;
	char line[768];
	size_t i;
	int err;

	err = ftnl_open(&h);
	if (err == -ENOENT || err == -EPROTONOSUPPORT) {
		in.module = CLI_HEALTH_MODULE_ABSENT;
		status = cli_health_assess(&in, &cmd->health, line, sizeof(line));
		return report(status, line);
	}
	if (err)
		return unknown("cannot open a generic netlink socket", err);

	err = ftnl_cluster_get(h, &info);
	if (err == -ENOENT) {
		in.configured = false;
		ftnl_close(h);
		status = cli_health_assess(&in, &cmd->health, line, sizeof(line));
		return report(status, line);
	}
	if (!err && cmd->health_window_us) {
		err = ftnl_stats_get(h, &first);
		if (!err) {
			sleep_us(cmd->health_window_us);
			in.first = &first;
			in.window_us = cmd->health_window_us;
		}
	}
	if (!err)
		err = ftnl_stats_get(h, &last);
	if (!err)
		err = ftnl_node_list(h, &table);
	ftnl_close(h);
	if (err == -ENOENT) {
		/* Deleted while we looked: not configured now. */
		in.configured = false;
		ftnl_node_table_free(&table);
		status = cli_health_assess(&in, &cmd->health, line, sizeof(line));
		return report(status, line);
	}
	if (err) {
		ftnl_node_table_free(&table);
		return unknown("reading the module's state", err);
	}

	in.configured = true;
	in.cluster_id = info.cluster_id;
	in.self_id = info.self_id;
	in.hb_period_us = info.hb_period_us;
	in.timeout_us = info.timeout_us;
	in.node_count = (uint32_t)table.count;
	in.last = &last;
	for (i = 0; i < table.count; i++) {
		const struct ftnl_node *n = &table.nodes[i];

		if (n->state == FTNL_NODE_STATE_ALIVE)
			in.alive_count++;
		if (n->self) {
			in.self_name = n->name;
			in.expelled = n->state == FTNL_NODE_STATE_EXPELLED;
		}
		if (n->emitter)
			in.emitter = n;
	}
	status = cli_health_assess(&in, &cmd->health, line, sizeof(line));
	ftnl_node_table_free(&table);
	return report(status, line);
}
