// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl-cli command line parsing: objects, prefixes, options, cluster set
 * arguments, and the exact message of every mistake.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tap.h"

#define KEY "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

/* Split @line on spaces into a NULL-terminated argv, argv[0] the program. */
static int split(const char *line, char *storage, size_t size, char **argv,
		 int max)
{
	int argc = 0;
	char *p, *save = NULL;

	snprintf(storage, size, "%s", line);
	argv[argc++] = "ftnl-cli";
	for (p = strtok_r(storage, " ", &save); p && argc < max - 1;
	     p = strtok_r(NULL, " ", &save))
		argv[argc++] = p;
	argv[argc] = NULL;
	return argc;
}

struct parsed {
	struct cli_command cmd;
	char storage[1024];
	char *argv[64];
	char err[512];
	int ret;
};

static void parse(struct parsed *p, const char *line)
{
	int argc = split(line, p->storage, sizeof(p->storage), p->argv, 64);

	p->ret = cli_parse(argc, p->argv, &p->cmd, p->err, sizeof(p->err));
}

struct good_case {
	const char *line;
	enum cli_object object;
	enum cli_verb verb;
	enum cli_object help_object;
	bool json, pretty, force;
	const char *netns;
	uint64_t count;
};

static const struct good_case good_cases[] = {
	{ "info", CLI_OBJ_INFO, CLI_VERB_NONE, 0, 0, 0, 0, NULL, 0 },
	{ "i", CLI_OBJ_INFO, CLI_VERB_NONE, 0, 0, 0, 0, NULL, 0 },
	{ "cluster", CLI_OBJ_CLUSTER, CLI_VERB_SHOW, 0, 0, 0, 0, NULL, 0 },
	{ "cl sh", CLI_OBJ_CLUSTER, CLI_VERB_SHOW, 0, 0, 0, 0, NULL, 0 },
	{ "c show", CLI_OBJ_CLUSTER, CLI_VERB_SHOW, 0, 0, 0, 0, NULL, 0 },
	{ "cluster del", CLI_OBJ_CLUSTER, CLI_VERB_DELETE, 0, 0, 0, 0, NULL, 0 },
	{ "cluster d", CLI_OBJ_CLUSTER, CLI_VERB_DELETE, 0, 0, 0, 0, NULL, 0 },
	{ "node", CLI_OBJ_NODE, CLI_VERB_LIST, 0, 0, 0, 0, NULL, 0 },
	{ "n l", CLI_OBJ_NODE, CLI_VERB_LIST, 0, 0, 0, 0, NULL, 0 },
	{ "node show", CLI_OBJ_NODE, CLI_VERB_LIST, 0, 0, 0, 0, NULL, 0 },
	{ "-j node list", CLI_OBJ_NODE, CLI_VERB_LIST, 0, 1, 0, 0, NULL, 0 },
	{ "-jp node", CLI_OBJ_NODE, CLI_VERB_LIST, 0, 1, 1, 0, NULL, 0 },
	{ "--json --pretty info", CLI_OBJ_INFO, CLI_VERB_NONE, 0, 1, 1, 0, NULL, 0 },
	{ "--js --pre info", CLI_OBJ_INFO, CLI_VERB_NONE, 0, 1, 1, 0, NULL, 0 },
	{ "-n ns1 info", CLI_OBJ_INFO, CLI_VERB_NONE, 0, 0, 0, 0, "ns1", 0 },
	{ "-jnns2 info", CLI_OBJ_INFO, CLI_VERB_NONE, 0, 1, 0, 0, "ns2", 0 },
	{ "--netns=ns3 info", CLI_OBJ_INFO, CLI_VERB_NONE, 0, 0, 0, 0, "ns3", 0 },
	{ "--netns /proc/1/ns/net info", CLI_OBJ_INFO, CLI_VERB_NONE, 0, 0, 0, 0,
	  "/proc/1/ns/net", 0 },
	{ "-- info", CLI_OBJ_INFO, CLI_VERB_NONE, 0, 0, 0, 0, NULL, 0 },
	{ "-f cluster set id 0", CLI_OBJ_CLUSTER, CLI_VERB_SET, 0, 0, 0, 1, NULL, 0 },
	{ "help", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_NONE, 0, 0, 0, NULL, 0 },
	{ "help help", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_NONE, 0, 0, 0, NULL, 0 },
	{ "help cl", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_CLUSTER, 0, 0, 0, NULL, 0 },
	{ "cluster help", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_CLUSTER, 0, 0, 0, NULL, 0 },
	{ "node help", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_NODE, 0, 0, 0, NULL, 0 },
	{ "info help", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_INFO, 0, 0, 0, NULL, 0 },
	{ "monitor help", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_MONITOR, 0, 0, 0, NULL, 0 },
	{ "-h", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_NONE, 0, 0, 0, NULL, 0 },
	{ "--help cluster set", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_NONE, 0, 0, 0, NULL, 0 },
	{ "cluster leave", CLI_OBJ_CLUSTER, CLI_VERB_LEAVE, 0, 0, 0, 0, NULL, 0 },
	{ "cl l", CLI_OBJ_CLUSTER, CLI_VERB_LEAVE, 0, 0, 0, 0, NULL, 0 },
	{ "stats", CLI_OBJ_STATS, CLI_VERB_SHOW, 0, 0, 0, 0, NULL, 0 },
	{ "-j st sh", CLI_OBJ_STATS, CLI_VERB_SHOW, 0, 1, 0, 0, NULL, 0 },
	{ "stats help", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_STATS, 0, 0, 0, NULL, 0 },
	{ "monitor", CLI_OBJ_MONITOR, CLI_VERB_NONE, 0, 0, 0, 0, NULL, 0 },
	{ "-j monitor count 5", CLI_OBJ_MONITOR, CLI_VERB_NONE, 0, 1, 0, 0, NULL, 5 },
	{ "mon c 3", CLI_OBJ_MONITOR, CLI_VERB_NONE, 0, 0, 0, 0, NULL, 3 },
	{ "bcast", CLI_OBJ_BCAST, CLI_VERB_SHOW, 0, 0, 0, 0, NULL, 0 },
	{ "bcast show", CLI_OBJ_BCAST, CLI_VERB_SHOW, 0, 0, 0, 0, NULL, 0 },
	{ "b", CLI_OBJ_BCAST, CLI_VERB_SHOW, 0, 0, 0, 0, NULL, 0 },
	{ "bc sh", CLI_OBJ_BCAST, CLI_VERB_SHOW, 0, 0, 0, 0, NULL, 0 },
	{ "-j bcast", CLI_OBJ_BCAST, CLI_VERB_SHOW, 0, 1, 0, 0, NULL, 0 },
	{ "-jp b s", CLI_OBJ_BCAST, CLI_VERB_SHOW, 0, 1, 1, 0, NULL, 0 },
	{ "-n node4 bcast", CLI_OBJ_BCAST, CLI_VERB_SHOW, 0, 0, 0, 0, "node4", 0 },
	{ "bcast help", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_BCAST, 0, 0, 0, NULL, 0 },
	{ "b h", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_BCAST, 0, 0, 0, NULL, 0 },
	{ "help bcast", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_BCAST, 0, 0, 0, NULL, 0 },
	{ "help b", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_BCAST, 0, 0, 0, NULL, 0 },
	/* The abbreviations of the other objects mean what they meant. */
	{ "s", CLI_OBJ_STATS, CLI_VERB_SHOW, 0, 0, 0, 0, NULL, 0 },
	{ "m", CLI_OBJ_MONITOR, CLI_VERB_NONE, 0, 0, 0, 0, NULL, 0 },
	{ "c", CLI_OBJ_CLUSTER, CLI_VERB_SHOW, 0, 0, 0, 0, NULL, 0 },
	{ "h", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_NONE, 0, 0, 0, NULL, 0 },
	{ "cluster set b bmg", CLI_OBJ_CLUSTER, CLI_VERB_SET, 0, 0, 0, 0, NULL, 0 },
	{ "proc", CLI_OBJ_PROC, CLI_VERB_LIST, 0, 0, 0, 0, NULL, 0 },
	{ "proc list", CLI_OBJ_PROC, CLI_VERB_LIST, 0, 0, 0, 0, NULL, 0 },
	{ "proc show", CLI_OBJ_PROC, CLI_VERB_LIST, 0, 0, 0, 0, NULL, 0 },
	{ "p", CLI_OBJ_PROC, CLI_VERB_LIST, 0, 0, 0, 0, NULL, 0 },
	{ "p l", CLI_OBJ_PROC, CLI_VERB_LIST, 0, 0, 0, 0, NULL, 0 },
	{ "pr s", CLI_OBJ_PROC, CLI_VERB_LIST, 0, 0, 0, 0, NULL, 0 },
	{ "-j proc", CLI_OBJ_PROC, CLI_VERB_LIST, 0, 1, 0, 0, NULL, 0 },
	{ "-jp -n node3 proc list", CLI_OBJ_PROC, CLI_VERB_LIST, 0, 1, 1, 0, "node3", 0 },
	{ "proc help", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_PROC, 0, 0, 0, NULL, 0 },
	{ "p h", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_PROC, 0, 0, 0, NULL, 0 },
	{ "help proc", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_PROC, 0, 0, 0, NULL, 0 },
	{ "events", CLI_OBJ_EVENTS, CLI_VERB_HISTORY, 0, 0, 0, 0, NULL, 0 },
	{ "-j e hi", CLI_OBJ_EVENTS, CLI_VERB_HISTORY, 0, 1, 0, 0, NULL, 0 },
	{ "events history after 7", CLI_OBJ_EVENTS, CLI_VERB_HISTORY, 0, 0, 0, 0,
	  NULL, 0 },
	{ "events help", CLI_OBJ_HELP, CLI_VERB_NONE, CLI_OBJ_EVENTS, 0, 0, 0, NULL, 0 },
};

static void test_good(const void *arg)
{
	const struct good_case *c = arg;
	struct parsed p;

	parse(&p, c->line);
	if (!TAP_CHECK_INT(p.ret, 0)) {
		tap_diag("error: %s", p.err);
		cli_command_free(&p.cmd);
		return;
	}
	TAP_CHECK_INT(p.cmd.object, c->object);
	TAP_CHECK_INT(p.cmd.verb, c->verb);
	TAP_CHECK_INT(p.cmd.help_object, c->help_object);
	TAP_CHECK_INT(p.cmd.opt.json, c->json);
	TAP_CHECK_INT(p.cmd.opt.pretty, c->pretty);
	TAP_CHECK_INT(p.cmd.opt.force, c->force);
	if (c->netns)
		TAP_CHECK_STR(p.cmd.opt.netns, c->netns);
	else
		TAP_CHECK(!p.cmd.opt.netns);
	TAP_CHECK_UINT(p.cmd.monitor_count, c->count);
	cli_command_free(&p.cmd);
}

static void test_version(const void *arg)
{
	struct parsed p;

	(void)arg;
	parse(&p, "-V");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK(p.cmd.opt.version);
	cli_command_free(&p.cmd);
}

struct bad_case {
	const char *line;
	const char *err;
};

static const struct bad_case bad_cases[] = {
	{ "", "missing object; try \"ftnl-cli help\"" },
	{ "-j", "missing object; try \"ftnl-cli help\"" },
	{ "clutser show",
	  "unknown object \"clutser\" (did you mean \"cluster\"?); try \"ftnl-cli help\"" },
	{ "nodes", "unknown object \"nodes\" (did you mean \"node\"?); try \"ftnl-cli help\"" },
	{ "xyz", "unknown object \"xyz\"; try \"ftnl-cli help\"" },
	{ "cluster frob", "unknown command \"frob\"; try \"ftnl-cli cluster help\"" },
	{ "cluster shwo",
	  "unknown command \"shwo\" (did you mean \"show\"?); try \"ftnl-cli cluster help\"" },
	{ "cluster s", "ambiguous command \"s\" (could be: set, show)" },
	{ "cluster show extra", "unexpected argument \"extra\" after cluster show" },
	{ "cluster show -j",
	  "unexpected \"-j\" after cluster show (options go before the object)" },
	{ "cluster delete now", "unexpected argument \"now\" after cluster delete" },
	{ "node list 3", "unexpected argument \"3\" after node list" },
	{ "info extra", "unexpected argument \"extra\" after info" },
	{ "help bogus", "unknown object \"bogus\"; try \"ftnl-cli help\"" },
	{ "help cluster more", "unexpected argument \"more\" after help" },
	{ "-x info", "unknown option \"-x\"; try \"ftnl-cli help\"" },
	{ "--bogus info", "unknown option \"--bogus\"; try \"ftnl-cli help\"" },
	{ "--json=1 info", "option \"--json\" takes no value" },
	{ "-n", "option \"-n\" needs a name" },
	{ "--netns", "option \"--netns\" needs a name" },
	{ "monitor count 0", "invalid count \"0\" (expected 1..4294967295)" },
	{ "monitor count", "\"count\" needs a number" },
	{ "events history after", "\"after\" needs a sequence number" },
	{ "events history after -1",
	  "invalid sequence number \"-1\" (expected 0..18446744073709551615)" },
	{ "events history after 18446744073709551616",
	  "invalid sequence number \"18446744073709551616\" (expected 0..18446744073709551615)" },
	{ "events history since 3",
	  "unexpected argument \"since\" after events history" },
	{ "events purge",
	  "unknown command \"purge\"; try \"ftnl-cli events help\"" },
	{ "monitor forever",
	  "unknown argument \"forever\"; try \"ftnl-cli monitor help\"" },
	{ "cluster set",
	  "cluster set: missing arguments; try \"ftnl-cli cluster help\"" },
	{ "cluster set heartbeat 10xs",
	  "cluster set: invalid heartbeat \"10xs\" (expected a duration such as 100ms; units us, ms, s)" },
	{ "cluster set timeout 100", "cluster set: invalid timeout \"100\" (expected a duration such as 100ms; units us, ms, s)" },
	{ "cluster set heartbeat 9000s", "cluster set: heartbeat \"9000s\" is too long" },
	{ "cluster set id 4294967296",
	  "cluster set: invalid cluster id \"4294967296\" (expected 0..4294967295)" },
	{ "cluster set self -1",
	  "cluster set: invalid self id \"-1\" (expected 0..4294967295)" },
	{ "cluster set id 1 id 2", "cluster set: \"id\" given twice" },
	{ "cluster set id 1 cluster 2", "cluster set: \"cluster\" given twice" },
	{ "cluster set key 00", "cluster set: invalid key (expected 64 hex digits)" },
	{ "cluster set key " KEY " keyfile /k",
	  "cluster set: \"key\", \"keyfile\" and \"pairkeys\" exclude each other" },
	{ "cluster set pairkeys /p keyfile /k",
	  "cluster set: \"key\", \"keyfile\" and \"pairkeys\" exclude each other" },
	{ "cluster set key " KEY " pairkeys /p",
	  "cluster set: \"key\", \"keyfile\" and \"pairkeys\" exclude each other" },
	{ "cluster set k x", "cluster set: ambiguous argument \"k\" (could be: key, keyfile)" },
	{ "cluster set hearbeat 1s",
	  "cluster set: unknown argument \"hearbeat\" (did you mean \"heartbeat\"?); try \"ftnl-cli cluster help\"" },
	{ "cluster set -j", "cluster set: unexpected \"-j\" in cluster set (options go before the object)" },
	{ "cluster set timeout", "cluster set: \"timeout\" needs a value" },
	{ "cluster set node 1 10.0.0.1", "cluster set: \"node\" needs ID ADDRESS PORT" },
	{ "cluster set node 1 10.0.0.1 1 domain", "cluster set: \"domain\" of node 1 needs a value" },
	{ "cluster set node 1 10.0.0.1 1 domain 0123456789abcdef0123456789abcdef",
	  "cluster set: domain \"0123456789abcdef0123456789abcdef\" of node 1 must be 1 to 31 characters" },
	{ "cluster set node 1 10.0.0.1 1 domain r1 name cn1 domain r2",
	  "cluster set: \"domain\" of node 1 given twice" },
	{ "cluster set node x 10.0.0.1 1",
	  "cluster set: invalid node id \"x\" (expected 0..4294967295)" },
	{ "cluster set node 1 10.0.0.300 1",
	  "cluster set: invalid address \"10.0.0.300\" for node 1 (expected an IPv4 or IPv6 address)" },
	{ "cluster set node 2 fe80::1%eth0 1",
	  "cluster set: invalid address \"fe80::1%eth0\" for node 2 (expected an IPv4 or IPv6 address)" },
	{ "cluster set node 1 10.0.0.1 65536",
	  "cluster set: invalid port \"65536\" for node 1 (expected 0..65535)" },
	{ "cluster set node 1 10.0.0.1 1 node 2 10.0.0.2 1 node 1 10.0.0.3 1",
	  "cluster set: node 1 given twice" },
	{ "cluster set file a file b", "cluster set: \"file\" given twice" },
	{ "node readmit", "node readmit needs a node id" },
	{ "node readmit x", "invalid node id \"x\" (expected 0..4294967295)" },
	{ "node readmit 5 6", "unexpected argument \"6\" after node readmit ID" },
	{ "cluster pairkeys s c", "cluster pairkeys needs SECRET-FILE CONFIG-FILE NODE-ID" },
	{ "cluster pairkeys s c x", "invalid node id \"x\" (expected 0..4294967295)" },
	{ "cluster pairkeys s c 1 2", "unexpected argument \"2\" after cluster pairkeys SECRET-FILE CONFIG-FILE NODE-ID" },
	{ "stats frob", "unknown command \"frob\"; try \"ftnl-cli stats help\"" },
	{ "stats show x", "unexpected argument \"x\" after stats show" },
	{ "bcats", "unknown object \"bcats\" (did you mean \"bcast\"?); try \"ftnl-cli help\"" },
	{ "broadcast", "unknown object \"broadcast\"; try \"ftnl-cli help\"" },
	{ "bcast frob", "unknown command \"frob\"; try \"ftnl-cli bcast help\"" },
	{ "bcast shwo",
	  "unknown command \"shwo\" (did you mean \"show\"?); try \"ftnl-cli bcast help\"" },
	{ "bcast show x", "unexpected argument \"x\" after bcast show" },
	{ "bcast show -j",
	  "unexpected \"-j\" after bcast show (options go before the object)" },
	{ "bcast help x", "unexpected argument \"x\" after bcast help" },
	{ "bcast set bmg", "unknown command \"set\"; try \"ftnl-cli bcast help\"" },
	{ "cluster set bcast", "cluster set: \"bcast\" needs a value" },
	{ "cluster set bcast ring",
	  "cluster set: unknown broadcast algorithm \"ring\" (expected hypercube, bmg or fcg)" },
	{ "cluster set bcast bgm",
	  "cluster set: unknown broadcast algorithm \"bgm\" (did you mean \"bmg\"?)" },
	{ "cluster set bcast gcf",
	  "cluster set: unknown broadcast algorithm \"gcf\" (did you mean \"fcg\"?)" },
	{ "cluster set bcast unknown",
	  "cluster set: unknown broadcast algorithm \"unknown\" (expected hypercube, bmg or fcg)" },
	{ "cluster set bcast hypercub",
	  "cluster set: unknown broadcast algorithm \"hypercub\" (did you mean \"hypercube\"?)" },
	/* Values are not abbreviated, and are lower case. */
	{ "cluster set bcast hyper",
	  "cluster set: unknown broadcast algorithm \"hyper\" (expected hypercube, bmg or fcg)" },
	{ "cluster set bcast BMG",
	  "cluster set: unknown broadcast algorithm \"BMG\" (expected hypercube, bmg or fcg)" },
	{ "cluster set bcast 1",
	  "cluster set: unknown broadcast algorithm \"1\" (expected hypercube, bmg or fcg)" },
	{ "cluster set bcast bmg b hypercube", "cluster set: \"bcast\" given twice" },
	{ "porc", "unknown object \"porc\" (did you mean \"proc\"?); try \"ftnl-cli help\"" },
	{ "process", "unknown object \"process\"; try \"ftnl-cli help\"" },
	{ "proc lsit",
	  "unknown command \"lsit\" (did you mean \"list\"?); try \"ftnl-cli proc help\"" },
	{ "proc register 1 2", "unknown command \"register\"; try \"ftnl-cli proc help\"" },
	{ "proc list 7", "unexpected argument \"7\" after proc list" },
	{ "proc show -j",
	  "unexpected \"-j\" after proc list (options go before the object)" },
	{ "proc help x", "unexpected argument \"x\" after proc help" },
	{ "cluster set bacst bmg",
	  "cluster set: unknown argument \"bacst\" (did you mean \"bcast\"?); try \"ftnl-cli cluster help\"" },
	/* FCG's f and T. */
	{ "cluster set gossip 2",
	  "cluster set: ambiguous argument \"gossip\" (could be: gossip-faults, gossip-time)" },
	{ "cluster set g 2",
	  "cluster set: ambiguous argument \"g\" (could be: gossip-faults, gossip-time)" },
	{ "cluster set gossip-faults", "cluster set: \"gossip-faults\" needs a value" },
	{ "cluster set gossip-faults two",
	  "cluster set: invalid gossip-faults \"two\" (expected 1..7)" },
	{ "cluster set gossip-faults -1",
	  "cluster set: invalid gossip-faults \"-1\" (expected 1..7)" },
	{ "cluster set gossip-faults 256",
	  "cluster set: invalid gossip-faults \"256\" (expected 1..7)" },
	{ "cluster set gossip-faults 1 gossip-f 2",
	  "cluster set: \"gossip-faults\" given twice" },
	{ "cluster set gossip-time", "cluster set: \"gossip-time\" needs a value" },
	{ "cluster set quorum maybe",
	  "cluster set: invalid quorum \"maybe\" (expected on or off)" },
	{ "cluster set quorum", "cluster set: \"quorum\" needs a value" },
	{ "cluster set gossip-time 5",
	  "cluster set: invalid gossip-time \"5\" (expected a duration such as 100ms; units us, ms, s)" },
	{ "cluster set gossip-time AUTO",
	  "cluster set: invalid gossip-time \"AUTO\" (expected a duration such as 100ms; units us, ms, s)" },
	{ "cluster set gossip-time 9999999s",
	  "cluster set: gossip-time \"9999999s\" is too long" },
	{ "cluster set gossip-time auto gossip-t 1ms",
	  "cluster set: \"gossip-time\" given twice" },
	{ "cluster set gossip-falts 2",
	  "cluster set: unknown argument \"gossip-falts\" (did you mean \"gossip-faults\"?); try \"ftnl-cli cluster help\"" },
};

static void test_bad(const void *arg)
{
	const struct bad_case *c = arg;
	struct parsed p;

	parse(&p, c->line);
	TAP_CHECK_INT(p.ret, -EINVAL);
	TAP_CHECK_STR(p.err, c->err);
	cli_command_free(&p.cmd);
}

static void test_cluster_set_all(const void *arg)
{
	struct parsed p;
	struct cli_cluster_args *s = &p.cmd.set;
	char addr[FTNL_ADDR_STRLEN];

	(void)arg;
	parse(&p, "cl se file f.conf self 3 heartbeat 1.5s timeout 5s key " KEY
		  " node 1 10.0.0.1 7400 node 2 [fd00::2] 7401 domain rack2 name cn2 cluster 42");
	if (!TAP_CHECK_INT(p.ret, 0)) {
		tap_diag("error: %s", p.err);
		cli_command_free(&p.cmd);
		return;
	}
	TAP_CHECK_INT(p.cmd.verb, CLI_VERB_SET);
	TAP_CHECK_STR(s->file, "f.conf");
	TAP_CHECK_UINT(s->given, CLI_SET_ID | CLI_SET_SELF | CLI_SET_HEARTBEAT |
		       CLI_SET_TIMEOUT | CLI_SET_KEY | CLI_SET_FILE);
	TAP_CHECK_UINT(s->cluster_id, 42);
	TAP_CHECK_UINT(s->self_id, 3);
	TAP_CHECK_UINT(s->hb_period_us, 1500000);
	TAP_CHECK_UINT(s->timeout_us, 5000000);
	TAP_CHECK_UINT(s->key[1], 0x11);
	if (TAP_CHECK_UINT(s->node_count, 2)) {
		TAP_CHECK_UINT(s->nodes[1].id, 2);
		TAP_CHECK_INT(s->nodes[1].family, AF_INET6);
		TAP_CHECK_STR(ftnl_format_addr(s->nodes[1].family,
					       &s->nodes[1].addr, addr,
					       sizeof(addr)), "fd00::2");
		TAP_CHECK_UINT(s->nodes[1].port, 7401);
		TAP_CHECK_STR(s->nodes[0].domain, "");
		TAP_CHECK_STR(s->nodes[1].domain, "rack2");
		TAP_CHECK_STR(s->nodes[1].name, "cn2");
	}
	cli_command_free(&p.cmd);
	TAP_CHECK(!p.cmd.set.nodes);
}

struct bcast_arg_case {
	const char *line;
	uint8_t algo;
};

static const struct bcast_arg_case bcast_arg_cases[] = {
	{ "cluster set bcast bmg", FTNL_BCAST_BMG },
	{ "cluster set bcast hypercube", FTNL_BCAST_HYPERCUBE },
	{ "cluster set bcast fcg", FTNL_BCAST_FCG },
	{ "cl se id 1 bc bmg node 1 10.0.0.1 7400", FTNL_BCAST_BMG },
	{ "cluster set file f.conf b hypercube self 2", FTNL_BCAST_HYPERCUBE },
};

static void test_cluster_set_bcast(const void *arg)
{
	const struct bcast_arg_case *c = arg;
	struct parsed p;

	parse(&p, c->line);
	if (!TAP_CHECK_INT(p.ret, 0)) {
		tap_diag("error: %s", p.err);
		cli_command_free(&p.cmd);
		return;
	}
	TAP_CHECK(p.cmd.set.given & CLI_SET_BCAST);
	TAP_CHECK_UINT(p.cmd.set.bcast_algo, c->algo);
	cli_command_free(&p.cmd);
}

struct fcg_arg_case {
	const char *line;
	unsigned int given;
	uint8_t f;
	uint32_t t_us;
};

static const struct fcg_arg_case fcg_arg_cases[] = {
	{ "cluster set bcast fcg gossip-faults 3 gossip-time 5ms",
	  CLI_SET_BCAST | CLI_SET_GOSSIP_FAULTS | CLI_SET_GOSSIP_TIME, 3, 5000 },
	{ "cl se bc fcg gossip-f 7 gossip-t auto",
	  CLI_SET_BCAST | CLI_SET_GOSSIP_FAULTS | CLI_SET_GOSSIP_TIME, 7, 0 },
	{ "cluster set gossip-time 300us", CLI_SET_GOSSIP_TIME, 0, 300 },
	/* Syntax only here: ranges are the validation's (tests/build.c). */
	{ "cluster set gossip-faults 0", CLI_SET_GOSSIP_FAULTS, 0, 0 },
	{ "cluster set gossip-faults 255 gossip-time 11s",
	  CLI_SET_GOSSIP_FAULTS | CLI_SET_GOSSIP_TIME, 255, 11000000 },
	/* The abbreviations people already type mean what they meant. */
	{ "cluster set f x.conf gossip-faults 2", CLI_SET_FILE | CLI_SET_GOSSIP_FAULTS,
	  2, 0 },
	{ "cluster set t 1s h 100ms b fcg", CLI_SET_TIMEOUT | CLI_SET_HEARTBEAT |
	  CLI_SET_BCAST, 0, 0 },
};

static void test_cluster_set_fcg(const void *arg)
{
	const struct fcg_arg_case *c = arg;
	struct parsed p;

	parse(&p, c->line);
	if (!TAP_CHECK_INT(p.ret, 0)) {
		tap_diag("error: %s", p.err);
		cli_command_free(&p.cmd);
		return;
	}
	TAP_CHECK_UINT(p.cmd.set.given, c->given);
	TAP_CHECK_UINT(p.cmd.set.fcg_f, c->f);
	TAP_CHECK_UINT(p.cmd.set.gossip_t_us, c->t_us);
	cli_command_free(&p.cmd);
}

/* "fence kill", "fe none"; "f" is still file; a wrong policy is refused. */
static void test_cluster_set_fence(const void *arg)
{
	struct parsed p;

	(void)arg;
	parse(&p, "cluster set fence kill");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK_UINT(p.cmd.set.given, CLI_SET_FENCE);
	TAP_CHECK_UINT(p.cmd.set.fence, FTNL_FENCE_KILL);
	cli_command_free(&p.cmd);
	parse(&p, "cluster set fe none");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK_UINT(p.cmd.set.fence, FTNL_FENCE_NONE);
	cli_command_free(&p.cmd);
	parse(&p, "cluster set f x.conf");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK_UINT(p.cmd.set.given, CLI_SET_FILE);
	cli_command_free(&p.cmd);
	parse(&p, "cluster set fence kil");
	TAP_CHECK_INT(p.ret, -EINVAL);
	TAP_CHECK_STR(p.err, "cluster set: unknown fence policy \"kil\" (expected none or kill)");
	cli_command_free(&p.cmd);
}

static void test_cluster_set_state(const void *arg)
{
	struct parsed p;

	(void)arg;
	parse(&p, "cluster set file x.conf state /var/lib/ftnl/incarnation");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK_UINT(p.cmd.set.given, CLI_SET_FILE | CLI_SET_STATE);
	TAP_CHECK_STR(p.cmd.set.state, "/var/lib/ftnl/incarnation");
	cli_command_free(&p.cmd);
	parse(&p, "cluster set st s.txt s 3");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK_UINT(p.cmd.set.given, CLI_SET_STATE | CLI_SET_SELF);
	TAP_CHECK_UINT(p.cmd.set.self_id, 3);
	cli_command_free(&p.cmd);
	parse(&p, "cluster set state a state b");
	TAP_CHECK_INT(p.ret, -EINVAL);
	TAP_CHECK_STR(p.err, "cluster set: \"state\" given twice");
	cli_command_free(&p.cmd);
}

static void test_cluster_set_quorum(const void *arg)
{
	struct parsed p;

	(void)arg;
	parse(&p, "cluster set id 1 quorum off");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK_UINT(p.cmd.set.given, CLI_SET_ID | CLI_SET_QUORUM);
	TAP_CHECK_UINT(p.cmd.set.quorum, FTNL_QUORUM_OFF);
	cli_command_free(&p.cmd);
	parse(&p, "cluster set q on");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK_UINT(p.cmd.set.given, CLI_SET_QUORUM);
	TAP_CHECK_UINT(p.cmd.set.quorum, FTNL_QUORUM_ON);
	cli_command_free(&p.cmd);
	parse(&p, "cluster set id 1");
	TAP_CHECK(!(p.cmd.set.given & CLI_SET_QUORUM));
	cli_command_free(&p.cmd);
}

/* "timeout-adaptive D timeout-nines N"; "timeout" alone is still d. */
static void test_cluster_set_timeout_adaptive(const void *arg)
{
	struct parsed p;

	(void)arg;
	parse(&p, "cluster set timeout 50ms timeout-adaptive 15ms timeout-nines 9");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK_UINT(p.cmd.set.given, CLI_SET_TIMEOUT | CLI_SET_TIMEOUT_ADAPTIVE |
			CLI_SET_TIMEOUT_NINES);
	TAP_CHECK_UINT(p.cmd.set.timeout_us, 50000);
	TAP_CHECK_UINT(p.cmd.set.timeout_min_us, 15000);
	TAP_CHECK_UINT(p.cmd.set.timeout_nines, 9);
	cli_command_free(&p.cmd);
	parse(&p, "cluster set timeout-adaptive soon");
	TAP_CHECK_INT(p.ret, -EINVAL);
	TAP_CHECK_CONTAINS(p.err, "timeout-adaptive");
	cli_command_free(&p.cmd);
	parse(&p, "cluster set timeout-nines 300");
	TAP_CHECK_INT(p.ret, -EINVAL);
	TAP_CHECK_STR(p.err, "cluster set: invalid timeout-nines \"300\" (expected 1..9: a target rate of 10^-N)");
	cli_command_free(&p.cmd);
}

static void test_cluster_set_no_bcast(const void *arg)
{
	struct parsed p;

	(void)arg;
	parse(&p, "cluster set id 1 node 1 10.0.0.1 7400");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK(!(p.cmd.set.given & CLI_SET_BCAST));
	cli_command_free(&p.cmd);
}

/*
 * Every prefix of every object names that object: adding "bcast" made no
 * abbreviation ambiguous, and a future object must not either.
 */
static void test_algo_list(const void *arg)
{
	const char *names[FTNL_BCAST_MAX + 1];
	char buf[128];
	size_t i;

	(void)arg;
	/* Every algorithm of the uapi, named by libftnl, in enum order. */
	TAP_CHECK_UINT(cli_bcast_algo_names(names), FTNL_BCAST_MAX + 1);
	for (i = 0; i <= FTNL_BCAST_MAX; i++)
		TAP_CHECK_STR(names[i], ftnl_bcast_algo_name((unsigned int)i));
	TAP_CHECK_STR(cli_bcast_algo_list(buf, sizeof(buf)),
		      "hypercube, bmg or fcg");
	/* Truncation is safe. */
	TAP_CHECK_STR(cli_bcast_algo_list(buf, 8), "hypercu");
}

static void test_object_prefixes(const void *arg)
{
	static const struct {
		const char *name;
		enum cli_object object;
	} objects[] = {
		{ "bcast", CLI_OBJ_BCAST }, { "cluster", CLI_OBJ_CLUSTER },
		{ "events", CLI_OBJ_EVENTS }, { "help", CLI_OBJ_NONE }, { "info", CLI_OBJ_INFO },
		{ "monitor", CLI_OBJ_MONITOR }, { "node", CLI_OBJ_NODE },
		{ "proc", CLI_OBJ_PROC }, { "stats", CLI_OBJ_STATS },
	};
	char line[64];
	size_t i, len;
	struct parsed p;

	(void)arg;
	for (i = 0; i < ARRAY_SIZE(objects); i++) {
		for (len = 1; len <= strlen(objects[i].name); len++) {
			/* "help OBJECT" takes the same words as the object. */
			snprintf(line, sizeof(line), "help %.*s", (int)len,
				 objects[i].name);
			parse(&p, line);
			if (!TAP_CHECK_INT(p.ret, 0))
				tap_diag("%s: %s", line, p.err);
			else if (!TAP_CHECK_INT(p.cmd.help_object,
						objects[i].object))
				tap_diag("%s", line);
			cli_command_free(&p.cmd);
		}
	}
}

static void test_cluster_set_keyfile(const void *arg)
{
	struct parsed p;

	(void)arg;
	parse(&p, "cluster set keyf /etc/ftnl/key id 1 node 0 10.0.0.1 0");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK_STR(p.cmd.set.keyfile, "/etc/ftnl/key");
	TAP_CHECK_UINT(p.cmd.set.given, CLI_SET_KEYFILE | CLI_SET_ID);
	/* Port 0 and id 0 parse: validation, not parsing, rejects them. */
	TAP_CHECK_UINT(p.cmd.set.nodes[0].port, 0);
	cli_command_free(&p.cmd);
}

static void test_many_nodes(const void *arg)
{
	enum { N = 3000 };
	char **argv = calloc(4 + 4 * N + 1, sizeof(*argv));
	char (*words)[3][16] = calloc(N, sizeof(*words));
	struct cli_command cmd;
	char err[256];
	int argc = 0;
	unsigned int i;

	(void)arg;
	if (!TAP_CHECK(argv && words))
		goto out;
	argv[argc++] = "ftnl-cli";
	argv[argc++] = "cluster";
	argv[argc++] = "set";
	for (i = 0; i < N; i++) {
		snprintf(words[i][0], 16, "%u", i + 1);
		snprintf(words[i][1], 16, "10.0.%u.%u", (i / 250) % 256,
			 i % 250 + 1);
		snprintf(words[i][2], 16, "7400");
		argv[argc++] = "node";
		argv[argc++] = words[i][0];
		argv[argc++] = words[i][1];
		argv[argc++] = words[i][2];
	}
	TAP_CHECK_INT(cli_parse(argc, argv, &cmd, err, sizeof(err)), 0);
	TAP_CHECK_UINT(cmd.set.node_count, N);
	cli_command_free(&cmd);
	/* The same id at both ends is found. */
	snprintf(words[N - 1][0], 16, "1");
	TAP_CHECK_INT(cli_parse(argc, argv, &cmd, err, sizeof(err)), -EINVAL);
	TAP_CHECK_STR(err, "cluster set: node 1 given twice");
	cli_command_free(&cmd);
out:
	free(argv);
	free(words);
}

static void test_readmit(const void *arg)
{
	struct parsed p;

	(void)arg;
	parse(&p, "n r 4294967295");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK_INT(p.cmd.object, CLI_OBJ_NODE);
	TAP_CHECK_INT(p.cmd.verb, CLI_VERB_READMIT);
	TAP_CHECK_UINT(p.cmd.node_id, 4294967295u);
	cli_command_free(&p.cmd);
}

static void test_pairkeys(const void *arg)
{
	struct parsed p;

	(void)arg;
	parse(&p, "c p /s /c.conf 7");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK_INT(p.cmd.object, CLI_OBJ_CLUSTER);
	TAP_CHECK_INT(p.cmd.verb, CLI_VERB_PAIRKEYS);
	TAP_CHECK_STR(p.cmd.secret_path, "/s");
	TAP_CHECK_STR(p.cmd.config_path, "/c.conf");
	TAP_CHECK_UINT(p.cmd.node_id, 7);
	cli_command_free(&p.cmd);
}

static void test_match(const void *arg)
{
	static const char *const names[] = { "key", "keyfile", "node" };
	size_t index = 99;

	(void)arg;
	TAP_CHECK_INT(cli_match("key", names, 3, &index), CLI_MATCH_OK);
	TAP_CHECK_UINT(index, 0);
	TAP_CHECK_INT(cli_match("keyf", names, 3, &index), CLI_MATCH_OK);
	TAP_CHECK_UINT(index, 1);
	TAP_CHECK_INT(cli_match("ke", names, 3, &index), CLI_MATCH_AMBIGUOUS);
	TAP_CHECK_INT(cli_match("n", names, 3, &index), CLI_MATCH_OK);
	TAP_CHECK_UINT(index, 2);
	TAP_CHECK_INT(cli_match("nodes", names, 3, &index), CLI_MATCH_UNKNOWN);
	TAP_CHECK_INT(cli_match("", names, 3, &index), CLI_MATCH_UNKNOWN);
}

static void test_edit_distance(const void *arg)
{
	static const char *const names[] = { "cluster", "help", "info",
					     "monitor", "node" };

	(void)arg;
	TAP_CHECK_UINT(cli_edit_distance("cluster", "cluster"), 0);
	TAP_CHECK_UINT(cli_edit_distance("clutser", "cluster"), 1);
	TAP_CHECK_UINT(cli_edit_distance("cluser", "cluster"), 1);
	TAP_CHECK_UINT(cli_edit_distance("clusterr", "cluster"), 1);
	TAP_CHECK_UINT(cli_edit_distance("kitten", "sitting"), 3);
	TAP_CHECK_UINT(cli_edit_distance("", "abc"), 3);
	TAP_CHECK_STR(cli_suggest("monitr", names, 5), "monitor");
	TAP_CHECK_STR(cli_suggest("indo", names, 5), "info");
	TAP_CHECK(!cli_suggest("zzzzzz", names, 5));
	TAP_CHECK(!cli_suggest("x", names, 5));
}

static void test_history_after(const void *arg)
{
	struct parsed p;

	(void)arg;
	parse(&p, "events history after 18446744073709551615");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK_UINT(p.cmd.history_after, UINT64_MAX);
	cli_command_free(&p.cmd);
	parse(&p, "events");
	TAP_CHECK_INT(p.ret, 0);
	TAP_CHECK_UINT(p.cmd.history_after, 0);
	cli_command_free(&p.cmd);
}

int main(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good_cases); i++)
		tap_add(test_good, &good_cases[i], "parses: ftnl-cli %s",
			good_cases[i].line);
	tap_add(test_version, NULL, "parses: ftnl-cli -V");
	for (i = 0; i < ARRAY_SIZE(bad_cases); i++)
		tap_add(test_bad, &bad_cases[i], "rejects: ftnl-cli %s",
			bad_cases[i].line);
	tap_add(test_cluster_set_all, NULL, "cluster set: every argument, abbreviated");
	tap_add(test_cluster_set_keyfile, NULL, "cluster set: keyfile, id 0 and port 0 parse");
	for (i = 0; i < ARRAY_SIZE(bcast_arg_cases); i++)
		tap_add(test_cluster_set_bcast, &bcast_arg_cases[i],
			"cluster set bcast: ftnl-cli %s", bcast_arg_cases[i].line);
	tap_add(test_cluster_set_quorum, NULL, "cluster set: quorum on|off (q abbreviates it)");
	tap_add(test_cluster_set_state, NULL, "cluster set: state PATH (st abbreviates it, s is still self)");
	tap_add(test_cluster_set_no_bcast, NULL, "cluster set without bcast: not given");
	tap_add(test_cluster_set_timeout_adaptive, NULL,
		"cluster set timeout-adaptive D timeout-nines N; bad values refused");
	tap_add(test_cluster_set_fence, NULL, "cluster set fence: kill, none, f is still file, a wrong policy refused");
	for (i = 0; i < ARRAY_SIZE(fcg_arg_cases); i++)
		tap_add(test_cluster_set_fcg, &fcg_arg_cases[i],
			"cluster set FCG parameters: ftnl-cli %s", fcg_arg_cases[i].line);
	tap_add(test_algo_list, NULL, "algorithm names and list come from libftnl");
	tap_add(test_object_prefixes, NULL, "every prefix of every object is unambiguous");
	tap_add(test_many_nodes, NULL, "cluster set: 3000 node arguments, duplicate found");
	tap_add(test_readmit, NULL, "parses: ftnl-cli n r ID");
	tap_add(test_pairkeys, NULL, "parses: ftnl-cli c p SECRET CONFIG ID");
	tap_add(test_history_after, NULL, "parses: ftnl-cli events history after SEQ");
	tap_add(test_match, NULL, "exact match wins over prefix");
	tap_add(test_edit_distance, NULL, "edit distance and suggestions");
	return tap_run();
}
