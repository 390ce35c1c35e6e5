// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fuzz target: the messages of libftnl's process groups, as the group
 * transport's TCP stream carries them: ERA messages (libftnl/era/msg.c)
 * and validate-all messages (libftnl/vall/msg.c), both with the group's
 * value - ULFM's (libftnl/era/ulfm.c) plus the joiners
 * (libftnl/group/joinop.c) - and the join protocol's JOIN and WELCOME
 * (libftnl/group/joinmsg.c), told apart by their magic the way
 * grp_msg_frame() (libftnl/group/transport.c) does.
 *
 * Input: the group size (be16 + 1), then the stream's bytes; the world
 * is the group size + 16.
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
#include "group/joinmsg.h"
#include "group/joinop.h"
#include "vall/msg.h"

#define MAX_RANKS	65536

/* The value of a group of MAX_RANKS, joiners included. */
#define VALUE_WORDS	(ERA_ULFM_VALUE_WORDS(MAX_RANKS) + 1 + 2 * GRP_JOIN_SLOTS)

/* One frame of ERA; 0, or -1 when the stream cannot go on. */
static int era_frame(const struct grp_join_op *ulfm, struct fuzz_in *in)
{
	static uint64_t value[VALUE_WORDS];
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

static int vall_frame(const struct grp_join_op *ulfm, struct fuzz_in *in)
{
	static uint64_t value[VALUE_WORDS];
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
	if (!vall_msg_decode(&ulfm->op, ulfm->ulfm.nranks, in->p, len, &msg,
			     desc, value)) {
		FUZZ_CHECK(vall_msg_size(&ulfm->op, ulfm->ulfm.nranks, &msg) ==
			   len);
		FUZZ_CHECK(vall_msg_encode(&ulfm->op, ulfm->ulfm.nranks, &msg,
					   again, sizeof(again)) == len);
		FUZZ_CHECK(!memcmp(again, in->p, len));
	}
	in->p += len;
	in->left -= len;
	return 0;
}

/* One JOIN or WELCOME. */
static int join_frame(const struct grp_join_op *jop, struct fuzz_in *in)
{
	static uint32_t members[MAX_RANKS + 16], incs[MAX_RANKS + 16];
	static uint8_t again[GRP_WELCOME_HDR_LEN + 8 * (MAX_RANKS + 16)];
	struct grp_join_msg msg = { .members = members, .incs = incs };
	size_t len;

	if (grp_join_msg_frame(in->p, in->left, &len))
		return -1;
	FUZZ_CHECK(len >= GRP_JOIN_LEN);
	if (len > in->left)
		return -1;
	if (!grp_join_msg_decode(in->p, len, jop->world, &msg)) {
		FUZZ_CHECK(grp_join_msg_size(&msg) == len);
		FUZZ_CHECK(grp_join_msg_encode(&msg, again, sizeof(again)) ==
			   len);
		FUZZ_CHECK(!memcmp(again, in->p, len));
	}
	in->p += len;
	in->left -= len;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	static struct grp_join_op ulfm;
	size_t len;
	int err;

	if (size < 2)
		return 0;
	{
		uint32_t n = (uint32_t)fuzz_u16(&in) + 1;

		grp_join_op_init(&ulfm, n, n + 16);
	}

	/*
	 * Frame after frame, as the transport's stream reader does, by the
	 * magic's first byte (grp_msg_frame(): 'V' is validate-all's, 'G'
	 * the join protocol's).
	 */
	while (in.left) {
		char magic = (char)in.p[0];

		err = magic == 'V' ? vall_msg_frame(in.p, in.left, &len) :
		      magic == GRP_JOIN_MAGIC0 ?
		      grp_join_msg_frame(in.p, in.left, &len) :
		      era_msg_frame(in.p, in.left, &len);
		if (err == -EAGAIN) {
			FUZZ_CHECK(in.left < ERA_MSG_PREFIX_LEN);
			break;
		}
		if (magic == 'V' ? vall_frame(&ulfm, &in) :
		    magic == GRP_JOIN_MAGIC0 ? join_frame(&ulfm, &in) :
		    era_frame(&ulfm, &in))
			break;
	}
	return 0;
}
