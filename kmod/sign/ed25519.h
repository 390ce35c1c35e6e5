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
 * public data only).
 */
#ifndef _FTNL_SIGN_ED25519_H
#define _FTNL_SIGN_ED25519_H

#include "../compat.h"

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

void ftnl_ed25519_key_from_seed(struct ftnl_ed25519_key *key,
				const u8 seed[FTNL_ED25519_SEED_LEN]);
void ftnl_ed25519_sign(u8 sig[FTNL_ED25519_SIG_LEN],
		       const struct ftnl_ed25519_key *key,
		       const u8 *msg, size_t len);
bool ftnl_ed25519_verify(const u8 sig[FTNL_ED25519_SIG_LEN],
			 const u8 public[FTNL_ED25519_PUBLIC_LEN],
			 const u8 *msg, size_t len);

#endif /* _FTNL_SIGN_ED25519_H */
