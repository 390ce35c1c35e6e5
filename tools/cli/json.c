// SPDX-License-Identifier: GPL-2.0
/*
 * A small streaming JSON writer: objects, arrays, strings, unsigned
 * numbers, booleans; compact or indented. Strings are escaped per RFC 8259
 * and invalid UTF-8 is replaced by U+FFFD, so the output always parses.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "cli.h"

void json_init(struct json *j, FILE *out, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->pretty = pretty;
}

/* Length of the valid UTF-8 sequence at @s, or 0 if it is not one. */
static size_t utf8_sequence(const unsigned char *s)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the NUL */
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, UTF-16 surrogates, beyond U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/**
 * json_write_string() - write @s as a quoted, escaped JSON string
 * @out: the stream
 * @s: NUL-terminated bytes, ideally UTF-8
 */
void json_write_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	while (*p) {
		size_t len;

		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\b':
			fputs("\\b", out);
			break;
		case '\f':
			fputs("\\f", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (*p < 0x20) {
				fprintf(out, "\\u%04x", *p);
				break;
			}
			len = utf8_sequence(p);
			if (!len) {
				fputs("\\ufffd", out);
				break;
			}
			fwrite(p, 1, len, out);
			p += len;
			continue;
		}
		p++;
	}
	fputc('"', out);
}

static void json_newline(struct json *j)
{
	int i;

	if (!j->pretty)
		return;
	fputc('\n', j->out);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

/* Before any value or key: separator and indentation. */
static void json_before_item(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth > 0) {
		if (j->has_items[j->depth])
			fputc(',', j->out);
		json_newline(j);
	}
	j->has_items[j->depth] = true;
}

static void json_open(struct json *j, char c)
{
	json_before_item(j);
	fputc(c, j->out);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->has_items[j->depth] = false;
}

static void json_close(struct json *j, char c)
{
	bool had_items = j->has_items[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had_items)
		json_newline(j);
	fputc(c, j->out);
}

void json_object_begin(struct json *j)
{
	json_open(j, '{');
}

void json_object_end(struct json *j)
{
	json_close(j, '}');
}

void json_array_begin(struct json *j)
{
	json_open(j, '[');
}

void json_array_end(struct json *j)
{
	json_close(j, ']');
}

void json_key(struct json *j, const char *key)
{
	json_before_item(j);
	json_write_string(j->out, key);
	fputs(j->pretty ? ": " : ":", j->out);
	j->after_key = true;
}

void json_string(struct json *j, const char *s)
{
	json_before_item(j);
	json_write_string(j->out, s);
}

void json_uint(struct json *j, uint64_t value)
{
	json_before_item(j);
	fprintf(j->out, "%" PRIu64, value);
}

void json_bool(struct json *j, bool value)
{
	json_before_item(j);
	fputs(value ? "true" : "false", j->out);
}

/* End of a top-level value: one per line. */
void json_end(struct json *j)
{
	fputc('\n', j->out);
	j->has_items[0] = false;
}

void json_kv_string(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_kv_uint(struct json *j, const char *key, uint64_t value)
{
	json_key(j, key);
	json_uint(j, value);
}

void json_kv_bool(struct json *j, const char *key, bool value)
{
	json_key(j, key);
	json_bool(j, value);
}
