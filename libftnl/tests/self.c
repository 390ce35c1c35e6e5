// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * "self auto": the matching rule (none, one, several nodes with an address
 * of this host), its messages, the parser's keyword, and the resolution
 * against the test machine's own addresses.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

static const char *const table[] = {
	"node 1 10.0.0.1 7400", "node 2 10.0.0.2 7400", "node 3 fd00::3 7400",
	"node 4 fd00::4 7401",
};

/* A parsed configuration with self auto and the four nodes above. */
static void load(struct ftnl_cluster_config *c, const char *extra)
{
	char text[1024], err[256];
	size_t i;

	snprintf(text, sizeof(text),
		 "cluster 7\nself auto\nheartbeat 100ms\ntimeout 300ms\n"
		 "key 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\n%s\n",
		 extra);
	for (i = 0; i < FTNL_ARRAY_SIZE(table); i++) {
		strcat(text, table[i]);
		strcat(text, "\n");
	}
	if (ftnl_config_parse_string(text, "t", FTNL_CONFIG_PARSE_RAW, c, err,
				     sizeof(err))) {
		tap_diag("%s", err);
		abort();
	}
}

static struct ftnl_local_addr addr(const char *text)
{
	struct ftnl_local_addr a;

	if (ftnl_parse_addr(text, &a.family, &a.addr))
		abort();
	return a;
}

static void test_parse(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256] = "";

	(void)arg;
	load(&c, "");
	TAP_CHECK(c.self_auto);
	TAP_CHECK(c.unset & FTNL_CONFIG_SELF_ID);
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "self auto is not resolved yet (ftnl_config_resolve_self())");
	ftnl_config_free(&c);

	/* "self auto" twice, or beside "self 3", is one keyword given twice. */
	TAP_CHECK_INT(ftnl_config_parse_string("self auto\nself 3\n", "t", 0,
					       &c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "t:2: self already given on line 1");
}

static void test_one(const void *arg)
{
	struct ftnl_local_addr local[] = {
		addr("127.0.0.1"), addr("::1"), addr("10.0.0.2"),
		addr("fe80::5"),
	};
	struct ftnl_cluster_config c;
	char err[256] = "";
	uint32_t self = 0;

	(void)arg;
	load(&c, "");
	TAP_CHECK_INT(ftnl_config_match_self(&c, local, 4, &self, err,
					     sizeof(err)), 0);
	TAP_CHECK_UINT(self, 2);

	/* IPv6, and the port plays no part. */
	local[2] = addr("fd00::4");
	TAP_CHECK_INT(ftnl_config_match_self(&c, local, 4, &self, err,
					     sizeof(err)), 0);
	TAP_CHECK_UINT(self, 4);
	ftnl_config_free(&c);
}

static void test_none(const void *arg)
{
	struct ftnl_local_addr local[] = {
		addr("127.0.0.1"), addr("10.0.0.9"), addr("fd00::1"),
	};
	struct ftnl_cluster_config c;
	char err[256] = "";
	uint32_t self = 77;

	(void)arg;
	load(&c, "");
	TAP_CHECK_INT(ftnl_config_match_self(&c, local, 3, &self, err,
					     sizeof(err)), -ENOENT);
	TAP_CHECK_STR(err, "self auto: no node of the table has an address of this host (127.0.0.1, 10.0.0.9, fd00::1)");
	TAP_CHECK_UINT(self, 77);

	TAP_CHECK_INT(ftnl_config_match_self(&c, local, 0, &self, err,
					     sizeof(err)), -ENOENT);
	TAP_CHECK_STR(err, "self auto: this host has no IPv4 or IPv6 address; no node of the table can be it");
	ftnl_config_free(&c);
}

/* The same 16 bytes as an IPv4 address of another family do not match. */
static void test_family(const void *arg)
{
	struct ftnl_local_addr local = addr("10.0.0.1");
	struct ftnl_cluster_config c;
	char err[256] = "";
	uint32_t self = 0;

	(void)arg;
	load(&c, "");
	local.family = AF_INET6;
	TAP_CHECK_INT(ftnl_config_match_self(&c, &local, 1, &self, err,
					     sizeof(err)), -ENOENT);
	ftnl_config_free(&c);
}

static void test_several(const void *arg)
{
	struct ftnl_local_addr local[] = {
		addr("10.0.0.1"), addr("fd00::3"),
	};
	struct ftnl_cluster_config c;
	char err[256] = "";
	uint32_t self = 77;

	(void)arg;
	load(&c, "");
	TAP_CHECK_INT(ftnl_config_match_self(&c, local, 2, &self, err,
					     sizeof(err)), -EEXIST);
	TAP_CHECK_STR(err, "self auto: nodes 1 (10.0.0.1) and 3 (fd00::3) both have an address of this host; give this node's id with \"self ID\"");
	TAP_CHECK_UINT(self, 77);
	ftnl_config_free(&c);
}

/* Many local addresses: the message lists the first eight. */
static void test_long_list(const void *arg)
{
	struct ftnl_local_addr local[12];
	struct ftnl_cluster_config c;
	char err[512] = "", text[32];
	uint32_t self;
	int i;

	(void)arg;
	for (i = 0; i < 12; i++) {
		snprintf(text, sizeof(text), "192.168.1.%d", i + 1);
		local[i] = addr(text);
	}
	load(&c, "");
	TAP_CHECK_INT(ftnl_config_match_self(&c, local, 12, &self, err,
					     sizeof(err)), -ENOENT);
	TAP_CHECK_CONTAINS(err, "192.168.1.8, ...)");
	TAP_CHECK(!strstr(err, "192.168.1.9"));
	ftnl_config_free(&c);
}

/*
 * Against this machine: a table whose only local address is loopback's
 * resolves to that node and is then valid; one without fails and leaves
 * the configuration as it was.
 */
static void test_resolve(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256] = "";

	(void)arg;
	load(&c, "node 9 127.0.0.1 7400");
	TAP_CHECK_INT(ftnl_config_resolve_self(&c, err, sizeof(err)), 0);
	TAP_CHECK_UINT(c.self_id, 9);
	TAP_CHECK(!c.self_auto);
	TAP_CHECK(!(c.unset & FTNL_CONFIG_SELF_ID));
	ftnl_config_free(&c);

	load(&c, "");
	TAP_CHECK_INT(ftnl_config_resolve_self(&c, err, sizeof(err)), -ENOENT);
	TAP_CHECK_CONTAINS(err, "127.0.0.1");
	TAP_CHECK(c.self_auto);
	TAP_CHECK(c.unset & FTNL_CONFIG_SELF_ID);
	ftnl_config_free(&c);
}

int main(void)
{
	tap_add(test_parse, NULL, "self auto parses, and is refused until resolved");
	tap_add(test_one, NULL, "one node matches: its id (IPv4 and IPv6)");
	tap_add(test_none, NULL, "no node matches: refused, listing the addresses");
	tap_add(test_family, NULL, "an address of another family does not match");
	tap_add(test_several, NULL, "several nodes match: refused, naming two");
	tap_add(test_long_list, NULL, "a long address list is cut");
	tap_add(test_resolve, NULL, "resolved against this machine's addresses");
	return tap_run();
}
