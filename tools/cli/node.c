// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-cli node list | readmit: the node table as a table or a JSON array,
 * and taking back a restarted node. ftnl-cli proc list: the processes
 * registered on this node (report.c formats them).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *family_name(int family)
{
	return family == AF_INET ? "inet" : family == AF_INET6 ? "inet6" : "?";
}

static void print_json(const struct cli_command *cmd,
		       const struct ftnl_node_table *t)
{
	char addr[FTNL_ADDR_STRLEN];
	struct json j;
	size_t i;

	json_init(&j, stdout, cmd->opt.pretty);
	json_array_begin(&j);
	for (i = 0; i < t->count; i++) {
		const struct ftnl_node *n = &t->nodes[i];

		json_object_begin(&j);
		json_kv_uint(&j, "id", n->id);
		json_kv_string(&j, "family", family_name(n->family));
		json_kv_string(&j, "address",
			       ftnl_format_addr(n->family, &n->addr, addr,
						sizeof(addr)));
		json_kv_uint(&j, "port", n->port);
		json_kv_string(&j, "state", ftnl_node_state_name(n->state));
		json_kv_bool(&j, "self", n->self);
		json_kv_bool(&j, "emitter", n->emitter);
		json_kv_bool(&j, "observer", n->observer);
		json_kv_uint(&j, "incarnation", n->incarnation);
		if (n->name[0])
			json_kv_string(&j, "name", n->name);
		if (n->domain[0])
			json_kv_string(&j, "domain", n->domain);
		if (n->has_hb_age)
			json_kv_uint(&j, "hb_age_us", n->hb_age_us);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_end(&j);
}

static int digits(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* A short age for people: 850us, 40.0ms, 2.35s. */
static void format_age(uint64_t us, char *buf, size_t len)
{
	if (us < 1000)
		snprintf(buf, len, "%" PRIu64 "us", us);
	else if (us < 1000000)
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64 "ms", us / 1000,
			 us % 1000 / 100);
	else
		snprintf(buf, len, "%" PRIu64 ".%02" PRIu64 "s", us / 1000000,
			 us % 1000000 / 10000);
}

/* "self", "emitter (heartbeat 40.0ms ago)", "observer": the ring roles. */
static void print_roles(const struct ftnl_node *n)
{
	char age[32];

	if (n->self)
		printf("  self");
	if (n->emitter) {
		printf("  emitter");
		if (n->has_hb_age) {
			format_age(n->hb_age_us, age, sizeof(age));
			printf(" (heartbeat %s ago)", age);
		}
	}
	if (n->observer)
		printf("  observer");
}

static void print_table(const struct ftnl_node_table *t)
{
	char addr[FTNL_ADDR_STRLEN];
	int id_width = 2, addr_width = 7, inc_width = 11, name_width = 0;
	int dom_width = 0;
	size_t i;

	for (i = 0; i < t->count; i++) {
		const struct ftnl_node *n = &t->nodes[i];
		int len = (int)strlen(ftnl_format_addr(n->family, &n->addr,
						       addr, sizeof(addr)));
		int name_len = (int)strnlen(n->name, FTNL_NODE_NAME_MAX);
		int dom_len = (int)strnlen(n->domain, FTNL_NODE_DOMAIN_MAX);

		/* A NAME column only when some node has a name. */
		if (name_len && name_len > name_width)
			name_width = name_len < 4 ? 4 : name_len;
		/* Likewise a DOMAIN column. */
		if (dom_len && dom_len > dom_width)
			dom_width = dom_len < 6 ? 6 : dom_len;

		if (digits(n->id) > id_width)
			id_width = digits(n->id);
		if (len > addr_width)
			addr_width = len;
		if (digits(n->incarnation) > inc_width)
			inc_width = digits(n->incarnation);
	}
	printf("%*s  ", id_width, "ID");
	if (name_width)
		printf("%-*s  ", name_width, "NAME");
	printf("%-*s  %5s  ", addr_width, "ADDRESS", "PORT");
	if (dom_width)
		printf("%-*s  ", dom_width, "DOMAIN");
	printf("%-5s  %*s  %s\n", "STATE", inc_width, "INCARNATION", "ROLE");
	for (i = 0; i < t->count; i++) {
		const struct ftnl_node *n = &t->nodes[i];

		printf("%*" PRIu32 "  ", id_width, n->id);
		if (name_width)
			printf("%-*.*s  ", name_width, FTNL_NODE_NAME_MAX,
			       n->name[0] ? n->name : "-");
		printf("%-*s  %5u  ", addr_width,
		       ftnl_format_addr(n->family, &n->addr, addr, sizeof(addr)),
		       n->port);
		if (dom_width)
			printf("%-*.*s  ", dom_width, FTNL_NODE_DOMAIN_MAX,
			       n->domain[0] ? n->domain : "-");
		printf("%-5s  %*" PRIu64, ftnl_node_state_name(n->state),
		       inc_width, n->incarnation);
		print_roles(n);
		putchar('\n');
	}
}

int cmd_node_list(const struct cli_command *cmd)
{
	struct ftnl_node_table t;
	struct ftnl_handle *h;
	int status, err;

	status = cli_open(&h);
	if (status)
		return status;
	err = ftnl_node_list(h, &t);
	if (err) {
		status = cli_request_failed(h, "node list", err);
		ftnl_close(h);
		return status;
	}
	ftnl_close(h);

	if (cmd->opt.json)
		print_json(cmd, &t);
	else if (!t.count)
		printf("no cluster configured\n");
	else
		print_table(&t);
	ftnl_node_table_free(&t);
	return CLI_EXIT_OK;
}

int cmd_node_readmit(const struct cli_command *cmd)
{
	struct ftnl_handle *h;
	int status, err;

	status = cli_open(&h);
	if (status)
		return status;
	err = ftnl_node_readmit(h, cmd->node_id);
	if (err)
		status = cli_request_failed(h, "node readmit", err);
	ftnl_close(h);
	return status;
}

/* The registrations of a dump, in a growing array. */
struct proc_list {
	struct ftnl_proc *procs;
	size_t count;
	size_t cap;
};

static int proc_add(const struct ftnl_proc *proc, void *arg)
{
	struct proc_list *l = arg;

	if (l->count == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct ftnl_proc *procs = realloc(l->procs,
						  cap * sizeof(*procs));

		if (!procs)
			return -ENOMEM;
		l->procs = procs;
		l->cap = cap;
	}
	l->procs[l->count++] = *proc;
	return 0;
}

int cmd_proc_list(const struct cli_command *cmd)
{
	struct proc_list l = { 0 };
	struct ftnl_handle *h;
	int status, err;

	status = cli_open(&h);
	if (status)
		return status;
	err = ftnl_proc_dump(h, proc_add, &l);
	if (err) {
		status = cli_request_failed(h, "proc list", err);
		ftnl_close(h);
		free(l.procs);
		return status;
	}
	ftnl_close(h);

	if (cmd->opt.json)
		cli_proc_print_json(stdout, cmd->opt.pretty, l.procs, l.count);
	else
		cli_proc_print_text(stdout, l.procs, l.count);
	free(l.procs);
	return CLI_EXIT_OK;
}
