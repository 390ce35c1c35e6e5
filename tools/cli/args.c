// SPDX-License-Identifier: GPL-2.0
/*
 * Command line parsing, iproute2 style:
 *
 *	ftnl-cli [OPTIONS] OBJECT [COMMAND [ARGS]]
 *
 * Objects, commands and argument keywords may be shortened to any unique
 * prefix ("cl sh" is "cluster show"). A pure function of argv: it reads no
 * file and opens no socket, so tests call it directly. Values are checked
 * for syntax and type range here; the rules of a valid cluster
 * (ftnl_config_validate()) are applied later, unless --force.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int __attribute__((format(printf, 3, 4)))
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/**
 * cli_match() - find @word among @names, exactly or as a unique prefix
 * @word: what the user typed
 * @names: candidates
 * @count: number of @names
 * @index: set to the match
 *
 * An exact match wins over prefixes ("key" is not ambiguous with
 * "keyfile").
 *
 * Return: CLI_MATCH_OK, CLI_MATCH_UNKNOWN or CLI_MATCH_AMBIGUOUS.
 */
enum cli_match cli_match(const char *word, const char *const *names,
			 size_t count, size_t *index)
{
	size_t i, len = strlen(word), found = 0;

	if (!len)
		return CLI_MATCH_UNKNOWN;
	for (i = 0; i < count; i++) {
		if (!strcmp(word, names[i])) {
			*index = i;
			return CLI_MATCH_OK;
		}
	}
	for (i = 0; i < count; i++) {
		if (!strncmp(word, names[i], len)) {
			*index = i;
			found++;
		}
	}
	if (found == 1)
		return CLI_MATCH_OK;
	return found ? CLI_MATCH_AMBIGUOUS : CLI_MATCH_UNKNOWN;
}

/**
 * cli_edit_distance() - optimal string alignment distance
 * @a: a string of at most 63 characters (longer ones are far from all)
 * @b: another
 *
 * Insertions, deletions, substitutions and swaps of neighbours cost 1:
 * "clutser" is 1 away from "cluster".
 *
 * Return: the distance, or UINT_MAX for over-long strings.
 */
unsigned int cli_edit_distance(const char *a, const char *b)
{
	unsigned int d[64][64];
	size_t la = strlen(a), lb = strlen(b), i, j;

	if (la >= 64 || lb >= 64)
		return ~0u;
	for (i = 0; i <= la; i++)
		d[i][0] = (unsigned int)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			unsigned int cost = a[i - 1] != b[j - 1];
			unsigned int best = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < best)
				best = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

/**
 * cli_suggest() - the candidate closest to a mistyped word
 * @word: what the user typed
 * @names: candidates
 * @count: number of @names
 *
 * Return: a name at most 2 edits away (and closer than the word's
 * length, so that "x" suggests nothing), or NULL.
 */
const char *cli_suggest(const char *word, const char *const *names,
			size_t count)
{
	unsigned int best = 3, limit = (unsigned int)strlen(word);
	const char *found = NULL;
	size_t i;

	for (i = 0; i < count; i++) {
		unsigned int dist = cli_edit_distance(word, names[i]);

		if (dist < best && dist < limit) {
			best = dist;
			found = names[i];
		}
	}
	return found;
}

/**
 * cli_bcast_algo_list() - every broadcast algorithm name, for messages
 * @buf: receives "hypercube, bmg or fcg"
 * @len: size of @buf
 *
 * Return: @buf.
 */
char *cli_bcast_algo_list(char *buf, size_t len)
{
	const char *names[FTNL_BCAST_MAX + 1];
	size_t used = 0, count, i;

	count = cli_bcast_algo_names(names);
	buf[0] = '\0';
	for (i = 0; i < count && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 !i ? "" : i + 1 == count ? " or " : ", ",
					 names[i]);
	return buf;
}

/**
 * cli_bcast_algo_names() - the broadcast algorithms libftnl can name
 * @names: receives up to FTNL_BCAST_MAX + 1 names
 *
 * Return: how many.
 */
size_t cli_bcast_algo_names(const char **names)
{
	size_t count = 0;
	unsigned int i;

	for (i = 0; i <= FTNL_BCAST_MAX; i++)
		if (strcmp(ftnl_bcast_algo_name(i), "unknown"))
			names[count++] = ftnl_bcast_algo_name(i);
	return count;
}

/* "unknown X "word" (did you mean "y"?); try "ftnl-cli ... help"" */
static int fail_unknown(char *err, size_t errlen, const char *what,
			const char *word, const char *const *names,
			size_t count, const char *help)
{
	const char *hint = cli_suggest(word, names, count);

	if (hint)
		return fail(err, errlen,
			    "unknown %s \"%s\" (did you mean \"%s\"?); try \"%s\"",
			    what, word, hint, help);
	return fail(err, errlen, "unknown %s \"%s\"; try \"%s\"", what, word,
		    help);
}

static int fail_ambiguous(char *err, size_t errlen, const char *what,
			  const char *word, const char *const *names,
			  size_t count)
{
	char list[256] = "";
	size_t i, len = strlen(word), used = 0;

	for (i = 0; i < count; i++) {
		if (strncmp(word, names[i], len))
			continue;
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s%s", used ? ", " : "", names[i]);
		if (used >= sizeof(list))
			break;
	}
	return fail(err, errlen, "ambiguous %s \"%s\" (could be: %s)", what,
		    word, list);
}

/* ---- global options ---------------------------------------------------- */

static int parse_long_option(const char *arg, int argc, char *const argv[],
			     int *i, struct cli_options *opt, char *err,
			     size_t errlen)
{
	static const char *const names[] = {
		"json", "pretty", "force", "help", "version", "netns",
	};
	const char *name = arg + 2, *value = NULL, *eq = strchr(name, '=');
	char buf[32];
	size_t index;

	if (eq) {
		if ((size_t)(eq - name) >= sizeof(buf))
			return fail(err, errlen, "unknown option \"%s\"; try \"%s help\"",
				    arg, CLI_NAME);
		memcpy(buf, name, (size_t)(eq - name));
		buf[eq - name] = '\0';
		name = buf;
		value = eq + 1;
	}
	switch (cli_match(name, names, ARRAY_SIZE(names), &index)) {
	case CLI_MATCH_OK:
		break;
	case CLI_MATCH_AMBIGUOUS:
		return fail(err, errlen, "ambiguous option \"%s\"", arg);
	default:
		return fail(err, errlen, "unknown option \"%s\"; try \"%s help\"",
			    arg, CLI_NAME);
	}
	if (index != 5 && value)
		return fail(err, errlen, "option \"--%s\" takes no value",
			    names[index]);
	switch (index) {
	case 0:
		opt->json = true;
		break;
	case 1:
		opt->pretty = true;
		break;
	case 2:
		opt->force = true;
		break;
	case 3:
		opt->help = true;
		break;
	case 4:
		opt->version = true;
		break;
	case 5:
		if (!value) {
			if (*i + 1 >= argc)
				return fail(err, errlen,
					    "option \"--netns\" needs a name");
			value = argv[++*i];
		}
		opt->netns = value;
		break;
	}
	return 0;
}

static int parse_short_options(const char *arg, int argc, char *const argv[],
			       int *i, struct cli_options *opt, char *err,
			       size_t errlen)
{
	const char *p;

	for (p = arg + 1; *p; p++) {
		switch (*p) {
		case 'j':
			opt->json = true;
			break;
		case 'p':
			opt->pretty = true;
			break;
		case 'f':
			opt->force = true;
			break;
		case 'h':
			opt->help = true;
			break;
		case 'V':
			opt->version = true;
			break;
		case 'n':
			/* The rest of the word, or the next word. */
			if (p[1]) {
				opt->netns = p + 1;
			} else {
				if (*i + 1 >= argc)
					return fail(err, errlen,
						    "option \"-n\" needs a name");
				opt->netns = argv[++*i];
			}
			return 0;
		default:
			return fail(err, errlen,
				    "unknown option \"-%c\"; try \"%s help\"", *p,
				    CLI_NAME);
		}
	}
	return 0;
}

/* Parse options; *i ends on the first word that is not one. */
static int parse_options(int argc, char *const argv[], int *i,
			 struct cli_options *opt, char *err, size_t errlen)
{
	int ret;

	for (; *i < argc; ++*i) {
		const char *arg = argv[*i];

		if (arg[0] != '-' || !arg[1])
			return 0;
		if (!strcmp(arg, "--")) {
			++*i;
			return 0;
		}
		if (arg[1] == '-')
			ret = parse_long_option(arg, argc, argv, i, opt, err,
						errlen);
		else
			ret = parse_short_options(arg, argc, argv, i, opt, err,
						  errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- objects and verbs -------------------------------------------------- */

/*
 * Every object starts with a letter of its own, so one letter is enough
 * for each: b(cast), c(luster), e(vents), h(elp), i(nfo), m(onitor),
 * n(ode), p(roc), s(tats). A new object must keep it so (tests/args.c checks), or
 * the abbreviations people already type would become ambiguous. One
 * exception: "health", where monitoring systems look for it; the prefixes
 * it shares with "help" (h, he) stay help's, it is abbreviated from "hea".
 */
static const char *const object_names[] = {
	"bcast", "cluster", "events", "health", "help", "info", "monitor",
	"node", "proc", "stats",
};

static const enum cli_object object_values[] = {
	CLI_OBJ_BCAST, CLI_OBJ_CLUSTER, CLI_OBJ_EVENTS, CLI_OBJ_HEALTH,
	CLI_OBJ_HELP, CLI_OBJ_INFO, CLI_OBJ_MONITOR, CLI_OBJ_NODE, CLI_OBJ_PROC,
	CLI_OBJ_STATS,
};

static const char *object_name(enum cli_object object)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(object_values); i++)
		if (object_values[i] == object)
			return object_names[i];
	return "?";
}

static int parse_object(const char *word, enum cli_object *object, char *err,
			size_t errlen)
{
	size_t index;

	switch (cli_match(word, object_names, ARRAY_SIZE(object_names),
			  &index)) {
	case CLI_MATCH_OK:
		*object = object_values[index];
		return 0;
	case CLI_MATCH_AMBIGUOUS:
		if (!strncmp(word, "help", strlen(word))) {
			*object = CLI_OBJ_HELP;
			return 0;
		}
		return fail_ambiguous(err, errlen, "object", word, object_names,
				      ARRAY_SIZE(object_names));
	default:
		return fail_unknown(err, errlen, "object", word, object_names,
				    ARRAY_SIZE(object_names), CLI_NAME " help");
	}
}

/* Complain about the first extra word after a complete command. */
static int no_more(int argc, char *const argv[], int i, const char *command,
		   char *err, size_t errlen)
{
	if (i >= argc)
		return 0;
	if (argv[i][0] == '-')
		return fail(err, errlen,
			    "unexpected \"%s\" after %s (options go before the object)",
			    argv[i], command);
	return fail(err, errlen, "unexpected argument \"%s\" after %s", argv[i],
		    command);
}

static void want_help(struct cli_command *cmd, enum cli_object object)
{
	cmd->object = CLI_OBJ_HELP;
	cmd->verb = CLI_VERB_NONE;
	cmd->help_object = object;
}

/* ---- cluster set ARGS ----------------------------------------------------- */

enum set_keyword {
	KW_ID, KW_CLUSTER, KW_SELF, KW_HEARTBEAT, KW_TIMEOUT, KW_KEY,
	KW_KEYFILE, KW_NODE, KW_FILE, KW_BCAST, KW_GOSSIP_FAULTS,
	KW_GOSSIP_TIME, KW_REJOIN, KW_FLAP_LIMIT, KW_FLAP_WINDOW, KW_FENCE,
	KW_QUORUM,
	KW_TIMEOUT_ADAPTIVE, KW_TIMEOUT_NINES, KW_EPOCH, KW_UPDATE_GRACE,
	KW_STATE, KW_PAIRKEYS,
};

static const char *const set_keywords[] = {
	[KW_ID] = "id",
	[KW_CLUSTER] = "cluster",
	[KW_SELF] = "self",
	[KW_HEARTBEAT] = "heartbeat",
	[KW_TIMEOUT] = "timeout",
	[KW_KEY] = "key",
	[KW_KEYFILE] = "keyfile",
	[KW_NODE] = "node",
	[KW_FILE] = "file",
	[KW_BCAST] = "bcast",
	/* FCG's f and T: no existing abbreviation starts with "g". */
	[KW_GOSSIP_FAULTS] = "gossip-faults",
	[KW_GOSSIP_TIME] = "gossip-time",
	[KW_REJOIN] = "rejoin",
	[KW_FLAP_LIMIT] = "rejoin-limit",
	[KW_FLAP_WINDOW] = "rejoin-window",
	[KW_FENCE] = "fence",
	[KW_QUORUM] = "quorum",
	[KW_TIMEOUT_ADAPTIVE] = "timeout-adaptive",
	[KW_TIMEOUT_NINES] = "timeout-nines",
	[KW_EPOCH] = "epoch",
	[KW_UPDATE_GRACE] = "update-grace",
	[KW_STATE] = "state",
	[KW_PAIRKEYS] = "pairkeys",
};

static int parse_id(const char *what, const char *word, uint32_t *value,
		    char *err, size_t errlen)
{
	if (ftnl_parse_u32(word, value))
		return fail(err, errlen,
			    "invalid %s \"%s\" (expected 0..4294967295)", what,
			    word);
	return 0;
}

static int parse_duration(const char *what, const char *word, uint32_t *us,
			  char *err, size_t errlen)
{
	int ret = ftnl_parse_duration_us(word, us);

	if (ret == -ERANGE)
		return fail(err, errlen, "%s \"%s\" is too long", what, word);
	if (ret)
		return fail(err, errlen,
			    "invalid %s \"%s\" (expected a duration such as 100ms; units us, ms, s)",
			    what, word);
	return 0;
}

static int add_node(struct cli_cluster_args *set, char *const words[],
		    char *err, size_t errlen)
{
	struct ftnl_node node = { .state = FTNL_NODE_STATE_ALIVE };

	if (parse_id("node id", words[0], &node.id, err, errlen))
		return -EINVAL;
	if (ftnl_parse_addr(words[1], &node.family, &node.addr))
		return fail(err, errlen,
			    "invalid address \"%s\" for node %u (expected an IPv4 or IPv6 address)",
			    words[1], node.id);
	if (ftnl_parse_port(words[2], &node.port))
		return fail(err, errlen,
			    "invalid port \"%s\" for node %u (expected 0..65535)",
			    words[2], node.id);
	if (set->node_count == set->node_cap) {
		size_t cap = set->node_cap ? 2 * set->node_cap : 8;
		struct ftnl_node *nodes = realloc(set->nodes,
						  cap * sizeof(*nodes));

		if (!nodes)
			return fail(err, errlen, "out of memory");
		set->nodes = nodes;
		set->node_cap = cap;
	}
	set->nodes[set->node_count++] = node;
	return 0;
}

/* Its characters are the validation's (and the kernel's) business. */
static int name_node(struct cli_cluster_args *set, const char *name,
		     char *err, size_t errlen)
{
	struct ftnl_node *node = &set->nodes[set->node_count - 1];

	if (!name)
		return fail(err, errlen, "\"name\" of node %u needs a value",
			    node->id);
	if (!*name || strlen(name) > FTNL_NODE_NAME_MAX)
		return fail(err, errlen,
			    "name \"%.64s\" of node %u must be 1 to %d characters",
			    name, node->id, FTNL_NODE_NAME_MAX);
	strcpy(node->name, name);
	return 0;
}

static int domain_node(struct cli_cluster_args *set, const char *domain,
		       char *err, size_t errlen)
{
	struct ftnl_node *node = &set->nodes[set->node_count - 1];

	if (!domain)
		return fail(err, errlen, "\"domain\" of node %u needs a value",
			    node->id);
	if (node->domain[0])
		return fail(err, errlen, "\"domain\" of node %u given twice",
			    node->id);
	if (!*domain || strlen(domain) > FTNL_NODE_DOMAIN_MAX)
		return fail(err, errlen,
			    "domain \"%.64s\" of node %u must be 1 to %d characters",
			    domain, node->id, FTNL_NODE_DOMAIN_MAX);
	strcpy(node->domain, domain);
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The same node id twice on the command line is a mistake, not an override. */
static int check_node_ids(const struct cli_cluster_args *set, char *err,
			  size_t errlen)
{
	uint32_t *ids;
	size_t i;
	int ret = 0;

	if (set->node_count < 2)
		return 0;
	ids = malloc(set->node_count * sizeof(*ids));
	if (!ids)
		return fail(err, errlen, "out of memory");
	for (i = 0; i < set->node_count; i++)
		ids[i] = set->nodes[i].id;
	qsort(ids, set->node_count, sizeof(*ids), cmp_u32);
	for (i = 1; i < set->node_count && !ret; i++)
		if (ids[i] == ids[i - 1])
			ret = fail(err, errlen, "node %u given twice", ids[i]);
	free(ids);
	return ret;
}

/* Store the value of scalar keyword @kw (anything but node). */
static int parse_set_scalar(enum set_keyword kw, const char *value,
			    struct cli_cluster_args *set, char *err,
			    size_t errlen)
{
	const char *algos[FTNL_BCAST_MAX + 1], *hint;
	char list[128];
	uint32_t u32;

	switch (kw) {
	case KW_ID:
	case KW_CLUSTER:
		return parse_id("cluster id", value, &set->cluster_id, err,
				errlen);
	case KW_SELF:
		/* Found in the node table by this host's addresses (build.c). */
		set->self_auto = !strcmp(value, "auto");
		if (set->self_auto)
			return 0;
		return parse_id("self id", value, &set->self_id, err, errlen);
	case KW_HEARTBEAT:
		return parse_duration("heartbeat", value, &set->hb_period_us,
				      err, errlen);
	case KW_TIMEOUT:
		return parse_duration("timeout", value, &set->timeout_us, err,
				      errlen);
	case KW_KEY:
		/* Never echo a key into a message. */
		if (ftnl_parse_key(value, set->key))
			return fail(err, errlen,
				    "invalid key (expected %d hex digits)",
				    2 * FTNL_KEY_LEN);
		return 0;
	case KW_KEYFILE:
		set->keyfile = value;
		return 0;
	case KW_PAIRKEYS:
		set->pairkeys = value;
		return 0;
	case KW_GOSSIP_FAULTS:
		/* The attribute is a u8; its range is the validation's business. */
		if (ftnl_parse_u32(value, &u32) || u32 > UINT8_MAX)
			return fail(err, errlen,
				    "invalid gossip-faults \"%s\" (expected %d..%d)",
				    value, FTNL_FCG_F_MIN, FTNL_FCG_F_MAX);
		set->fcg_f = (uint8_t)u32;
		return 0;
	case KW_GOSSIP_TIME:
		if (!strcmp(value, "auto")) {
			set->gossip_t_us = 0;
			return 0;
		}
		return parse_duration("gossip-time", value, &set->gossip_t_us,
				      err, errlen);
	case KW_REJOIN:
		if (!strcmp(value, "auto"))
			set->rejoin = FTNL_REJOIN_AUTO;
		else if (!strcmp(value, "manual"))
			set->rejoin = FTNL_REJOIN_MANUAL;
		else
			return fail(err, errlen,
				    "unknown rejoin policy \"%s\" (expected auto or manual)",
				    value);
		return 0;
	case KW_FLAP_LIMIT:
		if (ftnl_parse_u32(value, &set->flap_limit))
			return fail(err, errlen,
				    "invalid rejoin-limit \"%s\" (expected %d..%d rejoins)",
				    value, FTNL_REJOIN_FLAP_LIMIT_MIN,
				    FTNL_REJOIN_FLAP_LIMIT_MAX);
		return 0;
	case KW_FLAP_WINDOW:
		if (ftnl_parse_u32(value, &set->flap_window_s))
			return fail(err, errlen,
				    "invalid rejoin-window \"%s\" (expected %d..%d seconds)",
				    value, FTNL_REJOIN_FLAP_WINDOW_MIN_S,
				    FTNL_REJOIN_FLAP_WINDOW_MAX_S);
		return 0;
	case KW_TIMEOUT_ADAPTIVE:
		return parse_duration("timeout-adaptive", value,
				      &set->timeout_min_us, err, errlen);
	case KW_TIMEOUT_NINES:
		/* The attribute is a u8; its range is the validation's business. */
		if (ftnl_parse_u32(value, &u32) || u32 > UINT8_MAX)
			return fail(err, errlen,
				    "invalid timeout-nines \"%s\" (expected %d..%d: a target rate of 10^-N)",
				    value, FTNL_TIMEOUT_NINES_MIN,
				    FTNL_TIMEOUT_NINES_MAX);
		set->timeout_nines = (uint8_t)u32;
		return 0;
	case KW_EPOCH:
		return parse_id("epoch", value, &set->epoch, err, errlen);
	case KW_UPDATE_GRACE:
		if (ftnl_parse_u32(value, &set->update_grace_s))
			return fail(err, errlen,
				    "invalid update-grace \"%s\" (expected %d..%d seconds)",
				    value, FTNL_UPDATE_GRACE_MIN_S,
				    FTNL_UPDATE_GRACE_MAX_S);
		return 0;
	case KW_STATE:
		set->state = value;
		return 0;
	case KW_FENCE:
		if (ftnl_parse_fence(value, &set->fence))
			return fail(err, errlen,
				    "unknown fence policy \"%s\" (expected none or kill)",
				    value);
		return 0;
	case KW_QUORUM:
		if (!strcmp(value, "on"))
			set->quorum = FTNL_QUORUM_ON;
		else if (!strcmp(value, "off"))
			set->quorum = FTNL_QUORUM_OFF;
		else
			return fail(err, errlen,
				    "invalid quorum \"%s\" (expected on or off)",
				    value);
		return 0;
	case KW_BCAST:
		if (!ftnl_parse_bcast_algo(value, &set->bcast_algo))
			return 0;
		hint = cli_suggest(value, algos, cli_bcast_algo_names(algos));
		if (hint)
			return fail(err, errlen,
				    "unknown broadcast algorithm \"%s\" (did you mean \"%s\"?)",
				    value, hint);
		return fail(err, errlen,
			    "unknown broadcast algorithm \"%s\" (expected %s)",
			    value, cli_bcast_algo_list(list, sizeof(list)));
	default:
		set->file = value;
		return 0;
	}
}

static int parse_cluster_set(int argc, char *const argv[], int i,
			     struct cli_cluster_args *set, char *err,
			     size_t errlen)
{
	/* The "given" bit of each scalar keyword. */
	static const unsigned int bits[] = {
		[KW_ID] = CLI_SET_ID, [KW_CLUSTER] = CLI_SET_ID,
		[KW_SELF] = CLI_SET_SELF, [KW_HEARTBEAT] = CLI_SET_HEARTBEAT,
		[KW_TIMEOUT] = CLI_SET_TIMEOUT, [KW_KEY] = CLI_SET_KEY,
		[KW_KEYFILE] = CLI_SET_KEYFILE, [KW_NODE] = 0,
		[KW_FILE] = CLI_SET_FILE, [KW_BCAST] = CLI_SET_BCAST,
		[KW_GOSSIP_FAULTS] = CLI_SET_GOSSIP_FAULTS,
		[KW_GOSSIP_TIME] = CLI_SET_GOSSIP_TIME,
		[KW_REJOIN] = CLI_SET_REJOIN,
		[KW_FLAP_LIMIT] = CLI_SET_FLAP_LIMIT,
		[KW_FLAP_WINDOW] = CLI_SET_FLAP_WINDOW,
		[KW_FENCE] = CLI_SET_FENCE,
		[KW_QUORUM] = CLI_SET_QUORUM,
		[KW_TIMEOUT_ADAPTIVE] = CLI_SET_TIMEOUT_ADAPTIVE,
		[KW_TIMEOUT_NINES] = CLI_SET_TIMEOUT_NINES,
		[KW_EPOCH] = CLI_SET_EPOCH,
		[KW_UPDATE_GRACE] = CLI_SET_UPDATE_GRACE,
		[KW_STATE] = CLI_SET_STATE,
		[KW_PAIRKEYS] = CLI_SET_PAIRKEYS,
	};
	int ret;

	if (i >= argc)
		return fail(err, errlen,
			    "missing arguments; try \"%s cluster help\"",
			    CLI_NAME);
	while (i < argc) {
		const char *word = argv[i];
		size_t kw;

		/*
		 * "f" stays file's, as before "fence" came: fence is
		 * abbreviated from "fe"; likewise "t" (up to "timeout") stays
		 * timeout's, as before "timeout-adaptive" came, and "s"
		 * self's, as before "state" came.
		 */
		enum cli_match m = !strcmp(word, "f") ?
			(kw = KW_FILE, CLI_MATCH_OK) :
			!strcmp(word, "s") ? (kw = KW_SELF, CLI_MATCH_OK) :
			word[0] && !strncmp("timeout", word, strlen(word)) ?
			(kw = KW_TIMEOUT, CLI_MATCH_OK) :
			cli_match(word, set_keywords, ARRAY_SIZE(set_keywords),
				  &kw);

		switch (m) {
		case CLI_MATCH_OK:
			break;
		case CLI_MATCH_AMBIGUOUS:
			return fail_ambiguous(err, errlen, "argument", word,
					      set_keywords,
					      ARRAY_SIZE(set_keywords));
		default:
			if (word[0] == '-')
				return fail(err, errlen,
					    "unexpected \"%s\" in cluster set (options go before the object)",
					    word);
			return fail_unknown(err, errlen, "argument", word,
					    set_keywords,
					    ARRAY_SIZE(set_keywords),
					    CLI_NAME " cluster help");
		}

		if (kw == KW_NODE) {
			if (argc - i - 1 < 3)
				return fail(err, errlen,
					    "\"node\" needs ID ADDRESS PORT");
			ret = add_node(set, &argv[i + 1], err, errlen);
			if (ret)
				return ret;
			i += 4;
			/*
			 * "name NAME" and "domain DOMAIN" right after a node
			 * are that node's, in either order.
			 */
			while (i < argc && (!strcmp(argv[i], "name") ||
					    !strcmp(argv[i], "domain"))) {
				if (!strcmp(argv[i], "name"))
					ret = name_node(set, argv[i + 1], err,
							errlen);
				else
					ret = domain_node(set, argv[i + 1], err,
							  errlen);
				if (ret)
					return ret;
				i += 2;
			}
			continue;
		}

		if (i + 1 >= argc)
			return fail(err, errlen, "\"%s\" needs a value",
				    set_keywords[kw]);
		if (set->given & bits[kw])
			return fail(err, errlen, "\"%s\" given twice",
				    set_keywords[kw]);
		set->given |= bits[kw];
		if (__builtin_popcount(set->given & (CLI_SET_KEY |
						     CLI_SET_KEYFILE |
						     CLI_SET_PAIRKEYS)) > 1)
			return fail(err, errlen,
				    "\"key\", \"keyfile\" and \"pairkeys\" exclude each other");
		ret = parse_set_scalar((enum set_keyword)kw, argv[i + 1], set,
				       err, errlen);
		if (ret)
			return ret;
		i += 2;
	}
	return check_node_ids(set, err, errlen);
}

/* ---- objects ---------------------------------------------------------------- */

static int parse_verb(const char *word, enum cli_object object,
		      const char *const *names, const enum cli_verb *verbs,
		      size_t count, struct cli_command *cmd, char *err,
		      size_t errlen)
{
	char help[64];
	size_t index;

	snprintf(help, sizeof(help), "%s %s help", CLI_NAME,
		 object_name(object));
	switch (cli_match(word, names, count, &index)) {
	case CLI_MATCH_OK:
		if (!strcmp(names[index], "help"))
			want_help(cmd, object);
		else
			cmd->verb = verbs[index];
		return 0;
	case CLI_MATCH_AMBIGUOUS:
		return fail_ambiguous(err, errlen, "command", word, names, count);
	default:
		return fail_unknown(err, errlen, "command", word, names, count,
				    help);
	}
}

static int parse_cluster(int argc, char *const argv[], int i,
			 struct cli_command *cmd, char *err, size_t errlen)
{
	static const char *const names[] = {
		"set", "show", "delete", "leave", "pairkeys", "help",
	};
	static const enum cli_verb verbs[] = {
		CLI_VERB_SET, CLI_VERB_SHOW, CLI_VERB_DELETE, CLI_VERB_LEAVE,
		CLI_VERB_PAIRKEYS, CLI_VERB_NONE,
	};
	int ret;

	cmd->verb = CLI_VERB_SHOW;	/* "ftnl-cli cluster" shows */
	if (i >= argc)
		return 0;
	ret = parse_verb(argv[i], CLI_OBJ_CLUSTER, names, verbs,
			 ARRAY_SIZE(names), cmd, err, errlen);
	if (ret)
		return ret;
	i++;
	if (cmd->object == CLI_OBJ_HELP)
		return no_more(argc, argv, i, "cluster help", err, errlen);
	switch (cmd->verb) {
	case CLI_VERB_SET:
		ret = parse_cluster_set(argc, argv, i, &cmd->set, err, errlen);
		if (ret && errlen) {
			/* Name the command, as for its later failures. */
			char why[512];

			snprintf(why, sizeof(why), "%s", err);
			snprintf(err, errlen, "cluster set: %s", why);
		}
		return ret;
	case CLI_VERB_SHOW:
		return no_more(argc, argv, i, "cluster show", err, errlen);
	case CLI_VERB_LEAVE:
		return no_more(argc, argv, i, "cluster leave", err, errlen);
	case CLI_VERB_PAIRKEYS:
		if (argc - i < 3)
			return fail(err, errlen,
				    "cluster pairkeys needs SECRET-FILE CONFIG-FILE NODE-ID");
		cmd->secret_path = argv[i];
		cmd->config_path = argv[i + 1];
		if (parse_id("node id", argv[i + 2], &cmd->node_id, err, errlen))
			return -EINVAL;
		return no_more(argc, argv, i + 3,
			       "cluster pairkeys SECRET-FILE CONFIG-FILE NODE-ID",
			       err, errlen);
	default:
		return no_more(argc, argv, i, "cluster delete", err, errlen);
	}
}

static int parse_node(int argc, char *const argv[], int i,
		      struct cli_command *cmd, char *err, size_t errlen)
{
	static const char *const names[] = { "list", "show", "readmit", "help" };
	static const enum cli_verb verbs[] = {
		CLI_VERB_LIST, CLI_VERB_LIST, CLI_VERB_READMIT, CLI_VERB_NONE,
	};
	int ret;

	cmd->verb = CLI_VERB_LIST;
	if (i >= argc)
		return 0;
	ret = parse_verb(argv[i], CLI_OBJ_NODE, names, verbs,
			 ARRAY_SIZE(names), cmd, err, errlen);
	if (ret)
		return ret;
	i++;
	if (cmd->object == CLI_OBJ_HELP)
		return no_more(argc, argv, i, "node help", err, errlen);
	if (cmd->verb == CLI_VERB_LIST)
		return no_more(argc, argv, i, "node list", err, errlen);
	if (i >= argc)
		return fail(err, errlen, "node readmit needs a node id");
	if (parse_id("node id", argv[i], &cmd->node_id, err, errlen))
		return -EINVAL;
	return no_more(argc, argv, i + 1, "node readmit ID", err, errlen);
}

/* proc [ list | show | help ]: "show" is a synonym of "list", the default. */
static int parse_proc(int argc, char *const argv[], int i,
		      struct cli_command *cmd, char *err, size_t errlen)
{
	static const char *const names[] = { "list", "show", "help" };
	static const enum cli_verb verbs[] = {
		CLI_VERB_LIST, CLI_VERB_LIST, CLI_VERB_NONE,
	};
	int ret;

	cmd->verb = CLI_VERB_LIST;
	if (i >= argc)
		return 0;
	ret = parse_verb(argv[i], CLI_OBJ_PROC, names, verbs,
			 ARRAY_SIZE(names), cmd, err, errlen);
	if (ret)
		return ret;
	return no_more(argc, argv, i + 1,
		       cmd->object == CLI_OBJ_HELP ? "proc help" : "proc list",
		       err, errlen);
}

/* Objects whose one verb is "show", also their default: stats, bcast. */
static int parse_show_only(int argc, char *const argv[], int i,
			   struct cli_command *cmd, enum cli_object object,
			   const char *name, char *err, size_t errlen)
{
	static const char *const names[] = { "show", "help" };
	static const enum cli_verb verbs[] = { CLI_VERB_SHOW, CLI_VERB_NONE };
	char usage[32];
	int ret;

	cmd->verb = CLI_VERB_SHOW;
	if (i >= argc)
		return 0;
	ret = parse_verb(argv[i], object, names, verbs, ARRAY_SIZE(names),
			 cmd, err, errlen);
	if (ret)
		return ret;
	snprintf(usage, sizeof(usage), "%s %s", name,
		 cmd->object == CLI_OBJ_HELP ? "help" : "show");
	return no_more(argc, argv, i + 1, usage, err, errlen);
}

static int parse_monitor(int argc, char *const argv[], int i,
			 struct cli_command *cmd, char *err, size_t errlen)
{
	static const char *const names[] = { "count", "help" };
	uint32_t count;
	size_t index;

	while (i < argc) {
		switch (cli_match(argv[i], names, ARRAY_SIZE(names), &index)) {
		case CLI_MATCH_OK:
			break;
		default:
			return fail_unknown(err, errlen, "argument", argv[i],
					    names, ARRAY_SIZE(names),
					    CLI_NAME " monitor help");
		}
		if (index == 1) {
			want_help(cmd, CLI_OBJ_MONITOR);
			return no_more(argc, argv, i + 1, "monitor help", err,
				       errlen);
		}
		if (i + 1 >= argc)
			return fail(err, errlen, "\"count\" needs a number");
		if (ftnl_parse_u32(argv[i + 1], &count) || !count)
			return fail(err, errlen,
				    "invalid count \"%s\" (expected 1..4294967295)",
				    argv[i + 1]);
		cmd->monitor_count = count;
		i += 2;
	}
	return 0;
}

/* A decimal u64: digits only, no sign or blank, no overflow. */
static int parse_u64(const char *text, uint64_t *value)
{
	uint64_t v = 0;
	const char *s;

	if (!*text)
		return -EINVAL;
	for (s = text; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*value = v;
	return 0;
}

/* events [ history [ after SEQ ] | help ] */
static int parse_events(int argc, char *const argv[], int i,
			struct cli_command *cmd, char *err, size_t errlen)
{
	static const char *const names[] = { "history", "help" };
	static const enum cli_verb verbs[] = { CLI_VERB_HISTORY, CLI_VERB_NONE };
	int ret;

	cmd->verb = CLI_VERB_HISTORY;
	if (i >= argc)
		return 0;
	ret = parse_verb(argv[i], CLI_OBJ_EVENTS, names, verbs,
			 ARRAY_SIZE(names), cmd, err, errlen);
	if (ret)
		return ret;
	if (cmd->object == CLI_OBJ_HELP)
		return no_more(argc, argv, i + 1, "events help", err, errlen);
	i++;
	if (i < argc && !strcmp(argv[i], "after")) {
		if (i + 1 >= argc)
			return fail(err, errlen,
				    "\"after\" needs a sequence number");
		if (parse_u64(argv[i + 1], &cmd->history_after))
			return fail(err, errlen,
				    "invalid sequence number \"%s\" (expected 0..18446744073709551615)",
				    argv[i + 1]);
		i += 2;
	}
	return no_more(argc, argv, i, "events history", err, errlen);
}

/* health [ window D ] [ late-warn D ] [ late-crit D ] [ help ] */
static int parse_health(int argc, char *const argv[], int i,
			struct cli_command *cmd, char *err, size_t errlen)
{
	static const char *const names[] = {
		"window", "late-warn", "late-crit", "help",
	};
	unsigned int given = 0;
	uint32_t us;
	size_t index;

	cmd->health_window_us = 1000000;
	while (i < argc) {
		switch (cli_match(argv[i], names, ARRAY_SIZE(names), &index)) {
		case CLI_MATCH_OK:
			break;
		case CLI_MATCH_AMBIGUOUS:
			return fail_ambiguous(err, errlen, "argument", argv[i],
					      names, ARRAY_SIZE(names));
		default:
			return fail_unknown(err, errlen, "argument", argv[i],
					    names, ARRAY_SIZE(names),
					    CLI_NAME " health help");
		}
		if (index == 3) {
			want_help(cmd, CLI_OBJ_HEALTH);
			return no_more(argc, argv, i + 1, "health help", err,
				       errlen);
		}
		if (given & (1u << index))
			return fail(err, errlen, "\"%s\" given twice",
				    names[index]);
		given |= 1u << index;
		if (i + 1 >= argc)
			return fail(err, errlen, "\"%s\" needs a duration",
				    names[index]);
		/* "window 0": the counters since the configuration's start. */
		if (index == 0 && !strcmp(argv[i + 1], "0"))
			us = 0;
		else if (parse_duration(names[index], argv[i + 1], &us, err,
					errlen))
			return -EINVAL;
		if (index == 0 && us > 60000000)
			return fail(err, errlen,
				    "window \"%s\" is too long (at most 60s)",
				    argv[i + 1]);
		if (index != 0 && !us)
			return fail(err, errlen, "%s must be above 0",
				    names[index]);
		if (index == 0)
			cmd->health_window_us = us;
		else if (index == 1)
			cmd->health.late_warn_us = us;
		else
			cmd->health.late_crit_us = us;
		i += 2;
	}
	if (cmd->health.late_warn_us && cmd->health.late_crit_us &&
	    cmd->health.late_warn_us > cmd->health.late_crit_us)
		return fail(err, errlen,
			    "late-warn must not be above late-crit");
	return 0;
}

static int parse_help(int argc, char *const argv[], int i,
		      struct cli_command *cmd, char *err, size_t errlen)
{
	enum cli_object object = CLI_OBJ_NONE;
	int ret;

	if (i < argc) {
		ret = parse_object(argv[i], &object, err, errlen);
		if (ret)
			return ret;
		if (object == CLI_OBJ_HELP)
			object = CLI_OBJ_NONE;
		i++;
	}
	want_help(cmd, object);
	return no_more(argc, argv, i, "help", err, errlen);
}

/**
 * cli_parse() - parse a command line
 * @argc: as given to main()
 * @argv: as given to main(); the parsed command points into it
 * @cmd: filled in; release with cli_command_free() whatever the result
 * @err: receives the problem, without the program name
 * @errlen: size of @err
 *
 * Return: 0, or -EINVAL with @err set (exit status CLI_EXIT_USAGE).
 */
int cli_parse(int argc, char *const argv[], struct cli_command *cmd,
	      char *err, size_t errlen)
{
	int i = 1, ret;

	memset(cmd, 0, sizeof(*cmd));
	if (errlen)
		err[0] = '\0';
	ret = parse_options(argc, argv, &i, &cmd->opt, err, errlen);
	if (ret)
		return ret;
	if (cmd->opt.help) {
		want_help(cmd, CLI_OBJ_NONE);
		return 0;
	}
	if (cmd->opt.version)
		return 0;
	if (i >= argc)
		return fail(err, errlen, "missing object; try \"%s help\"",
			    CLI_NAME);

	ret = parse_object(argv[i], &cmd->object, err, errlen);
	if (ret)
		return ret;
	i++;
	switch (cmd->object) {
	case CLI_OBJ_HELP:
		return parse_help(argc, argv, i, cmd, err, errlen);
	case CLI_OBJ_INFO:
		if (i < argc && !strcmp(argv[i], "help")) {
			want_help(cmd, CLI_OBJ_INFO);
			i++;
		}
		return no_more(argc, argv, i, "info", err, errlen);
	case CLI_OBJ_CLUSTER:
		return parse_cluster(argc, argv, i, cmd, err, errlen);
	case CLI_OBJ_NODE:
		return parse_node(argc, argv, i, cmd, err, errlen);
	case CLI_OBJ_MONITOR:
		return parse_monitor(argc, argv, i, cmd, err, errlen);
	case CLI_OBJ_EVENTS:
		return parse_events(argc, argv, i, cmd, err, errlen);
	case CLI_OBJ_STATS:
		return parse_show_only(argc, argv, i, cmd, CLI_OBJ_STATS, "stats",
				       err, errlen);
	case CLI_OBJ_BCAST:
		return parse_show_only(argc, argv, i, cmd, CLI_OBJ_BCAST, "bcast",
				       err, errlen);
	case CLI_OBJ_PROC:
		return parse_proc(argc, argv, i, cmd, err, errlen);
	case CLI_OBJ_HEALTH:
		return parse_health(argc, argv, i, cmd, err, errlen);
	default:
		return fail(err, errlen, "internal error: object %d",
			    cmd->object);
	}
}

void cli_command_free(struct cli_command *cmd)
{
	free(cmd->set.nodes);
	explicit_bzero(cmd->set.key, sizeof(cmd->set.key));
	cmd->set.nodes = NULL;
	cmd->set.node_count = cmd->set.node_cap = 0;
}
