// SPDX-License-Identifier: GPL-2.0
/*
 * Turning "cluster set" arguments into a configuration: read the file if
 * one was named, let the arguments override it, check the result.
 *
 * "self auto" (in the file or as an argument) is resolved last, against
 * the final node table and the addresses of the network namespace the
 * command runs in (--netns is entered first).
 *
 * Overriding: a scalar argument (id, self, heartbeat, timeout, key,
 * keyfile, bcast, gossip-faults, gossip-time, rejoin, rejoin-limit,
 * rejoin-window) replaces the file's value; a
 * node argument replaces the file's node of the same id, or is added to the
 * table. The keys are replaced as a whole: "key" or "keyfile" drops the
 * file's pair keys, "pairkeys" its cluster key and pair keys, once the
 * table is complete.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct id_index {
	uint32_t id;
	size_t index;
};

static int cmp_id_index(const void *a, const void *b)
{
	const struct id_index *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* Apply the node arguments to @config's table (replace by id, or append). */
static int merge_nodes(const struct cli_cluster_args *args,
		       struct ftnl_cluster_config *config)
{
	size_t base = config->node_count, i;
	struct id_index *order = NULL;
	struct ftnl_node *nodes;

	/* Not realloc(): the old table may hold pair keys, wiped here. */
	nodes = malloc((base + args->node_count + 1) * sizeof(*nodes));
	if (!nodes)
		return -ENOMEM;
	if (base) {
		memcpy(nodes, config->nodes, base * sizeof(*nodes));
		explicit_bzero(config->nodes, base * sizeof(*nodes));
	}
	free(config->nodes);
	config->nodes = nodes;

	/* Index the file's nodes by id; a file may hold 65,536 of them. */
	if (base) {
		order = malloc(base * sizeof(*order));
		if (!order)
			return -ENOMEM;
		for (i = 0; i < base; i++) {
			order[i].id = nodes[i].id;
			order[i].index = i;
		}
		qsort(order, base, sizeof(*order), cmp_id_index);
	}
	for (i = 0; i < args->node_count; i++) {
		struct id_index key = { .id = args->nodes[i].id };
		struct id_index *found = base ?
			bsearch(&key, order, base, sizeof(*order),
				cmp_id_index) : NULL;

		if (found) {
			struct ftnl_node *to = &nodes[found->index];
			struct ftnl_node with = args->nodes[i];

			/* The file's pair key stays with its node. */
			with.has_key = to->has_key;
			memcpy(with.key, to->key, sizeof(with.key));
			*to = with;
			explicit_bzero(&with, sizeof(with));
		} else
			nodes[config->node_count++] = args->nodes[i];
	}
	free(order);
	return 0;
}

/*
 * FCG's parameters with another algorithm: the kernel keeps them and no
 * broadcast uses them, which is not what whoever gave them meant.
 */
static int check_fcg_params(const struct ftnl_cluster_config *config,
			    char *err, size_t errlen)
{
	if (!config->has_fcg_f && !config->has_gossip_t)
		return 0;
	if (config->has_bcast_algo && config->bcast_algo == FTNL_BCAST_FCG)
		return 0;
	snprintf(err, errlen, "%s only to bcast fcg (the algorithm is %s%s)",
		 config->has_fcg_f && config->has_gossip_t ?
		 "gossip-faults and gossip-time apply" :
		 config->has_fcg_f ? "gossip-faults applies" :
		 "gossip-time applies",
		 config->has_bcast_algo ?
		 ftnl_bcast_algo_name(config->bcast_algo) : "hypercube",
		 config->has_bcast_algo ? "" : ", the module's default");
	return -EINVAL;
}

/**
 * cli_build_config() - the configuration "cluster set" will send
 * @args: the parsed arguments
 * @force: skip ftnl_config_validate() (and parse the file in raw mode), so
 *	that invalid configurations reach the kernel
 * @config: filled in on success; release with ftnl_config_free()
 * @err: receives the problem
 * @errlen: size of @err
 *
 * Return: 0, or a negative errno with @err set.
 */
int cli_build_config(const struct cli_cluster_args *args, bool force,
		     struct ftnl_cluster_config *config, char *err,
		     size_t errlen)
{
	char why[512];
	int ret;

	if (args->file) {
		ret = ftnl_config_parse_file(args->file,
					     force ? FTNL_CONFIG_PARSE_RAW : 0,
					     config, err, errlen);
		if (ret)
			return ret;
	} else {
		memset(config, 0, sizeof(*config));
		config->unset = FTNL_CONFIG_ALL;
	}

	if (args->given & CLI_SET_ID) {
		config->cluster_id = args->cluster_id;
		config->unset &= ~FTNL_CONFIG_CLUSTER_ID;
	}
	if (args->given & CLI_SET_SELF) {
		config->self_auto = args->self_auto;
		config->self_id = args->self_auto ? 0 : args->self_id;
		if (args->self_auto)
			config->unset |= FTNL_CONFIG_SELF_ID;
		else
			config->unset &= ~FTNL_CONFIG_SELF_ID;
	}
	if (args->given & CLI_SET_HEARTBEAT) {
		config->hb_period_us = args->hb_period_us;
		config->unset &= ~FTNL_CONFIG_HB_PERIOD;
	}
	if (args->given & CLI_SET_TIMEOUT) {
		config->timeout_us = args->timeout_us;
		config->unset &= ~FTNL_CONFIG_TIMEOUT;
	}
	if (args->given & CLI_SET_BCAST) {
		config->bcast_algo = args->bcast_algo;
		config->has_bcast_algo = true;
	}
	if (args->given & CLI_SET_GOSSIP_FAULTS) {
		config->fcg_f = args->fcg_f;
		config->has_fcg_f = true;
	}
	if (args->given & CLI_SET_GOSSIP_TIME) {
		config->gossip_t_us = args->gossip_t_us;
		config->has_gossip_t = true;
	}
	if (args->given & CLI_SET_REJOIN) {
		config->rejoin = args->rejoin;
		config->has_rejoin = true;
	}
	if (args->given & CLI_SET_FLAP_LIMIT) {
		config->flap_limit = args->flap_limit;
		config->has_flap_limit = true;
	}
	if (args->given & CLI_SET_FLAP_WINDOW) {
		config->flap_window_s = args->flap_window_s;
		config->has_flap_window = true;
	}
	if (args->given & CLI_SET_FENCE) {
		config->fence = args->fence;
		config->has_fence = true;
	}
	if (args->given & CLI_SET_QUORUM) {
		config->quorum = args->quorum;
		config->has_quorum = true;
	}
	if (args->given & CLI_SET_TIMEOUT_ADAPTIVE) {
		config->timeout_min_us = args->timeout_min_us;
		config->has_timeout_min = true;
	}
	if (args->given & CLI_SET_TIMEOUT_NINES) {
		config->timeout_nines = args->timeout_nines;
		config->has_timeout_nines = true;
	}
	if (args->given & CLI_SET_EPOCH) {
		config->epoch = args->epoch;
		config->has_epoch = true;
	}
	if (args->given & CLI_SET_UPDATE_GRACE) {
		config->update_grace_s = args->update_grace_s;
		config->has_update_grace = true;
	}
	ret = merge_nodes(args, config);
	if (ret) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	/* A cluster key replaces the file's pair keys and signing keys. */
	if (args->given & CLI_SET_KEY)
		ftnl_config_set_cluster_key(config, args->key);
	if (args->given & CLI_SET_KEYFILE) {
		uint8_t key[FTNL_KEY_LEN];

		ret = ftnl_read_key_file(args->keyfile, key, err, errlen);
		if (!ret)
			ftnl_config_set_cluster_key(config, key);
		explicit_bzero(key, sizeof(key));
		if (ret)
			goto fail;
	}
	if (args->given & CLI_SET_PAIRKEYS) {
		ret = ftnl_config_set_pair_keys(config, args->pairkeys, err,
						errlen);
		if (ret)
			goto fail;
	}
	/* Once the table is complete: this host's addresses pick the node. */
	ret = ftnl_config_resolve_self(config, err, errlen);
	if (ret)
		goto fail;

	if (!force) {
		ret = ftnl_config_validate(config, why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s", why);
			goto fail;
		}
		ret = check_fcg_params(config, err, errlen);
		if (ret)
			goto fail;
	}
	return 0;

fail:
	ftnl_config_free(config);
	return ret;
}
