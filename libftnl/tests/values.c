// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Value helpers: numbers, ports, durations, keys, key files, addresses,
 * broadcast algorithm and feature names.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"
#include "tap.h"

struct u32_case {
	const char *text;
	int err;
	uint32_t value;
};

static const struct u32_case u32_cases[] = {
	{ "0", 0, 0 },
	{ "42", 0, 42 },
	{ "007", 0, 7 },
	{ "4294967295", 0, 4294967295u },
	{ "4294967296", -ERANGE, 0 },
	{ "99999999999999999999999", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ " 1", -EINVAL, 0 },
	{ "1 ", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "12a", -EINVAL, 0 },
	{ "99999999999x", -EINVAL, 0 },
};

static void test_u32(const void *arg)
{
	const struct u32_case *c = arg;
	uint32_t v = 12345;

	TAP_CHECK_INT(ftnl_parse_u32(c->text, &v), c->err);
	if (!c->err)
		TAP_CHECK_UINT(v, c->value);
	else
		TAP_CHECK_UINT(v, 12345);	/* untouched on error */
}

static void test_port(const void *arg)
{
	uint16_t port = 0;

	(void)arg;
	TAP_CHECK_INT(ftnl_parse_port("7400", &port), 0);
	TAP_CHECK_UINT(port, 7400);
	TAP_CHECK_INT(ftnl_parse_port("65535", &port), 0);
	TAP_CHECK_UINT(port, 65535);
	TAP_CHECK_INT(ftnl_parse_port("0", &port), 0);
	TAP_CHECK_UINT(port, 0);
	TAP_CHECK_INT(ftnl_parse_port("65536", &port), -ERANGE);
	TAP_CHECK_INT(ftnl_parse_port("http", &port), -EINVAL);
}

struct duration_case {
	const char *text;
	int err;
	uint32_t us;
};

static const struct duration_case duration_cases[] = {
	{ "100ms", 0, 100000 },
	{ "250us", 0, 250 },
	{ "1s", 0, 1000000 },
	{ "1.5s", 0, 1500000 },
	{ "0.5ms", 0, 500 },
	{ "0.000001s", 0, 1 },
	{ "2.250ms", 0, 2250 },
	{ "0us", 0, 0 },
	{ "4294967295us", 0, 4294967295u },
	{ "4294s", 0, 4294000000u },
	{ "4295s", -ERANGE, 0 },
	{ "4294967296us", -ERANGE, 0 },
	{ "99999999999999999999s", -ERANGE, 0 },
	{ "0.0000001s", -EINVAL, 0 },	/* finer than 1 us */
	{ "1.5us", -EINVAL, 0 },
	{ "100", -EINVAL, 0 },		/* the unit is mandatory */
	{ "10xs", -EINVAL, 0 },
	{ "ms", -EINVAL, 0 },
	{ "", -EINVAL, 0 },
	{ "1.ms", -EINVAL, 0 },
	{ ".5s", -EINVAL, 0 },
	{ "-1ms", -EINVAL, 0 },
	{ "1 ms", -EINVAL, 0 },
	{ "1MS", -EINVAL, 0 },
	{ "1.0000000001s", -EINVAL, 0 },
};

static void test_duration(const void *arg)
{
	const struct duration_case *c = arg;
	uint32_t us = 777;

	TAP_CHECK_INT(ftnl_parse_duration_us(c->text, &us), c->err);
	TAP_CHECK_UINT(us, c->err ? 777 : c->us);
}

static void test_format_duration(const void *arg)
{
	char buf[16];

	(void)arg;
	TAP_CHECK_STR(ftnl_format_duration(100000, buf, sizeof(buf)), "100ms");
	TAP_CHECK_STR(ftnl_format_duration(1500000, buf, sizeof(buf)), "1500ms");
	TAP_CHECK_STR(ftnl_format_duration(2000000, buf, sizeof(buf)), "2s");
	TAP_CHECK_STR(ftnl_format_duration(250, buf, sizeof(buf)), "250us");
	TAP_CHECK_STR(ftnl_format_duration(0, buf, sizeof(buf)), "0us");
	TAP_CHECK_STR(ftnl_format_duration(4294967295u, buf, sizeof(buf)),
		      "4294967295us");
}

static void test_duration_round_trip(const void *arg)
{
	static const uint32_t values[] = { 1, 999, 1000, 1001, 60000000,
					   600000000, 4294967295u };
	char buf[16];
	uint32_t back;
	size_t i;

	(void)arg;
	for (i = 0; i < FTNL_ARRAY_SIZE(values); i++) {
		ftnl_format_duration(values[i], buf, sizeof(buf));
		TAP_CHECK_INT(ftnl_parse_duration_us(buf, &back), 0);
		TAP_CHECK_UINT(back, values[i]);
	}
}

static const char key_hex[] =
	"00112233445566778899aabbccddeeff00112233445566778899AABBCCDDEEFF";
static const uint8_t key_bytes[FTNL_KEY_LEN] = {
	0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa,
	0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
	0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
};

static void test_key(const void *arg)
{
	uint8_t key[FTNL_KEY_LEN] = { 0 }, zero[FTNL_KEY_LEN] = { 0 };
	char shorter[sizeof(key_hex)], bad[sizeof(key_hex)];

	(void)arg;
	TAP_CHECK_INT(ftnl_parse_key(key_hex, key), 0);
	TAP_CHECK_MEM(key, key_bytes, FTNL_KEY_LEN);

	memset(key, 0, sizeof(key));
	memcpy(shorter, key_hex, sizeof(key_hex));
	shorter[62] = '\0';
	TAP_CHECK_INT(ftnl_parse_key(shorter, key), -EINVAL);
	memcpy(bad, key_hex, sizeof(key_hex));
	bad[63] = 'g';
	TAP_CHECK_INT(ftnl_parse_key(bad, key), -EINVAL);
	TAP_CHECK_MEM(key, zero, FTNL_KEY_LEN);	/* untouched on error */
	TAP_CHECK_INT(ftnl_parse_key("", key), -EINVAL);
}

static char *write_temp(const void *data, size_t len)
{
	char path[] = "/tmp/ftnl-test-XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0)
		return NULL;
	if (write(fd, data, len) != (ssize_t)len) {
		close(fd);
		unlink(path);
		return NULL;
	}
	close(fd);
	return strdup(path);
}

struct keyfile_case {
	const char *name;
	const char *content;
	size_t len;
	int err;
	const char *errtext;
};

static const struct keyfile_case keyfile_cases[] = {
	{ "32 raw bytes", (const char *)key_bytes, FTNL_KEY_LEN, 0, NULL },
	{ "64 hex digits", key_hex, 64, 0, NULL },
	{ "hex with newline", key_hex, 0, 0, NULL },	/* len 0: see below */
	{ "31 raw bytes", (const char *)key_bytes, 31, -EINVAL,
	  "must hold 32 raw bytes or 64 hex digits" },
	{ "63 hex digits", key_hex, 63, -EINVAL, "64 hex digits" },
	{ "empty", "", 0, -EINVAL, "64 hex digits" },
};

static void test_keyfile(const void *arg)
{
	const struct keyfile_case *c = arg;
	uint8_t key[FTNL_KEY_LEN] = { 0 };
	char content[256], err[256] = "";
	size_t len = c->len;
	char *path;

	memcpy(content, c->content, len);
	if (!strcmp(c->name, "hex with newline")) {
		len = (size_t)snprintf(content, sizeof(content), "  %s\r\n\n",
				       key_hex);
	}
	path = write_temp(content, len);
	if (!TAP_CHECK(path))
		return;
	TAP_CHECK_INT(ftnl_read_key_file(path, key, err, sizeof(err)), c->err);
	if (!c->err)
		TAP_CHECK_MEM(key, key_bytes, FTNL_KEY_LEN);
	else
		TAP_CHECK_CONTAINS(err, c->errtext);
	unlink(path);
	free(path);
}

static void test_keyfile_missing(const void *arg)
{
	uint8_t key[FTNL_KEY_LEN];
	char err[256] = "";

	(void)arg;
	TAP_CHECK_INT(ftnl_read_key_file("/nonexistent/ftnl.key", key, err,
					 sizeof(err)), -ENOENT);
	TAP_CHECK_CONTAINS(err, "/nonexistent/ftnl.key");
	TAP_CHECK_CONTAINS(err, "No such file");
	/* A NULL error buffer is allowed. */
	TAP_CHECK_INT(ftnl_read_key_file("/nonexistent/ftnl.key", key, NULL, 0),
		      -ENOENT);
}

/*
 * The pair key of nodes 3 and 7 of cluster 42 under the secret 00 01 ..
 * 1f, computed by Python's hashlib (an independent BLAKE2s):
 * blake2s(b"ftnl pair key" + pack(">III", 42, 3, 7), key=secret).
 */
static const char pair_3_7_hex[] =
	"caf579b8bdc75bf2d3eb3bc2b2ab02827fb13b4fa13cddc972dfb333b9cccaba";

static void test_pair_key(const void *arg)
{
	uint8_t secret[FTNL_KEY_LEN], k37[FTNL_KEY_LEN], k73[FTNL_KEY_LEN];
	uint8_t want[FTNL_KEY_LEN], other[FTNL_KEY_LEN];
	int i;

	(void)arg;
	for (i = 0; i < FTNL_KEY_LEN; i++)
		secret[i] = (uint8_t)i;
	TAP_CHECK_INT(ftnl_parse_key(pair_3_7_hex, want), 0);
	ftnl_pair_key(secret, 42, 3, 7, k37);
	ftnl_pair_key(secret, 42, 7, 3, k73);
	TAP_CHECK_MEM(k37, want, FTNL_KEY_LEN);
	TAP_CHECK_MEM(k73, want, FTNL_KEY_LEN);
	/* another pair, another cluster, another secret: another key */
	ftnl_pair_key(secret, 42, 3, 8, other);
	TAP_CHECK(memcmp(other, want, FTNL_KEY_LEN));
	ftnl_pair_key(secret, 43, 3, 7, other);
	TAP_CHECK(memcmp(other, want, FTNL_KEY_LEN));
	secret[0] ^= 1;
	ftnl_pair_key(secret, 42, 3, 7, other);
	TAP_CHECK(memcmp(other, want, FTNL_KEY_LEN));
}

struct addr_case {
	const char *text;
	int err;
	int family;
	const char *canonical;
};

static const struct addr_case addr_cases[] = {
	{ "10.0.0.1", 0, AF_INET, "10.0.0.1" },
	{ "255.255.255.255", 0, AF_INET, "255.255.255.255" },
	{ "fd00::2", 0, AF_INET6, "fd00::2" },
	{ "FD00:0:0::02", 0, AF_INET6, "fd00::2" },
	{ "[fd00::3]", 0, AF_INET6, "fd00::3" },
	{ "::ffff:10.0.0.1", 0, AF_INET6, "::ffff:10.0.0.1" },
	{ "10.0.0.256", -EINVAL, 0, NULL },
	{ "10.0.0", -EINVAL, 0, NULL },
	{ "010.0.0.1", -EINVAL, 0, NULL },
	{ "[10.0.0.1]", -EINVAL, 0, NULL },
	{ "fe80::1%eth0", -EINVAL, 0, NULL },
	{ "node1.example", -EINVAL, 0, NULL },
	{ "", -EINVAL, 0, NULL },
	{ "[]", -EINVAL, 0, NULL },
	{ "[fd00::1", -EINVAL, 0, NULL },
};

static void test_addr(const void *arg)
{
	const struct addr_case *c = arg;
	union ftnl_addr addr;
	char buf[FTNL_ADDR_STRLEN];
	int family = -1;

	TAP_CHECK_INT(ftnl_parse_addr(c->text, &family, &addr), c->err);
	if (c->err)
		return;
	TAP_CHECK_INT(family, c->family);
	TAP_CHECK_STR(ftnl_format_addr(family, &addr, buf, sizeof(buf)),
		      c->canonical);
}

static void test_addr_network_order(const void *arg)
{
	union ftnl_addr addr;
	int family;
	char buf[8];

	(void)arg;
	TAP_CHECK_INT(ftnl_parse_addr("10.1.2.3", &family, &addr), 0);
	TAP_CHECK_UINT(addr.v4.s_addr, htonl(0x0a010203));
	TAP_CHECK_STR(ftnl_format_addr(AF_UNIX, &addr, buf, sizeof(buf)), "?");
}

struct bcast_case {
	const char *text;
	int err;
	uint8_t algo;
};

static const struct bcast_case bcast_cases[] = {
	{ "hypercube", 0, FTNL_BCAST_HYPERCUBE },
	{ "bmg", 0, FTNL_BCAST_BMG },
	{ "fcg", 0, FTNL_BCAST_FCG },
	{ "FCG", -EINVAL, 0 },
	{ "BMG", -EINVAL, 0 },		/* names are lower case, as in the spec */
	{ "Hypercube", -EINVAL, 0 },
	{ "hyper", -EINVAL, 0 },	/* no abbreviation of values */
	{ "bm", -EINVAL, 0 },
	{ "bmg ", -EINVAL, 0 },
	{ " bmg", -EINVAL, 0 },
	{ "bmgx", -EINVAL, 0 },
	{ "0", -EINVAL, 0 },		/* no numbers */
	{ "1", -EINVAL, 0 },
	{ "2", -EINVAL, 0 },
	{ "unknown", -EINVAL, 0 },	/* what the name helper says, not a name */
	{ "", -EINVAL, 0 },
};

static void test_parse_bcast(const void *arg)
{
	const struct bcast_case *c = arg;
	uint8_t algo = 0xee;

	TAP_CHECK_INT(ftnl_parse_bcast_algo(c->text, &algo), c->err);
	TAP_CHECK_UINT(algo, c->err ? 0xee : c->algo);	/* untouched on error */
}

static void test_bcast_names(const void *arg)
{
	unsigned int i;
	uint8_t algo;

	(void)arg;
	TAP_CHECK_STR(ftnl_bcast_algo_name(FTNL_BCAST_HYPERCUBE), "hypercube");
	TAP_CHECK_STR(ftnl_bcast_algo_name(FTNL_BCAST_BMG), "bmg");
	TAP_CHECK_STR(ftnl_bcast_algo_name(FTNL_BCAST_FCG), "fcg");
	TAP_CHECK_STR(ftnl_bcast_algo_name(FTNL_BCAST_MAX + 1), "unknown");
	TAP_CHECK_STR(ftnl_bcast_algo_name(255), "unknown");
	TAP_CHECK_STR(ftnl_bcast_algo_name(~0u), "unknown");
	/*
	 * Every algorithm of the uapi has a name that parses back to it: this
	 * fails when the uapi grows an algorithm libftnl does not name yet.
	 */
	for (i = 0; i <= FTNL_BCAST_MAX; i++) {
		TAP_CHECK(strcmp(ftnl_bcast_algo_name(i), "unknown"));
		TAP_CHECK_INT(ftnl_parse_bcast_algo(ftnl_bcast_algo_name(i),
						    &algo), 0);
		TAP_CHECK_UINT(algo, i);
	}
}

static void test_attr_names_complete(const void *arg)
{
	unsigned int type;

	(void)arg;
	/* Every attribute of the uapi is named (for rejections and tests). */
	for (type = 1; type <= FTNL_A_MAX; type++)
		if (!TAP_CHECK(strcmp(ftnl_attr_name(type), "unknown")))
			tap_diag("attribute %u has no name", type);
}

static void test_feature_names(const void *arg)
{
	(void)arg;
	TAP_CHECK_STR(ftnl_feature_name(FTNL_FEATURE_CLUSTER), "cluster");
	TAP_CHECK_STR(ftnl_feature_name(FTNL_FEATURE_RING), "ring");
	TAP_CHECK_STR(ftnl_feature_name(FTNL_FEATURE_BCAST), "bcast");
	TAP_CHECK_STR(ftnl_feature_name(FTNL_FEATURE_PROC), "proc");
	TAP_CHECK_STR(ftnl_feature_name(FTNL_FEATURE_NODE_NAME), "node-name");
	TAP_CHECK_STR(ftnl_feature_name(FTNL_FEATURE_DOMAINS), "domains");
	TAP_CHECK_STR(ftnl_feature_name(FTNL_FEATURE_PAIR_KEYS), "pair-keys");
	TAP_CHECK_STR(ftnl_feature_name(FTNL_FEATURE_SIGNED), "signed");
	TAP_CHECK(!ftnl_feature_name(FTNL_FEATURE_SIGNED << 1));
	TAP_CHECK(!ftnl_feature_name(FTNL_FEATURE_BCAST | FTNL_FEATURE_RING));
	TAP_CHECK(!ftnl_feature_name(0));
	TAP_CHECK_STR(ftnl_attr_name(FTNL_A_BCAST_ALGO), "bcast-algo");
	TAP_CHECK_STR(ftnl_attr_name(FTNL_A_BCAST_FCG_F), "bcast-fcg-f");
	TAP_CHECK_STR(ftnl_attr_name(FTNL_A_BCAST_GOSSIP_T_US), "bcast-gossip-t-us");
	TAP_CHECK_STR(ftnl_attr_name(FTNL_A_MAX + 1), "unknown");
}

/* The one tokenizer of the config and peers files. */
struct split_case {
	const char *line;
	int max;
	int n;			/* expected return */
	const char *words;	/* the stored words joined by '|' */
};

static const struct split_case split_cases[] = {
	{ "", 4, 0, "" },
	{ " \t\r\v\f", 4, 0, "" },
	{ "# only a comment", 4, 0, "" },
	{ "node 1 10.0.0.1 7400", 4, 4, "node|1|10.0.0.1|7400" },
	{ "\tnode  1\t10.0.0.1 7400  ", 4, 4, "node|1|10.0.0.1|7400" },
	{ "node 1 10.0.0.1 7400 extra", 4, 5, "node|1|10.0.0.1|7400" },
	{ "node 1 10.0.0.1 7400 a b c d", 4, 5, "node|1|10.0.0.1|7400" },
	{ "node 1 10.0.0.1 7400 #extra", 4, 4, "node|1|10.0.0.1|7400" },
	{ "cluster 42#comment", 4, 2, "cluster|42" },
	{ "cluster #42", 4, 1, "cluster" },
	{ "a b", 1, 2, "a" },
	{ "a", 0, 1, "" },
};

static void test_split(const void *arg)
{
	const struct split_case *c = arg;
	char line[128], joined[128] = "", *words[8];
	int n, i;

	snprintf(line, sizeof(line), "%s", c->line);
	n = ftnl_split_words(line, words, c->max);
	TAP_CHECK_INT(n, c->n);
	for (i = 0; i < n && i < c->max; i++) {
		if (i)
			strcat(joined, "|");
		strcat(joined, words[i]);
	}
	TAP_CHECK_STR(joined, c->words);
}

int main(void)
{
	size_t i;

	for (i = 0; i < FTNL_ARRAY_SIZE(u32_cases); i++)
		tap_add(test_u32, &u32_cases[i], "parse_u32(\"%s\")",
			u32_cases[i].text);
	tap_add(test_port, NULL, "parse_port range");
	for (i = 0; i < FTNL_ARRAY_SIZE(duration_cases); i++)
		tap_add(test_duration, &duration_cases[i],
			"parse_duration_us(\"%s\")", duration_cases[i].text);
	tap_add(test_format_duration, NULL, "format_duration picks the largest exact unit");
	tap_add(test_duration_round_trip, NULL, "format then parse gives the same duration");
	tap_add(test_key, NULL, "parse_key: 64 hex digits, either case, nothing else");
	for (i = 0; i < FTNL_ARRAY_SIZE(keyfile_cases); i++)
		tap_add(test_keyfile, &keyfile_cases[i], "read_key_file: %s",
			keyfile_cases[i].name);
	tap_add(test_keyfile_missing, NULL, "read_key_file: missing file named in the error");
	tap_add(test_pair_key, NULL, "pair_key: BLAKE2s of the pair, either order, per cluster and secret");
	for (i = 0; i < FTNL_ARRAY_SIZE(addr_cases); i++)
		tap_add(test_addr, &addr_cases[i], "parse_addr(\"%s\")",
			addr_cases[i].text);
	tap_add(test_addr_network_order, NULL, "addresses are in network byte order");
	for (i = 0; i < FTNL_ARRAY_SIZE(bcast_cases); i++)
		tap_add(test_parse_bcast, &bcast_cases[i],
			"parse_bcast_algo(\"%s\")", bcast_cases[i].text);
	tap_add(test_bcast_names, NULL, "bcast_algo_name: every algorithm, parses back");
	tap_add(test_feature_names, NULL, "features and the bcast attributes are named");
	tap_add(test_attr_names_complete, NULL, "every top-level attribute of the uapi is named");
	for (i = 0; i < FTNL_ARRAY_SIZE(split_cases); i++)
		tap_add(test_split, &split_cases[i],
			"split_words, case %zu: %d words at most", i + 1,
			split_cases[i].max);
	return tap_run();
}
