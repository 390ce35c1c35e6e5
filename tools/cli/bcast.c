// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-cli bcast show: how this node broadcasts the failures it detects
 * (the algorithm, from the configuration) and what its broadcast layer did
 * (the counters and latencies, from the stats). The output is report.c's.
 */
#include <errno.h>

#include "cli.h"

int cmd_bcast(const struct cli_command *cmd)
{
	struct ftnl_cluster_info info;
	struct ftnl_stats st = { 0 };
	struct ftnl_handle *h;
	int status, err;

	status = cli_open(&h);
	if (status)
		return status;
	err = ftnl_cluster_get(h, &info);
	if (err && err != -ENOENT) {
		status = cli_request_failed(h, "bcast show", err);
		ftnl_close(h);
		return status;
	}
	/* -ENOENT here too: the cluster was deleted between the two requests. */
	if (!err)
		err = ftnl_stats_get(h, &st);
	if (err && err != -ENOENT) {
		status = cli_request_failed(h, "bcast show", err);
		ftnl_close(h);
		return status;
	}
	ftnl_close(h);

	/* No cluster is an answer, not a failure. */
	if (cmd->opt.json)
		cli_bcast_print_json(stdout, cmd->opt.pretty, err ? NULL : &info,
				     &st);
	else if (err)
		printf("no cluster configured\n");
	else
		cli_bcast_print_text(stdout, &info, &st);
	return CLI_EXIT_OK;
}
