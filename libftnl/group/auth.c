// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Keyed BLAKE2s, written from RFC 7693, and the transport handshake MAC
 * (see auth.h). Portable C: words are loaded little-endian byte by byte.
 */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "group/auth.h"
#include "group/hello.h"

static const uint32_t blake2s_iv[8] = {
	0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
	0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
};

static const uint8_t blake2s_sigma[10][16] = {
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
	{ 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
	{ 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
	{ 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
	{ 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
	{ 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
	{ 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
	{ 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
	{ 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 },
};

static uint32_t ror32(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

#define G(v, a, b, c, d, x, y) do {				\
	v[a] = v[a] + v[b] + (x); v[d] = ror32(v[d] ^ v[a], 16);	\
	v[c] = v[c] + v[d];       v[b] = ror32(v[b] ^ v[c], 12);	\
	v[a] = v[a] + v[b] + (y); v[d] = ror32(v[d] ^ v[a], 8);	\
	v[c] = v[c] + v[d];       v[b] = ror32(v[b] ^ v[c], 7);	\
} while (0)

static void blake2s_compress(struct grp_blake2s *s, const uint8_t *block,
			     bool last)
{
	uint32_t m[16], v[16];
	int i;

	for (i = 0; i < 16; i++)
		m[i] = bytes_get_le32(block + 4 * i);
	for (i = 0; i < 8; i++) {
		v[i] = s->h[i];
		v[i + 8] = blake2s_iv[i];
	}
	v[12] ^= s->t[0];
	v[13] ^= s->t[1];
	if (last)
		v[14] = ~v[14];
	for (i = 0; i < 10; i++) {
		const uint8_t *sg = blake2s_sigma[i];

		G(v, 0, 4, 8, 12, m[sg[0]], m[sg[1]]);
		G(v, 1, 5, 9, 13, m[sg[2]], m[sg[3]]);
		G(v, 2, 6, 10, 14, m[sg[4]], m[sg[5]]);
		G(v, 3, 7, 11, 15, m[sg[6]], m[sg[7]]);
		G(v, 0, 5, 10, 15, m[sg[8]], m[sg[9]]);
		G(v, 1, 6, 11, 12, m[sg[10]], m[sg[11]]);
		G(v, 2, 7, 8, 13, m[sg[12]], m[sg[13]]);
		G(v, 3, 4, 9, 14, m[sg[14]], m[sg[15]]);
	}
	for (i = 0; i < 8; i++)
		s->h[i] ^= v[i] ^ v[i + 8];
}

static void blake2s_count(struct grp_blake2s *s, uint32_t n)
{
	s->t[0] += n;
	if (s->t[0] < n)
		s->t[1]++;
}

int grp_blake2s_init(struct grp_blake2s *s, size_t outlen, const void *key,
		     size_t keylen)
{
	int i;

	if (!outlen || outlen > GRP_BLAKE2S_OUT_MAX ||
	    keylen > GRP_BLAKE2S_KEY_MAX)
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	for (i = 0; i < 8; i++)
		s->h[i] = blake2s_iv[i];
	/* Parameter block: digest length, key length, fanout 1, depth 1. */
	s->h[0] ^= 0x01010000u ^ (uint32_t)(keylen << 8) ^ (uint32_t)outlen;
	s->outlen = outlen;
	if (keylen) {
		/* The key, zero-padded, is the first block. */
		memcpy(s->buf, key, keylen);
		s->buflen = GRP_BLAKE2S_BLOCK;
	}
	return 0;
}

void grp_blake2s_update(struct grp_blake2s *s, const void *in, size_t len)
{
	const uint8_t *p = in;

	while (len) {
		size_t n;

		/* A full buffer is compressed only once more input follows:
		 * the last block must go through final().
		 */
		if (s->buflen == GRP_BLAKE2S_BLOCK) {
			blake2s_count(s, GRP_BLAKE2S_BLOCK);
			blake2s_compress(s, s->buf, false);
			s->buflen = 0;
		}
		n = GRP_BLAKE2S_BLOCK - s->buflen;
		if (n > len)
			n = len;
		memcpy(s->buf + s->buflen, p, n);
		s->buflen += n;
		p += n;
		len -= n;
	}
}

void grp_blake2s_final(struct grp_blake2s *s, uint8_t *out)
{
	uint8_t full[GRP_BLAKE2S_OUT_MAX];
	int i;

	blake2s_count(s, (uint32_t)s->buflen);
	memset(s->buf + s->buflen, 0, GRP_BLAKE2S_BLOCK - s->buflen);
	blake2s_compress(s, s->buf, true);
	for (i = 0; i < 8; i++)
		bytes_put_le32(full + 4 * i, s->h[i]);
	memcpy(out, full, s->outlen);
	explicit_bzero(full, sizeof(full));
	explicit_bzero(s, sizeof(*s));
}

int grp_blake2s(uint8_t *out, size_t outlen, const void *key, size_t keylen,
		const void *in, size_t inlen)
{
	struct grp_blake2s s;
	int err = grp_blake2s_init(&s, outlen, key, keylen);

	if (err)
		return err;
	grp_blake2s_update(&s, in, inlen);
	grp_blake2s_final(&s, out);
	return 0;
}

void grp_auth_mac(const uint8_t key[GRP_AUTH_KEY_LEN], uint8_t role,
		  const uint8_t *hello,
		  const uint8_t nonce_c[GRP_AUTH_NONCE_LEN],
		  const uint8_t nonce_a[GRP_AUTH_NONCE_LEN],
		  uint8_t mac[GRP_AUTH_MAC_LEN])
{
	struct grp_blake2s s;

	grp_blake2s_init(&s, GRP_AUTH_MAC_LEN, key, GRP_AUTH_KEY_LEN);
	grp_blake2s_update(&s, &role, 1);
	grp_blake2s_update(&s, hello, GRP_HELLO_LEN);
	grp_blake2s_update(&s, nonce_c, GRP_AUTH_NONCE_LEN);
	grp_blake2s_update(&s, nonce_a, GRP_AUTH_NONCE_LEN);
	grp_blake2s_final(&s, mac);
}

bool grp_auth_equal(const uint8_t *a, const uint8_t *b, size_t len)
{
	volatile uint8_t diff = 0;
	size_t i;

	for (i = 0; i < len; i++)
		diff |= a[i] ^ b[i];
	return !diff;
}

int grp_auth_nonce(uint8_t nonce[GRP_AUTH_NONCE_LEN])
{
	size_t got = 0;

	while (got < GRP_AUTH_NONCE_LEN) {
		ssize_t n = getrandom(nonce + got, GRP_AUTH_NONCE_LEN - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		got += (size_t)n;
	}
	return 0;
}
