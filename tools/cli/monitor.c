// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-cli monitor: print events as they arrive. Sleeps in poll(2) on the
 * events socket and a signalfd, so SIGINT/SIGTERM end it cleanly (exit 0)
 * at any moment, without a race between checking a flag and sleeping.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* RFC 3339 UTC time with microseconds: 2024-05-01T12:00:00.123456Z */
static void format_time(uint64_t ns, char *buf, size_t len)
{
	time_t sec = (time_t)(ns / 1000000000u);
	struct tm tm;
	size_t n;

	gmtime_r(&sec, &tm);
	n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%06uZ",
		 (unsigned int)(ns % 1000000000u / 1000u));
}

static void print_text(const struct ftnl_event *ev)
{
	char when[40], learned[40];

	format_time(ev->received_ns, when, sizeof(when));
	switch (ev->type) {
	case FTNL_EVENT_CLUSTER:
		if (ev->cluster.configured)
			printf("%s cluster generation %" PRIu32 " cluster %" PRIu32
			       " self %" PRIu32 " nodes %" PRIu32 "\n", when,
			       ev->cluster.generation, ev->cluster.cluster_id,
			       ev->cluster.self_id, ev->cluster.node_count);
		else
			printf("%s cluster generation %" PRIu32 " deleted\n",
			       when, ev->cluster.generation);
		break;
	case FTNL_EVENT_FAILURE:
		format_time(ev->failure.time_real_ns, learned, sizeof(learned));
		printf("%s failure node %" PRIu32 " incarnation %" PRIu64
		       " cause %s observer %" PRIu32 " cluster %" PRIu32
		       " generation %" PRIu32 " learned %s\n", when,
		       ev->failure.node_id, ev->failure.incarnation,
		       ftnl_event_cause_name(ev->failure.cause),
		       ev->failure.observer_id, ev->failure.cluster_id,
		       ev->failure.generation, learned);
		break;
	case FTNL_EVENT_OVERRUN:
		printf("%s overrun: events were lost, re-read the state\n", when);
		break;
	case FTNL_EVENT_UNKNOWN:
		printf("%s unknown event (command %u)\n", when,
		       ev->unknown.cmd);
		break;
	default:
		printf("%s event of type %" PRIu32 "\n", when, ev->type);
	}
}

static void print_json(const struct cli_command *cmd,
		       const struct ftnl_event *ev)
{
	char when[40];
	struct json j;

	format_time(ev->received_ns, when, sizeof(when));
	json_init(&j, stdout, cmd->opt.pretty);
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
	json_object_end(&j);
	json_end(&j);
}

/* Print what is pending. Return: 1 when @cmd's count is reached, 0, or -errno. */
static int drain(const struct cli_command *cmd, struct ftnl_events *events,
		 uint64_t *printed)
{
	struct ftnl_event ev;
	int ret;

	while ((ret = ftnl_events_read(events, &ev)) == 1) {
		if (cmd->opt.json)
			print_json(cmd, &ev);
		else
			print_text(&ev);
		fflush(stdout);	/* each event as it happens, even in a pipe */
		if (cmd->monitor_count && ++*printed >= cmd->monitor_count)
			return 1;
	}
	return ret;
}

int cmd_monitor(const struct cli_command *cmd)
{
	struct ftnl_events *events;
	struct pollfd fds[2];
	uint64_t printed = 0;
	sigset_t mask, old;
	int sfd, err, status = CLI_EXIT_OK;

	err = ftnl_events_open(&events);
	if (err == -ENOENT) {
		cli_error("the \"%s\" generic netlink family is not registered; is the ftnl module loaded?",
			  FTNL_FAMILY_NAME);
		return CLI_EXIT_UNAVAILABLE;
	}
	if (err) {
		cli_error("monitor: cannot subscribe to events: %s",
			  strerror(-err));
		return err == -EOPNOTSUPP || err == -EPROTONOSUPPORT ?
		       CLI_EXIT_UNAVAILABLE : CLI_EXIT_FAILED;
	}

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, &old);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sfd < 0) {
		cli_error("monitor: signalfd: %s", strerror(errno));
		ftnl_events_close(events);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return CLI_EXIT_FAILED;
	}

	fds[0] = (struct pollfd){ .fd = ftnl_events_fd(events), .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
	for (;;) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			cli_error("monitor: poll: %s", strerror(errno));
			status = CLI_EXIT_FAILED;
			break;
		}
		if (fds[1].revents) {
			struct signalfd_siginfo si;

			/* Consume it, or unblocking it below would kill us. */
			if (read(sfd, &si, sizeof(si)) < 0)
				status = CLI_EXIT_FAILED;
			break;	/* SIGINT or SIGTERM: a normal end */
		}
		if (!fds[0].revents)
			continue;
		err = drain(cmd, events, &printed);
		if (err == 1)
			break;
		if (err < 0) {
			cli_error("monitor: %s", strerror(-err));
			status = CLI_EXIT_FAILED;
			break;
		}
	}
	close(sfd);
	ftnl_events_close(events);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return status;
}
