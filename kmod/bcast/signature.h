/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A broadcast's origin, authenticated to every receiver: the origin signs
 * what it wrote with its Ed25519 key (kmod/sign), and the 64-byte
 * signature follows the payload, flagged in it (FTNL_BCAST_SIGNED,
 * FTNL_GOSSIP_SIGNED). During a rolling update of the keys a second
 * signature, by the origin's previous key, follows the first (the
 * _SIGNED_TWICE flags), for the nodes that know only that one. Pair keys
 * authenticate only the hop a datagram took; with signatures a member can
 * forward or drop a broadcast but not write one in another member's name.
 * Pure code.
 *
 * What is signed, as a SHA-512 digest under a label of its own:
 *  - BCAST: the whole payload but the cube (byte 1), which the origin sets
 *    per copy;
 *  - GOSSIP: what the origin wrote - bytes 0 to 2, 4 to 59 and 61 to 63
 *    (the header and the first death, the number of deaths, the flags, the
 *    pad) and the further deaths - not the gossip message a forwarder
 *    writes (the known ranks and their count, type, time).
 */
#ifndef _FTNL_BCAST_SIGNATURE_H
#define _FTNL_BCAST_SIGNATURE_H

#include "../compat.h"
#include "../sign/ed25519.h"

#define FTNL_BCAST_SIG_LEN	FTNL_ED25519_SIG_LEN
#define FTNL_BCAST_MAX_SIGS	2

int ftnl_bcast_sig_find(u8 type, const u8 *payload, u32 len, u32 *body_len);
void ftnl_bcast_sig_flag(u8 type, u8 *payload, u32 nsigs);
void ftnl_bcast_sig_make(struct ftnl_ed25519_ctx *ctx, u8 type,
			 const u8 *payload, u32 body_len,
			 const struct ftnl_ed25519_key *key,
			 u8 sig[FTNL_BCAST_SIG_LEN]);
bool ftnl_bcast_sig_ok(struct ftnl_ed25519_ctx *ctx, u8 type,
		       const u8 *payload, u32 body_len,
		       const u8 sig[FTNL_BCAST_SIG_LEN],
		       const u8 public[FTNL_ED25519_PUBLIC_LEN]);

#endif /* _FTNL_BCAST_SIGNATURE_H */
