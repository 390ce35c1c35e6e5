/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftnl-cli internals. Argument parsing (args.c) and configuration merging
 * (build.c) are kept apart from the commands so that unit tests run them
 * without a kernel.
 */
#ifndef FTNL_CLI_H
#define FTNL_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ftnl/ftnl.h>

#define CLI_NAME	"ftnl-cli"

/* Exit statuses (documented in ftnl-cli(8)). */
enum cli_exit {
	CLI_EXIT_OK		= 0,
	CLI_EXIT_USAGE		= 1,	/* bad command line or input; nothing sent */
	CLI_EXIT_FAILED		= 2,	/* the kernel or netlink failed the request */
	CLI_EXIT_UNAVAILABLE	= 3,	/* no usable ftnl module */
};

enum cli_object {
	CLI_OBJ_NONE,
	CLI_OBJ_HELP,
	CLI_OBJ_INFO,
	CLI_OBJ_CLUSTER,
	CLI_OBJ_NODE,
	CLI_OBJ_MONITOR,
	CLI_OBJ_STATS,
	CLI_OBJ_BCAST,
	CLI_OBJ_PROC,
	CLI_OBJ_HEALTH,
	CLI_OBJ_EVENTS,
};

enum cli_verb {
	CLI_VERB_NONE,		/* the object has no verbs (info, monitor) */
	CLI_VERB_SET,
	CLI_VERB_SHOW,
	CLI_VERB_DELETE,
	CLI_VERB_LEAVE,
	CLI_VERB_LIST,
	CLI_VERB_READMIT,
	CLI_VERB_HISTORY,
	CLI_VERB_PAIRKEYS,
};

/**
 * struct cli_options - global options
 * @json: -j, JSON output
 * @pretty: -p, indented JSON
 * @force: -f, do not validate before sending
 * @help: -h
 * @version: -V
 * @netns: -n NAME, network namespace to enter, or NULL
 */
struct cli_options {
	bool json;
	bool pretty;
	bool force;
	bool help;
	bool version;
	const char *netns;
};

/* Which cluster set arguments were given. */
enum cli_set_arg {
	CLI_SET_ID		= 1 << 0,
	CLI_SET_SELF		= 1 << 1,
	CLI_SET_HEARTBEAT	= 1 << 2,
	CLI_SET_TIMEOUT		= 1 << 3,
	CLI_SET_KEY		= 1 << 4,
	CLI_SET_KEYFILE		= 1 << 5,
	CLI_SET_FILE		= 1 << 6,
	CLI_SET_BCAST		= 1 << 7,
	CLI_SET_GOSSIP_FAULTS	= 1 << 8,
	CLI_SET_GOSSIP_TIME	= 1 << 9,
	CLI_SET_REJOIN		= 1 << 10,
	CLI_SET_FLAP_LIMIT	= 1 << 11,
	CLI_SET_FLAP_WINDOW	= 1 << 12,
	CLI_SET_FENCE		= 1 << 13,
	CLI_SET_QUORUM		= 1 << 14,
	CLI_SET_TIMEOUT_ADAPTIVE = 1 << 15,
	CLI_SET_TIMEOUT_NINES	= 1 << 16,
	CLI_SET_EPOCH		= 1 << 17,
	CLI_SET_UPDATE_GRACE	= 1 << 18,
	CLI_SET_STATE		= 1 << 19,
	CLI_SET_PAIRKEYS	= 1 << 20,
};

/**
 * struct cli_cluster_args - the arguments of "cluster set", as given
 * @file: "file PATH", or NULL
 * @given: bitmask of enum cli_set_arg
 * @cluster_id: "id N" (or "cluster N")
 * @self_id: "self N"
 * @self_auto: "self auto" (then @self_id is unused)
 * @hb_period_us: "heartbeat DURATION"
 * @timeout_us: "timeout DURATION"
 * @key: "key HEX"
 * @keyfile: "keyfile PATH"
 * @pairkeys: "pairkeys PATH": this node's pair keys instead of a cluster key
 * @nodes: "node ID ADDRESS PORT", in order
 * @node_count: entries in @nodes
 * @node_cap: allocated entries
 * @bcast_algo: "bcast ALGORITHM", enum ftnl_bcast_algo
 * @fcg_f: "gossip-faults N", FCG's f (0..255 here; validation says 1..7)
 * @gossip_t_us: "gossip-time DURATION", FCG's T; "auto" is 0
 * @rejoin: "rejoin auto|manual", enum ftnl_rejoin
 * @flap_limit: "rejoin-limit K"
 * @flap_window_s: "rejoin-window SECONDS"
 * @fence: "fence none|kill", enum ftnl_fence
 * @quorum: "quorum on|off", enum ftnl_quorum
 * @timeout_min_us: "timeout-adaptive DURATION", d_min of adaptive timeouts
 * @timeout_nines: "timeout-nines N", their target rate 10^-N
 * @epoch: "epoch N", the configuration's epoch
 * @update_grace_s: "update-grace SECONDS"
 * @state: "state PATH": the file that keeps this node's incarnation across
 *	reboots (read as the floor, written back), or NULL
 */
struct cli_cluster_args {
	const char *file;
	unsigned int given;
	uint32_t cluster_id;
	uint32_t self_id;
	bool self_auto;
	uint32_t hb_period_us;
	uint32_t timeout_us;
	uint8_t key[FTNL_KEY_LEN];
	const char *keyfile;
	const char *pairkeys;
	struct ftnl_node *nodes;
	size_t node_count;
	size_t node_cap;
	uint8_t bcast_algo;
	uint8_t fcg_f;
	uint32_t gossip_t_us;
	uint8_t rejoin;
	uint32_t flap_limit;
	uint32_t flap_window_s;
	uint8_t fence;
	uint8_t quorum;
	uint32_t timeout_min_us;
	uint8_t timeout_nines;
	uint32_t epoch;
	uint32_t update_grace_s;
	const char *state;
};

/* Exit statuses of "health": Nagios's, which NHC and Icinga expect. */
enum cli_health_status {
	CLI_HEALTH_OK		= 0,
	CLI_HEALTH_WARNING	= 1,
	CLI_HEALTH_CRITICAL	= 2,
	CLI_HEALTH_UNKNOWN	= 3,
};

/**
 * struct cli_health_limits - thresholds of "health"; 0 takes the default
 * @late_warn_us: heartbeat emission lateness that warns (default h / 2)
 * @late_crit_us: lateness that is critical (default (d - h) / 2: past
 *	d - h the observer may take this node for dead)
 */
struct cli_health_limits {
	uint64_t late_warn_us;
	uint64_t late_crit_us;
};

/**
 * struct cli_command - a parsed command line
 * @opt: global options
 * @object: what to act on; CLI_OBJ_HELP for "help [OBJECT]", "OBJECT help"
 *	and -h
 * @verb: what to do
 * @help_object: whose help to print (CLI_OBJ_NONE: the general one)
 * @set: arguments of "cluster set"
 * @node_id: "node readmit ID", "cluster pairkeys ... ID"
 * @secret_path: "cluster pairkeys SECRET CONFIG ID": the secret's file
 * @config_path: and the configuration's
 * @monitor_count: "monitor count N": stop after N events (0: never)
 * @history_after: "events history after SEQ": only the events after SEQ
 * @health: "health late-warn D late-crit D"
 * @health_window_us: "health window D": counters are compared over D
 *	(default 1 s); 0 compares with the configuration's start
 */
struct cli_command {
	struct cli_options opt;
	enum cli_object object;
	enum cli_verb verb;
	enum cli_object help_object;
	struct cli_cluster_args set;
	uint32_t node_id;
	const char *secret_path;
	const char *config_path;
	uint64_t monitor_count;
	uint64_t history_after;
	struct cli_health_limits health;
	uint64_t health_window_us;
};

enum cli_health_module {
	CLI_HEALTH_MODULE_PRESENT,
	CLI_HEALTH_MODULE_ABSENT,	/* no ftnl family: not loaded */
	CLI_HEALTH_MODULE_ERROR,	/* could not ask: @error says why */
};

/**
 * struct cli_health_input - what "health" judges
 * @module: whether the module answered
 * @error: with CLI_HEALTH_MODULE_ERROR, why
 * @configured: a cluster is configured; nothing below is read otherwise
 * @expelled: the node list says this node's own entry is expelled: the
 *	cluster holds its incarnation dead; nothing below is read then
 * @cluster_id: the cluster
 * @self_id: this node
 * @self_name: its name, or NULL / ""
 * @node_count: nodes in the table
 * @alive_count: of them, alive as this node knows
 * @hb_period_us: h
 * @timeout_us: d
 * @emitter: this node's emitter's entry (the node it observes), or NULL
 * @first: counters at the start of the window, or NULL: then @last is
 *	judged since the configuration's start
 * @last: counters at its end
 * @window_us: the window's length
 */
struct cli_health_input {
	enum cli_health_module module;
	const char *error;
	bool configured;
	bool expelled;
	uint32_t cluster_id;
	uint32_t self_id;
	const char *self_name;
	uint32_t node_count;
	uint32_t alive_count;
	uint32_t hb_period_us;
	uint32_t timeout_us;
	const struct ftnl_node *emitter;
	const struct ftnl_stats *first;
	const struct ftnl_stats *last;
	uint64_t window_us;
};

/* health.c */
enum cli_health_status cli_health_assess(const struct cli_health_input *in,
					 const struct cli_health_limits *lim,
					 char *line, size_t len);

/* args.c */
int cli_parse(int argc, char *const argv[], struct cli_command *cmd,
	      char *err, size_t errlen);
void cli_command_free(struct cli_command *cmd);
enum cli_match {
	CLI_MATCH_OK,
	CLI_MATCH_UNKNOWN,
	CLI_MATCH_AMBIGUOUS,
};

enum cli_match cli_match(const char *word, const char *const *names,
			 size_t count, size_t *index);
unsigned int cli_edit_distance(const char *a, const char *b);
const char *cli_suggest(const char *word, const char *const *names,
			size_t count);
char *cli_bcast_algo_list(char *buf, size_t len);
size_t cli_bcast_algo_names(const char **names);

/* build.c */
int cli_build_config(const struct cli_cluster_args *args, bool force,
		     struct ftnl_cluster_config *config, char *err,
		     size_t errlen);

/* json.c */
#define JSON_MAX_DEPTH 16

/**
 * struct json - a streaming JSON writer
 * @out: where the text goes
 * @pretty: indent with two spaces per level
 * @depth: current nesting depth
 * @has_items: per depth: something was written at this depth already
 * @after_key: a key was written; the value comes next
 */
struct json {
	FILE *out;
	bool pretty;
	int depth;
	bool has_items[JSON_MAX_DEPTH];
	bool after_key;
};

void json_init(struct json *j, FILE *out, bool pretty);
void json_write_string(FILE *out, const char *s);
void json_object_begin(struct json *j);
void json_object_end(struct json *j);
void json_array_begin(struct json *j);
void json_array_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);
void json_uint(struct json *j, uint64_t value);
void json_bool(struct json *j, bool value);
void json_end(struct json *j);
void json_kv_string(struct json *j, const char *key, const char *s);
void json_kv_uint(struct json *j, const char *key, uint64_t value);
void json_kv_bool(struct json *j, const char *key, bool value);

/* report.c: how the broadcast figures look, as text and JSON */
char *cli_format_ns(uint64_t ns, char *buf, size_t len);
char *cli_bcast_describe(const struct ftnl_cluster_info *info, char *buf,
			 size_t len);
void cli_bcast_json_counters(struct json *j, const struct ftnl_stats *st);
void cli_bcast_print_json(FILE *out, bool pretty,
			  const struct ftnl_cluster_info *info,
			  const struct ftnl_stats *st);
void cli_bcast_print_text(FILE *out, const struct ftnl_cluster_info *info,
			  const struct ftnl_stats *st);
void cli_stats_print_bcast(FILE *out, const struct ftnl_stats *st);

/* report.c: "proc list" and the events of "monitor" */
void cli_proc_print_text(FILE *out, const struct ftnl_proc *procs,
			 size_t count);
void cli_proc_print_json(FILE *out, bool pretty,
			 const struct ftnl_proc *procs, size_t count);
char *cli_format_time(uint64_t ns, char *buf, size_t len);
void cli_event_print_text(FILE *out, const struct ftnl_event *ev);
void cli_event_print_json(FILE *out, bool pretty, const struct ftnl_event *ev);

/* main.c: shared by the commands */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_open(struct ftnl_handle **handle);
int cli_request_failed(struct ftnl_handle *handle, const char *what, int err);

/* commands */
int cmd_info(const struct cli_command *cmd);
int cmd_cluster_set(const struct cli_command *cmd);
int cmd_cluster_show(const struct cli_command *cmd);
int cmd_cluster_delete(const struct cli_command *cmd);
int cmd_cluster_leave(const struct cli_command *cmd);
int cmd_cluster_pairkeys(const struct cli_command *cmd);
int cmd_node_list(const struct cli_command *cmd);
int cmd_node_readmit(const struct cli_command *cmd);
int cmd_proc_list(const struct cli_command *cmd);
int cmd_health(const struct cli_command *cmd);
int cmd_monitor(const struct cli_command *cmd);
int cmd_events_history(const struct cli_command *cmd);
int cmd_stats(const struct cli_command *cmd);
int cmd_bcast(const struct cli_command *cmd);

/* help.c */
void cli_usage(FILE *out, enum cli_object object);

#endif /* FTNL_CLI_H */
