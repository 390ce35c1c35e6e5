// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-cli cluster set | show | delete | leave.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/*
 * The state file (cluster set's "state PATH"): one line, the decimal
 * incarnation this node last had. A missing file is a first boot (no
 * floor, 0); anything but digits and one newline, 0, or a number above
 * FTNL_INCARNATION_FLOOR_MAX is refused: a node must not guess its floor.
 * Return: 0 with @floor set, or -1 with @err set.
 */
static int state_read(const char *path, uint64_t *floor, char *err,
		      size_t errlen)
{
	char buf[32];
	unsigned long long v;
	ssize_t len;
	char *end;
	int fd;

	*floor = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0) {
		snprintf(err, errlen, "cannot read state file %s: %s", path,
			 strerror(errno));
		return -1;
	}
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len < 0) {
		snprintf(err, errlen, "cannot read state file %s: %s", path,
			 strerror(errno));
		return -1;
	}
	buf[len] = '\0';
	if (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (!len || (size_t)len != strspn(buf, "0123456789") || *end ||
	    errno || !v || v > FTNL_INCARNATION_FLOOR_MAX) {
		snprintf(err, errlen,
			 "state file %s does not hold an incarnation (one decimal number, 1 to 2^63 - 1, and a newline): remove it only if this node's earlier lives are known to be over",
			 path);
		return -1;
	}
	*floor = v;
	return 0;
}

/*
 * Write @incarnation to @path atomically: a temporary file in the same
 * directory, synced, renamed over it, the directory synced. A crash leaves
 * the old file or the new one, never a torn one.
 */
static int state_write(const char *path, uint64_t incarnation, char *err,
		       size_t errlen)
{
	char tmp[PATH_MAX], dir[PATH_MAX], line[32];
	const char *slash = strrchr(path, '/');
	int fd, len;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp)) {
		snprintf(err, errlen, "state file name too long: %s", path);
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create %.256s: %s", tmp,
			 strerror(errno));
		return -1;
	}
	len = snprintf(line, sizeof(line), "%" PRIu64 "\n", incarnation);
	if (write(fd, line, len) != len || fsync(fd) || close(fd)) {
		snprintf(err, errlen, "cannot write %.256s: %s", tmp,
			 strerror(errno ? errno : EIO));
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path)) {
		snprintf(err, errlen, "cannot rename %.200s to %.200s: %s", tmp,
			 path,
			 strerror(errno));
		unlink(tmp);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + 1 : 1,
		 slash ? path : ".");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	return 0;
}

int cmd_cluster_set(const struct cli_command *cmd)
{
	struct ftnl_cluster_config config;
	const char *state = cmd->set.state;
	struct ftnl_handle *h;
	struct ftnl_info info;
	uint64_t floor = 0;
	char err[512];
	int status, ret;

	/* Everything is read and checked before a socket is opened. */
	if (state && state_read(state, &floor, err, sizeof(err))) {
		cli_error("cluster set: %s", err);
		return CLI_EXIT_USAGE;
	}
	ret = cli_build_config(&cmd->set, cmd->opt.force, &config, err,
			       sizeof(err));
	if (ret) {
		cli_error("cluster set: %s", err);
		return CLI_EXIT_USAGE;
	}
	config.has_incarnation_floor = floor != 0;
	config.incarnation_floor = floor;
	status = cli_open(&h);
	if (!status) {
		ret = ftnl_cluster_set(h, &config);
		if (ret)
			status = cli_request_failed(h, "cluster set", ret);
		/* The life the kernel chose, for the next boot's floor. */
		if (!ret && state) {
			ret = ftnl_info_get(h, &info);
			if (ret)
				status = cli_request_failed(h, "info", ret);
			else if (state_write(state, info.incarnation, err,
					     sizeof(err))) {
				cli_error("cluster set: configured, but %s", err);
				status = CLI_EXIT_FAILED;
			}
		}
		ftnl_close(h);
	}
	ftnl_config_free(&config);
	return status;
}

static void print_json(const struct cli_command *cmd,
		       const struct ftnl_cluster_info *info)
{
	struct json j;

	json_init(&j, stdout, cmd->opt.pretty);
	json_object_begin(&j);
	json_kv_bool(&j, "configured", info != NULL);
	if (info) {
		json_kv_uint(&j, "cluster_id", info->cluster_id);
		json_kv_uint(&j, "self_id", info->self_id);
		json_kv_uint(&j, "heartbeat_us", info->hb_period_us);
		json_kv_uint(&j, "timeout_us", info->timeout_us);
		json_kv_uint(&j, "node_count", info->node_count);
		json_kv_uint(&j, "generation", info->generation);
		json_kv_uint(&j, "incarnation", info->incarnation);
		if (info->has_bcast_algo)
			json_kv_string(&j, "bcast_algo",
				       ftnl_bcast_algo_name(info->bcast_algo));
		if (info->has_fcg_f)
			json_kv_uint(&j, "bcast_fcg_f", info->fcg_f);
		if (info->has_gossip_t)
			json_kv_uint(&j, "bcast_gossip_t_us", info->gossip_t_us);
		if (info->has_rejoin) {
			json_kv_string(&j, "rejoin",
				       info->rejoin == FTNL_REJOIN_MANUAL ?
				       "manual" : "auto");
			json_kv_uint(&j, "rejoin_flap_limit", info->flap_limit);
			json_kv_uint(&j, "rejoin_flap_window_s",
				     info->flap_window_s);
		}
		if (info->has_fence)
			json_kv_string(&j, "fence", ftnl_fence_name(info->fence));
		if (info->has_quorum)
			json_kv_bool(&j, "quorum", info->quorum == FTNL_QUORUM_ON);
		if (info->has_timeout_min) {
			json_kv_uint(&j, "timeout_min_us", info->timeout_min_us);
			json_kv_uint(&j, "timeout_nines", info->timeout_nines);
		}
		if (info->has_epoch) {
			json_kv_uint(&j, "epoch", info->epoch);
			json_kv_uint(&j, "update_grace_s", info->update_grace_s);
		}
		if (info->has_prev_key)
			json_kv_uint(&j, "prev_key_left_ms",
				     info->prev_key_left_ms);
		json_kv_string(&j, "keys", info->pair_keys ? "pair" : "cluster");
		json_kv_bool(&j, "signed", info->signs);
	}
	json_object_end(&j);
	json_end(&j);
}

int cmd_cluster_show(const struct cli_command *cmd)
{
	struct ftnl_cluster_info info;
	struct ftnl_handle *h;
	char hb[16], to[16], algo[64];
	int status, err;

	status = cli_open(&h);
	if (status)
		return status;
	err = ftnl_cluster_get(h, &info);
	if (err && err != -ENOENT) {
		status = cli_request_failed(h, "cluster show", err);
		ftnl_close(h);
		return status;
	}
	ftnl_close(h);

	/* No cluster is an answer, not a failure. */
	if (cmd->opt.json) {
		print_json(cmd, err ? NULL : &info);
	} else if (err) {
		printf("no cluster configured\n");
	} else {
		printf("cluster %" PRIu32 " self %" PRIu32
		       " heartbeat %s timeout %s nodes %" PRIu32
		       " generation %" PRIu32 " incarnation %" PRIu64,
		       info.cluster_id, info.self_id,
		       ftnl_format_duration(info.hb_period_us, hb, sizeof(hb)),
		       ftnl_format_duration(info.timeout_us, to, sizeof(to)),
		       info.node_count, info.generation, info.incarnation);
		if (info.has_epoch)
			printf(" epoch %" PRIu32 " update-grace %" PRIu32 "s",
			       info.epoch, info.update_grace_s);
		/* One key per pair of nodes, or the cluster key. */
		printf(" keys %s", info.pair_keys ? "pair" : "cluster");
		/* Broadcasts signed by their origin. */
		if (info.signs)
			printf(" signed");
		/* After a key change: how long the old key still works. */
		if (info.has_prev_key)
			printf(" previous-key %" PRIu64 "ms",
			       info.prev_key_left_ms);
		/* A module without the broadcast reports no algorithm. */
		if (info.has_bcast_algo)
			printf(" bcast %s",
			       cli_bcast_describe(&info, algo, sizeof(algo)));
		if (info.has_fence)
			printf(" fence %s", ftnl_fence_name(info.fence));
		if (info.has_quorum)
			printf(" quorum %s",
			       info.quorum == FTNL_QUORUM_ON ? "on" : "off");
		/* timeout is then the adaptive timeouts' maximum */
		if (info.has_timeout_min)
			printf(" timeout-adaptive %s nines %u",
			       ftnl_format_duration(info.timeout_min_us, to,
						    sizeof(to)),
			       (unsigned int)info.timeout_nines);
		putchar('\n');
	}
	return CLI_EXIT_OK;
}

/* A request without arguments or reply. */
static int simple_request(const char *what, int (*request)(struct ftnl_handle *))
{
	struct ftnl_handle *h;
	int status, err;

	status = cli_open(&h);
	if (status)
		return status;
	err = request(h);
	if (err)
		status = cli_request_failed(h, what, err);
	ftnl_close(h);
	return status;
}

int cmd_cluster_delete(const struct cli_command *cmd)
{
	(void)cmd;
	return simple_request("cluster delete", ftnl_cluster_del);
}

int cmd_cluster_leave(const struct cli_command *cmd)
{
	(void)cmd;
	return simple_request("cluster leave", ftnl_cluster_leave);
}
