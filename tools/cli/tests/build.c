// SPDX-License-Identifier: GPL-2.0
/*
 * "cluster set" configuration building: arguments alone, a file with
 * arguments overriding it, validation and --force.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "tap.h"

#define KEY "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

static char scratch_dir[64];

static char *scratch_file(const char *name, const char *content)
{
	char *path;
	int fd;

	if (asprintf(&path, "%s/%s", scratch_dir, name) < 0)
		return NULL;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, content, strlen(content)) !=
		      (ssize_t)strlen(content)) {
		free(path);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

/* Parse @line as "ftnl-cli cluster set ..." and build its configuration. */
static int build(const char *line, bool force,
		 struct ftnl_cluster_config *config, char *err, size_t errlen)
{
	char storage[2048], *argv[64], *p, *save = NULL;
	struct cli_command cmd;
	int argc = 0, ret;

	snprintf(storage, sizeof(storage), "ftnl-cli cluster set %s", line);
	for (p = strtok_r(storage, " ", &save); p && argc < 63;
	     p = strtok_r(NULL, " ", &save))
		argv[argc++] = p;
	argv[argc] = NULL;
	ret = cli_parse(argc, argv, &cmd, err, errlen);
	if (!ret)
		ret = cli_build_config(&cmd.set, force, config, err, errlen);
	cli_command_free(&cmd);
	return ret;
}

static void test_args_only(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[512] = "";

	(void)arg;
	if (!TAP_CHECK_INT(build("id 42 self 2 heartbeat 100ms timeout 300ms key "
				 KEY " node 1 10.0.0.1 7400 node 2 10.0.0.2 7400",
				 false, &c, err, sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK_UINT(c.unset, 0);
	TAP_CHECK_UINT(c.cluster_id, 42);
	TAP_CHECK_UINT(c.self_id, 2);
	TAP_CHECK_UINT(c.hb_period_us, 100000);
	TAP_CHECK_UINT(c.timeout_us, 300000);
	TAP_CHECK_UINT(c.key[31], 0xff);
	TAP_CHECK_UINT(c.node_count, 2);
	TAP_CHECK(!c.has_bcast_algo);	/* not given: not sent */
	ftnl_config_free(&c);
}

static void test_args_bcast(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[512] = "";

	(void)arg;
	if (!TAP_CHECK_INT(build("id 42 self 1 heartbeat 100ms timeout 300ms key "
				 KEY " bcast bmg node 1 10.0.0.1 7400",
				 false, &c, err, sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK(c.has_bcast_algo);
	TAP_CHECK_UINT(c.bcast_algo, FTNL_BCAST_BMG);
	TAP_CHECK_UINT(c.unset, 0);
	ftnl_config_free(&c);

	/* With --force as well. */
	TAP_CHECK_INT(build("id 0 bcast hypercube", true, &c, err, sizeof(err)), 0);
	TAP_CHECK(c.has_bcast_algo);
	TAP_CHECK_UINT(c.bcast_algo, FTNL_BCAST_HYPERCUBE);
	ftnl_config_free(&c);
}

static void test_file_bcast(const void *arg)
{
	static const char conf[] =
		"cluster 7\nheartbeat 100ms\ntimeout 300ms\nkey " KEY "\n"
		"node 1 10.0.0.1 7400\nnode 2 10.0.0.2 7400\nbcast bmg\n";
	static const char plain[] =
		"cluster 7\nheartbeat 100ms\ntimeout 300ms\nkey " KEY "\n"
		"node 1 10.0.0.1 7400\n";
	char *path = scratch_file("bcast.conf", conf);
	char *path2 = scratch_file("plain.conf", plain);
	char line[512], err[512] = "";
	struct ftnl_cluster_config c;

	(void)arg;
	if (!TAP_CHECK(path && path2))
		goto out;
	/* The file's algorithm. */
	snprintf(line, sizeof(line), "file %s self 1", path);
	if (TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0)) {
		TAP_CHECK(c.has_bcast_algo);
		TAP_CHECK_UINT(c.bcast_algo, FTNL_BCAST_BMG);
		ftnl_config_free(&c);
	}
	/* Overridden by the argument. */
	snprintf(line, sizeof(line), "file %s self 2 bcast hypercube", path);
	if (TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0)) {
		TAP_CHECK(c.has_bcast_algo);
		TAP_CHECK_UINT(c.bcast_algo, FTNL_BCAST_HYPERCUBE);
		ftnl_config_free(&c);
	}
	/* Neither: not sent. */
	snprintf(line, sizeof(line), "file %s self 1", path2);
	if (TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0)) {
		TAP_CHECK(!c.has_bcast_algo);
		ftnl_config_free(&c);
	}
	/* Only the argument. */
	snprintf(line, sizeof(line), "bcast bmg self 1 file %s", path2);
	if (TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0)) {
		TAP_CHECK(c.has_bcast_algo);
		TAP_CHECK_UINT(c.bcast_algo, FTNL_BCAST_BMG);
		ftnl_config_free(&c);
	}
	unlink(path);
	unlink(path2);
out:
	free(path);
	free(path2);
}

static void test_file_bcast_bad(const void *arg)
{
	char *path = scratch_file("badbcast.conf",
				  "cluster 1\n# the ring paper's\nbcast ring\n");
	char line[512], want[512], err[512] = "";
	struct ftnl_cluster_config c;

	(void)arg;
	if (!TAP_CHECK(path))
		return;
	snprintf(line, sizeof(line), "file %s bcast bmg", path);
	/* The file is wrong even if the argument would override it. */
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s:3: unknown broadcast algorithm \"ring\" (expected hypercube, bmg or fcg)",
		 path);
	TAP_CHECK_STR(err, want);
	unlink(path);
	free(path);
}

struct invalid_case {
	const char *args;
	const char *err;
};

static const struct invalid_case invalid_cases[] = {
	{ "id 1 self 1 heartbeat 100ms timeout 300ms node 1 10.0.0.1 1",
	  "missing cluster key" },
	{ "self 1 heartbeat 100ms timeout 300ms key " KEY " node 1 10.0.0.1 1",
	  "missing cluster id" },
	{ "id 1 self 1 heartbeat 100ms timeout 50ms key " KEY " node 1 10.0.0.1 1",
	  "timeout must be greater than the heartbeat period" },
	{ "id 0 self 1 heartbeat 100ms timeout 300ms key " KEY " node 1 10.0.0.1 1",
	  "cluster id must be nonzero" },
	{ "id 1 self 1 heartbeat 100ms timeout 300ms key " KEY " node 1 10.0.0.1 0",
	  "node 1 (#1): node port must be nonzero" },
	{ "id 1 self 9 heartbeat 100ms timeout 300ms key " KEY " node 1 10.0.0.1 1",
	  "this node's id (self 9) is not in the node table" },
	{ "id 1 self 1 heartbeat 100ms timeout 300ms key " KEY,
	  "the node table is empty" },
	{ "id 1 self 1 heartbeat 100ms timeout 300ms key " KEY
	  " node 1 10.0.0.1 1 node 2 10.0.0.1 1",
	  "duplicate node address and port 10.0.0.1 1 (nodes 1 and 2)" },
	{ "id 1 self 1 heartbeat 100ms timeout 300ms keyfile /nonexistent/key"
	  " node 1 10.0.0.1 1",
	  "cannot open key file \"/nonexistent/key\": No such file or directory" },
};

static void test_invalid(const void *arg)
{
	const struct invalid_case *c = arg;
	struct ftnl_cluster_config cfg;
	char err[512] = "";

	TAP_CHECK(build(c->args, false, &cfg, err, sizeof(err)) < 0);
	TAP_CHECK_STR(err, c->err);
}

static const struct invalid_case fcg_invalid_cases[] = {
	{ "id 1 self 1 heartbeat 100ms timeout 300ms key " KEY
	  " node 1 10.0.0.1 1 bcast fcg gossip-faults 8",
	  "FCG's f must be between 1 and 7" },
	{ "id 1 self 1 heartbeat 100ms timeout 300ms key " KEY
	  " node 1 10.0.0.1 1 bcast fcg gossip-faults 0",
	  "FCG's f must be between 1 and 7" },
	{ "id 1 self 1 heartbeat 100ms timeout 300ms key " KEY
	  " node 1 10.0.0.1 1 bcast fcg gossip-time 10001ms",
	  "FCG's gossip time must be at most 10s" },
	{ "id 1 self 1 heartbeat 100ms timeout 300ms key " KEY
	  " node 1 10.0.0.1 1 bcast fcg gossip-time 10us",
	  "FCG's gossip time must be 0 (the module's choice) or at least 20us" },
	{ "id 1 self 1 heartbeat 100ms timeout 300ms key " KEY
	  " node 1 10.0.0.1 1 gossip-faults 2",
	  "gossip-faults applies only to bcast fcg (the algorithm is hypercube, the module's default)" },
	{ "id 1 self 1 heartbeat 100ms timeout 300ms key " KEY
	  " node 1 10.0.0.1 1 bcast bmg gossip-time auto",
	  "gossip-time applies only to bcast fcg (the algorithm is bmg)" },
	{ "id 1 self 1 heartbeat 100ms timeout 300ms key " KEY
	  " node 1 10.0.0.1 1 bcast hypercube gossip-time 1ms gossip-faults 1",
	  "gossip-faults and gossip-time apply only to bcast fcg (the algorithm is hypercube)" },
};

static void test_args_fcg(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[512] = "";

	(void)arg;
	if (!TAP_CHECK_INT(build("id 1 self 1 heartbeat 100ms timeout 300ms key "
				 KEY " node 1 10.0.0.1 1 bcast fcg gossip-faults 2"
				 " gossip-time 300us", false, &c, err,
				 sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK_UINT(c.bcast_algo, FTNL_BCAST_FCG);
	TAP_CHECK(c.has_fcg_f);
	TAP_CHECK_UINT(c.fcg_f, 2);
	TAP_CHECK(c.has_gossip_t);
	TAP_CHECK_UINT(c.gossip_t_us, 300);
	ftnl_config_free(&c);

	/* Only what is given is sent. */
	TAP_CHECK_INT(build("id 1 self 1 heartbeat 100ms timeout 300ms key " KEY
			    " node 1 10.0.0.1 1 bcast fcg gossip-time auto",
			    false, &c, err, sizeof(err)), 0);
	TAP_CHECK(!c.has_fcg_f);
	TAP_CHECK(c.has_gossip_t);
	TAP_CHECK_UINT(c.gossip_t_us, 0);
	ftnl_config_free(&c);

	/* --force: out of range, and with another algorithm, for the kernel. */
	if (TAP_CHECK_INT(build("id 1 bcast bmg gossip-faults 9 gossip-time 11s",
				true, &c, err, sizeof(err)), 0)) {
		TAP_CHECK_UINT(c.bcast_algo, FTNL_BCAST_BMG);
		TAP_CHECK_UINT(c.fcg_f, 9);
		TAP_CHECK_UINT(c.gossip_t_us, 11000000);
		ftnl_config_free(&c);
	}
}

static void test_file_fcg(const void *arg)
{
	static const char conf[] =
		"cluster 7\nheartbeat 100ms\ntimeout 300ms\nkey " KEY "\n"
		"node 1 10.0.0.1 7400\nnode 2 10.0.0.2 7400\n"
		"bcast fcg\ngossip-faults 2\ngossip-time 1ms\n";
	static const char conf_no_algo[] =
		"cluster 7\nheartbeat 100ms\ntimeout 300ms\nkey " KEY "\n"
		"node 1 10.0.0.1 7400\ngossip-faults 3\n";
	struct ftnl_cluster_config c;
	char err[512] = "", line[256];
	char *path = scratch_file("fcg.conf", conf);
	char *path2 = scratch_file("fcg-noalgo.conf", conf_no_algo);

	(void)arg;
	if (!TAP_CHECK(path && path2))
		goto out;
	/* The file's values, one overridden. */
	snprintf(line, sizeof(line), "file %s self 1 gossip-faults 4", path);
	if (TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0)) {
		TAP_CHECK_UINT(c.bcast_algo, FTNL_BCAST_FCG);
		TAP_CHECK_UINT(c.fcg_f, 4);
		TAP_CHECK_UINT(c.gossip_t_us, 1000);
		ftnl_config_free(&c);
	} else {
		tap_diag("error: %s", err);
	}
	/* Another algorithm on the command line: the file's f and T are stale. */
	snprintf(line, sizeof(line), "file %s self 1 bcast hypercube", path);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "gossip-faults and gossip-time apply only to bcast fcg (the algorithm is hypercube)");
	/* A file with f and no algorithm, the algorithm from the arguments. */
	snprintf(line, sizeof(line), "file %s self 1 bcast fcg", path2);
	if (TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0)) {
		TAP_CHECK_UINT(c.fcg_f, 3);
		TAP_CHECK(!c.has_gossip_t);
		ftnl_config_free(&c);
	} else {
		tap_diag("error: %s", err);
	}
	snprintf(line, sizeof(line), "file %s self 1", path2);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "gossip-faults applies only to bcast fcg (the algorithm is hypercube, the module's default)");
out:
	if (path)
		unlink(path);
	if (path2)
		unlink(path2);
	free(path);
	free(path2);
}

static void test_force(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[512] = "";

	(void)arg;
	/* With --force, a broken configuration is built for the kernel to judge. */
	if (!TAP_CHECK_INT(build("id 0 timeout 1us node 1 224.0.0.1 0", true, &c,
				 err, sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK_UINT(c.unset, FTNL_CONFIG_SELF_ID | FTNL_CONFIG_HB_PERIOD |
		       FTNL_CONFIG_KEY);
	TAP_CHECK_UINT(c.cluster_id, 0);
	TAP_CHECK_UINT(c.timeout_us, 1);
	TAP_CHECK_UINT(c.node_count, 1);
	ftnl_config_free(&c);
}

static void test_file_override(const void *arg)
{
	static const char conf[] =
		"cluster 7\n"
		"self 1\n"
		"heartbeat 100ms\n"
		"timeout 300ms\n"
		"key " KEY "\n"
		"node 1 10.0.0.1 7400\n"
		"node 2 10.0.0.2 7400\n"
		"node 3 10.0.0.3 7400\n";
	char *path = scratch_file("override.conf", conf);
	char line[512], err[512] = "", addr[FTNL_ADDR_STRLEN];
	struct ftnl_cluster_config c;

	(void)arg;
	if (!TAP_CHECK(path))
		return;
	snprintf(line, sizeof(line),
		 "file %s self 2 heartbeat 200ms node 2 fd00::2 7401 node 9 10.0.0.9 7400",
		 path);
	if (!TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		free(path);
		return;
	}
	TAP_CHECK_UINT(c.cluster_id, 7);		/* from the file */
	TAP_CHECK_UINT(c.self_id, 2);			/* overridden */
	TAP_CHECK_UINT(c.hb_period_us, 200000);		/* overridden */
	TAP_CHECK_UINT(c.timeout_us, 300000);		/* from the file */
	if (TAP_CHECK_UINT(c.node_count, 4)) {
		TAP_CHECK_UINT(c.nodes[1].id, 2);	/* replaced in place */
		TAP_CHECK_STR(ftnl_format_addr(c.nodes[1].family,
					       &c.nodes[1].addr, addr,
					       sizeof(addr)), "fd00::2");
		TAP_CHECK_UINT(c.nodes[1].port, 7401);
		TAP_CHECK_UINT(c.nodes[2].id, 3);
		TAP_CHECK_UINT(c.nodes[3].id, 9);	/* added */
	}
	ftnl_config_free(&c);
	unlink(path);
	free(path);
}

/* A node given as an argument keeps the pair key the file gave it. */
static void test_pairkeys_override(const void *arg)
{
	static const char keys[] =
		"2 2222222222222222222222222222222222222222222222222222222222222222\n"
		"3 3333333333333333333333333333333333333333333333333333333333333333\n";
	char *kpath = scratch_file("pair.keys", keys), *path;
	char conf[512], line[512], err[512] = "";
	struct ftnl_cluster_config c;
	uint8_t k2[FTNL_KEY_LEN];

	(void)arg;
	if (!TAP_CHECK(kpath))
		return;
	snprintf(conf, sizeof(conf),
		 "cluster 7\nself 1\nheartbeat 100ms\ntimeout 300ms\n"
		 "pairkeys %s\nnode 1 10.0.0.1 7400\nnode 2 10.0.0.2 7400\n"
		 "node 3 10.0.0.3 7400\n", kpath);
	path = scratch_file("pair.conf", conf);
	if (!TAP_CHECK(path)) {
		free(kpath);
		return;
	}
	snprintf(line, sizeof(line), "file %s node 2 10.0.0.22 7400", path);
	if (TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0)) {
		ftnl_parse_key("2222222222222222222222222222222222222222222222222222222222222222",
			       k2);
		TAP_CHECK(c.unset & FTNL_CONFIG_KEY);
		TAP_CHECK(c.nodes[1].has_key);
		TAP_CHECK_MEM(c.nodes[1].key, k2, FTNL_KEY_LEN);
		TAP_CHECK_UINT(ntohl(c.nodes[1].addr.v4.s_addr), 0x0a000016);
		ftnl_config_free(&c);
	} else {
		tap_diag("error: %s", err);
	}
	/* a node the file does not have comes without a key: refused */
	snprintf(line, sizeof(line), "file %s node 4 10.0.0.4 7400", path);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_CONTAINS(err, "every node but this one needs its pair key (node 4)");
	unlink(path);
	unlink(kpath);
	free(path);
	free(kpath);
}

/*
 * "pairkeys PATH" as an argument: the keys go to the nodes of the table the
 * arguments made, the cluster key is unset; a key for a node the table
 * lacks, or a cluster key beside it, is refused; a cluster key argument
 * drops a file's pair keys.
 */
static void test_pairkeys_arg(const void *arg)
{
	static const char keys[] =
		"2 2222222222222222222222222222222222222222222222222222222222222222\n"
		"3 3333333333333333333333333333333333333333333333333333333333333333\n";
	char *kpath = scratch_file("arg.keys", keys), *path = NULL;
	char conf[512], line[1024], err[512] = "";
	struct ftnl_cluster_config c;
	uint8_t k3[FTNL_KEY_LEN];
	size_t i;

	(void)arg;
	if (!TAP_CHECK(kpath))
		return;
	ftnl_parse_key("3333333333333333333333333333333333333333333333333333333333333333",
		       k3);
	snprintf(line, sizeof(line),
		 "id 7 self 1 heartbeat 100ms timeout 300ms pairkeys %s "
		 "node 1 10.0.0.1 7400 node 2 10.0.0.2 7400 node 3 10.0.0.3 7400",
		 kpath);
	if (TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0)) {
		TAP_CHECK(c.unset & FTNL_CONFIG_KEY);
		TAP_CHECK(!c.nodes[0].has_key);
		TAP_CHECK(c.nodes[1].has_key && c.nodes[2].has_key);
		TAP_CHECK_MEM(c.nodes[2].key, k3, FTNL_KEY_LEN);
		ftnl_config_free(&c);
	} else {
		tap_diag("error: %s", err);
	}
	/* Node 3 missing from the table: its key has no node. */
	snprintf(line, sizeof(line),
		 "id 7 self 1 heartbeat 100ms timeout 300ms pairkeys %s "
		 "node 1 10.0.0.1 7400 node 2 10.0.0.2 7400", kpath);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), -ENOENT);
	TAP_CHECK_CONTAINS(err, ":2: node 3 is not in the node table");
	/* Node 4 in the table, without a key. */
	snprintf(line, sizeof(line),
		 "id 7 self 1 heartbeat 100ms timeout 300ms pairkeys %s "
		 "node 1 10.0.0.1 7400 node 2 10.0.0.2 7400 node 3 10.0.0.3 7400 "
		 "node 4 10.0.0.4 7400", kpath);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_CONTAINS(err, "every node but this one needs its pair key (node 4)");
	/* A file on a cluster key, pair keys from the arguments. */
	snprintf(conf, sizeof(conf),
		 "cluster 7\nself 1\nheartbeat 100ms\ntimeout 300ms\nkey " KEY "\n"
		 "node 1 10.0.0.1 7400\nnode 2 10.0.0.2 7400\nnode 3 10.0.0.3 7400\n");
	path = scratch_file("key.conf", conf);
	if (!TAP_CHECK(path))
		goto out;
	snprintf(line, sizeof(line), "file %s pairkeys %s", path, kpath);
	if (TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0)) {
		TAP_CHECK(c.unset & FTNL_CONFIG_KEY);
		for (i = 0; i < FTNL_KEY_LEN; i++)
			TAP_CHECK_UINT(c.key[i], 0);
		TAP_CHECK(c.nodes[2].has_key);
		ftnl_config_free(&c);
	}
	unlink(path);
	free(path);
	/* A file on pair keys, a cluster key from the arguments. */
	snprintf(conf, sizeof(conf),
		 "cluster 7\nself 1\nheartbeat 100ms\ntimeout 300ms\npairkeys %s\n"
		 "node 1 10.0.0.1 7400\nnode 2 10.0.0.2 7400\nnode 3 10.0.0.3 7400\n",
		 kpath);
	path = scratch_file("pk.conf", conf);
	if (!TAP_CHECK(path))
		goto out;
	snprintf(line, sizeof(line), "file %s key " KEY, path);
	if (TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0)) {
		TAP_CHECK(!(c.unset & FTNL_CONFIG_KEY));
		for (i = 0; i < c.node_count; i++)
			TAP_CHECK(!c.nodes[i].has_key);
		ftnl_config_free(&c);
	} else {
		tap_diag("error: %s", err);
	}
	unlink(path);
	free(path);
out:
	unlink(kpath);
	free(kpath);
}

static void test_file_self_from_args(const void *arg)
{
	static const char conf[] =
		"cluster 7\nheartbeat 100ms\ntimeout 300ms\nkey " KEY "\n"
		"node 1 10.0.0.1 7400\nnode 2 10.0.0.2 7400\n";
	char *path = scratch_file("noself.conf", conf);
	char line[512], err[512] = "";
	struct ftnl_cluster_config c;

	(void)arg;
	if (!TAP_CHECK(path))
		return;
	/* Without self: the file alone is incomplete. */
	snprintf(line, sizeof(line), "file %s", path);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "missing this node's id (self)");
	/* The same file on every node, each adding its own self. */
	snprintf(line, sizeof(line), "file %s self 2", path);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0);
	TAP_CHECK_UINT(c.self_id, 2);
	ftnl_config_free(&c);
	unlink(path);
	free(path);
}

/*
 * "self auto" in the file or as an argument: the node with this machine's
 * address (loopback, which every test machine has), after the arguments
 * completed the table; refused with the reason when no node matches; a
 * numeric self argument overrides the file's auto.
 */
static void test_self_auto(const void *arg)
{
	static const char conf[] =
		"cluster 7\nself auto\nheartbeat 100ms\ntimeout 300ms\nkey " KEY "\n"
		"node 1 10.0.0.1 7400\nnode 2 10.0.0.2 7400\n";
	char *path = scratch_file("auto.conf", conf);
	char line[512], err[512] = "";
	struct ftnl_cluster_config c;

	(void)arg;
	if (!TAP_CHECK(path))
		return;
	snprintf(line, sizeof(line), "file %s", path);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), -ENOENT);
	TAP_CHECK_CONTAINS(err, "self auto: no node of the table has an address of this host (");
	TAP_CHECK_CONTAINS(err, "127.0.0.1");

	snprintf(line, sizeof(line), "file %s node 3 127.0.0.1 7400", path);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0);
	TAP_CHECK_UINT(c.self_id, 3);
	ftnl_config_free(&c);

	snprintf(line, sizeof(line), "file %s node 3 127.0.0.1 7400 self 2", path);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0);
	TAP_CHECK_UINT(c.self_id, 2);
	ftnl_config_free(&c);

	TAP_CHECK_INT(build("id 7 self auto heartbeat 100ms timeout 300ms key " KEY
			    " node 1 127.0.0.1 7400 node 2 127.0.0.1 7401",
			    false, &c, err, sizeof(err)), -EEXIST);
	TAP_CHECK_STR(err, "self auto: nodes 1 (127.0.0.1) and 2 (127.0.0.1) both have an address of this host; give this node's id with \"self ID\"");
	unlink(path);
	free(path);
}

/*
 * The annotated example shipped for /etc/ftnl/ftnl.conf stays valid: with
 * its key file beside it, and this machine's loopback as a fifth node,
 * self auto picks that node.
 */
static void test_example_conf(const void *arg)
{
	char *copy = NULL, *key = NULL, *text = NULL, line[512], err[512] = "";
	struct ftnl_cluster_config c;
	size_t len = 0;
	FILE *f;

	(void)arg;
	f = fopen(FTNL_EXAMPLE_CONF, "r");
	if (!TAP_CHECK(f))
		return;
	if (getdelim(&text, &len, '\0', f) < 0)
		text = NULL;
	fclose(f);
	if (TAP_CHECK(text))
		copy = scratch_file("ftnl.conf", text);
	key = scratch_file("key", KEY "\n");
	if (TAP_CHECK(copy && key)) {
		snprintf(line, sizeof(line), "file %s node 5 127.0.0.1 7400", copy);
		TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0);
		if (*err)
			tap_diag("%s", err);
		TAP_CHECK_UINT(c.self_id, 5);
		TAP_CHECK_UINT(c.node_count, 5);
		ftnl_config_free(&c);
	}
	if (copy)
		unlink(copy);
	if (key)
		unlink(key);
	free(copy);
	free(key);
	free(text);
}

/* "name NAME" after a node names it; the validation checks the name. */
static void test_node_names(const void *arg)
{
	static const char base[] = "id 7 self 1 heartbeat 100ms timeout 300ms key " KEY;
	struct ftnl_cluster_config c;
	char line[512], err[512] = "";

	(void)arg;
	snprintf(line, sizeof(line),
		 "%s node 1 10.0.0.1 7400 name cn001 node 2 10.0.0.2 7400", base);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0);
	if (TAP_CHECK_UINT(c.node_count, 2)) {
		TAP_CHECK_STR(c.nodes[0].name, "cn001");
		TAP_CHECK_STR(c.nodes[1].name, "");
	}
	ftnl_config_free(&c);

	snprintf(line, sizeof(line), "%s node 1 10.0.0.1 7400 name cn/1", base);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "node 1 (#1): node name must be letters, digits, '.', '-' or '_'");
	/* --force sends it: the kernel's check is then the one that speaks. */
	TAP_CHECK_INT(build(line, true, &c, err, sizeof(err)), 0);
	ftnl_config_free(&c);

	snprintf(line, sizeof(line),
		 "%s node 1 10.0.0.1 7400 name a node 2 10.0.0.2 7400 name a", base);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "duplicate node name a (nodes 1 and 2)");

	snprintf(line, sizeof(line), "%s node 1 10.0.0.1 7400 name", base);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "cluster set: \"name\" of node 1 needs a value");
	snprintf(line, sizeof(line), "%s node 1 10.0.0.1 7400 name "
		 "a123456789b123456789c123456789d123456789e123456789f1234567890123",
		 base);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_CONTAINS(err, "of node 1 must be 1 to 63 characters");
}

static void test_file_errors(const void *arg)
{
	char *path = scratch_file("bad.conf", "cluster 1\nheartbeat 10xs\n");
	char line[512], want[512], err[512] = "";
	struct ftnl_cluster_config c;

	(void)arg;
	if (!TAP_CHECK(path))
		return;
	snprintf(line, sizeof(line), "file %s", path);
	TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s:2: invalid heartbeat \"10xs\" (expected a duration such as 100ms; units us, ms, s)",
		 path);
	TAP_CHECK_STR(err, want);
	unlink(path);
	free(path);

	TAP_CHECK_INT(build("file /nonexistent/x.conf", false, &c, err,
			    sizeof(err)), -ENOENT);
	TAP_CHECK_STR(err, "/nonexistent/x.conf: No such file or directory");
}

static void test_keyfile_arg(const void *arg)
{
	char *key = scratch_file("k.key", KEY "\n");
	char line[512], err[512] = "";
	struct ftnl_cluster_config c;

	(void)arg;
	if (!TAP_CHECK(key))
		return;
	snprintf(line, sizeof(line),
		 "id 1 self 1 heartbeat 1s timeout 3s keyfile %s node 1 10.0.0.1 1",
		 key);
	if (TAP_CHECK_INT(build(line, false, &c, err, sizeof(err)), 0)) {
		TAP_CHECK_UINT(c.key[0], 0x00);
		TAP_CHECK_UINT(c.key[1], 0x11);
		TAP_CHECK_UINT(c.unset, 0);
		ftnl_config_free(&c);
	}
	unlink(key);
	free(key);
}

int main(void)
{
	size_t i;
	int status;

	snprintf(scratch_dir, sizeof(scratch_dir), "/tmp/ftnl-cli-XXXXXX");
	if (!mkdtemp(scratch_dir)) {
		printf("Bail out! cannot create a scratch directory\n");
		return 1;
	}
	tap_add(test_args_only, NULL, "arguments alone make a configuration");
	tap_add(test_self_auto, NULL, "self auto: from this machine's addresses, or refused");
	tap_add(test_example_conf, NULL, "examples/ftnl.conf is a valid configuration");
	tap_add(test_node_names, NULL, "node names from arguments, checked");
	tap_add(test_args_bcast, NULL, "bcast argument: sent, also with --force");
	tap_add(test_file_bcast, NULL, "bcast from the file, overridden, or absent");
	tap_add(test_file_bcast_bad, NULL, "bad bcast in a file: path and line");
	for (i = 0; i < sizeof(invalid_cases) / sizeof(invalid_cases[0]); i++)
		tap_add(test_invalid, &invalid_cases[i], "refused: %s",
			invalid_cases[i].err);
	for (i = 0; i < sizeof(fcg_invalid_cases) / sizeof(fcg_invalid_cases[0]); i++)
		tap_add(test_invalid, &fcg_invalid_cases[i], "refused: %s",
			fcg_invalid_cases[i].err);
	tap_add(test_args_fcg, NULL, "FCG's f and T from arguments, also with --force");
	tap_add(test_file_fcg, NULL, "FCG's f and T from a file, overridden; stale ones refused");
	tap_add(test_force, NULL, "--force builds an invalid configuration");
	tap_add(test_file_override, NULL, "arguments override the file, nodes by id");
	tap_add(test_file_self_from_args, NULL, "file without self, self from arguments");
	tap_add(test_file_errors, NULL, "file errors carry path and line");
	tap_add(test_keyfile_arg, NULL, "keyfile argument");
	tap_add(test_pairkeys_override, NULL, "a node argument keeps the file's pair key");
	tap_add(test_pairkeys_arg, NULL, "pairkeys argument: keys to the table's nodes; a key without its node refused; key and pairkeys replace each other's");
	status = tap_run();
	rmdir(scratch_dir);
	return status;
}
