// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Validate-all wire format: round trips, golden bytes, and a decoder that
 * accepts exactly what the encoder produces (input comes from sockets).
 */
#include <errno.h>
#include <string.h>

#include "era/bitmap.h"
#include "era/ulfm.h"
#include "vall/msg.h"
#include "tap.h"

#define N 100
#define WORDS ((N + 63) / 64)
#define MAXBUF 4096

static uint64_t rng_state = 0x7a11;

static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static struct era_ulfm ulfm;

static struct vall_msg random_msg(uint8_t type, uint64_t *desc, uint64_t *value)
{
	struct vall_msg m = {
		.type = type, .group = rnd64(), .id = rnd64() | 1,
		.bnum = rnd64() | 1,
	};

	if (vall_msg_has_gc(type))
		m.gc = rnd64();

	era_bitmap_zero(desc, N);
	for (uint32_t r = 0; r < N; r++)
		if (rnd64() % 4 == 0)
			era_bit_set(desc, r);
	era_ulfm_value_init(&ulfm, value, rnd64());
	for (uint32_t r = 0; r < N; r++)
		if (rnd64() % 7 == 0) {
			era_ulfm_set_failed(&ulfm, value, r);
			era_ulfm_set_acked(&ulfm, value, r);
		}
	if (vall_msg_is_bcast(type))
		m.desc = desc;
	if (vall_msg_has_value(type))
		m.value = value;
	return m;
}

static void test_round_trip(const void *arg)
{
	(void)arg;
	for (int i = 0; i < 2000; i++) {
		uint8_t type = (uint8_t)(1 + i % 8), buf[MAXBUF], buf2[MAXBUF];
		uint64_t desc[WORDS], value[ERA_ULFM_VALUE_WORDS(N)];
		uint64_t desc2[WORDS], value2[ERA_ULFM_VALUE_WORDS(N)];
		struct vall_msg m = random_msg(type, desc, value), d;
		size_t len = vall_msg_encode(&ulfm.op, N, &m, buf, sizeof(buf));
		size_t flen;

		if (!TAP_CHECK(len > 0) ||
		    !TAP_CHECK_UINT(len, vall_msg_size(&ulfm.op, N, &m)) ||
		    !TAP_CHECK_INT(vall_msg_frame(buf, 8, &flen), 0) ||
		    !TAP_CHECK_UINT(flen, len) ||
		    !TAP_CHECK_INT(vall_msg_decode(&ulfm.op, N, buf, len, &d,
						   desc2, value2), 0))
			return;
		TAP_CHECK_UINT(d.type, type);
		TAP_CHECK_UINT(d.group, m.group);
		TAP_CHECK_UINT(d.id, m.id);
		TAP_CHECK_UINT(d.bnum, m.bnum);
		TAP_CHECK_UINT(d.gc, m.gc);
		TAP_CHECK(!vall_msg_is_bcast(type) ||
			  !memcmp(desc, desc2, sizeof(desc)));
		TAP_CHECK(!vall_msg_has_value(type) ||
			  !memcmp(value, value2, ulfm.op.value_size));
		TAP_CHECK(vall_msg_is_bcast(type) || !d.desc);
		TAP_CHECK(vall_msg_has_value(type) || !d.value);
		TAP_CHECK_UINT(vall_msg_encode(&ulfm.op, N, &d, buf2,
					       sizeof(buf2)), len);
		if (!TAP_CHECK(!memcmp(buf, buf2, len)))
			return;
		/* Every truncation is refused; a short buffer encodes 0. */
		for (size_t l = 0; l < len; l++)
			if (!TAP_CHECK(vall_msg_decode(&ulfm.op, N, buf, l, &d,
						       desc2, value2)))
				return;
		TAP_CHECK_UINT(vall_msg_encode(&ulfm.op, N, &m, buf2, len - 1),
			       0);
	}
}

/*
 * A COMMIT_BCAST of group 1, op 2, bnum 3, descendants {5, 7}, gc 4,
 * flag 9.
 */
static void test_golden(const void *arg)
{
	static const uint8_t want[] = {
		0x56, 0x41, 1, 2, 53, 0, 0, 0,
		1, 0, 0, 0, 0, 0, 0, 0,
		2, 0, 0, 0, 0, 0, 0, 0,
		3, 0, 0, 0, 0, 0, 0, 0,
		2, 5, 1,			/* count, 5, gap 1 -> 7 */
		4, 0, 0, 0, 0, 0, 0, 0,		/* gc */
		9, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* flag; no failed; acked: all */
	};
	static const uint8_t nak[] = {
		0x56, 0x41, 1, 7, 32, 0, 0, 0,
		1, 0, 0, 0, 0, 0, 0, 0,
		2, 0, 0, 0, 0, 0, 0, 0,
		3, 0, 0, 0, 0, 0, 0, 0,
	};
	uint64_t desc[WORDS] = { 0 }, value[ERA_ULFM_VALUE_WORDS(N)];
	uint8_t buf[MAXBUF];
	struct vall_msg m = {
		.type = VALL_MSG_COMMIT_BCAST, .group = 1, .id = 2, .bnum = 3,
		.gc = 4, .desc = desc, .value = value,
	};

	(void)arg;
	era_bit_set(desc, 5);
	era_bit_set(desc, 7);
	ulfm.op.identity(&ulfm.op, value);
	*value = 9;
	TAP_CHECK_UINT(vall_msg_encode(&ulfm.op, N, &m, buf, sizeof(buf)),
		       sizeof(want));
	TAP_CHECK_MEM(buf, want, sizeof(want));
	m = (struct vall_msg){ .type = VALL_MSG_NAK, .group = 1, .id = 2,
			       .bnum = 3 };
	TAP_CHECK_UINT(vall_msg_encode(&ulfm.op, N, &m, buf, sizeof(buf)),
		       sizeof(nak));
	TAP_CHECK_MEM(buf, nak, sizeof(nak));
}

static int decode(const uint8_t *buf, size_t len)
{
	uint64_t desc[WORDS], value[ERA_ULFM_VALUE_WORDS(N)];
	struct vall_msg d;

	return vall_msg_decode(&ulfm.op, N, buf, len, &d, desc, value);
}

/* Hand-made malformations, each refused with the right error. */
static void test_malformed(const void *arg)
{
	uint8_t base[] = {
		0x56, 0x41, 1, 3, 35, 0, 0, 0,		/* ALL_COMMIT */
		1, 0, 0, 0, 0, 0, 0, 0,
		2, 0, 0, 0, 0, 0, 0, 0,
		3, 0, 0, 0, 0, 0, 0, 0,
		2, 5, 1,
	};
	uint8_t b[sizeof(base) + 4];

	(void)arg;
	TAP_CHECK_INT(decode(base, sizeof(base)), 0);
#define MUTATE(off, val, err) do {					\
		memcpy(b, base, sizeof(base));				\
		b[off] = (val);						\
		TAP_CHECK_INT(decode(b, sizeof(base)), err);		\
	} while (0)
	MUTATE(0, 0x45, -EBADMSG);		/* ERA's magic */
	MUTATE(2, 2, -EPROTONOSUPPORT);
	MUTATE(3, 0, -EBADMSG);
	MUTATE(3, 9, -EBADMSG);
	MUTATE(3, 7, -EBADMSG);			/* NAK is exactly 32 bytes */
	MUTATE(4, 36, -EBADMSG);		/* length is not the buffer's */
	MUTATE(16, 0, -EBADMSG);		/* operation 0 */
	MUTATE(24, 0, -EBADMSG);		/* broadcast number 0 */
	MUTATE(32, 3, -EBADMSG);		/* a third rank is missing */
	MUTATE(32, 101, -EBADMSG);		/* more ranks than the group */
	MUTATE(33, 100, -EBADMSG);		/* rank out of range */
	MUTATE(34, 0x81, -EBADMSG);		/* varint runs off the end */
	/* a non-minimal varint: 5 as 0x85 0x00 */
	memcpy(b, base, sizeof(base));
	b[4] = 36;
	b[33] = 0x85;
	b[34] = 0;
	b[35] = 1;
	TAP_CHECK_INT(decode(b, 36), -EBADMSG);
	/* a trailing byte */
	memcpy(b, base, sizeof(base));
	b[4] = 36;
	b[35] = 0;
	TAP_CHECK_INT(decode(b, 36), -EBADMSG);
	/* a COMMIT_BCAST cut inside its gc */
	memcpy(b, base, sizeof(base));
	b[3] = VALL_MSG_COMMIT_BCAST;
	TAP_CHECK_INT(decode(b, sizeof(base)), -EBADMSG);
	/* a ballot without its value */
	memcpy(b, base, sizeof(base));
	b[3] = VALL_MSG_BALLOT_BCAST;
	TAP_CHECK_INT(decode(b, sizeof(base)), -EBADMSG);
#undef MUTATE
}

/* Random corruption: refused, or decodes to what re-encodes the same. */
static void test_fuzz(const void *arg)
{
	uint64_t refused = 0, accepted = 0;

	(void)arg;
	for (int i = 0; i < 100000; i++) {
		uint8_t buf[MAXBUF], buf2[MAXBUF];
		uint64_t desc[WORDS], value[ERA_ULFM_VALUE_WORDS(N)];
		uint64_t desc2[WORDS], value2[ERA_ULFM_VALUE_WORDS(N)];
		struct vall_msg m = random_msg((uint8_t)(1 + rnd64() % 8), desc,
					       value), d;
		size_t len = vall_msg_encode(&ulfm.op, N, &m, buf, sizeof(buf));

		for (int k = 0, flips = 1 + (int)(rnd64() % 3); k < flips; k++)
			buf[8 + rnd64() % (len - 8)] ^= (uint8_t)(1 + rnd64() % 255);
		if (vall_msg_decode(&ulfm.op, N, buf, len, &d, desc2, value2)) {
			refused++;
			continue;
		}
		accepted++;
		if (!TAP_CHECK_UINT(vall_msg_encode(&ulfm.op, N, &d, buf2,
						    sizeof(buf2)), len) ||
		    !TAP_CHECK(!memcmp(buf, buf2, len)))
			return;
	}
	tap_diag("%" PRIu64 " refused, %" PRIu64 " accepted and canonical",
		 refused, accepted);
}

int main(void)
{
	era_ulfm_init(&ulfm, N);
	tap_add(test_round_trip, NULL, "every type round-trips, byte for "
		"byte; every truncation is refused");
	tap_add(test_golden, NULL, "golden bytes: COMMIT_BCAST and NAK");
	tap_add(test_malformed, NULL, "malformed messages are refused");
	tap_add(test_fuzz, NULL, "100,000 corrupted messages: refused or "
		"canonical");
	return tap_run();
}
