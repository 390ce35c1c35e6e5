// SPDX-License-Identifier: GPL-2.0
/*
 * Ed25519 (RFC 8032, 5.1) over the field of p = 2^255 - 19 in five limbs
 * of 51 bits, points in extended coordinates (X : Y : Z : T), x = X/Z,
 * y = Y/Z, xy = T/Z (Hisil, Wong, Carter, Dawson, "Twisted Edwards curves
 * revisited", 2008, with a = -1), and scalars modulo the group order L
 * reduced bit by bit. Written for clarity: a signature costs two scalar
 * multiplications, well under a millisecond. The steps that hold points
 * are kept out of line, so that no stack frame exceeds what the module's
 * softirq paths allow (tools/dev/checkstack.sh).
 */
#include "ed25519.h"

#ifndef __SIZEOF_INT128__
#error "ed25519.c needs a compiler with 128-bit integers (64-bit targets)"
#endif

#define FTNL_FE_MASK	((1ULL << 51) - 1)

/*
 * An element of GF(p), limbs little end first, each a little over 2^51;
 * a point in extended coordinates (ed25519.h).
 */
#define ftnl_fe ftnl_ed25519_fe
#define ftnl_ge ftnl_ed25519_ge

/* The curve's d = -121665 / 121666, 2d, sqrt(-1) and the base point. */
static const u8 ftnl_ed_d[32] = {
	0xa3, 0x78, 0x59, 0x13, 0xca, 0x4d, 0xeb, 0x75, 0xab, 0xd8, 0x41,
	0x41, 0x4d, 0x0a, 0x70, 0x00, 0x98, 0xe8, 0x79, 0x77, 0x79, 0x40,
	0xc7, 0x8c, 0x73, 0xfe, 0x6f, 0x2b, 0xee, 0x6c, 0x03, 0x52,
};

static const u8 ftnl_ed_2d[32] = {
	0x59, 0xf1, 0xb2, 0x26, 0x94, 0x9b, 0xd6, 0xeb, 0x56, 0xb1, 0x83,
	0x82, 0x9a, 0x14, 0xe0, 0x00, 0x30, 0xd1, 0xf3, 0xee, 0xf2, 0x80,
	0x8e, 0x19, 0xe7, 0xfc, 0xdf, 0x56, 0xdc, 0xd9, 0x06, 0x24,
};

static const u8 ftnl_ed_sqrtm1[32] = {
	0xb0, 0xa0, 0x0e, 0x4a, 0x27, 0x1b, 0xee, 0xc4, 0x78, 0xe4, 0x2f,
	0xad, 0x06, 0x18, 0x43, 0x2f, 0xa7, 0xd7, 0xfb, 0x3d, 0x99, 0x00,
	0x4d, 0x2b, 0x0b, 0xdf, 0xc1, 0x4f, 0x80, 0x24, 0x83, 0x2b,
};

static const u8 ftnl_ed_base_x[32] = {
	0x1a, 0xd5, 0x25, 0x8f, 0x60, 0x2d, 0x56, 0xc9, 0xb2, 0xa7, 0x25,
	0x95, 0x60, 0xc7, 0x2c, 0x69, 0x5c, 0xdc, 0xd6, 0xfd, 0x31, 0xe2,
	0xa4, 0xc0, 0xfe, 0x53, 0x6e, 0xcd, 0xd3, 0x36, 0x69, 0x21,
};

/* y = 4/5 */
static const u8 ftnl_ed_base_y[32] = {
	0x58, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
	0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
	0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
};

/* L = 2^252 + 27742317777372353535851937790883648493, as 32-bit words. */
static const u32 ftnl_ed_order[8] = {
	0x5cf5d3ed, 0x5812631a, 0xa2f79cd6, 0x14def9de,
	0x00000000, 0x00000000, 0x00000000, 0x10000000,
};

static u64 ftnl_load_le64(const u8 *p)
{
	u64 v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static void ftnl_store_le64(u8 *p, u64 v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		p[i] = (u8)v;
}

/* The kernel's memzero_explicit(), which the compiler cannot drop. */
static void ftnl_wipe(void *p, size_t len)
{
	memset(p, 0, len);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

/* The top bit of @s is ignored (RFC 8032 encodings keep x's sign there). */
static void ftnl_fe_frombytes(struct ftnl_fe *h, const u8 s[32])
{
	h->v[0] = ftnl_load_le64(s) & FTNL_FE_MASK;
	h->v[1] = (ftnl_load_le64(s + 6) >> 3) & FTNL_FE_MASK;
	h->v[2] = (ftnl_load_le64(s + 12) >> 6) & FTNL_FE_MASK;
	h->v[3] = (ftnl_load_le64(s + 19) >> 1) & FTNL_FE_MASK;
	h->v[4] = (ftnl_load_le64(s + 24) >> 12) & FTNL_FE_MASK;
}

/* Limbs back under 2^51 but the lowest (under 2^51 + 2^18). */
static void ftnl_fe_carry(struct ftnl_fe *h)
{
	u64 c;
	int i;

	for (i = 0; i < 4; i++) {
		c = h->v[i] >> 51;
		h->v[i] &= FTNL_FE_MASK;
		h->v[i + 1] += c;
	}
	c = h->v[4] >> 51;
	h->v[4] &= FTNL_FE_MASK;
	h->v[0] += 19 * c;
}

/* The unique encoding: the value reduced below p, little endian. */
static void ftnl_fe_tobytes(u8 s[32], const struct ftnl_fe *f)
{
	struct ftnl_fe t = *f;
	u64 q;
	int i;

	ftnl_fe_carry(&t);
	ftnl_fe_carry(&t);
	/* t < 2^255 + 19 < 2p: q = 1 exactly when t >= p (t + 19 >= 2^255). */
	q = (t.v[0] + 19) >> 51;
	for (i = 1; i < 5; i++)
		q = (t.v[i] + q) >> 51;
	t.v[0] += 19 * q;
	for (i = 0; i < 4; i++) {
		t.v[i + 1] += t.v[i] >> 51;
		t.v[i] &= FTNL_FE_MASK;
	}
	t.v[4] &= FTNL_FE_MASK;
	ftnl_store_le64(s, t.v[0] | (t.v[1] << 51));
	ftnl_store_le64(s + 8, (t.v[1] >> 13) | (t.v[2] << 38));
	ftnl_store_le64(s + 16, (t.v[2] >> 26) | (t.v[3] << 25));
	ftnl_store_le64(s + 24, (t.v[3] >> 39) | (t.v[4] << 12));
}

static void ftnl_fe_set(struct ftnl_fe *h, u64 small)
{
	memset(h, 0, sizeof(*h));
	h->v[0] = small;
}

static void ftnl_fe_add(struct ftnl_fe *h, const struct ftnl_fe *f,
			const struct ftnl_fe *g)
{
	int i;

	for (i = 0; i < 5; i++)
		h->v[i] = f->v[i] + g->v[i];
	ftnl_fe_carry(h);
}

/* f - g + 4p, limb by limb: never negative for carried inputs. */
static void ftnl_fe_sub(struct ftnl_fe *h, const struct ftnl_fe *f,
			const struct ftnl_fe *g)
{
	int i;

	h->v[0] = f->v[0] + 4 * (FTNL_FE_MASK - 18) - g->v[0];
	for (i = 1; i < 5; i++)
		h->v[i] = f->v[i] + 4 * FTNL_FE_MASK - g->v[i];
	ftnl_fe_carry(h);
}

static void ftnl_fe_neg(struct ftnl_fe *h, const struct ftnl_fe *f)
{
	struct ftnl_fe zero;

	ftnl_fe_set(&zero, 0);
	ftnl_fe_sub(h, &zero, f);
}

/*
 * Schoolbook product; 2^255 = 19 folds the upper half down. Inputs are
 * carried (limbs under 2^52), so each sum stays under 2^115.
 */
static noinline void ftnl_fe_mul(struct ftnl_fe *h, const struct ftnl_fe *f,
				 const struct ftnl_fe *g)
{
	const u64 *a = f->v, *b = g->v;
	u64 b19[5];
	__uint128_t r[5], c;
	int i, j;

	for (i = 0; i < 5; i++)
		b19[i] = 19 * b[i];
	for (i = 0; i < 5; i++) {
		r[i] = 0;
		for (j = 0; j <= i; j++)
			r[i] += (__uint128_t)a[j] * b[i - j];
		for (j = i + 1; j < 5; j++)
			r[i] += (__uint128_t)a[j] * b19[i + 5 - j];
	}
	for (i = 0; i < 4; i++) {
		r[i + 1] += r[i] >> 51;
		h->v[i] = (u64)r[i] & FTNL_FE_MASK;
	}
	h->v[4] = (u64)r[4] & FTNL_FE_MASK;
	c = (r[4] >> 51) * 19 + h->v[0];
	h->v[0] = (u64)c & FTNL_FE_MASK;
	h->v[1] += (u64)(c >> 51);
}

static void ftnl_fe_sq(struct ftnl_fe *h, const struct ftnl_fe *f)
{
	ftnl_fe_mul(h, f, f);
}

/* h = f^(2^k) */
static void ftnl_fe_sq_times(struct ftnl_fe *h, const struct ftnl_fe *f, int k)
{
	ftnl_fe_sq(h, f);
	while (--k > 0)
		ftnl_fe_sq(h, h);
}

/*
 * z^(2^250 - 1), and z^11 on the way: the common part of the inverse
 * z^(p - 2) and of z^((p - 5) / 8), the square root's exponent.
 */
static noinline void ftnl_fe_pow_2_250_1(struct ftnl_ed25519_ctx *ctx,
					 struct ftnl_fe *out,
					 struct ftnl_fe *z11,
					 const struct ftnl_fe *z)
{
	struct ftnl_fe *t = &ctx->pow[0], *z9 = &ctx->pow[1];
	struct ftnl_fe *e5 = &ctx->pow[2], *e10 = &ctx->pow[3];
	struct ftnl_fe *e20 = &ctx->pow[4], *e50 = &ctx->pow[5];
	struct ftnl_fe *e100 = &ctx->pow[6];

	ftnl_fe_sq(t, z);			/* 2 */
	ftnl_fe_sq_times(t, t, 2);		/* 8 */
	ftnl_fe_mul(z9, t, z);			/* 9 */
	ftnl_fe_sq(t, z);
	ftnl_fe_mul(z11, z9, t);		/* 11 */
	ftnl_fe_sq(t, z11);			/* 22 */
	ftnl_fe_mul(e5, t, z9);			/* 2^5 - 1 */
	ftnl_fe_sq_times(t, e5, 5);
	ftnl_fe_mul(e10, t, e5);		/* 2^10 - 1 */
	ftnl_fe_sq_times(t, e10, 10);
	ftnl_fe_mul(e20, t, e10);		/* 2^20 - 1 */
	ftnl_fe_sq_times(t, e20, 20);
	ftnl_fe_mul(t, t, e20);			/* 2^40 - 1 */
	ftnl_fe_sq_times(t, t, 10);
	ftnl_fe_mul(e50, t, e10);		/* 2^50 - 1 */
	ftnl_fe_sq_times(t, e50, 50);
	ftnl_fe_mul(e100, t, e50);		/* 2^100 - 1 */
	ftnl_fe_sq_times(t, e100, 100);
	ftnl_fe_mul(t, t, e100);		/* 2^200 - 1 */
	ftnl_fe_sq_times(t, t, 50);
	ftnl_fe_mul(out, t, e50);		/* 2^250 - 1 */
}

/* 1/z = z^(p - 2) = z^(2^255 - 21); @h is not in @ctx->pow. */
static void ftnl_fe_invert(struct ftnl_ed25519_ctx *ctx, struct ftnl_fe *h,
			   const struct ftnl_fe *z)
{
	struct ftnl_fe *t = &ctx->pow[7], *z11 = &ctx->pow[8];

	ftnl_fe_pow_2_250_1(ctx, t, z11, z);
	ftnl_fe_sq_times(t, t, 5);		/* 2^255 - 32 */
	ftnl_fe_mul(h, t, z11);
}

/* z^((p - 5) / 8) = z^(2^252 - 3); @h may be @z, not in @ctx->pow. */
static void ftnl_fe_pow22523(struct ftnl_ed25519_ctx *ctx, struct ftnl_fe *h,
			     const struct ftnl_fe *z)
{
	struct ftnl_fe *t = &ctx->pow[7], *z11 = &ctx->pow[8];

	ftnl_fe_pow_2_250_1(ctx, t, z11, z);
	ftnl_fe_sq_times(t, t, 2);		/* 2^252 - 4 */
	ftnl_fe_mul(h, t, z);
}

static bool ftnl_fe_is_zero(const struct ftnl_fe *f)
{
	static const u8 zero[32];
	u8 s[32];

	ftnl_fe_tobytes(s, f);
	return !memcmp(s, zero, sizeof(s));
}

/* x's sign in an encoding: the parity of its reduced value. */
static int ftnl_fe_is_odd(const struct ftnl_fe *f)
{
	u8 s[32];

	ftnl_fe_tobytes(s, f);
	return s[0] & 1;
}

/* f = g when @bit is 1, f unchanged when 0, in the same time either way. */
static void ftnl_fe_cmov(struct ftnl_fe *f, const struct ftnl_fe *g, u64 bit)
{
	u64 mask = 0 - bit;
	int i;

	for (i = 0; i < 5; i++)
		f->v[i] ^= mask & (f->v[i] ^ g->v[i]);
}

static void ftnl_ge_identity(struct ftnl_ge *p)
{
	ftnl_fe_set(&p->x, 0);
	ftnl_fe_set(&p->y, 1);
	ftnl_fe_set(&p->z, 1);
	ftnl_fe_set(&p->t, 0);
}

static void ftnl_ge_base(struct ftnl_ge *p)
{
	ftnl_fe_frombytes(&p->x, ftnl_ed_base_x);
	ftnl_fe_frombytes(&p->y, ftnl_ed_base_y);
	ftnl_fe_set(&p->z, 1);
	ftnl_fe_mul(&p->t, &p->x, &p->y);
}

/* r = p + q ("add-2008-hwcd-3"); r may be p or q, none in @ctx->tmp. */
static noinline void ftnl_ge_add(struct ftnl_ed25519_ctx *ctx,
				 struct ftnl_ge *r, const struct ftnl_ge *p,
				 const struct ftnl_ge *q)
{
	struct ftnl_fe *a = &ctx->tmp[0], *b = &ctx->tmp[1], *c = &ctx->tmp[2];
	struct ftnl_fe *d = &ctx->tmp[3], *e = &ctx->tmp[4], *f = &ctx->tmp[5];
	struct ftnl_fe *g = &ctx->tmp[6], *h = &ctx->tmp[7];

	ftnl_fe_sub(a, &p->y, &p->x);
	ftnl_fe_sub(e, &q->y, &q->x);
	ftnl_fe_mul(a, a, e);
	ftnl_fe_add(b, &p->y, &p->x);
	ftnl_fe_add(e, &q->y, &q->x);
	ftnl_fe_mul(b, b, e);
	ftnl_fe_frombytes(e, ftnl_ed_2d);
	ftnl_fe_mul(c, &p->t, e);
	ftnl_fe_mul(c, c, &q->t);
	ftnl_fe_mul(d, &p->z, &q->z);
	ftnl_fe_add(d, d, d);
	ftnl_fe_sub(e, b, a);
	ftnl_fe_sub(f, d, c);
	ftnl_fe_add(g, d, c);
	ftnl_fe_add(h, b, a);
	ftnl_fe_mul(&r->x, e, f);
	ftnl_fe_mul(&r->y, g, h);
	ftnl_fe_mul(&r->t, e, h);
	ftnl_fe_mul(&r->z, f, g);
}

/* r = 2p ("dbl-2008-hwcd", signs folded for a = -1); r may be p. */
static noinline void ftnl_ge_double(struct ftnl_ed25519_ctx *ctx,
				    struct ftnl_ge *r, const struct ftnl_ge *p)
{
	struct ftnl_fe *a = &ctx->tmp[0], *b = &ctx->tmp[1], *c = &ctx->tmp[2];
	struct ftnl_fe *e = &ctx->tmp[3], *f = &ctx->tmp[4], *g = &ctx->tmp[5];
	struct ftnl_fe *h = &ctx->tmp[6];

	ftnl_fe_sq(a, &p->x);
	ftnl_fe_sq(b, &p->y);
	ftnl_fe_sq(c, &p->z);
	ftnl_fe_add(c, c, c);
	ftnl_fe_add(h, a, b);
	ftnl_fe_add(e, &p->x, &p->y);
	ftnl_fe_sq(e, e);
	ftnl_fe_sub(e, h, e);
	ftnl_fe_sub(g, a, b);
	ftnl_fe_add(f, c, g);
	ftnl_fe_mul(&r->x, e, f);
	ftnl_fe_mul(&r->y, g, h);
	ftnl_fe_mul(&r->t, e, h);
	ftnl_fe_mul(&r->z, f, g);
}

static void ftnl_ge_cmov(struct ftnl_ge *p, const struct ftnl_ge *q, u64 bit)
{
	ftnl_fe_cmov(&p->x, &q->x, bit);
	ftnl_fe_cmov(&p->y, &q->y, bit);
	ftnl_fe_cmov(&p->z, &q->z, bit);
	ftnl_fe_cmov(&p->t, &q->t, bit);
}

static noinline void ftnl_ge_tobytes(struct ftnl_ed25519_ctx *ctx, u8 s[32],
				     const struct ftnl_ge *p)
{
	struct ftnl_fe *zinv = &ctx->tmp[0], *x = &ctx->tmp[1];
	struct ftnl_fe *y = &ctx->tmp[2];

	ftnl_fe_invert(ctx, zinv, &p->z);
	ftnl_fe_mul(x, &p->x, zinv);
	ftnl_fe_mul(y, &p->y, zinv);
	ftnl_fe_tobytes(s, y);
	s[31] |= (u8)(ftnl_fe_is_odd(x) << 7);
}

/*
 * Decoding (RFC 8032, 5.1.3): y below p, x = +-sqrt((y^2 - 1) /
 * (d y^2 + 1)) with the sign the top bit gives. Return: 0, or -EINVAL for
 * a string that encodes no point.
 */
static noinline int ftnl_ge_frombytes(struct ftnl_ed25519_ctx *ctx,
				      struct ftnl_ge *p, const u8 s[32])
{
	struct ftnl_fe *u = &ctx->tmp[0], *v = &ctx->tmp[1];
	struct ftnl_fe *v3 = &ctx->tmp[2], *vxx = &ctx->tmp[3];
	struct ftnl_fe *t = &ctx->tmp[4];
	int sign = s[31] >> 7;

	ftnl_fe_frombytes(&p->y, s);
	ftnl_fe_tobytes(ctx->enc, &p->y);
	ctx->enc[31] |= (u8)(sign << 7);
	if (memcmp(ctx->enc, s, sizeof(ctx->enc)))
		return -EINVAL;		/* y >= p */
	ftnl_fe_set(&p->z, 1);
	ftnl_fe_sq(u, &p->y);
	ftnl_fe_frombytes(t, ftnl_ed_d);
	ftnl_fe_mul(v, u, t);
	ftnl_fe_sub(u, u, &p->z);		/* y^2 - 1 */
	ftnl_fe_add(v, v, &p->z);		/* d y^2 + 1 */
	/* x = u v^3 (u v^7)^((p - 5) / 8) */
	ftnl_fe_sq(v3, v);
	ftnl_fe_mul(v3, v3, v);
	ftnl_fe_sq(t, v3);
	ftnl_fe_mul(t, t, v);
	ftnl_fe_mul(t, t, u);
	ftnl_fe_pow22523(ctx, t, t);
	ftnl_fe_mul(t, t, v3);
	ftnl_fe_mul(&p->x, t, u);
	ftnl_fe_sq(vxx, &p->x);
	ftnl_fe_mul(vxx, vxx, v);
	ftnl_fe_sub(t, vxx, u);
	if (!ftnl_fe_is_zero(t)) {
		ftnl_fe_add(t, vxx, u);
		if (!ftnl_fe_is_zero(t))
			return -EINVAL;	/* no square root: not on the curve */
		ftnl_fe_frombytes(t, ftnl_ed_sqrtm1);
		ftnl_fe_mul(&p->x, &p->x, t);
	}
	if (sign && ftnl_fe_is_zero(&p->x))
		return -EINVAL;
	if (ftnl_fe_is_odd(&p->x) != sign)
		ftnl_fe_neg(&p->x, &p->x);
	ftnl_fe_mul(&p->t, &p->x, &p->y);
	return 0;
}

/* @ctx->acc = [a]B for a secret a: every bit costs the same double, add, move. */
static noinline void ftnl_ge_mul_base(struct ftnl_ed25519_ctx *ctx,
				      const u8 a[32])
{
	int i;

	ftnl_ge_base(&ctx->base);
	ftnl_ge_identity(&ctx->acc);
	for (i = 255; i >= 0; i--) {
		ftnl_ge_double(ctx, &ctx->acc, &ctx->acc);
		ftnl_ge_add(ctx, &ctx->sum, &ctx->acc, &ctx->base);
		ftnl_ge_cmov(&ctx->acc, &ctx->sum, (a[i / 8] >> (i % 8)) & 1);
	}
}

/* @ctx->acc = [s]B + [k]@ctx->pt for public s, k and point: Straus. */
static noinline void ftnl_ge_mul2(struct ftnl_ed25519_ctx *ctx,
				  const u8 s[32], const u8 k[32])
{
	int i;

	ftnl_ge_base(&ctx->base);
	ftnl_ge_identity(&ctx->acc);
	for (i = 255; i >= 0; i--) {
		ftnl_ge_double(ctx, &ctx->acc, &ctx->acc);
		if ((s[i / 8] >> (i % 8)) & 1)
			ftnl_ge_add(ctx, &ctx->acc, &ctx->acc, &ctx->base);
		if ((k[i / 8] >> (i % 8)) & 1)
			ftnl_ge_add(ctx, &ctx->acc, &ctx->acc, &ctx->pt);
	}
}

/*
 * r = r - L when that does not borrow, in the same time either way; r has
 * eight 32-bit words, little end first, and is below 2L.
 */
static void ftnl_sc_sub_order(u32 r[8])
{
	u32 t[8], mask;
	u64 borrow = 0, d;
	int i;

	for (i = 0; i < 8; i++) {
		d = (u64)r[i] - ftnl_ed_order[i] - borrow;
		t[i] = (u32)d;
		borrow = (d >> 32) & 1;
	}
	mask = (u32)borrow - 1;		/* all ones when r >= L */
	for (i = 0; i < 8; i++)
		r[i] = (t[i] & mask) | (r[i] & ~mask);
}

/*
 * @out = the number of @len 32-bit words @x (little end first) modulo L,
 * one bit at a time from the top: r = 2r + bit, less L when that fits.
 * Constant time (the nonce it reduces is secret).
 */
static noinline void ftnl_sc_reduce_words(u8 out[32], const u32 *x, int len)
{
	u32 r[8] = { 0 };
	int i, j;

	for (i = 32 * len - 1; i >= 0; i--) {
		for (j = 7; j > 0; j--)
			r[j] = (r[j] << 1) | (r[j - 1] >> 31);
		r[0] = (r[0] << 1) | ((x[i / 32] >> (i % 32)) & 1);
		ftnl_sc_sub_order(r);
	}
	for (i = 0; i < 8; i++)
		for (j = 0; j < 4; j++)
			out[4 * i + j] = (u8)(r[i] >> (8 * j));
	ftnl_wipe(r, sizeof(r));
}

static void ftnl_sc_load(u32 *w, const u8 *s, int words)
{
	int i;

	for (i = 0; i < words; i++)
		w[i] = (u32)s[4 * i] | (u32)s[4 * i + 1] << 8 |
		       (u32)s[4 * i + 2] << 16 | (u32)s[4 * i + 3] << 24;
}

/* @ctx->digest, a 64-byte hash, modulo L. */
static void ftnl_sc_reduce(struct ftnl_ed25519_ctx *ctx, u8 out[32])
{
	ftnl_sc_load(ctx->words, ctx->digest, 16);
	ftnl_sc_reduce_words(out, ctx->words, 16);
}

/* out = (r + k a) mod L */
static noinline void ftnl_sc_muladd(u8 out[32], const u8 k[32],
				    const u8 a[32], const u8 r[32])
{
	u32 kw[8], aw[8], rw[8], prod[16] = { 0 };
	u64 acc;
	int i, j;

	ftnl_sc_load(kw, k, 8);
	ftnl_sc_load(aw, a, 8);
	ftnl_sc_load(rw, r, 8);
	for (i = 0; i < 8; i++) {
		acc = 0;
		for (j = 0; j < 8; j++) {
			acc += (u64)kw[i] * aw[j] + prod[i + j];
			prod[i + j] = (u32)acc;
			acc >>= 32;
		}
		prod[i + 8] = (u32)acc;
	}
	acc = 0;
	for (i = 0; i < 16; i++) {
		acc += (u64)prod[i] + (i < 8 ? rw[i] : 0);
		prod[i] = (u32)acc;
		acc >>= 32;
	}
	ftnl_sc_reduce_words(out, prod, 16);
	ftnl_wipe(aw, sizeof(aw));
	ftnl_wipe(rw, sizeof(rw));
	ftnl_wipe(prod, sizeof(prod));
}

/* S < L (RFC 8032, 5.1.7 step 1): a larger S would make signatures malleable. */
static bool ftnl_sc_is_canonical(const u8 s[32])
{
	u32 w[8];
	int i;

	ftnl_sc_load(w, s, 8);
	for (i = 7; i >= 0; i--)
		if (w[i] != ftnl_ed_order[i])
			return w[i] < ftnl_ed_order[i];
	return false;
}

/* SHA-512(a || b || msg) modulo L. */
static noinline void ftnl_ed_hash_reduce(struct ftnl_ed25519_ctx *ctx,
					 u8 out[32], const u8 a[32],
					 const u8 b[32], const u8 *msg,
					 size_t len)
{
	ftnl_sha512_init(&ctx->sha);
	if (a)
		ftnl_sha512_update(&ctx->sha, a, 32);
	ftnl_sha512_update(&ctx->sha, b, 32);
	ftnl_sha512_update(&ctx->sha, msg, len);
	ftnl_sha512_final(&ctx->sha, ctx->digest);
	ftnl_sc_reduce(ctx, out);
}

/**
 * ftnl_ed25519_key_from_seed - expand a 32-byte secret seed (RFC 8032,
 *	5.1.5): its hash's first half, clamped, is the secret scalar
 * @ctx: working memory, wiped after
 * @key: the key
 * @seed: the secret
 */
void ftnl_ed25519_key_from_seed(struct ftnl_ed25519_ctx *ctx,
				struct ftnl_ed25519_key *key,
				const u8 seed[FTNL_ED25519_SEED_LEN])
{
	ftnl_sha512_init(&ctx->sha);
	ftnl_sha512_update(&ctx->sha, seed, FTNL_ED25519_SEED_LEN);
	ftnl_sha512_final(&ctx->sha, ctx->digest);
	memcpy(key->scalar, ctx->digest, 32);
	memcpy(key->prefix, ctx->digest + 32, 32);
	key->scalar[0] &= 248;
	key->scalar[31] &= 127;
	key->scalar[31] |= 64;
	ftnl_ge_mul_base(ctx, key->scalar);
	ftnl_ge_tobytes(ctx, key->public, &ctx->acc);
	ftnl_wipe(ctx, sizeof(*ctx));
}

/**
 * ftnl_ed25519_sign - sign @msg (RFC 8032, 5.1.6)
 * @ctx: working memory, wiped after
 * @sig: R (32 bytes) then S (32)
 * @key: the signer's key
 * @msg: the message
 * @len: its length
 */
void ftnl_ed25519_sign(struct ftnl_ed25519_ctx *ctx,
		       u8 sig[FTNL_ED25519_SIG_LEN],
		       const struct ftnl_ed25519_key *key,
		       const u8 *msg, size_t len)
{
	ftnl_ed_hash_reduce(ctx, ctx->nonce, NULL, key->prefix, msg, len);
	ftnl_ge_mul_base(ctx, ctx->nonce);
	ftnl_ge_tobytes(ctx, sig, &ctx->acc);
	ftnl_ed_hash_reduce(ctx, ctx->k, sig, key->public, msg, len);
	ftnl_sc_muladd(sig + 32, ctx->k, key->scalar, ctx->nonce);
	ftnl_wipe(ctx, sizeof(*ctx));
}

/**
 * ftnl_ed25519_public_ok - whether @public encodes a point (a key that does
 *	not could never verify anything: refused when it is configured)
 * @ctx: working memory
 * @public: a public key
 *
 * Return: true if it decodes.
 */
bool ftnl_ed25519_public_ok(struct ftnl_ed25519_ctx *ctx,
			    const u8 public[FTNL_ED25519_PUBLIC_LEN])
{
	return !ftnl_ge_frombytes(ctx, &ctx->pt, public);
}

/**
 * ftnl_ed25519_verify - whether @sig is @public's signature of @msg
 *	(RFC 8032, 5.1.7: [S]B = R + [k]A, checked as R = [S]B - [k]A on
 *	encodings)
 * @ctx: working memory
 * @sig: the signature
 * @public: the signer's public key
 * @msg: the message
 * @len: its length
 *
 * Return: true if it is; false for a wrong signature, an S not below L,
 * or a key or R that encodes no point.
 */
bool ftnl_ed25519_verify(struct ftnl_ed25519_ctx *ctx,
			 const u8 sig[FTNL_ED25519_SIG_LEN],
			 const u8 public[FTNL_ED25519_PUBLIC_LEN],
			 const u8 *msg, size_t len)
{
	if (!ftnl_sc_is_canonical(sig + 32) ||
	    ftnl_ge_frombytes(ctx, &ctx->acc, sig) ||
	    ftnl_ge_frombytes(ctx, &ctx->pt, public))
		return false;
	ftnl_ed_hash_reduce(ctx, ctx->k, sig, public, msg, len);
	ftnl_fe_neg(&ctx->pt.x, &ctx->pt.x);
	ftnl_fe_neg(&ctx->pt.t, &ctx->pt.t);
	ftnl_ge_mul2(ctx, sig + 32, ctx->k);
	ftnl_ge_tobytes(ctx, ctx->enc, &ctx->acc);
	return !memcmp(ctx->enc, sig, 32);
}
