// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fuzz target: the radix-tree membership messages (libftnl/radix/msg.c)
 * as a group's TCP stream carries them, framed by radix_msg_frame() and
 * decoded into an inbox whose capacity (the group's id space) bounds the
 * ids a message may name.
 *
 * Input: the capacity (be16 + 1), then the stream's bytes.
 *
 * Properties: no crash, leak or undefined behaviour; framing never claims
 * a length below the header or above the maximum; a message that decodes
 * re-encodes to exactly its bytes (the decoder accepts nothing but
 * encodings) and its size is what radix_msg_size() says.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "radix/msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct radix_inbox inbox;
	uint8_t *again = NULL;
	size_t len;
	int err;

	if (size < 2)
		return 0;
	if (radix_inbox_init(&inbox, (uint32_t)fuzz_u16(&in) + 1))
		return 0;
	while (in.left) {
		err = radix_msg_frame(in.p, in.left, &len);
		if (err == -EAGAIN) {
			FUZZ_CHECK(in.left < RADIX_MSG_PREFIX_LEN);
			break;
		}
		if (err)
			break;
		FUZZ_CHECK(len >= RADIX_MSG_HEADER_LEN &&
			   len <= RADIX_MSG_MAX_LEN);
		if (len > in.left)
			break;
		if (!radix_msg_decode(in.p, len, &inbox)) {
			FUZZ_CHECK(radix_msg_size(&inbox.msg) == len);
			again = realloc(again, len);
			FUZZ_CHECK(again);
			FUZZ_CHECK(radix_msg_encode(&inbox.msg, again, len) ==
				   len);
			FUZZ_CHECK(!memcmp(again, in.p, len));
		}
		in.p += len;
		in.left -= len;
	}
	free(again);
	radix_inbox_free(&inbox);
	return 0;
}
