// SPDX-License-Identifier: GPL-2.0
/*
 * SHA-512 and Ed25519 (kmod/sign), compiled into userspace: the known
 * answers of FIPS 180-4's examples and RFC 8032's test vectors, vectors
 * made with another implementation (Python's cryptography, OpenSSL) for
 * messages around SHA-512's block boundaries, and every way a signature
 * must fail: any bit flipped, S not below L, keys and R off the curve.
 */
#include "../../tools/testing/tap.h"
#include "../sign/ed25519.h"
#include "../sign/sha512.h"

/* The working memory of every operation here. */
static struct ftnl_ed25519_ctx ctx;

static int nibble(char c)
{
	return c <= '9' ? c - '0' : c - 'a' + 10;
}

/* @len bytes from @hex; vectors too long for a line come in halves. */
static void unhex(u8 *out, const char *hex, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		out[i] = (u8)(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
}

static void unhex2(u8 *out, const char *first, const char *second)
{
	unhex(out, first, strlen(first) / 2);
	unhex(out + strlen(first) / 2, second, strlen(second) / 2);
}

static void sha512_of(u8 out[64], const void *data, size_t len, size_t step)
{
	struct ftnl_sha512 h;
	const u8 *p = data;
	size_t i;

	ftnl_sha512_init(&h);
	for (i = 0; i < len; i += step)
		ftnl_sha512_update(&h, p + i, len - i < step ? len - i : step);
	ftnl_sha512_final(&h, out);
}

/*
 * FIPS 180-4 examples (one block, two blocks), the empty message, and a
 * million 'a': whole, and fed in pieces that straddle the blocks.
 */
static void test_sha512(const void *arg)
{
	static const size_t steps[] = { 1, 7, 64, 127, 128, 129, 1000000 };
	u8 got[64], want[64];
	char *million, two[113];
	size_t i;

	/* "abcdefgh", "bcdefghi", ... "nopqrstu": 14 words of 8 letters. */
	for (i = 0; i < 14 * 8; i++)
		two[i] = (char)('a' + i / 8 + i % 8);
	two[14 * 8] = 0;

	(void)arg;
	sha512_of(got, "abc", 3, 3);
	unhex2(want, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a",
	       "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
	TAP_CHECK_MEM(got, want, 64);
	sha512_of(got, two, strlen(two), strlen(two));
	unhex2(want, "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018",
	       "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909");
	TAP_CHECK_MEM(got, want, 64);
	sha512_of(got, "", 0, 1);
	unhex2(want, "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce",
	       "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e");
	TAP_CHECK_MEM(got, want, 64);
	million = malloc(1000000);
	if (!TAP_CHECK(million))
		return;
	memset(million, 'a', 1000000);
	unhex2(want, "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb",
	       "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b");
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		sha512_of(got, million, 1000000, steps[i]);
		TAP_CHECK_MEM(got, want, 64);
	}
	free(million);
}

struct vector {
	const char *seed;
	const char *public;
	size_t len;		/* message: bytes (j * 7 + 3 + k) & 255 */
	const char *sig_r;
	const char *sig_s;
};

/*
 * Made with Python's cryptography 48 (OpenSSL 3.0): seed k is
 * SHA-256("ftnl k"), message k the bytes (j * 7 + 3 + k) & 255.
 */
static const struct vector made_elsewhere[] = {
	{ "7893558edc3dbdaeaa64cea82b088b0762f5b8c3b05b44081d93eb7bde31c9a8",
	  "bfdd7e6f3bc55889e63c570b7a251b40b20560f775ef0c35c57b60dfacb90749", 0,
	  "e67cc83f70dc6c968ace381a6d7f12f49c31093bda85ca17a699688e28784017",
	  "4f422c141a583f24463fbb8fa310fc4ee69cff205b18533f8f2968a01596070c" },
	{ "73e16e3f855b33e3c254b4e69771386fc9c437c8c42d65baa86081117ae8a627",
	  "8a712fa962f94a2b178f68dca473d0c9cba3dca561f15addc49c218959ba13ac", 1,
	  "ac6cb5b6084945193d2782769939c96b146915b544694541c1600cd6d94903d2",
	  "bf954e7a1c32262c210aa87190f714d1e73ddf7920a4c6e93f24f4cbdddb9f06" },
	{ "450dc0013cbd5f1b99fea4170e8d66c280fb526f78d331667c43446a6d68365c",
	  "1a9acae3ea3417cda8af8ab19f734d6c259ec3ea4006cdb3808c6bbf2b3eca36", 64,
	  "cc32d0c58072e9c4032482377f155006f62c1785b46d7d39ffd347ee17abfb87",
	  "63b9469860147f4b0599b4d7d01d75a9485a797299281fc2326306bce9059308" },
	{ "db798d5c5548db3b161e1402f18ac13729e3f1a31d9c6c51bd063d7e1e41bf61",
	  "061a0000d614036d2bb229f5ee780568f50a321bc4aa5d9caa2cf989bc677c8e", 111,
	  "7b5395b2d75299ced316d1de812ae9fd256c6c3f0661f4a8ca481ee9138c4e9e",
	  "081059ab0f4e2621b14fefff91a1e145d2ed70e8b26e462e1c314c37cb8a4f0f" },
	{ "1e64e91493b28a90df952178912eca59bb24cc2ace44c783e309e925f199d284",
	  "9532cbb08991a5f314b8f39c65761e96c6cc076b04e5a1cf380ca8897902988c", 112,
	  "7ac6d339b2e1e6d658ebfb7c6acd176da131fdb1d27cbf9478a22f6eab7cfe0f",
	  "3a880ec8a7db4b1edd7ab2f13664243b929a6266fe49730f6b3c560987332a0b" },
	{ "52a06158414828f8ac00a641d96a2cc16f084609e8c23b4da08537e732f6b82f",
	  "265c09ef0e34868d3d387b4115732ea6eace39730a207978b46b52f6f0ed162a", 127,
	  "accdd12d413fead4091dd8039c1ef0d438c7731f34479d01a027d610bbfa2202",
	  "daba05b50fa968887532332254842688a9dc576fbf4d91724ab1b3484c990308" },
	{ "c0b59c9927fe819f1a21445d05e6346e6f397dbf574c410b80e0408b544722b8",
	  "1dd2a7ecc0620f495017afa1da69ef01fd5d99d962a9cafe1b2a966d5b472a0c", 128,
	  "1080efe7b71fe2485bd8aa6997bb9bd30453f5e154a60238051736c40e0a7dbb",
	  "1cce17a027e5628dd77079b33a50683191676ca4c0f9423a6b2d65a02b6b2104" },
	{ "d21f7cd197c9a6c9ca57309fabcaea6d7acfe8e1086bc62b2cc94cba69388116",
	  "f796c684d25dd32647b1d64b31b54221d2a1733c447c6b046017f0e6c1ba08e9", 129,
	  "beea1efbc699a24891230faaa95cd64f4da4fd10a341b3e12d896056af84774d",
	  "397a76e99d3627134e97e81d2e37d427443c26ada11eca0507aaeb0cad66b40d" },
	{ "3f8f014bf947318dd4c4452bf02e06f13e939ee63e33f9420bf2fe82c572385d",
	  "4e2bb2ff90d6f14a98cb4ace1d718666fa73174cfea24b591f7aa458fd0058e8", 255,
	  "fb4cda50b5481f2eb50bd7db483a7eb031f90a15e978409db81680611f16760e",
	  "85e5b1981d4f25ab4abaa0596a1a8f2988eef35e0a3ab6ea7d6add3a9c34ed06" },
	{ "ef07a2e2856607bcb21a68a8226ac3517c3e05268698f7c8d5963063864effd4",
	  "8c6f124db079594823168947cb94f9e7cc5d04093c2d876957c7550b02c4d5d8", 1023,
	  "f5102ca7883d54bb24ef30fa87bae039a04e9b2c813319f2709541f7561c2a3f",
	  "0ab1303979a258cb35cef40f681fa121ad8e2474d77cb1586db37c4372fd4703" },
};

/* Key, signature and verification of one vector; @msg given. */
static void check_vector(const char *seed_hex, const char *public_hex,
			 const u8 *msg, size_t len, const char *sig_r,
			 const char *sig_s)
{
	struct ftnl_ed25519_key key;
	u8 seed[32], public[32], want[64], sig[64];

	unhex(seed, seed_hex, 32);
	unhex(public, public_hex, 32);
	unhex2(want, sig_r, sig_s);
	ftnl_ed25519_key_from_seed(&ctx, &key, seed);
	TAP_CHECK_MEM(key.public, public, 32);
	ftnl_ed25519_sign(&ctx, sig, &key, msg, len);
	TAP_CHECK_MEM(sig, want, 64);
	TAP_CHECK(ftnl_ed25519_verify(&ctx, want, public, msg, len));
}

/* RFC 8032, 7.1: TEST 1, 2, 3 and SHA(abc). */
static void test_rfc8032(const void *arg)
{
	u8 m2 = 0x72, m3[2] = { 0xaf, 0x82 }, abc[64];

	(void)arg;
	check_vector("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
		     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
		     NULL, 0,
		     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155",
		     "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b");
	check_vector("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
		     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
		     &m2, 1,
		     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da",
		     "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00");
	check_vector("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
		     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
		     m3, 2,
		     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac",
		     "18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a");
	sha512_of(abc, "abc", 3, 3);
	check_vector("833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
		     "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
		     abc, 64,
		     "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b589",
		     "09351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704");
}

static void test_made_elsewhere(const void *arg)
{
	u8 msg[1023];
	size_t k, j;

	(void)arg;
	for (k = 0; k < ARRAY_SIZE(made_elsewhere); k++) {
		const struct vector *v = &made_elsewhere[k];

		for (j = 0; j < v->len; j++)
			msg[j] = (u8)(j * 7 + 3 + k);
		check_vector(v->seed, v->public, msg, v->len, v->sig_r,
			     v->sig_s);
	}
}

/*
 * Any single bit flipped in the signature, the message or the key makes
 * verification fail (a flipped key bit may also encode no point).
 */
static void test_every_bit(const void *arg)
{
	struct ftnl_ed25519_key key;
	u8 seed[32], msg[100], sig[64], bad[64], badmsg[100], badkey[32];
	int bit, wrong = 0;

	(void)arg;
	for (bit = 0; bit < 32; bit++)
		seed[bit] = (u8)(bit * 13 + 1);
	for (bit = 0; bit < 100; bit++)
		msg[bit] = (u8)(bit * 31);
	ftnl_ed25519_key_from_seed(&ctx, &key, seed);
	ftnl_ed25519_sign(&ctx, sig, &key, msg, sizeof(msg));
	TAP_CHECK(ftnl_ed25519_verify(&ctx, sig, key.public, msg, sizeof(msg)));
	for (bit = 0; bit < 64 * 8; bit++) {
		memcpy(bad, sig, 64);
		bad[bit / 8] ^= (u8)(1 << (bit % 8));
		wrong += ftnl_ed25519_verify(&ctx, bad, key.public, msg, sizeof(msg));
	}
	for (bit = 0; bit < 100 * 8; bit++) {
		memcpy(badmsg, msg, sizeof(msg));
		badmsg[bit / 8] ^= (u8)(1 << (bit % 8));
		wrong += ftnl_ed25519_verify(&ctx, sig, key.public, badmsg, sizeof(msg));
	}
	for (bit = 0; bit < 32 * 8; bit++) {
		memcpy(badkey, key.public, 32);
		badkey[bit / 8] ^= (u8)(1 << (bit % 8));
		wrong += ftnl_ed25519_verify(&ctx, sig, badkey, msg, sizeof(msg));
	}
	TAP_CHECK_INT(wrong, 0);
	/* One byte short or long is another message. */
	TAP_CHECK(!ftnl_ed25519_verify(&ctx, sig, key.public, msg, sizeof(msg) - 1));
}

/* Little-endian a + b over 32 bytes (no overflow here). */
static void add32(u8 *a, const u8 *b)
{
	unsigned int carry = 0;
	int i;

	for (i = 0; i < 32; i++) {
		carry += a[i] + b[i];
		a[i] = (u8)carry;
		carry >>= 8;
	}
}

/*
 * What RFC 8032 says to refuse: S + L (the same point, a second
 * signature), a key or an R whose y is not below p, and a y with no x.
 */
static void test_refused(const void *arg)
{
	static const u8 msg[3] = { 1, 2, 3 };
	struct ftnl_ed25519_key key;
	u8 seed[32] = { 7 }, sig[64], bad[64], order[32], key2[32];
	/* p = 2^255 - 19 and p + 1 (y = 0 and 1 again, unreduced). */
	u8 p[32], p1[32];
	int y;

	(void)arg;
	unhex(order, "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010", 32);
	memset(p, 0xff, 32);
	p[0] = 0xed;
	p[31] = 0x7f;
	memcpy(p1, p, 32);
	p1[0] = 0xee;
	ftnl_ed25519_key_from_seed(&ctx, &key, seed);
	ftnl_ed25519_sign(&ctx, sig, &key, msg, sizeof(msg));
	TAP_CHECK(ftnl_ed25519_verify(&ctx, sig, key.public, msg, sizeof(msg)));

	memcpy(bad, sig, 64);
	add32(bad + 32, order);
	TAP_CHECK(!ftnl_ed25519_verify(&ctx, bad, key.public, msg, sizeof(msg)));
	/* S = L exactly. */
	memcpy(bad, sig, 32);
	memcpy(bad + 32, order, 32);
	TAP_CHECK(!ftnl_ed25519_verify(&ctx, bad, key.public, msg, sizeof(msg)));

	TAP_CHECK(!ftnl_ed25519_verify(&ctx, sig, p1, msg, sizeof(msg)));
	memcpy(bad, sig, 64);
	memcpy(bad, p1, 32);
	TAP_CHECK(!ftnl_ed25519_verify(&ctx, bad, key.public, msg, sizeof(msg)));

	/* y = 2: (y^2 - 1) / (d y^2 + 1) is no square, no point. */
	memset(key2, 0, 32);
	key2[0] = 2;
	TAP_CHECK(!ftnl_ed25519_verify(&ctx, sig, key2, msg, sizeof(msg)));
	/* y = 1 with the sign bit: x = 0 cannot be negative. */
	memset(key2, 0, 32);
	key2[0] = 1;
	key2[31] = 0x80;
	TAP_CHECK(!ftnl_ed25519_verify(&ctx, sig, key2, msg, sizeof(msg)));
	/* Every y below 64 that is a point: still no valid signature. */
	for (y = 0; y < 64; y++) {
		memset(key2, 0, 32);
		key2[0] = (u8)y;
		TAP_CHECK(!ftnl_ed25519_verify(&ctx, sig, key2, msg, sizeof(msg)));
	}
}

/* Signatures of many keys and lengths verify, and only with their key. */
static void test_round_trips(const void *arg)
{
	struct ftnl_ed25519_key key, other;
	u8 seed[32], msg[300], sig[64];
	unsigned int rnd = 42;
	int k, i, ok = 0, crossed = 0;

	(void)arg;
	for (k = 0; k < 40; k++) {
		size_t len = (size_t)rand_r(&rnd) % sizeof(msg);

		for (i = 0; i < 32; i++)
			seed[i] = (u8)rand_r(&rnd);
		for (i = 0; i < (int)len; i++)
			msg[i] = (u8)rand_r(&rnd);
		ftnl_ed25519_key_from_seed(&ctx, &key, seed);
		seed[0] ^= 1;
		ftnl_ed25519_key_from_seed(&ctx, &other, seed);
		ftnl_ed25519_sign(&ctx, sig, &key, msg, len);
		ok += ftnl_ed25519_verify(&ctx, sig, key.public, msg, len);
		crossed += ftnl_ed25519_verify(&ctx, sig, other.public, msg, len);
	}
	TAP_CHECK_INT(ok, 40);
	TAP_CHECK_INT(crossed, 0);
}

int main(void)
{
	tap_add(test_sha512, NULL, "SHA-512: FIPS 180-4 examples, empty, a million 'a' in pieces");
	tap_add(test_rfc8032, NULL, "Ed25519: RFC 8032 test vectors (keys and signatures)");
	tap_add(test_made_elsewhere, NULL,
		"Ed25519: vectors from OpenSSL around SHA-512 block boundaries");
	tap_add(test_every_bit, NULL,
		"Ed25519: any bit flipped in signature, message or key fails");
	tap_add(test_refused, NULL,
		"Ed25519: S >= L, y >= p, points off the curve refused");
	tap_add(test_round_trips, NULL, "Ed25519: 40 random keys and messages round trip");
	return tap_run();
}
