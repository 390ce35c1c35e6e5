// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The bootstrap spec of a process group: the peers file and the
 * environment a launcher sets. See ftnl_group_spec_parse_file() in
 * <ftnl/group.h> and Documentation/libftnl-group-internals.rst.
 *
 *	# job 7, four ranks on two hosts and a spare
 *	job 7
 *	key 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
 *	rank 0 10.0.0.1 7000 host a
 *	rank 1 10.0.0.1 7001 host a node 1
 *	rank 2 10.0.0.2 7000
 *	rank 3 fd00::3 7000 node 3
 *	rank 4 10.0.0.2 7001 spare	# outside view 0 until it joins
 *
 * Every error names the file and line. Whole-file checks (missing ranks,
 * duplicate endpoints) run at the end and point at the offending line.
 * The caller's spec is only written on success.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include <ftnl/group.h>

/* Far larger than any real peers file (65,536 ranks take about 4 MiB). */
#define GRP_SPEC_MAX_FILE	(64u << 20)

/* Most words a line may have: "rank R ADDR PORT host NAME node ID". */
#define GRP_SPEC_MAX_WORDS	9

#define GRP_SPEC_MAX_HOST_NAME	255

/* One rank line, kept until the whole file is read. */
struct spec_entry {
	struct ftnl_group_peer peer;
	unsigned int line;	/* 0: rank not seen */
	char *host_name;	/* NULL: the host is the address */
};

struct spec_parser {
	const char *name;	/* for messages */
	struct spec_entry *entries;	/* indexed by rank */
	uint32_t cap;		/* allocated entries */
	uint32_t count;		/* rank lines read */
	uint32_t max_rank;	/* highest rank seen, valid if count */
	unsigned int max_rank_line;
	uint64_t job;
	unsigned int job_line;	/* 0: no job line yet */
	uint8_t key[FTNL_KEY_LEN];
	unsigned int key_line;	/* 0: no key line */
	uint32_t owner_uid;
	unsigned int owner_line;	/* 0: no owner line */
	unsigned int line;	/* current, 1-based */
	char *err;
	size_t errlen;
};

static int __attribute__((format(printf, 3, 4)))
spec_error(struct spec_parser *p, unsigned int line, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ftnl_format_err(p->err, p->errlen, "%s:%u: %s", p->name, line, msg);
	return -EINVAL;
}

/* Digits only, no sign, no blanks: "007" is 7, as ftnl_parse_u32() does. */
static int spec_parse_u64(const char *text, uint64_t *value)
{
	uint64_t v = 0;

	if (*text < '0' || *text > '9')
		return -EINVAL;
	for (; *text >= '0' && *text <= '9'; text++) {
		unsigned int digit = (unsigned int)(*text - '0');

		if (v > (UINT64_MAX - digit) / 10)
			return -ERANGE;
		v = v * 10 + digit;
	}
	if (*text)
		return -EINVAL;
	*value = v;
	return 0;
}

static int spec_kw_job(struct spec_parser *p, char **words, int n)
{
	int err;

	if (n != 2)
		return spec_error(p, p->line, "%s: expected \"job ID\"",
				  n < 2 ? "missing value" : "too many values");
	if (p->job_line)
		return spec_error(p, p->line, "job already given on line %u",
				  p->job_line);
	err = spec_parse_u64(words[1], &p->job);
	if (err == -ERANGE)
		return spec_error(p, p->line,
				  "job \"%.64s\" is out of range (0..18446744073709551615)",
				  words[1]);
	if (err)
		return spec_error(p, p->line,
				  "invalid job \"%.64s\" (expected a decimal number)",
				  words[1]);
	p->job_line = p->line;
	return 0;
}

/* "key HEX": the shared job key, at most once. */
static int spec_kw_key(struct spec_parser *p, char **words, int n)
{
	if (n != 2)
		return spec_error(p, p->line, "%s: expected \"key HEX\"",
				  n < 2 ? "missing value" : "too many values");
	if (p->key_line)
		return spec_error(p, p->line, "key already given on line %u",
				  p->key_line);
	/* The key itself is never echoed into a message. */
	if (ftnl_parse_key(words[1], p->key))
		return spec_error(p, p->line,
				  "invalid key (expected %d hex digits)",
				  2 * FTNL_KEY_LEN);
	p->key_line = p->line;
	return 0;
}

/* "owner UID": the uid the job's ranks register with the module under. */
static int spec_kw_owner(struct spec_parser *p, char **words, int n)
{
	uint64_t uid;

	if (n != 2)
		return spec_error(p, p->line, "%s: expected \"owner UID\"",
				  n < 2 ? "missing value" : "too many values");
	if (p->owner_line)
		return spec_error(p, p->line, "owner already given on line %u",
				  p->owner_line);
	if (spec_parse_u64(words[1], &uid) || uid >= UINT32_MAX)
		return spec_error(p, p->line,
				  "invalid owner \"%.64s\" (expected a uid, 0..4294967294)",
				  words[1]);
	p->owner_uid = (uint32_t)uid;
	p->owner_line = p->line;
	return 0;
}

/* Make room for @rank in p->entries (zeroed: line 0 means unseen). */
static int spec_reserve(struct spec_parser *p, uint32_t rank)
{
	struct spec_entry *bigger;
	uint32_t cap;

	if (rank < p->cap)
		return 0;
	cap = p->cap ? p->cap : 64;
	while (cap <= rank)
		cap *= 2;
	if (cap > FTNL_GROUP_MAX_SIZE)
		cap = FTNL_GROUP_MAX_SIZE;
	bigger = realloc(p->entries, (size_t)cap * sizeof(*bigger));
	if (!bigger)
		return -ENOMEM;
	memset(bigger + p->cap, 0, (size_t)(cap - p->cap) * sizeof(*bigger));
	p->entries = bigger;
	p->cap = cap;
	return 0;
}

/* The optional "host NAME", "node ID" and "spare" words after the port. */
static int spec_rank_options(struct spec_parser *p, char **words, int n,
			     struct spec_entry *e)
{
	unsigned int host_seen = 0, node_seen = 0;
	int i;

	for (i = 4; i < n; i += 2) {
		const char *key = words[i];

		if (!strcmp(key, "spare")) {
			if (e->peer.spare)
				return spec_error(p, p->line,
						  "spare given twice");
			e->peer.spare = true;
			i--;	/* a word without a value */
			continue;
		}
		if (strcmp(key, "host") && strcmp(key, "node"))
			return spec_error(p, p->line,
					  "unexpected \"%.64s\" (expected host NAME, node ID or spare)",
					  key);
		if (i + 1 >= n)
			return spec_error(p, p->line, "%s: missing value", key);
		if (!strcmp(key, "host")) {
			if (host_seen++)
				return spec_error(p, p->line,
						  "host given twice");
			if (strlen(words[i + 1]) > GRP_SPEC_MAX_HOST_NAME)
				return spec_error(p, p->line,
						  "host name too long (at most %d characters)",
						  GRP_SPEC_MAX_HOST_NAME);
			e->host_name = words[i + 1];
		} else {
			int err;

			if (node_seen++)
				return spec_error(p, p->line,
						  "node given twice");
			err = ftnl_parse_u32(words[i + 1], &e->peer.node_id);
			if (err)
				return spec_error(p, p->line,
						  "invalid node id \"%.64s\" (expected 0..4294967294)",
						  words[i + 1]);
			if (e->peer.node_id == FTNL_GROUP_NODE_ANY)
				return spec_error(p, p->line,
						  "node id %u is reserved (expected 0..4294967294)",
						  e->peer.node_id);
		}
	}
	return 0;
}

static int spec_kw_rank(struct spec_parser *p, char **words, int n)
{
	struct spec_entry e = { .peer.node_id = FTNL_GROUP_NODE_ANY };
	uint32_t rank;
	int err;

	if (n < 4)
		return spec_error(p, p->line,
				  "missing value: expected \"rank RANK ADDRESS PORT [host NAME] [node ID] [spare]\"");
	if (n > GRP_SPEC_MAX_WORDS)
		return spec_error(p, p->line,
				  "too many values: expected \"rank RANK ADDRESS PORT [host NAME] [node ID] [spare]\"");
	err = ftnl_parse_u32(words[1], &rank);
	if (err == -EINVAL)
		return spec_error(p, p->line,
				  "invalid rank \"%.64s\" (expected a decimal number)",
				  words[1]);
	if (err || rank >= FTNL_GROUP_MAX_SIZE)
		return spec_error(p, p->line,
				  "rank %.64s is out of range (0..%u)", words[1],
				  FTNL_GROUP_MAX_SIZE - 1);
	if (ftnl_parse_addr(words[2], &e.peer.family, &e.peer.addr))
		return spec_error(p, p->line,
				  "invalid address \"%.64s\" (expected an IPv4 or IPv6 address)",
				  words[2]);
	if (!ftnl_addr_is_unicast(e.peer.family, &e.peer.addr))
		return spec_error(p, p->line,
				  "address %.64s is not a unicast address",
				  words[2]);
	if (ftnl_parse_port(words[3], &e.peer.port) || !e.peer.port)
		return spec_error(p, p->line,
				  "invalid port \"%.64s\" (expected 1..65535)",
				  words[3]);
	err = spec_rank_options(p, words, n, &e);
	if (err)
		return err;

	err = spec_reserve(p, rank);
	if (err)
		return err;
	if (p->entries[rank].line)
		return spec_error(p, p->line,
				  "duplicate rank %u (first on line %u)", rank,
				  p->entries[rank].line);
	if (e.host_name) {
		e.host_name = strdup(e.host_name);
		if (!e.host_name)
			return -ENOMEM;
	}
	e.line = p->line;
	p->entries[rank] = e;
	if (!p->count || rank > p->max_rank) {
		p->max_rank = rank;
		p->max_rank_line = p->line;
	}
	p->count++;
	return 0;
}

static int spec_parse_line(struct spec_parser *p, char *line)
{
	char *words[GRP_SPEC_MAX_WORDS];
	int n = ftnl_split_words(line, words, GRP_SPEC_MAX_WORDS);

	if (!n)
		return 0;
	if (!strcmp(words[0], "job"))
		return spec_kw_job(p, words, n);
	if (!strcmp(words[0], "rank"))
		return spec_kw_rank(p, words, n);
	if (!strcmp(words[0], "key"))
		return spec_kw_key(p, words, n);
	if (!strcmp(words[0], "owner"))
		return spec_kw_owner(p, words, n);
	return spec_error(p, p->line,
			  "unknown keyword \"%.64s\" (expected job, key, owner or rank)",
			  words[0]);
}

/* For finding two ranks on the same endpoint. */
struct spec_endpoint {
	int family;
	union ftnl_addr addr;
	uint16_t port;
	uint32_t rank;
};

/* Order by endpoint only, so that equal endpoints end up adjacent. */
static int spec_cmp_endpoint(const void *a, const void *b)
{
	const struct spec_endpoint *x = a, *y = b;
	int c;

	if (x->family != y->family)
		return x->family < y->family ? -1 : 1;
	c = memcmp(&x->addr, &y->addr, x->family == AF_INET ?
		   sizeof(x->addr.v4) : sizeof(x->addr.v6));
	if (c)
		return c;
	return x->port < y->port ? -1 : x->port > y->port;
}

static bool spec_same_endpoint(const struct spec_endpoint *a,
			       const struct spec_endpoint *b)
{
	return !spec_cmp_endpoint(a, b);
}

static int spec_check_endpoints(struct spec_parser *p, uint32_t size)
{
	struct spec_endpoint *eps = calloc(size, sizeof(*eps));
	char addr[FTNL_ADDR_STRLEN];
	uint32_t i;
	int err = 0;

	if (!eps)
		return -ENOMEM;
	for (i = 0; i < size; i++) {
		eps[i].family = p->entries[i].peer.family;
		eps[i].addr = p->entries[i].peer.addr;
		eps[i].port = p->entries[i].peer.port;
		eps[i].rank = i;
	}
	qsort(eps, size, sizeof(*eps), spec_cmp_endpoint);
	for (i = 1; i < size && !err; i++) {
		const struct spec_endpoint *a = &eps[i - 1], *b = &eps[i];
		const struct spec_entry *first, *second;

		if (!spec_same_endpoint(a, b))
			continue;
		first = &p->entries[a->rank];
		second = &p->entries[b->rank];
		if (first->line > second->line) {
			const struct spec_entry *swap = first;

			first = second;
			second = swap;
		}
		err = spec_error(p, second->line,
				 "duplicate address and port %s %u (first on line %u)",
				 ftnl_format_addr(a->family, &a->addr, addr,
						  sizeof(addr)),
				 a->port, first->line);
	}
	free(eps);
	return err;
}

/*
 * Host indexes: the same "host NAME", or without one the same address,
 * shares an index; indexes count up in rank order of first appearance.
 * An open-addressing table of the ranks that opened a host.
 */
static bool spec_same_host(const struct spec_entry *a,
			   const struct spec_entry *b)
{
	if (!a->host_name != !b->host_name)
		return false;
	if (a->host_name)
		return !strcmp(a->host_name, b->host_name);
	return a->peer.family == b->peer.family &&
	       !memcmp(&a->peer.addr, &b->peer.addr,
		       a->peer.family == AF_INET ? sizeof(a->peer.addr.v4) :
		       sizeof(a->peer.addr.v6));
}

static uint32_t spec_host_hash(const struct spec_entry *e)
{
	const unsigned char *s;
	size_t len, i;
	uint32_t h = 2166136261u;	/* FNV-1a */

	if (e->host_name) {
		s = (const unsigned char *)e->host_name;
		len = strlen(e->host_name);
	} else {
		s = (const unsigned char *)&e->peer.addr;
		len = e->peer.family == AF_INET ? sizeof(e->peer.addr.v4) :
		      sizeof(e->peer.addr.v6);
		h ^= 0x5a;	/* keep addresses apart from names */
	}
	for (i = 0; i < len; i++)
		h = (h ^ s[i]) * 16777619u;
	return h;
}

static int spec_assign_hosts(struct spec_parser *p, uint32_t size)
{
	uint32_t slots = 1, mask, r, hosts = 0;
	uint32_t *table;

	while (slots < 2 * size)
		slots *= 2;
	mask = slots - 1;
	table = malloc((size_t)slots * sizeof(*table));
	if (!table)
		return -ENOMEM;
	memset(table, 0xff, (size_t)slots * sizeof(*table));	/* empty */
	for (r = 0; r < size; r++) {
		struct spec_entry *e = &p->entries[r];
		uint32_t i = spec_host_hash(e) & mask;

		while (table[i] != UINT32_MAX &&
		       !spec_same_host(&p->entries[table[i]], e))
			i = (i + 1) & mask;
		if (table[i] == UINT32_MAX) {
			table[i] = r;
			e->peer.host = hosts++;
		} else {
			e->peer.host = p->entries[table[i]].peer.host;
		}
	}
	free(table);
	return 0;
}

/* Checks that need the whole file, then the spec itself. */
static int spec_finish(struct spec_parser *p, uint32_t rank,
		       struct ftnl_group_spec *spec)
{
	struct ftnl_group_peer *peers;
	uint32_t size, r;
	int err;

	if (!p->job_line)
		return spec_error(p, p->line ? p->line : 1,
				  "no job line (expected \"job ID\")");
	if (!p->count)
		return spec_error(p, p->line ? p->line : 1,
				  "no rank lines (expected \"rank RANK ADDRESS PORT\")");
	size = p->max_rank + 1;
	for (r = 0; r < size; r++)
		if (!p->entries[r].line)
			return spec_error(p, p->max_rank_line,
					  "rank %u is missing (ranks must be 0..%u, each once)",
					  r, p->max_rank);
	for (r = 0; r < size && p->entries[r].peer.spare; r++)
		;
	if (r == size)
		return spec_error(p, p->max_rank_line,
				  "every rank is a spare (view 0 needs one that is not)");
	err = spec_check_endpoints(p, size);
	if (err)
		return err;
	if (rank >= size) {
		ftnl_format_err(p->err, p->errlen,
				"%s: rank %u is not in the file (ranks 0..%u)",
				p->name, rank, size - 1);
		return -ERANGE;
	}
	err = spec_assign_hosts(p, size);
	if (err)
		return err;
	peers = calloc(size, sizeof(*peers));
	if (!peers)
		return -ENOMEM;
	for (r = 0; r < size; r++)
		peers[r] = p->entries[r].peer;
	*spec = (struct ftnl_group_spec){
		.job = p->job,
		.size = size,
		.rank = rank,
		.peers = peers,
		.has_key = p->key_line != 0,
		.has_owner = p->owner_line != 0,
		.owner_uid = p->owner_uid,
	};
	if (p->key_line)
		memcpy(spec->key, p->key, sizeof(spec->key));
	return 0;
}

static int spec_parse_text(struct spec_parser *p, char *text, size_t len,
			   uint32_t rank, struct ftnl_group_spec *spec)
{
	char *line = text, *end = text + len;
	uint32_t r;
	int err = 0;

	while (line < end && !err) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		char *stop = nl ? nl : end;

		p->line++;
		*stop = '\0';	/* the caller left room at the end */
		if (strlen(line) != (size_t)(stop - line))
			err = spec_error(p, p->line, "NUL byte in text");
		else
			err = spec_parse_line(p, line);
		line = nl ? nl + 1 : end;
	}
	if (!err)
		err = spec_finish(p, rank, spec);
	if (err == -ENOMEM)
		ftnl_format_err(p->err, p->errlen, "%s: out of memory", p->name);
	explicit_bzero(p->key, sizeof(p->key));
	for (r = 0; r < p->cap; r++)
		free(p->entries[r].host_name);
	free(p->entries);
	return err;
}

FTNL_EXPORT int ftnl_group_spec_parse_file(const char *path, uint32_t rank,
					   struct ftnl_group_spec *spec,
					   char *err, size_t errlen)
{
	struct spec_parser p = {
		.name = path,
		.err = err,
		.errlen = errlen,
	};
	char *text = NULL;
	size_t len = 0;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		ftnl_format_err(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	ret = ftnl_read_all(fd, GRP_SPEC_MAX_FILE, &text, &len);
	close(fd);
	if (ret) {
		ftnl_format_err(err, errlen, "%s: %s", path,
				ret == -EFBIG ? "file too large" : strerror(-ret));
		return ret;
	}
	ret = spec_parse_text(&p, text, len, rank, spec);
	explicit_bzero(text, len);	/* it may hold the key */
	free(text);
	return ret;
}

FTNL_EXPORT int ftnl_group_spec_from_env(struct ftnl_group_spec *spec,
					 char *err, size_t errlen)
{
	const char *peers = getenv("FTNL_GROUP_PEERS");
	const char *rank_text = getenv("FTNL_GROUP_RANK");
	const char *dir = getenv("FTNL_GROUP_FAILURE_DIR");
	const char *module_text = getenv("FTNL_GROUP_MODULE");
	const char *inc_text = getenv("FTNL_GROUP_INCARNATION");
	uint32_t inc = 1;
	enum ftnl_group_module module = FTNL_GROUP_MODULE_AUTO;
	struct ftnl_group_spec parsed;
	char *dir_copy = NULL;
	uint32_t rank;
	int ret;

	if (!peers || !rank_text) {
		ftnl_format_err(err, errlen, "%s is not set",
				!peers ? "FTNL_GROUP_PEERS" : "FTNL_GROUP_RANK");
		return -ENOENT;
	}
	if (!*peers) {
		ftnl_format_err(err, errlen, "FTNL_GROUP_PEERS is empty");
		return -EINVAL;
	}
	if (ftnl_parse_u32(rank_text, &rank)) {
		ftnl_format_err(err, errlen,
				"FTNL_GROUP_RANK \"%.64s\" is not a rank (expected a decimal number)",
				rank_text);
		return -EINVAL;
	}
	if (module_text && !strcmp(module_text, "on")) {
		module = FTNL_GROUP_MODULE_ON;
	} else if (module_text && !strcmp(module_text, "off")) {
		module = FTNL_GROUP_MODULE_OFF;
	} else if (module_text && strcmp(module_text, "auto")) {
		ftnl_format_err(err, errlen,
				"FTNL_GROUP_MODULE \"%.64s\" is not on, off or auto",
				module_text);
		return -EINVAL;
	}
	if (inc_text && (ftnl_parse_u32(inc_text, &inc) || !inc)) {
		ftnl_format_err(err, errlen,
				"FTNL_GROUP_INCARNATION \"%.64s\" is not an incarnation (expected 1..4294967294)",
				inc_text);
		return -EINVAL;
	}
	if (dir && !*dir) {
		ftnl_format_err(err, errlen,
				"FTNL_GROUP_FAILURE_DIR is empty (unset it for no failure directory)");
		return -EINVAL;
	}
	if (dir) {
		dir_copy = strdup(dir);
		if (!dir_copy) {
			ftnl_format_err(err, errlen, "out of memory");
			return -ENOMEM;
		}
	}
	ret = ftnl_group_spec_parse_file(peers, rank, &parsed, err, errlen);
	if (ret) {
		free(dir_copy);
		return ret;
	}
	parsed.failure_dir = dir_copy;
	parsed.module = module;
	parsed.incarnation = inc;
	*spec = parsed;
	return 0;
}

FTNL_EXPORT void ftnl_group_spec_free(struct ftnl_group_spec *spec)
{
	if (!spec)
		return;
	free(spec->peers);
	free(spec->failure_dir);
	spec->peers = NULL;
	spec->failure_dir = NULL;
	spec->size = 0;
	explicit_bzero(spec->key, sizeof(spec->key));
	spec->has_key = false;
}
