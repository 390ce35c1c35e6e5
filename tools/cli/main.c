// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-cli: diagnostics and configuration tool of the ftnl module.
 * Parses the command line (args.c), then runs one command.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs(CLI_NAME ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Open a handle, explaining the usual reasons it fails. Return: exit status. */
int cli_open(struct ftnl_handle **handle)
{
	int err = ftnl_open(handle);

	switch (err) {
	case 0:
		return CLI_EXIT_OK;
	case -ENOENT:
		cli_error("the \"%s\" generic netlink family is not registered; is the ftnl module loaded?",
			  FTNL_FAMILY_NAME);
		return CLI_EXIT_UNAVAILABLE;
	case -EPROTONOSUPPORT:
		cli_error("the loaded ftnl module is older than this tool (family version below %d)",
			  FTNL_FAMILY_VERSION);
		return CLI_EXIT_UNAVAILABLE;
	default:
		cli_error("cannot open a generic netlink socket: %s",
			  strerror(-err));
		return CLI_EXIT_FAILED;
	}
}

/* " (node #2 id 7: attribute port)", or "" when the kernel named nothing. */
static void describe_location(struct ftnl_handle *h, char *buf, size_t len)
{
	struct ftnl_error_attr where;
	char node[48] = "";

	buf[0] = '\0';
	if (ftnl_error_attr(h, &where))
		return;
	if (where.node_index < 0) {
		snprintf(buf, len, " (%sattribute %s)",
			 where.missing ? "missing " : "",
			 ftnl_attr_name(where.attr));
		return;
	}
	if (where.has_node_id)
		snprintf(node, sizeof(node), " id %u", where.node_id);
	if (where.node_attr)
		snprintf(buf, len, " (node #%lld%s: %sattribute %s)",
			 (long long)where.node_index + 1, node,
			 where.missing ? "missing " : "",
			 ftnl_node_attr_name(where.node_attr));
	else
		snprintf(buf, len, " (node #%lld%s)",
			 (long long)where.node_index + 1, node);
}

/*
 * Report a failed request as "WHAT: strerror: extack (location)".
 * Return: the exit status.
 */
int cli_request_failed(struct ftnl_handle *h, const char *what, int err)
{
	const char *msg = ftnl_errmsg(h), *reason = strerror(-err);
	char location[128];

	describe_location(h, location, sizeof(location));
	if (err == -EPERM && !strcmp(msg, reason))
		msg = "this needs CAP_NET_ADMIN";
	if (!msg[0] || !strcmp(msg, reason))
		cli_error("%s: %s%s", what, reason, location);
	else
		cli_error("%s: %s: %s%s", what, reason, msg, location);
	return CLI_EXIT_FAILED;
}

static int enter_netns(const char *name)
{
	char path[512];
	int fd;

	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		cli_error("cannot open network namespace \"%s\": %s", name,
			  strerror(errno));
		return CLI_EXIT_USAGE;
	}
	if (setns(fd, CLONE_NEWNET)) {
		cli_error("cannot enter network namespace \"%s\": %s", name,
			  strerror(errno));
		close(fd);
		return CLI_EXIT_FAILED;
	}
	close(fd);
	return CLI_EXIT_OK;
}

static int run(const struct cli_command *cmd)
{
	switch (cmd->object) {
	case CLI_OBJ_INFO:
		return cmd_info(cmd);
	case CLI_OBJ_CLUSTER:
		switch (cmd->verb) {
		case CLI_VERB_SET:
			return cmd_cluster_set(cmd);
		case CLI_VERB_DELETE:
			return cmd_cluster_delete(cmd);
		case CLI_VERB_LEAVE:
			return cmd_cluster_leave(cmd);
		case CLI_VERB_PAIRKEYS:
			return cmd_cluster_pairkeys(cmd);
		default:
			return cmd_cluster_show(cmd);
		}
	case CLI_OBJ_NODE:
		if (cmd->verb == CLI_VERB_READMIT)
			return cmd_node_readmit(cmd);
		return cmd_node_list(cmd);
	case CLI_OBJ_MONITOR:
		return cmd_monitor(cmd);
	case CLI_OBJ_EVENTS:
		return cmd_events_history(cmd);
	case CLI_OBJ_STATS:
		return cmd_stats(cmd);
	case CLI_OBJ_BCAST:
		return cmd_bcast(cmd);
	case CLI_OBJ_PROC:
		return cmd_proc_list(cmd);
	case CLI_OBJ_HEALTH:
		return cmd_health(cmd);
	default:
		cli_usage(stdout, cmd->help_object);
		return CLI_EXIT_OK;
	}
}

int main(int argc, char *argv[])
{
	struct cli_command cmd;
	char err[512];
	int status;

	if (cli_parse(argc, argv, &cmd, err, sizeof(err))) {
		cli_error("%s", err);
		/* A monitoring system reads a broken health check as UNKNOWN. */
		status = cmd.object == CLI_OBJ_HEALTH ? CLI_HEALTH_UNKNOWN :
			 CLI_EXIT_USAGE;
		cli_command_free(&cmd);
		return status;
	}
	if (cmd.opt.version) {
		printf("%s %s (libftnl, family version %d)\n", CLI_NAME,
		       FTNL_LIB_VERSION, FTNL_FAMILY_VERSION);
		status = CLI_EXIT_OK;
	} else if (cmd.opt.netns && cmd.object != CLI_OBJ_HELP &&
		   (status = enter_netns(cmd.opt.netns)) != CLI_EXIT_OK) {
		/* status says why */
	} else {
		status = run(&cmd);
	}
	cli_command_free(&cmd);
	if (fflush(stdout) && status == CLI_EXIT_OK) {
		cli_error("cannot write the output: %s", strerror(errno));
		status = CLI_EXIT_FAILED;
	}
	return status;
}
