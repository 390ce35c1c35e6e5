/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ed25519 signatures (RFC 8032, section 5.1), pure code: the same file
 * signs a broadcast at its origin in the module and checks it at every
 * receiver, and derives keys in ftnl-cli. Neither of Debian's kernels
 * offers a signature a module can make in softirq (their RSA and ECDSA sit
 * behind the asynchronous crypto API, and 6.1 cannot sign with ECDSA), and
 * Ed25519's keys (32 bytes) and signatures (64) fit a node table of
 * thousands and a datagram.
 *
 * Signing is constant time in the secret key; verifying is not (it sees
 * public data only). The working memory is the caller's (struct
 * ftnl_ed25519_ctx).
 */
#ifndef _FTNL_SIGN_ED25519_H
#define _FTNL_SIGN_ED25519_H

#include "../compat.h"

#include "sha512.h"

#define FTNL_ED25519_SEED_LEN	32
#define FTNL_ED25519_PUBLIC_LEN	32
#define FTNL_ED25519_SIG_LEN	64

/**
 * struct ftnl_ed25519_key - a signing key, expanded from its seed
 * @scalar: the secret scalar a, clamped (RFC 8032, 5.1.5 step 2)
 * @prefix: the second half of the seed's hash, which makes each
 *	signature's nonce
 * @public: A = [a]B, encoded
 */
struct ftnl_ed25519_key {
	u8 scalar[32];
	u8 prefix[32];
	u8 public[FTNL_ED25519_PUBLIC_LEN];
};

/* An element of GF(2^255 - 19) (ed25519.c's own). */
struct ftnl_ed25519_fe {
	u64 v[5];
};

/* A point, extended coordinates (ed25519.c's own). */
struct ftnl_ed25519_ge {
	struct ftnl_ed25519_fe x, y, z, t;
};

/**
 * struct ftnl_ed25519_ctx - the working memory of one signature or
 *	verification, about 1.8 KiB: the caller's, so that none of it is on
 *	the stack (the module signs and verifies in softirq, where a frame
 *	stays small). Contents are ed25519.c's; one operation at a time
 *	per context; wiped after signing
 * @acc: the point being computed
 * @sum: a step's sum (signing: added in constant time)
 * @base: the base point
 * @pt: a decoded public key or R
 * @tmp: a point operation's temporaries
 * @pow: an exponentiation's temporaries (inverse, square root)
 * @sha: a hash in progress
 * @digest: its result
 * @k: the challenge scalar
 * @nonce: the nonce scalar (signing)
 * @enc: an encoded point
 * @words: a scalar as 32-bit words, being reduced
 */
struct ftnl_ed25519_ctx {
	struct ftnl_ed25519_ge acc, sum, base, pt;
	struct ftnl_ed25519_fe tmp[8];
	struct ftnl_ed25519_fe pow[9];
	struct ftnl_sha512 sha;
	u8 digest[FTNL_SHA512_LEN];
	u8 k[32];
	u8 nonce[32];
	u8 enc[32];
	u32 words[16];
};

void ftnl_ed25519_key_from_seed(struct ftnl_ed25519_ctx *ctx,
				struct ftnl_ed25519_key *key,
				const u8 seed[FTNL_ED25519_SEED_LEN]);
void ftnl_ed25519_sign(struct ftnl_ed25519_ctx *ctx,
		       u8 sig[FTNL_ED25519_SIG_LEN],
		       const struct ftnl_ed25519_key *key,
		       const u8 *msg, size_t len);
bool ftnl_ed25519_public_ok(struct ftnl_ed25519_ctx *ctx,
			    const u8 public[FTNL_ED25519_PUBLIC_LEN]);
bool ftnl_ed25519_verify(struct ftnl_ed25519_ctx *ctx,
			 const u8 sig[FTNL_ED25519_SIG_LEN],
			 const u8 public[FTNL_ED25519_PUBLIC_LEN],
			 const u8 *msg, size_t len);

#endif /* _FTNL_SIGN_ED25519_H */
