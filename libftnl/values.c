// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Parsing and formatting the values of a configuration: numbers, ports,
 * durations, keys, addresses. Shared by the config parser and ftnl-cli.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

void ftnl_vformat_err(char *err, size_t errlen, const char *fmt, va_list ap)
{
	if (err && errlen)
		vsnprintf(err, errlen, fmt, ap);
}

void ftnl_format_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ftnl_vformat_err(err, errlen, fmt, ap);
	va_end(ap);
}

static bool ftnl_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Parse leading decimal digits of @s into @value, up to @max. */
static int ftnl_parse_digits(const char **s, uint64_t max, uint64_t *value)
{
	const char *p = *s;
	uint64_t v = 0;

	if (!ftnl_is_digit(*p))
		return -EINVAL;
	for (; ftnl_is_digit(*p); p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > max) {
			while (ftnl_is_digit(*p))
				p++;
			*s = p;
			return -ERANGE;
		}
	}
	*s = p;
	*value = v;
	return 0;
}

FTNL_EXPORT int ftnl_parse_u32(const char *text, uint32_t *value)
{
	uint64_t v;
	int err;

	err = ftnl_parse_digits(&text, UINT32_MAX, &v);
	if (err == -ERANGE && *text)
		return -EINVAL;		/* "99999999999x" is not a number */
	if (err)
		return err;
	if (*text)
		return -EINVAL;
	*value = (uint32_t)v;
	return 0;
}

FTNL_EXPORT int ftnl_parse_port(const char *text, uint16_t *port)
{
	uint32_t v;
	int err;

	err = ftnl_parse_u32(text, &v);
	if (err)
		return err;
	if (v > UINT16_MAX)
		return -ERANGE;
	*port = (uint16_t)v;
	return 0;
}

FTNL_EXPORT int ftnl_parse_duration_us(const char *text, uint32_t *us)
{
	static const struct {
		const char *name;
		uint64_t us;
	} units[] = {
		{ "us", 1 },
		{ "ms", 1000 },
		{ "s", 1000000 },
	};
	uint64_t whole, frac = 0, frac_scale = 1, unit = 0, total;
	const char *p = text;
	unsigned int i;
	int err;

	/* Whole part: anything over the u32 limit is out of range anyway. */
	err = ftnl_parse_digits(&p, UINT32_MAX, &whole);
	if (err == -EINVAL)
		return err;
	if (err == -ERANGE)
		whole = (uint64_t)UINT32_MAX + 1;
	if (*p == '.') {
		p++;
		if (!ftnl_is_digit(*p))
			return -EINVAL;
		for (; ftnl_is_digit(*p); p++) {
			if (frac_scale >= 1000000000)
				return -EINVAL;	/* finer than 1 ns: nonsense */
			frac = frac * 10 + (uint64_t)(*p - '0');
			frac_scale *= 10;
		}
	}
	for (i = 0; i < FTNL_ARRAY_SIZE(units); i++)
		if (!strcmp(p, units[i].name))
			unit = units[i].us;
	if (!unit)
		return -EINVAL;
	if ((frac * unit) % frac_scale)
		return -EINVAL;		/* not a whole number of microseconds */
	total = whole * unit + frac * unit / frac_scale;
	if (whole > UINT32_MAX || total > UINT32_MAX)
		return -ERANGE;
	*us = (uint32_t)total;
	return 0;
}

FTNL_EXPORT char *ftnl_format_duration(uint32_t us, char *buf, size_t len)
{
	if (us && us % 1000000 == 0)
		snprintf(buf, len, "%us", us / 1000000);
	else if (us && us % 1000 == 0)
		snprintf(buf, len, "%ums", us / 1000);
	else
		snprintf(buf, len, "%uus", us);
	return buf;
}

static bool ftnl_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

int ftnl_split_words(char *line, char **words, int max)
{
	int n = 0;

	for (;;) {
		while (ftnl_is_blank(*line))
			line++;
		if (!*line || *line == '#')
			return n;
		if (n == max)
			return max + 1;
		words[n++] = line;
		while (*line && !ftnl_is_blank(*line) && *line != '#')
			line++;
		if (*line == '#') {
			*line = '\0';
			return n;
		}
		if (*line)
			*line++ = '\0';
	}
}

static int ftnl_hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode exactly 2 * FTNL_KEY_LEN hex digits at @text (length @len). */
static int ftnl_parse_key_n(const char *text, size_t len,
			    uint8_t key[FTNL_KEY_LEN])
{
	uint8_t tmp[FTNL_KEY_LEN];
	size_t i;

	if (len != 2 * FTNL_KEY_LEN)
		return -EINVAL;
	for (i = 0; i < FTNL_KEY_LEN; i++) {
		int hi = ftnl_hex_value(text[2 * i]);
		int lo = ftnl_hex_value(text[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			explicit_bzero(tmp, sizeof(tmp));
			return -EINVAL;
		}
		tmp[i] = (uint8_t)(hi << 4 | lo);
	}
	memcpy(key, tmp, sizeof(tmp));
	explicit_bzero(tmp, sizeof(tmp));
	return 0;
}

FTNL_EXPORT int ftnl_parse_key(const char *text, uint8_t key[FTNL_KEY_LEN])
{
	return ftnl_parse_key_n(text, strlen(text), key);
}

static bool ftnl_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

FTNL_EXPORT int ftnl_read_key_file(const char *path, uint8_t key[FTNL_KEY_LEN],
				   char *err, size_t errlen)
{
	/* Big enough to tell "too long" from any valid content. */
	char buf[4 * FTNL_KEY_LEN + 2];
	size_t len = 0, start, end;
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		ftnl_format_err(err, errlen, "cannot open key file \"%s\": %s",
				path, strerror(errno));
		return ret;
	}
	while (len < sizeof(buf)) {
		n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			ftnl_format_err(err, errlen,
					"cannot read key file \"%s\": %s",
					path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}

	if (len == FTNL_KEY_LEN) {
		memcpy(key, buf, FTNL_KEY_LEN);
		goto out;
	}
	for (start = 0; start < len && ftnl_is_space(buf[start]); start++)
		;
	for (end = len; end > start && ftnl_is_space(buf[end - 1]); end--)
		;
	if (ftnl_parse_key_n(buf + start, end - start, key)) {
		ret = -EINVAL;
		ftnl_format_err(err, errlen,
				"key file \"%s\" must hold %d raw bytes or %d hex digits",
				path, FTNL_KEY_LEN, 2 * FTNL_KEY_LEN);
	}
out:
	explicit_bzero(buf, sizeof(buf));
	close(fd);
	return ret;
}

FTNL_EXPORT int ftnl_parse_addr(const char *text, int *family,
				union ftnl_addr *addr)
{
	char v6[INET6_ADDRSTRLEN + 1];
	size_t len = strlen(text);

	if (inet_pton(AF_INET, text, &addr->v4) == 1) {
		*family = AF_INET;
		return 0;
	}
	/* "[fd00::1]", as in URLs and some configuration files. */
	if (len > 2 && text[0] == '[' && text[len - 1] == ']') {
		if (len - 2 >= sizeof(v6))
			return -EINVAL;
		memcpy(v6, text + 1, len - 2);
		v6[len - 2] = '\0';
		text = v6;
	}
	if (inet_pton(AF_INET6, text, &addr->v6) == 1) {
		*family = AF_INET6;
		return 0;
	}
	return -EINVAL;
}

FTNL_EXPORT char *ftnl_format_addr(int family, const union ftnl_addr *addr,
				   char *buf, size_t len)
{
	if ((family != AF_INET && family != AF_INET6) ||
	    !inet_ntop(family, addr, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}
