/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kselftest_harness.h as the selftests include it, clean under -Wextra
 * -Werror: the 6.1 harness has two unused parameters, one in its SIGALRM
 * handler (exempted here, only for the header's own text) and one in the
 * wrapper TEST() generates (__TEST_IMPL is redefined below with the
 * parameter marked unused, as later harness versions do). The assertion
 * macros still warn where the tests use them.
 */
#ifndef FTNL_KSFT_H
#define FTNL_KSFT_H

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#undef __TEST_IMPL
#define __TEST_IMPL(test_name, _signal) \
	static void test_name(struct __test_metadata *_metadata); \
	static inline void wrapper_##test_name( \
		struct __test_metadata *_metadata, \
		struct __fixture_variant_metadata __attribute__((unused)) *variant) \
	{ \
		_metadata->setup_completed = true; \
		if (setjmp(_metadata->env) == 0) \
			test_name(_metadata); \
		__test_check_assert(_metadata); \
	} \
	static struct __test_metadata _##test_name##_object = \
		{ .name = #test_name, \
		  .fn = &wrapper_##test_name, \
		  .fixture = &_fixture_global, \
		  .termsig = _signal, \
		  .timeout = TEST_TIMEOUT_DEFAULT, }; \
	static void __attribute__((constructor)) _register_##test_name(void) \
	{ \
		__register_test(&_##test_name##_object); \
	} \
	static void test_name( \
		struct __test_metadata __attribute__((unused)) *_metadata)

#endif /* FTNL_KSFT_H */
