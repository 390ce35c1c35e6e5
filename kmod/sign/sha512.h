/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SHA-512 (FIPS 180-4), pure code: Ed25519 (ed25519.c) hashes with it, in
 * the module and in userspace alike; the kernel's own SHA-512 sits behind
 * the crypto API, which pure code cannot call.
 */
#ifndef _FTNL_SIGN_SHA512_H
#define _FTNL_SIGN_SHA512_H

#include "../compat.h"

#define FTNL_SHA512_LEN		64
#define FTNL_SHA512_BLOCK	128

/**
 * struct ftnl_sha512 - a hash in progress
 * @state: the eight chaining words
 * @bytes: bytes hashed so far
 * @buf: the partial block, @bytes % FTNL_SHA512_BLOCK of them
 */
struct ftnl_sha512 {
	u64 state[8];
	u64 bytes;
	u8 buf[FTNL_SHA512_BLOCK];
};

void ftnl_sha512_init(struct ftnl_sha512 *h);
void ftnl_sha512_update(struct ftnl_sha512 *h, const void *data, size_t len);
void ftnl_sha512_final(struct ftnl_sha512 *h, u8 out[FTNL_SHA512_LEN]);

#endif /* _FTNL_SIGN_SHA512_H */
