// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-cli events history: the events this node still holds (the module's
 * history of its last FTNL_EVENT_HISTORY_LEN events), oldest first, in
 * monitor's format (report.c), each with its sequence number.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "cli.h"

static int print_event(const struct ftnl_event *ev, void *arg)
{
	const struct cli_command *cmd = arg;

	if (cmd->opt.json)
		cli_event_print_json(stdout, cmd->opt.pretty, ev);
	else
		cli_event_print_text(stdout, ev);
	return 0;
}

int cmd_events_history(const struct cli_command *cmd)
{
	struct ftnl_handle *h;
	int status, err;

	status = cli_open(&h);
	if (status)
		return status;
	err = ftnl_event_history(h, cmd->history_after, print_event,
				 (void *)cmd);
	if (err)
		status = cli_request_failed(h, "events history", err);
	ftnl_close(h);
	return status;
}
