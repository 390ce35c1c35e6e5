// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Pair keys: one key per pair of nodes, derived from a cluster secret on
 * the admin's host (ftnl_pair_key()), each node's signing seed
 * (ftnl_sign_seed()), and the pairkeys file that gives a node the keys of
 * its own pairs, the other nodes' public signing keys and its own seed:
 *
 *	# pair keys of node 3, cluster 42
 *	sign 5c0f...(64 hex digits)
 *	1 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 d75a...
 *	2 60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752 3d40...
 *
 * A file without the sign line and the public keys (ftnl before signed
 * broadcasts) gives pair keys alone.
 *
 * See Documentation/admin-guide.rst, "Security model".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kmod/sign/ed25519.h"
#include "group/auth.h"
#include "internal.h"

/* Larger than the keys of FTNL_MAX_NODES pairs, comments included. */
#define FTNL_PAIR_FILE_MAX	(16u << 20)

static const char ftnl_pair_label[] = "ftnl pair key";

static void ftnl_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

FTNL_EXPORT void ftnl_pair_key(const uint8_t secret[FTNL_KEY_LEN],
			       uint32_t cluster_id, uint32_t a, uint32_t b,
			       uint8_t key[FTNL_KEY_LEN])
{
	uint8_t msg[sizeof(ftnl_pair_label) - 1 + 12];
	size_t label = sizeof(ftnl_pair_label) - 1;

	memcpy(msg, ftnl_pair_label, label);
	ftnl_put_be32(msg + label, cluster_id);
	ftnl_put_be32(msg + label + 4, a < b ? a : b);
	ftnl_put_be32(msg + label + 8, a < b ? b : a);
	grp_blake2s(key, FTNL_KEY_LEN, secret, FTNL_KEY_LEN, msg, sizeof(msg));
}

static const char ftnl_sign_label[] = "ftnl sign key";

FTNL_EXPORT void ftnl_sign_seed(const uint8_t secret[FTNL_KEY_LEN],
				uint32_t cluster_id, uint32_t node_id,
				uint8_t seed[FTNL_SIGN_SEED_LEN])
{
	uint8_t msg[sizeof(ftnl_sign_label) - 1 + 8];
	size_t label = sizeof(ftnl_sign_label) - 1;

	memcpy(msg, ftnl_sign_label, label);
	ftnl_put_be32(msg + label, cluster_id);
	ftnl_put_be32(msg + label + 4, node_id);
	grp_blake2s(seed, FTNL_SIGN_SEED_LEN, secret, FTNL_KEY_LEN, msg,
		    sizeof(msg));
}

FTNL_EXPORT void ftnl_sign_public(const uint8_t seed[FTNL_SIGN_SEED_LEN],
				  uint8_t public_key[FTNL_SIGN_KEY_LEN])
{
	struct ftnl_ed25519_key key;
	struct ftnl_ed25519_ctx ctx;

	ftnl_ed25519_key_from_seed(&ctx, &key, seed);
	memcpy(public_key, key.public, FTNL_SIGN_KEY_LEN);
	explicit_bzero(&key, sizeof(key));
}

/*
 * Parse one "ID HEX [PUBLIC]" line (modified in place) into @entry, or a
 * "sign SEED" line into @keys. Return: 0 (a key), 2 (the seed), 1 (blank
 * or comment), -EINVAL with *@why.
 */
static int ftnl_pair_line(char *line, struct ftnl_pair_entry *entry,
			  struct ftnl_pair_keys *keys, const char **why)
{
	char *words[4];
	int n = ftnl_split_words(line, words, 3);

	if (!n)
		return 1;	/* blank or comment */
	if (!strcmp(words[0], "sign")) {
		if (n != 2) {
			*why = "expected \"sign SEED\" (64 hex digits)";
			return -EINVAL;
		}
		if (keys->has_seed) {
			*why = "a second sign line";
			return -EINVAL;
		}
		if (ftnl_parse_key(words[1], keys->seed)) {
			*why = "the signing seed must be 64 hex digits (32 bytes)";
			return -EINVAL;
		}
		keys->has_seed = true;
		return 2;
	}
	if (n != 2 && n != 3) {
		*why = "expected \"ID KEY [PUBLIC]\" (a node id, 64 hex digits, and optionally 64 more)";
		return -EINVAL;
	}
	if (ftnl_parse_u32(words[0], &entry->id)) {
		*why = "invalid node id (expected a decimal number)";
		return -EINVAL;
	}
	if (ftnl_parse_key(words[1], entry->key)) {
		*why = "the key must be 64 hex digits (32 bytes)";
		return -EINVAL;
	}
	entry->has_public = n == 3;
	if (entry->has_public && ftnl_parse_key(words[2], entry->public_key)) {
		*why = "the public signing key must be 64 hex digits (32 bytes)";
		return -EINVAL;
	}
	return 0;
}

static int ftnl_pair_cmp(const void *a, const void *b)
{
	const struct ftnl_pair_entry *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Parse @len bytes of @text (modified in place). */
static int ftnl_pair_parse(const char *path, char *text, size_t len,
			   struct ftnl_pair_keys *keys, char *err,
			   size_t errlen)
{
	char *line = text, *end = text + len;
	struct ftnl_pair_entry entry, *bigger;
	unsigned int lineno = 0, seed_line = 0;
	const char *why = NULL;
	size_t cap = 0, i;
	int ret;

	while (line < end) {
		char *nl = memchr(line, '\n', (size_t)(end - line));

		lineno++;
		if (nl)
			*nl = '\0';
		else
			*end = '\0';	/* the caller left room for it */
		if (strlen(line) != (size_t)((nl ? nl : end) - line)) {
			why = "NUL byte in text";
			ret = -EINVAL;
		} else {
			ret = ftnl_pair_line(line, &entry, keys, &why);
		}
		line = nl ? nl + 1 : end;
		if (ret == 2)
			seed_line = lineno;
		if (ret > 0)
			continue;
		if (ret)
			goto fail;
		if (keys->count == FTNL_MAX_NODES) {
			why = "more keys than nodes a cluster may have";
			ret = -E2BIG;
			goto fail;
		}
		if (keys->count == cap) {
			/* Not realloc(): the old block holds keys, wiped here. */
			cap = cap ? 2 * cap : 64;
			bigger = malloc(cap * sizeof(*bigger));
			if (!bigger) {
				ret = -ENOMEM;
				ftnl_format_err(err, errlen, "%s: out of memory",
						path);
				goto out;
			}
			if (keys->count) {
				memcpy(bigger, keys->entries,
				       keys->count * sizeof(*bigger));
				explicit_bzero(keys->entries,
					       keys->count * sizeof(*bigger));
			}
			free(keys->entries);
			keys->entries = bigger;
		}
		entry.line = lineno;
		keys->entries[keys->count++] = entry;
	}
	/* One key per node: sorted by id, then line, a repeat is adjacent. */
	if (keys->count)
		qsort(keys->entries, keys->count, sizeof(*keys->entries),
		      ftnl_pair_cmp);
	for (i = 1; i < keys->count; i++) {
		if (keys->entries[i].id != keys->entries[i - 1].id)
			continue;
		ftnl_format_err(err, errlen,
				"%s:%u: a second key for node %u (first on line %u)",
				path, keys->entries[i].line, keys->entries[i].id,
				keys->entries[i - 1].line);
		ret = -EINVAL;
		goto out;
	}
	/* Signing keys for all the pairs with a seed, or none of them. */
	for (i = 0; i < keys->count; i++) {
		const struct ftnl_pair_entry *e = &keys->entries[i];

		if (e->has_public == keys->has_seed)
			continue;
		if (keys->has_seed)
			ftnl_format_err(err, errlen,
					"%s:%u: node %u has no public signing key (line %u gives this node's signing seed)",
					path, e->line, e->id, seed_line);
		else
			ftnl_format_err(err, errlen,
					"%s:%u: a public signing key, but no \"sign SEED\" line",
					path, e->line);
		ret = -EINVAL;
		goto out;
	}
	ret = 0;
	goto out;
fail:
	ftnl_format_err(err, errlen, "%s:%u: %s", path, lineno, why);
out:
	explicit_bzero(&entry, sizeof(entry));
	return ret;
}

int ftnl_read_pair_keys(const char *path, struct ftnl_pair_keys *keys,
			char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int fd, ret;

	memset(keys, 0, sizeof(*keys));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		ftnl_format_err(err, errlen, "cannot open pair key file \"%s\": %s",
				path, strerror(errno));
		return ret;
	}
	ret = ftnl_read_all(fd, FTNL_PAIR_FILE_MAX, &text, &len);
	close(fd);
	if (ret) {
		ftnl_format_err(err, errlen, "pair key file \"%s\": %s", path,
				ret == -EFBIG ? "file too large" : strerror(-ret));
		return ret;
	}
	ret = ftnl_pair_parse(path, text, len, keys, err, errlen);
	explicit_bzero(text, len);
	free(text);
	if (ret)
		ftnl_pair_keys_free(keys);
	return ret;
}

void ftnl_pair_keys_free(struct ftnl_pair_keys *keys)
{
	if (keys->entries)
		explicit_bzero(keys->entries,
			       keys->count * sizeof(*keys->entries));
	free(keys->entries);
	/* The signing seed lives in @keys itself. */
	explicit_bzero(keys, sizeof(*keys));
}

static int ftnl_cmp_node_pos(const void *a, const void *b, void *nodes)
{
	const struct ftnl_node *n = nodes;
	uint32_t x = n[*(const size_t *)a].id, y = n[*(const size_t *)b].id;

	return x < y ? -1 : x > y;
}

int ftnl_pair_keys_assign(struct ftnl_cluster_config *config,
			  const struct ftnl_pair_keys *keys, size_t *missing)
{
	size_t i, j = 0, *order;
	int err = 0;

	order = malloc((config->node_count ? config->node_count : 1) *
		       sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0; i < config->node_count; i++)
		order[i] = i;
	qsort_r(order, config->node_count, sizeof(*order), ftnl_cmp_node_pos,
		config->nodes);
	for (i = 0; i < keys->count; i++) {
		const struct ftnl_pair_entry *e = &keys->entries[i];
		struct ftnl_node *node;

		while (j < config->node_count &&
		       config->nodes[order[j]].id < e->id)
			j++;
		if (j == config->node_count ||
		    config->nodes[order[j]].id != e->id) {
			*missing = i;
			err = -ENOENT;
			break;
		}
		node = &config->nodes[order[j]];
		node->has_key = true;
		memcpy(node->key, e->key, FTNL_KEY_LEN);
		node->has_sign_key = e->has_public;
		memcpy(node->sign_key, e->public_key, FTNL_SIGN_KEY_LEN);
	}
	free(order);
	if (!err) {
		config->has_sign_seed = keys->has_seed;
		memcpy(config->sign_seed, keys->seed, FTNL_SIGN_SEED_LEN);
	}
	return err;
}

static void ftnl_wipe_pair_keys(struct ftnl_cluster_config *config)
{
	size_t i;

	for (i = 0; i < config->node_count; i++) {
		config->nodes[i].has_key = false;
		explicit_bzero(config->nodes[i].key,
			       sizeof(config->nodes[i].key));
		config->nodes[i].has_sign_key = false;
		memset(config->nodes[i].sign_key, 0,
		       sizeof(config->nodes[i].sign_key));
	}
	config->has_sign_seed = false;
	explicit_bzero(config->sign_seed, sizeof(config->sign_seed));
}

FTNL_EXPORT void ftnl_config_set_cluster_key(struct ftnl_cluster_config *config,
					     const uint8_t key[FTNL_KEY_LEN])
{
	ftnl_wipe_pair_keys(config);
	memcpy(config->key, key, FTNL_KEY_LEN);
	config->unset &= ~FTNL_CONFIG_KEY;
}

FTNL_EXPORT int ftnl_config_set_pair_keys(struct ftnl_cluster_config *config,
					  const char *path, char *err,
					  size_t errlen)
{
	struct ftnl_pair_keys keys;
	size_t missing;
	int ret;

	ret = ftnl_read_pair_keys(path, &keys, err, errlen);
	if (ret)
		return ret;
	/* The table's keys are replaced as a whole, not merged. */
	ftnl_wipe_pair_keys(config);
	ret = ftnl_pair_keys_assign(config, &keys, &missing);
	if (ret == -ENOENT)
		ftnl_format_err(err, errlen,
				"%s:%u: node %u is not in the node table",
				path, keys.entries[missing].line,
				keys.entries[missing].id);
	else if (ret)
		ftnl_format_err(err, errlen, "out of memory");
	if (ret) {
		ftnl_wipe_pair_keys(config);
	} else {
		explicit_bzero(config->key, sizeof(config->key));
		config->unset |= FTNL_CONFIG_KEY;
	}
	ftnl_pair_keys_free(&keys);
	return ret;
}
