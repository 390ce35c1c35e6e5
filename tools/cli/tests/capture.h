/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capture.h - what a ftnl-cli printer writes, kept in memory, for the cli
 * tests to compare with the text they expect.
 */
#ifndef FTNL_CLI_TESTS_CAPTURE_H
#define FTNL_CLI_TESTS_CAPTURE_H

#include <stdbool.h>
#include <stdio.h>

struct capture {
	char *text;
	size_t len;
	FILE *out;
};

/* Point @c->out at a new, growing buffer; false if none could be had. */
static inline bool capture_start(struct capture *c)
{
	c->text = NULL;
	c->len = 0;
	c->out = open_memstream(&c->text, &c->len);
	return c->out != NULL;
}

/* Close @c->out: the text written to it (the caller frees @c->text). */
static inline const char *capture_end(struct capture *c)
{
	fclose(c->out);
	return c->text;
}

#endif /* FTNL_CLI_TESTS_CAPTURE_H */
