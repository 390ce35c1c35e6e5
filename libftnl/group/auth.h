/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libftnl/group internals: keyed BLAKE2s (RFC 7693) and the transport's
 * challenge-response handshake built on it
 * (Documentation/libftnl-group-internals.rst, "Authentication").
 *
 * With a job key, a connection opens with
 *
 *	connector -> acceptor	hello (flags GRP_HELLO_F_AUTH), nonce_c
 *	acceptor -> connector	nonce_a, mac_a = MAC('A')
 *	connector -> acceptor	mac_c = MAC('C'), then ERA messages
 *
 * MAC(role) = BLAKE2s-256 keyed with the job key over role (one byte),
 * the 24-byte hello (job, sender, receiver), nonce_c and nonce_a. The
 * role byte keeps one side's answer from serving as the other's; the
 * fresh nonces keep old answers from being replayed.
 */
#ifndef FTNL_GROUP_AUTH_H
#define FTNL_GROUP_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GRP_BLAKE2S_BLOCK	64
#define GRP_BLAKE2S_OUT_MAX	32
#define GRP_BLAKE2S_KEY_MAX	32

#define GRP_AUTH_KEY_LEN	32
#define GRP_AUTH_NONCE_LEN	16
#define GRP_AUTH_MAC_LEN	32
#define GRP_AUTH_ROLE_ACCEPTOR	'A'
#define GRP_AUTH_ROLE_CONNECTOR	'C'

struct grp_blake2s {
	uint32_t h[8];
	uint32_t t[2];
	uint8_t buf[GRP_BLAKE2S_BLOCK];
	size_t buflen;
	size_t outlen;
};

/* Return: 0, or -EINVAL for @outlen not 1..32 or @keylen over 32. */
int grp_blake2s_init(struct grp_blake2s *s, size_t outlen, const void *key,
		     size_t keylen);
void grp_blake2s_update(struct grp_blake2s *s, const void *in, size_t len);
/* Writes s->outlen bytes to @out and wipes @s. */
void grp_blake2s_final(struct grp_blake2s *s, uint8_t *out);
/* One call: as init, update, final. */
int grp_blake2s(uint8_t *out, size_t outlen, const void *key, size_t keylen,
		const void *in, size_t inlen);

/* The handshake MAC of @role (see above). @hello is GRP_HELLO_LEN bytes. */
void grp_auth_mac(const uint8_t key[GRP_AUTH_KEY_LEN], uint8_t role,
		  const uint8_t *hello,
		  const uint8_t nonce_c[GRP_AUTH_NONCE_LEN],
		  const uint8_t nonce_a[GRP_AUTH_NONCE_LEN],
		  uint8_t mac[GRP_AUTH_MAC_LEN]);

/* Compare in time independent of where @a and @b differ. */
bool grp_auth_equal(const uint8_t *a, const uint8_t *b, size_t len);

/* A fresh random nonce (getrandom). Return: 0 or a negative errno. */
int grp_auth_nonce(uint8_t nonce[GRP_AUTH_NONCE_LEN]);

#endif /* FTNL_GROUP_AUTH_H */
