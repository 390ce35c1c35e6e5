// SPDX-License-Identifier: GPL-2.0
/*
 * "health": cli_health_assess(), the decision over what was gathered, for
 * each state and threshold, with the exact line; and its arguments.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tap.h"

/* A 4-node cluster, h = 100 ms, d = 500 ms, node 3 observing node 2. */
struct fixture {
	struct ftnl_node emitter;
	struct ftnl_stats first, last;
	struct cli_health_input in;
	struct cli_health_limits lim;
};

static void fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->emitter.id = 2;
	f->emitter.emitter = true;
	f->emitter.has_hb_age = true;
	f->emitter.hb_age_us = 40000;
	f->in.module = CLI_HEALTH_MODULE_PRESENT;
	f->in.configured = true;
	f->in.cluster_id = 42;
	f->in.self_id = 3;
	f->in.node_count = 4;
	f->in.alive_count = 4;
	f->in.hb_period_us = 100000;
	f->in.timeout_us = 500000;
	f->in.emitter = &f->emitter;
	f->in.first = &f->first;
	f->in.last = &f->last;
	f->in.window_us = 1000000;
	/* Quiet heartbeats: some under 1 us, some in [16, 32) us. */
	f->first.lateness[0] = 10;
	f->last.lateness[0] = 20;
	f->last.lateness[5] = 3;
}

struct health_case {
	const char *name;
	void (*mutate)(struct fixture *f);
	enum cli_health_status status;
	const char *line;
};

static void m_none(struct fixture *f) { (void)f; }
static void m_names(struct fixture *f)
{
	strcpy(f->emitter.name, "cn002");
	f->in.self_name = "cn003";
}
static void m_absent(struct fixture *f) { f->in.module = CLI_HEALTH_MODULE_ABSENT; }
static void m_error(struct fixture *f)
{
	f->in.module = CLI_HEALTH_MODULE_ERROR;
	f->in.error = "reading the module's state: Permission denied";
}
static void m_unconfigured(struct fixture *f) { f->in.configured = false; }
static void m_expelled(struct fixture *f)
{
	f->in.expelled = true;
	f->in.alive_count = 3;
}
static void m_alone(struct fixture *f)
{
	f->in.node_count = 1;
	f->in.alive_count = 1;
	f->in.emitter = NULL;
}
static void m_no_emitter(struct fixture *f)
{
	f->in.emitter = NULL;
	f->in.alive_count = 1;
}
static void m_not_heard(struct fixture *f) { f->emitter.has_hb_age = false; }
static void m_late_emitter(struct fixture *f) { f->emitter.hb_age_us = 250001; }
static void m_late_emitter_edge(struct fixture *f) { f->emitter.hb_age_us = 250000; }
static void m_silent(struct fixture *f)
{
	f->emitter.hb_age_us = 700000;
	strcpy(f->emitter.name, "cn002");
}
/* With d close to h, the warning waits for two periods. */
static void m_warn_two_periods(struct fixture *f)
{
	f->in.timeout_us = 300000;
	f->emitter.hb_age_us = 190000;
}
static void m_drops(struct fixture *f)
{
	f->first.drops[FTNL_DROP_MAC] = 5;
	f->last.drops[FTNL_DROP_MAC] = 12;
	f->last.drops[FTNL_DROP_REPLAY] = 2;
}
static void m_old_drops(struct fixture *f)
{
	/* Before the window only: not now. */
	f->first.drops[FTNL_DROP_MAC] = 5;
	f->last.drops[FTNL_DROP_MAC] = 5;
}
static void m_tx_errors(struct fixture *f) { f->last.tx_errors = 4; }
static void m_events_lost(struct fixture *f) { f->last.events_lost = 1; }
static void m_queue_overflow(struct fixture *f)
{
	f->last.events_queue_overflow = 3;
}
static void m_notify_failed(struct fixture *f)
{
	f->last.events_notify_failed = 2;
}
static void m_late_warn(struct fixture *f)
{
	/* Bucket 17: [65536, 131072) us >= h/2 = 50 ms. */
	f->last.lateness[17] = 1;
}
static void m_late_crit(struct fixture *f)
{
	/* Bucket 19: [262144, 524288) us >= (d-h)/2 = 200 ms. */
	f->last.lateness[19] = 1;
}
static void m_late_before_window(struct fixture *f)
{
	f->first.lateness[19] = 1;
	f->last.lateness[19] = 1;
	f->last.lateness_max_ns = 300000000;
}
static void m_no_window(struct fixture *f)
{
	f->in.first = NULL;
	f->last.lateness_max_ns = 300000000;
	f->last.drops[FTNL_DROP_MAGIC] = 1;
}
static void m_limits(struct fixture *f)
{
	f->lim.late_warn_us = 8;
	f->lim.late_crit_us = 1000;
}
static void m_limits_crit(struct fixture *f)
{
	f->lim.late_warn_us = 8;
	f->lim.late_crit_us = 16;
}
static void m_several(struct fixture *f)
{
	f->emitter.hb_age_us = 600000;
	f->last.drops[FTNL_DROP_CLUSTER] = 1;
}

static const struct health_case cases[] = {
	{ "configured and observing", m_none, CLI_HEALTH_OK,
	  "ftnl OK: cluster 42 node 3 observing node 2 (heartbeat 40ms ago), 4 of 4 nodes alive" },
	{ "names shown", m_names, CLI_HEALTH_OK,
	  "ftnl OK: cluster 42 node 3 (cn003) observing node 2 (cn002) (heartbeat 40ms ago), 4 of 4 nodes alive" },
	{ "module not loaded", m_absent, CLI_HEALTH_CRITICAL,
	  "ftnl CRITICAL: module not loaded (no \"ftnl\" generic netlink family)" },
	{ "module could not be asked", m_error, CLI_HEALTH_UNKNOWN,
	  "ftnl UNKNOWN: reading the module's state: Permission denied" },
	{ "not configured", m_unconfigured, CLI_HEALTH_CRITICAL,
	  "ftnl CRITICAL: not configured (no cluster in this network namespace)" },
	{ "expelled", m_expelled, CLI_HEALTH_CRITICAL,
	  "ftnl CRITICAL: node 3 expelled from cluster 42: the others hold its incarnation dead (cluster set again to rejoin as a new one)" },
	{ "alone", m_alone, CLI_HEALTH_OK,
	  "ftnl OK: cluster 42 node 3, alone in its cluster" },
	{ "every other node dead", m_no_emitter, CLI_HEALTH_WARNING,
	  "ftnl WARNING: no node to observe: every other node is dead or left" },
	{ "emitter not heard yet", m_not_heard, CLI_HEALTH_WARNING,
	  "ftnl WARNING: emitter 2 silent: no heartbeat heard yet" },
	{ "emitter late, over d/2", m_late_emitter, CLI_HEALTH_WARNING,
	  "ftnl WARNING: emitter 2 late: last heartbeat 250001us ago (timeout 500ms)" },
	{ "emitter at d/2 exactly: fine", m_late_emitter_edge, CLI_HEALTH_OK,
	  "ftnl OK: cluster 42 node 3 observing node 2 (heartbeat 250ms ago), 4 of 4 nodes alive" },
	{ "emitter silent over d", m_silent, CLI_HEALTH_CRITICAL,
	  "ftnl CRITICAL: emitter 2 (cn002) silent for 700ms (timeout 500ms)" },
	{ "warning not before two periods", m_warn_two_periods, CLI_HEALTH_OK,
	  "ftnl OK: cluster 42 node 3 observing node 2 (heartbeat 190ms ago), 4 of 4 nodes alive" },
	{ "dropping datagrams", m_drops, CLI_HEALTH_WARNING,
	  "ftnl WARNING: dropping datagrams: 9 in 1000ms (mac 7, replay 2)" },
	{ "drops before the window only", m_old_drops, CLI_HEALTH_OK,
	  "ftnl OK: cluster 42 node 3 observing node 2 (heartbeat 40ms ago), 4 of 4 nodes alive" },
	{ "send errors", m_tx_errors, CLI_HEALTH_WARNING,
	  "ftnl WARNING: 4 send errors in 1000ms" },
	{ "events lost", m_events_lost, CLI_HEALTH_WARNING,
	  "ftnl WARNING: 1 events lost in 1000ms" },
	{ "event queue overflow", m_queue_overflow, CLI_HEALTH_WARNING,
	  "ftnl WARNING: 3 events not multicast (queue full) in 1000ms" },
	{ "event notifications failed", m_notify_failed, CLI_HEALTH_WARNING,
	  "ftnl WARNING: 2 event notifications failed (no memory) in 1000ms" },
	{ "heartbeats late: warning", m_late_warn, CLI_HEALTH_WARNING,
	  "ftnl WARNING: heartbeats leaving 65536us late or more in 1000ms (warning at 50000us)" },
	{ "heartbeats late: critical", m_late_crit, CLI_HEALTH_CRITICAL,
	  "ftnl CRITICAL: heartbeats leaving 262144us late or more in 1000ms (critical at 200000us)" },
	{ "lateness before the window only", m_late_before_window, CLI_HEALTH_OK,
	  "ftnl OK: cluster 42 node 3 observing node 2 (heartbeat 40ms ago), 4 of 4 nodes alive" },
	{ "window 0: since the configuration", m_no_window, CLI_HEALTH_CRITICAL,
	  "ftnl CRITICAL: dropping datagrams: 1 since configured (magic 1); heartbeats leaving 300000us late or more since configured (critical at 200000us)" },
	{ "late-warn given", m_limits, CLI_HEALTH_WARNING,
	  "ftnl WARNING: heartbeats leaving 16us late or more in 1000ms (warning at 8us)" },
	{ "late-crit given", m_limits_crit, CLI_HEALTH_CRITICAL,
	  "ftnl CRITICAL: heartbeats leaving 16us late or more in 1000ms (critical at 16us)" },
	{ "several problems: the worst status, each named", m_several,
	  CLI_HEALTH_CRITICAL,
	  "ftnl CRITICAL: emitter 2 silent for 600ms (timeout 500ms); dropping datagrams: 1 in 1000ms (cluster 1)" },
};

static void test_case(const void *arg)
{
	const struct health_case *c = arg;
	struct fixture f;
	char line[768];

	fixture_init(&f);
	c->mutate(&f);
	TAP_CHECK_INT(cli_health_assess(&f.in, &f.lim, line, sizeof(line)),
		      c->status);
	TAP_CHECK_STR(line, c->line);
}

/* A long list of problems is cut, never overflows. */
static void test_truncated(const void *arg)
{
	struct fixture f;
	char line[40];
	int i;

	(void)arg;
	fixture_init(&f);
	for (i = 0; i <= FTNL_DROP_MAX; i++)
		f.last.drops[i] = 1000000000;
	f.last.tx_errors = 1;
	TAP_CHECK_INT(cli_health_assess(&f.in, &f.lim, line, sizeof(line)),
		      CLI_HEALTH_WARNING);
	TAP_CHECK_UINT(strlen(line), sizeof(line) - 1);
}

struct args_case {
	const char *line;
	int ret;
	uint64_t window_us, warn_us, crit_us;
	const char *err;
};

static const struct args_case args_cases[] = {
	{ "health", 0, 1000000, 0, 0, "" },
	{ "hea", 0, 1000000, 0, 0, "" },
	{ "health window 0", 0, 0, 0, 0, "" },
	{ "health w 250ms late-w 1ms late-c 2ms", 0, 250000, 1000, 2000, "" },
	{ "health window 61s", -1, 0, 0, 0,
	  "window \"61s\" is too long (at most 60s)" },
	{ "health late 1ms", -1, 0, 0, 0,
	  "ambiguous argument \"late\" (could be: late-warn, late-crit)" },
	{ "health late-warn 0", -1, 0, 0, 0,
	  "invalid late-warn \"0\" (expected a duration such as 100ms; units us, ms, s)" },
	{ "health window 1s window 2s", -1, 0, 0, 0,
	  "\"window\" given twice" },
	{ "health window", -1, 0, 0, 0, "\"window\" needs a duration" },
};

static void test_args(const void *arg)
{
	const struct args_case *c = arg;
	char storage[256], *argv[16], *p, *save = NULL, err[256] = "";
	struct cli_command cmd;
	int argc = 0, ret;

	snprintf(storage, sizeof(storage), "ftnl-cli %s", c->line);
	for (p = strtok_r(storage, " ", &save); p && argc < 15;
	     p = strtok_r(NULL, " ", &save))
		argv[argc++] = p;
	argv[argc] = NULL;
	ret = cli_parse(argc, argv, &cmd, err, sizeof(err));
	TAP_CHECK_INT(ret < 0 ? -1 : ret, c->ret);
	TAP_CHECK_STR(err, c->err);
	if (!ret) {
		TAP_CHECK_INT(cmd.object, CLI_OBJ_HEALTH);
		TAP_CHECK_UINT(cmd.health_window_us, c->window_us);
		TAP_CHECK_UINT(cmd.health.late_warn_us, c->warn_us);
		TAP_CHECK_UINT(cmd.health.late_crit_us, c->crit_us);
	}
	cli_command_free(&cmd);
}

/* "h" and "he" stay help's: the abbreviations people type keep working. */
static void test_help_prefixes(const void *arg)
{
	static const char *const words[] = { "h", "he", "hel", "help" };
	char *argv[3], err[256];
	struct cli_command cmd;
	size_t i;

	(void)arg;
	for (i = 0; i < 4; i++) {
		argv[0] = "ftnl-cli";
		argv[1] = (char *)words[i];
		argv[2] = NULL;
		TAP_CHECK_INT(cli_parse(2, argv, &cmd, err, sizeof(err)), 0);
		TAP_CHECK_INT(cmd.object, CLI_OBJ_HELP);
		cli_command_free(&cmd);
	}
}

int main(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		tap_add(test_case, &cases[i], "%s: exit %d", cases[i].name,
			cases[i].status);
	tap_add(test_truncated, NULL, "a long line is cut to the buffer");
	for (i = 0; i < sizeof(args_cases) / sizeof(args_cases[0]); i++)
		tap_add(test_args, &args_cases[i], "arguments: %s",
			args_cases[i].line);
	tap_add(test_help_prefixes, NULL, "h, he, hel: still help");
	return tap_run();
}
