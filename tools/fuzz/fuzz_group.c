// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fuzz target: the engine messages of libftnl's process groups, as the
 * group transport's TCP stream carries them: ERA messages
 * (libftnl/era/msg.c) and validate-all messages (libftnl/vall/msg.c),
 * both with the ULFM value (libftnl/era/ulfm.c), told apart by their
 * magic the way grp_msg_frame() (libftnl/group/transport.c) does.
 *
 * Input: the group size (be16 + 1), then the stream's bytes.
 *
 * Properties: no crash or undefined behaviour; framing never claims a
 * length below a header or above the maximum; a frame that decodes
 * re-encodes to exactly its bytes (each decoder accepts nothing but
 * encodings).
 */
#include <errno.h>
#include <string.h>

#include "fuzz.h"
#include "era/msg.h"
#include "era/ulfm.h"
#include "vall/msg.h"

#define MAX_RANKS	65536

/* One frame of ERA; 0, or -1 when the stream cannot go on. */
static int era_frame(const struct era_ulfm *ulfm, struct fuzz_in *in)
{
	static uint64_t value[ERA_ULFM_VALUE_WORDS(MAX_RANKS)];
	static uint8_t again[ERA_MSG_VALUE_OFF + sizeof(value)];
	struct era_msg msg;
	size_t len;

	if (era_msg_frame(in->p, in->left, &len))
		return -1;
	FUZZ_CHECK(len >= ERA_MSG_REQUEST_LEN && len <= ERA_MSG_MAX_LEN);
	if (len > in->left)
		return -1;
	if (!era_msg_decode(&ulfm->op, in->p, len, &msg, value)) {
		FUZZ_CHECK(era_msg_size(&ulfm->op, &msg) == len);
		FUZZ_CHECK(era_msg_encode(&ulfm->op, &msg, again,
					  sizeof(again)) == len);
		FUZZ_CHECK(!memcmp(again, in->p, len));
	}
	in->p += len;
	in->left -= len;
	return 0;
}

static int vall_frame(const struct era_ulfm *ulfm, struct fuzz_in *in)
{
	static uint64_t value[ERA_ULFM_VALUE_WORDS(MAX_RANKS)];
	static uint64_t desc[MAX_RANKS / 64];
	static uint8_t again[VALL_MSG_HEADER_LEN + 5 * MAX_RANKS + 8 +
			     sizeof(value)];
	struct vall_msg msg;
	size_t len;

	if (vall_msg_frame(in->p, in->left, &len))
		return -1;
	FUZZ_CHECK(len >= VALL_MSG_HEADER_LEN && len <= VALL_MSG_MAX_LEN);
	if (len > in->left)
		return -1;
	if (!vall_msg_decode(&ulfm->op, ulfm->nranks, in->p, len, &msg, desc,
			     value)) {
		FUZZ_CHECK(vall_msg_size(&ulfm->op, ulfm->nranks, &msg) == len);
		FUZZ_CHECK(vall_msg_encode(&ulfm->op, ulfm->nranks, &msg, again,
					   sizeof(again)) == len);
		FUZZ_CHECK(!memcmp(again, in->p, len));
	}
	in->p += len;
	in->left -= len;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct era_ulfm ulfm;
	size_t len;
	int err;

	if (size < 2)
		return 0;
	era_ulfm_init(&ulfm, (uint32_t)fuzz_u16(&in) + 1);

	/*
	 * Frame after frame, as the transport's stream reader does, by the
	 * magic's first byte (grp_msg_frame(): 'V' is validate-all's).
	 */
	while (in.left) {
		bool vall = in.p[0] == 'V';

		err = vall ? vall_msg_frame(in.p, in.left, &len) :
			     era_msg_frame(in.p, in.left, &len);
		if (err == -EAGAIN) {
			FUZZ_CHECK(in.left < ERA_MSG_PREFIX_LEN);
			break;
		}
		if (vall ? vall_frame(&ulfm, &in) : era_frame(&ulfm, &in))
			break;
	}
	return 0;
}
