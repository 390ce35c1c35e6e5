// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The group bootstrap spec: good peers files (host indexes, node ids, any
 * rank order, a full 65,536-rank world), every rejection with its
 * file:line message, and the environment variables.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"
#include <ftnl/group.h>
#include "tap.h"

static char tmpdir[] = "/tmp/ftnl-group-spec-XXXXXX";

/* Write @text to a file named @name in the test directory. */
static const char *put_file(const char *name, const char *text)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (!f) {
		printf("Bail out! cannot write %s\n", path);
		exit(2);
	}
	fputs(text, f);
	fclose(f);
	return path;
}

static const char good_text[] =
	"# a world of five ranks\n"
	"\n"
	"job 18446744073709551615   # the largest job id\n"
	"rank 3 10.0.0.2 7000\n"
	"\trank 0 10.0.0.1 7000 host alpha\r\n"
	"rank 1 10.0.0.1 7001 node 12 host alpha\n"
	"rank 2 [fd00::2] 7000 node 4294967294\n"
	"rank 4 10.0.0.2 7001 spare";	/* no final newline */

static void test_good(const void *arg)
{
	const char *path = put_file("good.peers", good_text);
	struct ftnl_group_spec s;
	char err[256] = "", addr[FTNL_ADDR_STRLEN];

	(void)arg;
	if (!TAP_CHECK_INT(ftnl_group_spec_parse_file(path, 2, &s, err,
						      sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK_UINT(s.job, UINT64_MAX);
	TAP_CHECK_UINT(s.size, 5);
	TAP_CHECK_UINT(s.rank, 2);
	TAP_CHECK(!s.failure_dir);
	TAP_CHECK_INT(s.peers[0].family, AF_INET);
	TAP_CHECK_STR(ftnl_format_addr(s.peers[0].family, &s.peers[0].addr,
				       addr, sizeof(addr)), "10.0.0.1");
	TAP_CHECK_UINT(s.peers[1].port, 7001);
	TAP_CHECK_INT(s.peers[2].family, AF_INET6);
	TAP_CHECK_STR(ftnl_format_addr(s.peers[2].family, &s.peers[2].addr,
				       addr, sizeof(addr)), "fd00::2");
	/* host: alpha (ranks 0, 1), fd00::2 (2), 10.0.0.2 (3, 4) */
	TAP_CHECK_UINT(s.peers[0].host, 0);
	TAP_CHECK_UINT(s.peers[1].host, 0);
	TAP_CHECK_UINT(s.peers[2].host, 1);
	TAP_CHECK_UINT(s.peers[3].host, 2);
	TAP_CHECK_UINT(s.peers[4].host, 2);
	TAP_CHECK_UINT(s.peers[0].node_id, FTNL_GROUP_NODE_ANY);
	TAP_CHECK_UINT(s.peers[1].node_id, 12);
	TAP_CHECK_UINT(s.peers[2].node_id, 4294967294u);
	TAP_CHECK(!s.peers[3].spare);
	TAP_CHECK(s.peers[4].spare);
	TAP_CHECK(!s.has_key);
	TAP_CHECK(!s.has_owner);
	ftnl_group_spec_free(&s);
	TAP_CHECK(!s.peers);
	ftnl_group_spec_free(&s);	/* twice is fine */
	ftnl_group_spec_free(NULL);
}

static void test_key(const void *arg)
{
	const char *path = put_file("key.peers",
		"job 5\n"
		"key 000102030405060708090A0B0C0D0E0F101112131415161718191a1b1c1d1e1f  # secret\n"
		"rank 0 10.0.0.1 7000\nrank 1 10.0.0.1 7001\n");
	struct ftnl_group_spec s;
	uint8_t want[FTNL_KEY_LEN];
	char err[256] = "";
	size_t i;

	(void)arg;
	for (i = 0; i < sizeof(want); i++)
		want[i] = (uint8_t)i;
	if (!TAP_CHECK_INT(ftnl_group_spec_parse_file(path, 1, &s, err,
						      sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK(s.has_key);
	TAP_CHECK_MEM(s.key, want, sizeof(want));
	TAP_CHECK_UINT(s.size, 2);
	ftnl_group_spec_free(&s);
	TAP_CHECK(!s.has_key);
}

/* "owner UID": whose registrations count for the job. */
static void test_owner(const void *arg)
{
	const char *path = put_file("owner.peers",
		"job 5\nowner 1000\nrank 0 10.0.0.1 7000\nrank 1 10.0.0.1 7001\n");
	struct ftnl_group_spec s;
	char err[256] = "";

	(void)arg;
	if (!TAP_CHECK_INT(ftnl_group_spec_parse_file(path, 0, &s, err,
						      sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK(s.has_owner);
	TAP_CHECK_UINT(s.owner_uid, 1000);
	ftnl_group_spec_free(&s);
}

/* A host name equal to an address text is still a different host. */
static void test_host_names_apart(const void *arg)
{
	const char *path = put_file("hosts.peers",
				    "job 1\n"
				    "rank 0 10.0.0.1 7000\n"
				    "rank 1 10.0.0.1 7001 host 10.0.0.1\n"
				    "rank 2 10.0.0.9 7000 host 10.0.0.1\n"
				    "rank 3 10.0.0.1 7002\n");
	struct ftnl_group_spec s;
	char err[256] = "";

	(void)arg;
	if (!TAP_CHECK_INT(ftnl_group_spec_parse_file(path, 0, &s, err,
						      sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK_UINT(s.peers[0].host, 0);
	TAP_CHECK_UINT(s.peers[1].host, 1);
	TAP_CHECK_UINT(s.peers[2].host, 1);
	TAP_CHECK_UINT(s.peers[3].host, 0);
	ftnl_group_spec_free(&s);
}

static void test_max_size(const void *arg)
{
	FILE *f;
	char path[256], err[256] = "";
	struct ftnl_group_spec s;
	uint32_t r;

	(void)arg;
	snprintf(path, sizeof(path), "%s/big.peers", tmpdir);
	f = fopen(path, "w");
	if (!TAP_CHECK(f))
		return;
	fprintf(f, "job 9\n");
	/* 256 hosts of 256 ranks each, listed backwards */
	for (r = FTNL_GROUP_MAX_SIZE; r-- > 0;)
		fprintf(f, "rank %u 10.1.%u.1 %u\n", r, r / 256, 1000 + r % 256);
	fclose(f);
	if (!TAP_CHECK_INT(ftnl_group_spec_parse_file(path, 65535, &s, err,
						      sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK_UINT(s.size, FTNL_GROUP_MAX_SIZE);
	TAP_CHECK_UINT(s.peers[0].host, 0);
	TAP_CHECK_UINT(s.peers[255].host, 0);
	TAP_CHECK_UINT(s.peers[256].host, 1);
	TAP_CHECK_UINT(s.peers[65535].host, 255);
	TAP_CHECK_UINT(s.peers[65535].port, 1255);
	ftnl_group_spec_free(&s);
}

struct bad_case {
	const char *name;
	const char *text;
	int ret;
	const char *message;	/* after "<path>:" */
};

static const struct bad_case bad_cases[] = {
	{ "no job", "rank 0 10.0.0.1 7000\n", -EINVAL,
	  "1: no job line (expected \"job ID\")" },
	{ "empty file", "", -EINVAL, "1: no job line (expected \"job ID\")" },
	{ "no ranks", "job 1\n# nothing\n", -EINVAL,
	  "2: no rank lines (expected \"rank RANK ADDRESS PORT\")" },
	{ "job twice", "job 1\njob 1\n", -EINVAL,
	  "2: job already given on line 1" },
	{ "job not a number", "job 0x10\n", -EINVAL,
	  "1: invalid job \"0x10\" (expected a decimal number)" },
	{ "job negative", "job -1\n", -EINVAL,
	  "1: invalid job \"-1\" (expected a decimal number)" },
	{ "job too big", "job 18446744073709551616\n", -EINVAL,
	  "1: job \"18446744073709551616\" is out of range (0..18446744073709551615)" },
	{ "job without value", "job\n", -EINVAL,
	  "1: missing value: expected \"job ID\"" },
	{ "job with two values", "job 1 2\n", -EINVAL,
	  "1: too many values: expected \"job ID\"" },
	{ "unknown keyword", "job 1\nnode 0 10.0.0.1 7000\n", -EINVAL,
	  "2: unknown keyword \"node\" (expected job, key, owner or rank)" },
	{ "owner twice", "job 1\nowner 5\nowner 5\n", -EINVAL,
	  "3: owner already given on line 2" },
	{ "owner not a number", "job 1\nowner root\n", -EINVAL,
	  "2: invalid owner \"root\" (expected a uid, 0..4294967294)" },
	{ "owner -1", "job 1\nowner 4294967295\n", -EINVAL,
	  "2: invalid owner \"4294967295\" (expected a uid, 0..4294967294)" },
	{ "owner without value", "job 1\nowner\n", -EINVAL,
	  "2: missing value: expected \"owner UID\"" },
	{ "key too short", "job 1\nkey 0011\n", -EINVAL,
	  "2: invalid key (expected 64 hex digits)" },
	{ "key not hex",
	  "job 1\nkey 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1g\n",
	  -EINVAL, "2: invalid key (expected 64 hex digits)" },
	{ "key too long",
	  "key 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f00\n",
	  -EINVAL, "1: invalid key (expected 64 hex digits)" },
	{ "key without value", "key\n", -EINVAL,
	  "1: missing value: expected \"key HEX\"" },
	{ "key with two values", "key 00 11\n", -EINVAL,
	  "1: too many values: expected \"key HEX\"" },
	{ "key twice",
	  "key 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n"
	  "key 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n",
	  -EINVAL, "2: key already given on line 1" },
	{ "duplicate rank", "job 1\nrank 0 10.0.0.1 7000\n\nrank 0 10.0.0.2 7000\n",
	  -EINVAL, "4: duplicate rank 0 (first on line 2)" },
	{ "missing rank",
	  "job 1\nrank 0 10.0.0.1 7000\nrank 3 10.0.0.1 7003\nrank 1 10.0.0.1 7001\n",
	  -EINVAL, "3: rank 2 is missing (ranks must be 0..3, each once)" },
	{ "rank too large", "job 1\nrank 65536 10.0.0.1 7000\n", -EINVAL,
	  "2: rank 65536 is out of range (0..65535)" },
	{ "rank beyond 32 bits", "job 1\nrank 99999999999 10.0.0.1 7000\n",
	  -EINVAL, "2: rank 99999999999 is out of range (0..65535)" },
	{ "rank not a number", "job 1\nrank +1 10.0.0.1 7000\n", -EINVAL,
	  "2: invalid rank \"+1\" (expected a decimal number)" },
	{ "bad address", "job 1\nrank 0 10.0.0.256 7000\n", -EINVAL,
	  "2: invalid address \"10.0.0.256\" (expected an IPv4 or IPv6 address)" },
	{ "host name as address", "job 1\nrank 0 localhost 7000\n", -EINVAL,
	  "2: invalid address \"localhost\" (expected an IPv4 or IPv6 address)" },
	{ "multicast address", "job 1\nrank 0 224.0.0.1 7000\n", -EINVAL,
	  "2: address 224.0.0.1 is not a unicast address" },
	{ "unspecified address", "job 1\nrank 0 :: 7000\n", -EINVAL,
	  "2: address :: is not a unicast address" },
	{ "port 0", "job 1\nrank 0 10.0.0.1 0\n", -EINVAL,
	  "2: invalid port \"0\" (expected 1..65535)" },
	{ "port too large", "job 1\nrank 0 10.0.0.1 65536\n", -EINVAL,
	  "2: invalid port \"65536\" (expected 1..65535)" },
	{ "missing port", "job 1\nrank 0 10.0.0.1\n", -EINVAL,
	  "2: missing value: expected \"rank RANK ADDRESS PORT [host NAME] [node ID] [spare]\"" },
	{ "trailing garbage", "job 1\nrank 0 10.0.0.1 7000 extra\n", -EINVAL,
	  "2: unexpected \"extra\" (expected host NAME, node ID or spare)" },
	{ "host without name", "job 1\nrank 0 10.0.0.1 7000 host\n", -EINVAL,
	  "2: host: missing value" },
	{ "host twice", "job 1\nrank 0 10.0.0.1 7000 host a host b\n", -EINVAL,
	  "2: host given twice" },
	{ "node twice", "job 1\nrank 0 10.0.0.1 7000 node 1 node 2\n", -EINVAL,
	  "2: node given twice" },
	{ "node not a number", "job 1\nrank 0 10.0.0.1 7000 node x\n", -EINVAL,
	  "2: invalid node id \"x\" (expected 0..4294967294)" },
	{ "node reserved", "job 1\nrank 0 10.0.0.1 7000 node 4294967295\n",
	  -EINVAL, "2: node id 4294967295 is reserved (expected 0..4294967294)" },
	{ "too many words",
	  "job 1\nrank 0 10.0.0.1 7000 host a node 1 spare host\n", -EINVAL,
	  "2: too many values: expected \"rank RANK ADDRESS PORT [host NAME] [node ID] [spare]\"" },
	{ "spare twice", "job 1\nrank 0 10.0.0.1 7000 spare spare\n", -EINVAL,
	  "2: spare given twice" },
	{ "only spares",
	  "job 1\nrank 0 10.0.0.1 7000 spare\nrank 1 10.0.0.1 7001 spare\n",
	  -EINVAL,
	  "3: every rank is a spare (view 0 needs one that is not)" },
	{ "duplicate endpoint",
	  "job 1\nrank 1 10.0.0.1 7000\nrank 0 10.0.0.2 7000\nrank 2 10.0.0.1 7000\n",
	  -EINVAL, "4: duplicate address and port 10.0.0.1 7000 (first on line 2)" },
	{ "duplicate v6 endpoint",
	  "job 1\nrank 0 fd00::1 7000\nrank 1 [fd00:0::1] 7000\n",
	  -EINVAL, "3: duplicate address and port fd00::1 7000 (first on line 2)" },
	{ "rank not in file", "job 1\nrank 0 10.0.0.1 7000\nrank 1 10.0.0.1 7001\n",
	  -ERANGE, " rank 2 is not in the file (ranks 0..1)" },
};

static void test_bad(const void *arg)
{
	const struct bad_case *c = arg;
	const char *path = put_file("bad.peers", c->text);
	struct ftnl_group_spec s = { .job = 77, .size = 3 };
	char err[512] = "", want[512];

	TAP_CHECK_INT(ftnl_group_spec_parse_file(path, 2, &s, err, sizeof(err)),
		      c->ret);
	snprintf(want, sizeof(want), "%s:%s", path, c->message);
	TAP_CHECK_STR(err, want);
	/* nothing changed */
	TAP_CHECK_UINT(s.job, 77);
	TAP_CHECK_UINT(s.size, 3);
	TAP_CHECK(!s.peers);
}

static void test_nul_byte(const void *arg)
{
	char path[256], err[256] = "", want[300];
	struct ftnl_group_spec s;
	FILE *f;

	(void)arg;
	snprintf(path, sizeof(path), "%s/nul.peers", tmpdir);
	f = fopen(path, "w");
	if (!TAP_CHECK(f))
		return;
	fwrite("job 1\nrank 0 10.0.0.1\0 7000\n", 1, 29, f);
	fclose(f);
	TAP_CHECK_INT(ftnl_group_spec_parse_file(path, 0, &s, err, sizeof(err)),
		      -EINVAL);
	snprintf(want, sizeof(want), "%s:2: NUL byte in text", path);
	TAP_CHECK_STR(err, want);
}

static void test_missing_file(const void *arg)
{
	struct ftnl_group_spec s;
	char err[256] = "";

	(void)arg;
	TAP_CHECK_INT(ftnl_group_spec_parse_file("/nonexistent/peers", 0, &s,
						 err, sizeof(err)), -ENOENT);
	TAP_CHECK_STR(err, "/nonexistent/peers: No such file or directory");
	TAP_CHECK_INT(ftnl_group_spec_parse_file(tmpdir, 0, &s, NULL, 0),
		      -EISDIR);
}

static void clear_env(void)
{
	unsetenv("FTNL_GROUP_PEERS");
	unsetenv("FTNL_GROUP_RANK");
	unsetenv("FTNL_GROUP_FAILURE_DIR");
	unsetenv("FTNL_GROUP_MODULE");
	unsetenv("FTNL_GROUP_INCARNATION");
}

static void test_env(const void *arg)
{
	const char *path = put_file("env.peers", good_text);
	struct ftnl_group_spec s = { .job = 5 };
	char err[256] = "";

	(void)arg;
	clear_env();
	TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), -ENOENT);
	TAP_CHECK_STR(err, "FTNL_GROUP_PEERS is not set");
	setenv("FTNL_GROUP_PEERS", path, 1);
	TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), -ENOENT);
	TAP_CHECK_STR(err, "FTNL_GROUP_RANK is not set");

	setenv("FTNL_GROUP_RANK", " 1", 1);
	TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "FTNL_GROUP_RANK \" 1\" is not a rank (expected a decimal number)");
	setenv("FTNL_GROUP_RANK", "1x", 1);
	TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), -EINVAL);
	setenv("FTNL_GROUP_RANK", "", 1);
	TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), -EINVAL);
	setenv("FTNL_GROUP_RANK", "5", 1);
	TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), -ERANGE);
	TAP_CHECK_UINT(s.job, 5);	/* untouched */

	setenv("FTNL_GROUP_RANK", "4", 1);
	setenv("FTNL_GROUP_FAILURE_DIR", "", 1);
	TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "FTNL_GROUP_FAILURE_DIR is empty (unset it for no failure directory)");

	unsetenv("FTNL_GROUP_FAILURE_DIR");
	if (TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), 0)) {
		TAP_CHECK_UINT(s.rank, 4);
		TAP_CHECK_UINT(s.size, 5);
		TAP_CHECK(!s.failure_dir);
		TAP_CHECK_INT(s.module, FTNL_GROUP_MODULE_AUTO);
		TAP_CHECK_UINT(s.incarnation, 1);
		ftnl_group_spec_free(&s);
	}
	setenv("FTNL_GROUP_INCARNATION", "3", 1);
	if (TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), 0)) {
		TAP_CHECK_UINT(s.incarnation, 3);
		ftnl_group_spec_free(&s);
	}
	setenv("FTNL_GROUP_INCARNATION", "0", 1);
	TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "FTNL_GROUP_INCARNATION \"0\" is not an incarnation (expected 1..4294967294)");
	unsetenv("FTNL_GROUP_INCARNATION");
	setenv("FTNL_GROUP_MODULE", "on", 1);
	if (TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), 0)) {
		TAP_CHECK_INT(s.module, FTNL_GROUP_MODULE_ON);
		ftnl_group_spec_free(&s);
	}
	setenv("FTNL_GROUP_MODULE", "off", 1);
	if (TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), 0)) {
		TAP_CHECK_INT(s.module, FTNL_GROUP_MODULE_OFF);
		ftnl_group_spec_free(&s);
	}
	setenv("FTNL_GROUP_MODULE", "yes", 1);
	TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "FTNL_GROUP_MODULE \"yes\" is not on, off or auto");
	unsetenv("FTNL_GROUP_MODULE");
	setenv("FTNL_GROUP_FAILURE_DIR", "/run/ftnl/job-7/failed", 1);
	if (TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), 0)) {
		TAP_CHECK_STR(s.failure_dir, "/run/ftnl/job-7/failed");
		ftnl_group_spec_free(&s);
		TAP_CHECK(!s.failure_dir);
	}

	setenv("FTNL_GROUP_PEERS", "", 1);
	TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "FTNL_GROUP_PEERS is empty");
	setenv("FTNL_GROUP_PEERS", put_file("env-bad.peers", "job 1\nbogus\n"), 1);
	TAP_CHECK_INT(ftnl_group_spec_from_env(&s, err, sizeof(err)), -EINVAL);
	TAP_CHECK_CONTAINS(err, "env-bad.peers:2: unknown keyword \"bogus\"");
	clear_env();
}

int main(void)
{
	char cmd[300];
	size_t i;
	int ret;

	if (!mkdtemp(tmpdir)) {
		printf("Bail out! mkdtemp failed\n");
		return 2;
	}
	tap_add(test_good, NULL, "good peers file");
	tap_add(test_owner, NULL, "owner: the uid the job's registrations are under");
	tap_add(test_key, NULL, "key line");
	tap_add(test_host_names_apart, NULL, "host names and addresses apart");
	tap_add(test_max_size, NULL, "65536 ranks");
	for (i = 0; i < FTNL_ARRAY_SIZE(bad_cases); i++)
		tap_add(test_bad, &bad_cases[i], "rejected: %s", bad_cases[i].name);
	tap_add(test_nul_byte, NULL, "rejected: NUL byte");
	tap_add(test_missing_file, NULL, "unreadable file");
	tap_add(test_env, NULL, "environment");
	ret = tap_run();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		ret = ret ? ret : 1;
	return ret;
}
