// SPDX-License-Identifier: GPL-2.0
/*
 * cluster pairkeys SECRET-FILE CONFIG-FILE NODE-ID: print the pairkeys
 * file of one node: its signing seed (ftnl_sign_seed()), and the keys of
 * its pairs with every other node of the table (ftnl_pair_key()) with
 * that node's public signing key, all derived from the cluster secret.
 * Run on the admin's host, which alone keeps the secret; needs no module.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void print_hex(const uint8_t *bytes, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		printf("%02x", bytes[i]);
}

int cmd_cluster_pairkeys(const struct cli_command *cmd)
{
	struct ftnl_cluster_config config;
	uint8_t secret[FTNL_KEY_LEN], key[FTNL_KEY_LEN];
	uint8_t public_key[FTNL_SIGN_KEY_LEN];
	char err[512];
	bool member = false;
	size_t i;
	int ret;

	ret = ftnl_read_key_file(cmd->secret_path, secret, err, sizeof(err));
	if (ret) {
		cli_error("cluster pairkeys: %s", err);
		return ret == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAILED;
	}
	ret = ftnl_config_parse_file(cmd->config_path, FTNL_CONFIG_PARSE_NO_KEYS,
				     &config, err, sizeof(err));
	if (ret) {
		explicit_bzero(secret, sizeof(secret));
		cli_error("cluster pairkeys: %s", err);
		return ret == -EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_FAILED;
	}
	if (config.unset & FTNL_CONFIG_CLUSTER_ID) {
		cli_error("cluster pairkeys: %s has no cluster id",
			  cmd->config_path);
		ret = -EINVAL;
		goto out;
	}
	for (i = 0; i < config.node_count; i++)
		member |= config.nodes[i].id == cmd->node_id;
	if (!member) {
		cli_error("cluster pairkeys: node %" PRIu32 " is not in the node table of %s",
			  cmd->node_id, cmd->config_path);
		ret = -EINVAL;
		goto out;
	}
	printf("# pair keys of node %" PRIu32 ", cluster %" PRIu32
	       " (ftnl-cli cluster pairkeys): keep it mode 0600\n",
	       cmd->node_id, config.cluster_id);
	/* Its own signing seed, then per pair: the key, the peer's public key. */
	ftnl_sign_seed(secret, config.cluster_id, cmd->node_id, key);
	printf("sign ");
	print_hex(key, FTNL_SIGN_SEED_LEN);
	putchar('\n');
	for (i = 0; i < config.node_count; i++) {
		if (config.nodes[i].id == cmd->node_id)
			continue;
		ftnl_pair_key(secret, config.cluster_id, cmd->node_id,
			      config.nodes[i].id, key);
		printf("%" PRIu32 " ", config.nodes[i].id);
		print_hex(key, FTNL_KEY_LEN);
		ftnl_sign_seed(secret, config.cluster_id, config.nodes[i].id,
			       key);
		ftnl_sign_public(key, public_key);
		putchar(' ');
		print_hex(public_key, FTNL_SIGN_KEY_LEN);
		putchar('\n');
	}
out:
	explicit_bzero(secret, sizeof(secret));
	explicit_bzero(key, sizeof(key));
	ftnl_config_free(&config);
	return ret ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}
