// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cluster configuration file: a line-oriented "keyword values" format.
 * See ftnl_config_parse_file() in <ftnl/ftnl.h> and Documentation/libftnl.rst.
 *
 *	# ftnl cluster configuration
 *	cluster 42
 *	self 3			(or: self auto; one file for every node)
 *	heartbeat 100ms
 *	timeout 300ms
 *	key 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff
 *	(or: keyfile PATH, the same key in a file; or: pairkeys PATH, this
 *	 node's pair keys, "ID HEX" per line, from ftnl-cli pairkeys)
 *	node 1 10.0.0.1 7400
 *	node 2 fd00::2 7400 name cn002	(the name is optional)
 *	bcast bmg		(optional; hypercube is the module's default)
 *	gossip-faults 2		(optional, bcast fcg only: FCG's f)
 *	gossip-time 5ms		(optional, bcast fcg only: FCG's T, or auto)
 *	rejoin manual		(optional; auto, the module's default, readmits
 *				 a node that comes back without an admin)
 *	rejoin-limit 3 600	(optional: at most 3 rejoins of a node within
 *				 600 s; more and it is held out)
 *	fence kill		(optional: SIGKILL an expelled node's registered
 *				processes; none, the module's default, only
 *				tells them)
 *	quorum off		(optional; on by default for 3 nodes or more)
 *	timeout-adaptive 150ms 6 (optional: each observer's timeout adapts
 *				 to its emitter between 150 ms and the timeout,
 *				 for 10^-6 false suspicions per heartbeat;
 *				 the rate is optional, 6 by default)
 *	epoch 7			(optional: the configuration's epoch; raise it
 *				 with every change of key, h, d or nodes)
 *	update-grace 300	(optional: seconds the previous key is accepted
 *				 after such a change, 300 by default)
 *
 * Every error names the file and line. Checks that need the whole file
 * (timeout vs heartbeat, duplicate nodes) run at the end and point at the
 * line that breaks the rule.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* Larger than any real configuration (65,536 nodes take about 2 MiB). */
#define FTNL_CONFIG_MAX_SIZE	(64u << 20)

/* Most words a line may have: "node ID ADDRESS PORT name NAME domain D". */
#define FTNL_CONFIG_MAX_WORDS	8

enum ftnl_keyword {
	FTNL_KW_CLUSTER,
	FTNL_KW_SELF,
	FTNL_KW_HEARTBEAT,
	FTNL_KW_TIMEOUT,
	FTNL_KW_KEY,		/* key, keyfile and pairkeys share it */
	FTNL_KW_NODE,
	FTNL_KW_BCAST,
	FTNL_KW_GOSSIP_FAULTS,
	FTNL_KW_GOSSIP_TIME,
	FTNL_KW_REJOIN,
	FTNL_KW_FLAP_LIMIT,
	FTNL_KW_FENCE,
	FTNL_KW_QUORUM,
	FTNL_KW_TIMEOUT_ADAPTIVE,
	FTNL_KW_EPOCH,
	FTNL_KW_UPDATE_GRACE,
	FTNL_KW_COUNT,
};

struct ftnl_config_parser {
	const char *name;		/* file name for messages */
	const char *dir;		/* base of relative keyfiles, NULL: cwd */
	unsigned int flags;
	struct ftnl_cluster_config *config;
	size_t cap;			/* allocated entries of nodes */
	unsigned int *node_lines;	/* line of each node, for messages */
	unsigned int line;		/* current line, 1-based */
	unsigned int seen[FTNL_KW_COUNT];	/* line a keyword was on */
	struct ftnl_pair_keys pair;	/* pairkeys, given to the nodes at the end */
	char *pair_path;		/* its file, for messages */
	char *err;
	size_t errlen;
};

static int __attribute__((format(printf, 3, 4)))
ftnl_parse_error(struct ftnl_config_parser *p, unsigned int line,
		 const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ftnl_format_err(p->err, p->errlen, "%s:%u: %s", p->name, line, msg);
	return -EINVAL;
}

static bool ftnl_raw(const struct ftnl_config_parser *p)
{
	return p->flags & FTNL_CONFIG_PARSE_RAW;
}

/* Record a scalar keyword; a second occurrence is an error. */
static int ftnl_once(struct ftnl_config_parser *p, enum ftnl_keyword kw,
		     const char *word)
{
	if (p->seen[kw])
		return ftnl_parse_error(p, p->line, "%s already given on line %u",
					word, p->seen[kw]);
	p->seen[kw] = p->line;
	return 0;
}

static int ftnl_word_u32(struct ftnl_config_parser *p, const char *what,
			 const char *word, uint32_t *value)
{
	int err = ftnl_parse_u32(word, value);

	if (err == -ERANGE)
		return ftnl_parse_error(p, p->line,
					"%s \"%s\" is out of range (0..4294967295)",
					what, word);
	if (err)
		return ftnl_parse_error(p, p->line,
					"invalid %s \"%s\" (expected a decimal number)",
					what, word);
	return 0;
}

static int ftnl_word_duration(struct ftnl_config_parser *p, const char *what,
			      const char *word, uint32_t *us)
{
	int err = ftnl_parse_duration_us(word, us);

	if (err == -ERANGE)
		return ftnl_parse_error(p, p->line, "%s \"%s\" is too long",
					what, word);
	if (err)
		return ftnl_parse_error(p, p->line,
					"invalid %s \"%s\" (expected a duration such as 100ms; units us, ms, s)",
					what, word);
	return 0;
}

static int ftnl_kw_cluster(struct ftnl_config_parser *p, char **words)
{
	struct ftnl_cluster_config *c = p->config;
	const char *why;
	int err;

	err = ftnl_word_u32(p, "cluster id", words[1], &c->cluster_id);
	if (err)
		return err;
	why = ftnl_raw(p) ? NULL : ftnl_check_cluster_id(c->cluster_id);
	if (why)
		return ftnl_parse_error(p, p->line, "%s", why);
	c->unset &= ~FTNL_CONFIG_CLUSTER_ID;
	return 0;
}

static int ftnl_kw_self(struct ftnl_config_parser *p, char **words)
{
	int err;

	/* Resolved against this host's addresses once the table is known. */
	if (!strcmp(words[1], "auto")) {
		p->config->self_auto = true;
		return 0;
	}
	err = ftnl_word_u32(p, "self id", words[1], &p->config->self_id);

	if (!err)
		p->config->unset &= ~FTNL_CONFIG_SELF_ID;
	return err;
}

static int ftnl_kw_heartbeat(struct ftnl_config_parser *p, char **words)
{
	struct ftnl_cluster_config *c = p->config;
	const char *why;
	int err;

	err = ftnl_word_duration(p, "heartbeat", words[1], &c->hb_period_us);
	if (err)
		return err;
	why = ftnl_raw(p) ? NULL : ftnl_check_hb_period(c->hb_period_us);
	if (why)
		return ftnl_parse_error(p, p->line, "heartbeat %s: %s",
					words[1], why);
	c->unset &= ~FTNL_CONFIG_HB_PERIOD;
	return 0;
}

static int ftnl_kw_timeout(struct ftnl_config_parser *p, char **words)
{
	struct ftnl_cluster_config *c = p->config;
	const char *why;
	int err;

	err = ftnl_word_duration(p, "timeout", words[1], &c->timeout_us);
	if (err)
		return err;
	why = ftnl_raw(p) ? NULL : ftnl_check_timeout(c->timeout_us);
	if (why)
		return ftnl_parse_error(p, p->line, "timeout %s: %s",
					words[1], why);
	c->unset &= ~FTNL_CONFIG_TIMEOUT;
	return 0;
}

static bool ftnl_no_keys(const struct ftnl_config_parser *p)
{
	return p->flags & FTNL_CONFIG_PARSE_NO_KEYS;
}

static int ftnl_kw_key(struct ftnl_config_parser *p, char **words)
{
	if (ftnl_parse_key(words[1], p->config->key))
		return ftnl_parse_error(p, p->line,
					"key must be %d hex digits (%d bytes)",
					2 * FTNL_KEY_LEN, FTNL_KEY_LEN);
	if (ftnl_no_keys(p)) {
		explicit_bzero(p->config->key, FTNL_KEY_LEN);
		return 0;
	}
	p->config->unset &= ~FTNL_CONFIG_KEY;
	return 0;
}

/* @path as named in the file: relative to the file's directory. */
static int ftnl_config_path(struct ftnl_config_parser *p, const char *path,
			    char **out)
{
	if (path[0] != '/' && p->dir) {
		if (asprintf(out, "%s/%s", p->dir, path) < 0)
			return -ENOMEM;
		return 0;
	}
	*out = strdup(path);
	return *out ? 0 : -ENOMEM;
}

static int ftnl_kw_keyfile(struct ftnl_config_parser *p, char **words)
{
	char why[256], *path;
	int err;

	if (ftnl_no_keys(p))
		return 0;
	err = ftnl_config_path(p, words[1], &path);
	if (err)
		return err;
	err = ftnl_read_key_file(path, p->config->key, why, sizeof(why));
	free(path);
	if (err) {
		ftnl_parse_error(p, p->line, "%s", why);
		return err;
	}
	p->config->unset &= ~FTNL_CONFIG_KEY;
	return 0;
}

/* The keys go to their nodes once the table is complete (ftnl_give_pair_keys()). */
static int ftnl_kw_pairkeys(struct ftnl_config_parser *p, char **words)
{
	char why[384];
	int err;

	if (ftnl_no_keys(p))
		return 0;
	err = ftnl_config_path(p, words[1], &p->pair_path);
	if (err)
		return err;
	err = ftnl_read_pair_keys(p->pair_path, &p->pair, why, sizeof(why));
	if (err && err != -ENOMEM) {
		ftnl_parse_error(p, p->line, "%s", why);
		return err;
	}
	return err;
}

/*
 * Each pair key to its node: a key for a node the table lacks is a
 * mistake (a file for another cluster, or a stale one).
 */
static int ftnl_give_pair_keys(struct ftnl_config_parser *p)
{
	size_t missing;
	int err;

	if (!p->pair.count)
		return 0;
	err = ftnl_pair_keys_assign(p->config, &p->pair, &missing);
	if (err == -ENOENT)
		return ftnl_parse_error(p, p->seen[FTNL_KW_KEY],
					"%s:%u: node %u is not in the node table",
					p->pair_path,
					p->pair.entries[missing].line,
					p->pair.entries[missing].id);
	return err;
}

static int ftnl_kw_bcast(struct ftnl_config_parser *p, char **words)
{
	char names[128];

	if (ftnl_parse_bcast_algo(words[1], &p->config->bcast_algo))
		return ftnl_parse_error(p, p->line,
					"unknown broadcast algorithm \"%.64s\" (expected %s)",
					words[1],
					ftnl_bcast_algo_list(names, sizeof(names)));
	p->config->has_bcast_algo = true;
	return 0;
}

/* FCG's f: a u8 on the wire, FTNL_FCG_F_MIN..FTNL_FCG_F_MAX unless raw. */
static int ftnl_kw_gossip_faults(struct ftnl_config_parser *p, char **words)
{
	const char *why;
	uint32_t f;
	int err;

	err = ftnl_word_u32(p, "gossip-faults", words[1], &f);
	if (err)
		return err;
	why = f > UINT8_MAX || !ftnl_raw(p) ? ftnl_check_fcg_f(f) : NULL;
	if (why)
		return ftnl_parse_error(p, p->line, "gossip-faults %s: %s",
					words[1], why);
	p->config->fcg_f = (uint8_t)f;
	p->config->has_fcg_f = true;
	return 0;
}

/* FCG's T: a duration, or "auto" (0: the module's choice from n). */
static int ftnl_kw_gossip_time(struct ftnl_config_parser *p, char **words)
{
	const char *why;
	uint32_t us = 0;
	int err;

	if (strcmp(words[1], "auto")) {
		err = ftnl_word_duration(p, "gossip-time", words[1], &us);
		if (err)
			return err;
	}
	why = ftnl_raw(p) ? NULL : ftnl_check_gossip_t(us);
	if (why)
		return ftnl_parse_error(p, p->line, "gossip-time %s: %s",
					words[1], why);
	p->config->gossip_t_us = us;
	p->config->has_gossip_t = true;
	return 0;
}

/* The rejoin policy: auto or manual. */
static int ftnl_kw_rejoin(struct ftnl_config_parser *p, char **words)
{
	if (!strcmp(words[1], "auto"))
		p->config->rejoin = FTNL_REJOIN_AUTO;
	else if (!strcmp(words[1], "manual"))
		p->config->rejoin = FTNL_REJOIN_MANUAL;
	else
		return ftnl_parse_error(p, p->line,
					"unknown rejoin policy \"%.64s\" (expected auto or manual)",
					words[1]);
	p->config->has_rejoin = true;
	return 0;
}

/* The flap limit: K rejoins of one node within W seconds. */
static int ftnl_kw_flap_limit(struct ftnl_config_parser *p, char **words)
{
	uint32_t k, w;
	const char *why;
	int err;

	err = ftnl_word_u32(p, "rejoin-limit", words[1], &k);
	if (!err)
		err = ftnl_word_u32(p, "rejoin-limit window", words[2], &w);
	if (err)
		return err;
	why = ftnl_check_flap_limit(k, w);
	if (why)
		return ftnl_parse_error(p, p->line, "rejoin-limit %s %s: %s",
					words[1], words[2], why);
	p->config->flap_limit = k;
	p->config->has_flap_limit = true;
	p->config->flap_window_s = w;
	p->config->has_flap_window = true;
	return 0;
}

/*
 * Adaptive timeouts: "timeout-adaptive MIN [NINES]", between MIN and the
 * timeout, for a false-suspicion rate of 10^-NINES per heartbeat. How MIN
 * relates to h and d is checked with the whole configuration.
 */
static int ftnl_kw_timeout_adaptive(struct ftnl_config_parser *p,
				    char **words)
{
	struct ftnl_cluster_config *c = p->config;
	uint32_t nines = FTNL_TIMEOUT_NINES_DEFAULT;
	int err;

	err = ftnl_word_duration(p, "timeout-adaptive", words[1],
				 &c->timeout_min_us);
	if (!err && words[2])
		err = ftnl_word_u32(p, "timeout-adaptive nines", words[2],
				    &nines);
	if (err)
		return err;
	if (nines < FTNL_TIMEOUT_NINES_MIN || nines > FTNL_TIMEOUT_NINES_MAX)
		return ftnl_parse_error(p, p->line,
					"timeout-adaptive %s %s: the target rate must be 10^-%u to 10^-%u",
					words[1], words[2], FTNL_TIMEOUT_NINES_MIN,
					FTNL_TIMEOUT_NINES_MAX);
	c->has_timeout_min = true;
	c->has_timeout_nines = true;
	c->timeout_nines = (uint8_t)nines;
	return 0;
}

/* The fence policy: none or kill. */
static int ftnl_kw_fence(struct ftnl_config_parser *p, char **words)
{
	if (ftnl_parse_fence(words[1], &p->config->fence))
		return ftnl_parse_error(p, p->line,
					"unknown fence policy \"%.64s\" (expected none or kill)",
					words[1]);
	p->config->has_fence = true;
	return 0;
}

/* The quorum policy: on or off (absent: the module's default). */
static int ftnl_kw_quorum(struct ftnl_config_parser *p, char **words)
{
	if (!strcmp(words[1], "on"))
		p->config->quorum = FTNL_QUORUM_ON;
	else if (!strcmp(words[1], "off"))
		p->config->quorum = FTNL_QUORUM_OFF;
	else
		return ftnl_parse_error(p, p->line,
					"quorum \"%.64s\": expected on or off",
					words[1]);
	p->config->has_quorum = true;
	return 0;
}

/* The configuration's epoch (a rolling update raises it). */
static int ftnl_kw_epoch(struct ftnl_config_parser *p, char **words)
{
	int err = ftnl_word_u32(p, "epoch", words[1], &p->config->epoch);

	if (!err)
		p->config->has_epoch = true;
	return err;
}

static int ftnl_kw_update_grace(struct ftnl_config_parser *p, char **words)
{
	uint32_t s;
	int err = ftnl_word_u32(p, "update-grace", words[1], &s);

	if (err)
		return err;
	if (!ftnl_raw(p) &&
	    (s < FTNL_UPDATE_GRACE_MIN_S || s > FTNL_UPDATE_GRACE_MAX_S))
		return ftnl_parse_error(p, p->line,
					"update-grace %s: expected %u to %u seconds",
					words[1], FTNL_UPDATE_GRACE_MIN_S,
					FTNL_UPDATE_GRACE_MAX_S);
	p->config->update_grace_s = s;
	p->config->has_update_grace = true;
	return 0;
}

static int ftnl_config_add_node(struct ftnl_config_parser *p,
				const struct ftnl_node *node)
{
	struct ftnl_cluster_config *c = p->config;

	if (c->node_count == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		struct ftnl_node *nodes;
		unsigned int *lines;

		nodes = realloc(c->nodes, cap * sizeof(*nodes));
		if (!nodes)
			return -ENOMEM;
		c->nodes = nodes;
		lines = realloc(p->node_lines, cap * sizeof(*lines));
		if (!lines)
			return -ENOMEM;
		p->node_lines = lines;
		p->cap = cap;
	}
	p->node_lines[c->node_count] = p->line;
	c->nodes[c->node_count++] = *node;
	return 0;
}

#define FTNL_NODE_USAGE "node ID ADDRESS PORT [name NAME] [domain DOMAIN]"

static int ftnl_kw_node(struct ftnl_config_parser *p, char **words)
{
	struct ftnl_node node = { .state = FTNL_NODE_STATE_ALIVE };
	const char *why;
	int err, i;

	err = ftnl_word_u32(p, "node id", words[1], &node.id);
	if (err)
		return err;
	if (ftnl_parse_addr(words[2], &node.family, &node.addr))
		return ftnl_parse_error(p, p->line,
					"invalid address \"%s\" (expected an IPv4 or IPv6 address)",
					words[2]);
	err = ftnl_parse_port(words[3], &node.port);
	if (err)
		return ftnl_parse_error(p, p->line,
					"invalid port \"%s\" (expected 1..65535)",
					words[3]);
	/* "name NAME" and "domain DOMAIN", each at most once, any order. */
	for (i = 4; words[i]; i += 2) {
		bool is_name = !strcmp(words[i], "name");
		char *value = is_name ? node.name : node.domain;

		if (!is_name && strcmp(words[i], "domain"))
			return ftnl_parse_error(p, p->line,
						"unexpected \"%.64s\" after the port (expected \"name NAME\" or \"domain DOMAIN\")",
						words[i]);
		if (!words[i + 1])
			return ftnl_parse_error(p, p->line,
						"missing value: expected \"" FTNL_NODE_USAGE "\"");
		if (value[0])
			return ftnl_parse_error(p, p->line,
						"node %u: %s given twice",
						node.id, words[i]);
		why = is_name ? ftnl_check_node_name(words[i + 1]) :
			ftnl_check_node_domain(words[i + 1]);
		if (why)
			return ftnl_parse_error(p, p->line,
						"node %u %s \"%.64s\": %s",
						node.id, words[i], words[i + 1],
						why);
		strcpy(value, words[i + 1]);
	}
	if (!ftnl_raw(p)) {
		why = ftnl_check_node(&node);
		if (why)
			return ftnl_parse_error(p, p->line, "node %u: %s",
						node.id, why);
		if (p->config->node_count >= FTNL_MAX_NODES)
			return ftnl_parse_error(p, p->line,
						"too many nodes (at most %d)",
						FTNL_MAX_NODES);
	}
	return ftnl_config_add_node(p, &node);
}

static const struct ftnl_keyword_def {
	const char *name;
	enum ftnl_keyword kw;
	int values;		/* words after the keyword, at most */
	const char *usage;
	int (*handle)(struct ftnl_config_parser *p, char **words);
	int optional;		/* of @values, how many may be left out */
} ftnl_keywords[] = {
	{ "cluster", FTNL_KW_CLUSTER, 1, "cluster ID", ftnl_kw_cluster, 0 },
	{ "self", FTNL_KW_SELF, 1, "self ID|auto", ftnl_kw_self, 0 },
	{ "heartbeat", FTNL_KW_HEARTBEAT, 1, "heartbeat DURATION",
	  ftnl_kw_heartbeat, 0 },
	{ "timeout", FTNL_KW_TIMEOUT, 1, "timeout DURATION", ftnl_kw_timeout, 0 },
	{ "key", FTNL_KW_KEY, 1, "key HEX", ftnl_kw_key, 0 },
	{ "keyfile", FTNL_KW_KEY, 1, "keyfile PATH", ftnl_kw_keyfile, 0 },
	{ "pairkeys", FTNL_KW_KEY, 1, "pairkeys PATH", ftnl_kw_pairkeys, 0 },
	{ "node", FTNL_KW_NODE, 7, FTNL_NODE_USAGE, ftnl_kw_node, 4 },
	{ "bcast", FTNL_KW_BCAST, 1, "bcast ALGORITHM", ftnl_kw_bcast, 0 },
	{ "gossip-faults", FTNL_KW_GOSSIP_FAULTS, 1, "gossip-faults N",
	  ftnl_kw_gossip_faults, 0 },
	{ "gossip-time", FTNL_KW_GOSSIP_TIME, 1, "gossip-time DURATION|auto",
	  ftnl_kw_gossip_time, 0 },
	{ "rejoin", FTNL_KW_REJOIN, 1, "rejoin auto|manual", ftnl_kw_rejoin, 0 },
	{ "rejoin-limit", FTNL_KW_FLAP_LIMIT, 2, "rejoin-limit K SECONDS",
	  ftnl_kw_flap_limit, 0 },
	{ "fence", FTNL_KW_FENCE, 1, "fence none|kill", ftnl_kw_fence, 0 },
	{ "quorum", FTNL_KW_QUORUM, 1, "quorum on|off", ftnl_kw_quorum, 0 },
	{ "timeout-adaptive", FTNL_KW_TIMEOUT_ADAPTIVE, 2,
	  "timeout-adaptive MIN [NINES]", ftnl_kw_timeout_adaptive, 1 },
	{ "epoch", FTNL_KW_EPOCH, 1, "epoch N", ftnl_kw_epoch, 0 },
	{ "update-grace", FTNL_KW_UPDATE_GRACE, 1, "update-grace SECONDS",
	  ftnl_kw_update_grace, 0 },
};

static int ftnl_parse_line(struct ftnl_config_parser *p, char *line)
{
	char *words[FTNL_CONFIG_MAX_WORDS + 1] = { NULL };
	const struct ftnl_keyword_def *def = NULL;
	unsigned int i;
	int n, err;

	n = ftnl_split_words(line, words, FTNL_CONFIG_MAX_WORDS);
	if (!n)
		return 0;
	/* Handlers see NULL after the last word (optional values). */
	if (n <= FTNL_CONFIG_MAX_WORDS)
		words[n] = NULL;
	for (i = 0; i < FTNL_ARRAY_SIZE(ftnl_keywords); i++)
		if (!strcmp(words[0], ftnl_keywords[i].name))
			def = &ftnl_keywords[i];
	if (!def)
		return ftnl_parse_error(p, p->line,
					"unknown keyword \"%.64s\" (expected cluster, self, heartbeat, timeout, key, keyfile, pairkeys, node, bcast, gossip-faults, gossip-time, rejoin, rejoin-limit, fence, quorum, timeout-adaptive, epoch or update-grace)",
					words[0]);
	if (n - 1 > def->values || n - 1 < def->values - def->optional)
		return ftnl_parse_error(p, p->line, "%s: expected \"%s\"",
					n - 1 < def->values ? "missing value" :
					"too many values", def->usage);
	if (def->kw != FTNL_KW_NODE) {
		err = ftnl_once(p, def->kw, def->kw == FTNL_KW_KEY ?
				"key (or keyfile, pairkeys)" : def->name);
		if (err)
			return err;
	}
	return def->handle(p, words);
}

/* Checks that need the whole file. */
static int ftnl_parse_finish(struct ftnl_config_parser *p)
{
	struct ftnl_cluster_config *c = p->config;
	char hb[16], to[16], addr[FTNL_ADDR_STRLEN];
	size_t first, second;
	int dup;

	dup = ftnl_give_pair_keys(p);
	if (dup || ftnl_raw(p))
		return dup;
	if (!(c->unset & (FTNL_CONFIG_HB_PERIOD | FTNL_CONFIG_TIMEOUT)) &&
	    c->timeout_us <= c->hb_period_us)
		return ftnl_parse_error(p, p->seen[FTNL_KW_TIMEOUT],
					"timeout %s must be greater than the heartbeat period %s (line %u)",
					ftnl_format_duration(c->timeout_us, to, sizeof(to)),
					ftnl_format_duration(c->hb_period_us, hb, sizeof(hb)),
					p->seen[FTNL_KW_HEARTBEAT]);

	/* FCG's parameters with another algorithm would do nothing. */
	if (c->has_bcast_algo && c->bcast_algo != FTNL_BCAST_FCG &&
	    (c->has_fcg_f || c->has_gossip_t))
		return ftnl_parse_error(p, c->has_fcg_f ?
					p->seen[FTNL_KW_GOSSIP_FAULTS] :
					p->seen[FTNL_KW_GOSSIP_TIME],
					"%s applies only to bcast fcg (bcast %s on line %u)",
					c->has_fcg_f ? "gossip-faults" : "gossip-time",
					ftnl_bcast_algo_name(c->bcast_algo),
					p->seen[FTNL_KW_BCAST]);

	dup = ftnl_find_duplicate(c->nodes, c->node_count, FTNL_DUP_ID,
				  &first, &second);
	if (dup < 0)
		return dup;
	if (dup)
		return ftnl_parse_error(p, p->node_lines[second],
					"duplicate node id %u (first on line %u)",
					c->nodes[second].id, p->node_lines[first]);
	dup = ftnl_find_duplicate(c->nodes, c->node_count, FTNL_DUP_ENDPOINT,
				  &first, &second);
	if (dup < 0)
		return dup;
	if (dup)
		return ftnl_parse_error(p, p->node_lines[second],
					"duplicate node address and port %s %u (first on line %u)",
					ftnl_format_addr(c->nodes[second].family,
							 &c->nodes[second].addr,
							 addr, sizeof(addr)),
					c->nodes[second].port,
					p->node_lines[first]);
	dup = ftnl_find_duplicate(c->nodes, c->node_count, FTNL_DUP_NAME,
				  &first, &second);
	if (dup < 0)
		return dup;
	if (dup)
		return ftnl_parse_error(p, p->node_lines[second],
					"duplicate node name %s (first on line %u)",
					c->nodes[second].name, p->node_lines[first]);
	return 0;
}

/* Parse @len bytes of @text (modified in place). */
static int ftnl_parse_text(struct ftnl_config_parser *p, char *text, size_t len)
{
	char *line = text, *end = text + len;
	int err = 0;

	memset(p->config, 0, sizeof(*p->config));
	p->config->unset = FTNL_CONFIG_ALL;

	while (line < end && !err) {
		char *nl = memchr(line, '\n', (size_t)(end - line));

		p->line++;
		if (nl)
			*nl = '\0';
		else
			end[0] = '\0';	/* the caller left room for it */
		if (strlen(line) != (size_t)((nl ? nl : end) - line))
			err = ftnl_parse_error(p, p->line, "NUL byte in text");
		else
			err = ftnl_parse_line(p, line);
		line = nl ? nl + 1 : end;
	}
	if (!err)
		err = ftnl_parse_finish(p);
	free(p->node_lines);
	ftnl_pair_keys_free(&p->pair);
	free(p->pair_path);
	if (err == -ENOMEM)
		ftnl_format_err(p->err, p->errlen, "%s: out of memory", p->name);
	if (err)
		ftnl_config_free(p->config);
	return err;
}

FTNL_EXPORT int ftnl_config_parse_string(const char *text, const char *name,
					 unsigned int flags,
					 struct ftnl_cluster_config *config,
					 char *err, size_t errlen)
{
	struct ftnl_config_parser p = {
		.name = name ? name : "<string>",
		.flags = flags,
		.config = config,
		.err = err,
		.errlen = errlen,
	};
	size_t len = strlen(text);
	char *copy = malloc(len + 1);
	int ret;

	if (!copy) {
		ftnl_format_err(err, errlen, "%s: out of memory", p.name);
		return -ENOMEM;
	}
	memcpy(copy, text, len + 1);
	ret = ftnl_parse_text(&p, copy, len);
	explicit_bzero(copy, len);	/* may hold the key */
	free(copy);
	return ret;
}

int ftnl_read_all(int fd, size_t max, char **out, size_t *out_len)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap + 1), *bigger;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (len == cap) {
			if (cap >= max) {
				free(buf);
				return -EFBIG;
			}
			cap *= 2;
			bigger = realloc(buf, cap + 1);
			if (!bigger) {
				free(buf);
				return -ENOMEM;
			}
			buf = bigger;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno ? -errno : -EIO;

			free(buf);
			return err;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	*out = buf;
	*out_len = len;
	return 0;
}

FTNL_EXPORT int ftnl_config_parse_file(const char *path, unsigned int flags,
				       struct ftnl_cluster_config *config,
				       char *err, size_t errlen)
{
	struct ftnl_config_parser p = {
		.name = path,
		.flags = flags,
		.config = config,
		.err = err,
		.errlen = errlen,
	};
	char *text = NULL, *dir = NULL, *slash;
	size_t len = 0;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		ftnl_format_err(err, errlen, "%s: %s", path, strerror(errno));
		return ret;
	}
	ret = ftnl_read_all(fd, FTNL_CONFIG_MAX_SIZE, &text, &len);
	close(fd);
	if (ret) {
		ftnl_format_err(err, errlen, "%s: %s", path,
				ret == -EFBIG ? "file too large" : strerror(-ret));
		return ret;
	}

	/* Keyfiles named relative to the configuration live beside it. */
	slash = strrchr(path, '/');
	if (slash) {
		dir = strndup(path, slash == path ? 1 : (size_t)(slash - path));
		if (!dir) {
			free(text);
			ftnl_format_err(err, errlen, "%s: out of memory", path);
			return -ENOMEM;
		}
		p.dir = dir;
	}
	ret = ftnl_parse_text(&p, text, len);
	explicit_bzero(text, len);	/* may hold the key */
	free(text);
	free(dir);
	return ret;
}

FTNL_EXPORT void ftnl_config_free(struct ftnl_cluster_config *config)
{
	if (config->nodes)	/* they hold the pair keys */
		explicit_bzero(config->nodes,
			       config->node_count * sizeof(*config->nodes));
	free(config->nodes);
	explicit_bzero(config, sizeof(*config));
	config->unset = FTNL_CONFIG_ALL;
}
