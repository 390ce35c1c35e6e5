// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Keyed BLAKE2s against RFC 7693 (Appendix A's "abc", Appendix E's
 * self-test grand hash over digest lengths, input lengths and keys) and
 * the BLAKE2 reference known answers for keyed hashes; streaming equals
 * one call; the handshake MAC depends on every input.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "group/auth.h"
#include "group/hello.h"
#include "tap.h"

static void unhex(const char *hex, uint8_t *out, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned int b;

		sscanf(hex + 2 * i, "%2x", &b);
		out[i] = (uint8_t)b;
	}
}

static void test_abc(const void *arg)
{
	uint8_t want[32], got[32];

	(void)arg;
	unhex("508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982",
	      want, 32);
	TAP_CHECK_INT(grp_blake2s(got, 32, NULL, 0, "abc", 3), 0);
	TAP_CHECK_MEM(got, want, 32);
}

/* RFC 7693 Appendix E. */
static void selftest_seq(uint8_t *out, size_t len, uint32_t seed)
{
	uint32_t t, a = 0xDEAD4BAD * seed, b = 1;
	size_t i;

	for (i = 0; i < len; i++) {
		t = a + b;
		a = b;
		b = t;
		out[i] = (uint8_t)(t >> 24);
	}
}

static void test_rfc_selftest(const void *arg)
{
	static const size_t md_len[4] = { 16, 20, 28, 32 };
	static const size_t in_len[6] = { 0, 3, 64, 65, 255, 1024 };
	uint8_t in[1024], md[32], key[32], want[32];
	struct grp_blake2s ctx;
	size_t i, j;

	(void)arg;
	unhex("6a411f08ce25adcdfb02aba641451cec53c598b24f4fc787fbdc88797f4c1dfe",
	      want, 32);
	TAP_CHECK_INT(grp_blake2s_init(&ctx, 32, NULL, 0), 0);
	for (i = 0; i < 4; i++) {
		for (j = 0; j < 6; j++) {
			selftest_seq(in, in_len[j], (uint32_t)in_len[j]);
			grp_blake2s(md, md_len[i], NULL, 0, in, in_len[j]);
			grp_blake2s_update(&ctx, md, md_len[i]);
			selftest_seq(key, md_len[i], (uint32_t)md_len[i]);
			grp_blake2s(md, md_len[i], key, md_len[i], in, in_len[j]);
			grp_blake2s_update(&ctx, md, md_len[i]);
		}
	}
	grp_blake2s_final(&ctx, md);
	TAP_CHECK_MEM(md, want, 32);
}

struct kat {
	size_t inlen;
	const char *hex;
};

/* BLAKE2 reference blake2s-kat.txt: key 00..1f, input 00..inlen-1. */
static const struct kat kats[] = {
	{ 0, "48a8997da407876b3d79c0d92325ad3b89cbb754d86ab71aee047ad345fd2c49" },
	{ 64, "8975b0577fd35566d750b362b0897a26c399136df07bababbde6203ff2954ed4" },
	{ 255, "3fb735061abc519dfe979e54c1ee5bfad0a9d858b3315bad34bde999efd724dd" },
};

static void test_keyed_kat(const void *arg)
{
	const struct kat *k = arg;
	uint8_t key[32], in[255], want[32], got[32];
	struct grp_blake2s s;
	size_t i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)i;
	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)i;
	unhex(k->hex, want, 32);
	TAP_CHECK_INT(grp_blake2s(got, 32, key, 32, in, k->inlen), 0);
	TAP_CHECK_MEM(got, want, 32);
	/* Byte by byte: the same. */
	memset(got, 0, sizeof(got));
	TAP_CHECK_INT(grp_blake2s_init(&s, 32, key, 32), 0);
	for (i = 0; i < k->inlen; i++)
		grp_blake2s_update(&s, in + i, 1);
	grp_blake2s_final(&s, got);
	TAP_CHECK_MEM(got, want, 32);
}

static void test_bad_params(const void *arg)
{
	struct grp_blake2s s;
	uint8_t key[33] = { 0 };

	(void)arg;
	TAP_CHECK_INT(grp_blake2s_init(&s, 0, NULL, 0), -EINVAL);
	TAP_CHECK_INT(grp_blake2s_init(&s, 33, NULL, 0), -EINVAL);
	TAP_CHECK_INT(grp_blake2s_init(&s, 32, key, 33), -EINVAL);
}

static void test_mac(const void *arg)
{
	uint8_t key[32], other[32], hello[GRP_HELLO_LEN], nc[16], na[16];
	uint8_t m[32], m2[32];

	(void)arg;
	memset(key, 7, sizeof(key));
	memset(other, 7, sizeof(other));
	other[31] ^= 1;
	grp_wire_hello(hello, 42, 1, 0);
	TAP_CHECK_INT(grp_auth_nonce(nc), 0);
	TAP_CHECK_INT(grp_auth_nonce(na), 0);
	TAP_CHECK(memcmp(nc, na, 16) != 0);

	grp_auth_mac(key, GRP_AUTH_ROLE_CONNECTOR, hello, nc, na, m);
	grp_auth_mac(key, GRP_AUTH_ROLE_CONNECTOR, hello, nc, na, m2);
	TAP_CHECK(grp_auth_equal(m, m2, 32));
	grp_auth_mac(key, GRP_AUTH_ROLE_ACCEPTOR, hello, nc, na, m2);
	TAP_CHECK(!grp_auth_equal(m, m2, 32));
	grp_auth_mac(other, GRP_AUTH_ROLE_CONNECTOR, hello, nc, na, m2);
	TAP_CHECK(!grp_auth_equal(m, m2, 32));
	grp_auth_mac(key, GRP_AUTH_ROLE_CONNECTOR, hello, na, nc, m2);
	TAP_CHECK(!grp_auth_equal(m, m2, 32));
	grp_wire_hello(hello, 42, 2, 0);	/* another sender */
	grp_auth_mac(key, GRP_AUTH_ROLE_CONNECTOR, hello, nc, na, m2);
	TAP_CHECK(!grp_auth_equal(m, m2, 32));
	m2[0] = m[0] ^ 0x80;
	memcpy(m2 + 1, m + 1, 31);
	TAP_CHECK(!grp_auth_equal(m, m2, 32));
}

int main(void)
{
	size_t i;

	tap_add(test_abc, NULL, "BLAKE2s-256(\"abc\"), RFC 7693 appendix B");
	tap_add(test_rfc_selftest, NULL, "RFC 7693 appendix E self-test");
	for (i = 0; i < sizeof(kats) / sizeof(kats[0]); i++)
		tap_add(test_keyed_kat, &kats[i], "keyed KAT, %zu bytes",
			kats[i].inlen);
	tap_add(test_bad_params, NULL, "bad lengths refused");
	tap_add(test_mac, NULL, "handshake MAC depends on every input");
	return tap_run();
}
