// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON writer: structure, compact and pretty layout, string escaping,
 * invalid UTF-8.
 */
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "cli.h"
#include "tap.h"

struct escape_case {
	const char *name;
	const char *in;
	const char *out;
};

static const struct escape_case escape_cases[] = {
	{ "plain", "ftnl", "\"ftnl\"" },
	{ "empty", "", "\"\"" },
	{ "quote and backslash", "a\"b\\c", "\"a\\\"b\\\\c\"" },
	{ "named controls", "\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"" },
	{ "other controls", "\x01\x1f", "\"\\u0001\\u001f\"" },
	{ "DEL and slash pass", "\x7f/", "\"\x7f/\"" },
	{ "2-byte UTF-8", "caf\xc3\xa9", "\"caf\xc3\xa9\"" },
	{ "3-byte UTF-8", "\xe6\x97\xa5\xe6\x9c\xac", "\"\xe6\x97\xa5\xe6\x9c\xac\"" },
	{ "4-byte UTF-8", "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },
	{ "lone continuation byte", "a\x80z", "\"a\\ufffdz\"" },
	{ "invalid byte 0xff", "\xff", "\"\\ufffd\"" },
	{ "truncated sequence at the end", "ab\xe6\x97", "\"ab\\ufffd\\ufffd\"" },
	{ "truncated sequence mid-string", "\xc3z", "\"\\ufffdz\"" },
	{ "overlong NUL", "\xc0\x80", "\"\\ufffd\\ufffd\"" },
	{ "overlong 3-byte", "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "UTF-16 surrogate", "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },
	{ "beyond U+10FFFF", "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
};

static void test_escape(const void *arg)
{
	const struct escape_case *c = arg;
	struct capture cap;

	if (!TAP_CHECK(capture_start(&cap)))
		return;
	json_write_string(cap.out, c->in);
	TAP_CHECK_STR(capture_end(&cap), c->out);
	free(cap.text);
}

static void write_sample(struct json *j)
{
	json_object_begin(j);
	json_kv_string(j, "name", "n\"1");
	json_kv_uint(j, "id", 18446744073709551615ull);
	json_kv_bool(j, "self", true);
	json_key(j, "list");
	json_array_begin(j);
	json_uint(j, 1);
	json_object_begin(j);
	json_kv_bool(j, "x", false);
	json_object_end(j);
	json_array_begin(j);
	json_array_end(j);
	json_array_end(j);
	json_key(j, "empty");
	json_object_begin(j);
	json_object_end(j);
	json_object_end(j);
	json_end(j);
}

static void test_compact(const void *arg)
{
	struct capture cap;
	struct json j;

	(void)arg;
	if (!TAP_CHECK(capture_start(&cap)))
		return;
	json_init(&j, cap.out, false);
	write_sample(&j);
	TAP_CHECK_STR(capture_end(&cap),
		      "{\"name\":\"n\\\"1\",\"id\":18446744073709551615,"
		      "\"self\":true,\"list\":[1,{\"x\":false},[]],\"empty\":{}}\n");
	free(cap.text);
}

static void test_pretty(const void *arg)
{
	struct capture cap;
	struct json j;

	(void)arg;
	if (!TAP_CHECK(capture_start(&cap)))
		return;
	json_init(&j, cap.out, true);
	write_sample(&j);
	TAP_CHECK_STR(capture_end(&cap),
		      "{\n"
		      "  \"name\": \"n\\\"1\",\n"
		      "  \"id\": 18446744073709551615,\n"
		      "  \"self\": true,\n"
		      "  \"list\": [\n"
		      "    1,\n"
		      "    {\n"
		      "      \"x\": false\n"
		      "    },\n"
		      "    []\n"
		      "  ],\n"
		      "  \"empty\": {}\n"
		      "}\n");
	free(cap.text);
}

static void test_lines(const void *arg)
{
	struct capture cap;
	struct json j;
	int i;

	(void)arg;
	/* monitor -j: one object per line, the writer reused. */
	if (!TAP_CHECK(capture_start(&cap)))
		return;
	json_init(&j, cap.out, false);
	for (i = 0; i < 3; i++) {
		json_object_begin(&j);
		json_kv_uint(&j, "n", (uint64_t)i);
		json_object_end(&j);
		json_end(&j);
	}
	TAP_CHECK_STR(capture_end(&cap), "{\"n\":0}\n{\"n\":1}\n{\"n\":2}\n");
	free(cap.text);
}

static void test_empty_array(const void *arg)
{
	struct capture cap;
	struct json j;

	(void)arg;
	/* node list -j without a cluster. */
	if (!TAP_CHECK(capture_start(&cap)))
		return;
	json_init(&j, cap.out, true);
	json_array_begin(&j);
	json_array_end(&j);
	json_end(&j);
	TAP_CHECK_STR(capture_end(&cap), "[]\n");
	free(cap.text);
}

int main(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(escape_cases); i++)
		tap_add(test_escape, &escape_cases[i], "escape: %s",
			escape_cases[i].name);
	tap_add(test_compact, NULL, "compact layout");
	tap_add(test_pretty, NULL, "pretty layout");
	tap_add(test_lines, NULL, "one document per line");
	tap_add(test_empty_array, NULL, "empty array");
	return tap_run();
}
