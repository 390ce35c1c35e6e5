// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-cli info: what the loaded module is and can do.
 */
#include <inttypes.h>

#include "cli.h"

static void print_features_text(uint64_t features)
{
	const char *sep = "";
	int bit;

	for (bit = 0; bit < 64; bit++) {
		uint64_t f = (uint64_t)1 << bit;
		const char *name = ftnl_feature_name(f);

		if (!(features & f))
			continue;
		if (name)
			printf("%s%s", sep, name);
		else
			printf("%sbit%d", sep, bit);
		sep = " ";
	}
	printf("%s\n", *sep ? "" : "none");
}

static void print_json(const struct cli_command *cmd,
		       const struct ftnl_info *info)
{
	struct json j;
	int bit;

	json_init(&j, stdout, cmd->opt.pretty);
	json_object_begin(&j);
	json_kv_string(&j, "module_version", info->module_version);
	json_kv_uint(&j, "family_version", info->family_version);
	json_kv_uint(&j, "proto_version", info->proto_version);
	json_key(&j, "features");
	json_array_begin(&j);
	for (bit = 0; bit < 64; bit++) {
		uint64_t f = (uint64_t)1 << bit;

		if ((info->features & f) && ftnl_feature_name(f))
			json_string(&j, ftnl_feature_name(f));
	}
	json_array_end(&j);
	json_kv_uint(&j, "feature_mask", info->features);
	json_kv_uint(&j, "max_nodes", info->max_nodes);
	json_kv_bool(&j, "configured", info->configured);
	json_kv_uint(&j, "incarnation", info->incarnation);
	json_object_end(&j);
	json_end(&j);
}

int cmd_info(const struct cli_command *cmd)
{
	struct ftnl_handle *h;
	struct ftnl_info info;
	int status, err;

	status = cli_open(&h);
	if (status)
		return status;
	err = ftnl_info_get(h, &info);
	if (err) {
		status = cli_request_failed(h, "info", err);
		ftnl_close(h);
		return status;
	}
	ftnl_close(h);

	if (cmd->opt.json) {
		print_json(cmd, &info);
		return CLI_EXIT_OK;
	}
	printf("module version    %s\n", info.module_version);
	printf("family version    %" PRIu32 "\n", info.family_version);
	printf("protocol version  %" PRIu32 "\n", info.proto_version);
	printf("features          ");
	print_features_text(info.features);
	printf("max nodes         %" PRIu32 "\n", info.max_nodes);
	printf("cluster           %s\n",
	       info.configured ? "configured" : "not configured");
	printf("incarnation       %" PRIu64 "\n", info.incarnation);
	return CLI_EXIT_OK;
}
