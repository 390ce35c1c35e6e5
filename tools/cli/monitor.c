// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-cli monitor: print events as they arrive (cluster changes, node
 * failures, registered process exits; report.c formats them). Sleeps in
 * poll(2) on the events socket and a signalfd, so SIGINT/SIGTERM end it
 * cleanly (exit 0) at any moment, without a race between checking a flag
 * and sleeping.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "cli.h"

/* Print what is pending. Return: 1 when @cmd's count is reached, 0, or -errno. */
static int drain(const struct cli_command *cmd, struct ftnl_events *events,
		 uint64_t *printed)
{
	struct ftnl_event ev;
	int ret;

	while ((ret = ftnl_events_read(events, &ev)) == 1) {
		if (cmd->opt.json)
			cli_event_print_json(stdout, cmd->opt.pretty, &ev);
		else
			cli_event_print_text(stdout, &ev);
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
