// SPDX-License-Identifier: GPL-2.0
/*
 * Signatures of broadcasts by their origin (signature.h). The digest is
 * signed, not the payload: a BCAST's cube and a GOSSIP's forwarder part
 * change on the way, and the digest skips them without a copy.
 */
#include "signature.h"
#include "message.h"
#include "../wire.h"

static const char ftnl_bcast_sig_label[] = "ftnl broadcast origin v1";

/* The flags' byte and bits, and the payload's fixed part, per type. */
struct ftnl_bcast_sig_layout {
	u32 flags_at;
	u8 once;
	u8 twice;
	u32 min_len;
};

static bool ftnl_bcast_sig_layout(u8 type, struct ftnl_bcast_sig_layout *l)
{
	if (type == FTNL_MSG_BCAST) {
		*l = (struct ftnl_bcast_sig_layout){
			3, FTNL_BCAST_SIGNED, FTNL_BCAST_SIGNED_TWICE,
			FTNL_BCAST_HDR_LEN };
		return true;
	}
	if (type == FTNL_MSG_GOSSIP) {
		*l = (struct ftnl_bcast_sig_layout){
			62, FTNL_GOSSIP_SIGNED, FTNL_GOSSIP_SIGNED_TWICE,
			FTNL_GOSSIP_PAYLOAD_HDR };
		return true;
	}
	return false;
}

/**
 * ftnl_bcast_sig_find - how many signatures a received payload carries
 * @type: FTNL_MSG_BCAST or FTNL_MSG_GOSSIP
 * @payload: the payload
 * @len: its length
 * @body_len: set to the payload's length without them
 *
 * Return: 0, 1 or 2 (the signatures are the last 64 bytes each, the
 * first at @body_len), or -1 if the payload is too short for what it
 * says, says "twice" without "signed", or is of another type.
 */
int ftnl_bcast_sig_find(u8 type, const u8 *payload, u32 len, u32 *body_len)
{
	struct ftnl_bcast_sig_layout l;
	u8 flags;
	int n;

	if (!ftnl_bcast_sig_layout(type, &l) || len < l.min_len)
		return -1;
	flags = payload[l.flags_at];
	if ((flags & l.twice) && !(flags & l.once))
		return -1;
	n = (flags & l.once ? 1 : 0) + (flags & l.twice ? 1 : 0);
	if (len < l.min_len + (u32)n * FTNL_BCAST_SIG_LEN)
		return -1;
	*body_len = len - (u32)n * FTNL_BCAST_SIG_LEN;
	return n;
}

/**
 * ftnl_bcast_sig_flag - flag a payload as carrying @nsigs signatures
 * @type: FTNL_MSG_BCAST or FTNL_MSG_GOSSIP
 * @payload: the payload; signed after this (the flags are signed too)
 * @nsigs: 0 (unsigned), 1 or 2
 */
void ftnl_bcast_sig_flag(u8 type, u8 *payload, u32 nsigs)
{
	struct ftnl_bcast_sig_layout l;

	if (!ftnl_bcast_sig_layout(type, &l))
		return;
	payload[l.flags_at] &= ~(l.once | l.twice);
	if (nsigs)
		payload[l.flags_at] |= nsigs > 1 ? l.once | l.twice : l.once;
}

/*
 * SHA-512 of the label and what the origin wrote (signature.h), into
 * @ctx->digest (the hash state in @ctx too: nothing large on the stack).
 */
static void ftnl_bcast_sig_digest(struct ftnl_ed25519_ctx *ctx, u8 type,
				  const u8 *payload, u32 body_len)
{
	static const u8 zero;
	struct ftnl_sha512 *h = &ctx->sha;
	u32 known;

	ftnl_sha512_init(h);
	ftnl_sha512_update(h, ftnl_bcast_sig_label,
			   sizeof(ftnl_bcast_sig_label));
	ftnl_sha512_update(h, &type, 1);
	if (type == FTNL_MSG_BCAST) {
		ftnl_sha512_update(h, payload, 1);
		ftnl_sha512_update(h, &zero, 1);
		ftnl_sha512_update(h, payload + 2, body_len - 2);
	} else {
		/* Byte 3, the known ranks' count, is the forwarder's. */
		known = FTNL_GOSSIP_PAYLOAD_HDR + 4 * (u32)payload[3];
		ftnl_sha512_update(h, payload, 3);
		ftnl_sha512_update(h, &zero, 1);
		ftnl_sha512_update(h, payload + 4, 56);
		ftnl_sha512_update(h, payload + 61, 3);
		if (body_len > known)
			ftnl_sha512_update(h, payload + known,
					   body_len - known);
	}
	ftnl_sha512_final(h, ctx->digest);
}

/* A GOSSIP payload's known ranks lie within its body. */
static bool ftnl_bcast_sig_body_ok(u8 type, const u8 *payload, u32 body_len)
{
	struct ftnl_bcast_sig_layout l;

	if (!ftnl_bcast_sig_layout(type, &l) || body_len < l.min_len)
		return false;
	return type != FTNL_MSG_GOSSIP ||
	       body_len >= FTNL_GOSSIP_PAYLOAD_HDR + 4 * (u32)payload[3];
}

/**
 * ftnl_bcast_sig_make - the origin's signature of a payload it wrote
 * @ctx: working memory
 * @type: FTNL_MSG_BCAST or FTNL_MSG_GOSSIP
 * @payload: the payload, flagged (ftnl_bcast_sig_flag())
 * @body_len: its length, without signatures
 * @key: the origin's key
 * @sig: the signature, to put at @payload + @body_len (the first) or
 *	after it (the previous key's)
 */
void ftnl_bcast_sig_make(struct ftnl_ed25519_ctx *ctx, u8 type,
			 const u8 *payload, u32 body_len,
			 const struct ftnl_ed25519_key *key,
			 u8 sig[FTNL_BCAST_SIG_LEN])
{
	u8 digest[FTNL_SHA512_LEN];

	if (!ftnl_bcast_sig_body_ok(type, payload, body_len))
		return;
	ftnl_bcast_sig_digest(ctx, type, payload, body_len);
	memcpy(digest, ctx->digest, sizeof(digest));
	ftnl_ed25519_sign(ctx, sig, key, digest, sizeof(digest));
}

/**
 * ftnl_bcast_sig_ok - whether @sig is the origin's signature of @payload
 * @ctx: working memory
 * @type: FTNL_MSG_BCAST or FTNL_MSG_GOSSIP
 * @payload: the payload (ftnl_bcast_sig_find() said it is signed)
 * @body_len: its length without the signatures
 * @sig: one of them
 * @public: the origin's public key
 *
 * Return: true if it verifies.
 */
bool ftnl_bcast_sig_ok(struct ftnl_ed25519_ctx *ctx, u8 type,
		       const u8 *payload, u32 body_len,
		       const u8 sig[FTNL_BCAST_SIG_LEN],
		       const u8 public[FTNL_ED25519_PUBLIC_LEN])
{
	u8 digest[FTNL_SHA512_LEN];

	if (!ftnl_bcast_sig_body_ok(type, payload, body_len))
		return false;
	ftnl_bcast_sig_digest(ctx, type, payload, body_len);
	memcpy(digest, ctx->digest, sizeof(digest));
	return ftnl_ed25519_verify(ctx, sig, public, digest, sizeof(digest));
}
