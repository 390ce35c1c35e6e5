// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The configuration file parser: good files, every error with its line
 * number, raw mode, key files, big files.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

#define KEY "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

static const char good_text[] =
	"# ftnl cluster configuration\n"
	"\n"
	"cluster 42\n"
	"self 3              # optional\n"
	"heartbeat 100ms\n"
	"\ttimeout   300ms\t\r\n"
	"key " KEY "\n"
	"node 1 10.0.0.1 7400\n"
	"node 2 fd00::2 7400   # IPv6\n"
	"node 3 [fd00::3] 7401 domain rack-b\n"
	"   # indented comment\n"
	"node 4 10.0.0.4 7400 domain 0123456789abcdef0123456789abcde name cn4";
	/* no final newline; the longest domain, before a name */

static void test_good(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256] = "", addr[FTNL_ADDR_STRLEN];

	(void)arg;
	if (!TAP_CHECK_INT(ftnl_config_parse_string(good_text, "good.conf", 0, &c,
						    err, sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK_UINT(c.unset, 0);
	TAP_CHECK(!c.has_bcast_algo);	/* no bcast line: module's default */
	TAP_CHECK_UINT(c.cluster_id, 42);
	TAP_CHECK_UINT(c.self_id, 3);
	TAP_CHECK_UINT(c.hb_period_us, 100000);
	TAP_CHECK_UINT(c.timeout_us, 300000);
	TAP_CHECK_UINT(c.key[0], 0x00);
	TAP_CHECK_UINT(c.key[31], 0xff);
	if (TAP_CHECK_UINT(c.node_count, 4)) {
		TAP_CHECK_UINT(c.nodes[1].id, 2);
		TAP_CHECK_INT(c.nodes[1].family, AF_INET6);
		TAP_CHECK_STR(ftnl_format_addr(c.nodes[2].family, &c.nodes[2].addr,
					       addr, sizeof(addr)), "fd00::3");
		TAP_CHECK_UINT(c.nodes[2].port, 7401);
		TAP_CHECK_STR(c.nodes[1].domain, "");
		TAP_CHECK_STR(c.nodes[2].domain, "rack-b");
		TAP_CHECK_STR(c.nodes[3].domain,
			      "0123456789abcdef0123456789abcde");
		TAP_CHECK_STR(c.nodes[3].name, "cn4");
		TAP_CHECK_STR(ftnl_format_addr(c.nodes[3].family, &c.nodes[3].addr,
					       addr, sizeof(addr)), "10.0.0.4");
	}
	TAP_CHECK_STR(err, "");
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), 0);
	ftnl_config_free(&c);
	TAP_CHECK(!c.nodes);
	TAP_CHECK_UINT(c.unset, FTNL_CONFIG_ALL);
	ftnl_config_free(&c);	/* twice is fine */
}

static void test_empty(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256];

	(void)arg;
	TAP_CHECK_INT(ftnl_config_parse_string("# nothing\n\n", NULL, 0, &c, err,
					       sizeof(err)), 0);
	TAP_CHECK_UINT(c.unset, FTNL_CONFIG_ALL);
	TAP_CHECK_UINT(c.node_count, 0);
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "missing cluster id");
	ftnl_config_free(&c);
}

static void test_self_optional(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256];

	(void)arg;
	TAP_CHECK_INT(ftnl_config_parse_string(
		"cluster 1\nheartbeat 1s\ntimeout 3s\nkey " KEY "\n"
		"node 5 10.0.0.5 1\n", NULL, 0, &c, err, sizeof(err)), 0);
	TAP_CHECK_UINT(c.unset, FTNL_CONFIG_SELF_ID);
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "missing this node's id (self)");
	/* What ftnl-cli does with "self 5" on the command line. */
	c.self_id = 5;
	c.unset &= ~FTNL_CONFIG_SELF_ID;
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), 0);
	ftnl_config_free(&c);
}

struct error_case {
	const char *text;
	const char *want;	/* expected error message, whole */
};

#define BASE "cluster 1\nheartbeat 100ms\ntimeout 300ms\nkey " KEY "\n"

static const struct error_case error_cases[] = {
	{ "cluster 1\nbogus 3\n",
	  "t.conf:2: unknown keyword \"bogus\" (expected cluster, self, heartbeat, timeout, key, keyfile, pairkeys, node, bcast, gossip-faults, gossip-time, rejoin, rejoin-limit, fence, quorum, timeout-adaptive, epoch or update-grace)" },
	/* The fence policy. */
	{ "fence kil\n",
	  "t.conf:1: unknown fence policy \"kil\" (expected none or kill)" },
	{ "fence\n", "t.conf:1: missing value: expected \"fence none|kill\"" },
	{ "fence kill\nfence none\n", "t.conf:2: fence already given on line 1" },
	/* The epoch and the update grace. */
	{ "epoch -1\n",
	  "t.conf:1: invalid epoch \"-1\" (expected a decimal number)" },
	{ "epoch 1\nepoch 2\n", "t.conf:2: epoch already given on line 1" },
	{ "update-grace 0\n",
	  "t.conf:1: update-grace 0: expected 1 to 86400 seconds" },
	{ "update-grace 86401\n",
	  "t.conf:1: update-grace 86401: expected 1 to 86400 seconds" },
	/* The quorum policy. */
	{ "quorum maybe\n", "t.conf:1: quorum \"maybe\": expected on or off" },
	{ "quorum ON\n", "t.conf:1: quorum \"ON\": expected on or off" },
	{ "quorum\n", "t.conf:1: missing value: expected \"quorum on|off\"" },
	{ "quorum on off\n", "t.conf:1: too many values: expected \"quorum on|off\"" },
	{ "quorum on\nquorum off\n",
	  "t.conf:2: quorum already given on line 1" },
	/* FCG's parameters. */
	{ "gossip-faults 0\n", "t.conf:1: gossip-faults 0: FCG's f must be between 1 and 7" },
	{ "gossip-faults 8\n", "t.conf:1: gossip-faults 8: FCG's f must be between 1 and 7" },
	{ "gossip-faults 256\n", "t.conf:1: gossip-faults 256: FCG's f must be between 1 and 7" },
	{ "gossip-faults two\n",
	  "t.conf:1: invalid gossip-faults \"two\" (expected a decimal number)" },
	{ "gossip-faults -1\n",
	  "t.conf:1: invalid gossip-faults \"-1\" (expected a decimal number)" },
	{ "gossip-faults\n", "t.conf:1: missing value: expected \"gossip-faults N\"" },
	{ "gossip-faults 1 2\n", "t.conf:1: too many values: expected \"gossip-faults N\"" },
	{ "gossip-faults 1\ngossip-faults 2\n",
	  "t.conf:2: gossip-faults already given on line 1" },
	{ "gossip-time 11s\n", "t.conf:1: gossip-time 11s: FCG's gossip time must be at most 10s" },
	{ "gossip-time 19us\n",
	  "t.conf:1: gossip-time 19us: FCG's gossip time must be 0 (the module's choice) or at least 20us" },
	{ "gossip-time 5\n",
	  "t.conf:1: invalid gossip-time \"5\" (expected a duration such as 100ms; units us, ms, s)" },
	{ "gossip-time Auto\n",
	  "t.conf:1: invalid gossip-time \"Auto\" (expected a duration such as 100ms; units us, ms, s)" },
	{ "gossip-time 9999999s\n", "t.conf:1: gossip-time \"9999999s\" is too long" },
	{ "gossip-time\n", "t.conf:1: missing value: expected \"gossip-time DURATION|auto\"" },
	{ "gossip-time auto\n\ngossip-time 1ms\n",
	  "t.conf:3: gossip-time already given on line 1" },
	{ "bcast bmg\ngossip-faults 2\n",
	  "t.conf:2: gossip-faults applies only to bcast fcg (bcast bmg on line 1)" },
	{ "gossip-time 1ms\nbcast hypercube\n",
	  "t.conf:1: gossip-time applies only to bcast fcg (bcast hypercube on line 2)" },
	{ "gossip-fault 2\n",
	  "t.conf:1: unknown keyword \"gossip-fault\" (expected cluster, self, heartbeat, timeout, key, keyfile, pairkeys, node, bcast, gossip-faults, gossip-time, rejoin, rejoin-limit, fence, quorum, timeout-adaptive, epoch or update-grace)" },
	/* The rejoin policy and its flap limit. */
	{ "rejoin maybe\n",
	  "t.conf:1: unknown rejoin policy \"maybe\" (expected auto or manual)" },
	{ "rejoin auto\nrejoin manual\n", "t.conf:2: rejoin already given on line 1" },
	{ "rejoin-limit 0 600\n",
	  "t.conf:1: rejoin-limit 0 600: the flap limit must be between 1 and 1000 rejoins" },
	{ "rejoin-limit 3 0\n",
	  "t.conf:1: rejoin-limit 3 0: the flap window must be between 1 and 86400 seconds" },
	{ "rejoin-limit 3\n", "t.conf:1: missing value: expected \"rejoin-limit K SECONDS\"" },
	{ "cluster 1\n\nbcast ring\n",
	  "t.conf:3: unknown broadcast algorithm \"ring\" (expected hypercube, bmg or fcg)" },
	{ "bcast BMG\n",
	  "t.conf:1: unknown broadcast algorithm \"BMG\" (expected hypercube, bmg or fcg)" },
	{ "bcast hyper\n",
	  "t.conf:1: unknown broadcast algorithm \"hyper\" (expected hypercube, bmg or fcg)" },
	{ "bcast 1\n",
	  "t.conf:1: unknown broadcast algorithm \"1\" (expected hypercube, bmg or fcg)" },
	{ "cluster 1\nbcast\n", "t.conf:2: missing value: expected \"bcast ALGORITHM\"" },
	{ "bcast bmg hypercube\n",
	  "t.conf:1: too many values: expected \"bcast ALGORITHM\"" },
	{ "bcast bmg\ncluster 1\nbcast bmg\n",
	  "t.conf:3: bcast already given on line 1" },
	{ "bcast#bmg\n", "t.conf:1: missing value: expected \"bcast ALGORITHM\"" },
	{ "cluster\n", "t.conf:1: missing value: expected \"cluster ID\"" },
	{ "cluster 1 2\n", "t.conf:1: too many values: expected \"cluster ID\"" },
	{ "cluster one\n",
	  "t.conf:1: invalid cluster id \"one\" (expected a decimal number)" },
	{ "cluster 4294967296\n",
	  "t.conf:1: cluster id \"4294967296\" is out of range (0..4294967295)" },
	{ "cluster 0\n", "t.conf:1: cluster id must be nonzero" },
	{ "cluster 1\ncluster 2\n", "t.conf:2: cluster already given on line 1" },
	{ "self -1\n",
	  "t.conf:1: invalid self id \"-1\" (expected a decimal number)" },
	{ "\n\nheartbeat 10xs\n",
	  "t.conf:3: invalid heartbeat \"10xs\" (expected a duration such as 100ms; units us, ms, s)" },
	{ "heartbeat 100\n",
	  "t.conf:1: invalid heartbeat \"100\" (expected a duration such as 100ms; units us, ms, s)" },
	{ "heartbeat 999us\n",
	  "t.conf:1: heartbeat 999us: heartbeat period must be between 1ms and 60s" },
	{ "heartbeat 61s\n",
	  "t.conf:1: heartbeat 61s: heartbeat period must be between 1ms and 60s" },
	{ "heartbeat 5000s\n", "t.conf:1: heartbeat \"5000s\" is too long" },
	{ "timeout 601s\n",
	  "t.conf:1: timeout 601s: timeout must be above 1ms and at most 600s" },
	{ "timeout 1ms\n",
	  "t.conf:1: timeout 1ms: timeout must be above 1ms and at most 600s" },
	{ "heartbeat 200ms\n# x\ntimeout 200ms\n",
	  "t.conf:3: timeout 200ms must be greater than the heartbeat period 200ms (line 1)" },
	{ "timeout 100ms\nheartbeat 1s\n",
	  "t.conf:1: timeout 100ms must be greater than the heartbeat period 1s (line 2)" },
	{ "key 0011\n", "t.conf:1: key must be 64 hex digits (32 bytes)" },
	{ "key " KEY "\nkeyfile /k\n",
	  "t.conf:2: key (or keyfile, pairkeys) already given on line 1" },
	{ "keyfile /nonexistent/k\n",
	  "t.conf:1: cannot open key file \"/nonexistent/k\": No such file or directory" },
	{ BASE "node 1 10.0.0.1\n",
	  "t.conf:5: missing value: expected \"node ID ADDRESS PORT [name NAME] [domain DOMAIN]\"" },
	{ BASE "node 1 10.0.0.1 7400 extra\n",
	  "t.conf:5: unexpected \"extra\" after the port (expected \"name NAME\" or \"domain DOMAIN\")" },
	{ BASE "node 1 10.0.0.1 7400 a b c d e f\n",
	  "t.conf:5: too many values: expected \"node ID ADDRESS PORT [name NAME] [domain DOMAIN]\"" },
	{ BASE "node 1 10.0.0.1 7400 name\n",
	  "t.conf:5: missing value: expected \"node ID ADDRESS PORT [name NAME] [domain DOMAIN]\"" },
	{ BASE "node 1 10.0.0.1 7400 label cn1\n",
	  "t.conf:5: unexpected \"label\" after the port (expected \"name NAME\" or \"domain DOMAIN\")" },
	{ BASE "node 1 10.0.0.1 7400 name cn1 domain\n",
	  "t.conf:5: missing value: expected \"node ID ADDRESS PORT [name NAME] [domain DOMAIN]\"" },
	{ BASE "node 1 10.0.0.1 7400 domain r1 domain r2\n",
	  "t.conf:5: node 1: domain given twice" },
	{ BASE "node 1 10.0.0.1 7400 domain rack/1\n",
	  "t.conf:5: node 1 domain \"rack/1\": failure domain must be letters, digits, '.', '-' or '_'" },
	{ BASE "node 1 10.0.0.1 7400 domain 0123456789abcdef0123456789abcdef\n",
	  "t.conf:5: node 1 domain \"0123456789abcdef0123456789abcdef\": failure domain must be 1 to 31 characters" },
	{ BASE "node 1 10.0.0.1 7400 name cn/1\n",
	  "t.conf:5: node 1 name \"cn/1\": node name must be letters, digits, '.', '-' or '_'" },
	{ BASE "node 1 10.0.0.1 7400 name "
	  "a123456789b123456789c123456789d123456789e123456789f1234567890123\n",
	  "t.conf:5: node 1 name \"a123456789b123456789c123456789d123456789e123456789f1234567890123\": node name must be 1 to 63 characters" },
	{ BASE "node 1 10.0.0.1 7400 name cn1\nnode 2 10.0.0.2 7400 name cn1\n",
	  "t.conf:6: duplicate node name cn1 (first on line 5)" },
	{ BASE "node x 10.0.0.1 7400\n",
	  "t.conf:5: invalid node id \"x\" (expected a decimal number)" },
	{ BASE "node 1 10.0.0.300 7400\n",
	  "t.conf:5: invalid address \"10.0.0.300\" (expected an IPv4 or IPv6 address)" },
	{ BASE "node 1 host.example 7400\n",
	  "t.conf:5: invalid address \"host.example\" (expected an IPv4 or IPv6 address)" },
	{ BASE "node 1 10.0.0.1 70000\n",
	  "t.conf:5: invalid port \"70000\" (expected 1..65535)" },
	{ BASE "node 1 10.0.0.1 0\n", "t.conf:5: node 1: node port must be nonzero" },
	{ BASE "node 1 224.0.0.1 1\n",
	  "t.conf:5: node 1: node address must be unicast" },
	{ BASE "node 1 0.0.0.0 1\n", "t.conf:5: node 1: node address must be unicast" },
	{ BASE "node 1 :: 1\n",
	  "t.conf:5: node 1: node address must be unicast (and not v4-mapped)" },
	{ BASE "node 1 ::ffff:10.0.0.1 1\n",
	  "t.conf:5: node 1: node address must be unicast (and not v4-mapped)" },
	{ BASE "node 1 10.0.0.1 1\nnode 2 10.0.0.2 1\n\nnode 1 10.0.0.3 1\n",
	  "t.conf:8: duplicate node id 1 (first on line 5)" },
	{ BASE "node 1 10.0.0.1 1\nnode 2 10.0.0.2 1\nnode 3 10.0.0.1 1\n",
	  "t.conf:7: duplicate node address and port 10.0.0.1 1 (first on line 5)" },
	{ BASE "node 1 fd00::1 1\nnode 2 fd00:0::1 1\n",
	  "t.conf:6: duplicate node address and port fd00::1 1 (first on line 5)" },
	/* The earliest repetition is reported, not the first id in order. */
	{ BASE "node 9 10.0.0.9 1\nnode 2 10.0.0.2 1\nnode 2 10.0.0.3 1\n"
	  "node 9 10.0.0.4 1\n",
	  "t.conf:7: duplicate node id 2 (first on line 6)" },
};

static void test_error(const void *arg)
{
	const struct error_case *c = arg;
	struct ftnl_cluster_config cfg;
	char err[512] = "";

	TAP_CHECK(ftnl_config_parse_string(c->text, "t.conf", 0, &cfg, err,
					   sizeof(err)) < 0);
	TAP_CHECK_STR(err, c->want);
	/* Nothing to free after a failure. */
	TAP_CHECK(!cfg.nodes);
	TAP_CHECK_UINT(cfg.node_count, 0);
}

struct bcast_file_case {
	const char *text;
	uint8_t algo;
};

static const struct bcast_file_case bcast_file_cases[] = {
	{ BASE "self 1\nnode 1 10.0.0.1 1\nbcast bmg\n", FTNL_BCAST_BMG },
	{ "bcast hypercube   # the default, said explicitly\n" BASE
	  "self 1\nnode 1 10.0.0.1 1\n", FTNL_BCAST_HYPERCUBE },
	{ BASE "self 1\nnode 1 10.0.0.1 1\n\tbcast\tbmg\r\n", FTNL_BCAST_BMG },
	{ BASE "bcast fcg\nself 1\nnode 1 10.0.0.1 1\n", FTNL_BCAST_FCG },
};

static void test_bcast(const void *arg)
{
	const struct bcast_file_case *fc = arg;
	struct ftnl_cluster_config c;
	char err[256] = "";

	if (!TAP_CHECK_INT(ftnl_config_parse_string(fc->text, "b.conf", 0, &c,
						    err, sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK(c.has_bcast_algo);
	TAP_CHECK_UINT(c.bcast_algo, fc->algo);
	TAP_CHECK_UINT(c.unset, 0);	/* bcast is no field of "unset" */
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), 0);
	ftnl_config_free(&c);
	TAP_CHECK(!c.has_bcast_algo);
	TAP_CHECK_UINT(c.bcast_algo, 0);
}

static void test_bcast_raw(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256] = "";

	(void)arg;
	/* Raw mode loads invalid clusters, but a name is syntax. */
	TAP_CHECK_INT(ftnl_config_parse_string("cluster 0\nbcast bmg\n", NULL,
					       FTNL_CONFIG_PARSE_RAW, &c, err,
					       sizeof(err)), 0);
	TAP_CHECK(c.has_bcast_algo);
	TAP_CHECK_UINT(c.bcast_algo, FTNL_BCAST_BMG);
	ftnl_config_free(&c);
	TAP_CHECK_INT(ftnl_config_parse_string("cluster 0\nbcast 7\n", NULL,
					       FTNL_CONFIG_PARSE_RAW, &c, err,
					       sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "<string>:2: unknown broadcast algorithm \"7\" (expected hypercube, bmg or fcg)");
}

struct fcg_file_case {
	const char *text;
	bool has_f;
	uint8_t f;
	bool has_t;
	uint32_t t_us;
};

#define FCG_BASE BASE "self 1\nnode 1 10.0.0.1 1\nbcast fcg\n"

static const struct fcg_file_case fcg_file_cases[] = {
	{ FCG_BASE, false, 0, false, 0 },
	{ FCG_BASE "gossip-faults 3\n", true, 3, false, 0 },
	{ FCG_BASE "gossip-faults 1\n", true, 1, false, 0 },
	{ FCG_BASE "gossip-faults 7\n", true, 7, false, 0 },
	{ FCG_BASE "gossip-time 5ms\n", false, 0, true, 5000 },
	{ FCG_BASE "gossip-time auto\n", false, 0, true, 0 },
	{ FCG_BASE "gossip-time 20us\n", false, 0, true, 20 },
	{ FCG_BASE "gossip-time 10s\n", false, 0, true, 10000000 },
	{ "gossip-time 300us # T\ngossip-faults 2\n" FCG_BASE,
	  true, 2, true, 300 },
};

static void test_fcg(const void *arg)
{
	const struct fcg_file_case *fc = arg;
	struct ftnl_cluster_config c;
	char err[256] = "";

	if (!TAP_CHECK_INT(ftnl_config_parse_string(fc->text, "f.conf", 0, &c,
						    err, sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK_UINT(c.bcast_algo, FTNL_BCAST_FCG);
	TAP_CHECK_INT(c.has_fcg_f, fc->has_f);
	TAP_CHECK_UINT(c.fcg_f, fc->f);
	TAP_CHECK_INT(c.has_gossip_t, fc->has_t);
	TAP_CHECK_UINT(c.gossip_t_us, fc->t_us);
	TAP_CHECK_UINT(c.unset, 0);
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), 0);
	TAP_CHECK_STR(err, "");
	ftnl_config_free(&c);
	TAP_CHECK(!c.has_fcg_f);
	TAP_CHECK(!c.has_gossip_t);
}

/* "rejoin manual" and "rejoin-limit K W" reach the configuration. */
static void test_rejoin(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256] = "";

	(void)arg;
	if (!TAP_CHECK_INT(ftnl_config_parse_string(
		BASE "self 1\nnode 1 10.0.0.1 1\nrejoin manual\n"
		"rejoin-limit 5 60\n", NULL, 0, &c, err, sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK(c.has_rejoin);
	TAP_CHECK_UINT(c.rejoin, FTNL_REJOIN_MANUAL);
	TAP_CHECK(c.has_flap_limit && c.has_flap_window);
	TAP_CHECK_UINT(c.flap_limit, 5);
	TAP_CHECK_UINT(c.flap_window_s, 60);
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), 0);
	c.flap_limit = FTNL_REJOIN_FLAP_LIMIT_MAX + 1;
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "the flap limit must be between 1 and 1000 rejoins");
	ftnl_config_free(&c);
}

/*
 * "timeout-adaptive MIN [NINES]" reaches the configuration; its relation
 * to h and d is checked by ftnl_config_validate(), with the module's
 * messages.
 */
static void test_timeout_adaptive(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256] = "";

	(void)arg;
	if (!TAP_CHECK_INT(ftnl_config_parse_string(
		BASE "self 1\nnode 1 10.0.0.1 1\ntimeout-adaptive 150ms\n",
		NULL, 0, &c, err, sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK(c.has_timeout_min && c.has_timeout_nines);
	TAP_CHECK_UINT(c.timeout_min_us, 150000);
	TAP_CHECK_UINT(c.timeout_nines, FTNL_TIMEOUT_NINES_DEFAULT);
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), 0);
	c.timeout_min_us = 100000;	/* = h */
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_CONTAINS(err, "must be greater than the heartbeat period");
	c.timeout_min_us = 300001;	/* > d */
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_CONTAINS(err, "must not exceed the timeout");
	c.timeout_min_us = 150000;
	c.timeout_nines = 0;
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_CONTAINS(err, "10^-1 to 10^-9");
	c.timeout_nines = 9;
	c.timeout_us = 61000000;	/* adaptive: d_max at most 60 s */
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_CONTAINS(err, "must be at most 60 s");
	c.timeout_us = 300000;
	c.has_timeout_min = false;	/* a rate without adaptive timeouts */
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_CONTAINS(err, "needs adaptive timeouts");
	ftnl_config_free(&c);

	TAP_CHECK_INT(ftnl_config_parse_string(
		BASE "timeout-adaptive 150ms 10\n", NULL, 0, &c, err,
		sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "<string>:5: timeout-adaptive 150ms 10: the target rate must be 10^-1 to 10^-9");
	TAP_CHECK_INT(ftnl_config_parse_string(
		BASE "timeout-adaptive 0\n", NULL, 0, &c, err,
		sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "<string>:5: invalid timeout-adaptive \"0\" (expected a duration such as 100ms; units us, ms, s)");
}

/* "fence kill" and "fence none" parse; no fence line sends none. */
static void test_fence(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256] = "";

	(void)arg;
	TAP_CHECK_INT(ftnl_config_parse_string(FCG_BASE "fence kill\n", "f.conf",
					       0, &c, err, sizeof(err)), 0);
	TAP_CHECK(c.has_fence);
	TAP_CHECK_UINT(c.fence, FTNL_FENCE_KILL);
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), 0);
	c.fence = FTNL_FENCE_MAX + 1;
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "unknown fence policy 2 (expected none or kill)");
	ftnl_config_free(&c);
	TAP_CHECK_INT(ftnl_config_parse_string(FCG_BASE "fence none\n", "f.conf",
					       0, &c, err, sizeof(err)), 0);
	TAP_CHECK(c.has_fence);
	TAP_CHECK_UINT(c.fence, FTNL_FENCE_NONE);
	ftnl_config_free(&c);
	TAP_CHECK_INT(ftnl_config_parse_string(FCG_BASE, "f.conf", 0, &c, err,
					       sizeof(err)), 0);
	TAP_CHECK(!c.has_fence);
	ftnl_config_free(&c);
}

/*
 * FCG's parameters without a bcast line: the algorithm may come from
 * elsewhere (ftnl-cli's "bcast fcg" argument), so the file parses. Like
 * the kernel, ftnl_config_validate() does not mind them with another
 * algorithm (they are kept, and unused); ftnl-cli refuses that.
 */
static void test_fcg_without_algo(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256] = "";

	(void)arg;
	if (!TAP_CHECK_INT(ftnl_config_parse_string(
		BASE "self 1\nnode 1 10.0.0.1 1\ngossip-faults 2\n"
		"gossip-time auto\n", NULL, 0, &c, err, sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK(!c.has_bcast_algo);
	TAP_CHECK(c.has_fcg_f);
	TAP_CHECK_UINT(c.fcg_f, 2);
	TAP_CHECK(c.has_gossip_t);
	TAP_CHECK_UINT(c.gossip_t_us, 0);
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), 0);
	TAP_CHECK_STR(err, "");
	ftnl_config_free(&c);
}

/* ftnl_config_validate() on FCG's ranges, as libftnl users fill them. */
static void test_fcg_validate(const void *arg)
{
	static const struct {
		uint8_t f;
		uint32_t t_us;
		const char *want;
	} cases[] = {
		{ 1, 0, "" }, { 7, 10000000, "" }, { 2, 20, "" },
		{ 0, 0, "FCG's f must be between 1 and 7" },
		{ 8, 0, "FCG's f must be between 1 and 7" },
		{ 255, 0, "FCG's f must be between 1 and 7" },
		{ 1, 10000001, "FCG's gossip time must be at most 10s" },
		{ 1, UINT32_MAX, "FCG's gossip time must be at most 10s" },
		{ 1, 1, "FCG's gossip time must be 0 (the module's choice) or at least 20us" },
		{ 1, 19, "FCG's gossip time must be 0 (the module's choice) or at least 20us" },
	};
	struct ftnl_node node = { .id = 1, .family = AF_INET, .port = 7400 };
	struct ftnl_cluster_config c = {
		.cluster_id = 1, .self_id = 1, .hb_period_us = 100000,
		.timeout_us = 300000, .nodes = &node, .node_count = 1,
		.has_bcast_algo = true, .bcast_algo = FTNL_BCAST_FCG,
		.has_fcg_f = true, .has_gossip_t = true,
	};
	char err[256];
	size_t i;

	(void)arg;
	node.addr.v4.s_addr = htonl(0x0a000001);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		c.fcg_f = cases[i].f;
		c.gossip_t_us = cases[i].t_us;
		err[0] = '\0';
		TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)),
			      cases[i].want[0] ? -EINVAL : 0);
		TAP_CHECK_STR(err, cases[i].want);
	}
	/* Unset, their values are not looked at. */
	c.fcg_f = 0;
	c.gossip_t_us = UINT32_MAX;
	c.has_fcg_f = c.has_gossip_t = false;
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), 0);
}

static void test_fcg_raw(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256] = "";

	(void)arg;
	/* Raw mode passes out-of-range values to the kernel... */
	if (TAP_CHECK_INT(ftnl_config_parse_string(
		"bcast bmg\ngossip-faults 0\ngossip-time 11s\n", NULL,
		FTNL_CONFIG_PARSE_RAW, &c, err, sizeof(err)), 0)) {
		TAP_CHECK(c.has_fcg_f);
		TAP_CHECK_UINT(c.fcg_f, 0);
		TAP_CHECK(c.has_gossip_t);
		TAP_CHECK_UINT(c.gossip_t_us, 11000000);
		ftnl_config_free(&c);
	} else {
		tap_diag("error: %s", err);
	}
	/* ... but not what the attribute (a u8) cannot carry, nor bad syntax. */
	TAP_CHECK_INT(ftnl_config_parse_string("gossip-faults 256\n", NULL,
					       FTNL_CONFIG_PARSE_RAW, &c, err,
					       sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "<string>:1: gossip-faults 256: FCG's f must be between 1 and 7");
	TAP_CHECK_INT(ftnl_config_parse_string("gossip-time soon\n", NULL,
					       FTNL_CONFIG_PARSE_RAW, &c, err,
					       sizeof(err)), -EINVAL);
	TAP_CHECK_CONTAINS(err, "<string>:1: invalid gossip-time \"soon\"");
}

static void test_raw(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256] = "";

	(void)arg;
	/* Semantically wrong, syntactically fine: accepted in raw mode. */
	if (!TAP_CHECK_INT(ftnl_config_parse_string(
		"cluster 0\nheartbeat 1us\ntimeout 1us\nkey " KEY "\n"
		"node 1 224.0.0.1 0\nnode 1 224.0.0.1 0\n", NULL,
		FTNL_CONFIG_PARSE_RAW, &c, err, sizeof(err)), 0)) {
		tap_diag("error: %s", err);
		return;
	}
	TAP_CHECK_UINT(c.cluster_id, 0);
	TAP_CHECK_UINT(c.hb_period_us, 1);
	TAP_CHECK_UINT(c.node_count, 2);
	TAP_CHECK_UINT(c.nodes[1].port, 0);
	TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), -EINVAL);
	ftnl_config_free(&c);

	/* Syntax is still checked. */
	TAP_CHECK_INT(ftnl_config_parse_string("heartbeat 10xs\n", NULL,
					       FTNL_CONFIG_PARSE_RAW, &c, err,
					       sizeof(err)), -EINVAL);
	TAP_CHECK_CONTAINS(err, "<string>:1: invalid heartbeat");
	TAP_CHECK_INT(ftnl_config_parse_string("node 1 10.0.0.1 65536\n", NULL,
					       FTNL_CONFIG_PARSE_RAW, &c, err,
					       sizeof(err)), -EINVAL);
}

/* A scratch directory with a config file and a key file. */
struct scratch {
	char dir[64];
	char conf[128];
	char key[128];
};

static bool scratch_make(struct scratch *s, const char *conf, const void *key,
			 size_t keylen)
{
	int fd;

	snprintf(s->dir, sizeof(s->dir), "/tmp/ftnl-config-XXXXXX");
	if (!mkdtemp(s->dir))
		return false;
	snprintf(s->conf, sizeof(s->conf), "%s/cluster.conf", s->dir);
	snprintf(s->key, sizeof(s->key), "%s/cluster.key", s->dir);
	fd = open(s->conf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, conf, strlen(conf)) != (ssize_t)strlen(conf))
		return false;
	close(fd);
	if (!key)
		return true;
	fd = open(s->key, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, key, keylen) != (ssize_t)keylen)
		return false;
	close(fd);
	return true;
}

static void scratch_remove(struct scratch *s)
{
	unlink(s->conf);
	unlink(s->key);
	rmdir(s->dir);
}

static void test_file_keyfile(const void *arg)
{
	static const char conf[] =
		"cluster 7\nself 1\nheartbeat 10ms\ntimeout 50ms\n"
		"keyfile cluster.key   # relative to this file\n"
		"node 1 10.0.0.1 7400\n";
	uint8_t raw[FTNL_KEY_LEN];
	struct ftnl_cluster_config c;
	struct scratch s;
	char err[256] = "";
	size_t i;

	(void)arg;
	for (i = 0; i < sizeof(raw); i++)
		raw[i] = (uint8_t)(i * 7);
	if (!TAP_CHECK(scratch_make(&s, conf, raw, sizeof(raw))))
		return;
	if (TAP_CHECK_INT(ftnl_config_parse_file(s.conf, 0, &c, err,
						 sizeof(err)), 0)) {
		TAP_CHECK_MEM(c.key, raw, sizeof(raw));
		TAP_CHECK_UINT(c.unset, 0);
		TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), 0);
		ftnl_config_free(&c);
	} else {
		tap_diag("error: %s", err);
	}
	scratch_remove(&s);
}

#define PAIR_CONF \
	"cluster 42\nself 3\nheartbeat 10ms\ntimeout 50ms\n" \
	"pairkeys cluster.key\n" \
	"node 1 10.0.0.1 7400\nnode 3 10.0.0.3 7400\nnode 7 10.0.0.7 7400\n"
#define KEY_1 "1111111111111111111111111111111111111111111111111111111111111111"
#define KEY_7 "7777777777777777777777777777777777777777777777777777777777777777"

struct pair_case {
	const char *conf;
	const char *keys;
	const char *want;	/* the parse error, NULL: parses */
	const char *invalid;	/* then ftnl_config_validate()'s, NULL: valid */
};

static const struct pair_case pair_cases[] = {
	{ PAIR_CONF, "# node 3's pairs\n1 " KEY_1 "\n\n7 " KEY_7 "  # rack 2\n",
	  NULL, NULL },
	{ PAIR_CONF, "1 " KEY_1 "\n", NULL,
	  "with pair keys, every node but this one needs its pair key (node 7)" },
	{ PAIR_CONF, "1 " KEY_1 "\n3 " KEY_1 "\n7 " KEY_7 "\n", NULL,
	  "this node's own entry takes no pair key (node 3)" },
	{ PAIR_CONF, "1 " KEY_1 "\n7 " KEY_7 "\n9 " KEY_7 "\n",
	  "cluster.conf:5: ", "cluster.key:3: node 9 is not in the node table" },
	{ PAIR_CONF, "1 " KEY_1 "\n1 " KEY_7 "\n",
	  "cluster.key:2: a second key for node 1 (first on line 1)", NULL },
	{ PAIR_CONF, "1 0011\n",
	  "cluster.key:1: the key must be 64 hex digits (32 bytes)", NULL },
	{ PAIR_CONF, "x " KEY_1 "\n",
	  "cluster.key:1: invalid node id (expected a decimal number)", NULL },
	{ PAIR_CONF, KEY_1 "\n",
	  "cluster.key:1: expected \"ID KEY [PUBLIC]\" (a node id, 64 hex digits, and optionally 64 more)", NULL },
	{ "key " KEY "\n" PAIR_CONF, "1 " KEY_1 "\n",
	  "cluster.conf:6: key (or keyfile, pairkeys) already given on line 1", NULL },
	/* Signing keys: a seed and every other node's public key, or none. */
	{ PAIR_CONF, "sign " KEY "\n1 " KEY_1 " " KEY_7 "\n7 " KEY_7 "\n",
	  "cluster.key:3: node 7 has no public signing key (line 1 gives this node's signing seed)",
	  NULL },
	{ PAIR_CONF, "1 " KEY_1 " " KEY_7 "\n7 " KEY_7 " " KEY_1 "\n",
	  "cluster.key:1: a public signing key, but no \"sign SEED\" line", NULL },
	{ PAIR_CONF, "sign " KEY "\nsign " KEY "\n",
	  "cluster.key:2: a second sign line", NULL },
	{ PAIR_CONF, "sign 00\n",
	  "cluster.key:1: the signing seed must be 64 hex digits (32 bytes)", NULL },
	{ PAIR_CONF, "sign\n", "cluster.key:1: expected \"sign SEED\" (64 hex digits)",
	  NULL },
	{ PAIR_CONF, "1 " KEY_1 " 00\n",
	  "cluster.key:1: the public signing key must be 64 hex digits (32 bytes)",
	  NULL },
};

/*
 * A pairkeys file: each key to its node, none on this node's, no cluster
 * key; the errors name the file and line at fault.
 */
static void test_pairkeys(const void *arg)
{
	const struct pair_case *pc = arg;
	struct ftnl_cluster_config c;
	uint8_t k1[FTNL_KEY_LEN], k7[FTNL_KEY_LEN];
	struct scratch s;
	char err[512] = "";
	int ret;

	if (!TAP_CHECK(scratch_make(&s, pc->conf, pc->keys, strlen(pc->keys))))
		return;
	ret = ftnl_config_parse_file(s.conf, 0, &c, err, sizeof(err));
	if (pc->want && pc->invalid) {	/* a parse error in two parts */
		TAP_CHECK_INT(ret, -EINVAL);
		TAP_CHECK_CONTAINS(err, pc->want);
		TAP_CHECK_CONTAINS(err, pc->invalid);
	} else if (pc->want) {
		TAP_CHECK_INT(ret, -EINVAL);
		TAP_CHECK_CONTAINS(err, pc->want);
	} else if (TAP_CHECK_INT(ret, 0)) {
		TAP_CHECK(c.unset & FTNL_CONFIG_KEY);
		ret = ftnl_config_validate(&c, err, sizeof(err));
		if (pc->invalid) {
			TAP_CHECK_INT(ret, -EINVAL);
			TAP_CHECK_STR(err, pc->invalid);
		} else {
			TAP_CHECK_INT(ret, 0);
			ftnl_parse_key(KEY_1, k1);
			ftnl_parse_key(KEY_7, k7);
			TAP_CHECK(c.nodes[0].has_key);
			TAP_CHECK_MEM(c.nodes[0].key, k1, FTNL_KEY_LEN);
			TAP_CHECK(!c.nodes[1].has_key);
			TAP_CHECK(c.nodes[2].has_key);
			TAP_CHECK_MEM(c.nodes[2].key, k7, FTNL_KEY_LEN);
		}
		ftnl_config_free(&c);
	} else {
		tap_diag("error: %s", err);
	}
	scratch_remove(&s);
}

/*
 * A pairkeys file with signing keys, as ftnl-cli cluster pairkeys writes
 * it: the seed to the configuration, each public key to its node; then
 * what ftnl_config_validate() asks of them. ftnl_sign_public() is RFC
 * 8032's (its TEST 1), and seeds differ per node and cluster.
 */
static void test_sign_keys(const void *arg)
{
	static const char rfc_seed[] =
		"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
	static const char rfc_public[] =
		"d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
	uint8_t secret[FTNL_KEY_LEN], seed[FTNL_SIGN_SEED_LEN], other[FTNL_SIGN_SEED_LEN];
	uint8_t pub1[FTNL_SIGN_KEY_LEN], pub7[FTNL_SIGN_KEY_LEN], want[FTNL_SIGN_KEY_LEN];
	char keys[1024], h1[65], h7[65], hs[65];
	struct ftnl_cluster_config c;
	struct scratch s;
	char err[512] = "";
	int i;

	(void)arg;
	ftnl_parse_key(rfc_seed, seed);
	ftnl_parse_key(rfc_public, want);
	ftnl_sign_public(seed, pub1);
	TAP_CHECK_MEM(pub1, want, FTNL_SIGN_KEY_LEN);

	memset(secret, 0x5a, sizeof(secret));
	ftnl_sign_seed(secret, 42, 1, seed);
	ftnl_sign_seed(secret, 42, 7, other);
	TAP_CHECK(memcmp(seed, other, sizeof(seed)));
	ftnl_sign_seed(secret, 43, 1, other);
	TAP_CHECK(memcmp(seed, other, sizeof(seed)));
	ftnl_sign_public(seed, pub1);
	ftnl_sign_seed(secret, 42, 7, other);
	ftnl_sign_public(other, pub7);
	ftnl_sign_seed(secret, 42, 3, seed);
	for (i = 0; i < 32; i++) {
		snprintf(h1 + 2 * i, 3, "%02x", pub1[i]);
		snprintf(h7 + 2 * i, 3, "%02x", pub7[i]);
		snprintf(hs + 2 * i, 3, "%02x", seed[i]);
	}
	snprintf(keys, sizeof(keys), "sign %s\n1 %s %s\n7 %s %s\n", hs, KEY_1,
		 h1, KEY_7, h7);
	if (!TAP_CHECK(scratch_make(&s, PAIR_CONF, keys, strlen(keys))))
		return;
	if (TAP_CHECK_INT(ftnl_config_parse_file(s.conf, 0, &c, err,
						 sizeof(err)), 0)) {
		TAP_CHECK(c.has_sign_seed);
		TAP_CHECK_MEM(c.sign_seed, seed, FTNL_SIGN_SEED_LEN);
		TAP_CHECK(c.nodes[0].has_sign_key && !c.nodes[1].has_sign_key &&
			  c.nodes[2].has_sign_key);
		TAP_CHECK_MEM(c.nodes[0].sign_key, pub1, FTNL_SIGN_KEY_LEN);
		TAP_CHECK_MEM(c.nodes[2].sign_key, pub7, FTNL_SIGN_KEY_LEN);
		TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), 0);
		/* A node without its public key, or this node with one. */
		c.nodes[2].has_sign_key = false;
		TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), -EINVAL);
		TAP_CHECK_STR(err, "with signed broadcasts, every node but this one needs its signing key (node 7)");
		c.nodes[2].has_sign_key = true;
		c.nodes[1].has_sign_key = true;
		TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), -EINVAL);
		TAP_CHECK_STR(err, "this node's own entry takes no public signing key (its seed gives it) (node 3)");
		c.nodes[1].has_sign_key = false;
		/* Signing needs pair keys. */
		for (i = 0; i < 3; i++)
			c.nodes[i].has_key = false;
		c.unset &= ~FTNL_CONFIG_KEY;
		TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), -EINVAL);
		TAP_CHECK_STR(err, "signed broadcasts need pair keys");
		ftnl_config_free(&c);
	} else {
		tap_diag("error: %s", err);
	}
	/*
	 * The same signed cluster switched to one cluster key: the key set,
	 * every pair key, public key and the seed gone, and it validates.
	 */
	if (TAP_CHECK_INT(ftnl_config_parse_file(s.conf, 0, &c, err,
						 sizeof(err)), 0)) {
		uint8_t zero[64] = { 0 };

		TAP_CHECK(c.unset & FTNL_CONFIG_KEY);
		ftnl_config_set_cluster_key(&c, secret);
		TAP_CHECK(!(c.unset & FTNL_CONFIG_KEY));
		TAP_CHECK_MEM(c.key, secret, FTNL_KEY_LEN);
		for (i = 0; i < 3; i++) {
			TAP_CHECK(!c.nodes[i].has_key && !c.nodes[i].has_sign_key);
			TAP_CHECK_MEM(c.nodes[i].key, zero, FTNL_KEY_LEN);
			TAP_CHECK_MEM(c.nodes[i].sign_key, zero, FTNL_SIGN_KEY_LEN);
		}
		TAP_CHECK(!c.has_sign_seed);
		TAP_CHECK_MEM(c.sign_seed, zero, FTNL_SIGN_SEED_LEN);
		TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), 0);
		ftnl_config_free(&c);
	} else {
		tap_diag("error: %s", err);
	}
	scratch_remove(&s);
}

/* FTNL_CONFIG_PARSE_NO_KEYS: the table without the keys, files unread. */
static void test_no_keys(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256] = "";

	(void)arg;
	if (TAP_CHECK_INT(ftnl_config_parse_string(PAIR_CONF "# no such file\n",
						   "t.conf",
						   FTNL_CONFIG_PARSE_NO_KEYS,
						   &c, err, sizeof(err)), 0)) {
		TAP_CHECK(c.unset & FTNL_CONFIG_KEY);
		TAP_CHECK_UINT(c.node_count, 3);
		TAP_CHECK(!c.nodes[0].has_key && !c.nodes[2].has_key);
		ftnl_config_free(&c);
	} else {
		tap_diag("error: %s", err);
	}
	if (TAP_CHECK_INT(ftnl_config_parse_string("key " KEY "\n", "t.conf",
						   FTNL_CONFIG_PARSE_NO_KEYS,
						   &c, err, sizeof(err)), 0)) {
		TAP_CHECK(c.unset & FTNL_CONFIG_KEY);
		ftnl_config_free(&c);
	}
	/* the syntax is still checked */
	TAP_CHECK_INT(ftnl_config_parse_string("key 0011\n", "t.conf",
					       FTNL_CONFIG_PARSE_NO_KEYS, &c,
					       err, sizeof(err)), -EINVAL);
}

static void test_file_errors(const void *arg)
{
	struct ftnl_cluster_config c;
	struct scratch s;
	char err[512] = "", want[512];

	(void)arg;
	TAP_CHECK_INT(ftnl_config_parse_file("/nonexistent/ftnl.conf", 0, &c, err,
					     sizeof(err)), -ENOENT);
	TAP_CHECK_STR(err, "/nonexistent/ftnl.conf: No such file or directory");

	/* The path is in the message; the key file is missing. */
	if (!TAP_CHECK(scratch_make(&s, "cluster 1\n\nkeyfile cluster.key\n",
				    NULL, 0)))
		return;
	TAP_CHECK_INT(ftnl_config_parse_file(s.conf, 0, &c, err, sizeof(err)),
		      -ENOENT);
	snprintf(want, sizeof(want),
		 "%s:3: cannot open key file \"%s\": No such file or directory",
		 s.conf, s.key);
	TAP_CHECK_STR(err, want);
	scratch_remove(&s);

	/* A NUL byte in the file. */
	if (!TAP_CHECK(scratch_make(&s, "cluster 1\n", NULL, 0)))
		return;
	{
		int fd = open(s.conf, O_WRONLY | O_APPEND);

		TAP_CHECK(fd >= 0 && write(fd, "self 1\0\n", 8) == 8);
		close(fd);
	}
	TAP_CHECK_INT(ftnl_config_parse_file(s.conf, 0, &c, err, sizeof(err)),
		      -EINVAL);
	snprintf(want, sizeof(want), "%s:2: NUL byte in text", s.conf);
	TAP_CHECK_STR(err, want);
	scratch_remove(&s);

	/* A directory is not a file. */
	TAP_CHECK(ftnl_config_parse_file("/", 0, &c, err, sizeof(err)) < 0);
	TAP_CHECK_CONTAINS(err, "/: ");
}

/* Build the text of a file with @count IPv6 nodes. */
static char *big_text(size_t count)
{
	size_t cap = 256 + count * 48, len;
	char *text = malloc(cap);
	size_t i;

	if (!text)
		return NULL;
	len = (size_t)snprintf(text, cap, "cluster 1\nself 1\nheartbeat 10ms\n"
			       "timeout 30ms\nkey " KEY "\n");
	for (i = 0; i < count; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"node %zu fd00::%zx:%zx 7400\n", i + 1,
					i >> 16, i & 0xffff);
	return text;
}

static void test_quorum(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256];

	(void)arg;
	TAP_CHECK_INT(ftnl_config_parse_string("cluster 1\n", NULL, 0, &c, err,
					       sizeof(err)), 0);
	TAP_CHECK(!c.has_quorum);
	ftnl_config_free(&c);
	TAP_CHECK_INT(ftnl_config_parse_string("quorum off\n", NULL, 0, &c, err,
					       sizeof(err)), 0);
	TAP_CHECK(c.has_quorum);
	TAP_CHECK_UINT(c.quorum, FTNL_QUORUM_OFF);
	ftnl_config_free(&c);
	TAP_CHECK_INT(ftnl_config_parse_string("quorum on\n", NULL, 0, &c, err,
					       sizeof(err)), 0);
	TAP_CHECK(c.has_quorum);
	TAP_CHECK_UINT(c.quorum, FTNL_QUORUM_ON);
	ftnl_config_free(&c);
}

static void test_epoch(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256];

	(void)arg;
	TAP_CHECK_INT(ftnl_config_parse_string("cluster 1\n", NULL, 0, &c, err,
					       sizeof(err)), 0);
	TAP_CHECK(!c.has_epoch);
	TAP_CHECK(!c.has_update_grace);
	ftnl_config_free(&c);
	TAP_CHECK_INT(ftnl_config_parse_string("epoch 4294967295\nupdate-grace 60\n",
					       NULL, 0, &c, err, sizeof(err)), 0);
	TAP_CHECK(c.has_epoch);
	TAP_CHECK_UINT(c.epoch, 4294967295u);
	TAP_CHECK(c.has_update_grace);
	TAP_CHECK_UINT(c.update_grace_s, 60);
	ftnl_config_free(&c);
}

static void test_big(const void *arg)
{
	struct ftnl_cluster_config c;
	char err[256] = "";
	char *text;

	(void)arg;
	text = big_text(FTNL_MAX_NODES);
	if (!TAP_CHECK(text))
		return;
	if (TAP_CHECK_INT(ftnl_config_parse_string(text, "big.conf", 0, &c, err,
						   sizeof(err)), 0)) {
		TAP_CHECK_UINT(c.node_count, FTNL_MAX_NODES);
		TAP_CHECK_UINT(c.nodes[FTNL_MAX_NODES - 1].id, FTNL_MAX_NODES);
		TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), 0);
		ftnl_config_free(&c);
	} else {
		tap_diag("error: %s", err);
	}
	free(text);

	text = big_text(FTNL_MAX_NODES + 1);
	if (!TAP_CHECK(text))
		return;
	TAP_CHECK_INT(ftnl_config_parse_string(text, "big.conf", 0, &c, err,
					       sizeof(err)), -EINVAL);
	/* 5 header lines, then node 65537 on line 65542. */
	TAP_CHECK_STR(err, "big.conf:65542: too many nodes (at most 65536)");
	free(text);
}

/*
 * The largest table on pair keys: 65,535 keys (written in descending id
 * order) reach their nodes; a file that size parses in one pass, not in
 * one scan of the table per key.
 */
static void test_big_pairkeys(const void *arg)
{
	size_t n = FTNL_MAX_NODES, kcap = n * 80, ccap = 256 + n * 48;
	char *keys = malloc(kcap), *conf = malloc(ccap), err[256] = "";
	struct ftnl_cluster_config c;
	size_t klen = 0, clen, i;
	struct scratch s;

	(void)arg;
	if (!TAP_CHECK(keys && conf))
		goto out;
	for (i = n; i >= 2; i--)
		klen += (size_t)snprintf(keys + klen, kcap - klen,
					 "%zu %064zx\n", i, i);
	clen = (size_t)snprintf(conf, ccap, "cluster 1\nself 1\nheartbeat 10ms\n"
				"timeout 30ms\npairkeys cluster.key\n");
	for (i = 0; i < n; i++)
		clen += (size_t)snprintf(conf + clen, ccap - clen,
					 "node %zu fd00::%zx:%zx 7400\n", i + 1,
					 i >> 16, i & 0xffff);
	if (!TAP_CHECK(scratch_make(&s, conf, keys, klen)))
		goto out;
	if (TAP_CHECK_INT(ftnl_config_parse_file(s.conf, 0, &c, err,
						 sizeof(err)), 0)) {
		TAP_CHECK_UINT(c.node_count, n);
		TAP_CHECK(!c.nodes[0].has_key);
		TAP_CHECK(c.nodes[n - 1].has_key);
		TAP_CHECK_UINT(c.nodes[n - 1].key[FTNL_KEY_LEN - 1], n & 0xff);
		TAP_CHECK_UINT(c.nodes[n - 1].key[FTNL_KEY_LEN - 2], (n >> 8) & 0xff);
		TAP_CHECK_INT(ftnl_config_validate(&c, err, sizeof(err)), 0);
		ftnl_config_free(&c);
	} else {
		tap_diag("error: %s", err);
	}
	scratch_remove(&s);
out:
	free(keys);
	free(conf);
}

int main(void)
{
	size_t i;

	tap_add(test_good, NULL, "good file: comments, blanks, tabs, CRLF, IPv6, brackets");
	tap_add(test_empty, NULL, "empty file parses with every field unset");
	tap_add(test_self_optional, NULL, "self is optional and can be supplied later");
	for (i = 0; i < FTNL_ARRAY_SIZE(error_cases); i++)
		tap_add(test_error, &error_cases[i], "error: %s", error_cases[i].want);
	for (i = 0; i < FTNL_ARRAY_SIZE(bcast_file_cases); i++)
		tap_add(test_bcast, &bcast_file_cases[i],
			"bcast keyword: file %zu parses to %s", i + 1,
			ftnl_bcast_algo_name(bcast_file_cases[i].algo));
	tap_add(test_bcast_raw, NULL, "bcast keyword in raw mode: a name is still required");
	for (i = 0; i < FTNL_ARRAY_SIZE(fcg_file_cases); i++)
		tap_add(test_fcg, &fcg_file_cases[i],
			"FCG parameters: file %zu parses and validates", i + 1);
	tap_add(test_fcg_without_algo, NULL, "FCG parameters without a bcast line parse");
	tap_add(test_fence, NULL, "fence kill and none parse and validate; absent: not sent");
	tap_add(test_fcg_validate, NULL, "FCG parameter ranges in ftnl_config_validate()");
	tap_add(test_fcg_raw, NULL, "FCG parameters in raw mode");
	tap_add(test_rejoin, NULL, "rejoin manual and rejoin-limit K W parse and validate");
	tap_add(test_timeout_adaptive, NULL,
		"timeout-adaptive MIN [NINES] parses; bad MIN, NINES, d_max refused");
	tap_add(test_raw, NULL, "raw mode skips semantic checks, not syntax");
	tap_add(test_file_keyfile, NULL, "file with a keyfile relative to its directory");
	tap_add(test_file_errors, NULL, "file errors name the path and line");
	for (i = 0; i < FTNL_ARRAY_SIZE(pair_cases); i++)
		tap_add(test_pairkeys, &pair_cases[i], "pairkeys, case %zu: %s",
			i + 1, pair_cases[i].invalid ? pair_cases[i].invalid :
			pair_cases[i].want ? pair_cases[i].want : "parses");
	tap_add(test_no_keys, NULL, "parse without keys: the table alone");
	tap_add(test_sign_keys, NULL,
		"pairkeys with signing keys: seed and public keys given, then validated; a cluster key drops them all");
	tap_add(test_quorum, NULL, "quorum on|off sets the policy; absent leaves the module's default");
	tap_add(test_epoch, NULL, "epoch and update-grace set; absent leave the module's defaults");
	tap_add(test_big, NULL, "65536 nodes parse; 65537 fail on the right line");
	tap_add(test_big_pairkeys, NULL, "65536 nodes on pair keys: every key to its node");
	return tap_run();
}
