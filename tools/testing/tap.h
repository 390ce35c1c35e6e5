/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - a tiny header-only TAP producer for userspace unit tests.
 *
 * Cases are registered first and run afterwards, so the plan ("1..N") is
 * printed before any result, as TAP wants, even for table-driven cases
 * registered in a loop. Each case prints exactly one line, "ok N - name" or
 * "not ok N - name"; a failing check inside a case prints "# " diagnostics
 * (file, line, expression, values) and the case goes on, so one run shows
 * every failing check. tap_run() returns the exit status: 1 if any case
 * failed.
 *
 *	static void test_sum(const void *arg)
 *	{
 *		TAP_CHECK_INT(1 + 1, 2);
 *	}
 *
 *	int main(void)
 *	{
 *		tap_add(test_sum, NULL, "one plus one");
 *		return tap_run();
 *	}
 *
 * TAP_SKIP("why") in a case reports it as "ok N - name # SKIP why".
 * Used by libftnl/tests and tools/cli/tests; usable by any C test.
 */
#ifndef FTNL_TESTING_TAP_H
#define FTNL_TESTING_TAP_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Elements in array @a, as the kernel's ARRAY_SIZE() (case tables). */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* The kernel's printf-format annotation, for tests in kernel style. */
#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif

typedef void (*tap_case_fn)(const void *arg);

struct tap_case {
	char *name;
	tap_case_fn fn;
	const void *arg;
};

static struct {
	struct tap_case *cases;
	size_t count;
	size_t cap;
	unsigned int failed_checks;	/* in the running case */
	bool skipped;
	char skip_reason[160];
} tap_state;

/* Register a case; @fmt names it (printf style). */
static inline void __attribute__((format(printf, 3, 4), unused))
tap_add(tap_case_fn fn, const void *arg, const char *fmt, ...)
{
	struct tap_case *c;
	va_list ap;

	if (tap_state.count == tap_state.cap) {
		size_t cap = tap_state.cap ? 2 * tap_state.cap : 64;
		struct tap_case *cases = realloc(tap_state.cases,
						 cap * sizeof(*cases));

		if (!cases) {
			printf("Bail out! out of memory\n");
			exit(2);
		}
		tap_state.cases = cases;
		tap_state.cap = cap;
	}
	c = &tap_state.cases[tap_state.count++];
	c->fn = fn;
	c->arg = arg;
	va_start(ap, fmt);
	if (vasprintf(&c->name, fmt, ap) < 0) {
		printf("Bail out! out of memory\n");
		exit(2);
	}
	va_end(ap);
}

/* Print a diagnostic line ("# ...") under the current case. */
static inline void __attribute__((format(printf, 1, 2), unused))
tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

static inline bool __attribute__((unused))
tap_check_(bool ok, const char *expr, const char *file, int line)
{
	if (!ok) {
		tap_state.failed_checks++;
		tap_diag("%s:%d: check failed: %s", file, line, expr);
	}
	return ok;
}

static inline bool __attribute__((unused))
tap_check_int_(long long got, long long want, const char *expr,
	       const char *file, int line)
{
	if (got == want)
		return true;
	tap_state.failed_checks++;
	tap_diag("%s:%d: %s: got %lld, want %lld", file, line, expr, got, want);
	return false;
}

static inline bool __attribute__((unused))
tap_check_uint_(unsigned long long got, unsigned long long want,
		const char *expr, const char *file, int line)
{
	if (got == want)
		return true;
	tap_state.failed_checks++;
	tap_diag("%s:%d: %s: got %llu, want %llu", file, line, expr, got, want);
	return false;
}

static inline bool __attribute__((unused))
tap_check_str_(const char *got, const char *want, const char *expr,
	       const char *file, int line)
{
	if (got && want && !strcmp(got, want))
		return true;
	tap_state.failed_checks++;
	tap_diag("%s:%d: %s: got \"%s\", want \"%s\"", file, line, expr,
		 got ? got : "(null)", want ? want : "(null)");
	return false;
}

static inline bool __attribute__((unused))
tap_check_contains_(const char *got, const char *needle, const char *expr,
		    const char *file, int line)
{
	if (got && needle && strstr(got, needle))
		return true;
	tap_state.failed_checks++;
	tap_diag("%s:%d: %s: \"%s\" does not contain \"%s\"", file, line, expr,
		 got ? got : "(null)", needle ? needle : "(null)");
	return false;
}

static inline bool __attribute__((unused))
tap_check_mem_(const void *got, const void *want, size_t len,
	       const char *expr, const char *file, int line)
{
	if (!memcmp(got, want, len))
		return true;
	tap_state.failed_checks++;
	tap_diag("%s:%d: %s: %zu bytes differ", file, line, expr, len);
	return false;
}

/* Each returns true if the check passed, for "if (!TAP_CHECK(p)) return;". */
#define TAP_CHECK(cond) tap_check_(!!(cond), #cond, __FILE__, __LINE__)
#define TAP_CHECK_INT(got, want) \
	tap_check_int_((long long)(got), (long long)(want), #got, __FILE__, __LINE__)
#define TAP_CHECK_UINT(got, want) \
	tap_check_uint_((unsigned long long)(got), (unsigned long long)(want), \
			#got, __FILE__, __LINE__)
#define TAP_CHECK_STR(got, want) \
	tap_check_str_((got), (want), #got, __FILE__, __LINE__)
#define TAP_CHECK_CONTAINS(got, needle) \
	tap_check_contains_((got), (needle), #got, __FILE__, __LINE__)
#define TAP_CHECK_MEM(got, want, len) \
	tap_check_mem_((got), (want), (len), #got, __FILE__, __LINE__)

/* Mark the running case skipped (its checks still count if they fail). */
#define TAP_SKIP(...) \
	do { \
		tap_state.skipped = true; \
		snprintf(tap_state.skip_reason, sizeof(tap_state.skip_reason), \
			 __VA_ARGS__); \
	} while (0)

/* Run every registered case. Return: the process exit status. */
static inline int __attribute__((unused)) tap_run(void)
{
	size_t i, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("1..%zu\n", tap_state.count);
	for (i = 0; i < tap_state.count; i++) {
		struct tap_case *c = &tap_state.cases[i];

		tap_state.failed_checks = 0;
		tap_state.skipped = false;
		c->fn(c->arg);
		if (tap_state.failed_checks) {
			failed++;
			printf("not ok %zu - %s\n", i + 1, c->name);
		} else if (tap_state.skipped) {
			printf("ok %zu - %s # SKIP %s\n", i + 1, c->name,
			       tap_state.skip_reason);
		} else {
			printf("ok %zu - %s\n", i + 1, c->name);
		}
		free(c->name);
	}
	free(tap_state.cases);
	tap_state.cases = NULL;
	tap_state.count = tap_state.cap = 0;
	if (failed)
		tap_diag("%zu of %zu failed", failed, i);
	return failed ? 1 : 0;
}

#endif /* FTNL_TESTING_TAP_H */
